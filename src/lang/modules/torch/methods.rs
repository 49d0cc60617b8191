//! Tensor methods (`x.sum(dim=1)`, `x.to('cuda')`, `x.add_(y)`, ...).
use super::convert::*;
use super::return_types::values_indices;
use super::tensor::{item, repr_tensor, tensor_binary};
use crate::lang::builtins::kwarg;
use crate::lang::error::{not_implemented, runtime_error, type_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::value::*;
use crate::tensor::ops::{binary as tb, inplace, matmul, reduce, unary};
use crate::tensor::{BinaryOp, DType, Tensor, UnaryOp};

type M = (NativeFn, &'static str);

/// The tensor a method is bound to.
pub fn this(v: &Value) -> PyResult<Tensor> {
    as_tensor(v).cloned().ok_or_else(|| {
        type_error(format!(
            "descriptor requires a 'Tensor' object but received a '{}'",
            v.type_name()
        ))
    })
}

/// Positional argument `k` or keyword `name`, an explicit None included.
pub fn pos_or_kw(a: &Args, k: usize, name: &str) -> Option<Value> {
    a.pos.get(k).cloned().or_else(|| kwarg(a, name))
}

/// Positional argument `k` or keyword `name`; None reads as absent.
pub fn arg(a: &Args, k: usize, name: &str) -> Option<Value> {
    pos_or_kw(a, k, name).filter(|v| !matches!(v, Value::None))
}

fn bool_arg(i: &mut Interp, a: &Args, k: usize, name: &str) -> PyResult<bool> {
    match arg(a, k, name) {
        Some(v) => i.truthy(&v),
        None => Ok(false),
    }
}

fn dims_arg(i: &mut Interp, v: Option<Value>) -> PyResult<Option<Vec<i64>>> {
    match v {
        None => Ok(None),
        Some(v) => Ok(Some(int_list(i, &v)?)),
    }
}

fn unary_m(op: UnaryOp) -> impl Fn(&Value) -> PyResult<Value> {
    move |t| Ok(wrap(unary::unary(op, &this(t)?).py()?))
}

/// `x.max()`, `x.max(dim, keepdim)`, `x.max(other)` (and min).
pub fn max_min(i: &mut Interp, t: &Tensor, a: &Args, is_max: bool) -> PyResult<Value> {
    let name = if is_max { "max" } else { "min" };
    match arg(a, 0, "dim") {
        None => Ok(wrap(reduce::max_all(t, is_max).py()?)),
        Some(v) => {
            if let Some(o) = as_tensor(&v) {
                let op = if is_max {
                    BinaryOp::Maximum
                } else {
                    BinaryOp::Minimum
                };
                return Ok(wrap(tb::binary(op, t, o).py()?));
            }
            let dim = v.as_int().ok_or_else(|| {
                type_error(format!(
                    "{name}(): argument 'dim' must be int, not {}",
                    v.type_name()
                ))
            })?;
            let keep = bool_arg(i, a, 1, "keepdim")?;
            let (vals, idx) = reduce::max_dim(t, dim, keep, is_max).py()?;
            Ok(values_indices(name, wrap(vals), wrap(idx)))
        }
    }
}

/// The tensor value `t` itself when an op returned the very same tensor (`x.to('cpu') is x`,
/// `x.float() is x`, `x.contiguous() is x` when nothing changes), else a new tensor value.
pub fn same_or_wrap(t: &Value, r: Tensor) -> PyResult<Value> {
    Ok(match as_tensor(t) {
        Some(x) if x.ptr_eq(&r) => t.clone(),
        _ => wrap(r),
    })
}

fn cast(t: &Value, d: DType) -> PyResult<Value> {
    same_or_wrap(t, this(t)?.to_dtype(d).py()?)
}

/// `float(t)` / `int(t)`: only one-element tensors convert.
fn one_scalar(t: &Value) -> PyResult<crate::tensor::Scalar> {
    let x = this(t)?;
    if x.numel() != 1 {
        return Err(crate::lang::error::value_error(
            "only one element tensors can be converted to Python scalars",
        ));
    }
    item(&x)
}

fn to_method(i: &mut Interp, tv: &Value, a: &Args) -> PyResult<Value> {
    let t = &this(tv)?;
    let mut dtype = dtype_kw(a)?;
    let mut device = match kwarg(a, "device") {
        Some(v) if !matches!(v, Value::None) => Some(device_arg(&v)?),
        _ => None,
    };
    for p in &a.pos {
        if let Some(d) = dtype_of(p) {
            dtype = Some(d);
        } else if let Some(o) = as_tensor(p) {
            dtype = Some(o.dtype());
            device = Some(o.device());
        } else {
            device = Some(device_arg(p)?);
        }
    }
    // `non_blocking=True`: the simulated GPU's model lets a pinned copy run behind the host
    let non_blocking = match kwarg(a, "non_blocking") {
        Some(v) => i.truthy(&v)?,
        None => false,
    };
    crate::backend::timed::set_non_blocking(non_blocking);
    let r = match (dtype, device) {
        (Some(d), Some(dev)) => t.to_dtype_device(d, dev),
        (Some(d), None) => t.to_dtype(d),
        (None, Some(dev)) => t.to_device(dev),
        (None, None) => Ok(t.clone()),
    };
    crate::backend::timed::set_non_blocking(false);
    let r = r.py()?;
    // `copy=True`: a new tensor even when nothing changes
    let copy = match kwarg(a, "copy") {
        Some(v) => i.truthy(&v)?,
        None => false,
    };
    if copy && r.ptr_eq(t) {
        // `ToCopyBackward0`, as PyTorch records `_to_copy` (not a clone)
        let c = t.clone_tensor().py()?;
        crate::tensor::ops::extra::host::rename(&c, "ToCopyBackward0");
        return Ok(wrap(c));
    }
    same_or_wrap(tv, r)
}

fn inplace_op(op: BinaryOp) -> impl Fn(&Value, &Value) -> PyResult<Value> {
    move |t, other| {
        let x = this(t)?;
        match (as_tensor(other), scalar_of(other)) {
            (Some(o), _) => inplace::binary_inplace(op, &x, o).py()?,
            (_, Some(s)) => inplace::binary_scalar_inplace(op, &x, s).py()?,
            _ => {
                return Err(type_error(format!(
                    "unsupported operand type for in-place op: '{}'",
                    other.type_name()
                )))
            }
        };
        Ok(t.clone())
    }
}

/// `x.clamp(min, max)` with numbers (`ClampBackward1`) or tensors (`ClampBackward0`).
pub fn clamp(t: &Value, a: &Args) -> PyResult<Tensor> {
    let (lo, hi) = (arg(a, 0, "min"), arg(a, 1, "max"));
    if lo.is_none() && hi.is_none() {
        return Err(runtime_error(
            "torch.clamp: At least one of 'min' or 'max' must not be None",
        ));
    }
    let x = this(t)?;
    let bad = |b: &Value| {
        type_error(format!(
            "clamp() received an invalid combination of arguments - got ({})",
            b.type_name()
        ))
    };
    let is_t = |b: &Option<Value>| b.as_ref().is_some_and(|v| as_tensor(v).is_some());
    if is_t(&lo) || is_t(&hi) {
        let lt = lo
            .as_ref()
            .map(|v| as_tensor(v).cloned().ok_or_else(|| bad(v)))
            .transpose()?;
        let ht = hi
            .as_ref()
            .map(|v| as_tensor(v).cloned().ok_or_else(|| bad(v)))
            .transpose()?;
        return tb::clamp_tensor(&x, lt.as_ref(), ht.as_ref()).py();
    }
    let ls = lo
        .as_ref()
        .map(|v| scalar_of(v).ok_or_else(|| bad(v)))
        .transpose()?;
    let hs = hi
        .as_ref()
        .map(|v| scalar_of(v).ok_or_else(|| bad(v)))
        .transpose()?;
    tb::clamp(&x, ls, hs).py()
}

fn cmp(op: BinaryOp, t: &Value, a: &Args) -> PyResult<Value> {
    let other = a.pos.first().cloned().unwrap_or(Value::None);
    match tensor_binary(op, t, &other)? {
        Some(v) => Ok(v),
        None => Err(type_error(format!(
            "'{}' not supported between instances of 'Tensor' and '{}'",
            op.name(),
            other.type_name()
        ))),
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
    "size" => |_, t, a| {
        let x = this(t)?;
        match arg(&a, 0, "dim") {
            None => Ok(super::size::size_value(x.shape())),
            Some(d) => Ok(Value::Int(x.size_at(d.as_int().ok_or_else(|| type_error("size(): dim must be an int"))?).py()? as i64)),
        }
    },
    "dim" => |_, t, _| Ok(Value::Int(this(t)?.ndim() as i64)),
    "numel" => |_, t, _| Ok(Value::Int(this(t)?.numel() as i64)),
    "element_size" => |_, t, _| Ok(Value::Int(this(t)?.element_size() as i64)),
    "item" => |_, t, _| Ok(scalar_value(item(&this(t)?)?)),
    "tolist" => |_, t, _| Ok(nested_value(this(t)?.tolist().py()?)),
    "__float__" => |_, t, _| Ok(Value::float(one_scalar(t)?.to_f64())),
    "__int__" => |_, t, _| Ok(Value::Int(one_scalar(t)?.to_i64())),
    "__format__" => |i, t, a| {
        let x = this(t)?;
        let spec = match a.pos.first() { Some(Value::Str(s)) => s.to_string(), _ => String::new() };
        if x.ndim() == 0 {
            return i.format_value(&scalar_value(item(&x)?), &spec).map(Value::from);
        }
        if spec.is_empty() {
            return Ok(Value::from(repr_tensor(&x)?));
        }
        Err(type_error("unsupported format string passed to Tensor.__format__"))
    },
    "to" => |i, t, a| to_method(i, t, &a),
    "cpu" => |_, t, _| same_or_wrap(t, this(t)?.to_device(crate::tensor::Device::Cpu).py()?),
    "cuda" => |_, t, a| {
        let dev = match arg(&a, 0, "device") { Some(v) => device_arg(&v)?, None => { let d = crate::tensor::Device::Cuda(crate::backend::gpu::current_device()); check_available(d)?; d } };
        same_or_wrap(t, this(t)?.to_device(dev).py()?)
    },
    "float" => |_, t, _| cast(t, DType::F32),
    "double" => |_, t, _| cast(t, DType::F64),
    "half" => |_, t, _| cast(t, DType::F16),
    "bfloat16" => |_, t, _| cast(t, DType::BF16),
    "long" => |_, t, _| cast(t, DType::I64),
    "int" => |_, t, _| cast(t, DType::I32),
    "bool" => |_, t, _| cast(t, DType::Bool),
    "byte" => |_, t, _| cast(t, DType::U8),
    "type" => |_, t, a| match a.pos.first().and_then(dtype_of) {
        Some(d) => cast(t, d),
        None => {
            let x = this(t)?;
            Ok(Value::str(&x.dtype().tensor_type(x.device())))
        }
    },
    "view" => |i, t, a| {
        if let Some(d) = a.pos.first().and_then(dtype_of) {
            let _ = d;
            return Err(not_implemented("view(dtype)"));
        }
        let s = sizes(i, &a.pos, "view")?;
        Ok(wrap(this(t)?.view(&s).py()?))
    },
    "reshape" => |i, t, a| { let s = sizes(i, &a.pos, "reshape")?; Ok(wrap(this(t)?.reshape(&s).py()?)) },
    "view_as" => |_, t, a| {
        let o = a.pos.first().and_then(as_tensor).cloned().ok_or_else(|| type_error("view_as() needs a tensor"))?;
        let s: Vec<i64> = o.shape().iter().map(|&d| d as i64).collect();
        Ok(wrap(this(t)?.view(&s).py()?))
    },
    "transpose" => |_, t, a| {
        let d0 = arg(&a, 0, "dim0").and_then(|v| v.as_int()).ok_or_else(|| type_error("transpose() missing required argument 'dim0'"))?;
        let d1 = arg(&a, 1, "dim1").and_then(|v| v.as_int()).ok_or_else(|| type_error("transpose() missing required argument 'dim1'"))?;
        Ok(wrap(this(t)?.transpose(d0, d1).py()?))
    },
    "t" => |_, t, _| Ok(wrap(this(t)?.t().py()?)),
    "permute" => |i, t, a| { let d = sizes(i, &a.pos, "permute")?; Ok(wrap(this(t)?.permute(&d).py()?)) },
    "unsqueeze" => |_, t, a| {
        let d = arg(&a, 0, "dim").and_then(|v| v.as_int()).ok_or_else(|| type_error("unsqueeze() missing required argument 'dim'"))?;
        Ok(wrap(this(t)?.unsqueeze(d).py()?))
    },
    "squeeze" => |_, t, a| Ok(wrap(this(t)?.squeeze(arg(&a, 0, "dim").and_then(|v| v.as_int())).py()?)),
    "flatten" => |_, t, a| {
        let s = arg(&a, 0, "start_dim").and_then(|v| v.as_int()).unwrap_or(0);
        let e = arg(&a, 1, "end_dim").and_then(|v| v.as_int()).unwrap_or(-1);
        Ok(wrap(this(t)?.flatten(s, e).py()?))
    },
    "expand" => |i, t, a| { let s = sizes(i, &a.pos, "expand")?; Ok(wrap(this(t)?.expand(&s).py()?)) },
    "expand_as" => |_, t, a| {
        let o = a.pos.first().and_then(as_tensor).cloned().ok_or_else(|| type_error("expand_as() needs a tensor"))?;
        Ok(wrap(this(t)?.expand_as(&o).py()?))
    },
    "contiguous" => |_, t, _| same_or_wrap(t, this(t)?.contiguous().py()?),
    "clone" => |_, t, _| Ok(wrap(this(t)?.clone_tensor().py()?)),
    "detach" => |_, t, _| Ok(wrap(this(t)?.detach())),
    "requires_grad_" => |i, t, a| {
        let b = match arg(&a, 0, "requires_grad") { Some(v) => i.truthy(&v)?, None => true };
        super::autograd::set_requires_grad(&this(t)?, b, true)?;
        Ok(t.clone())
    },
    "backward" => |i, t, a| {
        let g = arg(&a, 0, "gradient").map(|v| as_tensor(&v).cloned().ok_or_else(|| type_error(format!("backward(): argument 'gradient' must be Tensor, not {}", v.type_name())))).transpose()?;
        let retain = match arg(&a, 1, "retain_graph") { Some(v) => Some(i.truthy(&v)?), None => None };
        let create = bool_arg(i, &a, 2, "create_graph")?;
        super::autograd::backward_call(i, vec![this(t)?], vec![g], retain, create)
    },
    "narrow" => |_, t, a| {
        let g = |k: usize, n: &str| arg(&a, k, n).and_then(|v| v.as_int()).ok_or_else(|| type_error(format!("narrow() missing required argument '{n}'")));
        Ok(wrap(this(t)?.narrow(g(0, "dim")?, g(1, "start")?, g(2, "length")?).py()?))
    },
    "select" => |_, t, a| {
        let g = |k: usize, n: &str| arg(&a, k, n).and_then(|v| v.as_int()).ok_or_else(|| type_error(format!("select() missing required argument '{n}'")));
        Ok(wrap(this(t)?.select(g(0, "dim")?, g(1, "index")?).py()?))
    },
    "register_hook" => |i, t, a| {
        let f = arg(&a, 0, "hook").ok_or_else(|| type_error("register_hook() missing 1 required positional argument: 'hook'"))?;
        super::hooks::register_hook(i, &this(t)?, f)
    },
    "register_post_accumulate_grad_hook" => |i, t, a| {
        let f = arg(&a, 0, "hook").ok_or_else(|| type_error("register_post_accumulate_grad_hook() missing 1 required positional argument: 'hook'"))?;
        super::hooks::register_post_accumulate_grad_hook(i, t, f)
    },
    "retain_grad" => |_, t, _| { crate::tensor::autograd::node::retain_grad(&this(t)?).py()?; Ok(Value::None) },
    "detach_" => |_, t, _| { crate::tensor::autograd::node::detach_(&this(t)?); Ok(t.clone()) },
    "zero_" => |_, t, _| { inplace::zero_(&this(t)?).py()?; Ok(t.clone()) },
    "uniform_" => super::nn::uniform_,
    "normal_" => super::nn::normal_,
    "random_" => super::nn::random_,
    "fill_" => |_, t, a| {
        let v = a.pos.first().cloned().unwrap_or(Value::None);
        match (scalar_of(&v), as_tensor(&v)) {
            (Some(s), _) => inplace::fill_(&this(t)?, s).py()?,
            (_, Some(o)) => inplace::fill_tensor_(&this(t)?, o).py()?,
            _ => return Err(type_error(format!("fill_() received an invalid combination of arguments - got ({})", v.type_name()))),
        };
        Ok(t.clone())
    },
    "copy_" => |_, t, a| {
        let o = a.pos.first().and_then(as_tensor).cloned().ok_or_else(|| type_error("copy_() needs a tensor"))?;
        inplace::copy_(&this(t)?, &o).py()?;
        Ok(t.clone())
    },
    "sum" => |i, t, a| {
        let dims = dims_arg(i, arg(&a, 0, "dim"))?;
        let keep = bool_arg(i, &a, 1, "keepdim")?;
        Ok(wrap(reduce::sum(&this(t)?, dims.as_deref(), keep, dtype_kw(&a)?).py()?))
    },
    "mean" => |i, t, a| {
        let dims = dims_arg(i, arg(&a, 0, "dim"))?;
        let keep = bool_arg(i, &a, 1, "keepdim")?;
        Ok(wrap(reduce::mean(&this(t)?, dims.as_deref(), keep, dtype_kw(&a)?).py()?))
    },
    "prod" => |i, t, a| {
        let dim = arg(&a, 0, "dim").and_then(|v| v.as_int());
        let keep = bool_arg(i, &a, 1, "keepdim")?;
        Ok(wrap(reduce::prod(&this(t)?, dim, keep, dtype_kw(&a)?).py()?))
    },
    "max" => |i, t, a| max_min(i, &this(t)?, &a, true),
    "min" => |i, t, a| max_min(i, &this(t)?, &a, false),
    "amax" => |i, t, a| { let d = dims_arg(i, arg(&a, 0, "dim"))?; let k = bool_arg(i, &a, 1, "keepdim")?; Ok(wrap(reduce::amax(&this(t)?, d.as_deref(), k, true).py()?)) },
    "amin" => |i, t, a| { let d = dims_arg(i, arg(&a, 0, "dim"))?; let k = bool_arg(i, &a, 1, "keepdim")?; Ok(wrap(reduce::amax(&this(t)?, d.as_deref(), k, false).py()?)) },
    "argmax" => |i, t, a| { let d = arg(&a, 0, "dim").and_then(|v| v.as_int()); let k = bool_arg(i, &a, 1, "keepdim")?; Ok(wrap(reduce::argmax(&this(t)?, d, k, true).py()?)) },
    "argmin" => |i, t, a| { let d = arg(&a, 0, "dim").and_then(|v| v.as_int()); let k = bool_arg(i, &a, 1, "keepdim")?; Ok(wrap(reduce::argmax(&this(t)?, d, k, false).py()?)) },
    "all" => |i, t, a| { let d = dims_arg(i, arg(&a, 0, "dim"))?; let k = bool_arg(i, &a, 1, "keepdim")?; Ok(wrap(reduce::all_any(&this(t)?, d.as_deref(), k, true).py()?)) },
    "any" => |i, t, a| { let d = dims_arg(i, arg(&a, 0, "dim"))?; let k = bool_arg(i, &a, 1, "keepdim")?; Ok(wrap(reduce::all_any(&this(t)?, d.as_deref(), k, false).py()?)) },
    "softmax" => |_, t, a| {
        let d = arg(&a, 0, "dim").and_then(|v| v.as_int()).ok_or_else(|| type_error("softmax() missing required argument 'dim'"))?;
        Ok(wrap(reduce::softmax(&this(t)?, d, dtype_kw(&a)?, false).py()?))
    },
    "log_softmax" => |_, t, a| {
        let d = arg(&a, 0, "dim").and_then(|v| v.as_int()).ok_or_else(|| type_error("log_softmax() missing required argument 'dim'"))?;
        Ok(wrap(reduce::softmax(&this(t)?, d, dtype_kw(&a)?, true).py()?))
    },
    "clamp" => |_, t, a| Ok(wrap(clamp(t, &a)?)),
    "clip" => |_, t, a| Ok(wrap(clamp(t, &a)?)),
    "clamp_" => |_, t, a| {
        let (lo, hi) = (arg(&a, 0, "min").and_then(|v| scalar_of(&v)), arg(&a, 1, "max").and_then(|v| scalar_of(&v)));
        if lo.is_some() || hi.is_some() {
            tb::clamp_(&this(t)?, lo, hi).py()?;
        } else {
            let r = clamp(t, &a)?;
            inplace::write_result(&this(t)?, &r).py()?;
        }
        Ok(t.clone())
    },
    "abs" => |_, t, _| unary_m(UnaryOp::Abs)(t),
    "__abs__" => |_, t, _| unary_m(UnaryOp::Abs)(t),
    "__neg__" => |_, t, _| unary_m(UnaryOp::Neg)(t),
    "neg" => |_, t, _| unary_m(UnaryOp::Neg)(t),
    "__pos__" => |_, t, _| Ok(t.clone()),
    "__invert__" => |_, t, _| {
        let op = if this(t)?.dtype() == DType::Bool { UnaryOp::LogicalNot } else { UnaryOp::BitwiseNot };
        unary_m(op)(t)
    },
    "sqrt" => |_, t, _| unary_m(UnaryOp::Sqrt)(t),
    "rsqrt" => |_, t, _| unary_m(UnaryOp::Rsqrt)(t),
    "exp" => |_, t, _| unary_m(UnaryOp::Exp)(t),
    "log" => |_, t, _| unary_m(UnaryOp::Log)(t),
    "log2" => |_, t, _| unary_m(UnaryOp::Log2)(t),
    "log10" => |_, t, _| unary_m(UnaryOp::Log10)(t),
    "log1p" => |_, t, _| unary_m(UnaryOp::Log1p)(t),
    "expm1" => |_, t, _| unary_m(UnaryOp::Expm1)(t),
    "tan" => |_, t, _| unary_m(UnaryOp::Tan)(t),
    "sin" => |_, t, _| unary_m(UnaryOp::Sin)(t),
    "cos" => |_, t, _| unary_m(UnaryOp::Cos)(t),
    "tanh" => |_, t, _| unary_m(UnaryOp::Tanh)(t),
    "sigmoid" => |_, t, _| unary_m(UnaryOp::Sigmoid)(t),
    "relu" => |_, t, _| unary_m(UnaryOp::Relu)(t),
    "floor" => |_, t, _| unary_m(UnaryOp::Floor)(t),
    "ceil" => |_, t, _| unary_m(UnaryOp::Ceil)(t),
    "round" => |_, t, a| match arg(&a, 0, "decimals") {
        None => unary_m(UnaryOp::Round)(t),
        Some(d) => {
            let d = d.as_int().ok_or_else(|| {
                type_error(format!("round(): argument 'decimals' must be int, not {}", d.type_name()))
            })?;
            Ok(wrap(crate::tensor::ops::extra::rounding::round_decimals(&this(t)?, d).py()?))
        }
    },
    "trunc" => |_, t, _| unary_m(UnaryOp::Trunc)(t),
    "sign" => |_, t, _| unary_m(UnaryOp::Sign)(t),
    "square" => |_, t, _| unary_m(UnaryOp::Square)(t),
    "reciprocal" => |_, t, _| unary_m(UnaryOp::Reciprocal)(t),
    "isnan" => |_, t, _| unary_m(UnaryOp::IsNan)(t),
    "signbit" => |_, t, _| unary_m(UnaryOp::Signbit)(t),
    "logical_not" => |_, t, _| unary_m(UnaryOp::LogicalNot)(t),
    "relu_" => |_, t, _| { unary::unary_(UnaryOp::Relu, &this(t)?).py()?; Ok(t.clone()) },
    "exp_" => |_, t, _| { unary::unary_(UnaryOp::Exp, &this(t)?).py()?; Ok(t.clone()) },
    "sqrt_" => |_, t, _| { unary::unary_(UnaryOp::Sqrt, &this(t)?).py()?; Ok(t.clone()) },
    "neg_" => |_, t, _| { unary::unary_(UnaryOp::Neg, &this(t)?).py()?; Ok(t.clone()) },
    "abs_" => |_, t, _| { unary::unary_(UnaryOp::Abs, &this(t)?).py()?; Ok(t.clone()) },
    "pow" => |_, t, a| binary_m(BinaryOp::Pow, t, &a),
    "add" => |_, t, a| add_sub(t, &a, false),
    "sub" => |_, t, a| add_sub(t, &a, true),
    "mul" => |_, t, a| binary_m(BinaryOp::Mul, t, &a),
    "div" => |_, t, a| {
        match kwarg(&a, "rounding_mode") {
            Some(Value::Str(m)) => {
                let op = tb::rounding_op(Some(&m)).py()?;
                binary_m(op, t, &a)
            }
            _ => binary_m(BinaryOp::Div, t, &a),
        }
    },
    "maximum" => |_, t, a| binary_m(BinaryOp::Maximum, t, &a),
    "minimum" => |_, t, a| binary_m(BinaryOp::Minimum, t, &a),
    "fmod" => |_, t, a| binary_m(BinaryOp::Fmod, t, &a),
    "remainder" => |_, t, a| binary_m(BinaryOp::Rem, t, &a),
    "eq" => |_, t, a| cmp(BinaryOp::Eq, t, &a),
    "ne" => |_, t, a| cmp(BinaryOp::Ne, t, &a),
    "lt" => |_, t, a| cmp(BinaryOp::Lt, t, &a),
    "le" => |_, t, a| cmp(BinaryOp::Le, t, &a),
    "gt" => |_, t, a| cmp(BinaryOp::Gt, t, &a),
    "ge" => |_, t, a| cmp(BinaryOp::Ge, t, &a),
    "__ne__" => |_, t, a| cmp(BinaryOp::Ne, t, &a),
    "__lt__" => |_, t, a| cmp(BinaryOp::Lt, t, &a),
    "__le__" => |_, t, a| cmp(BinaryOp::Le, t, &a),
    "__gt__" => |_, t, a| cmp(BinaryOp::Gt, t, &a),
    "__ge__" => |_, t, a| cmp(BinaryOp::Ge, t, &a),
    "add_" => |_, t, a| add_sub_(t, &a, false),
    "sub_" => |_, t, a| add_sub_(t, &a, true),
    "mul_" => |_, t, a| inplace_op(BinaryOp::Mul)(t, a.pos.first().unwrap_or(&Value::None)),
    "div_" => |_, t, a| inplace_op(BinaryOp::Div)(t, a.pos.first().unwrap_or(&Value::None)),
    "pow_" => |_, t, a| inplace_op(BinaryOp::Pow)(t, a.pos.first().unwrap_or(&Value::None)),
    "__iadd__" => |_, t, a| inplace_op(BinaryOp::Add)(t, a.pos.first().unwrap_or(&Value::None)),
    "__isub__" => |_, t, a| inplace_op(BinaryOp::Sub)(t, a.pos.first().unwrap_or(&Value::None)),
    "__imul__" => |_, t, a| inplace_op(BinaryOp::Mul)(t, a.pos.first().unwrap_or(&Value::None)),
    "__itruediv__" => |_, t, a| inplace_op(BinaryOp::Div)(t, a.pos.first().unwrap_or(&Value::None)),
    "__ifloordiv__" => |_, t, a| inplace_op(BinaryOp::FloorDiv)(t, a.pos.first().unwrap_or(&Value::None)),
    "__imod__" => |_, t, a| inplace_op(BinaryOp::Rem)(t, a.pos.first().unwrap_or(&Value::None)),
    "__ipow__" => |_, t, a| inplace_op(BinaryOp::Pow)(t, a.pos.first().unwrap_or(&Value::None)),
    "__imatmul__" => |_, t, a| {
        let o = a.pos.first().and_then(as_tensor).cloned().ok_or_else(|| type_error("@= needs a tensor"))?;
        let r = matmul::matmul(&this(t)?, &o).py()?;
        inplace::write_result(&this(t)?, &r).py()?;
        Ok(t.clone())
    },
    "matmul" => |_, t, a| mat(t, &a, matmul::matmul),
    "mm" => |_, t, a| mat(t, &a, matmul::mm),
    "bmm" => |_, t, a| mat(t, &a, matmul::bmm),
    "dot" => |_, t, a| mat(t, &a, matmul::dot),
    "mv" => |_, t, a| mat(t, &a, matmul::mv),
    "equal" => |_, t, a| {
        let o = a.pos.first().and_then(as_tensor).cloned().ok_or_else(|| type_error("equal(): argument 'other' must be Tensor"))?;
        Ok(Value::bool(crate::tensor::ops::compare::equal(&this(t)?, &o).py()?))
    },
    "allclose" => |i, t, a| super::functions::allclose_impl(i, &this(t)?, &a, 0),
    "is_pinned" => |_, t, _| Ok(Value::bool(this(t)?.storage().is_pinned())),
    "pin_memory" => |_, t, _| super::cuda::pin_memory(t),
    "is_contiguous" => |_, t, _| Ok(Value::bool(this(t)?.is_contiguous())),
    "is_floating_point" => |_, t, _| Ok(Value::bool(this(t)?.dtype().is_floating())),
    "data_ptr" => |_, t, _| Ok(Value::Int(this(t)?.data_ptr() as i64)),
    "stride" => |_, t, a| {
        let x = this(t)?;
        match arg(&a, 0, "dim").and_then(|v| v.as_int()) {
            Some(d) => {
                let n = x.ndim() as i64;
                let k = if d < 0 { d + n } else { d };
                if k < 0 || k >= n.max(1) || x.ndim() == 0 {
                    return Err(crate::lang::error::index_error(format!("Dimension out of range (expected to be in range of [{}, {}], but got {d})", -n.max(1), n.max(1) - 1)));
                }
                Ok(Value::Int(x.strides()[k as usize] as i64))
            }
            None => Ok(Value::tuple(x.strides().iter().map(|&s| Value::Int(s as i64)).collect())),
        }
    },
    "numpy" => |_, t, _| super::numpy::to_numpy(&this(t)?),
}

fn binary_m(op: BinaryOp, t: &Value, a: &Args) -> PyResult<Value> {
    let other = a
        .pos
        .first()
        .cloned()
        .or_else(|| kwarg(a, "other"))
        .or_else(|| kwarg(a, "exponent"))
        .unwrap_or(Value::None);
    match tensor_binary(op, t, &other)? {
        Some(v) => Ok(v),
        None => Err(type_error(format!(
            "{}() received an invalid combination of arguments - got ({})",
            op.name(),
            other.type_name()
        ))),
    }
}

/// The tensor operand and `alpha` of `add(other, alpha=...)`, when `alpha` is given.
fn alpha_operand(a: &Args, fname: &str) -> PyResult<Option<(Tensor, crate::tensor::Scalar)>> {
    let Some(alpha) = kwarg(a, "alpha").and_then(|v| scalar_of(&v)) else {
        return Ok(None);
    };
    let other = a
        .pos
        .first()
        .and_then(as_tensor)
        .cloned()
        .ok_or_else(|| type_error(format!("{fname}(): other must be a Tensor with alpha")))?;
    Ok(Some((other, alpha)))
}

fn add_sub(t: &Value, a: &Args, sub: bool) -> PyResult<Value> {
    match alpha_operand(a, "add")? {
        Some((other, alpha)) => Ok(wrap(tb::add_alpha(&this(t)?, &other, alpha, sub).py()?)),
        None => binary_m(if sub { BinaryOp::Sub } else { BinaryOp::Add }, t, a),
    }
}

fn add_sub_(t: &Value, a: &Args, sub: bool) -> PyResult<Value> {
    match alpha_operand(a, "add_")? {
        Some((other, alpha)) => {
            inplace::add_alpha_(&this(t)?, &other, alpha, sub).py()?;
            Ok(t.clone())
        }
        None => inplace_op(if sub { BinaryOp::Sub } else { BinaryOp::Add })(
            t,
            a.pos.first().unwrap_or(&Value::None),
        ),
    }
}

fn mat(
    t: &Value,
    a: &Args,
    f: fn(&Tensor, &Tensor) -> crate::tensor::Result<Tensor>,
) -> PyResult<Value> {
    let v = a.pos.first().cloned().unwrap_or(Value::None);
    let o = as_tensor(&v).cloned().ok_or_else(|| {
        type_error(format!(
            "argument 'mat2' (position 1) must be Tensor, not {}",
            v.type_name()
        ))
    })?;
    Ok(wrap(f(&this(t)?, &o).py()?))
}
