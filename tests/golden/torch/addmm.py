# %% addmm_values_and_grad
import torch
b = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
m1 = torch.tensor([[1.0, 2.0], [3.0, -4.0]], requires_grad=True)
m2 = torch.tensor([[0.25, 1.5, -2.0], [1.0, 0.5, 3.0]], requires_grad=True)
y = torch.addmm(b, m1, m2)
print(y)
(y * torch.arange(6.).reshape(2, 3)).sum().backward()
print(b.grad, m1.grad, m2.grad, sep='\n')
print(b.addmm(m1, m2, beta=1, alpha=1))

# %% addmm_shapes
import torch
print(torch.addmm(torch.zeros(2, 1), torch.ones(2, 3), torch.ones(3, 4)))
try:
    torch.addmm(torch.zeros(3), torch.ones(2, 3), torch.ones(4, 5))
except RuntimeError as e:
    print(e)
try:
    torch.addmm(torch.zeros(3), torch.ones(3), torch.ones(3, 3))
except RuntimeError as e:
    print(e)

# %% addmm_no_grad_dtype
import torch
x = torch.arange(6.).reshape(2, 3)
w = torch.arange(12.).reshape(3, 4) / 4
print(torch.addmm(torch.ones(4, dtype=torch.float64), x.double(), w.double()))
print(torch.addmm(torch.ones(4), x, w).dtype)

# %% addmm_more_errors
import torch
for args in [(torch.zeros(3), torch.ones(2, 3), torch.ones(3)),
             (torch.zeros(3), torch.ones(2, 3), torch.ones(3, 3).double()),
             (torch.zeros(3).double(), torch.ones(2, 3), torch.ones(3, 3)),
             (torch.zeros(2, 2), torch.ones(2, 3), torch.ones(3, 3))]:
    try:
        torch.addmm(*args)
    except RuntimeError as e:
        print(e)
