# %% sgd_plain_steps
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(0)
model = nn.Linear(3, 2)
x = torch.randn(8, 3)
y = torch.randn(8, 2)
opt = optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
for step in range(3):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    print(step, f'{loss.item():.6f}')
print(model.weight)
print(model.bias)

# %% sgd_momentum
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(1)
model = nn.Linear(4, 1)
x = torch.randn(16, 4)
y = torch.randn(16, 1)
opt = optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
print(model.weight.detach())
print(model.bias.detach())
print(opt.state[model.weight]['momentum_buffer'])

# %% sgd_nesterov
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(2)
model = nn.Linear(4, 2)
x = torch.randn(10, 4)
y = torch.randn(10, 2)
opt = optim.SGD(model.parameters(), lr=0.05, momentum=0.8, nesterov=True)
for step in range(4):
    opt.zero_grad()
    nn.MSELoss()(model(x), y).backward()
    opt.step()
print(model.weight.detach())

# %% sgd_weight_decay_dampening
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(3)
model = nn.Linear(3, 3)
x = torch.randn(6, 3)
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.5, dampening=0.3, weight_decay=0.01)
for step in range(4):
    opt.zero_grad()
    (model(x) ** 2).mean().backward()
    opt.step()
print(model.weight.detach())
print(model.bias.detach())

# %% sgd_maximize
import torch
import torch.optim as optim
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
opt = optim.SGD([w], lr=0.1, maximize=True)
for _ in range(3):
    opt.zero_grad()
    (-(w ** 2).sum()).backward()
    opt.step()
print(w)

# %% adam_steps
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
x = torch.randn(32, 4)
y = torch.randn(32, 1)
opt = optim.Adam(model.parameters(), lr=0.01)
for step in range(5):
    opt.zero_grad()
    loss = nn.MSELoss()(model(x), y)
    loss.backward()
    opt.step()
    print(step, f'{loss.item():.6f}')
print(model[2].weight.detach())
print(model[2].bias.detach())

# %% adam_state
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = optim.Adam(model.parameters())
x = torch.randn(4, 2)
for _ in range(3):
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()
st = opt.state[model.weight]
print(sorted(st.keys()))
print(st['step'])
print(st['exp_avg'])
print(st['exp_avg_sq'])

# %% adam_weight_decay_amsgrad
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(4)
model = nn.Linear(3, 2)
x = torch.randn(8, 3)
y = torch.randn(8, 2)
opt = optim.Adam(model.parameters(), lr=0.05, weight_decay=0.1, amsgrad=True)
for step in range(4):
    opt.zero_grad()
    nn.L1Loss()(model(x), y).backward()
    opt.step()
print(model.weight.detach())
print(opt.state[model.weight]['max_exp_avg_sq'])

# %% adamw_steps
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(5)
model = nn.Linear(3, 2)
x = torch.randn(8, 3)
y = torch.tensor([0, 1, 1, 0, 1, 0, 0, 1])
opt = optim.AdamW(model.parameters(), lr=0.02)
for step in range(4):
    opt.zero_grad()
    loss = nn.CrossEntropyLoss()(model(x), y)
    loss.backward()
    opt.step()
    print(f'{loss.item():.6f}')
print(model.weight.detach())

# %% adam_maximize
import torch
import torch.optim as optim
w = torch.tensor([0.5, -0.5], requires_grad=True)
opt = optim.Adam([w], lr=0.1, maximize=True)
for _ in range(3):
    opt.zero_grad()
    (-(w ** 2).sum()).backward()
    opt.step()
print(w)

# %% zero_grad_sets_none
import torch
import torch.nn as nn
import torch.optim as optim
model = nn.Linear(2, 1)
opt = optim.SGD(model.parameters(), lr=0.1)
model(torch.ones(1, 2)).sum().backward()
print(model.weight.grad)
opt.zero_grad()
print(model.weight.grad, model.bias.grad)

# %% zero_grad_keep_tensors
import torch
import torch.nn as nn
import torch.optim as optim
model = nn.Linear(2, 1)
opt = optim.SGD(model.parameters(), lr=0.1)
model(torch.ones(1, 2)).sum().backward()
opt.zero_grad(set_to_none=False)
print(model.weight.grad, model.bias.grad)
model.zero_grad()
print(model.weight.grad)

# %% grad_accumulation
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(4, 2)
for i in range(2):
    model(x[2 * i:2 * i + 2]).sum().backward()
print(model.weight.grad)
opt.step()
print(model.weight.detach())

# %% lr_change_midway
import torch
import torch.optim as optim
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = optim.SGD([w], lr=0.1)
for step in range(4):
    if step == 2:
        for g in opt.param_groups:
            g['lr'] = 0.01
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
    print(step, w.detach())

# %% param_groups_lrs_step
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(6)
model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
opt = optim.SGD([{'params': model[0].parameters()}, {'params': model[1].parameters(), 'lr': 0.5}], lr=0.01)
x = torch.randn(3, 2)
opt.zero_grad()
model(x).sum().backward()
opt.step()
print(model[0].bias.detach())
print(model[1].bias.detach())

# %% step_with_closure
import torch
import torch.optim as optim
w = torch.tensor([3.0], requires_grad=True)
opt = optim.SGD([w], lr=0.25)
def closure():
    opt.zero_grad()
    loss = (w - 1) ** 2
    loss.sum().backward()
    return loss
for _ in range(3):
    print(opt.step(closure))
print(w)

# %% manual_grad_assignment
import torch
import torch.nn as nn
import torch.optim as optim
p = nn.Parameter(torch.tensor([1.0, 2.0]))
opt = optim.Adam([p], lr=0.1)
p.grad = torch.tensor([0.5, -1.0])
opt.step()
print(p)

# %% optimizer_state_dict
import torch
import torch.nn as nn
import torch.optim as optim
model = nn.Linear(2, 1)
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model(torch.ones(1, 2)).sum().backward()
opt.step()
sd = opt.state_dict()
print(sorted(sd.keys()))
print(sd['param_groups'][0]['params'], sd['param_groups'][0]['lr'])
print(sorted(sd['state'].keys()), sorted(sd['state'][0].keys()))

# %% steplr_training
import torch
import torch.optim as optim
w = torch.tensor([2.0], requires_grad=True)
opt = optim.SGD([w], lr=0.5)
sched = optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
for epoch in range(5):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
    sched.step()
    print(epoch, w.item(), sched.get_last_lr())

# %% double_model_sgd
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(7)
model = nn.Linear(3, 1).double()
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(5, 3, dtype=torch.float64)
for _ in range(3):
    opt.zero_grad()
    (model(x) ** 2).mean().backward()
    opt.step()
print(model.weight)
