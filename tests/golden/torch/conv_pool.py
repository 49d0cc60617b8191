# %% conv2d_1_2_3_1_0_1_1_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Conv2d(1, 2, 3, stride=1, padding=0, dilation=1, groups=1, bias=True)
print(m)
x = torch.randn(2, 1, 6, 7, requires_grad=True)
y = m(x)
print(y.shape, y.grad_fn.name())
print(y[1, -1])
(y * y).sum().backward()
print(x.grad[0, 0], m.weight.grad.flatten()[:6])

# %% conv2d_1_2_3_1_1_1_1_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Conv2d(1, 2, 3, stride=1, padding=1, dilation=1, groups=1, bias=True)
print(m)
x = torch.randn(2, 1, 6, 7, requires_grad=True)
y = m(x)
print(y.shape, y.grad_fn.name())
print(y[1, -1])
(y * y).sum().backward()
print(x.grad[0, 0], m.weight.grad.flatten()[:6])

# %% conv2d_2_4_3_2_1_1_1_0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Conv2d(2, 4, 3, stride=2, padding=1, dilation=1, groups=1, bias=False)
print(m)
x = torch.randn(2, 2, 6, 7, requires_grad=True)
y = m(x)
print(y.shape, y.grad_fn.name())
print(y[1, -1])
(y * y).sum().backward()
print(x.grad[0, 0], m.weight.grad.flatten()[:6])

# %% conv2d_2_2_2_1_0_2_1_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Conv2d(2, 2, 2, stride=1, padding=0, dilation=2, groups=1, bias=True)
print(m)
x = torch.randn(2, 2, 6, 7, requires_grad=True)
y = m(x)
print(y.shape, y.grad_fn.name())
print(y[1, -1])
(y * y).sum().backward()
print(x.grad[0, 0], m.weight.grad.flatten()[:6])

# %% conv2d_3_3_2x3_1x2_1x0_1_1_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Conv2d(3, 3, (2, 3), stride=(1, 2), padding=(1, 0), dilation=1, groups=1, bias=True)
print(m)
x = torch.randn(2, 3, 6, 7, requires_grad=True)
y = m(x)
print(y.shape, y.grad_fn.name())
print(y[1, -1])
(y * y).sum().backward()
print(x.grad[0, 0], m.weight.grad.flatten()[:6])

# %% conv2d_1_1_5_1_2_1_1_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Conv2d(1, 1, 5, stride=1, padding=2, dilation=1, groups=1, bias=True)
print(m)
x = torch.randn(2, 1, 6, 7, requires_grad=True)
y = m(x)
print(y.shape, y.grad_fn.name())
print(y[1, -1])
(y * y).sum().backward()
print(x.grad[0, 0], m.weight.grad.flatten()[:6])

# %% conv2d_unbatched
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Conv2d(2, 3, 2)
print(m(torch.randn(2, 4, 4)).shape)

# %% conv2d_same
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Conv2d(1, 1, 3, padding='same')
print(m, m(torch.randn(1, 1, 4, 4)).shape)

# %% conv2d_valid
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Conv2d(1, 1, 3, padding='valid')
print(m, m(torch.randn(1, 1, 4, 4)).shape)

# %% conv2d_params
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Conv2d(3, 8, 3)
print([(n, p.shape) for n, p in m.named_parameters()])
print(m.weight[0, 0], m.bias)

# %% conv2d_wrong_channels
import torch
import torch.nn as nn
import torch.nn.functional as F
m = nn.Conv2d(3, 2, 3)
m(torch.randn(1, 1, 5, 5))

# %% conv2d_too_small
import torch
import torch.nn as nn
import torch.nn.functional as F
m = nn.Conv2d(1, 2, 5)
m(torch.randn(1, 1, 3, 3))

# %% conv2d_2d_input
import torch
import torch.nn as nn
import torch.nn.functional as F
m = nn.Conv2d(1, 2, 3)
m(torch.randn(5, 5))

# %% F_conv2d
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 2, 4, 4)
w = torch.randn(3, 2, 2, 2)
print(F.conv2d(x, w, stride=2), F.conv2d(x, w, torch.ones(3), padding=1).sum())

# %% F_conv2d_edge_kernel
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.arange(16.).reshape(1, 1, 4, 4)
w = torch.tensor([[[[1., -1.]]]])
print(F.conv2d(x, w))

# %% conv1d_1_2_3_1_0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Conv1d(1, 2, 3, stride=1, padding=0)
print(m)
x = torch.randn(2, 1, 7, requires_grad=True)
y = m(x)
print(y)
y.pow(2).sum().backward()
print(x.grad[0], m.bias.grad)

# %% conv1d_2_3_2_2_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Conv1d(2, 3, 2, stride=2, padding=1)
print(m)
x = torch.randn(2, 2, 7, requires_grad=True)
y = m(x)
print(y)
y.pow(2).sum().backward()
print(x.grad[0], m.bias.grad)

# %% conv1d_3_1_4_1_2
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Conv1d(3, 1, 4, stride=1, padding=2)
print(m)
x = torch.randn(2, 3, 7, requires_grad=True)
y = m(x)
print(y)
y.pow(2).sum().backward()
print(x.grad[0], m.bias.grad)

# %% F_conv1d
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.arange(6.).reshape(1, 1, 6)
print(F.conv1d(x, torch.tensor([[[1., 0., -1.]]])))

# %% maxpool_2_None_0_0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.MaxPool2d(2, stride=None, padding=0, ceil_mode=False)
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
(y * torch.arange(y.numel(), dtype=torch.float).reshape(y.shape)).sum().backward()
print(x.grad[0, 1])

# %% maxpool_3_1_1_0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.MaxPool2d(3, stride=1, padding=1, ceil_mode=False)
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
(y * torch.arange(y.numel(), dtype=torch.float).reshape(y.shape)).sum().backward()
print(x.grad[0, 1])

# %% maxpool_3_2_0_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.MaxPool2d(3, stride=2, padding=0, ceil_mode=True)
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
(y * torch.arange(y.numel(), dtype=torch.float).reshape(y.shape)).sum().backward()
print(x.grad[0, 1])

# %% maxpool_2_1_0_0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.MaxPool2d(2, stride=1, padding=0, ceil_mode=False)
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
(y * torch.arange(y.numel(), dtype=torch.float).reshape(y.shape)).sum().backward()
print(x.grad[0, 1])

# %% maxpool_2x3_1x2_1x1_0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.MaxPool2d((2, 3), stride=(1, 2), padding=(1, 1), ceil_mode=False)
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
(y * torch.arange(y.numel(), dtype=torch.float).reshape(y.shape)).sum().backward()
print(x.grad[0, 1])

# %% avgpool_2_None_0_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.AvgPool2d(2, stride=None, padding=0, count_include_pad=True)
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
y.sum().backward()
print(x.grad[0, 0])

# %% avgpool_3_1_1_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=True)
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
y.sum().backward()
print(x.grad[0, 0])

# %% avgpool_3_1_1_0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False)
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
y.sum().backward()
print(x.grad[0, 0])

# %% avgpool_2_1_0_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.AvgPool2d(2, stride=1, padding=0, count_include_pad=True)
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
y.sum().backward()
print(x.grad[0, 0])

# %% avgpool_3_2_1_0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False)
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
y.sum().backward()
print(x.grad[0, 0])

# %% adaptive_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.AdaptiveAvgPool2d(1)
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
y.sum().backward()
print(x.grad[0, 0])

# %% adaptive_1x1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.AdaptiveAvgPool2d((1, 1))
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
y.sum().backward()
print(x.grad[0, 0])

# %% adaptive_2x3
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.AdaptiveAvgPool2d((2, 3))
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
y.sum().backward()
print(x.grad[0, 0])

# %% adaptive_3x4
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.AdaptiveAvgPool2d((3, 4))
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
y.sum().backward()
print(x.grad[0, 0])

# %% adaptive_5x6
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.AdaptiveAvgPool2d((5, 6))
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
y.sum().backward()
print(x.grad[0, 0])

# %% adaptive_2xNone
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.AdaptiveAvgPool2d((2, None))
print(m)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
y = m(x)
print(y)
y.sum().backward()
print(x.grad[0, 0])

# %% F_pools
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.arange(16.).reshape(1, 1, 4, 4)
print(F.max_pool2d(x, 2), F.avg_pool2d(x, 2), F.adaptive_avg_pool2d(x, 1), F.max_pool2d(x, kernel_size=3, stride=1))

# %% maxpool_ties_grad
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.zeros(1, 1, 2, 4, requires_grad=True)
F.max_pool2d(x, 2).sum().backward()
print(x.grad)

# %% maxpool_bad_padding
import torch
import torch.nn as nn
import torch.nn.functional as F
F.max_pool2d(torch.ones(1, 1, 4, 4), 2, padding=2)

# %% conv2d_groups
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Conv2d(4, 2, 3, padding=1, groups=2)
print(m)
x = torch.randn(2, 4, 5, 5, requires_grad=True)
y = m(x)
print(y[1, -1])
y.sum().backward()
print(x.grad[0, 3])

# %% maxpool_unbatched
import torch
import torch.nn as nn
import torch.nn.functional as F
print(nn.MaxPool2d(2)(torch.arange(8.).reshape(2, 2, 2)))


# %% conv2d_forward_rounds_as_pytorch
import torch
import torch.nn.functional as F
torch.manual_seed(0)
for (n, c, o, h, k) in [(64, 8, 16, 4, 3), (2, 3, 16, 8, 3), (4, 16, 8, 6, 3), (3, 8, 8, 7, 5), (2, 1, 4, 5, 3)]:
    x = torch.randn(n, c, h, h)
    w = torch.randn(o, c, k, k)
    b = torch.randn(o)
    y = F.conv2d(x, w, b, padding=1)
    print(y.flatten().tolist()[:6], y.double().sum().item())

# %% padding_same_even_kernel
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
c = nn.Conv2d(2, 3, 4, padding='same')
print(c)
y = c(x)
print(y.shape, y.grad_fn.name())
print(y[0, 0])
y.sum().backward()
print(x.grad[0, 0])
w = torch.randn(1, 1, 2, 3)
print(F.conv2d(torch.arange(12.).reshape(1, 1, 3, 4), w, padding='same', dilation=(1, 2)))
print(F.conv1d(torch.arange(5.).reshape(1, 1, 5), torch.ones(1, 1, 2), padding='same'))
print(nn.Conv1d(1, 1, 4, padding='same', bias=False)(torch.ones(1, 1, 6)).shape)
