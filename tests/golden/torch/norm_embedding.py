# %% batchnorm2d_01_1_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
bn = nn.BatchNorm2d(3, momentum=0.1, affine=True, track_running_stats=True)
print(bn)
x = torch.randn(4, 3, 2, 2, requires_grad=True)
for _ in range(2):
    y = bn(x * 2 + 1)
print(y[0], bn.running_mean, bn.running_var, bn.num_batches_tracked)
(y * torch.arange(48.).reshape(4, 3, 2, 2)).sum().backward()
print(x.grad[1])
bn.eval()
print(bn(x)[2])

# %% batchnorm2d_05_1_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
bn = nn.BatchNorm2d(3, momentum=0.5, affine=True, track_running_stats=True)
print(bn)
x = torch.randn(4, 3, 2, 2, requires_grad=True)
for _ in range(2):
    y = bn(x * 2 + 1)
print(y[0], bn.running_mean, bn.running_var, bn.num_batches_tracked)
(y * torch.arange(48.).reshape(4, 3, 2, 2)).sum().backward()
print(x.grad[1])
bn.eval()
print(bn(x)[2])

# %% batchnorm2d_None_1_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
bn = nn.BatchNorm2d(3, momentum=None, affine=True, track_running_stats=True)
print(bn)
x = torch.randn(4, 3, 2, 2, requires_grad=True)
for _ in range(2):
    y = bn(x * 2 + 1)
print(y[0], bn.running_mean, bn.running_var, bn.num_batches_tracked)
(y * torch.arange(48.).reshape(4, 3, 2, 2)).sum().backward()
print(x.grad[1])
bn.eval()
print(bn(x)[2])

# %% batchnorm2d_01_0_1
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
bn = nn.BatchNorm2d(3, momentum=0.1, affine=False, track_running_stats=True)
print(bn)
x = torch.randn(4, 3, 2, 2, requires_grad=True)
for _ in range(2):
    y = bn(x * 2 + 1)
print(y[0], bn.running_mean, bn.running_var, bn.num_batches_tracked)
(y * torch.arange(48.).reshape(4, 3, 2, 2)).sum().backward()
print(x.grad[1])
bn.eval()
print(bn(x)[2])

# %% batchnorm2d_01_1_0
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
bn = nn.BatchNorm2d(3, momentum=0.1, affine=True, track_running_stats=False)
print(bn)
x = torch.randn(4, 3, 2, 2, requires_grad=True)
for _ in range(2):
    y = bn(x * 2 + 1)
print(y[0], bn.running_mean, bn.running_var, bn.num_batches_tracked)
(y * torch.arange(48.).reshape(4, 3, 2, 2)).sum().backward()
print(x.grad[1])
bn.eval()
print(bn(x)[2])

# %% batchnorm1d_2d
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
bn = nn.BatchNorm1d(4)
x = torch.randn(5, 4)
print(bn(x), bn.running_mean)
bn.eval()
print(bn(x))

# %% batchnorm1d_3d
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
bn = nn.BatchNorm1d(2)
x = torch.randn(3, 2, 4)
print(bn(x)[0], bn.running_var)

# %% batchnorm_state_dict
import torch
import torch.nn as nn
import torch.nn.functional as F
bn = nn.BatchNorm2d(2)
print(list(bn.state_dict().keys()))
print(bn.state_dict()['num_batches_tracked'])

# %% batchnorm_one_value
import torch
import torch.nn as nn
import torch.nn.functional as F
bn = nn.BatchNorm1d(3)
bn(torch.ones(1, 3))

# %% batchnorm_wrong_dim
import torch
import torch.nn as nn
import torch.nn.functional as F
bn = nn.BatchNorm2d(3)
bn(torch.ones(2, 3))

# %% batchnorm_in_sequential
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3), nn.ReLU())
print(m)
print(m(torch.randn(6, 4)))

# %% batchnorm_grad_fn
import torch
import torch.nn as nn
import torch.nn.functional as F
bn = nn.BatchNorm1d(2)
print(bn(torch.randn(3, 2)).grad_fn.name())

# %% embedding_basic
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
e = nn.Embedding(10, 3)
print(e)
i = torch.tensor([[1, 2, 4], [4, 3, 9]])
y = e(i)
print(y)
y.sum().backward()
print(e.weight.grad)

# %% embedding_padding
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
e = nn.Embedding(5, 2, padding_idx=0)
print(e, e.weight)
y = e(torch.tensor([0, 2, 0]))
print(y)
y.sum().backward()
print(e.weight.grad)

# %% embedding_padding_negative
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
e = nn.Embedding(5, 2, padding_idx=-1)
print(e, e.padding_idx)

# %% embedding_float_index
import torch
import torch.nn as nn
import torch.nn.functional as F
e = nn.Embedding(5, 2)
e(torch.tensor([1.]))

# %% embedding_out_of_range
import torch
import torch.nn as nn
import torch.nn.functional as F
e = nn.Embedding(5, 2)
e(torch.tensor([5]))

# %% embedding_params
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
e = nn.Embedding(4, 2)
print([(n, p.shape) for n, p in e.named_parameters()])

# %% dropout2d_train
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
d = nn.Dropout2d(0.5)
print(d)
print(d(torch.ones(2, 4, 2, 2)))

# %% dropout2d_eval
import torch
import torch.nn as nn
import torch.nn.functional as F
d = nn.Dropout2d(0.3)
d.eval()
print(d(torch.ones(1, 2, 1, 1)))

# %% dropout2d_p
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(3)
print(nn.Dropout2d(0.25)(torch.ones(1, 6, 1, 2)))

# %% dropout2d_bad_p
import torch
import torch.nn as nn
import torch.nn.functional as F
nn.Dropout2d(1.5)

# %% dropout2d_grad
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.ones(1, 3, 2, 2, requires_grad=True)
nn.Dropout2d()(x).sum().backward()
print(x.grad)

# %% embedding_from_pretrained
import torch
import torch.nn as nn
w = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
e = nn.Embedding.from_pretrained(w)
print(e, e(torch.tensor([2, 0])), e.weight.requires_grad)
e2 = nn.Embedding.from_pretrained(w, freeze=False)
print(e2.weight.requires_grad)

