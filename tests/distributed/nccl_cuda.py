# An "nccl" group: on (virtual or real) CUDA devices the collectives run on NCCL; without a GPU
# the same script runs over the TCP transport, and must print the same values. A CPU tensor is
# refused as PyTorch's NCCL group refuses it.
import os
import torch
import torch.distributed as dist

dist.init_process_group("nccl")
rank = dist.get_rank()
world = dist.get_world_size()
cuda = torch.cuda.is_available()
dev = torch.device(f"cuda:{os.environ['LOCAL_RANK']}") if cuda else torch.device("cpu")

t = torch.arange(4.0, device=dev) * (rank + 1)
dist.all_reduce(t)
print(f"rank {rank}: sum {t.tolist()}")
if cuda:
    print(f"rank {rank}: on {t.device}")
for name, op in [("avg", dist.ReduceOp.AVG), ("max", dist.ReduceOp.MAX),
                 ("min", dist.ReduceOp.MIN), ("product", dist.ReduceOp.PRODUCT)]:
    u = torch.tensor([1.5, -2.0, 3.0], device=dev) + rank
    dist.all_reduce(u, op=op)
    print(f"rank {rank}: {name} {u.tolist()}")
i = torch.tensor([1, 2, 3], dtype=torch.int64, device=dev) * (rank + 1)
dist.all_reduce(i)
print(f"rank {rank}: int64 sum {i.tolist()}")
h = torch.tensor([0.1, 0.2], dtype=torch.float16, device=dev) * (rank + 1)
dist.all_reduce(h)
print(f"rank {rank}: float16 sum {h.tolist()}")
bf = torch.tensor([1.5, 2.25], dtype=torch.bfloat16, device=dev) * (rank + 1)
dist.all_reduce(bf)
print(f"rank {rank}: bfloat16 sum {bf.tolist()}")
flags = torch.tensor([rank == 0, False, True], device=dev)
dist.all_reduce(flags)
print(f"rank {rank}: bool sum (any) {flags.tolist()}")
m = torch.arange(6.0, device=dev).reshape(2, 3) * (rank + 1)
col = m.t()  # not contiguous
dist.all_reduce(col)
print(f"rank {rank}: transposed view {m.tolist()}")

b = torch.full((3,), float(rank), device=dev)
dist.broadcast(b, src=world - 1)
print(f"rank {rank}: broadcast {b.tolist()}")

parts = [torch.zeros(2, device=dev) for _ in range(world)]
dist.all_gather(parts, torch.tensor([rank, 10.0 * rank], device=dev))
print(f"rank {rank}: all_gather {[p.tolist() for p in parts]}")

out = torch.zeros(2, device=dev)
dist.reduce_scatter(out, [torch.full((2,), float(k + rank), device=dev) for k in range(world)])
print(f"rank {rank}: reduce_scatter {out.tolist()}")

# DistributedDataParallel over the same group: rank 0's parameters broadcast (two NCCL
# broadcasts), the gradients averaged in one NCCL all-reduce after backward
torch.manual_seed(0)
model = torch.nn.Linear(4, 2).to(dev)
if rank == 1:
    with torch.no_grad():
        model.weight.add_(1.0)
ddp = torch.nn.parallel.DistributedDataParallel(model)
x = torch.arange(8.0, device=dev).reshape(2, 4) * (rank + 1)
ddp(x).sum().backward()
print(f"rank {rank}: ddp grads {model.weight.grad.tolist()} {model.bias.grad.tolist()}")

dist.barrier()
print(f"rank {rank}: after barrier")
if cuda:
    try:
        dist.all_reduce(torch.ones(2))
    except RuntimeError as e:
        print(f"rank {rank}: a CPU tensor: {e}")
dist.destroy_process_group()
