# torch.nn.parallel: DataParallel (in layers.py) and DistributedDataParallel
# (torch/nn/parallel/distributed.py). DDP wraps a module in one process of a group: at
# construction it broadcasts rank 0's parameters and buffers so every replica starts equal;
# each forward run with grad sync on queues the module, and when backward() returns the
# gradients are divided by the world size and all-reduced (summed) in one flat bucket, so
# every rank holds the average gradient and its optimizer takes the same step.
import torch
import torch.distributed as dist
from torch.nn import Module, DataParallel


class _NoSync:
    def __init__(self, ddp):
        self.ddp = ddp

    def __enter__(self):
        self.old = self.ddp.require_backward_grad_sync
        self.ddp.require_backward_grad_sync = False

    def __exit__(self, *exc):
        self.ddp.require_backward_grad_sync = self.old
        return False


class DistributedDataParallel(Module):
    __module__ = 'torch.nn.parallel.distributed'

    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=True, process_group=None, bucket_cap_mb=None, find_unused_parameters=False, check_reduction=False, gradient_as_bucket_view=False, static_graph=False):
        super().__init__()
        params = [p for p in module.parameters() if p.requires_grad]
        if not params:
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't have any parameter that requires a gradient.")
        devices = []
        for p in params:
            if p.device not in devices:
                devices.append(p.device)
        if len(devices) > 1:
            raise ValueError(f"DistributedDataParallel's input module must be on the same type of devices, but input module parameters locate in {set(str(d) for d in devices)}.")
        device = devices[0]
        if device.type == 'cpu' and device_ids is not None:
            raise ValueError(f'DistributedDataParallel device_ids and output_device arguments only work with single-device/multiple-device GPU modules or CPU modules, but got device_ids {device_ids}, output_device {output_device}, and module parameters {set(str(d) for d in devices)}.')
        self.module = module
        self.device_ids = None if device.type == 'cpu' else [device.index]
        self.output_device = None if device.type == 'cpu' else device.index
        self.device = device
        self.dim = dim
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True
        self.world_size = dist.get_world_size()
        self._ddp_params = params
        with torch.no_grad():
            for t in list(module.parameters()) + list(module.buffers()):
                dist.broadcast(t, 0)

    def forward(self, *inputs, **kwargs):
        if torch.is_grad_enabled() and self.require_backward_grad_sync:
            dist._queue_grad_sync(self)
        if self.broadcast_buffers and self.require_forward_param_sync:
            with torch.no_grad():
                for b in self.module.buffers():
                    dist.broadcast(b, 0)
        return self.module(*inputs, **kwargs)

    def no_sync(self):
        return _NoSync(self)

    def _sync_grads(self):
        # One bucket: grads / world_size, summed over the ranks (PyTorch's reducer divides
        # each bucket before its all-reduce). A parameter this rank did not use counts as 0.
        grads = []
        for p in self._ddp_params:
            if p.grad is None:
                p.grad = torch.zeros_like(p)
            grads.append(p.grad)
        with torch.no_grad():
            flat = torch.cat([g.reshape(-1) for g in grads])
            flat = flat / self.world_size
            dist.all_reduce(flat)
            offset = 0
            for g in grads:
                n = g.numel()
                g.copy_(flat[offset:offset + n].reshape(g.shape))
                offset += n
