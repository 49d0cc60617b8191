# torch.utils.data (torch/utils/data/dataset.py, sampler.py, dataloader.py, _utils/collate.py),
# single-process. Iterating a DataLoader draws from the global generator exactly as PyTorch
# does (a base seed per iterator, then, for shuffling, a seed for the sampler's own generator
# followed by randperm on it), so a seeded shuffled loader yields PyTorch's batches.
import math
import torch
import _cudalearn_nn as _N


class Dataset:
    __module__ = 'torch.utils.data.dataset'

    def __getitem__(self, index):
        raise NotImplementedError('Subclasses of Dataset should implement __getitem__.')


class TensorDataset(Dataset):
    __module__ = 'torch.utils.data.dataset'

    def __init__(self, *tensors):
        if not all(tensors[0].size(0) == tensor.size(0) for tensor in tensors):
            raise AssertionError('Size mismatch between tensors')
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class Subset(Dataset):
    __module__ = 'torch.utils.data.dataset'

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f'Fraction at index {i} is not between 0 and 1')
            subset_lengths.append(int(math.floor(len(dataset) * frac)))
        remainder = len(dataset) - sum(subset_lengths)
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
    if sum(lengths) != len(dataset):
        raise ValueError('Sum of input lengths does not equal the length of the input dataset!')
    indices = _N.randperm(sum(lengths), generator).tolist()
    out = []
    offset = 0
    for length in lengths:
        out.append(Subset(dataset, indices[offset:offset + length]))
        offset += length
    return out


class Sampler:
    __module__ = 'torch.utils.data.sampler'

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    __module__ = 'torch.utils.data.sampler'

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    __module__ = 'torch.utils.data.sampler'

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.num_samples = len(data_source) if num_samples is None else num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f'replacement should be a boolean value, but got replacement={self.replacement}')
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f'num_samples should be a positive integer value, but got num_samples={self.num_samples}')

    def __iter__(self):
        n = len(self.data_source)
        if self.generator is None:
            seed = _N.random_int64(None)
            generator = torch.Generator()
            generator.manual_seed(seed)
        else:
            generator = self.generator
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from torch.randint(high=n, size=(32,), dtype=torch.int64, generator=generator).tolist()
            yield from torch.randint(high=n, size=(self.num_samples % 32,), dtype=torch.int64, generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from _N.randperm(n, generator).tolist()
            yield from _N.randperm(n, generator).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    __module__ = 'torch.utils.data.sampler'

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in _N.randperm(len(self.indices), self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class BatchSampler(Sampler):
    __module__ = 'torch.utils.data.sampler'

    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f'batch_size should be a positive integer value, but got batch_size={batch_size}')
        if not isinstance(drop_last, bool):
            raise ValueError(f'drop_last should be a boolean value, but got drop_last={drop_last}')
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        batch = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size


def default_convert(data):
    if isinstance(data, (list, tuple)) and not isinstance(data, str):
        if isinstance(data, tuple):
            return [default_convert(d) for d in data]
        return [default_convert(d) for d in data]
    if isinstance(data, dict):
        return {key: default_convert(data[key]) for key in data}
    return data


def default_collate(batch):
    elem = batch[0]
    if isinstance(elem, torch.Tensor):
        return torch.stack(batch, 0)
    if isinstance(elem, float):
        return torch.tensor(batch, dtype=torch.float64)
    if isinstance(elem, int):
        return torch.tensor(batch)
    if isinstance(elem, str):
        return batch
    if isinstance(elem, dict):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, (tuple, list)):
        elem_size = len(elem)
        if not all(len(e) == elem_size for e in batch):
            raise RuntimeError('each element in list of batch should be of equal size')
        return [default_collate([e[i] for e in batch]) for i in range(elem_size)]
    raise TypeError(f'default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {type(elem)}')


def _pin(data):
    if isinstance(data, torch.Tensor):
        return data.pin_memory()
    if isinstance(data, list):
        return [_pin(d) for d in data]
    if isinstance(data, tuple):
        return tuple(_pin(d) for d in data)
    if isinstance(data, dict):
        return {k: _pin(v) for k, v in data.items()}
    return data


def _accelerator_available():
    cuda = getattr(torch, 'cuda', None)
    return cuda is not None and cuda.is_available()


class _SingleProcessDataLoaderIter:
    __module__ = 'torch.utils.data.dataloader'

    def __init__(self, loader):
        self._loader = loader
        if loader.pin_memory and not _accelerator_available():
            _N.warn_once("'pin_memory' argument is set as true but no accelerator is found, then device pinned memory won't be used.")
        self._pin_memory = loader.pin_memory and _accelerator_available()
        self._sampler_iter = None
        self._base_seed = _N.random_int64(loader.generator)

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._loader)

    def __next__(self):
        # Batches are drawn from the sampler one at a time, as they are asked for.
        if self._sampler_iter is None:
            self._sampler_iter = iter(self._loader._index_sampler)
        index = next(self._sampler_iter)
        data = self._loader._fetch(index)
        if self._pin_memory:
            data = _pin(data)
        return data


class DataLoader:
    __module__ = 'torch.utils.data.dataloader'

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None, multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False, pin_memory_device='', in_order=True):
        if num_workers < 0:
            raise ValueError('num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.')
        if timeout < 0:
            raise ValueError('timeout option should be non-negative')
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError('prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to None.')
        if persistent_workers and num_workers == 0:
            raise ValueError('persistent_workers option needs num_workers > 0')
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.persistent_workers = persistent_workers
        if sampler is not None and shuffle:
            raise ValueError('sampler option is mutually exclusive with shuffle')
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError('batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last')
            batch_size = None
            drop_last = False
        elif batch_size is None:
            if drop_last:
                raise ValueError('batch_size=None option disables auto-batching and is mutually exclusive with drop_last')
        if sampler is None:
            if shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        self._auto_collation = batch_sampler is not None
        self._index_sampler = batch_sampler if self._auto_collation else sampler
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        # TensorDataset + default collation: one gather per tensor instead of a stack of
        # per-sample views (the same values, dtype and shape).
        self._fast = type(dataset) is TensorDataset and collate_fn is default_collate

    def _fetch(self, index):
        if self._auto_collation:
            if self._fast:
                idx = torch.tensor(index, dtype=torch.int64)
                return [t[idx] for t in self.dataset.tensors]
            return self.collate_fn([self.dataset[i] for i in index])
        return self.collate_fn(self.dataset[index])

    def __iter__(self):
        return _SingleProcessDataLoaderIter(self)

    def __len__(self):
        return len(self._index_sampler)
