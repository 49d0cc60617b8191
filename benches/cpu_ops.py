# The engine's per-op benchmarks, one script for both sides so the rows are the same code:
#   cudalearn bench --cpu                       runs it in cudalearn's interpreter;
#   $(../shared/tools/torch-golden --python) benches/pytorch_cpu.py   runs it on PyTorch.
# Each row is the median time of one statement (a loop of `reps` runs of it, 11 times, after a
# warm-up), in microseconds; ratio = PyTorch's time / cudalearn's time. (Five batches of two
# runs left rows of 1e7 floats to a few milliseconds of a shared machine's memory bandwidth:
# their ratios swung 0.5-1.5 between pairs.)
import time
import torch
import torch.nn as nn
import torch.nn.functional as F

try:
    from cudalearn.datasets import load_digits
except ImportError:
    load_digits = None


def median_us(f, reps):
    f()
    ts = []
    for _ in range(11):
        t = time.perf_counter()
        for _ in range(reps):
            f()
        ts.append((time.perf_counter() - t) / reps)
    ts.sort()
    return ts[5] * 1e6


def reps_for(n):
    if n <= 10_000:
        return 200
    if n <= 100_000:
        return 50
    if n <= 1_000_000:
        return 10
    return 2


def row(name, us):
    print(f"{name:<42} {us:>10.1f} us")


def filled(n):
    return torch.arange(n, dtype=torch.float32) * 0.001 % 1.0


torch.manual_seed(0)
for n in (10_000, 100_000, 1_000_000, 10_000_000):
    a = filled(n)
    b = filled(n) + 0.5
    r = reps_for(n)
    row(f"add {n}", median_us(lambda: a + b, r))
    row(f"mul {n}", median_us(lambda: a * b, r))
    row(f"div {n}", median_us(lambda: a / b, r))
    row(f"exp {n}", median_us(lambda: torch.exp(a), r))
    row(f"log {n}", median_us(lambda: torch.log(b), r))
    row(f"tanh {n}", median_us(lambda: torch.tanh(a), r))
    row(f"sigmoid {n}", median_us(lambda: torch.sigmoid(a), r))
for n in (100_000, 1_000_000, 10_000_000):
    a = filled(n)
    m = a.reshape(n // 1000, 1000)
    r = reps_for(n)
    row(f"sum {n}", median_us(lambda: a.sum(), r))
    row(f"mean {n}", median_us(lambda: a.mean(), r))
    row(f"max {n}", median_us(lambda: a.max(), r))
    row(f"sum dim=1 {n // 1000}x1000", median_us(lambda: m.sum(dim=1), r))
    row(f"mean dim=1 {n // 1000}x1000", median_us(lambda: m.mean(dim=1), r))
    row(f"max dim=1 {n // 1000}x1000", median_us(lambda: m.max(dim=1), r))
    row(f"sum dim=0 {n // 1000}x1000", median_us(lambda: m.sum(dim=0), r))

# the same million floats as many short rows (logits over ten classes), rows of a hundred, and
# tall thin columns
a = filled(1_000_000)
for (h, w) in ((100_000, 10), (10_000, 100)):
    m = a.reshape(h, w)
    row(f"sum dim=1 {h}x{w}", median_us(lambda: m.sum(dim=1), 20))
    row(f"sum dim=0 {h}x{w}", median_us(lambda: m.sum(dim=0), 20))
    row(f"amax dim=1 {h}x{w}", median_us(lambda: m.amax(dim=1), 20))
    row(f"amax dim=0 {h}x{w}", median_us(lambda: m.amax(dim=0), 20))
    row(f"max dim=1 {h}x{w}", median_us(lambda: m.max(dim=1), 20))
    row(f"argmax dim=1 {h}x{w}", median_us(lambda: m.argmax(dim=1), 20))
row("amax dim=0 1000x1000", median_us(lambda: a.reshape(1000, 1000).amax(dim=0), 20))
m = a.reshape(10_000, 100)
row("logsumexp dim=1 10000x100", median_us(lambda: m.logsumexp(dim=1), 20))
row("norm dim=1 10000x100", median_us(lambda: m.norm(dim=1), 20))

x = torch.randn(4096, 1024)
target = torch.randint(0, 1024, (4096,))
row("softmax 4096x1024", median_us(lambda: torch.softmax(x, dim=1), 3))
row("log_softmax 4096x1024", median_us(lambda: F.log_softmax(x, dim=1), 3))
row("cross_entropy 4096x1024", median_us(lambda: F.cross_entropy(x, target), 3))
xg = x.clone().requires_grad_()
g = torch.randn(4096, 1024)
for label, f in (("softmax", torch.softmax), ("log_softmax", F.log_softmax)):
    y = f(xg, dim=1)
    row(f"{label} backward 4096x1024", median_us(lambda: torch.autograd.grad(y, xg, g, retain_graph=True), 3))
# softmax over a dim that is not the last: down the columns of a matrix, the middle of a 3-D
# tensor, and their gradients
for shape, dim in (((10_000, 100), 0), ((64, 128, 32), 1)):
    name = "x".join(map(str, shape)) + f" dim={dim}"
    t = torch.randn(*shape, requires_grad=True)
    g = torch.randn(*shape)
    for label, f in (("softmax", torch.softmax), ("log_softmax", F.log_softmax)):
        row(f"{label} {name}", median_us(lambda: f(t.detach(), dim=dim), 10))
        y = f(t, dim=dim)
        row(f"{label} backward {name}", median_us(lambda: torch.autograd.grad(y, t, g, retain_graph=True), 10))

# activations beyond the four above, torch.where, and the half types (the AMP lessons' dtypes):
# their arithmetic, exponentials, sums and casts
a, c = filled(1_000_000) - 0.5, filled(1_000_000)
h16, bf16 = a.half(), a.bfloat16()
row("silu 1000000", median_us(lambda: F.silu(a), 10))
row("leaky_relu 1000000", median_us(lambda: F.leaky_relu(a), 10))
row("where 1000000", median_us(lambda: torch.where(a > 0, a, c), 10))
row("clamp 1000000", median_us(lambda: a.clamp(-0.25, 0.25), 10))
for label, t in (("float16", h16), ("bfloat16", bf16)):
    row(f"{label} add 1000000", median_us(lambda: t + t, 10))
    row(f"{label} exp 1000000", median_us(lambda: t.exp(), 10))
    row(f"{label} sum 1000000", median_us(lambda: t.sum(), 10))
    row(f"{label} to float32 1000000", median_us(lambda: t.float(), 10))
    row(f"float32 to {label} 1000000", median_us(lambda: a.to(t.dtype), 10))

for (h, w) in ((512, 784), (4096, 4096)):
    t = torch.randn(h, w)
    r = 20 if h < 1000 else 2
    row(f"transpose+contiguous {h}x{w}", median_us(lambda: t.t().contiguous(), r))
    row(f"clone {h}x{w}", median_us(lambda: t.clone(), r))
    row(f"clone of transposed {h}x{w}", median_us(lambda: t.t().clone(), r))

# convolution and pooling (im2col and the matmul; the CNN step below trains through them)
img, cw = torch.randn(32, 16, 32, 32), torch.randn(32, 16, 3, 3)
row("conv2d 32x16x32x32, 32 3x3 filters", median_us(lambda: F.conv2d(img, cw, padding=1), 2))
row("max_pool2d 32x16x32x32", median_us(lambda: F.max_pool2d(img, 2), 5))

row("randn 4096x4096", median_us(lambda: torch.randn(4096, 4096), 1))
row("rand 4096x4096", median_us(lambda: torch.rand(4096, 4096), 1))


def train_step_us(model, xb, yb, reps):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def step():
        opt.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()

    return median_us(step, reps)


mlp = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
row("MLP 784-512-512-10 Adam step, batch 128",
    train_step_us(mlp, torch.randn(128, 784), torch.randint(0, 10, (128,)), 10))
cnn = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                    nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                    nn.Flatten(), nn.Linear(32 * 7 * 7, 10))
row("CNN 1-16-32 Adam step, batch 64 of 28x28",
    train_step_us(cnn, torch.randn(64, 1, 28, 28), torch.randint(0, 10, (64,)), 2))
if load_digits is not None:
    X, y = load_digits()
    digits = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
    row("digits MLP 64-128-10 Adam step, batch 64",
        train_step_us(digits, X[:64] / 16.0, y[:64], 100))
