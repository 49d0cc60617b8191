//! The matmul family: `dot`, `mv`, `mm`, `bmm` and `matmul` (`@`) with its broadcasting rules
//! (ATen `LinearAlgebra.cpp`). No type promotion: operands must share a dtype, as in PyTorch.
use crate::tensor::autocast::{self, AmpOp};
use crate::tensor::error::{not_impl_for, runtime, Result};
use crate::tensor::shape::{broadcast_shapes, Dims};
use crate::tensor::{DType, Device, Tensor};

/// Devices of a two-matrix op: PyTorch names the offending argument and the CUDA wrapper
/// (the schema's names: `mm(self, mat2)`, `bmm(self, mat2)`, `dot(self, tensor)`, `mv(self, vec)`).
fn check_devices(a: &Tensor, b: &Tensor, names: (&str, &str), method: &str) -> Result<Device> {
    if a.device() == b.device() {
        return Ok(a.device());
    }
    super::wrapper_devices(&[(names.0, a), (names.1, b)], method)
}

/// A view of a matrix as a batch of one ([1, M, K]).
fn batch1(t: &Tensor) -> Tensor {
    let mut sh = Dims::from_slice(&[1]);
    let mut st = Dims::from_slice(&[0]);
    for i in 0..t.ndim() {
        sh.push(t.shape()[i]);
        st.push(t.strides()[i]);
    }
    t.view_as_layout(sh, st, t.offset())
}

fn bmm_raw(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let r = crate::tensor::dispatch::on(a.device()).bmm(a, b)?;
    // after the result, as cuBLAS's handle takes its workspace after ATen allocates the output
    if let crate::tensor::Device::Cuda(i) = a.device() {
        crate::backend::gpu::blas_workspaces(i, false)?;
    }
    Ok(r)
}

/// `torch.mm(a, b)`.
pub fn mm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (a, b) = autocast::cast2(AmpOp::Mm, a, b)?;
    autocast::excluded(|| mm_uncast(&a, &b))
}

/// `mm` past autocast (its inputs already cast, nested ops not cast again).
fn mm_uncast(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    check_devices(a, b, ("mat1", "mat2"), "mm")?;
    if a.ndim() != 2 {
        return runtime(format!(
            "mm: self must be a matrix, got {}-D tensor",
            a.ndim()
        ));
    }
    if b.ndim() != 2 {
        return runtime(format!(
            "mm: mat2 must be a matrix, got {}-D tensor",
            b.ndim()
        ));
    }
    mm_checked(a, b)
}

fn mm_checked(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.shape()[1] != b.shape()[0] {
        let (m, k, k2, n) = (a.shape()[0], a.shape()[1], b.shape()[0], b.shape()[1]);
        let mut hint = format!("the inner sizes must match: {m}x{k} @ {k2}x{n} needs {k} == {k2}");
        if k == n {
            hint.push_str("; transposing the second operand (.T) would give a match");
        }
        return Err(crate::tensor::TensorError::new(
            crate::tensor::ErrorKind::Runtime,
            format!("mm: mat1 and mat2 shapes cannot be multiplied ({m}x{k} and {k2}x{n})"),
        )
        .with_hint(hint));
    }
    if a.dtype() != b.dtype() {
        return runtime(format!(
            "expected m1 and m2 to have the same dtype, but got: {} != {}",
            a.dtype().cpp_name(),
            b.dtype().cpp_name()
        ));
    }
    if a.dtype() == DType::Bool {
        return not_impl_for("addmm_impl_cpu_", a.dtype());
    }
    let r = bmm_raw(&batch1(a), &batch1(b))?
        .reshape_raw(&[a.shape()[0] as i64, b.shape()[1] as i64])?;
    if crate::tensor::autograd::is_recording(&[a, b]) {
        grad::record_mm(a, b, &r)?;
    }
    Ok(r)
}

/// `b + x @ w` for floating matrices as one cuBLAS product with `b` broadcast into its
/// accumulator (no separate bias pass), where the backend has one; `None` elsewhere (the CPU,
/// the simulated GPU) and for operands it does not fit, which the caller computes in ops.
pub(crate) fn addmm_fused(b: &Tensor, x: &Tensor, w: &Tensor) -> Result<Option<Tensor>> {
    let fits = x.ndim() == 2 && w.ndim() == 2 && x.shape()[1] == w.shape()[0];
    if !fits || !matches!(x.device(), Device::Cuda(_)) {
        return Ok(None);
    }
    let (m, n) = (x.shape()[0], w.shape()[1]);
    let Ok(c) = b.expand(&[m as i64, n as i64]) else {
        return Ok(None);
    };
    let dispatch = crate::tensor::dispatch::on(x.device());
    match dispatch.baddbmm(&batch1(&c), &batch1(x), &batch1(w))? {
        Some(r) => Ok(Some(r.reshape_raw(&[m as i64, n as i64])?)),
        None => Ok(None),
    }
}

/// `torch.bmm(a, b)`.
pub fn bmm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (a, b) = autocast::cast2(AmpOp::Bmm, a, b)?;
    autocast::excluded(|| bmm_uncast(&a, &b))
}

/// `bmm` past autocast (its inputs already cast, nested ops not cast again).
fn bmm_uncast(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    check_devices(a, b, ("self", "mat2"), "bmm")?;
    if a.ndim() != 3 {
        return runtime("batch1 must be a 3D tensor");
    }
    if b.ndim() != 3 {
        return runtime("batch2 must be a 3D tensor");
    }
    bmm_checked(a, b)
}

fn bmm_checked(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (bs, k) = (a.shape()[0], a.shape()[2]);
    if b.shape()[0] != bs || b.shape()[1] != k {
        return runtime(format!(
            "Expected size for first two dimensions of batch2 tensor to be: [{bs}, {k}] but got: [{}, {}].",
            b.shape()[0],
            b.shape()[1]
        ));
    }
    if a.dtype() != b.dtype() {
        return runtime(format!(
            "expected scalar type {} but found {}",
            a.dtype().c10_name(),
            b.dtype().c10_name()
        ));
    }
    if a.dtype() == DType::Bool {
        return not_impl_for("bmm", a.dtype());
    }
    let r = bmm_raw(a, b)?;
    if crate::tensor::autograd::is_recording(&[a, b]) {
        grad::record_bmm(a, b, &r)?;
    }
    Ok(r)
}

/// `torch.dot(a, b)` of two vectors: a 0-dim tensor.
pub fn dot(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (a, b) = autocast::cast2(AmpOp::Dot, a, b)?;
    autocast::excluded(|| dot_uncast(&a, &b))
}

/// `dot` past autocast (its inputs already cast, nested ops not cast again).
fn dot_uncast(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    check_devices(a, b, ("self", "tensor"), "dot")?;
    if a.ndim() != 1 || b.ndim() != 1 {
        return runtime(format!(
            "1D tensors expected, but got {}D and {}D tensors",
            a.ndim(),
            b.ndim()
        ));
    }
    dot_checked(a, b)
}

fn dot_checked(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.dtype() != b.dtype() {
        return runtime(format!(
            "dot : expected both vectors to have same dtype, but found {} and {}",
            a.dtype().c10_name(),
            b.dtype().c10_name()
        ));
    }
    if a.numel() != b.numel() {
        return runtime(format!(
            "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got {} and {} elements respectively",
            a.numel(),
            b.numel(),
            a.numel(),
            b.numel()
        ));
    }
    if a.dtype() == DType::Bool {
        return not_impl_for("dot", a.dtype());
    }
    let r =
        bmm_raw(&batch1(&a.unsqueeze_raw(0)?), &batch1(&b.unsqueeze_raw(1)?))?.reshape_raw(&[])?;
    if crate::tensor::autograd::is_recording(&[a, b]) {
        grad::record_dot(a, b, &r)?;
    }
    Ok(r)
}

/// `torch.mv(m, v)`.
pub fn mv(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (a, b) = autocast::cast2(AmpOp::Mv, a, b)?;
    autocast::excluded(|| mv_uncast(&a, &b))
}

/// `mv` past autocast (its inputs already cast, nested ops not cast again).
fn mv_uncast(m: &Tensor, v: &Tensor) -> Result<Tensor> {
    check_devices(m, v, ("mat", "vec"), "mv")?;
    if m.ndim() != 2 || v.ndim() != 1 {
        return runtime(format!(
            "vector + matrix @ vector expected, got {}, {}, {}",
            1,
            m.ndim(),
            v.ndim()
        ));
    }
    mv_checked(m, v)
}

fn mv_checked(m: &Tensor, v: &Tensor) -> Result<Tensor> {
    if m.dtype() != v.dtype() {
        return runtime(format!(
            "addmv input tensors must have the same dtype, but got {}, {}, and {}",
            v.dtype().c10_name(),
            m.dtype().c10_name(),
            v.dtype().c10_name()
        ));
    }
    if m.shape()[1] != v.shape()[0] {
        return runtime(format!(
            "size mismatch, got input ({}), mat ({}x{}), vec ({})",
            m.shape()[0],
            m.shape()[0],
            m.shape()[1],
            v.shape()[0]
        ));
    }
    if m.dtype() == DType::Bool {
        return not_impl_for("addmv_impl_cpu", m.dtype());
    }
    let r =
        bmm_raw(&batch1(m), &batch1(&v.unsqueeze_raw(1)?))?.reshape_raw(&[m.shape()[0] as i64])?;
    if crate::tensor::autograd::is_recording(&[m, v]) {
        grad::record_mv(m, v, &r)?;
    }
    Ok(r)
}

/// `torch.matmul(a, b)` / `a @ b`.
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let _row = crate::backend::profile_log::Range::open("aten::matmul");
    let (a, b) = autocast::cast2(AmpOp::Matmul, a, b)?;
    autocast::excluded(|| matmul_uncast(&a, &b))
}

/// `matmul` past autocast (its inputs already cast, nested ops not cast again).
fn matmul_uncast(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (da, db) = (a.ndim(), b.ndim());
    if da == 0 || db == 0 {
        return runtime(format!(
            "both arguments to matmul need to be at least 1D, but they are {da}D and {db}D"
        ));
    }
    check_devices(a, b, ("mat1", "mat2"), "mm")?;
    match (da, db) {
        (1, 1) => dot_checked(a, b),
        (2, 1) => mv_checked(a, b),
        (1, 2) => mm_checked(&a.unsqueeze(0)?, b)?.squeeze_dims(0),
        (2, 2) => mm_checked(a, b),
        (_, 1) | (_, 2) if da >= 3 => {
            // fold the batch into rows: [..., n, k] @ [k, p]
            let k = a.shape()[da - 1];
            let rows: usize = a.shape()[..da - 1].iter().product();
            let a2 = a.reshape_to(&[rows, k])?;
            let mut out_shape: Vec<usize> = a.shape()[..da - 1].to_vec();
            if db == 1 {
                let r = mv_checked(&a2, b)?;
                return r.unsafe_view(&out_shape);
            }
            let r = mm_checked(&a2, b)?;
            out_shape.push(b.shape()[1]);
            r.unsafe_view(&out_shape)
        }
        _ => batched(a, b),
    }
}

fn batched(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (da, db) = (a.ndim(), b.ndim());
    let a1 = if da == 1 { a.unsqueeze(0)? } else { a.clone() };
    let b1 = if db == 1 { b.unsqueeze(1)? } else { b.clone() };
    let (n, m1) = (a1.shape()[a1.ndim() - 2], a1.shape()[a1.ndim() - 1]);
    let (m2, p) = (b1.shape()[b1.ndim() - 2], b1.shape()[b1.ndim() - 1]);
    let batch_a = &a1.shape()[..a1.ndim() - 2];
    let batch_b = &b1.shape()[..b1.ndim() - 2];
    let batch = broadcast_shapes(batch_a, batch_b)?;
    let bprod = crate::tensor::shape::checked_numel(&batch)?;
    let mut ea: Vec<usize> = batch.to_vec();
    ea.extend([n, m1]);
    let mut eb: Vec<usize> = batch.to_vec();
    eb.extend([m2, p]);
    let a3 = a1.expand_to(&ea)?.reshape_to(&[bprod, n, m1])?;
    let b3 = b1.expand_to(&eb)?.reshape_to(&[bprod, m2, p])?;
    let r = bmm_checked(&a3, &b3)?;
    let mut out: Vec<usize> = batch.to_vec();
    if da > 1 {
        out.push(n);
    }
    if db > 1 {
        out.push(p);
    }
    r.unsafe_view(&out)
}

/// The autograd rules of this file.
pub(crate) mod grad;
