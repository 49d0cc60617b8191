# torch.nn.utils: clip_grad_norm_ and clip_grad_value_ (torch/nn/utils/clip_grad.py),
# parameters_to_vector.
import torch
import math


def _grads(parameters):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    grads = _grads(parameters)
    max_norm = float(max_norm)
    norm_type = float(norm_type)
    if len(grads) == 0:
        return torch.tensor(0.0)
    if norm_type == math.inf:
        norms = [g.detach().abs().max() for g in grads]
        total_norm = norms[0] if len(norms) == 1 else torch.stack(norms).max()
    else:
        total_norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g.detach(), norm_type) for g in grads]), norm_type)
    if error_if_nonfinite and not math.isfinite(total_norm.item()):
        raise RuntimeError(f'The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=False`')
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
    with torch.no_grad():
        for g in grads:
            g.mul_(clip_coef_clamped)
    return total_norm


def clip_grad_value_(parameters, clip_value, foreach=None):
    clip_value = float(clip_value)
    with torch.no_grad():
        for g in _grads(parameters):
            g.clamp_(min=-clip_value, max=clip_value)


def parameters_to_vector(parameters):
    return torch.cat([p.view(-1) for p in parameters])
