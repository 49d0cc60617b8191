# %% gather_dim1_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
i = torch.tensor([[0, 0], [1, 2], [3, 1]])
y = x.gather(1, i)
print(y)
(y * y).sum().backward()
print(x.grad)

# %% gather_dim1_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
i = torch.tensor([[3], [2], [0]])
y = x.gather(1, i)
print(y)
(y * y).sum().backward()
print(x.grad)

# %% gather_dim1_2
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
i = torch.tensor([[0, 1, 2, 3], [3, 2, 1, 0], [1, 1, 1, 1]])
y = x.gather(1, i)
print(y)
(y * y).sum().backward()
print(x.grad)

# %% gather_dim0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = torch.gather(x, 0, torch.tensor([[2, 1, 0, 0]]))
print(y)
y.sum().backward()
print(x.grad)

# %% gather_out_of_range
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
x.gather(1, torch.tensor([[4]]))

# %% gather_int_index_dtype
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
x.gather(1, torch.tensor([[0]], dtype=torch.int32))

# %% gather_too_big
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
x.gather(1, torch.zeros(4, 1, dtype=torch.long))

# %% gather_classic_pick
import torch
logits = torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]])
labels = torch.tensor([1, 0])
print(logits.gather(1, labels.unsqueeze(1)).squeeze(1))

# %% scatter_add_0
import torch
z = torch.zeros(2, 4)
src = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = z.scatter_add(1, torch.tensor([[0, 1], [2, 0]]), src)
print(y)
(y * torch.arange(8.).reshape(2, 4)).sum().backward()
print(src.grad)

# %% scatter_src_0
import torch
z = torch.zeros(2, 4)
src = torch.tensor([[1., 2.], [3., 4.]])
print(z.scatter(1, torch.tensor([[0, 1], [2, 0]]), src))

# %% scatter_add_1
import torch
z = torch.zeros(2, 4)
src = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = z.scatter_add(1, torch.tensor([[1, 1], [1, 1]]), src)
print(y)
(y * torch.arange(8.).reshape(2, 4)).sum().backward()
print(src.grad)

# %% scatter_src_1
import torch
z = torch.zeros(2, 4)
src = torch.tensor([[1., 2.], [3., 4.]])
print(z.scatter(1, torch.tensor([[1, 1], [1, 1]]), src))

# %% scatter_add_2
import torch
z = torch.zeros(2, 4)
src = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = z.scatter_add(1, torch.tensor([[3, 0], [0, 3]]), src)
print(y)
(y * torch.arange(8.).reshape(2, 4)).sum().backward()
print(src.grad)

# %% scatter_src_2
import torch
z = torch.zeros(2, 4)
src = torch.tensor([[1., 2.], [3., 4.]])
print(z.scatter(1, torch.tensor([[3, 0], [0, 3]]), src))

# %% scatter_value
import torch
print(torch.zeros(3, 3).scatter(0, torch.tensor([[0, 1, 2]]), 7.))

# %% scatter_onehot
import torch
labels = torch.tensor([2, 0, 1])
print(torch.zeros(3, 4).scatter_(1, labels.unsqueeze(1), 1.0))

# %% scatter_add_inplace
import torch
t = torch.ones(5)
t.scatter_add_(0, torch.tensor([0, 0, 4]), torch.tensor([1., 2., 3.]))
print(t)

# %% scatter_grad_self
import torch
x = torch.ones(2, 3, requires_grad=True)
y = x.scatter(1, torch.tensor([[0], [2]]), 5.)
y.sum().backward()
print(y, x.grad)

# %% bincount_via_scatter
import torch
i = torch.tensor([0, 2, 2, 1])
print(torch.zeros(3, dtype=torch.long).scatter_add(0, i, torch.ones(4, dtype=torch.long)))

# %% masked_fill_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.masked_fill(x > 1, 0.)
print(y)
y.sum().backward()
print(x.grad)

# %% masked_fill_m1e9
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.masked_fill(x > 1, -1e9)
print(y)
y.sum().backward()
print(x.grad)

# %% masked_fill_neginf
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.masked_fill(x > 1, float('-inf'))
print(y)
y.sum().backward()
print(x.grad)

# %% masked_fill_t2
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.masked_fill(x > 1, torch.tensor(2.))
print(y)
y.sum().backward()
print(x.grad)

# %% masked_fill_broadcast
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.detach().masked_fill(torch.tensor([True, False, False, True]), 0.))

# %% masked_fill_inplace
import torch
t = torch.arange(6.).reshape(2, 3)
t.masked_fill_(t % 2 == 0, -1)
print(t)

# %% masked_fill_int
import torch
x = torch.tensor([[3, 1, 2], [5, 4, -1]])
print(x.masked_fill(x < 0, 0))

# %% masked_fill_long_mask
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
x.masked_fill(torch.ones(3, 4, dtype=torch.long), 0.)

# %% masked_fill_attention
import torch
s = torch.ones(3, 3)
mask = torch.triu(torch.ones(3, 3), 1).bool()
print(torch.softmax(s.masked_fill(mask, float('-inf')), -1))

# %% repeat_2_1
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.repeat(2, 1)
print(y)
y.sum().backward()
print(x.grad)

# %% repeat_1_2
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.repeat(1, 2)
print(y)
y.sum().backward()
print(x.grad)

# %% repeat_2_2
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.repeat(2, 2)
print(y)
y.sum().backward()
print(x.grad)

# %% repeat_3_1
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.repeat((3, 1))
print(y)
y.sum().backward()
print(x.grad)

# %% repeat_2_1_1
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.repeat(2, 1, 1)
print(y)
y.sum().backward()
print(x.grad)

# %% repeat_1d
import torch
print(torch.tensor([1, 2, 3]).repeat(2), torch.tensor([1, 2]).repeat(2, 2))

# %% repeat_too_few
import torch
torch.ones(2, 2).repeat(2)

# %% tile_basic
import torch
x = torch.tensor([[1, 2], [3, 4]])
print(x.tile((2,)), torch.tile(x, (2, 1, 1)), x.tile(2, 2))

# %% expand_as_basic
import torch
a = torch.tensor([[1.], [2.]], requires_grad=True)
y = a.expand_as(torch.ones(2, 3))
print(y)
y.sum().backward()
print(a.grad)

# %% diag_1d_0
import torch
v = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.diag(v, 0)
print(y)
(y * torch.arange(y.numel(), dtype=torch.float).reshape(y.shape)).sum().backward()
print(v.grad)

# %% diag_2d_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = torch.diag(x, 0)
print(y)
y.sum().backward()
print(x.grad)

# %% diag_1d_1
import torch
v = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.diag(v, 1)
print(y)
(y * torch.arange(y.numel(), dtype=torch.float).reshape(y.shape)).sum().backward()
print(v.grad)

# %% diag_2d_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = torch.diag(x, 1)
print(y)
y.sum().backward()
print(x.grad)

# %% diag_1d_m1
import torch
v = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.diag(v, -1)
print(y)
(y * torch.arange(y.numel(), dtype=torch.float).reshape(y.shape)).sum().backward()
print(v.grad)

# %% diag_2d_m1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = torch.diag(x, -1)
print(y)
y.sum().backward()
print(x.grad)

# %% diag_1d_2
import torch
v = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.diag(v, 2)
print(y)
(y * torch.arange(y.numel(), dtype=torch.float).reshape(y.shape)).sum().backward()
print(v.grad)

# %% diag_2d_2
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = torch.diag(x, 2)
print(y)
y.sum().backward()
print(x.grad)

# %% diag_3d_error
import torch
torch.diag(torch.ones(2, 2, 2))

# %% tril_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.tril(0)
print(y)
y.sum().backward()
print(x.grad)

# %% triu_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(torch.triu(x, diagonal=0))

# %% tril_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.tril(1)
print(y)
y.sum().backward()
print(x.grad)

# %% triu_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(torch.triu(x, diagonal=1))

# %% tril_m1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.tril(-1)
print(y)
y.sum().backward()
print(x.grad)

# %% triu_m1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(torch.triu(x, diagonal=-1))

# %% tril_5
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.tril(5)
print(y)
y.sum().backward()
print(x.grad)

# %% triu_5
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(torch.triu(x, diagonal=5))

# %% tril_ones_mask
import torch
print(torch.tril(torch.ones(4, 4)))

# %% triu_batched
import torch
print(torch.ones(2, 2, 3).triu())

# %% tril_1d_error
import torch
torch.tril(torch.ones(3))

# %% triu_inf
import torch
print(torch.full((3, 3), float('-inf')).triu(1))


# %% split_chunk_where_count_nonzero
import torch
x = torch.arange(10.).reshape(5, 2).requires_grad_()
a = x.split(2)
print(a)
b = torch.split(x, [1, 4])
print(b)
print(x.chunk(3), torch.chunk(x, 2, dim=1))
print(torch.arange(6).chunk(4))
print(torch.arange(5).split(2, dim=-1))
(a[0].sum() * 2 + b[1].sum()).backward()
print(x.grad)
print(torch.where(torch.tensor([[1, 0], [0, 3]]) > 0))
print(torch.count_nonzero(torch.tensor([[1, 0], [0, 3]])), torch.tensor([[1, 0], [2, 3]]).count_nonzero(dim=0))
for f in [lambda: x.split([2, 2]), lambda: x.chunk(0), lambda: x.split(-1), lambda: x.split(2, dim=3)]:
    try:
        f()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)

# %% where_one_argument_edges
import torch
print(torch.where(torch.tensor(True)), torch.where(torch.tensor([False, True, True])))
print(torch.where(torch.zeros(2, 0) > 0))
