//! Autograd for `t[...]` and `t[...] = v`. Both use a map of positions: the same index applied
//! to `arange(numel)` says which element of `t` each result element came from, so one
//! scatter-add undoes any mix of ints, slices, `None`, masks and index tensors.
use super::{index_put_raw, index_raw, IndexItem, IndexValue};
use crate::tensor::autograd::node::{check_inplace, history_of, record_padded};
use crate::tensor::autograd::record;
use crate::tensor::error::Result;
use crate::tensor::{DType, Device, Scalar, Tensor};

pub(super) fn has_advanced(items: &[IndexItem]) -> bool {
    items.iter().any(|it| {
        matches!(it, IndexItem::Tensor(t) if t.ndim() > 0 || !t.dtype().is_integral())
            || matches!(it, IndexItem::Bool(_))
    })
}

/// PyTorch's name for a basic index: the node of the last step that changed anything.
fn basic_name(items: &[IndexItem]) -> &'static str {
    let mut name = "AliasBackward0";
    for it in items {
        match it {
            IndexItem::Int(_) | IndexItem::Tensor(_) => name = "SelectBackward0",
            IndexItem::Slice(None, None, None) | IndexItem::Slice(None, None, Some(1)) => {}
            IndexItem::Slice(..) => name = "SliceBackward0",
            IndexItem::None => name = "UnsqueezeBackward0",
            IndexItem::Ellipsis | IndexItem::Bool(_) => {}
        }
    }
    name
}

/// The position in `t` (row-major) of every element of `t[items]`.
fn positions(t: &Tensor, items: &[IndexItem]) -> Result<Tensor> {
    let n = t.numel();
    let ar = crate::tensor::create::arange(
        Scalar::Int(0),
        Scalar::Int(n as i64),
        Scalar::Int(1),
        Some(DType::I64),
        Device::Cpu,
    )?
    .reshape_raw(&t.shape().iter().map(|&s| s as i64).collect::<Vec<_>>())?;
    index_raw(&ar, items)
}

/// zeros(numel) with `g` added at `pos`, shaped `shape`.
fn scatter_add(
    shape: &[usize],
    dtype: DType,
    device: Device,
    pos: &Tensor,
    g: &Tensor,
) -> Result<Tensor> {
    let n: usize = shape.iter().product();
    let p = pos.contiguous_values_i64()?;
    let v = g.expand_to(pos.shape())?.contiguous_values_f64()?;
    let mut acc = vec![0f64; n];
    for (k, &i) in p.iter().enumerate() {
        acc[i as usize] += v[k];
    }
    Tensor::from_f64s(&acc, shape, dtype)?.to_device(device)
}

/// `g` with the elements at `pos` set to zero.
fn zero_at(g: &Tensor, pos: &Tensor) -> Result<Tensor> {
    let p = pos.contiguous_values_i64()?;
    let mut v = g.contiguous_values_f64()?;
    for &i in &p {
        v[i as usize] = 0.0;
    }
    Tensor::from_f64s(&v, g.shape(), g.dtype())?.to_device(g.device())
}

/// The elements of `g` at `pos` (shaped like `pos`).
fn gather(g: &Tensor, pos: &Tensor) -> Result<Tensor> {
    let p = pos.contiguous_values_i64()?;
    let v = g.contiguous_values_f64()?;
    let out: Vec<f64> = p.iter().map(|&i| v[i as usize]).collect();
    Tensor::from_f64s(&out, pos.shape(), g.dtype())?.to_device(g.device())
}

pub(super) fn record_index(t: &Tensor, items: &[IndexItem], out: &Tensor) -> Result<()> {
    let name = if has_advanced(items) {
        "IndexBackward0"
    } else {
        basic_name(items)
    };
    let pos = positions(t, items)?;
    let shape = t.shape().to_vec();
    let (dtype, device) = (t.dtype(), t.device());
    record(name, &[t], out, &[], move |g, _| {
        Ok(vec![Some(scatter_add(&shape, dtype, device, &pos, g)?)])
    })?;
    Ok(())
}

pub(super) fn index_put_recorded(
    t: &Tensor,
    items: &[IndexItem],
    value: &IndexValue,
) -> Result<()> {
    if has_advanced(items) {
        check_inplace(t)?;
    } else {
        crate::tensor::autograd::node::check_inplace_view(t)?;
    }
    let old = history_of(t)?;
    index_put_raw(t, items, value)?;
    if has_advanced(items) {
        t.bump_version();
    }
    let pos = positions(t, items)?;
    let adv = has_advanced(items);
    let mask_fill = adv
        && matches!(value, IndexValue::Scalar(_))
        && items.len() == 1
        && matches!(&items[0], IndexItem::Tensor(m) if m.dtype() == DType::Bool);
    let name = match (adv, mask_fill) {
        (_, true) => "MaskedFillBackward0",
        (true, false) => "IndexPutBackward0",
        (false, false) => "CopySlices",
    };
    let mut ins = vec![&old];
    let vshape = match value {
        IndexValue::Tensor(v) => {
            ins.push(v);
            Some(v.shape().to_vec())
        }
        IndexValue::Scalar(_) => None,
    };
    let pos2 = pos.clone();
    record_padded(
        name,
        &ins,
        0,
        t,
        &[],
        Box::new(move |g, c| {
            let g_old = if c.needs(0) {
                Some(zero_at(g, &pos2)?)
            } else {
                None
            };
            let mut r = vec![g_old];
            if let Some(vs) = &vshape {
                r.push(if c.needs(1) {
                    let gv = gather(g, &pos2)?;
                    // a value with extra leading 1s was broadcast from fewer dims
                    Some(if vs.len() > gv.ndim() {
                        let mut s = vec![1usize; vs.len() - gv.ndim()];
                        s.extend_from_slice(gv.shape());
                        gv.reshape_to(&s)?
                    } else {
                        gv
                    })
                } else {
                    None
                });
            }
            Ok(r)
        }),
    )?;
    let _ = pos;
    Ok(())
}
