# %% add_sub_mul_div
import torch
a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor([4.0, 5.0, 6.0])
print(a + b, a - b, a * b, a / b)
# %% neg_abs
import torch
x = torch.tensor([-1.5, 0.0, 2.0])
print(-x, abs(x), x.abs(), torch.abs(x))
# %% sqrt_exp_log
import torch
x = torch.tensor([1.0, 4.0, 9.0])
print(x.sqrt(), torch.exp(x), torch.log(x))
# %% sqrt_negative_nan
import torch
print(torch.sqrt(torch.tensor([-1.0, 4.0])))
# %% log_zero
import torch
print(torch.log(torch.tensor([0.0, 1.0])))
# %% sigmoid_tanh_relu
import torch
x = torch.tensor([-2.0, 0.0, 2.0])
print(x.sigmoid(), torch.tanh(x), x.relu(), torch.relu(x))
# %% pow_methods
import torch
x = torch.tensor([1.0, 2.0, 3.0])
print(x.pow(2), x ** 3, torch.pow(x, 0.5))
# %% pow_tensor_tensor
import torch
print(torch.tensor([2, 3]) ** torch.tensor([3, 2]))
# %% int_sqrt_float
import torch
print(torch.sqrt(torch.tensor([4, 9])))
# %% int_exp
import torch
print(torch.tensor([0, 1]).exp())
# %% softmax
import torch
x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
print(x.softmax(dim=1))
print(torch.softmax(x, 0))
# %% log_softmax
import torch
x = torch.tensor([1.0, 2.0, 3.0])
print(x.log_softmax(0))
# %% broadcast_row_col
import torch
a = torch.arange(3).reshape(3, 1)
b = torch.arange(4)
print(a + b)
# %% broadcast_3d
import torch
a = torch.ones(2, 1, 3)
b = torch.arange(4.).reshape(4, 1)
print((a * b).shape)
print(a * b)
# %% broadcast_scalar_tensor
import torch
print(torch.ones(2, 2) * torch.tensor(3.0))
# %% comparisons
import torch
a = torch.tensor([1, 2, 3])
b = torch.tensor([3, 2, 1])
print(a < b, a <= b, a > b, a >= b, a == b, a != b)
# %% comparison_methods
import torch
a = torch.tensor([1.0, 2.0])
print(a.eq(1.0), a.gt(1), torch.lt(a, 2), a.ne(a))
# %% equal_allclose
import torch
a = torch.tensor([1.0, 2.0])
print(torch.equal(a, a.clone()), torch.allclose(a, a + 1e-9), torch.allclose(a, a + 1))
# %% maximum_minimum
import torch
a = torch.tensor([1, 5, 3])
b = torch.tensor([4, 2, 6])
print(torch.maximum(a, b), torch.minimum(a, b))
# %% floor_ceil_round
import torch
x = torch.tensor([-1.5, -0.5, 0.5, 1.5, 2.5])
print(x.floor(), x.ceil(), x.round())
# %% clamp
import torch
x = torch.tensor([-2.0, 0.5, 3.0])
print(x.clamp(min=0.0, max=1.0), x.clamp(0))
# %% logical_bitwise
import torch
a = torch.tensor([True, False, True])
b = torch.tensor([True, True, False])
print(a & b, a | b, a ^ b, ~a)
# %% int_bitwise
import torch
print(torch.tensor([12, 10]) & 6, torch.tensor([1, 2]) | torch.tensor([4, 4]))
# %% remainder_neg
import torch
x = torch.tensor([-3.0, 3.0, -7.5])
print(x % 2, torch.fmod(x, 2), torch.remainder(x, 2))
# %% float_div_zero
import torch
print(torch.tensor([1.0, -1.0, 0.0]) / 0)
# %% trig
import torch
x = torch.tensor([0.0, 1.0])
print(torch.sin(x), torch.cos(x))
# %% mixed_chain
import torch
x = torch.arange(5.)
print(((x * 2 + 1) / 3).exp().log())
# %% float16_ops
import torch
x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16)
print(x / 3, x.exp())
# %% bfloat16_ops
import torch
x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.bfloat16)
print(x / 3, x * x)
# %% where_basic
import torch
x = torch.tensor([-1.0, 2.0, -3.0])
print(torch.where(x > 0, x, torch.zeros(3)))
print(torch.where(x > 0, x, 0.0))
# %% where_broadcast_promote
import torch
c = torch.tensor([[True], [False]])
print(torch.where(c, torch.tensor([1, 2]), torch.tensor([0.5])))
# %% clamp_int_float_bounds
import torch
print(torch.clamp(torch.tensor([1, 5]), 2, 4), torch.tensor([1, 5]).clamp(min=2.5), torch.tensor([1., float('nan')]).clamp(0, 0.5), torch.tensor([1., 2.]).clamp(max=1.5))
# %% half_kernels
# float16/bfloat16 exp, log, tanh and sigmoid run ATen's float kernels on widened vectors (a
# vector loop stepping by 64 for sigmoid); sums load 16 values a vector; casts round to even
import torch
torch.manual_seed(3)
for dt in (torch.float16, torch.bfloat16):
    for n in (1, 33, 64, 100, 131):
        x = (torch.randn(n) * 3).to(dt)
        print(dt, n, x.exp().tolist(), x.abs().log().tolist())
        print(x.tanh().tolist(), x.sigmoid().tolist())
    for n in (15, 16, 17, 40, 1000, 100003):
        x = torch.rand(n).to(dt)
        print(dt, n, x.sum().item(), (x - 0.5).sum().item())
f = torch.tensor([0.0, -0.0, 1e-8, 6e-8, 3e-5, 65504.0, 65520.0, 1e6, float('inf'), float('-inf'), 1.0009765625, 1.00048828125, 1.00146484375, 3.14159, -2.71828] * 3)
print(f.half().tolist(), f.bfloat16().tolist())
print(f.half().float().tolist(), f.bfloat16().float().tolist(), f.half().double().tolist())
print(torch.tensor([float('nan')]).half().isnan().tolist(), torch.tensor([float('nan')] * 20).bfloat16().isnan().tolist())
e = torch.zeros(2, 3)[2:, 3:]  # empty, its offset past the storage's end
print(e.half(), e.long(), e.bool(), e.long().exp())
