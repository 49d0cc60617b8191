//! `torch.*` functions: creation, randomness, joins, math, and settings.
use super::convert::*;
use super::methods::{arg, max_min};
use crate::lang::builtins::kwarg;
use crate::lang::error::{type_error, value_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::value::*;
use crate::tensor::ops::{compare, join};
use crate::tensor::random::with_default;
use crate::tensor::{create, DType, Device, Scalar, Tensor};

fn device_kw(a: &Args) -> PyResult<Device> {
    match kwarg(a, "device") {
        None | Some(Value::None) => Ok(Device::Cpu),
        Some(v) => device_arg(&v),
    }
}

/// Applies `requires_grad=` of a creation call.
fn finish(i: &mut Interp, t: Tensor, a: &Args) -> PyResult<Value> {
    if let Some(v) = kwarg(a, "requires_grad") {
        if i.truthy(&v)? {
            if !t.dtype().is_floating() {
                return Err(crate::lang::error::runtime_error(
                    "Only Tensors of floating point and complex dtype can require gradients",
                ));
            }
            t.set_requires_grad(true);
        }
    }
    Ok(wrap(t))
}

pub fn tensor(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let Some(data) = a.pos.first() else {
        return Err(type_error(
            "tensor() missing 1 required positional arguments: \"data\"",
        ));
    };
    let nd = nested(i, data, 0)?;
    let t = Tensor::from_nested(&nd, dtype_kw(&a)?, device_kw(&a)?).py()?;
    finish(i, t, &a)
}

fn filled(
    i: &mut Interp,
    a: Args,
    name: &str,
    f: fn(&[i64], Option<DType>, Device) -> crate::tensor::Result<Tensor>,
) -> PyResult<Value> {
    let s = sizes(i, &a.pos, name)?;
    let t = f(&s, dtype_kw(&a)?, device_kw(&a)?).py()?;
    finish(i, t, &a)
}

pub fn zeros(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    filled(i, a, "zeros", create::zeros)
}
pub fn ones(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    filled(i, a, "ones", create::ones)
}
pub fn empty(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    filled(i, a, "empty", create::empty)
}

pub fn full(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let size = a
        .pos
        .first()
        .cloned()
        .ok_or_else(|| type_error("full() missing required argument 'size'"))?;
    let s = sizes(i, &[size], "full")?;
    let v = arg(&a, 1, "fill_value")
        .and_then(|v| scalar_of(&v))
        .ok_or_else(|| type_error("full() missing required argument 'fill_value'"))?;
    let t = create::full(&s, v, dtype_kw(&a)?, device_kw(&a)?).py()?;
    finish(i, t, &a)
}

fn like(
    i: &mut Interp,
    a: &Args,
    f: fn(&Tensor, Option<DType>) -> crate::tensor::Result<Tensor>,
) -> PyResult<Value> {
    let t = a
        .pos
        .first()
        .and_then(as_tensor)
        .cloned()
        .ok_or_else(|| type_error("expected a Tensor as the first argument"))?;
    let r = f(&t, dtype_kw(a)?).py()?;
    finish(i, r, a)
}

pub fn arange(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let nums: Vec<Scalar> = a
        .pos
        .iter()
        .map(|v| {
            scalar_of(v).ok_or_else(|| {
                type_error(format!(
                    "arange(): argument 'end' must be Number, not {}",
                    v.type_name()
                ))
            })
        })
        .collect::<PyResult<_>>()?;
    let (start, end, step) = match nums.as_slice() {
        [e] => (Scalar::Int(0), *e, Scalar::Int(1)),
        [s, e] => (*s, *e, Scalar::Int(1)),
        [s, e, st, ..] => (*s, *e, *st),
        [] => match kwarg(&a, "end").and_then(|v| scalar_of(&v)) {
            Some(e) => (Scalar::Int(0), e, Scalar::Int(1)),
            None => return Err(type_error("arange() missing required argument 'end'")),
        },
    };
    let step = kwarg(&a, "step")
        .and_then(|v| scalar_of(&v))
        .unwrap_or(step);
    let t = create::arange(start, end, step, dtype_kw(&a)?, device_kw(&a)?).py()?;
    finish(i, t, &a)
}

pub fn linspace(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let f = |k: usize, n: &str| -> PyResult<f64> {
        arg(&a, k, n)
            .and_then(|v| scalar_of(&v))
            .map(|s| s.to_f64())
            .ok_or_else(|| type_error(format!("linspace() missing required argument '{n}'")))
    };
    let steps = arg(&a, 2, "steps")
        .and_then(|v| v.as_int())
        .ok_or_else(|| type_error("linspace() missing required argument 'steps'"))?;
    let t = create::linspace(
        f(0, "start")?,
        f(1, "end")?,
        steps,
        dtype_kw(&a)?,
        device_kw(&a)?,
    )
    .py()?;
    finish(i, t, &a)
}

pub fn eye(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let n = arg(&a, 0, "n")
        .and_then(|v| v.as_int())
        .ok_or_else(|| type_error("eye() missing required argument 'n'"))?;
    let m = arg(&a, 1, "m").and_then(|v| v.as_int());
    let t = create::eye(n, m, dtype_kw(&a)?, device_kw(&a)?).py()?;
    finish(i, t, &a)
}

/// Random fills draw on the host generator, so a seed gives the same numbers on every device.
fn random_tensor(i: &mut Interp, a: &Args, shape: &[i64], normal: bool) -> PyResult<Value> {
    let dtype = dtype_kw(a)?.unwrap_or_else(crate::tensor::default_dtype);
    if !dtype.is_floating() {
        let what = if normal {
            "normal_kernel_cpu"
        } else {
            "check_uniform_bounds"
        };
        return Err(crate::lang::error::runtime_error(format!(
            "\"{what}\" not implemented for '{}'",
            long_name(dtype)
        )));
    }
    let t = random_fill(shape, dtype, normal, 0.0, 1.0)?;
    let t = t.to_device(device_kw(a)?).py()?;
    finish(i, t, a)
}

pub fn long_name(d: DType) -> &'static str {
    match d {
        DType::F32 => "Float",
        DType::F64 => "Double",
        DType::F16 => "Half",
        DType::BF16 => "BFloat16",
        DType::I64 => "Long",
        DType::I32 => "Int",
        DType::I8 => "Char",
        DType::U8 => "Byte",
        DType::Bool => "Bool",
    }
}

pub fn random_fill(
    shape: &[i64],
    dtype: DType,
    normal: bool,
    p0: f64,
    p1: f64,
) -> PyResult<Tensor> {
    create::random(shape, dtype, normal, p0, p1).py()
}

pub fn randn(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let s = sizes(i, &a.pos, "randn")?;
    random_tensor(i, &a, &s, true)
}
pub fn rand(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let s = sizes(i, &a.pos, "rand")?;
    random_tensor(i, &a, &s, false)
}

pub fn randint(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let (low, high, size) = match a.pos.as_slice() {
        [h, s] => (0, h.as_int(), s.clone()),
        [l, h, s, ..] => (l.as_int().unwrap_or(0), h.as_int(), s.clone()),
        _ => match (kwarg(&a, "high"), kwarg(&a, "size")) {
            (Some(h), Some(s)) => (
                kwarg(&a, "low").and_then(|v| v.as_int()).unwrap_or(0),
                h.as_int(),
                s,
            ),
            _ => {
                return Err(type_error(
                    "randint() received an invalid combination of arguments",
                ))
            }
        },
    };
    let high = high.ok_or_else(|| type_error("randint(): argument 'high' must be int"))?;
    if low >= high {
        return Err(crate::lang::error::runtime_error(format!(
            "random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )));
    }
    let s = sizes(i, &[size], "randint")?;
    let dtype = dtype_kw(&a)?.unwrap_or(DType::I64);
    let template = create::empty(&s, Some(DType::I64), Device::Cpu).py()?;
    let mut v = vec![0i64; template.numel()];
    with_default(|g| g.fill_randint(&mut v, low, high));
    let t = Tensor::from_i64s(&v, template.shape(), dtype)
        .py()?
        .to_device(device_kw(&a)?)
        .py()?;
    finish(i, t, &a)
}

pub fn randperm(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let n = arg(&a, 0, "n")
        .and_then(|v| v.as_int())
        .ok_or_else(|| type_error("randperm() missing required argument 'n'"))?;
    if n < 0 {
        return Err(crate::lang::error::runtime_error(format!(
            "n must be non-negative, got{n}"
        )));
    }
    let gen = crate::lang::builtins::kwarg(&a, "generator");
    let v = super::generator::with_gen(gen.as_ref(), |g| g.randperm(n as usize))?;
    let dtype = dtype_kw(&a)?.unwrap_or(DType::I64);
    let t = Tensor::from_i64s(&v, &[n as usize], dtype)
        .py()?
        .to_device(device_kw(&a)?)
        .py()?;
    finish(i, t, &a)
}

pub fn manual_seed(_: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    super::generator::seed_default(&a)
}

fn tensors(i: &mut Interp, v: &Value, fname: &str) -> PyResult<Vec<Tensor>> {
    let items = i.collect(v).map_err(|_| {
        type_error(format!("{fname}() received an invalid combination of arguments - got ({}), but expected a sequence of Tensors", v.type_name()))
    })?;
    items
        .iter()
        .enumerate()
        .map(|(k, x)| {
            as_tensor(x).cloned().ok_or_else(|| {
                type_error(format!(
                    "expected Tensor as element {k} in argument 0, but got {}",
                    x.type_name()
                ))
            })
        })
        .collect()
}

pub fn cat(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let ts = tensors(i, a.pos.first().unwrap_or(&Value::None), "cat")?;
    let dim = arg(&a, 1, "dim").and_then(|v| v.as_int()).unwrap_or(0);
    Ok(wrap(join::cat(&ts, dim).py()?))
}

pub fn stack(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let ts = tensors(i, a.pos.first().unwrap_or(&Value::None), "stack")?;
    let dim = arg(&a, 1, "dim").and_then(|v| v.as_int()).unwrap_or(0);
    Ok(wrap(join::stack(&ts, dim).py()?))
}

pub fn where_(i: &mut Interp, _: &Value, mut a: Args) -> PyResult<Value> {
    let out = match a.kw.iter().position(|(k, _)| &*k.as_str() == "out") {
        Some(k) => a.kw.remove(k).1,
        None => Value::None,
    };
    let cond = a
        .pos
        .first()
        .and_then(as_tensor)
        .cloned()
        .ok_or_else(|| type_error("where(): argument 'condition' must be Tensor"))?;
    if a.pos.len() == 1 {
        // `torch.where(condition)` is `torch.nonzero(condition, as_tuple=True)`
        // (a 0-d condition counts as 1-d: PyTorch answers `(tensor([0]),)` for True)
        let c = if cond.ndim() == 0 {
            cond.reshape(&[1]).py()?
        } else {
            cond.clone()
        };
        let nz = crate::tensor::index::nonzero(&c).py()?;
        let cols = (0..cond.ndim().max(1))
            .map(|k| Ok(wrap(nz.select(1, k as i64).py()?.contiguous().py()?)))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(Value::tuple(cols));
    }
    let side = |v: &Value| -> PyResult<join::TensorOrScalar> {
        if let Some(t) = as_tensor(v) {
            return Ok(join::TensorOrScalar::Tensor(t.clone()));
        }
        scalar_of(v)
            .map(join::TensorOrScalar::Scalar)
            .ok_or_else(|| {
                type_error(format!(
                    "where(): argument 'input' must be Tensor, not {}",
                    v.type_name()
                ))
            })
    };
    let x = side(a.pos.get(1).unwrap_or(&Value::None))?;
    let y = side(a.pos.get(2).unwrap_or(&Value::None))?;
    if !matches!(out, Value::None) {
        // Only the all-tensor overload of `where` takes `out=`.
        for (k, (v, what)) in [(&x, "input"), (&y, "other")].into_iter().enumerate() {
            if matches!(v, join::TensorOrScalar::Scalar(_)) {
                return Err(type_error(format!(
                    "where(): argument '{what}' (position {}) must be Tensor, not {}",
                    k + 2,
                    a.pos[k + 1].type_name()
                )));
            }
        }
    }
    let r = wrap(join::where_(&cond, &x, &y).py()?);
    super::functions_extra::write_out(i, "where", r, &out)
}

pub fn allclose_impl(i: &mut Interp, t: &Tensor, a: &Args, first: usize) -> PyResult<Value> {
    let o = arg(a, first, "other")
        .and_then(|v| as_tensor(&v).cloned())
        .ok_or_else(|| type_error("allclose(): argument 'other' must be Tensor"))?;
    let num = |k: usize, n: &str, d: f64| {
        arg(a, k, n)
            .and_then(|v| scalar_of(&v))
            .map_or(d, |s| s.to_f64())
    };
    let rtol = num(first + 1, "rtol", 1e-5);
    let atol = num(first + 2, "atol", 1e-8);
    let equal_nan = match arg(a, first + 3, "equal_nan") {
        Some(v) => i.truthy(&v)?,
        None => false,
    };
    Ok(Value::bool(
        compare::allclose(t, &o, rtol, atol, equal_nan).py()?,
    ))
}

pub fn allclose(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let t = a
        .pos
        .first()
        .and_then(as_tensor)
        .cloned()
        .ok_or_else(|| type_error("allclose(): argument 'input' must be Tensor"))?;
    allclose_impl(i, &t, &a, 1)
}

/// `torch.f(x, ...)` for a method `x.f(...)`.
pub fn method_form(i: &mut Interp, name: &str, mut a: Args) -> PyResult<Value> {
    if let Some(k) = a.kw.iter().position(|(k, _)| &*k.as_str() == "out") {
        let (_, out) = a.kw.remove(k);
        let r = method_form(i, name, a)?;
        return super::functions_extra::write_out(i, name, r, &out);
    }
    if a.pos.is_empty() {
        if let Some(pos) = a.kw.iter().position(|(k, _)| &*k.as_str() == "input") {
            let (_, v) = a.kw.remove(pos);
            a.pos.push(v);
        }
    }
    let Some(first) = a.pos.first().cloned() else {
        return Err(type_error(format!(
            "{name}() missing 1 required positional arguments: \"input\""
        )));
    };
    let first = match (as_tensor(&first), scalar_of(&first)) {
        (Some(_), _) => first,
        (None, Some(_)) if matches!(name, "exp" | "log" | "sqrt" | "abs") => {
            return Err(type_error(format!(
                "{name}(): argument 'input' (position 1) must be Tensor, not {}",
                first.type_name()
            )))
        }
        _ => {
            return Err(type_error(format!(
                "{name}(): argument 'input' (position 1) must be Tensor, not {}",
                first.type_name()
            )))
        }
    };
    a.pos.remove(0);
    i.call_method(&first, name, a)
}

pub fn max(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    max_min_f(i, a, true)
}
pub fn min(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    max_min_f(i, a, false)
}

/// `torch.max(x, ...)` / `torch.min(x, ...)`, `out=` included.
fn max_min_f(i: &mut Interp, mut a: Args, is_max: bool) -> PyResult<Value> {
    let name = if is_max { "max" } else { "min" };
    let t = a
        .pos
        .first()
        .and_then(as_tensor)
        .cloned()
        .ok_or_else(|| type_error(format!("{name}(): argument 'input' must be Tensor")))?;
    a.pos.remove(0);
    let out = match a.kw.iter().position(|(k, _)| &*k.as_str() == "out") {
        Some(k) => a.kw.remove(k).1,
        None => Value::None,
    };
    let r = max_min(i, &t, &a, is_max)?;
    super::functions_extra::write_out(i, name, r, &out)
}

pub fn set_printoptions(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    super::tensor::PRINT_OPTIONS.with(|o| -> PyResult<()> {
        let mut o = o.borrow_mut();
        // Every call resets sci_mode unless given, as PyTorch does.
        o.sci_mode = None;
        for (k, v) in &a.kw {
            match (&*k.as_str(), v) {
                ("precision", Value::Int(p)) if *p >= 0 => o.precision = *p as usize,
                ("threshold", v) => {
                    o.threshold = scalar_of(v)
                        .map(|s| s.to_f64())
                        .ok_or_else(|| type_error("threshold must be a number"))?
                }
                ("edgeitems", Value::Int(e)) if *e >= 0 => o.edgeitems = *e as usize,
                ("linewidth", Value::Int(l)) if *l >= 0 => o.linewidth = *l as usize,
                ("sci_mode", Value::None) => o.sci_mode = None,
                ("sci_mode", v) => o.sci_mode = Some(i.truthy(v)?),
                ("profile", Value::Str(p)) => {
                    if !o.apply_profile(p) {
                        return Err(value_error(format!("unknown profile {p}")));
                    }
                }
                (k, _) => {
                    return Err(type_error(format!(
                        "set_printoptions() got an unexpected keyword argument '{k}'"
                    )))
                }
            }
        }
        Ok(())
    })?;
    Ok(Value::None)
}

pub fn zeros_like(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    like(i, &a, create::zeros_like)
}
pub fn ones_like(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    like(i, &a, create::ones_like)
}
pub fn empty_like(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    like(i, &a, create::empty_like)
}
pub fn rand_like(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    random_like(i, a, false)
}
pub fn randn_like(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    random_like(i, a, true)
}
fn random_like(i: &mut Interp, a: Args, normal: bool) -> PyResult<Value> {
    let t = a
        .pos
        .first()
        .and_then(as_tensor)
        .cloned()
        .ok_or_else(|| type_error("expected a Tensor"))?;
    let dtype = dtype_kw(&a)?.unwrap_or(t.dtype());
    let shape: Vec<i64> = t.shape().iter().map(|&d| d as i64).collect();
    let r = random_fill(&shape, dtype, normal, 0.0, 1.0)?
        .to_device(t.device())
        .py()?;
    finish(i, r, &a)
}
