# %% tensor_hook_leaf
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x.register_hook(lambda g: print('leaf grad', g))
(x * 3).sum().backward()
print(x.grad)

# %% tensor_hook_replaces_grad
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.register_hook(lambda g: g * 2)
y.sum().backward()
print(x.grad)

# %% tensor_hook_leaf_scales
import torch
w = torch.tensor([0.5, -1.0], requires_grad=True)
w.register_hook(lambda g: g.clamp(-0.1, 0.1))
(w * torch.tensor([3.0, -4.0])).sum().backward()
print(w.grad)

# %% tensor_hook_remove
import torch
x = torch.tensor([1.0], requires_grad=True)
h = x.register_hook(lambda g: g * 100)
h.remove()
(x * 2).sum().backward()
print(x.grad)

# %% tensor_hook_order
import torch
x = torch.tensor([1.0], requires_grad=True)
x.register_hook(lambda g: print('first', g) or g + 1)
x.register_hook(lambda g: print('second', g))
(x * 2).sum().backward()
print(x.grad)

# %% tensor_hook_raises
import torch
def bad(g):
    raise ValueError('nope')
z = torch.ones(1, requires_grad=True)
z.register_hook(bad)
try:
    (z * 2).sum().backward()
except ValueError as e:
    print('caught', e)

# %% tensor_hook_no_grad_error
import torch
torch.ones(1).register_hook(print)

# %% tensor_hook_intermediate_print
import torch
a = torch.tensor([2.0, 3.0], requires_grad=True)
b = a ** 2
b.register_hook(lambda g: print('dL/db', g))
c = (b * torch.tensor([1.0, 10.0])).sum()
c.backward()
print(a.grad)

# %% full_backward_hook
import torch
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
def bh(m, gin, gout):
    print('bwd', type(m).__name__, gin, gout)
lin.register_full_backward_hook(bh)
x = torch.randn(1, 3, requires_grad=True)
lin(x).sum().backward()
print(x.grad)

# %% full_backward_hook_input_no_grad
import torch
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
lin.register_full_backward_hook(lambda m, gin, gout: print(gin, gout))
lin(torch.randn(1, 3)).sum().backward()
print(lin.bias.grad)

# %% full_backward_hook_replaces_grad_input
import torch
import torch.nn as nn
m = nn.ReLU()
m.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 0 + 7,))
x = torch.tensor([1.0, -1.0], requires_grad=True)
m(x).sum().backward()
print(x.grad)

# %% full_backward_pre_hook
import torch
import torch.nn as nn
m2 = nn.Identity()
m2.register_full_backward_pre_hook(lambda mod, go: (go[0] * 5,))
h = m2.register_full_backward_hook(lambda mod, gi, go: print('id', gi, go))
x = torch.tensor([1.0, 2.0], requires_grad=True)
m2(x).sum().backward()
print(x.grad)

# %% full_backward_hook_removed
import torch
import torch.nn as nn
lin = nn.Linear(2, 1)
h = lin.register_full_backward_hook(lambda *a: print('should not print'))
h.remove()
lin(torch.ones(1, 2, requires_grad=True)).sum().backward()
print('quiet')

# %% gradient_norms_per_layer
import torch
import torch.nn as nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 1))
norms = []
for layer in net:
    layer.register_full_backward_hook(lambda m, gi, go: norms.append((type(m).__name__, round(go[0].norm().item(), 4)) if hasattr(go[0], 'norm') else None))
x = torch.randn(5, 4, requires_grad=True)
net(x).pow(2).mean().backward()
print(len(norms))

# %% backward_hook_in_sequential_grads_match
import torch
import torch.nn as nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
seen = []
for layer in net:
    layer.register_full_backward_hook(lambda m, gi, go: seen.append(type(m).__name__))
x = torch.randn(2, 4, requires_grad=True)
net(x).sum().backward()
print(seen)
print(x.grad)
