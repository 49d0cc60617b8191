# %% functional_dtypes_cpu_bf16
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(4, 3)
w = torch.randn(5, 3)
b = torch.randn(5)
t = torch.randint(0, 5, (4,))
with torch.autocast('cpu'):
    y = F.linear(x, w, b)
    print(y.dtype, F.linear(x, w).dtype)
    print(F.mse_loss(y, torch.zeros(4, 5)).dtype, F.l1_loss(y, y).dtype)
    print(F.cross_entropy(y, t).dtype, F.nll_loss(F.log_softmax(y, 1), t).dtype)
    print(F.softmax(y, 1).dtype, F.log_softmax(y, dim=1).dtype, F.relu(y).dtype)
    print(F.binary_cross_entropy_with_logits(y, torch.ones(4, 5)).dtype)
    print(F.binary_cross_entropy(torch.sigmoid(y), torch.ones(4, 5)).dtype)
print(x.dtype, w.dtype, b.dtype)

# %% functional_values_cpu_bf16
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(4, 3)
w = torch.randn(5, 3)
b = torch.randn(5)
t = torch.randint(0, 5, (4,))
with torch.autocast('cpu'):
    y = F.linear(x, w, b)
    loss = F.cross_entropy(y, t)
print(y)
print(loss)
print(F.mse_loss(y, torch.zeros(4, 5)))

# %% functional_float16_cpu
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3)
w = torch.randn(4, 3)
with torch.autocast('cpu', dtype=torch.float16):
    y = F.linear(x, w)
    print(y.dtype, F.mse_loss(y, y).dtype, F.softmax(y, 1).dtype)
print(y)

# %% autocast_grads_flow_to_float32_weights
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(4, 3)
w = torch.randn(2, 3, requires_grad=True)
b = torch.zeros(2, requires_grad=True)
with torch.autocast('cpu'):
    y = F.linear(x, w, b)
    loss = F.mse_loss(y, torch.ones(4, 2))
print(y.dtype, type(y.grad_fn).__name__, loss.dtype, type(loss.grad_fn).__name__)
loss.backward()
print(w.grad.dtype, b.grad.dtype)
print(w.grad)
print(b.grad)

# %% matmul_grad_fn_under_autocast
import torch
a = torch.ones(2, 2, requires_grad=True)
with torch.autocast('cpu'):
    c = a @ a
print(c.dtype, type(c.grad_fn).__name__, type(c.grad_fn.next_functions[0][0]).__name__)
c.sum().backward()
print(a.grad, a.grad.dtype)
