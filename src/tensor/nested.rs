//! Nested Python data ↔ tensors: `torch.tensor([[1, 2], [3, 4]])` with PyTorch's dtype inference
//! and messages, and `t.tolist()`.
use super::error::{runtime, type_err, value_err, Result};
use super::promote::{default_dtype, promote_types};
use super::scalar::Scalar;
use super::storage::{Buffer, Element};
use super::{DType, Device, Tensor};

/// A Python value handed to `torch.tensor`: a number, a (nested) list or tuple, or a tensor.
#[derive(Clone, Debug)]
pub enum NestedData {
    Scalar(Scalar),
    List(Vec<NestedData>),
    Tensor(Tensor),
}

/// The sizes, following first elements down as PyTorch's `compute_sizes` does.
fn compute_sizes(d: &NestedData) -> Vec<usize> {
    let mut sizes = vec![];
    let mut cur = d;
    loop {
        match cur {
            NestedData::List(v) => {
                sizes.push(v.len());
                match v.first() {
                    Some(x) => cur = x,
                    None => break,
                }
            }
            NestedData::Tensor(t) => {
                sizes.extend_from_slice(t.shape());
                break;
            }
            NestedData::Scalar(_) => break,
        }
    }
    sizes
}

/// `infer_scalar_type`: floats → default dtype, ints → int64, bools → bool, tensors → their
/// dtype, promoted over every element; an empty list is the default dtype.
fn infer_dtype(d: &NestedData) -> Result<DType> {
    match d {
        NestedData::Scalar(s) => Ok(s.natural_dtype()),
        NestedData::Tensor(t) => Ok(t.dtype()),
        NestedData::List(v) => {
            let mut acc: Option<DType> = None;
            for x in v {
                let dt = infer_dtype(x)?;
                acc = Some(match acc {
                    None => dt,
                    Some(a) => promote_types(a, dt)?,
                });
            }
            Ok(acc.unwrap_or_else(default_dtype))
        }
    }
}

/// torch.tensor's per-element conversion: integer targets are range-checked (`value cannot be
/// converted to type uint8 without overflow`), float targets round to inf silently.
fn check_store(s: Scalar, dtype: DType) -> Result<()> {
    if dtype.is_integral() && !s.is_bool() && super::scalar::overflows(s, dtype) {
        return runtime(format!(
            "value cannot be converted to type {} without overflow",
            dtype.name()
        ));
    }
    Ok(())
}

fn store<T: Element>(
    d: &NestedData,
    sizes: &[usize],
    dim: usize,
    dtype: DType,
    out: &mut Vec<T>,
) -> Result<()> {
    if dim == sizes.len() {
        let s = match d {
            NestedData::Scalar(s) => *s,
            NestedData::Tensor(t) if t.numel() == 1 => t.item()?,
            NestedData::Tensor(_) => {
                return type_err(
                    "only integer tensors of a single element can be converted to an index",
                )
            }
            NestedData::List(_) => return type_err("not a sequence"),
        };
        check_store(s, dtype)?;
        out.push(match s {
            Scalar::Bool(b) => T::from_bool(b),
            Scalar::Int(i) => T::from_i64(i),
            Scalar::Float(f) => T::from_f64(f),
        });
        return Ok(());
    }
    match d {
        NestedData::List(v) => {
            if v.len() != sizes[dim] {
                return value_err(format!(
                    "expected sequence of length {} at dim {dim} (got {})",
                    sizes[dim],
                    v.len()
                ));
            }
            for x in v {
                store(x, sizes, dim + 1, dtype, out)?;
            }
            Ok(())
        }
        NestedData::Tensor(t) if t.ndim() == 0 => type_err("not a sequence"),
        NestedData::Tensor(_) => {
            type_err("only integer tensors of a single element can be converted to an index")
        }
        NestedData::Scalar(_) => type_err("not a sequence"),
    }
}

impl Tensor {
    /// `torch.tensor(data, dtype=..., device=...)`.
    pub fn from_nested(data: &NestedData, dtype: Option<DType>, device: Device) -> Result<Tensor> {
        if let NestedData::Tensor(t) = data {
            // torch.tensor(t) copies (PyTorch also warns to use clone().detach())
            let r = t.to_dtype(dtype.unwrap_or(t.dtype()))?.clone_tensor()?;
            return r.to_device(device);
        }
        let sizes = compute_sizes(data);
        let dtype = match dtype {
            Some(d) => d,
            None => infer_dtype(data)?,
        };
        let n = super::shape::checked_numel(&sizes)?;
        super::storage::check_alloc(n, dtype)?;
        let buf: Buffer = crate::with_dtype!(dtype, T => {
            let mut out: Vec<T> = Vec::with_capacity(n);
            store::<T>(data, &sizes, 0, dtype, &mut out)?;
            <T as Element>::wrap(out)
        });
        Tensor::from_buffer(buf, &sizes, device)
    }

    /// `t.tolist()`: nested lists of Python numbers (a number for a 0-dim tensor).
    pub fn tolist(&self) -> Result<NestedData> {
        let vals = self.contiguous_scalars()?;
        fn build(vals: &[Scalar], shape: &[usize]) -> NestedData {
            if shape.is_empty() {
                return NestedData::Scalar(vals[0]);
            }
            let step: usize = shape[1..].iter().product();
            NestedData::List(
                (0..shape[0])
                    .map(|i| build(&vals[i * step..(i + 1) * step], &shape[1..]))
                    .collect(),
            )
        }
        if self.ndim() == 0 {
            return Ok(NestedData::Scalar(vals[0]));
        }
        Ok(build(&vals, self.shape()))
    }
}
