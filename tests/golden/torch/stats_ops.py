# %% var_None
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=None))
print(x.std(dim=None))

# %% var_None_unbiasedFalse
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=None, unbiased=False))
print(x.std(dim=None, unbiased=False))

# %% var_None_correction0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=None, correction=0))
print(x.std(dim=None, correction=0))

# %% var_None_correction2
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=None, correction=2))
print(x.std(dim=None, correction=2))

# %% var_None_keepdimTrue
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=None, keepdim=True))
print(x.std(dim=None, keepdim=True))

# %% var_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=0))
print(x.std(dim=0))

# %% var_0_unbiasedFalse
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=0, unbiased=False))
print(x.std(dim=0, unbiased=False))

# %% var_0_correction0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=0, correction=0))
print(x.std(dim=0, correction=0))

# %% var_0_correction2
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=0, correction=2))
print(x.std(dim=0, correction=2))

# %% var_0_keepdimTrue
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=0, keepdim=True))
print(x.std(dim=0, keepdim=True))

# %% var_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=1))
print(x.std(dim=1))

# %% var_1_unbiasedFalse
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=1, unbiased=False))
print(x.std(dim=1, unbiased=False))

# %% var_1_correction0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=1, correction=0))
print(x.std(dim=1, correction=0))

# %% var_1_correction2
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=1, correction=2))
print(x.std(dim=1, correction=2))

# %% var_1_keepdimTrue
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=1, keepdim=True))
print(x.std(dim=1, keepdim=True))

# %% var_0_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=(0, 1)))
print(x.std(dim=(0, 1)))

# %% var_0_1_unbiasedFalse
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=(0, 1), unbiased=False))
print(x.std(dim=(0, 1), unbiased=False))

# %% var_0_1_correction0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=(0, 1), correction=0))
print(x.std(dim=(0, 1), correction=0))

# %% var_0_1_correction2
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=(0, 1), correction=2))
print(x.std(dim=(0, 1), correction=2))

# %% var_0_1_keepdimTrue
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(dim=(0, 1), keepdim=True))
print(x.std(dim=(0, 1), keepdim=True))

# %% var_grad
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
x.var(1).sum().backward()
print(x.grad)

# %% std_grad
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
torch.std(x, 0).sum().backward()
print(x.grad)

# %% var_positional_unbiased
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.var(False), x.std(True), x.var(1, False))

# %% var_int_error
import torch
x = torch.tensor([[3, 1, 2], [5, 4, -1]])
x.var()

# %% var_single
import torch
print(torch.tensor([2.]).var(), torch.tensor([2.]).var(unbiased=False))

# %% std_f64
import torch
print(torch.tensor([1., 2., 4.], dtype=torch.float64).std())

# %% norm__
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm()
print(y)
y.sum().backward()
print(x.grad)

# %% norm__dim1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(dim=1)
print(y)
y.sum().backward()
print(x.grad)

# %% norm__dim0_keepdimTrue
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(dim=0, keepdim=True)
print(y)
y.sum().backward()
print(x.grad)

# %% norm_p1_
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p=1)
print(y)
y.sum().backward()
print(x.grad)

# %% norm_p1_dim1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p=1, dim=1)
print(y)
y.sum().backward()
print(x.grad)

# %% norm_p1_dim0_keepdimTrue
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p=1, dim=0, keepdim=True)
print(y)
y.sum().backward()
print(x.grad)

# %% norm_p3_
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p=3)
print(y)
y.sum().backward()
print(x.grad)

# %% norm_p3_dim1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p=3, dim=1)
print(y)
y.sum().backward()
print(x.grad)

# %% norm_p3_dim0_keepdimTrue
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p=3, dim=0, keepdim=True)
print(y)
y.sum().backward()
print(x.grad)

# %% norm_pfloatinf_
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p=float('inf'))
print(y)
y.sum().backward()
print(x.grad)

# %% norm_pfloatinf_dim1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p=float('inf'), dim=1)
print(y)
y.sum().backward()
print(x.grad)

# %% norm_pfloatinf_dim0_keepdimTrue
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p=float('inf'), dim=0, keepdim=True)
print(y)
y.sum().backward()
print(x.grad)

# %% norm_pfro_
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p='fro')
print(y)
y.sum().backward()
print(x.grad)

# %% norm_pfro_dim1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p='fro', dim=1)
print(y)
y.sum().backward()
print(x.grad)

# %% norm_pfro_dim0_keepdimTrue
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p='fro', dim=0, keepdim=True)
print(y)
y.sum().backward()
print(x.grad)

# %% norm_p0_
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p=0)
print(y)
y.sum().backward()
print(x.grad)

# %% norm_p0_dim1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p=0, dim=1)
print(y)
y.sum().backward()
print(x.grad)

# %% norm_p0_dim0_keepdimTrue
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.norm(p=0, dim=0, keepdim=True)
print(y)
y.sum().backward()
print(x.grad)

# %% linalg_norm
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(torch.linalg.norm(x), torch.linalg.norm(x[0]), torch.linalg.norm(x, dim=1))

# %% linalg_vector_norm
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(torch.linalg.vector_norm(x, 1), torch.linalg.vector_norm(x, ord=float('inf'), dim=0))

# %% torch_norm_fn
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(torch.norm(x), torch.norm(x, dim=1, p=1))

# %% norm_zero_grad
import torch
x = torch.zeros(3, requires_grad=True)
x.norm().backward()
print(x.grad)

# %% logsumexp_0_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.logsumexp(0, keepdim=False)
print(y)
y.sum().backward()
print(x.grad)

# %% logsumexp_0_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.logsumexp(0, keepdim=True)
print(y)
y.sum().backward()
print(x.grad)

# %% logsumexp_1_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.logsumexp(1, keepdim=False)
print(y)
y.sum().backward()
print(x.grad)

# %% logsumexp_1_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.logsumexp(1, keepdim=True)
print(y)
y.sum().backward()
print(x.grad)

# %% logsumexp_0_1_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.logsumexp((0, 1), keepdim=False)
print(y)
y.sum().backward()
print(x.grad)

# %% logsumexp_0_1_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.logsumexp((0, 1), keepdim=True)
print(y)
y.sum().backward()
print(x.grad)

# %% logsumexp_-1_0
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.logsumexp(-1, keepdim=False)
print(y)
y.sum().backward()
print(x.grad)

# %% logsumexp_-1_1
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
y = x.logsumexp(-1, keepdim=True)
print(y)
y.sum().backward()
print(x.grad)

# %% logsumexp_big
import torch
print(torch.logsumexp(torch.tensor([1000., 1000.]), 0), torch.logsumexp(torch.tensor([-float('inf'), -float('inf')]), 0))

# %% logsumexp_int
import torch
x = torch.tensor([[3, 1, 2], [5, 4, -1]])
print(torch.logsumexp(x, 1))

# %% lerp_03
import torch
a = torch.tensor([1., 2., 3., 4.], requires_grad=True)
b = torch.tensor([10., 20., 30., 40.])
y = torch.lerp(a, b, 0.3)
print(y)
y.sum().backward()
print(a.grad)

# %% lerp_075
import torch
a = torch.tensor([1., 2., 3., 4.], requires_grad=True)
b = torch.tensor([10., 20., 30., 40.])
y = torch.lerp(a, b, 0.75)
print(y)
y.sum().backward()
print(a.grad)

# %% lerp_t05
import torch
a = torch.tensor([1., 2., 3., 4.], requires_grad=True)
b = torch.tensor([10., 20., 30., 40.])
y = torch.lerp(a, b, torch.tensor(0.5))
print(y)
y.sum().backward()
print(a.grad)

# %% lerp_t0_05_1_2
import torch
a = torch.tensor([1., 2., 3., 4.], requires_grad=True)
b = torch.tensor([10., 20., 30., 40.])
y = torch.lerp(a, b, torch.tensor([0., 0.5, 1., 2.]))
print(y)
y.sum().backward()
print(a.grad)

# %% lerp_method
import torch
a = torch.zeros(3)
print(a.lerp(torch.ones(3), 0.25))

# %% nan_to_num_default
import torch
print(torch.nan_to_num(torch.tensor([float('nan'), float('inf'), -float('inf'), 1.5])))

# %% nan_to_num_args
import torch
print(torch.tensor([float('nan'), float('inf'), -float('inf')]).nan_to_num(nan=0.5, posinf=9., neginf=-9.))

# %% nan_to_num_f64
import torch
print(torch.nan_to_num(torch.tensor([float('inf')], dtype=torch.float64)))

# %% nan_to_num_grad
import torch
x = torch.tensor([1., float('nan'), float('inf')], requires_grad=True)
y = x.nan_to_num()
y.sum().backward()
print(y, x.grad)

# %% nan_to_num_int
import torch
print(torch.nan_to_num(torch.tensor([1, 2])))

# %% clamp_min_max
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.clamp_min(0.5), torch.clamp_max(x, 1))
x.clamp_min(1).sum().backward()
print(x.grad)

# %% clamp_min_int
import torch
x = torch.tensor([[3, 1, 2], [5, 4, -1]])
print(x.clamp_min(2), x.clamp_max(2.5))

# %% isclose_basic
import torch
a = torch.tensor([1., 1.00001, 2., float('nan')])
b = torch.tensor([1., 1., 2.1, float('nan')])
print(torch.isclose(a, b), a.isclose(b, equal_nan=True), torch.isclose(a, b, rtol=0.1))

# %% isclose_atol
import torch
print(torch.isclose(torch.tensor([0., 1e-9]), torch.tensor([1e-7, 0.]), atol=1e-8))

# %% amax_amin
import torch
x = torch.tensor([[3., 1., 2., -1.], [0.5, 4., -1., 2.5], [1., 1., 0., -2.]], requires_grad=True)
print(x.amax(1), torch.amin(x, 0), x.amax((0, 1)), torch.amax(x, dim=0, keepdim=True))

# %% outer_basic
import torch
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4., 5.])
y = torch.outer(a, b)
print(y)
y.sum().backward()
print(a.grad)

# %% outer_int
import torch
print(torch.tensor([1, 2]).outer(torch.tensor([3, 4])))

# %% outer_2d_error
import torch
torch.outer(torch.ones(2, 2), torch.ones(2))

