//! `sort`, `argsort`, `topk`, `kthvalue` (host route). The order is found on the host; the
//! values are then gathered from the input on its own device (`host::take_flat`), which
//! gives them their gradient (renamed to PyTorch's `SortBackward0`, `TopkBackward0`, ...).
use super::host::{lanes, make_i64, rename, take_flat, values};
use crate::tensor::error::{runtime, Result};
use crate::tensor::shape::wrap_dim;
use crate::tensor::{DType, Tensor};
use std::cmp::Ordering;

/// PyTorch's order for sorting: NaN is larger than every number.
fn cmp_nan_last(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
    }
}

/// For each lane along `dim`: the positions (0..n) in sorted order, stable.
fn lane_orders(x: &Tensor, dim: usize, descending: bool) -> Result<Vec<Vec<usize>>> {
    let v = values(x)?;
    let (outer, n, inner) = lanes(x.shape(), dim);
    let mut out = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| v[(o * n + k) * inner + i];
            let mut order: Vec<usize> = (0..n).collect();
            if descending {
                order.sort_by(|&a, &b| cmp_nan_last(at(b), at(a)));
            } else {
                order.sort_by(|&a, &b| cmp_nan_last(at(a), at(b)));
            }
            out.push(order);
        }
    }
    Ok(out)
}

/// Picks the first `k` positions of each lane's order: (values, indices) shaped like `x` with
/// `dim` of size `k`.
fn pick(
    x: &Tensor,
    dim: usize,
    orders: &[Vec<usize>],
    k: usize,
    name: &'static str,
) -> Result<(Tensor, Tensor)> {
    let (outer, n, inner) = lanes(x.shape(), dim);
    let mut shape = x.shape().to_vec();
    if !shape.is_empty() {
        shape[dim] = k;
    }
    let total = outer * k * inner;
    let mut flat = vec![0i64; total];
    let mut idx = vec![0i64; total];
    for o in 0..outer {
        for i in 0..inner {
            let order = &orders[o * inner + i];
            for (j, &p) in order.iter().take(k).enumerate() {
                let at = (o * k + j) * inner + i;
                flat[at] = ((o * n + p) * inner + i) as i64;
                idx[at] = p as i64;
            }
        }
    }
    let vals = take_flat(x, &flat, &shape)?;
    rename(&vals, name);
    Ok((vals, make_i64(&idx, &shape, x.device())?))
}

fn check_sortable(x: &Tensor, name: &str) -> Result<()> {
    if x.dtype() == DType::Bool && name != "sort" && name != "argsort" {
        return runtime(format!("\"{name}_cpu\" not implemented for 'Bool'"));
    }
    Ok(())
}

/// `torch.sort(x, dim=-1, descending=False, stable=False)`: stable in every case, as
/// PyTorch's CPU sort is.
pub fn sort(x: &Tensor, dim: i64, descending: bool) -> Result<(Tensor, Tensor)> {
    check_sortable(x, "sort")?;
    let d = wrap_dim(dim, x.ndim())?;
    let orders = lane_orders(x, d, descending)?;
    let n = if x.ndim() == 0 { 1 } else { x.shape()[d] };
    pick(x, d, &orders, n, "SortBackward0")
}

/// `torch.argsort(x, dim=-1, descending=False)`.
pub fn argsort(x: &Tensor, dim: i64, descending: bool) -> Result<Tensor> {
    let _g = crate::tensor::autograd::mode::NoGrad::new();
    Ok(sort(x, dim, descending)?.1)
}

/// `torch.topk(x, k, dim=-1, largest=True, sorted=True)`: always sorted (PyTorch's order for
/// `sorted=False` is unspecified).
pub fn topk(x: &Tensor, k: i64, dim: i64, largest: bool) -> Result<(Tensor, Tensor)> {
    check_sortable(x, "topk")?;
    let d = wrap_dim(dim, x.ndim())?;
    let n = if x.ndim() == 0 { 1 } else { x.shape()[d] };
    if k < 0 || k as usize > n {
        return runtime("selected index k out of range").map_err(|e| {
            e.with_hint(format!(
                "k must be between 0 and the size of dim {d}, which is {n}"
            ))
        });
    }
    // PyTorch's largest-first order lists equal values last index first: the ascending
    // stable order, reversed
    let mut orders = lane_orders(x, d, false)?;
    if largest {
        orders.iter_mut().for_each(|o| o.reverse());
    }
    pick(x, d, &orders, k as usize, "TopkBackward0")
}

/// `torch.kthvalue(x, k, dim=-1, keepdim=False)`: the k-th smallest (1-based) along `dim`.
pub fn kthvalue(x: &Tensor, k: i64, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
    check_sortable(x, "kthvalue")?;
    let d = wrap_dim(dim, x.ndim())?;
    let n = if x.ndim() == 0 { 1 } else { x.shape()[d] };
    if k < 1 || k as usize > n {
        return runtime(format!(
            "kthvalue(): selected number k out of range for dimension {d}"
        ))
        .map_err(|e| e.with_hint(format!("k counts from 1 up to the size of dim {d}, {n}")));
    }
    let orders: Vec<Vec<usize>> = lane_orders(x, d, false)?
        .into_iter()
        .map(|o| vec![o[k as usize - 1]])
        .collect();
    let (v, i) = pick(x, d, &orders, 1, "KthvalueBackward0")?;
    if keepdim || x.ndim() == 0 {
        return Ok((v, i));
    }
    let (v2, i2) = (v.squeeze(Some(d as i64))?, i.squeeze(Some(d as i64))?);
    rename(&v2, "KthvalueBackward0");
    Ok((v2, i2))
}
