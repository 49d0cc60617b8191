//! `torch.distributed` for the language: process groups and collectives over `crate::dist`.
//!
//! Arguments are read as PyTorch reads them (`init_process_group(backend, init_method, timeout,
//! world_size, rank)`, `env://` from RANK/WORLD_SIZE/MASTER_ADDR/MASTER_PORT), and errors are
//! PyTorch's. `timeout=` takes seconds (a number) since the language has no `datetime`.
//! Backends: "gloo" always runs on cudalearn's TCP transport; "nccl" needs a real NVIDIA GPU
//! and libnccl, whose communicator then carries the CUDA tensors (`dist::nccl`), and elsewhere (the simulated GPU, or no GPU) runs on the same TCP transport
//! after a warning that says so (see ARCHITECTURE.md, "torch.distributed").
//! DDP's gradient sync after `backward()` goes through [`after_backward`].
use super::convert::as_tensor;
use super::methods::pos_or_kw;
use crate::dist::{self, BackendChoice, Config, DistError, ErrKind, ReduceOp};
use crate::lang::builtins::kwarg;
use crate::lang::error::{type_error, ExcKind, PyErr, PyResult};
use crate::lang::interp::Interp;
use crate::lang::modules::make_module;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use crate::tensor::{Device, Tensor};
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

fn derr(e: DistError) -> PyErr {
    let kind = match e.kind {
        ErrKind::Runtime => ExcKind::RuntimeError,
        ErrKind::Value => ExcKind::ValueError,
        ErrKind::Assertion => ExcKind::AssertionError,
    };
    let err = PyErr::new(kind, e.msg);
    match e.hint {
        Some(h) => err.hint(h),
        None => err,
    }
}

/// `dist.ReduceOp.SUM` and friends.
struct PyRedOp(ReduceOp);

impl Native for PyRedOp {
    fn type_name(&self) -> &str {
        "RedOpType"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn module(&self) -> &str {
        "torch.distributed"
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        let code = ReduceOp::ALL
            .iter()
            .find(|x| x.0 == self.0)
            .map_or(0, |x| x.2);
        Ok(format!("<RedOpType.{}: {code}>", self.0.name()))
    }
    fn str(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(format!("RedOpType.{}", self.0.name()))
    }
    fn hash_key(&self) -> Option<u64> {
        Some(self.0 as u64)
    }
    fn eq(&self, _this: &Value, other: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(Some(Value::bool(red_op(other) == Some(self.0))))
    }
}

fn red_op(v: &Value) -> Option<ReduceOp> {
    match v {
        Value::Native(n) => n.as_any().downcast_ref::<PyRedOp>().map(|o| o.0),
        _ => None,
    }
}

fn reduce_ops() -> Value {
    let consts: Vec<(&str, Value)> = ReduceOp::ALL
        .iter()
        .map(|(op, name, _)| (*name, Value::Native(NativeRc::new(PyRedOp(*op)))))
        .collect();
    make_module("torch.distributed.ReduceOp", &[], &consts)
}

/// What `async_op=True` returns: the work is already done (collectives here are blocking).
struct Work;

impl Native for Work {
    fn type_name(&self) -> &str {
        "Work"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn get_attr(&self, this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        let f: NativeFn = match &*name.as_str() {
            "wait" | "is_completed" | "is_success" => |_, _, _| Ok(Value::Bool(PyBool::True)),
            _ => return Ok(None),
        };
        Ok(Some(Value::Builtin(Rc::new(Builtin {
            name: "wait",
            f,
            this: Some(this.clone()),
        }))))
    }
}

fn done(a: &Args, i: &mut Interp) -> PyResult<Value> {
    match kwarg(a, "async_op") {
        Some(v) if i.truthy(&v)? => Ok(Value::Native(NativeRc::new(Work))),
        _ => Ok(Value::None),
    }
}

pub fn module() -> Value {
    let fns: &[(&'static str, NativeFn)] = &[
        ("is_available", |_, _, _| Ok(Value::Bool(PyBool::True))),
        ("is_initialized", |_, _, _| {
            Ok(Value::bool(dist::is_initialized()))
        }),
        ("is_gloo_available", |_, _, _| Ok(Value::Bool(PyBool::True))),
        ("is_nccl_available", |_, _, _| Ok(Value::Bool(PyBool::True))),
        ("init_process_group", init_process_group),
        ("destroy_process_group", |_, _, _| {
            dist::destroy().map_err(derr)?;
            Ok(Value::None)
        }),
        ("get_rank", |_, _, _| {
            let r = dist::with_group(|g| Ok(g.config.rank)).map_err(derr)?;
            Ok(Value::Int(r as i64))
        }),
        ("get_world_size", |_, _, _| {
            let r = dist::with_group(|g| Ok(g.config.world_size)).map_err(derr)?;
            Ok(Value::Int(r as i64))
        }),
        ("get_backend", |_, _, _| {
            let r = dist::with_group(|g| Ok(g.config.backend.name.clone())).map_err(derr)?;
            Ok(Value::str(&r))
        }),
        ("barrier", |i, _, a| {
            dist::with_group(|g| match &g.nccl {
                Some(c) => c.barrier(),
                None => g.ring.barrier(),
            })
            .map_err(derr)?;
            done(&a, i)
        }),
        ("all_reduce", all_reduce),
        ("broadcast", broadcast),
        ("all_gather", all_gather),
        ("reduce_scatter", reduce_scatter),
        ("_queue_grad_sync", |_, _, a| {
            if let Some(v) = a.pos.first() {
                PENDING.with(|p| {
                    let mut p = p.borrow_mut();
                    if !p.iter().any(|x| x.ptr_id() == v.ptr_id()) {
                        p.push(v.clone());
                    }
                });
            }
            Ok(Value::None)
        }),
    ];
    make_module("torch.distributed", fns, &[("ReduceOp", reduce_ops())])
}

thread_local! {
    /// DDP modules whose forward ran with gradient sync on, waiting for `backward()`.
    static PENDING: RefCell<Vec<Value>> = const { RefCell::new(Vec::new()) };
}

/// Called after every `backward()`: each DDP module queued by its forward all-reduces its
/// gradients now (PyTorch's reducer does it during backward, bucket by bucket; the result is
/// the same once backward returns).
pub fn after_backward(i: &mut Interp) -> PyResult<()> {
    let pending = PENDING.with(|p| std::mem::take(&mut *p.borrow_mut()));
    for m in pending {
        i.call_method(&m, "_sync_grads", Args::default())?;
    }
    Ok(())
}

fn tensor_arg<'a>(v: &'a Option<Value>, fname: &str, name: &str) -> PyResult<&'a Tensor> {
    match v {
        Some(v) => as_tensor(v).ok_or_else(|| {
            type_error(format!(
                "{fname}(): argument '{name}' must be Tensor, not {}",
                v.type_name()
            ))
        }),
        None => Err(type_error(format!(
            "{fname}() missing 1 required positional argument: '{name}'"
        ))),
    }
}

fn op_arg(v: Option<Value>) -> PyResult<ReduceOp> {
    match v {
        None => Ok(ReduceOp::Sum),
        Some(v) => red_op(&v).ok_or_else(|| {
            type_error(format!(
                "op must be a dist.ReduceOp (SUM, AVG, PRODUCT, MIN, MAX), not {}",
                v.type_name()
            ))
        }),
    }
}

/// A real-GPU NCCL group takes CUDA tensors only, as PyTorch's does.
fn check_device(t: &Tensor) -> PyResult<()> {
    let real_nccl =
        dist::with_group(|g| Ok(g.config.backend.name == "nccl" && !g.config.backend.nccl_on_tcp))
            .map_err(derr)?;
    if real_nccl && t.device() == Device::Cpu {
        return Err(PyErr::new(
            ExcKind::RuntimeError,
            "No backend type associated with device type cpu",
        )
        .hint("an 'nccl' group moves CUDA tensors only: move the tensor with .to('cuda'), or use init_process_group('gloo') for CPU tensors"));
    }
    Ok(())
}

/// Runs `f` on the group's NCCL communicator when it has one (an "nccl" group on a real GPU,
/// whose tensors `check_device` has checked are CUDA tensors): whether it ran.
fn via_nccl(f: impl FnOnce(&dist::nccl::Comm) -> dist::Result<()>) -> PyResult<bool> {
    dist::with_group(|g| match &g.nccl {
        Some(c) => f(c).map(|()| true),
        None => Ok(false),
    })
    .map_err(derr)
}

fn all_reduce(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let tv = pos_or_kw(&a, 0, "tensor");
    let t = tensor_arg(&tv, "all_reduce", "tensor")?;
    let op = op_arg(pos_or_kw(&a, 1, "op"))?;
    check_device(t)?;
    if via_nccl(|c| c.all_reduce(t, op))? {
        return done(&a, i);
    }
    let mut vals = dist::tensor_io::values(t).map_err(derr)?;
    let round = dist::tensor_io::rounder(t.dtype());
    dist::with_group(|g| g.ring.all_reduce(&mut vals, op, &round)).map_err(derr)?;
    dist::tensor_io::write(t, &vals).map_err(derr)?;
    done(&a, i)
}

fn broadcast(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let tv = pos_or_kw(&a, 0, "tensor");
    let t = tensor_arg(&tv, "broadcast", "tensor")?;
    let src = pos_or_kw(&a, 1, "src")
        .and_then(|v| v.as_int())
        .ok_or_else(|| {
            type_error("broadcast() missing 1 required argument: 'src' (an int rank)")
        })?;
    check_device(t)?;
    let world = dist::with_group(|g| Ok(g.config.world_size)).map_err(derr)?;
    if src < 0 || src as usize >= world {
        return Err(PyErr::new(
            ExcKind::ValueError,
            format!("Group <default> does not contain global rank {src}"),
        )
        .hint(format!("ranks are 0..{}", world - 1)));
    }
    if via_nccl(|c| c.broadcast(t, src as usize))? {
        return done(&a, i);
    }
    let mut vals = dist::tensor_io::values(t).map_err(derr)?;
    dist::with_group(|g| g.ring.broadcast(&mut vals, src as usize)).map_err(derr)?;
    dist::tensor_io::write(t, &vals).map_err(derr)?;
    done(&a, i)
}

/// The tensors of a list argument, each checked.
fn tensor_list(v: &Option<Value>, fname: &str, name: &str) -> PyResult<Vec<Tensor>> {
    let items = match v {
        Some(Value::List(l)) => l.borrow().clone(),
        Some(Value::Tuple(t)) => t.to_vec(),
        Some(v) => {
            return Err(type_error(format!(
                "{fname}(): argument '{name}' must be a list of tensors, not {}",
                v.type_name()
            )))
        }
        None => {
            return Err(type_error(format!(
                "{fname}() missing 1 required positional argument: '{name}'"
            )))
        }
    };
    items
        .iter()
        .map(|x| {
            as_tensor(x).cloned().ok_or_else(|| {
                type_error(format!(
                    "{fname}(): argument '{name}' must be a list of tensors, found {}",
                    x.type_name()
                ))
            })
        })
        .collect()
}

/// Gloo's check that a list has one tensor per rank, each of `numel` elements.
fn check_list(list: &[Tensor], world: usize, numel: usize, what: &str) -> PyResult<()> {
    if list.len() != world {
        return Err(PyErr::new(
            ExcKind::RuntimeError,
            format!(
                "ProcessGroupGloo::{what}: invalid tensor list (expected length {world}, got {})",
                list.len()
            ),
        )
        .hint("the list needs one tensor per rank: [torch.zeros_like(t) for _ in range(dist.get_world_size())]"));
    }
    if let Some(bad) = list.iter().position(|t| t.numel() != numel) {
        return Err(PyErr::new(
            ExcKind::RuntimeError,
            format!("ProcessGroupGloo::{what}: invalid tensor size at index {bad} (expected {numel}, got {})", list[bad].numel()),
        ));
    }
    Ok(())
}

fn all_gather(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let lv = pos_or_kw(&a, 0, "tensor_list");
    let tv = pos_or_kw(&a, 1, "tensor");
    let list = tensor_list(&lv, "all_gather", "tensor_list")?;
    let t = tensor_arg(&tv, "all_gather", "tensor")?;
    check_device(t)?;
    let world = dist::with_group(|g| Ok(g.config.world_size)).map_err(derr)?;
    check_list(&list, world, t.numel(), "allgather")?;
    if via_nccl(|c| c.all_gather(&list, t))? {
        return done(&a, i);
    }
    let vals = dist::tensor_io::values(t).map_err(derr)?;
    let all = dist::with_group(|g| g.ring.all_gather(&vals)).map_err(derr)?;
    for (k, out) in list.iter().enumerate() {
        let n = t.numel();
        dist::tensor_io::write(out, &all[k * n..(k + 1) * n]).map_err(derr)?;
    }
    done(&a, i)
}

fn reduce_scatter(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let ov = pos_or_kw(&a, 0, "output");
    let lv = pos_or_kw(&a, 1, "input_list");
    let out = tensor_arg(&ov, "reduce_scatter", "output")?;
    let list = tensor_list(&lv, "reduce_scatter", "input_list")?;
    let op = op_arg(pos_or_kw(&a, 2, "op"))?;
    check_device(out)?;
    let world = dist::with_group(|g| Ok(g.config.world_size)).map_err(derr)?;
    check_list(&list, world, out.numel(), "reduce_scatter")?;
    if via_nccl(|c| c.reduce_scatter(out, &list, op))? {
        return done(&a, i);
    }
    let mut flat = Vec::with_capacity(world * out.numel());
    for t in &list {
        flat.extend(dist::tensor_io::values(t).map_err(derr)?);
    }
    let round = dist::tensor_io::rounder(out.dtype());
    let mine = dist::with_group(|g| g.ring.reduce_scatter(&mut flat, op, &round)).map_err(derr)?;
    dist::tensor_io::write(out, &mine).map_err(derr)?;
    done(&a, i)
}

/// PyTorch's message for an `env://` variable that is missing.
fn env_var(name: &str) -> PyResult<String> {
    std::env::var(name).map_err(|_| {
        PyErr::new(
            ExcKind::ValueError,
            format!("Error initializing torch.distributed using env:// rendezvous: environment variable {name} expected, but not set"),
        )
        .hint("start the script with the launcher, which sets it: cudalearn run --nproc-per-node 2 script.py")
    })
}

fn int_env(name: &str, given: i64) -> PyResult<i64> {
    if given >= 0 {
        return Ok(given);
    }
    let s = env_var(name)?;
    s.trim().parse::<i64>().map_err(|_| {
        PyErr::new(
            ExcKind::ValueError,
            format!("Error initializing torch.distributed using env:// rendezvous: environment variable {name} is not an integer: '{s}'"),
        )
    })
}

fn init_process_group(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    if dist::is_initialized() {
        return Err(PyErr::new(
            ExcKind::ValueError,
            "trying to initialize the default process group twice!",
        ));
    }
    let backend = match pos_or_kw(&a, 0, "backend") {
        None | Some(Value::None) => None,
        Some(Value::Str(s)) => Some(s.to_string()),
        Some(v) => {
            return Err(type_error(format!(
                "backend must be a string, not {}",
                v.type_name()
            )))
        }
    };
    let (backend, warning) = choose_backend(backend.as_deref())?;
    let int_kw = |name: &str, k: usize| -> PyResult<i64> {
        match pos_or_kw(&a, k, name) {
            None => Ok(-1),
            Some(v) => v
                .as_int()
                .ok_or_else(|| type_error(format!("{name} must be an int"))),
        }
    };
    let world_size = int_kw("world_size", 3)?;
    let rank = int_kw("rank", 4)?;
    let timeout = match pos_or_kw(&a, 2, "timeout") {
        None | Some(Value::None) => dist::default_timeout(),
        Some(v) => timeout_arg(i, &v)?,
    };
    let (master_addr, master_port, rank, world_size) = match pos_or_kw(&a, 1, "init_method") {
        None | Some(Value::None) => env_rendezvous(rank, world_size)?,
        Some(Value::Str(s)) if &*s == "env://" => env_rendezvous(rank, world_size)?,
        Some(Value::Str(s)) if s.starts_with("tcp://") => tcp_rendezvous(&s, rank, world_size)?,
        Some(v) => {
            return Err(PyErr::new(
                ExcKind::ValueError,
                format!("No rendezvous handler for {}", i.to_str(&v)?),
            )
            .hint("cudalearn has the env:// and tcp://HOST:PORT rendezvous"))
        }
    };
    if world_size < 1 || rank < 0 || rank >= world_size {
        return Err(PyErr::new(
            ExcKind::ValueError,
            format!("Invalid rank {rank} for world size {world_size}: the rank must be in 0..{world_size}"),
        ));
    }
    if rank == 0 {
        if let Some(w) = warning {
            i.warn("UserWarning", &w);
        }
    }
    let config = Config {
        backend,
        rank: rank as usize,
        world_size: world_size as usize,
        master_addr,
        master_port,
        timeout,
    };
    dist::init(config).map_err(derr)?;
    Ok(Value::None)
}

fn timeout_arg(i: &mut Interp, v: &Value) -> PyResult<std::time::Duration> {
    let secs = match v {
        Value::Int(n) => *n as f64,
        Value::Float(f) => f.get(),
        // a timedelta-like object
        _ => {
            let s = i.call_method(v, "total_seconds", Args::default())?;
            match s {
                Value::Int(n) => n as f64,
                Value::Float(f) => f.get(),
                _ => return Err(type_error("timeout must be a number of seconds")),
            }
        }
    };
    if secs.is_finite() && secs > 0.0 {
        Ok(std::time::Duration::from_secs_f64(secs.min(1e7)))
    } else {
        Err(PyErr::new(
            ExcKind::ValueError,
            "timeout must be a positive number of seconds",
        ))
    }
}

fn port_of(s: &str, what: &str) -> PyResult<u16> {
    s.trim().parse::<u16>().map_err(|_| {
        PyErr::new(
            ExcKind::ValueError,
            format!("Error initializing torch.distributed using {what} rendezvous: port '{s}' is not a port number"),
        )
    })
}

fn env_rendezvous(rank: i64, world: i64) -> PyResult<(String, u16, i64, i64)> {
    let rank = int_env("RANK", rank)?;
    let world = int_env("WORLD_SIZE", world)?;
    let addr = env_var("MASTER_ADDR")?;
    let port = port_of(&env_var("MASTER_PORT")?, "env://")?;
    Ok((addr, port, rank, world))
}

fn tcp_rendezvous(url: &str, rank: i64, world: i64) -> PyResult<(String, u16, i64, i64)> {
    let hostport = url.trim_start_matches("tcp://");
    let (host, port) = hostport.rsplit_once(':').ok_or_else(|| {
        PyErr::new(ExcKind::ValueError, format!("Error initializing torch.distributed using tcp:// rendezvous: port number missing in {url}"))
    })?;
    if rank < 0 || world < 0 {
        return Err(PyErr::new(
            ExcKind::ValueError,
            "Error initializing torch.distributed using tcp:// rendezvous: rank and world_size parameters expected",
        ));
    }
    Ok((host.to_string(), port_of(port, "tcp://")?, rank, world))
}

/// The backend asked for, what `get_backend()` will say, and the warning to give (rank 0).
fn choose_backend(name: Option<&str>) -> PyResult<(BackendChoice, Option<String>)> {
    use crate::backend::gpu::{kind, GpuKind};
    let gpu = kind();
    let plain = |n: &str| BackendChoice {
        name: n.into(),
        nccl_on_tcp: false,
    };
    match name.map(|s| s.to_ascii_lowercase()) {
        None => Ok((
            plain(if gpu == GpuKind::Cuda {
                "cpu:gloo,cuda:nccl"
            } else {
                "gloo"
            }),
            None,
        )),
        Some(s) if s == "gloo" => Ok((plain("gloo"), None)),
        Some(s) if s == "nccl" => match gpu {
            GpuKind::Cuda => {
                if let Err(e) = crate::dist::nccl::probe() {
                    return Err(
                        PyErr::new(ExcKind::RuntimeError, e.msg).hint(e.hint.unwrap_or_default())
                    );
                }
                // the host-backed test device has no device memory NCCL could use
                let warning = crate::backend::cuda::probe::is_host_device().then(|| "the host-backed test device is not a GPU NCCL can use: this 'nccl' group moves its tensors over cudalearn's TCP transport, as 'gloo' does.".to_string());
                Ok((plain("nccl"), warning))
            }
            GpuKind::Simulated | GpuKind::None => {
                let what = if gpu == GpuKind::Simulated {
                    "the simulated GPU"
                } else {
                    "no GPU"
                };
                Ok((
                    BackendChoice { name: "nccl".into(), nccl_on_tcp: true },
                    Some(format!("backend 'nccl' runs on NVIDIA GPUs only (PyTorch: \"ProcessGroupNCCL is only supported with GPUs, no GPUs found!\"). This process has {what}, so cudalearn runs the collectives over its TCP transport, as 'gloo' does; on a machine with real GPUs the same script uses NCCL.")),
                ))
            }
        },
        Some(s) if s == "mpi" || s == "ucc" => Err(PyErr::new(
            ExcKind::RuntimeError,
            format!(
                "Distributed package doesn't have {} built in",
                s.to_uppercase()
            ),
        )
        .hint("use 'gloo' (CPU) or 'nccl' (NVIDIA GPUs)")),
        Some(_) => Err(PyErr::new(
            ExcKind::AssertionError,
            format!("Unknown backend type {}", name.unwrap_or_default()),
        )
        .hint("the backends are 'gloo' (CPU tensors) and 'nccl' (CUDA tensors)")),
    }
}
