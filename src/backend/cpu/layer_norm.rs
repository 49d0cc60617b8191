//! `F.layer_norm` over the trailing `inner` elements of a contiguous float32 tensor, a row at
//! a time over the team (`Backend::layer_norm_rows`): each row's mean, then its variance about
//! it, summed in float32 lanes (the second pass finds the row in L1; ATen runs a float Welford
//! cascade instead, so the last bits can differ), `rstd = 1 / sqrt(var + eps)` rounded as ATen
//! rounds it, and the normalised row `(x - mean) * rstd` in float32, then `xhat * weight + bias`
//! rounded once, as PyTorch 2.15's kernel computes them (checked bit for bit given its mean and
//! rstd). The backward's input gradient
//! (`Backend::layer_norm_backward_rows`) takes the same rows:
//! `rstd * (gw - mean(gw) - xhat * mean(gw * xhat))`, `gw = g * weight`, in float32 (its sums
//! in 16 lanes, as ATen's vectorised ones).
use super::iter::PAR_THRESHOLD;
use super::{team, tensor_of, NormGrads, Normed, View};
use crate::backend::storage::{output_vec, Buffer};
use crate::core::error::Result;
use crate::core::DType;
use std::sync::Mutex;

simd_build! {
    /// `Σ x` (`square`: `Σ (x - shift)²`) in float32 over 16 lanes, ATen's accumulator type.
    fn lane_sum<>(x: &[f32], shift: f32, square: bool) -> f32 {
        let f = |v: f32| if square { (v - shift) * (v - shift) } else { v };
        let mut s = [0f32; 16];
        let (chunks, tail) = x.as_chunks::<16>();
        for c in chunks {
            for l in 0..16 {
                s[l] += f(c[l]);
            }
        }
        s.iter().sum::<f32>() + tail.iter().map(|&v| f(v)).sum::<f32>()
    }
}

simd_build! {
    /// `out[j] = (x[j] - mean) * rstd`.
    fn normalize<>(x: &[f32], mean: f32, rstd: f32, out: &mut [f32]) {
        for (o, &v) in out.iter_mut().zip(x) {
            *o = (v - mean) * rstd;
        }
    }
}

simd_build! {
    /// `y[j] = xhat[j] * w[j] + b[j]`, rounded once (`mul_add`).
    fn fma_affine<>(xhat: &[f32], w: &[f32], b: &[f32], y: &mut [f32]) {
        for (((y, &x), &w), &b) in y.iter_mut().zip(xhat).zip(w).zip(b) {
            *y = x.mul_add(w, b);
        }
    }
}

simd_build! {
    /// One row of the input gradient, in float32 as ATen's backward kernel sums (16 lanes).
    fn row_dx<>(g: &[f32], xhat: &[f32], w: Option<&[f32]>, rstd: f32, out: &mut [f32]) {
        let n = g.len();
        let (xhat, out) = (&xhat[..n], &mut out[..n]);
        let (mut s1, mut s2) = ([0f32; 16], [0f32; 16]);
        let (gc, gt) = g.as_chunks::<16>();
        let (xc, xt) = xhat.as_chunks::<16>();
        let (mut t1, mut t2) = (0f32, 0f32);
        match w {
            Some(w) => {
                let (wc, wt) = w[..n].as_chunks::<16>();
                for ((gv, wv), xv) in gc.iter().zip(wc).zip(xc) {
                    for l in 0..16 {
                        let v = gv[l] * wv[l];
                        s1[l] += v;
                        s2[l] += v * xv[l];
                    }
                }
                for ((&g, &w), &x) in gt.iter().zip(wt).zip(xt) {
                    t1 += g * w;
                    t2 += g * w * x;
                }
            }
            None => {
                for (gv, xv) in gc.iter().zip(xc) {
                    for l in 0..16 {
                        s1[l] += gv[l];
                        s2[l] += gv[l] * xv[l];
                    }
                }
                for (&g, &x) in gt.iter().zip(xt) {
                    t1 += g;
                    t2 += g * x;
                }
            }
        }
        let t1 = s1.iter().sum::<f32>() + t1;
        let t2 = s2.iter().sum::<f32>() + t2;
        let (m1, m2) = (t1 / n as f32, t2 / n as f32);
        match w {
            Some(w) => {
                for (((o, &g), &w), &x) in out.iter_mut().zip(g).zip(&w[..n]).zip(xhat) {
                    *o = rstd * (g * w - m1 - x * m2);
                }
            }
            None => {
                for ((o, &g), &x) in out.iter_mut().zip(g).zip(xhat) {
                    *o = rstd * (g - m1 - x * m2);
                }
            }
        }
    }
}

simd_build! {
    /// `dw += g * xhat`, `db += g`, elementwise along a row.
    fn column_sums<>(g: &[f32], xhat: &[f32], dw: &mut [f32], db: &mut [f32]) {
        for (((w, b), &g), &x) in dw.iter_mut().zip(db.iter_mut()).zip(g).zip(xhat) {
            *w += g * x;
            *b += g;
        }
    }
}

/// A row's outputs: its normalised elements, its affine ones (empty without), its mean and rstd.
type RowOut<'a> = (&'a mut [f32], &'a mut [f32], &'a mut (f32, f32));

/// A part's column sums of `g * xhat` and `g`, with the part's first element.
type ColumnSums = (usize, Vec<f32>, Vec<f32>);

/// A contiguous float32 operand's elements, else `None`.
fn f32s<'a>(b: &'a Buffer, x: &View) -> Option<&'a [f32]> {
    match b {
        Buffer::F32(v) if x.is_contiguous() => Some(&v[x.offset()..x.offset() + x.numel()]),
        _ => None,
    }
}

/// Rows of `inner` per part of the team: at least `PAR_THRESHOLD` elements each.
fn parts(numel: usize, rows: usize) -> usize {
    team::parts_for(numel, PAR_THRESHOLD).min(rows).max(1)
}

/// The normalised rows of `x` (its shape), with `affine` also `xhat * w + b`, each row's mean
/// and rstd (`[rows]`); `None` unless `x` (and the affine operands, `[inner]`) are contiguous
/// float32 with whole rows of `inner > 0`.
pub fn layer_norm_rows(
    x: &View,
    inner: usize,
    affine: Option<(View, View)>,
    eps: f64,
) -> Result<Option<Normed>> {
    if x.dtype() != DType::F32 || inner == 0 || !x.numel().is_multiple_of(inner) {
        return Ok(None);
    }
    let b = x.storage().borrow();
    let Some(xs) = f32s(&b, x) else {
        return Ok(None);
    };
    let held = affine
        .as_ref()
        .map(|(w, b)| (w.storage().borrow(), b.storage().borrow()));
    let wb = match (&affine, &held) {
        (Some((w, b)), Some((bw, bb))) => match (f32s(bw, w), f32s(bb, b)) {
            (Some(w), Some(b)) if w.len() == inner && b.len() == inner => Some((w, b)),
            _ => return Ok(None),
        },
        _ => None,
    };
    let rows = xs.len() / inner;
    let mut xhat = output_vec::<f32>(xs.len())?;
    let mut y = match wb {
        Some(_) => output_vec::<f32>(xs.len())?,
        None => Vec::new(),
    };
    let mut stats = vec![(0f32, 0f32); rows];
    {
        // empty rows of `y` without the affine (`chunks_mut` of an empty vector is empty)
        let mut y_rows = y.chunks_mut(inner);
        let mut work: Vec<RowOut> = xhat
            .chunks_mut(inner)
            .zip(stats.iter_mut())
            .map(|(xh, st)| (xh, y_rows.next().unwrap_or_default(), st))
            .collect();
        team::for_pieces(&mut work, parts(xs.len(), rows), 1, &|start, piece| {
            for (r, (xh, y, stat)) in piece.iter_mut().enumerate() {
                let row = &xs[(start + r) * inner..(start + r + 1) * inner];
                // two passes (the row is in L1 for the second): the variance of the
                // deviations, which does not cancel as `E[x²] - E[x]²` can
                let n = inner as f32;
                let mean = lane_sum(row, 0.0, false) / n;
                let var = lane_sum(row, mean, true) / n;
                // ATen: `1 / sqrt(var + eps)` in double (eps is a double), stored as float
                let rstd = (1.0 / (var as f64 + eps).sqrt()) as f32;
                normalize(row, mean, rstd, xh);
                if let Some((w, b)) = wb {
                    fma_affine(xh, w, b, y);
                }
                **stat = (mean, rstd);
            }
        });
    }
    let (mean, rstd): (Vec<f32>, Vec<f32>) = stats.into_iter().unzip();
    let dev = x.device();
    let y = match wb {
        Some(_) => Some(tensor_of(Buffer::F32(y), x.shape(), dev)?),
        None => None,
    };
    Ok(Some((
        tensor_of(Buffer::F32(xhat), x.shape(), dev)?,
        y,
        tensor_of(Buffer::F32(mean), &[rows], dev)?,
        tensor_of(Buffer::F32(rstd), &[rows], dev)?,
    )))
}

/// The input gradient of a layer norm from the incoming gradient `g`, the normalised rows
/// `xhat` (one shape), the weight (`[inner]`) if any and each row's `rstd`, and with `params`
/// the column sums of `g * xhat` and `g` (each part of the team sums its rows, in order, and
/// the parts are added in order); `None` unless all are contiguous float32.
pub fn layer_norm_backward_rows(
    g: &View,
    xhat: &View,
    w: Option<&View>,
    rstd: &View,
    params: bool,
) -> Result<Option<NormGrads>> {
    let (bg, bx, br) = (
        g.storage().borrow(),
        xhat.storage().borrow(),
        rstd.storage().borrow(),
    );
    let bw = w.map(|w| w.storage().borrow());
    let (Some(gs), Some(xs), Some(rs)) = (f32s(&bg, g), f32s(&bx, xhat), f32s(&br, rstd)) else {
        return Ok(None);
    };
    let ws = match (w, &bw) {
        (Some(w), Some(b)) => match f32s(b, w) {
            Some(ws) => Some(ws),
            None => return Ok(None),
        },
        _ => None,
    };
    let rows = rs.len();
    if rows == 0 || gs.len() != xs.len() || !xs.len().is_multiple_of(rows) {
        return Ok(None);
    }
    let inner = xs.len() / rows;
    if ws.is_some_and(|w| w.len() != inner) {
        return Ok(None);
    }
    let mut dx = output_vec::<f32>(xs.len())?;
    let partial: Mutex<Vec<ColumnSums>> = Mutex::new(Vec::new());
    team::for_pieces(&mut dx, parts(xs.len(), rows), inner, &|start, piece| {
        let (mut dw, mut db) = (
            vec![0f32; inner * params as usize],
            vec![0f32; inner * params as usize],
        );
        for (r, out) in piece.chunks_mut(inner).enumerate() {
            let at = start + r * inner;
            let (gr, xr) = (&gs[at..at + inner], &xs[at..at + inner]);
            row_dx(gr, xr, ws, rs[at / inner], out);
            if params {
                column_sums(gr, xr, &mut dw, &mut db);
            }
        }
        if let Ok(mut p) = partial.lock() {
            p.push((start, dw, db));
        }
    });
    let dev = xhat.device();
    let dx = tensor_of(Buffer::F32(dx), xhat.shape(), dev)?;
    if !params {
        return Ok(Some((dx, None)));
    }
    let mut partial = partial.into_inner().unwrap_or_default();
    partial.sort_by_key(|p| p.0);
    let (mut dw, mut db) = (vec![0f32; inner], vec![0f32; inner]);
    for (_, pw, pb) in &partial {
        dw.iter_mut().zip(pw).for_each(|(a, b)| *a += b);
        db.iter_mut().zip(pb).for_each(|(a, b)| *a += b);
    }
    let (dw, db) = (
        tensor_of(Buffer::F32(dw), &[inner], dev)?,
        tensor_of(Buffer::F32(db), &[inner], dev)?,
    );
    Ok(Some((dx, Some((dw, db)))))
}
