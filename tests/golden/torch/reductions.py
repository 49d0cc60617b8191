# %% sum_all
import torch
x = torch.arange(6.).reshape(2, 3)
print(x.sum(), torch.sum(x))
# %% sum_dim
import torch
x = torch.arange(6.).reshape(2, 3)
print(x.sum(0), x.sum(dim=1), x.sum(1, keepdim=True))
# %% sum_neg_dim_tuple
import torch
x = torch.arange(24).reshape(2, 3, 4)
print(x.sum(-1))
print(x.sum((0, 2)))
# %% sum_int_dtype
import torch
x = torch.tensor([1, 2, 3], dtype=torch.int32)
print(x.sum(), x.sum().dtype)
# %% sum_bool
import torch
x = torch.tensor([True, True, False])
print(x.sum())
# %% sum_dtype_kw
import torch
x = torch.tensor([1, 2, 3])
print(x.sum(dtype=torch.float32))
# %% mean_all_dim
import torch
x = torch.arange(6.).reshape(2, 3)
print(x.mean(), x.mean(0), x.mean(dim=1, keepdim=True))
# %% mean_float64
import torch
print(torch.tensor([1.0, 2.0], dtype=torch.float64).mean())
# %% max_min_all
import torch
x = torch.tensor([[3, 7, 1], [9, 2, 5]])
print(x.max(), x.min(), torch.max(x))
# %% max_dim_namedtuple
import torch
x = torch.tensor([[3., 7., 1.], [9., 2., 5.]])
r = x.max(dim=1)
print(r)
print(r.values, r.indices)
v, i = x.min(0)
print(v, i)
# %% max_dim_keepdim
import torch
x = torch.tensor([[3., 7., 1.], [9., 2., 5.]])
print(torch.max(x, 1, keepdim=True))
# %% max_binary
import torch
print(torch.max(torch.tensor([1, 5]), torch.tensor([4, 2])))
# %% argmax_argmin
import torch
x = torch.tensor([[3., 7., 1.], [9., 2., 5.]])
print(x.argmax(), x.argmin(), x.argmax(dim=1), torch.argmax(x, 0, keepdim=True))
# %% argmax_ties
import torch
print(torch.tensor([1, 3, 3, 0]).argmax())
# %% prod
import torch
x = torch.tensor([[1., 2.], [3., 4.]])
print(x.prod(), x.prod(1))
# %% amax_amin
import torch
x = torch.tensor([[1., 5.], [3., 4.]])
print(x.amax(), x.amax(0), x.amin(dim=1))
# %% all_any
import torch
x = torch.tensor([[True, False], [True, True]])
print(x.all(), x.any(), x.all(dim=1), torch.any(x, 0))
# %% sum_empty
import torch
print(torch.zeros(0).sum(), torch.zeros(2, 0).sum(1))
# %% mean_keepdim_3d
import torch
x = torch.arange(24.).reshape(2, 3, 4)
print(x.mean(1, keepdim=True).shape, x.mean((1, 2)))
# %% max_nan
import torch
print(torch.tensor([1.0, float('nan'), 3.0]).max())
# %% sum_large_float
import torch
x = torch.full((1000,), 0.1)
print(x.sum())
# %% item_of_reduction
import torch
x = torch.arange(10.)
print(x.sum().item(), x.mean().item(), x.max().item(), x.argmax().item())
