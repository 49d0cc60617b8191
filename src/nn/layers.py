# torch.nn layers (torch/nn/modules/linear.py, activation.py, dropout.py, flatten.py,
# normalization.py) and DataParallel (torch/nn/parallel/data_parallel.py).


class Identity(Module):
    __module__ = 'torch.nn.modules.linear'

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    __module__ = 'torch.nn.modules.linear'
    __constants__ = ['in_features', 'out_features']

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in_features), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f'in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}'


class ReLU(Module):
    __module__ = 'torch.nn.modules.activation'
    __constants__ = ['inplace']

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class LeakyReLU(Module):
    __module__ = 'torch.nn.modules.activation'

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        inplace_str = ', inplace=True' if self.inplace else ''
        return f'negative_slope={self.negative_slope}{inplace_str}'


class GELU(Module):
    __module__ = 'torch.nn.modules.activation'

    def __init__(self, approximate='none'):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f'approximate={repr(self.approximate)}'


class Sigmoid(Module):
    __module__ = 'torch.nn.modules.activation'

    def forward(self, input):
        return torch.sigmoid(input)


class Tanh(Module):
    __module__ = 'torch.nn.modules.activation'

    def forward(self, input):
        return torch.tanh(input)


class ELU(Module):
    __module__ = 'torch.nn.modules.activation'

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        inplace_str = ', inplace=True' if self.inplace else ''
        return f'alpha={self.alpha}{inplace_str}'


class Softplus(Module):
    __module__ = 'torch.nn.modules.activation'

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f'beta={self.beta}, threshold={self.threshold}'


class SiLU(Module):
    __module__ = 'torch.nn.modules.activation'

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class Softmax(Module):
    __module__ = 'torch.nn.modules.activation'
    __constants__ = ['dim']

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self):
        return f'dim={self.dim}'


class LogSoftmax(Module):
    __module__ = 'torch.nn.modules.activation'
    __constants__ = ['dim']

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim)

    def extra_repr(self):
        return f'dim={self.dim}'


class _DropoutNd(Module):
    # what Dropout and Dropout2d share, as in PyTorch's dropout.py
    __module__ = 'torch.nn.modules.dropout'
    __constants__ = ['p', 'inplace']

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f'dropout probability has to be between 0 and 1, but got {p}')
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return f'p={self.p}, inplace={self.inplace}'


class Dropout(_DropoutNd):
    __module__ = 'torch.nn.modules.dropout'

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class Flatten(Module):
    __module__ = 'torch.nn.modules.flatten'
    __constants__ = ['start_dim', 'end_dim']

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f'start_dim={self.start_dim}, end_dim={self.end_dim}'


class LayerNorm(Module):
    __module__ = 'torch.nn.modules.normalization'
    __constants__ = ['normalized_shape', 'eps', 'elementwise_affine']

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(torch.empty(self.normalized_shape, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(torch.empty(self.normalized_shape, device=device, dtype=dtype))
            else:
                self.register_parameter('bias', None)
        else:
            self.register_parameter('weight', None)
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f'{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}'


# --- DataParallel ---------------------------------------------------------------------------

def _cuda_device_count():
    cuda = getattr(torch, 'cuda', None)
    if cuda is None or not cuda.is_available():
        return 0
    count = getattr(cuda, 'device_count', None)
    return count() if count is not None else 1


def _device_index(d):
    if isinstance(d, int):
        return d
    d = torch.device(d)
    return d.index if d.index is not None else 0


def _replicate(module, device):
    # A copy of the module tree whose parameters are `p.to(device)` (differentiable, so the
    # gradients flow back to the original parameters, as PyTorch's Broadcast does).
    replica = _N.new_instance(type(module))
    for k, v in module.__dict__.items():
        object.__setattr__(replica, k, v)
    params = {}
    for k, p in module._parameters.items():
        params[k] = None if p is None else p.to(device)
        object.__setattr__(replica, k, params[k])
    object.__setattr__(replica, '_parameters', params)
    bufs = {}
    for k, b in module._buffers.items():
        bufs[k] = None if b is None else b.to(device)
        object.__setattr__(replica, k, bufs[k])
    object.__setattr__(replica, '_buffers', bufs)
    mods = {}
    for k, m in module._modules.items():
        mods[k] = None if m is None else _replicate(m, device)
        object.__setattr__(replica, k, mods[k])
    object.__setattr__(replica, '_modules', mods)
    return replica


def _scatter(obj, devices, dim):
    # Tensors are split like tensor.chunk(len(devices), dim); other values are repeated.
    if isinstance(obj, torch.Tensor):
        n = obj.shape[dim]
        size = (n + len(devices) - 1) // len(devices)
        out = []
        start = 0
        i = 0
        while start < n and i < len(devices):
            end = min(start + size, n)
            part = obj[start:end] if dim == 0 else obj.transpose(0, dim)[start:end].transpose(0, dim)
            out.append(part.to(torch.device('cuda', devices[i])))
            start = end
            i += 1
        return out
    if isinstance(obj, (tuple, list)) and len(obj) > 0:
        parts = [_scatter(o, devices, dim) for o in obj]
        n = min(len(p) for p in parts)
        return [type(obj)(p[i] for p in parts) if isinstance(obj, list) else tuple(p[i] for p in parts) for i in range(n)]
    if isinstance(obj, dict) and len(obj) > 0:
        keys = list(obj.keys())
        parts = [_scatter(obj[k], devices, dim) for k in keys]
        n = min(len(p) for p in parts)
        return [dict(zip(keys, [p[i] for p in parts])) for i in range(n)]
    return [obj for _ in devices]


def _gather(outputs, target, dim):
    first = outputs[0]
    if isinstance(first, torch.Tensor):
        return torch.cat([o.to(target) for o in outputs], dim)
    if first is None:
        return None
    if isinstance(first, dict):
        return type(first)((k, _gather([d[k] for d in outputs], target, dim)) for k in first)
    if isinstance(first, (tuple, list)):
        return type(first)(_gather(list(parts), target, dim) for parts in zip(*outputs))
    return outputs


class DataParallel(Module):
    __module__ = 'torch.nn.parallel.data_parallel'

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        if _cuda_device_count() == 0:
            self.module = module
            self.device_ids = []
            return
        if device_ids is None:
            device_ids = list(range(_cuda_device_count()))
        if output_device is None:
            output_device = device_ids[0]
        self.dim = dim
        self.module = module
        self.device_ids = [_device_index(x) for x in device_ids]
        self.output_device = _device_index(output_device)
        self.src_device_obj = torch.device('cuda', self.device_ids[0])
        if len(self.device_ids) == 1:
            self.module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        for t in list(self.module.parameters()) + list(self.module.buffers()):
            if t.device != self.src_device_obj:
                raise RuntimeError(f'module must have its parameters and buffers on device {self.src_device_obj} (device_ids[0]) but found one of them on device: {t.device}')
        scattered = _scatter(list(inputs), self.device_ids, self.dim) if inputs else []
        kw = _scatter(kwargs, self.device_ids, self.dim) if kwargs else []
        if len(scattered) < len(kw):
            scattered.extend([() for _ in range(len(kw) - len(scattered))])
        if len(kw) < len(scattered):
            kw.extend([{} for _ in range(len(scattered) - len(kw))])
        if not scattered:
            scattered = [()]
            kw = [{}]
        if len(self.device_ids) == 1:
            return self.module(*scattered[0], **kw[0])
        outputs = []
        for i in range(len(scattered)):
            device = torch.device('cuda', self.device_ids[i])
            replica = self.module if i == 0 else _replicate(self.module, device)
            outputs.append(replica(*scattered[i], **kw[i]))
        return _gather(outputs, torch.device('cuda', self.output_device), self.dim)
