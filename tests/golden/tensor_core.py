# %% create_zeros_ones_full
from tensor_show import *
show(torch.zeros(2, 3)); show(torch.ones(3, dtype=torch.int32)); show(torch.full((2,), 7))
show(torch.full((2,), True)); show(torch.full((1, 2), 2.5)); show(torch.empty(0, 3))
show(torch.zeros(())); show(torch.ones(2, dtype=torch.bool))
# %% create_negative_dim
import torch
torch.zeros(2, -1)
# %% create_huge
import torch
torch.zeros(1 << 40)
# %% create_full_overflow
import torch
torch.full((2,), 300, dtype=torch.uint8)
# %% create_full_float_to_int
from tensor_show import *
show(torch.full((2,), 2.5, dtype=torch.int32)); show(torch.full((2,), -1, dtype=torch.uint8))
# %% create_full_nan_int
import torch
torch.full((2,), float('nan'), dtype=torch.int32)
# %% create_arange
from tensor_show import *
show(torch.arange(5)); show(torch.arange(2, 8, 3)); show(torch.arange(0, 1, 0.1)); show(torch.arange(-1, -5, -1.5))
show(torch.arange(1, 4, dtype=torch.float64)); show(torch.arange(0.5, 3)); show(torch.arange(10, 0, -3))
show(torch.arange(0, 5, dtype=torch.half)); show(torch.arange(3, dtype=torch.uint8))
# %% create_arange_long_float
from tensor_show import *
show(torch.arange(0, 7.3, 0.1)); show(torch.arange(-3, 3, 0.07, dtype=torch.float64))
# %% create_arange_zero_step
import torch
torch.arange(0, 10, 0)
# %% create_arange_bad_sign
import torch
torch.arange(0, 10, -1)
# %% create_arange_inf
import torch
torch.arange(0, float('inf'))
# %% create_arange_bool
import torch
torch.arange(5, dtype=torch.bool)
# %% create_linspace
from tensor_show import *
show(torch.linspace(0, 1, 5)); show(torch.linspace(0, 1, 7)); show(torch.linspace(-3.3, 10.1, 13))
show(torch.linspace(0, 1, 1)); show(torch.linspace(0, 1, 0)); show(torch.linspace(0, 10, 5, dtype=torch.long))
show(torch.linspace(-1, 1, 9, dtype=torch.float64)); show(torch.linspace(0, 1, 11, dtype=torch.half))
show(torch.linspace(0.1, 3.7, 6, dtype=torch.bfloat16))
# %% create_linspace_negative
import torch
torch.linspace(0, 1, -1)
# %% create_eye
from tensor_show import *
show(torch.eye(3)); show(torch.eye(2, 3)); show(torch.eye(3, 1, dtype=torch.long)); show(torch.eye(2, dtype=torch.bool)); show(torch.eye(0))
# %% create_eye_negative
import torch
torch.eye(3, -1)
# %% create_like
from tensor_show import *
x = torch.arange(6).view(2, 3)
show(torch.zeros_like(x)); show(torch.ones_like(x, dtype=torch.float16)); show(torch.full_like(x, 2.7)); lay(torch.empty_like(x.float())); print(torch.empty_like(x.float()).dtype)
# %% tensor_infer
from tensor_show import *
show(torch.tensor([1, 2.5, True])); show(torch.tensor([True, 1])); show(torch.tensor([True, False])); show(torch.tensor([]))
show(torch.tensor([[], []])); show(torch.tensor(3.5)); show(torch.tensor([[1, 2], [3, 4]])); show(torch.tensor(7))
show(torch.tensor(3.5, dtype=torch.int32)); show(torch.tensor([1e40])); show(torch.tensor([-1], dtype=torch.uint8))
show(torch.tensor([[0.1, 0.2]], dtype=torch.float64)); show(torch.tensor([1, 2], dtype=torch.bool))
show(torch.tensor([torch.tensor(1), torch.tensor(2.5)])); show(torch.tensor([torch.tensor(1, dtype=torch.int8), torch.tensor(2, dtype=torch.int8)]))
# %% tensor_ragged
import torch
torch.tensor([[1, 2], [3]])
# %% tensor_not_a_sequence
import torch
torch.tensor([[1, 2], 3])
# %% tensor_overflow_uint8
import torch
torch.tensor([300], dtype=torch.uint8)
# %% tensor_overflow_int32
import torch
torch.tensor([2**40], dtype=torch.int32)
# %% tensor_negative_float_uint8
import torch
torch.tensor([-3.7], dtype=torch.uint8)
# %% tensor_of_vectors
import torch
torch.tensor([torch.tensor([1, 2]), torch.tensor([2, 3])])
# %% promote_tensor_tensor
import torch
ds = [torch.bool, torch.uint8, torch.int8, torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32, torch.float64]
for a in ds:
    row = []
    for b in ds:
        try:
            row.append(str((torch.ones(2, dtype=a) + torch.ones(2, dtype=b)).dtype).replace('torch.', ''))
        except Exception as e:
            row.append(type(e).__name__)
    print(' '.join(row))
# %% promote_tensor_scalar
import torch
ds = [torch.bool, torch.uint8, torch.int8, torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32, torch.float64]
for a in ds:
    print(' '.join(str((torch.ones(2, dtype=a) * s).dtype).replace('torch.', '') for s in [True, 2, 2.5]))
# %% promote_zero_dim
import torch
ds = [torch.bool, torch.int8, torch.int64, torch.float16, torch.float64]
for a in ds:
    print(' '.join(str((torch.ones(2, dtype=a) + torch.tensor(1, dtype=b)).dtype).replace('torch.', '') for b in ds))
for a in ds:
    print(' '.join(str((torch.tensor(1, dtype=a) + torch.tensor(1, dtype=b)).dtype).replace('torch.', '') for b in ds))
# %% promote_div
import torch
ds = [torch.bool, torch.uint8, torch.int32, torch.int64, torch.float16, torch.float64]
print(' '.join(str((torch.ones(2, dtype=a) / torch.ones(2, dtype=a)).dtype) for a in ds))
print(' '.join(str((torch.ones(2, dtype=a) / 2).dtype) for a in ds))
print(' '.join(str((torch.ones(2, dtype=a) // 2.0).dtype) for a in ds[1:]))
# %% binary_float
from tensor_show import *
a = torch.tensor([[1.5, -2.0, 3.25], [0.0, 7.0, -0.5]]); b = torch.tensor([2.0, -3.0, 0.5])
show(a + b); show(a - b); show(a * b); show(a / b); show(a // b); show(a % b); show(a ** b); show(torch.maximum(a, b)); show(torch.minimum(a, b))
show(torch.fmod(a, b)); show(torch.div(a, b, rounding_mode='trunc')); show(torch.div(a, b, rounding_mode='floor')); show(torch.add(a, b, alpha=2)); show(torch.sub(a, b, alpha=0.5))
# %% binary_float_special
from tensor_show import *
a = torch.tensor([1.0, -1.0, 0.0, float('nan'), float('inf'), 7.5, -7.5]); b = torch.tensor([0.0, 0.0, 0.0, 1.0, 2.0, -2.0, 2.0])
show(a / b); show(a // b); show(a % b); show(torch.maximum(a, b)); show(torch.minimum(a, b)); show(a ** b)
# %% binary_int
from tensor_show import *
a = torch.tensor([7, -7, 5, -5, 0]); b = torch.tensor([2, 2, -3, -3, 4])
show(a + b); show(a - b); show(a * b); show(a / b); show(a // b); show(a % b); show(a ** torch.tensor([2, 3, 0, 1, 5]))
show(a & b); show(a | b); show(a ^ b); show(torch.fmod(a, b)); show(torch.div(a, b, rounding_mode='trunc'))
show(torch.tensor([1, 2, -1, 3]) ** torch.tensor([-1, -2, -3, 2]))
# %% binary_int_wrap
from tensor_show import *
u = torch.tensor([250, 3], dtype=torch.uint8); i8 = torch.tensor([120, -128], dtype=torch.int8)
show(u + 10); show(u * 2); show(u - 5); show(i8 + 10); show(i8 * -1); show(u + 1000); show(torch.tensor([2**62]) * 4)
# %% binary_int_zero_div
import torch
torch.tensor([1, 2]) // torch.tensor([1, 0])
# %% binary_int_zero_rem
import torch
torch.tensor([1, 2]) % 0
# %% binary_int_neg_pow
import torch
torch.tensor([1, 2]) ** -1
# %% binary_bool
from tensor_show import *
a = torch.tensor([True, True, False, False]); b = torch.tensor([True, False, True, False])
show(a + b); show(a * b); show(a & b); show(a | b); show(a ^ b); show(a / b); show(a + 1); show(a * 2.5); show(torch.maximum(a, b))
# %% binary_bool_sub
import torch
torch.tensor([True]) - torch.tensor([False])
# %% binary_bool_floordiv
import torch
torch.tensor([True]) // torch.tensor([True])
# %% binary_bool_pow
import torch
torch.tensor([True]) ** torch.tensor([True])
# %% binary_float_bitand
import torch
torch.tensor([2.0]) & torch.tensor([1.0])
# %% binary_half
from tensor_show import *
a = torch.tensor([0.1, 0.2, 1000.0, -3.3], dtype=torch.half); b = torch.tensor([0.3, 0.7, 1000.5, 2.0], dtype=torch.half)
show(a + b); show(a * 3.0); show(a * b); show(a / b); show(a + 1e6); show(a.to(torch.bfloat16) * 3.3); show(a + torch.tensor([1.0, 2, 3, 4], dtype=torch.bfloat16))
# %% binary_scalar_reversed
from tensor_show import *
a = torch.tensor([1.0, 2.0, 4.0]); i = torch.tensor([1, 2, 3])
show(2 - a); show(1 / a); show(2 ** a); show(2 ** i); show(2.5 ** i); show(7 // i); show(7 % i); show(10 - i); show(3 / i)
# %% binary_pow_scalar
from tensor_show import *
a = torch.tensor([0.5, 2.0, 3.0, -1.5])
show(a ** 2); show(a ** 3); show(a ** 0.5); show(a ** -1); show(a ** -2); show(a ** -0.5); show(a ** 1.7); show(torch.tensor([2, 3]) ** 2.5); show(torch.tensor([2, 3]) ** 2)
# %% binary_broadcast
from tensor_show import *
a = torch.arange(6.).view(2, 3, 1); b = torch.arange(4.).view(4)
show(a + b); show(a.view(2, 3) * torch.tensor([[10.], [20.]])); show(torch.ones(3, 1, 2) - torch.ones(2, 1)); show(torch.ones(0, 3) + torch.ones(3))
show(torch.tensor(5.) * torch.arange(3.)); show(torch.arange(6.).view(2, 3).t() + torch.arange(2.))
# %% binary_broadcast_error
import torch
torch.ones(2, 3) + torch.ones(2, 4)
# %% binary_broadcast_error_3d
import torch
torch.ones(5, 2, 3) * torch.ones(4, 1, 3)
# %% binary_alpha_float_for_int
import torch
torch.tensor([1, 2]).add(torch.tensor([1, 1]), alpha=2.5)
# %% binary_alpha_bool
import torch
torch.tensor([1., 2.]).add(torch.tensor([1., 1.]), alpha=True)
# %% compare
from tensor_show import *
a = torch.tensor([1.0, 2.0, float('nan'), 4.0]); b = torch.tensor([1.0, 3.0, float('nan'), 0.0])
show(a == b); show(a != b); show(a < b); show(a <= b); show(a > b); show(a >= b); show(a == 2); show(torch.tensor([1, 2]) < 1.5)
show(torch.tensor([True, False]) == 1); show(torch.zeros(2, dtype=torch.uint8) == 300); show(torch.logical_and(a, b)); show(torch.logical_or(a, torch.zeros(4))); show(torch.logical_xor(a, b))
# %% unary_float
from tensor_show import *
x = torch.tensor([-1.5, -0.5, 0.0, 0.5, 2.5, 4.0])
for f in ['neg', 'abs', 'sqrt', 'rsqrt', 'exp', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sin', 'cos', 'tan', 'tanh', 'sigmoid', 'relu',
          'floor', 'ceil', 'round', 'trunc', 'frac', 'sign', 'reciprocal', 'square', 'logical_not', 'isnan']:
    show(getattr(x, f)())
# %% unary_int
from tensor_show import *
x = torch.tensor([-3, 0, 2, 5])
for f in ['neg', 'abs', 'sqrt', 'exp', 'sigmoid', 'relu', 'floor', 'round', 'sign', 'square', 'logical_not', 'bitwise_not', 'reciprocal', 'isnan']:
    show(getattr(x, f)())
# %% unary_bool
from tensor_show import *
x = torch.tensor([True, False])
for f in ['sqrt', 'exp', 'sign', 'square', 'logical_not', 'bitwise_not']:
    show(getattr(x, f)())
# %% unary_half
from tensor_show import *
x = torch.tensor([-1.5, 0.5, 2.5], dtype=torch.half)
for f in ['exp', 'log', 'sigmoid', 'tanh', 'sqrt', 'rsqrt', 'reciprocal', 'relu', 'round']:
    show(getattr(x, f)())
show(torch.tensor([-1.5, 0.5, 2.5], dtype=torch.bfloat16).exp())
# %% unary_special
from tensor_show import *
x = torch.tensor([-0.0, 0.0, float('nan'), float('inf'), -float('inf')])
show(x.sign()); show(x.relu()); show(x.abs()); show(x.sigmoid()); show(x.exp()); show(torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5]).round())
# %% unary_neg_bool
import torch
-torch.tensor([True])
# %% unary_abs_bool
import torch
torch.tensor([True]).abs()
# %% unary_relu_bool
import torch
torch.tensor([True]).relu()
# %% unary_invert_float
import torch
~torch.tensor([1.5])
# %% unary_frac_int
import torch
torch.tensor([3]).frac()
# %% reduce_sum
from tensor_show import *
x = torch.arange(24.).view(2, 3, 4)
show(x.sum()); show(x.sum(0)); show(x.sum(1)); show(x.sum(-1)); show(x.sum((0, 2))); show(x.sum(1, keepdim=True)); show(x.sum(()))
show(torch.tensor([True, False, True]).sum()); show(torch.tensor([1, 2], dtype=torch.int8).sum()); show(torch.tensor([1.5, 2.0]).sum(dtype=torch.long))
show(torch.ones(0, 3).sum(0)); show(torch.tensor(5.).sum()); show(torch.tensor(5.).sum(0)); show(x.t() if x.ndim == 2 else x.permute(2, 0, 1).sum(0))
# %% reduce_sum_order
import torch
for n in [3, 10, 17, 100, 1000, 5000]:
    x = torch.arange(n, dtype=torch.float32) * 0.1 + 0.01
    print(n, repr(x.sum().item()), repr(x.mean().item()), repr(x.view(-1, 1).sum(0).item()))
x = ((torch.arange(3000, dtype=torch.float32) * 7) % 113 * 0.013 - 0.7).view(30, 100)
print([repr(v) for v in x.sum(1).tolist()[:5]]); print([repr(v) for v in x.sum(0).tolist()[:5]]); print([repr(v) for v in x.sum(0).tolist()[-5:]])
y = x[:, :10]
print([repr(v) for v in y.sum(0).tolist()])
print(repr((torch.arange(100, dtype=torch.float64) * 0.1).sum().item()))
print(repr((torch.arange(100, dtype=torch.float16) * 0.1).sum().item()), repr((torch.arange(100, dtype=torch.bfloat16) * 0.1).sum().item()))
# %% reduce_sum_dup_dim
import torch
torch.ones(2, 3).sum((0, 0))
# %% reduce_sum_bad_dim
import torch
torch.ones(2, 3).sum(-3)
# %% reduce_mean
from tensor_show import *
x = torch.arange(12.).view(3, 4)
show(x.mean()); show(x.mean(0)); show(x.mean(1, keepdim=True)); show(x.mean(dtype=torch.float64)); show(torch.ones(0, 3).mean(0)); show(torch.ones(0).mean())
show(torch.tensor([0.1, 0.2, 0.3], dtype=torch.half).mean())
# %% reduce_mean_int
import torch
torch.ones(2, 3, dtype=torch.long).mean()
# %% reduce_mean_int_dtype
import torch
torch.ones(2, 3).mean(dtype=torch.long)
# %% reduce_prod_all_any
from tensor_show import *
x = torch.tensor([[1., 2., 3.], [4., 0., 6.]])
show(x.prod()); show(x.prod(1)); show(torch.tensor([2, 3], dtype=torch.int8).prod()); show(x.all()); show(x.any(1)); show(x.all(0))
show(torch.ones(2, 3, dtype=torch.uint8).all()); show(torch.tensor([], dtype=torch.bool).all()); show(torch.tensor([], dtype=torch.bool).any())
# %% reduce_max
from tensor_show import *
x = torch.tensor([[1, 5, 5], [7, 2, 7]])
show(x.max()); show(x.min()); v, i = x.max(1); show(v); show(i); v, i = x.min(0, keepdim=True); show(v); show(i)
show(x.argmax()); show(x.argmin()); show(x.argmax(1)); show(x.argmax(0, keepdim=True)); show(x.argmax(keepdim=True)); show(x.amax(1)); show(x.amin((0, 1)))
f = torch.tensor([float('nan'), 1, 3, float('nan')]); show(f.max()); show(f.argmax()); show(f.argmin()); show(torch.tensor([True, False]).max())
v, i = torch.tensor(5.).max(0); show(v); show(i)
# %% reduce_max_empty
import torch
torch.ones(0).max()
# %% reduce_max_empty_dim
import torch
torch.ones(2, 0).max(1)
# %% reduce_argmax_empty
import torch
torch.ones(0).argmax()
# %% reduce_argmax_bool
import torch
torch.tensor([True, False]).argmax()
# %% reduce_max_bad_dim
import torch
torch.ones(2, 3).max(2)
# %% softmax
from tensor_show import *
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1000.0]])
show(x.softmax(1)); show(x.softmax(0)); show(x.log_softmax(1)); show(x.log_softmax(0)); show(x.softmax(-1, dtype=torch.float64)); show(x.half().softmax(1))
show(torch.tensor(5.).softmax(0))
# %% softmax_int
import torch
torch.tensor([1, 2]).softmax(0)
# %% matmul_values
from tensor_show import *
a = torch.arange(6.).view(2, 3); b = torch.arange(12.).view(3, 4) * 0.5
show(a @ b); show(a.mm(b)); show(torch.matmul(a, torch.tensor([1., 2., 3.]))); show(torch.tensor([1., 2.]) @ a); show(torch.tensor([1., 2., 3.]) @ torch.tensor([4., 5., 6.]))
show(a.t() @ a); show(torch.arange(24.).view(2, 3, 4) @ torch.arange(8.).view(4, 2)); show(torch.arange(12.).view(2, 1, 2, 3) @ torch.arange(18.).view(3, 3, 2))
show(torch.bmm(torch.arange(12.).view(2, 2, 3), torch.arange(12.).view(2, 3, 2))); show(torch.arange(6).view(2, 3) @ torch.arange(6).view(3, 2))
show(torch.arange(6.).view(2, 3).double() @ torch.ones(3, 2, dtype=torch.float64)); show(torch.arange(6.).view(2, 3).half() @ torch.ones(3, 2, dtype=torch.half))
show(torch.arange(6.).view(2, 3).bfloat16() @ torch.full((3, 2), 0.1, dtype=torch.bfloat16)); show(torch.arange(3.) @ torch.arange(12.).view(2, 3, 2))
show(torch.arange(24.).view(2, 3, 4) @ torch.arange(4.)); show(torch.ones(2, 0) @ torch.ones(0, 3)); show(torch.arange(4, dtype=torch.int8).view(2, 2) @ torch.full((2, 2), 100, dtype=torch.int8))
# %% matmul_big
import torch
a = (torch.arange(64 * 96, dtype=torch.float32) * 0.01).sin().view(64, 96); b = (torch.arange(96 * 80, dtype=torch.float32) * 0.02).cos().view(96, 80)
c = a @ b
print(f"{c[0, 0].item():.4f} {c[63, 79].item():.4f} {c.sum().item():.3f}")
# %% matmul_mm_shape
import torch
torch.ones(2, 3).mm(torch.ones(4, 5))
# %% matmul_dtype
import torch
torch.ones(3, 4).matmul(torch.ones(4, 6, dtype=torch.float64))
# %% matmul_bool
import torch
torch.ones(3, 4, dtype=torch.bool).mm(torch.ones(4, 6, dtype=torch.bool))
# %% matmul_0d
import torch
torch.tensor(1.).matmul(torch.ones(4, 6))
# %% matmul_dot_size
import torch
torch.ones(3).matmul(torch.ones(4))
# %% matmul_mv_size
import torch
torch.ones(3, 2).matmul(torch.ones(4))
# %% matmul_vec_mat
import torch
torch.ones(3).matmul(torch.ones(4, 2))
# %% matmul_batch_broadcast
import torch
torch.ones(2, 3, 4).matmul(torch.ones(3, 4, 6))
# %% matmul_batch_k
import torch
torch.ones(2, 2, 3).matmul(torch.ones(2, 4, 4))
# %% matmul_bmm_k
import torch
torch.ones(2, 3, 4).bmm(torch.ones(2, 5, 6))
# %% matmul_bmm_2d
import torch
torch.ones(3, 4).bmm(torch.ones(3, 4, 6))
# %% matmul_bmm_dtype
import torch
torch.ones(2, 3, 4).bmm(torch.ones(2, 4, 5, dtype=torch.float64))
# %% matmul_mm_1d
import torch
torch.ones(3).mm(torch.ones(3, 6))
# %% matmul_dot_dtype
import torch
torch.ones(3).dot(torch.ones(3, dtype=torch.float64))
# %% matmul_mv_dtype
import torch
torch.ones(2, 3).matmul(torch.ones(3, dtype=torch.float64))
# %% shape_views
from tensor_show import *
x = torch.arange(24.).view(2, 3, 4)
lay(x); lay(x.view(6, 4)); lay(x.view(-1)); lay(x.transpose(0, 2)); lay(x.permute(2, 0, 1)); lay(x.unsqueeze(1)); lay(x.unsqueeze(-1)); lay(x[:, None])
lay(x.t() if x.ndim == 2 else x.T); lay(x.flatten()); lay(x.flatten(1)); lay(x.flatten(0, 1)); lay(x[:, 1]); lay(x[1:, ::2, 1:3]); lay(x.expand(3, 2, 3, 4))
lay(torch.ones(3, 1).expand(3, 4)); lay(torch.ones(2, 1, 3).squeeze()); lay(torch.ones(2, 1, 3).squeeze(1)); lay(torch.ones(2, 1, 3).squeeze(0)); lay(x.transpose(0, 1).contiguous())
lay(x.transpose(0, 1).reshape(-1)); lay(x.reshape(4, 6)); lay(torch.tensor(1.).view(1, 1)); lay(torch.tensor(1.).flatten()); lay(torch.tensor(1.).unsqueeze(0)); lay(x.select(1, 2)); lay(x.narrow(2, 1, 2))
lay(x.transpose(1, 2).clone()); lay(x[:, 1].clone()); lay(x.expand(2, 2, 3, 4).clone())
show(x.transpose(0, 2)); show(x.permute(1, 2, 0)); show(x[1:, ::2, 1:3]); show(x.transpose(1, 2).reshape(2, 12))
# %% shape_view_invalid
import torch
torch.ones(2, 3).view(4, 4)
# %% shape_view_noncontig
import torch
torch.ones(2, 3).t().view(6)
# %% shape_view_two_infer
import torch
torch.ones(2, 3).view(-1, -1)
# %% shape_view_negative
import torch
torch.ones(2, 3).view(-2, 3)
# %% shape_view_zero_infer
import torch
torch.ones(0, 3).view(-1, 0)
# %% shape_reshape_invalid
import torch
torch.ones(2, 3).reshape(4, -1)
# %% shape_transpose_range
import torch
torch.ones(2, 3).transpose(0, 2)
# %% shape_permute_len
import torch
torch.ones(2, 3).permute(0, 1, 2)
# %% shape_permute_dup
import torch
torch.ones(2, 3).permute(0, 0)
# %% shape_expand_mismatch
import torch
torch.ones(2, 3).expand(2, 4)
# %% shape_expand_fewer
import torch
torch.ones(2, 3).expand(3)
# %% shape_expand_leading_neg
import torch
torch.ones(2, 3).expand(-1, 2, 3)
# %% shape_flatten_order
import torch
torch.ones(2, 3, 4).flatten(2, 1)
# %% shape_unsqueeze_range
import torch
torch.ones(2, 3).unsqueeze(-4)
# %% shape_t_3d
import torch
torch.ones(2, 3, 4).t()
# %% shape_squeeze_range
import torch
torch.ones(2, 3).squeeze(2)
# %% index_basic
from tensor_show import *
x = torch.arange(24.).view(2, 3, 4)
show(x[1]); show(x[-1, 2]); show(x[0, :, 1]); show(x[..., 1]); show(x[0, ..., 1, None]); show(x[None, 1, ::2]); show(x[:, 5:10]); show(x[:, -10:1]); show(x[True])
show(x[False]); show(x[torch.tensor(1)]); show(x[0, 1, 2]); lay(x[1, ::2, 1:]); lay(x[..., 3])
# %% index_advanced
from tensor_show import *
x = torch.arange(24.).view(2, 3, 4)
show(x[torch.tensor([1, 0, 1])]); show(x[:, torch.tensor([0, 2])]); show(x[torch.tensor([0, 1]), :, torch.tensor([1, 2])]); show(x[:, torch.tensor([0, 1]), torch.tensor([1, 3])])
show(x[1, torch.tensor([0, 2]), 1:3]); show(x[torch.tensor([0, 1]), 1, torch.tensor([2, 3])]); show(x[torch.tensor([[0], [1]]), :, torch.tensor([1, 3])]); show(x[..., torch.tensor([3, 0])])
show(x[torch.tensor([-1, -2])]); show(x[:, torch.tensor([[0, 1], [2, 2]])]); show(x[torch.tensor([1, 0], dtype=torch.int32)]); lay(x[:, torch.tensor([0, 1]), torch.tensor([1, 2])])
# %% index_mask
from tensor_show import *
x = torch.arange(24.).view(2, 3, 4)
show(x[x > 20]); show(x[torch.tensor([True, False])]); show(x[:, torch.tensor([True, False, True])]); show(x[torch.tensor([[True, False, True], [False, False, True]])])
show(x[torch.tensor([True, False]), :, torch.tensor([0, 1, 1])]); show(x[torch.tensor(True)]); show(x[torch.tensor(False)]); show(x[torch.tensor([1, 0], dtype=torch.uint8)])
show(torch.arange(5)[torch.arange(5) % 2 == 0])
# %% index_too_many
import torch
torch.ones(2, 3)[0, 0, 0]
# %% index_oob
import torch
torch.ones(3)[5]
# %% index_oob_second
import torch
torch.ones(2, 3, 4)[0, 5]
# %% index_oob_tensor
import torch
torch.ones(2, 3, 4)[[0], :, [7]]
# %% index_oob_tensor_neg
import torch
torch.ones(2, 3)[torch.tensor([-3])]
# %% index_float_tensor
import torch
torch.ones(2, 3)[torch.tensor([0.5])]
# %% index_mask_shape
import torch
torch.ones(2, 3)[torch.tensor([True, False, True])]
# %% index_broadcast
import torch
torch.ones(2, 3)[torch.tensor([0, 1]), torch.tensor([0, 1, 2])]
# %% index_two_ellipsis
import torch
torch.ones(2, 3)[..., ...]
# %% index_neg_step
import torch
torch.ones(2, 3)[::-1]
# %% index_zero_step
import torch
torch.ones(2, 3)[::0]
# %% index_put
from tensor_show import *
x = torch.arange(24.).view(2, 3, 4)
y = x.clone(); y[0] = 5; show(y)
y = x.clone(); y[:, 1] = torch.tensor([1., 2, 3, 4]); show(y)
y = x.clone(); y[:, 1] = torch.ones(1, 1, 4); show(y)
y = x.clone(); y[torch.tensor([0, 1]), 1] = torch.ones(1, 1, 4); show(y)
y = x.clone(); y[torch.tensor([0, 1]), :, torch.tensor([0, 1])] = torch.tensor([7., 8., 9.]); show(y)
y = x.clone(); y[y > 20] = torch.tensor([7., 8., 9.]); show(y)
y = x.clone(); y[y > 20] = 0; show(y)
y = x.clone(); y[torch.tensor([0, 0])] = torch.tensor([7.]); show(y)
y = x.clone(); y[1:, :, ::2] = -1; show(y)
y = x.clone(); y[..., None] = 1; show(y)
y = x.clone(); y[0, 1] = torch.tensor([1, 2, 3, 4]); show(y)
y = torch.zeros(3, dtype=torch.long); y[0] = 2.7; y[torch.tensor([1])] = 3.9; show(y)
y = torch.zeros(3).expand(2, 3); y[0] = 1; show(y)
y = x.clone(); v = y[0]; v[1:, 2] = 100; show(y)
# %% index_put_dtype
import torch
y = torch.zeros(3); y[torch.tensor([0])] = torch.tensor([1])
# %% index_put_value_shape
import torch
y = torch.zeros(2, 3); y[torch.tensor([0, 1])] = torch.tensor([1., 2])
# %% index_put_mask_shape
import torch
y = torch.zeros(2, 3); y[y == 0] = torch.tensor([1., 2])
# %% index_put_basic_shape
import torch
y = torch.zeros(2, 3); y[0] = torch.tensor([1., 2])
# %% index_put_expand_dims
import torch
y = torch.zeros(2, 3, 4); y[:, 1] = torch.ones(2, 1, 4)
# %% index_put_overflow
import torch
y = torch.zeros(3, dtype=torch.uint8); y[0] = 300
# %% index_put_overlap
import torch
a = torch.arange(6.); a[1:] = a[:-1]
# %% cat_stack
from tensor_show import *
a = torch.arange(6.).view(2, 3)
show(torch.cat([a, a * 10])); show(torch.cat([a, torch.ones(2, 1)], 1)); show(torch.cat([a, torch.ones(0)])); show(torch.cat([a, torch.ones(2, 3, dtype=torch.long)]))
show(torch.cat([torch.ones(2, dtype=torch.int8), torch.ones(1, dtype=torch.int32)])); show(torch.cat([a.t(), a.t()], -1)); show(torch.cat([torch.ones(0)]))
show(torch.stack([a, a + 1])); show(torch.stack([a, a + 1], 1)); show(torch.stack([a, a + 1], -1)); show(torch.stack([torch.tensor(1.), torch.tensor(2.)]))
# %% cat_empty
import torch
torch.cat([])
# %% cat_sizes
import torch
torch.cat([torch.ones(2, 3), torch.ones(3, 3)], 1)
# %% cat_ndim
import torch
torch.cat([torch.ones(2, 3), torch.ones(3)])
# %% cat_dim
import torch
torch.cat([torch.ones(2, 3), torch.ones(2, 3)], 2)
# %% cat_zero_dim
import torch
torch.cat([torch.tensor(1.), torch.tensor(2.)])
# %% stack_sizes
import torch
torch.stack([torch.ones(2, 3), torch.ones(3)])
# %% stack_empty
import torch
torch.stack([])
# %% where
from tensor_show import *
a = torch.arange(6.).view(2, 3)
show(torch.where(a > 2, a, -a)); show(torch.where(a > 2, a, 5)); show(torch.where(a > 2, 5, 2.5)); show(torch.where(a > 2, torch.ones(3, dtype=torch.long), 2.5))
show(torch.where(torch.tensor([True, False]).view(2, 1), torch.tensor([1, 2, 3]), torch.tensor(0))); show(torch.where(a > 1, 1, 0))
# %% where_not_bool
import torch
torch.where(torch.ones(2), torch.ones(2), torch.ones(2))
# %% where_overflow
import torch
torch.where(torch.tensor([True]), torch.zeros(1, dtype=torch.uint8), 300)
# %% inplace
from tensor_show import *
x = torch.arange(6.).view(2, 3); v = x[:, 1]; t = x.t()
x += 1; show(v); v.mul_(10); show(x); t[0].zero_(); show(x); x.fill_(2.5); show(t)
y = torch.ones(2, 3); y.add_(torch.tensor([1., 2., 3.]), alpha=2); show(y); y.sub_(1); show(y); y.div_(2); show(y); y.pow_(2); show(y)
z = torch.tensor([5, 7]); z //= 2; show(z); z *= 3; show(z); z.clamp_(min=8); show(z)
h = torch.tensor([1., 2.], dtype=torch.half); h.mul_(torch.tensor([2.], dtype=torch.float64)); show(h)
f = torch.tensor([1., 2.]); f.lt_(1.5); show(f); f.add_(True); show(f)
a = torch.arange(5.); a += a; show(a); b = torch.arange(6.).view(2, 3); b.t().add_(b.t()); show(b)
c = torch.zeros(3); c.copy_(torch.tensor([1, 2, 3])); show(c); c.copy_(torch.tensor(7)); show(c); c[1:].copy_(torch.tensor([True, False])); show(c)
d = torch.arange(4.); d.add_(d.flip(0) if hasattr(d, 'flip') else d); show(d)
# %% inplace_cast
import torch
x = torch.ones(2, dtype=torch.long); x.add_(torch.ones(2))
# %% inplace_cast_scalar
import torch
x = torch.ones(2, dtype=torch.long); x.mul_(1.5)
# %% inplace_cast_bool
import torch
x = torch.tensor([True, False]); x.add_(1)
# %% inplace_div_int
import torch
x = torch.tensor([1, 2]); x.div_(2)
# %% inplace_expanded
import torch
y = torch.ones(3).expand(2, 3); y.add_(1)
# %% inplace_overlap
import torch
a = torch.arange(5.); a[1:] += a[:-1]
# %% inplace_shape
import torch
a = torch.arange(3.); a.add_(torch.ones(2, 3))
# %% inplace_copy_shape
import torch
a = torch.arange(3.); a.copy_(torch.ones(2))
# %% inplace_fill_tensor
import torch
torch.tensor([1, 2]).fill_(torch.tensor([1, 2]))
# %% inplace_fill_overflow
import torch
torch.zeros(2, dtype=torch.half).fill_(1e6)
# %% cast
from tensor_show import *
x = torch.tensor([-1.7, -0.5, 0.0, 0.4, 2.5, 300.0, 1e20, float('nan'), float('inf')])
for d in [torch.bool, torch.uint8, torch.int8, torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float64]:
    show(x.to(d))
i = torch.tensor([-129, -1, 0, 1, 255, 256, 2**31, 2**53 + 1])
for d in [torch.bool, torch.uint8, torch.int8, torch.int32, torch.float16, torch.bfloat16, torch.float32, torch.float64]:
    show(i.to(d))
show(torch.tensor([0.1, 0.2], dtype=torch.float64).to(torch.float16)); show(torch.tensor([True, False]).to(torch.float32)); show(torch.tensor([65519.0, 65520.0]).half())
# %% item_tolist
import torch
print(repr(torch.tensor(5.).item()), repr(torch.tensor([5], dtype=torch.half).item()), repr(torch.tensor([[2**62]]).item()), repr(torch.tensor(True).item()), repr(torch.tensor(0.1).item()))
print(torch.tensor([[1, 2], [3, 4]]).tolist(), torch.tensor(0.1).tolist(), torch.tensor([0.1, 0.2]).half().tolist(), torch.ones(2, 0).tolist(), torch.tensor([True]).tolist())
print(torch.tensor([0.1, 0.2]).to(torch.bfloat16).tolist(), torch.tensor([1e-5, 1e16, 123456789.0, -0.0]).double().tolist())
# %% item_many
import torch
torch.ones(2, 3).item()
# %% equal_allclose
import torch
a = torch.tensor([1.0, 2.0, 3.0])
print(torch.equal(a, a.clone()), torch.equal(a, torch.tensor([1, 2, 3])), torch.equal(a, a[:2]), torch.equal(torch.ones(2, 3), torch.ones(3)))
print(torch.allclose(a, a + 1e-6), torch.allclose(a, a + 1e-3), torch.allclose(a, torch.tensor([1.0, 2.0, 3.0001]), rtol=1e-4), torch.allclose(torch.ones(2, 3), torch.ones(3)))
print(torch.allclose(torch.tensor([float('nan')]), torch.tensor([float('nan')])), torch.allclose(torch.tensor([float('nan')]), torch.tensor([float('nan')]), equal_nan=True))
print(torch.allclose(torch.tensor([float('inf')]), torch.tensor([float('inf')])), torch.allclose(torch.tensor([1.0]), torch.tensor([float('inf')])), torch.allclose(torch.ones(2, dtype=torch.long), torch.ones(2, dtype=torch.long)))
# %% allclose_dtype
import torch
torch.ones(2, 3).allclose(torch.ones(3, dtype=torch.long))
# %% allclose_shape
import torch
torch.ones(2, 3).allclose(torch.ones(4))
