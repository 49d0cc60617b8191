# %% err_requires_grad_nonleaf_true
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.requires_grad_(True)
print(y.requires_grad)
y.requires_grad = True
print("ok")
y.requires_grad_(False)

# %% err_requires_grad_attr_int
import torch
x = torch.arange(3)
x.requires_grad = True

# %% err_grad_wrong_dtype
import torch
x = torch.tensor([1., 2.], requires_grad=True)
x.grad = torch.tensor([1, 2])

# %% err_grad_not_tensor
import torch
x = torch.tensor([1., 2.], requires_grad=True)
x.grad = 3

# %% err_retain_grad_no_grad
import torch
x = torch.tensor([1., 2.])
x.retain_grad()

# %% err_autograd_grad_not_requiring
import torch
x = torch.tensor([1., 2.], requires_grad=True)
u = torch.tensor([1., 2.])
torch.autograd.grad((x * 2).sum(), [u])

# %% err_autograd_grad_allow_unused
import torch
x = torch.tensor([1., 2.], requires_grad=True)
u = torch.tensor([1., 2.], requires_grad=True)
print(torch.autograd.grad((x * 2).sum(), [x, u], allow_unused=True))

# %% err_backward_under_no_grad
import torch
x = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    y = (x * 2).sum()
y.backward()

# %% err_backward_gradient_for_scalar
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).sum()
y.backward(torch.tensor(3.))
print(x.grad)

# %% err_inplace_leaf_view
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
x[0] = 5.

# %% err_inplace_leaf_methods
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
for f in [lambda: x.add_(1), lambda: x.zero_(), lambda: x.mul_(2), lambda: x.relu_(), lambda: x.copy_(torch.ones(3)), lambda: x.clamp_(0, 1)]:
    try:
        f()
    except RuntimeError as e:
        print(e)

# %% err_leaf_version_message
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
w = torch.tensor([1., 2., 3.])
y = x * w
w.add_(1)
y.sum().backward()

# %% grad_of_nonleaf_after_backward_twice_retain
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
y.retain_grad()
z = (y * y).sum()
z.backward(retain_graph=True)
z.backward()
print(y.grad, x.grad)

# %% no_grad_nested_and_is_enabled
import torch
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
    with torch.no_grad():
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
with torch.no_grad(), torch.enable_grad():
    print(torch.is_grad_enabled())

# %% no_grad_repr_types
import torch
print(type(torch.no_grad()).__name__, type(torch.enable_grad()).__name__, type(torch.inference_mode()).__name__)

# %% decorated_method_in_class
import torch
class M:
    def __init__(self):
        self.w = torch.tensor([1., 2.], requires_grad=True)
    @torch.no_grad()
    def predict(self, x):
        return self.w * x
m = M()
print(m.predict(torch.tensor([3., 4.])).requires_grad)

# %% detach_shares_storage_version
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
d = y.detach()
d.zero_()
try:
    y.sum().backward()
except RuntimeError as e:
    print("error:", str(e)[:60])

# %% item_and_float_of_requires_grad
import torch
x = torch.tensor([1.5], requires_grad=True)
y = (x * 2).sum()
print(y.item(), float(y), y.tolist(), f"{y.item():.2f}")
print(x.tolist())

# %% zero_grad_pattern
import torch
w = torch.tensor([1., 2.], requires_grad=True)
for i in range(2):
    loss = (w ** 2).sum()
    loss.backward()
    print(w.grad)
    w.grad = None
print(w.grad)

# %% grad_dtype_float64_leaf_from_float32_op
import torch
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
y = x.float() * 2
y.sum().backward()
print(x.grad)

# %% sum_to_size_grad_mixed
import torch
a = torch.ones(2, 1, 3, requires_grad=True)
b = torch.ones(4, 1, requires_grad=True)
(a * b).sum().backward()
print(a.grad.shape, b.grad.shape, a.grad.sum().item(), b.grad.sum().item())

# %% inference_tensor_saved_for_backward
import torch
w = torch.ones(3, requires_grad=True)
with torch.inference_mode():
    q = (w * 2).sum()
print(q.requires_grad)
print((q + w).grad_fn.name())
(q * w).sum()
