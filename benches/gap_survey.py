# A survey of ops outside benches/cpu_ops.py, to find where the engine is far from PyTorch:
# run it on both sides and compare (one process each, medians of 9 batches, us per call):
#   $(../shared/tools/torch-golden --python) benches/gap_survey.py > /tmp/t
#   target/release/cudalearn run benches/gap_survey.py > /tmp/o
# Rows cudalearn cannot run yet print ERR.
import time
import torch
import torch.nn.functional as F
torch.manual_seed(0)
d1 = torch.randn(10000, 100, dtype=torch.float64)
d6 = torch.randn(1000000, dtype=torch.float64)
d3 = torch.randn(100, 100, 100, dtype=torch.float64)
dx = torch.randn(4096, 1024, dtype=torch.float64)
f1 = torch.randn(10000, 100)
f6 = torch.randn(1000000)
fx = torch.randn(4096, 1024)
h6 = torch.randn(1000000).half()
hx = torch.randn(4096, 1024).half()
f6 = torch.randn(1000000)
g6 = torch.randn(1000000)
fx = torch.randn(4096, 1024)
fxg = torch.randn(4096, 1024, requires_grad=True)
w = torch.ones(1024, requires_grad=True)
b = torch.zeros(1024, requires_grad=True)
ln = F.layer_norm(fxg, (1024,), w, b)
ge = F.gelu(fxg)
si = F.silu(fxg)
b6 = f6.bfloat16()
bm = torch.randn(256, 256).bfloat16()
hm = torch.randn(256, 256).half()
img = torch.randn(32, 16, 32, 32)
cw = torch.randn(32, 16, 3, 3)
idx = torch.randint(0, 1000, (4096,))
emb = torch.randn(1000, 256)
bn = torch.nn.BatchNorm2d(16)
t2 = torch.randn(1000, 1000)
rows = [
    ("f64 amax d1 1e4x100", lambda: d1.amax(dim=1), 10),
    ("f64 amax d0 1e4x100", lambda: d1.amax(dim=0), 10),
    ("f64 amax d02 100^3", lambda: d3.amax(dim=(0, 2)), 10),
    ("f64 max 1e6", lambda: d6.max(), 10),
    ("f64 exp 1e6", lambda: d6.exp(), 5),
    ("f64 log 1e6", lambda: d6.abs().log(), 5),
    ("f64 tanh 1e6", lambda: d6.tanh(), 5),
    ("f64 sigmoid 1e6", lambda: d6.sigmoid(), 5),
    ("f64 softmax 4096x1024", lambda: torch.softmax(dx, dim=1), 3),
    ("f64 softmax d0 1e4x100", lambda: torch.softmax(d1, dim=0), 5),
    ("f64 sum 1e6", lambda: d6.sum(), 10),
    ("f64 add 1e6", lambda: d6 + d6, 10),
    ("f64 matmul 256", lambda: d1[:256] @ d1[:100].T, 10),
    ("f32 var 1e6", lambda: f6.var(), 10),
    ("f32 std d1 1e4x100", lambda: f1.std(dim=1), 10),
    ("f32 var d0 1e4x100", lambda: f1.var(dim=0), 10),
    ("f32 norm d0 1e4x100", lambda: f1.norm(dim=0), 10),
    ("f32 layer_norm 4096x1024", lambda: torch.nn.functional.layer_norm(fx, (1024,)), 5),
    ("f16 softmax 4096x1024", lambda: torch.softmax(hx, dim=1), 3),
    ("f16 max 1e6", lambda: h6.max(), 10),
    ("f16 add 1e6", lambda: h6 + h6, 10),
    ("f16 exp 1e6", lambda: h6.exp(), 5),
    ("f32 cumsum 1e6", lambda: f6.cumsum(0), 5),
    ("f32 sort 1e6", lambda: f6.sort(), 2),
    ("f32 topk 1e6", lambda: f6.topk(10), 5),
    ("f32 where 1e6", lambda: torch.where(f6 > 0, f6, f6 * 2), 5),
    ("f32 gelu 1e6", lambda: torch.nn.functional.gelu(f6), 5),
    ("f32 relu 1e6", lambda: torch.relu(f6), 5),
    ("f32 pow2 1e6", lambda: f6 ** 2, 5),
    ("f32 sqrt 1e6", lambda: f6.abs().sqrt(), 5),
    ("silu 1e6", lambda: F.silu(f6), 5),
    ("leaky_relu 1e6", lambda: F.leaky_relu(f6), 5),
    ("elu 1e6", lambda: F.elu(f6), 5),
    ("softplus 1e6", lambda: F.softplus(f6), 5),
    ("gelu tanh 1e6", lambda: F.gelu(f6, approximate='tanh'), 5),
    ("layer_norm bwd", lambda: torch.autograd.grad(ln, (fxg, w, b), fx, retain_graph=True), 3),
    ("gelu bwd 4M", lambda: torch.autograd.grad(ge, fxg, fx, retain_graph=True), 3),
    ("silu bwd 4M", lambda: torch.autograd.grad(si, fxg, fx, retain_graph=True), 3),
    ("mse_loss 1e6", lambda: F.mse_loss(f6, g6), 5),
    ("l1_loss 1e6", lambda: F.l1_loss(f6, g6), 5),
    ("dropout 1e6", lambda: F.dropout(f6, 0.5), 5),
    ("bf16 add 1e6", lambda: b6 + b6, 5),
    ("bf16 mul 1e6", lambda: b6 * b6, 5),
    ("bf16 matmul 256", lambda: bm @ bm, 5),
    ("f16 matmul 256", lambda: hm @ hm, 5),
    ("f16 sum 1e6", lambda: f6.half().sum(), 5),
    ("bf16->f32 1e6", lambda: b6.float(), 5),
    ("f32->bf16 1e6", lambda: f6.bfloat16(), 5),
    ("conv2d 32x16x32x32", lambda: F.conv2d(img, cw, padding=1), 3),
    ("max_pool2d", lambda: F.max_pool2d(img, 2), 5),
    ("avg_pool2d", lambda: F.avg_pool2d(img, 2), 5),
    ("batch_norm2d", lambda: bn(img), 5),
    ("embedding 4096x256", lambda: F.embedding(idx, emb), 10),
    ("index_select", lambda: emb.index_select(0, idx), 10),
    ("gather d1", lambda: t2.gather(1, torch.zeros(1000, 10, dtype=torch.long)), 10),
    ("cat 2x1e6", lambda: torch.cat([f6, g6]), 5),
    ("stack 2x1e6", lambda: torch.stack([f6, g6]), 5),
    ("masked_fill 1e6", lambda: f6.masked_fill(f6 > 0, 0.0), 5),
    ("clamp 1e6", lambda: f6.clamp(-0.5, 0.5), 5),
    ("abs 1e6", lambda: f6.abs(), 5),
    ("rsqrt 1e6", lambda: f6.abs().rsqrt(), 5),
    ("pow 1.5 1e6", lambda: f6.abs() ** 1.5, 5),
    ("gt 1e6", lambda: f6 > g6, 5),
    ("argsort 1e5", lambda: f6[:100000].argsort(), 3),
    ("mean d1 keep 1000^2", lambda: t2.mean(dim=1, keepdim=True), 10),
    ("argmax 1e6", lambda: f6.argmax(), 10),
    ("randn 1e6", lambda: torch.randn(1000000), 5),
    ("randint 1e6", lambda: torch.randint(0, 10, (1000000,)), 5),
    ("zeros 1e6", lambda: torch.zeros(1000000), 10),
    ("arange 1e6", lambda: torch.arange(1000000), 10),
    ("float->long 1e6", lambda: f6.long(), 5),
    ("t2[::2] clone", lambda: t2[::2].clone(), 10),
    ("t2.T @ v", lambda: t2.T @ f6[:1000], 10),
    ("einsum ij,jk", lambda: torch.einsum('ij,jk->ik', t2[:256, :256], t2[:256, :256]), 5),
    ("nll_loss", lambda: F.nll_loss(F.log_softmax(fx, 1), idx), 3),
]
for name, fn, reps in rows:
    try:
        fn()
    except Exception as e:
        print("%s|ERR %s" % (name, str(e).splitlines()[0][:60]))
        continue
    ts = []
    for k in range(9):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        ts.append((time.perf_counter() - t0) / reps)
    ts.sort()
    print("%s|%.1f" % (name, ts[4] * 1e6))
