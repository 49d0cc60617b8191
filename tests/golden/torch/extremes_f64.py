# %% amax_amin_float64_and_float32_zeros_nans_layouts
import torch
torch.manual_seed(0)
for dt in [torch.float64, torch.float32]:
    for sh, d in [((10000, 100), 1), ((10000, 100), 0), ((100, 100, 100), (0, 2)), ((37, 5), 1), ((5, 37), 0), ((300, 7), 1), ((64, 70), 0)]:
        x = torch.randn(*sh, dtype=dt)
        x[x.abs() < 0.3] = 0.0
        x[(x > 0.28) & (x < 0.32)] = -0.0
        a = x.amax(dim=d); b = x.amin(dim=d)
        print(dt, sh, d, a.flatten().tolist()[:6], b.flatten().tolist()[-6:], a.sum().item(), b.sum().item())
        z = torch.where(x > 1.5, torch.zeros_like(x), -torch.zeros_like(x)) * (x.abs() < 2.5)
        print([str(v) for v in z.amax(dim=d).flatten().tolist()[:20]], [str(v) for v in z.amin(dim=d).flatten().tolist()[:20]])
        x[3 % sh[0], 1] = float('nan')
        print(x.amax(dim=d).isnan().sum().item(), x.max(dim=d).values.isnan().sum().item() if isinstance(d, int) else 0)
