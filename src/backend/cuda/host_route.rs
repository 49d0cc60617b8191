//! The host route: an op with no kernel for its dtype (or on a driver without kernels) runs on
//! the CPU backend over host copies of its operands' storages, and the result (or the written
//! storage) goes back to the device. Slow but exact, so every op of the engine works on a card;
//! the common ops have kernels (`backend.rs`).
use crate::tensor::error::{ErrorKind, Result, TensorError};
use crate::tensor::storage::{Buffer, Storage};
use crate::tensor::{DType, Device, Tensor};
use std::rc::Rc;

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
pub fn upload(buf: &Buffer, device: Device) -> Result<Rc<Storage>> {
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
#[derive(Default)]
pub struct Mirror {
    pairs: Vec<(Rc<Storage>, Rc<Storage>)>,
}

impl Mirror {
    /// A CPU tensor with `t`'s layout over the host copy of `t`'s storage (`t` itself when it
    /// is not device-resident).
    pub fn view(&mut self, t: &Tensor) -> Result<Tensor> {
        let s = t.storage();
        if !s.is_device_resident() {
            return Ok(t.clone());
        }
        let host = match self.pairs.iter().find(|(d, _)| Rc::ptr_eq(d, s)) {
            Some((_, h)) => h.clone(),
            None => {
                let buf = read(t.device(), s.device_ptr(), s.dtype(), s.len())?;
                let h = Rc::new(Storage::new(buf, Device::Cpu)?);
                self.pairs.push((s.clone(), h.clone()));
                h
            }
        };
        Ok(Tensor::from_parts(
            host,
            t.dims().clone(),
            t.stride_dims().clone(),
            t.offset(),
        ))
    }

    /// Copy the host copy of `t`'s storage back to the device.
    pub fn write_back(&self, t: &Tensor) -> Result<()> {
        let s = t.storage();
        let Some((_, h)) = self.pairs.iter().find(|(d, _)| Rc::ptr_eq(d, s)) else {
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
pub fn to_device(host: &Tensor, device: Device) -> Result<Tensor> {
    let s = upload(&host.storage().borrow(), device)?;
    Ok(Tensor::from_parts(
        s,
        host.dims().clone(),
        host.stride_dims().clone(),
        host.offset(),
    ))
}

/// Run a CPU op on host views of `inputs` and bring its result to `device`.
pub fn run(
    device: Device,
    inputs: &[&Tensor],
    f: impl FnOnce(&[Tensor]) -> Result<Tensor>,
) -> Result<Tensor> {
    let mut m = Mirror::default();
    let views = inputs
        .iter()
        .map(|t| m.view(t))
        .collect::<Result<Vec<_>>>()?;
    to_device(&f(&views)?, device)
}

/// Run an in-place CPU op on host views of `dst` and `inputs`, then write `dst`'s storage back.
pub fn run_inplace(
    dst: &Tensor,
    inputs: &[&Tensor],
    f: impl FnOnce(&Tensor, &[Tensor]) -> Result<()>,
) -> Result<()> {
    let mut m = Mirror::default();
    let d = m.view(dst)?;
    let views = inputs
        .iter()
        .map(|t| m.view(t))
        .collect::<Result<Vec<_>>>()?;
    f(&d, &views)?;
    m.write_back(dst)
}
