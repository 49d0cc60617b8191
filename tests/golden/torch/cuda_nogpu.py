# %% is_available_false
import torch
print(torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.is_initialized())
# %% memory_stats_zero
import torch
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
print(torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved())
# %% current_device_no_driver
import torch
torch.cuda.current_device()
# %% get_device_name_no_driver
import torch
torch.cuda.get_device_name()
# %% get_device_properties_no_driver
import torch
torch.cuda.get_device_properties(0)
# %% synchronize_no_driver
import torch
torch.cuda.synchronize()
# %% set_device_no_driver
import torch
torch.cuda.set_device(0)
# %% set_device_negative_noop
import torch
print(torch.cuda.set_device(-1))
# %% empty_cache_and_seed_are_noops
import torch
print(torch.cuda.empty_cache(), torch.cuda.manual_seed(0), torch.cuda.manual_seed_all(1))
# %% memory_summary_without_gpu
import torch
torch.cuda.memory_summary()
# %% reset_peak_without_gpu
import torch
torch.cuda.reset_peak_memory_stats()
# %% fraction_no_driver
import torch
torch.cuda.set_per_process_memory_fraction(0.5)
# %% event_uninitialized
import torch
e = torch.cuda.Event(enable_timing=True)
print(e)
# %% event_record_no_driver
import torch
e = torch.cuda.Event(enable_timing=True)
e.record()
# %% oom_error_classes
import torch
print(torch.cuda.OutOfMemoryError is torch.OutOfMemoryError)
print(torch.OutOfMemoryError.__mro__)
print(torch.AcceleratorError.__mro__)
print(issubclass(torch.OutOfMemoryError, RuntimeError))
# %% cudnn_flags
import torch
print(torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic)
torch.backends.cudnn.benchmark = True
torch.backends.cudnn.deterministic = True
print(torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic)
print(torch.backends.cuda.matmul.allow_tf32)
# %% pinned_on_cpu_tensor
import torch
print(torch.zeros(2).is_pinned())
# %% pin_memory_no_driver
import torch
torch.zeros(2).pin_memory()
# %% cuda_method_no_driver
import torch
torch.zeros(2).cuda()
# %% to_cuda_non_blocking_no_driver
import torch
torch.zeros(2).to('cuda', non_blocking=True)
# %% randn_cuda_no_driver
import torch
torch.randn(2, device='cuda')
# %% is_cuda_false
import torch
print(torch.zeros(2).is_cuda, torch.zeros(2).numpy())
# %% mps_absent_device_pick
import torch
print(torch.backends.mps.is_available(), torch.backends.mps.is_built())
device = "cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu"
print(device, torch.ones(2).to(device).device)
# %% dunder_class_of_native_objects
import torch
x = torch.ones(2, requires_grad=True)
y = x * 2
print(x.__class__, x.__class__.__name__, y.grad_fn.__class__.__name__, type(y.grad_fn).__name__)
print(torch.device("cpu").__class__, torch.float32.__class__)
