//! `t[...]` and `t[...] = v`: basic indexing (ints, slices with steps, `None`, `...`) gives
//! views; integer-tensor and boolean-mask indices ("advanced indexing") gather copies, placed as
//! NumPy/PyTorch place them. Messages follow PyTorch's `TensorIndexing.h` and index kernels.
use super::error::{index_err, runtime, value_err, Result};
use super::ops::check_writable;
use super::scalar::{checked_scalar, Scalar};
use super::shape::{broadcast_shapes, contiguous_strides, fmt_list, numel, Dims};
use super::{DType, Tensor};

/// The autograd rules of indexing.
mod grad;

/// One element of an index tuple.
#[derive(Clone, Debug)]
pub enum IndexItem {
    Int(i64),
    /// `start:stop:step` with Python's defaults for missing parts.
    Slice(Option<i64>, Option<i64>, Option<i64>),
    /// `None`: a new size-1 dimension.
    None,
    Ellipsis,
    /// `True`/`False` as an index.
    Bool(bool),
    /// An integer or boolean tensor (the interpreter turns lists into tensors first).
    Tensor(Tensor),
}

/// The right-hand side of `t[...] = value`.
#[derive(Clone, Debug)]
pub enum IndexValue {
    Scalar(Scalar),
    Tensor(Tensor),
}

/// A basic-indexed view plus the advanced indices still to apply (dim in the view, index).
struct Parsed {
    view: Tensor,
    adv: Vec<(usize, Tensor)>,
}

fn is_mask(t: &Tensor) -> bool {
    matches!(t.dtype(), DType::Bool | DType::U8)
}

/// An int64 index tensor `[0]` (for `True`) or `[]` (for `False`).
fn bool_index(b: bool) -> Result<Tensor> {
    if b {
        Tensor::from_i64s(&[0], &[1], DType::I64)
    } else {
        Tensor::from_i64s(&[], &[0], DType::I64)
    }
}

/// Python slice semantics, clamped to `[0, size]`, as PyTorch's `applySlicing` does.
fn slice_bounds(start: Option<i64>, stop: Option<i64>, step: i64, size: usize) -> (usize, usize) {
    let n = size as i64;
    let clamp = |v: i64| -> i64 {
        let v = if v < 0 { v + n } else { v };
        v.clamp(0, n)
    };
    let s = start.map(clamp).unwrap_or(0);
    let e = stop.map(clamp).unwrap_or(n);
    // i128: a user's step may be near i64::MAX
    let len = if e > s {
        ((e - s) as i128 + step as i128 - 1) / step as i128
    } else {
        0
    };
    (s as usize, len as usize)
}

fn parse(t: &Tensor, items: &[IndexItem]) -> Result<Parsed> {
    // dims consumed by the index (masks consume as many as they have)
    let mut consumed = 0usize;
    for it in items {
        match it {
            IndexItem::Int(_) | IndexItem::Slice(..) => consumed += 1,
            IndexItem::Tensor(x) if is_mask(x) => consumed += x.ndim(),
            IndexItem::Tensor(_) => consumed += 1,
            IndexItem::Ellipsis => {}
            IndexItem::None | IndexItem::Bool(_) => {}
        }
    }
    if consumed > t.ndim() {
        return index_err(format!(
            "too many indices for tensor of dimension {}",
            t.ndim()
        ));
    }
    let mut shape: Dims = t.dims().clone();
    let mut strides: Dims = t.stride_dims().clone();
    let mut offset = t.offset();
    let mut adv: Vec<(usize, Tensor)> = vec![];
    let mut dim = 0usize;
    let mut seen_ellipsis = false;
    for (pos, it) in items.iter().enumerate() {
        let consumes = matches!(
            it,
            IndexItem::Int(_) | IndexItem::Slice(..) | IndexItem::Tensor(_)
        );
        if consumes
            && dim >= shape.len()
            && !matches!(it, IndexItem::Tensor(x) if is_mask(x) && x.ndim() == 0)
        {
            return index_err(format!(
                "too many indices for tensor of dimension {}",
                t.ndim()
            ));
        }
        match it {
            IndexItem::Int(i) => {
                let size = shape[dim] as i64;
                if *i < -size || *i >= size {
                    return index_err(format!(
                        "index {i} is out of bounds for dimension {pos} with size {size}"
                    ));
                }
                let i = if *i < 0 { i + size } else { *i } as usize;
                offset += i * strides[dim];
                shape.remove(dim);
                strides.remove(dim);
            }
            IndexItem::Slice(start, stop, step) => {
                let step = step.unwrap_or(1);
                if step == 0 {
                    return value_err("slice step cannot be zero");
                }
                if step < 0 {
                    return value_err("step must be greater than zero");
                }
                let (s, len) = slice_bounds(*start, *stop, step, shape[dim]);
                // PyTorch leaves the offset at `start` even for an empty result
                offset += s * strides[dim];
                shape[dim] = len;
                if len > 1 {
                    // fits: two elements `step` apart lie inside the storage
                    strides[dim] *= step as usize;
                }
                dim += 1;
            }
            IndexItem::None => {
                let st = if dim < shape.len() {
                    shape[dim] * strides[dim]
                } else {
                    1
                };
                shape.insert(dim, 1);
                strides.insert(dim, st);
                dim += 1;
            }
            // PyTorch accepts several ellipses; only the first one spans dims
            IndexItem::Ellipsis => {
                if !seen_ellipsis {
                    dim += t.ndim() - consumed;
                }
                seen_ellipsis = true;
            }
            IndexItem::Bool(b) => {
                let st = if dim < shape.len() {
                    shape[dim] * strides[dim]
                } else {
                    1
                };
                shape.insert(dim, 1);
                strides.insert(dim, st);
                adv.push((dim, bool_index(*b)?));
                dim += 1;
            }
            IndexItem::Tensor(x) => {
                if x.ndim() == 0 && !is_mask(x) && x.dtype().is_integral() {
                    // a 0-dim integer tensor selects, like an int
                    let i = x.item()?.to_i64();
                    let size = shape[dim] as i64;
                    if i < -size || i >= size {
                        return index_err(format!(
                            "index {i} is out of bounds for dimension {pos} with size {size}"
                        ));
                    }
                    let i = if i < 0 { i + size } else { i } as usize;
                    offset += i * strides[dim];
                    shape.remove(dim);
                    strides.remove(dim);
                } else if x.ndim() == 0 && is_mask(x) {
                    let b = x.item()?.to_bool();
                    let st = if dim < shape.len() {
                        shape[dim] * strides[dim]
                    } else {
                        1
                    };
                    shape.insert(dim, 1);
                    strides.insert(dim, st);
                    adv.push((dim, bool_index(b)?));
                    dim += 1;
                } else if is_mask(x) {
                    for j in 0..x.ndim() {
                        if dim + j >= shape.len() {
                            return index_err(format!(
                                "too many indices for tensor of dimension {}",
                                t.ndim()
                            ));
                        }
                        if x.shape()[j] != shape[dim + j] {
                            return index_err(format!(
                                "The shape of the mask {} at index {j} does not match the shape of the indexed tensor {} at index {}",
                                fmt_list(x.shape()),
                                fmt_list(&shape),
                                dim + j
                            ));
                        }
                    }
                    for (k, idx) in nonzero_columns(x)?.into_iter().enumerate() {
                        adv.push((dim + k, idx));
                    }
                    dim += x.ndim();
                } else if x.dtype().is_integral() {
                    adv.push((dim, x.clone()));
                    dim += 1;
                } else {
                    return index_err(
                        "tensors used as indices must be long, int, byte or bool tensors",
                    );
                }
            }
        }
    }
    let view = t.view_as_layout(shape, strides, offset);
    Ok(Parsed { view, adv })
}

/// The coordinates of the true elements of a mask, one int64 tensor per dimension.
fn nonzero_columns(mask: &Tensor) -> Result<Vec<Tensor>> {
    let vals = mask.contiguous_values_bool()?;
    let shape = mask.shape();
    let st = contiguous_strides(shape);
    let mut cols: Vec<Vec<i64>> = vec![vec![]; shape.len()];
    for (i, &v) in vals.iter().enumerate() {
        if v {
            for d in 0..shape.len() {
                cols[d].push(((i / st[d]) % shape[d]) as i64);
            }
        }
    }
    cols.into_iter()
        .map(|c| Tensor::from_i64s(&c, &[c.len()], DType::I64))
        .collect()
}

/// `torch.nonzero(t)`: an int64 tensor [n, ndim] of the coordinates of non-zero elements.
pub fn nonzero(t: &Tensor) -> Result<Tensor> {
    let cols = nonzero_columns(&t.to_dtype(DType::Bool)?)?;
    let n = cols.first().map(|c| c.numel()).unwrap_or(
        if t.to_dtype(DType::Bool)?
            .item()
            .map(|s| s.to_bool())
            .unwrap_or(false)
        {
            1
        } else {
            0
        },
    );
    let vals: Vec<Vec<i64>> = cols
        .iter()
        .map(|c| c.contiguous_values_i64())
        .collect::<Result<_>>()?;
    let mut flat = Vec::with_capacity(n * cols.len());
    for i in 0..n {
        for c in &vals {
            flat.push(c[i]);
        }
    }
    Tensor::from_i64s(&flat, &[n, cols.len()], DType::I64)
}

/// Where an advanced index writes or reads: storage offsets for each index position, the layout
/// of the remaining dims, and how the result dims are ordered.
struct Plan {
    bases: Vec<usize>,
    rest_shape: Dims,
    rest_strides: Dims,
    bshape: Dims,
    /// Position in the result where the broadcast index dims go (`None` = at the front).
    insert_at: usize,
}

fn plan(p: &Parsed) -> Result<Plan> {
    let v = &p.view;
    let mut bshape = Dims::from_slice(p.adv[0].1.shape());
    for (_, t) in &p.adv[1..] {
        bshape = match broadcast_shapes(&bshape, t.shape()) {
            Ok(s) => s,
            Err(_) => {
                let shapes: Vec<String> = p.adv.iter().map(|(_, t)| fmt_list(t.shape())).collect();
                return index_err(format!(
                    "shape mismatch: indexing tensors could not be broadcast together with shapes {}",
                    shapes.join(", ")
                ));
            }
        };
    }
    let np = numel(&bshape);
    super::storage::check_alloc(np, DType::I64)?;
    let mut bases = vec![v.offset(); np];
    for (k, (d, t)) in p.adv.iter().enumerate() {
        let size = v.shape()[*d] as i64;
        let stride = v.strides()[*d];
        let idx = t
            .to_dtype(DType::I64)?
            .expand_to(&bshape)?
            .contiguous_values_i64()?;
        for (b, &i) in bases.iter_mut().zip(&idx) {
            if i < -size || i >= size {
                return index_err(format!(
                    "index {i} is out of bounds for dimension {k} with size {size}"
                ));
            }
            let i = if i < 0 { i + size } else { i } as usize;
            *b += i * stride;
        }
    }
    let adv_dims: Vec<usize> = p.adv.iter().map(|(d, _)| *d).collect();
    let mut rest_shape = Dims::new();
    let mut rest_strides = Dims::new();
    for d in 0..v.ndim() {
        if !adv_dims.contains(&d) {
            rest_shape.push(v.shape()[d]);
            rest_strides.push(v.strides()[d]);
        }
    }
    let mut sorted = adv_dims.clone();
    sorted.sort_unstable();
    sorted.dedup();
    let consecutive = sorted.len() == adv_dims.len() && sorted.windows(2).all(|w| w[1] == w[0] + 1);
    let insert_at = if consecutive { sorted[0] } else { 0 };
    Ok(Plan {
        bases,
        rest_shape,
        rest_strides,
        bshape,
        insert_at,
    })
}

/// The permutation taking [bshape..., rest...] to the result order.
fn result_perm(pl: &Plan) -> Vec<usize> {
    let nb = pl.bshape.len();
    let nr = pl.rest_shape.len();
    let mut perm = vec![];
    perm.extend(nb..nb + pl.insert_at);
    perm.extend(0..nb);
    perm.extend(nb + pl.insert_at..nb + nr);
    perm
}

/// `t[items]`.
pub fn index(t: &Tensor, items: &[IndexItem]) -> Result<Tensor> {
    let out = index_raw(t, items)?;
    if crate::tensor::autograd::is_recording1(t) {
        grad::record_index(t, items, &out)?;
        if out.same_storage(t) {
            let items = items.to_vec();
            out.set_view_of(t, std::rc::Rc::new(move |z| index_raw(z, &items)));
        }
    }
    crate::tensor::ops::shape_ops::grad::keep_view_grad(t, &out);
    Ok(out)
}

/// `t[items] = value`, writing through `t`'s storage (recorded as PyTorch's `CopySlices`,
/// `IndexPutBackward0` or `MaskedFillBackward0` when `t` or the value is in a graph).
pub fn index_put(t: &Tensor, items: &[IndexItem], value: &IndexValue) -> Result<()> {
    let vt = match value {
        IndexValue::Tensor(v) => Some(v),
        IndexValue::Scalar(_) => None,
    };
    let mut ins = vec![t];
    ins.extend(vt);
    if crate::tensor::autograd::is_recording(&ins) {
        return grad::index_put_recorded(t, items, value);
    }
    index_put_raw(t, items, value)?;
    // the basic path writes with fill_/copy_, which count the write themselves
    if grad::has_advanced(items) {
        t.bump_version();
    }
    Ok(())
}

pub(crate) fn index_raw(t: &Tensor, items: &[IndexItem]) -> Result<Tensor> {
    let p = parse(t, items)?;
    if p.adv.is_empty() {
        return Ok(p.view);
    }
    let pl = plan(&p)?;
    let g = crate::tensor::dispatch::on(t.device()).gather(
        &p.view,
        &pl.bases,
        &pl.rest_shape,
        &pl.rest_strides,
    )?;
    let mut full = pl.bshape.clone();
    for &s in pl.rest_shape.iter() {
        full.push(s);
    }
    let g = g.view_as_layout(full.clone(), contiguous_strides(&full), g.offset());
    let perm = result_perm(&pl);
    if perm.iter().enumerate().all(|(i, &p)| i == p) {
        return Ok(g);
    }
    g.permute_dims(&perm)?.contiguous()
}

/// Drop leading size-1 dims of an assigned value (PyTorch's `slicePrefix1sDims`).
fn strip_leading_ones(v: &Tensor) -> Tensor {
    let mut k = 0;
    while k < v.ndim() && v.shape()[k] == 1 {
        k += 1;
    }
    if k == 0 {
        return v.clone();
    }
    v.view_as_layout(
        Dims::from_slice(&v.shape()[k..]),
        Dims::from_slice(&v.strides()[k..]),
        v.offset(),
    )
}

pub(crate) fn index_put_raw(t: &Tensor, items: &[IndexItem], value: &IndexValue) -> Result<()> {
    let p = parse(t, items)?;
    if p.adv.is_empty() {
        let dst = p.view;
        return match value {
            IndexValue::Scalar(s) => {
                super::ops::inplace::fill_(&dst, checked_scalar(*s, dst.dtype())?)
            }
            IndexValue::Tensor(v) => {
                check_writable(&dst)?;
                let v = strip_leading_ones(v)
                    .expand(&dst.shape().iter().map(|&s| s as i64).collect::<Vec<_>>())?;
                super::ops::inplace::copy_(&dst, &v)
            }
        };
    }
    let pl = plan(&p)?;
    let mut rshape = Dims::new();
    let perm = result_perm(&pl);
    let mut full = pl.bshape.clone();
    for &s in pl.rest_shape.iter() {
        full.push(s);
    }
    for &q in &perm {
        rshape.push(full[q]);
    }
    let v = match value {
        IndexValue::Scalar(s) => {
            Tensor::scalar(checked_scalar(*s, t.dtype())?, t.dtype(), t.device())?
        }
        IndexValue::Tensor(v) => {
            if v.dtype() != t.dtype() {
                return runtime(format!(
                    "Index put requires the source and destination dtypes match, got {} for the destination and {} for the source.",
                    t.dtype().c10_name(),
                    v.dtype().c10_name()
                ));
            }
            strip_leading_ones(v)
        }
    };
    let vb = match broadcast_shapes(&rshape, v.shape()) {
        Ok(s) if s == rshape => v.expand_to(&rshape)?,
        _ => {
            return runtime(format!(
                "shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}",
                fmt_list(v.shape()),
                fmt_list(&rshape)
            ))
        }
    };
    // back to [bshape..., rest...] order
    let mut inv = vec![0; perm.len()];
    for (i, &q) in perm.iter().enumerate() {
        inv[q] = i;
    }
    let vt = vb.permute_dims(&inv)?.contiguous()?.to_device(t.device())?;
    crate::tensor::dispatch::on(t.device()).scatter(
        &p.view,
        &pl.bases,
        &pl.rest_shape,
        &pl.rest_strides,
        &vt,
    )
}
