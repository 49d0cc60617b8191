# %% signbit_floats
import torch
x = torch.tensor([1.5, -2.0, 0.0, -0.0, float('inf'), float('-inf'), float('nan'), -float('nan')])
print(torch.signbit(x))
print(x.signbit())
print(x.double().signbit())
print(x.half().signbit())
print(x.bfloat16().signbit())

# %% signbit_negated_nan
import torch
n = torch.tensor([float('nan')])
print(torch.signbit(n), torch.signbit(-n), torch.signbit(n.neg()), torch.signbit(n.abs()))
print(torch.signbit(-torch.zeros(2, 2)))
print(torch.signbit(torch.zeros(3) * -1))

# %% signbit_integers_and_bool
import torch
print(torch.signbit(torch.tensor([-3, 0, 4])))
print(torch.signbit(torch.tensor([-3, 0, 4], dtype=torch.int32)))
print(torch.signbit(torch.tensor([0, 200], dtype=torch.uint8)))
print(torch.signbit(torch.tensor([True, False])))
print(torch.signbit(torch.tensor(-7)).dtype, torch.signbit(torch.tensor(-7)).shape)

# %% signbit_grad_and_views
import torch
x = torch.tensor([[-1.0, 2.0], [3.0, -0.0]], requires_grad=True)
s = x.signbit()
print(s, s.requires_grad, s.grad_fn)
print(x.t().signbit())
print(x[:, 1].signbit())
print(torch.where(x.detach().signbit(), -1.0, 1.0))

# %% signbit_empty_and_scalar
import torch
print(torch.signbit(torch.tensor([])))
print(torch.signbit(torch.tensor(-0.0)))
print(torch.ones(2, 0).signbit().shape)

# %% signbit_bfloat16_conversion_nans
import torch
n = float('nan')
a = torch.tensor([n] * 40)
print(torch.tensor(n).bfloat16().signbit(), torch.tensor([n]).bfloat16().signbit())
print(a[::2].bfloat16().signbit()[:3], a.reshape(8, 5).t().bfloat16().signbit()[0, :3])
print(a.reshape(8, 5)[:, :2].bfloat16().signbit()[0])
b = torch.zeros(3, dtype=torch.bfloat16); b.copy_(a[:3]); print(b.signbit())
b = torch.zeros(3, dtype=torch.bfloat16); b.copy_(a[::2][:3]); print(b.signbit())
print(torch.tensor([n]).double().bfloat16().signbit(), torch.tensor([n], dtype=torch.bfloat16).signbit())
print(torch.tensor([n]).bfloat16().float().signbit(), torch.tensor([n]).half().signbit())

# %% signbit_errors
import torch
for f in [lambda: torch.signbit(3.0), lambda: torch.signbit(), lambda: torch.signbit([1.0])]:
    try:
        f()
    except TypeError as e:
        print(e)
