# %% activations
import torch
import torch.nn.functional as F
x = torch.tensor([[-2., -0.5, 0., 0.5, 2.]], requires_grad=True)
for f in [F.relu, F.sigmoid, F.tanh, F.gelu, F.leaky_relu]:
    y = f(x)
    y.sum().backward()
    print(f.__name__, y, x.grad)
    x.grad = None
print(F.leaky_relu(x, 0.2), F.gelu(x, approximate='tanh'))
F.gelu(x, approximate='tanh').sum().backward()
print(x.grad)

# %% function_forms
import torch
import torch.nn.functional as F
x = torch.tensor([[-1., 0.5, 2.]], requires_grad=True)
print(torch.relu(x), torch.sigmoid(x), torch.tanh(x))
print(torch.softmax(x, 1), torch.log_softmax(x, dim=1))
print(x.relu(), x.softmax(1), x.log_softmax(-1))

# %% softmax_f
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
p = F.softmax(x, dim=1)
print(p, p.sum(1))
(p * torch.tensor([1., 2., 3.])).sum().backward()
print(x.grad)
lp = F.log_softmax(x, dim=0)
print(lp)
print(F.softmax(x, dim=-1, dtype=torch.float64))

# %% linear_2d
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(4, 3, requires_grad=True)
w = torch.randn(2, 3, requires_grad=True)
b = torch.randn(2, requires_grad=True)
y = F.linear(x, w, b)
print(y)
print(type(y.grad_fn).__name__, [type(n).__name__ for n, _ in y.grad_fn.next_functions])
y.pow(2).sum().backward()
print(x.grad, w.grad, b.grad, sep="\n")

# %% linear_shapes
import torch
import torch.nn.functional as F
torch.manual_seed(1)
w = torch.randn(2, 3, requires_grad=True)
b = torch.randn(2, requires_grad=True)
for shape in [(3,), (4, 3), (2, 2, 3)]:
    x = torch.randn(*shape, requires_grad=True)
    y = F.linear(x, w, b)
    z = F.linear(x, w)
    print(y.shape, type(y.grad_fn).__name__, type(z.grad_fn).__name__)
    (y.sum() + z.sum()).backward()
    print(x.grad)
print(w.grad, b.grad)

# %% linear_shape_error
import torch
import torch.nn.functional as F
F.linear(torch.randn(4, 5), torch.randn(2, 3), torch.randn(2))

# %% mse_loss
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 2, requires_grad=True)
t = torch.randn(3, 2)
for r in ['mean', 'sum', 'none']:
    l = F.mse_loss(x, t, reduction=r)
    print(r, l)
    l.sum().backward()
    print(x.grad)
    x.grad = None

# %% l1_loss
import torch
import torch.nn.functional as F
torch.manual_seed(1)
x = torch.randn(3, 2, requires_grad=True)
t = torch.randn(3, 2)
for r in ['mean', 'sum', 'none']:
    l = F.l1_loss(x, t, reduction=r)
    print(r, l)
    l.sum().backward()
    print(x.grad)
    x.grad = None

# %% cross_entropy
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(4, 3, requires_grad=True)
t = torch.tensor([0, 2, 1, 2])
l = F.cross_entropy(x, t)
print(l)
l.backward()
print(x.grad)
print(F.cross_entropy(x, t, reduction='sum'), F.cross_entropy(x, t, reduction='none'))

# %% cross_entropy_weight_ignore
import torch
import torch.nn.functional as F
torch.manual_seed(2)
x = torch.randn(5, 4, requires_grad=True)
t = torch.tensor([0, 3, -100, 1, 3])
w = torch.tensor([1., 2., 0.5, 1.5])
l = F.cross_entropy(x, t, weight=w)
print(l)
l.backward()
print(x.grad)
print(F.cross_entropy(x, t, ignore_index=3), F.cross_entropy(x, torch.tensor([0, 3, 2, 1, 3]), ignore_index=3, reduction='none'))

# %% cross_entropy_label_smoothing
import torch
import torch.nn.functional as F
torch.manual_seed(3)
x = torch.randn(3, 4, requires_grad=True)
t = torch.tensor([1, 0, 3])
l = F.cross_entropy(x, t, label_smoothing=0.1)
print(l, type(l.grad_fn).__name__)
l.backward()
print(x.grad)
print(F.cross_entropy(x, t, label_smoothing=0.2, reduction='none'))

# %% cross_entropy_probs
import torch
import torch.nn.functional as F
torch.manual_seed(4)
x = torch.randn(3, 4, requires_grad=True)
p = torch.softmax(torch.randn(3, 4), dim=1)
l = F.cross_entropy(x, p)
print(l)
l.backward()
print(x.grad)
print(F.cross_entropy(x, p, reduction='none'))

# %% cross_entropy_nd
import torch
import torch.nn.functional as F
torch.manual_seed(5)
x = torch.randn(2, 3, 4, requires_grad=True)
t = torch.tensor([[0, 1, 2, 1], [2, 2, 0, 1]])
l = F.cross_entropy(x, t)
print(l)
l.backward()
print(x.grad)

# %% cross_entropy_1d
import torch
import torch.nn.functional as F
x = torch.tensor([1., 2., 0.5], requires_grad=True)
l = F.cross_entropy(x, torch.tensor(1))
print(l)
l.backward()
print(x.grad)

# %% cross_entropy_target_out_of_bounds
import torch
import torch.nn.functional as F
F.cross_entropy(torch.randn(2, 3), torch.tensor([0, 3]))

# %% cross_entropy_float_target_wrong_shape
import torch
import torch.nn.functional as F
F.cross_entropy(torch.randn(4, 3), torch.tensor([0., 1., 2., 1.]))

# %% cross_entropy_batch_mismatch
import torch
import torch.nn.functional as F
F.cross_entropy(torch.randn(4, 3), torch.tensor([0, 1]))

# %% nll_loss
import torch
import torch.nn.functional as F
torch.manual_seed(6)
x = torch.randn(3, 5, requires_grad=True)
lp = F.log_softmax(x, dim=1)
t = torch.tensor([1, 0, 4])
l = F.nll_loss(lp, t)
print(l)
l.backward()
print(x.grad)
print(F.nll_loss(lp, t, reduction='none'), F.nll_loss(lp, t, reduction='sum'))

# %% nll_loss_float_target_error
import torch
import torch.nn.functional as F
F.nll_loss(torch.randn(3, 2), torch.tensor([0., 1., 1.]))

# %% nll_loss_int32_target_error
import torch
import torch.nn.functional as F
F.nll_loss(torch.randn(3, 2), torch.tensor([0, 1, 1], dtype=torch.int32))

# %% binary_cross_entropy
import torch
import torch.nn.functional as F
torch.manual_seed(7)
p = torch.rand(4, requires_grad=True)
t = torch.tensor([0., 1., 1., 0.])
l = F.binary_cross_entropy(p, t)
print(l)
l.backward()
print(p.grad)
print(F.binary_cross_entropy(p, t, reduction='none'), F.binary_cross_entropy(p, t, weight=torch.tensor([1., 2., 3., 4.]), reduction='sum'))

# %% binary_cross_entropy_range_error
import torch
import torch.nn.functional as F
F.binary_cross_entropy(torch.tensor([0.5, 1.5]), torch.tensor([0., 1.]))

# %% bce_with_logits
import torch
import torch.nn.functional as F
torch.manual_seed(8)
x = torch.randn(2, 3, requires_grad=True)
t = torch.tensor([[0., 1., 1.], [1., 0., 0.5]])
l = F.binary_cross_entropy_with_logits(x, t)
print(l)
l.backward()
print(x.grad)
x.grad = None
l2 = F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.tensor([1., 2., 3.]), reduction='sum')
print(l2)
l2.backward()
print(x.grad)

# %% bce_with_logits_shape_error
import torch
import torch.nn.functional as F
F.binary_cross_entropy_with_logits(torch.randn(3), torch.randn(2))

# %% dropout_eval_and_p0
import torch
import torch.nn.functional as F
x = torch.ones(5)
print(F.dropout(x, 0.5, training=False) is x, F.dropout(x, 0.0) is x)
print(F.dropout(x, 1.0))

# %% dropout_mask_seeded
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.ones(20, requires_grad=True)
y = F.dropout(x, 0.5)
print(y)
y.sum().backward()
print(x.grad)
print(torch.rand(2))

# %% dropout_mask_seeded_2d
import torch
import torch.nn.functional as F
torch.manual_seed(1)
print(F.dropout(torch.ones(3, 8, dtype=torch.float64), 0.25))
torch.manual_seed(2)
print(F.dropout(torch.arange(10.), p=0.3))

# %% dropout_p_error
import torch
import torch.nn.functional as F
F.dropout(torch.ones(3), 1.5)

# %% layer_norm
import torch
import torch.nn.functional as F
torch.manual_seed(9)
x = torch.randn(2, 4, requires_grad=True)
w = torch.randn(4, requires_grad=True)
b = torch.randn(4, requires_grad=True)
y = F.layer_norm(x, (4,), w, b)
print(y)
(y * torch.arange(4.)).sum().backward()
print(x.grad, w.grad, b.grad, sep="\n")
print(F.layer_norm(x, [4]))

# %% layer_norm_shape_error
import torch
import torch.nn.functional as F
F.layer_norm(torch.randn(2, 3), (4,))

# %% one_hot
import torch
import torch.nn.functional as F
t = torch.tensor([0, 2, 1])
print(F.one_hot(t))
print(F.one_hot(t, num_classes=4))
print(F.one_hot(torch.tensor([[1, 0], [2, 2]]), 3))

# %% one_hot_errors
import torch
import torch.nn.functional as F
for args in [(torch.tensor([0., 1.]),), (torch.tensor([0, 5]), 3), (torch.tensor([-1, 1]),)]:
    try:
        F.one_hot(*args)
    except RuntimeError as e:
        print(e)

# %% reduction_error
import torch
import torch.nn.functional as F
F.mse_loss(torch.ones(2), torch.ones(2), reduction='avg')

# %% training_step_ce
import torch
import torch.nn.functional as F
torch.manual_seed(0)
w = torch.randn(4, 3, requires_grad=True)
b = torch.zeros(3, requires_grad=True)
x = torch.randn(6, 4)
t = torch.tensor([0, 1, 2, 0, 1, 2])
for step in range(4):
    loss = F.cross_entropy(F.linear(x, w.t(), b), t)
    loss.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
        b -= 0.5 * b.grad
        w.grad = None
        b.grad = None
    print(step, round(loss.item(), 4))

# %% relu_inplace_f
import torch
import torch.nn.functional as F
x = torch.tensor([-1., 2.])
y = F.relu(x, inplace=True)
print(y is x, x)

