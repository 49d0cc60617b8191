//! `torch.distributed`'s engine: one process group per process, over TCP.
//!
//! A process group is `world_size` processes that each know their `rank` and hold a TCP
//! link to the next rank and from the previous one (a ring, built by the rendezvous in
//! `rendezvous.rs`). The collectives (`ring.rs`) run over that ring on flat `f64` buffers with
//! the dtype's rounding after every reduction step, so a float32 all-reduce adds in float32 as
//! Gloo does; `tensor_io.rs` moves tensors of any device and dtype in and out of those
//! buffers. Every wait is bounded by the group's timeout, and a dead peer is reported as
//! Gloo reports it ("Connection closed by peer"); after any failure the group shuts its
//! sockets, so its own neighbours fail at once instead of waiting out their timeouts.
//!
//! An "nccl" group on a real GPU also holds an NCCL communicator (`nccl.rs`, made after the
//! rendezvous with rank 0's unique id sent over the ring), which carries its CUDA tensors.
//!
//! The language's bindings are in `lang/modules/torch/distributed.rs`; the launcher that
//! starts the processes is `crate::launch`.
pub mod nccl;
pub mod rendezvous;
pub mod ring;
pub mod tensor_io;
pub mod transport;

use std::sync::Mutex;
use std::time::Duration;

/// How a failure reads in Python: the exception class, the message, cudalearn's hint.
#[derive(Debug, Clone, PartialEq)]
pub struct DistError {
    pub kind: ErrKind,
    pub msg: String,
    pub hint: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrKind {
    Runtime,
    Value,
    Assertion,
}

impl DistError {
    pub fn runtime(msg: impl Into<String>) -> DistError {
        DistError {
            kind: ErrKind::Runtime,
            msg: msg.into(),
            hint: None,
        }
    }
    pub fn value(msg: impl Into<String>) -> DistError {
        DistError {
            kind: ErrKind::Value,
            msg: msg.into(),
            hint: None,
        }
    }
    pub fn hint(mut self, h: impl Into<String>) -> DistError {
        self.hint = Some(h.into());
        self
    }
}

pub type Result<T> = std::result::Result<T, DistError>;

/// `dist.ReduceOp`: the ones Gloo implements for every dtype.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceOp {
    Sum,
    Product,
    Min,
    Max,
    Avg,
}

impl ReduceOp {
    /// PyTorch's names and `RedOpType` values (`repr(dist.ReduceOp.MAX)` is `<RedOpType.MAX: 4>`).
    pub const ALL: [(ReduceOp, &'static str, i64); 5] = [
        (ReduceOp::Sum, "SUM", 0),
        (ReduceOp::Avg, "AVG", 1),
        (ReduceOp::Product, "PRODUCT", 2),
        (ReduceOp::Min, "MIN", 3),
        (ReduceOp::Max, "MAX", 4),
    ];

    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(o, _, _)| *o == self)
            .map_or("SUM", |x| x.1)
    }

    /// Combines `b` into `a` (AVG sums here; the caller divides once at the end).
    pub fn combine(self, a: f64, b: f64) -> f64 {
        match self {
            ReduceOp::Sum | ReduceOp::Avg => a + b,
            ReduceOp::Product => a * b,
            ReduceOp::Min => a.min(b),
            ReduceOp::Max => a.max(b),
        }
    }
}

/// Which backend the group was asked for, and what carries its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendChoice {
    /// What `dist.get_backend()` answers: "gloo", "nccl", or "cpu:gloo,cuda:nccl".
    pub name: String,
    /// NCCL was asked for but runs over the TCP transport (no real GPU, or the simulated one).
    pub nccl_on_tcp: bool,
}

/// What `init_process_group` needs once the language has read its arguments.
#[derive(Debug, Clone)]
pub struct Config {
    pub backend: BackendChoice,
    pub rank: usize,
    pub world_size: usize,
    pub master_addr: String,
    pub master_port: u16,
    pub timeout: Duration,
}

/// The default timeout of every wait (rendezvous and collectives): `CUDALEARN_DIST_TIMEOUT`
/// seconds, else 300 s. PyTorch waits 30 minutes; a learner's hung run should end sooner.
pub fn default_timeout() -> Duration {
    let secs = std::env::var("CUDALEARN_DIST_TIMEOUT")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| *s > 0.0)
        .unwrap_or(300.0);
    Duration::from_secs_f64(secs)
}

/// A live process group: this rank's place and its two links of the ring, and for an "nccl"
/// group on a real GPU its NCCL communicator (which then carries the CUDA tensors).
pub struct ProcessGroup {
    pub config: Config,
    pub ring: ring::Ring,
    pub nccl: Option<nccl::Comm>,
    /// A collective failed: the communicator is aborted rather than destroyed at the end.
    failed: bool,
}

/// Whether an "nccl" group gets an NCCL communicator: a real card (not the simulated GPU, not
/// the host-backed test device).
fn wants_nccl(config: &Config) -> bool {
    use crate::backend::gpu::{kind, GpuKind};
    config.backend.name == "nccl"
        && !config.backend.nccl_on_tcp
        && kind() == GpuKind::Cuda
        && !crate::backend::cuda::probe::is_host_device()
}

static GROUP: Mutex<Option<ProcessGroup>> = Mutex::new(None);

fn lock() -> std::sync::MutexGuard<'static, Option<ProcessGroup>> {
    GROUP.lock().unwrap_or_else(|p| p.into_inner())
}

/// PyTorch's error for any use before `init_process_group`.
pub fn not_initialized() -> DistError {
    DistError::value(
        "Default process group has not been initialized, please make sure to call init_process_group.",
    )
    .hint("call dist.init_process_group(\"gloo\") first, in a script started with `cudalearn run --nproc-per-node N script.py`")
}

pub fn is_initialized() -> bool {
    lock().is_some()
}

/// `init_process_group`: the rendezvous, then the ring; the default group from then on.
pub fn init(config: Config) -> Result<()> {
    if is_initialized() {
        return Err(DistError::value(
            "trying to initialize the default process group twice!",
        ));
    }
    let mut ring = rendezvous::connect(&config)?;
    let nccl = if wants_nccl(&config) {
        let device = nccl::local_device(config.rank);
        match nccl::Comm::init(&mut ring, device) {
            Ok(c) => Some(c),
            Err(e) => {
                ring.shutdown();
                return Err(e);
            }
        }
    } else {
        None
    };
    *lock() = Some(ProcessGroup {
        config,
        ring,
        nccl,
        failed: false,
    });
    Ok(())
}

/// Runs `f` on the default group; a failure breaks the group (its sockets are shut), as a
/// Gloo group is unusable after an error.
pub fn with_group<T>(f: impl FnOnce(&mut ProcessGroup) -> Result<T>) -> Result<T> {
    let mut g = lock();
    let pg = g.as_mut().ok_or_else(not_initialized)?;
    let r = f(pg);
    if r.is_err() {
        pg.failed = true;
        pg.ring.shutdown();
    }
    r
}

/// `destroy_process_group`: closes the links.
pub fn destroy() -> Result<()> {
    match lock().take() {
        Some(pg) => {
            if let Some(c) = pg.nccl {
                c.close(pg.failed);
            }
            pg.ring.shutdown();
            Ok(())
        }
        None => Err(DistError {
            kind: ErrKind::Assertion,
            msg: "Process group cannot be None".into(),
            hint: Some(
                "destroy_process_group() ends a group made by init_process_group(); there is none"
                    .into(),
            ),
        }),
    }
}
