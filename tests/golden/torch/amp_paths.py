# %% every_path_to_an_op_is_cast_alike
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3)
w = torch.randn(4, 3)
m = torch.randn(3, 3)
with torch.autocast('cpu'):
    print((x @ m).dtype, x.matmul(m).dtype, torch.matmul(x, m).dtype, x.mm(m).dtype, torch.mm(x, m).dtype)
    print(torch.bmm(x[None], m[None]).dtype, x[None].bmm(m[None]).dtype)
    print(F.linear(x, w).dtype, nn.Linear(3, 4)(x).dtype)
    print(F.mse_loss(x, x).dtype, nn.MSELoss()(x, x).dtype, nn.L1Loss()(x, x).dtype)
    h = x.to(torch.bfloat16)
    print(F.mse_loss(h, h).dtype, nn.MSELoss()(h, h).dtype)
    print(torch.cat([x, h]).dtype, torch.stack([h, x]).dtype, torch.cat([h, h]).dtype)
    print(h.prod().dtype, torch.prod(h).dtype, h.prod(0).dtype)
    print(h.sum().dtype, h.mean().dtype, h.exp().dtype, torch.exp(h).dtype, (h ** 2).dtype)
    print(torch.nn.functional.layer_norm(h, (3,)).dtype, nn.LayerNorm(3).bfloat16()(h).dtype)
print(x.dtype, w.dtype, m.dtype)

# %% conv_and_pooling_under_cpu_autocast
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
img = torch.randn(1, 2, 5, 5)
conv = nn.Conv2d(2, 3, 3)
with torch.autocast('cpu'):
    y = conv(img)
    print(y.dtype, F.conv2d(img, conv.weight).dtype, F.conv1d(img[:, :, 0], torch.randn(4, 2, 3)).dtype)
    print(F.max_pool2d(y, 2).dtype, F.avg_pool2d(y, 2).dtype, F.adaptive_avg_pool2d(y, 1).dtype)
    loss = y.float().pow(2).mean()
loss.backward()
print(conv.weight.grad.dtype, conv.weight.grad.shape, round(loss.item(), 1))

# %% backward_inside_and_after_autocast
import torch
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
x = torch.randn(4, 3)
with torch.autocast('cpu'):
    out = lin(x)
    loss = (out.float() ** 2).sum()
    loss.backward()
print(out.dtype, loss.dtype, lin.weight.grad.dtype, lin.bias.grad.dtype)
g = lin.weight.grad.clone()
lin.zero_grad()
with torch.autocast('cpu'):
    out = lin(x)
    loss = (out.float() ** 2).sum()
loss.backward()
print(torch.equal(g, lin.weight.grad))

# %% inplace_ops_and_float64_are_not_cast
import torch
torch.manual_seed(0)
x = torch.randn(3, 3, dtype=torch.float64)
h = torch.randn(3).to(torch.bfloat16)
with torch.autocast('cpu'):
    print((x @ x).dtype, torch.mm(x, x).dtype)
    h.pow_(2)
    print(h.dtype)
