//! cuBLAS (`libcublas.so`): a handle bound to the context current at `cublasCreate_v2`, and
//! `cublasGemmStridedBatchedEx` as a plain column-major reference GEMM for f32, f64, f16 and
//! bf16 with every transpose, leading dimension and batch stride (0 included). Like the real
//! library it refuses a call whose handle's context is not the current one, and every operand
//! must lie inside live device memory.
use crate::state::{current_ctx, lock, State};
use half::{bf16, f16};
use std::ffi::{c_int, c_longlong, c_void};

type Status = c_int;
const OK: Status = 0;
const NOT_INITIALIZED: Status = 1;
const INVALID_VALUE: Status = 7;
const EXECUTION_FAILED: Status = 13;
const NOT_SUPPORTED: Status = 15;

const R_32F: c_int = 0;
const R_64F: c_int = 1;
const R_16F: c_int = 2;
const R_16BF: c_int = 14;
const COMPUTE_16F: c_int = 64;
const COMPUTE_32F: c_int = 68;
const COMPUTE_32F_FAST_TF32: c_int = 77;
const COMPUTE_64F: c_int = 70;

fn failed(s: &mut State, code: Status, why: String) -> Status {
    s.violation("cublasGemmStridedBatchedEx", 0, why);
    code
}

#[no_mangle]
pub unsafe extern "C" fn cublasCreate_v2(handle: *mut usize) -> Status {
    let mut s = lock();
    let ctx = current_ctx();
    if handle.is_null() {
        return INVALID_VALUE;
    }
    if ctx == 0 || s.ctx_device(ctx).is_err() {
        s.violation("cublasCreate_v2", 0, "no current context");
        return NOT_INITIALIZED;
    }
    let h = s.handle();
    s.blas.insert(h, ctx);
    *handle = h;
    OK
}

#[no_mangle]
pub unsafe extern "C" fn cublasDestroy_v2(handle: usize) -> Status {
    let mut s = lock();
    if s.blas.remove(&handle).is_none() {
        s.violation("cublasDestroy_v2", 0, "not a live handle");
        return NOT_INITIALIZED;
    }
    OK
}

#[no_mangle]
pub unsafe extern "C" fn cublasSetStream_v2(handle: usize, _stream: *mut c_void) -> Status {
    let mut s = lock();
    if !s.blas.contains_key(&handle) {
        s.violation("cublasSetStream_v2", 0, "not a live handle");
        return NOT_INITIALIZED;
    }
    OK
}

/// `MAJOR_VERSION` (0), `MINOR_VERSION` (1), `PATCH_LEVEL` (2): the toolkit the virtual NVRTC
/// belongs to.
#[no_mangle]
pub unsafe extern "C" fn cublasGetProperty(kind: c_int, value: *mut c_int) -> Status {
    if value.is_null() {
        return INVALID_VALUE;
    }
    let (a, b) = crate::config().nvrtc;
    *value = match kind {
        0 => a,
        1 => b,
        _ => 0,
    };
    OK
}

/// One operand: its data type, base pointer, leading dimension and batch stride, and whether
/// cuBLAS reads it transposed.
#[derive(Clone, Copy)]
struct Operand {
    ty: c_int,
    ptr: u64,
    ld: i64,
    stride: i64,
    trans: bool,
}

fn elem_size(ty: c_int) -> u64 {
    match ty {
        R_64F => 8,
        R_32F => 4,
        _ => 2,
    }
}

impl Operand {
    /// The bytes one batch spans, stored as `rows × cols` (column-major).
    fn extent(&self, rows: i64, cols: i64) -> u64 {
        if rows == 0 || cols == 0 {
            return 0;
        }
        ((cols - 1) * self.ld + rows) as u64 * elem_size(self.ty)
    }

    /// Element `i` (in elements from `ptr`) as f64.
    unsafe fn get(&self, i: i64) -> f64 {
        let p = self.ptr as *const u8;
        match self.ty {
            R_64F => *(p as *const f64).offset(i as isize),
            R_32F => *(p as *const f32).offset(i as isize) as f64,
            R_16F => f16::from_bits(*(p as *const u16).offset(i as isize)).to_f64(),
            _ => bf16::from_bits(*(p as *const u16).offset(i as isize)).to_f64(),
        }
    }

    unsafe fn set(&self, i: i64, v: f64) {
        let p = self.ptr as *mut u8;
        match self.ty {
            R_64F => *(p as *mut f64).offset(i as isize) = v,
            R_32F => *(p as *mut f32).offset(i as isize) = v as f32,
            R_16F => *(p as *mut u16).offset(i as isize) = f16::from_f32(v as f32).to_bits(),
            _ => *(p as *mut u16).offset(i as isize) = bf16::from_f32(v as f32).to_bits(),
        }
    }
}

/// `op(X)` of batch `b` as a dense column-major `rows × cols` matrix of the compute type.
unsafe fn dense<A: Acc>(x: &Operand, b: i64, rows: i64, cols: i64) -> Vec<A> {
    let mut out = Vec::with_capacity((rows * cols) as usize);
    let base = b * x.stride;
    for c in 0..cols {
        for r in 0..rows {
            let i = if x.trans { c + r * x.ld } else { r + c * x.ld };
            out.push(A::from_f64(x.get(base + i)));
        }
    }
    out
}

/// The compute type: float32 (`COMPUTE_32F`, also for 16-bit data) or float64.
trait Acc:
    Copy + Send + Sync + Default + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self>
{
    fn from_f64(v: f64) -> Self;
    fn to_f64(self) -> f64;
}
impl Acc for f32 {
    fn from_f64(v: f64) -> f32 {
        v as f32
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
}
impl Acc for f64 {
    fn from_f64(v: f64) -> f64 {
        v
    }
    fn to_f64(self) -> f64 {
        self
    }
}

/// `C = alpha·op(A)·op(B) + beta·C` for every batch, each dot product summed in order over k;
/// columns of C are shared among two threads.
unsafe fn gemm<A: Acc>(
    xa: &Operand,
    xb: &Operand,
    xc: &Operand,
    dims: [i64; 4],
    alpha: A,
    beta: A,
) {
    let [m, n, k, batch] = dims;
    for bi in 0..batch {
        let am: Vec<A> = dense(xa, bi, m, k);
        let bm: Vec<A> = dense(xb, bi, k, n);
        let column = |j: i64| {
            let mut acc = vec![A::default(); m as usize];
            for p in 0..k {
                let bv = bm[(p + j * k) as usize];
                let col = &am[(p * m) as usize..((p + 1) * m) as usize];
                for (x, &av) in acc.iter_mut().zip(col) {
                    *x = *x + av * bv;
                }
            }
            acc
        };
        let half = n / 2;
        let (left, right) = std::thread::scope(|s| {
            let right = s.spawn(|| (half..n).map(column).collect::<Vec<_>>());
            ((0..half).map(column).collect::<Vec<_>>(), right.join())
        });
        let cols = left.into_iter().chain(right.unwrap_or_default());
        for (j, acc) in cols.enumerate() {
            for (i, v) in acc.into_iter().enumerate() {
                let at = bi * xc.stride + i as i64 + j as i64 * xc.ld;
                // beta == 0: C is not read (it may hold NaN), as in cuBLAS
                let old = if beta.to_f64() == 0.0 {
                    A::default()
                } else {
                    beta * A::from_f64(xc.get(at))
                };
                xc.set(at, (alpha * v + old).to_f64());
            }
        }
    }
}

#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cublasGemmStridedBatchedEx(
    handle: usize,
    transa: c_int,
    transb: c_int,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: *const c_void,
    a: *const c_void,
    a_type: c_int,
    lda: c_int,
    stride_a: c_longlong,
    b: *const c_void,
    b_type: c_int,
    ldb: c_int,
    stride_b: c_longlong,
    beta: *const c_void,
    c: *mut c_void,
    c_type: c_int,
    ldc: c_int,
    stride_c: c_longlong,
    batch: c_int,
    compute: c_int,
    _algo: c_int,
) -> Status {
    let mut s = lock();
    let Some(&hctx) = s.blas.get(&handle) else {
        return failed(&mut s, NOT_INITIALIZED, "not a live handle".into());
    };
    if current_ctx() != hctx {
        return failed(
            &mut s,
            EXECUTION_FAILED,
            "the handle's context is not the current context".into(),
        );
    }
    if s.ctx_device(hctx).is_err() {
        return failed(
            &mut s,
            EXECUTION_FAILED,
            "the handle's context was destroyed".into(),
        );
    }
    let ops = [transa, transb];
    if ops.iter().any(|&o| !(0..=2).contains(&o)) || m < 0 || n < 0 || k < 0 || batch < 0 {
        return INVALID_VALUE;
    }
    let (ta, tb) = (transa != 0, transb != 0);
    let (m, n, k, batch) = (m as i64, n as i64, k as i64, batch as i64);
    // stored shapes: A is m×k (or k×m transposed), B is k×n (or n×k), C is m×n
    let (ar, ac) = if ta { (k, m) } else { (m, k) };
    let (br, bc) = if tb { (n, k) } else { (k, n) };
    if (lda as i64) < ar.max(1) || (ldb as i64) < br.max(1) || (ldc as i64) < m.max(1) {
        return INVALID_VALUE;
    }
    let same = a_type == b_type && b_type == c_type;
    let wide = match (a_type, compute) {
        (R_64F, COMPUTE_64F) => true,
        (R_32F, COMPUTE_32F | COMPUTE_32F_FAST_TF32) => false,
        (R_16F, COMPUTE_32F | COMPUTE_16F) | (R_16BF, COMPUTE_32F) => false,
        _ => return NOT_SUPPORTED,
    };
    if !same {
        return NOT_SUPPORTED;
    }
    let op = |ty, ptr: *const c_void, ld: c_int, stride, trans| Operand {
        ty,
        ptr: ptr as u64,
        ld: ld as i64,
        stride,
        trans,
    };
    let (xa, xb) = (
        op(a_type, a, lda, stride_a, ta),
        op(b_type, b, ldb, stride_b, tb),
    );
    let xc = op(c_type, c, ldc, stride_c, false);
    if batch == 0 || m == 0 || n == 0 {
        return OK;
    }
    for (name, x, r, cl) in [("A", &xa, ar, ac), ("B", &xb, br, bc), ("C", &xc, m, n)] {
        let size = elem_size(x.ty);
        for bi in [0, batch - 1] {
            let start = x.ptr as i64 + bi * x.stride * size as i64;
            let len = x.extent(r, cl);
            if start < 0 || !s.in_device_memory(start as u64, len) {
                return failed(
                    &mut s,
                    EXECUTION_FAILED,
                    format!("operand {name} of batch {bi} is outside live device memory"),
                );
            }
        }
    }
    *s.launches
        .entry("cublasGemmStridedBatchedEx".into())
        .or_default() += 1;
    drop(s);
    let dims = [m, n, k, batch];
    if wide {
        gemm::<f64>(
            &xa,
            &xb,
            &xc,
            dims,
            *(alpha as *const f64),
            *(beta as *const f64),
        );
    } else {
        gemm::<f32>(
            &xa,
            &xb,
            &xc,
            dims,
            *(alpha as *const f32),
            *(beta as *const f32),
        );
    }
    OK
}
