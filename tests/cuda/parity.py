# The same programs on the CPU and on the GPU (`dev`), printed from the CPU: tests/cuda_parity.rs
# runs each case with dev = 'cpu' and dev = 'cuda' and compares the outputs (exactly on the
# host-backed test device, within a tolerance on a real card).
# %% elementwise_dtypes
import torch
for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32]:
    a = (torch.arange(20, dtype=torch.float64).reshape(4, 5) * 0.37 - 3).to(dt).to(dev)
    b = (torch.arange(5, dtype=torch.float64) * 1.25 + 1.5).to(dt).to(dev)
    print(dt, (a + b).cpu(), (a - b).cpu(), (a * b).cpu())
    print(torch.maximum(a, b).cpu(), torch.minimum(a, b).cpu(), (a == b).cpu(), (a < b).cpu())
    print((a // b).cpu(), (a % b).cpu(), torch.fmod(a, b).cpu())
# %% division_and_powers
import torch
a = torch.linspace(-3, 3, 12).reshape(3, 4).to(dev)
b = torch.tensor([0.5, -1.5, 2.0, 3.0]).to(dev)
print((a / b).cpu(), (a ** 2).cpu(), (2 ** b).cpu(), torch.pow(b.abs(), a).cpu())
print(torch.div(a, b, rounding_mode='trunc').cpu(), torch.div(a, b, rounding_mode='floor').cpu())
i = torch.arange(-6, 6).reshape(3, 4).to(dev)
print((i // 4).cpu(), (i % 4).cpu(), (i & 3).cpu(), (i | 8).cpu(), (i ^ 5).cpu(), (i / 4).cpu())
# %% broadcast_and_views
import torch
x = torch.arange(24.).reshape(2, 3, 4).to(dev)
y = torch.arange(4.).to(dev)
z = torch.arange(3.).reshape(3, 1).to(dev)
print((x + y).cpu(), (x * z).cpu(), (x.transpose(1, 2) - 1).cpu())
t = x.transpose(0, 2)
print((t + 1).stride(), (t + 1).cpu())
print((x[:, 1:, ::2] * 2).cpu(), (x[1] + x[0].t().t()).cpu())
print((x.permute(2, 0, 1) + x.permute(2, 0, 1)).is_contiguous())
# %% scalars
import torch
a = torch.tensor([[1.5, -2.0, 0.0], [4.0, 5.5, -6.25]]).to(dev)
print((a + 1).cpu(), (1 - a).cpu(), (a * 2.5).cpu(), (3 / a).cpu(), (a > 0).cpu(), (0 >= a).cpu())
h = a.half()
print((h * 0.1).cpu(), (h + 1e-3).cpu(), (h / 3).cpu())
i = torch.tensor([3, -7, 12]).to(dev)
print((i * 3).cpu(), (i + 2 ** 40).cpu(), (i - 2 ** 60).cpu(), (i == 12).cpu(), (-i).cpu())
# %% unary_math
import torch
x = torch.linspace(-2.5, 2.5, 11).to(dev)
p = torch.linspace(0.1, 4, 9).to(dev)
for f in [torch.neg, torch.abs, torch.exp, torch.sin, torch.cos, torch.tanh, torch.sigmoid,
          torch.relu, torch.floor, torch.ceil, torch.round, torch.trunc, torch.sign, torch.square]:
    print(f.__name__, f(x).cpu(), f(x.double()).cpu(), f(x.half()).cpu(), f(x.bfloat16()).cpu())
for f in [torch.sqrt, torch.rsqrt, torch.log, torch.log2, torch.log10, torch.log1p, torch.reciprocal]:
    print(f.__name__, f(p).cpu(), f(p.double()).cpu(), f(p.half()).cpu())
i = torch.tensor([-3, 0, 5]).to(dev)
print(torch.abs(i).cpu(), torch.neg(i).cpu(), torch.relu(i).cpu(), torch.sign(i).cpu(), torch.square(i).cpu())
print(torch.isnan(torch.tensor([1.0, float('nan')]).to(dev)).cpu(), (~(i > 0)).cpu(), torch.logical_not(i).cpu())
# %% casts
import torch
v = torch.tensor([-1.7, 0.0, 0.5, 2.5, 300.0, 1e20, float('nan'), float('inf')]).to(dev)
for dt in [torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.int8, torch.uint8, torch.bool]:
    print(dt, v.to(dt).cpu())
b = torch.tensor([True, False, True]).to(dev)
for dt in [torch.float32, torch.int64, torch.uint8, torch.float16]:
    print(dt, b.to(dt).cpu(), b.to(dt).to(torch.bool).cpu())
m = torch.arange(6.).reshape(2, 3).to(dev).t()
print(m.half().stride(), m.half().cpu(), m.int().is_contiguous())
# %% reductions
import torch
x = (torch.arange(60, dtype=torch.float64).reshape(3, 4, 5) * 0.77 % 5 - 2).to(dev)
for dt in [torch.float32, torch.float64, torch.float16, torch.int64]:
    y = x.to(dt)
    print(dt, y.sum().cpu(), y.sum(1).cpu(), y.sum((0, 2), keepdim=True).cpu())
    print(y.amax(2).cpu(), y.amin((0, 1)).cpu(), y.prod(0).cpu() if dt != torch.float16 else '')
    print(y.max().cpu(), y.min().cpu(), y.argmax().cpu(), y.argmin(1).cpu())
    v, i = y.max(1)
    print(v.cpu(), i.cpu(), y.max(2, keepdim=True)[1].cpu())
print(x.float().mean().cpu(), x.float().mean(1).cpu(), x.float().mean((0, 2)).cpu())
b = x > 0
print(b.sum().cpu(), b.any().cpu(), b.all(1).cpu(), torch.tensor([[1, 2], [3, 4]]).to(dev).sum(0).cpu())
print(x.transpose(0, 2).sum(0).cpu(), x[:, ::2].amax(1).cpu())
print(torch.tensor([1.0, float('nan'), 3.0]).to(dev).max().cpu(), torch.tensor([2.0, float('nan')]).to(dev).argmax().cpu())
print(torch.tensor([3.0, 1.0, 3.0, 1.0]).to(dev).argmax().cpu(), torch.tensor([3.0, 1.0, 3.0, 1.0]).to(dev).argmin().cpu())
# %% softmax
import torch
x = torch.linspace(-4, 4, 24).reshape(2, 3, 4).to(dev)
for d in [0, 1, 2, -1]:
    print(torch.softmax(x, d).cpu(), torch.log_softmax(x, d).cpu())
print(torch.softmax(x.half(), -1).cpu(), torch.log_softmax(x.double(), 1).cpu())
print(torch.softmax(x.transpose(0, 2), 0).cpu(), torch.softmax(torch.tensor([[1000.0, 0.0]]).to(dev), 1).cpu())
# %% matmul
import torch
a = (torch.arange(12.).reshape(3, 4) * 0.5 - 2).to(dev)
b = (torch.arange(20.).reshape(4, 5) * 0.25 - 1).to(dev)
print((a @ b).cpu(), (b.t() @ a.t()).cpu(), (a @ b[:, 1]).cpu(), (a[0] @ b[:, 2]).cpu())
print((a.double() @ b.double()).cpu(), (a.half() @ b.half()).cpu(), (a.bfloat16() @ b.bfloat16()).cpu())
x = torch.arange(24.).reshape(2, 3, 4).to(dev)
print(torch.bmm(x, x.transpose(1, 2)).cpu(), (x @ b).cpu(), (x @ x[0].t()).cpu())
print((a[:, ::2] @ b[::2]).cpu(), (torch.ones(3, 0).to(dev) @ torch.ones(0, 2).to(dev)).cpu())
i = torch.arange(6).reshape(2, 3).to(dev)
print((i @ i.t()).cpu())
# %% indexing
import torch
x = torch.arange(20.).reshape(4, 5).to(dev)
idx = torch.tensor([3, 0, 3]).to(dev)
print(x[idx].cpu(), x[:, idx].cpu(), x[x > 7].cpu(), x[1:3, [0, 4]].cpu(), x[[0, 2], [1, 3]].cpu())
y = x.clone()
y[idx] = -1.0
y[:, 0] = torch.tensor([9., 8., 7., 6.]).to(dev)
y[y > 15] = 0
print(y.cpu())
z = torch.zeros(3, 4, dtype=torch.int64).to(dev)
z[[0, 2], 1:3] = 5
z[1] += torch.tensor([1, 2, 3, 4]).to(dev)
print(z.cpu(), x.half()[idx].cpu(), (x > 5)[idx].cpu())
# %% where_cat_stack
import torch
a = torch.arange(6.).reshape(2, 3).to(dev)
print(torch.where(a > 2, a, -a).cpu(), torch.where(a > 2, 1.0, 0.0).cpu(), torch.where(a < 4, a.half(), 0).cpu())
print(torch.cat([a, a * 2], 0).cpu(), torch.cat([a, a.t().t()], 1).cpu(), torch.stack([a, a], 2).cpu())
print(torch.clamp(a, 1, 4).cpu(), a.clamp(min=2.5).cpu(), torch.where(a > 1, a.int(), a.int() * 10).cpu())
# %% inplace_and_copies
import torch
x = torch.zeros(3, 4).to(dev)
x += 1
x[1].mul_(3)
x[:, 2].add_(torch.arange(3.).to(dev))
x.t()[0].sub_(5)
print(x.cpu())
y = torch.arange(12.).reshape(3, 4).to(dev)
y.copy_(y.t().reshape(3, 4))
print(y.cpu())
y[:, 1:].copy_(y[:, :3].clone())
print(y.cpu())
c = torch.empty(2, 3, dtype=torch.float16).to(dev)
c.copy_(torch.tensor([[1, 2, 3], [4, 5, 6]]))
print(c.cpu())
print(c.fill_(2.5).cpu())
print(c.zero_().cpu())
h = torch.ones(4, dtype=torch.int32).to(dev)
h.fill_(7)
h *= 3
print(h.cpu(), torch.ones(2, dtype=torch.bool).to(dev).fill_(False).cpu())
# %% creation_on_device
import torch
print(torch.zeros(2, 3, device=dev).cpu(), torch.ones(4, dtype=torch.int64, device=dev).cpu())
print(torch.full((2, 2), 3.5, device=dev).cpu(), torch.arange(5, device=dev).cpu(), torch.eye(3, device=dev).cpu())
torch.manual_seed(0)
print(torch.rand(3, device=dev).cpu(), torch.randn(2, 2, device=dev).cpu(), torch.randint(0, 10, (4,), device=dev).cpu())
print(torch.zeros_like(torch.ones(2, device=dev)).cpu(), torch.tensor([1, 2], device=dev).tolist(), torch.tensor(2.5, device=dev).item())
# %% autograd_mlp
import torch
torch.manual_seed(0)
w1 = torch.randn(4, 8, device=dev, requires_grad=True)
w2 = torch.randn(8, 3, device=dev, requires_grad=True)
x = torch.randn(5, 4, device=dev)
t = torch.tensor([0, 2, 1, 1, 0], device=dev)
for step in range(3):
    h = torch.relu(x @ w1)
    loss = torch.nn.functional.cross_entropy(h @ w2, t)
    loss.backward()
    with torch.no_grad():
        w1 -= 0.1 * w1.grad
        w2 -= 0.1 * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
    print(step, round(loss.item(), 4))
print(w1.cpu().sum().item() != 0, w2.grad.cpu())
# %% nn_training_loop
import torch
from torch import nn
torch.manual_seed(1)
model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1)).to(dev)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
x = torch.randn(32, 3).to(dev)
y = (x.sum(1, keepdim=True) > 0).float()
for epoch in range(5):
    opt.zero_grad()
    loss = nn.functional.binary_cross_entropy_with_logits(model(x), y)
    loss.backward()
    opt.step()
    print(epoch, f"{loss.item():.4f}")
with torch.no_grad():
    acc = ((model(x) > 0).float() == y).float().mean()
print(f"{acc.item():.4f}", next(model.parameters()).device.type)
# %% losses_and_layers
import torch
import torch.nn.functional as F
torch.manual_seed(3)
x = torch.randn(6, 4).to(dev)
t = torch.tensor([0, 3, 1, 1, 2, 0]).to(dev)
print(F.cross_entropy(x, t).cpu(), F.nll_loss(F.log_softmax(x, 1), t).cpu(), F.mse_loss(x, x * 0.5).cpu())
print(F.l1_loss(x, x.flip(0) if hasattr(x, 'flip') else x * 2).cpu(), F.gelu(x).cpu(), F.leaky_relu(x, 0.2).cpu())
print(F.layer_norm(x, (4,)).cpu(), F.one_hot(t, 4).cpu(), F.dropout(x, 0.0).cpu())
print(F.binary_cross_entropy(torch.sigmoid(x), (x > 0).float()).cpu(), F.linear(x, x[:3]).cpu())
# %% amp_autocast
import torch
a = (torch.arange(64.).reshape(8, 8) / 64).to(dev)
dt = 'cuda' if dev == 'cuda' else 'cpu'
half = torch.float16 if dev == 'cuda' else torch.bfloat16
with torch.autocast(device_type=dt, dtype=half):
    y = a @ a
    s = torch.softmax(y, 1)
    # CUDA's autocast lists softmax as float32; CPU's keeps it in the lower precision
    print(y.dtype == half, s.dtype == (torch.float32 if dev == 'cuda' else half), y.float().cpu().sum().item() > 0)
# %% half_linear_with_bias
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x, w, b = torch.randn(6, 5), torch.randn(3, 5), torch.randn(3)
for dt in [torch.float16, torch.bfloat16]:
    xs, ws, bs = x.to(dt).to(dev), w.to(dt).to(dev), b.to(dt).to(dev)
    print(F.linear(xs, ws, bs).cpu(), F.linear(xs[0], ws, bs).cpu())
    print(F.linear(xs, ws, bs[:1].expand(3)).cpu(), F.linear(xs, ws, bs + xs[:, :3]).cpu())
    g = torch.randn(4, 6, 3).to(dt).to(dev)
    print(g.sum(0).cpu(), g.sum((0, 1)).cpu(), g.amax(0).cpu(), g.mean(0).cpu())
# %% memory_statistics
import torch
if dev == 'cuda':
    torch.cuda.empty_cache()
    base = torch.cuda.memory_allocated()
    x = torch.ones(1000, device=dev)
    y = x * 2
    print(torch.cuda.memory_allocated() - base)
    del x, y
    print(torch.cuda.memory_allocated() - base)
else:
    print(8192)
    print(0)
# %% init_random_and_printing
import torch
from torch import nn
torch.manual_seed(0)
w = torch.empty(3, 4, device=dev)
nn.init.uniform_(w, -1, 1)
print(w.cpu())
nn.init.normal_(w)
print(w.cpu())
nn.init.kaiming_uniform_(w)
nn.init.zeros_(w[0])
print(w.cpu(), torch.randn_like(w).cpu(), torch.rand_like(w).cpu())
print(nn.Dropout(0.5)(torch.ones(8, device=dev)).cpu())
x = torch.arange(6., device=dev).reshape(2, 3)
print(x, x.t(), x.half(), x > 2)
print(x.tolist(), x[1, 2].item(), x.sum().item(), x.int().tolist(), (x > 2).tolist())
# %% dataloader_to_device
import torch
from torch.utils.data import TensorDataset, DataLoader
ds = TensorDataset(torch.arange(10.).reshape(5, 2), torch.arange(5))
for xb, yb in DataLoader(ds, batch_size=2, pin_memory=True):
    xb, yb = xb.to(dev, non_blocking=True), yb.to(dev)
    print((xb * 2).cpu(), yb.cpu(), xb.sum().item())
# %% sgd_momentum_scheduler
import torch
from torch import nn
torch.manual_seed(2)
m = nn.Linear(4, 2).to(dev)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
x = torch.randn(8, 4).to(dev)
y = torch.randn(8, 2).to(dev)
for i in range(4):
    opt.zero_grad()
    loss = nn.MSELoss()(m(x), y)
    loss.backward()
    opt.step()
    sched.step()
    print(i, f"{loss.item():.5f}", sched.get_last_lr())
print(m.weight.grad.cpu(), m.bias.detach().cpu())
# %% issue17_sort_scan_stats
import torch
x = (torch.arange(24, dtype=torch.float32).reshape(4, 6) * 0.37 % 2 - 1).to(dev)
x.requires_grad_(True)
v, i = x.sort(1, descending=True)
print(v.detach().cpu(), i.detach().cpu(), x.topk(2).indices.detach().cpu(), x.kthvalue(3, 0).values.detach().cpu(), x.argsort(0).detach().cpu())
print(x.cumsum(1).detach().cpu(), x.cumprod(0).detach().cpu(), x.var(1).detach().cpu(), x.std().detach().cpu(), x.norm(dim=0).detach().cpu(), x.logsumexp(1).detach().cpu())
(v.sum() + x.cumsum(1).sum() + x.var() + x.norm() + x.logsumexp(0).sum()).backward()
print(x.grad.detach().cpu())
print(torch.unique(x.detach().round()).detach().cpu(), torch.bincount((x.detach() * 3).abs().long().flatten()).detach().cpu(), torch.histc(x.detach(), 4).detach().cpu())
# %% issue17_gather_layout_einsum
import torch
x = torch.arange(12.).reshape(3, 4).to(dev)
idx = torch.tensor([[0, 3], [1, 1], [2, 0]]).to(dev)
print(x.gather(1, idx).detach().cpu(), torch.zeros(3, 4).to(dev).scatter_add(1, idx, torch.ones(3, 2).to(dev)).detach().cpu())
print(x.masked_fill(x > 5, -1.).detach().cpu(), x.flip(0).detach().cpu(), x.roll(1, 1).detach().cpu(), x.repeat(1, 2).detach().cpu(), x.tril().detach().cpu(), torch.diag(x).detach().cpu())
print(torch.einsum('ij,kj->ik', x, x).detach().cpu(), torch.lerp(x, x * 2, 0.5).detach().cpu(), torch.outer(x[0], x[1]).detach().cpu())
# %% issue17_conv_pool_norm_rnn
import torch
import torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Conv2d(1, 3, 3, padding=1), nn.BatchNorm2d(3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(3, 2, 2), nn.AvgPool2d(1), nn.AdaptiveAvgPool2d(1), nn.Flatten()).to(dev)
x = torch.linspace(-1, 1, 2 * 64).reshape(2, 1, 8, 8).to(dev)
y = m(x)
y.pow(2).sum().backward()
print(y.detach().cpu(), m[0].weight.grad.detach().cpu(), m[1].running_var.detach().cpu())
torch.manual_seed(0)
r = nn.LSTM(3, 4, batch_first=True).to(dev)
o, (h, c) = r(torch.linspace(-1, 1, 30).reshape(2, 5, 3).to(dev))
print(o.detach().cpu(), h.detach().cpu())
# %% svdvals_matrix_norms
import torch
A = torch.tensor([[1., 2., 0.], [3., 4., 1.]], device=dev, requires_grad=True)
s = torch.linalg.svdvals(A)
n = torch.linalg.matrix_norm(A, 'nuc') + torch.linalg.norm(A, 2)
n.backward()
print(s.detach().cpu(), n.detach().cpu(), A.grad.cpu())
# %% session12_signbit_addmm_svd_multi_output_function
import torch
x = torch.tensor([-1.5, -0.0, 0.0, 2.25, float('inf'), -float('inf')], device=dev)
print(torch.signbit(x).cpu(), x.round(decimals=1).cpu(), (x * 1.2345).round(decimals=2).cpu())
inp = torch.tensor([[1., 2.], [3., 4.]], device=dev, requires_grad=True)
m1 = torch.tensor([[1., 0., 2.], [0., 1., 1.]], device=dev, requires_grad=True)
m2 = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], device=dev, requires_grad=True)
y = torch.addmm(inp, m1, m2, beta=0.5, alpha=2.0)
y.sum().backward()
print(y.detach().cpu(), inp.grad.cpu(), m1.grad.cpu(), m2.grad.cpu())
A = torch.tensor([[3., 1., 0.], [1., 2., 1.]], device=dev, requires_grad=True)
U, S, Vh = torch.linalg.svd(A, full_matrices=False)
(S.sum() + (U @ torch.diag(S) @ Vh).sum()).backward()
print(S.detach().cpu(), A.grad.cpu(), (U @ torch.diag(S) @ Vh).detach().cpu(), (U.T @ U).round(decimals=4).detach().cpu(), U.abs().detach().cpu())
class SplitScale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * 2, a * a
    @staticmethod
    def backward(ctx, g1, g2):
        (a,) = ctx.saved_tensors
        return g1 * 2 + g2 * 2 * a
a = torch.tensor([1., -2., 3.], device=dev, requires_grad=True)
p, q = SplitScale.apply(a)
(p.sum() + (q * 3).sum()).backward()
print(p.detach().cpu(), q.detach().cpu(), a.grad.cpu(), p.grad_fn is q.grad_fn)
d = torch.arange(6., device=dev).reshape(2, 3).requires_grad_()
e = torch.diag_embed(d, offset=1)
(e * torch.arange(32., device=dev).reshape(2, 4, 4)).sum().backward()
print(e.detach().cpu(), d.grad.cpu(), [d] == [d])
