# Rank 1 raises; the others wait in a barrier that can never finish.
import torch.distributed as dist

dist.init_process_group("gloo")
if dist.get_rank() == 1:
    raise ValueError("rank 1 gives up")
dist.barrier()
