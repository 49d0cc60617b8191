//! Shape ops that make views (`view`, `transpose`, `permute`, `unsqueeze`, `squeeze`, `expand`,
//! `select`, `narrow`, `T`) or copy only when they must (`reshape`, `flatten`).
use crate::tensor::error::{index_err, runtime, Result};
use crate::tensor::shape::{
    contiguous_strides, fmt_list, infer_shape, numel, view_strides, wrap_dim, Dims,
};
use crate::tensor::Tensor;

/// The autograd rules of this file (and the recording forms of the view ops).
pub(crate) mod grad;

impl Tensor {
    /// `t.view(*shape)`.
    pub(crate) fn view_raw(&self, shape: &[i64]) -> Result<Tensor> {
        let new_shape = infer_shape(shape, self.numel())?;
        match view_strides(self.shape(), self.strides(), &new_shape) {
            Some(st) => Ok(self.view_as_layout(new_shape, st, self.offset())),
            None => runtime(
                "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
            ),
        }
    }

    /// `t.reshape(*shape)`: a view when the layout allows, else a contiguous copy.
    pub(crate) fn reshape_raw(&self, shape: &[i64]) -> Result<Tensor> {
        let new_shape = infer_shape(shape, self.numel())?;
        if let Some(st) = view_strides(self.shape(), self.strides(), &new_shape) {
            return Ok(self.view_as_layout(new_shape, st, self.offset()));
        }
        let c = self.contiguous()?;
        Ok(c.view_as_layout(
            new_shape.clone(),
            contiguous_strides(&new_shape),
            c.offset(),
        ))
    }

    /// View with known-good sizes (internal).
    pub(crate) fn reshape_to(&self, shape: &[usize]) -> Result<Tensor> {
        let s: Vec<i64> = shape.iter().map(|&x| x as i64).collect();
        self.reshape(&s)
    }

    /// `t.transpose(d0, d1)`.
    pub(crate) fn transpose_raw(&self, d0: i64, d1: i64) -> Result<Tensor> {
        let a = wrap_dim(d0, self.ndim())?;
        let b = wrap_dim(d1, self.ndim())?;
        if self.ndim() == 0 {
            return Ok(self.detach_view());
        }
        let mut sh = self.dims().clone();
        let mut st = self.stride_dims().clone();
        sh.swap(a, b);
        st.swap(a, b);
        Ok(self.view_as_layout(sh, st, self.offset()))
    }

    /// `t.t()`: transpose of a matrix; vectors and scalars unchanged.
    pub fn t(&self) -> Result<Tensor> {
        if self.ndim() > 2 {
            return runtime(format!(
                "t() expects a tensor with <= 2 dimensions, but self is {}D",
                self.ndim()
            ));
        }
        let out = if self.ndim() < 2 {
            self.detach_view()
        } else {
            self.transpose_raw(0, 1)?
        };
        if crate::tensor::autograd::is_recording1(self) {
            grad::record_transpose("TBackward0", self, &out, 0, 1)?;
        }
        grad::keep_view_grad(self, &out);
        Ok(out)
    }

    /// `t.T`: all dims reversed (PyTorch warns for ndim != 2 but allows it).
    pub fn t_all(&self) -> Result<Tensor> {
        let perm: Vec<usize> = (0..self.ndim()).rev().collect();
        self.permute_dims(&perm)
    }

    /// `t.mT`: the last two dims swapped.
    pub fn mt(&self) -> Result<Tensor> {
        if self.ndim() < 2 {
            return runtime(format!(
                "tensor.mT is only supported on matrices or batches of matrices. Got {}-D tensor.",
                self.ndim()
            ));
        }
        self.transpose(-2, -1)
    }

    /// `t.permute(*dims)`.
    pub fn permute(&self, dims: &[i64]) -> Result<Tensor> {
        if dims.len() != self.ndim() {
            return runtime(format!(
                "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {} is not equal to len(dims) = {}",
                self.ndim(),
                dims.len()
            ));
        }
        let mut perm = Vec::with_capacity(dims.len());
        for &d in dims {
            let w = wrap_dim(d, self.ndim())?;
            if perm.contains(&w) {
                return runtime("permute(): duplicate dims are not allowed.");
            }
            perm.push(w);
        }
        self.permute_dims(&perm)
    }

    /// Permute by already-valid dims (internal).
    pub(crate) fn permute_dims_raw(&self, perm: &[usize]) -> Result<Tensor> {
        let sh: Dims = perm.iter().map(|&p| self.shape()[p]).collect();
        let st: Dims = perm.iter().map(|&p| self.strides()[p]).collect();
        Ok(self.view_as_layout(sh, st, self.offset()))
    }

    /// `t.unsqueeze(dim)`.
    pub(crate) fn unsqueeze_raw(&self, dim: i64) -> Result<Tensor> {
        let d = wrap_dim(dim, self.ndim() + 1)?;
        let st = if d >= self.ndim() {
            1
        } else {
            self.shape()[d] * self.strides()[d]
        };
        let mut sh = self.dims().clone();
        let mut sts = self.stride_dims().clone();
        sh.insert(d, 1);
        sts.insert(d, st);
        Ok(self.view_as_layout(sh, sts, self.offset()))
    }

    /// `t.squeeze()` (every size-1 dim) or `t.squeeze(dim)`.
    pub(crate) fn squeeze_raw(&self, dim: Option<i64>) -> Result<Tensor> {
        let keep: Vec<usize> = match dim {
            None => (0..self.ndim()).filter(|&d| self.shape()[d] != 1).collect(),
            Some(dim) => {
                let d = wrap_dim(dim, self.ndim())?;
                (0..self.ndim())
                    .filter(|&i| i != d || self.shape()[i] != 1)
                    .collect()
            }
        };
        let sh: Dims = keep.iter().map(|&d| self.shape()[d]).collect();
        let st: Dims = keep.iter().map(|&d| self.strides()[d]).collect();
        Ok(self.view_as_layout(sh, st, self.offset()))
    }

    /// `t.flatten(start_dim, end_dim)`.
    pub fn flatten(&self, start: i64, end: i64) -> Result<Tensor> {
        let s = wrap_dim(start, self.ndim())?;
        let e = wrap_dim(end, self.ndim())?;
        if self.ndim() == 0 {
            return self.reshape(&[1]);
        }
        if s > e {
            return runtime("flatten() has invalid args: start_dim cannot come after end_dim");
        }
        if s == e {
            return Ok(self.clone());
        }
        let mut shape: Vec<i64> = self.shape()[..s].iter().map(|&x| x as i64).collect();
        shape.push(numel(&self.shape()[s..=e]) as i64);
        shape.extend(self.shape()[e + 1..].iter().map(|&x| x as i64));
        self.reshape(&shape)
    }

    /// `t.expand(*sizes)` with `-1` meaning "keep this size".
    pub(crate) fn expand_raw(&self, sizes: &[i64]) -> Result<Tensor> {
        let nd = self.ndim();
        if sizes.len() < nd {
            return runtime(format!(
                "expand({}{{{}}}, size={}): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
                self.dtype().legacy_tensor_name(),
                fmt_list(self.shape()),
                fmt_list(sizes),
                sizes.len(),
                nd
            ));
        }
        let lead = sizes.len() - nd;
        let mut sh = Dims::filled(sizes.len(), 0);
        let mut st = Dims::filled(sizes.len(), 0);
        for i in (0..sizes.len()).rev() {
            let target = sizes[i];
            if i < lead {
                if target < 0 {
                    return runtime(format!(
                        "The expanded size of the tensor ({target}) isn't allowed in a leading, non-existing dimension {i}"
                    ));
                }
                sh[i] = target as usize;
                st[i] = 0;
                continue;
            }
            let (cur, cst) = (self.shape()[i - lead], self.strides()[i - lead]);
            if target == -1 || target as usize == cur {
                sh[i] = cur;
                st[i] = cst;
            } else if cur == 1 && target >= 0 {
                sh[i] = target as usize;
                st[i] = 0;
            } else {
                return runtime(format!(
                    "The expanded size of the tensor ({target}) must match the existing size ({cur}) at non-singleton dimension {i}.  Target sizes: {}.  Tensor sizes: {}",
                    fmt_list(sizes),
                    fmt_list(self.shape())
                ));
            }
        }
        crate::tensor::shape::checked_numel(&sh)?;
        Ok(self.view_as_layout(sh, st, self.offset()))
    }

    /// `t.expand_as(other)`.
    pub fn expand_as(&self, other: &Tensor) -> Result<Tensor> {
        let s: Vec<i64> = other.shape().iter().map(|&x| x as i64).collect();
        self.expand(&s)
    }

    /// Expand to a shape already known to be a broadcast of this one (internal).
    pub(crate) fn expand_to(&self, shape: &[usize]) -> Result<Tensor> {
        if self.shape() == shape {
            return Ok(self.clone());
        }
        let s: Vec<i64> = shape.iter().map(|&x| x as i64).collect();
        self.expand(&s)
    }

    /// `t.select(dim, index)` (what `t[i]` does on one dim).
    pub(crate) fn select_raw(&self, dim: i64, index: i64) -> Result<Tensor> {
        if self.ndim() == 0 {
            return index_err("select() cannot be applied to a 0-dim tensor.");
        }
        let d = wrap_dim(dim, self.ndim())?;
        let size = self.shape()[d] as i64;
        if index < -size || index >= size {
            return index_err(format!(
                "select(): index {index} out of range for tensor of size {} at dimension {d}",
                fmt_list(self.shape())
            ));
        }
        let i = if index < 0 { index + size } else { index } as usize;
        let mut sh = self.dims().clone();
        let mut st = self.stride_dims().clone();
        let off = self.offset() + i * st[d];
        sh.remove(d);
        st.remove(d);
        Ok(self.view_as_layout(sh, st, off))
    }

    /// `t.narrow(dim, start, length)`.
    pub(crate) fn narrow_raw(&self, dim: i64, start: i64, length: i64) -> Result<Tensor> {
        if self.ndim() == 0 {
            return runtime("narrow() cannot be applied to a 0-dim tensor.");
        }
        let d = wrap_dim(dim, self.ndim())?;
        let size = self.shape()[d] as i64;
        let s = if start < 0 { start + size } else { start };
        if s < 0 || s > size {
            return index_err(format!(
                "start out of range (expected to be in range of [{}, {}], but got {start})",
                -size, size
            ));
        }
        if length < 0 || length > size - s {
            return runtime(format!(
                "start ({s}) + length ({length}) exceeds dimension size ({size})."
            ));
        }
        let mut sh = self.dims().clone();
        sh[d] = length as usize;
        let off = self.offset() + s as usize * self.strides()[d];
        Ok(self.view_as_layout(sh, self.stride_dims().clone(), off))
    }

    /// A new tensor object with the same layout (`t.view_as(t)`, `detach` without autograd).
    pub(crate) fn detach_view(&self) -> Tensor {
        self.view_as_layout(
            self.dims().clone(),
            self.stride_dims().clone(),
            self.offset(),
        )
    }

    /// `len(t)`.
    #[allow(clippy::len_without_is_empty)] // len() of a 0-d tensor is an error, not 0
    pub fn len(&self) -> Result<usize> {
        if self.ndim() == 0 {
            return crate::tensor::error::type_err("len() of a 0-d tensor");
        }
        Ok(self.shape()[0])
    }

    /// `t.size(dim)`.
    pub fn size_at(&self, dim: i64) -> Result<usize> {
        if self.ndim() == 0 {
            return index_err(format!(
                "Dimension specified as {dim} but tensor has no dimensions"
            ));
        }
        Ok(self.shape()[wrap_dim(dim, self.ndim())?])
    }
}
