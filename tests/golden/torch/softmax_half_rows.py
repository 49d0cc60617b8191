# %% softmax_log_softmax_half_rows_of_every_tail
import torch
torch.manual_seed(0)
for dt in [torch.float16, torch.bfloat16]:
    for n in [1, 5, 15, 16, 17, 40, 1000, 3000]:
        x = (torch.randn(37, n) * 3).to(dt)
        y = torch.softmax(x, dim=-1)
        z = torch.log_softmax(x, dim=-1)
        print(dt, n, y.float().sum().item(), z.float().sum().item())
        print(y[:2, -5:].tolist(), z[-2:, :5].tolist())

# %% softmax_half_4096x1024_and_3d
import torch
torch.manual_seed(1)
x = (torch.randn(4096, 1024) * 2).half()
y = torch.softmax(x, dim=1)
z = torch.nn.functional.log_softmax(x, dim=1)
print(y.float().sum().item(), z.float().sum().item(), y[0, :4], z[-1, -4:])
w = torch.randn(3, 7, 500).bfloat16()
print(torch.softmax(w, dim=-1)[1, 2, :6], torch.log_softmax(w, dim=2)[2, 6, -6:])
print(torch.nn.functional.cross_entropy(torch.randn(8, 300).half().float(), torch.arange(8)))
