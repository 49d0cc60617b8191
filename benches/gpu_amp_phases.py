# Where a training step's time goes on the GPU, phase by phase, under cudalearn and PyTorch alike
# (benches/gpu_side_by_side.sh runs both): forward, backward, optimizer step and scaler update of
# the 4096x3 MLP in float32 and with AMP, then the single ops an AMP step is made of. Each row is
# the mean of n runs between two synchronizes, so a phase's time includes its launches.
import time
import torch
import torch.nn as nn

dev = 'cuda'


def timed(f, n):
    f()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(n):
        f()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / n


def row(name, seconds):
    print(f"{name:<44} {seconds * 1e3:>9.3f} ms")


for amp in [False, True]:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.ReLU(),
                          nn.Linear(4096, 10)).to(dev)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(enabled=amp)
    xb = torch.randn(4096, 4096).to(dev)
    yb = torch.randint(0, 10, (4096,)).to(dev)
    loss_fn = nn.CrossEntropyLoss()
    tag = "AMP f16" if amp else "f32"
    fwd_t = bwd_t = step_t = upd_t = 0.0
    n = 10
    for i in range(n + 1):
        opt.zero_grad()
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        with torch.autocast(dev, dtype=torch.float16, enabled=amp):
            loss = loss_fn(model(xb), yb)
        torch.cuda.synchronize()
        t1 = time.perf_counter()
        scaler.scale(loss).backward()
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        scaler.step(opt)
        torch.cuda.synchronize()
        t3 = time.perf_counter()
        scaler.update()
        torch.cuda.synchronize()
        t4 = time.perf_counter()
        if i > 0:
            fwd_t += t1 - t0
            bwd_t += t2 - t1
            step_t += t3 - t2
            upd_t += t4 - t3
    row(f"{tag}: forward", fwd_t / n)
    row(f"{tag}: backward", bwd_t / n)
    row(f"{tag}: scaler.step(opt)", step_t / n)
    row(f"{tag}: scaler.update()", upd_t / n)

a = torch.randn(4096, 4096, device=dev)
b = torch.randn(4096, 4096, device=dev)
h = a.half()
g = b.half()
row("cast f32 -> f16, 4096^2", timed(lambda: a.half(), 20))
row("mm f16 a @ b", timed(lambda: h @ g, 20))
row("mm f16 a.t() @ b", timed(lambda: h.t() @ g, 20))
row("mm f16 a @ b.t()", timed(lambda: h @ g.t(), 20))
row("F.linear f16 with bias", timed(lambda: torch.nn.functional.linear(h, g, h[0]), 20))
row("relu f16", timed(lambda: torch.relu(h), 20))
row("sum(0) f16", timed(lambda: h.sum(0), 20))
with torch.autocast(dev, dtype=torch.float16):
    row("autocast F.linear f32 weight", timed(lambda: torch.nn.functional.linear(a, b), 20))
row("a.t().contiguous(), f32 4096^2", timed(lambda: a.t().contiguous(), 20))
row("a + a[0] (row broadcast), f32 4096^2", timed(lambda: a + a[0], 20))
