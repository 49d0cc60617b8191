# Every collective on every rank, checked against the values worked out by hand.
import os
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
r = dist.get_rank()
w = dist.get_world_size()
assert r == int(os.environ["RANK"]) and w == int(os.environ["WORLD_SIZE"])
dev = torch.device(f"cuda:{os.environ['LOCAL_RANK']}") if torch.cuda.is_available() else torch.device("cpu")
total = w * (w - 1) // 2  # 0 + 1 + ... + (w - 1)

t = torch.arange(7.0, device=dev) + r
dist.all_reduce(t)
assert t.tolist() == [w * k + total for k in range(7)], t

t = (torch.arange(7.0, device=dev) + r)[::2]  # a strided view is written in place
dist.all_reduce(t, op=dist.ReduceOp.AVG)
assert t.tolist() == [k + total / w for k in range(0, 7, 2)], t

t = torch.tensor([r, -r, 5], dtype=torch.int64, device=dev)
dist.all_reduce(t, op=dist.ReduceOp.MAX)
assert t.tolist() == [w - 1, 0, 5] and t.dtype == torch.int64, t
dist.all_reduce(t, op=dist.ReduceOp.MIN)
assert t.tolist() == [w - 1, 0, 5], t

t = torch.tensor([float(r + 1)], dtype=torch.float64, device=dev)
dist.all_reduce(t, op=dist.ReduceOp.PRODUCT)
p = 1
for k in range(1, w + 1):
    p *= k
assert t.item() == p, t

b = torch.full((3, 2), float(r), device=dev)
dist.broadcast(b, src=w - 1)
assert b.tolist() == [[w - 1.0] * 2] * 3, b

out = [torch.zeros(2, device=dev) for _ in range(w)]
dist.all_gather(out, torch.tensor([r, 10.0 * r], device=dev))
assert [o.tolist() for o in out] == [[k, 10.0 * k] for k in range(w)], out

o = torch.zeros(3, device=dev)
dist.reduce_scatter(o, [torch.full((3,), float(k * 100 + r), device=dev) for k in range(w)])
assert o.tolist() == [float(w * r * 100 + total)] * 3, o

work = dist.all_reduce(torch.ones(1, device=dev), async_op=True)
assert work.wait()
dist.barrier()
print(f"rank {r} of {w} ok on {dev.type}")
dist.destroy_process_group()
