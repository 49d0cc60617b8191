# %% zeros_ones
import torch
print(torch.zeros(2, 3), torch.ones(3, dtype=torch.int64))
# %% zeros_tuple_list
import torch
print(torch.zeros((2,)), torch.ones([1, 2]))
# %% full
import torch
print(torch.full((2, 2), 7), torch.full((2,), 1.5), torch.full((1,), True))
# %% full_dtype
import torch
print(torch.full((2,), 3, dtype=torch.float32))
# %% arange_forms
import torch
print(torch.arange(5), torch.arange(2, 8), torch.arange(0, 1, 0.25), torch.arange(5.0))
# %% arange_negative_step
import torch
print(torch.arange(5, 0, -1), torch.arange(1, 0, -0.3))
# %% arange_dtype
import torch
print(torch.arange(3, dtype=torch.float64))
# %% linspace
import torch
print(torch.linspace(0, 1, 5), torch.linspace(-1, 1, steps=3))
# %% linspace_odd
import torch
print(torch.linspace(0, 10, 7))
# %% eye
import torch
print(torch.eye(3), torch.eye(2, 3))
# %% tensor_nested_types
import torch
print(torch.tensor([[1, 2], [3, 4]]).dtype, torch.tensor([1, 2.0]).dtype, torch.tensor([True, 1]).dtype)
# %% tensor_dtype_kw
import torch
print(torch.tensor([1, 2], dtype=torch.float32), torch.tensor([1.7, -1.7], dtype=torch.int64))
# %% tensor_from_tensor_list
import torch
print(torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]))
# %% tensor_from_tuple
import torch
print(torch.tensor((1, 2, 3)))
# %% tensor_scalar_shape
import torch
x = torch.tensor(5.0)
print(x.shape, x.ndim, x.numel(), x.dim())
# %% like_functions
import torch
x = torch.arange(6).reshape(2, 3)
print(torch.zeros_like(x), torch.ones_like(x, dtype=torch.float32))
# %% full_like_empty_like_shape
import torch
x = torch.ones(2, 2, dtype=torch.float64)
print(torch.empty_like(x).shape, torch.empty_like(x).dtype)
# %% empty_shape
import torch
x = torch.empty(3, 2)
print(x.shape, x.dtype)
# %% item_tolist
import torch
x = torch.tensor([[1.5, 2.0], [3.0, 4.0]])
print(x.tolist(), x[0, 0].item(), type(x[0, 0].item()).__name__)
print(torch.tensor([1, 2]).tolist(), torch.tensor(3).tolist(), torch.tensor([True]).tolist())
# %% item_int_bool
import torch
print(torch.tensor(7).item(), torch.tensor(False).item(), torch.tensor([2.5]).item())
# %% tolist_float32_precision
import torch
print(torch.tensor([0.1, 0.2]).tolist())
# %% numpy_array
import torch
x = torch.tensor([[1.0, 2.5], [3.0, 4.0]])
a = x.numpy()
print(a)
print(a.shape, a.dtype)
# %% numpy_int_bool
import torch
print(torch.arange(4).numpy(), torch.tensor([True, False]).numpy())
# %% numpy_shares_memory
import torch
x = torch.zeros(3)
a = x.numpy()
x[0] = 5
print(a)
# %% float_int_conversion
import torch
x = torch.tensor(2.7)
print(float(x), int(x), bool(torch.tensor(0.0)))
# %% dtype_conversions
import torch
x = torch.tensor([1.6, -2.4])
print(x.long(), x.int(), x.double(), x.half(), x.bool(), x.float().dtype)
# %% element_size_nbytes
import torch
x = torch.zeros(4, dtype=torch.float16)
print(x.element_size(), x.nbytes, torch.zeros(3).element_size(), torch.zeros(2, dtype=torch.int64).nbytes)
# %% default_dtype
import torch
print(torch.get_default_dtype(), torch.tensor([1.0]).dtype, torch.zeros(1).dtype)
# %% is_tensor_isinstance
import torch
x = torch.zeros(1)
print(torch.is_tensor(x), isinstance(x, torch.Tensor), torch.is_tensor([1]))
# %% type_strings
import torch
print(torch.zeros(1).type(), torch.zeros(1, dtype=torch.int64).type())
# %% requires_grad_attr
import torch
x = torch.ones(2)
print(x.requires_grad, x.is_leaf)
x.requires_grad_()
print(x.requires_grad)
# %% numpy_repr_3d
import torch
a = torch.arange(8, dtype=torch.float64).reshape(2, 2, 2).numpy()
print(repr(a))
print(a)
# %% numpy_negative_floats
import torch
print(torch.tensor([-1.0, 2.5, 10.0]).numpy())
print(repr(torch.tensor([[-1, 2], [30, 4]]).numpy()))
# %% generator_seed
import torch
g = torch.manual_seed(3)
print(g.initial_seed(), g is torch.manual_seed(4), torch.initial_seed())

# %% arange_lanes_bits
# long float ranges take PyTorch's vector lanes (each block's first value rounded, then the
# lanes added to it); every bit, as a hash of the exact values, with a few shown
import torch
for args, dt in (((0, 3, 0.1), None), ((-1, 5, 0.037), torch.float64), ((0.5, 100.0, 0.3), None),
                 ((1e6, 1e6 + 5000, 0.7), None), ((3, -2, -0.013), torch.float64)):
    v = torch.arange(*args, dtype=dt).double().tolist()
    print(len(v), hash(tuple(v)), v[15:18], v[-2:])
i = torch.arange(-7, 100000, 3)
print(i.shape, i[:3], i[-3:], i.sum(), torch.arange(10, -5, -4, dtype=torch.int32))
