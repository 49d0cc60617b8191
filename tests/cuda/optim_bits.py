# Optimizer steps on DEV (set before this file) against the same steps on the CPU, from the
# same parameters and gradients: tests/cuda_vgpu.rs expects every line to end in True (the same
# bits) and the steps on a card to run its fused kernels (kernels/optim.cu).
import torch
def train(dev, make, dtype):
    torch.manual_seed(0)
    ps = [torch.randn(5, 3, dtype=dtype).to(dev).requires_grad_(), torch.randn(7, dtype=dtype).to(dev).requires_grad_()]
    opt = make(ps)
    for step in range(4):
        torch.manual_seed(100 + step)
        # the first gradient is a transposed view, as a Linear weight's is
        ps[0].grad = torch.randn(3, 5, dtype=dtype).to(dev).t()
        ps[1].grad = torch.randn(7, dtype=dtype).to(dev)
        opt.step()
    return [p.detach().to('cpu') for p in ps]
makes = {
    'sgd': lambda ps: torch.optim.SGD(ps, lr=0.1),
    'sgd_momentum': lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01),
    'sgd_nesterov_max': lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.8, nesterov=True, weight_decay=0.1, maximize=True),
    'adam': lambda ps: torch.optim.Adam(ps, lr=0.01),
    'adam_l2_amsgrad': lambda ps: torch.optim.Adam(ps, lr=0.01, weight_decay=0.1, amsgrad=True, maximize=True),
    'adamw': lambda ps: torch.optim.AdamW(ps, lr=0.01, betas=(0.3, 0.99)),
}
for name, make in makes.items():
    for dtype in [torch.float32, torch.float64]:
        a = train('cpu', make, dtype)
        b = train(DEV, make, dtype)
        same = all(torch.equal(x, y) for x, y in zip(a, b))
        print(name, dtype, same, a[1][:3].tolist())
