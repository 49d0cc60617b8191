# %% seeded_randn
import torch
torch.manual_seed(0)
print(torch.randn(2, 3))
# %% shape_dtype_device
import torch
x = torch.zeros(2, 3)
print(x.shape, x.dtype, x.device, x.ndim, x.numel())
# %% broadcast_error
import torch
torch.ones(3) + torch.ones(4)
