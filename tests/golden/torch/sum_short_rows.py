# %% sum_mean_dim1_rows_16_to_512_floats
import torch, time
torch.manual_seed(0)
rows = []
for n in [16, 17, 40, 100, 255, 256, 300, 511, 512]:
    x = torch.randn(2000, n) * 10
    x[0, :] = -0.0
    x[1, 3] = float('nan')
    x[2, :5] = float('inf')
    y = x.sum(dim=1)
    print(n, y[:3].tolist(), y[3:9].tolist(), y.sum().item(), x.mean(dim=1)[5:8].tolist())
