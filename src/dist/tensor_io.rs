//! Tensors in and out of the collectives' `f64` buffers.
//!
//! Every dtype the engine has fits an `f64` exactly (integers up to 2^53), and one `f64`
//! addition rounded to float32 equals the float32 addition, so reducing in `f64` and
//! rounding to the tensor's dtype after each step gives the dtype's own arithmetic. Tensors
//! on a GPU (real or simulated) travel through host memory, as Gloo's do.
use super::{DistError, Result};
use crate::tensor::{DType, Tensor, TensorError};

fn terr(e: TensorError) -> DistError {
    DistError::runtime(e.msg)
}

/// The tensor's elements in row-major order.
pub fn values(t: &Tensor) -> Result<Vec<f64>> {
    t.contiguous_values_f64().map_err(terr)
}

/// Rounds reduced values to what the dtype can hold.
pub fn rounder(dtype: DType) -> impl Fn(&mut [f64]) {
    move |v: &mut [f64]| match dtype {
        DType::F64 => {}
        DType::F32 => v.iter_mut().for_each(|x| *x = *x as f32 as f64),
        // the engine's own casts (f16/bf16 rounding, integer wrap, bool) for the rest
        _ => {
            if let Ok(back) =
                Tensor::from_f64s(v, &[v.len()], dtype).and_then(|t| t.contiguous_values_f64())
            {
                v.copy_from_slice(&back);
            }
        }
    }
}

/// Writes `values` into `t` in place (any device, any strides), outside autograd, as the
/// c10d collectives do.
pub fn write(t: &Tensor, values: &[f64]) -> Result<()> {
    let src = Tensor::from_f64s(values, t.shape(), t.dtype()).map_err(terr)?;
    let _no_grad = crate::tensor::autograd::mode::NoGrad::new();
    crate::tensor::ops::inplace::copy_(t, &src).map_err(terr)
}
