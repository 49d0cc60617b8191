//! Autograd rules for the matmul family.
use crate::tensor::autograd::record;
use crate::tensor::autograd::util::{mul, when};
use crate::tensor::ops::matmul::{bmm, mm, mv};
use crate::tensor::Tensor;

pub(super) fn record_mm(a: &Tensor, b: &Tensor, out: &Tensor) -> crate::tensor::Result<()> {
    let (na, nb) = (a.requires_grad(), b.requires_grad());
    record(
        "MmBackward0",
        &[a, b],
        out,
        &[nb.then_some(a), na.then_some(b)],
        |g, c| {
            Ok(vec![
                when(c.needs(0), || mm(g, &c.saved(1).t()?))?,
                when(c.needs(1), || mm(&c.saved(0).t()?, g))?,
            ])
        },
    )?;
    Ok(())
}

pub(super) fn record_bmm(a: &Tensor, b: &Tensor, out: &Tensor) -> crate::tensor::Result<()> {
    let (na, nb) = (a.requires_grad(), b.requires_grad());
    record(
        "BmmBackward0",
        &[a, b],
        out,
        &[nb.then_some(a), na.then_some(b)],
        |g, c| {
            Ok(vec![
                when(c.needs(0), || bmm(g, &c.saved(1).transpose(1, 2)?))?,
                when(c.needs(1), || bmm(&c.saved(0).transpose(1, 2)?, g))?,
            ])
        },
    )?;
    Ok(())
}

pub(super) fn record_mv(m: &Tensor, v: &Tensor, out: &Tensor) -> crate::tensor::Result<()> {
    let (nm, nv) = (m.requires_grad(), v.requires_grad());
    record(
        "MvBackward0",
        &[m, v],
        out,
        &[nv.then_some(m), nm.then_some(v)],
        |g, c| {
            Ok(vec![
                // the outer product g ⊗ v
                when(c.needs(0), || {
                    mul(&g.unsqueeze(1)?, &c.saved(1).unsqueeze(0)?)
                })?,
                when(c.needs(1), || mv(&c.saved(0).t()?, g))?,
            ])
        },
    )?;
    Ok(())
}

pub(super) fn record_dot(a: &Tensor, b: &Tensor, out: &Tensor) -> crate::tensor::Result<()> {
    let (na, nb) = (a.requires_grad(), b.requires_grad());
    record(
        "DotBackward0",
        &[a, b],
        out,
        &[nb.then_some(a), na.then_some(b)],
        |g, c| {
            Ok(vec![
                when(c.needs(0), || mul(g, c.saved(1)))?,
                when(c.needs(1), || mul(g, c.saved(0)))?,
            ])
        },
    )?;
    Ok(())
}
