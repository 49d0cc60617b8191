# %% broadcast_add
import torch
torch.ones(2, 3) + torch.ones(4)
# %% broadcast_mul_3d
import torch
torch.ones(2, 3, 4) * torch.ones(3, 3, 1)
# %% mm_shape_mismatch
import torch
torch.mm(torch.ones(2, 3), torch.ones(2, 3))
# %% matmul_shape_mismatch
import torch
torch.ones(2, 3) @ torch.ones(4, 5)
# %% matmul_vec_mismatch
import torch
torch.ones(3) @ torch.ones(4)
# %% mm_not_2d
import torch
torch.mm(torch.ones(3), torch.ones(3, 2))
# %% bmm_not_3d
import torch
torch.bmm(torch.ones(2, 3), torch.ones(3, 2))
# %% bmm_batch_mismatch
import torch
torch.bmm(torch.ones(2, 2, 3), torch.ones(3, 3, 2))
# %% matmul_dtype_mismatch
import torch
torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64)
# %% matmul_0d
import torch
torch.tensor(1.0) @ torch.tensor(2.0)
# %% item_many
import torch
torch.ones(3).item()
# %% item_empty
import torch
torch.ones(0).item()
# %% index_out_of_range
import torch
torch.arange(5)[5]
# %% index_out_of_range_dim1
import torch
torch.zeros(2, 3)[0, 3]
# %% index_negative_out_of_range
import torch
torch.arange(5)[-6]
# %% too_many_indices
import torch
torch.zeros(2, 3)[0, 0, 0]
# %% index_0d
import torch
torch.tensor(1.0)[0]
# %% index_tensor_out_of_range
import torch
torch.arange(5)[torch.tensor([1, 7])]
# %% mask_shape_mismatch
import torch
torch.arange(5)[torch.tensor([True, False])]
# %% index_float_tensor
import torch
torch.arange(5)[torch.tensor([1.0])]
# %% index_str
import torch
torch.arange(5)['a']
# %% view_bad_size
import torch
torch.arange(6).view(4, 2)
# %% reshape_bad_size
import torch
torch.arange(6).reshape(5)
# %% view_two_minus_one
import torch
torch.arange(6).view(-1, -1)
# %% view_noncontiguous
import torch
torch.arange(6).reshape(2, 3).t().view(6)
# %% transpose_dim_range
import torch
torch.zeros(2, 3).transpose(0, 2)
# %% permute_wrong_len
import torch
torch.zeros(2, 3).permute(0)
# %% permute_repeated
import torch
torch.zeros(2, 3).permute(0, 0)
# %% unsqueeze_range
import torch
torch.zeros(2, 3).unsqueeze(3)
# %% sum_dim_range
import torch
torch.zeros(2, 3).sum(2)
# %% expand_bad
import torch
torch.zeros(2, 3).expand(3, 3)
# %% cat_shape_mismatch
import torch
torch.cat([torch.zeros(2, 3), torch.zeros(2, 4)])
# %% cat_empty_list
import torch
torch.cat([])
# %% stack_shape_mismatch
import torch
torch.stack([torch.zeros(2), torch.zeros(3)])
# %% bool_ambiguous
import torch
if torch.tensor([1, 2]):
    pass
# %% requires_grad_int
import torch
torch.tensor([1, 2], requires_grad=True)
# %% bad_device_string
import torch
torch.device('gpu')
# %% bad_device_string_to
import torch
torch.zeros(2).to('cud')
# %% device_bad_index
import torch
torch.device('cuda:x')
# %% mean_int
import torch
torch.arange(4).mean()
# %% inplace_float_into_int
import torch
x = torch.arange(3)
x += 1.5
# %% inplace_broadcast_out
import torch
x = torch.zeros(3)
x += torch.zeros(2, 3)
# %% setitem_shape_mismatch
import torch
x = torch.zeros(2, 3)
x[0] = torch.ones(4)
# %% tensor_ragged
import torch
torch.tensor([[1, 2], [3]])
# %% tensor_bad_type
import torch
torch.tensor('abc')
# %% zeros_negative
import torch
torch.zeros(-1)
# %% randint_bad_range
import torch
torch.randint(5, 2, (3,))
# %% len_0d
import torch
len(torch.tensor(3))
# %% iter_0d
import torch
for v in torch.tensor(3):
    pass
# %% cuda_tensor_no_cuda_numpy_error
import torch
torch.zeros(2, requires_grad=True).numpy()
# %% arange_bad_step
import torch
torch.arange(0, 5, 0)
# %% squeeze_dim_range
import torch
torch.zeros(2, 1).squeeze(3)
# %% where_shape
import torch
torch.where(torch.tensor([True, False]), torch.zeros(3), torch.zeros(3))
# %% softmax_dim_range
import torch
torch.zeros(2, 2).softmax(2)
# %% float_of_many
import torch
float(torch.zeros(2))
# %% flatten_dim_range
import torch
torch.ones(2, 3).flatten(2)
# %% size_dim_range
import torch
torch.ones(2, 3).size(5)
# %% cat_dim_range
import torch
torch.cat([torch.ones(2), torch.ones(2)], dim=1)
# %% bitwise_float
import torch
torch.tensor([1.0]) & torch.tensor([1.0])
# %% sub_bool
import torch
torch.tensor([True]) - torch.tensor([False])
# %% neg_bool
import torch
-torch.tensor([True])
# %% slice_0d
import torch
torch.tensor(2.0)[1:]
# %% int_of_many
import torch
int(torch.arange(3))
# %% bool_empty
import torch
bool(torch.zeros(0))
# %% clamp_no_bounds
import torch
torch.zeros(2).clamp()
# %% empty_negative
import torch
torch.empty(3, -1)
# %% randn_negative
import torch
torch.randn(-1, 2)
# %% rand_negative
import torch
torch.rand(2, -4)
