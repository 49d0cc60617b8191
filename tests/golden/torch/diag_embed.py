# %% diag_embed_vector
import torch
x = torch.tensor([1., 2., 3.])
print(torch.diag_embed(x))
print(x.diag_embed(1))
print(x.diag_embed(offset=-2))

# %% diag_embed_batched
import torch
x = torch.arange(6.).reshape(2, 3)
y = torch.diag_embed(x)
print(y.shape)
print(y)
print(torch.diag_embed(x, offset=1, dim1=0, dim2=2))
print(torch.diag_embed(x, -1, 2, 0))
print(torch.diag_embed(x, dim1=1, dim2=0).shape)

# %% diag_embed_int_and_3d
import torch
x = torch.arange(8).reshape(2, 2, 2)
y = x.diag_embed(dim1=1, dim2=3)
print(y.dtype, y.shape)
print(y)
print(torch.diag_embed(torch.tensor([True, False])))
print(torch.diag_embed(torch.zeros(2, 0)).shape)

# %% diag_embed_grad
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = torch.diag_embed(x, 1)
print(y.grad_fn.name())
print(y)
w = torch.arange(18.).reshape(2, 3, 3)
(y * w).sum().backward()
print(x.grad)
z = torch.diag_embed(x, -1, 0, 2)
(z * torch.arange(18.).reshape(3, 2, 3)).sum().backward()
print(x.grad)

# %% err_diag_embed_same_dims
import torch
torch.diag_embed(torch.ones(2, 2), dim1=1, dim2=-2)

# %% err_diag_embed_dim_range
import torch
torch.diag_embed(torch.ones(2, 2), dim1=3)

# %% err_diag_embed_scalar
import torch
torch.diag_embed(torch.tensor(1.))

# %% err_diag_embed_scalar_dims
import torch
torch.diag_embed(torch.tensor(1.), 0, 0, -1)

# %% err_diag_embed_same_dims_method
import torch
torch.ones(3).diag_embed(0, 0, 0)
