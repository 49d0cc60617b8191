//! Element storage. A `Buffer` is a vector typed by dtype; a `Storage` is a buffer plus the
//! device it lives on, shared (`Rc`) by every view of it. The `RefCell` lets in-place ops write
//! through any view; kernels never hold a borrow across a call that could borrow again, and
//! in-place ops whose source shares the destination's storage copy the source first.
//!
//! Device seam: a CPU tensor and a simulated-GPU tensor both hold host memory here and differ only
//! in `device` and in which allocator accounted for them. A tensor on a real card is
//! *device-resident*: its bytes live in its `GpuBlock` and the host buffer stays empty; only the
//! CUDA backend (`backend::for_device`) touches such storage, so nothing above the backend needs
//! to know where the bytes are.
use super::error::Result;
use super::{DType, Device};
use crate::core::buffer::pool;
use std::cell::{Ref, RefCell, RefMut};

pub use crate::core::buffer::{check_alloc, output_vec, zeroed_vec, Buffer};
pub use crate::core::element::{f64_to_i64, Arith, Element};

/// Shared element memory and the device it is on. On a GPU the storage also owns its block of
/// device memory from the caching allocator (returned to the cache when the storage is dropped),
/// which is what `torch.cuda.memory_allocated()` counts.
#[derive(Debug)]
pub struct Storage {
    device: Device,
    /// Host data; empty (of the right dtype) for device-resident storage.
    data: RefCell<Buffer>,
    /// Elements, kept apart from `data` because device-resident storage has no host copy.
    len: usize,
    /// The bytes live in `block` on a real card, not in `data`.
    resident: bool,
    /// PyTorch's version counter (shared by every view): bumped by in-place writes so autograd
    /// can tell that a tensor it saved for backward was modified.
    version: std::cell::Cell<u32>,
    block: Option<crate::backend::gpu::GpuBlock>,
    /// `pin_memory()` was called: what `is_pinned()` and the transfer lessons see.
    pinned: std::cell::Cell<bool>,
    /// With a real card the buffer is also page-locked by the driver (unlocked on drop).
    page_locked: std::cell::Cell<bool>,
}

impl Drop for Storage {
    fn drop(&mut self) {
        if self.page_locked.get() {
            if let Ok(d) = crate::backend::cuda::memory::driver(0) {
                d.page_unlock(
                    crate::with_buffer!(self.data.get_mut(), v, T => v.as_mut_ptr().cast::<u8>()),
                );
            }
        }
        if self.device == Device::Cpu {
            pool::recycle(std::mem::replace(
                self.data.get_mut(),
                Buffer::Bool(Vec::new()),
            ));
        }
    }
}

impl Storage {
    /// Storage for `buf` on `device`; on a GPU this takes the buffer's bytes from the device's
    /// caching allocator and fails with PyTorch's OutOfMemoryError when they cannot be had.
    pub fn new(buf: Buffer, device: Device) -> Result<Self> {
        let block = Self::reserve(device, buf.len() * buf.dtype().size())?;
        Ok(Self::with_block(buf, device, block))
    }
    /// The device memory for `bytes` on `device` (nothing on the CPU), taken before the host
    /// buffer is made so that an out-of-memory request fails as on a GPU.
    pub fn reserve(device: Device, bytes: usize) -> Result<Option<crate::backend::gpu::GpuBlock>> {
        match device {
            Device::Cpu => Ok(None),
            Device::Cuda(i) => crate::backend::gpu::allocate(i, bytes as u64),
        }
    }
    pub fn with_block(
        buf: Buffer,
        device: Device,
        block: Option<crate::backend::gpu::GpuBlock>,
    ) -> Self {
        Storage {
            device,
            len: buf.len(),
            resident: false,
            data: RefCell::new(buf),
            version: std::cell::Cell::new(0),
            block,
            pinned: std::cell::Cell::new(false),
            page_locked: std::cell::Cell::new(false),
        }
    }
    /// Storage of `len` elements whose bytes are `block` on a real card (zero bytes: no block).
    pub fn device_resident(
        dtype: DType,
        len: usize,
        device: Device,
        block: Option<crate::backend::gpu::GpuBlock>,
    ) -> Result<Self> {
        let mut s = Self::with_block(Buffer::zeros(dtype, 0)?, device, block);
        s.len = len;
        s.resident = true;
        Ok(s)
    }
    /// Whether the bytes are in device memory (`device_ptr`) rather than in `borrow()`.
    pub fn is_device_resident(&self) -> bool {
        self.resident
    }
    /// The device address of element 0 (0 for an empty device-resident storage).
    pub fn device_ptr(&self) -> u64 {
        self.block.as_ref().map_or(0, |b| b.ptr)
    }
    /// The version counter (`t._version`).
    pub fn version(&self) -> u32 {
        self.version.get()
    }
    pub fn bump_version(&self) {
        self.version.set(self.version.get().wrapping_add(1))
    }
    pub fn is_pinned(&self) -> bool {
        self.pinned.get()
    }
    /// `pin_memory()`. On a real card the host buffer is page-locked by the driver, and the
    /// storage counts as pinned only if that worked; the simulated GPU models pinning.
    pub fn set_pinned(&self) {
        use crate::backend::cuda::driver::PageLock;
        if crate::backend::gpu::kind() != crate::backend::gpu::GpuKind::Cuda || self.is_empty() {
            self.pinned.set(true);
            return;
        }
        if let Ok(d) = crate::backend::cuda::memory::driver(0) {
            let mut b = self.data.borrow_mut();
            let (p, n) = crate::with_buffer!(&mut *b, v, T => (v.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(&v[..])));
            let r = d.page_lock(p, n);
            self.pinned.set(r != PageLock::Failed);
            self.page_locked.set(r == PageLock::Locked);
        }
    }
    /// The device block this storage owns (GPU storage only).
    pub fn block(&self) -> Option<&crate::backend::gpu::GpuBlock> {
        self.block.as_ref()
    }
    pub fn device(&self) -> Device {
        self.device
    }
    pub fn dtype(&self) -> DType {
        self.data.borrow().dtype()
    }
    /// Number of elements (not bytes).
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn nbytes(&self) -> usize {
        self.len * self.dtype().size()
    }
    /// Read access. Panics only if a kernel is writing the same storage, which the ops prevent
    /// by copying aliased sources first.
    pub fn borrow(&self) -> Ref<'_, Buffer> {
        self.data.borrow()
    }
    pub fn borrow_mut(&self) -> RefMut<'_, Buffer> {
        self.data.borrow_mut()
    }
}
