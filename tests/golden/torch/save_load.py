# %% save_load_tensor
import torch
import torch.nn as nn
import torch.nn.functional as F
t = torch.arange(6.).reshape(2, 3)
torch.save(t, 'target/t17.pt')
u = torch.load('target/t17.pt')
print(u, u.dtype, torch.equal(t, u))

# %% save_load_dtypes
import torch
import torch.nn as nn
import torch.nn.functional as F
for t in [torch.tensor([1, -2]), torch.tensor([True, False]), torch.tensor([0.5], dtype=torch.float64), torch.tensor([1.5], dtype=torch.float16), torch.tensor(7, dtype=torch.int8)]:
    torch.save(t, 'target/x17.pt')
    print(torch.load('target/x17.pt'))

# %% save_load_state_dict
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
torch.save(m.state_dict(), 'target/m17.pt')
sd = torch.load('target/m17.pt')
print(type(sd).__name__, list(sd.keys()))
m2 = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
print(m2.load_state_dict(sd))
x = torch.randn(4, 3)
print(torch.equal(m(x), m2(x)))

# %% save_load_optimizer
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Linear(2, 2)
opt = torch.optim.Adam(m.parameters(), lr=0.01)
m(torch.randn(3, 2)).sum().backward()
opt.step()
torch.save({'model': m.state_dict(), 'opt': opt.state_dict(), 'epoch': 3}, 'target/ck17.pt')
ck = torch.load('target/ck17.pt')
print(ck['epoch'], ck['opt']['param_groups'])
print(ck['opt']['state'][0]['exp_avg'], ck['opt']['state'][1]['step'])
opt2 = torch.optim.Adam(m.parameters(), lr=0.5)
opt2.load_state_dict(ck['opt'])
print(opt2.param_groups[0]['lr'])

# %% save_load_containers
import torch
import torch.nn as nn
import torch.nn.functional as F
obj = {'a': [1, 2.5, 'x', None, True], 'b': (torch.ones(2), {3: 'three'})}
torch.save(obj, 'target/c17.pt')
print(torch.load('target/c17.pt'))

# %% save_load_requires_grad
import torch
import torch.nn as nn
import torch.nn.functional as F
w = torch.tensor([1., 2.], requires_grad=True)
torch.save(w, 'target/w17.pt')
v = torch.load('target/w17.pt')
print(v, v.requires_grad, v.is_leaf)

# %% save_load_parameter
import torch
import torch.nn as nn
import torch.nn.functional as F
p = nn.Parameter(torch.ones(2))
torch.save(p, 'target/p17.pt')
print(torch.load('target/p17.pt'))

# %% load_map_location_cpu
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.save(torch.ones(2), 'target/l17.pt')
print(torch.load('target/l17.pt', map_location='cpu'), torch.load('target/l17.pt', map_location=torch.device('cpu')))

# %% load_missing
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.load('no_such_file_17.pt')

# %% load_resume_training
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(8, 2)
y = torch.randn(8, 1)
for _ in range(2):
    opt.zero_grad(); F.mse_loss(m(x), y).backward(); opt.step()
torch.save({'m': m.state_dict(), 'o': opt.state_dict()}, 'target/r17.pt')
m2 = nn.Linear(2, 1)
opt2 = torch.optim.SGD(m2.parameters(), lr=0.1, momentum=0.9)
ck = torch.load('target/r17.pt')
m2.load_state_dict(ck['m']); opt2.load_state_dict(ck['o'])
for a, b in [(m, opt), (m2, opt2)]:
    b.zero_grad(); l = F.mse_loss(a(x), y); l.backward(); b.step()
    print(round(l.item(), 6), a.weight)


# %% save_shared_objects_load_shared
import torch
a = torch.ones(3)
w = torch.nn.Parameter(torch.zeros(2))
inner = [1, 2]
torch.save({'x': a, 'y': a, 'v': a[1:], 'p': [w, w], 'l': inner, 'm': {'again': inner}}, 'target/ds17_shared.pt')
d = torch.load('target/ds17_shared.pt')
print(d['x'] is d['y'], d['p'][0] is d['p'][1], d['l'] is d['m']['again'], type(d['p'][1]).__name__)
d['x'][1] = 5
d['l'].append(3)
print(d['y'], d['m'])
t = torch.arange(4.)
torch.save((t, t), 'target/ds17_shared2.pt')
u, v = torch.load('target/ds17_shared2.pt')
print(u is v, u)
