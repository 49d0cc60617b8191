# %% round_to_decimals
import torch
x = torch.tensor([1.2345, -2.5, 2.5, 1234.5678], requires_grad=True)
y = x.round(decimals=2)
print(y, torch.round(x, decimals=-2), x.round(decimals=0).grad_fn.name())
y.sum().backward()
print(x.grad)
print(torch.tensor([0.125, 0.375], dtype=torch.float64).round(decimals=2))
print(torch.tensor([8.36660027, 1.23456], dtype=torch.float64).round(decimals=10))
print(torch.tensor([0.1 + 0.2, 2.675]).round(decimals=2), torch.tensor([1.5, 2.5]).round())

# %% round_decimals_errors
import torch
for f in [lambda: torch.tensor([15, 25]).round(decimals=-1),
          lambda: torch.tensor([1.5]).round(decimals=1.5)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
