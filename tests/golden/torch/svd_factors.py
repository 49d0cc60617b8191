# (LAPACK's gesdd decides each singular vector's sign in its own way, which cudalearn does not
# reproduce: these cases print what does not depend on the signs, as PyTorch's docs advise.)
# %% linalg_svd_reduced_reconstructs
import torch
A = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], dtype=torch.float64)
U, S, Vh = torch.linalg.svd(A, full_matrices=False)
print(U.shape, S.shape, Vh.shape, U.dtype)
print(S)
print((U @ torch.diag(S) @ Vh - A).abs().max() < 1e-12)
print(U.abs(), Vh.abs(), sep='\n')
print(torch.allclose(U.T @ U, torch.eye(2, dtype=torch.float64)), torch.allclose(Vh @ Vh.T, torch.eye(2, dtype=torch.float64)))

# %% linalg_svd_full_matrices
import torch
A = torch.tensor([[2., 0., 1., 3.], [1., 1., 0., 2.]])
r = torch.linalg.svd(A)
print(type(r).__name__, r.U.shape, r.S.shape, r.Vh.shape)
print(r.S)
print(torch.allclose(r.Vh @ r.Vh.T, torch.eye(4), atol=1e-6), torch.allclose(r.U @ r.U.T, torch.eye(2), atol=1e-6))
print(torch.allclose(r.U @ torch.diag(r.S) @ r.Vh[:2], A, atol=1e-6))
U, S, Vh = torch.linalg.svd(A.T)
print(U.shape, S.shape, Vh.shape)
print(torch.allclose(U.T @ U, torch.eye(4), atol=1e-6))
print(torch.allclose((U[:, :2] * S) @ Vh, A.T, atol=1e-6))

# %% named_tuple_fields
import torch
r = torch.linalg.svd(torch.tensor([[3., 0.], [0., -2.]]))
print(r.S, len(r), r[1] is r.S)
u, s, vh = r
print((u @ torch.diag(s) @ vh).round(decimals=4))
print((u.abs() + vh.abs()).round(decimals=4))
print(repr(r).splitlines()[0])

# %% torch_svd_returns_v
import torch
A = torch.tensor([[4., 1., 0.], [1., 3., 1.], [0., 1., 2.], [1., 0., 1.]], dtype=torch.float64)
U, S, V = torch.svd(A)
print(type(torch.svd(A)).__name__, U.shape, S.shape, V.shape)
print(S)
print(torch.allclose(U @ torch.diag(S) @ V.T, A))
U2, S2, V2 = torch.svd(A, some=False)
print(U2.shape, V2.shape, torch.allclose(U2.T @ U2, torch.eye(4, dtype=torch.float64)))
print(torch.allclose(V.abs(), torch.linalg.svd(A).Vh.T.abs()))
U3, S3, V3 = A.svd()
print(torch.allclose(S3, S))

# %% torch_svd_compute_uv_false
import torch
U, S, V = torch.svd(torch.ones(2, 3), compute_uv=False)
print(U, S, V, sep='\n')

# %% batched_svd
import torch
B = torch.tensor([[[1., 0., 2.], [0., 3., 1.]],
                  [[5., 1., 0.], [1., 1., 2.]]], dtype=torch.float64)
U, S, Vh = torch.linalg.svd(B, full_matrices=False)
print(U.shape, S.shape, Vh.shape)
print(S)
print(torch.allclose((U * S.unsqueeze(-2)) @ Vh, B))
print(torch.linalg.svd(B).Vh.shape, torch.svd(B).V.shape)

# %% rank_deficient_and_identity
import torch
A = torch.tensor([[1., 2.], [2., 4.], [3., 6.]], dtype=torch.float64)
U, S, Vh = torch.linalg.svd(A)
print(S.round(decimals=10))
print(torch.allclose(U.T @ U, torch.eye(3, dtype=torch.float64)))
print(torch.allclose(U[:, :2] @ torch.diag(S) @ Vh, A))
U, S, Vh = torch.linalg.svd(torch.eye(3))
print(S, (U @ Vh))
U, S, Vh = torch.linalg.svd(torch.zeros(2, 2))
print(S, torch.allclose(U @ U.T, torch.eye(2)), torch.allclose(Vh @ Vh.T, torch.eye(2)))

# %% svd_grad_fns
import torch
A = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
U, S, Vh = torch.linalg.svd(A, full_matrices=False)
print(S.grad_fn.name(), U.grad_fn is S.grad_fn, Vh.grad_fn is S.grad_fn)
print(repr(U.grad_fn).split(' object')[0])
print([(f.name(), k) for f, k in (Vh * 2).grad_fn.next_functions if f is not None])
U, S, V = torch.svd(A)
print(U.grad_fn.name(), V.grad_fn.name(), [(f.name(), k) for f, k in V.grad_fn.next_functions])
print(torch.linalg.svdvals(A).grad_fn.name())

# %% gradient_through_singular_values
import torch
A = torch.tensor([[2., 0., 1.], [0., 1., 3.]], dtype=torch.float64, requires_grad=True)
U, S, Vh = torch.linalg.svd(A, full_matrices=False)
(S * torch.tensor([1., 2.], dtype=torch.float64)).sum().backward()
print(A.grad)
A.grad = None
U, S, Vh = torch.linalg.svd(A)
S.sum().backward()
print(A.grad)

# %% gradient_through_vectors_sign_invariant
import torch
A = torch.tensor([[4., 1.], [1., 3.], [0., 2.]], dtype=torch.float64, requires_grad=True)
U, S, Vh = torch.linalg.svd(A, full_matrices=False)
W = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], dtype=torch.float64)
loss = (U ** 2 * W).sum() + (Vh ** 2).sum(0)[0] + S.sum()
loss.backward()
print(A.grad)
B = A.detach().T.clone().requires_grad_()
U, S, Vh = torch.linalg.svd(B, full_matrices=False)
((Vh ** 2) * W.T).sum().backward()
print(B.grad)
C = A.detach()[:2].clone().requires_grad_()
U, S, Vh = torch.linalg.svd(C)
(U[:, 0] ** 2 * torch.tensor([1., 3.], dtype=torch.float64)).sum().backward()
print(C.grad)

# %% low_rank_approximation
import torch
torch.manual_seed(0)
A = torch.randn(6, 5, dtype=torch.float64)
U, S, Vh = torch.linalg.svd(A, full_matrices=False)
for k in [1, 2, 5]:
    Ak = U[:, :k] @ torch.diag(S[:k]) @ Vh[:k]
    print(k, round(torch.linalg.norm(A - Ak).item(), 6), round(S[k:].pow(2).sum().sqrt().item(), 6))

# %% float32_results
import torch
A = torch.tensor([[1., 2., 3.], [4., 5., 6.], [7., 8., 10.]])
U, S, Vh = torch.linalg.svd(A)
print(S.dtype, U.dtype, S)
print((U @ torch.diag(S) @ Vh - A).abs().max() < 1e-5)

# %% svd_errors
import torch
for f in [lambda: torch.linalg.svd(torch.ones(3)),
          lambda: torch.linalg.svd(torch.ones(2, 2, dtype=torch.long)),
          lambda: torch.svd(torch.ones(3)),
          lambda: torch.svd(torch.ones(2, 2, dtype=torch.int32)),
          lambda: torch.linalg.svd(torch.ones(2, 2, dtype=torch.half)),
          lambda: torch.linalg.svd(torch.ones(2, 3), driver='gesvd'),
          lambda: torch.linalg.svdvals(torch.ones(2, 2, dtype=torch.int32))]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)

# %% empty_matrix
import torch
U, S, Vh = torch.linalg.svd(torch.ones(0, 3))
print(U.shape, S.shape, Vh)
