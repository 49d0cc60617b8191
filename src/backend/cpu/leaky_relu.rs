//! `F.leaky_relu` and its backward in one float32 pass: `v` where `x > 0`, else `v * slope`
//! with the slope rounded to float first, as ATen's kernels compute both (`v = x` forward,
//! `v` the incoming gradient backward). The three ops it replaces (a comparison, a scaled copy
//! and `where`) read and wrote 1e6 floats four times over.
use super::elementwise::drive_grain;
use super::iter::PAR_THRESHOLD;
use super::{tensor_of, Owned, View};
use crate::backend::storage::Buffer;
use crate::core::error::Result;
use crate::core::DType;

/// `Backend::leaky_relu` on the CPU: contiguous float32 operands of one shape; `None` for
/// anything else.
pub fn leaky_relu(x: &View, v: &View, slope: f64) -> Result<Option<Owned>> {
    if x.dtype() != DType::F32
        || v.dtype() != DType::F32
        || x.shape() != v.shape()
        || !x.is_contiguous()
        || !v.is_contiguous()
    {
        return Ok(None);
    }
    let n = x.numel();
    let (xb, vb) = (x.storage().borrow(), v.storage().borrow());
    let (Buffer::F32(xv), Buffer::F32(vv)) = (&*xb, &*vb) else {
        return Ok(None);
    };
    let (xs, vs) = (
        &xv[x.offset()..x.offset() + n],
        &vv[v.offset()..v.offset() + n],
    );
    let s = slope as f32;
    let mut out = crate::backend::storage::output_vec::<f32>(n)?;
    drive_grain(&mut out, PAR_THRESHOLD, |start, o| {
        let (x, v, s) = (&xs[start..start + o.len()], &vs[start..start + o.len()], s);
        // both sides computed and one selected: a blend the compiler vectorises, where a
        // branch on random signs mispredicted every other element
        for ((o, &x), &v) in o.iter_mut().zip(x).zip(v) {
            let scaled = v * s;
            *o = if x > 0.0 { v } else { scaled };
        }
    });
    Ok(Some(tensor_of(Buffer::F32(out), x.shape(), x.device())?))
}
