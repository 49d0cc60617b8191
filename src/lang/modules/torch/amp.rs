//! `torch.autocast` / `torch.amp` / `torch.cuda.amp` / `torch.cpu.amp`: autocast regions as
//! context managers and decorators, the `torch.*autocast*` state functions, and `GradScaler`
//! (in `amp/grad_scaler.rs`). The state and the op policies live in `crate::amp`.
pub mod grad_scaler;

use super::convert::*;
use super::methods::pos_or_kw;
use super::objects::dtype_value;
use crate::amp::{state, AmpDevice};
use crate::lang::builtins::kwarg;
use crate::lang::error::{runtime_error, type_error, value_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::modules::make_module;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use crate::tensor::{DType, Device};
use std::any::Any;
use std::cell::Cell;
use std::rc::Rc;

/// Which spelling made an autocast object: `torch.autocast`/`torch.amp.autocast`, or the
/// deprecated `torch.cuda.amp.autocast` / `torch.cpu.amp.autocast` subclasses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flavor {
    Amp,
    Cuda,
    Cpu,
}

impl Flavor {
    fn module(self) -> &'static str {
        match self {
            Flavor::Amp => "torch.amp.autocast_mode",
            Flavor::Cuda => "torch.cuda.amp.autocast_mode",
            Flavor::Cpu => "torch.cpu.amp.autocast_mode",
        }
    }
}

/// `torch.cuda.is_available()`: a real or simulated GPU.
pub fn cuda_available() -> bool {
    crate::backend::gpu::is_available()
}

/// A device type string (`'cpu'`, `'cuda'`) as autocast reads it, with PyTorch's errors.
pub fn device_type(v: &Value) -> PyResult<AmpDevice> {
    let Value::Str(s) = v else {
        return Err(value_error(format!(
            "Expected `device_type` of type `str`, got: `<class '{}'>`",
            v.type_name()
        )));
    };
    let (d, _) = Device::parse(s).py()?;
    Ok(AmpDevice::of(d))
}

/// The class objects `torch.autocast`, `torch.cuda.amp.autocast`, `torch.cpu.amp.autocast`.
pub struct AutocastType(pub Flavor);

impl Native for AutocastType {
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
        Ok(format!("<class '{}.autocast'>", self.0.module()))
    }
    fn get_attr(&self, _this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(match &*name.as_str() {
            "__name__" | "__qualname__" => Some(Value::str("autocast")),
            "__module__" => Some(Value::str(self.0.module())),
            _ => None,
        })
    }
    fn call(&self, _this: &Value, a: Args, i: &mut Interp) -> PyResult<Value> {
        let flavor = self.0;
        let (device, dtype, enabled, cache) = match flavor {
            Flavor::Amp => {
                let dev = a
                    .pos
                    .first()
                    .cloned()
                    .or_else(|| kwarg(&a, "device_type"))
                    .ok_or_else(|| {
                        type_error(
                            "autocast.__init__() missing 1 required positional argument: 'device_type'",
                        )
                    })?;
                let device = device_type(&dev)?;
                let dtype = opt_dtype_arg(pos_or_kw(&a, 1, "dtype"))?;
                let enabled = bool_arg(i, pos_or_kw(&a, 2, "enabled"), true)?;
                let cache = match pos_or_kw(&a, 3, "cache_enabled") {
                    Some(Value::None) | None => None,
                    Some(v) => Some(i.truthy(&v)?),
                };
                (device, dtype, enabled, cache)
            }
            Flavor::Cuda | Flavor::Cpu => {
                let (dev, default) = if flavor == Flavor::Cuda {
                    (AmpDevice::Cuda, DType::F16)
                } else {
                    (AmpDevice::Cpu, DType::BF16)
                };
                i.warn(
                    "FutureWarning",
                    &format!(
                        "`torch.{0}.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('{0}', args...)` instead.",
                        dev.name()
                    ),
                );
                let enabled = bool_arg(i, pos_or_kw(&a, 0, "enabled"), true)?;
                let dtype = opt_dtype_arg(pos_or_kw(&a, 1, "dtype"))?.unwrap_or(default);
                let cache = bool_arg(i, pos_or_kw(&a, 2, "cache_enabled"), true)?;
                (dev, Some(dtype), enabled, Some(cache))
            }
        };
        let ac = Autocast::new(i, flavor, device, dtype, enabled, cache)?;
        Ok(Value::Native(NativeRc::new(ac)))
    }
}

fn bool_arg(i: &mut Interp, v: Option<Value>, default: bool) -> PyResult<bool> {
    match v {
        None => Ok(default),
        Some(v) => i.truthy(&v),
    }
}

fn opt_dtype_arg(v: Option<Value>) -> PyResult<Option<DType>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => dtype_of(&v).map(Some).ok_or_else(|| {
            type_error(format!(
                "dtype must be a torch.dtype, not {}",
                v.type_name()
            ))
        }),
    }
}

/// An autocast region (`torch.autocast(...)`): enter/exit save and restore the state.
pub struct Autocast {
    flavor: Flavor,
    pub device: AmpDevice,
    pub fast_dtype: DType,
    pub enabled: bool,
    pub cache_enabled: bool,
    /// What `__enter__` replaced: (enabled, dtype, cache_enabled).
    prev: Cell<Option<(bool, DType, bool)>>,
}

impl Autocast {
    /// `autocast.__init__`: resolves the dtype and disables the region (with PyTorch's
    /// warning) where it cannot run.
    pub fn new(
        i: &mut Interp,
        flavor: Flavor,
        device: AmpDevice,
        dtype: Option<DType>,
        mut enabled: bool,
        cache: Option<bool>,
    ) -> PyResult<Autocast> {
        let fast_dtype = dtype.unwrap_or_else(|| state::dtype(device));
        if enabled {
            match device {
                AmpDevice::Cuda => {
                    if !cuda_available() {
                        i.warn(
                            "UserWarning",
                            "CUDA is not available or torch_xla is imported. Disabling autocast.",
                        );
                        enabled = false;
                    }
                }
                AmpDevice::Cpu => {
                    if !matches!(fast_dtype, DType::BF16 | DType::F16) {
                        i.warn(
                            "UserWarning",
                            "In CPU autocast, but the target dtype is not supported. Disabling autocast.\nCPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.",
                        );
                        enabled = false;
                    }
                }
            }
        }
        Ok(Autocast {
            flavor,
            device,
            fast_dtype,
            enabled,
            cache_enabled: cache.unwrap_or_else(state::is_cache_enabled),
            prev: Cell::new(None),
        })
    }

    /// `__enter__`.
    pub fn enter_region(&self) {
        self.prev.set(Some((
            state::is_enabled(self.device),
            state::dtype(self.device),
            state::is_cache_enabled(),
        )));
        state::set_enabled(self.device, self.enabled);
        state::set_dtype(self.device, self.fast_dtype);
        state::increment_nesting();
        state::set_cache_enabled(self.cache_enabled);
    }

    /// `__exit__`: the cache is dropped when the outermost region ends.
    pub fn exit_region(&self) {
        if state::decrement_nesting() == 0 {
            state::clear_cache();
        }
        if let Some((en, dt, cache)) = self.prev.get() {
            state::set_enabled(self.device, en);
            state::set_dtype(self.device, dt);
            state::set_cache_enabled(cache);
        }
    }
}

fn this_autocast(v: &Value) -> PyResult<&Autocast> {
    match v {
        Value::Native(n) => n.as_any().downcast_ref::<Autocast>(),
        _ => None,
    }
    .ok_or_else(|| type_error("expected an autocast object"))
}

fn method(name: &'static str, f: NativeFn, this: &Value) -> Value {
    Value::Builtin(Rc::new(Builtin {
        name,
        f,
        this: Some(this.clone()),
    }))
}

fn is_callable(v: &Value) -> bool {
    match v {
        Value::Func(_)
        | Value::Builtin(_)
        | Value::Method(_)
        | Value::Class(_)
        | Value::Native(_) => true,
        Value::Instance(inst) => inst.class.lookup(Sym::new("__call__")).is_some(),
        _ => false,
    }
}

impl Native for Autocast {
    fn callable(&self) -> bool {
        true
    }
    fn type_name(&self) -> &str {
        "autocast"
    }
    fn module(&self) -> &str {
        self.flavor.module()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn get_attr(&self, this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(Some(match &*name.as_str() {
            "fast_dtype" => dtype_value(self.fast_dtype),
            "device" => Value::str(self.device.name()),
            "_enabled" => Value::bool(self.enabled),
            "_cache_enabled" => Value::bool(self.cache_enabled),
            "__enter__" => method(
                "__enter__",
                |_, t, _| {
                    this_autocast(t)?.enter_region();
                    Ok(t.clone())
                },
                this,
            ),
            "__exit__" => method(
                "__exit__",
                |_, t, _| {
                    this_autocast(t)?.exit_region();
                    Ok(Value::Bool(PyBool::False))
                },
                this,
            ),
            _ => return Ok(None),
        }))
    }
    fn attr_names(&self) -> Vec<PyStr> {
        ["fast_dtype", "device", "__enter__", "__exit__"]
            .iter()
            .map(|s| PyStr::from(*s))
            .collect()
    }
    fn enter(&self, this: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        self.enter_region();
        Ok(Some(this.clone()))
    }
    fn exit(
        &self,
        _this: &Value,
        _i: &mut Interp,
        _err: Option<&crate::lang::error::PyErr>,
    ) -> PyResult<bool> {
        self.exit_region();
        Ok(false)
    }
    /// `@torch.autocast(...)` on a function: the function run inside the region.
    fn call(&self, this: &Value, a: Args, i: &mut Interp) -> PyResult<Value> {
        let f = a.pos.first().cloned().unwrap_or(Value::None);
        if a.pos.len() != 1 || !is_callable(&f) {
            return Err(type_error(format!(
                "autocast()(func) requires a callable, but got {}. Did you mean to use autocast as a context manager? For example:\n    with torch.autocast(device_type=...):\n        output = model(input)",
                f.type_name()
            )));
        }
        let _ = i;
        Ok(Value::Native(NativeRc::new(Decorated {
            ctx: this.clone(),
            func: f,
        })))
    }
}

/// `autocast_decorator`'s `decorate_autocast`: calls the function inside the region, and reads
/// as the function (`functools.wraps`).
pub struct Decorated {
    ctx: Value,
    func: Value,
}

impl Native for Decorated {
    fn callable(&self) -> bool {
        true
    }
    fn type_name(&self) -> &str {
        "function"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, i: &mut Interp) -> PyResult<String> {
        i.repr(&self.func)
    }
    fn binds_as_method(&self) -> bool {
        true
    }
    fn get_attr(&self, _this: &Value, name: Sym, i: &mut Interp) -> PyResult<Option<Value>> {
        match &*name.as_str() {
            "__wrapped__" => Ok(Some(self.func.clone())),
            "__name__" | "__qualname__" | "__doc__" | "__module__" => {
                i.get_attr(&self.func, name).map(Some)
            }
            _ => Ok(None),
        }
    }
    fn call(&self, _this: &Value, a: Args, i: &mut Interp) -> PyResult<Value> {
        let ac = this_autocast(&self.ctx)?;
        ac.enter_region();
        let r = i.call(&self.func, a);
        ac.exit_region();
        r
    }
}

fn device_arg(a: &Args, fname: &str) -> PyResult<AmpDevice> {
    match pos_or_kw(a, 0, "device_type") {
        Some(v) => device_type(&v),
        None => Err(type_error(format!(
            "{fname}() missing required argument 'device_type'"
        ))),
    }
}

fn deprecated(i: &mut Interp, old: &str, new: &str, line: u32) {
    i.warn(
        "DeprecationWarning",
        &format!("{old} is deprecated. Please use {new} instead. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/init.cpp:{line}.)"),
    );
}

/// `torch.*` functions about the autocast state.
pub const TORCH_FUNCTIONS: &[(&str, NativeFn)] = &[
    ("is_autocast_enabled", |_, _, a| {
        let d = match pos_or_kw(&a, 0, "device_type") {
            None => AmpDevice::Cuda,
            Some(v) => device_type(&v)?,
        };
        Ok(Value::bool(state::is_enabled(d)))
    }),
    ("set_autocast_enabled", |i, _, a| {
        let (d, on) = match (a.pos.first(), a.pos.get(1)) {
            (Some(Value::Bool(b)), None) => (AmpDevice::Cuda, b.get()),
            (Some(d), Some(v)) => (device_type(d)?, i.truthy(v)?),
            _ => {
                return Err(type_error(
                    "set_autocast_enabled() takes (device_type, enabled)",
                ))
            }
        };
        state::set_enabled(d, on);
        Ok(Value::None)
    }),
    ("get_autocast_dtype", |_, _, a| {
        Ok(dtype_value(state::dtype(device_arg(
            &a,
            "get_autocast_dtype",
        )?)))
    }),
    ("set_autocast_dtype", |_, _, a| {
        let d = device_arg(&a, "set_autocast_dtype")?;
        let dt = a
            .pos
            .get(1)
            .and_then(dtype_of)
            .ok_or_else(|| type_error("set_autocast_dtype() expects (device_type, dtype)"))?;
        state::set_dtype(d, dt);
        Ok(Value::None)
    }),
    ("is_autocast_cpu_enabled", |i, _, _| {
        deprecated(
            i,
            "torch.is_autocast_cpu_enabled()",
            "torch.is_autocast_enabled('cpu')",
            901,
        );
        Ok(Value::bool(state::is_enabled(AmpDevice::Cpu)))
    }),
    ("get_autocast_cpu_dtype", |i, _, _| {
        deprecated(
            i,
            "torch.get_autocast_cpu_dtype()",
            "torch.get_autocast_dtype('cpu')",
            1034,
        );
        Ok(dtype_value(state::dtype(AmpDevice::Cpu)))
    }),
    ("get_autocast_gpu_dtype", |i, _, _| {
        deprecated(
            i,
            "torch.get_autocast_gpu_dtype()",
            "torch.get_autocast_dtype('cuda')",
            1018,
        );
        Ok(dtype_value(state::dtype(AmpDevice::Cuda)))
    }),
    ("is_autocast_cache_enabled", |_, _, _| {
        Ok(Value::bool(state::is_cache_enabled()))
    }),
    ("set_autocast_cache_enabled", |i, _, a| {
        let v = a.pos.first().cloned().unwrap_or(Value::Bool(PyBool::True));
        state::set_cache_enabled(i.truthy(&v)?);
        Ok(Value::None)
    }),
    ("clear_autocast_cache", |_, _, _| {
        state::clear_cache();
        Ok(Value::None)
    }),
    ("autocast_increment_nesting", |_, _, _| {
        Ok(Value::Int(state::increment_nesting()))
    }),
    ("autocast_decrement_nesting", |_, _, _| {
        Ok(Value::Int(state::decrement_nesting()))
    }),
];

fn is_autocast_available(_: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    device_arg(&a, "is_autocast_available")?;
    Ok(Value::Bool(PyBool::True))
}

/// `torch.amp`; `autocast` is the very object bound to `torch.autocast`.
pub fn amp_module(autocast: &Value) -> Value {
    make_module(
        "torch.amp",
        &[("is_autocast_available", is_autocast_available)],
        &[
            ("autocast", autocast.clone()),
            ("GradScaler", grad_scaler::scaler_type(Flavor::Amp)),
        ],
    )
}

/// `torch.cuda.amp`.
pub fn cuda_amp_module() -> Value {
    make_module(
        "torch.cuda.amp",
        &[],
        &[
            ("autocast", autocast_type(Flavor::Cuda)),
            ("GradScaler", grad_scaler::scaler_type(Flavor::Cuda)),
        ],
    )
}

/// Makes `torch.cuda.amp` an attribute of `torch.cuda` (which `torch::cuda::install` adds).
pub fn install(torch: &Value) {
    let Value::Module(t) = torch else { return };
    let cuda = t.attrs.borrow().get(&Sym::new("cuda")).cloned();
    if let Some(Value::Module(c)) = cuda {
        c.attrs
            .borrow_mut()
            .insert(Sym::new("amp"), cuda_amp_module());
    }
}

/// `torch.cpu` (only its `amp` part).
pub fn cpu_module() -> Value {
    let amp = make_module(
        "torch.cpu.amp",
        &[],
        &[
            ("autocast", autocast_type(Flavor::Cpu)),
            ("GradScaler", grad_scaler::scaler_type(Flavor::Cpu)),
        ],
    );
    make_module("torch.cpu", &[], &[("amp", amp)])
}

pub fn autocast_type(f: Flavor) -> Value {
    Value::Native(NativeRc::new(AutocastType(f)))
}

/// Raised where PyTorch asserts (`AssertionError`), e.g. GradScaler's factor checks.
pub fn assertion(msg: impl Into<String>) -> crate::lang::error::PyErr {
    crate::lang::error::PyErr::new(crate::lang::error::ExcKind::AssertionError, msg.into())
}

/// `RuntimeError` with PyTorch's text.
pub fn rt(msg: &str) -> crate::lang::error::PyErr {
    runtime_error(msg)
}
