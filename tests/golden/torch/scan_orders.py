# %% cumsum_cumprod_float_lines_in_double
import torch
torch.manual_seed(0)
x = torch.randn(100000) * 3
c = x.cumsum(0)
print(c[-3:].tolist(), c[50000].item(), c.sum().item())
m = torch.randn(37, 300, dtype=torch.float64)
print(m.cumsum(1)[:, -1].tolist()[:4], m.cumsum(0)[-1].tolist()[:4], m.cumsum(dim=-2).dtype)
t = torch.rand(4, 50, 70) + 0.5
print(t.cumprod(1)[:, -1, :3].tolist(), t.cumsum(2)[1, 2, -3:].tolist(), t.cumsum(0)[-1, -1, -3:].tolist())
print(t.transpose(1, 2).cumsum(1)[0, -1, :3].tolist(), t.cumsum(1, dtype=torch.float64)[0, -1, :2].tolist())
print(torch.tensor([1., float('nan'), 2.]).cumsum(0), torch.tensor([3, 4, 5]).cumsum(0), torch.zeros(0, 3).cumsum(0).shape)
print(torch.tensor([[1e8, 1., -1e8, 0.5]]).cumsum(1), torch.tensor(2.5).cumsum(0))
