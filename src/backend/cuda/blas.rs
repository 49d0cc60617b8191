//! Matrix products through cuBLAS (`cublasGemmStridedBatchedEx`), as PyTorch makes them:
//! float32 computes in float32 (TF32 off, PyTorch's default), float16 and bfloat16 read and
//! write 16-bit data and accumulate in float32 on the tensor cores, float64 in float64.
use super::driver::Driver;
use super::host_route::gpu_err;
use crate::backend::{Owned, View};
use crate::core::error::Result;
use crate::core::DType;
use cudarc::cublas::sys::{
    cublasComputeType_t as Compute, cublasOperation_t as Op, cudaDataType as Ty,
};
use std::ffi::c_void;

/// How cuBLAS (column-major) sees one row-major batch of matrices.
#[derive(Debug, PartialEq)]
pub struct MatView {
    /// Whether the operand must be transposed (`CUBLAS_OP_T`): the stored matrix is column-major.
    pub trans: bool,
    pub ld: i64,
    pub batch_stride: i64,
}

/// The cuBLAS view of a `[B, R, C]` operand with `strides`, or `None` when neither of its
/// matrix dims has unit stride (it is copied to row-major first). Strides of size-1 dims do not
/// matter and are replaced by the ones a dense layout would have.
pub fn mat_view(shape: &[usize], strides: &[usize]) -> Option<MatView> {
    let (r, c) = (shape[1], shape[2]);
    let sr = if r == 1 { c.max(1) } else { strides[1] };
    let sc = if c == 1 { 1 } else { strides[2] };
    let batch_stride = if shape[0] == 1 { 0 } else { strides[0] } as i64;
    if sc == 1 && sr >= c.max(1) {
        Some(MatView {
            trans: false,
            ld: sr as i64,
            batch_stride,
        })
    } else if sr == 1 && sc >= r.max(1) {
        Some(MatView {
            trans: true,
            ld: sc as i64,
            batch_stride,
        })
    } else if c == 1 && r == 1 {
        Some(MatView {
            trans: false,
            ld: 1,
            batch_stride,
        })
    } else {
        None
    }
}

/// One `cublasGemmStridedBatchedEx` call in cuBLAS's terms (column-major).
pub struct Gemm {
    trans_a: bool,
    trans_b: bool,
    m: i32,
    n: i32,
    k: i32,
    a: u64,
    lda: i32,
    stride_a: i64,
    b: u64,
    ldb: i32,
    stride_b: i64,
    c: u64,
    ldc: i32,
    stride_c: i64,
    batch: i32,
    dtype: DType,
    /// `C = A·B + C` (`beta = 1`) rather than `C = A·B`.
    accumulate: bool,
}

impl Gemm {
    /// Run it with `handle`, whose context must be current.
    ///
    /// # Safety
    /// Every pointer must address a live block of the handle's device holding its operand
    /// under the (ld, batch stride) view; `c` must have room for the dense `[batch, n, m]`
    /// column-major result.
    pub unsafe fn run(
        &self,
        handle: cudarc::cublas::sys::cublasHandle_t,
    ) -> std::result::Result<(), String> {
        let (ty, compute) = match self.dtype {
            DType::F64 => (Ty::CUDA_R_64F, Compute::CUBLAS_COMPUTE_64F),
            DType::F16 => (Ty::CUDA_R_16F, Compute::CUBLAS_COMPUTE_32F),
            DType::BF16 => (Ty::CUDA_R_16BF, Compute::CUBLAS_COMPUTE_32F),
            _ => (Ty::CUDA_R_32F, Compute::CUBLAS_COMPUTE_32F),
        };
        let op = |t: bool| if t { Op::CUBLAS_OP_T } else { Op::CUBLAS_OP_N };
        let (one32, one64) = (1f32, 1f64);
        let (beta32, beta64) = if self.accumulate {
            (1f32, 1f64)
        } else {
            (0f32, 0f64)
        };
        let (alpha, beta): (*const c_void, *const c_void) = if self.dtype == DType::F64 {
            (&one64 as *const f64 as _, &beta64 as *const f64 as _)
        } else {
            (&one32 as *const f32 as _, &beta32 as *const f32 as _)
        };
        cudarc::cublas::result::gemm_strided_batched_ex(
            handle,
            op(self.trans_a),
            op(self.trans_b),
            self.m,
            self.n,
            self.k,
            alpha,
            self.a as *const c_void,
            ty,
            self.lda,
            self.stride_a,
            self.b as *const c_void,
            ty,
            self.ldb,
            self.stride_b,
            beta,
            self.c as *mut c_void,
            ty,
            self.ldc,
            self.stride_c,
            self.batch,
            compute,
            cudarc::cublas::sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
        )
        .map_err(|e| format!("CUDA error: cuBLAS failed ({:?})", e.0))
    }
}

/// `a @ b` for `a: [B, M, K]`, `b: [B, K, N]` of one floating dtype, or `None` when cuBLAS
/// does not serve it (integers, no cuBLAS) and the host route must.
pub fn bmm(d: &dyn Driver, a: View, b: View) -> Result<Option<Owned>> {
    let dt = a.dtype();
    if !d.has_blas() || !matches!(dt, DType::F32 | DType::F64 | DType::F16 | DType::BF16) {
        return Ok(None);
    }
    product(d, a, b, None)
}

/// `c + a @ b` (`c: [B, M, N]`, any strides): `c` is copied dense into the output and cuBLAS
/// adds the product to it (`beta = 1`; float16/bfloat16 in float32, rounded once), as ATen's
/// addmm does. `None` for integers, empty products or without cuBLAS.
pub fn baddbmm(d: &dyn Driver, c: View, a: View, b: View) -> Result<Option<Owned>> {
    let dt = a.dtype();
    let empty = a.shape().contains(&0) || b.shape().contains(&0);
    let float = matches!(dt, DType::F32 | DType::F64 | DType::F16 | DType::BF16);
    if !d.has_blas() || !float || c.dtype() != dt || b.dtype() != dt || empty {
        return Ok(None);
    }
    let out = crate::backend::Backend::contiguous_copy(&super::backend::CUDA, c)?;
    product(d, a, b, Some(out))
}

/// The cuBLAS product behind `bmm` and `baddbmm`: into a new output, or added to `acc`
/// (dense `[B, M, N]`).
fn product(d: &dyn Driver, a: View, b: View, acc: Option<Owned>) -> Result<Option<Owned>> {
    let dt = a.dtype();
    let (bsz, m, kk, n) = (a.shape()[0], a.shape()[1], a.shape()[2], b.shape()[2]);
    let shape = [bsz, m, n];
    if acc.is_none() && (bsz * m * n == 0 || kk == 0) {
        // zeros, as an empty sum
        let out =
            crate::backend::Backend::zeros(&super::backend::CUDA, dt, bsz * m * n, a.device())?;
        return Ok(Some(Owned::contiguous(out, &shape)));
    }
    // a copy made for cuBLAS, when the operand's layout is not one it reads
    let dense = |t: View| -> Result<(Option<Owned>, MatView)> {
        if let Some(v) = mat_view(t.shape(), t.strides()) {
            return Ok((None, v));
        }
        let c = crate::backend::Backend::contiguous_copy(&super::backend::CUDA, t)?;
        let v =
            mat_view(c.view().shape(), c.view().strides()).expect("row-major is a cuBLAS layout");
        Ok((Some(c), v))
    };
    let (ca, va) = dense(a)?;
    let (cb, vb) = dense(b)?;
    let a = ca.as_ref().map_or(a, Owned::view);
    let b = cb.as_ref().map_or(b, Owned::view);
    let big = |x: usize| x > i32::MAX as usize;
    if [m, n, kk, bsz].into_iter().any(big) || va.ld > i32::MAX as i64 || vb.ld > i32::MAX as i64 {
        return Ok(None);
    }
    let accumulate = acc.is_some();
    // cuBLAS writes every element (beta = 0 reads none), so the output needs no memset
    let out = match acc {
        Some(c) => c,
        None => Owned::contiguous(super::backend::alloc(dt, bsz * m * n, a.device())?, &shape),
    };
    let ptr = |t: &View| t.storage().device_ptr() + (t.offset() * dt.size()) as u64;
    // row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: cuBLAS gets b first, with m and n swapped
    let g = Gemm {
        trans_a: vb.trans,
        trans_b: va.trans,
        m: n as i32,
        n: m as i32,
        k: kk as i32,
        a: ptr(&b),
        lda: vb.ld as i32,
        stride_a: vb.batch_stride,
        b: ptr(&a),
        ldb: va.ld as i32,
        stride_b: va.batch_stride,
        c: out.view().storage().device_ptr(),
        ldc: n as i32,
        stride_c: (m * n) as i64,
        batch: bsz as i32,
        dtype: dt,
        accumulate,
    };
    d.gemm(&g).map_err(gpu_err)?;
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cublas_views_of_row_major_and_transposed_operands() {
        // a contiguous [2, 3, 4]: row-major, ld 4, batches 12 apart
        let v = mat_view(&[2, 3, 4], &[12, 4, 1]).unwrap();
        assert_eq!(
            v,
            MatView {
                trans: false,
                ld: 4,
                batch_stride: 12
            }
        );
        // its transpose [2, 4, 3] with strides [12, 1, 4]: column-major, ld 4
        let v = mat_view(&[2, 4, 3], &[12, 1, 4]).unwrap();
        assert_eq!(
            v,
            MatView {
                trans: true,
                ld: 4,
                batch_stride: 12
            }
        );
        // a broadcast batch (stride 0) stays a strided batch
        assert_eq!(mat_view(&[5, 3, 4], &[0, 4, 1]).unwrap().batch_stride, 0);
        // a row slice of a wider matrix: ld is the parent's row length
        assert_eq!(mat_view(&[1, 3, 4], &[0, 10, 1]).unwrap().ld, 10);
        // a vector as [1, K, 1] or [1, 1, N] with arbitrary strides on size-1 dims
        assert!(mat_view(&[1, 5, 1], &[5, 1, 99]).is_some());
        assert!(mat_view(&[1, 1, 5], &[5, 99, 1]).is_some());
        // every other element of each row: no unit stride, so it is copied first
        assert!(mat_view(&[1, 3, 4], &[0, 8, 2]).is_none());
    }
}
