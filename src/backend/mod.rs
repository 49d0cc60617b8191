//! Backends: where a tensor's memory lives and where its kernels run.
//!
//! The seam: every `Storage` knows its `Device`, and every op in `tensor::ops` first checks the
//! devices of its operands, then computes the result dtype and shape, and only then calls the
//! `Backend` for that device (`for_device`). The backend receives operands already in the
//! compute dtype and already shape-checked, so a backend only has to implement kernels.
//!
//! Backends know nothing of tensors: an operand is a `View` (a storage and a `Layout`), a
//! result is an `Owned` (new storage and the layout of its elements in it). This layer uses
//! only `core` below it; `tensor` wraps storages and layouts into tensors above it.
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
pub mod sim_model;
pub mod storage;
pub mod timed;

use crate::core::error::Result;
use crate::core::window::Columns;
use crate::core::{BinaryOp, DType, Device, Layout, ReduceOp, Scalar, UnaryOp};
use storage::{Buffer, Storage};

/// A backend op's operand: a storage and the layout of the elements read (or written) there.
/// Two references, so it is copied freely.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    storage: &'a Storage,
    layout: &'a Layout,
}

impl<'a> View<'a> {
    #[inline]
    pub fn new(storage: &'a Storage, layout: &'a Layout) -> Self {
        View { storage, layout }
    }
    #[inline]
    pub fn storage(&self) -> &'a Storage {
        self.storage
    }
    #[inline]
    pub fn layout(&self) -> &'a Layout {
        self.layout
    }
    #[inline]
    pub fn shape(&self) -> &'a [usize] {
        self.layout.shape()
    }
    #[inline]
    pub fn dims(&self) -> &'a Dims {
        self.layout.dims()
    }
    #[inline]
    pub fn strides(&self) -> &'a [usize] {
        self.layout.strides()
    }
    #[inline]
    pub fn stride_dims(&self) -> &'a Dims {
        self.layout.stride_dims()
    }
    #[inline]
    pub fn offset(&self) -> usize {
        self.layout.offset()
    }
    #[inline]
    pub fn ndim(&self) -> usize {
        self.layout.ndim()
    }
    #[inline]
    pub fn numel(&self) -> usize {
        self.layout.numel()
    }
    #[inline]
    pub fn is_contiguous(&self) -> bool {
        self.layout.is_contiguous()
    }
    #[inline]
    pub fn dtype(&self) -> DType {
        self.storage.dtype()
    }
    #[inline]
    pub fn device(&self) -> Device {
        self.storage.device()
    }
    /// Whether two operands read the same memory (one may be a view of the other).
    #[inline]
    pub fn same_storage(&self, other: &View) -> bool {
        std::ptr::eq(self.storage, other.storage)
    }
}

/// A backend op's result: new storage and the layout of its elements in it (row-major, or the
/// memory order PyTorch's TensorIterator gives an elementwise result).
///
/// The storage is already in its `Rc` (the tensor's): a result crosses the `dyn Backend` call
/// and two more moves, and at 128 bytes it moves in registers-wide copies instead of three
/// `memcpy` calls of 216 bytes, each stalled on the stores that had just written it.
#[derive(Debug)]
pub struct Owned {
    storage: std::rc::Rc<Storage>,
    layout: Layout,
}

impl Owned {
    #[inline(always)]
    pub fn new(storage: Storage, layout: Layout) -> Self {
        Owned {
            storage: std::rc::Rc::new(storage),
            layout,
        }
    }
    /// Row-major storage of `shape`.
    #[inline(always)]
    pub fn contiguous(storage: Storage, shape: &[usize]) -> Self {
        Owned::new(storage, Layout::contiguous(shape))
    }
    #[inline]
    pub fn view(&self) -> View<'_> {
        View::new(&self.storage, &self.layout)
    }
    /// The same storage seen with another layout (which stays inside it).
    #[inline]
    pub fn relayout(self, layout: Layout) -> Self {
        Owned {
            storage: self.storage,
            layout,
        }
    }
    #[inline(always)]
    pub fn into_parts(self) -> (std::rc::Rc<Storage>, Layout) {
        (self.storage, self.layout)
    }
    #[inline]
    pub fn numel(&self) -> usize {
        self.layout.numel()
    }
    #[inline]
    pub fn dtype(&self) -> DType {
        self.storage.dtype()
    }
}

use crate::core::shape::Dims;

/// `layer_norm_rows`' result: the normalised rows, the affine output if asked for, each row's
/// mean and its rstd.
pub type Normed = (Owned, Option<Owned>, Owned, Owned);
/// `layer_norm_backward_rows`' result: the input gradient, and the weight's and bias's.
pub type NormGrads = (Owned, Option<(Owned, Owned)>);

pub trait Backend {
    /// Zero-filled storage of `numel` elements (the allocator's OOM is an error, never an abort).
    fn zeros(&self, dtype: DType, numel: usize, device: Device) -> Result<Storage>;
    /// Storage of `numel` elements that the caller overwrites completely before anyone reads
    /// it (`empty` + `copy_`, as `clone` is): the CPU reuses a freed buffer without zeroing it.
    /// Zeros elsewhere.
    fn empty(&self, dtype: DType, numel: usize, device: Device) -> Result<Storage> {
        self.zeros(dtype, numel, device)
    }
    /// Storage holding host data (`torch.tensor([...])`, host→device copies).
    fn upload(&self, buf: Buffer, device: Device) -> Result<Storage>;
    /// Storage on `device` holding the elements of `src`, a CPU tensor, row-major (`t.to(device)`).
    /// By default they are staged through a new host buffer; a card copies a contiguous host
    /// tensor's own bytes, so page-locked ones (`pin_memory()`) travel at full speed.
    fn upload_from(&self, src: View, device: Device) -> Result<Storage> {
        self.upload(cpu::CPU.to_host(src)?, device)
    }
    /// The elements of `x` in row-major order as a host buffer of `x`'s dtype.
    fn to_host(&self, x: View) -> Result<Buffer>;
    /// `dst.copy_(src)`: `src` broadcast to `dst`'s shape (checked by the caller), cast to
    /// `dst`'s dtype. `src` may share storage with `dst`.
    fn copy(&self, dst: View, src: View) -> Result<()>;
    /// `dst.fill_(v)`, with `v` cast to `dst`'s dtype.
    fn fill(&self, dst: View, v: Scalar) -> Result<()>;
    /// `src.to(dtype)`: `src`'s values cast to `dtype`, keeping the layout of a dense `src` (a
    /// transposed matrix stays transposed), else row-major.
    fn cast(&self, src: View, dtype: DType) -> Result<Owned>;
    /// A row-major copy (`contiguous()`).
    fn contiguous_copy(&self, src: View) -> Result<Owned>;
    /// An elementwise unary op; the result has `x`'s dtype (bool for predicates).
    fn unary(&self, op: UnaryOp, x: View) -> Result<Owned>;
    /// An elementwise binary op of two operands of one dtype broadcast to `shape`; the result
    /// has that dtype, or bool for comparisons and logical ops.
    fn binary(&self, op: BinaryOp, a: View, b: View, shape: &[usize]) -> Result<Owned>;
    /// `op(a, s)` (or `op(s, a)` when `reversed`) with a Python number already checked to suit
    /// `a`'s dtype.
    fn binary_scalar(&self, op: BinaryOp, a: View, s: Scalar, reversed: bool) -> Result<Owned>;
    /// In place: `dst = op(dst, src)`, `src` of `dst`'s dtype broadcast to `dst`'s shape.
    fn binary_inplace(&self, op: BinaryOp, dst: View, src: View) -> Result<()>;
    /// In place with a number: `dst = op(dst, s)`.
    fn binary_scalar_inplace(&self, op: BinaryOp, dst: View, s: Scalar) -> Result<()>;
    /// `where(cond, a, b)` with `a` and `b` of one dtype, all broadcast to `shape`.
    fn where_(&self, cond: View, a: View, b: View, shape: &[usize]) -> Result<Owned>;
    /// Reduce `dims` (sorted, distinct) of `x` into `out` dtype.
    fn reduce(
        &self,
        op: ReduceOp,
        x: View,
        dims: &[usize],
        keepdim: bool,
        out: DType,
    ) -> Result<Owned>;
    /// `max`/`min` along one dim (or the flattened operand): values and int64 indices.
    fn arg_reduce(
        &self,
        max: bool,
        x: View,
        dim: Option<usize>,
        keepdim: bool,
    ) -> Result<(Owned, Owned)>;
    /// `softmax`/`log_softmax` along `dim` of a floating operand.
    fn softmax(&self, x: View, dim: usize, log: bool) -> Result<Owned>;
    /// The gradient of `softmax` (`log_softmax` with `log`) along `dim` from the incoming
    /// gradient `g` and the forward's output `y` (one shape and dtype): `y * (g - sum(g * y))`
    /// or `g - exp(y) * sum(g)` computed as PyTorch's kernel for the device does; `None` where
    /// the backend has no such kernel for these operands (the caller then composes it of ops).
    fn softmax_backward(
        &self,
        _g: View,
        _y: View,
        _dim: usize,
        _log: bool,
    ) -> Result<Option<Owned>> {
        Ok(None)
    }
    /// The gradient of `F.silu` at `x` for the incoming gradient `g` (one shape and dtype),
    /// computed as PyTorch's kernel for the device does; `None` where the backend has no such
    /// kernel for these operands (the caller then composes it of ops).
    fn silu_backward(&self, _g: View, _x: View) -> Result<Option<Owned>> {
        Ok(None)
    }
    /// `v` where `x > 0`, else `v * slope`: `leaky_relu` (`v = x`) or its backward (`v` the
    /// gradient, `backward`); `None` where the backend has no such kernel for these operands.
    fn leaky_relu(
        &self,
        _x: View,
        _v: View,
        _slope: f64,
        _backward: bool,
    ) -> Result<Option<Owned>> {
        Ok(None)
    }
    /// `torch.clamp(x, lo, hi)` (either bound may be absent) in `x`'s dtype, in one pass: an
    /// element equal to a bound is kept (`-0.0` stays `-0.0` under `min=0`), a NaN bound makes
    /// every element NaN; `None` where the backend has no such kernel for `x` (the caller then
    /// runs `maximum` and `minimum`).
    fn clamp(&self, _x: View, _lo: Option<Scalar>, _hi: Option<Scalar>) -> Result<Option<Owned>> {
        Ok(None)
    }
    /// The windows of a 4-d image batch `x` as the rows a convolution multiplies, laid out as
    /// `cols` says, `fill` where a window reads the padding; `None` where the backend has no
    /// such kernel for `x` (the caller then slices and stacks the padded input).
    fn im2col(&self, _x: View, _cols: &Columns, _fill: f64) -> Result<Option<Owned>> {
        Ok(None)
    }
    /// The adjoint of `im2col` (its gradient): each element of `g` (`im2col`'s columns of an
    /// input shaped `shape`) summed onto the input element it was read from; `None` where the
    /// backend has no such kernel for `g`.
    fn col2im(&self, _g: View, _shape: [usize; 4], _cols: &Columns) -> Result<Option<Owned>> {
        Ok(None)
    }
    /// `x` (`[N, C, H, W]`) convolved with the weights `w` (`[O, C, kh, kw]`), without a
    /// bias, as `[N, O, OH * OW]`: the product of the weights (as `[O, K]`, `K` in the order
    /// of `cols`' rows) with `im2col`'s columns in one pass, with that product's bits; `None`
    /// where the backend has no such kernel for these operands (the caller composes it).
    fn conv2d(&self, _x: View, _w: View, _cols: &Columns) -> Result<Option<Owned>> {
        Ok(None)
    }
    /// The variance (`std`: the standard deviation) of each group of a contiguous `x` seen as
    /// `[outer, kept, len]` (`groups = [outer, len]`), reduced over `outer` and `len`, shaped
    /// `shape`, divided by `outer * len - correction`, as PyTorch's CPU kernels compute it in
    /// double; the deviations from `mean` where given (`std_var_all_cpu` takes the tensor's
    /// own `mean()`), else from each group's mean. `None` where the backend has no
    /// such kernel for these operands (the caller then computes it another way).
    fn var_rows(
        &self,
        _x: View,
        _groups: [usize; 2],
        _correction: f64,
        _std: bool,
        _mean: Option<f64>,
        _shape: &[usize],
    ) -> Result<Option<Owned>> {
        Ok(None)
    }
    /// `cumsum` (`cumprod` if `prod`) of `x` along `dim` in `x`'s dtype, as PyTorch's kernel
    /// accumulates it; `None` where the backend has none for these operands (the caller then
    /// computes it another way).
    fn scan(&self, _x: View, _dim: usize, _prod: bool) -> Result<Option<Owned>> {
        Ok(None)
    }
    /// The `p`-norm of `x` over `dims` (sorted, distinct; every dim for a whole-tensor norm),
    /// shaped `shape`, as PyTorch's kernels compute it; `None` where the backend has none for
    /// these operands (the caller then computes it another way).
    fn vector_norm(
        &self,
        _x: View,
        _p: f64,
        _dims: &[usize],
        _shape: &[usize],
    ) -> Result<Option<Owned>> {
        Ok(None)
    }
    /// `F.layer_norm`'s normalisation of each row of `inner` trailing elements of `x`: the
    /// normalised rows `xhat` (`x`'s shape), with `affine = (weight, bias)` (`[inner]` each)
    /// also `xhat * weight + bias` rounded once (ATen's FMA), and each row's mean and
    /// `1 / sqrt(var + eps)` (`[rows]`); `None` where the backend has no such kernel for these
    /// operands (the caller then computes it another way).
    fn layer_norm_rows(
        &self,
        _x: View,
        _inner: usize,
        _affine: Option<(View, View)>,
        _eps: f64,
    ) -> Result<Option<Normed>> {
        Ok(None)
    }
    /// The input gradient of that normalisation followed by a `weight` (`[inner]`) if any, from
    /// the incoming gradient `g`, the normalised rows `xhat` and each row's `rstd`, and with
    /// `params` the sums over the rows of `g * xhat` and of `g` (`[inner]`: the weight's and
    /// the bias's gradients); `None` where the backend has no such kernel for these operands.
    fn layer_norm_backward_rows(
        &self,
        _g: View,
        _xhat: View,
        _w: Option<View>,
        _rstd: View,
        _params: bool,
    ) -> Result<Option<NormGrads>> {
        Ok(None)
    }
    /// `t.max()` / `t.min()` over every element: `reduce` over all dims, unless the backend
    /// models another kernel for it (PyTorch's CPU runs one that returns another of tied
    /// zeros).
    fn max_all(&self, max: bool, x: View) -> Result<Owned> {
        let op = if max { ReduceOp::Max } else { ReduceOp::Min };
        let all: Vec<usize> = (0..x.ndim()).collect();
        self.reduce(op, x, &all, false, x.dtype())
    }
    /// Batched matrix product of `a` [B, M, K] and `b` [B, K, N] (any strides, one dtype).
    fn bmm(&self, a: View, b: View) -> Result<Owned>;
    /// `c + a @ b` with `c` (`[B, M, N]`, any strides, broadcast ones too) added to the
    /// accumulator before its one rounding, as cuBLAS does with `beta = 1` (for float16 and
    /// bfloat16 the accumulator is float32); `None` where the backend has no such product (the
    /// caller then computes it in float32 ops and rounds, which gives the same numbers).
    fn baddbmm(&self, _c: View, _a: View, _b: View) -> Result<Option<Owned>> {
        Ok(None)
    }
    /// Advanced-indexing gather: for each base offset, copy the sub-tensor of `src`'s storage
    /// laid out by (`shape`, `strides`) from there; result is `[bases.len(), *shape]`.
    fn gather(
        &self,
        src: View,
        bases: &[usize],
        shape: &[usize],
        strides: &[usize],
    ) -> Result<Owned>;
    /// The inverse: write `values` (`[bases.len(), *shape]`, `dst`'s dtype) at the same places.
    fn scatter(
        &self,
        dst: View,
        bases: &[usize],
        shape: &[usize],
        strides: &[usize],
        values: View,
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
