# %% matmul_family_bf16
import torch
torch.manual_seed(0)
a = torch.randn(3, 4)
b = torch.randn(4, 2)
with torch.autocast('cpu'):
    print((a @ b).dtype, torch.matmul(a, b).dtype, a.matmul(b).dtype)
    print(torch.mm(a, b).dtype, a.mm(b).dtype)
    print(torch.bmm(a[None], b[None]).dtype, a[None].bmm(b[None]).dtype)
    print(torch.mv(a, b[:, 0]).dtype, torch.dot(a[0], a[1]).dtype)
print(a.dtype, b.dtype)

# %% matmul_values_bf16
import torch
torch.manual_seed(0)
a = torch.randn(3, 4)
b = torch.randn(4, 2)
with torch.autocast(device_type='cpu'):
    c = a @ b
print(c)
print(a.bfloat16() @ b.bfloat16())

# %% fp32_and_untouched_ops_bf16
import torch
torch.manual_seed(0)
x = torch.randn(2, 3).bfloat16()
with torch.autocast('cpu'):
    print(x.exp().dtype, x.log().dtype, x.pow(2).dtype, (x ** 2).dtype, (2 ** x).dtype)
    print(x.sum().dtype, x.mean().dtype, x.softmax(1).dtype, x.log_softmax(1).dtype)
    print(x.prod().dtype, x.prod(1).dtype, torch.prod(x).dtype)
    print(x.relu().dtype, x.sigmoid().dtype, x.tanh().dtype, x.abs().dtype, x.sqrt().dtype)
    print((x + 1).dtype, (x * x).dtype, (x + torch.ones(3)).dtype)
    print(torch.where(x > 0, x, torch.zeros(2, 3)).dtype)

# %% promote_cat_stack
import torch
x = torch.ones(2, 2, dtype=torch.bfloat16)
y = torch.ones(2, 2)
d = torch.ones(2, 2, dtype=torch.float64)
i = torch.ones(2, 2, dtype=torch.int64)
with torch.autocast('cpu'):
    print(torch.cat([x, y]).dtype, torch.stack([x, y]).dtype, torch.cat([x, x]).dtype)
    print(torch.cat([x, d]).dtype, torch.cat([x, i]).dtype, torch.stack([i, i]).dtype)
print(torch.cat([x, d]).dtype)

# %% promote_mixed_half_error
import torch
x = torch.ones(2, dtype=torch.bfloat16)
h = torch.ones(2, dtype=torch.float16)
with torch.autocast('cpu'):
    torch.cat([x, h])

# %% integer_and_double_untouched
import torch
i = torch.arange(6).reshape(2, 3)
d = torch.ones(3, 2, dtype=torch.float64)
with torch.autocast('cpu'):
    print((i @ i.T).dtype, i.sum().dtype, i.exp().dtype)
    print((d.T @ d).dtype, d.sum().dtype)
    print(torch.mm(d, d.T).dtype)

# %% float16_on_cpu
import torch
torch.manual_seed(0)
a = torch.randn(3, 4)
b = torch.randn(4, 2)
with torch.autocast('cpu', dtype=torch.float16):
    c = a @ b
    print(c.dtype, torch.get_autocast_dtype('cpu'))
    print(c)
    print(torch.cat([c, a[:, :2]]).dtype, torch.cat([c, c]).dtype)
print(torch.get_autocast_dtype('cpu'))

# %% nesting_and_disable
import torch
a = torch.ones(2, 2)
print(torch.is_autocast_enabled('cpu'))
with torch.autocast('cpu'):
    print(torch.is_autocast_enabled('cpu'), (a @ a).dtype)
    with torch.autocast('cpu', enabled=False):
        print(torch.is_autocast_enabled('cpu'), (a @ a).dtype)
        with torch.autocast('cpu', dtype=torch.float16):
            print(torch.is_autocast_enabled('cpu'), (a @ a).dtype)
        print(torch.is_autocast_enabled('cpu'), torch.get_autocast_dtype('cpu'))
    print(torch.is_autocast_enabled('cpu'), (a @ a).dtype)
print(torch.is_autocast_enabled('cpu'), (a @ a).dtype)

# %% exception_restores_state
import torch
a = torch.ones(2, 2)
try:
    with torch.autocast('cpu'):
        print(torch.is_autocast_enabled('cpu'))
        raise ValueError('boom')
except ValueError as e:
    print('caught', e)
print(torch.is_autocast_enabled('cpu'), (a @ a).dtype)

# %% reuse_instance
import torch
a = torch.ones(2, 2)
ac = torch.autocast('cpu')
with ac:
    print((a @ a).dtype)
print((a @ a).dtype)
with ac:
    print((a @ a).dtype)
print(ac.__enter__() is ac, torch.is_autocast_enabled('cpu'))
print(ac.__exit__(None, None, None), torch.is_autocast_enabled('cpu'))

# %% decorator
import torch
@torch.autocast('cpu')
def f(x, y):
    return x @ y
a = torch.ones(2, 2)
print(f(a, a).dtype, f.__name__, (a @ a).dtype)
print(torch.is_autocast_enabled('cpu'))

# %% decorator_on_method
import torch
class Net:
    def __init__(self):
        self.w = torch.ones(3, 3)
    @torch.autocast(device_type='cpu', dtype=torch.float16)
    def forward(self, x):
        return x @ self.w
n = Net()
print(n.forward(torch.ones(2, 3)).dtype)

# %% state_functions
import torch
print(torch.is_autocast_enabled(), torch.is_autocast_enabled('cpu'), torch.is_autocast_enabled('cuda'))
print(torch.get_autocast_dtype('cpu'), torch.get_autocast_dtype('cuda'))
print(torch.is_autocast_cache_enabled())
with torch.autocast('cpu', cache_enabled=False):
    print(torch.is_autocast_cache_enabled())
print(torch.is_autocast_cache_enabled())
print(torch.amp.is_autocast_available('cpu'), torch.amp.is_autocast_available('cuda'))

# %% autocast_object
import torch
ac = torch.autocast('cpu', dtype=torch.float16)
print(type(ac).__name__, ac.fast_dtype, ac.device, ac._enabled)
print(torch.autocast, torch.amp.autocast is torch.autocast)
print(torch.cpu.amp.autocast)
print(torch.autocast('cpu').fast_dtype)

# %% unsupported_dtype_disables
import torch
a = torch.ones(2, 2)
with torch.autocast('cpu', dtype=torch.float32):
    print(torch.is_autocast_enabled('cpu'), (a @ a).dtype)
with torch.autocast('cpu', dtype=torch.float64):
    print(torch.is_autocast_enabled('cpu'))

# %% cuda_autocast_without_cuda
import torch
a = torch.ones(2, 2)
with torch.autocast('cuda'):
    print(torch.is_autocast_enabled('cuda'), (a @ a).dtype)
ac = torch.autocast('cuda')
print(ac._enabled, ac.fast_dtype)

# %% cpu_region_ignores_other_devices_state
import torch
a = torch.ones(2, 2)
with torch.autocast('cpu'):
    print(torch.is_autocast_enabled('cuda'), torch.get_autocast_dtype('cuda'))

# %% deprecated_cpu_amp_autocast
import torch
a = torch.ones(2, 2)
with torch.cpu.amp.autocast():
    print((a @ a).dtype)
with torch.cpu.amp.autocast(dtype=torch.float16):
    print((a @ a).dtype)
with torch.cpu.amp.autocast(enabled=False):
    print((a @ a).dtype)

# %% bad_device_type
import torch
torch.autocast(1)

# %% unknown_device_type
import torch
torch.autocast('foo')

# %% decorator_needs_callable
import torch
torch.autocast('cpu')(3)

# %% outputs_leave_region_as_bf16
import torch
a = torch.ones(2, 2)
with torch.autocast('cpu'):
    h = a @ a
y = h + a
print(h.dtype, y.dtype, (h.float() @ a).dtype)

# %% set_autocast_enabled_directly
import torch
a = torch.ones(2, 2)
torch.set_autocast_enabled('cpu', True)
print((a @ a).dtype)
torch.set_autocast_dtype('cpu', torch.float16)
print((a @ a).dtype)
torch.set_autocast_enabled('cpu', False)
print((a @ a).dtype, torch.get_autocast_dtype('cpu'))
