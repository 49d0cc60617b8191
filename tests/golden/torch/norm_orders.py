# %% norm_f32_columns_serial
import torch
torch.manual_seed(0)
x = torch.randn(3000, 40) * 1.7
print(x.norm(dim=0).tolist())
print(torch.linalg.vector_norm(x, 2, dim=0, keepdim=True).shape)

# %% norm_f32_rows_p1_p3
import torch
torch.manual_seed(1)
x = torch.randn(24, 3000)
print(x.norm(p=1, dim=1).tolist())
print(x.norm(p=3, dim=1).tolist())
print(x.norm(p=0.5, dim=1).tolist()[:6])

# %% norm_f32_middle_and_several_dims
import torch
torch.manual_seed(2)
x = torch.randn(300, 7, 50)
print(x.norm(dim=1).sum().item(), x.norm(dim=1)[:2, :5].tolist())
print(x.norm(dim=(0, 2)).tolist())
print(x.norm(p=1.5, dim=(0, 2)).tolist())
print(torch.linalg.vector_norm(x, -2, dim=(0, 1)).tolist()[:5])

# %% norm_f32_whole_tensor_chunks
import torch
torch.manual_seed(3)
x = torch.randn(100000)
print(x.norm(p=1).item(), x.norm(p=3).item(), x.norm().item())
y = torch.randn(300, 400)
print(y.T.norm().item(), y[:, ::2].norm().item(), y[:, ::2].norm(p=1).item())
print(torch.randn(40000).norm(p=1).item(), torch.randn(70001).norm(p=4).item())

# %% norm_f32_transposed_and_expanded
import torch
torch.manual_seed(4)
x = torch.randn(500, 30)
print(x.T.norm(dim=1).tolist()[:8])
print(x.T.norm(dim=0).tolist()[:8])
e = torch.randn(1, 20).expand(700, 20)
print(e.norm(dim=0).tolist()[:5], e.norm(p=1, dim=1).tolist()[:3])
print(x.T.contiguous().norm(p=1, dim=0).tolist()[:5])

# %% norm_inf_zero_nan
import torch
x = torch.tensor([[1., float('nan'), -3.], [0., -0., 2.], [float('inf'), 1., 0.]])
print(x.norm(p=float('inf'), dim=0), x.norm(p=float('inf'), dim=1))
print(x.norm(p=float('-inf'), dim=0), x.norm(p=float('-inf'), dim=1))
print(x.norm(p=0, dim=0), x.norm(p=0, dim=1), x.norm(p=0))
print(x.norm(p=float('inf')), x.norm(p=float('-inf')), x.norm(p=1, dim=1), x.norm(p=-1, dim=1))

# %% norm_single_and_empty
import torch
x = torch.tensor([[-1.5], [0.], [2.25]])
print(x.norm(p=3, dim=1), x.norm(p=0, dim=1), x.norm(p=0.3, dim=1, keepdim=True))
print(torch.tensor(-2.5).norm(), torch.tensor(-2.5).norm(p=0))
print(torch.zeros(0, 3).norm(dim=0), torch.zeros(0, 3).norm(p=-1, dim=0), torch.zeros(0).norm())

# %% norm_f64
import torch
torch.manual_seed(5)
d = torch.randn(1000, 100, dtype=torch.float64)
print(d.norm(dim=1).tolist()[:6])
print(d.norm(dim=0).tolist()[:6])
print(d.norm(p=1, dim=0).tolist()[:4], d.norm().item(), d.norm(p=3).item())

# %% norm_half_and_bfloat16
import torch
torch.manual_seed(6)
h = torch.randn(2000, 16).half()
print(h.norm(dim=0), h.norm(dim=1)[:6], h.norm(), h.norm(p=1, dim=0)[:4])
b = torch.randn(2000, 16).bfloat16()
print(b.norm(dim=0), b.norm(p=1, dim=0)[:4], b.norm(p=3, dim=1)[:4])

# %% norm_empty_without_identity
import torch
for p, d in [(float('inf'), 0), (float('-inf'), 0), (-1.5, 0), (-1, None), (-2, 1), (-0.5, (0,1))]:
    try:
        print(p, d, torch.zeros(0, 3).norm(p=p, dim=d))
    except Exception as e:
        print(type(e).__name__, e)
try:
    print(torch.linalg.vector_norm(torch.zeros(2, 0), ord=-1, dim=1))
except Exception as e:
    print(type(e).__name__, e)
print(torch.zeros(0, 3).norm(p=-1, dim=1))

# %% norm_sweep_dtypes_layouts_orders
import torch
torch.manual_seed(7)
shapes = [(37, 211), (1000, 9), (5, 64, 33), (3, 130, 2, 17), (70000,), (20, 3000), (2, 1, 40000)]
ps = [0, 1, 2, 3, float('inf'), float('-inf'), 0.5, -1, 1.7]
k = 0
for sh in shapes:
    x = torch.randn(*sh) * 2.3
    x[..., 0] = 0.0
    n = len(sh)
    views = [x]
    if n >= 2:
        views.append(x.transpose(0, n - 1))
        views.append(x.narrow(n - 1, 1, sh[-1] - 1))
    for v in views:
        dims_list = [None] + [(d,) for d in range(v.dim())]
        if v.dim() >= 3:
            dims_list.append((0, v.dim() - 1))
            dims_list.append((1, 2))
        for dims in dims_list:
            for p in ps:
                k += 1
                if k % 5:
                    continue
                for dt in [torch.float32, torch.float64, torch.float16]:
                    if dt != torch.float32 and k % 2:
                        continue
                    y = torch.linalg.vector_norm(v.to(dt), p, dims)
                    fl = y.flatten().tolist()
                    print(k, tuple(v.shape), dims, p, dt, len(fl), fl[:3], sum(fl[:50]))
