# all_reduce of float32 tensors between 2 ranks on the loopback, timed on rank 0.
# cudalearn: cudalearn run --nproc-per-node 2 --master-port 0 benches/dist/allreduce.py
# PyTorch:   torchrun --nproc-per-node 2 benches/dist/allreduce.py   (gloo)
# (benches/dist/side_by_side.sh runs both, interleaved.)
import time
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
for n in [1_000, 100_000, 1_000_000]:
    t = torch.ones(n)
    dist.all_reduce(t)
    reps = 20
    dist.barrier()
    start = time.perf_counter()
    for _ in range(reps):
        dist.all_reduce(t)
    took = (time.perf_counter() - start) / reps
    if dist.get_rank() == 0:
        print(f"all_reduce {n} floats: {took * 1e3:.3f} ms")
dist.destroy_process_group()
