# torch.utils.data.DistributedSampler (torch/utils/data/distributed.py): each rank takes every
# num_replicas-th index of one common order. The order is the same on every rank because each
# draws it from its own generator seeded with seed + epoch (torch.randperm, bit-exact with
# PyTorch's); the list is padded with its own start (or cut, with drop_last) to a multiple of
# num_replicas, so every rank gets the same number of samples.
import math
import torch
import torch.distributed as _dist


class DistributedSampler(Sampler):
    __module__ = 'torch.utils.data.distributed'

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0, drop_last=False):
        if num_replicas is None:
            num_replicas = _dist.get_world_size()
        if rank is None:
            rank = _dist.get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(f'Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]')
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        n = len(dataset)
        if drop_last and n % num_replicas != 0:
            # the largest equal share without repeating a sample
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(n / num_replicas)
        self.total_size = self.num_samples * num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self):
        n = len(self.dataset)
        if self.shuffle:
            g = torch.Generator()
            g.manual_seed(self.seed + self.epoch)
            order = torch.randperm(n, generator=g).tolist()
        else:
            order = list(range(n))
        if self.drop_last:
            order = order[:self.total_size]
        else:
            missing = self.total_size - len(order)
            if missing <= len(order):
                order += order[:missing]
            else:
                order += (order * math.ceil(missing / len(order)))[:missing]
        assert len(order) == self.total_size
        mine = order[self.rank:self.total_size:self.num_replicas]
        assert len(mine) == self.num_samples
        return iter(mine)

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        self.epoch = epoch
