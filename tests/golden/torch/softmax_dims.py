# %% softmax_dim0_tall_bits
# softmax over a non-last dim: which positions ATen runs in 16-lane vectors (SLEEF's exp) and
# which one at a time (glibc's) follows its two-thread split of the 100 columns
import torch
torch.manual_seed(11)
x = torch.randn(10000, 100) * 3
y = torch.softmax(x, dim=0)
for r in [0, 1, 4999, 9999]:
    print(r, y[r].tolist())
print(y.sum(dim=0)[44:56].tolist())

# %% log_softmax_dim0_tall_bits
import torch
torch.manual_seed(12)
x = torch.randn(10000, 100) * 3
y = torch.log_softmax(x, dim=0)
for r in [0, 7777]:
    print(r, y[r].tolist())

# %% softmax_middle_dim_ragged_rows_bits
# rows of 37 positions: vectors that start mid-row, and chunk ends that cut a row
import torch
torch.manual_seed(13)
x = torch.randn(3, 1000, 37) * 2
for log in [False, True]:
    y = torch.log_softmax(x, dim=1) if log else torch.softmax(x, dim=1)
    print(log, y[:, :2, :].tolist())
    print(y[:, 999, :].tolist())

# %% softmax_other_dims_small
import torch
torch.manual_seed(14)
x = torch.randn(4, 3)
print(torch.softmax(x, dim=0))
print(torch.log_softmax(x, dim=0))
z = torch.randn(2, 5, 4, 1)
print(torch.softmax(z, dim=1).flatten().tolist())
print(torch.log_softmax(z, dim=1).flatten().tolist())
t = torch.randn(6, 20).t()
print(torch.softmax(t, dim=0)[:, :2].tolist())
print(torch.softmax(t, dim=1)[:3].tolist())
w = torch.randn(3, 40, 5, 2)
print(torch.softmax(w, dim=2)[1, 7].tolist(), torch.log_softmax(w, dim=0)[2, 39].tolist())

# %% softmax_other_dim_specials
import torch
x = torch.tensor([[1.0, float('nan'), float('-inf'), 0.0, float('inf')],
                  [2.0, 1.0, float('-inf'), -0.0, 1.0],
                  [3.0, 0.0, float('-inf'), 0.0, float('inf')]])
print(torch.softmax(x, dim=0))
print(torch.log_softmax(x, dim=0))
print(torch.softmax(torch.tensor([[-0.0], [0.0]]), dim=0), torch.log_softmax(torch.tensor([[-0.0]]), dim=0))
print(torch.softmax(torch.zeros(0, 3), dim=0).shape, torch.softmax(torch.zeros(3, 0), dim=0).shape)
print(torch.softmax(torch.randn(5, 3, dtype=torch.float64), dim=0).dtype)

# %% softmax_other_dim_grad_bits
# the backward over a non-last dim: sums down the dim in order, SLEEF's exp in whole vectors
import torch
torch.manual_seed(16)
for shape, dim in [((3000, 100), 0), ((3, 500, 37), 1), ((40, 130, 20), 1)]:
    x = torch.randn(*shape, requires_grad=True)
    g = torch.randn(*shape)
    for log in [False, True]:
        y = torch.log_softmax(x, dim=dim) if log else torch.softmax(x, dim=dim)
        (gx,) = torch.autograd.grad(y, x, g)
        print(shape, log, gx.flatten()[:40].tolist(), gx.flatten()[-40:].tolist())

# %% half_types
# float16/bfloat16 softmax runs in float32 and rounds each result once, as ATen's kernels do:
# the last-dim softmax and the other-dim log_softmax carry PyTorch's bits
import torch
torch.manual_seed(5)
for dt in (torch.float16, torch.bfloat16):
    for shape in ((7, 33), (4, 300), (2, 1000)):
        x = (torch.randn(*shape) * 4).to(dt)
        print(dt, shape, torch.softmax(x, 1).flatten().tolist())
    for shape, dim in (((3, 5, 17), 1), ((64, 40), 0), ((50, 3, 20), 0)):
        x = (torch.randn(*shape) * 4).to(dt)
        print(dt, shape, dim, torch.log_softmax(x, dim).flatten().tolist())
