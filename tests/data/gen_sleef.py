"""Golden bits for src/backend/cpu/sleef.rs: PyTorch's vectorised f32 exp and log (SLEEF).

Run: ../shared/tools/torch-golden tests/data/gen_sleef.py > tests/data/sleef_golden.txt

torch.exp/log/tanh themselves go to MKL's VML on x86 wheels (the same bits under
ATEN_CPU_CAPABILITY=default), so the SLEEF functions are read where ATen calls
Vectorized<float>::exp/log: each line is `fn x y` (float32 bit patterns in hex):
  sigmoid     y = torch.sigmoid(x), from the vector body (one tensor of under 32K elements, a
              multiple of 2 AVX-512 vectors: one thread, no scalar tail);
  logsm       y = log_softmax([x, 0])[1] = -log(exp(x) + 1) (x <= 0: 0 is the row's max).
(No op was found that exposes Sleef_tanhf: tanhshrink's bits are glibc's tanhf.)
"""
import random
import struct

import torch
import torch.nn.functional as F

random.seed(16)


def bits(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


def f32(b):
    return struct.unpack('<f', struct.pack('<I', b))[0]


def sample(n, lo, hi):
    return [random.uniform(lo, hi) for _ in range(n)]


specials = [0.0, -0.0, float('inf'), float('-inf'), float('nan'), 1e-45, -1e-45, 1e-40, -1e-40,
            1e-30, 88.72, 88.73, -87.3, -103.9, -104.0, -104.1, 100.0, 100.1, 3e38, -3e38,
            8.66, 8.67, -8.67, 1.0, -1.0, 0.5, 2.718281828]
xs = specials + sample(2000, -110, 110) + sample(2000, -10, 10) + sample(1000, -1, 1)
xs += [f32(random.getrandbits(32)) for _ in range(3000)]
xs += [i / 8 for i in range(-800, 800)]
xs += [0.0] * (-len(xs) % 32)  # whole pairs of AVX-512 vectors: no scalar tail

print('# fn x y: PyTorch 2.15 CPU (AVX-512 kernels, Sleef_*f16_u10), float32 bits in hex')
x = torch.tensor(xs, dtype=torch.float32)
for a, b in zip(x.view(torch.int32).tolist(), torch.sigmoid(x).view(torch.int32).tolist()):
    print('sigmoid %08x %08x' % (a & 0xffffffff, b & 0xffffffff))

neg = [v for v in xs if not v > 0]
rows = torch.tensor([[v, 0.0] for v in neg], dtype=torch.float32)
ls = F.log_softmax(rows, dim=1)[:, 1]
for a, b in zip(rows[:, 0].view(torch.int32).tolist(), ls.view(torch.int32).tolist()):
    print('logsm %08x %08x' % (a & 0xffffffff, b & 0xffffffff))

