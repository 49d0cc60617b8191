# %% defaults
import torch
s = torch.amp.GradScaler('cpu')
print(s.get_scale(), s.get_growth_factor(), s.get_backoff_factor(), s.get_growth_interval())
print(s.is_enabled(), s._get_growth_tracker())
print(s.state_dict())
print(type(s).__name__, torch.amp.GradScaler)

# %% scale_tensor
import torch
s = torch.amp.GradScaler('cpu', init_scale=1024.0)
loss = torch.tensor(0.5)
y = s.scale(loss)
print(y, y.dtype, s.get_scale())
print(s._scale, s._growth_tracker)
print(s.scale(torch.tensor([1.0, 2.0], dtype=torch.bfloat16)))
print(s.scale(torch.tensor(3.0, dtype=torch.float16)))

# %% scale_nested
import torch
s = torch.amp.GradScaler('cpu', init_scale=4.0)
out = s.scale([torch.tensor(1.0), (torch.tensor(2.0), torch.tensor([3.0]))])
print(type(out).__name__, out)

# %% scale_bad_type
import torch
s = torch.amp.GradScaler('cpu')
s.scale(3.0)

# %% custom_args_and_state_dict
import torch
s = torch.amp.GradScaler('cpu', init_scale=256.0, growth_factor=4.0, backoff_factor=0.25, growth_interval=10)
print(s.state_dict())
s.set_growth_factor(3.0)
s.set_backoff_factor(0.125)
s.set_growth_interval(7)
print(s.get_growth_factor(), s.get_backoff_factor(), s.get_growth_interval())
t = torch.amp.GradScaler('cpu')
t.load_state_dict(s.state_dict())
print(t.state_dict(), t.get_scale())

# %% growth_factor_assertion
import torch
torch.amp.GradScaler('cpu', growth_factor=1.0)

# %% backoff_factor_assertion
import torch
torch.amp.GradScaler('cpu', backoff_factor=1.0)

# %% disabled
import torch
s = torch.amp.GradScaler('cpu', enabled=False)
x = torch.tensor([1.0, 2.0])
print(s.scale(x) is x, s.get_scale(), s.is_enabled(), s.state_dict(), s._get_growth_tracker())
s.update()
print(s.get_scale())

# %% disabled_has_no_factors
import torch
s = torch.amp.GradScaler('cpu', enabled=False)
s.get_growth_factor()

# %% cuda_scaler_without_cuda_disables
import torch
s = torch.amp.GradScaler('cuda')
print(s.is_enabled(), s.get_scale())
x = torch.ones(2)
print(s.scale(x) is x)
t = torch.amp.GradScaler()
print(t.is_enabled())

# %% update_before_scale
import torch
s = torch.amp.GradScaler('cpu')
s.update()

# %% update_without_inf_checks
import torch
s = torch.amp.GradScaler('cpu')
s.scale(torch.tensor(1.0))
s.update()

# %% update_with_new_scale
import torch
s = torch.amp.GradScaler('cpu')
s.scale(torch.tensor(1.0))
s.update(1024.0)
print(s.get_scale())
s.update(torch.tensor(8.0))
print(s.get_scale())

# %% update_new_scale_int
import torch
s = torch.amp.GradScaler('cpu')
s.scale(torch.tensor(1.0))
s.update(3)

# %% step_before_scale
import torch
class Opt:
    param_groups = []
    def step(self):
        print('stepped')
s = torch.amp.GradScaler('cpu')
s.step(Opt())

# %% step_without_grads
import torch
class Opt:
    def __init__(self):
        self.param_groups = [{'params': [torch.ones(2)]}]
    def step(self):
        print('stepped')
s = torch.amp.GradScaler('cpu')
s.scale(torch.tensor(1.0))
s.step(Opt())

# %% unscale_without_grads_then_again
import torch
class Opt:
    def __init__(self):
        self.param_groups = [{'params': [torch.ones(2)]}]
    def step(self):
        print('stepped')
s = torch.amp.GradScaler('cpu')
s.scale(torch.tensor(1.0))
o = Opt()
s.unscale_(o)
print('once')
s.unscale_(o)

# %% disabled_step_calls_optimizer
import torch
class Opt:
    param_groups = []
    def step(self):
        print('stepped')
        return 7
s = torch.amp.GradScaler('cpu', enabled=False)
print(s.step(Opt()))

# %% closure_not_supported
import torch
class Opt:
    param_groups = []
    def step(self, closure=None):
        return 1
s = torch.amp.GradScaler('cpu')
s.scale(torch.tensor(1.0))
s.step(Opt(), closure=lambda: 0)

# %% deprecated_cuda_scaler
import torch
s = torch.cuda.amp.GradScaler()
print(s.is_enabled(), type(s).__name__)
print(torch.cuda.amp.GradScaler if False else 'ok')
