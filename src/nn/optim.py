# torch.optim (torch/optim/optimizer.py, sgd.py, adam.py, adamw.py). The per-parameter update
# of each step is one native call doing PyTorch's _single_tensor_* code op for op (see
# lang/modules/torch/optim.rs); the bookkeeping around it is PyTorch's.
import torch
import _cudalearn_nn as _N
import torch.optim.lr_scheduler as lr_scheduler


class _RequiredParameter:
    def __repr__(self):
        return '<required parameter>'


required = _RequiredParameter()


def _typename(v):
    if isinstance(v, torch.Tensor):
        return v.type()
    t = type(v)
    if t.__module__ == 'builtins':
        return t.__name__
    return t.__module__ + '.' + t.__name__


class Optimizer:
    __module__ = 'torch.optim.optimizer'

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, torch.Tensor):
            raise TypeError('params argument given to the optimizer should be an iterable of Tensors or dicts, but got ' + _typename(params))
        self.state = {}
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError('optimizer got an empty parameter list')
        if not isinstance(param_groups[0], dict):
            param_groups = [{'params': param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f'param_group must be a dict, but got {type(param_group)}')
        params = param_group['params']
        if isinstance(params, torch.Tensor):
            param_group['params'] = [params]
        elif isinstance(params, set):
            raise TypeError('optimizer parameters need to be organized in ordered collections, but the ordering of tensors in sets will change between runs. Please use a list instead.')
        else:
            param_group['params'] = list(params)
        tensors = []
        names = []
        for param in param_group['params']:
            if isinstance(param, tuple):
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group['params'] = tensors
        if len(names) != 0:
            if len(names) == len(tensors):
                param_group['param_names'] = names
            else:
                raise ValueError('all optimizer params should be with/without names. Some param names are missing')
        for param in param_group['params']:
            if not isinstance(param, torch.Tensor):
                raise TypeError('optimizer can only optimize Tensors, but one of the params is ' + _typename(param))
            if not self.defaults.get('differentiable', None) and not param.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            else:
                param_group.setdefault(name, default)
        seen = set()
        for group in self.param_groups:
            for p in group['params']:
                seen.add(id(p))
        for p in param_group['params']:
            if id(p) in seen:
                raise ValueError('some parameters appear in more than one parameter group')
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure=None):
        raise NotImplementedError

    def _closure_loss(self, closure):
        if closure is None:
            return None
        with torch.enable_grad():
            return closure()

    def state_dict(self):
        index = {}
        start = 0
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != 'params'}
            ids = []
            for p in group['params']:
                if id(p) not in index:
                    index[id(p)] = start
                    start += 1
                ids.append(index[id(p)])
            packed['params'] = ids
            groups.append(packed)
        state = {}
        for group in self.param_groups:
            for p in group['params']:
                if p in self.state:
                    state[index[id(p)]] = self.state[p]
        return {'state': state, 'param_groups': groups}

    def load_state_dict(self, state_dict):
        groups = self.param_groups
        saved = state_dict['param_groups']
        if len(groups) != len(saved):
            raise ValueError('loaded state dict has a different number of parameter groups')
        for g, s in zip(groups, saved):
            if len(g['params']) != len(s['params']):
                raise ValueError("loaded state dict contains a parameter group that doesn't match the size of optimizer's group")
        id_map = {}
        for g, s in zip(groups, saved):
            for i, p in zip(s['params'], g['params']):
                id_map[i] = p
        self.state = {}
        for k, v in state_dict['state'].items():
            if k in id_map:
                p = id_map[k]
                st = {}
                for name, val in v.items():
                    if isinstance(val, torch.Tensor) and name != 'step':
                        val = val.to(p.device, p.dtype).clone()
                    elif isinstance(val, torch.Tensor):
                        val = val.clone()
                    st[name] = val
                self.state[p] = st
        for g, s in zip(groups, saved):
            for k, v in s.items():
                if k != 'params':
                    g[k] = v

    def __repr__(self):
        format_string = self.__class__.__name__ + ' ('
        for i, group in enumerate(self.param_groups):
            format_string += '\n'
            format_string += f'Parameter Group {i}\n'
            for key in sorted(group.keys()):
                if key != 'params':
                    format_string += f'    {key}: {group[key]}\n'
        format_string += ')'
        return format_string


class SGD(Optimizer):
    __module__ = 'torch.optim.sgd'

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False, foreach=None, differentiable=False, fused=None):
        if lr < 0.0:
            raise ValueError(f'Invalid learning rate: {lr}')
        if momentum < 0.0:
            raise ValueError(f'Invalid momentum value: {momentum}')
        if weight_decay < 0.0:
            raise ValueError(f'Invalid weight_decay value: {weight_decay}')
        defaults = {'lr': lr, 'momentum': momentum, 'dampening': dampening, 'weight_decay': weight_decay, 'nesterov': nesterov, 'maximize': maximize, 'foreach': foreach, 'differentiable': differentiable, 'fused': fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError('Nesterov momentum requires a momentum and zero dampening')
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        state = self.state
        for group in self.param_groups:
            lr = group['lr']
            momentum = group['momentum']
            dampening = group['dampening']
            weight_decay = group['weight_decay']
            nesterov = group['nesterov']
            maximize = group['maximize']
            for p in group['params']:
                grad = p.grad
                if grad is None:
                    continue
                if momentum != 0:
                    st = state.get(p)
                    if st is None:
                        st = {}
                        state[p] = st
                    st['momentum_buffer'] = _N.sgd_step(p, grad, st.get('momentum_buffer'), lr, momentum, dampening, weight_decay, nesterov, maximize)
                else:
                    _N.sgd_step(p, grad, None, lr, 0, dampening, weight_decay, nesterov, maximize)
        return loss


class Adam(Optimizer):
    __module__ = 'torch.optim.adam'

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *, foreach=None, maximize=False, capturable=False, differentiable=False, fused=None, decoupled_weight_decay=False):
        if not 0.0 <= lr:
            raise ValueError(f'Invalid learning rate: {lr}')
        if not 0.0 <= eps:
            raise ValueError(f'Invalid epsilon value: {eps}')
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f'Invalid beta parameter at index 0: {betas[0]}')
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f'Invalid beta parameter at index 1: {betas[1]}')
        if not 0.0 <= weight_decay:
            raise ValueError(f'Invalid weight_decay value: {weight_decay}')
        if not (isinstance(betas[0], float) and isinstance(betas[1], float)):
            raise ValueError('betas must be either both floats or both Tensors')
        defaults = {'lr': lr, 'betas': tuple(betas), 'eps': eps, 'weight_decay': weight_decay, 'amsgrad': amsgrad, 'maximize': maximize, 'foreach': foreach, 'capturable': capturable, 'differentiable': differentiable, 'fused': fused, 'decoupled_weight_decay': decoupled_weight_decay}
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        state = self.state
        for group in self.param_groups:
            beta1, beta2 = group['betas']
            lr = group['lr']
            eps = group['eps']
            weight_decay = group['weight_decay']
            amsgrad = group['amsgrad']
            maximize = group['maximize']
            decoupled = group['decoupled_weight_decay']
            for p in group['params']:
                grad = p.grad
                if grad is None:
                    continue
                st = state.get(p)
                if st is None or len(st) == 0:
                    st = {}
                    state[p] = st
                    st['step'] = torch.tensor(0.0)
                    st['exp_avg'] = torch.zeros_like(p)
                    st['exp_avg_sq'] = torch.zeros_like(p)
                    if amsgrad:
                        st['max_exp_avg_sq'] = torch.zeros_like(p)
                _N.adam_step(p, grad, st['exp_avg'], st['exp_avg_sq'], st.get('max_exp_avg_sq') if amsgrad else None, st['step'], lr, beta1, beta2, eps, weight_decay, amsgrad, maximize, decoupled)
        return loss


class AdamW(Adam):
    __module__ = 'torch.optim.adamw'

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *, maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize, capturable=capturable, differentiable=differentiable, fused=fused, decoupled_weight_decay=True)
