//! Natives behind the embedded `torch.nn`, `torch.optim`, `torch.utils.data` and
//! `cudalearn.datasets` modules (`src/nn/*.py`): `nn.Parameter`, in-place random fills that
//! draw exactly as PyTorch's kernels do, and the digits data.
//! The Python side imports them as the private module `_cudalearn_nn`.
use super::convert::*;
use super::functions::random_fill;
use super::generator::with_gen;
use super::methods::arg;
use crate::lang::error::{attr_error, runtime_error, type_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use crate::tensor::ops::inplace;
use crate::tensor::random::{with_default, Generator};
use crate::tensor::{DType, Tensor};
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

fn tensor_arg(v: &Value) -> PyResult<Tensor> {
    as_tensor(v)
        .cloned()
        .ok_or_else(|| type_error(format!("expected a Tensor, got {}", v.type_name())))
}

fn float_arg(a: &Args, k: usize, name: &str, default: f64) -> PyResult<f64> {
    match arg(a, k, name) {
        None => Ok(default),
        Some(v) => match scalar_of(&v) {
            Some(s) => Ok(s.to_f64()),
            None => Err(type_error(format!(
                "{name} must be a number, not {}",
                v.type_name()
            ))),
        },
    }
}

/// Writes `src` into `dst` without autograd (init functions run under `no_grad`).
fn overwrite(dst: &Tensor, src: &Tensor) -> PyResult<()> {
    crate::tensor::autograd::mode::without(|| inplace::copy_(dst, src)).py()
}

/// `t.uniform_(from=0, to=1)` / `t.normal_(mean=0, std=1)`: drawn in a contiguous buffer in
/// PyTorch's order, then written into `t`.
fn fill_random(t: &Value, a: &Args, normal: bool) -> PyResult<Value> {
    let x = tensor_arg(t)?;
    let (p0, p1) = if normal {
        (float_arg(a, 0, "mean", 0.0)?, float_arg(a, 1, "std", 1.0)?)
    } else {
        (float_arg(a, 0, "from", 0.0)?, float_arg(a, 1, "to", 1.0)?)
    };
    if !x.dtype().is_floating() {
        let what = if normal {
            "normal_kernel_cpu"
        } else {
            "check_uniform_bounds"
        };
        return Err(runtime_error(format!(
            "\"{what}\" not implemented for '{}'",
            super::functions::long_name(x.dtype())
        )));
    }
    if normal && p1 < 0.0 {
        return Err(runtime_error(format!(
            "normal expects std >= 0.0, but found std {p1}"
        )));
    }
    if !normal && p0 > p1 {
        return Err(runtime_error(format!(
            "uniform_ expects to return a [from, to) range, but found from={p0} > to={p1}"
        )));
    }
    let shape: Vec<i64> = x.shape().iter().map(|&d| d as i64).collect();
    let gen = crate::lang::builtins::kwarg(a, "generator");
    let r = match gen {
        Some(g) if !matches!(g, Value::None) && !is_default(&g) => {
            // A generator of its own: swap it in as the default for the draw.
            let own = with_gen(Some(&g), |gg| gg.clone())?;
            let saved = with_default(|d| std::mem::replace(d, own));
            let r = random_fill(&shape, x.dtype(), normal, p0, p1);
            let used = with_default(|d| std::mem::replace(d, saved));
            with_gen(Some(&g), |gg| *gg = used)?;
            r?
        }
        _ => random_fill(&shape, x.dtype(), normal, p0, p1)?,
    };
    overwrite(&x, &r.to_device(x.device()).py()?)?;
    Ok(t.clone())
}

fn is_default(g: &Value) -> bool {
    g.ptr_id() == super::generator::default_generator().ptr_id()
}

pub fn uniform_(_: &mut Interp, t: &Value, a: Args) -> PyResult<Value> {
    fill_random(t, &a, false)
}

pub fn normal_(_: &mut Interp, t: &Value, a: Args) -> PyResult<Value> {
    fill_random(t, &a, true)
}

/// `t.random_()`, `t.random_(to)`, `t.random_(from, to)`: integers drawn as PyTorch's
/// `random_kernel` / `random_from_to_kernel` draw them (64-bit draws for int64 and double).
pub fn random_(_: &mut Interp, t: &Value, a: Args) -> PyResult<Value> {
    let x = tensor_arg(t)?;
    let dtype = x.dtype();
    let n = x.numel();
    let gen = crate::lang::builtins::kwarg(&a, "generator");
    let bounds = match (arg(&a, 0, "from"), arg(&a, 1, "to")) {
        (None, None) => None,
        (Some(to), None) => Some((0, int_of(&to)?)),
        (Some(from), Some(to)) => Some((int_of(&from)?, int_of(&to)?)),
        (None, Some(to)) => Some((0, int_of(&to)?)),
    };
    let vals: Vec<i64> = with_gen(gen.as_ref(), |g| {
        (0..n)
            .map(|_| match bounds {
                Some((lo, hi)) => {
                    let range = (hi as u64).wrapping_sub(lo as u64);
                    let draw = if range >= 1 << 32 {
                        g.random64()
                    } else {
                        g.random() as u64
                    };
                    (draw % range.max(1)).wrapping_add(lo as u64) as i64
                }
                None => full_range(g, dtype),
            })
            .collect()
    })?;
    if let Some((lo, hi)) = bounds {
        if lo >= hi {
            return Err(runtime_error(format!(
                "random_ expects 'from' to be less than 'to', but got from={lo} >= to={hi}"
            )));
        }
    }
    let shape = x.shape().to_vec();
    let r = Tensor::from_i64s(&vals, &shape, dtype).py()?;
    overwrite(&x, &r.to_device(x.device()).py()?)?;
    Ok(t.clone())
}

/// `random_()` without bounds: `[0, 2^mantissa]` for floating types, `[0, max]` for integers.
fn full_range(g: &mut Generator, dtype: DType) -> i64 {
    match dtype {
        DType::I64 => (g.random64() % (1u64 << 63)) as i64,
        DType::F64 => (g.random64() % ((1u64 << 53) + 1)) as i64,
        DType::F32 => (g.random() as u64 % ((1u64 << 24) + 1)) as i64,
        DType::F16 => (g.random() as u64 % ((1u64 << 11) + 1)) as i64,
        DType::BF16 => (g.random() as u64 % ((1u64 << 8) + 1)) as i64,
        DType::I32 => (g.random() as u64 % (1u64 << 31)) as i64,
        DType::I8 => (g.random() as u64 % (1u64 << 7)) as i64,
        DType::U8 => (g.random() as u64 % (1u64 << 8)) as i64,
        DType::Bool => (g.random() & 1) as i64,
    }
}

fn int_of(v: &Value) -> PyResult<i64> {
    v.as_int()
        .ok_or_else(|| type_error(format!("expected an int, got {}", v.type_name())))
}

/// `nn.Parameter`: the class object (callable, `isinstance`), and its instances are tensors
/// marked as parameters (sharing the data's storage, as `_make_subclass` does).
pub struct ParameterType;

impl Native for ParameterType {
    fn callable(&self) -> bool {
        true
    }
    fn type_name(&self) -> &str {
        "type"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok("<class 'torch.nn.parameter.Parameter'>".to_string())
    }
    fn call(&self, _this: &Value, a: Args, i: &mut Interp) -> PyResult<Value> {
        let data = match arg(&a, 0, "data") {
            Some(v) => tensor_arg(&v).map_err(|_| {
                type_error(format!(
                    "Parameter.__new__() argument 'data' must be Tensor, not {}",
                    v.type_name()
                ))
            })?,
            None => crate::tensor::create::empty(&[0], None, crate::tensor::Device::Cpu).py()?,
        };
        let rg = match a
            .pos
            .get(1)
            .cloned()
            .or_else(|| crate::lang::builtins::kwarg(&a, "requires_grad"))
        {
            Some(v) => i.truthy(&v)?,
            None => true,
        };
        if rg && !data.dtype().is_floating() {
            return Err(runtime_error(
                "Only Tensors of floating point and complex dtype can require gradients",
            ));
        }
        let p = data.detach();
        p.mark_parameter();
        p.set_requires_grad(rg);
        Ok(wrap(p))
    }
    fn get_attr(&self, this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(Some(match &*name.as_str() {
            "__name__" | "__qualname__" => Value::str("Parameter"),
            "__module__" => Value::str("torch.nn.parameter"),
            "__instancecheck__" => Value::Builtin(Rc::new(Builtin {
                name: "__instancecheck__",
                f: |_, _, a| {
                    Ok(Value::bool(
                        a.pos
                            .first()
                            .and_then(as_tensor)
                            .is_some_and(|t| t.is_parameter()),
                    ))
                },
                this: Some(this.clone()),
            })),
            _ => return Ok(None),
        }))
    }
}

/// The 8×8 digits (see assets/README.md): 1,797 rows of 64 pixel bytes, then 1,797 labels.
const DIGITS: &[u8] = include_bytes!("../../../../assets/digits.bin");
const DIGITS_N: usize = 1797;

fn digits(_: &mut Interp, _: &Value, _: Args) -> PyResult<Value> {
    let (px, labels) = DIGITS.split_at(DIGITS_N * 64);
    let x: Vec<f64> = px.iter().map(|&b| b as f64).collect();
    let y: Vec<i64> = labels.iter().map(|&b| b as i64).collect();
    let xt = Tensor::from_f64s(&x, &[DIGITS_N, 64], DType::F32).py()?;
    let yt = Tensor::from_i64s(&y, &[DIGITS_N], DType::I64).py()?;
    Ok(Value::tuple(vec![wrap(xt), wrap(yt)]))
}

fn randperm(_: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let n = arg(&a, 0, "n").and_then(|v| v.as_int()).unwrap_or(0).max(0) as usize;
    let g = arg(&a, 1, "generator");
    let v = with_gen(g.as_ref(), |g| g.randperm(n))?;
    Ok(wrap(Tensor::from_i64s(&v, &[n], DType::I64).py()?))
}

fn split_first(mut a: Args) -> PyResult<(Value, Args)> {
    if a.pos.is_empty() {
        return Err(type_error("missing the tensor argument"));
    }
    let t = a.pos.remove(0);
    Ok((t, a))
}

/// The `_cudalearn_nn` module.
pub fn module() -> Value {
    let mut fns: Vec<(&'static str, NativeFn)> = super::optim::FUNCTIONS.to_vec();
    fns.extend_from_slice(&[
        ("uniform_", |i, _, a| {
            let (t, a) = split_first(a)?;
            uniform_(i, &t, a)
        }),
        ("normal_", |i, _, a| {
            let (t, a) = split_first(a)?;
            normal_(i, &t, a)
        }),
        ("digits", digits),
        ("name_grad_fn", name_grad_fn),
        ("custom_apply", super::custom_function::custom_apply),
        ("warn_once", |_, _, a| {
            // Python's default warning filter shows a warning once per place.
            static SHOWN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
            if !SHOWN.swap(true, std::sync::atomic::Ordering::Relaxed) {
                if let Some(Value::Str(m)) = a.pos.first() {
                    eprintln!("UserWarning: {m}");
                }
            }
            Ok(Value::None)
        }),
        ("new_instance", |_, _, a| match a.pos.first() {
            // An instance without running __init__ (DataParallel's replicas).
            Some(Value::Class(c)) => Ok(Value::Instance(Rc::new(Instance {
                class: c.clone(),
                hash: std::cell::Cell::new(None),
                dict: RefCell::new(AttrMap::default()),
                base: None,
            }))),
            _ => Err(type_error("new_instance expects a class")),
        }),
        ("randperm", randperm),
        ("missing_attr", |_, _, a| {
            // Module.__getattr__: a real nn.Module method cudalearn lacks is NotImplementedError.
            let (Some(Value::Str(t)), Some(Value::Str(n))) = (a.pos.first(), a.pos.get(1)) else {
                return Err(type_error("missing_attr expects two strings"));
            };
            Err(crate::lang::modules::names::missing("torch.nn.Module", n)
                .unwrap_or_else(|| attr_error(format!("'{t}' object has no attribute '{n}'"))))
        }),
        ("random_int64", |_, _, a| {
            let v = with_gen(a.pos.first(), |g| g.random64() % (1u64 << 63))?;
            Ok(Value::Int(v as i64))
        }),
    ]);
    super::super::make_module(
        "_cudalearn_nn",
        &fns,
        &[("Parameter", Value::Native(NativeRc::new(ParameterType)))],
    )
}

/// `_N.name_grad_fn(t, name)`: the nn layers written in Python name their result's node as
/// PyTorch's fused kernels do (`NativeBatchNormBackward0`, `EmbeddingBackward0`).
fn name_grad_fn(_: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    const NAMES: &[&str] = &[
        "NativeBatchNormBackward0",
        "EmbeddingBackward0",
        "TransposeBackward1",
        // the views a module's full backward hooks put on its inputs and outputs
        "BackwardHookFunctionBackward",
    ];
    let t = a.pos.first().and_then(as_tensor).cloned();
    let name = match a.pos.get(1) {
        Some(Value::Str(s)) => NAMES.iter().find(|n| **n == &**s).copied(),
        _ => None,
    };
    match (t, name) {
        (Some(t), Some(n)) => {
            crate::tensor::ops::extra::host::rename(&t, n);
            Ok(Value::None)
        }
        _ => Err(type_error(
            "name_grad_fn(tensor, name) takes a tensor and a known node name",
        )),
    }
}
