# %% data_has_its_own_version_counter
import torch
w = torch.ones(3, requires_grad=True)
y = w * 2
d = y.data
d.add_(1)
print(y._version, d._version, y.data._version, y)
d[0:2].mul_(2)
print(y._version, d._version, y)

# %% writes_through_data_escape_the_inplace_check
import torch
w = torch.tensor([1., 2., 3.], requires_grad=True)
y = w * 2
z = (y * y).sum()
y.data.mul_(10)
z.backward()
print(w.grad)

# %% writes_through_detach_are_caught
import torch
w = torch.tensor([1., 2., 3.], requires_grad=True)
y = w * 2
z = (y * y).sum()
y.detach().mul_(10)
print(y._version)
try:
    z.backward()
except RuntimeError as e:
    print("RuntimeError", str(e).split(";")[0])

# %% sgd_by_hand_through_data
import torch
w = torch.tensor([1.0, -2.0], requires_grad=True)
for _ in range(3):
    loss = ((w - 3) ** 2).sum()
    loss.backward()
    w.data -= 0.1 * w.grad
    w.grad.zero_()
print(w, w._version)

# %% where_out_takes_tensors_only
import torch
c = torch.tensor([True, False, True])
x = torch.tensor([1., 2., 3.])
out = torch.zeros(3)
r = torch.where(c, x, x * 10, out=out)
print(r, out, r is out)
for f in [lambda: torch.where(c, x, 0., out=out), lambda: torch.where(c, 1, x, out=out)]:
    try:
        f()
    except TypeError as e:
        print("TypeError", e)
print(torch.where(c, x, 0.))
