# %% not_initialized
import torch.distributed as dist
print(dist.is_available(), dist.is_initialized())
dist.get_rank()
# %% all_reduce_without_group
import torch
import torch.distributed as dist
dist.all_reduce(torch.ones(2))
# %% world_size_without_group
import torch.distributed as dist
dist.get_world_size()
# %% barrier_without_group
import torch.distributed as dist
dist.barrier()
# %% destroy_without_group
import torch.distributed as dist
dist.destroy_process_group()
# %% unknown_backend
import torch.distributed as dist
dist.init_process_group("foo", init_method="tcp://127.0.0.1:29599", rank=0, world_size=1)
# %% env_rendezvous_without_launcher
import torch.distributed as dist
dist.init_process_group("gloo")
# %% reduce_ops
import torch.distributed as dist
print(dist.ReduceOp.SUM, dist.ReduceOp.AVG, dist.ReduceOp.PRODUCT, dist.ReduceOp.MIN, dist.ReduceOp.MAX)
print(repr(dist.ReduceOp.SUM), repr(dist.ReduceOp.MAX))
print(dist.ReduceOp.SUM == dist.ReduceOp.SUM, dist.ReduceOp.SUM == dist.ReduceOp.MAX)
# %% ddp_without_group
import torch.nn as nn
nn.parallel.DistributedDataParallel(nn.Linear(2, 2))
# %% sampler_split_shuffled
from torch.utils.data import DistributedSampler
data = list(range(10))
for r in range(3):
    s = DistributedSampler(data, num_replicas=3, rank=r, seed=7)
    print(r, len(s), list(s))
# %% sampler_epochs
from torch.utils.data.distributed import DistributedSampler
data = list(range(23))
s = DistributedSampler(data, num_replicas=4, rank=1)
for epoch in range(3):
    s.set_epoch(epoch)
    print(epoch, list(s))
# %% sampler_no_shuffle_padding
from torch.utils.data import DistributedSampler
data = list(range(5))
for r in range(4):
    print(list(DistributedSampler(data, num_replicas=4, rank=r, shuffle=False)))
for r in range(8):
    print(list(DistributedSampler(data, num_replicas=8, rank=r, shuffle=False)))
# %% sampler_drop_last
from torch.utils.data import DistributedSampler
data = list(range(11))
for r in range(3):
    s = DistributedSampler(data, num_replicas=3, rank=r, drop_last=True, seed=3)
    print(len(s), s.total_size, list(s))
# %% sampler_digits_size
from torch.utils.data import DistributedSampler
import torch
data = list(range(1797))
s = DistributedSampler(data, num_replicas=4, rank=3, seed=42)
s.set_epoch(5)
idx = list(s)
print(len(idx), idx[:12], idx[-5:], sum(idx))
# %% sampler_bad_rank
from torch.utils.data import DistributedSampler
DistributedSampler(list(range(4)), num_replicas=2, rank=2)
# %% sampler_in_dataloader
import torch
from torch.utils.data import DataLoader, TensorDataset, DistributedSampler
ds = TensorDataset(torch.arange(12.), torch.arange(12))
s = DistributedSampler(ds, num_replicas=2, rank=1, seed=1)
for x, y in DataLoader(ds, batch_size=4, sampler=s):
    print(x, y)
