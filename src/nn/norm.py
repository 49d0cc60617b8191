# torch.nn BatchNorm1d/2d (torch/nn/modules/batchnorm.py), Embedding (sparse.py) and
# Dropout2d (dropout.py), written with tensor ops. Batch statistics use the biased variance
# for normalising and the unbiased one for the running estimate, as PyTorch does.


class _BatchNorm(Module):
    __constants__ = ['track_running_stats', 'momentum', 'eps', 'num_features', 'affine']

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, bias=True, track_running_stats=True, device=None, dtype=None):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.use_bias = bias
        self.track_running_stats = track_running_stats
        if self.affine:
            self.weight = Parameter(torch.empty(num_features, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(torch.empty(num_features, device=device, dtype=dtype))
            else:
                self.register_parameter('bias', None)
        else:
            self.register_parameter('weight', None)
            self.register_parameter('bias', None)
        if self.track_running_stats:
            self.register_buffer('running_mean', torch.zeros(num_features, device=device, dtype=dtype))
            self.register_buffer('running_var', torch.ones(num_features, device=device, dtype=dtype))
            self.register_buffer('num_batches_tracked', torch.tensor(0, dtype=torch.long, device=device))
        else:
            self.register_buffer('running_mean', None)
            self.register_buffer('running_var', None)
            self.register_buffer('num_batches_tracked', None)
        self.reset_parameters()

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input):
        raise NotImplementedError

    def extra_repr(self):
        return f'{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, bias={self.bias is not None}, track_running_stats={self.track_running_stats}'

    def forward(self, input):
        self._check_input_dim(input)
        dims = [0] + list(range(2, input.dim()))
        shape = [1, self.num_features] + [1] * (input.dim() - 2)
        use_batch = self.training or not self.track_running_stats
        if use_batch:
            n = input.numel() // input.size(1)
            if n <= 1:
                raise ValueError(f'Expected more than 1 value per channel when training, got input size {input.size()}')
            mean = input.mean(dims)
            var = input.var(dims, unbiased=False)
            if self.training and self.track_running_stats:
                with torch.no_grad():
                    self.num_batches_tracked.add_(1)
                    if self.momentum is None:
                        m = 1.0 / float(self.num_batches_tracked)
                    else:
                        m = self.momentum
                    self.running_mean.mul_(1 - m).add_(mean.detach() * m)
                    self.running_var.mul_(1 - m).add_(var.detach() * (m * n / (n - 1)))
        else:
            mean = self.running_mean
            var = self.running_var
        y = (input - mean.reshape(shape)) / torch.sqrt(var.reshape(shape) + self.eps)
        if self.affine:
            y = y * self.weight.reshape(shape)
            if self.bias is not None:
                y = y + self.bias.reshape(shape)
        _N.name_grad_fn(y, 'NativeBatchNormBackward0')
        return y


class BatchNorm1d(_BatchNorm):
    __module__ = 'torch.nn.modules.batchnorm'

    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f'expected 2D or 3D input (got {input.dim()}D input)')


class BatchNorm2d(_BatchNorm):
    __module__ = 'torch.nn.modules.batchnorm'

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f'expected 4D input (got {input.dim()}D input)')


class Embedding(Module):
    __module__ = 'torch.nn.modules.sparse'
    __constants__ = ['num_embeddings', 'embedding_dim', 'padding_idx', 'max_norm', 'norm_type', 'scale_grad_by_freq', 'sparse']

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None):
        super().__init__()
        if max_norm is not None or scale_grad_by_freq or sparse:
            raise NotImplementedError('cudalearn does not implement Embedding(max_norm=, scale_grad_by_freq=, sparse=) yet')
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if padding_idx > 0:
                assert padding_idx < self.num_embeddings, 'Padding_idx must be within num_embeddings'
            elif padding_idx < 0:
                assert padding_idx >= -self.num_embeddings, 'Padding_idx must be within num_embeddings'
                padding_idx = self.num_embeddings + padding_idx
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.sparse = sparse
        if _weight is None:
            self.weight = Parameter(torch.empty((num_embeddings, embedding_dim), device=device, dtype=dtype), requires_grad=not _freeze)
            self.reset_parameters()
        else:
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self):
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with torch.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx)

    def extra_repr(self):
        s = '{num_embeddings}, {embedding_dim}'
        if self.padding_idx is not None:
            s += ', padding_idx={padding_idx}'
        return s.format(**self.__dict__)

    # PyTorch's classmethod; a plain function reached through the class works the same here
    def from_pretrained(embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
        assert embeddings.dim() == 2, 'Embeddings parameter is expected to be 2-dimensional'
        rows, cols = embeddings.shape
        return Embedding(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, _freeze=freeze, padding_idx=padding_idx, max_norm=max_norm, norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


class Dropout2d(_DropoutNd):
    __module__ = 'torch.nn.modules.dropout'

    def forward(self, input):
        if not self.training or self.p == 0:
            return input
        if input.dim() not in (3, 4):
            raise RuntimeError(f'dropout2d: Expected 3D or 4D input, got {input.dim()}D')
        # one draw per channel (PyTorch's feature dropout: bernoulli_ on an (N, C, 1, 1) tensor)
        shape = tuple(input.shape[:-2]) + (1, 1)
        noise = F.dropout(torch.ones(shape, dtype=input.dtype, device=input.device), self.p, True)
        return input * noise
