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

# %% full_backward_hooks_several_inputs_and_outputs
import torch
import torch.nn as nn
class Two(nn.Module):
    def forward(self, a, b):
        return a * b, a + 2 * b
m = Two()
def hook(mod, gi, go):
    print('hook', [None if g is None else g.tolist() for g in gi], [None if g is None else g.tolist() for g in go])
def pre(mod, go):
    print('pre', [None if g is None else g.tolist() for g in go])
m.register_full_backward_pre_hook(pre)
h = m.register_full_backward_hook(hook)
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
x, y = m(a, b)
(x.sum() + 3 * y.sum()).backward()
print(a.grad, b.grad)
a.grad = None; b.grad = None
x, y = m(a, b)
x.sum().backward()
print(a.grad, b.grad)
h.remove()
def rep(mod, gi, go):
    return (gi[0] * 10, gi[1])
m.register_full_backward_hook(rep)
a.grad = None; b.grad = None
x, y = m(a, b)
(x + y).sum().backward()
print(a.grad, b.grad)
c = torch.tensor([1., 1.])
a.grad = None
x, y = m(a, c)
(x + y).sum().backward()
print(a.grad)

# %% full_backward_hooks_non_tensor_args_and_pre_hook_replacement
import torch
import torch.nn as nn
class Scale(nn.Module):
    def forward(self, x, k, y):
        return x * k + y
m = Scale()
m.register_full_backward_hook(lambda mod, gi, go: print('hook', len(gi), gi[1], [g.tolist() for g in go]))
x = torch.ones(2, requires_grad=True)
m(x, 3, torch.ones(2)).sum().backward()
print(x.grad)
n = Scale()
n.register_full_backward_hook(lambda mod, gi, go: print('no input grads', gi, [g.tolist() for g in go]))
w = torch.ones(2, requires_grad=True)
(n(torch.ones(2), 2, torch.zeros(2)) * w).sum().backward()
class Pair(nn.Module):
    def forward(self, a):
        return a.sin(), a.cos()
p = Pair()
p.register_full_backward_pre_hook(lambda mod, go: (go[0] * 0, go[1]))
a = torch.zeros(2, requires_grad=True)
s, c = p(a)
(s + c).sum().backward()
print(a.grad)

# %% full_backward_hook_node_names
import torch
import torch.nn as nn
torch.manual_seed(0)
class Show(nn.Module):
    def forward(self, x):
        print('inside:', x.grad_fn.name(), type(x.grad_fn).__module__)
        return x * 2

m = Show()
m.register_full_backward_hook(lambda mod, gi, go: print('hook', gi[0].shape, go[0].shape))
x = torch.ones(2, 3, requires_grad=True)
y = m(x)
print(y)
print(y.grad_fn.name(), type(y.grad_fn).__name__, type(y.grad_fn).__module__)
print(repr(y.grad_fn).split(' object')[0])
y.sum().backward()
print(x.grad)
lin = nn.Linear(3, 1)
lin.register_full_backward_pre_hook(lambda mod, go: None)
out = lin(torch.ones(1, 3))
print(out.grad_fn.name())

# %% full_backward_hooks_mixed_dtypes
import torch
import torch.nn as nn
class Two(nn.Module):
    def forward(self, a, b):
        return a * 2, (b * 3).double()

m = Two()
def hook(mod, gi, go):
    print('hook', [None if g is None else (g.dtype, g.tolist()) for g in gi], [None if g is None else g.dtype for g in go])
    return (gi[0] * 10, gi[1])
m.register_full_backward_hook(hook)
a = torch.ones(2, requires_grad=True)
b = torch.ones(2, dtype=torch.float64, requires_grad=True)
p, q = m(a, b)
print(p.dtype, q.dtype, p.grad_fn.name())
(p.sum() + q.sum()).backward()
print(a.grad, b.grad)
p, q = m(a, b)
p.sum().backward()
print(a.grad, b.grad)
