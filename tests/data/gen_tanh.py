# Writes tanh_golden.txt: float32 bit patterns of x and torch.tanh(x) (PyTorch 2.15 CPU, MKL's
# VML) for 8000 floats spread evenly in log scale over [2^-14, 10] with both signs.
# Run: ../shared/tools/torch-golden tests/data/gen_tanh.py > tests/data/tanh_golden.txt
import torch

torch.manual_seed(0)
n = 4000
lo, hi = torch.tensor(2.0**-14, dtype=torch.float64), torch.tensor(10.0, dtype=torch.float64)
mag = (torch.rand(n, dtype=torch.float64) * (hi / lo).log()).exp() * lo
x = torch.cat([mag, -mag]).float()
y = torch.tanh(x)
print("# x tanh(x): float32 bit patterns from torch.tanh (PyTorch 2.15 CPU, MKL VML)")
for a, b in zip(x.view(torch.int32).tolist(), y.view(torch.int32).tolist()):
    print(f"{a & 0xffffffff:08x} {b & 0xffffffff:08x}")
