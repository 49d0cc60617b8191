# %% scale_sequence_with_grads
import torch
w = torch.tensor([1.0, -2.0], requires_grad=True)
class Opt:
    def __init__(self, params):
        self.param_groups = [{'params': params}]
        self.steps = 0
    def step(self):
        self.steps += 1
opt = Opt([w])
s = torch.amp.GradScaler('cpu', init_scale=8.0, growth_interval=3)
for k in range(8):
    w.grad = None
    loss = (w * torch.tensor([3.0, 4.0])).sum()
    if k == 4:
        loss = loss * float('inf')
    s.scale(loss).backward()
    if k == 2:
        s.unscale_(opt)
        print('unscaled grad', w.grad)
    s.step(opt)
    s.update()
    print(k, s.get_scale(), s._get_growth_tracker(), opt.steps, w.grad)

# %% unscale_twice
import torch
w = torch.tensor([1.0], requires_grad=True)
class Opt:
    def __init__(self, params):
        self.param_groups = [{'params': params}]
    def step(self):
        pass
opt = Opt([w])
s = torch.amp.GradScaler('cpu')
s.scale((w * 2).sum()).backward()
s.unscale_(opt)
s.unscale_(opt)

# %% unscale_after_step
import torch
w = torch.tensor([1.0], requires_grad=True)
class Opt:
    def __init__(self, params):
        self.param_groups = [{'params': params}]
    def step(self):
        pass
opt = Opt([w])
s = torch.amp.GradScaler('cpu')
s.scale((w * 2).sum()).backward()
s.step(opt)
s.unscale_(opt)

# %% step_twice
import torch
w = torch.tensor([1.0], requires_grad=True)
class Opt:
    def __init__(self, params):
        self.param_groups = [{'params': params}]
    def step(self):
        pass
opt = Opt([w])
s = torch.amp.GradScaler('cpu')
s.scale((w * 2).sum()).backward()
s.step(opt)
s.step(opt)

# %% nan_grad_skips_step
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
class Opt:
    def __init__(self, params):
        self.param_groups = [{'params': params}]
        self.steps = 0
    def step(self):
        self.steps += 1
        return 'ret'
opt = Opt([w])
s = torch.amp.GradScaler('cpu')
(s.scale((w * float('nan')).sum())).backward()
print(s.step(opt), opt.steps)
s.update()
print(s.get_scale(), s.state_dict())
s.scale((w * 1.0).sum()).backward()
print(s.step(opt), opt.steps)

# %% fp16_grads_refused
import torch
w = torch.tensor([1.0, 2.0], dtype=torch.float16, requires_grad=True)
class Opt:
    def __init__(self, params):
        self.param_groups = [{'params': params}]
    def step(self):
        pass
s = torch.amp.GradScaler('cpu')
s.scale((w * 2).sum()).backward()
s.step(Opt([w]))

