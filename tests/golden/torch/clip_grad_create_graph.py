# %% clip_grad_norm
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Linear(4, 3)
m(torch.randn(5, 4)).pow(2).sum().backward()
n = nn.utils.clip_grad_norm_(m.parameters(), 1.0)
print(n, m.weight.grad, m.bias.grad)

# %% clip_grad_norm_no_clip
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Linear(2, 1)
m(torch.randn(1, 2)).sum().backward()
print(torch.nn.utils.clip_grad_norm_(m.parameters(), 100.0), m.bias.grad)

# %% clip_grad_norm_inf
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Linear(3, 2)
m(torch.randn(4, 3)).sum().backward()
print(nn.utils.clip_grad_norm_(m.parameters(), 0.5, norm_type=float('inf')), m.weight.grad)

# %% clip_grad_norm_p1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Linear(3, 2)
m(torch.randn(4, 3)).sum().backward()
print(nn.utils.clip_grad_norm_(m.parameters(), max_norm=2, norm_type=1), m.bias.grad)

# %% clip_grad_norm_tensor
import torch
import torch.nn as nn
import torch.nn.functional as F
w = torch.ones(3, requires_grad=True)
(w * 4).sum().backward()
print(nn.utils.clip_grad_norm_(w, 1.0), w.grad)

# %% clip_grad_value
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Linear(3, 2)
m(torch.randn(4, 3)).pow(2).sum().backward()
print(nn.utils.clip_grad_value_(m.parameters(), 0.5), m.weight.grad)

# %% clip_in_training
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.5)
x = torch.randn(8, 2) * 10
y = x.sum(1, keepdim=True)
for _ in range(3):
    opt.zero_grad()
    loss = F.mse_loss(m(x), y)
    loss.backward()
    nn.utils.clip_grad_norm_(m.parameters(), 1.0)
    opt.step()
    print(round(loss.item(), 3))

# %% import_utils
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_
import torch.nn.utils as U
print(clip_grad_norm_.__name__, U.clip_grad_value_.__name__)

# %% create_graph_grad
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.tensor(2., requires_grad=True)
y = x ** 3
g, = torch.autograd.grad(y, x, create_graph=True)
print(g)
g2, = torch.autograd.grad(g, x)
print(g2)

# %% create_graph_backward
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 2 * x.sin()).sum()
y.backward(create_graph=True)
print(x.grad)
g = x.grad.sum()
x.grad = None
g.backward()
print(x.grad)

# %% create_graph_exp_tanh
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.tensor([0.5, -1.], requires_grad=True)
g, = torch.autograd.grad((x.exp() + x.tanh()).sum(), x, create_graph=True)
h, = torch.autograd.grad(g.sum(), x)
print(g, h)

# %% create_graph_gradient_penalty
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Linear(3, 1)
x = torch.randn(4, 3, requires_grad=True)
out = m(x)
g, = torch.autograd.grad(out.sum(), x, create_graph=True)
penalty = (g.norm(dim=1) - 1).pow(2).mean()
penalty.backward()
print(penalty, m.weight.grad)

# %% create_graph_third
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.tensor(1.5, requires_grad=True)
y = x ** 4
g1, = torch.autograd.grad(y, x, create_graph=True)
g2, = torch.autograd.grad(g1, x, create_graph=True)
g3, = torch.autograd.grad(g2, x)
print(g1, g2, g3)

# %% create_graph_sigmoid_relu
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.tensor([-1., 0.5, 2.], requires_grad=True)
g, = torch.autograd.grad((torch.sigmoid(x) * torch.relu(x)).sum(), x, create_graph=True)
print(g, torch.autograd.grad(g.sum(), x)[0])

# %% contains_float
import torch
import torch.nn as nn
import torch.nn.functional as F
print(2.5 in torch.tensor([1.0, 2.5]), 3.0 in torch.tensor([1.0, 2.5]))

# %% contains_2d
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.tensor([[1, 2], [3, 4]])
print(3 in x, 5 in x, True in x)

# %% contains_tensor
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.tensor([1., 2.])
print(torch.tensor(2.) in x, torch.tensor([5., 1.]) in x)

# %% contains_str
import torch
import torch.nn as nn
import torch.nn.functional as F
'a' in torch.tensor([1.])

# %% contains_not_in
import torch
import torch.nn as nn
import torch.nn.functional as F
print(0 not in torch.ones(3))

# %% nograd_views
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.ones(2, 3, requires_grad=True)
with torch.no_grad():
    a = x[0]
    b = x.view(6)
    c = x * 2
    d = x.t()
    e = x[:, 1:]
    f = x.unsqueeze(0)
    g = x.reshape(3, 2)
    h = x[[0, 1]]
for t in [a, b, c, d, e, f, g, h]:
    print(t.requires_grad, t.is_leaf, t.grad_fn)

# %% nograd_views_print
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.ones(2, 2, requires_grad=True)
with torch.no_grad():
    print(x[0], x.view(4), x.transpose(0, 1), x + 1)

# %% nograd_view_of_nonleaf
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.ones(2, 2, requires_grad=True)
y = x * 2
with torch.no_grad():
    v = y[0]
print(v.requires_grad, v.is_leaf, v.grad_fn)

# %% nograd_view_plain
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.ones(3)
with torch.no_grad():
    print(x[0].requires_grad, x.view(3).requires_grad)

# %% inference_mode_views
import torch
x = torch.ones(2, 3, requires_grad=True)
with torch.inference_mode():
    a = x[0]
    b = x.view(6)
    print(a.requires_grad, b.requires_grad)
with torch.no_grad():
    c = x.detach()[0]
    d = x.data.view(6)
    print(c.requires_grad, d.requires_grad)

