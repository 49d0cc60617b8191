//! The host route: an op with no kernel for its dtype (or on a driver without kernels) runs on
//! the CPU backend over host copies of its operands' storages, and the result (or the written
//! storage) goes back to the device. Slow but exact, so every op of the engine works on a card;
//! the common ops have kernels (`backend.rs`).
use crate::backend::storage::{Buffer, Storage};
use crate::backend::{Owned, View};
use crate::core::error::{ErrorKind, Result, TensorError};
use crate::core::{DType, Device};

/// With `CUDALEARN_TRACE_HOST_ROUTE` set, says on stderr which backend method took the host
/// route (each such op pays two PCIe copies: how a slow step on a real card is tracked down).
#[track_caller]
fn taken() {
    static TRACE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *TRACE.get_or_init(|| std::env::var_os("CUDALEARN_TRACE_HOST_ROUTE").is_some()) {
        let at = std::panic::Location::caller();
        eprintln!("cudalearn: host route taken at {}:{}", at.file(), at.line());
    }
}

/// A driver's error as a Python `RuntimeError`.
pub fn gpu_err(e: String) -> TensorError {
    TensorError::new(ErrorKind::Runtime, e)
}

pub fn driver(device: Device) -> Result<std::sync::Arc<dyn super::driver::Driver>> {
    let Device::Cuda(i) = device else {
        return Err(gpu_err(
            "cudalearn internal error: a CPU tensor reached the CUDA backend".into(),
        ));
    };
    super::memory::driver(i).map_err(gpu_err)
}

/// The bytes of a host buffer.
pub fn bytes(buf: &Buffer) -> &[u8] {
    crate::with_buffer!(buf, v, T => {
        // SAFETY: every element type is plain data without padding; the slice covers exactly
        // the vector's initialised elements.
        unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(&v[..])) }
    })
}

/// `n` elements of `dtype` read from device address `ptr`.
pub fn read(device: Device, ptr: u64, dtype: DType, n: usize) -> Result<Buffer> {
    if n == 0 {
        return Buffer::zeros(dtype, 0);
    }
    let d = driver(device)?;
    if dtype == DType::Bool {
        // through bytes: a bool must never hold anything but 0 or 1
        let mut raw = vec![0u8; n];
        d.dtoh(ptr, &mut raw).map_err(gpu_err)?;
        return Ok(Buffer::Bool(raw.into_iter().map(|b| b != 0).collect()));
    }
    let mut buf = Buffer::zeros(dtype, n)?;
    crate::with_buffer!(&mut buf, v, T => {
        // SAFETY: as in `bytes`; any bit pattern is a valid value of these numeric types.
        let b = unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(&v[..])) };
        d.dtoh(ptr, b).map_err(gpu_err)?;
    });
    Ok(buf)
}

/// New device storage holding `buf`.
pub fn upload(buf: &Buffer, device: Device) -> Result<Storage> {
    let s = super::backend::alloc(buf.dtype(), buf.len(), device)?;
    if !buf.is_empty() {
        driver(device)?
            .htod(s.device_ptr(), bytes(buf))
            .map_err(gpu_err)?;
    }
    Ok(s)
}

/// Host copies of device storages, one per storage, so views that share a storage on the device
/// share it on the host too (an in-place op whose source aliases its destination stays right).
/// Each storage is `load`ed first; `view` then gives the host operands.
#[derive(Default)]
pub struct Mirror {
    pairs: Vec<(*const Storage, Storage)>,
}

impl Mirror {
    /// Read `t`'s storage to the host (once per storage; nothing when it is host memory).
    pub fn load(&mut self, t: View) -> Result<()> {
        let s = t.storage();
        if !s.is_device_resident() || self.host_of(s).is_some() {
            return Ok(());
        }
        let buf = read(t.device(), s.device_ptr(), s.dtype(), s.len())?;
        self.pairs.push((s, Storage::new(buf, Device::Cpu)?));
        Ok(())
    }

    fn host_of(&self, s: &Storage) -> Option<&Storage> {
        self.pairs
            .iter()
            .find(|(d, _)| std::ptr::eq(*d, s))
            .map(|(_, h)| h)
    }

    /// A CPU operand with `t`'s layout over the host copy of `t`'s storage (`t` itself when it
    /// is not device-resident).
    pub fn view<'a>(&'a self, t: View<'a>) -> View<'a> {
        match self.host_of(t.storage()) {
            Some(h) => View::new(h, t.layout()),
            None => t,
        }
    }

    /// Copy the host copy of `t`'s storage back to the device.
    pub fn write_back(&self, t: View) -> Result<()> {
        let s = t.storage();
        let Some(h) = self.host_of(s) else {
            return Ok(());
        };
        if s.is_empty() {
            return Ok(());
        }
        let b = h.borrow();
        driver(t.device())?
            .htod(s.device_ptr(), bytes(&b))
            .map_err(gpu_err)
    }
}

/// A CPU result moved to `device`, keeping its layout (strides and offset) over a device copy
/// of its whole storage.
pub fn to_device(host: View, device: Device) -> Result<Owned> {
    let s = upload(&host.storage().borrow(), device)?;
    Ok(Owned::new(s, host.layout().clone()))
}

/// Run a CPU op on host views of `inputs` and bring its result to `device`.
#[track_caller]
pub fn run(
    device: Device,
    inputs: &[View],
    f: impl FnOnce(&[View]) -> Result<Owned>,
) -> Result<Owned> {
    taken();
    let mut m = Mirror::default();
    for &t in inputs {
        m.load(t)?;
    }
    let views: Vec<View> = inputs.iter().map(|&t| m.view(t)).collect();
    to_device(f(&views)?.view(), device)
}

/// Run an in-place CPU op on host views of `dst` and `inputs`, then write `dst`'s storage back.
#[track_caller]
pub fn run_inplace(
    dst: View,
    inputs: &[View],
    f: impl FnOnce(View, &[View]) -> Result<()>,
) -> Result<()> {
    taken();
    let mut m = Mirror::default();
    m.load(dst)?;
    for &t in inputs {
        m.load(t)?;
    }
    let views: Vec<View> = inputs.iter().map(|&t| m.view(t)).collect();
    f(m.view(dst), &views)?;
    m.write_back(dst)
}
