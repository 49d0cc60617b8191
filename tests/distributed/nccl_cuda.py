# An "nccl" group on (virtual or real) CUDA devices: CUDA tensors all-reduce; a CPU tensor is
# refused as PyTorch's NCCL group refuses it.
import os
import torch
import torch.distributed as dist

dist.init_process_group("nccl")
rank = dist.get_rank()
dev = torch.device(f"cuda:{os.environ['LOCAL_RANK']}")
t = torch.arange(4.0, device=dev) * (rank + 1)
dist.all_reduce(t)
print(f"rank {rank}: {t.tolist()} on {t.device}")
try:
    dist.all_reduce(torch.ones(2))
except RuntimeError as e:
    print(f"rank {rank}: a CPU tensor: {e}")
dist.destroy_process_group()
