# TEMPORARY: a few torch.nn.functional ops in plain tensor code, until the native module from
# the autograd branch is merged (that one replaces this file).
import torch


def _reduce(x, reduction):
    if reduction == 'mean':
        return x.mean()
    if reduction == 'sum':
        return x.sum()
    return x


def linear(input, weight, bias=None):
    out = input.matmul(weight.t())
    if bias is not None:
        out = out + bias
    return out


def relu(input, inplace=False):
    return input.relu()


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    return input.softmax(dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    return input.log_softmax(dim)


def dropout(input, p=0.5, training=True, inplace=False):
    if not training or p == 0:
        return input
    raise NotImplementedError('cudalearn does not support dropout in training mode yet')


def mse_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    return _reduce((input - target) ** 2, reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    return _reduce((input - target).abs(), reduction)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'):
    onehot = torch.eye(input.shape[1], dtype=input.dtype)[target]
    return _reduce(-(input * onehot).sum(1), reduction)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', label_smoothing=0.0):
    return nll_loss(input.log_softmax(1), target, reduction=reduction)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction='mean'):
    return _reduce(-(target * input.log().clamp(min=-100) + (1 - target) * (1 - input).log().clamp(min=-100)), reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction='mean', pos_weight=None):
    return binary_cross_entropy(input.sigmoid(), target, reduction=reduction)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    dims = tuple(range(input.dim() - len(normalized_shape), input.dim()))
    mean = input.mean(dims, keepdim=True)
    var = ((input - mean) ** 2).mean(dims, keepdim=True)
    out = (input - mean) / (var + eps).sqrt()
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out
