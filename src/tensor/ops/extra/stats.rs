//! Reductions and elementwise ops with PyTorch's accumulation: `var`/`std` (with
//! `correction`), vector norms, `logsumexp`, `lerp`, `nan_to_num`, `outer`. Forward values are
//! computed on the host in f64 (PyTorch's CPU kernels accumulate these in double), except
//! `logsumexp`, composed of engine ops as ATen composes it, the float32 `var`/`std` shapes the
//! backend has kernels for (`Backend::var_rows`), and the norms the backend computes in
//! PyTorch's accumulate type and order (`Backend::vector_norm`, the CPU's);
//! each backward rule is written with tensor ops, so it runs on the input's device and can
//! itself be differentiated (`create_graph=True`).
use super::host::{i64s, make, values};
use crate::tensor::autocast;
use crate::tensor::autograd::util::{add, mul, sub};
use crate::tensor::autograd::NoGrad;
use crate::tensor::autograd::{is_recording, is_recording1, record};
use crate::tensor::error::{runtime, Result};
use crate::tensor::ops::binary::{binary, binary_scalar, BinaryOp};
use crate::tensor::ops::extra::gather::masked_fill;
use crate::tensor::ops::join::TensorOrScalar;
use crate::tensor::ops::reduce::{self, reduce_dims};
use crate::tensor::ops::unary::{unary, UnaryOp};
use crate::tensor::{DType, Scalar, Tensor};

/// `x`'s elements as f64 in runs that reduce to one output each, over `dims` (sorted, unique)
/// (`of` gives the kept-dims shape of the result with them). Outputs come in row-major order of the kept dims,
/// each run in row-major order of the reduced ones: `x` viewed with the reduced dims last,
/// read out once.
struct Groups {
    values: Vec<f64>,
    /// Elements per run.
    n: usize,
    /// Runs (outputs; each is empty when a reduced dim is).
    count: usize,
}

impl Groups {
    fn of(x: &Tensor, dims: &[usize]) -> Result<(Groups, Vec<usize>)> {
        let shape = x.shape();
        let kshape = kept_shape(shape, dims);
        let order: Vec<usize> = (0..shape.len())
            .filter(|d| !dims.contains(d))
            .chain(dims.iter().copied())
            .collect();
        let groups = Groups {
            values: values(&x.permute_dims_raw(&order)?)?,
            n: dims.iter().map(|&d| shape[d]).product(),
            count: kshape.iter().product(),
        };
        Ok((groups, kshape))
    }

    fn iter(&self) -> impl Iterator<Item = &[f64]> {
        (0..self.count).map(|j| &self.values[j * self.n..(j + 1) * self.n])
    }
}

/// `shape` with the reduced `dims` kept as 1s.
fn kept_shape(shape: &[usize], dims: &[usize]) -> Vec<usize> {
    let mut k = shape.to_vec();
    for &d in dims {
        k[d] = 1;
    }
    k
}

/// The result shape: `kshape` with the reduced dims dropped unless `keepdim`.
fn out_shape(kshape: &[usize], dims: &[usize], keepdim: bool) -> Vec<usize> {
    kshape
        .iter()
        .enumerate()
        .filter(|(k, _)| keepdim || !dims.contains(k))
        .map(|(_, &s)| s)
        .collect()
}

/// A reduced result (or its gradient) viewed with the reduced dims kept, to broadcast.
fn kept(t: &Tensor, kshape: &[usize]) -> Result<Tensor> {
    t.reshape(&i64s(kshape))
}

fn float_only(x: &Tensor, name: &str) -> Result<()> {
    if !x.dtype().is_floating() {
        return runtime(format!(
            "{name}(): input dtype should be either floating point or complex. Got {} instead.",
            x.dtype().c10_name()
        ));
    }
    Ok(())
}

/// `x.var(dim, correction=1, keepdim)` (`std=true`: its square root).
pub fn var(
    x: &Tensor,
    dims: Option<&[i64]>,
    correction: f64,
    keepdim: bool,
    std: bool,
) -> Result<Tensor> {
    if !x.dtype().is_floating() {
        return crate::tensor::error::not_impl(
            "std and var only support floating point and complex dtypes",
        );
    }
    let ds = reduce_dims(dims, x.ndim())?;
    let kshape = kept_shape(x.shape(), &ds);
    let n: usize = ds.iter().map(|&d| x.shape()[d]).product();
    let denom = (n as f64 - correction).max(0.0);
    let shape = out_shape(&kshape, &ds, keepdim);
    // Over all elements (every dim reduced, or the others of size 1: ATen's iterator then
    // reduces everything), `std_var_all_cpu` takes the deviations from the tensor's own
    // `mean()`, rounded to float32 for float32 (float16/bfloat16 take the dim route).
    let mean = if x.numel() == n && matches!(x.dtype(), DType::F32 | DType::F64) {
        Some(values(&reduce::mean(x, None, false, None)?)?[0])
    } else {
        None
    };
    let out = match var_fused(x, &ds, (correction, std, mean), &shape)? {
        Some(out) => out,
        None => var_host(x, &ds, (correction, std, mean), &shape)?,
    };
    if is_recording1(x) {
        let name = if std { "StdBackward0" } else { "VarBackward0" };
        let dims_i: Vec<i64> = ds.iter().map(|&d| d as i64).collect();
        record(name, &[x], &out, &[Some(x), Some(&out)], move |g, ctx| {
            let x = ctx.saved(0);
            let mean = crate::tensor::ops::reduce::mean(x, Some(&dims_i), true, None)?;
            // d var / dx = 2 (x - mean) / (n - correction); d std = that / (2 std)
            let centered = sub(x, &mean)?;
            let gk = kept(g, &kshape)?;
            let r = if std {
                let s = kept(ctx.saved(1), &kshape)?;
                binary(
                    BinaryOp::Div,
                    &mul(&gk, &centered)?,
                    &binary_scalar(BinaryOp::Mul, &s, Scalar::Float(denom), false)?,
                )?
            } else {
                binary_scalar(
                    BinaryOp::Mul,
                    &mul(&gk, &centered)?,
                    Scalar::Float(2.0 / denom),
                    false,
                )?
            };
            Ok(vec![Some(r)])
        })?;
    }
    Ok(out)
}

/// `var` by the backend's kernel over the leading and trailing dims of a contiguous float32
/// tensor (`split_dims`); `None` where that path does not apply. `how`: the correction,
/// whether to take the square root, and the mean to take the deviations from, if not each
/// group's own.
fn var_fused(
    x: &Tensor,
    ds: &[usize],
    how: (f64, bool, Option<f64>),
    shape: &[usize],
) -> Result<Option<Tensor>> {
    // (runs shorter than a few vectors cost a call each: the host's gather is faster)
    let Some(groups) = split_dims(x, ds).filter(|&[outer, len]| outer == 1 || len >= 64) else {
        return Ok(None);
    };
    let (correction, std, mean) = how;
    crate::tensor::dispatch::on(x.device()).var_rows(x, groups, correction, std, mean, shape)
}

/// `[outer, len]` when `x` is a non-empty contiguous float32 tensor and `ds` its first dims
/// up to some point and its last ones from another (either part may be empty): the reduction
/// then sees `x` as `[outer, kept, len]`, its groups runs of `len` at a stride. `None` else.
fn split_dims(x: &Tensor, ds: &[usize]) -> Option<[usize; 2]> {
    let (shape, nd) = (x.shape(), x.ndim());
    if ds.is_empty() || x.dtype() != DType::F32 || x.numel() == 0 || !x.is_contiguous() {
        return None;
    }
    let lead = ds.iter().enumerate().take_while(|&(k, &d)| k == d).count();
    let tail = &ds[lead..];
    let trailing = tail
        .iter()
        .enumerate()
        .all(|(k, &d)| d == nd - tail.len() + k);
    let size = |dims: &[usize]| dims.iter().map(|&d| shape[d]).product::<usize>();
    let (outer, len) = (size(&ds[..lead]), size(tail));
    // every element reduced (the other dims of size 1) is one run
    trailing.then_some(if outer * len == x.numel() {
        [1, x.numel()]
    } else {
        [outer, len]
    })
}

/// `var` of `x`'s groups over `ds` in f64 on the host (`how` as `var_fused`'s): each
/// group's mean, then its squared deviations' sum.
fn var_host(
    x: &Tensor,
    ds: &[usize],
    (correction, std, mean): (f64, bool, Option<f64>),
    shape: &[usize],
) -> Result<Tensor> {
    let (gs, _) = Groups::of(x, ds)?;
    let n = gs.n as f64;
    let denom = (n - correction).max(0.0);
    let vals: Vec<f64> = gs
        .iter()
        .map(|g| {
            let m = mean.unwrap_or_else(|| g.iter().sum::<f64>() / n);
            let v = g.iter().map(|a| (a - m) * (a - m)).sum::<f64>() / denom;
            if std {
                v.sqrt()
            } else {
                v
            }
        })
        .collect();
    make(&vals, shape, x.dtype(), x.device())
}

/// The `p` of a vector norm: a number, or `inf`/`-inf`.
pub fn vector_norm(x: &Tensor, p: f64, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
    float_only(x, "linalg.vector_norm")?;
    let ds = reduce_dims(dims, x.ndim())?;
    if p < 0.0 || p == f64::INFINITY {
        // min and max of nothing have no value (ATen's `linalg_vector_norm` checks)
        let p = if p.fract() == 0.0 {
            format!("{p:.0}")
        } else {
            format!("{p}")
        };
        let cannot = format!("linalg.vector_norm cannot compute the {p} norm on");
        let identity = "the operation does not have an identity";
        if dims.is_none_or(|d| d.is_empty()) && x.numel() == 0 {
            return runtime(format!("{cannot} an empty tensor because {identity}"));
        }
        if let Some(d) = ds.iter().find(|&&d| x.shape()[d] == 0) {
            // (sic: PyTorch's message has no space before "because")
            return runtime(format!(
                "{cannot} the dimension {d}because this dimension is empty and {identity}"
            ));
        }
    }
    let kshape = kept_shape(x.shape(), &ds);
    let shape = out_shape(&kshape, &ds, keepdim);
    let out = match crate::tensor::dispatch::on(x.device()).vector_norm(x, p, &ds, &shape)? {
        Some(out) => out,
        None => vector_norm_host(x, p, &ds, &shape)?,
    };
    if is_recording1(x) {
        record(
            "LinalgVectorNormBackward0",
            &[x],
            &out,
            &[Some(x), Some(&out)],
            move |g, ctx| {
                let (x, nrm) = (ctx.saved(0), kept(ctx.saved(1), &kshape)?);
                if p == 0.0 {
                    // counting nonzeros has no gradient (PyTorch returns none)
                    return Ok(vec![None]);
                }
                let gk = kept(g, &kshape)?;
                Ok(vec![Some(norm_grad(x, &nrm, &gk, p)?)])
            },
        )?;
    }
    Ok(out)
}

/// A vector norm of `x`'s groups over `ds` in f64 on the host (the backends without a norm
/// kernel), shaped `shape`.
fn vector_norm_host(x: &Tensor, p: f64, ds: &[usize], shape: &[usize]) -> Result<Tensor> {
    let (gs, _) = Groups::of(x, ds)?;
    let vals: Vec<f64> = gs
        .iter()
        .map(|g| {
            if p == f64::INFINITY {
                g.iter().fold(0.0f64, |a, v| a.max(v.abs()))
            } else if p == f64::NEG_INFINITY {
                g.iter().fold(f64::INFINITY, |a, v| a.min(v.abs()))
            } else if p == 0.0 {
                g.iter().filter(|v| **v != 0.0).count() as f64
            } else if p == 1.0 {
                // folds from +0: std's float `sum` starts at -0, and the norm of nothing is 0.
                g.iter().fold(0.0, |a, v| a + v.abs())
            } else if p == 2.0 {
                g.iter().fold(0.0, |a, v| a + v * v).sqrt()
            } else {
                g.iter().fold(0.0, |a, v| a + v.abs().powf(p)).powf(1.0 / p)
            }
        })
        .collect();
    make(&vals, shape, x.dtype(), x.device())
}

/// PyTorch's `norm_backward`: 0 where the norm is 0.
fn norm_grad(x: &Tensor, nrm: &Tensor, g: &Tensor, p: f64) -> Result<Tensor> {
    let sign = unary(UnaryOp::Sign, x)?;
    let zero_safe = |num: Tensor, den: Tensor| -> Result<Tensor> {
        let den_zero = binary_scalar(BinaryOp::Eq, &den, Scalar::Float(0.0), false)?;
        let q = binary(BinaryOp::Div, &num, &den)?;
        crate::tensor::ops::extra::gather::masked_fill(
            &q,
            &den_zero.expand(&i64s(q.shape()))?,
            &crate::tensor::ops::join::TensorOrScalar::Scalar(Scalar::Float(0.0)),
        )
    };
    if p == 1.0 {
        return mul(&sign, g);
    }
    if p.is_infinite() {
        // the gradient is shared among the elements equal to the norm's absolute value
        let absx = unary(UnaryOp::Abs, x)?;
        let hit = binary(BinaryOp::Eq, &absx, nrm)?.to_dtype(x.dtype())?;
        let dims: Vec<i64> = (0..x.ndim() as i64)
            .filter(|&k| nrm.shape()[k as usize] == 1)
            .collect();
        let count = crate::tensor::ops::reduce::sum(&hit, Some(&dims), true, None)?;
        return mul(&mul(&sign, &binary(BinaryOp::Div, &hit, &count)?)?, g);
    }
    if p == 2.0 {
        return zero_safe(mul(x, g)?, nrm.clone());
    }
    // x |x|^(p-2) g / norm^(p-1)
    let absx = unary(UnaryOp::Abs, x)?;
    let num = mul(
        &mul(
            x,
            &binary_scalar(BinaryOp::Pow, &absx, Scalar::Float(p - 2.0), false)?,
        )?,
        g,
    )?;
    zero_safe(
        num,
        binary_scalar(BinaryOp::Pow, nrm, Scalar::Float(p - 1.0), false)?,
    )
}

/// `torch.logsumexp(x, dim, keepdim=False)`, composed as ATen composes it, so on the input's
/// device and with its kernels' bits: `m = amax(x, dim, keepdim=True)` with infinite maxima
/// set to 0, then `log(sum(exp(x - m), dim)) + m`.
pub fn logsumexp(x: &Tensor, dims: &[i64], keepdim: bool) -> Result<Tensor> {
    let x = if x.dtype().is_floating() {
        x.clone()
    } else {
        x.to_dtype(crate::tensor::default_dtype())?
    };
    let ds = reduce_dims(Some(dims), x.ndim())?;
    let kshape = kept_shape(x.shape(), &ds);
    let shape = out_shape(&kshape, &ds, keepdim);
    let d: Vec<i64> = ds.iter().map(|&d| d as i64).collect();
    let out = {
        let _no_grad = NoGrad::new();
        autocast::excluded(|| -> Result<Tensor> {
            if x.numel() == 0 {
                let s = reduce::sum(&unary(UnaryOp::Exp, &x)?, Some(&d), keepdim, None)?;
                return unary(UnaryOp::Log, &s);
            }
            let m = reduce::amax(&x, Some(&d), true, true)?;
            let abs = unary(UnaryOp::Abs, &m)?;
            let inf = binary_scalar(BinaryOp::Eq, &abs, Scalar::Float(f64::INFINITY), false)?;
            let zero = TensorOrScalar::Scalar(Scalar::Float(0.0));
            let m = masked_fill(&m, &inf, &zero)?;
            let e = unary(UnaryOp::Exp, &sub(&x, &m)?)?;
            let s = reduce::sum(&e, Some(&d), keepdim, None)?;
            add(&unary(UnaryOp::Log, &s)?, &m.reshape(&i64s(&shape))?)
        })?
    };
    if is_recording1(&x) {
        record(
            "LogsumexpBackward0",
            &[&x],
            &out,
            &[Some(&x), Some(&out)],
            move |g, ctx| {
                let r = kept(ctx.saved(1), &kshape)?;
                let e = unary(UnaryOp::Exp, &sub(ctx.saved(0), &r)?)?;
                Ok(vec![Some(mul(&kept(g, &kshape)?, &e)?)])
            },
        )?;
    }
    Ok(out)
}

/// `torch.lerp(start, end, weight)` with PyTorch's two-sided formula (exact at both ends).
pub fn lerp(
    start: &Tensor,
    end: &Tensor,
    weight: &Tensor,
    weight_is_number: bool,
) -> Result<Tensor> {
    let dt = start.dtype();
    if end.dtype() != dt || (!weight_is_number && weight.dtype() != dt) {
        return runtime(format!(
            "expected dtype {} for `end` but got dtype {}",
            dt.name(),
            end.dtype().name()
        ));
    }
    let shape = crate::tensor::shape::broadcast_shapes(start.shape(), end.shape())?;
    let shape = crate::tensor::shape::broadcast_shapes(&shape, weight.shape())?;
    let full = |t: &Tensor| -> Result<Vec<f64>> { values(&t.expand(&i64s(&shape))?) };
    let (s, e, w) = (full(start)?, full(end)?, full(weight)?);
    let vals: Vec<f64> = (0..s.len())
        .map(|k| {
            let (a, b, t) = (s[k], e[k], w[k]);
            if t.abs() < 0.5 {
                a + t * (b - a)
            } else {
                b - (b - a) * (1.0 - t)
            }
        })
        .collect();
    let out = make(
        &vals,
        &shape,
        dt,
        crate::tensor::ops::common_device(&[start, end, weight])?,
    )?;
    let inputs: Vec<&Tensor> = if weight_is_number {
        vec![start, end]
    } else {
        vec![start, end, weight]
    };
    if is_recording(&inputs) {
        let name = if weight_is_number {
            "LerpBackward0"
        } else {
            "LerpBackward1"
        };
        record(
            name,
            &inputs,
            &out,
            &[Some(start), Some(end), Some(weight)],
            move |g, ctx| {
                let w = ctx.saved(2);
                let one_minus = binary_scalar(BinaryOp::Sub, w, Scalar::Float(1.0), true)?;
                let mut r = vec![Some(mul(g, &one_minus)?), Some(mul(g, w)?)];
                if ctx.needs(2) {
                    r.push(Some(mul(g, &sub(ctx.saved(1), ctx.saved(0))?)?));
                }
                Ok(r)
            },
        )?;
    }
    Ok(out)
}

/// The largest finite value of a float dtype (`torch.finfo(dtype).max`).
fn finite_max(dt: DType) -> f64 {
    match dt {
        DType::F64 => f64::MAX,
        DType::F16 => 65504.0,
        DType::BF16 => 3.3895313892515355e38,
        _ => f32::MAX as f64,
    }
}

/// `torch.nan_to_num(x, nan=0.0, posinf=None, neginf=None)`.
pub fn nan_to_num(
    x: &Tensor,
    nan: f64,
    posinf: Option<f64>,
    neginf: Option<f64>,
) -> Result<Tensor> {
    if !x.dtype().is_floating() {
        return x.clone_tensor();
    }
    let big = finite_max(x.dtype());
    let vals: Vec<f64> = values(x)?
        .into_iter()
        .map(|v| {
            if v.is_nan() {
                nan
            } else if v == f64::INFINITY {
                posinf.unwrap_or(big)
            } else if v == f64::NEG_INFINITY {
                neginf.unwrap_or(-big)
            } else {
                v
            }
        })
        .collect();
    let out = make(&vals, x.shape(), x.dtype(), x.device())?;
    if is_recording1(x) {
        record("NanToNumBackward0", &[x], &out, &[Some(x)], |g, ctx| {
            let x = ctx.saved(0);
            let finite = binary(BinaryOp::Eq, &sub(x, x)?, &sub(x, x)?)?.to_dtype(g.dtype())?;
            Ok(vec![Some(mul(g, &finite)?)])
        })?;
    }
    Ok(out)
}

/// `torch.outer(a, b)`: PyTorch's composite `a.reshape(n, 1) * b` (`MulBackward0`).
pub fn outer(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.ndim() != 1 || b.ndim() != 1 {
        return runtime(format!(
            "outer: Expected 1-D argument self, but got {}-D",
            if a.ndim() != 1 { a.ndim() } else { b.ndim() }
        ));
    }
    mul(&a.reshape(&[a.numel() as i64, 1])?, b)
}
