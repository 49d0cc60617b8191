# The seed tutorials' AMP loop (torch.cuda.amp autocast + GradScaler) on the simulated GPU; run by
# tests/amp.rs with CUDALEARN_SIM_GPU=1. PyTorch cannot produce this output without a GPU.
import torch
import torch.nn.functional as F
from torch.cuda.amp import autocast, GradScaler
torch.manual_seed(0)
dev = 'cuda'
w1 = torch.randn(16, 8, device=dev).mul_(0.3).requires_grad_()
b1 = torch.zeros(16, device=dev, requires_grad=True)
w2 = torch.randn(2, 16, device=dev).mul_(0.3).requires_grad_()
b2 = torch.zeros(2, device=dev, requires_grad=True)
params = [w1, b1, w2, b2]
class SGD:
    def __init__(self, params, lr):
        self.param_groups = [{'params': params, 'lr': lr}]
    def zero_grad(self):
        for p in self.param_groups[0]['params']:
            p.grad = None
    def step(self):
        with torch.no_grad():
            for p in self.param_groups[0]['params']:
                p -= self.param_groups[0]['lr'] * p.grad
optimizer = SGD(params, 0.1)
scaler = GradScaler()
x = torch.randn(32, 8, device=dev)
target = torch.randint(0, 2, (32,), device=dev)
for step in range(5):
    optimizer.zero_grad()
    with autocast():
        h = F.relu(F.linear(x, w1, b1))
        output = F.linear(h, w2, b2)
        loss = F.cross_entropy(output, target)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    print(step, h.dtype, output.dtype, loss.dtype, f'{loss.item():.4f}', scaler.get_scale(), w1.grad.dtype, w1.dtype)
print(torch.cuda.memory_allocated())
