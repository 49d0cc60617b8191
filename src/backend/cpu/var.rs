//! The float32 variance and standard deviation over the leading and trailing dims of a
//! contiguous tensor (all of it, its last dims, or BatchNorm's all but the channels), in
//! double as ATen computes them: the sum of squared deviations from the mean, divided by
//! `n - correction`, the square root for `std`, and one rounding to float32. Over everything, ATen's `std_var_all_cpu` takes the deviations from
//! the float32 `mean()` (the caller passes it: with a large mean its rounding moves the
//! variance's last bits); over a dim, its Welford recurrence keeps the mean in double, as
//! `sum / n` here does. The double sums' order is not ATen's, which moves them by about 1e-16
//! relative, far below float32's rounding.
use super::iter::PAR_THRESHOLD;
use super::{f32_slices, team, tensor_of, Owned, View};
use crate::backend::storage::{output_vec, Buffer};
use crate::core::error::Result;

/// `var` (or `std`) of each group of a contiguous float32 `x` seen as `[outer, kept, len]`,
/// reduced over `outer` and `len` (BatchNorm's `(0, 2, 3)` of NCHW; `outer = 1`: each row of
/// `len`), shaped `shape`; the deviations taken from `mean` when given (one group) and from
/// each group's double mean otherwise; `None` for other operands.
pub fn var_rows(
    x: &View,
    [outer, len]: [usize; 2],
    correction: f64,
    std: bool,
    mean: Option<f64>,
    shape: &[usize],
) -> Result<Option<Owned>> {
    let run = outer * len;
    if run == 0 || !x.numel().is_multiple_of(run) {
        return Ok(None);
    }
    f32_slices([x], |[xs]| {
        var_groups(xs, [outer, len], (correction, std, mean))
    })?
    .map(|out| tensor_of(Buffer::F32(out), shape, x.device()))
    .transpose()
}

/// `var_rows` on the elements `xs` (`how`: the correction, `std`, the given mean).
fn var_groups(
    xs: &[f32],
    [outer, len]: [usize; 2],
    (correction, std, mean): (f64, bool, Option<f64>),
) -> Result<Vec<f32>> {
    let run = outer * len;
    let kept = xs.len() / run;
    let finish = |sq: f64| {
        let v = sq / (run as f64 - correction).max(0.0);
        (if std { v.sqrt() } else { v }) as f32
    };
    let mut out = output_vec::<f32>(kept)?;
    if kept == 1 {
        // one group, all of `x`: each pass split over the team
        let m = match mean {
            Some(m) => m,
            None => split_sum(xs, sum) / run as f64,
        };
        out[0] = finish(split_sum(xs, |c| squared_deviations(c, m)));
    } else {
        // group `c`'s runs of `len`, one per outer index
        let runs = |c: usize| (0..outer).map(move |a| &xs[(a * kept + c) * len..][..len]);
        let parts = team::parts_for(xs.len(), PAR_THRESHOLD).min(kept);
        team::for_pieces(&mut out, parts, 1, &|start, piece| {
            for (k, o) in piece.iter_mut().enumerate() {
                let c = start + k;
                let m = runs(c).map(sum).sum::<f64>() / run as f64;
                *o = finish(runs(c).map(|r| squared_deviations(r, m)).sum());
            }
        });
    }
    Ok(out)
}

/// `f` of `xs` in one chunk per thread, the chunks' results added.
fn split_sum(xs: &[f32], f: impl Fn(&[f32]) -> f64 + Sync) -> f64 {
    let parts = team::parts_for(xs.len(), PAR_THRESHOLD);
    let chunk = xs.len().div_ceil(parts);
    let mut partial = vec![0f64; parts];
    team::for_pieces(&mut partial, parts, 1, &|start, piece| {
        for (k, p) in piece.iter_mut().enumerate() {
            let at = (start + k) * chunk;
            *p = f(&xs[at..(at + chunk).min(xs.len())]);
        }
    });
    partial.iter().sum()
}

/// `Σ x` in double.
fn sum(xs: &[f32]) -> f64 {
    lane_sum(xs, &|v| v)
}

/// `Σ (x - m)²` in double.
fn squared_deviations(xs: &[f32], m: f64) -> f64 {
    lane_sum(xs, &|v| (v - m) * (v - m))
}

simd_build! {
    /// `Σ f(x)` over `xs` widened to double, eight running sums side by side (one dependency
    /// chain stalls on each add's latency).
    fn lane_sum<>(xs: &[f32], f: &impl Fn(f64) -> f64) -> f64 {
        let mut acc = [0f64; 8];
        let chunks = xs.chunks_exact(8);
        let rest = chunks.remainder();
        for c in chunks {
            for (a, &v) in acc.iter_mut().zip(c) {
                *a += f(f64::from(v));
            }
        }
        acc.iter().sum::<f64>() + rest.iter().map(|&v| f(f64::from(v))).sum::<f64>()
    }
}
