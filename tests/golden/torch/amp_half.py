# %% half_and_bfloat16_casts
import torch
torch.manual_seed(0)
x = torch.randn(2, 3)
h = x.half()
b = x.bfloat16()
print(h)
print(b)
print(h.dtype, b.dtype, h.element_size(), b.element_size(), h.nbytes)
print(x.to(torch.float16).dtype, x.to(dtype=torch.bfloat16).dtype, x.type(torch.float16).dtype)
print(h.float(), h.double().dtype)
print(h.half() is h, x.to(torch.float32) is x)

# %% half_range_and_precision
import torch
print(torch.tensor([65504.0, 65520.0, 70000.0, -1e5]).half())
print(torch.tensor([1e-8, 6e-8, 1e-4]).half())
print(torch.tensor([1e-8, 1e38, 3e38]).bfloat16())
print(torch.tensor([2049.0, 2051.0, 0.1]).half())
print(torch.tensor([257.0, 0.1]).bfloat16())
print(torch.finfo(torch.float16).max if hasattr(torch, 'finfo') else 65504.0)

# %% half_arithmetic
import torch
h = torch.tensor([1.5, 2.25, -3.0], dtype=torch.float16)
print(h + h, h * 2, h / 3, h - 1)
print(h + torch.tensor([1.0, 1.0, 1.0]))
print((h + torch.tensor(1.0)).dtype, (h + 1.0).dtype, (h + torch.tensor([1.0])).dtype)
print(h.bfloat16() + h)
print(h.exp(), h.sqrt(), h.relu(), h.sigmoid())
print(h.abs().max(), h.argmax(), h.min())

# %% half_reductions_accumulate_in_float
import torch
print(torch.ones(5000, dtype=torch.float16).sum())
print((torch.ones(5000, dtype=torch.float16) * 0.1).sum())
print((torch.ones(5000, dtype=torch.bfloat16) * 0.1).sum())
print(torch.full((3000,), 0.1, dtype=torch.float16).mean())
print(torch.full((70000,), 1.0, dtype=torch.float16).sum())
print(torch.ones(4, 3, dtype=torch.bfloat16).sum(0), torch.ones(4, 3, dtype=torch.float16).sum(1, dtype=torch.float32))

# %% half_matmul_cpu
import torch
torch.manual_seed(0)
a = torch.randn(4, 5)
b = torch.randn(5, 3)
print(a.half() @ b.half())
print(a.bfloat16() @ b.bfloat16())
print(torch.mm(a.half(), b.half()).dtype, torch.bmm(a.half()[None], b.half()[None]).shape)

# %% half_matmul_long_inner
import torch
torch.manual_seed(0)
a = torch.randn(2, 300)
b = torch.randn(300, 2)
print(a.half() @ b.half())
print(a.bfloat16() @ b.bfloat16())

# %% half_softmax
import torch
torch.manual_seed(0)
x = torch.randn(2, 5).half()
print(x.softmax(1))
print(x.softmax(1, dtype=torch.float32))

# %% half_mixed_matmul_error
import torch
torch.ones(2, 2).half() @ torch.ones(2, 2)

# %% half_tolist_item
import torch
h = torch.tensor([0.1, 1 / 3], dtype=torch.float16)
print(h.tolist(), h[0].item(), float(h[1]))
b = torch.tensor([0.1, 1 / 3], dtype=torch.bfloat16)
print(b.tolist())

# %% half_printing
import torch
print(torch.tensor(3.14159, dtype=torch.float16))
print(torch.tensor([1e-5, 1.0, 1000.0], dtype=torch.float16))
print(torch.tensor([[1, 2], [3, 4]], dtype=torch.bfloat16))
print(torch.zeros(2, dtype=torch.float16), torch.ones(1, dtype=torch.bfloat16))
print(torch.arange(3, dtype=torch.float16))
