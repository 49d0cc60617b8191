# %% device_cpu
import torch
d = torch.device('cpu')
print(d, d.type, d.index, repr(d))
# %% device_cuda_index
import torch
d = torch.device('cuda:1')
print(d, d.type, d.index)
# %% device_cuda_two_args
import torch
d = torch.device('cuda', 0)
print(d, repr(d))
# %% device_equality
import torch
print(torch.device('cpu') == torch.device('cpu'), torch.device('cuda:0') == torch.device('cuda'), torch.device('cuda') == torch.device('cuda'))
# %% tensor_device
import torch
x = torch.zeros(2)
print(x.device, x.device.type, x.is_cuda, x.device == torch.device('cpu'))
# %% to_same_is_same
import torch
x = torch.zeros(2)
print(x.to('cpu') is x, x.to(torch.float32) is x, x.to(torch.device('cpu')) is x, x.cpu() is x)
# %% to_dtype_new
import torch
x = torch.zeros(2)
y = x.to(torch.float64)
print(y is x, y.dtype, y)
# %% to_other_tensor
import torch
x = torch.zeros(2)
y = torch.ones(1, dtype=torch.int32)
print(x.to(y))
# %% to_dtype_and_device
import torch
x = torch.arange(3)
print(x.to('cpu', torch.float32), x.to(device='cpu', dtype=torch.float16))
# %% to_copy_false_keyword
import torch
x = torch.zeros(2)
print(x.to('cpu', non_blocking=True) is x)
# %% float_same_is_same
import torch
x = torch.zeros(2)
print(x.float() is x, x.double() is x, x.long().long().dtype)
# %% device_kw_creation
import torch
x = torch.zeros(2, device='cpu')
y = torch.ones(2, device=torch.device('cpu'))
print(x.device, y.device)
# %% device_str
import torch
print(str(torch.device('cpu')), f"{torch.device('cuda:2')}")
# %% device_isinstance
import torch
print(isinstance(torch.device('cpu'), torch.device), type(torch.device('cpu')))
# %% dtype_attrs
import torch
print(torch.float32.is_floating_point, torch.int64.is_floating_point, torch.float16.itemsize)
# %% dtype_equality
import torch
print(torch.float == torch.float32, torch.long is torch.int64, torch.float32 != torch.float64)
# %% device_in_dict
import torch
d = {torch.device('cpu'): 1}
print(d[torch.device('cpu')])
# %% no_gpu_to_cuda
import torch
try:
    torch.ones(2).to("cuda")
except RuntimeError as e:
    print(e)
torch.zeros(3, device="cuda:0")
