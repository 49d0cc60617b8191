"""Golden data for src/tensor/random.rs, produced by real PyTorch (CPU).

Run: ../shared/tools/torch-golden tests/data/gen_random.py > tests/data/random_golden.txt

Each line is one operation on one generator; `gen SEED` (or `gen default`) starts a fresh
generator, later ops continue on it so the state advance between calls is checked too.
Floats are printed as raw bit patterns (hex) so comparisons are bit-exact.
"""
import torch

DT = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16, "bf16": torch.bfloat16}
BITS = {"f32": torch.int32, "f64": torch.int64, "f16": torch.int16, "bf16": torch.int16}
MASK = {"f32": 0xFFFFFFFF, "f64": 0xFFFFFFFFFFFFFFFF, "f16": 0xFFFF, "bf16": 0xFFFF}
g = None


def hexes(t, d):
    return " ".join("%x" % (v & MASK[d]) for v in t.view(BITS[d]).flatten().tolist())


def gen(seed):
    global g
    g = torch.Generator()
    if seed != "default":
        g.manual_seed(seed)
    print("gen", seed, g.initial_seed())


def randn(d, n, mean=0.0, std=1.0):
    t = torch.empty(n, dtype=DT[d]).normal_(mean, std, generator=g)
    print("normal", d, n, repr(float(mean)), repr(float(std)), ":", hexes(t, d))


def rand(d, n, lo=0.0, hi=1.0):
    t = torch.empty(n, dtype=DT[d]).uniform_(lo, hi, generator=g)
    print("uniform", d, n, repr(float(lo)), repr(float(hi)), ":", hexes(t, d))


def randint(lo, hi, n):
    t = torch.randint(lo, hi, (n,), generator=g)
    print("randint", lo, hi, n, ":", " ".join(map(str, t.tolist())))


def randperm(n):
    t = torch.randperm(n, generator=g)
    print("randperm", n, ":", " ".join(map(str, t.tolist())))


def bernoulli(n, p):
    t = torch.empty(n).bernoulli_(p, generator=g)
    print("bernoulli", n, repr(float(p)), ":", " ".join(str(int(v)) for v in t.tolist()))


def bernoulli_t(probs):
    p = torch.tensor(probs, dtype=torch.float32)
    t = torch.bernoulli(p, generator=g)
    print("bernoulli_t", len(probs), ":", " ".join(repr(float(v)) for v in p.tolist()), ":",
          " ".join(str(int(v)) for v in t.tolist()))


def state():
    print("state :", bytes(g.get_state().tolist()).hex())


# The process-wide default generator before anything touched it.
print("initial_seed", torch.initial_seed())
torch.manual_seed(0)
print("randn23", hexes(torch.randn(2, 3), "f32"))

sizes = [1, 2, 5, 15, 16, 17, 31, 32, 33, 100, 1000]
for d in ["f32", "f64", "f16", "bf16"]:
    for n in sizes:
        gen(0)
        randn(d, n)
# Several calls in sequence on one generator: scalar path caches a sample across calls.
for d in ["f32", "f64", "f16", "bf16"]:
    gen(42)
    for n in [3, 1, 16, 5, 17, 2, 100, 7, 33, 1]:
        randn(d, n)
gen(7)
randn("f32", 5, 2.5, 0.5)
randn("f32", 40, -1.0, 3.0)
randn("f64", 3, 1.0, 2.0)
randn("f64", 20, 1.0, 2.0)
randn("bf16", 20, 3.0, 0.1)
randn("f16", 6, -2.0, 4.0)
randn("f32", 20000)
gen("default")
randn("f32", 10)
randn("f32", 50)
gen(123456789012345)
randn("f32", 17)
for d in ["f32", "f64", "f16", "bf16"]:
    gen(0)
    for n in [1, 5, 16, 100]:
        rand(d, n)
    rand(d, 50, -3.0, 7.0)
    rand(d, 20, 0.1, 0.2)
gen(3)
rand("f32", 1000, -1.0, 1.0)
gen(0)
for lo, hi, n in [(0, 10, 20), (-5, 5, 20), (0, 2, 30), (0, 1 << 28, 10), (0, (1 << 28) - 1, 10),
                  (-(1 << 40), 1 << 40, 10), (0, 1000000, 50), (3, 4, 5)]:
    randint(lo, hi, n)
gen(0)
for n in [0, 1, 2, 3, 5, 10, 100, 1000]:
    randperm(n)
gen(1)
bernoulli(40, 0.5)
bernoulli(20, 0.1)
bernoulli(10, 0.0)
bernoulli(10, 1.0)
bernoulli_t([0.5] * 10 + [0.25, 0.75, 0.0, 1.0, 0.9])
gen(0)
rand("f32", 3)
randn("f32", 3)
randint(0, 100, 4)
randperm(6)
randn("f64", 2)
rand("f64", 2)
randn("f64", 1)

# torch.get_rng_state() bytes, including the cached Box-Muller sample.
gen(0)
state()
randn("f64", 3)
state()
randn("f32", 1000)
randperm(5)
state()
# nn.Linear's default init: kaiming_uniform_(a=sqrt(5)) then the bias bound, as uniform_ calls.
import math

for fan_in, fan_out in [(4, 3), (784, 128), (3, 1)]:
    torch.manual_seed(0)
    lin = torch.nn.Linear(fan_in, fan_out)
    gain = math.sqrt(2.0 / (1 + math.sqrt(5) ** 2))
    bound = math.sqrt(3.0) * (gain / math.sqrt(fan_in))
    gen(0)
    w = torch.empty(fan_out, fan_in).uniform_(-bound, bound, generator=g)
    assert torch.equal(w, lin.weight.detach()), "kaiming bound formula drifted"
    print("uniform", "f32", fan_in * fan_out, repr(-bound), repr(bound), ":", hexes(w, "f32"))
    b = 1 / math.sqrt(fan_in)
    bias = torch.empty(fan_out).uniform_(-b, b, generator=g)
    assert torch.equal(bias, lin.bias.detach())
    print("uniform", "f32", fan_out, repr(-b), repr(b), ":", hexes(bias, "f32"))
