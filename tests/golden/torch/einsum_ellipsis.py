# %% einsum_ellipsis_shapes_and_errors
import torch
torch.manual_seed(0)
a = torch.randn(2, 3, 4); b = torch.randn(4, 5); c = torch.randn(3, 2, 4, 4)
print(torch.einsum('...ij,jk->...ik', a, b).shape)
print(torch.einsum('...ij,jk', a, b).shape)
print(torch.einsum('...ij,jk->ik', a, b).shape)
print(torch.einsum('i...->...', torch.ones(2, 3, 4)).shape)
print(torch.einsum('...,...->...', torch.ones(3, 1), torch.ones(4)).shape)
print(torch.einsum('b...i,b...i->b...', c, c).shape)
print(torch.einsum('...ii->...i', c).shape)
print(torch.einsum('ii', torch.eye(3)))
print(torch.einsum('...', a).shape)
print(torch.einsum('i...j', a).shape)
for eq, ops in [('...ij,jk->...ik', (torch.ones(3), b)), ('i...j->...i...', (a,)), ('ij...->ijk', (a,)), ('..i', (a,))]:
    try:
        torch.einsum(eq, *ops)
    except RuntimeError as e:
        print(e)

# %% einsum_ellipsis_values_and_grads
import torch
torch.manual_seed(0)
a = torch.randn(2, 3, 4, requires_grad=True)
b = torch.randn(4, 2, requires_grad=True)
y = torch.einsum('...ij,jk->...ik', a, b)
print(y)
y.sum().backward()
print(a.grad)
print(b.grad)
print(torch.einsum('b...,b...->b', a, a))
print(torch.einsum('...i,...i', torch.ones(3, 2), torch.arange(2.)))

# %% einsum_diagonals
import torch
m = torch.arange(9.).reshape(3, 3).requires_grad_()
print(torch.einsum('ii->i', m))
t = torch.einsum('ii', m)
print(t)
t.backward()
print(m.grad)
c = torch.arange(24.).reshape(2, 3, 4)
print(torch.einsum('iji->j', torch.arange(12.).reshape(2, 3, 2)))
print(torch.einsum('...ii->...i', torch.arange(18.).reshape(2, 3, 3)))
try:
    torch.einsum('ii', torch.ones(2, 3))
except RuntimeError as e:
    print(e)
