//! The view ops as users call them: the layout change of `shape_ops.rs`, then the autograd
//! node PyTorch records for it (`ViewBackward0`, `TransposeBackward0`, `SelectBackward0`, ...).
use crate::tensor::autograd::{is_recording1, record};
use crate::tensor::error::Result;
use crate::tensor::shape::view_strides;
use crate::tensor::Tensor;

/// Backward of a op that only changes the shape: reshape the gradient back.
fn record_reshape(name: &'static str, x: &Tensor, out: &Tensor) -> crate::tensor::Result<()> {
    let shape = x.shape().to_vec();
    record(name, &[x], out, &[], move |g, _| {
        Ok(vec![Some(g.reshape_to(&shape)?)])
    })?;
    Ok(())
}

pub(super) fn record_transpose(
    name: &'static str,
    x: &Tensor,
    out: &Tensor,
    a: i64,
    b: i64,
) -> crate::tensor::Result<()> {
    let nd = x.ndim();
    record(name, &[x], out, &[], move |g, _| {
        Ok(vec![Some(if nd < 2 {
            g.clone()
        } else {
            g.transpose(a, b)?
        })])
    })?;
    Ok(())
}

/// Backward of a view into part of `x` (select, narrow): the gradient placed into zeros.
fn record_part(
    name: &'static str,
    x: &Tensor,
    out: &Tensor,
    take: impl Fn(&Tensor) -> Result<Tensor> + 'static,
) -> crate::tensor::Result<()> {
    let shape: Vec<i64> = x.shape().iter().map(|&s| s as i64).collect();
    let dtype = x.dtype();
    let device = x.device();
    let take = std::rc::Rc::new(take);
    let t1 = take.clone();
    record(name, &[x], out, &[], move |g, _| {
        let z = crate::tensor::create::zeros(&shape, Some(dtype), device)?;
        crate::tensor::ops::inplace::copy_(&t1(&z)?, g)?;
        Ok(vec![Some(z)])
    })?;
    // an in-place op on `out` must rewrite `x`'s history (`crate::tensor::autograd::views`)
    out.set_view_of(x, take);
    Ok(())
}

/// A view made under `no_grad` of a tensor that requires grad still requires grad, with no
/// `grad_fn` (PyTorch's views share their base's autograd flag); copies do not.
pub(crate) fn keep_view_grad(base: &Tensor, out: &Tensor) {
    if base.requires_grad()
        && !out.requires_grad()
        && !crate::tensor::autograd::mode::is_enabled()
        && out.same_storage(base)
    {
        out.set_requires_grad(true);
    }
}

impl Tensor {
    /// `t.view(*shape)`.
    pub fn view(&self, shape: &[i64]) -> Result<Tensor> {
        let out = self.view_raw(shape)?;
        if is_recording1(self) {
            record_reshape("ViewBackward0", self, &out)?;
        }
        keep_view_grad(self, &out);
        Ok(out)
    }

    /// `t.reshape(*shape)`: a view when the layout allows (`ViewBackward0`), else a copy
    /// (`UnsafeViewBackward0` over `CloneBackward0`, as PyTorch records it).
    pub fn reshape(&self, shape: &[i64]) -> Result<Tensor> {
        if !is_recording1(self) {
            let out = self.reshape_raw(shape)?;
            keep_view_grad(self, &out);
            return Ok(out);
        }
        let new_shape = crate::tensor::shape::infer_shape(shape, self.numel())?;
        if view_strides(self.shape(), self.strides(), &new_shape).is_some() {
            return self.view(shape);
        }
        let c = self.contiguous()?;
        let out = c.view_raw(shape)?;
        record_reshape("UnsafeViewBackward0", &c, &out)?;
        keep_view_grad(self, &out);
        Ok(out)
    }

    /// A reshape recorded as `_unsafe_view` (matmul's and linear's folding of batch dims).
    pub(crate) fn unsafe_view(&self, shape: &[usize]) -> Result<Tensor> {
        let s: Vec<i64> = shape.iter().map(|&x| x as i64).collect();
        if !is_recording1(self) {
            return self.reshape_raw(&s);
        }
        let out = crate::tensor::autograd::mode::without(|| self.reshape_raw(&s))?;
        record_reshape("UnsafeViewBackward0", self, &out)?;
        keep_view_grad(self, &out);
        Ok(out)
    }

    /// `t.transpose(d0, d1)`.
    pub fn transpose(&self, d0: i64, d1: i64) -> Result<Tensor> {
        let out = self.transpose_raw(d0, d1)?;
        if is_recording1(self) {
            record_transpose("TransposeBackward0", self, &out, d0, d1)?;
        }
        keep_view_grad(self, &out);
        Ok(out)
    }

    /// Permute by already-valid dims.
    pub(crate) fn permute_dims(&self, perm: &[usize]) -> Result<Tensor> {
        let out = self.permute_dims_raw(perm)?;
        if is_recording1(self) {
            let mut inv = vec![0usize; perm.len()];
            for (i, &p) in perm.iter().enumerate() {
                inv[p] = i;
            }
            record("PermuteBackward0", &[self], &out, &[], move |g, _| {
                Ok(vec![Some(g.permute_dims(&inv)?)])
            })?;
        }
        keep_view_grad(self, &out);
        Ok(out)
    }

    /// `t.unsqueeze(dim)`.
    pub fn unsqueeze(&self, dim: i64) -> Result<Tensor> {
        let out = self.unsqueeze_raw(dim)?;
        if is_recording1(self) {
            record_reshape("UnsqueezeBackward0", self, &out)?;
        }
        keep_view_grad(self, &out);
        Ok(out)
    }

    /// `t.squeeze()` (`SqueezeBackward0`) or `t.squeeze(dim)` (`SqueezeBackward1`).
    pub fn squeeze(&self, dim: Option<i64>) -> Result<Tensor> {
        let out = self.squeeze_raw(dim)?;
        if is_recording1(self) {
            let name = if dim.is_some() {
                "SqueezeBackward1"
            } else {
                "SqueezeBackward0"
            };
            record_reshape(name, self, &out)?;
        }
        keep_view_grad(self, &out);
        Ok(out)
    }

    /// A squeeze recorded as PyTorch's in-place `squeeze_(dims)` (`SqueezeBackward4`).
    pub(crate) fn squeeze_dims(&self, dim: i64) -> Result<Tensor> {
        let out = self.squeeze_raw(Some(dim))?;
        if is_recording1(self) {
            record_reshape("SqueezeBackward4", self, &out)?;
        }
        keep_view_grad(self, &out);
        Ok(out)
    }

    /// `t.expand(*sizes)`; the engine sums the gradient back to the input's shape.
    pub fn expand(&self, sizes: &[i64]) -> Result<Tensor> {
        let out = self.expand_raw(sizes)?;
        if is_recording1(self) {
            record("ExpandBackward0", &[self], &out, &[], |g, _| {
                Ok(vec![Some(g.clone())])
            })?;
        }
        keep_view_grad(self, &out);
        Ok(out)
    }

    /// `t.select(dim, index)` (what `t[i]` does on one dim).
    pub fn select(&self, dim: i64, index: i64) -> Result<Tensor> {
        let out = self.select_raw(dim, index)?;
        if is_recording1(self) {
            record_part("SelectBackward0", self, &out, move |z| {
                z.select_raw(dim, index)
            })?;
        }
        keep_view_grad(self, &out);
        Ok(out)
    }

    /// `t.narrow(dim, start, length)` (`SliceBackward0`).
    pub fn narrow(&self, dim: i64, start: i64, length: i64) -> Result<Tensor> {
        let out = self.narrow_raw(dim, start, length)?;
        if is_recording1(self) {
            record_part("SliceBackward0", self, &out, move |z| {
                z.narrow_raw(dim, start, length)
            })?;
        }
        keep_view_grad(self, &out);
        Ok(out)
    }
}
