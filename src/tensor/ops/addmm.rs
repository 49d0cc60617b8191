//! `torch.addmm(input, mat1, mat2, beta=1, alpha=1)`: `beta * input + alpha * (mat1 @ mat2)`
//! in one node (`AddmmBackward0`), as BLAS's gemm computes it: a zero `beta` never reads
//! `input` (its NaNs vanish) and a zero `alpha` never reads the matrices. `F.linear` is its
//! `beta = alpha = 1` case.
use crate::tensor::autograd::util::{add, scale, when};
use crate::tensor::autograd::{is_recording, mode, record};
use crate::tensor::error::{runtime, Result};
use crate::tensor::ops::binary::{binary_scalar, BinaryOp};
use crate::tensor::ops::matmul::grad::{column_major, mm_mat1_backward, mm_mat2_backward};
use crate::tensor::ops::matmul::mm;
use crate::tensor::{DType, Device, Scalar, Tensor};

/// `torch.addmm(input, mat1, mat2, beta=, alpha=)` as the learner calls it: PyTorch's checks,
/// in its order and words, then `addmm_scaled`.
pub fn addmm_checked(
    b: &Tensor,
    x: &Tensor,
    w: &Tensor,
    beta: Scalar,
    alpha: Scalar,
) -> Result<Tensor> {
    let same = |p: &str, q: &str, a: DType, c: DType| -> Result<()> {
        if a == c {
            return Ok(());
        }
        let (a, c) = (a.c10_name(), c.c10_name());
        runtime(format!(
            "{p} and {q} must have the same dtype, but got {a} and {c}"
        ))
    };
    same("self", "mat2", b.dtype(), w.dtype())?;
    same("mat1", "mat2", x.dtype(), w.dtype())?;
    for (name, m) in [("self", x), ("mat2", w)] {
        if m.ndim() != 2 {
            return runtime(format!(
                "addmm: {name} must be a matrix, got {}-D tensor",
                m.ndim()
            ));
        }
    }
    let (m, k, k2, n) = (x.shape()[0], x.shape()[1], w.shape()[0], w.shape()[1]);
    if k != k2 {
        return runtime(format!(
            "addmm: mat1 and mat2 shapes cannot be multiplied ({m}x{k} and {k2}x{n})"
        ));
    }
    // the bias must broadcast to the product's shape (expand's error otherwise)
    b.expand(&[m as i64, n as i64])?;
    addmm_scaled(b, x, w, beta, alpha)
}

/// `torch.addmm(b, x, w)`: `b + x @ w` in one node (`AddmmBackward0`).
pub fn addmm(b: &Tensor, x: &Tensor, w: &Tensor) -> Result<Tensor> {
    addmm_scaled(b, x, w, Scalar::Int(1), Scalar::Int(1))
}

/// A coefficient as gemm reads it for operands of `dt`: a float is truncated for integer
/// tensors (`alpha=0.5` on int64 is 0).
fn coef(s: Scalar, dt: DType) -> Scalar {
    if dt.is_floating() {
        Scalar::Float(s.to_f64())
    } else {
        Scalar::Int(s.to_i64())
    }
}

/// `beta * b + alpha * (x @ w)` in one node; the gradients are PyTorch's: `beta * g` for `b`,
/// the matrix gradients times `alpha`.
pub fn addmm_scaled(
    b: &Tensor,
    x: &Tensor,
    w: &Tensor,
    beta: Scalar,
    alpha: Scalar,
) -> Result<Tensor> {
    super::wrapper_devices(&[("self", b), ("mat1", x), ("mat2", w)], "addmm")?;
    let (beta, alpha) = (coef(beta, x.dtype()), coef(alpha, x.dtype()));
    let rec = is_recording(&[b, x, w]);
    let out = mode::without(|| addmm_values(b, x, w, beta, alpha))?;
    // a 1-D bias over a matrix with more than one row and column runs on cuBLASLt (ATen's
    // `useLtInterface`), which takes a workspace of its own (cuBLAS's was taken by `mm`)
    if let Device::Cuda(i) = x.device() {
        if b.ndim() == 1 && x.shape()[0] > 1 && x.shape()[1] > 1 && w.shape()[1] > 1 {
            crate::backend::gpu::blas_workspaces(i, true)?;
        }
    }
    if rec {
        let (nx, nw) = (x.requires_grad(), w.requires_grad());
        let (x_cm, w_cm) = (column_major(x), column_major(w));
        let (beta, alpha) = (beta.to_f64(), alpha.to_f64());
        // ATen's `maybe_multiply`: a coefficient of 1 leaves the gradient as it is
        let times = |t: Tensor, s: f64| if s == 1.0 { Ok(t) } else { scale(&t, s) };
        record(
            "AddmmBackward0",
            &[b, x, w],
            &out,
            &[nw.then_some(x), nx.then_some(w)],
            move |g, c| {
                Ok(vec![
                    when(c.needs(0), || times(g.clone(), beta))?,
                    when(c.needs(1), || {
                        times(mm_mat1_backward(g, c.saved(1), x_cm)?, alpha)
                    })?,
                    when(c.needs(2), || {
                        times(mm_mat2_backward(g, c.saved(0), w_cm)?, alpha)
                    })?,
                ])
            },
        )?;
    }
    Ok(out)
}

/// `beta * b + alpha * (x @ w)`. In float16/bfloat16 PyTorch accumulates in float32 and adds
/// the bias before the one rounding (the bias is gemm's `C`), so autocast's `F.linear` outputs
/// match it digit for digit. On a card with `beta = alpha = 1` it is one cuBLAS product (as
/// ATen's, with no separate bias pass), elsewhere ops.
fn addmm_values(b: &Tensor, x: &Tensor, w: &Tensor, beta: Scalar, alpha: Scalar) -> Result<Tensor> {
    let unit = |s: Scalar| s.to_f64() == 1.0;
    if unit(beta) && unit(alpha) {
        if let Some(out) = crate::tensor::ops::matmul::addmm_fused(b, x, w)? {
            return Ok(out);
        }
    }
    let dt = x.dtype();
    if matches!(dt, DType::F16 | DType::BF16) && w.dtype() == dt && b.dtype() == dt {
        let f = |t: &Tensor| t.to_dtype(DType::F32);
        return gemm(&f(b)?, &f(x)?, &f(w)?, beta, alpha)?.to_dtype(dt);
    }
    gemm(b, x, w, beta, alpha)
}

/// gemm's `C = alpha * A @ B + beta * C`, with `C` the bias broadcast to the product's shape.
fn gemm(b: &Tensor, x: &Tensor, w: &Tensor, beta: Scalar, alpha: Scalar) -> Result<Tensor> {
    let zero = |s: Scalar| s.to_f64() == 0.0;
    let times = |t: &Tensor, s: Scalar| binary_scalar(BinaryOp::Mul, t, s, false);
    let (m, n) = (x.shape()[0] as i64, w.shape()[1] as i64);
    let product = if zero(alpha) {
        None
    } else if alpha.to_f64() == 1.0 {
        Some(mm(x, w)?)
    } else {
        Some(times(&mm(x, w)?, alpha)?)
    };
    match (product, zero(beta)) {
        (Some(p), true) => Ok(p),
        (Some(p), false) if beta.to_f64() == 1.0 => add(&p, b),
        (Some(p), false) => add(&p, &times(b, beta)?),
        // beta * C alone, a new tensor of the product's shape (`-0.0` kept)
        (None, false) => times(&b.expand(&[m, n])?, beta)?.contiguous(),
        (None, true) => crate::tensor::create::zeros(&[m, n], Some(x.dtype()), x.device()),
    }
}
