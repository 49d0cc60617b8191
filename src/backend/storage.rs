//! `Storage`: element memory shared (`Rc`) by every view of it, and where its bytes live
//! (`Memory`): CPU memory, the simulated GPU's host-backed memory, or a real card's device memory.
//! Host memory sits in a `RefCell` so in-place ops can write through any view; kernels never
//! hold a borrow across a call that could borrow again, and in-place ops whose source shares the
//! destination's storage copy the source first.
//!
//! Only the backend that owns a kind of memory reads it: the CPU backend (also serving the
//! simulated GPU) borrows host buffers, the CUDA backend (`cuda::backend`) uses device
//! addresses; nothing above the backend needs to know where the bytes are.
use super::gpu::GpuBlock;
use crate::core::buffer::pool;
use crate::core::error::Result;
use crate::core::{DType, Device};
use std::cell::{Cell, Ref, RefCell, RefMut};

pub use crate::core::buffer::{check_alloc, output_vec, zeroed_vec, Buffer};
pub use crate::core::element::{f64_to_i64, Arith, Element};

/// Where a storage's bytes are.
#[derive(Debug)]
pub enum Memory {
    /// CPU memory.
    Host(RefCell<Buffer>),
    /// The simulated GPU: host memory, its bytes also taken from the device's caching
    /// allocator (the block; none for zero bytes), which is what `memory_allocated()` counts.
    SimGpu(RefCell<Buffer>, Option<GpuBlock>),
    /// A real card: the bytes are the block's device memory (none for zero bytes).
    Cuda(Option<GpuBlock>),
}

/// Shared element memory, its dtype and length, and the device it is on. A GPU block (from the
/// caching allocator) is returned to the cache when the storage is dropped.
#[derive(Debug)]
pub struct Storage {
    device: Device,
    dtype: DType,
    /// Elements (not bytes).
    len: usize,
    memory: Memory,
    /// PyTorch's version counter (shared by every view): bumped by in-place writes so autograd
    /// can tell that a tensor it saved for backward was modified.
    version: Cell<u32>,
    /// `pin_memory()` was called: what `is_pinned()` and the transfer lessons see.
    pinned: Cell<bool>,
    /// With a real card the host buffer is also page-locked by the driver (unlocked on drop).
    page_locked: Cell<bool>,
}

impl Drop for Storage {
    fn drop(&mut self) {
        let Memory::Host(data) = &mut self.memory else {
            return;
        };
        if self.page_locked.get() {
            if let Ok(d) = super::cuda::memory::driver(0) {
                d.page_unlock(
                    crate::with_buffer!(data.get_mut(), v, T => v.as_mut_ptr().cast::<u8>()),
                );
            }
        }
        pool::recycle(std::mem::replace(data.get_mut(), Buffer::Bool(Vec::new())));
    }
}

impl Storage {
    /// Storage for `buf` on `device`; on a GPU this takes the buffer's bytes from the device's
    /// caching allocator and fails with PyTorch's OutOfMemoryError when they cannot be had.
    #[inline(always)]
    pub fn new(buf: Buffer, device: Device) -> Result<Self> {
        let block = Self::reserve(device, buf.len() * buf.dtype().size())?;
        Ok(Self::with_block(buf, device, block))
    }
    /// The device memory for `bytes` on `device` (nothing on the CPU), taken before the host
    /// buffer is made so that an out-of-memory request fails as on a GPU.
    #[inline(always)]
    pub fn reserve(device: Device, bytes: usize) -> Result<Option<GpuBlock>> {
        match device {
            Device::Cpu => Ok(None),
            Device::Cuda(i) => super::gpu::allocate(i, bytes as u64),
        }
    }
    /// Host memory holding `buf`: the CPU's, or the simulated GPU's with its `block`.
    #[inline(always)]
    pub fn with_block(buf: Buffer, device: Device, block: Option<GpuBlock>) -> Self {
        let (dtype, len) = (buf.dtype(), buf.len());
        let memory = match device {
            Device::Cpu => Memory::Host(RefCell::new(buf)),
            Device::Cuda(_) => Memory::SimGpu(RefCell::new(buf), block),
        };
        Self::of(device, dtype, len, memory)
    }
    /// Storage of `len` elements whose bytes are `block` on a real card (zero bytes: no block).
    pub fn device_resident(
        dtype: DType,
        len: usize,
        device: Device,
        block: Option<GpuBlock>,
    ) -> Self {
        Self::of(device, dtype, len, Memory::Cuda(block))
    }
    #[inline(always)]
    fn of(device: Device, dtype: DType, len: usize, memory: Memory) -> Self {
        Storage {
            device,
            dtype,
            len,
            memory,
            version: Cell::new(0),
            pinned: Cell::new(false),
            page_locked: Cell::new(false),
        }
    }
    /// Where the bytes are.
    pub fn memory(&self) -> &Memory {
        &self.memory
    }
    /// Whether the bytes are in a real card's memory (`device_ptr`) rather than in `borrow()`.
    #[inline]
    pub fn is_device_resident(&self) -> bool {
        matches!(self.memory, Memory::Cuda(_))
    }
    /// The device address of element 0 (0 for an empty device-resident storage).
    #[inline]
    pub fn device_ptr(&self) -> u64 {
        self.block().map_or(0, |b| b.ptr)
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
        use super::cuda::driver::PageLock;
        let Memory::Host(data) = &self.memory else {
            self.pinned.set(true);
            return;
        };
        if super::gpu::kind() != super::gpu::GpuKind::Cuda || self.is_empty() {
            self.pinned.set(true);
            return;
        }
        if let Ok(d) = super::cuda::memory::driver(0) {
            let mut b = data.borrow_mut();
            let (p, n) = crate::with_buffer!(&mut *b, v, T => (v.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(&v[..])));
            let r = d.page_lock(p, n);
            self.pinned.set(r != PageLock::Failed);
            self.page_locked.set(r == PageLock::Locked);
        }
    }
    /// The device block this storage owns (GPU storage only).
    #[inline]
    pub fn block(&self) -> Option<&GpuBlock> {
        match &self.memory {
            Memory::Host(_) => None,
            Memory::SimGpu(_, b) | Memory::Cuda(b) => b.as_ref(),
        }
    }
    #[inline]
    pub fn device(&self) -> Device {
        self.device
    }
    #[inline]
    pub fn dtype(&self) -> DType {
        self.dtype
    }
    /// Number of elements (not bytes).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn nbytes(&self) -> usize {
        self.len * self.dtype.size()
    }
    /// The host buffer, for memory the host can read (`None` on a real card).
    #[inline]
    pub fn host(&self) -> Option<&RefCell<Buffer>> {
        match &self.memory {
            Memory::Host(d) | Memory::SimGpu(d, _) => Some(d),
            Memory::Cuda(_) => None,
        }
    }
    #[inline]
    fn host_data(&self) -> &RefCell<Buffer> {
        // only the CUDA backend is handed device memory, and it reads it through the driver
        self.host()
            .expect("cudalearn internal error: host access to device memory")
    }
    /// Read access. Panics only if a kernel is writing the same storage, which the ops prevent
    /// by copying aliased sources first.
    #[inline]
    pub fn borrow(&self) -> Ref<'_, Buffer> {
        self.host_data().borrow()
    }
    #[inline]
    pub fn borrow_mut(&self) -> RefMut<'_, Buffer> {
        self.host_data().borrow_mut()
    }
}
