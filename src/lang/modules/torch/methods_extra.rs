//! Tensor methods added for PyTorch's beginner surface (issue 17): sorting, scans,
//! statistics, gather/scatter, layout copies, counting (`x.sort()`, `x.cumsum(0)`,
//! `x.var(unbiased=False)`, `x.gather(1, idx)`, `2.5 in x`, ...). The engine side is in
//! `crate::tensor::ops::extra`. Each is also `torch.NAME(x, ...)` (`TORCH_FORMS`).
use super::convert::*;
use super::methods::{arg, pos_or_kw, this};
use super::return_types::values_indices;
use crate::lang::builtins::kwarg;
use crate::lang::error::{runtime_error, type_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::value::*;
use crate::tensor::ops::extra::{counting, cumulative, gather, layout, sort, stats};
use crate::tensor::ops::join::TensorOrScalar;
use crate::tensor::{Scalar, Tensor};

type M = (NativeFn, &'static str);

fn int_arg(a: &Args, k: usize, name: &str, default: i64) -> PyResult<i64> {
    match arg(a, k, name) {
        None => Ok(default),
        Some(v) => v.as_int().ok_or_else(|| {
            type_error(format!(
                "argument '{name}' must be int, not {}",
                v.type_name()
            ))
        }),
    }
}

/// The keyword-only `stable=` of `sort`/`argsort` (None and absent: False).
fn stable(i: &mut Interp, a: &Args) -> PyResult<bool> {
    match kwarg(a, "stable") {
        None | Some(Value::None) => Ok(false),
        Some(v) => i.truthy(&v),
    }
}

fn flag(i: &mut Interp, a: &Args, k: usize, name: &str, default: bool) -> PyResult<bool> {
    match arg(a, k, name) {
        None => Ok(default),
        Some(v) => i.truthy(&v),
    }
}

fn need_int(a: &Args, k: usize, name: &str, f: &str) -> PyResult<i64> {
    arg(a, k, name)
        .and_then(|v| v.as_int())
        .ok_or_else(|| type_error(format!("{f}() missing required argument '{name}' (an int)")))
}

/// Argument `k` (or `name=`) of `f` as a tensor, with PyTorch's message for anything else.
pub(super) fn need_tensor(a: &Args, k: usize, name: &str, f: &str) -> PyResult<Tensor> {
    match arg(a, k, name) {
        Some(v) => as_tensor(&v).cloned().ok_or_else(|| {
            type_error(format!(
                "{f}(): argument '{name}' (position {}) must be Tensor, not {}",
                k + 1,
                v.type_name()
            ))
        }),
        None => Err(type_error(format!(
            "{f}() missing required argument '{name}'"
        ))),
    }
}

/// A `dim=` that may be an int, a tuple of ints, or absent.
pub(super) fn dims(i: &mut Interp, v: Option<Value>) -> PyResult<Option<Vec<i64>>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => Ok(Some(int_list(i, &v)?)),
    }
}

fn pair(name: &'static str, v: Tensor, ix: Tensor) -> Value {
    values_indices(name, wrap(v), wrap(ix))
}

/// `x.var(dim, unbiased, keepdim)` / `x.var(dim, correction=, keepdim=)` (and std).
fn var_std(i: &mut Interp, t: &Value, a: &Args, std: bool) -> PyResult<Value> {
    let x = this(t)?;
    let first = arg(a, 0, "dim");
    let (d, mut unbiased_pos) = match first {
        Some(Value::Bool(b)) => (None, Some(b)),
        other => (dims(i, other)?, None),
    };
    if let Some(v) = arg(a, 1, "unbiased") {
        unbiased_pos = Some(PyBool::from(i.truthy(&v)?));
    }
    let mut correction = match unbiased_pos {
        Some(PyBool::False) => 0.0,
        _ => 1.0,
    };
    if let Some(c) = kwarg(a, "correction").filter(|v| !matches!(v, Value::None)) {
        correction = match scalar_of(&c) {
            Some(s) => s.to_f64(),
            None => return Err(type_error("correction must be a number")),
        };
    }
    let keep = flag(i, a, 2, "keepdim", false)?;
    Ok(wrap(
        stats::var(&x, d.as_deref(), correction, keep, std).py()?,
    ))
}

/// `x.norm(p="fro", dim=None, keepdim=False)`, as `torch.norm` decides: a number (or 'fro' over at
/// most two dims) is a vector norm; any other name is a matrix norm over `dim` (all dims when
/// none is given), which `linalg.matrix_norm` checks.
fn norm(i: &mut Interp, t: &Value, a: &Args) -> PyResult<Value> {
    let x = this(t)?;
    let d = dims(i, arg(a, 1, "dim"))?;
    let keep = flag(i, a, 2, "keepdim", false)?;
    // `p` defaults to 'fro'; an explicit None is 2
    let p = match pos_or_kw(a, 0, "p").unwrap_or_else(|| Value::Str("fro".into())) {
        Value::None => 2.0,
        Value::Str(s) if &*s == "fro" && d.as_ref().is_none_or(|d| d.len() <= 2) => 2.0,
        Value::Str(s) => {
            let d = d.unwrap_or_else(|| (0..x.ndim() as i64).collect());
            return Ok(wrap(super::functions_extra::named_matrix_norm(
                &x, s, &d, keep,
            )?));
        }
        v => scalar_of(&v).map(|s| s.to_f64()).ok_or_else(|| {
            type_error(format!(
                "norm(): argument 'p' must be a number, not {}",
                v.type_name()
            ))
        })?,
    };
    Ok(wrap(stats::vector_norm(&x, p, d.as_deref(), keep).py()?))
}

/// `value` of `masked_fill`/`scatter`: a number or a 0-dim tensor.
fn fill_value(v: Option<Value>, f: &str) -> PyResult<TensorOrScalar> {
    match v {
        Some(v) => match (scalar_of(&v), as_tensor(&v)) {
            (Some(s), _) => Ok(TensorOrScalar::Scalar(s)),
            (_, Some(t)) => Ok(TensorOrScalar::Tensor(t.clone())),
            _ => Err(type_error(format!(
                "{f}() received an invalid combination of arguments - got (value={})",
                v.type_name()
            ))),
        },
        None => Err(type_error(format!(
            "{f}() missing required argument 'value'"
        ))),
    }
}

fn scatter_m(t: &Value, a: &Args, add: bool) -> PyResult<Tensor> {
    let f = if add { "scatter_add" } else { "scatter" };
    let x = this(t)?;
    let d = need_int(a, 0, "dim", f)?;
    let idx = need_tensor(a, 1, "index", f)?;
    let src = arg(a, 2, "src").or_else(|| kwarg(a, "value"));
    match src.as_ref().map(|v| (as_tensor(v), scalar_of(v))) {
        Some((Some(s), _)) => gather::scatter(&x, d, &idx, gather::Src::Tensor(s), add).py(),
        Some((None, Some(v))) if !add => {
            gather::scatter(&x, d, &idx, gather::Src::Value(v), false).py()
        }
        _ => Err(type_error(format!(
            "{f}() missing required argument 'src' (a Tensor{})",
            if add { "" } else { " or a number" }
        ))),
    }
}

fn contains(t: &Value, a: &Args) -> PyResult<Value> {
    let x = this(t)?;
    let item = a.pos.first().cloned().unwrap_or(Value::None);
    let eq = match (scalar_of(&item), as_tensor(&item)) {
        (Some(s), _) => {
            crate::tensor::ops::compare::compare_scalar(crate::tensor::BinaryOp::Eq, &x, s).py()?
        }
        (_, Some(o)) => crate::tensor::ops::compare::eq(o, &x).py()?,
        _ => {
            return Err(runtime_error(format!(
            "Tensor.__contains__ only supports Tensor or scalar, but you passed in a <class '{}'>.",
            item.type_name()
        )))
        }
    };
    let any = crate::tensor::ops::reduce::all_any(&eq, None, false, false).py()?;
    Ok(Value::bool(any.item().py()?.to_bool()))
}

fn unique(i: &mut Interp, t: &Value, a: &Args) -> PyResult<Value> {
    let x = this(t)?;
    let inv = flag(i, a, 1, "return_inverse", false)?;
    let cnt = flag(i, a, 2, "return_counts", false)?;
    let u = match arg(a, 3, "dim") {
        None | Some(Value::None) => counting::unique(&x).py()?,
        Some(d) => {
            let d = d
                .as_int()
                .ok_or_else(|| type_error("unique(): argument 'dim' must be int"))?;
            counting::unique_dim(&x, d).py()?
        }
    };
    if !inv && !cnt {
        return Ok(wrap(u.values));
    }
    let mut out = vec![wrap(u.values)];
    if inv {
        out.push(wrap(u.inverse));
    }
    if cnt {
        out.push(wrap(u.counts));
    }
    Ok(Value::tuple(out))
}

/// A tuple of tensors (what `split` and `chunk` return).
fn pieces(ts: Vec<Tensor>) -> PyResult<Value> {
    Ok(Value::tuple(ts.into_iter().map(wrap).collect()))
}

/// `x.split(split_size_or_sections, dim=0)`: an int gives equal pieces, a list their sizes.
fn split(i: &mut Interp, t: &Value, a: &Args) -> PyResult<Value> {
    let x = this(t)?;
    let d = int_arg(a, 1, "dim", 0)?;
    match arg(a, 0, "split_size") {
        Some(Value::Int(n)) => pieces(layout::split(&x, n, d).py()?),
        Some(v @ (Value::List(_) | Value::Tuple(_))) => {
            let sizes = int_list(i, &v)?;
            pieces(layout::split_with_sizes(&x, &sizes, d).py()?)
        }
        Some(v) if v.as_int().is_some() => {
            pieces(layout::split(&x, v.as_int().unwrap_or(0), d).py()?)
        }
        _ => Err(type_error(
            "split() missing required argument 'split_size' (an int or a list of ints)",
        )),
    }
}

/// Writes `r` into `t` in place (the `_` forms), keeping autograd's rules.
fn in_place(t: &Value, r: &Tensor) -> PyResult<Value> {
    crate::tensor::ops::inplace::write_result_tracked(&this(t)?, r).py()?;
    Ok(t.clone())
}

fn num(v: Option<Value>, name: &str) -> PyResult<Option<f64>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => scalar_of(&v).map(|s| Some(s.to_f64())).ok_or_else(|| {
            type_error(format!(
                "argument '{name}' must be a number, not {}",
                v.type_name()
            ))
        }),
    }
}

fn lerp(t: &Value, a: &Args) -> PyResult<Tensor> {
    let x = this(t)?;
    let end = need_tensor(a, 0, "end", "lerp")?;
    match arg(a, 1, "weight") {
        Some(w) => match (as_tensor(&w), scalar_of(&w)) {
            (Some(wt), _) => stats::lerp(&x, &end, wt, false).py(),
            (_, Some(s)) => {
                let wt = Tensor::scalar(
                    crate::tensor::Scalar::Float(s.to_f64()),
                    x.dtype(),
                    x.device(),
                )
                .py()?;
                stats::lerp(&x, &end, &wt, true).py()
            }
            _ => Err(type_error(
                "lerp(): argument 'weight' must be a number or Tensor",
            )),
        },
        None => Err(type_error("lerp() missing required argument 'weight'")),
    }
}

macro_rules! m {
    ($($name:literal => $f:expr),* $(,)?) => {
        pub const METHOD_NAMES: &[&str] = &[$($name),*];
        pub fn tensor_method(name: &str) -> Option<M> {
            match name {
                $($name => Some(($f, $name)),)*
                _ => None,
            }
        }
    };
}

m! {
    "__contains__" => |_, t, a| contains(t, &a),
    "svd" => super::linalg_svd::tensor_svd,
    "sort" => |i, t, a| {
        let (d, desc) = (int_arg(&a, 0, "dim", -1)?, flag(i, &a, 1, "descending", false)?);
        let (v, ix) = sort::sort(&this(t)?, d, desc, stable(i, &a)?).py()?;
        Ok(pair("sort", v, ix))
    },
    "argsort" => |i, t, a| {
        let (d, desc) = (int_arg(&a, 0, "dim", -1)?, flag(i, &a, 1, "descending", false)?);
        Ok(wrap(sort::argsort(&this(t)?, d, desc, stable(i, &a)?).py()?))
    },
    "topk" => |i, t, a| {
        let k = need_int(&a, 0, "k", "topk")?;
        let (d, largest) = (int_arg(&a, 1, "dim", -1)?, flag(i, &a, 2, "largest", true)?);
        let sorted = flag(i, &a, 3, "sorted", true)?;
        let (v, ix) = sort::topk(&this(t)?, k, d, largest, sorted).py()?;
        Ok(pair("topk", v, ix))
    },
    "kthvalue" => |i, t, a| {
        let k = need_int(&a, 0, "k", "kthvalue")?;
        let (d, keep) = (int_arg(&a, 1, "dim", -1)?, flag(i, &a, 2, "keepdim", false)?);
        let (v, ix) = sort::kthvalue(&this(t)?, k, d, keep).py()?;
        Ok(pair("kthvalue", v, ix))
    },
    "cumsum" => |_, t, a| {
        let d = need_int(&a, 0, "dim", "cumsum")?;
        Ok(wrap(cumulative::cumsum(&this(t)?, d, dtype_kw(&a)?).py()?))
    },
    "cumprod" => |_, t, a| {
        let d = need_int(&a, 0, "dim", "cumprod")?;
        Ok(wrap(cumulative::cumprod(&this(t)?, d, dtype_kw(&a)?).py()?))
    },
    "cumsum_" => |_, t, a| {
        let d = need_int(&a, 0, "dim", "cumsum_")?;
        let r = cumulative::cumsum(&this(t)?, d, None).py()?;
        in_place(t, &r)
    },
    "var" => |i, t, a| var_std(i, t, &a, false),
    "std" => |i, t, a| var_std(i, t, &a, true),
    "norm" => |i, t, a| norm(i, t, &a),
    "logsumexp" => |i, t, a| {
        let d = dims(i, arg(&a, 0, "dim"))?.ok_or_else(|| type_error("logsumexp() missing required argument 'dim'"))?;
        let keep = flag(i, &a, 1, "keepdim", false)?;
        Ok(wrap(stats::logsumexp(&this(t)?, &d, keep).py()?))
    },
    "gather" => |_, t, a| {
        let d = need_int(&a, 0, "dim", "gather")?;
        let idx = need_tensor(&a, 1, "index", "gather")?;
        Ok(wrap(gather::gather(&this(t)?, d, &idx).py()?))
    },
    "index_select" => |_, t, a| {
        let d = need_int(&a, 0, "dim", "index_select")?;
        let idx = need_tensor(&a, 1, "index", "index_select")?;
        Ok(wrap(gather::index_select(&this(t)?, d, &idx).py()?))
    },
    "scatter" => |_, t, a| Ok(wrap(scatter_m(t, &a, false)?)),
    "scatter_add" => |_, t, a| Ok(wrap(scatter_m(t, &a, true)?)),
    "scatter_" => |_, t, a| { let r = scatter_m(t, &a, false)?; in_place(t, &r) },
    "scatter_add_" => |_, t, a| { let r = scatter_m(t, &a, true)?; in_place(t, &r) },
    "masked_fill" => |_, t, a| {
        let mask = need_tensor(&a, 0, "mask", "masked_fill")?;
        let v = fill_value(arg(&a, 1, "value"), "masked_fill")?;
        Ok(wrap(gather::masked_fill(&this(t)?, &mask, &v).py()?))
    },
    "masked_fill_" => |_, t, a| {
        let mask = need_tensor(&a, 0, "mask", "masked_fill_")?;
        let v = fill_value(arg(&a, 1, "value"), "masked_fill_")?;
        let r = gather::masked_fill(&this(t)?, &mask, &v).py()?;
        in_place(t, &r)
    },
    "flip" => |i, t, a| {
        let d = if a.pos.len() > 1 { sizes(i, &a.pos, "flip")? } else { dims(i, arg(&a, 0, "dims"))?.unwrap_or_default() };
        Ok(wrap(cumulative::flip(&this(t)?, &d).py()?))
    },
    "fliplr" => |_, t, _| Ok(wrap(cumulative::flip(&this(t)?, &[1]).py()?)),
    "flipud" => |_, t, _| Ok(wrap(cumulative::flip(&this(t)?, &[0]).py()?)),
    "roll" => |i, t, a| {
        let s = dims(i, arg(&a, 0, "shifts"))?.ok_or_else(|| type_error("roll() missing required argument 'shifts'"))?;
        let d = dims(i, arg(&a, 1, "dims"))?.unwrap_or_default();
        Ok(wrap(cumulative::roll(&this(t)?, &s, &d).py()?))
    },
    "repeat" => |i, t, a| {
        let r = match kwarg(&a, "repeats") { Some(v) => int_list(i, &v)?, None => sizes(i, &a.pos, "repeat")? };
        Ok(wrap(layout::repeat(&this(t)?, &r).py()?))
    },
    "tile" => |i, t, a| {
        let r = match kwarg(&a, "dims") { Some(v) => int_list(i, &v)?, None => sizes(i, &a.pos, "tile")? };
        Ok(wrap(layout::tile(&this(t)?, &r).py()?))
    },
    "diag" => |_, t, a| Ok(wrap(layout::diag(&this(t)?, int_arg(&a, 0, "diagonal", 0)?).py()?)),
    "diag_embed" => |_, t, a| {
        let (o, d1, d2) = (int_arg(&a, 0, "offset", 0)?, int_arg(&a, 1, "dim1", -2)?, int_arg(&a, 2, "dim2", -1)?);
        Ok(wrap(layout::diag_embed(&this(t)?, o, d1, d2).py()?))
    },
    "tril" => |_, t, a| Ok(wrap(layout::tri(&this(t)?, int_arg(&a, 0, "diagonal", 0)?, true).py()?)),
    "triu" => |_, t, a| Ok(wrap(layout::tri(&this(t)?, int_arg(&a, 0, "diagonal", 0)?, false).py()?)),
    "tril_" => |_, t, a| { let r = layout::tri(&this(t)?, int_arg(&a, 0, "diagonal", 0)?, true).py()?; in_place(t, &r) },
    "triu_" => |_, t, a| { let r = layout::tri(&this(t)?, int_arg(&a, 0, "diagonal", 0)?, false).py()?; in_place(t, &r) },
    "outer" => |_, t, a| {
        let o = need_tensor(&a, 0, "vec2", "outer")?;
        Ok(wrap(stats::outer(&this(t)?, &o).py()?))
    },
    "lerp" => |_, t, a| Ok(wrap(lerp(t, &a)?)),
    "addmm" => |_, t, a| {
        let (m1, m2) = (need_tensor(&a, 0, "mat1", "addmm")?, need_tensor(&a, 1, "mat2", "addmm")?);
        let coef = |k: &str| -> PyResult<Scalar> {
            match kwarg(&a, k) {
                None => Ok(Scalar::Int(1)),
                Some(v) => scalar_of(&v).ok_or_else(|| type_error(format!("addmm(): argument '{k}' must be Number, not {}", v.type_name()))),
            }
        };
        let (beta, alpha) = (coef("beta")?, coef("alpha")?);
        Ok(wrap(crate::tensor::ops::addmm::addmm_checked(&this(t)?, &m1, &m2, beta, alpha).py()?))
    },
    "nan_to_num" => |_, t, a| {
        let nan = num(arg(&a, 0, "nan"), "nan")?.unwrap_or(0.0);
        let (p, n) = (num(arg(&a, 1, "posinf"), "posinf")?, num(arg(&a, 2, "neginf"), "neginf")?);
        Ok(wrap(stats::nan_to_num(&this(t)?, nan, p, n).py()?))
    },
    "clamp_min" => |_, t, a| {
        let v = arg(&a, 0, "min").and_then(|v| scalar_of(&v)).ok_or_else(|| type_error("clamp_min() missing required argument 'min' (a number)"))?;
        let r = crate::tensor::ops::binary::clamp(&this(t)?, Some(v), None).py()?;
        crate::tensor::ops::extra::host::rename(&r, "ClampMinBackward0");
        Ok(wrap(r))
    },
    "clamp_max" => |_, t, a| {
        let v = arg(&a, 0, "max").and_then(|v| scalar_of(&v)).ok_or_else(|| type_error("clamp_max() missing required argument 'max' (a number)"))?;
        let r = crate::tensor::ops::binary::clamp(&this(t)?, None, Some(v)).py()?;
        crate::tensor::ops::extra::host::rename(&r, "ClampMaxBackward0");
        Ok(wrap(r))
    },
    "isclose" => |i, t, a| {
        let o = need_tensor(&a, 0, "other", "isclose")?;
        let rtol = num(arg(&a, 1, "rtol"), "rtol")?.unwrap_or(1e-5);
        let atol = num(arg(&a, 2, "atol"), "atol")?.unwrap_or(1e-8);
        let en = flag(i, &a, 3, "equal_nan", false)?;
        Ok(wrap(crate::tensor::ops::compare::isclose(&this(t)?, &o, rtol, atol, en).py()?))
    },
    "unique" => |i, t, a| unique(i, t, &a),
    "split" => |i, t, a| split(i, t, &a),
    "is_inference" => |_, t, _| Ok(Value::bool(this(t)?.is_inference())),
    "chunk" => |_, t, a| {
        let n = need_int(&a, 0, "chunks", "chunk")?;
        let d = int_arg(&a, 1, "dim", 0)?;
        pieces(layout::chunk(&this(t)?, n, d).py()?)
    },
    "count_nonzero" => |i, t, a| {
        let x = this(t)?;
        let nz = crate::tensor::ops::compare::compare_scalar(crate::tensor::BinaryOp::Ne, &x, crate::tensor::Scalar::Int(0)).py()?;
        let d = dims(i, arg(&a, 0, "dim"))?;
        Ok(wrap(crate::tensor::ops::reduce::sum(&nz, d.as_deref(), false, None).py()?))
    },
    "bincount" => |_, t, a| {
        let w = arg(&a, 0, "weights").and_then(|v| as_tensor(&v).cloned());
        let m = int_arg(&a, 1, "minlength", 0)?;
        Ok(wrap(counting::bincount(&this(t)?, w.as_ref(), m).py()?))
    },
    "histc" => |_, t, a| {
        let bins = int_arg(&a, 0, "bins", 100)?;
        let lo = num(arg(&a, 1, "min"), "min")?.unwrap_or(0.0);
        let hi = num(arg(&a, 2, "max"), "max")?.unwrap_or(0.0);
        Ok(wrap(counting::histc(&this(t)?, bins, lo, hi).py()?))
    },
}

/// `torch.NAME(x, ...)` for the methods above that PyTorch also offers as functions.
macro_rules! torch_forms {
    ($($n:literal),* $(,)?) => {
        pub const TORCH_FORMS: &[(&str, NativeFn)] =
            &[$(($n, |i, _, a| super::functions::method_form(i, $n, a))),*];
    };
}

torch_forms!(
    "sort",
    "argsort",
    "topk",
    "kthvalue",
    "cumsum",
    "cumprod",
    "var",
    "std",
    "norm",
    "logsumexp",
    "gather",
    "index_select",
    "scatter",
    "scatter_add",
    "masked_fill",
    "flip",
    "fliplr",
    "flipud",
    "roll",
    "tile",
    "diag",
    "diag_embed",
    "tril",
    "triu",
    "outer",
    "lerp",
    "addmm",
    "nan_to_num",
    "clamp_min",
    "clamp_max",
    "isclose",
    "unique",
    "split",
    "is_inference",
    "chunk",
    "count_nonzero",
    "bincount",
    "histc",
);
