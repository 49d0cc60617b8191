# %% tensor_dataset_basics
import torch
from torch.utils.data import TensorDataset
X = torch.arange(10.).reshape(5, 2)
y = torch.arange(5)
ds = TensorDataset(X, y)
print(len(ds))
print(ds[0])
print(ds[4][1], type(ds[2]).__name__, len(ds.tensors))

# %% tensor_dataset_size_mismatch
import torch
from torch.utils.data import TensorDataset
TensorDataset(torch.zeros(3, 2), torch.zeros(4))

# %% loader_sequential_batches
import torch
from torch.utils.data import TensorDataset, DataLoader
X = torch.arange(14.).reshape(7, 2)
y = torch.arange(7)
loader = DataLoader(TensorDataset(X, y), batch_size=3)
print(len(loader))
for xb, yb in loader:
    print(xb.shape, yb)

# %% loader_batch_type
import torch
from torch.utils.data import TensorDataset, DataLoader
loader = DataLoader(TensorDataset(torch.ones(4, 2), torch.zeros(4)), batch_size=2)
batch = next(iter(loader))
print(type(batch).__name__, len(batch), batch[0].dtype, batch[1].dtype)

# %% loader_drop_last
import torch
from torch.utils.data import TensorDataset, DataLoader
ds = TensorDataset(torch.arange(10))
print(len(DataLoader(ds, batch_size=4)), len(DataLoader(ds, batch_size=4, drop_last=True)))
for (b,) in DataLoader(ds, batch_size=4, drop_last=True):
    print(b)

# %% loader_shuffle_seeded
import torch
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(0)
ds = TensorDataset(torch.arange(10), torch.arange(10) * 10)
loader = DataLoader(ds, batch_size=4, shuffle=True)
for epoch in range(2):
    for xb, yb in loader:
        print(epoch, xb.tolist(), yb.tolist())

# %% loader_shuffle_then_randn
import torch
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(1)
loader = DataLoader(TensorDataset(torch.arange(6)), batch_size=6, shuffle=True)
print(next(iter(loader))[0])
print(torch.randn(3))

# %% loader_sequential_consumes_rng
import torch
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.arange(4)), batch_size=2)
for (b,) in loader:
    pass
print(torch.rand(2))

# %% loader_generator
import torch
from torch.utils.data import TensorDataset, DataLoader
g = torch.Generator()
g.manual_seed(123)
loader = DataLoader(TensorDataset(torch.arange(8)), batch_size=3, shuffle=True, generator=g)
print([b[0].tolist() for b in loader])
print([b[0].tolist() for b in loader])

# %% loader_seed_large_dataset
import torch
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(42)
X = torch.randn(1024, 16)
y = torch.randn(1024, 1)
loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)
print(len(loader))
xb, yb = next(iter(loader))
print(xb.shape, yb.shape)
print(xb[0, :4], yb[:3, 0])

# %% collate_numbers
import torch
from torch.utils.data import DataLoader
class Squares:
    def __len__(self):
        return 5
    def __getitem__(self, i):
        return i, float(i * i)
for a, b in DataLoader(Squares(), batch_size=2):
    print(a, b)

# %% collate_dicts
import torch
from torch.utils.data import DataLoader, Dataset
class D(Dataset):
    def __len__(self):
        return 4
    def __getitem__(self, i):
        return {'x': torch.full((2,), float(i)), 'label': i % 2}
for batch in DataLoader(D(), batch_size=3):
    print(sorted(batch.keys()), batch['x'], batch['label'])

# %% collate_lists
import torch
from torch.utils.data import DataLoader
data = [[torch.tensor(1.0), 2], [torch.tensor(3.0), 4]]
print(next(iter(DataLoader(data, batch_size=2))))

# %% default_collate_direct
import torch
from torch.utils.data import default_collate
print(default_collate([(torch.tensor([1, 2]), 0), (torch.tensor([3, 4]), 1)]))
print(default_collate([1.5, 2.5]))

# %% custom_collate_fn
import torch
from torch.utils.data import DataLoader
def collate(batch):
    return sum(batch)
print(list(DataLoader([1, 2, 3, 4, 5], batch_size=2, collate_fn=collate)))

# %% batch_size_none
import torch
from torch.utils.data import TensorDataset, DataLoader
loader = DataLoader(TensorDataset(torch.arange(3)), batch_size=None)
print(len(loader), [x for x in loader])

# %% loader_errors
import torch
from torch.utils.data import TensorDataset, DataLoader
DataLoader(TensorDataset(torch.arange(3)), batch_size=0)

# %% loader_sampler_shuffle_conflict
import torch
from torch.utils.data import TensorDataset, DataLoader, SequentialSampler
ds = TensorDataset(torch.arange(3))
DataLoader(ds, sampler=SequentialSampler(ds), shuffle=True)

# %% loader_num_workers_pin_memory
import torch
from torch.utils.data import TensorDataset, DataLoader
ds = TensorDataset(torch.arange(8.).reshape(4, 2), torch.arange(4))
loader = DataLoader(ds, batch_size=2, shuffle=False, num_workers=2, pin_memory=True)
for xb, yb in loader:
    print(xb, yb, xb.is_pinned())

# %% loader_attributes
import torch
from torch.utils.data import TensorDataset, DataLoader, RandomSampler, SequentialSampler
ds = TensorDataset(torch.arange(5))
a = DataLoader(ds, batch_size=2, shuffle=True)
b = DataLoader(ds)
print(a.batch_size, a.drop_last, type(a.sampler).__name__, type(b.sampler).__name__, a.dataset is ds)
print(len(b), b.num_workers)

# %% random_split_lengths
import torch
from torch.utils.data import TensorDataset, random_split
torch.manual_seed(0)
ds = TensorDataset(torch.arange(10))
train, test = random_split(ds, [7, 3])
print(len(train), len(test))
print([train[i][0].item() for i in range(len(train))])
print(test.indices)

# %% random_split_fractions
import torch
from torch.utils.data import TensorDataset, random_split
torch.manual_seed(3)
parts = random_split(TensorDataset(torch.arange(11)), [0.5, 0.3, 0.2])
print([len(p) for p in parts])
print([p.indices for p in parts])

# %% random_sampler_direct
import torch
from torch.utils.data import RandomSampler
torch.manual_seed(5)
print(list(RandomSampler(range(7))))
print(list(RandomSampler(range(7))))

# %% digits_loader
import torch
from torch.utils.data import TensorDataset, DataLoader
from cudalearn.datasets import load_digits
X, y = load_digits()
print(X.shape, X.dtype, y.shape, y.dtype)
print(X.min().item(), X.max().item(), y[:10])
torch.manual_seed(0)
loader = DataLoader(TensorDataset(X / 16, y), batch_size=64, shuffle=True)
print(len(loader))
xb, yb = next(iter(loader))
print(xb.shape, yb[:10])

# %% tensor_random_int64
import torch
torch.manual_seed(0)
print(torch.empty((), dtype=torch.int64).random_())
print(torch.empty(3, dtype=torch.int64).random_(10))
print(torch.empty(3).random_(5, 9))
g = torch.Generator().manual_seed(7)
print(torch.randperm(6, generator=g))

# %% loader_types
import torch
from torch.utils.data import DataLoader, TensorDataset
loader = DataLoader(TensorDataset(torch.zeros(2)))
print(type(loader))
print(str(loader)[:45])
it = iter(loader)
print(type(it).__name__, len(it))
print(next(it), next(it))
next(it)
