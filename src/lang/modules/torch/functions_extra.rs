//! `torch` functions added for issue 17 that are not tensor methods: `einsum`,
//! `torch.linalg.norm`/`vector_norm`, `from_numpy`, `as_tensor` (sharing memory where PyTorch
//! does), and `out=` for the function forms of methods (`torch.add(a, b, out=c)`).
use super::convert::*;
use super::methods::arg;
use super::methods_extra::dims;
use super::return_types::{values_indices, NamedResult};
use crate::lang::builtins::kwarg;
use crate::lang::error::{runtime_error, type_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::value::*;
use crate::tensor::ops::extra::{einsum, stats, svd};
use crate::tensor::Tensor;

fn einsum_f(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let eq = match a.pos.first() {
        Some(Value::Str(s)) => s.to_string(),
        _ => return Err(type_error("einsum(): argument 'equation' must be str")),
    };
    let rest: Vec<Value> = match a.pos.get(1..) {
        Some([one]) if as_tensor(one).is_none() => i.collect(one)?,
        Some(r) => r.to_vec(),
        None => vec![],
    };
    let ops = rest
        .iter()
        .map(|v| {
            as_tensor(v).cloned().ok_or_else(|| {
                type_error(format!(
                    "einsum(): operands must be Tensors, not {}",
                    v.type_name()
                ))
            })
        })
        .collect::<PyResult<Vec<Tensor>>>()?;
    Ok(wrap(einsum::einsum(&eq, &ops).py()?))
}

fn tensor0(a: &Args, f: &str) -> PyResult<Tensor> {
    match arg(a, 0, "input").or_else(|| kwarg(a, "x")) {
        Some(v) => as_tensor(&v).cloned().ok_or_else(|| {
            type_error(format!(
                "linalg.{f}(): argument 'input' (position 1) must be Tensor, not {}",
                v.type_name()
            ))
        }),
        None => Err(type_error(format!(
            "linalg.{f}() missing required argument 'input'"
        ))),
    }
}

/// A norm's `ord`: a number, or one of the matrix norms' names.
enum Ord {
    Num(f64),
    Name(PyStr),
}

fn ord_of(v: Option<Value>, f: &str) -> PyResult<Option<Ord>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(Ord::Name(s))),
        Some(v) => scalar_of(&v)
            .map(|s| Some(Ord::Num(s.to_f64())))
            .ok_or_else(|| {
                type_error(format!(
                    "linalg.{f}(): argument 'ord' must be a number or str, not {}",
                    v.type_name()
                ))
            }),
    }
}

fn keepdim(i: &mut Interp, a: &Args) -> PyResult<bool> {
    Ok(arg(a, 3, "keepdim")
        .map(|v| i.truthy(&v))
        .transpose()?
        .unwrap_or(false))
}

/// A matrix norm over the two dims `d` (PyTorch's `linalg_matrix_norm`): 'fro' is the vector
/// 2-norm; ±1 and ±inf the largest (smallest) column or row abs sum, composed as PyTorch
/// composes them (`amax(vector_norm(A, 1, d0), d1)`); 2, -2 and 'nuc' from singular values.
fn matrix_norm_of(x: &Tensor, ord: Ord, d: [i64; 2], keep: bool) -> PyResult<Tensor> {
    let n = match ord {
        Ord::Name(s) if &*s == "fro" => {
            return stats::vector_norm(x, 2.0, Some(&d), keep).py();
        }
        Ord::Name(s) if &*s == "nuc" => f64::NAN,
        Ord::Name(s) => {
            return Err(runtime_error(format!(
                "linalg.matrix_norm: Order {s} not supported."
            )))
        }
        Ord::Num(n) => n,
    };
    if n.abs() == 2.0 || n.is_nan() {
        return singular_norm(x, n, d, keep).py();
    }
    if n.abs() != 1.0 && n.abs() != f64::INFINITY {
        let shown = crate::lang::format::float_repr(n);
        let shown = shown.strip_suffix(".0").unwrap_or(&shown).to_string();
        return Err(runtime_error(format!(
            "linalg.matrix_norm: Order {shown} not supported."
        )));
    }
    let nd = x.ndim() as i64;
    let wrap = |k: i64| if k < 0 { k + nd } else { k };
    let (mut d0, mut d1) = (wrap(d[0]), wrap(d[1]));
    if n.abs() == f64::INFINITY {
        std::mem::swap(&mut d0, &mut d1);
    }
    let sums = stats::vector_norm(x, 1.0, Some(&[d0]), keep).py()?;
    if !keep && d0 < d1 {
        d1 -= 1;
    }
    crate::tensor::ops::reduce::amax(&sums, Some(&[d1]), keep, n > 0.0).py()
}

/// 2, -2 and 'nuc' (`n` NaN): the largest, smallest or summed singular values of the
/// matrices in dims `d`, as PyTorch's `linalg_matrix_norm` composes them (the two dims moved
/// last, `svdvals`, then `amax`/`amin`/`sum` over them; kept dims permuted back).
fn singular_norm(x: &Tensor, n: f64, d: [i64; 2], keep: bool) -> crate::tensor::Result<Tensor> {
    use crate::tensor::ops::reduce;
    let nd = x.ndim() as i64;
    let wrap = |k: i64| if k < 0 { k + nd } else { k };
    let (d0, d1) = (wrap(d[0]), wrap(d[1]));
    let mut perm: Vec<i64> = (0..nd).filter(|&k| k != d0 && k != d1).collect();
    perm.extend([d0, d1]);
    let s = svd::svdvals(&x.permute(&perm)?)?;
    let r = if n.is_nan() {
        reduce::sum(&s, Some(&[-1]), false, None)?
    } else {
        reduce::amax(&s, Some(&[-1]), false, n > 0.0)?
    };
    if !keep {
        return Ok(r);
    }
    let mut back = vec![0i64; perm.len()];
    for (k, &p) in perm.iter().enumerate() {
        back[p as usize] = k as i64;
    }
    r.unsqueeze(-1)?.unsqueeze(-1)?.permute(&back)
}

/// `torch.linalg.svdvals(A)`.
fn svdvals(_: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    Ok(wrap(svd::svdvals(&tensor0(&a, "svdvals")?).py()?))
}

/// `torch.linalg.norm(x, ord=None, dim=None, keepdim=False)`: a vector norm over one dim (or
/// all of a 1-D input), a matrix norm over two (or a 2-D input's, when `ord` is given).
fn linalg_norm(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let x = tensor0(&a, "norm")?;
    let ord = ord_of(arg(&a, 1, "ord"), "norm")?;
    let d = dims(i, arg(&a, 2, "dim"))?;
    let keep = keepdim(i, &a)?;
    if d.is_none() && ord.is_some() && !(1..=2).contains(&x.ndim()) {
        return Err(runtime_error(format!(
            "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {}D.",
            x.ndim()
        )));
    }
    let matrix = match &d {
        Some(d) => d.len() == 2,
        None => x.ndim() == 2 && ord.is_some(),
    };
    if matrix {
        let d = d.map_or([-2, -1], |d| [d[0], d[1]]);
        return Ok(wrap(matrix_norm_of(
            &x,
            ord.unwrap_or(Ord::Name("fro".into())),
            d,
            keep,
        )?));
    }
    let ord = match ord {
        None => 2.0,
        Some(Ord::Num(n)) => n,
        Some(Ord::Name(s)) => {
            return Err(runtime_error(format!(
                "linalg.vector_norm: Order {s} not supported."
            )))
        }
    };
    Ok(wrap(stats::vector_norm(&x, ord, d.as_deref(), keep).py()?))
}

/// `torch.norm(x, p=NAME, dim)`: a matrix norm by name, with `linalg.matrix_norm`'s checks.
pub(super) fn named_matrix_norm(
    x: &Tensor,
    name: PyStr,
    dims: &[i64],
    keep: bool,
) -> PyResult<Tensor> {
    matrix_norm_checked(x, Ord::Name(name), Some(dims.to_vec()), keep)
}

/// `torch.linalg.matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False)`.
fn matrix_norm(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let x = tensor0(&a, "matrix_norm")?;
    let ord = ord_of(arg(&a, 1, "ord"), "matrix_norm")?.unwrap_or(Ord::Name("fro".into()));
    let d = dims(i, arg(&a, 2, "dim"))?;
    let keep = keepdim(i, &a)?;
    Ok(wrap(matrix_norm_checked(&x, ord, d, keep)?))
}

/// `linalg.matrix_norm`'s checks of `dim` and the input's rank, then the norm.
fn matrix_norm_checked(
    x: &Tensor,
    ord: Ord,
    dims: Option<Vec<i64>>,
    keep: bool,
) -> PyResult<Tensor> {
    let d = match dims {
        None => [-2, -1],
        Some(d) if d.len() == 2 => [d[0], d[1]],
        Some(d) => {
            let shown: Vec<String> = d.iter().map(|k| k.to_string()).collect();
            return Err(runtime_error(format!(
                "linalg.matrix_norm: dim must be a 2-tuple. Got {}",
                shown.join(" ")
            )));
        }
    };
    if x.ndim() < 2 {
        return Err(runtime_error(
            "linalg.matrix_norm: The input tensor A must have at least 2 dimensions.",
        ));
    }
    matrix_norm_of(x, ord, d, keep)
}

fn vector_norm(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let x = tensor0(&a, "vector_norm")?;
    let ord = match ord_of(arg(&a, 1, "ord"), "vector_norm")? {
        None => 2.0,
        Some(Ord::Num(n)) => n,
        Some(Ord::Name(_)) => {
            return Err(type_error(
                "linalg_vector_norm(): argument 'ord' must be Number, not str",
            ))
        }
    };
    let d = dims(i, arg(&a, 2, "dim"))?;
    let keep = keepdim(i, &a)?;
    Ok(wrap(stats::vector_norm(&x, ord, d.as_deref(), keep).py()?))
}

/// `torch.linalg`.
pub fn linalg_module() -> Value {
    crate::lang::modules::make_module(
        "torch.linalg",
        &[
            ("norm", linalg_norm),
            ("vector_norm", vector_norm),
            ("matrix_norm", matrix_norm),
            ("svdvals", svdvals),
            ("svd", super::linalg_svd::linalg_svd),
        ],
        &[],
    )
}

/// The tensor behind an array from `t.numpy()`.
fn ndarray(v: &Value) -> Option<Tensor> {
    match v {
        Value::Native(n) => n
            .as_any()
            .downcast_ref::<super::numpy::NdArray>()
            .map(|a| a.0.clone()),
        _ => None,
    }
}

/// `torch.from_numpy(arr)`: a tensor sharing the array's memory.
fn from_numpy(_: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let v = a.pos.first().cloned().unwrap_or(Value::None);
    match ndarray(&v) {
        Some(t) => Ok(wrap(t.detach())),
        None => Err(type_error(format!(
            "expected np.ndarray (got {})",
            v.type_name()
        ))),
    }
}

/// `torch.as_tensor(data, dtype=None, device=None)`: the same tensor when nothing changes, a
/// tensor sharing an array's memory, else a copy (`torch.tensor`).
fn as_tensor_f(i: &mut Interp, this: &Value, a: Args) -> PyResult<Value> {
    let v = a.pos.first().cloned().unwrap_or(Value::None);
    let base = match (as_tensor(&v), ndarray(&v)) {
        (Some(t), _) => Some((t.clone(), true)),
        (None, Some(t)) => Some((t.detach(), false)),
        _ => None,
    };
    let Some((t, same)) = base else {
        return super::functions::tensor(i, this, a);
    };
    let dtype = dtype_kw(&a)?.unwrap_or(t.dtype());
    let device = match kwarg(&a, "device").filter(|d| !matches!(d, Value::None)) {
        Some(d) => device_arg(&d)?,
        None => t.device(),
    };
    if dtype == t.dtype() && device == t.device() {
        return Ok(if same { v } else { wrap(t) });
    }
    check_available(device)?;
    Ok(wrap(t.to_dtype_device(dtype, device).py()?))
}

/// `torch.f(..., out=t)`: the result copied into `t`, which is returned. `t` must already
/// have the result's shape (cudalearn cannot resize a tensor in place).
pub fn write_out(i: &mut Interp, name: &str, r: Value, out: &Value) -> PyResult<Value> {
    write_out_resizing(i, name, r, out, true)
}

/// `write_out`; `warn`: whether resizing a non-empty out tensor warns (ops do; the creation
/// functions resize it silently, as PyTorch's `zeros(..., out=)` calls `resize_`).
pub fn write_out_resizing(
    i: &mut Interp,
    name: &str,
    r: Value,
    out: &Value,
    warn: bool,
) -> PyResult<Value> {
    if matches!(out, Value::None) {
        return Ok(r);
    }
    // (values, indices) results take a pair of out tensors
    let pair = match out {
        Value::Tuple(t) if t.len() == 2 => Some((t[0].clone(), t[1].clone())),
        _ => None,
    };
    let named = match &r {
        Value::Native(n) => n
            .as_any()
            .downcast_ref::<NamedResult>()
            .filter(|r| r.fields == ["values", "indices"]),
        _ => None,
    };
    if let (Some((ov, oi)), Some(rt)) = (pair, named) {
        write_one(i, name, &ov, &rt.values[0], warn)?;
        write_one(i, name, &oi, &rt.values[1], warn)?;
        return Ok(values_indices(out_name(rt.name), ov, oi));
    }
    write_one(i, name, out, &r, warn)?;
    Ok(out.clone())
}

/// The `torch.return_types` name of a result written to `out=`.
fn out_name(name: &'static str) -> &'static str {
    match name {
        "max" => "max_out",
        "min" => "min_out",
        "sort" => "sort_out",
        "topk" => "topk_out",
        "kthvalue" => "kthvalue_out",
        other => other,
    }
}

/// Writes the result `r` into the out tensor `out`; one of another shape is resized (with
/// PyTorch's deprecation warning unless it was empty), keeping its dtype and device.
fn write_one(i: &mut Interp, name: &str, out: &Value, r: &Value, warn: bool) -> PyResult<()> {
    let (Some(o), Some(rt)) = (as_tensor(out), as_tensor(r)) else {
        return Err(type_error(format!(
            "{name}(): argument 'out' must be Tensor, not {}",
            out.type_name()
        )));
    };
    if !crate::tensor::promote::can_cast(rt.dtype(), o.dtype()) {
        return Err(runtime_error(format!(
            "result type {} can't be cast to the desired output type {}",
            rt.dtype().c10_name(),
            o.dtype().c10_name()
        )));
    }
    if (o.requires_grad() || rt.requires_grad()) && crate::tensor::autograd::is_enabled() {
        return Err(runtime_error(format!(
            "{name}(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad."
        )));
    }
    if o.shape() != rt.shape() {
        if warn && o.numel() != 0 {
            i.warn("UserWarning", &format!(
                "An output with one or more elements was resized since it had shape {}, which does not match the required output shape {}. This behavior is deprecated, and in a future PyTorch release outputs will not be resized unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0). (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)",
                crate::tensor::shape::fmt_list(o.shape()),
                crate::tensor::shape::fmt_list(rt.shape())
            ));
        }
        let shape: Vec<i64> = rt.shape().iter().map(|&d| d as i64).collect();
        let fresh = crate::tensor::create::zeros(&shape, Some(o.dtype()), o.device()).py()?;
        o.set_data(&fresh);
    }
    crate::tensor::ops::inplace::copy_(o, rt).py()?;
    Ok(())
}

pub fn torch_fns() -> Vec<(&'static str, NativeFn)> {
    let mut v: Vec<(&'static str, NativeFn)> = vec![
        ("einsum", einsum_f),
        ("svd", super::linalg_svd::torch_svd),
        ("from_numpy", from_numpy),
        ("as_tensor", as_tensor_f),
        ("save", super::save::save),
        ("load", super::save::load),
    ];
    v.extend_from_slice(super::methods_extra::TORCH_FORMS);
    v
}
