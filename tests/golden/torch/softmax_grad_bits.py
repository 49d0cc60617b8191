# %% log_softmax_grad_last_dim
# The gradient's every bit: ATen's last-dim kernel (reduce_all's lane sums, SLEEF's exp, one
# fused multiply-subtract), rows shorter than, equal to and longer than a 16-lane vector.
# '.9g' is enough digits to tell every float32 apart.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
for shape in [(3, 7), (3, 16), (2, 33), (1, 100), (1, 1000)]:
    x = (torch.randn(*shape) * 3).requires_grad_()
    g = torch.randn(*shape)
    F.log_softmax(x, dim=-1).backward(g)
    print(shape, ' '.join(f'{v:.9g}' for v in x.grad.flatten().tolist()))

# %% softmax_grad_last_dim
import torch
torch.manual_seed(1)
for shape in [(3, 7), (3, 16), (2, 33), (1, 100), (1, 300)]:
    x = (torch.randn(*shape) * 3).requires_grad_()
    g = torch.randn(*shape)
    torch.softmax(x, dim=1).backward(g)
    print(shape, ' '.join(f'{v:.9g}' for v in x.grad.flatten().tolist()))

# %% log_softmax_grad_other_dim
# Over a dim that is not the last: whole 16-lane vectors of the dims after it take SLEEF's exp,
# the rest glibc's; the forward too.
import torch
import torch.nn.functional as F
torch.manual_seed(2)
for shape, dim in [((7, 5), 0), ((16, 5), 0), ((2, 16, 20), 1), ((1, 33, 37), 1), ((1, 100, 20), 1)]:
    x = (torch.randn(*shape) * 3).requires_grad_()
    g = torch.randn(*shape)
    y = F.log_softmax(x, dim=dim)
    y.backward(g)
    print(shape, dim, ' '.join(f'{v:.9g}' for v in y.flatten().tolist()))
    print(' '.join(f'{v:.9g}' for v in x.grad.flatten().tolist()))

# %% softmax_grad_other_dim
import torch
torch.manual_seed(3)
for shape in [(7, 5), (16, 5), (33, 5)]:
    x = (torch.randn(*shape) * 3).requires_grad_()
    g = torch.randn(*shape)
    torch.softmax(x, dim=0).backward(g)
    print(shape, ' '.join(f'{v:.9g}' for v in x.grad.flatten().tolist()))

# %% cross_entropy_grad_bits
# cross_entropy is log_softmax (last dim) then nll_loss: the logits' gradient bit for bit.
import torch
import torch.nn.functional as F
torch.manual_seed(4)
logits = torch.randn(64, 10, requires_grad=True)
target = torch.randint(0, 10, (64,))
F.cross_entropy(logits, target).backward()
print(' '.join(f'{v:.9g}' for v in logits.grad.flatten().tolist()))
x = torch.randn(8, 10, 3, requires_grad=True)
t = torch.randint(0, 10, (8, 3))
F.cross_entropy(x, t).backward()
print(' '.join(f'{v:.9g}' for v in x.grad.flatten().tolist()))
