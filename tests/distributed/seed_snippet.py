# The seed tutorial's DDP snippet, completed into a program: backend 'nccl', the model moved
# to this rank's device, wrapped in DistributedDataParallel, one training step.
import os
import torch
import torch.nn as nn
import torch.distributed as dist


class SimpleNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


dist.init_process_group(backend='nccl')
local_rank = int(os.environ["LOCAL_RANK"])
device = torch.device(f"cuda:{local_rank}" if torch.cuda.is_available() else "cpu")

# Initialize the model and move it to the GPU
model = SimpleNN().to(device)
model = nn.parallel.DistributedDataParallel(model)

x = torch.randn(8, 64, device=device)
y = torch.randint(0, 10, (8,), device=device)
loss = nn.CrossEntropyLoss()(model(x), y)
loss.backward()
g = model.module.fc1.weight.grad.sum().reshape(1)
gs = [torch.zeros(1, device=device) for _ in range(dist.get_world_size())]
dist.all_gather(gs, g)
print(f"rank {dist.get_rank()} on {device.type}: gradients equal on every rank: {all(torch.equal(x, g) for x in gs)}")
dist.destroy_process_group()
