# %% grad_add
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x + y
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_sub
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x - y
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_mul
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x * y
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_div
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x / y
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_add_scalar
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x + 2
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_rsub_scalar
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = 2 - x
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_mul_scalar
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = 3 * x
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_div_scalar
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x / 4
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_rdiv_scalar
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = 2 / x
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_pow_scalar
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x ** 3
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_pow_float
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x.abs().pow(1.5)
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_rpow
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = 2 ** x
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_pow_tensor
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x.abs() ** y
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_neg
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = -x
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_exp
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x.exp()
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_log
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x.abs().log()
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_sqrt
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x.abs().sqrt()
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_abs
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x.abs()
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_relu
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x.relu()
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_sigmoid
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x.sigmoid()
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_tanh
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = torch.tanh(x)
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_clamp
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x.clamp(-0.5, 0.5)
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_clamp_min
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = torch.clamp(x, min=0.1)
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_maximum
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = torch.maximum(x, y)
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_sin_cos
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x.sin() * x.cos()
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_square
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x.square()
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_reciprocal
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x.reciprocal()
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_rsqrt
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x.abs().rsqrt()
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% grad_log1p_expm1
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3, requires_grad=True)
z = x.abs().log1p() + x.expm1()
print(z)
z.sum().backward()
print(x.grad)
print(y.grad)

# %% broadcast_grads
import torch
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
b = torch.tensor([10., 20., 30.], requires_grad=True)
c = torch.tensor([[2.], [3.]], requires_grad=True)
s = torch.tensor(0.5, requires_grad=True)
z = (x * b + c) * s
z.sum().backward()
print(x.grad, b.grad, c.grad, s.grad, sep="\n")

# %% reductions
import torch
torch.manual_seed(1)
x = torch.randn(3, 4, requires_grad=True)
x.sum(dim=1).pow(2).sum().backward()
print(x.grad)
x.grad = None
x.mean(0, keepdim=True).exp().sum().backward()
print(x.grad)
x.grad = None
x.mean().backward()
print(x.grad)

# %% max_min_grads
import torch
x = torch.tensor([[1., 5., 3.], [4., 2., 4.]], requires_grad=True)
x.max().backward()
print(x.grad)
x.grad = None
v, i = x.max(dim=1)
v.sum().backward()
print(x.grad, i)
x.grad = None
x.min(0).values.sum().backward()
print(x.grad)
x.grad = None
x.amax(1).sum().backward()
print(x.grad)
y = torch.tensor([2., 2., 1.], requires_grad=True)
y.max().backward()
print(y.grad)

# %% prod_grad
import torch
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
x.prod().backward()
print(x.grad)
x.grad = None
x.prod(1).sum().backward()
print(x.grad)

# %% matmul_grads
import torch
torch.manual_seed(2)
a = torch.randn(2, 3, requires_grad=True)
b = torch.randn(3, 4, requires_grad=True)
(a @ b).sum().backward()
print(a.grad, b.grad, sep="\n")
v = torch.randn(3, requires_grad=True)
a.grad = None
(a @ v).sum().backward()
print(a.grad, v.grad, sep="\n")
w = torch.randn(3, requires_grad=True)
v.grad = None
torch.dot(v, w).backward()
print(v.grad, w.grad, sep="\n")

# %% bmm_batched_grads
import torch
torch.manual_seed(3)
a = torch.randn(2, 2, 3, requires_grad=True)
b = torch.randn(2, 3, 2, requires_grad=True)
c = torch.randn(3, 2, requires_grad=True)
(torch.bmm(a, b).sum() + (a @ c).pow(2).sum()).backward()
print(a.grad, b.grad, c.grad, sep="\n")
v = torch.randn(3, requires_grad=True)
(v @ c).sum().backward()
print(v.grad)

# %% shape_grads
import torch
torch.manual_seed(4)
x = torch.randn(2, 3, requires_grad=True)
w = torch.arange(6.).view(3, 2)
(x.t() * w).sum().backward()
print(x.grad)
x.grad = None
(x.view(6) * torch.arange(6.)).sum().backward()
print(x.grad)
x.grad = None
(x.reshape(3, 2) * w).sum().backward()
print(x.grad)
x.grad = None
(x.unsqueeze(0).expand(4, 2, 3)).sum().backward()
print(x.grad)
x.grad = None
(x.permute(1, 0).flatten() * torch.arange(6.)).sum().backward()
print(x.grad)
x.grad = None
(x.transpose(0, 1).contiguous().view(-1)[1:4]).sum().backward()
print(x.grad)

# %% index_grads
import torch
x = torch.arange(12., requires_grad=True)
y = x.view(3, 4)
(y[1] * 2).sum().backward()
print(x.grad)
x.grad = None
y = x.view(3, 4)
(y[:, 1:3] ** 2).sum().backward()
print(x.grad)
x.grad = None
y = x.view(3, 4)
y[torch.tensor([0, 2, 0])].sum().backward()
print(x.grad)
x.grad = None
y = x.view(3, 4)
y[y > 6].sum().backward()
print(x.grad)
x.grad = None
x[None, ::3].sum().backward()
print(x.grad)

# %% cat_stack_where
import torch
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4., 5.], requires_grad=True)
(torch.cat([a, b]) * torch.arange(5.)).sum().backward()
print(a.grad, b.grad)
a.grad = None
c = torch.tensor([6., 7.], requires_grad=True)
(torch.stack([a, c], dim=1) * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
print(a.grad, c.grad)
a.grad = None
c.grad = None
torch.where(a > 1.5, a * 10, c).sum().backward()
print(a.grad, c.grad)

# %% to_dtype_grad
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.double() * 2
print(y)
y.sum().backward()
print(x.grad, x.grad.dtype)
z = x.to(torch.float16)
print(z.grad_fn.name(), z.dtype)

# %% softmax_grads
import torch
torch.manual_seed(5)
x = torch.randn(2, 4, requires_grad=True)
w = torch.randn(2, 4)
(x.softmax(dim=1) * w).sum().backward()
print(x.grad)
x.grad = None
(torch.log_softmax(x, 1) * w).sum().backward()
print(x.grad)

# %% accumulation
import torch
x = torch.tensor([1., 2.], requires_grad=True)
for _ in range(3):
    (x * x).sum().backward()
    print(x.grad)
x.grad.zero_()
print(x.grad)
x.grad = None
print(x.grad)

# %% retain_graph
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = (x * x).sum()
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)

# %% backward_twice_error
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = (x.exp()).sum()
y.backward()
y.backward()

# %% backward_twice_no_saved
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = (x + 1).sum()
y.backward()
y.backward()
print(x.grad)

# %% gradient_arg
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y.backward(torch.tensor([1., 0.1, 0.01]))
print(x.grad)
y2 = x ** 2
y2.backward(gradient=torch.ones(3))
print(x.grad)

# %% nonscalar_error
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
(x * 2).backward()

# %% no_requires_grad_error
import torch
x = torch.tensor([1., 2., 3.])
(x * 2).sum().backward()

# %% gradient_shape_error
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
(x * 2).backward(torch.ones(2))

# %% retain_grad_nonleaf
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y.retain_grad()
z = (y ** 2).sum()
z.backward()
print(y.grad, x.grad, y.is_leaf, z.is_leaf, x.is_leaf)
print(y.retains_grad, x.retains_grad)

# %% leaf_rules
import torch
a = torch.tensor([1., 2.])
b = torch.tensor([1., 2.], requires_grad=True)
c = b * 2
d = a * 2
print(a.is_leaf, b.is_leaf, c.is_leaf, d.is_leaf)
print(a.requires_grad, c.requires_grad, d.requires_grad)
print(c.grad_fn is not None, d.grad_fn)
e = c.detach()
print(e.is_leaf, e.requires_grad, e.grad_fn)

# %% printed_suffixes
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
print(x)
print(x * 2)
print(x.sum())
print(x[0])
print(x.detach())
print(torch.zeros(2, requires_grad=True))
print(x.double() + 1)
print(x.mean(), x.max())

# %% grad_fn_names_printed
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
for y in [x + 1, x * x, x / 2, x.exp(), x.sum(), x.mean(), x.view(3, 1), x[1:], x.relu(), x @ x, x.t(), x.unsqueeze(0), torch.cat([x, x])]:
    print(type(y.grad_fn).__name__, y.grad_fn.name())

# %% next_functions
import torch
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = (x * w + 1).sum()
f = y.grad_fn
while f is not None:
    print(f.name(), [(type(n).__name__ if n is not None else None, i) for n, i in f.next_functions])
    f = f.next_functions[0][0] if f.next_functions else None
acc = (x * w).grad_fn.next_functions[0][0]
print(type(acc).__name__, acc.variable is x, acc.variable.shape)

# %% no_grad_manager
import torch
x = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    y = x * 2
    print(torch.is_grad_enabled(), y.requires_grad, y.grad_fn)
print(torch.is_grad_enabled())
z = x * 2
print(z.requires_grad)

# %% no_grad_decorator
import torch
x = torch.tensor([1., 2.], requires_grad=True)
@torch.no_grad()
def f(t):
    return t * 2, torch.is_grad_enabled()
y, on = f(x)
print(y.requires_grad, on, torch.is_grad_enabled())
@torch.no_grad
def g(t):
    return t + 1
print(g(x).requires_grad)

# %% enable_grad_inside_no_grad
import torch
x = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
    z = x * 2
print(y.requires_grad, z.requires_grad)
@torch.enable_grad()
def h(t):
    return t * 3
with torch.no_grad():
    print(h(x).requires_grad)

# %% set_grad_enabled
import torch
x = torch.tensor([1., 2.], requires_grad=True)
with torch.set_grad_enabled(False):
    y = x * 2
print(y.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (x * 2).requires_grad)
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
is_train = False
with torch.set_grad_enabled(is_train):
    print((x * 2).requires_grad)

# %% inference_mode
import torch
x = torch.tensor([1., 2.], requires_grad=True)
with torch.inference_mode():
    y = x * 2
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled(), y.requires_grad)
print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
@torch.inference_mode()
def f(t):
    return t * 2
print(f(x).requires_grad)
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled())

# %% no_grad_restores_after_exception
import torch
x = torch.tensor([1., 2.], requires_grad=True)
try:
    with torch.no_grad():
        raise ValueError("boom")
except ValueError as e:
    print("caught", e)
print(torch.is_grad_enabled())

# %% inplace_leaf_error
import torch
x = torch.tensor([1., 2.], requires_grad=True)
x += 1

# %% inplace_leaf_no_grad_ok
import torch
x = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    x += 1
    x.mul_(2)
print(x, x.is_leaf, x.requires_grad)

# %% inplace_saved_error
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.exp()
z = y * 2
y.add_(1)
z.sum().backward()
print(x.grad)
w = x.sigmoid()
w.mul_(2)
w.sum().backward()

# %% inplace_saved_input_error
import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a * 1
c = b * b
b.add_(1)
c.sum().backward()

# %% inplace_nonleaf_ok
import torch
x = torch.tensor([-1., 2., -3.], requires_grad=True)
y = x * 2
y.relu_()
print(y, y.grad_fn.name())
y += 1
print(y.grad_fn.name())
y.sum().backward()
print(x.grad, y._version)

# %% setitem_grad
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y[0] = 10.
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)
z = torch.zeros(3)
z[1] = x[2] * 5
print(z.requires_grad, z.grad_fn.name())
z.sum().backward()
print(x.grad)

# %% version_counter
import torch
x = torch.ones(3)
print(x._version)
x.add_(1)
x[0] = 5
x.zero_()
print(x._version)
v = x.view(3)
v.mul_(2)
print(x._version, v._version)

# %% requires_grad_int_error
import torch
x = torch.tensor([1, 2, 3])
x.requires_grad_()

# %% requires_grad_int_creation_error
import torch
x = torch.tensor([1, 2, 3], requires_grad=True)

# %% requires_grad_nonleaf_error
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.requires_grad = False

# %% requires_grad_setters
import torch
x = torch.tensor([1., 2.])
x.requires_grad = True
print(x.requires_grad)
y = x.requires_grad_(False)
print(y is x, x.requires_grad)
z = torch.ones(2).requires_grad_()
print(z)
print(torch.randn(2, requires_grad=True).requires_grad, torch.zeros(1, requires_grad=True).is_leaf)

# %% numpy_requires_grad_error
import torch
x = torch.tensor([1., 2.], requires_grad=True)
x.numpy()

# %% detach_and_data
import torch
x = torch.tensor([1., 2.], requires_grad=True)
d = x.detach()
d[0] = 100.
print(x)
print(x.data, x.data.requires_grad)
y = x * 2
y.detach_()
print(y.requires_grad, y.grad_fn, y.is_leaf)

# %% autograd_grad
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = (x ** 2).sum()
g, = torch.autograd.grad(y, x)
print(g, x.grad)
w = torch.tensor(2., requires_grad=True)
z = x * w
gx, gw = torch.autograd.grad(z.sum(), [x, w])
print(gx, gw)

# %% autograd_grad_unused_error
import torch
x = torch.tensor([1., 2.], requires_grad=True)
u = torch.tensor([1., 2.], requires_grad=True)
torch.autograd.grad((x * 2).sum(), [x, u])

# %% grad_set_and_errors
import torch
x = torch.tensor([1., 2.], requires_grad=True)
x.grad = torch.tensor([5., 5.])
(x * 3).sum().backward()
print(x.grad)
x.grad = torch.zeros(3)

# %% nonleaf_grad_is_none
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.sum().backward()
print(x.grad)

# %% chain_rule_mlp
import torch
torch.manual_seed(0)
w1 = torch.randn(3, 4, requires_grad=True)
b1 = torch.zeros(4, requires_grad=True)
w2 = torch.randn(4, 1, requires_grad=True)
x = torch.randn(5, 3)
t = torch.randn(5, 1)
h = (x @ w1 + b1).relu()
loss = ((h @ w2 - t) ** 2).mean()
print(loss)
loss.backward()
print(w1.grad, b1.grad, w2.grad, sep="\n")

# %% manual_sgd_loop
import torch
torch.manual_seed(0)
w = torch.randn(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
x = torch.linspace(0, 1, 10)
y = 3 * x + 1
for step in range(5):
    loss = ((w * x + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
        b -= 0.5 * b.grad
    w.grad.zero_()
    b.grad.zero_()
    print(step, f"{loss.item():.4f}", round(w.item(), 4), round(b.item(), 4))

# %% diamond_graph
import torch
x = torch.tensor([2.], requires_grad=True)
a = x * 3
b = a.exp()
c = a.sin()
d = b * c + a
d.backward()
print(x.grad)

# %% shared_leaf_twice
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * x * x + x
y.sum().backward()
print(x.grad)

# %% grad_fn_repr_kind
import torch
x = torch.tensor([1.], requires_grad=True)
r = repr((x + 1).grad_fn)
print(r.startswith("<AddBackward0 object at 0x"), r.endswith(">"))
print(type((x*1).grad_fn).__name__)

# %% float64_grads
import torch
x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
y = (x.exp() * x.log()).sum()
y.backward()
print(x.grad)

# %% int_ops_no_grad
import torch
x = torch.tensor([1., 2.], requires_grad=True)
print((x > 1).requires_grad, x.argmax().requires_grad, (x.long()).requires_grad)

# %% expand_broadcast_accum
import torch
b = torch.tensor([1., 2., 3.], requires_grad=True)
x = torch.ones(4, 3)
y = x + b
y.backward(torch.ones(4, 3))
print(b.grad)

# %% mean_dim_keepdim_grad
import torch
x = torch.arange(24., requires_grad=True)
y = x.view(2, 3, 4).mean(dim=(0, 2))
y.sum().backward()
print(y, x.grad.view(2, 3, 4)[0])

# %% clone_grad
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x.clone()
print(y.grad_fn.name())
(y * 3).sum().backward()
print(x.grad)

# %% grad_mode_classes_are_one_object
import torch
import torch.autograd
from torch.autograd import no_grad
print(torch.no_grad is torch.autograd.no_grad, no_grad is torch.no_grad)
print(torch.inference_mode is torch.autograd.inference_mode)
