//! Backends: where a tensor's memory lives and where its kernels run.
//!
//! The seam: every `Storage` knows its `Device`, and every op in `tensor::ops` first checks the
//! devices of its operands, then computes the result dtype and shape, and only then calls the
//! `Backend` for that device (`for_device`). The backend receives operands already in the
//! compute dtype and already shape-checked, so a backend only has to implement kernels.
//!
//! The CPU backend serves the CPU and the simulated GPU (`--sim-gpu`: host memory behind a
//! separate device identity, with the caching allocator's accounting in its storage). A real
//! card is served by `cuda::backend`, over device-resident storage, with NVRTC kernels and
//! cuBLAS.
pub mod alloc;
pub mod cpu;
pub mod cuda;
pub mod gpu;
pub mod profile_log;
pub mod sim;
pub mod sim_bench;
pub mod sim_model;
pub mod timed;

use crate::tensor::ops::binary::BinaryOp;
use crate::tensor::ops::reduce::ReduceOp;
use crate::tensor::ops::unary::UnaryOp;
use crate::tensor::storage::{Buffer, Storage};
use crate::tensor::{DType, Device, Result, Scalar, Tensor};
use std::rc::Rc;

pub trait Backend {
    /// Zero-filled storage of `numel` elements (the allocator's OOM is an error, never an abort).
    fn zeros(&self, dtype: DType, numel: usize, device: Device) -> Result<Rc<Storage>>;
    /// Storage holding host data (`torch.tensor([...])`, host→device copies).
    fn upload(&self, buf: Buffer, device: Device) -> Result<Rc<Storage>>;
    /// The elements of `t` in row-major order as a host buffer of `t`'s dtype.
    fn to_host(&self, t: &Tensor) -> Result<Buffer>;
    /// `dst.copy_(src)`: `src` broadcast to `dst`'s shape (checked by the caller), cast to
    /// `dst`'s dtype. `src` may share storage with `dst`.
    fn copy(&self, dst: &Tensor, src: &Tensor) -> Result<()>;
    /// `dst.fill_(v)`, with `v` cast to `dst`'s dtype.
    fn fill(&self, dst: &Tensor, v: Scalar) -> Result<()>;
    /// `src.to(dtype)`: a new tensor with `src`'s values cast to `dtype`, keeping the layout of
    /// a dense `src` (a transposed matrix stays transposed), else row-major.
    fn cast(&self, src: &Tensor, dtype: DType) -> Result<Tensor>;
    /// A row-major copy (`contiguous()`).
    fn contiguous_copy(&self, src: &Tensor) -> Result<Tensor>;
    /// An elementwise unary op; the result has `x`'s dtype (bool for predicates).
    fn unary(&self, op: UnaryOp, x: &Tensor) -> Result<Tensor>;
    /// An elementwise binary op of two tensors of one dtype broadcast to `shape`; the result
    /// has that dtype, or bool for comparisons and logical ops.
    fn binary(&self, op: BinaryOp, a: &Tensor, b: &Tensor, shape: &[usize]) -> Result<Tensor>;
    /// `op(a, s)` (or `op(s, a)` when `reversed`) with a Python number already checked to suit
    /// `a`'s dtype.
    fn binary_scalar(&self, op: BinaryOp, a: &Tensor, s: Scalar, reversed: bool) -> Result<Tensor>;
    /// In place: `dst = op(dst, src)`, `src` of `dst`'s dtype broadcast to `dst`'s shape.
    fn binary_inplace(&self, op: BinaryOp, dst: &Tensor, src: &Tensor) -> Result<()>;
    /// In place with a number: `dst = op(dst, s)`.
    fn binary_scalar_inplace(&self, op: BinaryOp, dst: &Tensor, s: Scalar) -> Result<()>;
    /// `where(cond, a, b)` with `a` and `b` of one dtype, all broadcast to `shape`.
    fn where_(&self, cond: &Tensor, a: &Tensor, b: &Tensor, shape: &[usize]) -> Result<Tensor>;
    /// Reduce `dims` (sorted, distinct) of `x` into `out` dtype.
    fn reduce(
        &self,
        op: ReduceOp,
        x: &Tensor,
        dims: &[usize],
        keepdim: bool,
        out: DType,
    ) -> Result<Tensor>;
    /// `max`/`min` along one dim (or the flattened tensor): values and int64 indices.
    fn arg_reduce(
        &self,
        max: bool,
        x: &Tensor,
        dim: Option<usize>,
        keepdim: bool,
    ) -> Result<(Tensor, Tensor)>;
    /// `softmax`/`log_softmax` along `dim` of a floating tensor.
    fn softmax(&self, x: &Tensor, dim: usize, log: bool) -> Result<Tensor>;
    /// Batched matrix product of `a` [B, M, K] and `b` [B, K, N] (any strides, one dtype).
    fn bmm(&self, a: &Tensor, b: &Tensor) -> Result<Tensor>;
    /// Advanced-indexing gather: for each base offset, copy the sub-tensor of `src`'s storage
    /// laid out by (`shape`, `strides`) from there; result is `[bases.len(), *shape]`.
    fn gather(
        &self,
        src: &Tensor,
        bases: &[usize],
        shape: &[usize],
        strides: &[usize],
    ) -> Result<Tensor>;
    /// The inverse: write `values` (`[bases.len(), *shape]`, `dst`'s dtype) at the same places.
    fn scatter(
        &self,
        dst: &Tensor,
        bases: &[usize],
        shape: &[usize],
        strides: &[usize],
        values: &Tensor,
    ) -> Result<()>;
}

/// The backend serving `device`: the simulated GPU's ops go through `timed::SIM`, which costs
/// each one on the modelled clock; CPU and CUDA ops are timed only while a profiler listens.
#[inline]
pub fn for_device(device: Device) -> &'static dyn Backend {
    match device {
        Device::Cuda(_) => match gpu::kind() {
            gpu::GpuKind::Cuda if profile_log::active() => &timed::CUDA_PROFILED,
            gpu::GpuKind::Cuda => &cuda::backend::CUDA,
            gpu::GpuKind::Simulated => &timed::SIM,
            gpu::GpuKind::None => &cpu::CPU,
        },
        Device::Cpu if profile_log::active() => &timed::CPU_PROFILED,
        Device::Cpu => &cpu::CPU,
    }
}
