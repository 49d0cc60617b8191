# %% mm_basic
import torch
a = torch.arange(6.).reshape(2, 3)
b = torch.arange(12.).reshape(3, 4)
print(a.mm(b))
print(torch.mm(a, b))
# %% matmul_operator
import torch
a = torch.tensor([[1., 2.], [3., 4.]])
print(a @ a, a @ torch.tensor([1., 1.]))
# %% matmul_vec_vec
import torch
v = torch.tensor([1., 2., 3.])
print(v @ v, torch.matmul(v, v))
# %% matmul_vec_mat
import torch
v = torch.tensor([1., 2.])
m = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
print(v @ m)
# %% matmul_int
import torch
a = torch.tensor([[1, 2], [3, 4]])
print(a @ a)
# %% bmm
import torch
a = torch.arange(12.).reshape(2, 2, 3)
b = torch.arange(12.).reshape(2, 3, 2)
print(torch.bmm(a, b))
print(a.bmm(b).shape)
# %% matmul_batched_broadcast
import torch
a = torch.arange(24.).reshape(2, 1, 3, 4)
b = torch.arange(20.).reshape(5, 4, 1)
r = a @ b
print(r.shape)
print(r[1, 4])
# %% matmul_batch_times_mat
import torch
a = torch.ones(3, 2, 4)
b = torch.arange(8.).reshape(4, 2)
print(torch.matmul(a, b))
# %% matmul_mat_times_batch_vec
import torch
a = torch.arange(6.).reshape(2, 3)
b = torch.ones(4, 3, 1)
print((a @ b).shape)
# %% matmul_transposed
import torch
a = torch.arange(6.).reshape(2, 3)
print(a @ a.T, a.t() @ a)
# %% dot_mv
import torch
print(torch.dot(torch.tensor([1., 2.]), torch.tensor([3., 4.])))
print(torch.mv(torch.eye(2), torch.tensor([5., 6.])))
# %% matmul_float64
import torch
a = torch.tensor([[0.1, 0.2], [0.3, 0.4]], dtype=torch.float64)
print(a @ a)
# %% matmul_random
import torch
torch.manual_seed(0)
a = torch.randn(4, 5)
b = torch.randn(5, 3)
print(a @ b)
# %% matmul_1d_batch
import torch
v = torch.tensor([1., 2., 3.])
b = torch.arange(18.).reshape(2, 3, 3)
print(v @ b, b @ v)
