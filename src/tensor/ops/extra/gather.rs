//! `gather`, `scatter`, `scatter_add` and `masked_fill`. Gather picks elements by flat
//! position on the input's own device (`host::take_flat`); scatter builds its result on the
//! host (writes that may collide are ordered there) with its own backward rule.
use super::host::{make, rename, strides_of, take_flat, values};
use crate::tensor::autograd::{is_recording, record};
use crate::tensor::error::{index_err, not_impl, runtime, Result};
use crate::tensor::index::IndexItem;
use crate::tensor::ops::compare::compare_scalar;
use crate::tensor::ops::join::{where_, where_tensors, TensorOrScalar};
use crate::tensor::shape::{fmt_list, wrap_dim};
use crate::tensor::{BinaryOp, DType, Scalar, Tensor};

/// For each element of `index`: its flat position in `x` (dim `d` replaced by the index
/// value), with PyTorch's checks.
fn positions(x: &Tensor, d: usize, index: &Tensor, op: &str) -> Result<Vec<i64>> {
    if index.dtype() != DType::I64 && index.dtype() != DType::I32 {
        return runtime(format!("{op}(): Expected dtype int32/int64 for index"));
    }
    let (xs, is) = (x.shape(), index.shape());
    if xs.len().max(1) != is.len().max(1) {
        return runtime("Index tensor must have the same number of dimensions as input tensor");
    }
    for k in 0..is.len() {
        if k != d && is[k] > xs[k] {
            return runtime(format!(
                "Size does not match at dimension {k} expected index {} to be no larger than self {} apart from dimension {d}",
                fmt_list(is),
                fmt_list(xs)
            ));
        }
    }
    let iv = index.contiguous_values_i64()?;
    let xst = strides_of(xs);
    let size = if xs.is_empty() { 1 } else { xs[d] as i64 };
    let sd = xst.get(d).copied().unwrap_or(1);
    let mut out = Vec::with_capacity(iv.len());
    if iv.is_empty() {
        return Ok(out);
    }
    // the index's rows along its last dim; `base`: the flat position in `x` of a row's outer
    // coordinates (dim `d` left out), counted up with an odometer over them
    let last = is.len().saturating_sub(1);
    let (row, step) = match is.last() {
        Some(&n) if last != d => (n, xst[last]),
        Some(&n) => (n, 0),
        None => (1, 0),
    };
    let mut at = vec![0usize; last];
    let mut base = 0usize;
    for vals in iv.chunks(row) {
        for (j, &v) in vals.iter().enumerate() {
            if v < -size || v >= size {
                return runtime(format!(
                    "index {v} is out of bounds for dimension {d} with size {size}"
                ));
            }
            let v = if v < 0 { v + size } else { v };
            out.push((base + j * step + v as usize * sd) as i64);
        }
        for k in (0..last).rev() {
            at[k] += 1;
            if k != d {
                base += xst[k];
            }
            if at[k] < is[k] {
                break;
            }
            if k != d {
                base -= is[k] * xst[k];
            }
            at[k] = 0;
        }
    }
    Ok(out)
}

/// `torch.gather(x, dim, index)`.
pub fn gather(x: &Tensor, dim: i64, index: &Tensor) -> Result<Tensor> {
    let d = wrap_dim(dim, x.ndim())?;
    let flat = positions(x, d, index, "gather")?;
    let out = take_flat(x, &flat, index.shape())?;
    rename(&out, "GatherBackward0");
    Ok(out)
}

/// `x.index_select(dim, index)`: the slices of `x` along `dim` at the positions `index` (a
/// vector or one number, int32 or int64, none negative) lists (`IndexSelectBackward0`).
pub fn index_select(x: &Tensor, dim: i64, index: &Tensor) -> Result<Tensor> {
    let d = wrap_dim(dim, x.ndim())?;
    if index.ndim() > 1 {
        return index_err("index_select(): Index is supposed to be a vector");
    }
    if index.dtype() != DType::I64 && index.dtype() != DType::I32 {
        return runtime("index_select(): Expected dtype int32 or int64 for index");
    }
    if x.ndim() == 0 {
        return not_impl("cudalearn does not implement index_select on a 0-dim tensor yet");
    }
    // (one number keeps the dim, as a one-element vector does)
    let out = pick_rows(x, d, &index.reshape(&[-1])?)?;
    rename(&out, "IndexSelectBackward0");
    Ok(out)
}

/// `x[:, ..., index]` with `index` at dim `d`, each of its values checked to lie in
/// `0..x.shape()[d]` (no negative positions): `index_select`'s and `embedding`'s lookup.
fn pick_rows(x: &Tensor, d: usize, index: &Tensor) -> Result<Tensor> {
    let size = x.shape()[d] as i64;
    if index
        .contiguous_values_i64()?
        .iter()
        .any(|&v| v < 0 || v >= size)
    {
        return index_err("index out of range in self");
    }
    let mut items = vec![IndexItem::Slice(None, None, None); d];
    items.push(IndexItem::Tensor(index.clone()));
    crate::tensor::index::index(x, &items)
}

/// `F.embedding(input, weight, padding_idx)`: the rows of the 2-d `weight` at the int32 or
/// int64 positions `input` holds, shaped `input.shape + [columns]` (`EmbeddingBackward0`);
/// the `padding_idx` row (a row of `weight`) gets no gradient.
pub fn embedding(input: &Tensor, weight: &Tensor, padding_idx: Option<usize>) -> Result<Tensor> {
    if input.dtype() != DType::I64 && input.dtype() != DType::I32 {
        return runtime(format!(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got {} instead (while checking arguments for embedding)",
            input.dtype().tensor_type(input.device())
        ));
    }
    if weight.ndim() != 2 {
        return runtime("'weight' must be 2-D");
    }
    let mut out = pick_rows(weight, 0, input)?;
    if let Some(p) = padding_idx {
        // the padding row's value with no history: where(input != p, out, out.detach())
        let keep = compare_scalar(BinaryOp::Ne, input, Scalar::Int(p as i64))?.unsqueeze(-1)?;
        out = where_tensors(&keep, &out, &out.detach())?;
    }
    rename(&out, "EmbeddingBackward0");
    Ok(out)
}

/// What `scatter` writes: a tensor's elements or one number.
pub enum Src<'a> {
    Tensor(&'a Tensor),
    Value(Scalar),
}

/// `x.scatter(dim, index, src)`, `x.scatter_add(dim, index, src)`: a copy of `x` with the
/// elements of `src` written (or added) at the indexed places.
pub fn scatter(x: &Tensor, dim: i64, index: &Tensor, src: Src, add: bool) -> Result<Tensor> {
    let op = if add { "scatter_add" } else { "scatter" };
    let d = wrap_dim(dim, x.ndim())?;
    let flat = positions(x, d, index, op)?;
    let mut out = values(x)?;
    let sv: Vec<f64> = match &src {
        Src::Tensor(s) => {
            let (ss, is) = (s.shape(), index.shape());
            if ss.len().max(1) != is.len().max(1) || is.iter().zip(ss).any(|(i, s)| i > s) {
                return runtime(format!(
                    "Expected index {} to be no larger than src {} (in {op})",
                    fmt_list(is),
                    fmt_list(ss)
                ));
            }
            // src elements at the index's positions (src may be larger than index)
            let all = values(s)?;
            let sst = strides_of(ss);
            let ist = strides_of(is);
            (0..index.numel())
                .map(|p| {
                    let at: usize = (0..is.len()).map(|k| ((p / ist[k]) % is[k]) * sst[k]).sum();
                    all[at]
                })
                .collect()
        }
        Src::Value(v) => vec![v.to_f64(); flat.len()],
    };
    for (&f, &v) in flat.iter().zip(&sv) {
        if add {
            out[f as usize] += v;
        } else {
            out[f as usize] = v;
        }
    }
    let r = make(&out, x.shape(), x.dtype(), x.device())?;
    let src_t = match src {
        Src::Tensor(s) => Some(s.clone()),
        Src::Value(_) => None,
    };
    let inputs: Vec<&Tensor> = std::iter::once(x).chain(src_t.as_ref()).collect();
    if is_recording(&inputs) {
        let name = match (&src_t, add) {
            (_, true) => "ScatterAddBackward0",
            (Some(_), false) => "ScatterBackward0",
            (None, false) => "ScatterBackward1",
        };
        let idx = index.clone();
        let src_shape = src_t.as_ref().map(|s| s.shape().to_vec());
        record(name, &inputs, &r, &[], move |g, ctx| {
            let gx = if !ctx.needs(0) {
                None
            } else if add {
                Some(g.clone())
            } else {
                Some(scatter(
                    g,
                    dim,
                    &idx,
                    Src::Value(Scalar::Float(0.0)),
                    false,
                )?)
            };
            let gs = match &src_shape {
                Some(shape) if ctx.needs(1) => {
                    let part = gather(g, dim, &idx)?;
                    Some(pad_to(&part, shape)?)
                }
                _ => None,
            };
            Ok(vec![gx, gs])
        })?;
    }
    Ok(r)
}

/// `part` (an index-shaped gradient) placed at the front of zeros shaped like `src`.
fn pad_to(part: &Tensor, shape: &[usize]) -> Result<Tensor> {
    if part.shape() == shape {
        return Ok(part.clone());
    }
    let z =
        crate::tensor::create::zeros(&super::host::i64s(shape), Some(part.dtype()), part.device())?;
    let mut view = z.clone();
    for (k, &n) in part.shape().iter().enumerate() {
        view = view.narrow(k as i64, 0, n as i64)?;
    }
    crate::tensor::ops::inplace::copy_(&view, part)?;
    Ok(z)
}

/// `x.masked_fill(mask, value)`: `value` where `mask` is True, in `x`'s dtype.
pub fn masked_fill(x: &Tensor, mask: &Tensor, value: &TensorOrScalar) -> Result<Tensor> {
    if mask.dtype() != DType::Bool {
        return runtime(format!(
            "masked_fill_ only supports boolean masks, but got mask with dtype {}",
            c_type_name(mask.dtype())
        ));
    }
    if let TensorOrScalar::Tensor(v) = value {
        if v.ndim() != 0 {
            return runtime(format!(
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
                v.ndim()
            ));
        }
    }
    let name = match value {
        TensorOrScalar::Tensor(_) => "MaskedFillBackward1",
        TensorOrScalar::Scalar(_) => "MaskedFillBackward0",
    };
    let value = match value {
        TensorOrScalar::Tensor(v) => TensorOrScalar::Tensor(v.to_dtype(x.dtype())?),
        TensorOrScalar::Scalar(s) => {
            TensorOrScalar::Tensor(Tensor::scalar(*s, x.dtype(), x.device())?)
        }
    };
    let r = where_(mask, &value, &TensorOrScalar::Tensor(x.clone()))?;
    if r.shape() != x.shape() {
        return runtime(format!(
            "output with shape {} doesn't match the broadcast shape {}",
            fmt_list(x.shape()),
            fmt_list(r.shape())
        ));
    }
    rename(&r, name);
    Ok(r)
}

/// The C++ type name PyTorch's messages use for a dtype (`long int` for int64).
fn c_type_name(d: DType) -> &'static str {
    match d {
        DType::I64 => "long int",
        DType::I32 => "int",
        DType::I8 => "signed char",
        DType::U8 => "unsigned char",
        DType::F32 => "float",
        DType::F64 => "double",
        DType::F16 => "c10::Half",
        DType::BF16 => "c10::BFloat16",
        DType::Bool => "bool",
    }
}
