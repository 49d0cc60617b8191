"""Golden cases for src/tensor/print.rs: repr() of many tensors under real PyTorch (CPU).

Run: ../shared/tools/torch-golden tests/data/gen_print.py > tests/data/print_golden.txt

Each case records the print options, dtype, default dtype, shape, suffix inputs and the exact
element values (floats as Python repr, which round-trips), then the repr PyTorch printed:

    === name
    opts PRECISION THRESHOLD EDGEITEMS LINEWIDTH SCI_MODE
    dtype DTYPE DEFAULT_DTYPE
    shape D0 D1 ...
    device NAME-or--
    grad GRAD_FN-or--
    req 0-or-1
    values V0 V1 ...
    ---
    <repr, one or more lines>
"""
import math

import torch
import torch._tensor_str as ts

_real_default_device = torch._C._get_default_device
cases = []


def emit(name, x, device=None):
    o = ts.PRINT_OPTS
    if device is not None:
        # The device suffix appears when the tensor's device type differs from the default
        # one; pretend the default is another type so a CPU tensor shows `device='cpu'`.
        torch._C._get_default_device = lambda: "meta"
    try:
        text = repr(x)
    finally:
        torch._C._get_default_device = _real_default_device
    t = x.detach()
    if t.dtype.is_floating_point:
        vals = [repr(float(v)) for v in t.double().flatten().tolist()]
    else:
        vals = [str(v) for v in t.flatten().tolist()]
    thr = o.threshold
    thr = "inf" if thr == math.inf else repr(float(thr))
    grad = type(x.grad_fn).__name__ if x.grad_fn is not None else "-"
    print("===", name)
    print("opts", o.precision, thr, o.edgeitems, o.linewidth, o.sci_mode)
    print("dtype", str(t.dtype)[6:], str(torch.get_default_dtype())[6:])
    print("shape", *t.shape)
    print("device", device or "-")
    print("grad", grad)
    print("req", int(x.requires_grad and x.grad_fn is None))
    print("values", *vals)
    print("---")
    print(text)


def opts(**kw):
    torch.set_printoptions(profile="default", sci_mode=None)
    if kw:
        torch.set_printoptions(**kw)


T = torch.tensor
torch.manual_seed(0)
opts()

# Floats: the basics.
emit("randn_2x3", torch.randn(2, 3))
emit("randn_1", torch.randn(1))
emit("randn_5", torch.randn(5))
emit("randn_3x4x5", torch.randn(3, 4, 5))
emit("randn_2x2x2x2", torch.randn(2, 2, 2, 2))
emit("randn_1x1x1", torch.randn(1, 1, 1))
emit("randn_4x1", torch.randn(4, 1))
emit("randn_1x6", torch.randn(1, 6))
emit("scaled_randn", torch.randn(3, 3) * 100)
emit("small_randn", torch.randn(4) * 0.01)
emit("integral", T([1.0, 2.0, 3.0]))
emit("integral_neg", T([-1.0, 20.0, -300.0]))
emit("integral_big", T([1e7, 2.0, 3.0]))
emit("integral_huge", T([1e9, 2.0, -3.0]))
emit("integral_ratio", T([1.0, 5000.0]))
emit("tiny", T([1e-5, 2e-5]))
emit("tiny_mixed", T([1e-5, 1.0]))
emit("huge_mixed", T([1e10, 1.5]))
emit("ratio_sci", T([0.001, 10.0]))
emit("ratio_edge", T([0.01, 10.0]))
emit("fraction", T([0.5, 0.25, 0.125]))
emit("halfway", T([0.00005, 1.00005, 2.5]))
emit("thirds", T([1 / 3, 2 / 3, -1 / 3]))
emit("nan_mix", T([float("nan"), 1.0, 2.5]))
emit("nan_int", T([float("nan"), 1.0, 2.0]))
emit("inf_mix", T([float("inf"), -float("inf"), 1.5]))
emit("inf_int", T([float("inf"), 3.0]))
emit("all_nan", T([float("nan"), float("nan")]))
emit("nan_inf_only", T([float("nan"), float("inf"), -float("inf")]))
emit("nan_zero", T([float("nan"), 0.0]))
emit("nan_sci", T([float("nan"), 1e-8, 1.0]))
emit("inf_sci_big", T([float("inf"), 1e12, 1.0]))
emit("zeros", torch.zeros(3))
emit("zeros_2x2", torch.zeros(2, 2))
emit("neg_zero", T([-0.0, 0.0]))
emit("neg_zero_frac", T([-0.0, 1.5]))
emit("neg_zero_sci", T([-0.0, 1e-7, 1.0]))
emit("ones_neg", -torch.ones(2, 3))
emit("mixed_signs", T([[-1.5, 2.25], [3.125, -0.0625]]))
emit("f32_precision", T([0.1, 0.2, 0.3]))
emit("big_frac", T([123456.789, 0.5]))
emit("sci_neg_exp", T([-1.2345e-12, 3.0e-15]))
emit("max_f32", T([3.4028234663852886e38, 1.0]))
emit("min_sub", T([1e-45, 1.0]))

# 0-d tensors.
emit("scalar_float", T(3.5))
emit("scalar_int_float", T(3.0))
emit("scalar_neg_zero", T(-0.0))
emit("scalar_nan", T(float("nan")))
emit("scalar_inf", T(-float("inf")))
emit("scalar_tiny", T(1e-10))
emit("scalar_big", T(1e10))
emit("scalar_long", T(5))
emit("scalar_bool", T(True))
emit("scalar_f64", T(2.5, dtype=torch.float64))
emit("scalar_f16", T(0.1, dtype=torch.float16))
emit("scalar_i8", T(-7, dtype=torch.int8))

# Other dtypes.
emit("f64_randn", torch.randn(3, dtype=torch.float64))
emit("f64_int", T([1.0, 2.0], dtype=torch.float64))
emit("f16_randn", torch.randn(2, 3).half())
emit("f16_max", T([65504.0, -1.0], dtype=torch.float16))
emit("f16_frac", T([0.1, 0.2, 1 / 3], dtype=torch.float16))
emit("bf16_randn", torch.randn(2, 3).bfloat16())
emit("bf16_big", T([1e20, 1.0], dtype=torch.bfloat16))
emit("int64", T([1, -20, 300]))
emit("int64_2d", torch.arange(12).reshape(3, 4))
emit("int64_extremes", T([2**63 - 1, -(2**63)]))
emit("int32", T([1, 2, 3], dtype=torch.int32))
emit("int8", T([-128, 0, 127], dtype=torch.int8))
emit("uint8", T([0, 128, 255], dtype=torch.uint8))
emit("bool", T([True, False, True]))
emit("bool_2d", T([[True, False], [False, False]]))
emit("bool_true", T([True, True]))
emit("int_neg_width", T([[-1, 100], [5, -2000]]))

# Empty tensors.
emit("empty_f32", T([]))
emit("empty_0x3", torch.zeros(0, 3))
emit("empty_i64", torch.zeros(0, dtype=torch.int64))
emit("empty_2x0x3", torch.zeros(2, 0, 3))
emit("empty_bool", torch.zeros(0, dtype=torch.bool))
emit("empty_f64", torch.zeros(0, dtype=torch.float64))
emit("empty_i32_0x2", torch.zeros(0, 2, dtype=torch.int32))

# Line wrapping.
emit("wrap_arange_f", torch.arange(30.0) * 1.5)
emit("wrap_randn_50", torch.randn(50))
emit("wrap_int_40", torch.arange(40))
emit("wrap_2d", torch.randn(3, 30))
emit("wrap_3d", torch.randn(2, 2, 25))
emit("wrap_bool", torch.rand(40) > 0.5)
emit("wrap_sci", torch.randn(20) * 1e-6)
emit("wrap_f64", torch.randn(25, dtype=torch.float64))

# Summarisation.
emit("sum_arange_2000", torch.arange(2000))
emit("sum_randn_1001", torch.randn(1001))
emit("sum_40x40", torch.randn(40, 40))
emit("sum_11x11x11", torch.randn(11, 11, 11))
emit("sum_2x600", torch.randn(2, 600))
emit("sum_600x2", torch.randn(600, 2))
emit("sum_int_30x40", torch.arange(1200).reshape(30, 40))
emit("sum_float_int", torch.arange(1100.0))
emit("sum_hidden_big", torch.cat([torch.ones(500), T([1e9]), torch.ones(500)]))
emit("sum_4d", torch.randn(8, 8, 4, 5))
emit("no_sum_1000", torch.arange(1000.0))

# Suffixes.
emit("req_grad", torch.randn(3, requires_grad=True))
emit("req_grad_0d", T(1.5, requires_grad=True))
emit("grad_fn_add", torch.randn(3, requires_grad=True) + 1)
emit("grad_fn_mul", torch.randn(2, 2, requires_grad=True) * 2)
emit("grad_fn_sum", torch.randn(4, requires_grad=True).sum())
emit("grad_fn_f64", torch.randn(3, dtype=torch.float64, requires_grad=True) * 3)
for k in range(6, 12):
    emit(f"req_grad_wrap_{k}", torch.randn(k, requires_grad=True))
emit("req_grad_2d_wrap", torch.randn(2, 8, requires_grad=True))
emit("grad_fn_wrap", torch.randn(9, requires_grad=True) * 1)
emit("device_cpu", torch.randn(3), device="cpu")
emit("device_wrap", torch.randn(9), device="cpu")
emit("device_dtype_grad", torch.randn(8, dtype=torch.float64, requires_grad=True), device="cpu")
emit("device_int", torch.arange(5), device="cpu")
emit("device_empty", torch.zeros(0, 3), device="cpu")

# Print options.
opts(precision=2)
emit("prec2", torch.randn(2, 3))
emit("prec2_sci", T([1e-6, 1.0]))
opts(precision=0)
emit("prec0", T([1.5, 2.25, -3.75]))
emit("prec0_sci", T([1e-6, 1.0]))
opts(precision=8)
emit("prec8", torch.randn(4))
opts(precision=10)
emit("prec10_f32", T([0.1, 0.2]))
opts(sci_mode=True)
emit("sci_true", torch.randn(2, 3))
emit("sci_true_int", T([1.0, 2.0]))
emit("sci_true_zero", T([0.0, 1.5, float("nan")]))
opts(sci_mode=False)
emit("sci_false_tiny", T([1e-5, 1.0]))
emit("sci_false_huge", T([1e10, 1.5]))
emit("sci_false_int_huge", T([1e10, 1.0]))
opts(linewidth=40)
emit("lw40", torch.randn(20))
emit("lw40_2d", torch.randn(3, 8))
emit("lw40_grad", torch.randn(5, requires_grad=True))
opts(linewidth=120)
emit("lw120", torch.randn(30))
opts(linewidth=10)
emit("lw10", torch.randn(4))
opts(linewidth=5)
emit("lw5_deep", torch.randn(2, 2, 2))
opts(threshold=5)
emit("thr5", torch.arange(10))
emit("thr5_2d", torch.randn(4, 4))
emit("thr5_small", torch.arange(5))
opts(threshold=0)
emit("thr0_scalar", T(2.0))
emit("thr0_vec", T([1.0, 2.0]))
opts(edgeitems=1, threshold=10)
emit("edge1", torch.randn(20))
emit("edge1_3d", torch.randn(4, 4, 4))
opts(edgeitems=0, threshold=10)
emit("edge0_vec", torch.randn(20))
emit("edge0_2d", torch.randn(6, 6))
emit("edge0_small", torch.randn(3))
opts(edgeitems=5)
emit("edge5", torch.randn(1200))
opts(profile="short")
emit("short", torch.randn(3, 3))
emit("short_sum", torch.randn(1500))
opts(profile="full")
emit("full", torch.arange(1500))
emit("full_2d", torch.randn(35, 35))
opts(threshold=1e9, precision=3, linewidth=60)
emit("combo", torch.randn(4, 12))
opts()

# Default dtype float64: float32 now gets a dtype suffix, float64 does not.
torch.set_default_dtype(torch.float64)
emit("dd64_f32", torch.randn(3, dtype=torch.float32))
emit("dd64_f64", torch.randn(3))
emit("dd64_empty_f32", torch.zeros(0, dtype=torch.float32))
emit("dd64_empty_f64", torch.zeros(0))
emit("dd64_int", torch.arange(3))
torch.set_default_dtype(torch.float32)

# Randomised cases: shapes, dtypes, magnitudes, non-finite values and options drawn from a
# seeded Python RNG, to catch combinations the hand-picked cases above miss.
import random

rng = random.Random(1234)
FLOATS = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
INTS = [torch.int64, torch.int32, torch.int8, torch.uint8]
for k in range(60):
    ndim = rng.choice([0, 1, 1, 2, 2, 3, 4])
    shape = [rng.choice([1, 2, 3, 5, 8, 13]) for _ in range(ndim)]
    kind = rng.choice(["float", "float", "float", "int", "bool"])
    if kind == "float":
        dt = rng.choice(FLOATS)
        mag = 10.0 ** rng.choice([-9, -5, -3, 0, 0, 0, 2, 5, 9])
        style = rng.choice(["randn", "ints", "mixed", "nonfinite"])
        x = torch.randn(shape) * mag
        if style == "ints":
            x = torch.round(x)
        elif style == "mixed":
            x = x * (10.0 ** torch.randint(-6, 7, shape).double()).float()
        elif style == "nonfinite" and x.numel() > 1:
            flat = x.view(-1)
            flat[0] = rng.choice([float("nan"), float("inf"), -float("inf")])
        x = x.to(dt)
    elif kind == "int":
        dt = rng.choice(INTS)
        lo, hi = {torch.uint8: (0, 256), torch.int8: (-128, 128)}.get(dt, (-(10 ** 6), 10 ** 6))
        x = torch.randint(lo, hi, shape, dtype=dt)
    else:
        x = torch.rand(shape) > 0.5
    opts(
        precision=rng.choice([4, 4, 2, 6]),
        linewidth=rng.choice([80, 80, 50, 100]),
        threshold=rng.choice([1000, 1000, 20, 50]),
        edgeitems=rng.choice([3, 3, 1, 2]),
        sci_mode=rng.choice([None, None, None, True, False]),
    )
    if kind == "float" and rng.random() < 0.3:
        x = x.float().requires_grad_()
        if rng.random() < 0.5:
            x = x * 1
    emit(f"random_{k}", x, device=rng.choice([None, None, None, "cpu"]))
opts()
