//! `F.leaky_relu` and its backward in one float32 pass: `v` where `x > 0`, else `v * slope`
//! with the slope rounded to float first, as ATen's kernels compute both (`v = x` forward,
//! `v` the incoming gradient backward). The three ops it replaces (a comparison, a scaled copy
//! and `where`) read and wrote 1e6 floats four times over.
use super::elementwise::drive_grain;
use super::iter::PAR_THRESHOLD;
use super::{f32_operands, Owned, View};
use crate::core::error::Result;

/// `Backend::leaky_relu` on the CPU: contiguous float32 operands of one shape; `None` for
/// anything else.
pub fn leaky_relu(x: &View, v: &View, slope: f64) -> Result<Option<Owned>> {
    f32_operands([x, v], |[xs, vs]| {
        let s = slope as f32;
        let mut out = crate::backend::storage::output_vec::<f32>(xs.len())?;
        drive_grain(&mut out, PAR_THRESHOLD, |start, o| {
            select(
                o,
                &xs[start..start + o.len()],
                &vs[start..start + o.len()],
                s,
            )
        });
        Ok(out)
    })
}

simd_build! {
    /// `o = x > 0 ? v : v * s`, both sides computed and one selected: a blend, where a branch
    /// on random signs mispredicted every other element.
    fn select<>(o: &mut [f32], x: &[f32], v: &[f32], s: f32) {
        for ((o, &x), &v) in o.iter_mut().zip(x).zip(v) {
            let scaled = v * s;
            *o = if x > 0.0 { v } else { scaled };
        }
    }
}
