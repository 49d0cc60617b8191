"""The same measurements as src/bench.rs (`cudalearn bench --cpu`), on PyTorch:
    $(../shared/tools/torch-golden --python) benches/pytorch_cpu.py
The per-op rows are benches/cpu_ops.py, the very script cudalearn runs."""
import os
import sys
import time
import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def median_time(runs, f):
    f()
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2]


def filled(n, shape):
    return (torch.arange(n, dtype=torch.float64) * 7919 % 1000 / 1000).float().reshape(shape)


print(f"PyTorch {torch.__version__}, {torch.get_num_threads()} threads")
for n in (256, 1024):
    a, b = filled(n * n, (n, n)), filled(n * n, (n, n))
    t = median_time(7 if n >= 1024 else 31, lambda: a @ b)
    print(f"{'matmul f32 %dx%d' % (n, n):<42} {2 * n ** 3 / t / 1e9:>10.2f} GFLOP/s")
n = 10_000_000
a, b = filled(n, (n,)), filled(n, (n,))
t = median_time(11, lambda: a + b)
print(f"{'add f32, 10M elements':<42} {n / t / 1e6:>10.2f} M elem/s")
N = 200_000
x, y = torch.ones(10), torch.ones(10)


def with_op():
    for i in range(N):
        z = x + y


def without():
    for i in range(N):
        z = x


t1, t0 = median_time(5, with_op), median_time(5, without)
print(f"{'z = x + y (10 elems), loop iteration':<42} {t1 / N * 1e6:>10.2f} us")
print(f"{'z = x + y (10 elems), op alone':<42} {(t1 - t0) / N * 1e6:>10.2f} us")

# The digits dataset through the plain-Python stand-in that reads the same asset file.
sys.path.insert(0, os.path.join(HERE, '..', 'tests', 'golden', 'shim'))
with open(os.path.join(HERE, 'cpu_ops.py')) as f:
    exec(compile(f.read(), 'benches/cpu_ops.py', 'exec'), {'__name__': '__main__'})
