# %% sort_d0_asc
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
v, i = x.sort(dim=0, descending=False)
print(v)
print(i)
(v * torch.arange(v.numel()).reshape(v.shape)).sum().backward()
print(x.grad)

# %% argsort_d0_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(torch.argsort(x, dim=0, descending=False))

# %% sort_d0_desc
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
v, i = x.sort(dim=0, descending=True)
print(v)
print(i)
(v * torch.arange(v.numel()).reshape(v.shape)).sum().backward()
print(x.grad)

# %% argsort_d0_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(torch.argsort(x, dim=0, descending=True))

# %% sort_d1_asc
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
v, i = x.sort(dim=1, descending=False)
print(v)
print(i)
(v * torch.arange(v.numel()).reshape(v.shape)).sum().backward()
print(x.grad)

# %% argsort_d1_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(torch.argsort(x, dim=1, descending=False))

# %% sort_d1_desc
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
v, i = x.sort(dim=1, descending=True)
print(v)
print(i)
(v * torch.arange(v.numel()).reshape(v.shape)).sum().backward()
print(x.grad)

# %% argsort_d1_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(torch.argsort(x, dim=1, descending=True))

# %% sort_d-1_asc
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
v, i = x.sort(dim=-1, descending=False)
print(v)
print(i)
(v * torch.arange(v.numel()).reshape(v.shape)).sum().backward()
print(x.grad)

# %% argsort_d-1_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(torch.argsort(x, dim=-1, descending=False))

# %% sort_d-1_desc
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
v, i = x.sort(dim=-1, descending=True)
print(v)
print(i)
(v * torch.arange(v.numel()).reshape(v.shape)).sum().backward()
print(x.grad)

# %% argsort_d-1_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(torch.argsort(x, dim=-1, descending=True))

# %% sort_int
import torch
x = torch.tensor([[3, 1, 2], [5, 4, -1]])
print(torch.sort(x))
print(x.sort(0).values)

# %% sort_1d_nan
import torch
print(torch.tensor([2., float('nan'), -1., 0.]).sort())

# %% sort_ties_stable
import torch
v, i = torch.tensor([1., 0., 1., 0., 1.]).sort(stable=True)
print(v, i)

# %% sort_scalar
import torch
print(torch.tensor(3.).sort())

# %% sort_returntype
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
r = x.sort()
print(type(r).__name__, r.indices.dtype)
v, i = r
print(v.shape)

# %% sort_bad_dim
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
x.sort(dim=2)

# %% topk_1_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
r = x.topk(1, largest=True)
print(r)
r.values.sum().backward()
print(x.grad)

# %% topk_1_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
r = x.topk(1, largest=False)
print(r)
r.values.sum().backward()
print(x.grad)

# %% topk_2_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
r = x.topk(2, largest=True)
print(r)
r.values.sum().backward()
print(x.grad)

# %% topk_2_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
r = x.topk(2, largest=False)
print(r)
r.values.sum().backward()
print(x.grad)

# %% topk_4_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
r = x.topk(4, largest=True)
print(r)
r.values.sum().backward()
print(x.grad)

# %% topk_4_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
r = x.topk(4, largest=False)
print(r)
r.values.sum().backward()
print(x.grad)

# %% topk_dim0
import torch
x = torch.tensor([[3., 1.5, 2.], [0.5, 4., -1.], [1., 1., 0.]])
print(torch.topk(x, 2, dim=0))

# %% topk_too_big
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
x.topk(5)

# %% topk_1d
import torch
print(torch.tensor([1., 5., 3., 4.]).topk(3))

# %% kthvalue_1_1_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
r = torch.kthvalue(x, 1, 1, False)
print(r)
r[0].sum().backward()
print(x.grad)

# %% kthvalue_2_1_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
r = torch.kthvalue(x, 2, 1, True)
print(r)
r[0].sum().backward()
print(x.grad)

# %% kthvalue_3_0_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
r = torch.kthvalue(x, 3, 0, False)
print(r)
r[0].sum().backward()
print(x.grad)

# %% kthvalue_2_-1_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
r = torch.kthvalue(x, 2, -1, False)
print(r)
r[0].sum().backward()
print(x.grad)

# %% kthvalue_bad_k
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
x.kthvalue(9)

# %% cumsum_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.cumsum(0)
print(y)
(y * y).sum().backward()
print(x.grad)

# %% cumprod_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = torch.cumprod(x, dim=0)
print(y)
y.sum().backward()
print(x.grad)

# %% cumsum_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.cumsum(1)
print(y)
(y * y).sum().backward()
print(x.grad)

# %% cumprod_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = torch.cumprod(x, dim=1)
print(y)
y.sum().backward()
print(x.grad)

# %% cumsum_-1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.cumsum(-1)
print(y)
(y * y).sum().backward()
print(x.grad)

# %% cumprod_-1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = torch.cumprod(x, dim=-1)
print(y)
y.sum().backward()
print(x.grad)

# %% cumsum_int
import torch
x = torch.tensor([[3, 1, 2], [5, 4, -1]])
print(x.cumsum(1), x.cumsum(0).dtype)

# %% cumsum_bool
import torch
print(torch.tensor([True, False, True]).cumsum(0))

# %% cumsum_dtype
import torch
x = torch.tensor([[3, 1, 2], [5, 4, -1]])
print(torch.cumsum(x, 1, dtype=torch.float64))

# %% cumprod_zero_grad
import torch
x = torch.tensor([2., 0., 3., 4.], requires_grad=True)
y = x.cumprod(0)
y.sum().backward()
print(y, x.grad)

# %% cumsum_1d_float
import torch
print(torch.arange(10.).cumsum(0) / 3)

# %% cumsum_bad_dim
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
x.cumsum(3)

# %% flip_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.flip(0)
print(y)
(y * torch.arange(12.).reshape(3, 4)).sum().backward()
print(x.grad)

# %% flip_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.flip(1)
print(y)
(y * torch.arange(12.).reshape(3, 4)).sum().backward()
print(x.grad)

# %% flip_[0, 1]
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.flip([0, 1])
print(y)
(y * torch.arange(12.).reshape(3, 4)).sum().backward()
print(x.grad)

# %% flip_(-1,)
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.flip((-1,))
print(y)
(y * torch.arange(12.).reshape(3, 4)).sum().backward()
print(x.grad)

# %% fliplr_ud
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(torch.fliplr(x.detach()), torch.flipud(x.detach()))

# %% roll_1_
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = torch.roll(x, 1)
print(y)
(y * torch.arange(12.).reshape(3, 4)).sum().backward()
print(x.grad)

# %% roll_-2_
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = torch.roll(x, -2)
print(y)
(y * torch.arange(12.).reshape(3, 4)).sum().backward()
print(x.grad)

# %% roll_1_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = torch.roll(x, 1, 1)
print(y)
(y * torch.arange(12.).reshape(3, 4)).sum().backward()
print(x.grad)

# %% roll_1_2_0_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = torch.roll(x, (1, 2), (0, 1))
print(y)
(y * torch.arange(12.).reshape(3, 4)).sum().backward()
print(x.grad)

# %% roll_5_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = torch.roll(x, 5, 0)
print(y)
(y * torch.arange(12.).reshape(3, 4)).sum().backward()
print(x.grad)

# %% roll_mismatch
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
torch.roll(x, (1, 2), 0)


# %% return_types_are_tuples
import torch
x = torch.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]])
r = torch.max(x, 1)
print(isinstance(r, tuple), isinstance(r, (list, tuple)), type(r).__name__)
v, i = x.min(dim=0)
print(v, i, isinstance(x.sort(1), tuple), isinstance(x.topk(2), tuple))
print(tuple(r), len(r), r[0], r.indices)
print(isinstance(x.max(), tuple))
