//! Autograd rules for the reductions and softmax.
use crate::tensor::autograd::util::{div, mask, mul, scalar_op, sub};
use crate::tensor::autograd::{is_recording, record};
use crate::tensor::error::Result;
use crate::tensor::ops::binary::BinaryOp;
use crate::tensor::ops::reduce::sum;
use crate::tensor::Tensor;

/// The reduced result's shape with the reduced dims kept as 1.
fn keep_shape(shape: &[usize], dims: &[usize]) -> Vec<usize> {
    shape
        .iter()
        .enumerate()
        .map(|(i, &s)| if dims.contains(&i) { 1 } else { s })
        .collect()
}

/// `g` of the reduced shape → broadcastable against the input (reduced dims as 1).
fn unreduce(g: &Tensor, keep: &[usize]) -> Result<Tensor> {
    if g.shape() == keep {
        return Ok(g.clone());
    }
    g.reshape_to(keep)
}

/// `sum` (`scale` 1) and `mean` (`scale` = count): the gradient spread over the reduced dims.
pub(super) fn record_sum(
    name: &'static str,
    x: &Tensor,
    dims: &[usize],
    _keepdim: bool,
    scale: f64,
    out: &Tensor,
) -> crate::tensor::Result<()> {
    let shape = x.shape().to_vec();
    let keep = keep_shape(&shape, dims);
    record(name, &[x], out, &[], move |g, _| {
        let g = if scale != 1.0 {
            scalar_op(BinaryOp::Div, g, scale)?
        } else {
            g.clone()
        };
        Ok(vec![Some(unreduce(&g, &keep)?.expand_to(&shape)?)])
    })?;
    Ok(())
}

/// `prod`: `grad * result / x`.
pub(super) fn record_prod(
    name: &'static str,
    x: &Tensor,
    dims: &[usize],
    _keepdim: bool,
    out: &Tensor,
) -> crate::tensor::Result<()> {
    let keep = keep_shape(x.shape(), dims);
    record(name, &[x], out, &[Some(x), Some(out)], move |g, c| {
        let (x, r) = (c.saved(0), c.saved(1));
        let gr = mul(&unreduce(g, &keep)?, &unreduce(r, &keep)?)?;
        Ok(vec![Some(div(&gr, x)?)])
    })?;
    Ok(())
}

/// `max()`/`min()`/`amax`/`amin`: the gradient shared evenly by the elements equal to the result.
pub(super) fn record_amax(
    name: &'static str,
    x: &Tensor,
    dims: &[usize],
    _keepdim: bool,
    out: &Tensor,
) -> crate::tensor::Result<()> {
    let keep = keep_shape(x.shape(), dims);
    let d: Vec<i64> = dims.iter().map(|&i| i as i64).collect();
    record(name, &[x], out, &[Some(x), Some(out)], move |g, c| {
        let (x, r) = (c.saved(0), c.saved(1));
        let m = mask(BinaryOp::Eq, x, &unreduce(r, &keep)?, g)?;
        let count = sum(&m, Some(&d), true, None)?;
        let share = div(&unreduce(g, &keep)?, &count)?;
        Ok(vec![Some(mul(&m, &share)?)])
    })?;
    Ok(())
}

/// `max(dim)`/`min(dim)`: the gradient goes to the selected index.
pub(super) fn record_select_dim(
    name: &'static str,
    x: &Tensor,
    dim: usize,
    _keepdim: bool,
    idx: &Tensor,
    out: &Tensor,
) -> crate::tensor::Result<()> {
    let shape = x.shape().to_vec();
    let keep = keep_shape(&shape, &[dim]);
    let idx = idx.clone();
    let n = shape[dim];
    // the indices are plain integers (never part of a graph), captured by value
    record(name, &[x], out, &[], move |g, _| {
        let mut ar_shape = vec![1usize; shape.len()];
        ar_shape[dim] = n;
        let ar = crate::tensor::create::arange(
            crate::tensor::Scalar::Int(0),
            crate::tensor::Scalar::Int(n as i64),
            crate::tensor::Scalar::Int(1),
            Some(crate::tensor::DType::I64),
            g.device(),
        )?
        .reshape_to(&ar_shape)?;
        let hit = mask(BinaryOp::Eq, &ar, &unreduce(&idx, &keep)?, g)?;
        Ok(vec![Some(mul(&hit, &unreduce(g, &keep)?)?)])
    })?;
    Ok(())
}

/// `softmax`: `y * (g - sum(g * y))`; `log_softmax`: `g - exp(y) * sum(g)`. On the CPU, for
/// float32, the backend's kernel (`_softmax_backward_data`, `_log_softmax_backward_data`: ATen's
/// order of operations, so PyTorch's bits) on contiguous copies, as ATen takes them; elsewhere,
/// and while the backward itself is recorded (`create_graph=True`), these ops.
pub(super) fn record_softmax(
    x: &Tensor,
    dim: usize,
    log: bool,
    out: &Tensor,
) -> crate::tensor::Result<()> {
    let d = [dim as i64];
    let name = if log {
        "LogSoftmaxBackward0"
    } else {
        "SoftmaxBackward0"
    };
    record(name, &[x], out, &[Some(out)], move |g, c| {
        let y = c.saved(0);
        if let Some(gi) = kernel(g, y, dim, log)? {
            return Ok(vec![Some(gi)]);
        }
        if log {
            let e = crate::tensor::ops::unary::unary(crate::tensor::UnaryOp::Exp, y)?;
            let s = sum(g, Some(&d), true, None)?;
            Ok(vec![Some(sub(g, &mul(&e, &s)?)?)])
        } else {
            let gy = mul(g, y)?;
            let s = sum(&gy, Some(&d), true, None)?;
            Ok(vec![Some(sub(&gy, &mul(y, &s)?)?)])
        }
    })?;
    Ok(())
}

/// The device's softmax-backward kernel where it has one for these operands (see
/// `record_softmax`).
fn kernel(g: &Tensor, y: &Tensor, dim: usize, log: bool) -> crate::tensor::Result<Option<Tensor>> {
    let f32_cpu = |t: &Tensor| {
        t.device() == crate::tensor::Device::Cpu && t.dtype() == crate::tensor::DType::F32
    };
    if !f32_cpu(g) || !f32_cpu(y) || g.shape() != y.shape() || is_recording(&[g, y]) {
        return Ok(None);
    }
    let (g, y) = (g.contiguous()?, y.contiguous()?);
    crate::tensor::dispatch::on(g.device()).softmax_backward(&g, &y, dim, log)
}
