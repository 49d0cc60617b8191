# %% data_is_a_detached_alias
import torch
import torch.nn as nn
p = nn.Parameter(torch.tensor([1.0, 2.0]))
d = p.data
print(d, d.requires_grad, d.is_leaf, d.grad_fn, type(d).__name__)
d[0] = 5.0
print(p)

# %% set_data_swaps_and_keeps_identity
import torch
import torch.nn as nn
p = nn.Parameter(torch.tensor([1.0, 2.0]))
i0 = id(p)
d = p.data
p.data = torch.tensor([7.0, 8.0, 9.0], dtype=torch.float64)
print(p, id(p) == i0, p.requires_grad, p.is_leaf, p.dtype, p.shape)
print(d)
p.data[1] = 0.5
print(p)

# %% set_data_on_leaf_that_requires_grad
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
x.data = torch.zeros(3)
print(x)
(x * 2).sum().backward()
print(x.grad)
y = torch.ones(2, requires_grad=True) * 3
y.data = torch.tensor([4.0, 5.0])
print(y, y.grad_fn is not None)

# %% set_data_needs_a_tensor
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
x.data = 5

# %% module_double_keeps_parameters
import torch
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
w = m.weight
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m.double()
print(m.weight is w, m.weight.dtype, w.dtype)
m(torch.ones(1, 2, dtype=torch.float64)).sum().backward()
print(w.grad.dtype)
opt.step()
print(m.weight)
m.float()
print(m.weight is w, w.grad.dtype, w.grad)
b = nn.BatchNorm1d(2)
rm = b.running_mean
b.double()
print(b.running_mean is rm, b.running_mean.dtype)

# %% module_to_keeps_optimizer_working
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
ids = [id(p) for p in model.parameters()]
opt = torch.optim.Adam(model.parameters(), lr=0.01)
model.to(torch.float64)
print([id(p) for p in model.parameters()] == ids, next(model.parameters()).dtype)
x = torch.randn(16, 4, dtype=torch.float64)
y = x.sum(1, keepdim=True)
for step in range(30):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
print(f'{loss.item():.6f}', opt.state[model[0].weight]['exp_avg'].dtype)

# %% set_data_keeps_the_version_counter
import torch
w = torch.ones(2, requires_grad=True)
with torch.no_grad():
    w.mul_(2)
    w.add_(1)
y = (w * w).sum()
print(w._version)
w.data = torch.zeros(2)
print(w._version)
y.backward()
print(w.grad)
z = (w * 3).sum() + (w * w).sum()
with torch.no_grad():
    w.add_(1)
print(w._version)
try:
    z.backward()
except RuntimeError as e:
    print(str(e)[:80])
