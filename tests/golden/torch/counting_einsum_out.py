# %% unique_basic
import torch
print(torch.unique(torch.tensor([3, 1, 2, 3, 1])))

# %% unique_inverse
import torch
print(torch.unique(torch.tensor([3, 1, 2, 3, 1]), return_inverse=True))

# %% unique_counts
import torch
print(torch.tensor([3., 1., 2., 3., 1.]).unique(return_counts=True))

# %% unique_both
import torch
v, i, c = torch.unique(torch.tensor([[1, 2], [2, 5]]), return_inverse=True, return_counts=True)
print(v, i, c)

# %% unique_bool
import torch
print(torch.unique(torch.tensor([True, False, True])))

# %% bincount_basic
import torch
print(torch.bincount(torch.tensor([0, 1, 1, 3])))

# %% bincount_minlength
import torch
print(torch.tensor([1, 1]).bincount(minlength=5))

# %% bincount_weights
import torch
print(torch.bincount(torch.tensor([0, 1, 1]), weights=torch.tensor([0.5, 1., 2.])))

# %% bincount_weights_f64
import torch
print(torch.bincount(torch.tensor([2, 0]), weights=torch.tensor([0.5, 1.], dtype=torch.float64)))

# %% bincount_negative
import torch
torch.bincount(torch.tensor([-1, 2]))

# %% bincount_float
import torch
torch.bincount(torch.tensor([1., 2.]))

# %% bincount_empty
import torch
print(torch.bincount(torch.tensor([], dtype=torch.long)))

# %% histc_basic
import torch
print(torch.histc(torch.tensor([1., 2, 1]), bins=4, min=0, max=3))

# %% histc_auto_range
import torch
print(torch.histc(torch.tensor([1., 2, 1, 4, 5.5]), bins=5))

# %% histc_outside
import torch
print(torch.tensor([-1., 0., 0.5, 1., 2.]).histc(bins=2, min=0, max=1))

# %% histc_same
import torch
print(torch.histc(torch.tensor([2., 2.]), bins=4))

# %% histc_int_error
import torch
torch.histc(torch.tensor([1, 2]))

# %% einsum_matmul
import torch
a = torch.arange(6.).reshape(2, 3)
b = torch.arange(12.).reshape(3, 4)
print(torch.einsum('ij,jk->ik', a, b), a @ b)

# %% einsum_transpose
import torch
print(torch.einsum('ij->ji', torch.arange(6).reshape(2, 3)))

# %% einsum_sum
import torch
a = torch.arange(6.).reshape(2, 3)
print(torch.einsum('ij->', a), torch.einsum('ij->i', a), torch.einsum('ij->j', a))

# %% einsum_outer
import torch
print(torch.einsum('i,j->ij', torch.tensor([1., 2.]), torch.tensor([3., 4., 5.])))

# %% einsum_dot
import torch
print(torch.einsum('i,i->', torch.tensor([1., 2., 3.]), torch.tensor([4., 5., 6.])))

# %% einsum_batch
import torch
a = torch.arange(12.).reshape(2, 2, 3)
b = torch.arange(12.).reshape(2, 3, 2)
print(torch.einsum('bij,bjk->bik', a, b))

# %% einsum_implicit
import torch
a = torch.arange(6.).reshape(2, 3)
b = torch.arange(12.).reshape(3, 4)
print(torch.einsum('ij,jk', a, b), torch.einsum('ba', a))

# %% einsum_list_arg
import torch
print(torch.einsum('i,i', [torch.tensor([1., 2.]), torch.tensor([3., 4.])]))

# %% einsum_spaces
import torch
print(torch.einsum('i j , j -> i', torch.ones(2, 3), torch.arange(3.)))

# %% einsum_grad
import torch
a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
b = torch.tensor([[0.5, -1.], [2., 1.]], requires_grad=True)
y = torch.einsum('ij,jk->ik', a, b)
print(y)
y.sum().backward()
print(a.grad, b.grad)

# %% einsum_attention
import torch
q = torch.arange(6.).reshape(1, 2, 3)
k = torch.ones(1, 2, 3)
print(torch.einsum('bqd,bkd->bqk', q, k))

# %% einsum_wrong_count
import torch
torch.einsum('ij,jk->ik', torch.ones(2, 2))

# %% einsum_wrong_dims
import torch
torch.einsum('ijk->i', torch.ones(2, 2))

# %% einsum_mismatch
import torch
torch.einsum('ij,jk->ik', torch.ones(2, 3), torch.ones(2, 2))

# %% out_add
import torch
a = torch.tensor([1., 2.])
o = torch.empty(2)
r = torch.add(a, 1, out=o)
print(o, r is o)

# %% out_mul_matmul
import torch
a = torch.tensor([[1., 2.], [3., 4.]])
o = torch.zeros(2, 2)
torch.mul(a, a, out=o)
print(o)
torch.matmul(a, a, out=o)
print(o)

# %% out_sum_cumsum
import torch
a = torch.arange(4.)
o = torch.zeros(4)
torch.cumsum(a, 0, out=o)
print(o)
s = torch.zeros(())
torch.sum(a, out=s) if False else None
print(torch.exp(a, out=o), o)

# %% out_int_to_float
import torch
o = torch.zeros(2)
torch.add(torch.tensor([1, 2]), 1, out=o)
print(o)

# %% out_cast_error
import torch
o = torch.zeros(2, dtype=torch.long)
torch.add(torch.tensor([1., 2.]), 1, out=o)

# %% out_requires_grad_error
import torch
x = torch.ones(2, requires_grad=True)
o = torch.zeros(2)
torch.mul(x, 2, out=o)

# %% as_tensor_same
import torch
t = torch.tensor([1., 2.])
print(torch.as_tensor(t) is t, torch.as_tensor(t, dtype=torch.float64), torch.as_tensor([1, 2]), torch.as_tensor(3.5))

# %% as_tensor_dtype
import torch
t = torch.tensor([1, 2])
u = torch.as_tensor(t, dtype=torch.float32)
print(u, u is t, torch.as_tensor([[1., 2.]], dtype=torch.int64))

# %% unique_dim
import torch
x = torch.tensor([[1, 2, 1], [0, 5, 3], [1, 2, 1], [0, 5, 3], [0, 1, 9]])
print(torch.unique(x, dim=0))
print(torch.unique(x, dim=1))
print(torch.unique(x, dim=0, return_inverse=True, return_counts=True))
print(x.unique(dim=-1, return_counts=True))
print(torch.unique(x, sorted=False, dim=0))
f = torch.tensor([[2.0, float('nan')], [2.0, float('nan')], [1.0, 3.0]])
print(torch.unique(f, dim=0))
print(torch.unique(torch.zeros(0, 3), dim=0))
print(torch.unique(torch.tensor([3, 1, 3]), dim=0, return_inverse=True))
try:
    torch.unique(x, dim=2)
except IndexError as e:
    print(e)
t = torch.arange(8).reshape(2, 2, 2) % 2
print(torch.unique(t, dim=1, return_inverse=True))
# %% matrix_norms
import torch
A = torch.tensor([[1., -2., 3.], [-4., 5., -6.]], requires_grad=True)
for o in [1, -1, float('inf'), float('-inf'), 'fro']:
    r = torch.linalg.norm(A, ord=o)
    print(o, r)
print(torch.linalg.norm(A, 1, dim=(1, 0)))
print(torch.linalg.norm(A, float('inf'), keepdim=True))
B = torch.arange(24.).reshape(2, 3, 4) - 10
print(torch.linalg.norm(B, 1, dim=(1, 2)))
print(torch.linalg.norm(B, -float('inf'), dim=(2, 0), keepdim=True))
print(torch.linalg.matrix_norm(B))
print(torch.linalg.matrix_norm(B, ord=1))
r = torch.linalg.norm(A, ord=1)
r.backward()
print(A.grad)
print(torch.norm(A, p='fro'))
for o in [3, 'abc']:
    try:
        torch.linalg.norm(A, ord=o)
    except RuntimeError as e:
        print(e)
try:
    torch.linalg.matrix_norm(torch.ones(3))
except RuntimeError as e:
    print(e)
try:
    torch.linalg.norm(torch.ones(2, 2, 2), ord=1)
except RuntimeError as e:
    print(e)

# %% from_numpy_shares_memory
import torch
x = torch.arange(6.).reshape(2, 3)
a = x.numpy()
print(a, a.dtype, a.shape)
t = torch.from_numpy(a)
print(t, t.dtype)
x[0, 0] = 7.0
print(t[0, 0].item(), a.tolist()[0][0])
t[1, 2] = -1.0
print(x)
print(torch.as_tensor(a).dtype, torch.tensor(a))
i = torch.tensor([1, 2, 3]).numpy()
print(torch.from_numpy(i), i.tolist())
try:
    torch.from_numpy([1, 2])
except TypeError as e:
    print(e)
b = torch.ones(2, dtype=torch.bool).numpy()
print(torch.from_numpy(b))

# %% out_forms_resize_and_pairs
import torch
def tr(label, f):
    try:
        r = f()
        print(label, r)
    except Exception as e:
        print(label, type(e).__name__, e)
x = torch.tensor([[1., 2.], [3., 4.]])
o = torch.empty(2, 2)
tr('o1', lambda: (torch.mul(x, 2, out=o), o))
tr('o2', lambda: torch.exp(x, out=torch.empty(2, 2)))
tr('o3', lambda: torch.cat([x, x], out=torch.empty(4, 2)))
tr('o4', lambda: torch.max(x, 1, out=(torch.empty(2), torch.empty(2, dtype=torch.long))))
tr('o5', lambda: torch.add(x, 1, out=torch.empty(3)))
tr('o6', lambda: torch.add(x, 1, out=torch.empty(2, 2, dtype=torch.long)))
tr('o7', lambda: torch.sort(x, out=(torch.empty(2, 2), torch.empty(2, 2, dtype=torch.long))))
tr('o8', lambda: torch.cumsum(x, 0, out=torch.empty(2, 2)))
tr('o9', lambda: torch.mm(x, x, out=torch.empty(2, 2)))
tr('o11', lambda: torch.arange(3, out=torch.empty(3)))
tr('o12', lambda: torch.zeros(2, out=torch.empty(2)))
y = torch.ones(2, requires_grad=True)
tr('o13', lambda: torch.mul(y, 2, out=torch.empty(2)))
tr('o14', lambda: torch.mean(x, 0, out=torch.empty(2)))

# %% out_of_creation_functions
import torch
o = torch.empty(3)
r = torch.arange(3, out=o)
print(r, o, r is o)
z = torch.full((2,), 7.)
r = torch.zeros(2, out=z)
print(r, z, r is z)
q = torch.ones(5)
r = torch.ones(2, 2, out=q)
print(q)
a = torch.tensor([[1., 5.], [3., 2.]])
v, ix = torch.empty(2), torch.empty(2, dtype=torch.long)
r = torch.max(a, 1, out=(v, ix))
print(r, v, ix, r.values is v)
e = torch.empty(0)
torch.mul(a, 2, out=e)
print(e)
