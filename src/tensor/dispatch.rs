//! The tensor side of the backend seam: each `Backend` op called on tensors' storages and
//! layouts (`Tensor::operand`), its result wrapped into a new tensor (`Tensor::from_owned`).
//! `on(device)` picks the backend as `backend::for_device` does; ops call it after their device,
//! dtype and shape rules.
use super::{Buffer, DType, Device, Result, Scalar, Storage, Tensor};
use crate::backend::{self, Backend};
use crate::core::window::Columns;
use crate::core::{BinaryOp, ReduceOp, UnaryOp};
use std::rc::Rc;

/// `layer_norm_rows`' tensors: the normalised rows, the affine output if asked for, each row's
/// mean and rstd.
pub type NormedRows = (Tensor, Option<Tensor>, Tensor, Tensor);

/// `layer_norm_backward_rows`' tensors: the input gradient, and the weight's and bias's.
pub type NormGradients = (Tensor, Option<(Tensor, Tensor)>);

/// The backend serving one device, taking tensors.
pub struct On(&'static dyn Backend);

/// The backend of `device`.
#[inline]
pub fn on(device: Device) -> On {
    On(backend::for_device(device))
}

impl On {
    #[inline]
    pub fn zeros(&self, dtype: DType, numel: usize, device: Device) -> Result<Rc<Storage>> {
        Ok(Rc::new(self.0.zeros(dtype, numel, device)?))
    }
    /// Storage whose every element the caller overwrites next (contents unspecified).
    #[inline]
    pub fn empty(&self, dtype: DType, numel: usize, device: Device) -> Result<Rc<Storage>> {
        Ok(Rc::new(self.0.empty(dtype, numel, device)?))
    }
    #[inline]
    pub fn upload(&self, buf: Buffer, device: Device) -> Result<Rc<Storage>> {
        Ok(Rc::new(self.0.upload(buf, device)?))
    }
    #[inline]
    pub fn upload_from(&self, src: &Tensor, device: Device) -> Result<Rc<Storage>> {
        Ok(Rc::new(self.0.upload_from(src.operand(), device)?))
    }
    #[inline]
    pub fn to_host(&self, t: &Tensor) -> Result<Buffer> {
        self.0.to_host(t.operand())
    }
    #[inline]
    pub fn copy(&self, dst: &Tensor, src: &Tensor) -> Result<()> {
        self.0.copy(dst.operand(), src.operand())
    }
    #[inline]
    pub fn fill(&self, dst: &Tensor, v: Scalar) -> Result<()> {
        self.0.fill(dst.operand(), v)
    }
    #[inline]
    pub fn cast(&self, src: &Tensor, dtype: DType) -> Result<Tensor> {
        Ok(Tensor::from_owned(self.0.cast(src.operand(), dtype)?))
    }
    #[inline]
    pub fn contiguous_copy(&self, src: &Tensor) -> Result<Tensor> {
        Ok(Tensor::from_owned(self.0.contiguous_copy(src.operand())?))
    }
    #[inline]
    pub fn unary(&self, op: UnaryOp, x: &Tensor) -> Result<Tensor> {
        Ok(Tensor::from_owned(self.0.unary(op, x.operand())?))
    }
    #[inline]
    pub fn binary(&self, op: BinaryOp, a: &Tensor, b: &Tensor, shape: &[usize]) -> Result<Tensor> {
        let out = self.0.binary(op, a.operand(), b.operand(), shape)?;
        Ok(Tensor::from_owned(out))
    }
    #[inline]
    pub fn binary_scalar(&self, op: BinaryOp, a: &Tensor, s: Scalar, rev: bool) -> Result<Tensor> {
        let out = self.0.binary_scalar(op, a.operand(), s, rev)?;
        Ok(Tensor::from_owned(out))
    }
    #[inline]
    pub fn binary_inplace(&self, op: BinaryOp, dst: &Tensor, src: &Tensor) -> Result<()> {
        self.0.binary_inplace(op, dst.operand(), src.operand())
    }
    #[inline]
    pub fn binary_scalar_inplace(&self, op: BinaryOp, dst: &Tensor, s: Scalar) -> Result<()> {
        self.0.binary_scalar_inplace(op, dst.operand(), s)
    }
    #[inline]
    pub fn where_(&self, c: &Tensor, a: &Tensor, b: &Tensor, shape: &[usize]) -> Result<Tensor> {
        let out = self
            .0
            .where_(c.operand(), a.operand(), b.operand(), shape)?;
        Ok(Tensor::from_owned(out))
    }
    #[inline]
    pub fn reduce(
        &self,
        op: ReduceOp,
        x: &Tensor,
        dims: &[usize],
        keepdim: bool,
        out: DType,
    ) -> Result<Tensor> {
        let r = self.0.reduce(op, x.operand(), dims, keepdim, out)?;
        Ok(Tensor::from_owned(r))
    }
    #[inline]
    pub fn arg_reduce(
        &self,
        max: bool,
        x: &Tensor,
        dim: Option<usize>,
        keepdim: bool,
    ) -> Result<(Tensor, Tensor)> {
        let (v, i) = self.0.arg_reduce(max, x.operand(), dim, keepdim)?;
        Ok((Tensor::from_owned(v), Tensor::from_owned(i)))
    }
    #[inline]
    pub fn softmax(&self, x: &Tensor, dim: usize, log: bool) -> Result<Tensor> {
        Ok(Tensor::from_owned(self.0.softmax(x.operand(), dim, log)?))
    }
    #[inline]
    pub fn bmm(&self, a: &Tensor, b: &Tensor) -> Result<Tensor> {
        Ok(Tensor::from_owned(self.0.bmm(a.operand(), b.operand())?))
    }
    pub fn softmax_backward(
        &self,
        g: &Tensor,
        y: &Tensor,
        dim: usize,
        log: bool,
    ) -> Result<Option<Tensor>> {
        let out = self
            .0
            .softmax_backward(g.operand(), y.operand(), dim, log)?;
        Ok(out.map(Tensor::from_owned))
    }
    pub fn silu_backward(&self, g: &Tensor, x: &Tensor) -> Result<Option<Tensor>> {
        let out = self.0.silu_backward(g.operand(), x.operand())?;
        Ok(out.map(Tensor::from_owned))
    }
    pub fn leaky_relu(
        &self,
        x: &Tensor,
        v: &Tensor,
        slope: f64,
        backward: bool,
    ) -> Result<Option<Tensor>> {
        let out = self
            .0
            .leaky_relu(x.operand(), v.operand(), slope, backward)?;
        Ok(out.map(Tensor::from_owned))
    }
    pub fn clamp(
        &self,
        x: &Tensor,
        lo: Option<Scalar>,
        hi: Option<Scalar>,
    ) -> Result<Option<Tensor>> {
        let out = self.0.clamp(x.operand(), lo, hi)?;
        Ok(out.map(Tensor::from_owned))
    }
    pub fn im2col(&self, x: &Tensor, cols: &Columns, fill: f64) -> Result<Option<Tensor>> {
        let out = self.0.im2col(x.operand(), cols, fill)?;
        Ok(out.map(Tensor::from_owned))
    }
    pub fn conv2d(&self, x: &Tensor, w: &Tensor, cols: &Columns) -> Result<Option<Tensor>> {
        let out = self.0.conv2d(x.operand(), w.operand(), cols)?;
        Ok(out.map(Tensor::from_owned))
    }
    pub fn col2im(&self, g: &Tensor, shape: [usize; 4], cols: &Columns) -> Result<Option<Tensor>> {
        let out = self.0.col2im(g.operand(), shape, cols)?;
        Ok(out.map(Tensor::from_owned))
    }
    pub fn var_rows(
        &self,
        x: &Tensor,
        groups: [usize; 2],
        correction: f64,
        std: bool,
        mean: Option<f64>,
        shape: &[usize],
    ) -> Result<Option<Tensor>> {
        let out = self
            .0
            .var_rows(x.operand(), groups, correction, std, mean, shape)?;
        Ok(out.map(Tensor::from_owned))
    }
    pub fn scan(&self, x: &Tensor, dim: usize, prod: bool) -> Result<Option<Tensor>> {
        Ok(self.0.scan(x.operand(), dim, prod)?.map(Tensor::from_owned))
    }
    pub fn vector_norm(
        &self,
        x: &Tensor,
        p: f64,
        dims: &[usize],
        shape: &[usize],
    ) -> Result<Option<Tensor>> {
        let out = self.0.vector_norm(x.operand(), p, dims, shape)?;
        Ok(out.map(Tensor::from_owned))
    }
    /// `Backend::layer_norm_rows`: the normalised rows, the affine output if asked for, each
    /// row's mean and rstd.
    pub fn layer_norm_rows(
        &self,
        x: &Tensor,
        inner: usize,
        affine: Option<(&Tensor, &Tensor)>,
        eps: f64,
    ) -> Result<Option<NormedRows>> {
        let affine = affine.map(|(w, b)| (w.operand(), b.operand()));
        let out = self.0.layer_norm_rows(x.operand(), inner, affine, eps)?;
        let t = Tensor::from_owned;
        Ok(out.map(|(xh, y, m, r)| (t(xh), y.map(t), t(m), t(r))))
    }
    /// `Backend::layer_norm_backward_rows`: the input gradient and, with `params`, the
    /// weight's and bias's (flat).
    pub fn layer_norm_backward_rows(
        &self,
        g: &Tensor,
        xhat: &Tensor,
        w: Option<&Tensor>,
        rstd: &Tensor,
        params: bool,
    ) -> Result<Option<NormGradients>> {
        let w = w.map(|w| w.operand());
        let out = self.0.layer_norm_backward_rows(
            g.operand(),
            xhat.operand(),
            w,
            rstd.operand(),
            params,
        )?;
        Ok(out.map(|(dx, p)| {
            let p = p.map(|(dw, db)| (Tensor::from_owned(dw), Tensor::from_owned(db)));
            (Tensor::from_owned(dx), p)
        }))
    }
    pub fn max_all(&self, max: bool, x: &Tensor) -> Result<Tensor> {
        Ok(Tensor::from_owned(self.0.max_all(max, x.operand())?))
    }
    pub fn baddbmm(&self, c: &Tensor, a: &Tensor, b: &Tensor) -> Result<Option<Tensor>> {
        let out = self.0.baddbmm(c.operand(), a.operand(), b.operand())?;
        Ok(out.map(Tensor::from_owned))
    }
    #[inline]
    pub fn gather(
        &self,
        src: &Tensor,
        bases: &[usize],
        shape: &[usize],
        strides: &[usize],
    ) -> Result<Tensor> {
        let out = self.0.gather(src.operand(), bases, shape, strides)?;
        Ok(Tensor::from_owned(out))
    }
    #[inline]
    pub fn scatter(
        &self,
        dst: &Tensor,
        bases: &[usize],
        shape: &[usize],
        strides: &[usize],
        values: &Tensor,
    ) -> Result<()> {
        let (d, v) = (dst.operand(), values.operand());
        self.0.scatter(d, bases, shape, strides, v)
    }
}
