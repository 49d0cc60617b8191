# %% topk_long_lane_ties
import torch
x = (torch.arange(400) * 37 % 23).float() - 11
x[5] = float('nan'); x[77] = -0.0; x[78] = 0.0; x[300] = float('nan')
for k in (1, 3, 10, 49, 50, 399, 400):
    v, i = x.topk(k)
    print(k, v[:12].tolist(), i[:12].tolist(), i[-5:].tolist())
    v, i = x.topk(k, largest=False)
    print(k, v[:12].tolist(), i[:12].tolist(), i[-5:].tolist())

# %% topk_rows_and_dims
import torch
x = (torch.arange(6 * 80) * 13 % 17).float().reshape(6, 80) * 0.5
print(x.topk(4, dim=1))
print(x.topk(2, dim=0, largest=False).indices[:, :20])
y = x.double().reshape(6, 8, 10)
print(y.topk(3, dim=1).indices[:, :, 0], y.topk(5, dim=2, largest=False).indices[0])

# %% topk_dtypes
import torch
base = torch.arange(200) * 29 % 31 - 15
for dt in (torch.int64, torch.int32, torch.int8, torch.float16, torch.bfloat16, torch.float64):
    x = base.to(dt)
    v, i = x.topk(6)
    w, j = x.topk(6, largest=False)
    print(dt, v.tolist(), i.tolist(), w.tolist(), j.tolist())
big = torch.tensor([2**53 + 1, 2**53, 2**53 + 1, -2**62, 2**62, 7] * 20)
print(big.topk(4), big.sort(descending=True, stable=True).indices[:8], big.kthvalue(3))

# %% sort_long_lane_ties
import torch
x = (torch.arange(300) * 7 % 11).float() - 5
x[10] = float('nan'); x[20] = -0.0; x[21] = 0.0; x[22] = float('-inf'); x[23] = float('inf')
print(x.sort(stable=True).indices.tolist())
print(x.sort(descending=True, stable=True).indices.tolist())
print(torch.argsort(x, stable=True)[:40].tolist())
print(x.double().sort(descending=True, stable=True).indices[:40].tolist())
for dt in (torch.float16, torch.bfloat16, torch.int8, torch.uint8, torch.bool):
    y = x.nan_to_num(3.0).clamp(-6, 6).to(dt)
    print(dt, y.sort().indices.tolist(), y.sort(descending=True).indices[:60].tolist())
m = x.nan_to_num(0.0).clamp(-6, 6).half().reshape(12, 25)
print(m.sort(dim=0).indices[:, :6], torch.argsort(m, dim=1, descending=True)[:3])
z = (torch.arange(40000) * 13 % 7).to(torch.int8)
print(z.sort().indices[:10].tolist(), z.sort(descending=True).indices[:10].tolist())

# %% kthvalue_long_lane
import torch
x = (torch.arange(500) * 41 % 19).float() - 9
x[3] = float('nan')
for k in (1, 2, 26, 250, 499, 500):
    print(k, x.kthvalue(k))
m = x.reshape(20, 25)
print(m.kthvalue(7, dim=1), m.kthvalue(3, dim=0, keepdim=True).indices)

# %% topk_grad
import torch
x = ((torch.arange(120) * 11 % 13).float() - 6).requires_grad_()
v, i = x.topk(5)
(v * torch.arange(5.)).sum().backward()
print(v.grad_fn.name(), i.tolist(), x.grad[i].tolist(), x.grad.sum())
