# %% randn_1
import torch
torch.manual_seed(0)
print(torch.randn(1))
# %% randn_5
import torch
torch.manual_seed(0)
print(torch.randn(5))
# %% randn_15
import torch
torch.manual_seed(0)
print(torch.randn(15))
# %% randn_16
import torch
torch.manual_seed(0)
print(torch.randn(16))
# %% randn_17
import torch
torch.manual_seed(0)
print(torch.randn(17))
# %% randn_2x3_seed42
import torch
torch.manual_seed(42)
print(torch.randn(2, 3))
# %% randn_100_stats
import torch
torch.manual_seed(1)
x = torch.randn(100)
print(x[:4], x[-4:])
print(x.sum().item(), x.mean())
# %% randn_1000_summary
import torch
torch.manual_seed(0)
x = torch.randn(1000)
print(x[::100])
print(x.max(), x.min(), x.argmax())
# %% randn_1000_tail
import torch
torch.manual_seed(3)
x = torch.randn(10, 100)
print(x[9, 90:])
# %% randn_sequence
import torch
torch.manual_seed(0)
a = torch.randn(3)
b = torch.randn(2, 2)
c = torch.randn(20)
print(a)
print(b)
print(c[-3:])
# %% randn_after_small_then_big
import torch
torch.manual_seed(7)
a = torch.randn(4)
b = torch.randn(40)
print(a)
print(b[:5], b[-2:])
# %% randn_float64
import torch
torch.manual_seed(0)
print(torch.randn(3, dtype=torch.float64))
# %% randn_float64_big
import torch
torch.manual_seed(0)
print(torch.randn(20, dtype=torch.float64)[-3:])
# %% reseed_repeats
import torch
torch.manual_seed(5)
a = torch.randn(4)
torch.manual_seed(5)
b = torch.randn(4)
print(torch.equal(a, b))
# %% rand_basic
import torch
torch.manual_seed(0)
print(torch.rand(2, 3))
# %% rand_big
import torch
torch.manual_seed(0)
x = torch.rand(500)
print(x[:3], x[-3:])
# %% rand_float64
import torch
torch.manual_seed(0)
print(torch.rand(4, dtype=torch.float64))
# %% randint_basic
import torch
torch.manual_seed(0)
print(torch.randint(0, 10, (3, 4)))
# %% randint_high_only
import torch
torch.manual_seed(0)
print(torch.randint(5, (6,)))
# %% randint_negative
import torch
torch.manual_seed(1)
print(torch.randint(-5, 5, (8,)))
# %% randint_dtype
import torch
torch.manual_seed(0)
print(torch.randint(0, 3, (5,), dtype=torch.int32))
# %% randperm_10
import torch
torch.manual_seed(0)
print(torch.randperm(10))
# %% randperm_5
import torch
torch.manual_seed(2)
print(torch.randperm(5))
# %% randn_like
import torch
torch.manual_seed(0)
x = torch.zeros(2, 2)
print(torch.randn_like(x))
# %% rand_like
import torch
torch.manual_seed(0)
x = torch.zeros(3, dtype=torch.float64)
print(torch.rand_like(x))
# %% mixed_sequence
import torch
torch.manual_seed(0)
a = torch.rand(2)
b = torch.randn(2)
c = torch.randint(0, 100, (3,))
d = torch.randperm(4)
print(a, b, c, d)
# %% randn_odd_sizes
import torch
torch.manual_seed(0)
for n in (1, 7, 15, 16, 31, 33):
    print(n, torch.randn(n)[-1].item())
# %% randn_size_tuple
import torch
torch.manual_seed(10)
print(torch.randn((2, 2)))
print(torch.randn([3]))
# %% initial_seed
import torch
torch.manual_seed(123)
print(torch.initial_seed())
# %% randn_requires_grad
import torch
torch.manual_seed(0)
print(torch.randn(2, requires_grad=True))
# %% manual_seed_returns
import torch
g = torch.manual_seed(0)
print(type(g).__name__)
