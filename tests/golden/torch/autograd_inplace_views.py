# %% inplace_on_view_of_nonleaf
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x * 1
v = y[0]
v.mul_(10)
print(y, v)
y.sum().backward()
print(x.grad)

# %% inplace_views_several
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x * 2
y[1].add_(5)
y.select(0, 0).mul_(3)
y.narrow(1, 1, 1).relu_()
print(y)
(y * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
print(x.grad)

# %% inplace_view_zero_breaks_saved_output
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
z = x.exp()
v = z[:, 0]
v.zero_()
print(z, v)
z.sum().backward()

# %% inplace_view_copy_and_iadd
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
b = x * 1
r = b[0]
r += 1
r.copy_(torch.tensor([5., 6.]))
print(b, r)
b.pow(2).sum().backward()
print(x.grad)

# %% inplace_view_column_scale
import torch
w = torch.tensor([[0.5, -1.], [2., 1.]], requires_grad=True)
h = w @ torch.tensor([[1., 0.], [1., 1.]])
h[:, 1] *= 3
loss = (h ** 2).sum()
loss.backward()
print(h, loss, w.grad)
