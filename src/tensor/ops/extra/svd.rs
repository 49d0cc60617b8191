//! The singular value decomposition: `torch.linalg.svd` (U, S, Vh), `torch.svd` (U, S, V) and
//! `torch.linalg.svdvals`, which the spectral (2, -2) and nuclear matrix norms use.
//! Host route: each matrix is decomposed in f64 by one-sided Jacobi rotations (Hestenes), which
//! is accurate to the last bit of f32 for the small matrices learners use; the result is made
//! on the input's device. Singular vectors are unique only up to sign (and within repeated
//! singular values): LAPACK's gesdd, which PyTorch calls, settles them its own way and these
//! need not agree with it, though `U diag(S) Vh`, `|U|` of distinct values and every
//! sign-invariant function do. U and Vh are column-major, as LAPACK returns them (so
//! `torch.svd`'s `V = Vh.mT` is contiguous). The backward rules (`svd_grad.rs`) are written
//! with tensor ops on the input's device.
use super::host::{make, values};
use super::svd_basis::complete;
use crate::tensor::autograd::util::mul;
use crate::tensor::autograd::{is_recording1, record, record_multi};
use crate::tensor::error::{not_impl, not_impl_for, runtime, Result};
use crate::tensor::ops::matmul::matmul;
use crate::tensor::{DType, Tensor};

/// The thin SVD of the row-major `m`×`n` matrix `a`: (U as `m`×`k`, S descending, Vh as
/// `k`×`n`), all row-major, `k = min(m, n)`.
fn jacobi_svd(a: &[f64], m: usize, n: usize) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    // Work on the tall orientation: columns of `w` (`rows`×`cols`, rows >= cols) are rotated
    // until orthogonal; `v` accumulates the rotations.
    let tall = m >= n;
    let (rows, cols) = if tall { (m, n) } else { (n, m) };
    // Column-major copies, so each rotation walks two contiguous columns.
    let mut w = vec![0.0; rows * cols];
    for i in 0..m {
        for j in 0..n {
            let (r, c) = if tall { (i, j) } else { (j, i) };
            w[c * rows + r] = a[i * n + j];
        }
    }
    let mut v = vec![0.0; cols * cols];
    for c in 0..cols {
        v[c * cols + c] = 1.0;
    }
    for _sweep in 0..80 {
        let mut rotated = false;
        for p in 0..cols {
            for q in p + 1..cols {
                let (wp, wq) = (&w[p * rows..(p + 1) * rows], &w[q * rows..(q + 1) * rows]);
                let alpha: f64 = wp.iter().map(|x| x * x).sum();
                let beta: f64 = wq.iter().map(|x| x * x).sum();
                let gamma: f64 = wp.iter().zip(wq).map(|(x, y)| x * y).sum();
                if gamma == 0.0 || gamma.abs() <= f64::EPSILON * (alpha * beta).sqrt() {
                    continue;
                }
                rotated = true;
                let zeta = (beta - alpha) / (2.0 * gamma);
                let t = zeta.signum() / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
                let c = 1.0 / (1.0 + t * t).sqrt();
                let s = c * t;
                rotate(&mut w, rows, p, q, c, s);
                rotate(&mut v, cols, p, q, c, s);
            }
        }
        if !rotated {
            break;
        }
    }
    let norms: Vec<f64> = (0..cols)
        .map(|c| {
            w[c * rows..(c + 1) * rows]
                .iter()
                .map(|x| x * x)
                .sum::<f64>()
                .sqrt()
        })
        .collect();
    let mut order: Vec<usize> = (0..cols).collect();
    order.sort_by(|&a, &b| norms[b].total_cmp(&norms[a]));
    let k = cols;
    // Left vectors of the tall matrix: w's columns normalised; right vectors: v's columns.
    let left = |j: usize, r: usize| {
        let c = order[j];
        if norms[c] > 0.0 {
            w[c * rows + r] / norms[c]
        } else {
            0.0
        }
    };
    let right = |j: usize, r: usize| v[order[j] * cols + r];
    let s: Vec<f64> = order.iter().map(|&c| norms[c]).collect();
    let mut u = vec![0.0; m * k];
    let mut vh = vec![0.0; k * n];
    for j in 0..k {
        for i in 0..m {
            // A = W V^T (tall) or A^T = W V^T: U and V swap roles for a wide A.
            u[i * k + j] = if tall { left(j, i) } else { right(j, i) };
        }
        for i in 0..n {
            vh[j * n + i] = if tall { right(j, i) } else { left(j, i) };
        }
    }
    (u, s, vh)
}

/// Columns `p` and `q` of the column-major `x` (columns of `len`) ← (c·xp − s·xq, s·xp + c·xq).
fn rotate(x: &mut [f64], len: usize, p: usize, q: usize, c: f64, s: f64) {
    for r in 0..len {
        let (a, b) = (x[p * len + r], x[q * len + r]);
        x[p * len + r] = c * a - s * b;
        x[q * len + r] = s * a + c * b;
    }
}

/// The full or reduced SVD of the row-major `m`×`n` matrix `a`: U as its columns (`m`
/// values each; `m` of them when `full`, else `k`), S, and Vh as its rows (`n` values each;
/// `n` of them when `full`, else `k`). Vectors of zero singular values are completed to an
/// orthonormal set.
fn factors(a: &[f64], m: usize, n: usize, full: bool) -> (Vec<Vec<f64>>, Vec<f64>, Vec<Vec<f64>>) {
    let (u, s, vh) = jacobi_svd(a, m, n);
    let k = s.len();
    let mut cols: Vec<Vec<f64>> = (0..k)
        .map(|j| (0..m).map(|i| u[i * k + j]).collect())
        .collect();
    let mut rows: Vec<Vec<f64>> = (0..k).map(|j| vh[j * n..(j + 1) * n].to_vec()).collect();
    // the side Jacobi normalised (U's columns of a tall matrix, Vh's rows of a wide one) holds
    // no direction where the singular value vanished
    let tol = s.first().copied().unwrap_or(0.0) * m.max(n) as f64 * f64::EPSILON;
    let null: Vec<usize> = (0..k).filter(|&j| s[j] <= tol).collect();
    let (nu, nv): (&[usize], &[usize]) = if m >= n { (&null, &[]) } else { (&[], &null) };
    complete(&mut cols, nu, m, if full { m } else { k });
    complete(&mut rows, nv, n, if full { n } else { k });
    (cols, s, rows)
}

/// The dtype check every SVD entry shares, with PyTorch's messages.
fn check_dtype(x: &Tensor) -> Result<()> {
    if !matches!(x.dtype(), DType::F32 | DType::F64) {
        if x.dtype().is_floating() {
            return not_impl_for("linalg_svd_cpu", x.dtype());
        }
        return not_impl(format!(
            "linalg.svd: Expected a floating point or complex tensor as input. Got {}",
            x.dtype().c10_name()
        ));
    }
    Ok(())
}

/// The checks of both entries, and the shape of the matrices: (batch dims, m, n).
fn matrices(x: &Tensor) -> Result<(Vec<usize>, usize, usize)> {
    if x.ndim() < 2 {
        return runtime("linalg.svd: The input tensor A must have at least 2 dimensions.");
    }
    check_dtype(x)?;
    let shape = x.shape();
    let d = shape.len();
    Ok((shape[..d - 2].to_vec(), shape[d - 2], shape[d - 1]))
}

/// `torch.linalg.svd(A, full_matrices)`: (U, S, Vh) of each matrix in the last two dims, one
/// `LinalgSvdBackward0` node for the three.
pub fn linalg_svd(x: &Tensor, full: bool) -> Result<(Tensor, Tensor, Tensor)> {
    let (batch, m, n) = matrices(x)?;
    let k = m.min(n);
    let (ku, kv) = if full { (m, n) } else { (k, k) };
    let count: usize = batch.iter().product();
    let a = values(x)?;
    // U and Vh column-major: Uᵀ's and V's rows are what `factors` gives
    let (mut ut, mut ss, mut v) = (Vec::new(), Vec::new(), Vec::new());
    for b in 0..count {
        let (cols, s, rows) = factors(&a[b * m * n..(b + 1) * m * n], m, n, full);
        ut.extend(cols.into_iter().flatten());
        ss.extend(s);
        for i in 0..n {
            v.extend(rows.iter().map(|r| r[i]));
        }
    }
    let with = |tail: &[usize]| [batch.as_slice(), tail].concat();
    let (dt, dev) = (x.dtype(), x.device());
    let u = make(&ut, &with(&[ku, m]), dt, dev)?.transpose(-2, -1)?;
    let s = make(&ss, &with(&[k]), dt, dev)?;
    let vh = make(&v, &with(&[n, kv]), dt, dev)?.transpose(-2, -1)?;
    if is_recording1(x) {
        record_multi(
            "LinalgSvdBackward0",
            &[x],
            &[&u, &s, &vh],
            &[Some(&u), Some(&s), Some(&vh)],
            move |g, ctx| {
                // with full_matrices only the first k vectors (and their gradients) count
                let first = |t: Option<&Tensor>, dim: i64, all: usize| match t {
                    Some(t) if all > k => t.narrow(dim, 0, k as i64).map(Some),
                    t => Ok(t.cloned()),
                };
                let gu = first(g[0].as_ref(), -1, ku)?;
                let gvh = first(g[2].as_ref(), -2, kv)?;
                let u = first(Some(ctx.saved(0)), -1, ku)?.expect("saved U");
                let vh = first(Some(ctx.saved(2)), -2, kv)?.expect("saved Vh");
                let ga = super::svd_grad::svd_backward(
                    gu.as_ref(),
                    g[1].as_ref(),
                    gvh.as_ref(),
                    &u,
                    ctx.saved(1),
                    &vh,
                )?;
                Ok(vec![ga])
            },
        )?;
    }
    Ok((u, s, vh))
}

/// `torch.svd(A, some, compute_uv)`: (U, S, V) with `V = Vh.mT` (`TransposeBackward0` of
/// the SVD's node); `some=False` is `full_matrices=True`. Without `compute_uv`, U and V are
/// zeros shaped `m`×`m` and `n`×`n`, as PyTorch's.
pub fn svd(x: &Tensor, some: bool, compute_uv: bool) -> Result<(Tensor, Tensor, Tensor)> {
    if x.ndim() < 2 {
        return runtime(format!(
            "linalg.svd: input should have at least 2 dimensions, but has {} dimensions instead",
            x.ndim()
        ));
    }
    check_dtype(x)?;
    if !compute_uv {
        let s = svdvals(x)?;
        let nd = x.ndim();
        let zeros = |a: usize| {
            let mut shape: Vec<i64> = x.shape()[..nd - 2].iter().map(|&d| d as i64).collect();
            shape.extend([a as i64, a as i64]);
            crate::tensor::create::zeros(&shape, Some(x.dtype()), x.device())
        };
        return Ok((zeros(x.shape()[nd - 2])?, s, zeros(x.shape()[nd - 1])?));
    }
    let (u, s, vh) = linalg_svd(x, !some)?;
    Ok((u, s, vh.transpose(-2, -1)?))
}

/// `torch.linalg.svdvals(A)`: the singular values of each matrix in the last two dims,
/// descending, shaped `(*, min(m, n))`; gradient `LinalgSvdBackward0`.
pub fn svdvals(x: &Tensor) -> Result<Tensor> {
    let (batch, m, n) = matrices(x)?;
    let k = m.min(n);
    let count: usize = batch.iter().product();
    let a = values(x)?;
    let (mut us, mut ss, mut vhs) = (Vec::new(), Vec::new(), Vec::new());
    for b in 0..count {
        let (u, s, vh) = jacobi_svd(&a[b * m * n..(b + 1) * m * n], m, n);
        us.extend(u);
        ss.extend(s);
        vhs.extend(vh);
    }
    let with = |tail: &[usize]| [batch.as_slice(), tail].concat();
    let out = make(&ss, &with(&[k]), x.dtype(), x.device())?;
    if is_recording1(x) {
        let u = make(&us, &with(&[m, k]), x.dtype(), x.device())?;
        let vh = make(&vhs, &with(&[k, n]), x.dtype(), x.device())?;
        record(
            "LinalgSvdBackward0",
            &[x],
            &out,
            &[Some(&u), Some(&vh)],
            |g, ctx| {
                // dA = U diag(gS) Vh: scale U's columns by gS, then multiply.
                let scaled = mul(ctx.saved(0), &g.unsqueeze(-2)?)?;
                Ok(vec![Some(matmul(&scaled, ctx.saved(1))?)])
            },
        )?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::jacobi_svd;

    fn rebuild(u: &[f64], s: &[f64], vh: &[f64], m: usize, n: usize) -> Vec<f64> {
        let k = s.len();
        let mut a = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                a[i * n + j] = (0..k).map(|t| u[i * k + t] * s[t] * vh[t * n + j]).sum();
            }
        }
        a
    }

    #[test]
    fn decomposes_tall_wide_and_rank_deficient_matrices() {
        let cases: [(&[f64], usize, usize); 4] = [
            (&[1.0, 2.0, 3.0, 4.0], 2, 2),
            (&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 3, 2),
            (&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 2, 3),
            (&[1.0, 2.0, 2.0, 4.0], 2, 2),
        ];
        for (a, m, n) in cases {
            let (u, s, vh) = jacobi_svd(a, m, n);
            assert!(s.windows(2).all(|w| w[0] >= w[1]), "{s:?}");
            for (x, y) in rebuild(&u, &s, &vh, m, n).iter().zip(a) {
                assert!((x - y).abs() < 1e-12, "{a:?}");
            }
        }
        // [[1, 2], [3, 4]]: sigma = sqrt(15 ± sqrt(221))
        let (_, s, _) = jacobi_svd(&[1.0, 2.0, 3.0, 4.0], 2, 2);
        assert!((s[0] - (15.0 + 221f64.sqrt()).sqrt()).abs() < 1e-14);
        assert!((s[1] - (15.0 - 221f64.sqrt()).sqrt()).abs() < 1e-14);
    }
}
