# The rows of benches/cpu_ops.py whose ratio sits near 1, timed for a robust side-by-side:
# each row is 15 batches in one process, and the script reports the best batch and the
# median one (microseconds per op). benches/compare_rows.sh alternates PyTorch and cudalearn
# processes on it, so slow drifts of a shared machine hit both sides alike.
import time
import torch
import torch.nn.functional as F
def filled(n):
    return torch.arange(n, dtype=torch.float32) * 0.001 % 1.0
a6 = filled(1_000_000); b6 = filled(1_000_000) + 0.5
a7 = filled(10_000_000)
a4 = filled(10_000)
a5 = filled(100_000)
m3 = filled(1_000_000).reshape(1000, 1000)
m4 = a7.reshape(10000, 1000)
tall = a6.reshape(100000, 10)
m100 = a6.reshape(10000, 100)
torch.manual_seed(0)
x = torch.randn(4096, 1024)
target = torch.randint(0, 1024, (4096,))
xs = torch.randn(4096, 1024, requires_grad=True)
ys = torch.softmax(xs, dim=1)
yl = F.log_softmax(xs, dim=1)
s784 = filled(512 * 784).reshape(512, 784)
s256 = filled(65536).reshape(256, 256)
x3 = torch.randn(64, 128, 32)
w100 = torch.randn(10000, 100, requires_grad=True)
g100 = torch.randn(10000, 100)
y100 = torch.softmax(w100, dim=0)
rows = [
    ("add 1e6", lambda: a6 + b6, 10),
    ("mul 1e6", lambda: a6 * b6, 10),
    ("div 1e6", lambda: a6 / b6, 10),
    ("add 1e5", lambda: a5 + a5, 50),
    ("mul 1e5", lambda: a5 * a5, 50),
    ("div 1e5", lambda: a5 / a5, 50),
    ("clone 512x784", lambda: s784.clone(), 50),
    ("exp 1e6", lambda: torch.exp(a6), 5),
    ("exp 1e5", lambda: torch.exp(a5), 50),
    ("log 1e5", lambda: torch.log(a5), 50),
    ("log 1e6", lambda: torch.log(a6), 5),
    ("tanh 1e4", lambda: torch.tanh(a4), 200),
    ("tanh 1e5", lambda: torch.tanh(a5), 50),
    ("tanh 1e6", lambda: torch.tanh(a6), 5),
    ("sigmoid 1e6", lambda: torch.sigmoid(a6), 5),
    ("sigmoid 1e4", lambda: torch.sigmoid(a4), 200),
    ("sum 1e7", lambda: a7.sum(), 5),
    ("mean 1e7", lambda: a7.mean(), 5),
    ("max 1e7", lambda: a7.max(), 5),
    ("sum d1 1000", lambda: m3.sum(dim=1), 20),
    ("sum d0 1000", lambda: m3.sum(dim=0), 20),
    ("sum d1 10000", lambda: m4.sum(dim=1), 5),
    ("mean d1 10000", lambda: m4.mean(dim=1), 5),
    ("sum d0 10000", lambda: m4.sum(dim=0), 5),
    ("sum d1 1e5x10", lambda: tall.sum(dim=1), 10),
    ("sum d0 1e5x10", lambda: tall.sum(dim=0), 10),
    ("amax d1 1e4x100", lambda: m100.amax(dim=1), 10),
    ("max d1 1e4x100", lambda: m100.max(dim=1), 10),
    ("argmax d1 1e5x10", lambda: tall.argmax(dim=1), 10),
    ("logsumexp 1e4x100", lambda: m100.logsumexp(dim=1), 10),
    ("norm d1 1e4x100", lambda: m100.norm(dim=1), 10),
    ("softmax d0 1e4x100", lambda: torch.softmax(m100, dim=0), 10),
    ("lsm d0 1e4x100", lambda: F.log_softmax(m100, dim=0), 10),
    ("softmax d1 3-D", lambda: torch.softmax(x3, dim=1), 20),
    ("sm d0 backward", lambda: torch.autograd.grad(y100, w100, g100, retain_graph=True), 10),
    ("softmax", lambda: torch.softmax(x, dim=1), 5),
    ("log_softmax", lambda: F.log_softmax(x, dim=1), 5),
    ("cross_entropy", lambda: F.cross_entropy(x, target), 5),
    ("softmax bwd", lambda: torch.autograd.grad(ys, xs, x, retain_graph=True), 5),
    ("log_softmax bwd", lambda: torch.autograd.grad(yl, xs, x, retain_graph=True), 5),
    ("matmul 256", lambda: s256 @ s256, 20),
]
# --- the timing loop (benches/compare_lockstep.sh replaces what follows with its own) ---
for name, fn, reps in rows:
    fn()
    ts = []
    for k in range(15):
        t = time.perf_counter()
        for _ in range(reps):
            fn()
        ts.append((time.perf_counter() - t) / reps)
    ts.sort()
    print("%s|%.1f|%.1f" % (name, ts[0] * 1e6, ts[7] * 1e6))
