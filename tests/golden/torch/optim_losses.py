# %% mse_loss_reductions
import torch
import torch.nn as nn
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
b = torch.tensor([[1.5, 2.0], [2.0, 6.0]])
print(nn.MSELoss()(a, b))
print(nn.MSELoss(reduction='sum')(a, b))
print(nn.MSELoss(reduction='none')(a, b))

# %% l1_loss_reductions
import torch
import torch.nn as nn
a = torch.tensor([1.0, -2.0, 3.0])
b = torch.tensor([0.5, 2.0, 3.0])
print(nn.L1Loss()(a, b))
print(nn.L1Loss(reduction='sum')(a, b))
print(nn.L1Loss(reduction='none')(a, b))

# %% cross_entropy_basic
import torch
import torch.nn as nn
logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3], [1.2, 0.2, 3.1]])
target = torch.tensor([0, 1, 2])
print(nn.CrossEntropyLoss()(logits, target))
print(nn.CrossEntropyLoss(reduction='sum')(logits, target))
print(nn.CrossEntropyLoss(reduction='none')(logits, target))

# %% cross_entropy_wrong_class
import torch
import torch.nn as nn
logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
print(nn.CrossEntropyLoss()(logits, torch.tensor([2, 0])))

# %% cross_entropy_seeded_batch
import torch
import torch.nn as nn
torch.manual_seed(0)
logits = torch.randn(8, 5)
target = torch.randint(0, 5, (8,))
print(target)
print(nn.CrossEntropyLoss()(logits, target))

# %% nll_loss_log_softmax
import torch
import torch.nn as nn
torch.manual_seed(1)
x = torch.randn(4, 3)
t = torch.tensor([2, 0, 1, 1])
logp = nn.LogSoftmax(dim=1)(x)
print(nn.NLLLoss()(logp, t))
print(nn.NLLLoss(reduction='none')(logp, t))

# %% bce_loss
import torch
import torch.nn as nn
p = torch.tensor([0.9, 0.2, 0.6, 0.4])
y = torch.tensor([1.0, 0.0, 1.0, 0.0])
print(nn.BCELoss()(p, y))
print(nn.BCELoss(reduction='sum')(p, y))

# %% bce_with_logits
import torch
import torch.nn as nn
z = torch.tensor([2.0, -1.0, 0.5, -0.3])
y = torch.tensor([1.0, 0.0, 1.0, 1.0])
print(nn.BCEWithLogitsLoss()(z, y))
print(nn.BCEWithLogitsLoss(reduction='none')(z, y))

# %% mse_model_output
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
x = torch.randn(5, 3)
y = torch.randn(5, 1)
loss = nn.MSELoss()(model(x), y)
print(f'{loss.item():.4f}')

# %% cross_entropy_model_output
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(4, 3)
x = torch.randn(6, 4)
y = torch.tensor([0, 1, 2, 2, 1, 0])
loss = nn.CrossEntropyLoss()(model(x), y)
print(f'{loss.item():.4f}')

# %% loss_reduction_attr
import torch.nn as nn
print(nn.MSELoss().reduction, nn.L1Loss(reduction='sum').reduction, nn.CrossEntropyLoss(reduction='none').reduction)
print(nn.MSELoss(size_average=False).reduction, nn.MSELoss(reduce=False).reduction)

# %% optimizer_repr_sgd
import torch
import torch.nn as nn
import torch.optim as optim
model = nn.Linear(2, 1)
print(optim.SGD(model.parameters(), lr=0.01))
print(optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4))

# %% optimizer_repr_adam
import torch.nn as nn
from torch import optim
model = nn.Linear(2, 1)
print(optim.Adam(model.parameters(), lr=0.001))
print(optim.AdamW(model.parameters()))

# %% param_groups
import torch.nn as nn
import torch.optim as optim
model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
opt = optim.SGD(model.parameters(), lr=0.05, momentum=0.5)
print(len(opt.param_groups), len(opt.param_groups[0]['params']))
print(sorted(opt.param_groups[0].keys()))
print(opt.param_groups[0]['lr'], opt.param_groups[0]['momentum'])
opt.param_groups[0]['lr'] = 0.01
print(opt.param_groups[0]['lr'])
print(opt.defaults['lr'])

# %% param_groups_per_layer
import torch.nn as nn
import torch.optim as optim
model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
opt = optim.SGD([{'params': model[0].parameters()}, {'params': model[1].parameters(), 'lr': 0.1}], lr=0.01, momentum=0.9)
for g in opt.param_groups:
    print(g['lr'], g['momentum'], len(g['params']))
print(opt)

# %% add_param_group
import torch
import torch.nn as nn
import torch.optim as optim
a = nn.Linear(2, 2)
b = nn.Linear(2, 1)
opt = optim.Adam(a.parameters(), lr=0.01)
opt.add_param_group({'params': b.parameters(), 'lr': 0.5})
print([g['lr'] for g in opt.param_groups], [g['betas'] for g in opt.param_groups])

# %% optimizer_errors_lr
import torch.nn as nn
import torch.optim as optim
optim.SGD(nn.Linear(1, 1).parameters(), lr=-1)

# %% optimizer_errors_empty
import torch.optim as optim
optim.SGD([], lr=0.1)

# %% optimizer_errors_nesterov
import torch.nn as nn
import torch.optim as optim
optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1, nesterov=True)

# %% optimizer_errors_betas
import torch.nn as nn
import torch.optim as optim
optim.Adam(nn.Linear(1, 1).parameters(), betas=(0.9, 1.0))

# %% optimizer_errors_duplicate_group
import torch.nn as nn
import torch.optim as optim
m = nn.Linear(1, 1)
opt = optim.SGD(m.parameters(), lr=0.1)
opt.add_param_group({'params': [m.weight]})

# %% optimizer_errors_tensor
import torch
import torch.optim as optim
optim.SGD(torch.ones(2, requires_grad=True), lr=0.1)

# %% optimizer_step_without_grads
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(0)
m = nn.Linear(2, 1)
before = m.weight.detach().clone()
opt = optim.Adam(m.parameters())
opt.zero_grad()
opt.step()
print(torch.equal(before, m.weight.detach()), len(opt.state))

# %% steplr_schedule
import torch.nn as nn
import torch.optim as optim
opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
sched = optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(6):
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr(), opt.param_groups[0]['lr'])
