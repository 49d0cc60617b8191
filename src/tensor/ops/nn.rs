//! The ops of `torch.nn.functional`: `linear` (as `addmm`, whose node is in `addmm.rs`), the losses, `dropout`,
//! `layer_norm`, `gelu`, `leaky_relu`, `one_hot`. Each records the node PyTorch records: a
//! fused node (`AddmmBackward0`, `MseLossBackward0`, `NllLossBackward0`, ...) where PyTorch has
//! a kernel, the nodes of the parts where PyTorch composes ops (`l1_loss`, `cross_entropy`).
use crate::tensor::autocast::{self, req, AmpOp};
use crate::tensor::autograd::util::{add, div, mul, neg, scalar_op, scale, sub, when};
use crate::tensor::autograd::{is_recording, is_recording1, mode, record, Grads};
use crate::tensor::error::{index_err, runtime, value_err, Result};
use crate::tensor::ops::binary::{binary, binary_scalar, BinaryOp};
use crate::tensor::ops::join::where_tensors;
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::reduce::{mean, softmax, sum};
use crate::tensor::ops::unary::{unary, UnaryOp};
use crate::tensor::shape::fmt_list;
use crate::tensor::{DType, Scalar, Tensor};

/// `reduction=`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reduction {
    None,
    Mean,
    Sum,
}

impl Reduction {
    pub fn parse(s: &str) -> Result<Reduction> {
        match s {
            "none" => Ok(Reduction::None),
            "mean" => Ok(Reduction::Mean),
            "sum" => Ok(Reduction::Sum),
            _ => value_err(format!("{s} is not a valid value for reduction")),
        }
    }
}

/// `apply_loss_reduction`: the mean or sum of the elementwise loss.
fn reduce(loss: &Tensor, r: Reduction) -> Result<Tensor> {
    match r {
        Reduction::None => Ok(loss.clone()),
        Reduction::Mean => mean(loss, None, false, None),
        Reduction::Sum => sum(loss, None, false, None),
    }
}

/// `t * s` or `t / s` as C++ composites compute it (`mul.Scalar`, `div.Scalar`): one edge,
/// named `MulBackward1` / `DivBackward1`.
fn cpp_scalar(op: BinaryOp, t: &Tensor, s: f64) -> Result<Tensor> {
    let out = mode::without(|| scalar_op(op, t, s))?;
    if is_recording1(t) {
        let name = if op == BinaryOp::Mul {
            "MulBackward1"
        } else {
            "DivBackward1"
        };
        record(name, &[t], &out, &[], move |g, _| {
            Ok(vec![Some(scalar_op(op, g, s)?)])
        })?;
    }
    Ok(out)
}

fn check_float(name: &str, t: &Tensor) -> Result<()> {
    if !t.dtype().is_floating() {
        return crate::tensor::error::not_impl_for(name, t.dtype());
    }
    Ok(())
}

// ------------------------------------------------------------------ linear

pub use super::addmm::{addmm, addmm_checked};

/// `F.linear(x, w, b=None)`: `x @ w.T + b`, recorded as PyTorch records it (`AddmmBackward0`
/// for a batch of rows with a bias; batch dims folded into rows and unfolded again).
pub fn linear(x: &Tensor, w: &Tensor, b: Option<&Tensor>) -> Result<Tensor> {
    let v = autocast::cast_opts(AmpOp::Linear, &[Some(x), Some(w), b])?;
    autocast::excluded(|| linear_uncast(req(&v[0]), req(&v[1]), v[2].as_ref()))
}

/// `linear` past autocast (its inputs already cast, nested ops not cast again).
fn linear_uncast(x: &Tensor, w: &Tensor, b: Option<&Tensor>) -> Result<Tensor> {
    if x.ndim() == 0 {
        return runtime("both arguments to linear need to be at least 1D, but they are 0D and 2D");
    }
    let wt = w.t()?;
    let Some(b) = b else {
        return matmul(x, &wt);
    };
    let k = x.shape()[x.ndim() - 1];
    if wt.ndim() == 2 && k != wt.shape()[0] {
        let rows: usize = x.shape()[..x.ndim() - 1].iter().product();
        return Err(crate::tensor::TensorError::new(
            crate::tensor::ErrorKind::Runtime,
            format!(
                "addmm: mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
                rows,
                k,
                wt.shape()[0],
                wt.shape()[1]
            ),
        )
        .with_hint(format!(
            "a Linear layer with in_features={} got inputs whose last dimension is {k}; the sizes must match",
            wt.shape()[0]
        )));
    }
    if x.ndim() == 2 && wt.ndim() == 2 {
        return addmm(b, x, &wt);
    }
    if wt.ndim() == 2 && (x.ndim() == 1 || x.is_contiguous()) {
        let rows: usize = x.shape()[..x.ndim() - 1].iter().product();
        let x2 = x.reshape_to(&[rows, k])?;
        let out = addmm(b, &x2, &wt)?;
        let mut shape = x.shape()[..x.ndim() - 1].to_vec();
        shape.push(wt.shape()[1]);
        return out.unsafe_view(&shape);
    }
    add(&matmul(x, &wt)?, b)
}

// ------------------------------------------------------------------ simple activations

/// `F.gelu(x, approximate='none'|'tanh')`: the engine's `Gelu`/`GeluTanh` ops.
pub fn gelu(x: &Tensor, approximate: &str) -> Result<Tensor> {
    let op = match approximate {
        "none" => UnaryOp::Gelu,
        "tanh" => UnaryOp::GeluTanh,
        _ => return runtime("approximate argument must be either none or tanh."),
    };
    check_float("GeluKernelImpl", x)?;
    unary(op, x)
}

/// `F.leaky_relu(x, negative_slope=0.01)`: ATen's `x > 0 ? x : x * slope`, and for the
/// gradient `x > 0 ? grad : grad * slope`, each one backend kernel where the backend has it
/// for the operands, else one select of engine ops.
pub fn leaky_relu(x: &Tensor, slope: f64) -> Result<Tensor> {
    check_float("leaky_relu_cpu", x)?;
    let out = mode::without(|| positive_or_scaled(x, x, slope, false))?;
    if is_recording1(x) {
        record("LeakyReluBackward0", &[x], &out, &[Some(x)], move |g, c| {
            Ok(vec![Some(positive_or_scaled(c.saved(0), g, slope, true)?)])
        })?;
    }
    Ok(out)
}

/// `where(x > 0, v, v * slope)`: one backend kernel where there is one for the operands.
fn positive_or_scaled(x: &Tensor, v: &Tensor, slope: f64, backward: bool) -> Result<Tensor> {
    if x.device() == v.device() {
        let on = crate::tensor::dispatch::on(x.device());
        if let Some(r) = on.leaky_relu(x, v, slope, backward)? {
            return Ok(r);
        }
    }
    let positive = binary_scalar(BinaryOp::Gt, x, Scalar::Int(0), false)?;
    where_tensors(&positive, v, &scale(v, slope)?)
}

/// `F.elu(x, alpha)`: `expm1(x) * alpha` where `x <= 0`, else `x` (ATen's formula, a NaN
/// taking the second branch; `EluBackward0`: `g * alpha * exp(x)` where `x <= 0`, else `g`).
pub fn elu(x: &Tensor, alpha: f64) -> Result<Tensor> {
    check_float("elu_cpu", x)?;
    let at_most_0 = |t: &Tensor| binary_scalar(BinaryOp::Le, t, Scalar::Int(0), false);
    // one kernel in PyTorch, outside autocast's lists: its expm1 is not cast
    let expm1 = || scale(&unary(UnaryOp::Expm1, x)?, alpha);
    let out = autocast::excluded(|| mode::without(|| where_tensors(&at_most_0(x)?, &expm1()?, x)))?;
    if is_recording1(x) {
        record("EluBackward0", &[x], &out, &[Some(x)], move |g, c| {
            let x = c.saved(0);
            let slope = scale(&mul(g, &unary(UnaryOp::Exp, x)?)?, alpha)?;
            Ok(vec![Some(where_tensors(&at_most_0(x)?, &slope, g)?)])
        })?;
    }
    Ok(out)
}

/// `F.softplus(x, beta, threshold)`: `log1p(exp(x * beta)) / beta`, or `x` itself where
/// `x * beta > threshold` (ATen's formula; `SoftplusBackward0`: `g * z / (z + 1)` with
/// `z = exp(x * beta)`, or `g` past the threshold).
pub fn softplus(x: &Tensor, beta: f64, threshold: f64) -> Result<Tensor> {
    // float32 under CUDA autocast, as PyTorch lists it
    let v = autocast::cast_opts(AmpOp::Softplus, &[Some(x)])?;
    autocast::excluded(|| softplus_uncast(req(&v[0]), beta, threshold))
}

/// `softplus` past autocast.
fn softplus_uncast(x: &Tensor, beta: f64, threshold: f64) -> Result<Tensor> {
    check_float("softplus_cpu", x)?;
    let parts = move |x: &Tensor| -> Result<(Tensor, Tensor)> {
        let bx = scale(x, beta)?;
        let linear = binary_scalar(BinaryOp::Gt, &bx, Scalar::Float(threshold), false)?;
        Ok((linear, unary(UnaryOp::Exp, &bx)?))
    };
    let out = mode::without(|| {
        let (linear, z) = parts(x)?;
        let soft = scalar_op(BinaryOp::Div, &unary(UnaryOp::Log1p, &z)?, beta)?;
        where_tensors(&linear, x, &soft)
    })?;
    if is_recording1(x) {
        record("SoftplusBackward0", &[x], &out, &[Some(x)], move |g, c| {
            let (linear, z) = parts(c.saved(0))?;
            let slope = div(&mul(g, &z)?, &scalar_op(BinaryOp::Add, &z, 1.0)?)?;
            Ok(vec![Some(where_tensors(&linear, g, &slope)?)])
        })?;
    }
    Ok(out)
}

/// `F.silu(x)` = x * sigmoid(x) (SiLU, also called swish): the engine's `Silu` op.
pub fn silu(x: &Tensor) -> Result<Tensor> {
    check_float("silu_cpu", x)?;
    unary(UnaryOp::Silu, x)
}

/// `F.one_hot(t, num_classes=-1)`: int64 rows of zeros with a one at each class.
pub fn one_hot(t: &Tensor, num_classes: i64) -> Result<Tensor> {
    if t.dtype() != DType::I64 {
        return runtime("one_hot is only applicable to index tensor of type LongTensor.");
    }
    let v = t.contiguous_values_i64()?;
    if v.is_empty() && num_classes <= 0 {
        return runtime("Can not infer total number of classes from empty tensor.");
    }
    if v.iter().any(|&c| c < 0) {
        return runtime("Class values must be non-negative.");
    }
    let n = if num_classes == -1 {
        v.iter().copied().max().unwrap_or(0) + 1
    } else {
        if v.iter().any(|&c| c >= num_classes) {
            return runtime("Class values must be smaller than num_classes.");
        }
        num_classes
    };
    let n = n as usize;
    let mut out = vec![0i64; v.len() * n];
    for (i, &c) in v.iter().enumerate() {
        out[i * n + c as usize] = 1;
    }
    let mut shape = t.shape().to_vec();
    shape.push(n);
    Tensor::from_i64s(&out, &shape, DType::I64)?.to_device(t.device())
}

// ------------------------------------------------------------------ dropout

/// `F.dropout(x, p, training)`: zeroes elements with probability `p` and scales the rest by
/// `1/(1-p)`. The mask is `bernoulli_(1-p)` drawn as PyTorch's CPU generator draws it.
pub fn dropout(x: &Tensor, p: f64, training: bool) -> Result<Tensor> {
    if !(0.0..=1.0).contains(&p) {
        return value_err(format!(
            "dropout probability has to be between 0 and 1, but got {p}"
        ));
    }
    if !training || p == 0.0 || x.numel() == 0 {
        return Ok(x.clone());
    }
    if p == 1.0 {
        let z = Tensor::scalar(Scalar::Int(0), x.dtype(), x.device())?;
        return binary(BinaryOp::Mul, x, &z);
    }
    let keep = 1.0 - p;
    let n = x.numel();
    let bits: Vec<f64> = crate::tensor::random::with_default(|g| {
        (0..n)
            .map(|_| if g.unit_f64() < keep { 1.0 } else { 0.0 })
            .collect()
    });
    let noise = Tensor::from_f64s(&bits, x.shape(), x.dtype())?.to_device(x.device())?;
    let noise = binary_scalar(BinaryOp::Div, &noise, Scalar::Float(keep), false)?;
    binary(BinaryOp::Mul, x, &noise)
}

// ------------------------------------------------------------------ layer_norm

/// `F.layer_norm(x, normalized_shape, weight, bias, eps)`.
pub fn layer_norm(
    x: &Tensor,
    normalized: &[usize],
    w: Option<&Tensor>,
    b: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let v = autocast::cast_opts(AmpOp::LayerNorm, &[Some(x), w, b])?;
    autocast::excluded(|| {
        layer_norm_uncast(req(&v[0]), normalized, v[1].as_ref(), v[2].as_ref(), eps)
    })
}

/// `layer_norm` past autocast (its inputs already cast, nested ops not cast again).
fn layer_norm_uncast(
    x: &Tensor,
    normalized: &[usize],
    w: Option<&Tensor>,
    b: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let k = normalized.len();
    let nd = x.ndim();
    if k == 0 || k > nd || x.shape()[nd - k..] != *normalized {
        let mut expected = vec!["*".to_string()];
        expected.extend(normalized.iter().map(|s| s.to_string()));
        return runtime(format!(
            "Given normalized_shape={}, expected input with shape [{}], but got input of size{}",
            fmt_list(normalized),
            expected.join(", "),
            fmt_list(x.shape())
        ));
    }
    for (name, t) in [("weight", w), ("bias", b)] {
        if let Some(t) = t {
            if t.shape() != normalized {
                return runtime(format!(
                    "Expected {name} to be of same shape as normalized_shape, but got {name} of shape {} and normalized_shape = {}",
                    fmt_list(t.shape()),
                    fmt_list(normalized)
                ));
            }
        }
    }
    check_float("LayerNormKernelImpl", x)?;
    let inner: usize = normalized.iter().product();
    let mut stat_shape = x.shape()[..nd - k].to_vec();
    stat_shape.extend(std::iter::repeat_n(1, k));
    let dispatch = crate::tensor::dispatch::on(x.device());
    let (wc, bc) = (
        w.map(|w| w.contiguous()).transpose()?,
        b.map(|b| b.contiguous()).transpose()?,
    );
    // (operands on another device take the op-by-op path below, which reports the mismatch)
    let here = |t: &&Tensor| t.device() == x.device();
    let affine = wc
        .as_ref()
        .zip(bc.as_ref())
        .filter(|(w, b)| here(w) && here(b));
    let (xhat, fused, rstd) =
        match dispatch.layer_norm_rows(&x.contiguous()?, inner, affine, eps)? {
            Some((xhat, y, _mean, rstd)) => (xhat, y, rstd.reshape_to(&stat_shape)?),
            None => {
                let (xhat, rstd) = normalize_f64(x, inner, eps, &stat_shape)?;
                (xhat, None, rstd)
            }
        };
    let mut out = xhat.clone();
    mode::without(|| -> Result<()> {
        if let Some(y) = &fused {
            out = y.clone();
            return Ok(());
        }
        if let Some(w) = w {
            out = mul(&out, w)?;
        }
        if let Some(b) = b {
            out = add(&out, b)?;
        }
        Ok(())
    })?;
    let mut ins = vec![x];
    ins.extend(w);
    ins.extend(b);
    if is_recording(&ins) {
        // the output must not be the saved `xhat` itself, which an in-place op on it would change
        if out.ptr_eq(&xhat) {
            out = xhat.clone_tensor()?;
        }
        let red: Vec<i64> = (nd - k..nd).map(|d| d as i64).collect();
        let batch: Vec<i64> = (0..nd - k).map(|d| d as i64).collect();
        let (hw, hb) = (w.is_some(), b.is_some());
        let pad = 3 - ins.len();
        crate::tensor::autograd::node::record_padded(
            "NativeLayerNormBackward0",
            &ins,
            pad,
            &out,
            &[Some(&xhat), w],
            Box::new(move |g, c| {
                let xhat = c.saved(0);
                let w = hw.then(|| c.saved(1));
                let (nw, nb) = (hw && c.needs(1), hb && c.needs(1 + hw as usize));
                let fused = layer_norm_grads(g, xhat, w, &rstd, nw || nb)?;
                let (dx, sums) = match fused {
                    Some((dx, sums)) => (Some(dx), sums),
                    None => (None, None),
                };
                let dx = match dx {
                    Some(dx) => c.needs(0).then_some(dx),
                    None => when(c.needs(0), || layer_norm_dx(g, xhat, w, &rstd, &red))?,
                };
                let mut r = vec![dx];
                let bdims = batch.clone();
                let sum_b = |t: &Tensor| -> Result<Tensor> {
                    if bdims.is_empty() {
                        Ok(t.clone())
                    } else {
                        sum(t, Some(&bdims), false, None)
                    }
                };
                let shaped =
                    |t: &Tensor| t.reshape_to(xhat.shape()[xhat.ndim() - red.len()..].as_ref());
                if hw {
                    r.push(when(nw, || match &sums {
                        Some((dw, _)) => shaped(dw),
                        None => sum_b(&mul(g, xhat)?),
                    })?);
                }
                if hb {
                    r.push(when(nb, || match &sums {
                        Some((_, db)) => shaped(db),
                        None => sum_b(g),
                    })?);
                }
                Ok(r)
            }),
        )?;
    }
    Ok(out)
}

/// The normalised rows of `x` and each row's rstd (`stat_shape`), computed on the host in f64
/// and rounded as ATen's float kernel rounds its mean and rstd: for backends without
/// `layer_norm_rows`.
fn normalize_f64(
    x: &Tensor,
    inner: usize,
    eps: f64,
    stat_shape: &[usize],
) -> Result<(Tensor, Tensor)> {
    let rows = x.numel() / inner.max(1);
    let f32ish = x.dtype() != DType::F64;
    let r = |v: f64| if f32ish { v as f32 as f64 } else { v };
    let xv = x.contiguous_values_f64()?;
    let mut rstds = vec![0f64; rows];
    let mut y = vec![0f64; xv.len()];
    for i in 0..rows {
        let row = &xv[i * inner..(i + 1) * inner];
        let m = row.iter().sum::<f64>() / inner as f64;
        let var = row.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / inner as f64;
        let (m, rstd) = (r(m), r(1.0 / (r(var) + eps).sqrt()));
        rstds[i] = rstd;
        for j in 0..inner {
            y[i * inner + j] = r((row[j] - m) * rstd);
        }
    }
    let xhat = Tensor::from_f64s(&y, x.shape(), x.dtype())?.to_device(x.device())?;
    let rstd = Tensor::from_f64s(&rstds, stat_shape, x.dtype())?.to_device(x.device())?;
    Ok((xhat, rstd))
}

/// A layer norm's input gradient and, with `params`, the column sums `Σ g * xhat` and `Σ g`
/// over the rows (the weight's and bias's gradients, flat), from the backend's row kernel;
/// `None` where it has none for these operands.
fn layer_norm_grads(
    g: &Tensor,
    xhat: &Tensor,
    w: Option<&Tensor>,
    rstd: &Tensor,
    params: bool,
) -> Result<Option<crate::tensor::dispatch::NormGradients>> {
    if w.is_some_and(|w| w.device() != g.device()) {
        return Ok(None);
    }
    let d = crate::tensor::dispatch::on(g.device());
    let wc = w.map(|w| w.contiguous()).transpose()?;
    d.layer_norm_backward_rows(&g.contiguous()?, xhat, wc.as_ref(), rstd, params)
}

/// A layer norm's input gradient in engine ops: `rstd * (gw - mean(gw) - xhat * mean(gw *
/// xhat))`, `gw = g * w`, the means over the normalised dims `red`.
fn layer_norm_dx(
    g: &Tensor,
    xhat: &Tensor,
    w: Option<&Tensor>,
    rstd: &Tensor,
    red: &[i64],
) -> Result<Tensor> {
    let gw = match w {
        Some(w) => mul(g, w)?,
        None => g.clone(),
    };
    let m1 = mean(&gw, Some(red), true, None)?;
    let m2 = mean(&mul(&gw, xhat)?, Some(red), true, None)?;
    mul(rstd, &sub(&sub(&gw, &m1)?, &mul(xhat, &m2)?)?)
}

// ------------------------------------------------------------------ losses

fn check_same_size_warn(name: &str, input: &Tensor, target: &Tensor) -> Result<()> {
    if input.shape() != target.shape() {
        // PyTorch warns (UserWarning) and broadcasts
        eprintln!(
            "UserWarning: Using a target size (torch.Size({})) that is different to the input size (torch.Size({})). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
            fmt_list(target.shape()),
            fmt_list(input.shape())
        );
        let _ = name;
    }
    Ok(())
}

/// `F.mse_loss(input, target, reduction='mean')` (`MseLossBackward0`).
pub fn mse_loss(input: &Tensor, target: &Tensor, r: Reduction) -> Result<Tensor> {
    let (x, y) = autocast::cast2(AmpOp::MseLoss, input, target)?;
    autocast::excluded(|| mse_loss_uncast(&x, &y, r))
}

/// `mse_loss` past autocast (its inputs already cast, nested ops not cast again).
fn mse_loss_uncast(input: &Tensor, target: &Tensor, r: Reduction) -> Result<Tensor> {
    check_same_size_warn("mse_loss", input, target)?;
    let rec = is_recording(&[input, target]);
    let out = mode::without(|| {
        let d = sub(input, target)?;
        reduce(&mul(&d, &d)?, r)
    })?;
    if rec {
        record(
            "MseLossBackward0",
            &[input, target],
            &out,
            &[Some(input), Some(target)],
            move |g, c| {
                let (x, t) = (c.saved(0), c.saved(1));
                let d = sub(x, t)?;
                let mut gi = mul(&scale(&d, 2.0)?, g)?;
                if r == Reduction::Mean {
                    gi = scalar_op(BinaryOp::Div, &gi, d.numel() as f64)?;
                }
                Ok(vec![
                    when(c.needs(0), || Ok(gi.clone()))?,
                    when(c.needs(1), || neg(&gi))?,
                ])
            },
        )?;
    }
    Ok(out)
}

/// `F.l1_loss(input, target, reduction='mean')`: `|input - target|` reduced (composed, as in
/// PyTorch: `MeanBackward0` over `AbsBackward0` over `SubBackward0`).
pub fn l1_loss(input: &Tensor, target: &Tensor, r: Reduction) -> Result<Tensor> {
    let (x, y) = autocast::cast2(AmpOp::L1Loss, input, target)?;
    autocast::excluded(|| l1_loss_uncast(&x, &y, r))
}

/// `l1_loss` past autocast (its inputs already cast, nested ops not cast again).
fn l1_loss_uncast(input: &Tensor, target: &Tensor, r: Reduction) -> Result<Tensor> {
    check_same_size_warn("l1_loss", input, target)?;
    reduce(&unary(UnaryOp::Abs, &sub(input, target)?)?, r)
}

/// Input (N, C, d1, ...) → (N*d1*..., C) rows, target (N, d1, ...) → (N*d1*...).
fn as_rows(input: &Tensor) -> Result<(Tensor, usize)> {
    let c = if input.ndim() == 1 {
        input.shape()[0]
    } else {
        input.shape()[1]
    };
    if input.ndim() <= 2 {
        let rows = if input.ndim() == 1 {
            1
        } else {
            input.shape()[0]
        };
        return Ok((input.reshape_to(&[rows, c])?, c));
    }
    let mut perm: Vec<usize> = vec![0];
    perm.extend(2..input.ndim());
    perm.push(1);
    let moved = input.permute_dims(&perm)?.contiguous()?;
    let rows = input.numel() / c.max(1);
    Ok((moved.reshape_to(&[rows, c])?, c))
}

fn check_nll_shapes(input: &Tensor, target: &Tensor) -> Result<()> {
    let nd = input.ndim();
    if nd == 0 {
        return index_err("Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    }
    if !matches!(target.dtype(), DType::I64 | DType::U8) {
        return Err(crate::tensor::TensorError::new(
            crate::tensor::ErrorKind::Runtime,
            format!(
                "expected target dtype to be Long or Byte, but got {}",
                target.dtype().c10_name()
            ),
        )
        .with_hint("class-index targets must be integers: use target.long(); for one-hot or probability targets pass a float tensor of the input's shape"));
    }
    if nd == 1 {
        if target.ndim() > 1 {
            return runtime("0D or 1D target tensor expected, multi-target not supported");
        }
        if target.ndim() == 1 && target.shape()[0] != 1 {
            return value_err(format!(
                "Expected input batch_size (1) to match target batch_size ({}).",
                target.shape()[0]
            ));
        }
        return Ok(());
    }
    if nd == 2 {
        if target.ndim() != 1 {
            return runtime("0D or 1D target tensor expected, multi-target not supported");
        }
        if target.shape()[0] != input.shape()[0] {
            return value_err(format!(
                "Expected input batch_size ({}) to match target batch_size ({}).",
                input.shape()[0],
                target.shape()[0]
            ));
        }
        return Ok(());
    }
    if input.shape()[0] != target.shape().first().copied().unwrap_or(0) {
        return value_err(format!(
            "Expected input batch_size ({}) to match target batch_size ({}).",
            input.shape()[0],
            target.shape().first().copied().unwrap_or(0)
        ));
    }
    let mut want = vec![input.shape()[0]];
    want.extend_from_slice(&input.shape()[2..]);
    if target.shape() != want.as_slice() {
        return runtime(format!(
            "expected target size {}, got {}",
            fmt_list(&want),
            fmt_list(target.shape())
        ));
    }
    Ok(())
}

/// `F.nll_loss(input, target, weight=None, ignore_index=-100, reduction='mean')`
/// (`NllLossBackward0`), summed in PyTorch's cascade order.
pub fn nll_loss(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    ignore_index: i64,
    r: Reduction,
) -> Result<Tensor> {
    let v = autocast::cast_opts(AmpOp::NllLoss, &[Some(input), weight])?;
    autocast::excluded(|| nll_loss_uncast(req(&v[0]), target, v[1].as_ref(), ignore_index, r))
}

/// `nll_loss` past autocast (its inputs already cast, nested ops not cast again).
fn nll_loss_uncast(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    ignore_index: i64,
    r: Reduction,
) -> Result<Tensor> {
    check_nll_shapes(input, target)?;
    check_float("nll_loss_out_frame", input)?;
    let (rows, c) = mode::without(|| as_rows(input))?;
    if let Some(w) = weight {
        if w.ndim() != 1 || w.numel() != c {
            return runtime(format!(
                "weight tensor should be defined either for all {c} classes or no classes but got weight tensor of shape: {}",
                fmt_list(w.shape())
            ));
        }
    }
    let f32ish = input.dtype() != DType::F64;
    let rd = |v: f64| if f32ish { v as f32 as f64 } else { v };
    let t = target.contiguous_values_i64()?;
    let wv = match weight {
        Some(w) => Some(w.contiguous_values_f64()?),
        None => None,
    };
    for &ti in &t {
        if ti != ignore_index && (ti < 0 || ti >= c as i64) {
            return index_err(format!("Target {ti} is out of bounds."));
        }
    }
    // only each row's target entry is read: on the CPU pick those, not the whole input as f64
    // (a GPU reads the rows back as before: the simulated clock charges what it always has)
    let x = if input.device() == crate::tensor::Device::Cpu {
        let flat: Vec<i64> = t
            .iter()
            .enumerate()
            .map(|(i, &ti)| (i * c) as i64 + if ti == ignore_index { 0 } else { ti })
            .collect();
        mode::without(|| super::extra::host::take_flat(&rows, &flat, &[flat.len()]))?
            .contiguous_values_f64()?
    } else {
        let all = rows.contiguous_values_f64()?;
        t.iter()
            .enumerate()
            .map(|(i, &ti)| {
                if ti == ignore_index {
                    0.0
                } else {
                    all[i * c + ti as usize]
                }
            })
            .collect()
    };
    let n = t.len();
    let out = if r == Reduction::None {
        let vals: Vec<f64> = t
            .iter()
            .enumerate()
            .map(|(i, &ti)| {
                if ti == ignore_index {
                    0.0
                } else {
                    let w = wv.as_ref().map_or(1.0, |w| w[ti as usize]);
                    rd(-(x[i] * w))
                }
            })
            .collect();
        Tensor::from_f64s(&vals, target.shape(), input.dtype())?.to_device(input.device())?
    } else {
        // nll_loss_out_frame's cascade sum
        const LEVELS: usize = 8;
        let ceil_log2 = if n <= 1 {
            0
        } else {
            64 - ((n - 1) as u64).leading_zeros() as i64
        };
        let level_power = std::cmp::max(4, ceil_log2 / LEVELS as i64);
        let level_mask: i64 = (1 << level_power) - 1;
        let mut wsum = [0f64; LEVELS];
        let mut lsum = [0f64; LEVELS];
        let mut ignored = 0usize;
        for (b, &ti) in t.iter().enumerate() {
            if ti == ignore_index {
                ignored += 1;
                continue;
            }
            let d = x[b];
            match &wv {
                Some(w) => {
                    let wt = w[ti as usize];
                    lsum[0] = rd(lsum[0] - rd(d * wt));
                    wsum[0] = rd(wsum[0] + wt);
                }
                None => lsum[0] = rd(lsum[0] - d),
            }
            for j in 0..LEVELS - 1 {
                let mask = level_mask << (j as i64 * level_power);
                if (b as i64 & mask) != 0 {
                    break;
                }
                wsum[j + 1] = rd(wsum[j + 1] + wsum[j]);
                lsum[j + 1] = rd(lsum[j + 1] + lsum[j]);
                wsum[j] = 0.0;
                lsum[j] = 0.0;
            }
        }
        let total_w = match &wv {
            None => (n - ignored) as f64,
            Some(_) => wsum.iter().fold(0.0, |a, &v| rd(a + v)),
        };
        let mut o = lsum.iter().fold(0.0, |a, &v| rd(a + v));
        if r == Reduction::Mean {
            o = rd(o / total_w);
        }
        let _ = total_w;
        Tensor::scalar(Scalar::Float(o), input.dtype(), input.device())?
    };
    if is_recording1(input) {
        let total_w = match &wv {
            None => t.iter().filter(|&&ti| ti != ignore_index).count() as f64,
            Some(w) => t
                .iter()
                .filter(|&&ti| ti != ignore_index)
                .map(|&ti| w[ti as usize])
                .sum(),
        };
        let shape = input.shape().to_vec();
        let ndim = input.ndim();
        let dtype = input.dtype();
        let device = input.device();
        let name = if ndim > 2 {
            "NllLoss2DBackward0"
        } else {
            "NllLossBackward0"
        };
        record(name, &[input], &out, &[], move |g, _| {
            let gv = g.contiguous_values_f64()?;
            let mut gr = vec![0f64; n * c];
            for (i, &ti) in t.iter().enumerate() {
                if ti == ignore_index {
                    continue;
                }
                let w = wv.as_ref().map_or(1.0, |w| w[ti as usize]);
                let gi = match r {
                    Reduction::None => gv[i],
                    Reduction::Sum => gv[0],
                    Reduction::Mean => gv[0] / total_w,
                };
                gr[i * c + ti as usize] = -w * gi;
            }
            // rows (N*d..., C) back to (N, C, d...)
            let t2 = if ndim <= 2 {
                Tensor::from_f64s(&gr, &shape, dtype)?
            } else {
                let mut moved: Vec<usize> = vec![shape[0]];
                moved.extend_from_slice(&shape[2..]);
                moved.push(shape[1]);
                let m = Tensor::from_f64s(&gr, &moved, dtype)?;
                let mut perm = vec![0usize, ndim - 1];
                perm.extend(1..ndim - 1);
                m.permute_dims(&perm)?.contiguous()?
            };
            Ok(vec![Some(t2.to_device(device)?)])
        })?;
    }
    Ok(out)
}

/// `F.cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean',
/// label_smoothing=0.0)`: class indices or class probabilities.
pub fn cross_entropy(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    ignore_index: i64,
    r: Reduction,
    smoothing: f64,
) -> Result<Tensor> {
    let v = autocast::cast_cross_entropy(&[Some(input), weight])?;
    let (x, w) = (req(&v[0]), v[1].as_ref());
    autocast::excluded(|| cross_entropy_uncast(x, target, w, ignore_index, r, smoothing))
}

/// `cross_entropy` past autocast (its inputs already cast, nested ops not cast again).
fn cross_entropy_uncast(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    ignore_index: i64,
    r: Reduction,
    smoothing: f64,
) -> Result<Tensor> {
    if !(0.0..=1.0).contains(&smoothing) {
        return runtime(format!(
            "label_smoothing must be between 0.0 and 1.0. Got: {smoothing}"
        ));
    }
    if input.ndim() == 0 {
        return index_err("Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    }
    let class_dim: i64 = if input.ndim() == 1 { 0 } else { 1 };
    if target.dtype().is_floating() && target.shape() == input.shape() {
        return cross_entropy_probs(input, target, weight, r, smoothing, class_dim);
    }
    let logp = softmax(input, class_dim, None, true)?;
    let nll = nll_loss(&logp, target, weight, ignore_index, r)?;
    if smoothing == 0.0 {
        return Ok(nll);
    }
    let c = input.shape()[class_dim as usize] as f64;
    let ignore = binary_scalar(BinaryOp::Eq, target, Scalar::Int(ignore_index), false)?;
    let per = match weight {
        Some(w) => {
            let shape: Vec<i64> = (0..input.ndim())
                .map(|d| if d as i64 == class_dim { -1 } else { 1 })
                .collect();
            neg(&sum(
                &mul(&logp, &w.reshape(&shape)?)?,
                Some(&[class_dim]),
                false,
                None,
            )?)?
        }
        None => neg(&sum(&logp, Some(&[class_dim]), false, None)?)?,
    };
    let smooth = crate::tensor::ops::join::where_(
        &ignore,
        &crate::tensor::ops::join::TensorOrScalar::Scalar(Scalar::Float(0.0)),
        &crate::tensor::ops::join::TensorOrScalar::Tensor(per),
    )?;
    let ret = match r {
        Reduction::None => smooth,
        Reduction::Sum => sum(&smooth, None, false, None)?,
        Reduction::Mean => {
            let keep = unary(UnaryOp::LogicalNot, &ignore)?;
            let denom = match weight {
                Some(w) => {
                    let tv = target.contiguous_values_i64()?;
                    let wv = w.contiguous_values_f64()?;
                    tv.iter()
                        .filter(|&&t| t != ignore_index)
                        .map(|&t| wv[t as usize])
                        .sum::<f64>()
                }
                None => sum(&keep, None, false, None)?.item()?.to_f64(),
            };
            let s = sum(&smooth, None, false, None)?;
            binary_scalar(BinaryOp::Div, &s, Scalar::Float(denom), false)?
        }
    };
    let a = cpp_scalar(BinaryOp::Mul, &nll, 1.0 - smoothing)?;
    let b = cpp_scalar(BinaryOp::Mul, &ret, smoothing / c)?;
    add(&a, &b)
}

fn cross_entropy_probs(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    r: Reduction,
    smoothing: f64,
    class_dim: i64,
) -> Result<Tensor> {
    let c = input.shape()[class_dim as usize];
    let logp = softmax(input, class_dim, None, true)?;
    let target = if smoothing > 0.0 {
        scalar_op(
            BinaryOp::Add,
            &scale(target, 1.0 - smoothing)?,
            smoothing / c as f64,
        )?
    } else {
        target.clone()
    };
    let mut prod = mul(&logp, &target)?;
    if let Some(w) = weight {
        let shape: Vec<i64> = (0..input.ndim())
            .map(|d| if d as i64 == class_dim { -1 } else { 1 })
            .collect();
        prod = mul(&prod, &w.reshape(&shape)?)?;
    }
    match r {
        Reduction::None => neg(&sum(&prod, Some(&[class_dim]), false, None)?),
        Reduction::Sum => neg(&sum(&prod, None, false, None)?),
        Reduction::Mean => {
            let s = neg(&sum(&prod, None, false, None)?)?;
            cpp_scalar(BinaryOp::Div, &s, (input.numel() / c.max(1)) as f64)
        }
    }
}

/// `log(x)` and `log(1 - x)`, each clamped at -100 as PyTorch's BCE clamps them.
fn clamped_logs(x: &Tensor) -> Result<(Tensor, Tensor)> {
    let clamp =
        |t: Tensor| crate::tensor::ops::binary::clamp(&t, Some(Scalar::Float(-100.0)), None);
    Ok((
        clamp(unary(UnaryOp::Log1p, &neg(x)?)?)?,
        clamp(unary(UnaryOp::Log, x)?)?,
    ))
}

/// `log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|))`, stable for large `|x|`.
fn log_sigmoid(x: &Tensor) -> Result<Tensor> {
    let min0 = crate::tensor::ops::binary::clamp(x, None, Some(Scalar::Int(0)))?;
    let e = unary(UnaryOp::Exp, &neg(&unary(UnaryOp::Abs, x)?)?)?;
    sub(&min0, &unary(UnaryOp::Log1p, &e)?)
}

/// The end of the BCE backward formulas: times `weight`, times `g` when not yet applied, and
/// divided by the element count for `reduction='mean'` (in PyTorch's order).
fn weigh_and_average(
    mut gi: Tensor,
    mut gt: Option<Tensor>,
    weight: Option<&Tensor>,
    g: Option<&Tensor>,
    r: Reduction,
    numel: f64,
) -> Result<Grads> {
    for f in [weight, g].into_iter().flatten() {
        gi = mul(&gi, f)?;
        gt = gt.map(|v| mul(&v, f)).transpose()?;
    }
    if r == Reduction::Mean {
        gi = scalar_op(BinaryOp::Div, &gi, numel)?;
        gt = gt
            .map(|v| scalar_op(BinaryOp::Div, &v, numel))
            .transpose()?;
    }
    Ok(vec![Some(gi), gt])
}

/// `F.binary_cross_entropy(input, target, weight=None, reduction='mean')`.
pub fn binary_cross_entropy(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    r: Reduction,
) -> Result<Tensor> {
    let v = autocast::cast_opts(
        AmpOp::BinaryCrossEntropy,
        &[Some(input), Some(target), weight],
    )?;
    autocast::excluded(|| binary_cross_entropy_uncast(req(&v[0]), req(&v[1]), v[2].as_ref(), r))
}

/// `binary_cross_entropy` past autocast (its inputs already cast, nested ops not cast again).
fn binary_cross_entropy_uncast(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    r: Reduction,
) -> Result<Tensor> {
    if input.shape() != target.shape() {
        return value_err(format!(
            "Using a target size (torch.Size({})) that is different to the input size (torch.Size({})) is deprecated. Please ensure they have the same size.",
            fmt_list(target.shape()),
            fmt_list(input.shape())
        ));
    }
    check_float("binary_cross_entropy", input)?;
    let xv = input.contiguous_values_f64()?;
    if xv.iter().any(|&v| !(0.0..=1.0).contains(&v)) {
        return runtime("all elements of input should be between 0 and 1");
    }
    let rec = is_recording(&[input, target]);
    let out = mode::without(|| -> Result<Tensor> {
        let (log1m, logx) = clamped_logs(input)?;
        let tm1 = scalar_op(BinaryOp::Sub, target, 1.0)?;
        let mut loss = sub(&mul(&tm1, &log1m)?, &mul(target, &logx)?)?;
        if let Some(w) = weight {
            loss = mul(&loss, w)?;
        }
        reduce(&loss, r)
    })?;
    if rec {
        let numel = input.numel() as f64;
        record(
            "BinaryCrossEntropyBackward0",
            &[input, target],
            &out,
            &[Some(input), Some(target), weight],
            move |g, c| {
                let (x, t) = (c.saved(0), c.saved(1));
                // grad * (x - t) / max((1 - x) * x, 1e-12)
                let one_m = binary_scalar(BinaryOp::Sub, x, Scalar::Int(1), true)?;
                let denom = crate::tensor::ops::binary::clamp(
                    &mul(&one_m, x)?,
                    Some(Scalar::Float(1e-12)),
                    None,
                )?;
                let gi = mul(&div(&sub(x, t)?, &denom)?, g)?;
                // d/dtarget: grad * (log(1 - x) - log(x)), each clamped at -100
                let gt = if c.needs(1) {
                    let (l1, l0) = clamped_logs(x)?;
                    Some(mul(&sub(&l1, &l0)?, g)?)
                } else {
                    None
                };
                weigh_and_average(gi, gt, c.saved_opt(2), None, r, numel)
            },
        )?;
    }
    Ok(out)
}

/// `F.binary_cross_entropy_with_logits(input, target, weight=None, reduction='mean',
/// pos_weight=None)`.
pub fn bce_with_logits(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    pos_weight: Option<&Tensor>,
    r: Reduction,
) -> Result<Tensor> {
    let ins = [Some(input), Some(target), weight, pos_weight];
    let v = autocast::cast_opts(AmpOp::BinaryCrossEntropyWithLogits, &ins)?;
    let (x, y) = (req(&v[0]), req(&v[1]));
    autocast::excluded(|| bce_with_logits_uncast(x, y, v[2].as_ref(), v[3].as_ref(), r))
}

/// `bce_with_logits` past autocast (its inputs already cast, nested ops not cast again).
fn bce_with_logits_uncast(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    pos_weight: Option<&Tensor>,
    r: Reduction,
) -> Result<Tensor> {
    if input.shape() != target.shape() {
        return value_err(format!(
            "Target size (torch.Size({})) must be the same as input size (torch.Size({}))",
            fmt_list(target.shape()),
            fmt_list(input.shape())
        ));
    }
    check_float("binary_cross_entropy_with_logits", input)?;
    let rec = is_recording(&[input, target]);
    let out = mode::without(|| -> Result<Tensor> {
        let mut ls = log_sigmoid(input)?;
        if let Some(pw) = pos_weight {
            let lw = scalar_op(
                BinaryOp::Add,
                &mul(&scalar_op(BinaryOp::Sub, pw, 1.0)?, target)?,
                1.0,
            )?;
            ls = mul(&ls, &lw)?;
        }
        let one_m = binary_scalar(BinaryOp::Sub, target, Scalar::Int(1), true)?;
        let mut loss = sub(&mul(&one_m, input)?, &ls)?;
        if let Some(w) = weight {
            loss = mul(&loss, w)?;
        }
        reduce(&loss, r)
    })?;
    if rec {
        let numel = input.numel() as f64;
        record(
            "BinaryCrossEntropyWithLogitsBackward0",
            &[input, target],
            &out,
            &[Some(input), Some(target), weight, pos_weight],
            move |g, c| {
                let (x, t) = (c.saved(0), c.saved(1));
                let sig = unary(UnaryOp::Sigmoid, x)?;
                let gi = match c.saved_opt(3) {
                    Some(pw) => {
                        let pt = mul(pw, t)?;
                        sub(
                            &mul(&sub(&scalar_op(BinaryOp::Add, &pt, 1.0)?, t)?, &sig)?,
                            &pt,
                        )?
                    }
                    None => sub(&sig, t)?,
                };
                // d/dtarget: log_sigmoid(-x) - pos_weight * log_sigmoid(x), or -x
                let gt = if c.needs(1) {
                    Some(match c.saved_opt(3) {
                        Some(pw) => sub(&log_sigmoid(&neg(x)?)?, &mul(pw, &log_sigmoid(x)?)?)?,
                        None => neg(x)?,
                    })
                } else {
                    None
                };
                weigh_and_average(gi, gt, c.saved_opt(2), Some(g), r, numel)
            },
        )?;
    }
    Ok(out)
}
