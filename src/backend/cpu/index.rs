//! Advanced-indexing kernels: copy sub-tensors from (gather) or to (scatter) a list of base
//! offsets in a storage.
use super::elementwise::{update, Src};
use super::iter::PAR_THRESHOLD;
use super::iter::{coalesce, for_rows};
use super::team;
use super::{tensor_of, typed, CPU};
use crate::backend::storage::{output_vec, Element};
use crate::backend::Backend;
use crate::backend::{Owned, View};
use crate::core::error::Result;
use crate::core::shape::{contiguous_strides, numel, Dims};
use crate::with_buffer;

pub fn gather(src: &View, bases: &[usize], shape: &[usize], strides: &[usize]) -> Result<Owned> {
    let inner = numel(shape);
    let (cs, st) = coalesce(shape, [strides]);
    let step = st[0].last().copied().unwrap_or(0);
    let b = src.storage().borrow();
    let buf = with_buffer!(&*b, v, T => {
        let mut out = output_vec::<T>(bases.len() * inner)?;
        if inner == 1 {
            // one element a base (`torch.gather`, a mask's picks)
            for (o, &base) in out.iter_mut().zip(bases) {
                *o = v[base];
            }
        } else if inner > 1 {
            // whole sub-tensors a part (a row lookup's rows copied as slices)
            let parts = team::parts_for(out.len(), PAR_THRESHOLD).min(bases.len());
            team::for_pieces(&mut out, parts, inner, &|start, part| {
                for (k, o) in part.chunks_exact_mut(inner).enumerate() {
                    let base = bases[start / inner + k];
                    for_rows(&cs, &st, [base], 0, inner, |pos, len, [off]| {
                        let o = &mut o[pos..pos + len];
                        if step == 1 {
                            o.copy_from_slice(&v[off..off + len]);
                        } else {
                            for (i, o) in o.iter_mut().enumerate() {
                                *o = v[off + i * step];
                            }
                        }
                    });
                }
            });
        }
        <T as Element>::wrap(out)
    });
    let mut out_shape = Dims::from_slice(&[bases.len()]);
    for &s in shape {
        out_shape.push(s);
    }
    tensor_of(buf, &out_shape, src.device())
}

pub fn scatter(
    dst: &View,
    bases: &[usize],
    shape: &[usize],
    strides: &[usize],
    values: &View,
) -> Result<()> {
    let inner = numel(shape);
    let copy = (!values.is_contiguous())
        .then(|| CPU.contiguous_copy(*values))
        .transpose()?;
    let vals = copy.as_ref().map_or(*values, Owned::view);
    let vst = contiguous_strides(shape);
    let vb = vals.storage().borrow();
    let mut db = dst.storage().borrow_mut();
    with_buffer!(&mut *db, dv, T => {
        let sv = typed::<T>(&vb)?;
        for (p, &base) in bases.iter().enumerate() {
            let s = Src { data: sv, offset: vals.offset() + p * inner, strides: &vst };
            update(dv, base, strides, shape, s, |_, x| x);
        }
    });
    Ok(())
}
