# %% two_outputs_share_one_node
import torch
class SinCos(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin(), x.cos()

    @staticmethod
    def backward(ctx, gs, gc):
        x, = ctx.saved_tensors
        print('backward once', gs, gc)
        return gs * x.cos() - gc * x.sin()

x = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)
s, c = SinCos.apply(x)
print(s, c)
print(s.grad_fn is c.grad_fn, s.grad_fn == c.grad_fn, s.grad_fn.name())
print(repr(s.grad_fn).split(' object')[0], type(c.grad_fn).__name__)
print(s.requires_grad, c.requires_grad, s.is_leaf, c.is_leaf)
(s * 2 + c * 3).sum().backward()
print(x.grad)

# %% unused_output_gets_zeros
import torch
class Pair(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, ga, gb):
        print('ga', ga)
        print('gb', gb)
        return 2 * ga + 3 * gb

x = torch.ones(2, 2, requires_grad=True)
a, b = Pair.apply(x)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = Pair.apply(x)
b.mean().backward()
print(x.grad)

# %% materialize_grads_off_gives_none
import torch
class Pair(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, ga, gb):
        print('ga is None:', ga is None, 'gb is None:', gb is None)
        g = None
        if ga is not None:
            g = 2 * ga
        if gb is not None:
            g = 3 * gb if g is None else g + 3 * gb
        return g

x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b = Pair.apply(x)
b.sum().backward()
print(x.grad)
a, b = Pair.apply(x)
(a + b).sum().backward()
print(x.grad)

# %% mark_non_differentiable
import torch
class SortAbs(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = x.abs().sort()
        ranks = idx.float()
        ctx.mark_non_differentiable(ranks)
        ctx.save_for_backward(x, idx)
        return vals, ranks

    @staticmethod
    def backward(ctx, gv, gr):
        x, idx = ctx.saved_tensors
        print('grad for ranks', gr)
        g = torch.zeros_like(x)
        g[idx] = gv * x[idx].sign()
        return g

x = torch.tensor([-3.0, 1.0, -2.0], requires_grad=True)
v, r = SortAbs.apply(x)
print(v, r)
print(v.requires_grad, r.requires_grad, r.grad_fn, v.grad_fn.name())
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)

# %% integer_output_needs_no_grad
import torch
class MaxWithIndex(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        m, i = x.max(dim=0)
        ctx.save_for_backward(i)
        ctx.n = x.shape[0]
        return m, i

    @staticmethod
    def backward(ctx, gm, gi):
        i, = ctx.saved_tensors
        print('gi', gi)
        g = torch.zeros(ctx.n, *gm.shape)
        g.scatter_(0, i.unsqueeze(0), gm.unsqueeze(0))
        return g

x = torch.tensor([[1.0, 5.0], [4.0, 2.0]], requires_grad=True)
m, i = MaxWithIndex.apply(x)
print(m, i, m.requires_grad, i.requires_grad, i.grad_fn)
m.sum().backward()
print(x.grad)

# %% needs_input_grad_and_two_inputs
import torch
class AddSub(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + b, a - b

    @staticmethod
    def backward(ctx, gp, gm):
        print('needs', ctx.needs_input_grad)
        return gp + gm, gp - gm

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([10.0, 20.0])
p, m = AddSub.apply(a, b)
(p * 3 + m).sum().backward()
print(a.grad, b.grad)
b.requires_grad_()
p, m = AddSub.apply(a, b)
print(len(p.grad_fn.next_functions))
(p * m).sum().backward()
print(a.grad, b.grad)

# %% next_functions_name_the_output
import torch
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x + 1, x + 2

    @staticmethod
    def backward(ctx, g1, g2):
        return g1 + g2

x = torch.ones(3, requires_grad=True)
a, b = Two.apply(x)
ya = a * 2
yb = b * 2
print(ya.grad_fn.next_functions[0][0] is a.grad_fn, ya.grad_fn.next_functions[0][1])
print([(f.name(), k) for f, k in yb.grad_fn.next_functions if f is not None])
z = a + b
print([(f.name(), k) for f, k in z.grad_fn.next_functions])
print([(f.name(), k) for f, k in a.grad_fn.next_functions])
z.sum().backward()
print(x.grad)

# %% saved_outputs_and_retain_graph
import torch
class ExpBoth(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        e = x.exp()
        n = (-x).exp()
        ctx.save_for_backward(e, n)
        return e, n

    @staticmethod
    def backward(ctx, ge, gn):
        e, n = ctx.saved_tensors
        return ge * e - gn * n

x = torch.tensor([0.0, 1.0], requires_grad=True)
e, n = ExpBoth.apply(x)
loss = (e + n).sum()
loss.backward(retain_graph=True)
print(x.grad)
loss.backward()
print(x.grad)

# %% hooks_and_retain_grad_per_output
import torch
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1, x * 2

    @staticmethod
    def backward(ctx, g1, g2):
        return g1 + 2 * g2

x = torch.ones(2, requires_grad=True)
a, b = Two.apply(x)
a.retain_grad()
b.retain_grad()
b.register_hook(lambda g: print('hook on b', g))
a.register_hook(lambda g: print('hook on a', g))
(a * 5 + b * 7).sum().backward()
print(a.grad, b.grad, x.grad)

# %% autograd_grad_through_one_output
import torch
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x ** 2, x ** 3

    @staticmethod
    def backward(ctx, g2, g3):
        x = ctx.x
        return 2 * x * g2 + 3 * x ** 2 * g3

x = torch.tensor([1.0, 2.0], requires_grad=True)
ctx_x = x.detach()
class Two2(Two):
    @staticmethod
    def forward(ctx, x):
        ctx.x = x
        return x ** 2, x ** 3
sq, cu = Two2.apply(x)
print(torch.autograd.grad(cu.sum(), x, retain_graph=True))
print(torch.autograd.grad((sq + cu).sum(), x))
sq, cu = Two2.apply(x)
print(torch.autograd.grad(sq.sum(), [x, cu], allow_unused=True))

# %% wrong_number_of_grads_multi
import torch
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + b, a * b

    @staticmethod
    def backward(ctx, g1, g2):
        return g1

a = torch.ones(2, requires_grad=True)
try:
    s, p = Bad.apply(a, a)
    (s + p).sum().backward()
except RuntimeError as e:
    print('RuntimeError:', e)

# %% non_tensor_in_output_tuple
import torch
class WithCount(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, 7

    @staticmethod
    def backward(ctx, g, gcount):
        print('gcount', gcount)
        return g * 2

x = torch.ones(2, requires_grad=True)
y, n = WithCount.apply(x)
print(y, n, type(n).__name__)
y.sum().backward()
print(x.grad)

# %% gradcheck_multi_output
import torch
class SinCos(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin(), x.cos()

    @staticmethod
    def backward(ctx, gs, gc):
        x, = ctx.saved_tensors
        return gs * x.cos() - gc * x.sin()

x = torch.tensor([0.3, -1.2, 2.0], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(SinCos.apply, (x,)))

# %% no_grad_and_plain_inputs
import torch
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x + 1, x - 1

    @staticmethod
    def backward(ctx, g1, g2):
        return g1 + g2

a, b = Two.apply(torch.ones(2))
print(a.requires_grad, b.grad_fn)
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    a, b = Two.apply(x)
print(a.requires_grad, b.requires_grad)
out = Two.apply(x)
print(type(out).__name__, len(out))

# %% chained_multi_output_functions
import torch
class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.n = x.shape[0] // 2
        return x[:ctx.n].clone(), x[ctx.n:].clone()

    @staticmethod
    def backward(ctx, g1, g2):
        return torch.cat([g1, g2])

x = torch.arange(8.0, requires_grad=True)
a, b = Split.apply(x)
aa, ab = Split.apply(a)
ba, bb = Split.apply(b)
loss = (aa * 1 + ab * 2 + ba * 3 + bb * 4).sum()
loss.backward()
print(x.grad)
