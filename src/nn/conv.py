# torch.nn convolution and pooling layers (torch/nn/modules/conv.py, pooling.py). The work
# is done by torch.nn.functional's conv1d/conv2d/max_pool2d/avg_pool2d/adaptive_avg_pool2d
# (im2col + matmul in the engine, on every device).
import torch.nn.utils as utils


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def _single(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


class _ConvNd(Module):
    __constants__ = ['stride', 'padding', 'dilation', 'groups', 'padding_mode', 'output_padding', 'in_channels', 'out_channels', 'kernel_size']

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias, padding_mode, device, dtype):
        super().__init__()
        if groups <= 0:
            raise ValueError('groups must be a positive integer')
        if in_channels % groups != 0:
            raise ValueError('in_channels must be divisible by groups')
        if out_channels % groups != 0:
            raise ValueError('out_channels must be divisible by groups')
        if padding_mode != 'zeros':
            raise NotImplementedError(f"cudalearn does not implement padding_mode='{padding_mode}' yet")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = False
        self.output_padding = tuple(0 for _ in kernel_size)
        self.groups = groups
        self.padding_mode = padding_mode
        self.weight = Parameter(torch.empty((out_channels, in_channels // groups) + tuple(kernel_size), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        s = '{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}'
        if self.padding != (0,) * (len(self.padding) if not isinstance(self.padding, str) else 1):
            s += ', padding={padding}'
        if self.dilation != (1,) * len(self.dilation):
            s += ', dilation={dilation}'
        if self.groups != 1:
            s += ', groups={groups}'
        if self.bias is None:
            s += ', bias=False'
        return s.format(**self.__dict__)


class Conv1d(_ConvNd):
    __module__ = 'torch.nn.modules.conv'

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True, padding_mode='zeros', device=None, dtype=None):
        padding = padding if isinstance(padding, str) else _single(padding)
        super().__init__(in_channels, out_channels, _single(kernel_size), _single(stride), padding, _single(dilation), groups, bias, padding_mode, device, dtype)

    def forward(self, input):
        return F.conv1d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv2d(_ConvNd):
    __module__ = 'torch.nn.modules.conv'

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True, padding_mode='zeros', device=None, dtype=None):
        padding = padding if isinstance(padding, str) else _pair(padding)
        super().__init__(in_channels, out_channels, _pair(kernel_size), _pair(stride), padding, _pair(dilation), groups, bias, padding_mode, device, dtype)

    def forward(self, input):
        return F.conv2d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class MaxPool2d(Module):
    __module__ = 'torch.nn.modules.pooling'
    __constants__ = ['kernel_size', 'stride', 'padding', 'dilation', 'return_indices', 'ceil_mode']

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation, ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, dilation={self.dilation}, ceil_mode={self.ceil_mode}'


class AvgPool2d(Module):
    __module__ = 'torch.nn.modules.pooling'
    __constants__ = ['kernel_size', 'stride', 'padding', 'ceil_mode', 'count_include_pad', 'divisor_override']

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}'


class MaxUnpool2d(Module):
    __module__ = 'torch.nn.modules.pooling'
    __constants__ = ['kernel_size', 'stride', 'padding']

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = _pair(kernel_size)
        self.stride = _pair(stride if (stride is not None) else kernel_size)
        self.padding = _pair(padding)

    def forward(self, input, indices, output_size=None):
        return F.max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self):
        return f'kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}'


class AdaptiveAvgPool2d(Module):
    __module__ = 'torch.nn.modules.pooling'
    __constants__ = ['output_size']

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self):
        return f'output_size={self.output_size}'
