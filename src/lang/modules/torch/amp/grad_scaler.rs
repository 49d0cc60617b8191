//! `torch.amp.GradScaler` (and the deprecated `torch.cuda.amp.GradScaler` /
//! `torch.cpu.amp.GradScaler`), following torch/amp/grad_scaler.py: the scale and growth
//! tracker are 0-dim tensors on the loss's device, created by the first `scale()`; each
//! optimizer goes READY → UNSCALED → STEPPED until `update()`. Written in Rust rather than as
//! Python prelude so it needs nothing but the optimizer's `param_groups` and `step()`, which it
//! reaches through the interpreter (any optimizer, Python or native, works).
use super::{assertion, cuda_available, Flavor};
use crate::amp::scaler::{self, ScaleState};
use crate::lang::builtins::kwarg;
use crate::lang::error::{runtime_error, type_error, value_error, ExcKind, PyErr, PyResult};
use crate::lang::interp::Interp;
use crate::lang::modules::torch::convert::*;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use crate::tensor::ops::inplace;
use crate::tensor::{DType, Device, Scalar, Tensor};
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Ready,
    Unscaled,
    Stepped,
}

struct OptState {
    /// The optimizer's `id()`.
    id: usize,
    stage: Stage,
    /// `found_inf_per_device`: one 0-dim float32 tensor per device holding gradients
    /// (1.0 when one of them had an inf/nan); empty when no parameter had a gradient.
    found_inf: Vec<(Device, Tensor)>,
}

struct Inner {
    init_scale: f64,
    scale: Option<Tensor>,
    growth_tracker: Option<Tensor>,
    growth_factor: f64,
    backoff_factor: f64,
    growth_interval: i64,
    init_growth_tracker: i64,
    per_optimizer: Vec<OptState>,
}

pub struct GradScaler {
    flavor: Flavor,
    device: &'static str,
    enabled: bool,
    inner: RefCell<Inner>,
}

const FIX: &str = "This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration.";

impl GradScaler {
    fn check_scale(&self, funcname: &str) -> PyResult<(Tensor, Tensor)> {
        let s = self.inner.borrow();
        let scale = s
            .scale
            .clone()
            .ok_or_else(|| assertion(format!("Attempted {funcname} but _scale is None.  {FIX}")))?;
        let tracker = s.growth_tracker.clone().ok_or_else(|| {
            assertion(format!(
                "Attempted {funcname} but _growth_tracker is None.  {FIX}"
            ))
        })?;
        Ok((scale, tracker))
    }

    fn lazy_init(&self, dev: Device) -> PyResult<Tensor> {
        let mut s = self.inner.borrow_mut();
        if let Some(t) = &s.scale {
            return Ok(t.clone());
        }
        let scale = Tensor::scalar(Scalar::Float(s.init_scale), DType::F32, dev).py()?;
        let tracker = Tensor::scalar(Scalar::Int(s.init_growth_tracker), DType::I32, dev).py()?;
        s.scale = Some(scale.clone());
        s.growth_tracker = Some(tracker);
        Ok(scale)
    }

    fn state_index(&self, id: usize) -> usize {
        let mut s = self.inner.borrow_mut();
        match s.per_optimizer.iter().position(|o| o.id == id) {
            Some(k) => k,
            None => {
                s.per_optimizer.push(OptState {
                    id,
                    stage: Stage::Ready,
                    found_inf: Vec::new(),
                });
                s.per_optimizer.len() - 1
            }
        }
    }

    /// `scale(outputs)`: a tensor, or lists/tuples of them, times the scale.
    fn scale(&self, i: &mut Interp, v: &Value) -> PyResult<Value> {
        if !self.enabled {
            return Ok(v.clone());
        }
        if let Some(t) = as_tensor(v) {
            let scale = self.lazy_init(t.device())?;
            let scale = scale.to_device(t.device()).py()?;
            return i.binary(crate::lang::ast::BinOp::Mul, v, &wrap(scale));
        }
        match v {
            Value::List(l) => {
                let items = l.borrow().clone();
                let out = items
                    .iter()
                    .map(|x| self.scale(i, x))
                    .collect::<PyResult<Vec<_>>>()?;
                Ok(Value::list(out))
            }
            Value::Tuple(t) => {
                let out = t
                    .iter()
                    .map(|x| self.scale(i, x))
                    .collect::<PyResult<Vec<_>>>()?;
                Ok(Value::tuple(out))
            }
            _ => Err(value_error(
                "outputs must be a Tensor or an iterable of Tensors",
            )),
        }
    }

    /// The gradients of the optimizer's parameters, grouped by device.
    fn grads(
        &self,
        i: &mut Interp,
        opt: &Value,
        allow_fp16: bool,
    ) -> PyResult<Vec<(Device, Vec<Tensor>)>> {
        let groups = i.get_attr(opt, Sym::new("param_groups"))?;
        let mut by_dev: Vec<(Device, Vec<Tensor>)> = Vec::new();
        for g in i.collect(&groups)? {
            let params = i.get_item(&g, &Value::str("params"))?;
            for p in i.collect(&params)? {
                if as_tensor(&p).is_none() {
                    return Err(assertion(format!(
                        "expected param to be torch.Tensor, got {}",
                        p.type_name()
                    )));
                }
                let grad = i.get_attr(&p, Sym::new("grad"))?;
                let Some(g) = as_tensor(&grad) else { continue };
                if !allow_fp16 && g.dtype() == DType::F16 {
                    return Err(value_error("Attempting to unscale FP16 gradients."));
                }
                match by_dev.iter_mut().find(|(d, _)| *d == g.device()) {
                    Some((_, v)) => v.push(g.clone()),
                    None => by_dev.push((g.device(), vec![g.clone()])),
                }
            }
        }
        Ok(by_dev)
    }

    fn unscale_(&self, i: &mut Interp, opt: &Value) -> PyResult<()> {
        if !self.enabled {
            return Ok(());
        }
        let (scale, _) = self.check_scale("unscale_")?;
        let k = self.state_index(opt.ptr_id());
        match self.inner.borrow().per_optimizer[k].stage {
            Stage::Unscaled => {
                return Err(runtime_error(
                    "unscale_() has already been called on this optimizer since the last update().",
                ))
            }
            Stage::Stepped => {
                return Err(runtime_error("unscale_() is being called after step()."))
            }
            Stage::Ready => {}
        }
        let inv = state_of(&scale)?.inv_scale();
        let mut found = Vec::new();
        for (dev, grads) in self.grads(i, opt, false)? {
            let inf = scaler::unscale_grads(&grads, inv).py()?;
            let flag = Tensor::scalar(Scalar::Float(inf as i64 as f64), DType::F32, dev).py()?;
            found.push((dev, flag));
        }
        let mut s = self.inner.borrow_mut();
        s.per_optimizer[k].found_inf = found;
        s.per_optimizer[k].stage = Stage::Unscaled;
        Ok(())
    }

    fn step(&self, i: &mut Interp, opt: &Value, mut a: Args) -> PyResult<Value> {
        if !self.enabled {
            return i.call_method(opt, "step", a);
        }
        if kwarg(&a, "closure").is_some() {
            return Err(runtime_error(
                "Closure use is not currently supported if GradScaler is enabled.",
            ));
        }
        self.check_scale("step")?;
        let k = self.state_index(opt.ptr_id());
        let stage = self.inner.borrow().per_optimizer[k].stage;
        if stage == Stage::Stepped {
            return Err(runtime_error(
                "step() has already been called since the last update().",
            ));
        }
        if stage == Stage::Ready {
            self.unscale_(i, opt)?;
        }
        let found: Vec<Tensor> = self.inner.borrow().per_optimizer[k]
            .found_inf
            .iter()
            .map(|(_, t)| t.clone())
            .collect();
        if found.is_empty() {
            return Err(assertion("No inf checks were recorded for this optimizer."));
        }
        let mut total = 0.0;
        for t in &found {
            total += t.item().py()?.to_f64();
        }
        let r = if total == 0.0 {
            a.kw.retain(|(k, _)| &*k.as_str() != "grad_scaler");
            i.call_method(opt, "step", a)?
        } else {
            Value::None
        };
        self.inner.borrow_mut().per_optimizer[k].stage = Stage::Stepped;
        Ok(r)
    }

    fn update(&self, i: &mut Interp, new_scale: Option<Value>) -> PyResult<()> {
        if !self.enabled {
            return Ok(());
        }
        let (scale, tracker) = self.check_scale("update")?;
        match new_scale {
            Some(Value::Float(f)) => inplace::fill_(&scale, Scalar::Float(f.get())).py()?,
            Some(v) => {
                let Some(t) = as_tensor(&v) else {
                    return Err(PyErr::new(
                        ExcKind::AttributeError,
                        format!("'{}' object has no attribute 'device'", v.type_name()),
                    ));
                };
                let reason = "new_scale should be a float or a 1-element torch.cuda.FloatTensor or torch.FloatTensor with requires_grad=False.";
                if t.device().type_name() != self.device || t.numel() != 1 || t.requires_grad() {
                    return Err(assertion(reason));
                }
                let _ = i;
                inplace::copy_(&scale, &t.reshape(&[]).py()?).py()?;
            }
            None => {
                let s = self.inner.borrow();
                let flags: Vec<&Tensor> = s
                    .per_optimizer
                    .iter()
                    .flat_map(|o| o.found_inf.iter().map(|(_, t)| t))
                    .collect();
                if flags.is_empty() {
                    return Err(assertion("No inf checks were recorded prior to update."));
                }
                let mut found = 0.0f32;
                for t in flags {
                    found += t.item().py()?.to_f64() as f32;
                }
                let mut st = ScaleState {
                    scale: scale.item().py()?.to_f64() as f32,
                    growth_tracker: tracker.item().py()?.to_i64() as i32,
                };
                st.update(
                    found != 0.0,
                    s.growth_factor,
                    s.backoff_factor,
                    s.growth_interval,
                );
                inplace::fill_(&scale, Scalar::Float(st.scale as f64)).py()?;
                inplace::fill_(&tracker, Scalar::Int(st.growth_tracker as i64)).py()?;
            }
        }
        self.inner.borrow_mut().per_optimizer.clear();
        Ok(())
    }

    fn get_scale(&self) -> PyResult<f64> {
        if !self.enabled {
            return Ok(1.0);
        }
        let s = self.inner.borrow();
        match &s.scale {
            None => Ok(s.init_scale),
            Some(t) => Ok(t.item().py()?.to_f64()),
        }
    }

    fn growth_tracker(&self) -> PyResult<i64> {
        if !self.enabled {
            return Ok(0);
        }
        let s = self.inner.borrow();
        match &s.growth_tracker {
            None => Ok(s.init_growth_tracker),
            Some(t) => Ok(t.item().py()?.to_i64()),
        }
    }

    fn missing(&self, name: &str) -> PyErr {
        PyErr::new(
            ExcKind::AttributeError,
            format!("'GradScaler' object has no attribute '{name}'"),
        )
    }

    /// A private field that exists only on enabled scalers, as in PyTorch.
    fn field<T>(&self, name: &str, f: impl FnOnce(&Inner) -> T) -> PyResult<T> {
        if !self.enabled {
            return Err(self.missing(name));
        }
        Ok(f(&self.inner.borrow()))
    }
}

fn state_of(scale: &Tensor) -> PyResult<ScaleState> {
    Ok(ScaleState {
        scale: scale.item().py()?.to_f64() as f32,
        growth_tracker: 0,
    })
}

fn this(v: &Value) -> PyResult<&GradScaler> {
    match v {
        Value::Native(n) => n.as_any().downcast_ref::<GradScaler>(),
        _ => None,
    }
    .ok_or_else(|| type_error("expected a GradScaler"))
}

fn first(a: &Args, name: &str) -> PyResult<Value> {
    a.pos
        .first()
        .cloned()
        .or_else(|| kwarg(a, name))
        .ok_or_else(|| type_error(format!("missing required argument '{name}'")))
}

fn float_of(v: &Value) -> PyResult<f64> {
    match v {
        Value::Float(f) => Ok(f.get()),
        Value::Int(i) => Ok(*i as f64),
        Value::Bool(b) => Ok(*b as i64 as f64),
        other => scalar_of(other)
            .map(|s| s.to_f64())
            .ok_or_else(|| type_error(format!("expected a number, not {}", other.type_name()))),
    }
}

macro_rules! methods {
    ($($name:literal => $f:expr),* $(,)?) => {
        const METHODS: &[(&str, NativeFn)] = &[$(($name, $f)),*];
    };
}

methods! {
    "scale" => |i, t, a| this(t)?.scale(i, &first(&a, "outputs")?),
    "unscale_" => |i, t, a| { this(t)?.unscale_(i, &first(&a, "optimizer")?)?; Ok(Value::None) },
    "step" => |i, t, mut a| {
        let opt = if a.pos.is_empty() { first(&a, "optimizer")? } else { a.pos.remove(0) };
        a.kw.retain(|(k, _)| &*k.as_str() != "optimizer");
        this(t)?.step(i, &opt, a)
    },
    "update" => |i, t, a| {
        let v = a.pos.first().cloned().or_else(|| kwarg(&a, "new_scale")).filter(|v| !matches!(v, Value::None));
        this(t)?.update(i, v)?;
        Ok(Value::None)
    },
    "get_scale" => |_, t, _| Ok(Value::float(this(t)?.get_scale()?)),
    "get_growth_factor" => |_, t, _| Ok(Value::float(this(t)?.field("_growth_factor", |s| s.growth_factor)?)),
    "get_backoff_factor" => |_, t, _| Ok(Value::float(this(t)?.field("_backoff_factor", |s| s.backoff_factor)?)),
    "get_growth_interval" => |_, t, _| Ok(Value::Int(this(t)?.field("_growth_interval", |s| s.growth_interval)?)),
    "set_growth_factor" => |_, t, a| { let v = float_of(&first(&a, "new_factor")?)?; this(t)?.inner.borrow_mut().growth_factor = v; Ok(Value::None) },
    "set_backoff_factor" => |_, t, a| { let v = float_of(&first(&a, "new_factor")?)?; this(t)?.inner.borrow_mut().backoff_factor = v; Ok(Value::None) },
    "set_growth_interval" => |_, t, a| {
        let v = first(&a, "new_interval")?.as_int().ok_or_else(|| type_error("new_interval must be an int"))?;
        this(t)?.inner.borrow_mut().growth_interval = v;
        Ok(Value::None)
    },
    "_get_growth_tracker" => |_, t, _| Ok(Value::Int(this(t)?.growth_tracker()?)),
    "is_enabled" => |_, t, _| Ok(Value::bool(this(t)?.enabled)),
    "state_dict" => |_, t, _| {
        let s = this(t)?;
        let mut m = DictMap::default();
        if s.enabled {
            let (g, b, n) = { let x = s.inner.borrow(); (x.growth_factor, x.backoff_factor, x.growth_interval) };
            let items: [(&str, Value); 5] = [
                ("scale", Value::float(s.get_scale()?)),
                ("growth_factor", Value::float(g)),
                ("backoff_factor", Value::float(b)),
                ("growth_interval", Value::Int(n)),
                ("_growth_tracker", Value::Int(s.growth_tracker()?)),
            ];
            for (k, v) in items {
                m.insert(Key::new(Value::str(k))?, v);
            }
        }
        Ok(Value::Dict(Rc::new(RefCell::new(m))))
    },
    "load_state_dict" => |i, t, a| {
        let s = this(t)?;
        if !s.enabled {
            return Ok(Value::None);
        }
        let d = first(&a, "state_dict")?;
        if i.len(&d)? == 0 {
            return Err(runtime_error("The source state dict is empty, possibly because it was saved from a disabled instance of GradScaler."));
        }
        let get = |i: &mut Interp, k: &str| i.get_item(&d, &Value::str(k));
        let scale = float_of(&get(i, "scale")?)?;
        let g = float_of(&get(i, "growth_factor")?)?;
        let b = float_of(&get(i, "backoff_factor")?)?;
        let n = get(i, "growth_interval")?.as_int().unwrap_or(scaler::GROWTH_INTERVAL);
        let tr = get(i, "_growth_tracker")?.as_int().unwrap_or(0);
        let mut x = s.inner.borrow_mut();
        x.init_scale = scale;
        if let Some(t) = &x.scale { inplace::fill_(t, Scalar::Float(scale)).py()?; }
        x.growth_factor = g;
        x.backoff_factor = b;
        x.growth_interval = n;
        x.init_growth_tracker = tr;
        if let Some(t) = &x.growth_tracker { inplace::fill_(t, Scalar::Int(tr)).py()?; }
        Ok(Value::None)
    },
}

impl Native for GradScaler {
    fn type_name(&self) -> &str {
        "GradScaler"
    }
    fn module(&self) -> &str {
        module_of(self.flavor)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(format!(
            "<{}.GradScaler object at {:#x}>",
            module_of(self.flavor),
            self as *const GradScaler as usize
        ))
    }
    fn get_attr(&self, this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        let n = name.as_str();
        if let Some((mname, f)) = METHODS.iter().find(|(m, _)| *m == &*n) {
            return Ok(Some(Value::Builtin(Rc::new(Builtin {
                name: mname,
                f: *f,
                this: Some(this.clone()),
            }))));
        }
        let tensor_or_none = |t: Option<Tensor>| t.map(wrap).unwrap_or(Value::None);
        Ok(Some(match &*n {
            "_enabled" => Value::bool(self.enabled),
            "_device" => Value::str(self.device),
            "_scale" => self.field("_scale", |s| tensor_or_none(s.scale.clone()))?,
            "_growth_tracker" => self.field("_growth_tracker", |s| {
                tensor_or_none(s.growth_tracker.clone())
            })?,
            "_init_scale" => Value::float(self.field("_init_scale", |s| s.init_scale)?),
            "_growth_factor" => Value::float(self.field("_growth_factor", |s| s.growth_factor)?),
            "_backoff_factor" => Value::float(self.field("_backoff_factor", |s| s.backoff_factor)?),
            "_growth_interval" => {
                Value::Int(self.field("_growth_interval", |s| s.growth_interval)?)
            }
            _ => return Ok(None),
        }))
    }
    fn attr_names(&self) -> Vec<PyStr> {
        METHODS.iter().map(|(n, _)| PyStr::from(*n)).collect()
    }
}

fn module_of(f: Flavor) -> &'static str {
    match f {
        Flavor::Amp => "torch.amp.grad_scaler",
        Flavor::Cuda => "torch.cuda.amp.grad_scaler",
        Flavor::Cpu => "torch.cpu.amp.grad_scaler",
    }
}

/// The class objects `torch.amp.GradScaler`, `torch.cuda.amp.GradScaler`, ...
pub struct GradScalerType(Flavor);

pub fn scaler_type(f: Flavor) -> Value {
    Value::Native(NativeRc::new(GradScalerType(f)))
}

impl Native for GradScalerType {
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
        Ok(format!("<class '{}.GradScaler'>", module_of(self.0)))
    }
    fn get_attr(&self, _this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(match &*name.as_str() {
            "__name__" | "__qualname__" => Some(Value::str("GradScaler")),
            "__module__" => Some(Value::str(module_of(self.0))),
            _ => None,
        })
    }
    fn call(&self, _this: &Value, a: Args, i: &mut Interp) -> PyResult<Value> {
        // torch.amp.GradScaler(device='cuda', init_scale, growth_factor, backoff_factor,
        // growth_interval, enabled); the deprecated classes have no device argument.
        let (device, off): (&'static str, usize) = match self.0 {
            Flavor::Amp => {
                let d = match a.pos.first().cloned().or_else(|| kwarg(&a, "device")) {
                    None => "cuda",
                    Some(v) => super::device_type(&v)?.name(),
                };
                (d, 1)
            }
            Flavor::Cuda | Flavor::Cpu => {
                let d = if self.0 == Flavor::Cuda {
                    "cuda"
                } else {
                    "cpu"
                };
                i.warn(
                    "FutureWarning",
                    &format!("`torch.{d}.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('{d}', args...)` instead."),
                );
                (d, 0)
            }
        };
        let get = |k: usize, name: &str| a.pos.get(off + k).cloned().or_else(|| kwarg(&a, name));
        let init_scale = match get(0, "init_scale") {
            Some(v) => float_of(&v)?,
            None => scaler::INIT_SCALE,
        };
        let growth_factor = match get(1, "growth_factor") {
            Some(v) => float_of(&v)?,
            None => scaler::GROWTH_FACTOR,
        };
        let backoff_factor = match get(2, "backoff_factor") {
            Some(v) => float_of(&v)?,
            None => scaler::BACKOFF_FACTOR,
        };
        let growth_interval = match get(3, "growth_interval") {
            Some(v) => v
                .as_int()
                .ok_or_else(|| type_error("growth_interval must be an int"))?,
            None => scaler::GROWTH_INTERVAL,
        };
        let mut enabled = match get(4, "enabled") {
            Some(v) => i.truthy(&v)?,
            None => true,
        };
        if device == "cuda" && enabled && !cuda_available() {
            i.warn(
                "UserWarning",
                "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
            );
            enabled = false;
        }
        if enabled {
            if growth_factor <= 1.0 {
                return Err(assertion("The growth factor must be > 1.0."));
            }
            if backoff_factor >= 1.0 {
                return Err(assertion("The backoff factor must be < 1.0."));
            }
        }
        Ok(Value::Native(NativeRc::new(GradScaler {
            flavor: self.0,
            device,
            enabled,
            inner: RefCell::new(Inner {
                init_scale,
                scale: None,
                growth_tracker: None,
                growth_factor,
                backoff_factor,
                growth_interval,
                init_growth_tracker: 0,
                per_optimizer: Vec::new(),
            }),
        })))
    }
}
