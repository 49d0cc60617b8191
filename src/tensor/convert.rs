//! Conversions: dtype casts (`to(dtype)`), device moves, `contiguous`, `clone`, `detach`,
//! `item`, and the host-side value access printing and `tolist` use.
use super::error::{runtime, Result};
use super::scalar::Scalar;
use super::storage::Buffer;
use super::{shape, DType, Device, Tensor};
use crate::backend;

impl Tensor {
    /// `t.to(dtype)`: the same tensor object when the dtype already matches, as in PyTorch.
    pub fn to_dtype(&self, dtype: DType) -> Result<Tensor> {
        if dtype == self.dtype() {
            return Ok(self.clone());
        }
        let out = crate::tensor::dispatch::on(self.device()).cast(self, dtype)?;
        record_copy("ToCopyBackward0", self, &out)?;
        Ok(out)
    }

    /// `t.to(device)`: the same object when already there, else a contiguous copy on `device`.
    pub fn to_device(&self, device: Device) -> Result<Tensor> {
        if device == self.device() {
            return Ok(self.clone());
        }
        // `to(memory_format=preserve_format)`: a dense layout (a transposed matrix) is kept. The
        // bytes travel in memory order: the dims sorted by stride make a contiguous view.
        let (src, order) = if !self.is_contiguous() && shape::is_dense(self.shape(), self.strides())
        {
            let mut order: Vec<usize> = (0..self.ndim()).collect();
            order.sort_by_key(|&d| std::cmp::Reverse(self.strides()[d]));
            let v = self.view_as_layout(
                order.iter().map(|&d| self.shape()[d]).collect(),
                order.iter().map(|&d| self.strides()[d]).collect(),
                self.offset(),
            );
            (v, Some(order))
        } else {
            (self.clone(), None)
        };
        // the simulated GPU's model charges pinned sources the faster copy
        backend::timed::next_upload_pinned(self.storage().is_pinned());
        let to = crate::tensor::dispatch::on(device);
        let storage = if self.device() == Device::Cpu {
            to.upload_from(&src, device)?
        } else {
            to.upload(
                crate::tensor::dispatch::on(self.device()).to_host(&src)?,
                device,
            )?
        };
        let strides = match order {
            Some(o) => crate::backend::cpu::iter::strides_for_order(self.shape(), &o),
            None => shape::contiguous_strides(self.shape()),
        };
        let out = Tensor::from_parts(storage, self.dims().clone(), strides, 0);
        record_copy("ToCopyBackward0", self, &out)?;
        Ok(out)
    }

    /// Both at once (the elementwise ops' operand preparation).
    pub fn to_dtype_device(&self, dtype: DType, device: Device) -> Result<Tensor> {
        self.to_dtype(dtype)?.to_device(device)
    }

    /// `t.contiguous()`: itself when already contiguous, else a row-major copy.
    pub fn contiguous(&self) -> Result<Tensor> {
        if self.is_contiguous() {
            return Ok(self.clone());
        }
        let out = crate::tensor::dispatch::on(self.device()).contiguous_copy(self)?;
        record_copy("CloneBackward0", self, &out)?;
        Ok(out)
    }

    /// `t.clone()`: a copy with its own storage. Like `torch.clone(memory_format=preserve_format)`
    /// it keeps the strides of a dense tensor (a transposed matrix stays transposed).
    pub fn clone_tensor(&self) -> Result<Tensor> {
        if !self.is_contiguous() && shape::is_dense(self.shape(), self.strides()) {
            let be = crate::tensor::dispatch::on(self.device());
            // every element is overwritten by the copy: no zeroing first
            let storage = be.empty(self.dtype(), self.numel(), self.device())?;
            let out =
                Tensor::from_parts(storage, self.dims().clone(), self.stride_dims().clone(), 0);
            be.copy(&out, self)?;
            record_copy("CloneBackward0", self, &out)?;
            return Ok(out);
        }
        self.contiguous_clone()
    }

    /// `t.clone(memory_format=torch.contiguous_format)`: a row-major copy with its own storage.
    pub fn contiguous_clone(&self) -> Result<Tensor> {
        let be = crate::tensor::dispatch::on(self.device());
        let storage = be.empty(self.dtype(), self.numel(), self.device())?;
        let out = Tensor::from_parts(
            storage,
            self.dims().clone(),
            shape::contiguous_strides(self.shape()),
            0,
        );
        be.copy(&out, self)?;
        record_copy("CloneBackward0", self, &out)?;
        Ok(out)
    }

    /// `t.detach()`: a new tensor object sharing storage, without autograd history.
    pub fn detach(&self) -> Tensor {
        self.view_as_layout(
            self.dims().clone(),
            self.stride_dims().clone(),
            self.offset(),
        )
    }

    /// `t.item()`.
    pub fn item(&self) -> Result<Scalar> {
        let n = self.numel();
        if n != 1 {
            return Err(super::TensorError::new(
                super::ErrorKind::Runtime,
                format!("a Tensor with {n} elements cannot be converted to Scalar"),
            )
            .with_hint("item() needs exactly one element; reduce first (e.g. .sum() or .mean()) or index one element"));
        }
        Ok(self.contiguous_scalars()?[0])
    }

    /// The elements in row-major order as a host buffer of the tensor's dtype.
    pub fn to_host_buffer(&self) -> Result<Buffer> {
        crate::tensor::dispatch::on(self.device()).to_host(self)
    }

    /// Row-major values as f64 (floats exactly; what `print.rs` formats floating tensors from).
    pub fn contiguous_values_f64(&self) -> Result<Vec<f64>> {
        let b = self.to_host_buffer()?;
        Ok(
            crate::with_buffer!(&b, v, T => v.iter().map(|x| <T as super::storage::Element>::to_f64(*x)).collect()),
        )
    }
    /// Row-major values as i64 (integer and bool tensors).
    pub fn contiguous_values_i64(&self) -> Result<Vec<i64>> {
        let b = self.to_host_buffer()?;
        Ok(
            crate::with_buffer!(&b, v, T => v.iter().map(|x| <T as super::storage::Element>::to_i64(*x)).collect()),
        )
    }
    pub fn contiguous_values_bool(&self) -> Result<Vec<bool>> {
        let b = self.to_host_buffer()?;
        Ok(
            crate::with_buffer!(&b, v, T => v.iter().map(|x| <T as super::storage::Element>::to_bool(*x)).collect()),
        )
    }
    /// Row-major values as Python numbers of the tensor's kind.
    pub fn contiguous_scalars(&self) -> Result<Vec<Scalar>> {
        let dt = self.dtype();
        Ok(if dt.is_floating() {
            self.contiguous_values_f64()?
                .into_iter()
                .map(Scalar::Float)
                .collect()
        } else if dt == DType::Bool {
            self.contiguous_values_bool()?
                .into_iter()
                .map(Scalar::Bool)
                .collect()
        } else {
            self.contiguous_values_i64()?
                .into_iter()
                .map(Scalar::Int)
                .collect()
        })
    }
}

/// Copies and casts pass the gradient through (the engine casts it back to the input's dtype
/// and device).
fn record_copy(name: &'static str, x: &Tensor, out: &Tensor) -> Result<()> {
    if crate::tensor::autograd::is_recording1(x) {
        crate::tensor::autograd::record(name, &[x], out, &[], |g, _| Ok(vec![Some(g.clone())]))?;
    }
    Ok(())
}

/// Python protocols on a tensor, with PyTorch's messages.
impl Tensor {
    /// `bool(t)` / `if t:`.
    pub fn to_py_bool(&self) -> Result<bool> {
        match self.numel() {
            1 => Ok(self.item()?.to_bool()),
            0 => runtime("Boolean value of Tensor with no values is ambiguous"),
            _ => runtime("Boolean value of Tensor with more than one value is ambiguous"),
        }
    }

    /// `float(t)` / `int(t)`: the single element.
    pub fn to_py_scalar(&self) -> Result<Scalar> {
        if self.numel() != 1 {
            return super::error::value_err(
                "only one element tensors can be converted to Python scalars",
            );
        }
        self.item()
    }

    /// `for row in t:`: views along the first dimension.
    pub fn iter_dim0(&self) -> Result<Vec<Tensor>> {
        if self.ndim() == 0 {
            return super::error::type_err("iteration over a 0-d tensor");
        }
        (0..self.shape()[0] as i64)
            .map(|i| self.select(0, i))
            .collect()
    }

    /// `t.is_cuda`.
    pub fn is_cuda(&self) -> bool {
        matches!(self.device(), Device::Cuda(_))
    }
}
