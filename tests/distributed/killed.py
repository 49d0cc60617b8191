# All-reduces until killed: a test kills one rank in the middle and the others must fail.
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
t = torch.ones(1_000_000)
dist.all_reduce(t)
print("looping", flush=True)
while True:
    dist.all_reduce(t)
