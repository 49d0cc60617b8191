# torch.nn: Module and the containers, with PyTorch's semantics (torch/nn/modules/module.py,
# container.py). Parameters, buffers and submodules are registered in `_parameters`,
# `_buffers` and `_modules` as in PyTorch, and also kept in the instance dict so that reading
# `self.fc1` in forward is a plain attribute lookup (PyTorch goes through __getattr__; this
# interpreter is faster without that detour). __setattr__/__delattr__ keep the two in step.
import torch
import _cudalearn_nn as _N
import torch.nn.init as init
import torch.nn.functional as F
import math
from collections import OrderedDict

Parameter = _N.Parameter
functional = F


def _typename(v):
    # torch.typename: tensors by their legacy type name ('torch.FloatTensor').
    if isinstance(v, torch.Tensor):
        return v.type()
    t = type(v)
    m = t.__module__
    if m == 'builtins':
        return t.__name__
    return m + '.' + t.__name__


def _addindent(s_, numSpaces):
    s = s_.split('\n')
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(numSpaces * ' ') + line if line.strip() else '' for line in s]
    s = '\n'.join(s)
    s = first + '\n' + s
    return s


class _IncompatibleKeys:
    __module__ = 'torch.nn.modules.module'

    def __init__(self, missing_keys, unexpected_keys):
        self.missing_keys = missing_keys
        self.unexpected_keys = unexpected_keys

    def __iter__(self):
        return iter([self.missing_keys, self.unexpected_keys])

    def __getitem__(self, i):
        return [self.missing_keys, self.unexpected_keys][i]

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return '<All keys matched successfully>'
        return f'_IncompatibleKeys(missing_keys={self.missing_keys!r}, unexpected_keys={self.unexpected_keys!r})'

    def __str__(self):
        return self.__repr__()


def _parse_to(args, kwargs):
    device = kwargs.get('device', None)
    dtype = kwargs.get('dtype', None)
    for a in args:
        if isinstance(a, torch.dtype):
            dtype = a
        elif isinstance(a, torch.Tensor):
            device = a.device
            dtype = a.dtype
        elif a is not None:
            device = a
    if device is not None:
        device = torch.device(device)
    return device, dtype


class RemovableHandle:
    # torch.utils.hooks.RemovableHandle: removes its hook from the dict it was added to.
    __module__ = 'torch.utils.hooks'
    next_id = 0

    def __init__(self, hooks_dict):
        self.hooks_dict = hooks_dict
        self.id = _RemovableHandle.next_id
        _RemovableHandle.next_id = self.id + 1

    def _add(hooks_dict, entry, prepend):
        handle = _RemovableHandle(hooks_dict)
        if prepend:
            rest = list(hooks_dict.items())
            hooks_dict.clear()
            hooks_dict[handle.id] = entry
            for k, v in rest:
                hooks_dict[k] = v
        else:
            hooks_dict[handle.id] = entry
        return handle

    def remove(self):
        if self.id in self.hooks_dict:
            del self.hooks_dict[self.id]

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, tb):
        self.remove()


# Named as PyTorch names it, but not exported from torch.nn.
_RemovableHandle = RemovableHandle
del RemovableHandle


def _joined(tensors):
    # One tensor holding the flattened `tensors` and each one again as a view of it. A hook on
    # the joined tensor sees all their gradients at once, after every use of every view has
    # contributed (the engine runs a node only when its gradient is complete): the role of
    # PyTorch's BackwardHookFunction node. Tensors of mixed dtypes or devices are joined as
    # float64 on the CPU, which holds every float exactly, and each view is cast back.
    first = tensors[0]
    mixed = any(t.dtype != first.dtype or t.device != first.device for t in tensors)
    if mixed:
        flat = torch.cat([t.reshape(-1).to(device='cpu', dtype=torch.float64) for t in tensors])
    else:
        flat = torch.cat([t.reshape(-1) for t in tensors])
    views, at = [], 0
    for t in tensors:
        n = t.numel()
        v = flat[at:at + n].view(t.shape)
        views.append(v.to(device=t.device, dtype=t.dtype) if mixed else v)
        at += n
    return flat, views


def _split_like(g, tensors):
    # The joined gradient `g` cut into one per tensor, in each tensor's dtype and device.
    out, at = [], 0
    for t in tensors:
        n = t.numel()
        out.append(g[at:at + n].view(t.shape).to(device=t.device, dtype=t.dtype))
        at += n
    return out


def _join_grads(grads, tensors, kind):
    # A joined gradient, of `kind` (the joined tensor's device and dtype), from per-tensor
    # ones (None: zeros, nothing flows there).
    device, dtype = kind
    return torch.cat([(torch.zeros_like(t) if g is None else g).reshape(-1).to(device=device, dtype=dtype) for g, t in zip(grads, tensors)])


class _BackwardHooks:
    # One call's full backward hooks, as PyTorch's BackwardHook: the tensor inputs that require
    # grad, and the tensor outputs, each pass through one joined identity (`_joined`) whose
    # tensor hook sees all their gradients together: the outputs' hook runs the backward
    # pre-hooks on grad_output, the inputs' hook runs hook(module, grad_input, grad_output)
    # and takes its replacement. grad_input has one entry per positional argument (None for
    # those that are not tensors requiring grad); grad_output one per output tensor (None for
    # an output no gradient reached).

    def __init__(self, module, bw, bw_pre):
        self.module = module
        self.bw = bw
        self.bw_pre = bw_pre
        self.n_args = 0
        self.in_idx = []
        self.inputs = []
        self.grad_out = None
        self.out_seen = []

    def wrap_inputs(self, args):
        self.n_args = len(args)
        for k, a in enumerate(args):
            if isinstance(a, torch.Tensor) and a.requires_grad:
                self.in_idx.append(k)
                self.inputs.append(a)
        if not self.inputs:
            return args
        flat, views = _joined(self.inputs)
        self.in_kind = (flat.device, flat.dtype)
        flat.register_hook(self._inputs_hook)
        out = list(args)
        for k, v in zip(self.in_idx, views):
            _N.name_grad_fn(v, 'BackwardHookFunctionBackward')
            out[k] = v
        return tuple(out)

    def wrap_output(self, out):
        single = isinstance(out, torch.Tensor)
        items = [out] if single else (list(out) if isinstance(out, (tuple, list)) else None)
        if items is None:
            return out
        idx = [k for k, t in enumerate(items) if isinstance(t, torch.Tensor) and t.requires_grad]
        self.n_out = len(idx)
        if not idx:
            return out
        tensors = [items[k] for k in idx]
        flat, views = _joined(tensors)
        self.out_kind = (flat.device, flat.dtype)
        self.outputs = tensors
        self.out_seen = [False] * len(views)
        for n, v in enumerate(views):
            _N.name_grad_fn(v, 'BackwardHookFunctionBackward')
            v.register_hook(self._seen(n))
            items[idx[n]] = v
        flat.register_hook(self._outputs_hook)
        if single:
            return items[0]
        return tuple(items) if isinstance(out, tuple) else items

    def _seen(self, n):
        def mark(g):
            self.out_seen[n] = True
        return mark

    def _outputs_hook(self, g):
        grads = [x if seen else None for x, seen in zip(_split_like(g, self.outputs), self.out_seen)]
        replaced = False
        for hook in list(self.bw_pre.values()):
            r = hook(self.module, tuple(grads))
            if r is not None:
                grads = list(r) if isinstance(r, tuple) else [r]
                replaced = True
        self.grad_out = tuple(grads)
        if not self.inputs:
            # No input requires grad: PyTorch fires the hooks with grad_input of Nones.
            for hook in list(self.bw.values()):
                hook(self.module, (None,) * self.n_args, self.grad_out)
        if replaced:
            return _join_grads(grads, self.outputs, self.out_kind)
        return None

    def _inputs_hook(self, g):
        grads = [None] * self.n_args
        for k, x in zip(self.in_idx, _split_like(g, self.inputs)):
            grads[k] = x
        replaced = False
        for hook in list(self.bw.values()):
            r = hook(self.module, tuple(grads), self.grad_out)
            if r is not None:
                r = r if isinstance(r, tuple) else (r,)
                if len(r) != len(grads):
                    raise RuntimeError(f'Backward hook returned an invalid number of grad_input, got {len(r)}, but expected {len(grads)}')
                grads = list(r)
                replaced = True
        if replaced:
            return _join_grads([grads[k] for k in self.in_idx], self.inputs, self.in_kind)
        return None


class Module:
    __module__ = 'torch.nn.modules.module'
    # Class-level defaults: before Module.__init__ runs these read as None.
    _hooks = None
    _parameters = None
    _buffers = None
    _modules = None
    _non_persistent_buffers_set = None
    dump_patches = False
    call_super_init = False

    def __init__(self, *args, **kwargs):
        if kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if args:
            raise TypeError(f'{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} were given')
        object.__setattr__(self, 'training', True)
        object.__setattr__(self, '_parameters', {})
        object.__setattr__(self, '_buffers', {})
        object.__setattr__(self, '_non_persistent_buffers_set', set())
        object.__setattr__(self, '_modules', {})

    def forward(self, *input):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        # `_hooks` stays None until a hook is registered, so plain calls pay one lookup.
        if self._hooks is None:
            return self.forward(*args, **kwargs)
        return self._call_with_hooks(args, kwargs)

    def _call_with_hooks(self, args, kwargs):
        pre, fwd, bw, bw_pre = self._hooks
        for hook, with_kwargs in list(pre.values()):
            if with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError(f'forward pre-hook must return None or a tuple of (new_args, new_kwargs), but got {result}.')
                    args, kwargs = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        state = None
        if (bw or bw_pre) and torch.is_grad_enabled():
            state = _BackwardHooks(self, bw, bw_pre)
            args = state.wrap_inputs(args)
        out = self.forward(*args, **kwargs)
        for hook, with_kwargs in list(fwd.values()):
            result = hook(self, args, kwargs, out) if with_kwargs else hook(self, args, out)
            if result is not None:
                out = result
        if state is not None:
            out = state.wrap_output(out)
        return out

    # --- hooks --------------------------------------------------------------------------
    def _hook_dicts(self):
        # (forward pre, forward, full backward, full backward pre), by handle id.
        if self._hooks is None:
            object.__setattr__(self, '_hooks', ({}, {}, {}, {}))
        return self._hooks

    def register_full_backward_hook(self, hook, prepend=False):
        return _RemovableHandle._add(self._hook_dicts()[2], hook, prepend)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        return _RemovableHandle._add(self._hook_dicts()[3], hook, prepend)

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        return _RemovableHandle._add(self._hook_dicts()[0], (hook, with_kwargs), prepend)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        return _RemovableHandle._add(self._hook_dicts()[1], (hook, with_kwargs), prepend)

    # --- registration -------------------------------------------------------------------
    def register_buffer(self, name, tensor, persistent=True):
        if self._buffers is None:
            raise AttributeError('cannot assign buffer before Module.__init__() call')
        if not isinstance(name, str):
            raise TypeError(f'buffer name should be a string. Got {_typename(name)}')
        if '.' in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == '':
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' (torch Tensor or None required)")
        self._buffers[name] = tensor
        object.__setattr__(self, name, tensor)
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name, param):
        if self._parameters is None:
            raise AttributeError('cannot assign parameter before Module.__init__() call')
        if not isinstance(name, str):
            raise TypeError(f'parameter name should be a string. Got {_typename(name)}')
        if '.' in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == '':
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter '{name}' (torch.nn.Parameter or None required)")
        self._parameters[name] = param
        object.__setattr__(self, name, param)

    def add_module(self, name, module):
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f'{_typename(module)} is not a Module subclass')
        if not isinstance(name, str):
            raise TypeError(f'module name should be a string. Got {_typename(name)}')
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if '.' in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == '':
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module
        object.__setattr__(self, name, module)

    def register_module(self, name, module):
        self.add_module(name, module)

    def get_submodule(self, target):
        if target == '':
            return self
        mod = self
        for item in target.split('.'):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + ' has no attribute `' + item + '`')
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError('`' + item + '` is not an nn.Module')
        return mod

    def get_parameter(self, target):
        module_path, _, param_name = target.rpartition('.')
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + ' has no attribute `' + param_name + '`')
        param = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise AttributeError('`' + param_name + '` is not an nn.Parameter')
        return param

    def __setattr__(self, name, value):
        params = self._parameters
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError('cannot assign parameters before Module.__init__() call')
            self._buffers.pop(name, None)
            self._modules.pop(name, None)
            self._non_persistent_buffers_set.discard(name)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' (torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
            return
        modules = self._modules
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError('cannot assign module before Module.__init__() call')
            params.pop(name, None)
            self._buffers.pop(name, None)
            self._non_persistent_buffers_set.discard(name)
            modules[name] = value
            object.__setattr__(self, name, value)
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as child module '{name}' (torch.nn.Module or None expected)")
            modules[name] = value
            object.__setattr__(self, name, value)
            return
        buffers = self._buffers
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, torch.Tensor):
                raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' (torch.Tensor or None expected)")
            buffers[name] = value
        object.__setattr__(self, name, value)

    def __getattr__(self, name):
        _N.missing_attr(type(self).__name__, name)

    def __delattr__(self, name):
        if self._parameters is not None and name in self._parameters:
            del self._parameters[name]
        elif self._buffers is not None and name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif self._modules is not None and name in self._modules:
            del self._modules[name]
        object.__delattr__(self, name)

    # --- traversal ----------------------------------------------------------------------
    def _named_modules_list(self, memo, prefix, remove_duplicate, out):
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        out.append((prefix, self))
        for name, module in self._modules.items():
            if module is None:
                continue
            submodule_prefix = prefix + ('.' if prefix else '') + name
            module._named_modules_list(memo, submodule_prefix, remove_duplicate, out)

    def named_modules(self, memo=None, prefix='', remove_duplicate=True):
        out = []
        self._named_modules_list(set() if memo is None else memo, prefix, remove_duplicate, out)
        return iter(out)

    def modules(self):
        return iter([m for _, m in self.named_modules()])

    def named_children(self):
        out = []
        memo = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                out.append((name, module))
        return iter(out)

    def children(self):
        return iter([m for _, m in self.named_children()])

    def _named_members(self, kind, prefix, recurse, remove_duplicate):
        memo = set()
        if recurse:
            mods = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
        else:
            mods = [(prefix, self)]
        out = []
        for module_prefix, module in mods:
            members = module._parameters if kind == 0 else module._buffers
            for k, v in members.items():
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                name = module_prefix + ('.' if module_prefix else '') + k
                out.append((name, v))
        return out

    def named_parameters(self, prefix='', recurse=True, remove_duplicate=True):
        return iter(self._named_members(0, prefix, recurse, remove_duplicate))

    def parameters(self, recurse=True):
        return iter([p for _, p in self._named_members(0, '', recurse, True)])

    def named_buffers(self, prefix='', recurse=True, remove_duplicate=True):
        return iter(self._named_members(1, prefix, recurse, remove_duplicate))

    def buffers(self, recurse=True):
        return iter([b for _, b in self._named_members(1, '', recurse, True)])

    # --- modes and gradients ------------------------------------------------------------
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError('training mode is expected to be boolean')
        object.__setattr__(self, 'training', mode)
        for module in self._modules.values():
            if module is not None:
                module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # --- devices and dtypes -------------------------------------------------------------
    def _apply(self, fn):
        for module in self.children():
            module._apply(fn)
        with torch.no_grad():
            for key, param in list(self._parameters.items()):
                if param is None:
                    continue
                # As PyTorch (set_data): the Parameter object stays, so an optimizer built
                # before `.to()` keeps training it.
                param.data = fn(param)
                if param.grad is not None:
                    param.grad.data = fn(param.grad)
            for key, buf in list(self._buffers.items()):
                if buf is not None:
                    applied = fn(buf)
                    self._buffers[key] = applied
                    object.__setattr__(self, key, applied)
        return self

    def to(self, *args, **kwargs):
        device, dtype = _parse_to(args, kwargs)
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(f'nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={dtype}')

        def convert(t):
            if t.is_floating_point():
                return t.to(device, dtype) if device is not None and dtype is not None else (t.to(dtype) if dtype is not None else (t.to(device) if device is not None else t))
            return t.to(device) if device is not None else t

        return self._apply(convert)

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device) if device is not None else t.cuda())

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    # --- state ----------------------------------------------------------------------------
    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()

    def state_dict(self, *args, destination=None, prefix='', keep_vars=False):
        if args:
            destination = args[0]
            if len(args) > 1:
                prefix = args[1]
            if len(args) > 2:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + '.', keep_vars=keep_vars)
        return destination

    def _load_from_state_dict(self, state_dict, prefix, strict, missing_keys, unexpected_keys, error_msgs):
        local_state = {}
        for k, v in self._parameters.items():
            if v is not None:
                local_state[k] = v
        for k, v in self._buffers.items():
            if v is not None and k not in self._non_persistent_buffers_set:
                local_state[k] = v
        for name, param in local_state.items():
            key = prefix + name
            if key in state_dict:
                input_param = state_dict[key]
                if not isinstance(input_param, torch.Tensor):
                    error_msgs.append(f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like object from checkpoint but received {type(input_param)}')
                    continue
                if len(param.shape) == 0 and len(input_param.shape) == 1 and input_param.shape[0] == 1:
                    input_param = input_param[0]
                if input_param.shape != param.shape:
                    error_msgs.append(f'size mismatch for {key}: copying a param with shape {input_param.shape} from checkpoint, the shape in current model is {param.shape}.')
                    continue
                try:
                    with torch.no_grad():
                        param.copy_(input_param)
                except Exception as ex:
                    error_msgs.append(f'While copying the parameter named "{key}", whose dimensions in the model are {param.size()} and whose dimensions in the checkpoint are {input_param.size()}, an exception occurred : {ex.args}.')
            elif strict:
                missing_keys.append(key)
        if strict:
            for key in state_dict.keys():
                if key.startswith(prefix):
                    input_name = key[len(prefix):].split('.', 1)
                    if len(input_name) > 1:
                        if input_name[0] not in self._modules:
                            unexpected_keys.append(key)
                    elif input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        if not isinstance(state_dict, (dict, OrderedDict)):
            raise TypeError(f'Expected state_dict to be dict-like, got {type(state_dict)}.')
        missing_keys = []
        unexpected_keys = []
        error_msgs = []

        def load(module, local_state_dict, prefix=''):
            module._load_from_state_dict(local_state_dict, prefix, True, missing_keys, unexpected_keys, error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + '.'
                    child_state_dict = {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)}
                    load(child, child_state_dict, child_prefix)

        load(self, OrderedDict(state_dict))
        if strict:
            if len(unexpected_keys) > 0:
                error_msgs.insert(0, 'Unexpected key(s) in state_dict: {}. '.format(', '.join(f'"{k}"' for k in unexpected_keys)))
            if len(missing_keys) > 0:
                error_msgs.insert(0, 'Missing key(s) in state_dict: {}. '.format(', '.join(f'"{k}"' for k in missing_keys)))
        if len(error_msgs) > 0:
            raise RuntimeError('Error(s) in loading state_dict for {}:\n\t{}'.format(self.__class__.__name__, '\n\t'.join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # --- printing -------------------------------------------------------------------------
    def _get_name(self):
        return self.__class__.__name__

    def extra_repr(self):
        return ''

    def __repr__(self):
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split('\n')
        child_lines = []
        for key, module in self._modules.items():
            mod_str = repr(module)
            mod_str = _addindent(mod_str, 2)
            child_lines.append('(' + key + '): ' + mod_str)
        lines = extra_lines + child_lines
        main_str = self._get_name() + '('
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += '\n  ' + '\n  '.join(lines) + '\n'
        main_str += ')'
        return main_str

    def __dir__(self):
        return sorted(set(dir(type(self))) | set(self._parameters) | set(self._modules) | set(self._buffers))


def _get_abs_string_index(obj, idx):
    idx = int(idx)
    n = len(obj)
    if not (-n <= idx < n):
        raise IndexError(f'index {idx} is out of range')
    if idx < 0:
        idx += n
    return str(idx)


class Sequential(Module):
    __module__ = 'torch.nn.modules.container'

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def _get_item_by_idx(self, iterator, idx):
        size = len(self)
        idx = int(idx)
        if not -size <= idx < size:
            raise IndexError(f'index {idx} is out of range')
        idx %= size
        return list(iterator)[idx]

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(OrderedDict(list(self._modules.items())[idx]))
        return self._get_item_by_idx(self._modules.values(), idx)

    def __setitem__(self, idx, module):
        key = self._get_item_by_idx(self._modules.keys(), idx)
        return setattr(self, key, module)

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            for key in list(self._modules.keys())[idx]:
                delattr(self, key)
        else:
            key = self._get_item_by_idx(self._modules.keys(), idx)
            delattr(self, key)
        str_indices = [str(i) for i in range(len(self._modules))]
        mods = list(self._modules.items())
        for k, _ in mods:
            object.__delattr__(self, k)
        object.__setattr__(self, '_modules', {})
        for k, (_, m) in zip(str_indices, mods):
            self._modules[k] = m
            object.__setattr__(self, k, m)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules.values()))

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index, module):
        if not isinstance(module, Module):
            raise AssertionError(f'module should be of type: {Module}')
        n = len(self._modules)
        if not (-n <= index <= n):
            raise IndexError(f'Index out of range: {index}')
        if index < 0:
            index += n
        mods = list(self._modules.values())
        mods.insert(index, module)
        for k in list(self._modules.keys()):
            object.__delattr__(self, k)
        object.__setattr__(self, '_modules', {})
        for i, m in enumerate(mods):
            self.add_module(str(i), m)
        return self

    def extend(self, sequential):
        for layer in sequential:
            self.append(layer)
        return self

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input


class ModuleList(Module):
    __module__ = 'torch.nn.modules.container'

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self._modules.values())[idx])
        return self._modules[_get_abs_string_index(self, idx)]

    def __setitem__(self, idx, module):
        idx = _get_abs_string_index(self, idx)
        return setattr(self, str(idx), module)

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, _get_abs_string_index(self, idx))
        mods = list(self._modules.values())
        for k in list(self._modules.keys()):
            object.__delattr__(self, k)
        object.__setattr__(self, '_modules', {})
        for i, m in enumerate(mods):
            self.add_module(str(i), m)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules.values()))

    def __iadd__(self, modules):
        return self.extend(modules)

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index, module):
        mods = list(self._modules.values())
        mods.insert(index, module)
        for k in list(self._modules.keys()):
            object.__delattr__(self, k)
        object.__setattr__(self, '_modules', {})
        for i, m in enumerate(mods):
            self.add_module(str(i), m)

    def extend(self, modules):
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self

    def forward(self, *args, **kwargs):
        raise NotImplementedError('Module [ModuleList] is missing the required "forward" function')

    def __repr__(self):
        list_of_reprs = [repr(item) for item in self]
        if len(list_of_reprs) == 0:
            return self._get_name() + '()'
        start_end_indices = [[0, 0]]
        repeated_blocks = [list_of_reprs[0]]
        for i, r in enumerate(list_of_reprs[1:], 1):
            if r == repeated_blocks[-1]:
                start_end_indices[-1][1] += 1
                continue
            start_end_indices.append([i, i])
            repeated_blocks.append(r)
        lines = []
        main_str = self._get_name() + '('
        for (start_id, end_id), b in zip(start_end_indices, repeated_blocks):
            local_repr = f'({start_id}): {b}'
            if start_id != end_id:
                n = end_id - start_id + 1
                local_repr = f'({start_id}-{end_id}): {n} x {b}'
            local_repr = _addindent(local_repr, 2)
            lines.append(local_repr)
        main_str += '\n  ' + '\n  '.join(lines) + '\n'
        main_str += ')'
        return main_str


class ModuleDict(Module):
    __module__ = 'torch.nn.modules.container'

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        delattr(self, key)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules))

    def __contains__(self, key):
        return key in self._modules

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def clear(self):
        for k in list(self._modules.keys()):
            del self[k]

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules):
        if isinstance(modules, (dict, OrderedDict, ModuleDict)):
            for key in modules.keys():
                self[key] = modules[key]
        else:
            for key, module in modules:
                self[key] = module
