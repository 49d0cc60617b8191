# %% spectral_and_nuclear_norms
import torch
A = torch.tensor([[1., 2.], [3., 4.]])
print(torch.linalg.norm(A, 2), torch.linalg.norm(A, -2), torch.linalg.norm(A, 'nuc'))
print(torch.linalg.matrix_norm(A, 2), torch.linalg.matrix_norm(A, 'nuc'))

# %% svdvals_shapes
import torch
B = torch.tensor([[[1., 0., 2., 1.], [0., 3., 1., 0.], [2., 1., 0., 4.]],
                  [[5., 1., 0., 0.], [1., 1., 2., 3.], [0., 2., 2., 1.]]])
print(torch.linalg.svdvals(B))
print(torch.linalg.svdvals(B.transpose(1, 2)).shape)
print(torch.linalg.svdvals(torch.eye(3)))
print(torch.linalg.svdvals(torch.zeros(2, 3)))

# %% batched_matrix_norms_over_dims
# (float64: LAPACK's float32 singular values are off by about 1e-6 relative, enough to move
# the fourth printed decimal of a sum; cudalearn's are correctly rounded.)
import torch
B = torch.tensor([[[1., 0., 2., 1.], [0., 3., 1., 0.], [2., 1., 0., 4.]],
                  [[5., 1., 0., 0.], [1., 1., 2., 3.], [0., 2., 2., 1.]]], dtype=torch.float64)
print(torch.linalg.matrix_norm(B, 2))
print(torch.linalg.matrix_norm(B, 'nuc', dim=(0, 2)))
print(torch.linalg.matrix_norm(B, -2, dim=(2, 0)))
print(torch.linalg.matrix_norm(B, 2, keepdim=True).shape)
print(torch.linalg.matrix_norm(B, 'nuc', dim=(0, 2), keepdim=True))

# %% norm_gradients
import torch
A = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
for o in [2, -2, 'nuc']:
    n = torch.linalg.norm(A, o)
    print(o, n)
    n.backward()
    print(A.grad)
    A.grad = None

# %% svdvals_gradient
import torch
A = torch.tensor([[2., 0., 1.], [0., 1., 3.]], requires_grad=True)
s = torch.linalg.svdvals(A)
print(s)
(s * torch.tensor([1., 2.])).sum().backward()
print(A.grad)

# %% keepdim_grad_fn
import torch
A = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
print(torch.linalg.matrix_norm(A, 2, keepdim=True))
print(torch.linalg.matrix_norm(A, 'nuc', keepdim=True))

# %% torch_norm_nuc
import torch
A = torch.tensor([[3., 1.], [1., 3.]])
print(torch.norm(A, p='nuc'), A.norm(p='nuc'), A.norm(p='fro'), torch.norm(A, p=2))
print(torch.norm(torch.ones(2, 2, 2), p='nuc', dim=(1, 2)))

# %% norm_errors
import torch
for f in [lambda: torch.linalg.svdvals(torch.ones(3)),
          lambda: torch.linalg.svdvals(torch.ones(2, 2, dtype=torch.long)),
          lambda: torch.norm(torch.ones(2, 2, 2), p='nuc'),
          lambda: torch.linalg.matrix_norm(torch.ones(3), 2),
          lambda: torch.linalg.matrix_norm(torch.ones(2, 2), 3),
          lambda: torch.linalg.matrix_norm(torch.ones(2, 2), 'abc'),
          lambda: torch.linalg.matrix_norm(torch.ones(2, 2, 2), 2, dim=(0, 1, 2)),
          lambda: torch.norm(torch.ones(2, 2), p='abc')]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)

# %% float64
import torch
A = torch.tensor([[1., 2.], [3., 5.]], dtype=torch.float64)
print(torch.linalg.svdvals(A), torch.linalg.norm(A, 'nuc'), torch.linalg.norm(A, -2))
