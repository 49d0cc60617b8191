//! NCCL on a real GPU: found at run time, like cuBLAS and NVRTC (`backend/cuda/probe.rs`), and
//! driven for the CUDA tensors of an "nccl" group.
//!
//! - **Loading**: `libnccl.so.2` (what NCCL's packages and the `nvidia-nccl-cu12/13` pip wheels
//!   install) or `libnccl.so`, from the library path, else from the wheel folders and
//!   `CUDA_HOME` that `probe::library_dirs` lists. Missing or broken is a clear error at
//!   `init_process_group("nccl")`. The C types come from cudarc's `nccl` bindings
//!   (`cudarc::nccl::sys`); the functions are looked up on this module's own handle, because
//!   cudarc's loader only tries `libnccl.so` and `libnccl.so.{13,12,11,10,9,1}` — never
//!   `libnccl.so.2` — and panics when none loads. Every function is looked up when the library
//!   is loaded, so a library without one is "not an NCCL library", never a panic mid-run.
//! - **Communicator** (`Comm::init`): rank 0 calls `ncclGetUniqueId`; its 128 bytes go to the
//!   other ranks by a broadcast over the TCP ring the rendezvous built; every rank then calls
//!   `ncclCommInitRank` on its own device (`LOCAL_RANK`, as the launcher sets it) with that
//!   device's primary context current.
//! - **Collectives** run as NCCL calls on the tensors' device memory, on the legacy default
//!   stream (the stream every copy and kernel of the CUDA backend runs on, so they are ordered
//!   with the work before and after). A non-contiguous tensor goes through a contiguous copy.
//!   `barrier()` is a one-element all-reduce, as PyTorch's NCCL barrier is.
use super::{DistError, ReduceOp, Result};
use crate::tensor::{DType, Device, Tensor};
use cudarc::nccl::sys::{ncclComm_t, ncclDataType_t, ncclRedOp_t, ncclUniqueId};
use std::ffi::{c_char, c_int, c_void};
use std::sync::OnceLock;

const NAMES: &[&str] = &["libnccl.so.2", "libnccl.so"];

/// The `cudaStream_t` NCCL's calls take: null is the legacy default stream, the backend's.
type Stream = *mut c_void;
/// NCCL's results are read as plain integers (a value outside cudarc's enum must not be UB).
type Res = c_int;

/// NCCL's functions on the loaded library (kept loaded for the life of the process).
struct Api {
    version: i32,
    get_unique_id: unsafe extern "C" fn(*mut ncclUniqueId) -> Res,
    init_rank: unsafe extern "C" fn(*mut ncclComm_t, c_int, ncclUniqueId, c_int) -> Res,
    destroy: unsafe extern "C" fn(ncclComm_t) -> Res,
    abort: unsafe extern "C" fn(ncclComm_t) -> Res,
    error_string: unsafe extern "C" fn(Res) -> *const c_char,
    all_reduce: unsafe extern "C" fn(
        *const c_void,
        *mut c_void,
        usize,
        ncclDataType_t,
        ncclRedOp_t,
        ncclComm_t,
        Stream,
    ) -> Res,
    broadcast: unsafe extern "C" fn(
        *const c_void,
        *mut c_void,
        usize,
        ncclDataType_t,
        c_int,
        ncclComm_t,
        Stream,
    ) -> Res,
    all_gather: unsafe extern "C" fn(
        *const c_void,
        *mut c_void,
        usize,
        ncclDataType_t,
        ncclComm_t,
        Stream,
    ) -> Res,
    reduce_scatter: unsafe extern "C" fn(
        *const c_void,
        *mut c_void,
        usize,
        ncclDataType_t,
        ncclRedOp_t,
        ncclComm_t,
        Stream,
    ) -> Res,
}

/// NCCL's version (e.g. 22703 for 2.27.3), or why it cannot be loaded.
pub fn probe() -> std::result::Result<i32, DistError> {
    api().map(|a| a.version)
}

fn api() -> Result<&'static Api> {
    static FOUND: OnceLock<Result<Api>> = OnceLock::new();
    FOUND.get_or_init(load).as_ref().map_err(|e| e.clone())
}

/// The places to try, in order: the bare names (the library path), then the wheel and
/// toolkit folders.
fn candidates() -> Vec<String> {
    let mut c: Vec<String> = NAMES.iter().map(|s| s.to_string()).collect();
    if crate::backend::gpu::kind() == crate::backend::gpu::GpuKind::Cuda {
        for dir in crate::backend::cuda::probe::library_dirs() {
            for name in NAMES {
                let p = dir.join(name);
                if p.exists() {
                    c.push(p.display().to_string());
                }
            }
        }
    }
    c
}

fn load() -> Result<Api> {
    let mut why = String::new();
    for name in candidates() {
        // SAFETY: loading NCCL runs its initialisers, which only set up its own state.
        match unsafe { libloading::Library::new(&name) } {
            Ok(lib) => {
                let shown = name.rsplit('/').next().unwrap_or(&name).to_string();
                return bind(lib).ok_or_else(|| {
                    DistError::runtime(format!(
                        "{shown} has no working ncclGetVersion: not an NCCL library"
                    ))
                });
            }
            Err(e) => {
                if why.is_empty() {
                    why = e.to_string();
                }
            }
        }
    }
    Err(DistError::runtime(format!(
        "ProcessGroupNCCL: the NCCL library (libnccl.so.2) could not be loaded: {why}"
    ))
    .hint("install NCCL (e.g. `pip install nvidia-nccl-cu12` and add its lib folder to LD_LIBRARY_PATH), or use init_process_group('gloo')"))
}

/// Looks up every function, and asks the version; `None` when one is missing or the version
/// query fails.
fn bind(lib: libloading::Library) -> Option<Api> {
    // SAFETY: each symbol is NCCL's documented C function with exactly the signature of the
    // field it is stored in (cudarc's bindings of NCCL 2.30 give the argument types; every
    // result is a C enum, read as int). The library is leaked below, so the pointers stay valid.
    unsafe {
        let get_version = *lib
            .get::<unsafe extern "C" fn(*mut c_int) -> Res>(b"ncclGetVersion\0")
            .ok()?;
        let mut version = 0;
        if get_version(&mut version) != 0 {
            return None;
        }
        let api = Api {
            version,
            get_unique_id: *lib.get(b"ncclGetUniqueId\0").ok()?,
            init_rank: *lib.get(b"ncclCommInitRank\0").ok()?,
            destroy: *lib.get(b"ncclCommDestroy\0").ok()?,
            abort: *lib.get(b"ncclCommAbort\0").ok()?,
            error_string: *lib.get(b"ncclGetErrorString\0").ok()?,
            all_reduce: *lib.get(b"ncclAllReduce\0").ok()?,
            broadcast: *lib.get(b"ncclBroadcast\0").ok()?,
            all_gather: *lib.get(b"ncclAllGather\0").ok()?,
            reduce_scatter: *lib.get(b"ncclReduceScatter\0").ok()?,
        };
        std::mem::forget(lib);
        Some(api)
    }
}

/// PyTorch's wording of a failed NCCL call.
fn check(api: &Api, call: &str, r: Res) -> Result<()> {
    if r == 0 {
        return Ok(());
    }
    // SAFETY: ncclGetErrorString returns a static C string for any value.
    let text = unsafe {
        let p = (api.error_string)(r);
        if p.is_null() {
            String::new()
        } else {
            std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned()
        }
    };
    Err(DistError::runtime(format!(
        "NCCL error in: {call}: {text} (ncclResult_t {r})"
    )))
}

/// The device a rank's communicator lives on: `LOCAL_RANK` (the launcher sets it), else the
/// rank, modulo the GPUs this process sees.
pub fn local_device(rank: usize) -> u32 {
    let n = crate::backend::cuda::probe()
        .map(|p| p.devices.len())
        .unwrap_or(1)
        .max(1);
    let local = std::env::var("LOCAL_RANK")
        .ok()
        .and_then(|s| s.trim().parse::<usize>().ok())
        .unwrap_or(rank);
    (local % n) as u32
}

/// One rank's NCCL communicator, on one device.
pub struct Comm {
    comm: ncclComm_t,
    ctx: std::sync::Arc<cudarc::driver::CudaContext>,
    pub device: u32,
    world: usize,
}

// SAFETY: an NCCL communicator may be used from any thread as long as two calls on it never run
// at once; the process group's mutex (`dist::with_group`) serialises every use.
unsafe impl Send for Comm {}

impl Comm {
    /// Rank 0's unique id to everyone over the ring, then `ncclCommInitRank` on `device`.
    pub fn init(ring: &mut super::ring::Ring, device: u32) -> Result<Comm> {
        let api = api()?;
        let ctx = cudarc::driver::CudaContext::new(device as usize)
            .map_err(|e| DistError::runtime(crate::backend::cuda::driver::describe(e)))?;
        let mut id = ncclUniqueId { internal: [0; 128] };
        if ring.rank == 0 {
            // SAFETY: the out-pointer is a valid ncclUniqueId.
            check(api, "ncclGetUniqueId", unsafe {
                (api.get_unique_id)(&mut id)
            })?;
        }
        let mut bytes: Vec<f64> = id.internal.iter().map(|&b| b as u8 as f64).collect();
        ring.broadcast(&mut bytes, 0)?;
        for (d, b) in id.internal.iter_mut().zip(&bytes) {
            *d = *b as u8 as c_char;
        }
        ctx.bind_to_thread()
            .map_err(|e| DistError::runtime(crate::backend::cuda::driver::describe(e)))?;
        let mut comm: ncclComm_t = std::ptr::null_mut();
        // SAFETY: the out-pointer is valid; `id` is rank 0's id, as every rank received it; the
        // device's context is current; every rank of the ring makes this call.
        let r = unsafe { (api.init_rank)(&mut comm, ring.world as c_int, id, ring.rank as c_int) };
        check(api, "ncclCommInitRank", r)?;
        Ok(Comm {
            comm,
            ctx,
            device,
            world: ring.world,
        })
    }

    /// `destroy_process_group`: the communicator is freed (aborted instead after a failure).
    pub fn close(self, failed: bool) {
        let Ok(api) = api() else { return };
        let _ = self.ctx.bind_to_thread();
        // SAFETY: `comm` is a live communicator, closed once (this consumes it).
        unsafe {
            if failed {
                (api.abort)(self.comm);
            } else {
                (api.destroy)(self.comm);
            }
        }
    }

    fn bind(&self) -> Result<&'static Api> {
        self.ctx
            .bind_to_thread()
            .map_err(|e| DistError::runtime(crate::backend::cuda::driver::describe(e)))?;
        api()
    }

    /// A tensor's buffer as NCCL will see it: a contiguous tensor on this communicator's
    /// device (itself, or a contiguous copy), its first element's address, and its dtype.
    fn buffer(&self, t: &Tensor) -> Result<(Tensor, u64, ncclDataType_t)> {
        if t.device() != Device::Cuda(self.device) {
            return Err(DistError::runtime(format!(
                "this rank's NCCL communicator is on cuda:{}, the tensor is on {}",
                self.device,
                t.device()
            ))
            .hint(
                "use the GPU of LOCAL_RANK: torch.device(f\"cuda:{os.environ['LOCAL_RANK']}\")",
            ));
        }
        let dt = datatype(t.dtype());
        let c = {
            let _no_grad = crate::tensor::autograd::mode::NoGrad::new();
            t.contiguous().map_err(|e| DistError::runtime(e.msg))?
        };
        if !c.storage().is_device_resident() {
            return Err(DistError::runtime(
                "cudalearn internal error: a CUDA tensor without device memory",
            ));
        }
        let ptr = c.storage().device_ptr() + (c.offset() * c.element_size()) as u64;
        Ok((c, ptr, dt))
    }

    /// Writes a contiguous result back into `t` when `t` was not itself the buffer.
    fn finish(t: &Tensor, buf: &Tensor) -> Result<()> {
        let _no_grad = crate::tensor::autograd::mode::NoGrad::new();
        if buf.same_storage(t) {
            t.storage().bump_version();
            return Ok(());
        }
        crate::tensor::ops::inplace::copy_(t, buf).map_err(|e| DistError::runtime(e.msg))
    }

    pub fn all_reduce(&self, t: &Tensor, op: ReduceOp) -> Result<()> {
        let api = self.bind()?;
        let (buf, p, dt) = self.buffer(t)?;
        if t.numel() > 0 {
            // SAFETY: `p` addresses `numel` elements of `dt` in a live block of this
            // communicator's device (the buffer is held until the call is queued and, on the
            // default stream, ordered before any later free or reuse); send == recv is NCCL's
            // in-place form; the context is current.
            let r = unsafe {
                (api.all_reduce)(
                    p as *const c_void,
                    p as *mut c_void,
                    t.numel(),
                    dt,
                    red_op(op, t.dtype()),
                    self.comm,
                    std::ptr::null_mut(),
                )
            };
            check(api, "ncclAllReduce", r)?;
        }
        Self::finish(t, &buf)
    }

    pub fn broadcast(&self, t: &Tensor, root: usize) -> Result<()> {
        let api = self.bind()?;
        let (buf, p, dt) = self.buffer(t)?;
        if t.numel() > 0 {
            // SAFETY: as in `all_reduce`; `root` is a rank of the group (checked by the caller).
            let r = unsafe {
                (api.broadcast)(
                    p as *const c_void,
                    p as *mut c_void,
                    t.numel(),
                    dt,
                    root as c_int,
                    self.comm,
                    std::ptr::null_mut(),
                )
            };
            check(api, "ncclBroadcast", r)?;
        }
        Self::finish(t, &buf)
    }

    /// A fresh contiguous `[n]` buffer of `dtype` on this device.
    fn scratch(&self, n: usize, dtype: DType) -> Result<(Tensor, u64)> {
        let t = crate::tensor::create::zeros(&[n as i64], Some(dtype), Device::Cuda(self.device))
            .map_err(|e| DistError::runtime(e.msg))?;
        let p = t.storage().device_ptr() + (t.offset() * t.element_size()) as u64;
        Ok((t, p))
    }

    /// `outs[k]` gets rank k's `t`.
    pub fn all_gather(&self, outs: &[Tensor], t: &Tensor) -> Result<()> {
        let api = self.bind()?;
        let (_send, sp, dt) = self.buffer(t)?;
        let n = t.numel();
        let (recv, rp) = self.scratch(n * self.world, t.dtype())?;
        if n > 0 {
            // SAFETY: `sp` addresses `n` elements and `rp` `n * world` elements of `dt`, both in
            // live blocks of this device; the context is current.
            let r = unsafe {
                (api.all_gather)(
                    sp as *const c_void,
                    rp as *mut c_void,
                    n,
                    dt,
                    self.comm,
                    std::ptr::null_mut(),
                )
            };
            check(api, "ncclAllGather", r)?;
        }
        for (k, out) in outs.iter().enumerate() {
            let part = recv
                .narrow(0, (k * n) as i64, n as i64)
                .and_then(|p| p.reshape(&out.shape().iter().map(|&d| d as i64).collect::<Vec<_>>()))
                .map_err(|e| DistError::runtime(e.msg))?;
            Self::finish(out, &part)?;
        }
        Ok(())
    }

    /// `out` gets the reduction over ranks of every rank's `inputs[rank]`.
    pub fn reduce_scatter(&self, out: &Tensor, inputs: &[Tensor], op: ReduceOp) -> Result<()> {
        let api = self.bind()?;
        let n = out.numel();
        let (send, sp) = self.scratch(n * self.world, out.dtype())?;
        for (k, t) in inputs.iter().enumerate() {
            let part = send
                .narrow(0, (k * n) as i64, n as i64)
                .map_err(|e| DistError::runtime(e.msg))?;
            let _no_grad = crate::tensor::autograd::mode::NoGrad::new();
            let src = t
                .reshape(&[n as i64])
                .and_then(|s| s.to_device(Device::Cuda(self.device)))
                .map_err(|e| DistError::runtime(e.msg))?;
            crate::tensor::ops::inplace::copy_(&part, &src)
                .map_err(|e| DistError::runtime(e.msg))?;
        }
        let (buf, rp, dt) = self.buffer(out)?;
        if n > 0 {
            // SAFETY: `sp` addresses `n * world` elements and `rp` `n` elements of `dt`, both
            // in live blocks of this device; the context is current.
            let r = unsafe {
                (api.reduce_scatter)(
                    sp as *const c_void,
                    rp as *mut c_void,
                    n,
                    dt,
                    red_op(op, out.dtype()),
                    self.comm,
                    std::ptr::null_mut(),
                )
            };
            check(api, "ncclReduceScatter", r)?;
        }
        Self::finish(out, &buf)
    }

    /// PyTorch's NCCL barrier: a one-element all-reduce, waited for.
    pub fn barrier(&self) -> Result<()> {
        let (t, _) = self.scratch(1, DType::F32)?;
        self.all_reduce(&t, ReduceOp::Sum)?;
        self.ctx
            .synchronize()
            .map_err(|e| DistError::runtime(crate::backend::cuda::driver::describe(e)))
    }
}

fn datatype(d: DType) -> ncclDataType_t {
    use ncclDataType_t as N;
    match d {
        DType::Bool | DType::U8 => N::ncclUint8,
        DType::I8 => N::ncclInt8,
        DType::I32 => N::ncclInt32,
        DType::I64 => N::ncclInt64,
        DType::F16 => N::ncclFloat16,
        DType::BF16 => N::ncclBfloat16,
        DType::F32 => N::ncclFloat32,
        DType::F64 => N::ncclFloat64,
    }
}

/// NCCL's op for `op` on `dtype`: on bool, SUM is MAX and PRODUCT is MIN (logical or/and),
/// as PyTorch's NCCL group maps them.
fn red_op(op: ReduceOp, dtype: DType) -> ncclRedOp_t {
    match (op, dtype) {
        (ReduceOp::Sum, DType::Bool) => return ncclRedOp_t::ncclMax,
        (ReduceOp::Product, DType::Bool) => return ncclRedOp_t::ncclMin,
        _ => {}
    }
    match op {
        ReduceOp::Sum => ncclRedOp_t::ncclSum,
        ReduceOp::Avg => ncclRedOp_t::ncclAvg,
        ReduceOp::Product => ncclRedOp_t::ncclProd,
        ReduceOp::Min => ncclRedOp_t::ncclMin,
        ReduceOp::Max => ncclRedOp_t::ncclMax,
    }
}

#[cfg(test)]
mod tests {
    /// Wherever these tests run: NCCL's version, or an error that names the library and says
    /// what to do.
    #[test]
    fn the_probe_answers_with_a_version_or_a_clear_error() {
        match super::load() {
            Ok(a) => assert!(a.version > 0),
            Err(e) => {
                assert!(e.msg.contains("libnccl.so.2"), "{}", e.msg);
                assert!(e
                    .hint
                    .unwrap_or_default()
                    .contains("init_process_group('gloo')"));
            }
        }
    }
}
