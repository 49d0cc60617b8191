# CUDA autocast reaches an op the same way by every path (method, torch function, operator,
# nn.functional, nn module): tests/sim_gpu.rs checks the dtypes PyTorch 2.15's CUDA lists give.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, device='cuda')
h = x.half()
w = torch.randn(4, 3, device='cuda')
with torch.autocast('cuda'):
    print('lin', (x @ x.t()).dtype, F.linear(x, w).dtype, nn.Linear(3, 4).cuda()(x).dtype, torch.mm(x, x.t()).dtype)
    print('fp32', h.exp().dtype, torch.exp(h).dtype, h.log1p().dtype, (h ** 2).dtype, h.pow(2).dtype, (2 ** h).dtype, h.reciprocal().dtype)
    print('keep', h.mean().dtype, F.gelu(h).dtype, h.sqrt().dtype, h.relu().dtype, torch.sigmoid(h).dtype, h.tanh().dtype)
    print('optdtype', h.sum().dtype, h.softmax(1).dtype, F.log_softmax(h, 1).dtype, h.prod().dtype, torch.cat([h, h]).dtype)
    print('loss', F.mse_loss(h, h).dtype, F.cross_entropy(h, torch.tensor([0, 1], device='cuda')).dtype, nn.MSELoss()(h, h).dtype)
    y = F.linear(x, w)
    print('layer', F.layer_norm(y, (4,)).dtype, F.dropout(y, 0.5).dtype)
    img = torch.randn(1, 2, 5, 5, device='cuda')
    c = nn.Conv2d(2, 3, 3).cuda()(img)
    print('conv', c.dtype, F.max_pool2d(c, 2).dtype, F.avg_pool2d(c, 2).dtype, torch.einsum('ij,jk->ik', x, x.t()).dtype)
    z = h.clone(); z.pow_(2); print('inplace', z.dtype)
    try:
        F.binary_cross_entropy(torch.sigmoid(h), torch.ones_like(h))
    except RuntimeError as e:
        print('bce', str(e)[:40])
