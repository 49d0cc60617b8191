# %% silu_module
import torch
import torch.nn as nn
x = torch.tensor([[-2.0, -0.5, 0.0, 0.5, 3.0]])
print(nn.SiLU(), nn.SiLU(inplace=True))
print(nn.SiLU()(x))

# %% silu_functional_grad_fn
import torch
import torch.nn.functional as F
x = torch.tensor([-1.0, 0.25, 2.0], requires_grad=True)
y = F.silu(x)
print(y)
print(y.grad_fn.name())

# %% silu_backward
import torch
import torch.nn.functional as F
x = torch.tensor([-3.0, -1.0, 0.0, 1.0, 4.0], requires_grad=True)
F.silu(x).sum().backward()
print(x.grad)

# %% silu_inplace
import torch
import torch.nn.functional as F
x = torch.tensor([1.0, -1.0])
y = F.silu(x, inplace=True)
print(x, y is x)

# %% silu_int_error
import torch
import torch.nn.functional as F
F.silu(torch.tensor([1, 2]))

# %% silu_double
import torch
import torch.nn as nn
print(nn.SiLU()(torch.tensor([0.5, -0.5], dtype=torch.float64)))

# %% silu_bits
# F.silu is ATen's vector x / (1 + exp(-x)) with SLEEF's exp, and its scalar formula on the
# last elements (fewer than 32, or 64 for float16/bfloat16): PyTorch's bits at every length
import torch
import torch.nn.functional as F
torch.manual_seed(1)
for n in (5, 37, 1000, 4099):
    x = (torch.randn(n) * 4).requires_grad_()
    y = F.silu(x)
    y.backward(torch.randn(n))
    print(n, y.tolist())
    print(x.grad[:6], x.grad[-6:])
for dt in (torch.float16, torch.bfloat16):
    print(dt, F.silu((torch.randn(300) * 4).to(dt)).tolist())
    # the gradient of a half type is computed in float32 and rounded once
    x = (torch.randn(200) * 4).to(dt).requires_grad_()
    F.silu(x).backward(torch.randn(200).to(dt))
    print(x.grad.tolist())
# (float64 takes SLEEF's double exp in PyTorch, which the engine does not reproduce)
print(F.silu((torch.randn(300) * 4).double())[:5])
print(F.silu(torch.tensor([0.0, -0.0, float('inf'), float('-inf'), float('nan'), 100.0, -100.0, -88.5, 1e-30])).tolist())

# %% activation_reprs_more
import torch.nn as nn
print(nn.GELU(), nn.GELU(approximate='tanh'), nn.LeakyReLU(0.2), nn.LeakyReLU(), nn.Softmax(dim=1), nn.Identity(), nn.SiLU())

# %% activations_forward
import torch
import torch.nn as nn
x = torch.tensor([[-1.0, 0.5, 2.0]])
print(nn.GELU()(x))
print(nn.GELU(approximate='tanh')(x))
print(nn.LeakyReLU(0.2)(x))
print(nn.Softmax(dim=1)(x))
print(nn.Identity(3, k=2)(x))

# %% activations_in_sequential
import torch
import torch.nn as nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.SiLU(), nn.Linear(4, 4), nn.GELU(), nn.Linear(4, 2), nn.LeakyReLU(0.1), nn.Softmax(dim=-1))
print(net)
print(net(torch.randn(2, 3)))

# %% silu_training_step
import torch
import torch.nn as nn
torch.manual_seed(1)
net = nn.Sequential(nn.Linear(2, 8), nn.SiLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.randn(16, 2)
y = x.sum(dim=1, keepdim=True)
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(x), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))

# %% forward_hook
import torch
import torch.nn as nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
def show(m, inp, out):
    print('forward', type(m).__name__, tuple(inp[0].shape), tuple(out.shape))
h = net[0].register_forward_hook(show)
net(torch.randn(4, 3))
h.remove()
net(torch.randn(4, 3))
print('removed')

# %% forward_pre_hook
import torch
import torch.nn as nn
lin = nn.Linear(2, 2)
def pre(m, args):
    print('pre', type(m).__name__, len(args))
lin.register_forward_pre_hook(pre)
lin(torch.zeros(1, 2))

# %% forward_hook_replaces_output
import torch
import torch.nn as nn
m = nn.Identity()
m.register_forward_hook(lambda mod, inp, out: out * 10)
print(m(torch.tensor([1.0, 2.0])))

# %% pre_hook_replaces_input
import torch
import torch.nn as nn
m = nn.Identity()
m.register_forward_pre_hook(lambda mod, args: args[0] + 1)
print(m(torch.tensor([1.0, 2.0])))

# %% hook_order_and_prepend
import torch
import torch.nn as nn
m = nn.Identity()
m.register_forward_hook(lambda *a: print('first'))
m.register_forward_hook(lambda *a: print('second'))
m.register_forward_hook(lambda *a: print('prepended'), prepend=True)
m(torch.zeros(1))

# %% hook_with_kwargs
import torch
import torch.nn as nn
class Scale(nn.Module):
    def forward(self, x, factor=1.0):
        return x * factor
m = Scale()
def pre(mod, args, kwargs):
    print('kwargs', kwargs)
    return args, {'factor': 3.0}
def post(mod, args, kwargs, out):
    print('post kwargs', kwargs)
m.register_forward_pre_hook(pre, with_kwargs=True)
m.register_forward_hook(post, with_kwargs=True)
print(m(torch.tensor([1.0]), factor=2.0))

# %% hook_handle_context
import torch
import torch.nn as nn
m = nn.Identity()
with m.register_forward_hook(lambda *a: print('hooked')):
    m(torch.zeros(1))
m(torch.zeros(1))
print('done')

# %% hook_handle_ids
import torch.nn as nn
m = nn.Identity()
h1 = m.register_forward_hook(lambda *a: None)
h2 = m.register_forward_hook(lambda *a: None)
print(h2.id - h1.id, type(h1).__name__)
h1.remove()
h1.remove()
print('ok')

# %% activation_capture
import torch
import torch.nn as nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
acts = {}
def save(name):
    def hook(m, inp, out):
        acts[name] = out.detach()
    return hook
for name, layer in net.named_children():
    layer.register_forward_hook(save(name))
net(torch.randn(1, 3))
for k, v in acts.items():
    print(k, v)

# %% register_buffer_state_dict
import torch
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 1)
        self.register_buffer('running', torch.zeros(2))
        self.register_buffer('scratch', torch.ones(1), persistent=False)
m = M()
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_buffers()])
print(m.running, m.scratch)

# %% register_buffer_moves_with_module
import torch
import torch.nn as nn
m = nn.Linear(1, 1)
m.register_buffer('steps', torch.tensor([3.0]))
m.double()
print(m.steps.dtype, m.weight.dtype)

# %% register_buffer_errors
import torch
import torch.nn as nn
m = nn.Linear(1, 1)
try:
    m.register_buffer('weight', torch.zeros(1))
except KeyError as e:
    print('KeyError', e)
try:
    m.register_buffer('a.b', torch.zeros(1))
except KeyError as e:
    print('KeyError', e)
m.register_buffer('x', 5)

# %% state_dict_odict_keys
import torch.nn as nn
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
sd = net.state_dict()
print(sd.keys())
print(type(sd).__name__)

# %% load_state_dict_messages
import torch
import torch.nn as nn
net = nn.Sequential(nn.Linear(3, 2))
net.register_buffer('steps', torch.zeros(1))
r = net.load_state_dict({'0.weight': torch.zeros(2, 3)}, strict=False)
print(r)
print(r.missing_keys, r.unexpected_keys)
try:
    net.load_state_dict({'0.weight': torch.zeros(2, 3), 'extra': torch.zeros(1)})
except RuntimeError as e:
    print(e)

# %% load_state_dict_all_matched
import torch
import torch.nn as nn
a = nn.Linear(2, 2)
b = nn.Linear(2, 2)
print(b.load_state_dict(a.state_dict()))
print(torch.equal(a.weight, b.weight))

# %% zero_grad_set_to_none
import torch
import torch.nn as nn
torch.manual_seed(0)
net = nn.Linear(3, 1)
net(torch.randn(2, 3)).sum().backward()
net.zero_grad(set_to_none=False)
print(net.weight.grad, net.bias.grad)
net(torch.randn(2, 3)).sum().backward()
net.zero_grad()
print(net.weight.grad)

# %% requires_grad_module
import torch.nn as nn
net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
net[0].requires_grad_(False)
print([p.requires_grad for p in net.parameters()])
print(net.requires_grad_() is net, [p.requires_grad for p in net.parameters()])

# %% apply_counts
import torch.nn as nn
net = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 1)))
seen = []
r = net.apply(lambda m: seen.append(type(m).__name__))
print(seen, r is net)

# %% apply_init_constant
import torch
import torch.nn as nn
def init(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.5)
        nn.init.zeros_(m.bias)
net = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
net.apply(init)
print(net[0].weight)
print(net(torch.ones(1, 3)))

# %% modulelist_ops
import torch.nn as nn
ml = nn.ModuleList([nn.Linear(2, 2), nn.ReLU()])
ml.append(nn.Tanh())
ml.extend([nn.Sigmoid()])
ml.insert(0, nn.Identity())
print(ml)
print(len(ml), ml[-1], ml[1:3])

# %% modulelist_params
import torch.nn as nn
layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
print(sum(p.numel() for p in layers.parameters()), [n for n, _ in layers.named_parameters()][:3])

# %% moduledict_ops
import torch.nn as nn
md = nn.ModuleDict({'a': nn.Linear(2, 3), 'b': nn.ReLU()})
md['c'] = nn.Tanh()
print(md)
print(list(md.keys()), 'a' in md, len(md))
print([type(v).__name__ for v in md.values()])
p = md.pop('b')
print(p, list(md))

# %% moduledict_forward
import torch
import torch.nn as nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict({'cls': nn.Linear(2, 3), 'reg': nn.Linear(2, 1)})
    def forward(self, x):
        return {k: h(x) for k, h in self.heads.items()}
out = Net()(torch.ones(1, 2))
print(sorted(out), out['reg'])

# %% leaky_relu_backward
import torch
import torch.nn as nn
x = torch.tensor([-2.0, 3.0], requires_grad=True)
nn.LeakyReLU(0.1)(x).sum().backward()
print(x.grad)

# %% gelu_tanh_backward
import torch
import torch.nn.functional as F
x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
F.gelu(x, approximate='tanh').sum().backward()
print(x.grad)
# %% gelu_vectorised
# F.gelu over contiguous runs (PyTorch: oneDNN's erf for the erf form, SLEEF's tanh for the
# tanh form), strided ones (the scalar formula), half types and special values, as printed.
# Inputs stay above -2.5: further left, 1 + erf cancels to a few ulps of 1, whose digits each
# erf approximation gives its own way (PyTorch's scalar and oneDNN paths disagree there too)
import torch
import torch.nn.functional as F
torch.manual_seed(3)
x = (torch.rand(2, 50) * 5 - 2.5).requires_grad_()
for approx in ('none', 'tanh'):
    y = F.gelu(x, approximate=approx)
    print(y)
    y.backward(torch.ones(2, 50))
    print(x.grad)
    x.grad = None
t = x.detach()
print(F.gelu(t[:, ::3]), F.gelu(t[:, ::3], approximate='tanh'))
print(F.gelu(t.half()), F.gelu(t.bfloat16(), approximate='tanh'))
print(F.gelu(t.double())[0, :6])
s = torch.tensor([0.0, -0.0, float('-inf'), float('nan'), 1e-30, -7.0, -20.0, 20.0])
print(F.gelu(s).tolist(), F.gelu(s, approximate='tanh').tolist())
# %% layer_norm_rows
# F.layer_norm over whole rows (the engine's row kernel for float32), its three gradients, a
# two-dim normalised shape, a transposed input, and the float64/float16 paths
import torch
import torch.nn.functional as F
torch.manual_seed(4)
x = (torch.randn(6, 40) * 3 + 2).requires_grad_()
w = torch.randn(40).requires_grad_()
b = torch.randn(40).requires_grad_()
y = F.layer_norm(x, (40,), w, b)
print(y[:2, :8])
y.backward(torch.randn(6, 40))
print(x.grad[:2, :8], w.grad[:8], b.grad[:8])
print(F.layer_norm(x.detach(), (40,))[3, -6:])
print(F.layer_norm(x.detach(), (40,), weight=w.detach())[3, -6:])
z = torch.randn(2, 3, 4, 5)
print(F.layer_norm(z, (4, 5), torch.ones(4, 5) * 2, torch.zeros(4, 5) + 0.5)[1, 2])
print(F.layer_norm(z.transpose(2, 3), (4,))[0, 0])
print(F.layer_norm(z.double(), (5,))[0, 0, 0], F.layer_norm(z.half(), (5,))[0, 0, 0])
v = torch.randn(3, 1000).requires_grad_()
F.layer_norm(v, (1000,), eps=1e-3).pow(2).sum().backward()
print(v.grad[:, :4])
# %% module_property_classmethod
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(2, width)
        self._scale = 1.0
    @property
    def width(self):
        return self.fc.out_features
    @property
    def scale(self):
        return self._scale
    @scale.setter
    def scale(self, v):
        self._scale = v * 2
    @classmethod
    def small(cls):
        return cls(3)
    @staticmethod
    def describe():
        return "a net"
n = Net.small()
print(type(n).__name__, n.width, n.scale, n.describe(), Net.describe())
n.scale = 4
print(n.scale, '_scale' in n.__dict__, [k for k, _ in n.named_parameters()])
n.width = 5
# %% module_property_attribute_error_masked
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
    @property
    def broken(self):
        return self.missing_layer
print(Net().fc.in_features)
Net().broken

# %% silu_backward_bits
# F.silu's gradient, every float32 bit (PyTorch's kernel: (g * s) * fma(x, 1 - s, 1)), over
# lengths around its 32-element vector step, an expanded incoming gradient, and float64
import torch
import torch.nn.functional as F
torch.manual_seed(5)
for n in (1, 17, 32, 37, 100, 4099):
    x = (torch.randn(n) * 4).requires_grad_()
    g = torch.randn(n)
    (gx,) = torch.autograd.grad(F.silu(x), x, g)
    v = gx.double().tolist()
    print(n, hash(tuple(v)), v[:2], v[-2:])
x = (torch.randn(3, 40) * 3).requires_grad_()
F.silu(x).sum().backward()
print(hash(tuple(x.grad.double().flatten().tolist())), x.grad[0, :4])
d = torch.randn(5, dtype=torch.float64, requires_grad=True)
F.silu(d).backward(torch.ones(5, dtype=torch.float64))
print(d.grad)

# %% leaky_relu_bits
# F.leaky_relu and its gradient, every float32 bit (ATen: x > 0 ? v : v * float(slope)), ±0 and NaN
import torch
import torch.nn.functional as F
torch.manual_seed(1)
for slope in (0.01, 0.2, 0.1234567, -0.3, 1.7):
    x = (torch.randn(1000) * 3).requires_grad_()
    x.data[:3] = torch.tensor([0.0, -0.0, float('nan')])
    y = F.leaky_relu(x, slope)
    g = torch.randn(1000)
    (gx,) = torch.autograd.grad(y, x, g)
    print(slope, hash(tuple(y.double().tolist()[3:])), hash(tuple(gx.double().tolist())), y[:3].tolist())
