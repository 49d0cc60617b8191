# %% linear_repr
import torch.nn as nn
print(nn.Linear(3, 10))
print(nn.Linear(4, 2, bias=False))

# %% linear_init_seeded
import torch
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 4)
print(lin.weight)
print(lin.bias)

# %% linear_init_large
import torch
from torch import nn
torch.manual_seed(42)
lin = nn.Linear(64, 128)
print(lin.weight[:2, :6].detach())
print(lin.bias[:8].detach())
print(lin.weight.sum().item(), lin.bias.sum().item())

# %% linear_attributes
import torch
import torch.nn as nn
lin = nn.Linear(5, 7)
print(lin.in_features, lin.out_features, lin.weight.shape, lin.bias.shape)
print(lin.weight.requires_grad, lin.weight.dtype, lin.weight.device)
print(nn.Linear(5, 7, bias=False).bias)

# %% linear_forward
import torch
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
x = torch.arange(6.).reshape(2, 3)
print(lin(x).detach())
print(lin(torch.ones(3)).detach())

# %% simple_nn_class
import torch
import torch.nn as nn
class SimpleNN(nn.Module):
    def __init__(self):
        super(SimpleNN, self).__init__()
        self.fc1 = nn.Linear(3, 10)
        self.fc2 = nn.Linear(10, 2)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = self.fc2(x)
        return x
torch.manual_seed(0)
model = SimpleNN()
print(model)
print(model(torch.ones(4, 3)).detach())

# %% sequential_repr_index
import torch.nn as nn
net = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
print(net)
print(net[0])
print(net[-1])
print(len(net))
print(net[1:])

# %% sequential_iter
import torch.nn as nn
net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1), nn.Sigmoid())
for layer in net:
    print(type(layer).__name__)

# %% sequential_index_error
import torch.nn as nn
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
net[5]

# %% nested_repr
import torch.nn as nn
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.1))
        self.norm = nn.LayerNorm(8)
    def forward(self, x):
        return self.norm(self.net(x))
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = nn.Linear(8, 3)
model = Model()
print(model)

# %% activation_reprs
import torch.nn as nn
print(nn.ReLU(), nn.Sigmoid(), nn.Tanh(), nn.Softmax(dim=1), nn.LogSoftmax(dim=-1))
print(nn.Dropout(), nn.Dropout(p=0.25), nn.Flatten(), nn.Identity(), nn.ReLU(inplace=True))
print(nn.LayerNorm(10), nn.LayerNorm([3, 4], eps=1e-6))
print(nn.LeakyReLU(), nn.LeakyReLU(0.2))

# %% loss_reprs
import torch.nn as nn
print(nn.MSELoss(), nn.L1Loss(), nn.CrossEntropyLoss(), nn.NLLLoss(), nn.BCELoss(), nn.BCEWithLogitsLoss())
print(nn.MSELoss(reduction='sum').reduction, nn.CrossEntropyLoss().ignore_index)

# %% modulelist_repr
import torch.nn as nn
layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
print(layers)
layers.append(nn.ReLU())
print(layers)
print(len(layers), layers[1])

# %% named_parameters
import torch.nn as nn
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
for name, p in net.named_parameters():
    print(name, tuple(p.shape), p.requires_grad)

# %% parameters_count
import torch.nn as nn
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
print(sum(p.numel() for p in model.parameters()))
print(len(list(model.parameters())))
print(len(list(model.parameters(recurse=False))))

# %% children_modules
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 2)
        self.seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
net = Net()
print([type(m).__name__ for m in net.children()])
print([type(m).__name__ for m in net.modules()])
print([n for n, _ in net.named_children()])
print([n for n, _ in net.named_modules()])

# %% shared_module_once
import torch.nn as nn
lin = nn.Linear(2, 2)
net = nn.Sequential(lin, nn.ReLU(), lin)
print(len(list(net.parameters())))
print([n for n, _ in net.named_parameters()])
print(len(list(net.modules())))

# %% parameter_repr
import torch
import torch.nn as nn
p = nn.Parameter(torch.ones(2, 2))
print(p)
q = nn.Parameter(torch.zeros(3), requires_grad=False)
print(q)
print(isinstance(p, nn.Parameter), isinstance(p, torch.Tensor), type(p).__name__)
print(isinstance(torch.ones(1), nn.Parameter))

# %% parameter_shares_storage
import torch
import torch.nn as nn
t = torch.zeros(3)
p = nn.Parameter(t)
t[0] = 5.0
print(p.data)
print((p * 2).detach(), type(p * 2).__name__)

# %% custom_parameter_registration
import torch
import torch.nn as nn
class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.alpha = nn.Parameter(torch.tensor(2.0))
        self.plain = torch.ones(2)
    def forward(self, x):
        return self.alpha * x
m = Scale()
print([n for n, _ in m.named_parameters()])
print(m(torch.tensor([1.0, 3.0])).detach())
print(m)

# %% missing_super_init
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)
Net()

# %% missing_super_init_param
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.ones(1))
Net()

# %% missing_attribute
import torch.nn as nn
lin = nn.Linear(2, 3)
lin.weights

# %% assign_tensor_to_param
import torch
import torch.nn as nn
lin = nn.Linear(2, 3)
lin.weight = torch.zeros(3, 2)

# %% del_submodule
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(1, 1)
        self.b = nn.ReLU()
net = Net()
del net.b
print(net)
print(hasattr(net, 'b'))

# %% train_eval
import torch.nn as nn
net = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))
print(net.training, net[1].training)
r = net.eval()
print(r is net, net.training, net[1].training)
net.train()
print(net.training, net[1].training)
net.train(False)
print(net[0].training)

# %% train_bad_mode
import torch.nn as nn
nn.Linear(1, 1).train('yes')

# %% state_dict_keys
import torch.nn as nn
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
sd = net.state_dict()
print(list(sd.keys()))
print(type(sd).__name__, len(sd))
print(sd['0.weight'].requires_grad, sd['2.bias'].shape)

# %% state_dict_repr
import torch
import torch.nn as nn
torch.manual_seed(0)
net = nn.Linear(2, 2)
print(net.state_dict())

# %% load_state_dict_roundtrip
import torch
import torch.nn as nn
torch.manual_seed(0)
a = nn.Linear(3, 2)
b = nn.Linear(3, 2)
print(torch.equal(a.weight, b.weight))
print(b.load_state_dict(a.state_dict()))
print(torch.equal(a.weight, b.weight), torch.equal(a.bias, b.bias))

# %% load_state_dict_missing
import torch.nn as nn
net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
sd = net.state_dict()
del sd['1.bias']
net.load_state_dict(sd)

# %% load_state_dict_unexpected
import torch
import torch.nn as nn
net = nn.Linear(2, 2)
sd = net.state_dict()
sd['extra'] = torch.ones(1)
net.load_state_dict(sd)

# %% load_state_dict_size_mismatch
import torch.nn as nn
a = nn.Linear(3, 2)
b = nn.Linear(4, 2)
b.load_state_dict(a.state_dict())

# %% load_state_dict_not_strict
import torch
import torch.nn as nn
net = nn.Linear(2, 2)
r = net.load_state_dict({'weight': torch.zeros(2, 2), 'junk': torch.ones(1)}, strict=False)
print(r.missing_keys, r.unexpected_keys)
print(net.weight.detach())

# %% to_dtype
import torch
import torch.nn as nn
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
r = net.double()
print(r is net, net[0].weight.dtype, type(net[0].weight).__name__, net[0].weight.requires_grad)
net.float()
print(net[0].weight.dtype)
net.half()
print(net[0].bias.dtype)
net.to(torch.float64)
print(net[0].bias.dtype)

# %% to_device_cpu
import torch
import torch.nn as nn
device = torch.device('cpu')
net = nn.Linear(2, 2)
w = net.weight
m = net.to(device)
print(m is net, net.weight.device, net.weight is w)
print(net.cpu() is net)

# %% to_int_dtype_error
import torch
import torch.nn as nn
nn.Linear(2, 2).to(torch.int64)

# %% zero_grad_no_grads
import torch.nn as nn
net = nn.Linear(2, 2)
net.zero_grad()
print(net.weight.grad)

# %% requires_grad_
import torch.nn as nn
net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
net.requires_grad_(False)
print([p.requires_grad for p in net.parameters()])
net[1].requires_grad_()
print([p.requires_grad for p in net.parameters()])

# %% apply_init
import torch
import torch.nn as nn
def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.zeros_(m.weight)
        nn.init.constant_(m.bias, 0.5)
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
net.apply(init_weights)
print(net[0].weight.detach())
print(net[2].bias.detach())

# %% init_functions
import torch
import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(3, 5)
nn.init.xavier_uniform_(w)
print(w)
nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu')
print(w)
nn.init.normal_(w, mean=1.0, std=0.1)
print(w)
nn.init.uniform_(w, -2, 2)
print(w)
nn.init.xavier_normal_(w)
print(w)
nn.init.ones_(w)
print(w)

# %% init_gain
import torch.nn as nn
print(nn.init.calculate_gain('relu'), nn.init.calculate_gain('tanh'), nn.init.calculate_gain('leaky_relu', 0.2))
print(nn.init.calculate_gain('sigmoid'), nn.init.calculate_gain('linear'))

# %% init_fan_error
import torch
import torch.nn as nn
nn.init.xavier_uniform_(torch.empty(3))

# %% buffers
import torch
import torch.nn as nn
class Norm(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('mean', torch.zeros(2))
        self.register_buffer('tmp', torch.ones(1), persistent=False)
        self.w = nn.Parameter(torch.ones(2))
m = Norm()
print([n for n, _ in m.named_buffers()])
print(list(m.state_dict().keys()))
m.double()
print(m.mean.dtype, m.w.dtype)

# %% torch_nn_attribute_access
import torch
print(torch.nn.Linear(1, 2))
print(torch.nn.functional is not None)
from torch.nn import Linear, ReLU
print(Linear(2, 1), ReLU())

# %% flatten_identity_forward
import torch
import torch.nn as nn
x = torch.arange(24.).reshape(2, 3, 4)
print(nn.Flatten()(x).shape, nn.Flatten(0, 1)(x).shape, nn.Identity()(x).shape)

# %% softmax_modules
import torch
import torch.nn as nn
x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
print(nn.Softmax(dim=1)(x))
print(nn.LogSoftmax(dim=1)(x))
print(nn.Sigmoid()(x))
print(nn.Tanh()(x))
print(nn.ReLU()(x - 2))

# %% dropout_eval_identity
import torch
import torch.nn as nn
d = nn.Dropout(0.5)
d.eval()
x = torch.ones(2, 3)
print(d(x))

# %% dropout_bad_p
import torch.nn as nn
nn.Dropout(1.5)

# %% layernorm_forward
import torch
import torch.nn as nn
ln = nn.LayerNorm(3)
x = torch.tensor([[1.0, 2.0, 4.0], [0.0, 0.0, 3.0]])
print(ln(x).detach())
print(ln.weight, ln.bias)

# %% dataparallel_cpu
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.DataParallel(nn.Linear(3, 1))
print(model)
print(model.module)
print(model(torch.ones(2, 3)).detach())
print([n for n, _ in model.named_parameters()])

# %% forward_not_implemented
import torch
import torch.nn as nn
class Empty(nn.Module):
    pass
Empty()(torch.ones(1))

# %% extra_repr_custom
import torch.nn as nn
class MyLayer(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k
        self.inner = nn.Linear(k, k)
    def extra_repr(self):
        return f'k={self.k}'
print(MyLayer(3))
print(nn.Sequential(MyLayer(2)))

# %% sequential_ordereddict
import torch.nn as nn
from collections import OrderedDict
net = nn.Sequential(OrderedDict([('fc1', nn.Linear(2, 4)), ('act', nn.ReLU()), ('fc2', nn.Linear(4, 1))]))
print(net)
print(net.fc1)
print([n for n, _ in net.named_parameters()])

# %% get_submodule
import torch.nn as nn
net = nn.Sequential(nn.Sequential(nn.Linear(1, 2)), nn.ReLU())
print(net.get_submodule('0.0'))
print(net.get_parameter('0.0.bias').shape)

# %% user_names_do_not_leak_into_nn
import torch
import torch.nn as nn
F = None
math = 3
init = 'x'
len = lambda x: -1
Parameter = 0
torch.manual_seed(0)
lin = nn.Linear(2, 2)
print(lin)
print(lin.weight.detach())
print(nn.Sequential(lin, nn.ReLU())[0] is lin)

# %% import_forms
import torch.nn as nn
from torch import nn as nn2, optim
from torch.utils.data import DataLoader, TensorDataset
import torch.utils.data
import torch.nn.functional as F
import torch.nn.init
import torch
print(nn is nn2, nn is torch.nn, optim is torch.optim, torch.utils.data.DataLoader is DataLoader)
print(torch.nn.init.zeros_ is nn.init.zeros_, F is nn.functional)
print(type(nn).__name__, nn.__name__, optim.__name__, torch.utils.data.__name__)

# %% module_type_names
import torch.nn as nn
print(type(nn.Linear(1, 1)), type(nn.Sequential()), type(nn.MSELoss()))
print(nn.Linear.__name__, nn.Module.__module__, isinstance(nn.ReLU(), nn.Module))
print(issubclass(nn.Linear, nn.Module))

# %% parameter_in_module_repr_and_sum
import torch
import torch.nn as nn
torch.manual_seed(0)
net = nn.Linear(4, 3)
print(sum(p.sum() for p in net.parameters()).item())
print(list(net.named_parameters())[0][1].shape)
