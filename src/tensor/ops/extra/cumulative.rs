//! Scans and reorderings along dims: `cumsum`, `cumprod` (the backend's kernel where it has
//! one, else the host route, accumulating in f64 as PyTorch's CPU kernels accumulate in
//! double), `flip` and `roll` (a gather by flat position).
use super::host::{lanes, make, rename, strides_of, take_flat, values};
use crate::tensor::autograd::{is_recording1, record};
use crate::tensor::error::{runtime, Result};
use crate::tensor::shape::wrap_dim;
use crate::tensor::{DType, Tensor};

/// The result dtype of a scan: integers and bools accumulate in int64.
fn scan_dtype(x: &Tensor, dtype: Option<DType>) -> DType {
    dtype.unwrap_or(if x.dtype().is_floating() {
        x.dtype()
    } else {
        DType::I64
    })
}

fn scan(x: &Tensor, d: usize, dtype: DType, prod: bool) -> Result<Tensor> {
    if dtype == x.dtype() {
        if let Some(out) = crate::tensor::dispatch::on(x.device()).scan(x, d, prod)? {
            return Ok(out);
        }
    }
    let v = values(x)?;
    let (outer, n, inner) = lanes(x.shape(), d);
    let mut out = v.clone();
    for o in 0..outer {
        for i in 0..inner {
            let mut acc = if prod { 1.0 } else { 0.0 };
            for k in 0..n {
                let at = (o * n + k) * inner + i;
                acc = if prod { acc * v[at] } else { acc + v[at] };
                // each partial result is rounded to the dtype, as PyTorch stores it
                out[at] = acc;
            }
        }
    }
    make(&out, x.shape(), dtype, x.device())
}

/// `torch.cumsum(x, dim, dtype=None)`.
pub fn cumsum(x: &Tensor, dim: i64, dtype: Option<DType>) -> Result<Tensor> {
    let d = wrap_dim(dim, x.ndim())?;
    let dt = scan_dtype(x, dtype);
    let out = scan(x, d, dt, false)?;
    if is_recording1(x) {
        record("CumsumBackward0", &[x], &out, &[], move |g, _| {
            // the sum of the gradients at and after each place: a reversed cumsum
            let r = flip(&cumsum(&flip(g, &[dim])?, dim, None)?, &[dim])?;
            Ok(vec![Some(r)])
        })?;
    }
    Ok(out)
}

/// `torch.cumprod(x, dim, dtype=None)`. Its gradient is exact with zeros in the input too.
pub fn cumprod(x: &Tensor, dim: i64, dtype: Option<DType>) -> Result<Tensor> {
    let d = wrap_dim(dim, x.ndim())?;
    let dt = scan_dtype(x, dtype);
    let out = scan(x, d, dt, true)?;
    if is_recording1(x) {
        record("CumprodBackward0", &[x], &out, &[Some(x)], move |g, ctx| {
            Ok(vec![Some(cumprod_grad(ctx.saved(0), g, d)?)])
        })?;
    }
    Ok(out)
}

/// d(sum_j g_j * prod_{k<=j} x_k)/dx_i = sum_{j>=i} g_j * prod_{k<=j, k!=i} x_k, computed
/// directly (quadratic in the dim's size) so zeros in `x` need no special case.
fn cumprod_grad(x: &Tensor, g: &Tensor, d: usize) -> Result<Tensor> {
    let (xv, gv) = (values(x)?, values(g)?);
    let (outer, n, inner) = lanes(x.shape(), d);
    let mut out = vec![0.0; xv.len()];
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| (o * n + k) * inner + i;
            let mut before = 1.0;
            for k in 0..n {
                let mut run = before;
                let mut s = 0.0;
                for j in k..n {
                    if j > k {
                        run *= xv[at(j)];
                    }
                    s += gv[at(j)] * run;
                }
                out[at(k)] = s;
                before *= xv[at(k)];
            }
        }
    }
    make(&out, x.shape(), g.dtype(), g.device())
}

/// `torch.flip(x, dims)`.
pub fn flip(x: &Tensor, dims: &[i64]) -> Result<Tensor> {
    let mut ds = Vec::new();
    for &d in dims {
        let w = wrap_dim(d, x.ndim())?;
        if ds.contains(&w) {
            return runtime(format!(
                "dims has duplicates, original flip dims size={}, but unique flip dims size={}",
                dims.len(),
                ds.len()
            ));
        }
        ds.push(w);
    }
    let shape = x.shape().to_vec();
    let st = strides_of(&shape);
    let flat: Vec<i64> = (0..x.numel())
        .map(|p| {
            (0..shape.len())
                .map(|k| {
                    let c = (p / st[k]) % shape[k];
                    let c = if ds.contains(&k) { shape[k] - 1 - c } else { c };
                    c * st[k]
                })
                .sum::<usize>() as i64
        })
        .collect();
    let out = take_flat(x, &flat, &shape)?;
    rename(&out, "FlipBackward0");
    Ok(out)
}

/// `torch.roll(x, shifts, dims)`: without dims the flattened tensor rolls, keeping the shape.
pub fn roll(x: &Tensor, shifts: &[i64], dims: &[i64]) -> Result<Tensor> {
    if dims.is_empty() {
        if shifts.len() != 1 {
            return runtime(format!(
                "shifts and dimensions must align. shifts: {}, dims:0",
                shifts.len()
            ));
        }
        let flat = x.reshape(&[-1])?;
        let r = roll(&flat, shifts, &[0])?;
        let out = r.view(&super::host::i64s(x.shape()))?;
        rename(&out, "RollBackward0");
        return Ok(out);
    }
    if shifts.len() != dims.len() {
        return runtime(format!(
            "shifts and dimensions must align. shifts: {}, dims:{}",
            shifts.len(),
            dims.len()
        ));
    }
    let shape = x.shape().to_vec();
    let mut shift = vec![0i64; shape.len()];
    for (&s, &d) in shifts.iter().zip(dims) {
        let w = wrap_dim(d, x.ndim())?;
        shift[w] += s;
    }
    let st = strides_of(&shape);
    let flat: Vec<i64> = (0..x.numel())
        .map(|p| {
            (0..shape.len())
                .map(|k| {
                    let n = shape[k] as i64;
                    let c = ((p / st[k]) % shape[k]) as i64;
                    ((c - shift[k]).rem_euclid(n) as usize) * st[k]
                })
                .sum::<usize>() as i64
        })
        .collect();
    let out = take_flat(x, &flat, &shape)?;
    rename(&out, "RollBackward0");
    Ok(out)
}
