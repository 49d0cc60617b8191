# %% clamp
from tensor_show import *
x = torch.tensor([-2.0, -0.5, 0.0, 0.7, 3.0, float('nan')])
show(x.clamp(-1, 1)); show(x.clamp(min=0)); show(x.clamp(max=0.5)); show(torch.tensor([1, 2, 3]).clamp(min=1.5)); show(torch.tensor([1, 5, 9]).clamp(2, 6)); show(x.clamp(2, 1))
# %% clamp_none
import torch
torch.tensor([1.0]).clamp()
# %% int_dtypes
from tensor_show import *
a = torch.tensor([100, -100, 7], dtype=torch.int32); b = torch.tensor([3, 3, -2], dtype=torch.int8); c = torch.tensor([200, 10, 255], dtype=torch.uint8)
show(a + b); show(a * b); show(a // b); show(a % b); show(b * b * b); show(c + c); show(c - 201); show(c // 7); show(c * torch.tensor([True, False, True])); show(a.to(torch.int8)); show(-c)
show(a & b); show(c | 1); show(~c); show(~torch.tensor([True, False])); show(torch.tensor([5, -5]) >> 1 if False else a.abs())
# %% isclose_nonzero
from tensor_show import *
a = torch.tensor([1.0, 2.0, float('inf'), float('nan'), 1e-9]); b = torch.tensor([1.0 + 1e-6, 2.1, float('inf'), float('nan'), 0.0])
show(torch.isclose(a, b)); show(torch.isclose(a, b, equal_nan=True)); show(torch.isclose(a, b, rtol=0.1)); show(torch.nonzero(torch.tensor([[0, 1], [2, 0]]))); show(torch.nonzero(torch.tensor([0.0, 3.0])))
# %% mixed_scalar_ops
from tensor_show import *
h = torch.tensor([1.0, 2.0], dtype=torch.half)
show(h + 0.1); show(h / 3); show(h - 1e-4); show(torch.tensor([1, 2], dtype=torch.int32) * 0.5); show(torch.tensor([1, 2], dtype=torch.int8) + torch.tensor(1000)); show(torch.tensor(2.5) * torch.tensor([1, 2]))
show(torch.tensor([3.0]) ** torch.tensor([2])); show(torch.tensor([2], dtype=torch.int32) ** torch.tensor([3], dtype=torch.int64)); show(torch.tensor([1.0, 2.0]) == torch.tensor([1, 3]))
# %% views_and_inplace
from tensor_show import *
x = torch.zeros(3, 4); row = x[1]; col = x[:, 2]; blk = x[1:, 1:3]; flat = x.view(-1); tt = x.t()
row += 1; col.fill_(5); blk *= 2; flat[0] = 9; tt[3, 0] = -1
show(x); show(row); show(col); show(blk); show(tt)
y = torch.arange(6.).view(2, 3); z = y.unsqueeze(0).expand(2, 2, 3); y[0, 0] = 100; show(z)
w = torch.arange(4.); w2 = w.view(2, 2); w2.t().mul_(torch.tensor([1., 10.])); show(w)
# %% reductions_more
from tensor_show import *
x = torch.arange(24.).view(2, 3, 4) * 1.5 - 7
show(x.sum((1, 2))); show(x.mean((0, 2), keepdim=True)); show(x.amax((0, 1))); show(x.max(dim=-1).values); show(x.max(dim=-1).indices); show(x.min(1).indices)
show(x.prod(0)); show(x.t() if x.ndim == 2 else x.transpose(0, 2).sum(0)); show(x.argmin(2)); show(x.log_softmax(-1)[0]); show(x.softmax(0)[1])
show(torch.tensor([[True, False], [True, True]]).all(1)); show(torch.tensor([[True, False], [True, True]]).any(0)); show(torch.tensor([3, 1, 2], dtype=torch.int32).sum()); show(torch.tensor([3, 1, 2], dtype=torch.uint8).max())
# %% cat_more
from tensor_show import *
a = torch.arange(4.).view(2, 2)
show(torch.cat([a, a.t(), a[:, :1].expand(2, 2)], 1)); show(torch.cat((a, torch.tensor([[True, False]])))); show(torch.stack([a[0], a[1], a[:, 0]])); show(torch.cat([a.half(), a.bfloat16()]))
# %% result_layouts
from tensor_show import *
x = torch.arange(6.).view(2, 3); t = x.t(); p = torch.arange(24.).view(2, 3, 4).permute(2, 0, 1)
lay(t + 1); lay(t * t); lay(t + torch.ones(3, 2)); lay(torch.ones(3, 2) + t); lay(t.exp()); lay(t > 2); lay(t.to(torch.float64)); lay(t.contiguous()); lay(t.clone())
lay(p * 2); lay(p + torch.ones(4, 1, 1)); lay(torch.where(t > 1, t, 0.0)); lay(t[::2] * 1); lay(t.neg()); lay(t.to(torch.int32)); lay(-t[:, :1].expand(3, 4))
lay(t.sum(0)); lay(t @ x); show(t + 1); show(p * 2 - 1)
