//! Batched matrix products. f32, f64 and f16 go through the `gemm` crate (packed, vectorised,
//! rayon-parallel for large sizes); bf16 is computed in f32 and rounded once, as PyTorch's CPU
//! path accumulates it; integer types use a plain triple loop (PyTorch supports them on CPU).
use super::{internal, tensor_of, typed};
use crate::tensor::error::Result;
use crate::tensor::storage::{output_vec, zeroed_vec, Arith, Buffer, Element};
use crate::tensor::{DType, Tensor};
use gemm::{gemm, Parallelism};

/// Below this many multiply-adds a single thread is faster than waking rayon.
const PAR_FLOPS: usize = 64 * 64 * 64;

struct Dims3 {
    batch: usize,
    m: usize,
    k: usize,
    n: usize,
}

fn dims(a: &Tensor, b: &Tensor) -> Dims3 {
    Dims3 {
        batch: a.shape()[0],
        m: a.shape()[1],
        k: a.shape()[2],
        n: b.shape()[2],
    }
}

fn gemm_typed<T: Element>(
    a: &Tensor,
    av: &[T],
    b: &Tensor,
    bv: &[T],
    d: &Dims3,
    zero: T,
    one: T,
) -> Result<Vec<T>> {
    let total = crate::tensor::shape::checked_numel(&[d.batch, d.m, d.n])?;
    if total == 0 || d.k == 0 {
        // an empty sum is 0
        return zeroed_vec::<T>(total);
    }
    // gemm overwrites every element (read_dst = false), so a recycled buffer will do
    let mut out = output_vec::<T>(total)?;
    let par = if d.m * d.n * d.k >= PAR_FLOPS {
        Parallelism::Rayon(rayon::current_num_threads())
    } else {
        Parallelism::None
    };
    let (sa, sb) = (a.strides(), b.strides());
    // Largest element offset each operand may touch, to keep every pointer in bounds.
    let a_last = a.offset() + (d.batch - 1) * sa[0] + (d.m - 1) * sa[1] + (d.k - 1) * sa[2];
    let b_last = b.offset() + (d.batch - 1) * sb[0] + (d.k - 1) * sb[1] + (d.n - 1) * sb[2];
    if a_last >= av.len() || b_last >= bv.len() {
        return internal("matmul operand layout outside its storage");
    }
    for i in 0..d.batch {
        let dst = &mut out[i * d.m * d.n..(i + 1) * d.m * d.n];
        // SAFETY: dst holds m*n elements written with row stride n; lhs/rhs pointers plus the
        // given strides stay within `av`/`bv` (checked above for the farthest element).
        unsafe {
            gemm(
                d.m,
                d.n,
                d.k,
                dst.as_mut_ptr(),
                1,
                d.n as isize,
                false,
                av.as_ptr().add(a.offset() + i * sa[0]),
                sa[2] as isize,
                sa[1] as isize,
                bv.as_ptr().add(b.offset() + i * sb[0]),
                sb[2] as isize,
                sb[1] as isize,
                zero,
                one,
                false,
                false,
                false,
                par,
            );
        }
    }
    Ok(out)
}

fn naive_typed<T: Element>(
    a: &Tensor,
    av: &[T],
    b: &Tensor,
    bv: &[T],
    d: &Dims3,
) -> Result<Vec<T>> {
    let mut out = zeroed_vec::<T>(d.batch * d.m * d.n)?;
    let (sa, sb) = (a.strides(), b.strides());
    for bi in 0..d.batch {
        for i in 0..d.m {
            for j in 0..d.n {
                let mut acc = T::M::zero();
                for p in 0..d.k {
                    let x = av[a.offset() + bi * sa[0] + i * sa[1] + p * sa[2]].load();
                    let y = bv[b.offset() + bi * sb[0] + p * sb[1] + j * sb[2]].load();
                    acc = acc.add(x.mul(y));
                }
                out[(bi * d.m + i) * d.n + j] = T::store(acc);
            }
        }
    }
    Ok(out)
}

/// `a` [B, M, K] @ `b` [B, K, N] → contiguous [B, M, N].
pub fn bmm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let d = dims(a, b);
    let shape = [d.batch, d.m, d.n];
    if a.dtype() == DType::BF16 {
        let r = bmm(&a.to_dtype(DType::F32)?, &b.to_dtype(DType::F32)?)?;
        return r.to_dtype(DType::BF16);
    }
    let ab = a.storage().borrow();
    let bb = b.storage().borrow();
    let buf = match &*ab {
        Buffer::F32(av) => Buffer::F32(gemm_typed(a, av, b, typed(&bb)?, &d, 0.0, 1.0)?),
        Buffer::F64(av) => Buffer::F64(gemm_typed(a, av, b, typed(&bb)?, &d, 0.0, 1.0)?),
        Buffer::F16(av) => Buffer::F16(gemm_typed(
            a,
            av,
            b,
            typed(&bb)?,
            &d,
            half::f16::ZERO,
            half::f16::ONE,
        )?),
        Buffer::I64(av) => Buffer::I64(naive_typed(a, av, b, typed(&bb)?, &d)?),
        Buffer::I32(av) => Buffer::I32(naive_typed(a, av, b, typed(&bb)?, &d)?),
        Buffer::I8(av) => Buffer::I8(naive_typed(a, av, b, typed(&bb)?, &d)?),
        Buffer::U8(av) => Buffer::U8(naive_typed(a, av, b, typed(&bb)?, &d)?),
        Buffer::BF16(_) | Buffer::Bool(_) => return internal("matmul dtype"),
    };
    tensor_of(buf, &shape, a.device())
}
