# Rank 2 leaves (exit code 3) while the others all-reduce: they fail at once, and the
# launcher names rank 2 as the root cause, not the first of the others it saw exit.
import time
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
t = torch.ones(100_000)
for i in range(3):
    dist.all_reduce(t)
if dist.get_rank() == 2:
    time.sleep(0.2)
    raise SystemExit(3)
while True:
    dist.all_reduce(t)
