# %% basic_int
import torch
x = torch.arange(12).reshape(3, 4)
print(x[0], x[1, 2], x[-1], x[-1, -1])
# %% basic_slices
import torch
x = torch.arange(12).reshape(3, 4)
print(x[1:], x[:, 1:3], x[::2, ::3], x[:, -1])
# %% none_ellipsis
import torch
x = torch.arange(24).reshape(2, 3, 4)
print(x[None].shape, x[:, None].shape, x[..., 0].shape, x[..., None].shape, x[0, ..., 1])
# %% index_scalar_zero_dim
import torch
x = torch.arange(5)
print(x[2], x[2].shape, x[2].item())
# %% index_int_tensor
import torch
x = torch.arange(10) * 10
print(x[torch.tensor([0, 3, 3, -1])])
# %% index_list
import torch
x = torch.arange(10) * 10
print(x[[1, 2, 5]])
# %% index_2d_int_tensor
import torch
x = torch.arange(12).reshape(3, 4)
print(x[torch.tensor([2, 0])], x[:, torch.tensor([1, 3])])
# %% index_two_int_tensors
import torch
x = torch.arange(12).reshape(3, 4)
print(x[torch.tensor([0, 2]), torch.tensor([1, 3])])
# %% index_int_tensor_2d_shape
import torch
x = torch.arange(5) * 2
print(x[torch.tensor([[0, 1], [4, 3]])])
# %% bool_mask
import torch
x = torch.tensor([1.0, -2.0, 3.0, -4.0])
print(x[x > 0], x[x > 10])
# %% bool_mask_2d
import torch
x = torch.arange(6).reshape(2, 3)
print(x[x % 2 == 0], x[torch.tensor([True, False])])
# %% mask_assign
import torch
x = torch.tensor([1.0, -2.0, 3.0, -4.0])
x[x < 0] = 0
print(x)
# %% mask_assign_tensor
import torch
x = torch.zeros(4)
x[torch.tensor([True, False, True, False])] = torch.tensor([5.0, 6.0])
print(x)
# %% int_tensor_assign
import torch
x = torch.zeros(5)
x[torch.tensor([0, 2])] = 7
print(x)
x[[1, 3]] = torch.tensor([1.5, 2.5])
print(x)
# %% slice_assign
import torch
x = torch.zeros(3, 4)
x[1] = 1
x[:, 0] = torch.tensor([5., 6., 7.])
x[2, 1:3] = -1
print(x)
# %% assign_through_view
import torch
x = torch.zeros(2, 3)
v = x[1]
v[1] = 4
v += 1
print(x)
# %% assign_through_transpose
import torch
x = torch.zeros(2, 3)
x.t()[0] = 9
print(x)
# %% ellipsis_assign
import torch
x = torch.zeros(2, 2, 2)
x[..., 0] = 1
print(x)
# %% none_assign
import torch
x = torch.zeros(3)
x[None, 1:] = 2
print(x)
# %% advanced_copy_not_view
import torch
x = torch.arange(4)
y = x[torch.tensor([0, 1])]
y[0] = 100
print(x)
# %% neg_step_slice_list
import torch
x = torch.arange(6)
print(x[1:5:2].tolist(), x[-3:].tolist())
# %% index_tensor_scalar
import torch
x = torch.arange(5)
i = torch.tensor(3)
print(x[i])
# %% assign_broadcast_row
import torch
x = torch.zeros(2, 3)
x[:] = torch.tensor([1., 2., 3.])
print(x)
# %% bool_scalar_index
import torch
x = torch.arange(3)
print(x[True].shape, x[False].shape)
# %% mixed_slice_and_tensor
import torch
x = torch.arange(24).reshape(2, 3, 4)
print(x[1, :, torch.tensor([0, 3])])
# %% nonadjacent_advanced
import torch
x = torch.arange(24).reshape(2, 3, 4)
print(x[torch.tensor([0, 1]), :, torch.tensor([1, 2])].shape)
# %% inplace_add_through_index
import torch
x = torch.ones(3)
x[1] += 5
print(x)
# %% iadd_view_visible
import torch
x = torch.zeros(4)
y = x[1:3]
y.add_(1)
y += 2
print(x)
# %% zero_view
import torch
x = torch.ones(2, 2)
x[0].zero_()
print(x)
# %% fill_view
import torch
x = torch.zeros(2, 3)
x[:, 1].fill_(7)
print(x)
# %% mul_inplace_noncontig
import torch
x = torch.arange(6.).reshape(2, 3)
x.t().mul_(2)
print(x)
