# %% einsum_pairs_exact
import torch
a = (torch.arange(2 * 3 * 4) % 5).float().reshape(2, 3, 4)
b = (torch.arange(2 * 4 * 5) % 7).float().reshape(2, 4, 5) - 3
print(torch.einsum('bij,bjk->bik', a, b))
print(torch.einsum('bij,bjk->kib', a, b).shape, torch.einsum('bij,bjk->kib', a, b)[1])
print(torch.einsum('bij,bjk->', a, b), torch.einsum('bij,bjk->j', a, b))
print(torch.einsum('bij,cjk->bcik', a, b).sum(dim=(2, 3)))
print(torch.einsum('ij,jk', a[0], b[0]), torch.einsum('i,i->', a[0, 0], a[1, 0]))
print(torch.einsum('i,j->ij', a[0, 0], b[0, 0]), torch.einsum('bij,b->ij', a, torch.tensor([1., -1.])))

# %% einsum_three_and_ellipsis
import torch
x = (torch.arange(24) % 4).float().reshape(2, 3, 4) * 0.5
y = (torch.arange(20) % 3).float().reshape(4, 5)
z = (torch.arange(10) % 6).float().reshape(5, 2)
print(torch.einsum('bij,jk,kl->bil', x, y, z))
print(torch.einsum('...ij,jk->...ik', x, y))
print(torch.einsum('bij,bij->b', x, x), torch.einsum('bii->bi', x[:, :, :3]))
w = (torch.arange(2 * 2 * 3 * 4) % 5).double().reshape(2, 2, 3, 4)
print(torch.einsum('nhqd,nhkd->nhqk', w, w)[1, 0], torch.einsum('nhqk,nhkd->nqhd', w[..., :3], w).shape)

# %% einsum_grads
import torch
torch.manual_seed(0)
a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(4, 5, requires_grad=True)
c = torch.randn(5, requires_grad=True)
r = torch.einsum('ij,jk,k->i', a, b, c)
print(r.grad_fn.name(), r.shape)
r.sum().backward()
print(a.grad, b.grad, c.grad, sep='\n')

# %% einsum_broadcast_label
import torch
a = torch.arange(6.).reshape(2, 3)
b = torch.arange(3.).reshape(1, 3)
print(torch.einsum('ij,ij->ij', a, b), torch.einsum('ij,kj->ik', a, b))

# %% einsum_edges
import torch
a = torch.randn(3, 0); b = torch.randn(0, 4)
print(torch.einsum('ij,jk->ik', a, b))
print(torch.einsum('i,->i', torch.arange(3.), torch.tensor(2.)))
print(torch.einsum(',->', torch.tensor(2.), torch.tensor(3.)))
print(torch.einsum('ij,ij,ij->', torch.ones(2, 3), torch.ones(2, 3), torch.ones(2, 3)))
print(torch.einsum('ii,ij->j', torch.eye(3), torch.arange(9.).reshape(3, 3)))
print(torch.einsum('bij,bjk->bik', torch.ones(2, 2, 3, dtype=torch.float64), torch.ones(2, 3, 1, dtype=torch.float64)).dtype)
print(torch.einsum('ij,jk->ik', torch.ones(2, 3).half(), torch.ones(3, 2).half()))
