//! In-place ops on views of tensors in a graph: after `v = y[0]; v.mul_(10)`, `y` changed too,
//! so `y`'s history becomes PyTorch's `CopySlices` (the gradient outside the view goes to `y`'s
//! old history, inside it through the in-place op) and `v` reads the new `y`
//! (`AsStridedBackward0`). One level of view is followed (a view of a view rewrites only its
//! direct base).
use super::node::record;
use crate::tensor::error::Result;
use crate::tensor::{Scalar, Tensor};

/// Called after an in-place op gave `dst` its new history.
pub fn rebase(dst: &Tensor) -> Result<()> {
    let Some((base, take)) = dst.view_of() else {
        return Ok(());
    };
    if !base.requires_grad() || base.grad_fn().is_none() || !super::mode::is_enabled() {
        return Ok(());
    }
    // a stand-in carrying the base's old history (no data is saved)
    let old = base.detach();
    old.set_requires_grad(true);
    old.set_grad_edge(base.grad_edge());
    let t1 = take.clone();
    record("CopySlices", &[&old, dst], &base, &[], move |g, _| {
        let gb = g.clone_tensor()?;
        let region = t1(&gb)?;
        let gv = region.clone_tensor()?;
        crate::tensor::ops::inplace::fill_(&region, Scalar::Int(0))?;
        Ok(vec![Some(gb), Some(gv)])
    })?;
    let shape: Vec<i64> = base.shape().iter().map(|&s| s as i64).collect();
    let (dtype, device) = (base.dtype(), base.device());
    record("AsStridedBackward0", &[&base], dst, &[], move |g, _| {
        let z = crate::tensor::create::zeros(&shape, Some(dtype), device)?;
        crate::tensor::ops::inplace::copy_(&take(&z)?, g)?;
        Ok(vec![Some(z)])
    })?;
    Ok(())
}
