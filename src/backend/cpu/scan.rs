//! `cumsum`/`cumprod` of a contiguous float32 or float64 tensor along one dim, as ATen's
//! `cpu_cum_base_kernel` computes them: each line along the dim one running value in double
//! (`acc_type<float>` on the CPU is double), every partial result stored rounded. The lines
//! of a slab (the dims after the scanned one) advance side by side, one per vector lane, each
//! in its own order; slabs are split over the team.
use super::iter::PAR_THRESHOLD;
use super::{team, tensor_of, Owned, View};
use crate::backend::storage::{output_vec, Buffer, Element};
use crate::core::error::Result;

/// The scan of `x` along `dim` (a product if `prod`); `None` for other dtypes or layouts.
pub fn scan(x: &View, dim: usize, prod: bool) -> Result<Option<Owned>> {
    if !x.is_contiguous() || dim >= x.ndim() {
        return Ok(None);
    }
    let (n, inner) = (
        x.shape()[dim],
        x.shape()[dim + 1..].iter().product::<usize>(),
    );
    let b = x.storage().borrow();
    let range = x.offset()..x.offset() + x.numel();
    let buf = match &*b {
        Buffer::F32(v) => Buffer::F32(scan_typed(&v[range], n, inner, prod)?),
        Buffer::F64(v) => Buffer::F64(scan_typed(&v[range], n, inner, prod)?),
        _ => return Ok(None),
    };
    tensor_of(buf, x.shape(), x.device()).map(Some)
}

/// Lines advanced together: a few vectors of doubles.
const BLOCK: usize = 32;

fn scan_typed<E: Element>(xs: &[E], n: usize, inner: usize, prod: bool) -> Result<Vec<E>> {
    let mut out = output_vec::<E>(xs.len())?;
    let slab = n * inner;
    if slab == 0 {
        return Ok(out);
    }
    let slabs = xs.len() / slab;
    let parts = team::parts_for(xs.len(), PAR_THRESHOLD).min(slabs);
    let init = if prod { 1.0 } else { 0.0 };
    // the running value after element `e`, stored rounded into `r`
    let step = |a: &mut f64, e: &E, r: &mut E| {
        *a = if prod {
            *a * e.to_f64()
        } else {
            *a + e.to_f64()
        };
        *r = E::from_f64(*a);
    };
    team::for_pieces(&mut out, parts, slab, &|start, piece| {
        let slabs = piece.chunks_exact_mut(slab);
        for (o, x) in slabs.zip(xs[start..].chunks_exact(slab)) {
            if inner == 1 {
                // one line: a plain chain, without the block's slicing per element
                let mut a = init;
                o.iter_mut().zip(x).for_each(|(r, e)| step(&mut a, e, r));
                continue;
            }
            for j in (0..inner).step_by(BLOCK) {
                let w = BLOCK.min(inner - j);
                let mut acc = [init; BLOCK];
                for k in 0..n {
                    let at = k * inner + j;
                    let lines = acc.iter_mut().zip(&x[at..at + w]).zip(&mut o[at..at + w]);
                    lines.for_each(|((a, e), r)| step(a, e, r));
                }
            }
        }
    });
    Ok(out)
}
