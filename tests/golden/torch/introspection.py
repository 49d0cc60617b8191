# %% tensor_dir_dunders
# The special methods a tensor lists in dir(), as PyTorch lists them.
import torch
x = torch.tensor(1.)
print([n for n in dir(x) if n.startswith("__") and n.endswith("__")])

# %% callable_classes
# Classes implemented natively are callable, as in PyTorch (Tab completion adds `(`).
import torch
import torch.nn as nn
for obj in [torch.device, torch.no_grad, torch.enable_grad, torch.inference_mode, torch.set_grad_enabled, torch.autocast, torch.Size, torch.Tensor, nn.Parameter, torch.amp.GradScaler]:
    print(callable(obj))
print(callable(torch.float32), callable(torch.ones(1)), callable(torch.ones))

# %% memory_summary_without_gpu
import torch
torch.cuda.memory_summary()
