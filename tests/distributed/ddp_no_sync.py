# no_sync(): backward inside it keeps each rank's own gradient; the next synced backward
# all-reduces the accumulated gradients. Also: the parameters start equal (broadcast).
import torch
import torch.nn as nn
import torch.distributed as dist

dist.init_process_group("gloo")
r, w = dist.get_rank(), dist.get_world_size()
torch.manual_seed(r)
model = nn.parallel.DistributedDataParallel(nn.Linear(3, 1, bias=False))


def gathered(t):
    out = [torch.zeros_like(t) for _ in range(w)]
    dist.all_gather(out, t)
    return out


ws = gathered(model.module.weight.detach().clone())
print(f"rank {r}: weights equal after wrapping: {all(torch.equal(x, ws[0]) for x in ws)}")
x = torch.full((1, 3), float(r + 1))
with model.no_sync():
    model(x).sum().backward()
g = model.module.weight.grad.clone()
print(f"rank {r}: inside no_sync, own gradient: {g.tolist()}")
model(x).sum().backward()
g = model.module.weight.grad
# each rank accumulated 2 * (r + 1); the sync averages over ranks
want = sum(2.0 * (k + 1) for k in range(w)) / w
print(f"rank {r}: after a synced backward: {g.tolist()} (expected {want})")
