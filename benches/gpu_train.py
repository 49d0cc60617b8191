# GPU throughput of whole training steps and of one small op, written so that it runs unchanged
# under cudalearn and under real PyTorch on the same card (benches/gpu_side_by_side.sh runs both,
# interleaved). Rows print as `cudalearn bench` prints them: name, value, unit. The last loss of
# each model's first and last steps are printed too, so the two runs can be seen to compute the same thing.
import time
import torch
import torch.nn as nn

dev = 'cuda' if torch.cuda.is_available() else 'cpu'


def timed(f, n):
    f()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(n):
        f()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / n


def row(name, value, unit):
    print(f"{name:<42} {value:>10.2f} {unit}")


x = torch.ones(10, device=dev)
y = torch.ones(10, device=dev)


def small_add():
    x + y


row("per-op z = x + y on the GPU (10 floats)", timed(small_add, 2000) * 1e6, "us")


def trainer(sizes, batch, amp):
    torch.manual_seed(0)
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    model = nn.Sequential(*layers).to(dev)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(enabled=amp)
    xb = torch.randn(batch, sizes[0]).to(dev)
    yb = torch.randint(0, sizes[-1], (batch,)).to(dev)
    loss_fn = nn.CrossEntropyLoss()
    last = []

    def step():
        opt.zero_grad()
        with torch.autocast(dev, dtype=torch.float16, enabled=amp):
            loss = loss_fn(model(xb), yb)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        last.append(loss)

    return step, last


for name, sizes, batch, amp, n in [
    ("MLP 784-512-512-10 b128 Adam step", [784, 512, 512, 10], 128, False, 200),
    ("MLP 4096x3 b4096 Adam step", [4096, 4096, 4096, 10], 4096, False, 20),
    ("MLP 4096x3 b4096 Adam step, AMP f16", [4096, 4096, 4096, 10], 4096, True, 20),
]:
    step, last = trainer(sizes, batch, amp)
    s = timed(step, n)
    row(name, s * 1e3, "ms")
    print(f"  loss at the first step {last[0].item():.4f}, after {n + 1} steps {last[-1].item():.4f}")
