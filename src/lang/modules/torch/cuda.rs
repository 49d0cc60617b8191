//! `torch.cuda` (devices, memory statistics, events) and `torch.backends`, over
//! `crate::backend::gpu` (a real card or the simulated GPU). Without any GPU every function
//! answers as PyTorch's does on a machine without a driver (`tests/golden/torch/cuda_nogpu.py`).
use super::convert::{check_available, terr};
use super::objects::PyDevice;
use crate::backend::gpu;
use crate::lang::builtins::kwarg;
use crate::lang::error::{runtime_error, type_error, ExcKind, PyErr, PyResult};
use crate::lang::interp::Interp;
use crate::lang::modules::make_module;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::any::Any;
use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;

/// Add `torch.cuda`, `torch.backends`, `torch.OutOfMemoryError` and `torch.AcceleratorError` to
/// the torch module.
pub fn install(i: &mut Interp, torch: &Value) {
    let Value::Module(m) = torch else { return };
    let oom = Value::Class(i.class_for(ExcKind::OutOfMemoryError));
    let acc = Value::Class(i.class_for(ExcKind::AcceleratorError));
    let mut attrs = m.attrs.borrow_mut();
    attrs.insert(Sym::new("cuda"), module(oom.clone()));
    attrs.insert(Sym::new("backends"), backends());
    attrs.insert(Sym::new("OutOfMemoryError"), oom);
    attrs.insert(Sym::new("AcceleratorError"), acc);
}

fn module(oom: Value) -> Value {
    let fns: &[(&'static str, NativeFn)] = &[
        ("is_available", |_, _, _| {
            Ok(Value::bool(gpu::is_available()))
        }),
        ("is_initialized", |_, _, _| {
            Ok(Value::bool(gpu::is_available()))
        }),
        ("device_count", |_, _, _| {
            Ok(Value::Int(gpu::device_count() as i64))
        }),
        ("current_device", |_, _, _| {
            require_gpu()?;
            Ok(Value::Int(gpu::current_device() as i64))
        }),
        ("set_device", |_, _, a| {
            let d = match a.pos.first().cloned().or_else(|| kwarg(&a, "device")) {
                Some(Value::Int(n)) if n < 0 => return Ok(Value::None),
                v => device_index(v.as_ref())?,
            };
            gpu::set_current_device(d).map_err(terr)?;
            Ok(Value::None)
        }),
        ("get_device_name", |_, _, a| {
            Ok(Value::str(&props(&a)?.name))
        }),
        ("get_device_properties", |_, _, a| {
            Ok(Value::Native(NativeRc::new(Props(props(&a)?))))
        }),
        ("get_device_capability", |_, _, a| {
            let p = props(&a)?;
            Ok(Value::tuple(vec![
                Value::Int(p.major as i64),
                Value::Int(p.minor as i64),
            ]))
        }),
        ("synchronize", |_, _, a| {
            require_gpu()?;
            let i = device_index(arg0(&a, "device").as_ref())?;
            crate::backend::gpu::synchronize(i).map_err(terr)?;
            Ok(Value::None)
        }),
        ("memory_allocated", |_, _, a| {
            stat(&a, |s| s.allocated_bytes.all.current)
        }),
        ("max_memory_allocated", |_, _, a| {
            stat(&a, |s| s.allocated_bytes.all.peak)
        }),
        ("memory_reserved", |_, _, a| {
            stat(&a, |s| s.reserved_bytes.all.current)
        }),
        ("max_memory_reserved", |_, _, a| {
            stat(&a, |s| s.reserved_bytes.all.peak)
        }),
        ("memory_cached", |_, _, a| {
            stat(&a, |s| s.reserved_bytes.all.current)
        }),
        ("max_memory_cached", |_, _, a| {
            stat(&a, |s| s.reserved_bytes.all.peak)
        }),
        ("reset_peak_memory_stats", |_, _, a| {
            if !gpu::is_available() {
                return Err(runtime_error("invalid argument to reset_peak_memory_stats"));
            }
            let d = device_index(arg0(&a, "device").as_ref())?;
            gpu::with_memory(d, |m| m.reset_peak());
            Ok(Value::None)
        }),
        ("reset_accumulated_memory_stats", |_, _, a| {
            if !gpu::is_available() {
                return Err(runtime_error(
                    "invalid argument to reset_accumulated_memory_stats",
                ));
            }
            let d = device_index(arg0(&a, "device").as_ref())?;
            gpu::with_memory(d, |m| m.reset_accumulated());
            Ok(Value::None)
        }),
        ("empty_cache", |_, _, _| {
            if gpu::is_available() {
                for d in 0..gpu::device_count() {
                    gpu::with_memory(d, |m| m.empty_cache());
                }
            }
            Ok(Value::None)
        }),
        ("memory_summary", |i, _, a| {
            if !gpu::is_available() {
                // PyTorch's own error (its statistics are empty without a GPU), explained.
                return Err(PyErr::with_args(
                    ExcKind::KeyError,
                    vec![Value::str("allocated_bytes.all.current")],
                )
                .hint(
                    "memory_summary() reports GPU memory, and there is no GPU here, so PyTorch finds no statistics to print (that is the KeyError). Check torch.cuda.is_available() first, or start cudalearn with --sim-gpu for a simulated GPU.",
                ));
            }
            let d = device_index(arg0(&a, "device").as_ref())?;
            let abbreviated = match a.pos.get(1).cloned().or_else(|| kwarg(&a, "abbreviated")) {
                Some(v) => i.truthy(&v)?,
                None => false,
            };
            let s = gpu::with_memory(d, |m| m.stats()).unwrap_or_default();
            Ok(Value::str(&crate::backend::alloc::memory_summary(
                d,
                &s,
                abbreviated,
            )))
        }),
        ("mem_get_info", |_, _, a| {
            require_gpu()?;
            let d = device_index(arg0(&a, "device").as_ref())?;
            let (free, total) = gpu::with_memory(d, |m| m.mem_info()).unwrap_or((0, 0));
            Ok(Value::tuple(vec![
                Value::Int(free as i64),
                Value::Int(total as i64),
            ]))
        }),
        ("set_per_process_memory_fraction", |i, _, a| {
            require_gpu()?;
            let dv = a.pos.get(1).cloned().or_else(|| kwarg(&a, "device"));
            let d = device_index(dv.as_ref())?;
            let f = match a.pos.first().cloned().or_else(|| kwarg(&a, "fraction")) {
                Some(Value::Float(f)) => f.get(),
                _ => {
                    return Err(type_error(
                        "Invalid type for fraction argument, must be `float`",
                    ))
                }
            };
            if !(0.0..=1.0).contains(&f) {
                let shown = i.repr(&Value::float(f))?;
                return Err(PyErr::new(
                    ExcKind::ValueError,
                    format!("Invalid fraction value: {shown}. Allowed range: 0~1"),
                ));
            }
            gpu::with_memory(d, |m| m.set_fraction(f));
            Ok(Value::None)
        }),
        ("get_per_process_memory_fraction", |_, _, a| {
            require_gpu()?;
            let d = device_index(arg0(&a, "device").as_ref())?;
            Ok(Value::float(
                gpu::with_memory(d, |m| m.fraction()).unwrap_or(1.0),
            ))
        }),
        ("manual_seed", |_, _, _| Ok(Value::None)),
        ("manual_seed_all", |_, _, _| Ok(Value::None)),
        ("seed", |_, _, _| Ok(Value::None)),
        ("seed_all", |_, _, _| Ok(Value::None)),
        ("Event", |i, _, a| {
            let timing = match kwarg(&a, "enable_timing").or_else(|| a.pos.first().cloned()) {
                Some(v) => i.truthy(&v)?,
                None => false,
            };
            Ok(Value::Native(NativeRc::new(Event {
                timing,
                at: Cell::new(None),
            })))
        }),
    ];
    make_module("torch.cuda", fns, &[("OutOfMemoryError", oom)])
}

fn arg0(a: &Args, name: &str) -> Option<Value> {
    a.pos.first().cloned().or_else(|| kwarg(a, name))
}

fn require_gpu() -> PyResult<()> {
    if gpu::is_available() {
        Ok(())
    } else {
        Err(terr(gpu::no_gpu()))
    }
}

/// PyTorch's `_get_device_index(device, optional=True)`: None is the current device; an int, a
/// `cuda:N` string or a torch.device name one.
fn device_index(v: Option<&Value>) -> PyResult<u32> {
    let d = match v {
        None | Some(Value::None) => return Ok(gpu::current_device()),
        Some(Value::Int(n)) if *n >= 0 => return Ok(*n as u32),
        Some(Value::Str(s)) => PyDevice::parse(s)?,
        Some(Value::Native(n)) => match n.as_any().downcast_ref::<PyDevice>() {
            Some(d) => *d,
            None => {
                return Err(type_error(format!(
                    "Invalid device, must be cuda device, got {}",
                    n.type_name()
                )))
            }
        },
        Some(other) => {
            return Err(type_error(format!(
                "Invalid device, must be cuda device, got {}",
                other.type_name()
            )))
        }
    };
    if !d.cuda {
        return Err(PyErr::new(
            ExcKind::ValueError,
            "Expected a cuda device, but got: cpu",
        ));
    }
    Ok(d.index.unwrap_or_else(gpu::current_device))
}

/// A memory statistic of the requested device (0 before any GPU exists, as in PyTorch).
fn stat(a: &Args, f: fn(&crate::backend::alloc::DeviceStats) -> i64) -> PyResult<Value> {
    if !gpu::is_available() {
        return Ok(Value::Int(0));
    }
    let d = device_index(arg0(a, "device").as_ref())?;
    check_available(crate::tensor::Device::Cuda(d))?;
    Ok(Value::Int(
        gpu::with_memory(d, |m| f(&m.stats())).unwrap_or(0),
    ))
}

fn props(a: &Args) -> PyResult<gpu::DeviceProps> {
    require_gpu()?;
    let d = device_index(arg0(a, "device").as_ref())?;
    if d >= gpu::device_count() {
        return Err(PyErr::new(ExcKind::AssertionError, "Invalid device id"));
    }
    gpu::properties(d).map_err(terr)
}

/// `torch.cuda.get_device_properties(i)`.
struct Props(gpu::DeviceProps);

impl Native for Props {
    fn type_name(&self) -> &str {
        "_CudaDeviceProperties"
    }
    fn module(&self) -> &str {
        "torch._C"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(self.0.repr())
    }
    fn get_attr(&self, _this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        let p = &self.0;
        Ok(Some(match &*name.as_str() {
            "name" | "gcnArchName" => Value::str(&p.name),
            "major" => Value::Int(p.major as i64),
            "minor" => Value::Int(p.minor as i64),
            "total_memory" => Value::Int(p.total_memory as i64),
            "multi_processor_count" => Value::Int(p.multi_processor_count as i64),
            "uuid" => Value::str(&p.uuid),
            "L2_cache_size" => Value::Int(p.l2_cache_size as i64),
            "pci_bus_id" => Value::Int(p.pci_bus_id as i64),
            "pci_device_id" => Value::Int(p.pci_device_id as i64),
            "pci_domain_id" => Value::Int(p.pci_domain_id as i64),
            "is_integrated" | "is_multi_gpu_board" => Value::Int(0),
            "warp_size" => Value::Int(32),
            _ => return Ok(None),
        }))
    }
    fn attr_names(&self) -> Vec<PyStr> {
        [
            "L2_cache_size",
            "major",
            "minor",
            "multi_processor_count",
            "name",
            "total_memory",
            "uuid",
            "warp_size",
        ]
        .iter()
        .map(|s| PyStr::from(*s))
        .collect()
    }
}

/// When an event was recorded: the host clock on a real card (the real backend synchronises its
/// stream before `record` returns), the modelled device clock on the simulated GPU.
#[derive(Clone, Copy)]
enum Stamp {
    Real(Instant),
    Modelled(f64),
}

impl Stamp {
    /// Milliseconds from `self` to `end`.
    fn ms_until(self, end: Stamp) -> f64 {
        match (self, end) {
            (Stamp::Real(s), Stamp::Real(e)) if e >= s => (e - s).as_secs_f64() * 1e3,
            (Stamp::Real(s), Stamp::Real(e)) => -((s - e).as_secs_f64() * 1e3),
            (Stamp::Modelled(s), Stamp::Modelled(e)) => (e - s) * 1e3,
            // the GPU changed between the two records (a new simulated GPU): no common clock
            _ => f64::NAN,
        }
    }
}

/// `torch.cuda.Event(enable_timing=True)`; `elapsed_time` is the time between two records, in ms
/// (on the simulated GPU, modelled device time).
struct Event {
    timing: bool,
    at: Cell<Option<Stamp>>,
}

impl Native for Event {
    fn type_name(&self) -> &str {
        "Event"
    }
    fn module(&self) -> &str {
        "torch.cuda"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(match self.at.get() {
            None => "<torch.cuda.Event uninitialized>".to_string(),
            Some(_) => format!("<torch.cuda.Event {:#x}>", self as *const Event as usize),
        })
    }
    fn get_attr(&self, this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        let f: NativeFn = match &*name.as_str() {
            "record" => |_, this, _| {
                require_gpu()?;
                let d = crate::backend::gpu::current_device();
                let stamp = if gpu::kind() == gpu::GpuKind::Simulated {
                    let t = crate::backend::sim_model::with(|t| t.event(d)).unwrap_or(0.0);
                    Stamp::Modelled(t)
                } else {
                    crate::backend::gpu::synchronize(d).map_err(terr)?;
                    Stamp::Real(Instant::now())
                };
                ev(this)?.at.set(Some(stamp));
                Ok(Value::None)
            },
            "synchronize" => |_, this, _| {
                // the host waits until the device has reached the event
                if let Some(Stamp::Modelled(t)) = ev(this)?.at.get() {
                    crate::backend::sim_model::with(|m| m.wait_until("cudaEventSynchronize", t));
                }
                Ok(Value::None)
            },
            "wait" => |_, _, _| Ok(Value::None),
            "query" => |_, this, _| {
                // on the simulated GPU: has the modelled host clock passed the event yet?
                Ok(Value::bool(match ev(this)?.at.get() {
                    Some(Stamp::Modelled(t)) => {
                        crate::backend::sim_model::with(|m| m.host >= t).unwrap_or(true)
                    }
                    _ => true,
                }))
            },
            "elapsed_time" => |_, this, a| {
                let me = ev(this)?;
                let other = a.pos.first().ok_or_else(|| {
                    type_error("elapsed_time() missing 1 required positional argument: 'end_event'")
                })?;
                let end = ev(other)?;
                match (me.at.get(), end.at.get()) {
                    (Some(s), Some(e)) => {
                        if !me.timing || !end.timing {
                            return Err(PyErr::new(
                                ExcKind::AcceleratorError,
                                "CUDA error: invalid resource handle\nSearch for `cudaErrorInvalidResourceHandle' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.\n",
                            )
                            .hint("create both events with torch.cuda.Event(enable_timing=True) to time between them."));
                        }
                        let ms = s.ms_until(e);
                        // CUDA reports a float32 number of milliseconds
                        Ok(Value::float(ms as f32 as f64))
                    }
                    _ => Err(runtime_error(
                        "Both events must be recorded before calculating elapsed time.",
                    )),
                }
            },
            _ => return Ok(None),
        };
        Ok(Some(Value::Builtin(Rc::new(Builtin {
            name: "method",
            f,
            this: Some(this.clone()),
        }))))
    }
}

fn ev(v: &Value) -> PyResult<&Event> {
    match v {
        Value::Native(n) => n
            .as_any()
            .downcast_ref::<Event>()
            .ok_or_else(|| type_error("expected a torch.cuda.Event")),
        _ => Err(type_error("expected a torch.cuda.Event")),
    }
}

/// `torch.backends`: the cuDNN and CUDA matmul flags lessons set (they change nothing here:
/// cudalearn has no cuDNN, and its matmuls never use TF32), and `mps`, which is absent.
fn backends() -> Value {
    let cudnn = make_module(
        "torch.backends.cudnn",
        &[
            ("is_available", |_, _, _| Ok(Value::Bool(PyBool::False))),
            ("version", |_, _, _| Ok(Value::None)),
        ],
        &[
            ("benchmark", Value::Bool(PyBool::False)),
            ("deterministic", Value::Bool(PyBool::False)),
            ("enabled", Value::Bool(PyBool::True)),
            ("allow_tf32", Value::Bool(PyBool::True)),
        ],
    );
    let matmul = make_module(
        "torch.backends.cuda.matmul",
        &[],
        &[
            ("allow_tf32", Value::Bool(PyBool::False)),
            (
                "allow_fp16_reduced_precision_reduction",
                Value::Bool(PyBool::True),
            ),
            (
                "allow_bf16_reduced_precision_reduction",
                Value::Bool(PyBool::True),
            ),
        ],
    );
    let cuda = make_module(
        "torch.backends.cuda",
        &[("is_built", |_, _, _| Ok(Value::Bool(PyBool::True)))],
        &[("matmul", matmul)],
    );
    // Apple's GPU backend: never present here (the usual device pick reads it:
    // `"cuda" if ... else "mps" if torch.backends.mps.is_available() else "cpu"`).
    let mps = make_module(
        "torch.backends.mps",
        &[
            ("is_available", |_, _, _| Ok(Value::Bool(PyBool::False))),
            ("is_built", |_, _, _| Ok(Value::Bool(PyBool::False))),
        ],
        &[],
    );
    make_module(
        "torch.backends",
        &[],
        &[("cudnn", cudnn), ("cuda", cuda), ("mps", mps)],
    )
}

/// `t.pin_memory()`: a copy in page-locked host memory (itself when already pinned). Needs a GPU
/// (PyTorch pins through the CUDA driver) and a CPU tensor.
pub fn pin_memory(tv: &Value) -> PyResult<Value> {
    let t = super::methods::this(tv)?;
    require_gpu()?;
    if t.device() != crate::tensor::Device::Cpu {
        // at::native::pin_memory: "cannot pin '" << self.toString() << "' only dense CPU tensors can be pinned"
        return Err(runtime_error(format!(
            "cannot pin '{}' only dense CPU tensors can be pinned",
            cuda_type_name(t.dtype())
        )));
    }
    if t.storage().is_pinned() {
        return Ok(tv.clone());
    }
    let c = t.clone_tensor().map_err(terr)?;
    c.storage().set_pinned();
    Ok(super::convert::wrap(c))
}

/// `torch.cuda.FloatTensor` and friends (the legacy type names PyTorch's messages use).
fn cuda_type_name(d: crate::tensor::DType) -> &'static str {
    use crate::tensor::DType::*;
    match d {
        F32 => "torch.cuda.FloatTensor",
        F64 => "torch.cuda.DoubleTensor",
        F16 => "torch.cuda.HalfTensor",
        BF16 => "torch.cuda.BFloat16Tensor",
        I64 => "torch.cuda.LongTensor",
        I32 => "torch.cuda.IntTensor",
        I8 => "torch.cuda.CharTensor",
        U8 => "torch.cuda.ByteTensor",
        Bool => "torch.cuda.BoolTensor",
    }
}
