# %% addmm_beta_alpha_values
import torch
b = torch.tensor([[1.0, -2.0, 0.5], [4.0, 0.25, -1.0]])
m1 = torch.tensor([[1.0, 2.0], [3.0, -4.0]])
m2 = torch.tensor([[0.25, 1.5, -2.0], [1.0, 0.5, 3.0]])
print(torch.addmm(b, m1, m2, beta=0.5, alpha=2))
print(torch.addmm(b, m1, m2, beta=2))
print(torch.addmm(b, m1, m2, alpha=-1))
print(b.addmm(m1, m2, beta=-0.25, alpha=0.5))
print(torch.addmm(b[0], m1, m2, beta=3, alpha=0.5))

# %% addmm_beta_alpha_grad
import torch
b = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
m1 = torch.tensor([[1.0, 2.0], [3.0, -4.0]], requires_grad=True)
m2 = torch.tensor([[0.25, 1.5, -2.0], [1.0, 0.5, 3.0]], requires_grad=True)
y = torch.addmm(b, m1, m2, beta=0.5, alpha=-2)
print(y)
(y * torch.arange(6.).reshape(2, 3)).sum().backward()
print(b.grad, m1.grad, m2.grad, sep='\n')

# %% addmm_beta_zero_ignores_nan
import torch
nan = float('nan')
b = torch.tensor([[nan, 1.0], [float('inf'), nan]])
m1 = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(torch.addmm(b, m1, m1, beta=0))
print(torch.addmm(b, m1, m1, beta=0, alpha=0.5))
print(torch.addmm(b, m1, m1, beta=0.0, alpha=0))
print(torch.addmm(b, m1, m1))
print(torch.addmm(b[0], m1, m1, beta=False))

# %% addmm_alpha_zero_ignores_matrices
import torch
nan = float('nan')
b = torch.tensor([[-0.0, 1.0], [2.0, -3.0]])
m1 = torch.tensor([[nan, 2.0], [3.0, float('inf')]])
print(torch.addmm(b, m1, m1, alpha=0))
print(torch.addmm(b, m1, m1, alpha=0, beta=2))
print(torch.addmm(b[1], m1, m1, alpha=0, beta=-1))
print(torch.addmm(b, m1, m1, alpha=0, beta=1).signbit())

# %% addmm_beta_zero_grad
import torch
nan = float('nan')
b = torch.tensor([[nan, 1.0], [2.0, 3.0]], requires_grad=True)
m1 = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
m2 = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
y = torch.addmm(b, m1, m2, beta=0, alpha=3)
print(y, y.grad_fn.name())
y.sum().backward()
print(b.grad, m1.grad, m2.grad, sep='\n')
g = torch.ones(2, 2)
g[0, 0] = float('inf')
b.grad = m1.grad = m2.grad = None
torch.addmm(b, m1, m2, beta=0, alpha=0).backward(g)
print(b.grad, m1.grad, m2.grad, sep='\n')

# %% addmm_empty_inner_dim
import torch
b = torch.tensor([[float('nan'), 1.0]])
print(torch.addmm(b, torch.ones(1, 0), torch.ones(0, 2), beta=0))
print(torch.addmm(b, torch.ones(1, 0), torch.ones(0, 2), beta=2))
print(torch.addmm(b, torch.ones(1, 0), torch.ones(0, 2), beta=2, alpha=5))

# %% addmm_integer_coefficients
import torch
o = torch.ones(2, 2, dtype=torch.long)
m = torch.tensor([[1, 2], [3, 4]])
print(torch.addmm(o, m, m, beta=2, alpha=3))
print(torch.addmm(o, m, m, beta=0.5))
print(torch.addmm(o, m, m, alpha=0.5))
print(torch.addmm(o, m, m, alpha=-1.9, beta=2.9))
print(torch.addmm(o, m, m, beta=True, alpha=False))
print(torch.addmm(o.int(), m.int(), m.int(), beta=-3).dtype)

# %% addmm_double_half_coefficients
import torch
b = torch.tensor([[1.0, -2.0], [0.5, 4.0]])
m1 = torch.tensor([[1.5, 2.0], [3.0, -4.0]])
print(torch.addmm(b.double(), m1.double(), m1.double(), beta=0.1, alpha=0.3))
print(torch.addmm(b.half(), m1.half(), m1.half(), beta=0.5, alpha=-0.25))
print(torch.addmm(b.bfloat16(), m1.bfloat16(), m1.bfloat16(), beta=3, alpha=0.125))

# %% addmm_coefficient_errors
import torch
o = torch.ones(2, 2)
for f in [lambda: o.addmm(o, o, alpha="x"), lambda: o.addmm(o, o, beta=[1]),
          lambda: torch.addmm(torch.ones(3), o, o, beta=0),
          lambda: torch.addmm(o, o, torch.ones(3, 2), alpha=0)]:
    try:
        f()
    except (TypeError, RuntimeError) as e:
        print(type(e).__name__, e)

# %% addmm_linear_agrees
import torch
x = torch.tensor([[1.0, -1.0, 2.0], [0.5, 0.0, -3.0]], requires_grad=True)
w = torch.tensor([[0.5, 1.0, -1.0], [2.0, 0.25, 0.0]], requires_grad=True)
bias = torch.tensor([0.5, -0.5], requires_grad=True)
y = torch.addmm(bias, x, w.t(), beta=2, alpha=0.5)
z = torch.nn.functional.linear(x, w, bias)
print(y, z, sep='\n')
(y + z).sum().backward()
print(x.grad, w.grad, bias.grad, sep='\n')
