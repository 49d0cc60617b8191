# %% legendre_polynomial
import torch
class LegendreP3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return 0.5 * (5 * x ** 3 - 3 * x)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * x ** 2 - 1)

x = torch.linspace(-1, 1, 5, requires_grad=True)
y = LegendreP3.apply(x)
print(y)
print(y.grad_fn.name(), type(y.grad_fn).__name__, y.requires_grad, y.is_leaf)
y.sum().backward()
print(x.grad)

# %% custom_relu_trains
import torch
class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        ctx.save_for_backward(inp)
        return inp.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        inp, = ctx.saved_tensors
        g = grad_output.clone()
        g[inp < 0] = 0
        return g

torch.manual_seed(0)
w = torch.randn(3, 2, requires_grad=True)
x = torch.randn(4, 3)
for step in range(3):
    loss = MyReLU.apply(x @ w).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad = None
    print(step, round(loss.item(), 4))

# %% two_inputs_and_a_number
import torch
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, k):
        ctx.k = k
        ctx.save_for_backward(a, b)
        return a * b * k

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print('needs', ctx.needs_input_grad)
        return g * b * ctx.k, g * a * ctx.k, None

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
out = Scale.apply(a, b, 10)
print(out, len(out.grad_fn.next_functions))
out.sum().backward()
print(a.grad, b.grad)

# %% forward_runs_without_grad
import torch
class Peek(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print('grad enabled in forward:', torch.is_grad_enabled(), x.requires_grad)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        print('grad enabled in backward:', torch.is_grad_enabled())
        return g * 2

x = torch.ones(2, requires_grad=True)
y = Peek.apply(x)
y.sum().backward()
print(x.grad)
with torch.no_grad():
    z = Peek.apply(x)
print(z.requires_grad, z.grad_fn)
print(Peek.apply(torch.ones(2)).requires_grad)

# %% wrong_number_of_grads
import torch
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, g):
        return g

a = torch.ones(2, requires_grad=True)
try:
    Bad.apply(a, a).sum().backward()
except RuntimeError as e:
    print('RuntimeError:', e)

# %% grad_for_a_number
import torch
class Bad2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, k):
        return a * k

    @staticmethod
    def backward(ctx, g):
        return g * 2, g

a = torch.ones(2, requires_grad=True)
try:
    Bad2.apply(a, 2.0).sum().backward()
except RuntimeError as e:
    print('RuntimeError:', e)

# %% setup_context_style
import torch
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
Cube.apply(x).sum().backward()
print(x.grad)

# %% gradcheck_custom
import torch
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g

x = torch.randn(3, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Sq.apply, (x,)))

# %% calling_forward_directly_is_an_error
import torch
class Id(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g

try:
    Id()(torch.ones(1))
except RuntimeError as e:
    print('RuntimeError:', str(e).split('.')[0])

# %% backward_of_backward_chain
import torch
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2

x = torch.tensor([1.0, -2.0], requires_grad=True)
y = Double.apply(Double.apply(x).exp())
print(y.grad_fn.next_functions[0][0].name())
y.sum().backward()
print(x.grad)

# %% import_forms
from torch.autograd import Function
import torch.autograd.function as taf
import torch
print(Function is torch.autograd.Function, taf.Function is Function)
class Neg(Function):
    @staticmethod
    def forward(ctx, x):
        return -x

    @staticmethod
    def backward(ctx, g):
        return -g

x = torch.ones(3, requires_grad=True)
y = Neg.apply(x)
print(y, repr(y.grad_fn).split(' object')[0], type(y.grad_fn).__module__)
print(torch.autograd.grad(y.sum(), x))

# %% error_inside_backward
import torch
class Boom(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x + 1

    @staticmethod
    def backward(ctx, g):
        raise ValueError('no gradient for you')

x = torch.ones(2, requires_grad=True)
y = Boom.apply(x)
try:
    y.sum().backward()
except ValueError as e:
    print('caught', e)
print(x.grad)

# %% gradcheck_catches_a_wrong_backward
import torch
class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x

x = torch.tensor([0.5, 1.0], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Wrong.apply, (x,), raise_exception=False))
try:
    torch.autograd.gradcheck(Wrong.apply, (x,))
except RuntimeError as e:
    print(str(e).splitlines()[0])

# %% custom_function_in_a_module
import torch
import torch.nn as nn
class ClampGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g.clamp(-0.1, 0.1)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        return ClampGrad.apply(self.fc(x))

torch.manual_seed(0)
net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.5)
x = torch.randn(8, 4)
t = torch.randn(8, 1)
for step in range(3):
    opt.zero_grad()
    loss = ((net(x) - t) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, f'{loss.item():.4f}', net.fc.bias.grad)

# %% saved_output_and_retain_graph
import torch
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        r, = ctx.saved_tensors
        return g * r

x = torch.tensor([0.0, 1.0], requires_grad=True)
y = Exp.apply(x)
y.sum().backward(retain_graph=True)
y.sum().backward()
print(x.grad)

# %% tuple_forward_output
import torch
class Split2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1, x * 2

    @staticmethod
    def backward(ctx, ga, gb):
        return ga + 2 * gb

x = torch.ones(2)
a, b = Split2.apply(x)
print(a, b)
