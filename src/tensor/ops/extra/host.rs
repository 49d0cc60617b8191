//! The host route for ops built above the `Backend` trait: read an operand to the CPU, compute
//! there, and put the result on the operand's device. Also the shared helpers of `extra/`:
//! lanes along a dim, gathering by flat index (with autograd), renaming the last node.
use crate::tensor::error::Result;
use crate::tensor::index::{index, IndexItem};
use crate::tensor::shape::numel;
use crate::tensor::{DType, Device, Tensor};

/// `t`'s elements in row-major order as f64 (exact for every dtype but huge int64s).
pub fn values(t: &Tensor) -> Result<Vec<f64>> {
    t.contiguous_values_f64()
}

/// A contiguous tensor of `dtype` on `device` holding `v`.
pub fn make(v: &[f64], shape: &[usize], dtype: DType, device: Device) -> Result<Tensor> {
    let t = Tensor::from_f64s(v, shape, dtype)?;
    if device == Device::Cpu {
        Ok(t)
    } else {
        t.to_device(device)
    }
}

/// An int64 tensor on `device` holding `v`.
pub fn make_i64(v: &[i64], shape: &[usize], device: Device) -> Result<Tensor> {
    let t = Tensor::from_i64s(v, shape, DType::I64)?;
    if device == Device::Cpu {
        Ok(t)
    } else {
        t.to_device(device)
    }
}

/// A contiguous shape seen along `dim`: (outer, size of dim, inner), so element
/// `(o, k, i)` is at `(o * n + k) * inner + i`.
pub fn lanes(shape: &[usize], dim: usize) -> (usize, usize, usize) {
    if shape.is_empty() {
        return (1, 1, 1);
    }
    let outer = numel(&shape[..dim]);
    let inner = numel(&shape[dim + 1..]);
    (outer, shape[dim], inner)
}

/// `x.reshape(-1)[flat].view(shape)`: elements of `x` picked by row-major position. Runs on
/// every device through the indexing kernels and records `IndexBackward0`, so each op built
/// on it gets its gradient from there.
pub fn take_flat(x: &Tensor, flat: &[i64], shape: &[usize]) -> Result<Tensor> {
    let idx = make_i64(flat, &[flat.len()], x.device())?;
    let r = index(&x.reshape(&[-1])?, &[IndexItem::Tensor(idx)])?;
    let s: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
    r.view(&s)
}

/// Names the node that made `t` as PyTorch names its op's node (`SortBackward0` for the
/// gather a sort is built from), so `grad_fn` prints what PyTorch prints.
pub fn rename(t: &Tensor, name: &'static str) {
    if let Some(n) = t.grad_fn() {
        n.set_name(name);
    }
}

/// Row-major multi-index → flat position in a contiguous tensor of `shape`.
pub fn strides_of(shape: &[usize]) -> Vec<usize> {
    let mut st = vec![1usize; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        st[d] = st[d + 1] * shape[d + 1];
    }
    st
}

/// The dims as i64, for the ops that take `&[i64]` shapes.
pub fn i64s(shape: &[usize]) -> Vec<i64> {
    shape.iter().map(|&d| d as i64).collect()
}
