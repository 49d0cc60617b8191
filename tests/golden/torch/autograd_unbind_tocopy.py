# %% for_row_unbind
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
for row in x:
    print(row)
rows = list(x)
(rows[0] * 2 + rows[1]).sum().backward()
print(x.grad)

# %% to_copy_true
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x.to('cpu', copy=True)
print(y, y is x)
(y * 3).sum().backward()
print(x.grad)

# %% to_dtype_records_tocopy
import torch
x = torch.tensor([1., 2.], requires_grad=True)
print(x.to(torch.float64), x.double(), x.to(torch.float32) is x)

# %% to_copy_dtype_copy
import torch
x = torch.tensor([1., 2.], requires_grad=True)
print(x.to(torch.float32, copy=True))
