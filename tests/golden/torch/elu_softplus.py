# %% elu_softplus
# F.elu / F.softplus and nn.ELU / nn.Softplus: values at the edges (signed zeros, tiny, past
# the threshold, nan, infinities), gradients (a NaN takes ELU's linear branch), alpha, beta,
# threshold, inplace, reprs, float64, and the integer errors
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.tensor([-3.0, -1.0, -1e-3, 0.0, -0.0, 1e-4, 2.0, 15.0, 25.0, float('nan'), float('-inf'), float('inf')], requires_grad=True)
y = F.elu(x)
print(y)
g, = torch.autograd.grad(y.sum(), x)
print(g)
y2 = F.elu(x, alpha=0.5)
print(y2, y2.grad_fn.name())
s = F.softplus(x)
print(s, s.grad_fn.name())
print(torch.autograd.grad(s.sum(), x)[0])
s2 = F.softplus(x, beta=2.0, threshold=5.0)
print(s2)
print(torch.autograd.grad(s2.sum(), x)[0])
print(nn.ELU(), nn.ELU(alpha=0.3, inplace=True), nn.Softplus(), nn.Softplus(beta=2, threshold=10))
torch.manual_seed(0)
r = torch.randn(1000)
print(F.elu(r)[:8], F.softplus(r)[:8])
print(F.elu(r).sum().item(), F.softplus(r).sum().item())
h = torch.randn(7).double()
print(F.elu(h), F.softplus(h))
z = torch.tensor([-2.0, 1.0])
F.elu(z, inplace=True)
print(z)
try:
    F.elu(torch.tensor([1, 2]))
except Exception as e:
    print(type(e).__name__, e)
try:
    F.softplus(torch.tensor([1, 2]))
except Exception as e:
    print(type(e).__name__, e)
with torch.autocast('cpu'):
    print(F.softplus(torch.randn(3)).dtype, F.softplus(torch.randn(3).bfloat16()).dtype, F.elu(torch.randn(3).bfloat16()).dtype)

# %% activation_inplace_by_keyword
# in-place activations return the input object, passed by position or as input=
import torch, torch.nn.functional as F
x = torch.tensor([-1.0, 2.0])
y = F.leaky_relu(input=x, inplace=True)
print(y is x, x)
y = F.dropout(input=x, training=False)
print(y is x)
z = torch.tensor([-1.0, 2.0])
w = F.relu(input=z, inplace=True)
print(w is z, z)
v = torch.tensor([-1.0, 2.0])
print(F.elu(v, inplace=True) is v, F.silu(input=v, inplace=True) is v, v)
