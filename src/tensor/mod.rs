//! The tensor engine (see ARCHITECTURE.md).
//!
//! A `Tensor` is a cheap handle (`Rc`) to one tensor object: shared storage plus a view
//! (shape, strides, offset), its dtype and device, and room for autograd. Cloning the handle is
//! one reference-count increment and keeps Python's object identity (`a is b`, `ptr_eq`); views
//! made by `view`, `transpose`, slicing, ... are new objects sharing the same `Storage`, so
//! in-place ops through any of them are seen by all.
//!
//! Every op lives in `ops/` and follows the same order: device check, dtype rule, shape rule,
//! then the backend kernel of the operands' device (`dispatch::on`, which hands `crate::backend`
//! the operands' storages and layouts and wraps its result into a new tensor). Errors are
//! `TensorError { kind, msg, hint }` with PyTorch's own message text.
//!
//! What the interpreter binds (everything returns `Result<_>` unless noted):
//! - make: `Tensor::from_nested` (`torch.tensor`), `from_f64s/from_i64s/from_bools`, `scalar`,
//!   `create::{zeros, ones, full, empty, arange, linspace, eye, *_like}`
//! - inspect: `shape`, `strides`, `offset`, `dtype`, `device`, `ndim`, `numel`, `is_contiguous`,
//!   `element_size`, `nbytes`, `len`, `size_at`, `item`, `tolist`, `contiguous_values_f64/i64/bool`,
//!   `to_py_bool`, `to_py_scalar`, `iter_dim0`, `is_cuda`, `ptr_eq`, `object_id`, `data_ptr`
//! - convert: `to_dtype`, `to_device`, `contiguous`, `clone_tensor`, `detach`
//! - shape: `view`, `reshape`, `transpose`, `t`, `t_all` (`.T`), `mt`, `permute`, `unsqueeze`,
//!   `squeeze`, `flatten`, `expand`, `expand_as`, `select`, `narrow`
//! - math: `ops::binary::{binary, binary_scalar, add_alpha, clamp, div_mode}`, `ops::unary::unary`,
//!   `ops::compare::{equal, allclose, isclose}`, `ops::matmul::{matmul, mm, bmm, mv, dot}`,
//!   `ops::reduce::{sum, mean, prod, max_all, max_dim, amax, argmax, all_any, softmax}`,
//!   `ops::join::{cat, stack, where_}`
//! - in place: `ops::inplace::{binary_inplace, binary_scalar_inplace, add_alpha_, fill_,
//!   fill_tensor_, zero_, copy_}`, `ops::unary::unary_`, `ops::binary::clamp_`
//! - indexing: `index::{index, index_put, nonzero}` with `IndexItem`/`IndexValue`
//! - autograd: `requires_grad`, `grad`/`set_grad`, `grad_fn`, `is_leaf`, `retains_grad`,
//!   `version` (in-place writes bump it), `downgrade`; ops record nodes through
//!   `crate::tensor::autograd` (each op family's rule is in `ops/<family>/grad.rs`); `*_raw` variants
//!   skip recording; `ops::nn` holds `torch.nn.functional`
//! - dtypes: `DType::{name, from_name, c10_name, size, is_floating}`, `promote::{promote_types,
//!   result_type, can_cast, default_dtype, set_default_dtype}`, `Device::parse`
pub mod autocast;
pub mod autograd;
pub mod convert;
pub mod create;
pub mod dispatch;
pub mod index;
pub mod meta;
pub mod nested;
pub mod ops;
pub mod print;
pub mod promote;
pub mod random;

// the engine's shared vocabulary lives in `core`; these keep its old paths
pub use crate::core::{device, dtype, element, error, scalar, shape};
// storage is the backend's: a tensor is an `Rc<Storage>` plus a `Layout`
pub use crate::backend::storage;

pub use device::Device;
pub use dtype::DType;
pub use error::{ErrorKind, Result, TensorError};
pub use index::IndexItem;
pub use nested::NestedData;
pub use ops::binary::BinaryOp;
pub use ops::reduce::ReduceOp;
pub use ops::unary::UnaryOp;
pub use promote::{default_dtype, set_default_dtype};
pub use scalar::Scalar;
pub use shape::Dims;
pub use storage::{Buffer, Storage};

use crate::backend::{Owned, View};
use crate::core::Layout;
use meta::AutogradMeta;
use std::cell::{Cell, RefCell, UnsafeCell};
use std::mem::ManuallyDrop;
use std::rc::Rc;

/// What `set_data` replaces: the storage and the view of it, with its dtype and device.
struct TensorData {
    storage: Rc<Storage>,
    layout: Layout,
    dtype: DType,
    device: Device,
    /// Added to the storage's version counter: `set_data` keeps the object's `_version`
    /// going across the swap (PyTorch keeps a variable's version counter), so saved tensors
    /// neither fail nor pass their in-place check by the change of storage.
    version_shift: i64,
    /// A version counter of its own instead of the storage's: `t.data` gets one (PyTorch's
    /// `.data` does not share the variable's counter, so writes through it go unnoticed by
    /// autograd's in-place check), and views of it share it.
    counter: Option<Rc<Cell<u32>>>,
}

/// A tensor handle. See the module documentation.
#[derive(Clone)]
pub struct Tensor(Rc<TensorImpl>);

pub struct TensorImpl {
    /// Storage and layout the tensor was made with, held in place (no allocation of their
    /// own). Never read again once `set_data` has run: `moved` holds the data then.
    first: ManuallyDrop<TensorData>,
    /// The data `set_data` (`p.data = t`) gave this object, so `Module.to` keeps the
    /// Parameter object an optimizer holds. See `Tensor::d`.
    moved: UnsafeCell<Option<Box<TensorData>>>,
    requires_grad: Cell<bool>,
    /// Whether this object is an `nn.Parameter` (set once, by `Parameter(...)`).
    is_param: Cell<bool>,
    /// Made under `torch.inference_mode()`: may never be saved for backward.
    inference: bool,
    /// Filled in by autograd (a later issue): `.grad`, `grad_fn`, ... Empty for most tensors.
    autograd: RefCell<Option<Box<AutogradMeta>>>,
}

impl std::fmt::Debug for Tensor {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "Tensor(shape={:?}, dtype={}, device={})",
            self.shape(),
            self.dtype(),
            self.device()
        )
    }
}

impl Tensor {
    /// A tensor over `storage` with the given layout. The caller guarantees the layout stays
    /// inside the storage (every constructor and view op checks or derives it).
    pub(crate) fn from_parts(
        storage: Rc<Storage>,
        shape: Dims,
        strides: Dims,
        offset: usize,
    ) -> Tensor {
        Tensor::from_layout(storage, Layout::new(shape, strides, offset))
    }
    /// A tensor over `storage` with `layout` (inside the storage, as for `from_parts`).
    #[inline(always)]
    pub(crate) fn from_layout(storage: Rc<Storage>, layout: Layout) -> Tensor {
        Tensor::counted(storage, layout, None)
    }
    /// `from_layout` with the version counter `counter` (None: the storage's).
    #[inline(always)]
    fn counted(storage: Rc<Storage>, layout: Layout, counter: Option<Rc<Cell<u32>>>) -> Tensor {
        let dtype = storage.dtype();
        let device = storage.device();
        Tensor(Rc::new(TensorImpl {
            first: ManuallyDrop::new(TensorData {
                storage,
                layout,
                dtype,
                device,
                version_shift: 0,
                counter,
            }),
            moved: UnsafeCell::new(None),
            requires_grad: Cell::new(false),
            is_param: Cell::new(false),
            inference: crate::tensor::autograd::mode::is_inference(),
            autograd: RefCell::new(None),
        }))
    }

    /// A contiguous tensor owning `buf`, which must hold exactly `numel(shape)` elements.
    pub fn from_buffer(buf: Buffer, shape: &[usize], device: Device) -> Result<Tensor> {
        let n = shape::checked_numel(shape)?;
        if n != buf.len() {
            return error::runtime(format!(
                "shape '{}' is invalid for input of size {}",
                shape::fmt_list(shape),
                buf.len()
            ));
        }
        let storage = dispatch::on(device).upload(buf, device)?;
        Ok(Tensor::from_layout(storage, Layout::contiguous(shape)))
    }

    /// A contiguous CPU tensor of `dtype` holding `values` converted with PyTorch's cast rules.
    pub fn from_f64s(values: &[f64], shape: &[usize], dtype: DType) -> Result<Tensor> {
        let buf = crate::with_dtype!(dtype, T => <T as storage::Element>::wrap(values.iter().map(|&v| <T as storage::Element>::from_f64(v)).collect()));
        Tensor::from_buffer(buf, shape, Device::Cpu)
    }
    pub fn from_i64s(values: &[i64], shape: &[usize], dtype: DType) -> Result<Tensor> {
        let buf = crate::with_dtype!(dtype, T => <T as storage::Element>::wrap(values.iter().map(|&v| <T as storage::Element>::from_i64(v)).collect()));
        Tensor::from_buffer(buf, shape, Device::Cpu)
    }
    pub fn from_bools(values: &[bool], shape: &[usize], dtype: DType) -> Result<Tensor> {
        let buf = crate::with_dtype!(dtype, T => <T as storage::Element>::wrap(values.iter().map(|&v| <T as storage::Element>::from_bool(v)).collect()));
        Tensor::from_buffer(buf, shape, Device::Cpu)
    }
    /// A 0-dim tensor holding `s` as `dtype` (`torch.tensor(2.5)`).
    pub fn scalar(s: Scalar, dtype: DType, device: Device) -> Result<Tensor> {
        let buf = crate::with_dtype!(dtype, T => {
            let v: T = match s {
                Scalar::Bool(b) => <T as storage::Element>::from_bool(b),
                Scalar::Int(i) => <T as storage::Element>::from_i64(i),
                Scalar::Float(f) => <T as storage::Element>::from_f64(f),
            };
            <T as storage::Element>::wrap(vec![v])
        });
        Tensor::from_buffer(buf, &[], device)
    }

    /// The storage and layout. `set_data` may replace them while references from here are
    /// alive (a native caller up the stack that ran Python code), so the replaced data is not
    /// dropped there but parked in `RETIRED` until `release_retired`, at a point where no
    /// native code holds such a reference: the reference stays valid.
    #[inline(always)]
    fn d(&self) -> &TensorData {
        // SAFETY: the cell is written only by `set_data`, which parks what it replaces in
        // `RETIRED` (a moved-away box keeps its heap place; `first`'s bytes are never
        // written), and tensors are not `Sync`, so no write overlaps this read and the
        // returned reference outlives any swap.
        match unsafe { &*self.0.moved.get() } {
            None => &self.0.first,
            Some(data) => data,
        }
    }

    /// `self.data = new` (PyTorch's `set_data`): this object takes `new`'s storage, layout,
    /// dtype and device and keeps its identity, `requires_grad`, `.grad` and hooks, so an
    /// optimizer holding it trains the moved parameter. A leaf's `AccumulateGrad` is dropped
    /// when the dtype or device changes, as PyTorch resets its grad accumulator.
    pub fn set_data(&self, new: &Tensor) {
        if self.ptr_eq(new) {
            return;
        }
        let fresh = Box::new(TensorData {
            storage: new.d().storage.clone(),
            layout: new.d().layout.clone(),
            dtype: new.d().dtype,
            device: new.d().device,
            version_shift: self.version() as i64 - new.base_version() as i64,
            counter: new.d().counter.clone(),
        });
        let changed = self.dtype() != new.dtype() || self.device() != new.device();
        // SAFETY: see `d`: the old data is kept alive in `RETIRED`, not dropped here.
        let old = match unsafe { (*self.0.moved.get()).replace(fresh) } {
            Some(old) => old,
            // `first` is read no more (`moved` is set) and not dropped (see `Drop`): its
            // owned parts move to `RETIRED` while its bytes stay for live references.
            None => Box::new(unsafe { std::ptr::read(&*self.0.first) }),
        };
        RETIRED.with(|r| r.borrow_mut().push(old));
        if changed {
            if let Some(m) = self.0.autograd.borrow_mut().as_mut() {
                m.accumulator = None;
            }
        }
    }

    /// A new tensor object viewing the same storage with another layout.
    pub(crate) fn view_as_layout(&self, shape: Dims, strides: Dims, offset: usize) -> Tensor {
        let layout = Layout::new(shape, strides, offset);
        Tensor::counted(self.d().storage.clone(), layout, self.d().counter.clone())
    }

    /// `t.data`: the same elements, detached, with a version counter of its own.
    pub fn data_alias(&self) -> Tensor {
        let counter = Some(Rc::new(Cell::new(0)));
        Tensor::counted(self.d().storage.clone(), self.d().layout.clone(), counter)
    }

    #[inline]
    pub fn shape(&self) -> &[usize] {
        self.d().layout.shape()
    }
    #[inline]
    pub fn dims(&self) -> &Dims {
        self.d().layout.dims()
    }
    #[inline]
    pub fn strides(&self) -> &[usize] {
        self.d().layout.strides()
    }
    #[inline]
    pub fn stride_dims(&self) -> &Dims {
        self.d().layout.stride_dims()
    }
    /// `storage_offset()`, in elements.
    #[inline]
    pub fn offset(&self) -> usize {
        self.d().layout.offset()
    }
    /// Shape, strides and offset together.
    #[inline]
    pub fn layout(&self) -> &Layout {
        &self.d().layout
    }
    /// This tensor as a backend operand: its storage and layout.
    #[inline]
    pub fn operand(&self) -> View<'_> {
        View::new(&self.d().storage, &self.d().layout)
    }
    /// A new tensor object owning a backend op's result.
    #[inline(always)]
    pub fn from_owned(o: Owned) -> Tensor {
        let (storage, layout) = o.into_parts();
        Tensor::from_layout(storage, layout)
    }
    pub fn dtype(&self) -> DType {
        self.d().dtype
    }
    pub fn device(&self) -> Device {
        self.d().device
    }
    #[inline]
    pub fn ndim(&self) -> usize {
        self.d().layout.ndim()
    }
    #[inline]
    pub fn numel(&self) -> usize {
        self.d().layout.numel()
    }
    pub fn element_size(&self) -> usize {
        self.d().dtype.size()
    }
    /// `nbytes`: the bytes this view spans as if it were dense (`numel * element_size`).
    pub fn nbytes(&self) -> usize {
        self.numel() * self.element_size()
    }
    #[inline]
    pub fn is_contiguous(&self) -> bool {
        self.d().layout.is_contiguous()
    }
    pub fn storage(&self) -> &Rc<Storage> {
        &self.d().storage
    }
    /// Whether two tensors share storage (one is a view of the other, or both of a third).
    pub fn same_storage(&self, other: &Tensor) -> bool {
        Rc::ptr_eq(&self.d().storage, &other.d().storage)
    }
    /// Python identity: the same tensor object.
    pub fn ptr_eq(&self, other: &Tensor) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
    /// A stable number for `id(t)` (the object's address).
    pub fn object_id(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }
    /// `data_ptr()`: address of the first element (storage address + offset * element size).
    pub fn data_ptr(&self) -> usize {
        let base = Rc::as_ptr(&self.d().storage) as usize;
        base + self.offset() * self.element_size()
    }
    /// `requires_grad`: set on leaves by the user, on op results by autograd when recorded.
    pub fn requires_grad(&self) -> bool {
        self.0.requires_grad.get()
    }
    /// Sets the flag only (`crate::tensor::autograd` checks the leaf rules first).
    pub fn set_requires_grad(&self, v: bool) {
        self.0.requires_grad.set(v)
    }
    /// `isinstance(t, nn.Parameter)`.
    /// `t.is_inference()`.
    pub fn is_inference(&self) -> bool {
        self.0.inference
    }
    pub fn is_parameter(&self) -> bool {
        self.0.is_param.get()
    }
    pub fn mark_parameter(&self) {
        self.0.is_param.set(true)
    }
    /// The autograd slot (`.grad`, `grad_fn`), `None` until autograd fills it.
    pub fn autograd_meta(&self) -> &RefCell<Option<Box<AutogradMeta>>> {
        &self.0.autograd
    }
    /// Remembers that this tensor is a recorded view of `base` (see `AutogradMeta::view_of`).
    pub(crate) fn set_view_of(&self, base: &Tensor, take: meta::ViewFn) {
        self.with_meta(|m| m.view_of = Some((base.clone(), take)))
    }
    pub(crate) fn view_of(&self) -> Option<(Tensor, meta::ViewFn)> {
        self.0
            .autograd
            .borrow()
            .as_ref()
            .and_then(|m| m.view_of.clone())
    }
    fn with_meta<R>(&self, f: impl FnOnce(&mut AutogradMeta) -> R) -> R {
        let mut m = self.0.autograd.borrow_mut();
        f(m.get_or_insert_with(Default::default))
    }
    /// `.grad`.
    pub fn grad(&self) -> Option<Tensor> {
        self.0
            .autograd
            .borrow()
            .as_ref()
            .and_then(|m| m.grad.clone())
    }
    pub fn set_grad(&self, g: Option<Tensor>) {
        if g.is_none() && self.0.autograd.borrow().is_none() {
            return;
        }
        self.with_meta(|m| m.grad = g)
    }
    /// `.grad_fn`: the node that made this tensor, `None` for leaves.
    pub fn grad_fn(&self) -> Option<Rc<crate::tensor::autograd::Node>> {
        self.0
            .autograd
            .borrow()
            .as_ref()
            .and_then(|m| m.grad_fn.clone())
    }
    pub(crate) fn set_grad_fn(&self, n: Option<Rc<crate::tensor::autograd::Node>>) {
        self.set_grad_edge(n.map(|n| (n, 0)))
    }
    /// `grad_fn` with the output of it this tensor is (an autograd edge to the tensor).
    pub fn grad_edge(&self) -> Option<(Rc<crate::tensor::autograd::Node>, usize)> {
        self.0
            .autograd
            .borrow()
            .as_ref()
            .and_then(|m| m.grad_fn.clone().map(|n| (n, m.output_nr)))
    }
    /// Makes this tensor output `nr` of the node (or a leaf, with `None`).
    pub(crate) fn set_grad_edge(&self, e: Option<(Rc<crate::tensor::autograd::Node>, usize)>) {
        self.with_meta(|m| match e {
            Some((n, nr)) => {
                m.grad_fn = Some(n);
                m.output_nr = nr;
            }
            None => {
                m.grad_fn = None;
                m.output_nr = 0;
            }
        })
    }
    /// `t.output_nr`: which output of its `grad_fn` this tensor is.
    pub fn output_nr(&self) -> usize {
        self.0.autograd.borrow().as_ref().map_or(0, |m| m.output_nr)
    }
    /// `.is_leaf`: made by the user (or by ops on tensors that need no grad).
    pub fn is_leaf(&self) -> bool {
        self.grad_fn().is_none()
    }
    pub fn retains_grad(&self) -> bool {
        self.0
            .autograd
            .borrow()
            .as_ref()
            .is_some_and(|m| m.retains_grad)
    }
    pub(crate) fn set_retains_grad(&self) {
        self.with_meta(|m| m.retains_grad = true)
    }
    /// The leaf's `AccumulateGrad` node while a graph holds it.
    pub(crate) fn accumulator(&self) -> Option<Rc<crate::tensor::autograd::Node>> {
        self.0
            .autograd
            .borrow()
            .as_ref()
            .and_then(|m| m.accumulator.as_ref().and_then(|w| w.upgrade()))
    }
    pub(crate) fn set_accumulator(&self, n: &Rc<crate::tensor::autograd::Node>) {
        self.with_meta(|m| m.accumulator = Some(Rc::downgrade(n)))
    }
    /// `t._version`: in-place writes through any view bump it.
    pub fn version(&self) -> u32 {
        (self.base_version() as i64 + self.d().version_shift) as u32
    }
    /// The counter this tensor's writes bump: its own (`.data`), else its storage's.
    fn base_version(&self) -> u32 {
        match &self.d().counter {
            Some(c) => c.get(),
            None => self.d().storage.version(),
        }
    }
    pub fn bump_version(&self) {
        match &self.d().counter {
            Some(c) => c.set(c.get().wrapping_add(1)),
            None => self.d().storage.bump_version(),
        }
    }
    /// A handle that does not keep the tensor alive (`retain_grad` hooks).
    pub fn downgrade(&self) -> WeakTensor {
        WeakTensor(Rc::downgrade(&self.0))
    }
    /// Whether this handle is the only one to the tensor and its storage (autograd may then
    /// keep a gradient buffer instead of copying it, as PyTorch's AccumulateGrad does).
    pub(crate) fn is_unique(&self) -> bool {
        Rc::strong_count(&self.0) == 1 && Rc::strong_count(&self.d().storage) == 1
    }
}

thread_local! {
    /// Data replaced by `set_data`, kept until `release_retired` (see `Tensor::d`).
    // Boxed: references taken into a replaced box point at its heap place, which must
    // outlive the swap (an unboxed `TensorData` would move).
    #[allow(clippy::vec_box)]
    static RETIRED: RefCell<Vec<Box<TensorData>>> = const { RefCell::new(Vec::new()) };
}

/// Drops the data `set_data` replaced.
///
/// # Safety
/// No reference returned by a tensor's accessors (`shape`, `strides`, `storage`, ...) taken
/// before a `set_data` on that tensor may be alive: the interpreter calls this between
/// top-level statements, outside every Python call, where no native code is running.
pub unsafe fn release_retired() {
    let parked = RETIRED.with(|r| std::mem::take(&mut *r.borrow_mut()));
    drop(parked);
}

impl Drop for TensorImpl {
    fn drop(&mut self) {
        if self.moved.get_mut().is_none() {
            // SAFETY: no `set_data` ran, so `first` is still this object's data, dropped once.
            unsafe { ManuallyDrop::drop(&mut self.first) }
        }
    }
}

/// A weak tensor handle.
#[derive(Clone)]
pub struct WeakTensor(std::rc::Weak<TensorImpl>);

impl WeakTensor {
    pub fn upgrade(&self) -> Option<Tensor> {
        self.0.upgrade().map(Tensor)
    }
}

#[cfg(test)]
mod tests;
