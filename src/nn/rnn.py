# torch.nn RNN, LSTM and GRU (torch/nn/modules/rnn.py), one time step at a time with the same
# per-step formulas as PyTorch's CPU kernels: gates = linear(x_t, W_ih, b_ih) + linear(h, W_hh, b_hh).


class RNNBase(Module):
    __constants__ = ['mode', 'input_size', 'hidden_size', 'num_layers', 'bias', 'batch_first', 'dropout', 'bidirectional', 'proj_size']

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        if proj_size != 0:
            raise NotImplementedError('cudalearn does not implement LSTM(proj_size=) yet')
        if not isinstance(dropout, (int, float)) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError('dropout should be a number in range [0, 1] representing the probability of an element being zeroed')
        if hidden_size <= 0:
            raise ValueError('hidden_size must be greater than zero')
        if num_layers <= 0:
            raise ValueError('num_layers must be greater than zero')
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        gates = {'LSTM': 4, 'GRU': 3}.get(mode, 1)
        dirs = 2 if bidirectional else 1
        self._flat_weights_names = []
        for layer in range(num_layers):
            for d in range(dirs):
                in_size = input_size if layer == 0 else hidden_size * dirs
                suffix = '_reverse' if d == 1 else ''
                names = [f'weight_ih_l{layer}{suffix}', f'weight_hh_l{layer}{suffix}']
                shapes = [(gates * hidden_size, in_size), (gates * hidden_size, hidden_size)]
                if bias:
                    names += [f'bias_ih_l{layer}{suffix}', f'bias_hh_l{layer}{suffix}']
                    shapes += [(gates * hidden_size,), (gates * hidden_size,)]
                for n, s in zip(names, shapes):
                    setattr(self, n, Parameter(torch.empty(s, device=device, dtype=dtype)))
                self._flat_weights_names.extend(names)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self):
        s = '{input_size}, {hidden_size}'
        if self.num_layers != 1:
            s += ', num_layers={num_layers}'
        if self.bias is not True:
            s += ', bias={bias}'
        if self.batch_first is not False:
            s += ', batch_first={batch_first}'
        if self.dropout != 0:
            s += ', dropout={dropout}'
        if self.bidirectional is not False:
            s += ', bidirectional={bidirectional}'
        return s.format(**self.__dict__)

    def _weights(self, layer, d):
        suffix = '_reverse' if d == 1 else ''
        w_ih = getattr(self, f'weight_ih_l{layer}{suffix}')
        w_hh = getattr(self, f'weight_hh_l{layer}{suffix}')
        b_ih = getattr(self, f'bias_ih_l{layer}{suffix}') if self.bias else None
        b_hh = getattr(self, f'bias_hh_l{layer}{suffix}') if self.bias else None
        return w_ih, w_hh, b_ih, b_hh

    def _cell(self, x, state, w):
        raise NotImplementedError

    def forward(self, input, hx=None):
        is_lstm = self.mode == 'LSTM'
        batched = input.dim() == 3
        if input.dim() not in (2, 3):
            raise ValueError(f'{type(self).__name__}: Expected input to be 2D or 3D, got {input.dim()}D tensor instead')
        if not batched:
            input = input.unsqueeze(1)
        elif self.batch_first:
            input = input.transpose(0, 1)
        if input.size(-1) != self.input_size:
            raise RuntimeError(f'input.size(-1) must be equal to input_size. Expected {self.input_size}, got {input.size(-1)}')
        seq, batch = input.size(0), input.size(1)
        dirs = 2 if self.bidirectional else 1
        if hx is None:
            zeros = torch.zeros(self.num_layers * dirs, batch, self.hidden_size, dtype=input.dtype, device=input.device)
            hx = (zeros, zeros) if is_lstm else zeros
        elif not batched:
            hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1)) if is_lstm else hx.unsqueeze(1)
        h_n, c_n = [], []
        layer_input = input
        for layer in range(self.num_layers):
            outs = []
            for d in range(dirs):
                k = layer * dirs + d
                state = (hx[0][k], hx[1][k]) if is_lstm else hx[k]
                w = self._weights(layer, d)
                steps = range(seq - 1, -1, -1) if d == 1 else range(seq)
                ys = [None] * seq
                for t in steps:
                    state = self._cell(layer_input[t], state, w)
                    ys[t] = state[0] if is_lstm else state
                outs.append(torch.stack(ys, 0))
                if is_lstm:
                    h_n.append(state[0])
                    c_n.append(state[1])
                else:
                    h_n.append(state)
            layer_input = outs[0] if dirs == 1 else torch.cat(outs, 2)
            if self.dropout > 0 and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        output = layer_input
        h = torch.stack(h_n, 0)
        if not batched:
            output = output.squeeze(1)
            h = h.squeeze(1)
        elif self.batch_first:
            output = output.transpose(0, 1)
            if not is_lstm:
                _N.name_grad_fn(output, 'TransposeBackward1')
        if is_lstm:
            c = torch.stack(c_n, 0)
            if not batched:
                c = c.squeeze(1)
            return output, (h, c)
        return output, h


class RNN(RNNBase):
    __module__ = 'torch.nn.modules.rnn'

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True, batch_first=False, dropout=0.0, bidirectional=False, device=None, dtype=None):
        if nonlinearity not in ('tanh', 'relu'):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__('RNN_TANH' if nonlinearity == 'tanh' else 'RNN_RELU', input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional, 0, device, dtype)

    def _cell(self, x, h, w):
        w_ih, w_hh, b_ih, b_hh = w
        g = F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh)
        return torch.tanh(g) if self.nonlinearity == 'tanh' else torch.relu(g)


class LSTM(RNNBase):
    __module__ = 'torch.nn.modules.rnn'

    def __init__(self, *args, **kwargs):
        super().__init__('LSTM', *args, **kwargs)

    def _cell(self, x, state, w):
        h, c = state
        w_ih, w_hh, b_ih, b_hh = w
        gates = F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh)
        H = self.hidden_size
        i = torch.sigmoid(gates[:, 0:H])
        f = torch.sigmoid(gates[:, H:2 * H])
        g = torch.tanh(gates[:, 2 * H:3 * H])
        o = torch.sigmoid(gates[:, 3 * H:4 * H])
        c = f * c + i * g
        h = o * torch.tanh(c)
        return h, c


class GRU(RNNBase):
    __module__ = 'torch.nn.modules.rnn'

    def __init__(self, *args, **kwargs):
        super().__init__('GRU', *args, **kwargs)

    def _cell(self, x, h, w):
        w_ih, w_hh, b_ih, b_hh = w
        gi = F.linear(x, w_ih, b_ih)
        gh = F.linear(h, w_hh, b_hh)
        H = self.hidden_size
        r = torch.sigmoid(gi[:, 0:H] + gh[:, 0:H])
        z = torch.sigmoid(gi[:, H:2 * H] + gh[:, H:2 * H])
        n = torch.tanh(gi[:, 2 * H:3 * H] + r * gh[:, 2 * H:3 * H])
        return (1 - z) * n + z * h
