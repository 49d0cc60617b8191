//! Counting ops, on the host route (their results' sizes depend on the data): `unique`,
//! `bincount`, `histc`. None of them is differentiable in PyTorch either.
use super::host::{make, make_i64, values};
use crate::tensor::error::{runtime, Result};
use crate::tensor::{DType, Tensor};

/// What `torch.unique` returns: the sorted values, and on request where each input element
/// went (`inverse`, shaped like the input) and how often each value occurs (`counts`).
pub struct Unique {
    pub values: Tensor,
    pub inverse: Tensor,
    pub counts: Tensor,
}

/// `torch.unique(x, sorted=True, return_inverse, return_counts)` over all elements.
pub fn unique(x: &Tensor) -> Result<Unique> {
    let v = values(x)?;
    let mut sorted: Vec<f64> = v.clone();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    sorted.dedup_by(|a, b| a == b);
    let inverse: Vec<i64> = v
        .iter()
        .map(|a| sorted.partition_point(|b| b < a) as i64)
        .collect();
    let mut counts = vec![0i64; sorted.len()];
    for &k in &inverse {
        counts[k as usize] += 1;
    }
    Ok(Unique {
        values: make(&sorted, &[sorted.len()], x.dtype(), x.device())?,
        inverse: make_i64(&inverse, x.shape(), x.device())?,
        counts: make_i64(&counts, &[counts.len()], x.device())?,
    })
}

/// `torch.unique(x, dim=d, ...)`: the distinct slices along `d`, sorted lexicographically as
/// PyTorch's CPU kernel sorts them (the first element that differs decides; a NaN decides
/// nothing and never equals, so slices holding one are all kept); `inverse` has one entry
/// per slice of `x` along `d`.
pub fn unique_dim(x: &Tensor, dim: i64) -> Result<Unique> {
    let d = crate::tensor::shape::wrap_dim(dim, x.ndim())?;
    let n = x.shape()[d];
    // slices along d as rows: move d to the front
    let mut perm: Vec<i64> = (0..x.ndim() as i64).collect();
    perm.remove(d);
    perm.insert(0, d as i64);
    let front = x.permute(&perm)?;
    let v = values(&front)?;
    let len = v.len().checked_div(n).unwrap_or(0);
    let row = |k: usize| &v[k * len..(k + 1) * len];
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        for (l, r) in row(a).iter().zip(row(b)) {
            if l < r {
                return std::cmp::Ordering::Less;
            }
            if l > r {
                return std::cmp::Ordering::Greater;
            }
        }
        std::cmp::Ordering::Equal
    });
    let (mut kept, mut inverse, mut counts) = (Vec::<usize>::new(), vec![0i64; n], Vec::new());
    for &k in &order {
        match kept.last() {
            Some(&p) if row(p).iter().zip(row(k)).all(|(a, b)| a == b) => {
                *counts.last_mut().unwrap_or(&mut 0) += 1;
            }
            _ => {
                kept.push(k);
                counts.push(1i64);
            }
        }
        inverse[k] = kept.len() as i64 - 1;
    }
    let flat: Vec<f64> = kept.iter().flat_map(|&k| row(k).iter().cloned()).collect();
    let mut shape = front.shape().to_vec();
    shape[0] = kept.len();
    let out = make(&flat, &shape, x.dtype(), x.device())?;
    // and d back where it was
    let mut back: Vec<i64> = (1..x.ndim() as i64).collect();
    back.insert(d, 0);
    Ok(Unique {
        values: out.permute(&back)?.contiguous()?,
        inverse: make_i64(&inverse, &[n], x.device())?,
        counts: make_i64(&counts, &[counts.len()], x.device())?,
    })
}

/// `torch.bincount(x, weights=None, minlength=0)`.
pub fn bincount(x: &Tensor, weights: Option<&Tensor>, minlength: i64) -> Result<Tensor> {
    if x.dtype().is_floating() || x.dtype() == DType::Bool {
        return crate::tensor::error::not_impl(format!(
            "\"bincount_cpu\" not implemented for '{}'",
            x.dtype().c10_name()
        ));
    }
    if x.ndim() != 1 {
        return runtime("bincount only supports 1-d non-negative integral inputs.");
    }
    if minlength < 0 {
        return runtime("minlength should be >= 0");
    }
    let v = x.contiguous_values_i64()?;
    if v.iter().any(|&a| a < 0) {
        return runtime("bincount only supports 1-d non-negative integral inputs.");
    }
    let n = v
        .iter()
        .map(|&a| a as usize + 1)
        .max()
        .unwrap_or(0)
        .max(minlength as usize);
    match weights {
        None => {
            let mut c = vec![0i64; n];
            for &a in &v {
                c[a as usize] += 1;
            }
            make_i64(&c, &[n], x.device())
        }
        Some(w) => {
            if w.ndim() != 1 || w.numel() != v.len() {
                return runtime("weights should be 1-d and have the same length as input");
            }
            let wv = values(w)?;
            let mut c = vec![0f64; n];
            for (&a, &b) in v.iter().zip(&wv) {
                c[a as usize] += b;
            }
            let dt = if w.dtype() == DType::F32 {
                DType::F32
            } else {
                DType::F64
            };
            make(&c, &[n], dt, x.device())
        }
    }
}

/// `torch.histc(x, bins=100, min=0, max=0)`: equal-width bins over [min, max] (the data's
/// range when both are 0); values outside are ignored, `max` itself counts in the last bin.
pub fn histc(x: &Tensor, bins: i64, min: f64, max: f64) -> Result<Tensor> {
    if !x.dtype().is_floating() {
        return crate::tensor::error::not_impl(format!(
            "\"histogram_cpu\" not implemented for '{}'",
            x.dtype().c10_name()
        ));
    }
    if bins <= 0 {
        return runtime("torch.histc: bins must be > 0");
    }
    let v = values(x)?;
    let (mut lo, mut hi) = (min, max);
    if lo == hi && !v.is_empty() {
        lo = v.iter().cloned().fold(f64::INFINITY, f64::min);
        hi = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    }
    if lo == hi {
        lo -= 1.0;
        hi += 1.0;
    }
    if lo > hi {
        return runtime("torch.histc: max must be larger than min");
    }
    let nb = bins as usize;
    let mut h = vec![0f64; nb];
    for &a in &v {
        if a < lo || a > hi || a.is_nan() {
            continue;
        }
        let b = (((a - lo) * nb as f64) / (hi - lo)) as usize;
        h[b.min(nb - 1)] += 1.0;
    }
    make(&h, &[nb], x.dtype(), x.device())
}
