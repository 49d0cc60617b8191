"""The GPU measurements of `cudalearn bench` (src/backend/cuda/bench.rs), on PyTorch and the same
GPU: run both in one session (benches/gpu_side_by_side.sh) and compare line by line."""
import subprocess
import sys
import time
import torch


def gpu_time(runs, f):
    f()
    torch.cuda.synchronize()
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        torch.cuda.synchronize()
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2]


def row(name, value, unit):
    print(f"{name:<42} {value:>10.2f} {unit}")


print(f"GPU: {torch.cuda.get_device_name(0)} (PyTorch {torch.__version__})")
script = "import torch\nx = torch.ones(4, device='cuda')\nprint((x + 1).sum().item())\n"
ts = []
for _ in range(5):
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", script], check=True, stdout=subprocess.DEVNULL)
    ts.append((time.perf_counter() - t) * 1e3)
row("start to first CUDA op (warm cache)", sorted(ts)[2], "ms")
n = 4096
for dt, name in [(torch.float32, "matmul f32 4096x4096"), (torch.float16, "matmul f16 4096x4096")]:
    a = torch.full((n, n), 0.5, dtype=dt, device="cuda")
    b = torch.full((n, n), 0.5, dtype=dt, device="cuda")
    s = gpu_time(10, lambda: a @ b)
    row(name, 2 * n ** 3 / s / 1e12, "TFLOP/s")
m = 100_000_000
a = torch.full((m,), 0.5, device="cuda")
b = torch.full((m,), 0.5, device="cuda")
s = gpu_time(10, lambda: a + b)
row("add f32, 100M elements", m / s / 1e9, "G elem/s")
del a, b
nbytes = 256 << 20
host = torch.ones(nbytes // 4)
s = gpu_time(5, lambda: host.to("cuda"))
row("host→device 256 MiB, pageable", nbytes / s / 1e9, "GB/s")
pinned = host.pin_memory()
s = gpu_time(5, lambda: pinned.to("cuda"))
row("host→device 256 MiB, pinned", nbytes / s / 1e9, "GB/s")
