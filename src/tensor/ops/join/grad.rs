//! Autograd rules for `cat`, `stack` and `where`.
use super::{where_, TensorOrScalar};
use crate::tensor::autograd::node::record_padded;
use crate::tensor::autograd::record;
use crate::tensor::shape::wrap_dim;
use crate::tensor::{Scalar, Tensor};

pub(super) fn record_cat(ts: &[&Tensor], dim: i64, out: &Tensor) -> crate::tensor::Result<()> {
    // the part of the result each input filled (legacy-skipped empty 1-D inputs fill none)
    let skip = |t: &Tensor| t.ndim() == 1 && t.numel() == 0;
    let d = match ts.iter().find(|t| !skip(t)) {
        Some(first) => match wrap_dim(dim, first.ndim()) {
            Ok(d) => d,
            Err(_) => return Ok(()),
        },
        None => return Ok(()),
    };
    let lens: Vec<Option<usize>> = ts
        .iter()
        .map(|t| if skip(t) { None } else { Some(t.shape()[d]) })
        .collect();
    record("CatBackward0", ts, out, &[], move |g, c| {
        let mut at = 0usize;
        let mut r = Vec::with_capacity(lens.len());
        for (i, l) in lens.iter().enumerate() {
            match l {
                None => r.push(None),
                Some(l) => {
                    r.push(if c.needs(i) {
                        Some(g.narrow(d as i64, at as i64, *l as i64)?)
                    } else {
                        None
                    });
                    at += l;
                }
            }
        }
        Ok(r)
    })?;
    Ok(())
}

pub(super) fn record_stack(ts: &[&Tensor], d: usize, out: &Tensor) -> crate::tensor::Result<()> {
    let n = ts.len();
    record("StackBackward0", ts, out, &[], move |g, c| {
        (0..n)
            .map(|i| {
                if c.needs(i) {
                    g.select(d as i64, i as i64).map(Some)
                } else {
                    Ok(None)
                }
            })
            .collect()
    })?;
    Ok(())
}

pub(super) fn record_where(
    cond: &Tensor,
    a: &TensorOrScalar,
    b: &TensorOrScalar,
    out: &Tensor,
) -> crate::tensor::Result<()> {
    let zero = || TensorOrScalar::Scalar(Scalar::Int(0));
    let cond = cond.clone();
    let mut ins = vec![];
    let mut which = vec![];
    for (k, x) in [a, b].into_iter().enumerate() {
        if let TensorOrScalar::Tensor(t) = x {
            ins.push(t);
            which.push(k);
        }
    }
    let pad = 2 - ins.len();
    // the condition is a plain bool tensor, captured by value
    record_padded(
        "WhereBackward0",
        &ins,
        pad,
        out,
        &[],
        Box::new(move |g, c| {
            let gt = || TensorOrScalar::Tensor(g.clone());
            which
                .iter()
                .enumerate()
                .map(|(i, &k)| {
                    if !c.needs(i) {
                        return Ok(None);
                    }
                    let r = if k == 0 {
                        where_(&cond, &gt(), &zero())?
                    } else {
                        where_(&cond, &zero(), &gt())?
                    };
                    Ok(Some(r))
                })
                .collect()
        }),
    )?;
    Ok(())
}
