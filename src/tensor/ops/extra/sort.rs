//! `sort`, `argsort`, `topk`, `kthvalue` (host route). The order is found on the host; the
//! values are then gathered from the input on its own device (`host::take_flat`), which
//! gives them their gradient (renamed to PyTorch's `SortBackward0`, `TopkBackward0`, ...).
use super::host::{lanes, make_i64, rename, take_flat, values};
use super::select::{self, Item, Value};
use crate::tensor::error::{runtime, Result};
use crate::tensor::shape::wrap_dim;
use crate::tensor::{DType, Tensor};
use std::cmp::Ordering;

/// What a lane's order is wanted for.
#[derive(Clone, Copy)]
enum Want {
    /// Every position, ascending or descending, ties in position order.
    Stable { descending: bool },
    /// Every position as `std::sort` leaves them (PyTorch's unstable sort of the dtypes it
    /// sorts that way).
    Unstable { descending: bool },
    /// The `k` largest or smallest, as `topk_impl_loop` picks them: `std::partial_sort` when
    /// `k * 64 <= n`, else `std::nth_element` and (`sorted`) `std::sort` of the first `k - 1`.
    Top {
        k: usize,
        largest: bool,
        sorted: bool,
    },
    /// The `k`-th least (from 0), by TH's quickselect.
    Kth { k: usize },
}

/// For each lane along `dim`: the positions (0..n) that `want` asks for, in order. int64
/// values are compared as they are, the rest as f64 (which holds each of them exactly).
fn lane_orders(x: &Tensor, dim: usize, want: Want) -> Result<Vec<Vec<usize>>> {
    let lanes = lanes(x.shape(), dim);
    if x.dtype() == DType::I64 {
        Ok(orders_of(&x.contiguous_values_i64()?, lanes, want))
    } else {
        Ok(orders_of(&values(x)?, lanes, want))
    }
}

fn orders_of<T: Value>(
    v: &[T],
    (outer, n, inner): (usize, usize, usize),
    want: Want,
) -> Vec<Vec<usize>> {
    let mut out = Vec::with_capacity(outer * inner);
    let mut items: Vec<Item<T>> = Vec::with_capacity(n);
    for o in 0..outer {
        for i in 0..inner {
            items.clear();
            items.extend((0..n).map(|k| (v[(o * n + k) * inner + i], k)));
            out.push(lane_order(&mut items, want));
        }
    }
    out
}

fn lane_order<T: Value>(items: &mut Vec<Item<T>>, want: Want) -> Vec<usize> {
    // one monomorphised loop per direction, so each comparison is inlined
    let descending = match want {
        Want::Stable { descending } | Want::Unstable { descending } => descending,
        Want::Top { largest, .. } => largest,
        // TH's quickselect orders by "greater or NaN"
        Want::Kth { .. } => true,
    };
    if descending {
        order_by(items, want, select::descending::<T>)
    } else {
        order_by(items, want, select::ascending::<T>)
    }
}

fn order_by<T: Value>(
    items: &mut Vec<Item<T>>,
    want: Want,
    less: impl Fn(T, T) -> bool + Copy,
) -> Vec<usize> {
    match want {
        Want::Stable { .. } => items.sort_by(|a, b| match (less(a.0, b.0), less(b.0, a.0)) {
            (true, _) => Ordering::Less,
            (_, true) => Ordering::Greater,
            _ => Ordering::Equal,
        }),
        Want::Unstable { .. } => select::sort(items, less),
        Want::Top { k, sorted, .. } => {
            if k == 0 {
                items.clear();
            } else if k * 64 <= items.len() {
                select::partial_sort(items, k, less);
            } else {
                select::nth_element(items, k - 1, less);
                if sorted {
                    select::sort(&mut items[..k - 1], less);
                }
            }
            items.truncate(k);
        }
        Want::Kth { k } => {
            select::quick_select(items, k, less);
            return vec![items[k].1];
        }
    }
    items.iter().map(|it| it.1).collect()
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

/// `torch.sort(x, dim=-1, descending=False, stable=False)`. PyTorch sorts float32, float64,
/// int32 and int64 with x86-simd-sort's vector quicksort when asked for no stability (which
/// equal values come first is its own); those, and every `stable=True` sort, come out stable
/// here. The other dtypes go through `std::sort` there and here, except 1-D integer
/// ascending sorts of 32,768 elements or more, which fbgemm's radix sort keeps stable.
pub fn sort(x: &Tensor, dim: i64, descending: bool, stable: bool) -> Result<(Tensor, Tensor)> {
    check_sortable(x, "sort")?;
    let d = wrap_dim(dim, x.ndim())?;
    let vector_sorted = matches!(x.dtype(), DType::F32 | DType::F64 | DType::I32 | DType::I64);
    let radix = x.dtype().is_integral() && x.ndim() == 1 && !descending && x.numel() >= 32_768;
    let want = if stable || vector_sorted || radix {
        Want::Stable { descending }
    } else {
        Want::Unstable { descending }
    };
    let orders = lane_orders(x, d, want)?;
    let n = if x.ndim() == 0 { 1 } else { x.shape()[d] };
    pick(x, d, &orders, n, "SortBackward0")
}

/// `torch.argsort(x, dim=-1, descending=False, stable=False)`.
pub fn argsort(x: &Tensor, dim: i64, descending: bool, stable: bool) -> Result<Tensor> {
    let _g = crate::tensor::autograd::mode::NoGrad::new();
    Ok(sort(x, dim, descending, stable)?.1)
}

/// `torch.topk(x, k, dim=-1, largest=True, sorted=True)`.
pub fn topk(x: &Tensor, k: i64, dim: i64, largest: bool, sorted: bool) -> Result<(Tensor, Tensor)> {
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
    let k = k as usize;
    let orders = lane_orders(x, d, Want::Top { k, largest, sorted })?;
    pick(x, d, &orders, k, "TopkBackward0")
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
    let orders = lane_orders(x, d, Want::Kth { k: k as usize - 1 })?;
    let (v, i) = pick(x, d, &orders, 1, "KthvalueBackward0")?;
    if keepdim || x.ndim() == 0 {
        return Ok((v, i));
    }
    let (v2, i2) = (v.squeeze(Some(d as i64))?, i.squeeze(Some(d as i64))?);
    rename(&v2, "KthvalueBackward0");
    Ok((v2, i2))
}
