# Rank 1 never joins the all-reduce: rank 0 must time out (CUDALEARN_DIST_TIMEOUT).
import time
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
if dist.get_rank() == 1:
    time.sleep(60)
dist.all_reduce(torch.ones(3))
