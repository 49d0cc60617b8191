# %% max_pool2d_ceil_mode
import torch
import torch.nn as nn
x = torch.arange(50.).reshape(1, 2, 5, 5)
m = nn.MaxPool2d(2, ceil_mode=True)
print(m)
print(m(x))
print(nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True)(x).shape)
print(nn.MaxPool2d(2, stride=2, ceil_mode=True)(torch.randn(1, 1, 6, 7)).shape)

# %% avg_pool2d_ceil_mode
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.arange(50.).reshape(1, 2, 5, 5)
print(nn.AvgPool2d(2, ceil_mode=True)(x))
print(F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True))
print(F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False))
print(F.avg_pool2d(x[0], 2, ceil_mode=True).shape)

# %% avg_pool2d_ceil_mode_backward
import torch
import torch.nn.functional as F
x = torch.arange(25.).reshape(1, 1, 5, 5).requires_grad_()
y = F.avg_pool2d(x, 2, ceil_mode=True)
y.sum().backward()
print(y.grad_fn.name())
print(x.grad)

# %% avg_pool2d_divisor_override
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.arange(32.).reshape(1, 2, 4, 4)
print(F.avg_pool2d(x, 2, divisor_override=3))
print(nn.AvgPool2d(2, divisor_override=1)(x))
print(F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, divisor_override=2))

# %% max_pool2d_return_indices
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 2, 4, 5)
y, i = F.max_pool2d(x, 2, return_indices=True)
print(y)
print(i, i.dtype)
y, i = nn.MaxPool2d(3, stride=2, padding=1, return_indices=True, ceil_mode=True)(x)
print(i)
y, i = F.max_pool2d(x[0], 2, return_indices=True)
print(i.shape)
y, i = F.max_pool2d(torch.ones(1, 1, 2, 4), 2, return_indices=True)
print(i)

# %% max_pool2d_return_indices_grad
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 1, 4, 4, requires_grad=True)
y, i = F.max_pool2d(x, 2, return_indices=True)
print(y.grad_fn.name(), i.requires_grad)
y.sum().backward()
print(x.grad)

# %% max_unpool2d
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
pool = nn.MaxPool2d(2, stride=2, return_indices=True)
unpool = nn.MaxUnpool2d(2, stride=2)
print(unpool)
x = torch.randn(1, 2, 4, 4)
y, i = pool(x)
print(unpool(y, i))
print(unpool(y, i, output_size=torch.Size([1, 2, 5, 5])).shape)
print(F.max_unpool2d(y[0], i[0], 2).shape)
z = torch.randn(1, 2, 2, 2, requires_grad=True)
u = F.max_unpool2d(z, i, 2)
print(u.grad_fn.name())
(u * torch.arange(32.).reshape(1, 2, 4, 4)).sum().backward()
print(z.grad)

# %% max_unpool2d_bad_index
import torch
import torch.nn.functional as F
F.max_unpool2d(torch.ones(1, 1, 2, 2), torch.tensor([[[[0, 1], [2, 99]]]]), 2)
