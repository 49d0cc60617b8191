# %% silu_forward_bits
# F.silu, every float32 bit (ATen's vector loop: x / (1 + exp(-x)) with SLEEF's exp, the scalar
# tail with glibc's expf), over lengths around the 32-element step, and special values
import torch
import torch.nn.functional as F
torch.manual_seed(3)
for n in (1, 17, 32, 37, 100, 4099, 100003):
    x = torch.randn(n) * 6
    v = F.silu(x).double().tolist()
    print(n, hash(tuple(v)), v[:2], v[-1:])
s = torch.tensor([0.0, -0.0, float('inf'), float('-inf'), float('nan'), 88.5, -88.5, -104.0, 1e-30, -1e-30] * 4)
print(F.silu(s)[:10].tolist(), F.silu(s)[:10].signbit().tolist())
print(F.silu(torch.randn(64, dtype=torch.float64)).dtype)

# %% clamp_fused
# clamp with both bounds in one pass: NaN, ±0, reversed bounds, views, grads, dtypes
import torch
torch.manual_seed(4)
x = torch.randn(1000) * 2
x[:4] = torch.tensor([float('nan'), -0.0, 0.0, float('inf')])
for lo, hi in ((-0.5, 0.5), (0, 1), (1.0, -1.0), (-0.0, 0.0), (-2, 3)):
    y = x.clamp(lo, hi)
    v = y.double().tolist()
    print(lo, hi, hash(tuple(v[4:])), v[:4], y[:4].signbit().tolist(), y.dtype)
t = torch.randn(30, 40).t()
print(t.clamp(-0.1, 0.1).stride(), bool((t.clamp(-0.1, 0.1) == t.clamp(min=-0.1).clamp(max=0.1)).all()))
d = torch.randn(300, dtype=torch.float64)
print(hash(tuple(d.clamp(-0.25, 0.5).tolist())))
g = torch.linspace(-2, 2, 9, requires_grad=True)
g.clamp(-1, 1).sum().backward()
print(g.grad)
print(torch.tensor([1, 5, 9]).clamp(2, 6), torch.tensor([1, 5, 9]).clamp(1.5, 6))
print(torch.randn(40).half().clamp(-0.1, 0.1).dtype, torch.clamp(torch.arange(5.0), 1, 3))

# %% half_binary_bits
# float16 and bfloat16 + - * / of dense tensors: each value widened, the float op, one rounding
# back, over lengths around the vector steps, overflow, and bfloat16's NaN bits (whole vectors of
# 32 round a NaN as ATen's vector conversion does, 0xFFFF, the rest as c10's scalar one, 0x7FC0)
import torch
torch.manual_seed(6)
for dt in (torch.float16, torch.bfloat16):
    for n in (1, 31, 33, 100, 70001):
        a = (torch.randn(n) * 300).to(dt)
        b = (torch.randn(n) * 300).to(dt)
        r = [a + b, a - b, a * b, a / b]
        print(dt, n, [hash(tuple(t.double().tolist())) for t in r], r[2][:2].tolist())
    for n in (3, 33, 70):
        nan = torch.full((n,), float('nan')).to(dt)
        one = torch.ones(n, dtype=dt)
        print(dt, n, int((nan + one).signbit().sum()), int((nan * nan).signbit().sum()),
              int((-nan - one).signbit().sum()), int((one / nan).signbit().sum()))
print(torch.tensor(float('nan')).neg().bfloat16().signbit(), torch.tensor(-3.0).bfloat16())

# %% clamp_edges
# one-sided clamps keep an element equal to the bound (-0.0 under min=0), NaN bounds, integer
# dtypes with bounds outside their range
import torch
x = torch.tensor([-0.0, 0.0, float('nan'), 2.0, -2.0] * 8)
for kw in (dict(min=0.0), dict(max=0.0), dict(min=-0.0), dict(max=-0.0), dict(min=float('nan')), dict(max=float('nan')), dict(min=float('nan'), max=1.0)):
    y = x.clamp(**kw)
    print(kw, y[:5].tolist(), y[:5].signbit().tolist(), y[-5:].signbit().tolist(), x[:5].clamp(**kw).signbit().tolist())
print(x.double().clamp(0.0, 1.0)[:2].signbit().tolist(), x.half().clamp(0.0, 1.0)[:2].signbit().tolist())
u = torch.tensor([0, 100, 255], dtype=torch.uint8)
print(u.clamp(-5, 300), u.clamp(min=50), u.clamp(max=7), torch.tensor([1, -3, 9], dtype=torch.int8).clamp(-2, 2))
print(torch.tensor([1.5, 2.5]).half().clamp(0.1, 2.0), torch.tensor([0.1]).bfloat16().clamp(0.1, 1).item())
y = torch.tensor([-1.0, 0.5, 3.0], requires_grad=True)
y.clamp(min=0.0).sum().backward()
print(y.grad, torch.tensor([True, False]).clamp(0, 1))

# %% var_all_and_rows
# var/std in double: over all elements the deviations are from the float32 mean() (visible with
# a large mean), over trailing dims from each row's double mean; views, size-1 dims, dtypes
import torch
torch.manual_seed(0)
for off in (0.0, 1e3, 1e4, 3e5):
    x = torch.randn(100003) + off
    print(off, x.var().item(), x.std().item(), x.var(correction=0).item())
    y = x[:100000].reshape(1000, 100)
    print(hash(tuple(y.var(1).double().tolist())), hash(tuple(y.std(1, correction=0).double().tolist())), hash(tuple(y.var(0).double().tolist())))
z = torch.randn(1, 5000) + 2e4
print(z.var(1).item(), z.var(0)[:2], z.std(dim=(0, 1)).item(), z.t().var(0).item())
w = torch.randn(4, 30, 50) + 5e3
print(hash(tuple(w.var((1, 2)).double().tolist())), hash(tuple(w.std(-1).flatten().double().tolist())))
print(torch.randn(7, dtype=torch.float64).var().dtype, torch.tensor([1.0]).var(), torch.tensor([1.0, 2.0]).var(correction=2))
print((torch.randn(300) + 1e4).half().var(), (torch.randn(2, 300, dtype=torch.float64) + 1e9).var(1))

# %% var_batchnorm_dims
# var over the leading and trailing dims (BatchNorm's (0, 2, 3)), short runs, and BatchNorm2d
import torch
torch.manual_seed(2)
img = torch.randn(8, 5, 12, 12) * 3 + 100
print(hash(tuple(img.var((0, 2, 3)).double().tolist())), hash(tuple(img.var((0, 2, 3), correction=0).double().tolist())))
print(hash(tuple(img.std((0, 3)).flatten().double().tolist())), img.var((0, 1)).shape, hash(tuple(img.var(0).flatten().double().tolist())))
bn = torch.nn.BatchNorm2d(5)
bn(img)
print(bn.running_var, bn.running_mean)

# %% float_to_long
# float32 -> int64 truncates toward zero; NaN, infinities and values outside int64 become its minimum,
# in the vector body and the tail alike
import torch
x = torch.tensor([0.5, -0.5, 1.9, -1.9, 3e9, -3e9, 9.3e18, -9.3e18, -9.2233720e18, float('nan'), float('inf'), float('-inf'), 2**62, -0.0, 7.0, 123456789.0, 1e-45] * 3)
print(x.long().tolist())
print(x[:5].long(), x.t().long()[:3] if x.dim() == 2 else x[::2].long()[:4])
torch.manual_seed(0)
print(torch.randn(100003).mul(1e6).long().sum())

# %% half_exp_bits
# float16 exp: whole steps widened, exponentiated (SLEEF) and narrowed in registers, the rest
# through float32 blocks; every bit over a sweep of float16 values, lengths around the step, specials
import torch
torch.manual_seed(1)
for n in (1, 31, 64, 65, 1000, 70001):
    x = (torch.randn(n) * 4).half()
    v = x.exp().double().tolist()
    print(n, hash(tuple(v)), v[:2])
s = torch.tensor([0.0, -0.0, float('inf'), float('-inf'), float('nan'), 11.1, -17.5, 11.09] * 10).half()
print(s.exp().tolist()[:8], s.exp().signbit().tolist()[:8])
a = torch.arange(-20.0, 12.0, 1 / 1024).half()
print(hash(tuple(a.exp().double().tolist())))
