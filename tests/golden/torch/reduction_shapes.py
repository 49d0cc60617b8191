# %% sum_short_rows_bits
# rows of one vector and more (8..200 floats): the register path's order decides the digits
import torch
torch.manual_seed(3)
for n in [8, 9, 10, 15, 16, 17, 31, 33, 63, 64, 65, 100, 125, 200]:
    x = torch.randn(7, n) * torch.tensor([1e-3, 1.0, 1e3, 1e6, 1e-6, 3.0, 7e4]).reshape(7, 1)
    print(n, x.sum(dim=1).tolist(), x.mean(dim=1).tolist())

# %% sum_many_rows_bits
import torch
torch.manual_seed(4)
x = torch.randn(3000, 10) * 1e3
s = x.sum(dim=1)
print(s[:4].tolist(), s[-3:].tolist(), s.sum().item())
y = torch.randn(2500, 100)
print(y.sum(dim=1)[::400].tolist())

# %% sum_tall_thin_columns_bits
# an outer reduction of a few columns (split over threads by column)
import torch
torch.manual_seed(5)
for cols in [1, 2, 3, 7, 10, 17, 40]:
    x = torch.randn(20000, cols) * 100
    print(cols, x.sum(dim=0).tolist())
print(torch.randn(20000, 10).mean(dim=0).tolist())

# %% extremes_of_short_rows
import torch
torch.manual_seed(6)
for n in [16, 17, 31, 32, 47, 64, 65, 79, 100, 130]:
    x = torch.randn(5, n)
    x[1, n - 1] = 9.0
    x[2, n - 1] = float('nan')
    x[3] = -1.0
    x[3, 0] = -0.0
    x[3, n - 1] = 0.0
    x[4] = -1.0
    x[4, n // 3] = 0.0
    x[4, n - 1] = -0.0
    # (amax of a row holding both zeros is left out: PyTorch keeps the first zero there)
    mx = x.amax(dim=1)
    mn = x.amin(dim=1)
    v, i = x.max(dim=1)
    print(n, mx.tolist()[:3], mn.tolist()[:3], v.tolist(), i.tolist(), torch.signbit(v).tolist())

# %% extremes_many_rows
import torch
torch.manual_seed(7)
x = torch.randn(10000, 100)
print(x.amax(dim=1)[:5].tolist(), x.amin(dim=1).sum().item())
v, i = x.max(dim=1)
print(v[-3:].tolist(), i[:10].tolist(), x.argmax(dim=1)[-5:].tolist())

# %% arg_extremes_of_short_rows
# rows under one AVX-512 vector: ties keep the first, a NaN wins, zeros of either sign tie
import torch
torch.manual_seed(8)
for n in [1, 2, 3, 7, 10, 15]:
    x = torch.randint(-3, 4, (6, n)).float()
    x[1, n - 1] = float('nan')
    x[2] = 0.0
    x[2, 0] = -0.0
    x[3] = -2.0
    v, i = x.max(dim=1)
    w, j = x.min(dim=1)
    print(n, v.tolist(), i.tolist(), w.tolist(), j.tolist(), x.argmax(dim=1).tolist(), x.argmin(1).tolist())
    print(torch.signbit(v).tolist(), torch.signbit(w).tolist())
x = torch.randn(100000, 10)
print(x.argmax(dim=1)[:12].tolist(), x.argmax(dim=1).sum().item(), x.max(dim=1)[0].sum().item())

# %% var_std_over_dims
# each output's elements gathered by dims: leading, middle, several, all, a strided view
# (norm is summed in float by PyTorch, logsumexp through MKL's exp: their last bits are not
# checked here)
import torch
torch.manual_seed(9)
x = torch.randn(3, 4, 5)
for d in [0, 1, 2, (0, 2), (1, 0)]:
    print(d, x.var(dim=d).flatten()[:6].tolist(), x.std(dim=d, keepdim=True).shape)
    print([round(v, 5) for v in x.norm(dim=d).flatten()[:6].tolist()])
    print([round(v, 5) for v in torch.logsumexp(x, dim=d).flatten()[:6].tolist()])
print(x.var(dim=(0, 1, 2)).item(), round(x.norm(p=2, dim=(0, 1, 2)).item(), 4), round(x.norm(None, (2, 0, 1)).item(), 4))
print(x.var().item(), round(x.norm().item(), 4), x[:, 1:3, ::2].var(dim=1).tolist())
print(x.var(dim=1, correction=0)[0].tolist(), [round(v, 4) for v in x.norm(p=1, dim=2)[1].tolist()])
y = torch.randn(10000, 100)
print(y.var(dim=1)[:4].tolist(), y.std(dim=0)[:3].tolist())
print(torch.zeros(2, 0).var(dim=1).tolist(), torch.zeros(0, 3).norm(dim=0).tolist())

# %% norm_default_p_is_fro
# Tensor.norm's p is 'fro', a matrix norm over more than two dims (an error)
import torch
x = torch.ones(2, 3, 4)
print(x.norm(dim=(0, 1)).tolist(), torch.norm(x, dim=(1, 2)).tolist())
try:
    x.norm(dim=(0, 1, 2))
except RuntimeError as e:
    print(e)
print(torch.norm(x, dim=(0, 1, 2)))

# %% logsumexp_bits
# composed as ATen composes it (amax, exp, sum, log, add): PyTorch's bits over any dims
import torch
torch.manual_seed(15)
x = torch.randn(6, 70, 9) * 4
for d in [0, 1, 2, (1, 2)]:
    print(d, torch.logsumexp(x, dim=d).flatten()[:12].tolist())
# torch.exp is MKL's, whose last bit differs from the correctly rounded exp for ~3% of inputs;
# here that moves one sum's last bit
print([round(v, 5) for v in torch.logsumexp(x, dim=(0, 2)).tolist()[:12]])
print(x.logsumexp(dim=1, keepdim=True).shape, torch.randn(300, 1000).logsumexp(dim=1)[:8].tolist())
s = torch.tensor([[float('inf'), 1.0], [float('-inf'), float('-inf')], [float('nan'), 0.0], [-1e30, 3.0]])
print(torch.logsumexp(s, dim=1).tolist(), torch.logsumexp(torch.zeros(3, 0), dim=1).tolist())
print(torch.logsumexp(torch.tensor([[1, 2], [3, 4]]), dim=0), torch.logsumexp(x.double()[0, :5], dim=0).tolist())

# %% norm2_last_dim_bits
# the 2-norm over the trailing dims of a contiguous float32 tensor: 8 lanes of fused
# multiply-adds, the lanes added in order, the tail after
import torch
torch.manual_seed(17)
for n in [1, 3, 7, 8, 9, 15, 16, 17, 31, 100, 1000]:
    x = torch.randn(5, n) * 3
    print(n, x.norm(dim=1).tolist(), torch.linalg.vector_norm(x, dim=-1, keepdim=True).shape)
y = torch.randn(4, 6, 25)
print(y.norm(dim=(1, 2)).tolist(), y.norm().item(), torch.linalg.norm(y[0, 0]).item())
print(torch.randn(2000, 100).norm(dim=1)[::250].tolist(), torch.randn(10**6).norm().item())

# %% amax_signed_zeros
# which of equal zeros amax/amin return (0.0 and -0.0 compare equal but print apart): ATen's
# scalar combine keeps the value it has, its AVX2 vector combine (8 float / 4 double lanes,
# four registers) takes the new one; rows below 32 floats are scalar, columns in whole groups
# of 32 are vector, those left over scalar; ±1 and NaN around them
import torch
torch.manual_seed(19)
def signs(t):
    return ''.join('n' if v != v else ('-' if str(v).startswith('-') else '+') if v == 0 else 'x'
                   for v in t.flatten().tolist())
for dt in (torch.float32, torch.float64):
    for mx in (True, False):
        ch = torch.tensor([-1.0, -2.0, 0.0, -0.0] if mx else [1.0, 2.0, 0.0, -0.0], dtype=dt)
        f = (lambda t, **k: t.amax(**k)) if mx else (lambda t, **k: t.amin(**k))
        for shape in [(40, 10), (30, 31), (30, 32), (20, 33), (10, 100), (4, 1000), (64, 70), (300, 200)]:
            x = ch[torch.randint(0, 4, shape)]
            print(signs(f(x, dim=1)), signs(f(x, dim=0)), signs(f(x)), signs(f(x.t(), dim=1)))
            # t.max() / t.min() run another kernel (max_all: vec::reduce_all's lanes)
            print(signs(x.max() if mx else x.min()), signs(f(x.reshape(shape[0], -1, 1), dim=1)))
        x = ch[torch.randint(0, 4, (4, 50, 40))]
        print(signs(f(x, dim=(0, 2))), signs(f(x, dim=(1, 2))), signs(f(x, dim=1)))
        x = ch[torch.randint(0, 4, (200000,))]
        print(signs(f(x)), signs(f(x.reshape(2000, 100), dim=0)), signs(f(x.reshape(100, 2000), dim=1)))
        print(''.join(signs(x[:n].max() if mx else x[:n].min()) for n in range(1, 80)), signs(x.max() if mx else x.min()))
x = torch.tensor([[0.0, float('nan'), -0.0] * 20, [-0.0, 0.0, -1.0] * 20])
print(x.amax(dim=1), x.amin(dim=0)[:6], x.amax(dim=0)[:6], x[:, :5].amax(dim=1))

# %% amax_over_runs
# max/min over dims whose elements are contiguous runs (the innermost reduced dim has stride
# 1): read run by run in place; infinities, NaNs and ties decide nothing else
import torch
torch.manual_seed(23)
x = torch.randn(6, 50, 40)
x[2, 7, 3] = float('inf')
x[4, :, :] = -float('inf')
for d in [(0, 2), (1, 2), (0, 1, 2), (0, 1)]:
    print(d, x.amax(dim=d).flatten()[:8].tolist(), x.amin(dim=d).flatten()[-6:].tolist())
    print(x[:2].double().amax(dim=d).sum().item(), x[:2, :, :17].amin(dim=d).sum().item())
y = x.clone()
y[1, 3, 5] = float('nan')
print(y.amax(dim=(0, 2))[:5].tolist(), y.amin(dim=(1, 2)).tolist())
print(x.max(dim=2).values[0, :4].tolist(), x.reshape(6, 2000)[:, ::3].amax(dim=(0, 1)).item())

# %% amax_signed_zeros_half
# the same zero ties in float16 and bfloat16 (reduced in float32 lanes of 16, as ATen's
# reduced-float kernels do), and their t.max() / t.min()
import torch
torch.manual_seed(29)
def signs(t):
    return ''.join('n' if v != v else ('-' if str(v).startswith('-') else '+') if v == 0 else 'x'
                   for v in t.flatten().tolist())
for dt in (torch.float16, torch.bfloat16):
    for mx in (True, False):
        ch = torch.tensor([-1.0, -2.0, 0.0, -0.0] if mx else [1.0, 2.0, 0.0, -0.0], dtype=dt)
        f = (lambda t, **k: t.amax(**k)) if mx else (lambda t, **k: t.amin(**k))
        for shape in [(40, 10), (30, 33), (10, 100), (64, 70)]:
            x = ch[torch.randint(0, 4, shape)]
            print(signs(f(x, dim=1)), signs(f(x, dim=0)), signs(f(x)), signs(f(x.t(), dim=1)))
            print(signs(x.max() if mx else x.min()), signs(f(x.reshape(shape[0], -1, 1), dim=1)))
        x = ch[torch.randint(0, 4, (4, 50, 40))]
        print(signs(f(x, dim=(0, 2))), signs(f(x, dim=(1, 2))), signs(f(x, dim=1)))
        # (past 32768 elements t.max() runs in two chunks)
        x = ch[torch.randint(0, 4, (100000,))]
        print(signs(f(x)), signs(f(x.reshape(1000, 100), dim=0)), signs(f(x.reshape(100, 1000), dim=1)))
        print(''.join(signs(x[:n].max() if mx else x[:n].min()) for n in range(1, 80)), signs(x.max() if mx else x.min()))
