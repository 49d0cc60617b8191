# torch.autograd.Function: an op with a backward of its own. `apply` runs `forward` with grad
# mode off, then the native `custom_apply` records one `<Name>Backward` node (shared by every
# tensor of a tuple that forward returns) whose backward calls the class's
# `backward(ctx, *grad_outputs)` once (lang/modules/torch/custom_function.rs).
import torch
import _cudalearn_nn as _N


class FunctionCtx:
    __module__ = 'torch.autograd.function'

    def save_for_backward(self, *tensors):
        for t in tensors:
            if t is not None and not isinstance(t, torch.Tensor):
                raise TypeError('save_for_backward can only save variables, but argument 0 is of type ' + type(t).__name__)
        self.saved_tensors = tensors

    def mark_non_differentiable(self, *args):
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        self.materialize_grads = value

    def mark_dirty(self, *args):
        raise NotImplementedError('cudalearn does not implement ctx.mark_dirty yet')


class Function:
    __module__ = 'torch.autograd.function'

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        raise RuntimeError('Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd function with static forward method. (Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)')

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError('You must implement the forward function for custom autograd.Function.')

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError('setup_context is not implemented.')

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError('You must implement either the backward or vjp method for your custom autograd.Function to use it with backward mode AD.')

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = FunctionCtx()
        grad_on = torch.is_grad_enabled()
        ctx.needs_input_grad = tuple(grad_on and isinstance(a, torch.Tensor) and a.requires_grad for a in args)
        ctx.saved_tensors = ()
        with torch.no_grad():
            if cls.setup_context is Function.setup_context:
                out = cls.forward(ctx, *args, **kwargs)
            else:
                out = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, out)
        return _N.custom_apply(cls.__name__, ctx, cls.backward, args, out)


def once_differentiable(fn):
    return fn


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def gradcheck(func, inputs, *, eps=1e-06, atol=1e-05, rtol=0.001, raise_exception=True):
    # Central differences against autograd, one output element (row of the Jacobian) at a time.
    inputs = _as_tuple(inputs)
    wrt = [k for k, x in enumerate(inputs) if isinstance(x, torch.Tensor) and x.requires_grad]
    outputs = [o for o in _as_tuple(func(*inputs)) if isinstance(o, torch.Tensor) and o.requires_grad]
    for oi, out in enumerate(outputs):
        for ii in wrt:
            x = inputs[ii]
            numerical = torch.zeros(x.numel(), out.numel(), dtype=out.dtype)
            flat = x.data.view(-1)
            with torch.no_grad():
                for k in range(x.numel()):
                    orig = flat[k].item()
                    flat[k] = orig + eps
                    hi = _as_tuple(func(*inputs))[oi].reshape(-1).clone()
                    flat[k] = orig - eps
                    lo = _as_tuple(func(*inputs))[oi].reshape(-1).clone()
                    flat[k] = orig
                    numerical[k] = (hi - lo) / (2 * eps)
            analytical = torch.zeros(x.numel(), out.numel(), dtype=out.dtype)
            for j in range(out.numel()):
                go = torch.zeros(out.numel(), dtype=out.dtype)
                go[j] = 1.0
                o = _as_tuple(func(*inputs))[oi]
                g, = torch.autograd.grad(o, x, go.view(o.shape), allow_unused=True)
                if g is not None:
                    analytical[:, j] = g.reshape(-1)
            if not torch.allclose(analytical, numerical, rtol, atol):
                if not raise_exception:
                    return False
                raise RuntimeError(f'Jacobian mismatch for output {oi} with respect to input {ii},\nnumerical:{numerical}\nanalytical:{analytical}\n')
    return True
