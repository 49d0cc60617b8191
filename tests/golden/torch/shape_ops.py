# %% view_reshape
import torch
x = torch.arange(12)
print(x.view(3, 4), x.reshape(2, -1), x.view((4, 3)).shape)
# %% view_shares_storage
import torch
x = torch.arange(6)
v = x.view(2, 3)
v[0, 0] = 100
print(x)
# %% reshape_noncontig_copies
import torch
x = torch.arange(6).reshape(2, 3).t()
y = x.reshape(6)
y[0] = -1
print(x, y)
# %% transpose_permute
import torch
x = torch.arange(24).reshape(2, 3, 4)
print(x.transpose(0, 2).shape, x.permute(2, 0, 1).shape, x.permute((1, 0, 2))[1])
# %% transpose_is_contiguous
import torch
x = torch.arange(6).reshape(2, 3)
print(x.is_contiguous(), x.t().is_contiguous(), x.t().contiguous().is_contiguous())
# %% T_2d
import torch
x = torch.arange(6).reshape(2, 3)
print(x.T, x.t())
# %% unsqueeze_squeeze
import torch
x = torch.arange(3)
print(x.unsqueeze(0).shape, x.unsqueeze(1).shape, x.unsqueeze(-1).shape)
y = torch.zeros(1, 3, 1)
print(y.squeeze().shape, y.squeeze(0).shape, y.squeeze(1).shape, y.squeeze(-1).shape)
# %% flatten
import torch
x = torch.arange(24).reshape(2, 3, 4)
print(x.flatten().shape, x.flatten(1).shape, x.flatten(0, 1).shape, torch.flatten(x, 1))
# %% contiguous_same
import torch
x = torch.arange(4)
print(x.contiguous() is x)
# %% expand
import torch
x = torch.tensor([[1], [2]])
print(x.expand(2, 3), x.expand(-1, 4).shape, x.expand(3, 2, 2).shape)
# %% expand_as
import torch
x = torch.tensor([1, 2, 3])
print(x.expand_as(torch.zeros(2, 3)))
# %% stride
import torch
x = torch.zeros(2, 3, 4)
print(x.stride(), x.transpose(0, 2).stride(), x.stride(1))
# %% view_after_transpose_reshape
import torch
x = torch.arange(6).reshape(2, 3).T
print(x.reshape(-1))
# %% cat_dims
import torch
a = torch.zeros(2, 2)
b = torch.ones(2, 2)
print(torch.cat([a, b]), torch.cat((a, b), dim=1))
# %% cat_promote
import torch
print(torch.cat([torch.tensor([1, 2]), torch.tensor([0.5])]))
# %% cat_neg_dim
import torch
a = torch.arange(4).reshape(2, 2)
print(torch.cat([a, a, a], -1))
# %% stack_dims
import torch
a = torch.tensor([1, 2])
b = torch.tensor([3, 4])
print(torch.stack([a, b]), torch.stack([a, b], dim=1), torch.stack((a, b), -1).shape)
# %% size_methods
import torch
x = torch.zeros(2, 3, 4)
print(x.size(), x.size(1), x.size(-1), x.shape[0], x.dim(), x.ndim, x.numel(), len(x))
# %% size_tuple_ops
import torch
s = torch.zeros(2, 3).shape
print(s == (2, 3), list(s), tuple(s), s[1], s[-1], len(s), s.numel())
# %% view_minus_one_3d
import torch
print(torch.arange(24).view(2, -1, 4).shape)
# %% clone_independent
import torch
x = torch.arange(3)
y = x.clone()
y[0] = 9
print(x, y)
# %% detach_shares
import torch
x = torch.arange(3.)
y = x.detach()
y[0] = 9
print(x)
# %% squeeze_noop
import torch
x = torch.zeros(2, 3)
print(x.squeeze(0).shape)
# %% permute_then_view_error_free
import torch
x = torch.arange(24).reshape(2, 3, 4).permute(1, 0, 2).contiguous()
print(x.view(6, 4)[:2])
# %% unbind_iter
import torch
x = torch.arange(6).reshape(3, 2)
for row in x:
    print(row)
# %% numel_zero
import torch
print(torch.zeros(3, 0, 2).numel(), torch.zeros(3, 0, 2).shape)
