# DDP on the digits. Started by the launcher it trains with DistributedDataParallel and a
# DistributedSampler on WORLD_SIZE ranks, each with 64 / WORLD_SIZE samples per step; run
# alone it trains one process on the same global batches of 64. Rank 0 prints the final
# parameters, and every rank checks that all replicas hold the same ones.
import os
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.utils.data import DataLoader, TensorDataset, DistributedSampler
from cudalearn.datasets import load_digits

launched = "RANK" in os.environ
if launched:
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
else:
    rank, world = 0, 1
device = torch.device(f"cuda:{os.environ.get('LOCAL_RANK', '0')}") if torch.cuda.is_available() else torch.device("cpu")

X, y = load_digits()
ds = TensorDataset(X[:1792] / 16.0, y[:1792])  # 1792 = 28 batches of 64
torch.manual_seed(rank)  # other ranks start elsewhere: DDP's broadcast must fix that
model = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10)).to(device)
if launched:
    model = nn.parallel.DistributedDataParallel(model)
sampler = DistributedSampler(ds, num_replicas=world, rank=rank, seed=0)
loader = DataLoader(ds, batch_size=64 // world, sampler=sampler)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(2):
    sampler.set_epoch(epoch)
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        opt.zero_grad()
        loss_fn(model(xb), yb).backward()
        opt.step()

params = torch.cat([p.detach().reshape(-1) for p in model.parameters()]).to("cpu")
if launched:
    copies = [torch.zeros_like(params) for _ in range(world)]
    dist.all_gather(copies, params)
    print("replicas equal:", all(torch.equal(c, params) for c in copies))
if rank == 0:
    print("params", params.tolist())
