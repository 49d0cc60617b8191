//! Batched matrix products. f32, f64 and f16 go through the `gemm` crate (packed, vectorised,
//! split over the threads of `team` for large sizes), except the f32 blocks that `sgemm`'s
//! AVX-512 or AVX2 tiles take with gemm's bits; bf16 is computed in f32 and rounded once,
//! as PyTorch's CPU path accumulates it; integer types use a plain triple loop (PyTorch supports them on CPU).
use super::team;
use super::{internal, tensor_of, typed};
use crate::backend::storage::{output_vec, zeroed_vec, Arith, Buffer, Element};
use crate::backend::{Owned, View};
use crate::core::error::Result;
use crate::core::DType;
use gemm::{gemm, Parallelism};

/// Work (multiply-adds) per thread below which splitting costs more than it saves.
const PAR_FLOPS: usize = 64 * 64 * 64;
/// The narrowest block of rows or columns worth a task of its own.
const MIN_CHUNK: usize = 16;

struct Dims3 {
    batch: usize,
    m: usize,
    k: usize,
    n: usize,
}

fn dims(a: &View, b: &View) -> Dims3 {
    Dims3 {
        batch: a.shape()[0],
        m: a.shape()[1],
        k: a.shape()[2],
        n: b.shape()[2],
    }
}

/// How a product is split into tasks (one matrix of the batch, a block of its rows or
/// columns) handed round-robin to the threads of `team`; each task is one single-threaded
/// gemm or `sgemm`.
struct Tasks {
    /// Threads worth using.
    parts: usize,
    split_rows: bool,
    /// Rows (`split_rows`) or columns of each matrix.
    len: usize,
    /// Blocks of `chunk` rows or columns per matrix (the last one shorter).
    chunks: usize,
    chunk: usize,
}

/// `rows_on_tie`: split a square product by rows. Each task packs its own block of one operand
/// and the whole of the other, so a tie goes to repeating the cheaper pack: `sgemm`'s B strips
/// are row copies when B's rows are contiguous, where a row-major A's strips are transposes
/// (256² on two threads, 5 alternating processes: 148-163 GFLOP/s split by columns, 163-173
/// by rows).
fn tasks(d: &Dims3, rows_on_tie: bool) -> Tasks {
    let work = d.batch * d.m * d.n * d.k;
    let parts = (work / PAR_FLOPS).clamp(1, team::threads());
    let split_rows = d.m > d.n || (d.m == d.n && rows_on_tie);
    let len = if split_rows { d.m } else { d.n };
    let chunks = parts.div_ceil(d.batch).min(len.div_ceil(MIN_CHUNK)).max(1);
    Tasks {
        parts,
        split_rows,
        len,
        chunks,
        chunk: len.div_ceil(chunks),
    }
}

/// Whether every task of a float32 `batch` x (`m`×`k` @ `k`×`n`) product runs on `sgemm`'s
/// tiles, so that its every element is one FMA per k in order from +0 (a convolution that
/// computes those tiles its own way then gives the product's bits, `conv.rs`).
#[cfg(target_arch = "x86_64")]
pub(super) fn sgemm_throughout(batch: usize, m: usize, n: usize, k: usize) -> bool {
    // (`routes` is symmetric in m and n, so a square product's tie-break changes nothing here)
    let t = tasks(&Dims3 { batch, m, k, n }, false);
    if t.len == 0 {
        return false;
    }
    // the pieces are `chunk` long but the last, which is what remains of `len`
    let last = t.len - t.len.saturating_sub(1) / t.chunk * t.chunk;
    [t.chunk, last].iter().all(|&piece| {
        let (m, n) = if t.split_rows { (piece, n) } else { (m, piece) };
        super::sgemm::routes(m, n, k)
    })
}

/// Whether a float32 product's tasks all run on `sgemm`, the only case that breaks a square
/// product's tie by rows (gemm keeps its usual column split).
fn on_sgemm<T: 'static>(d: &Dims3) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>()
            && sgemm_throughout(d.batch, d.m, d.n, d.k)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = d;
        false
    }
}

fn gemm_typed<T: Element + Sync + 'static>(
    a: &View,
    av: &[T],
    b: &View,
    bv: &[T],
    d: &Dims3,
    zero: T,
    one: T,
) -> Result<Vec<T>> {
    let total = crate::core::shape::checked_numel(&[d.batch, d.m, d.n])?;
    if total == 0 || d.k == 0 {
        // an empty sum is 0
        return zeroed_vec::<T>(total);
    }
    // gemm overwrites every element (read_dst = false), so a recycled buffer will do
    let mut out = output_vec::<T>(total)?;
    let (sa, sb) = (a.strides(), b.strides());
    // Largest element offset each operand may touch, to keep every pointer in bounds.
    let a_last = a.offset() + (d.batch - 1) * sa[0] + (d.m - 1) * sa[1] + (d.k - 1) * sa[2];
    let b_last = b.offset() + (d.batch - 1) * sb[0] + (d.k - 1) * sb[1] + (d.n - 1) * sb[2];
    if a_last >= av.len() || b_last >= bv.len() {
        return internal("matmul operand layout outside its storage");
    }
    let Tasks {
        parts,
        split_rows,
        len,
        chunks,
        chunk,
    } = tasks(d, d.m == d.n && sb[2] == 1 && on_sgemm::<T>(d));
    let tasks = d.batch * chunks;
    // plain numbers, so the task can go to other threads (tensors are `Rc`s)
    let (dst, lhs, rhs) = (
        out.as_mut_ptr() as usize,
        av.as_ptr() as usize + a.offset() * std::mem::size_of::<T>(),
        bv.as_ptr() as usize + b.offset() * std::mem::size_of::<T>(),
    );
    let (sa, sb) = ([sa[0], sa[1], sa[2]], [sb[0], sb[1], sb[2]]);
    let task = |t: usize| {
        let (i, c) = (t / chunks, t % chunks);
        let lo = (c * chunk).min(len);
        let hi = (lo + chunk).min(len);
        if lo == hi {
            return;
        }
        let (m, n) = if split_rows {
            (hi - lo, d.n)
        } else {
            (d.m, hi - lo)
        };
        let (row0, col0) = if split_rows { (lo, 0) } else { (0, lo) };
        #[cfg(target_arch = "x86_64")]
        if std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>()
            && super::sgemm::routes(m, n, d.k)
        {
            let operand = |base: usize, at: usize, rs: usize, cs: usize| super::sgemm::Operand {
                ptr: (base as *const f32).wrapping_add(at),
                rs,
                cs,
            };
            // SAFETY: as for gemm below (the same block, pointers and strides); `T` is f32
            // and `routes` checked AVX-512.
            unsafe {
                super::sgemm::sgemm(
                    m,
                    n,
                    d.k,
                    operand(lhs, i * sa[0] + row0 * sa[1], sa[1], sa[2]),
                    operand(rhs, i * sb[0] + col0 * sb[2], sb[1], sb[2]),
                    (dst as *mut f32).add(i * d.m * d.n + row0 * d.n + col0),
                    d.n,
                );
            }
            return;
        }
        // SAFETY: tasks write disjoint blocks of `out` (rows row0.. or columns col0.. of matrix
        // i, row stride n); the lhs/rhs pointers plus the given strides stay within `av`/`bv`
        // (checked above for the farthest element); `run` returns only after every task.
        unsafe {
            gemm(
                m,
                n,
                d.k,
                (dst as *mut T).add(i * d.m * d.n + row0 * d.n + col0),
                1,
                d.n as isize,
                false,
                (lhs as *const T).add(i * sa[0] + row0 * sa[1]),
                sa[2] as isize,
                sa[1] as isize,
                (rhs as *const T).add(i * sb[0] + col0 * sb[2]),
                sb[2] as isize,
                sb[1] as isize,
                zero,
                one,
                false,
                false,
                false,
                Parallelism::None,
            );
        }
    };
    team::run_tasks(tasks, parts, &task);
    Ok(out)
}

fn naive_typed<T: Element>(a: &View, av: &[T], b: &View, bv: &[T], d: &Dims3) -> Result<Vec<T>> {
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
pub fn bmm(a: &View, b: &View) -> Result<Owned> {
    let d = dims(a, b);
    let shape = [d.batch, d.m, d.n];
    if a.dtype() == DType::BF16 {
        use crate::backend::Backend;
        let (a32, b32) = (
            super::CPU.cast(*a, DType::F32)?,
            super::CPU.cast(*b, DType::F32)?,
        );
        let r = bmm(&a32.view(), &b32.view())?;
        return super::CPU.cast(r.view(), DType::BF16);
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
