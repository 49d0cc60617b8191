//! Singular values (`torch.linalg.svdvals`), for the spectral (2, -2) and nuclear matrix norms.
//! Host route: each matrix is decomposed in f64 by one-sided Jacobi rotations (Hestenes), which
//! is accurate to the last bit of f32 for the small matrices learners use; the result is made
//! on the input's device. The backward rule (`U diag(gS) Vh`, PyTorch's `svd_backward` when
//! only S is used) is written with tensor ops on the input's device.
use super::host::{make, values};
use crate::tensor::autograd::util::mul;
use crate::tensor::autograd::{is_recording1, record};
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

/// `torch.linalg.svdvals(A)`: the singular values of each matrix in the last two dims,
/// descending, shaped `(*, min(m, n))`; gradient `LinalgSvdBackward0`.
pub fn svdvals(x: &Tensor) -> Result<Tensor> {
    if x.ndim() < 2 {
        return runtime("linalg.svd: The input tensor A must have at least 2 dimensions.");
    }
    if !matches!(x.dtype(), DType::F32 | DType::F64) {
        if x.dtype().is_floating() {
            return not_impl_for("linalg_svd_cpu", x.dtype());
        }
        return not_impl(format!(
            "linalg.svd: Expected a floating point or complex tensor as input. Got {}",
            x.dtype().c10_name()
        ));
    }
    let shape = x.shape();
    let (m, n) = (shape[shape.len() - 2], shape[shape.len() - 1]);
    let k = m.min(n);
    let batch: Vec<usize> = shape[..shape.len() - 2].to_vec();
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
