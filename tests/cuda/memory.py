# The allocator's numbers on a GPU, printed the same way by cudalearn and by PyTorch (run both on
# one card: benches/gpu_side_by_side.sh); plus the activation memory autocast saves.
import torch
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
a = torch.ones(1, device='cuda')
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
b = torch.ones(1000, 1000, device='cuda')
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
c = torch.ones(3 * 1024 * 1024, device='cuda')
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved(), torch.cuda.max_memory_allocated())
del b
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
torch.cuda.empty_cache()
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
torch.cuda.reset_peak_memory_stats()
print(torch.cuda.max_memory_allocated())
del a, c
torch.cuda.empty_cache()
try:
    huge = torch.empty(1 << 40, device='cuda')
except torch.OutOfMemoryError as e:
    print(str(e).split(" Of the allocated")[0].split(" Including")[0])
print(torch.cuda.memory_allocated())
# activations of a two-layer MLP, float32 vs autocast float16
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 1024)).cuda()
x = torch.randn(4096, 1024, device='cuda')
for amp in [False, True]:
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    with torch.autocast('cuda', dtype=torch.float16, enabled=amp):
        out = model(x).float().sum()
    print("autocast" if amp else "float32", (torch.cuda.memory_allocated() - base) / 2**20, "MiB held")
    del out
