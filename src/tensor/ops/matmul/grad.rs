//! Autograd rules for the matmul family.
use crate::tensor::autograd::record;
use crate::tensor::autograd::util::{mul, when};
use crate::tensor::error::Result;
use crate::tensor::ops::matmul::{bmm, mm, mv};
use crate::tensor::Tensor;

/// Whether a matrix is column-major (a transposed contiguous one, as `w.t()` in `F.linear`):
/// `strides[0] == 1 && strides[1] == sizes[0]`, the test of ATen's `mm_mat1_backward` /
/// `mm_mat2_backward`.
pub(crate) fn column_major(t: &Tensor) -> bool {
    t.ndim() == 2 && t.strides()[0] == 1 && t.strides()[1] == t.shape()[0]
}

/// ATen's `mm_mat1_backward`: the gradient of `mat1` in `mat1 @ mat2` from `g`, column-major
/// (`(mat2 @ g.t()).t()`) when `mat1` was, so a gradient has its input's layout.
pub(crate) fn mm_mat1_backward(
    g: &Tensor,
    mat2: &Tensor,
    mat1_column_major: bool,
) -> Result<Tensor> {
    if mat1_column_major {
        mm(mat2, &g.t()?)?.t()
    } else {
        mm(g, &mat2.t()?)
    }
}

/// ATen's `mm_mat2_backward`: the gradient of `mat2` from `g`, column-major
/// (`(g.t() @ mat1).t()`) when `mat2` was: `F.linear`'s `w.t()`, so `w.grad` is contiguous
/// like `w`, as in PyTorch.
pub(crate) fn mm_mat2_backward(
    g: &Tensor,
    mat1: &Tensor,
    mat2_column_major: bool,
) -> Result<Tensor> {
    if mat2_column_major {
        mm(&g.t()?, mat1)?.t()
    } else {
        mm(&mat1.t()?, g)
    }
}

pub(super) fn record_mm(a: &Tensor, b: &Tensor, out: &Tensor) -> crate::tensor::Result<()> {
    let (na, nb) = (a.requires_grad(), b.requires_grad());
    let (a_cm, b_cm) = (column_major(a), column_major(b));
    record(
        "MmBackward0",
        &[a, b],
        out,
        &[nb.then_some(a), na.then_some(b)],
        move |g, c| {
            Ok(vec![
                when(c.needs(0), || mm_mat1_backward(g, c.saved(1), a_cm))?,
                when(c.needs(1), || mm_mat2_backward(g, c.saved(0), b_cm))?,
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
