//! Reductions (sum, prod, max, min, all, any) and max/min with indices.
use super::extremes::{column_extremes, Columns};
#[cfg(target_arch = "x86_64")]
use super::extremes::{minmax_avx2, minmax_avx512};
use super::iter::{coalesce, for_rows, PAR_THRESHOLD};
use super::sum::{
    cascade_column_sum, column_sums, contiguous_sum, contiguous_sums, scalar_row_sum, slice_as,
    slice_as_mut, vec_size,
};
use super::vreg::Float;
#[cfg(target_arch = "x86_64")]
use super::vreg::Reg;
use super::{sleef, team};
use super::{tensor_of, CPU};
use crate::backend::storage::{zeroed_vec, Arith, Buffer, Element};
use crate::backend::Backend;
use crate::backend::{Owned, View};
use crate::core::error::Result;
use crate::core::shape::{numel, Dims};
use crate::core::Layout;
use crate::core::ReduceOp;
use crate::with_buffer;

/// The kept and reduced parts of a layout.
pub(super) struct Split {
    pub(super) kept_shape: Dims,
    pub(super) kept_strides: Dims,
    pub(super) red_shape: Dims,
    pub(super) red_strides: Dims,
    out_shape: Dims,
}

pub(super) fn split(x: &View, dims: &[usize], keepdim: bool) -> Split {
    let mut s = Split {
        kept_shape: Dims::new(),
        kept_strides: Dims::new(),
        red_shape: Dims::new(),
        red_strides: Dims::new(),
        out_shape: Dims::new(),
    };
    for d in 0..x.ndim() {
        if dims.contains(&d) {
            s.red_shape.push(x.shape()[d]);
            s.red_strides.push(x.strides()[d]);
        } else {
            s.kept_shape.push(x.shape()[d]);
            s.kept_strides.push(x.strides()[d]);
        }
    }
    s.out_shape = crate::core::shape::reduced_shape(x.shape(), dims, keepdim);
    s
}

/// Call `f(j, base)` for each output element `j` with the storage offset of its region.
fn for_each_output(s: &Split, offset: usize, mut f: impl FnMut(usize, usize)) {
    let (cs, st) = coalesce(&s.kept_shape, [&s.kept_strides]);
    let n = numel(&cs);
    let inner = st[0].last().copied().unwrap_or(0);
    for_rows(&cs, &st, [offset], 0, n, |pos, len, [o]| {
        for i in 0..len {
            f(pos + i, o + i * inner);
        }
    });
}

/// Where each output's region starts in storage: `start + j * step` when the kept dims
/// coalesce to one (`sum(dim=-1)` of a matrix: nothing to tabulate before the team starts),
/// else a table.
pub(super) enum Bases {
    Step(usize, usize),
    Table(Vec<usize>),
}

impl Bases {
    pub(super) fn new(s: &Split, offset: usize) -> Bases {
        let (cs, st) = coalesce(&s.kept_shape, [&s.kept_strides]);
        if cs.len() <= 1 {
            return Bases::Step(offset, st[0].first().copied().unwrap_or(0));
        }
        let mut t = Vec::with_capacity(numel(&cs));
        for_each_output(s, offset, |_, base| t.push(base));
        Bases::Table(t)
    }

    #[inline]
    pub(super) fn at(&self, j: usize) -> usize {
        match self {
            Bases::Step(start, step) => start + j * step,
            Bases::Table(t) => t[j],
        }
    }
}

/// Which summation order PyTorch uses for one output (see `sum.rs`).
enum SumOrder {
    /// The region is one contiguous run.
    Contiguous,
    /// Scalar `row_sum` over the region's elements.
    Row,
    /// Pure cascade (an outer reduction's column handled in a group).
    Column,
}

fn sum_order<E: Element>(s: &Split, rs: &Dims, rst: &[Dims; 1], j: usize) -> SumOrder {
    if contiguous_region(rs, rst) {
        return SumOrder::Contiguous;
    }
    // An outer reduction: kept elements contiguous, reduced ones strided (sum over dim 0).
    let kept_inner = s.kept_strides.last().copied();
    let cols = s.kept_shape.last().copied().unwrap_or(1);
    if rs.len() == 1 && kept_inner == Some(1) && rst[0][0] > 1 {
        let col = j % cols;
        let group = if cols >= vec_size(E::DTYPE) { 4 * 8 } else { 4 };
        if col < cols / group * group {
            return SumOrder::Column;
        }
    }
    SumOrder::Row
}

/// Whether each output's reduced elements are one non-empty contiguous run.
fn contiguous_region(rs: &Dims, rst: &[Dims; 1]) -> bool {
    rs.len() <= 1 && rst[0].last().copied().unwrap_or(1) == 1 && numel(rs) >= 1
}

fn reduce_typed<E: Element>(op: ReduceOp, v: &[E], x: &View, s: &Split) -> Result<Buffer> {
    let n_out = numel(&s.kept_shape);
    let (rs, rst) = coalesce(&s.red_shape, [&s.red_strides]);
    let n_red = numel(&rs);
    let inner = rst[0].last().copied().unwrap_or(0);
    let dense = rs.len() <= 1 && (rs.is_empty() || inner == 1);
    // a strided region is first copied into `scratch` (reused for every output)
    let mut scratch: Vec<E> = Vec::new();
    let region = |base: usize, scratch: &mut Vec<E>| {
        if !dense {
            scratch.clear();
            for_rows(&rs, &rst, [base], 0, n_red, |_, len, [o]| {
                scratch.extend((0..len).map(|i| v[o + i * inner]));
            });
        }
    };
    match op {
        ReduceOp::All | ReduceOp::Any => {
            let mut out = zeroed_vec::<bool>(n_out)?;
            let all = op == ReduceOp::All;
            for_each_output(s, x.offset(), |j, base| {
                region(base, &mut scratch);
                let xs = if dense {
                    &v[base..base + n_red]
                } else {
                    &scratch[..]
                };
                out[j] = if all {
                    xs.iter().all(|e| e.load().truthy())
                } else {
                    xs.iter().any(|e| e.load().truthy())
                };
            });
            Ok(bool::wrap(out))
        }
        _ => {
            let mut out = zeroed_vec::<E>(n_out)?;
            if n_out == 1 && dense && n_red >= PAR_THRESHOLD && op != ReduceOp::Prod {
                let xs = &v[x.offset()..x.offset() + n_red];
                out[0] = E::store(two_pass(op, xs));
                return Ok(E::wrap(out));
            }
            // `sum(dim=0)` / `amax(dim=0)` of a matrix: whole rows at a time
            let columns = columns_of(x, s, &rs, &rst);
            if let (ReduceOp::Sum, Some(c)) = (op, columns) {
                outer_sum(v, c, &mut out);
                return Ok(E::wrap(out));
            }
            let bases = Bases::new(s, x.offset());
            if op == ReduceOp::Sum && dense && n_red >= 1 {
                // every output a contiguous run (`SumOrder::Contiguous`): rows in bulk
                let parts = team::parts_for(n_out.saturating_mul(n_red), PAR_THRESHOLD).min(n_out);
                team::for_pieces(&mut out, parts, 1, &|start, piece| {
                    contiguous_sums(v, |k| bases.at(start + k), n_red, piece);
                });
                return Ok(E::wrap(out));
            }
            if matches!(op, ReduceOp::Max | ReduceOp::Min) {
                let max = op == ReduceOp::Max;
                let layout = (dense.then_some(n_red), columns, &bases);
                let done = match (slice_as::<E, f32>(v), slice_as_mut::<E, f32>(&mut out)) {
                    (Some(v), Some(out)) => float_extremes(max, v, out, layout),
                    _ => match (slice_as::<E, f64>(v), slice_as_mut::<E, f64>(&mut out)) {
                        (Some(v), Some(out)) => float_extremes(max, v, out, layout),
                        _ => false,
                    },
                };
                if done {
                    return Ok(E::wrap(out));
                }
            }
            let zeros = max_zeros::<E>(s, &rs, &rst);
            // A float max (min) over contiguous runs (`amax(dim=(0, 2))`) read in place, run by
            // run, skipping the gather: the value does not depend on the order. `None` where
            // the order decides (a NaN, or a zero: which one); the gathered fold settles those.
            let max = op == ReduceOp::Max;
            let in_place = matches!(op, ReduceOp::Max | ReduceOp::Min)
                && E::DTYPE.is_floating()
                && !dense
                && inner == 1;
            let runs_extreme = |base: usize| -> Option<E::M> {
                let mut acc: Option<(E::M, bool)> = None;
                for_rows(&rs, &rst, [base], 0, n_red, |_, len, [o]| {
                    acc = joined(max, acc, float_extreme(max, &v[o..o + len]));
                });
                match acc {
                    Some((best, false)) if best != E::M::zero() => Some(best),
                    _ => None,
                }
            };
            let one = |j: usize, scratch: &mut Vec<E>| -> E {
                let base = bases.at(j);
                if n_red == 0 {
                    // empty regions: sum 0, prod 1 (max/min of nothing are refused earlier)
                    return E::store(if op == ReduceOp::Prod {
                        E::M::one()
                    } else {
                        E::M::zero()
                    });
                }
                if let Some(best) = in_place.then(|| runs_extreme(base)).flatten() {
                    return E::store(best);
                }
                region(base, scratch);
                let xs = if dense {
                    &v[base..base + n_red]
                } else {
                    &scratch[..]
                };
                E::store(match op {
                    ReduceOp::Sum => match sum_order::<E>(s, &rs, &rst, j) {
                        SumOrder::Contiguous => contiguous_sum(xs),
                        SumOrder::Row => scalar_row_sum(n_red, |i| xs[i].load()),
                        SumOrder::Column => cascade_column_sum(n_red, |i| xs[i].load()),
                    },
                    _ => fold(op, xs, zeros(j)),
                })
            };
            // Outputs are independent (each keeps its own summation order): split them over
            // the team when there is enough work, as PyTorch's `parallel_dim_reduction`.
            let parts =
                team::parts_for(n_out.saturating_mul(n_red.max(1)), PAR_THRESHOLD).min(n_out);
            team::for_pieces(&mut out, parts, 1, &|start, piece| {
                let mut scratch: Vec<E> = Vec::new();
                for (k, o) in piece.iter_mut().enumerate() {
                    *o = one(start + k, &mut scratch);
                }
            });
            Ok(E::wrap(out))
        }
    }
}

/// A float32 or float64 max (min) into `out` by whole runs or rows where the layout allows:
/// each output a contiguous run of `n` (`dense`) with AVX-512 or AVX2, or the `Columns`
/// layout; `false` for other layouts, which `reduce_typed` folds output by output.
fn float_extremes<T: Float + Element<M = T>>(
    max: bool,
    v: &[T],
    out: &mut [T],
    (dense, columns, bases): (Option<usize>, Option<Columns>, &Bases),
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if let Some(n) = dense.filter(|&n| n >= 1 && sleef::has_avx2()) {
        let parts = team::parts_for(out.len() * n, PAR_THRESHOLD).min(out.len());
        let wide = sleef::has_avx512();
        team::for_pieces(out, parts, 1, &|start, piece| {
            let run = |k: usize| &v[bases.at(start + k)..][..n];
            // SAFETY: the CPU has AVX-512F where `wide`, else AVX2 (checked above).
            unsafe {
                if wide {
                    extreme_rows_avx512(max, piece, run)
                } else {
                    extreme_rows_avx2(max, piece, run)
                }
            }
        });
        return true;
    }
    let _ = (dense, bases); // (used above on x86 only)
    let Some(c) = columns else {
        return false;
    };
    outer_extremes(max, v, c, out);
    true
}

/// `x`'s `Columns` layout, `None` for other layouts (or no rows or columns).
fn columns_of(x: &View, s: &Split, rs: &Dims, rst: &[Dims; 1]) -> Option<Columns> {
    if rs.len() != 1 || s.kept_shape.len() != 1 || s.kept_strides[0] != 1 || rst[0][0] <= 1 {
        return None;
    }
    (rs[0] > 0 && s.kept_shape[0] > 0).then(|| Columns {
        base: x.offset(),
        row_stride: rst[0][0],
        rows: rs[0],
    })
}

/// `f(start, grouped, rest)` over pieces of `out` (one element per column, `n` rows deep) split
/// over the team, each piece cut at column `grouped`: the columns before it, which PyTorch
/// reduces in register groups, and those after, which it reduces one by one. Each column keeps
/// its own order whatever piece it is in, so the pieces go down to a few columns (a tall
/// matrix of ten columns is as much work as a square one), whole 64- or 16-column register
/// groups where there are enough columns.
fn split_columns<O: Send>(
    out: &mut [O],
    n: usize,
    grouped: usize,
    f: &(impl Fn(usize, &mut [O], &mut [O]) + Sync),
) {
    let cols = out.len();
    let parts = team::parts_for(cols.saturating_mul(n), PAR_THRESHOLD).min(cols);
    let align = [64, 16, 1]
        .into_iter()
        .find(|&a| cols >= a * parts)
        .unwrap_or(1);
    team::for_pieces(out, parts, align, &|start, piece| {
        let split = grouped.clamp(start, start + piece.len()) - start;
        let (before, after) = piece.split_at_mut(split);
        f(start, before, after)
    });
}

/// A sum over the `Columns` layout, one output a column: the columns PyTorch sums by cascade
/// go sixteen at a time reading whole rows; the few tail columns keep their scalar row order.
/// Same bits as the per-output path (`sum_order`), without gathering each strided column.
fn outer_sum<E: Element>(v: &[E], c: Columns, out: &mut [E]) {
    let cols = out.len();
    let group = if cols >= vec_size(E::DTYPE) { 4 * 8 } else { 4 };
    split_columns(
        out,
        c.rows,
        cols / group * group,
        &|start, cascaded, rest| {
            let split = start + cascaded.len();
            let end = split + rest.len();
            column_sums(
                v,
                c.base,
                c.row_stride,
                c.rows,
                start..split,
                cascaded,
                false,
            );
            column_sums(v, c.base, c.row_stride, c.rows, split..end, rest, true);
        },
    );
}

/// A float32 or float64 max (min) over the `Columns` layout, reading whole rows. Each column's
/// zero rule is `max_zeros`'s: the vector combine (the new value on a tie) in the groups of
/// `4 * lanes` columns, the scalar one (the old value) after them.
fn outer_extremes<T: Float + Element<M = T>>(max: bool, v: &[T], c: Columns, out: &mut [T]) {
    let vector = vector_columns::<T>(out.len());
    split_columns(out, c.rows, vector, &|start, vector, scalar| {
        let from = |col: usize| Columns {
            base: c.base + col,
            ..c
        };
        column_extremes(max, true, vector, v, from(start));
        column_extremes(max, false, scalar, v, from(start + vector.len()));
    });
}

simd_build! {
    /// `lanes_extreme` in the widest SIMD build (compares and selects: the same result).
    fn lanes_extreme_simd<E: Element>(max: bool, xs: &[E]) -> (E::M, bool) {
        lanes_extreme(max, xs)
    }
}

/// `lanes_extreme` of float32 and float64 runs in AVX-512 or AVX2 registers (`minmax`);
/// `None` for other element types or CPUs.
fn reg_extreme<E: Element>(max: bool, xs: &[E]) -> Option<(E::M, bool)> {
    #[cfg(target_arch = "x86_64")]
    if sleef::has_avx2() {
        fn run<T: Float + Element<M = T>>(max: bool, x: &[T]) -> (T, bool) {
            // SAFETY (both): the CPU has the features each is built for (checked here and by
            // the caller).
            unsafe {
                if sleef::has_avx512() {
                    minmax_avx512(max, x)
                } else {
                    minmax_avx2(max, x)
                }
            }
        }
        let back = |m: f64| <E::M as Arith>::of_scalar(crate::core::Scalar::Float(m));
        if let Some(x) = slice_as::<E, f32>(xs) {
            let (m, nan) = run(max, x);
            return Some((back(m as f64), nan));
        }
        if let Some(x) = slice_as::<E, f64>(xs) {
            let (m, nan) = run(max, x);
            return Some((back(m), nan));
        }
    }
    None
}

/// The float max (min) of a non-empty run, ignoring NaNs, and whether it held one: from 16
/// elements (8 for float64) in AVX-512 or AVX2 registers where the CPU has them, else over 16
/// lanes;
/// shorter runs in order.
fn float_extreme<E: Element>(max: bool, xs: &[E]) -> (E::M, bool) {
    if xs.len() < 16 {
        return in_order_extreme(max, xs);
    }
    reg_extreme(max, xs)
        .or_else(|| f16_extreme(max, xs))
        .unwrap_or_else(|| lanes_extreme_simd(max, xs))
}

/// `float_extreme` of a float16 run (`None` for other types): widened to float32 a block at a
/// time (`widen`: F16C vectors where the CPU has them) and each block through the float32
/// path. Widening keeps the order, so the extreme is the same. One
/// element at a time, the conversions made `t.max()` of a million float16 values 9x slower
/// than PyTorch's (now 2x); bfloat16 widens by a shift that the element loop vectorises, and
/// was slower through the blocks. Blocks of 256, not 1,024: the block is zeroed on every call,
/// and over runs of 100 (`amax(dim=(0, 2))` of 100³) that took half the time (330 -> 180 µs).
fn f16_extreme<E: Element>(max: bool, xs: &[E]) -> Option<(E::M, bool)> {
    let xs = super::sum::slice_as::<E, half::f16>(xs)?;
    let mut buf = [0f32; 256];
    let mut acc: Option<(f32, bool)> = None;
    for c in xs.chunks(buf.len()) {
        let b = &mut buf[..c.len()];
        super::widen::widen(c, b);
        acc = joined(max, acc, float_extreme(max, b));
    }
    let (m, nan) = acc?;
    Some((
        <E::M as Arith>::of_scalar(crate::core::Scalar::Float(m as f64)),
        nan,
    ))
}

/// The extreme so far and a later part's (each with whether it saw a NaN), in order: the
/// later where it is strictly better.
#[inline]
fn joined<M: Arith>(max: bool, acc: Option<(M, bool)>, (b, nan): (M, bool)) -> Option<(M, bool)> {
    Some(match acc {
        Some((a, n)) if (max && a >= b) || (!max && a <= b) => (a, n | nan),
        Some((_, n)) => (b, n | nan),
        None => (b, nan),
    })
}

/// `prod`, `max` or `min` of a non-empty run, in order; a float max (min) that is a zero is
/// the one `zeros` says ATen's kernel returns.
fn fold<E: Element>(op: ReduceOp, xs: &[E], zeros: Zeros) -> E::M {
    if matches!(op, ReduceOp::Max | ReduceOp::Min) && E::DTYPE.is_floating() {
        let max = op == ReduceOp::Max;
        let (best, nan) = float_extreme(max, xs);
        return settled(xs, best, nan, max, zeros);
    }
    match op {
        ReduceOp::Prod => xs.iter().fold(E::M::one(), |a, e| a.mul(e.load())),
        ReduceOp::Max => xs.iter().fold(xs[0].load(), |a, e| a.max(e.load())),
        ReduceOp::Min => xs.iter().fold(xs[0].load(), |a, e| a.min(e.load())),
        _ => E::M::zero(),
    }
}

/// The max (min) of a non-empty run in order, ignoring NaNs, and whether it held one.
pub(super) fn in_order_extreme<E: Element>(max: bool, xs: &[E]) -> (E::M, bool) {
    let better = |v: E::M, m: E::M| if max { v > m } else { v < m };
    xs.iter().fold((xs[0].load(), false), |(m, nan), e| {
        let v = e.load();
        (if better(v, m) { v } else { m }, nan | v.is_nan())
    })
}

/// The float `max`/`min` of a run in 16 independent lanes (branch-free, so it vectorises),
/// and whether it held a NaN; `settled` turns that into what the in-order fold gives.
#[inline(always)]
fn lanes_extreme<E: Element>(max: bool, xs: &[E]) -> (E::M, bool) {
    const L: usize = 16;
    let better = |a: E::M, b: E::M| if max { a > b } else { a < b };
    let mut acc: [E::M; L] = std::array::from_fn(|l| xs[l].load());
    let mut nan = false;
    let chunks = xs.chunks_exact(L);
    let tail = chunks.remainder();
    for c in chunks {
        for (a, e) in acc.iter_mut().zip(c) {
            let v = e.load();
            nan |= v.is_nan();
            *a = if better(v, *a) { v } else { *a };
        }
    }
    let mut best = acc[0];
    let rest = acc[1..]
        .iter()
        .copied()
        .chain(tail.iter().map(|e| e.load()));
    for v in rest {
        nan |= v.is_nan();
        best = if better(v, best) { v } else { best };
    }
    (best, nan)
}

/// Which of a run's equal zeros (`0.0` and `-0.0` compare equal but print apart) ATen's
/// `max`/`min` kernels (`binary_kernel_reduce_vec`, built for AVX2: 8 float, 4 double or 16
/// float16/bfloat16 lanes) return when the extreme is a zero. Two combining steps decide it:
/// the scalar `max_impl` keeps the value it has on a tie (`std::max(acc, x)`), the vector
/// `maximum` takes the new one (`vmaxps acc, x` returns `x` for equal zeros; the reduced
/// floats' `maximum` compares widened to float). Read off PyTorch 2.15 over random rows of ±0
/// and ±1/±2 (every one of 14,200 rows and 7,080 columns per dtype matched for float32 and
/// float64; the golden case `amax_signed_zeros_half` for the reduced floats).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Zeros {
    /// A contiguous run (`vectorized_reduction`), see `aten_row_extreme`.
    Row,
    /// Contiguous runs of this length one after another (the innermost reduced dim, the
    /// others outside it): `Row`'s model over each, carrying the result from run to run.
    Runs(usize),
    /// A column reduced in a group of `4 * lanes` columns (`vectorized_outer_reduction`'s
    /// vector part): the vector combine down the rows, the last zero.
    Last,
    /// A column left over after the groups: the scalar combine, the first zero.
    First,
}

/// The zero rule for each output `j` of a max/min reduction, decided once for the layout:
/// the run rule for contiguous regions, the column rules for a single strided dim with the
/// kept elements contiguous (by the column's place among the groups of `4 * lanes`), and the
/// last zero for other layouts (the rule this engine used before: not checked against ATen
/// there).
fn max_zeros<E: Element>(s: &Split, rs: &Dims, rst: &[Dims; 1]) -> impl Fn(usize) -> Zeros + Sync {
    let cols = s.kept_shape.last().copied().unwrap_or(1);
    let vector = vector_columns::<E>(cols);
    let one = if contiguous_region(rs, rst) {
        Some(Zeros::Row)
    } else if rs.len() > 1 && rst[0].last() == Some(&1) {
        Some(Zeros::Runs(rs[rs.len() - 1]))
    } else if rs.len() == 1 && s.kept_strides.last() == Some(&1) && rst[0][0] > 1 {
        None // by column
    } else {
        Some(Zeros::Last)
    };
    move |j| match one {
        Some(z) => z,
        None if j % cols < vector => Zeros::Last,
        None => Zeros::First,
    }
}

/// How many of `cols` columns `vectorized_outer_reduction` reduces in whole register groups
/// (`4 * lanes` columns each); the rest one by one.
fn vector_columns<E: Element>(cols: usize) -> usize {
    let group = 4 * minmax_lanes::<E>().unwrap_or(1);
    cols / group * group
}

/// The lanes of ATen's AVX2 `Vectorized` for the dtypes whose zero rules were checked.
fn minmax_lanes<E: Element>() -> Option<usize> {
    use crate::core::DType;
    matches!(E::DTYPE, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
        .then(|| 32 / std::mem::size_of::<E>())
}

/// What ATen's max (min) of a contiguous run without NaNs returns, the zero it keeps
/// included: four accumulators of `lanes` over whole blocks of `4 * lanes` elements (the
/// vector combine), the four folded and their lanes scanned (the scalar combine), then the
/// elements after the blocks in order (the scalar combine), each combined into `start` where
/// an earlier run left a result. `None` for other dtypes.
fn aten_row_extreme<E: Element>(max: bool, xs: &[E], start: Option<E::M>) -> Option<E::M> {
    let lanes = minmax_lanes::<E>()?;
    let wins = |v: E::M, a: E::M| if max { v > a } else { v < a };
    let scalar = |a: E::M, v: E::M| if wins(v, a) { v } else { a };
    let vector = |a: E::M, v: E::M| if wins(a, v) { a } else { v };
    let block = 4 * lanes;
    let whole = xs.len() / block * block;
    let mut acc = start;
    let then = |acc: Option<E::M>, v: E::M| Some(acc.map_or(v, |a| scalar(a, v)));
    if whole > 0 {
        let mut lane = vec![E::M::zero(); block];
        for (l, a) in lane.iter_mut().enumerate() {
            *a = (l..whole)
                .step_by(block)
                .skip(1)
                .fold(xs[l].load(), |a, i| vector(a, xs[i].load()));
        }
        let buf: Vec<E::M> = (0..lanes)
            .map(|l| {
                vector(
                    vector(lane[l], lane[lanes + l]),
                    vector(lane[2 * lanes + l], lane[3 * lanes + l]),
                )
            })
            .collect();
        acc = then(acc, buf[1..].iter().fold(buf[0], |a, &v| scalar(a, v)));
    }
    xs[whole..].iter().fold(acc, |acc, e| then(acc, e.load()))
}

/// What ATen's `max`/`min` of `xs` gives, from its extreme `best` found in any grouping and
/// whether `xs` held a NaN: the canonical NaN if so; else `best`, and when that is a zero,
/// the one `zeros` picks.
fn settled<E: Element>(xs: &[E], best: E::M, nan: bool, max: bool, zeros: Zeros) -> E::M {
    if nan {
        // the NaN Arith::max/min give (canonical, as the in-order fold returns)
        let any_nan = E::M::zero().div(E::M::zero());
        return Arith::max(any_nan, any_nan);
    }
    if best != E::M::zero() {
        return best;
    }
    let zero = |v: &E::M| *v == E::M::zero();
    let found = match zeros {
        Zeros::Row => aten_row_extreme(max, xs, None),
        Zeros::Runs(len) => {
            (xs.chunks(len.max(1))).fold(None, |a, run| aten_row_extreme(max, run, a))
        }
        Zeros::First => xs.iter().map(|e| e.load()).find(zero),
        Zeros::Last => None,
    };
    found
        .or_else(|| xs.iter().rev().map(|e| e.load()).find(zero))
        .unwrap_or(best)
}

/// How `parallel_for` splits `n` elements over the threads for a whole-tensor reduction: the
/// chunks used (one per thread, at least the 32K grain each) and their length.
pub(super) fn two_pass_chunks(n: usize) -> (usize, usize) {
    let used = n.div_ceil(PAR_THRESHOLD).min(team::threads()).max(1);
    (used, n.div_ceil(used))
}

/// A whole-tensor sum/max/min of a contiguous run as PyTorch's `two_pass_reduction` does
/// it: `parallel_for`'s equal chunks (one per thread, at least the 32K grain each), one
/// partial per thread (unused threads hold the identity), then the partials reduced in order.
/// For sums this decides the digits: on 2 threads, `sum(x[..h]) + sum(x[h..])`.
fn two_pass<E: Element>(op: ReduceOp, xs: &[E]) -> E::M {
    let threads = team::threads();
    let n = xs.len();
    let (used, chunk) = two_pass_chunks(n);
    let mut partial = vec![E::store(E::M::zero()); threads];
    team::for_pieces(&mut partial[..used], used, 1, &|t, p| {
        let part = &xs[(t * chunk).min(n)..((t + 1) * chunk).min(n)];
        p[0] = E::store(match op {
            ReduceOp::Sum => contiguous_sum(part),
            _ => fold(op, part, Zeros::Row),
        });
    });
    match op {
        ReduceOp::Sum => contiguous_sum(&partial),
        _ => fold(op, &partial[..used], Zeros::Row),
    }
}

/// Reduce `dims` of `x` (its dtype is already the accumulation/output dtype).
pub fn reduce(op: ReduceOp, x: &View, dims: &[usize], keepdim: bool) -> Result<Owned> {
    let s = split(x, dims, keepdim);
    let b = x.storage().borrow();
    let buf = with_buffer!(&*b, v, T => reduce_typed::<T>(op, v, x, &s)?);
    tensor_of(buf, &s.out_shape, x.device())
}

/// `t.max()` / `t.min()` of a float tensor (ATen's `max_all`: `reduce_all_kernel`, not
/// `amax`'s kernel): the extreme as `reduce` finds it, and when that is a zero, the one
/// `max_all`'s combines return: `parallel_reduce`'s chunks (as `two_pass` splits them), each
/// through `vec::reduce_all` with AVX2's `maximum` (the new value on a tie), then the chunks in
/// order keeping the earlier on a tie (`reduce_all_zero`). Checked against PyTorch 2.15 on 2
/// threads, up to two chunks, for every float dtype; other dtypes keep `reduce`'s result.
pub fn max_all(max: bool, x: &View) -> Result<Owned> {
    let dims: Vec<usize> = (0..x.ndim()).collect();
    let op = if max { ReduceOp::Max } else { ReduceOp::Min };
    let out = reduce(op, x, &dims, false)?;
    let Some(form) = AllForm::of(x.dtype()) else {
        return Ok(out);
    };
    let first = with_buffer!(&*out.view().storage().borrow(), v, T => {
        v.first().map(|e| e.to_f64())
    });
    if first != Some(0.0) {
        return Ok(out);
    }
    // a tie of zeros decides: the elements again, in order, as f64 (exact for every float)
    let copy = (!x.is_contiguous())
        .then(|| CPU.contiguous_copy(*x))
        .transpose()?;
    let xb = copy.as_ref().map_or(*x, Owned::view);
    let wins = |v: f64, a: f64| if max { v > a } else { v < a };
    let buf = with_buffer!(&*xb.storage().borrow(), v, T => {
        let xs: Vec<f64> = v[xb.offset()..][..xb.numel()].iter().map(|e| e.to_f64()).collect();
        let z = xs
            .chunks(two_pass_chunks(xs.len()).1.max(1))
            .map(|c| reduce_all_zero(max, c, form))
            .reduce(|a, p| if wins(p, a) { p } else { a })
            .unwrap_or(0.0);
        T::wrap(vec![T::from_f64(z)])
    });
    tensor_of(buf, &[], x.device())
}

/// The `Vectorized` forms of `vec::reduce_all` (AVX2) that `max_all` models.
#[derive(Clone, Copy, Debug)]
enum AllForm {
    /// 4 doubles; the lanes then combine one by one into lane 0 (the generic `vec_reduce_all`).
    Double,
    /// 8 floats; the lanes then combine by the shuffle tree.
    Float,
    /// float16/bfloat16: 16 elements a step, widened to two float vectors of 8 combined
    /// apart, then into one, then the shuffle tree (`functional_bfloat16.h`'s `reduce_all`).
    Reduced,
}

impl AllForm {
    fn of(dtype: crate::core::DType) -> Option<AllForm> {
        use crate::core::DType;
        match dtype {
            DType::F64 => Some(AllForm::Double),
            DType::F32 => Some(AllForm::Float),
            DType::F16 | DType::BF16 => Some(AllForm::Reduced),
            _ => None,
        }
    }

    /// The elements of one step (one AVX2 vector of the stored type).
    fn width(self) -> usize {
        match self {
            AllForm::Double => 4,
            AllForm::Float => 8,
            AllForm::Reduced => 16,
        }
    }
}

/// `vec::reduce_all(maximum, xs)` (or `minimum`) on AVX2 for a run without NaN: lanes each
/// combining their elements in turn, a partial last vector into the first lanes, then the
/// lanes as `form` says (the shuffle tree is `i ^ 4`, `^ 2`, `^ 1`, lane `i` taking its
/// partner on a tie). Below one vector lane 0 takes each element in turn; for the reduced
/// floats with 8 to 16 elements, the ones past 8 first go into the first lanes.
fn reduce_all_zero(max: bool, xs: &[f64], form: AllForm) -> f64 {
    let wins = |a: f64, v: f64| if max { a > v } else { a < v };
    let vector = |a: f64, v: f64| if wins(a, v) { a } else { v };
    // lane `i` of `acc` combined with `v[i]` for the first `v.len()` lanes
    let combine = |acc: &mut [f64], v: &[f64]| {
        for (a, &v) in acc.iter_mut().zip(v) {
            *a = vector(*a, v);
        }
    };
    let in_turn = |acc: &[f64]| acc[1..].iter().fold(acc[0], |a, &v| vector(a, v));
    let tree = |mut acc: Vec<f64>| {
        for k in [4, 2, 1] {
            acc = (0..8).map(|i| vector(acc[i], acc[i ^ k])).collect();
        }
        acc[0]
    };
    let width = form.width();
    if xs.len() < width {
        if let (AllForm::Reduced, Some((low, high))) = (form, xs.split_at_checked(8)) {
            // one partial vector of 16: its high half into the low half's first lanes
            let mut low = low.to_vec();
            combine(&mut low, high);
            return in_turn(&low);
        }
        return in_turn(xs);
    }
    let mut acc = xs[..width].to_vec();
    for c in xs[width..].chunks(width) {
        combine(&mut acc, c);
    }
    match form {
        AllForm::Double => in_turn(&acc),
        AllForm::Float => tree(acc),
        AllForm::Reduced => {
            let (low, high) = acc.split_at_mut(8);
            combine(low, high);
            tree(low.to_vec())
        }
    }
}

/// Whether `a` should replace `best` as the max (min): larger (smaller), or the first NaN.
#[inline]
fn better<M: Arith>(a: M, best: M, max: bool) -> bool {
    if best.is_nan() {
        return false;
    }
    if a.is_nan() {
        return true;
    }
    if max {
        a > best
    } else {
        a < best
    }
}

fn arg_typed<E: Element>(max: bool, v: &[E], x: &View, s: &Split) -> Result<(Buffer, Buffer)> {
    let n_out = numel(&s.kept_shape);
    let n_red = numel(&s.red_shape);
    let stride = s.red_strides.first().copied().unwrap_or(0);
    if let Some(vf) = slice_as::<E, f32>(v) {
        if stride == 1 && n_red > 0 {
            let (vals, idxs) = arg_rows_f32(max, vf, x, s, n_red)?;
            return Ok((Buffer::F32(vals), i64::wrap(idxs)));
        }
    }
    if x.is_contiguous() && stride > 1 && n_red > 0 {
        // a middle dim (max pooling's window offsets): the dims after it are `stride` long
        let (vals, idxs) = arg_middle(max, &v[x.offset()..][..x.numel()], n_red, stride)?;
        return Ok((E::wrap(vals), i64::wrap(idxs)));
    }
    let mut vals = zeroed_vec::<E>(n_out)?;
    let mut idxs = zeroed_vec::<i64>(n_out)?;
    for_each_output(s, x.offset(), |j, base| {
        if n_red == 0 {
            return;
        }
        let mut best = v[base].load();
        let mut bi = 0usize;
        for i in 1..n_red {
            let a = v[base + i * stride].load();
            if better(a, best, max) {
                best = a;
                bi = i;
            }
        }
        vals[j] = E::store(best);
        idxs[j] = bi as i64;
    });
    Ok((E::wrap(vals), i64::wrap(idxs)))
}

/// `arg_typed` over the middle dim of a contiguous `v` seen as `[outer, n, inner]`: each of the
/// `n` rows compared with the best so far across a whole inner run (a loop that vectorises),
/// in order, so a tie keeps the first and the first NaN wins, as in the scalar loop.
fn arg_middle<E: Element>(
    max: bool,
    v: &[E],
    n: usize,
    inner: usize,
) -> Result<(Vec<E>, Vec<i64>)> {
    let outer = v.len() / (n * inner);
    let mut vals = zeroed_vec::<E>(outer * inner)?;
    let mut idxs = zeroed_vec::<i64>(outer * inner)?;
    let blocks = v
        .chunks(n * inner)
        .zip(vals.chunks_mut(inner))
        .zip(idxs.chunks_mut(inner));
    for ((block, best), at) in blocks {
        for (b, a) in best.iter_mut().zip(&block[..inner]) {
            *b = E::store(a.load());
        }
        for k in 1..n {
            middle_step(best, at, &block[k * inner..][..inner], (k as i64, max));
        }
    }
    Ok((vals, idxs))
}

simd_build! {
    /// One row `k` of `arg_middle`: `better`'s test as lane-wise selects, so it vectorises.
    fn middle_step<E: Element>(best: &mut [E], at: &mut [i64], row: &[E], step: (i64, bool)) {
        let (k, max) = step;
        for ((b, i), a) in best.iter_mut().zip(at.iter_mut()).zip(row) {
            let (av, bv) = (a.load(), b.load());
            let wins = if max { av > bv } else { av < bv };
            let take = !bv.is_nan() & (av.is_nan() | wins);
            *b = E::store(if take { av } else { bv });
            *i = if take { k } else { *i };
        }
    }
}

/// `arg_typed` for contiguous f32 runs of `n`, outputs split over the team: the two-pass
/// search from one vector on, a branch-free in-order one below (where the two passes cost
/// twice the in-order loop's time on rows of ten), or below a register or two, the whole run
/// in registers. Each piece writes its values beside its indices (read from the run while it
/// is in cache: a serial pass for them cost a third of `max(dim=1)` of 100000x10).
fn arg_rows_f32(
    max: bool,
    v: &[f32],
    x: &View,
    s: &Split,
    n: usize,
) -> Result<(Vec<f32>, Vec<i64>)> {
    let bases = Bases::new(s, x.offset());
    let n_out = numel(&s.kept_shape);
    let mut idxs = zeroed_vec::<i64>(n_out)?;
    let mut vals = zeroed_vec::<f32>(n_out)?;
    let parts = team::parts_for(n_out.saturating_mul(n), PAR_THRESHOLD).min(n_out);
    let short_avx512 = n < LANES && sleef::has_avx512();
    let short_avx2 = n <= LANES && !short_avx512 && sleef::has_avx2();
    team::for_piece_pairs(&mut vals, &mut idxs, parts, &|start, vals, idxs| {
        let run = |k: usize| &v[bases.at(start + k)..][..n];
        #[cfg(target_arch = "x86_64")]
        if short_avx512 {
            // SAFETY: `short_avx512`: the CPU has AVX-512F (`has_avx512`).
            return unsafe { arg_short_rows_avx512(max, vals, idxs, run) };
        }
        #[cfg(target_arch = "x86_64")]
        if short_avx2 {
            // SAFETY: `short_avx2`: the CPU has AVX2 (`has_avx2`).
            return unsafe {
                if max {
                    arg_short_rows_avx2::<true>(n, vals, idxs, run)
                } else {
                    arg_short_rows_avx2::<false>(n, vals, idxs, run)
                }
            };
        }
        for (k, (o, i)) in vals.iter_mut().zip(idxs.iter_mut()).enumerate() {
            let x = run(k);
            let at = if n >= LANES {
                arg_run_f32(max, x)
            } else {
                arg_short_f32(max, x)
            };
            (*o, *i) = (x[at], at as i64);
        }
    });
    Ok((vals, idxs))
}

/// `arg_short_f32` of the runs `run(k)` (1 to 15 floats) into `idxs[k]` (and the element
/// there into `vals[k]`), each in one masked AVX-512 register: the first NaN if there is one,
/// else the first element equal to the run's extreme (zeros of either sign compare equal, so
/// the first zero, as in order).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn arg_short_rows_avx512<'a>(
    max: bool,
    vals: &mut [f32],
    idxs: &mut [i64],
    run: impl Fn(usize) -> &'a [f32],
) {
    for (k, (o, i)) in vals.iter_mut().zip(idxs.iter_mut()).enumerate() {
        let x = run(k);
        // SAFETY: this function's CPU has AVX-512F.
        let at = unsafe { short_run_avx512(max, x) }.0;
        (*o, *i) = (x[at], at as i64);
    }
}

/// A run of 1 to 16 floats in one masked AVX-512 register: the index the in-order search
/// settles on (the first NaN if there is one, else the first element equal to the run's
/// extreme; zeros of either sign compare equal, so that is the first zero), and whether it is
/// a NaN.
///
/// # Safety
/// The CPU has AVX-512F (inlined into callers built for it).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn short_run_avx512(max: bool, x: &[f32]) -> (usize, bool) {
    use std::arch::x86_64::*;
    assert!(x.len() <= 16);
    let mask = ((1u32 << x.len()) - 1) as __mmask16;
    // SAFETY: the mask's lanes are the run's `x.len()` floats; the CPU has AVX-512F.
    unsafe {
        let v = _mm512_maskz_loadu_ps(mask, x.as_ptr());
        let nan = _mm512_mask_cmp_ps_mask::<_CMP_UNORD_Q>(mask, v, v);
        if nan != 0 {
            return (nan.trailing_zeros() as usize, true);
        }
        // the unused lanes repeat the first element: the masked reductions fill them with
        // f32::MIN / f32::MAX, which no lane of a row of infinities would equal
        let full = _mm512_mask_mov_ps(_mm512_set1_ps(x[0]), mask, v);
        let m = if max {
            _mm512_reduce_max_ps(full)
        } else {
            _mm512_reduce_min_ps(full)
        };
        let hit = _mm512_mask_cmp_ps_mask::<_CMP_EQ_OQ>(mask, v, _mm512_set1_ps(m));
        (hit.trailing_zeros() as usize, false)
    }
}

/// `arg_short_rows_avx512` for AVX2 and runs of `n` (1 to 16) floats, each as two masked
/// 8-lane halves whose unused lanes repeat the run's first element (so they never change
/// the extreme, and a hit there is never before lane 0's): the first NaN, else the first
/// element equal to the extreme.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn arg_short_rows_avx2<'a, const MAX: bool>(
    n: usize,
    vals: &mut [f32],
    idxs: &mut [i64],
    run: impl Fn(usize) -> &'a [f32],
) {
    use std::arch::x86_64::*;
    assert!((1..=16).contains(&n));
    let pick = |a: __m256, b: __m256| {
        if MAX {
            _mm256_max_ps(a, b)
        } else {
            _mm256_min_ps(a, b)
        }
    };
    // SAFETY: this function's CPU has AVX2.
    let (m_lo, m_hi) = unsafe {
        (
            sleef::avx2::first(n),
            sleef::avx2::first(n.saturating_sub(8)),
        )
    };
    let (b_lo, b_hi) = (_mm256_castsi256_ps(m_lo), _mm256_castsi256_ps(m_hi));
    for (k, (o, i)) in vals.iter_mut().zip(idxs.iter_mut()).enumerate() {
        let x = run(k);
        assert_eq!(x.len(), n);
        // SAFETY: the masks enable only lanes below `n`, so the loads read the run's floats
        // alone (masked-off lanes never fault; the high half's pointer is formed with
        // `wrapping_add`, as it lies past a run of fewer than 8); the CPU has AVX2.
        let (lo, hi) = unsafe {
            (
                _mm256_maskload_ps(x.as_ptr(), m_lo),
                _mm256_maskload_ps(x.as_ptr().wrapping_add(8), m_hi),
            )
        };
        // masked-off lanes load as 0, never NaN: one compare finds a NaN in either half
        let at = if _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_UNORD_Q>(lo, hi)) != 0 {
            x.iter().position(|v| v.is_nan()).unwrap_or(0)
        } else {
            let first = _mm256_set1_ps(x[0]);
            let (a, b) = (
                _mm256_blendv_ps(first, lo, b_lo),
                _mm256_blendv_ps(first, hi, b_hi),
            );
            // every lane ends up holding the extreme (no NaN is left to spread)
            let mut m = pick(a, b);
            m = pick(m, _mm256_permute2f128_ps::<1>(m, m));
            m = pick(m, _mm256_shuffle_ps::<0b01_00_11_10>(m, m));
            m = pick(m, _mm256_shuffle_ps::<0b10_11_00_01>(m, m));
            let hit_lo = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_EQ_OQ>(a, m)) as u32;
            let hit_hi = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_EQ_OQ>(b, m)) as u32;
            (hit_lo | hit_hi << 8).trailing_zeros() as usize
        };
        (*o, *i) = (x[at], at as i64);
    }
}

/// `fold`'s max (min) of the float32 or float64 runs `run(k)` into `out[k]` (`Zeros::Row`), the
/// CPU check made once for all of them: runs of a register and more through `minmax_avx512`;
/// shorter float32 ones through `short_run_avx512`, NaN if the run holds one, else the element
/// it finds (a zero extreme the run's first zero: below one block, the scalar combine in
/// order); shorter float64 ones in order.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn extreme_rows_avx512<'a, T: Float + Element<M = T>>(
    max: bool,
    out: &mut [T],
    run: impl Fn(usize) -> &'a [T],
) {
    for (k, o) in out.iter_mut().enumerate() {
        let x = run(k);
        let (m, nan) = if x.len() >= <T::Z as Reg>::LANES {
            minmax_avx512(max, x)
        } else if let Some(xf) = slice_as::<T, f32>(x) {
            // SAFETY: this function's CPU has AVX-512F.
            let (i, nan) = unsafe { short_run_avx512(max, xf) };
            *o = if nan { T::NAN } else { x[i] };
            continue;
        } else {
            in_order_extreme(max, x)
        };
        *o = settled(x, m, nan, max, Zeros::Row);
    }
}

/// `extreme_rows_avx512` for AVX2: runs of a register and more through `minmax_avx2`,
/// shorter ones in order.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn extreme_rows_avx2<'a, T: Float + Element<M = T>>(
    max: bool,
    out: &mut [T],
    run: impl Fn(usize) -> &'a [T],
) {
    for (k, o) in out.iter_mut().enumerate() {
        let x = run(k);
        let (m, nan) = if x.len() >= <T::Y as Reg>::LANES {
            minmax_avx2(max, x)
        } else {
            in_order_extreme(max, x)
        };
        *o = settled(x, m, nan, max, Zeros::Row);
    }
}

/// The in-order search (`better`) over a run, without branches: a NaN replaces a number,
/// nothing replaces a NaN.
#[inline(always)]
fn arg_short_f32(max: bool, x: &[f32]) -> usize {
    let (mut best, mut bi) = (x[0], 0);
    for (i, &a) in x.iter().enumerate().skip(1) {
        let wins = if max { a > best } else { a < best };
        let take = wins | (a.is_nan() & !best.is_nan());
        best = if take { a } else { best };
        bi = if take { i } else { bi };
    }
    bi
}

/// The index the in-order search settles on (`better` replaces only on strictly better values, and the
/// first NaN wins) in two vectorisable passes: the extreme value (`float_extreme`), noting
/// NaNs; then the first element equal to it (or the first NaN). Zeros of either sign compare equal,
/// so this is the first zero, the element the in-order search keeps.
fn arg_run_f32(max: bool, x: &[f32]) -> usize {
    let (m, nan) = float_extreme(max, x);
    let hit = |v: f32| if nan { v.is_nan() } else { v == m };
    let mut i = 0;
    for c in x.chunks(LANES) {
        if c.iter().fold(false, |a, &v| a | hit(v)) {
            i += c.iter().position(|&v| hit(v)).unwrap_or(0);
            break;
        }
        i += c.len();
    }
    i
}

/// Max/min over one dim (or over the flattened tensor when `dim` is `None`) with indices.
pub fn arg_reduce(
    max: bool,
    x: &View,
    dim: Option<usize>,
    keepdim: bool,
) -> Result<(Owned, Owned)> {
    let (copy, flat);
    let (x, dim) = match dim {
        Some(d) => (*x, d),
        None => {
            copy = (!x.is_contiguous())
                .then(|| CPU.contiguous_copy(*x))
                .transpose()?;
            let c = copy.as_ref().map_or(*x, Owned::view);
            flat = Layout::new(
                Dims::from_slice(&[c.numel()]),
                Dims::from_slice(&[1]),
                c.offset(),
            );
            (View::new(c.storage(), &flat), 0)
        }
    };
    let s = split(&x, &[dim], keepdim);
    let b = x.storage().borrow();
    let (vb, ib) = with_buffer!(&*b, v, T => arg_typed::<T>(max, v, &x, &s)?);
    Ok((
        tensor_of(vb, &s.out_shape, x.device())?,
        tensor_of(ib, &s.out_shape, x.device())?,
    ))
}

/// Lanes of ATen's AVX-512 `Vectorized<float>` (its softmax kernels are built for AVX-512).
pub(super) const LANES: usize = 16;

/// The max (or min) of a non-empty run over 16 lanes, ignoring NaNs, and whether it held a NaN.
#[inline(always)]
pub(super) fn extreme_f32(max: bool, x: &[f32]) -> (f32, bool) {
    let better = |v: f32, m: f32| if max { v > m } else { v < m };
    let mut acc = [x[0]; LANES];
    let mut nan = false;
    let chunks = x.chunks_exact(LANES);
    let tail = chunks.remainder();
    for c in chunks {
        for (a, &v) in acc.iter_mut().zip(c) {
            nan |= v.is_nan();
            *a = if better(v, *a) { v } else { *a };
        }
    }
    let m = tail.iter().chain(&acc).fold(x[0], |m, &v| {
        nan |= v.is_nan();
        if better(v, m) {
            v
        } else {
            m
        }
    });
    (m, nan)
}

#[cfg(test)]
mod tests {
    use super::super::extremes::column_rows_plain;
    #[cfg(target_arch = "x86_64")]
    use super::super::extremes::{column_rows_avx2, column_rows_avx512};
    use super::*;

    /// Which zero `t.max()` / `t.min()` return over short runs of `0.0`, `-0.0` and `∓1` at the
    /// lengths where `vec::reduce_all`'s forms change (below, at and past one vector, a partial
    /// last one); the signs are real PyTorch 2.15's, one string per pattern.
    #[test]
    fn reduce_all_zero_matches_pytorch_at_vector_edges() {
        let lens = [1, 7, 8, 9, 15, 16, 17, 24, 33, 40];
        #[rustfmt::skip]
        let want = [
            (AllForm::Double, true, ["+-+++++++-", "-+++---+-+", "-+--+++-++"]),
            (AllForm::Double, false, ["+-+++++++-", "++++---+-+", "-+--+++-++"]),
            (AllForm::Float, true, ["+++++++++-", "--++-----+", "-+---++-++"]),
            (AllForm::Float, false, ["+++++++++-", "+-++-----+", "-+---++-++"]),
            (AllForm::Reduced, true, ["+++++++++-", "----------", "-+---+++++"]),
            (AllForm::Reduced, false, ["+++++++++-", "+---------", "-+---+++++"]),
        ];
        for (form, max, patterns) in want {
            let ch = [0.0, -0.0, if max { -1.0 } else { 1.0 }];
            for (s, want) in patterns.iter().enumerate() {
                let got: String = lens
                    .iter()
                    .map(|&n| {
                        let xs: Vec<f64> =
                            (0..n).map(|i| ch[(i * 7 + s * 5 + i / 3) % 3]).collect();
                        let z = reduce_all_zero(max, &xs, form);
                        if z.is_sign_negative() {
                            '-'
                        } else {
                            '+'
                        }
                    })
                    .collect();
                assert_eq!(&got, want, "{form:?} max={max} pattern {s}");
            }
        }
    }

    /// The in-order fold the lanes must reproduce.
    fn in_order(max: bool, xs: &[f32]) -> f32 {
        xs[1..]
            .iter()
            .fold(xs[0], |a, &v| if max { a.max_nan(v) } else { a.min_nan(v) })
    }

    trait NanMinMax {
        fn max_nan(self, o: Self) -> Self;
        fn min_nan(self, o: Self) -> Self;
    }
    impl NanMinMax for f32 {
        fn max_nan(self, o: f32) -> f32 {
            Arith::max(self, o)
        }
        fn min_nan(self, o: f32) -> f32 {
            Arith::min(self, o)
        }
    }

    #[test]
    fn arg_runs_are_the_in_order_search() {
        let mut cases: Vec<Vec<f32>> = vec![
            (0..100).map(|i| ((i * 37) % 101) as f32 - 50.0).collect(),
            (0..131).map(|i| -(i as f32)).collect(),
            vec![1.0; 40],
        ];
        let mut zeros = vec![-1.0f32; 90];
        zeros[10] = -0.0;
        zeros[70] = 0.0;
        cases.push(zeros);
        let mut nan = cases[0].clone();
        nan[77] = f32::NAN;
        nan[90] = f32::NAN;
        cases.push(nan);
        cases.push(vec![1.0, f32::NAN, 3.0, f32::NAN, 5.0]);
        cases.push(vec![f32::NAN, 2.0, 9.0, -9.0]);
        cases.push(vec![0.0, -0.0, -1.0, 0.0, 2.0, 2.0, -3.0, -3.0]);
        cases.push(vec![-0.0, 0.0, 1.0, -0.0]);
        for xs in &cases {
            for max in [true, false] {
                let mut bi = 0;
                for i in 1..xs.len() {
                    if better(xs[i], xs[bi], max) {
                        bi = i;
                    }
                }
                assert_eq!(arg_run_f32(max, xs), bi, "{xs:?}");
                for n in 1..=xs.len().min(20) {
                    let mut bn = 0;
                    for i in 1..n {
                        if better(xs[i], xs[bn], max) {
                            bn = i;
                        }
                    }
                    assert_eq!(arg_short_f32(max, &xs[..n]), bn, "{:?}", &xs[..n]);
                    #[cfg(target_arch = "x86_64")]
                    if n < LANES && sleef::has_avx512() {
                        let (mut val, mut got) = ([0f32], [0i64]);
                        // SAFETY: the CPU has AVX-512F (checked just above).
                        unsafe { arg_short_rows_avx512(max, &mut val, &mut got, |_| &xs[..n]) };
                        assert_eq!(got[0], bn as i64, "{:?}", &xs[..n]);
                    }
                    #[cfg(target_arch = "x86_64")]
                    if n <= LANES && sleef::has_avx2() {
                        let (mut val, mut got) = ([0f32], [0i64]);
                        // SAFETY: the CPU has AVX2 (checked just above).
                        unsafe {
                            if max {
                                arg_short_rows_avx2::<true>(n, &mut val, &mut got, |_| &xs[..n])
                            } else {
                                arg_short_rows_avx2::<false>(n, &mut val, &mut got, |_| &xs[..n])
                            }
                        };
                        assert_eq!(got[0], bn as i64, "{:?}", &xs[..n]);
                        assert_eq!(val[0].to_bits(), xs[bn].to_bits(), "{:?}", &xs[..n]);
                    }
                }
            }
        }
    }

    /// Values that tie at zero with either sign, with NaNs among them (a fixed LCG).
    fn ties(n: usize, seed: u32, nan: bool) -> Vec<f32> {
        let vals = [-1.0f32, -2.0, 0.0, -0.0, 1.0, f32::NAN];
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                vals[(s >> 16) as usize % if nan && s.is_multiple_of(7) { 6 } else { 5 }]
            })
            .collect()
    }

    #[test]
    fn short_rows_of_infinities() {
        // a row of -inf has max -inf at index 0 (the masked reductions' fill is f32::MIN)
        for (max, inf) in [(true, f32::NEG_INFINITY), (false, f32::INFINITY)] {
            for n in [1, 2, 10, 15, 16] {
                let row = vec![inf; n];
                let op = if max { ReduceOp::Max } else { ReduceOp::Min };
                assert_eq!(fold(op, &row, Zeros::Row), inf);
                #[cfg(target_arch = "x86_64")]
                if sleef::has_avx512() {
                    let (mut val, mut idx) = ([0f32], [7i64]);
                    // SAFETY: the CPU has AVX-512F (checked just above).
                    unsafe {
                        extreme_rows_avx512(max, &mut val, |_| &row);
                        arg_short_rows_avx512(max, &mut [0f32], &mut idx, |_| &row);
                    }
                    assert_eq!((val[0], idx[0]), (inf, 0), "{n}");
                }
                #[cfg(target_arch = "x86_64")]
                if sleef::has_avx2() {
                    let (mut val, mut idx) = ([0f32], [7i64]);
                    // SAFETY: the CPU has AVX2 (checked just above).
                    unsafe {
                        extreme_rows_avx2(max, &mut val, |_| &row);
                        if max {
                            arg_short_rows_avx2::<true>(n, &mut [0f32], &mut idx, |_| &row);
                        } else {
                            arg_short_rows_avx2::<false>(n, &mut [0f32], &mut idx, |_| &row);
                        }
                    }
                    assert_eq!((val[0], idx[0]), (inf, 0), "{n}");
                }
            }
        }
    }

    #[test]
    fn row_and_column_extremes_keep_atens_zero() {
        let bits = |xs: &[f32]| xs.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        for max in [true, false] {
            let op = if max { ReduceOp::Max } else { ReduceOp::Min };
            // rows: the register paths against `fold`'s rule
            for n in 1..80 {
                for seed in 0..12 {
                    let row = ties(n, seed * 97 + n as u32, seed % 3 == 0);
                    let want = fold(op, &row, Zeros::Row);
                    #[cfg(target_arch = "x86_64")]
                    if sleef::has_avx512() {
                        let mut got = [0f32];
                        // SAFETY: the CPU has AVX-512F (checked just above).
                        unsafe { extreme_rows_avx512(max, &mut got, |_| &row) };
                        assert_eq!(got[0].to_bits(), want.to_bits(), "{row:?}");
                    }
                    #[cfg(target_arch = "x86_64")]
                    if sleef::has_avx2() {
                        let mut got = [0f32];
                        // SAFETY: the CPU has AVX2 (checked just above).
                        unsafe { extreme_rows_avx2(max, &mut got, |_| &row) };
                        assert_eq!(got[0].to_bits(), want.to_bits(), "{row:?}");
                    }
                    // below one 32-float block: the first zero
                    if n < 32 && want == 0.0 {
                        let first = row.iter().find(|v| **v == 0.0).expect("a zero");
                        assert_eq!(want.to_bits(), first.to_bits(), "{row:?}");
                    }
                }
            }
            // columns: the register path against the plain one and the in-order rules
            for (rows, cols) in [(1, 5), (7, 3), (40, 16), (33, 70), (5, 130)] {
                let v = ties(rows * cols + 3, (rows * cols) as u32, true);
                let at3 = Columns {
                    base: 3,
                    row_stride: cols,
                    rows,
                };
                for later in [true, false] {
                    let mut plain = vec![0f32; cols];
                    column_rows_plain(max, later, &mut plain, &v, at3);
                    for (c, p) in plain.iter().enumerate() {
                        let col: Vec<f32> = (0..rows).map(|r| v[3 + r * cols + c]).collect();
                        let rule = if later { Zeros::Last } else { Zeros::First };
                        assert_eq!(p.to_bits(), fold(op, &col, rule).to_bits(), "{col:?}");
                    }
                    #[cfg(target_arch = "x86_64")]
                    if sleef::has_avx512() {
                        let mut got = vec![0f32; cols];
                        // SAFETY: the CPU has AVX-512F (checked just above).
                        unsafe { column_rows_avx512(max, later, &mut got, &v, at3) };
                        assert_eq!(bits(&got), bits(&plain), "{rows}x{cols}");
                    }
                    #[cfg(target_arch = "x86_64")]
                    if sleef::has_avx2() {
                        let mut got = vec![0f32; cols];
                        // SAFETY: the CPU has AVX2 (checked just above).
                        unsafe { column_rows_avx2(max, later, &mut got, &v, at3) };
                        assert_eq!(bits(&got), bits(&plain), "{rows}x{cols}");
                    }
                }
            }
        }
    }

    #[test]
    fn lane_minmax_is_the_in_order_fold() {
        let mut cases: Vec<Vec<f32>> = vec![
            (0..100).map(|i| ((i * 37) % 101) as f32 - 50.0).collect(),
            (0..131).map(|i| -(i as f32)).collect(),
        ];
        let mut zeros: Vec<f32> = vec![-1.0; 90];
        zeros[10] = 0.0;
        zeros[70] = -0.0;
        cases.push(zeros.clone());
        zeros[80] = 0.0;
        cases.push(zeros.clone());
        let mut nan = cases[0].clone();
        nan[77] = f32::NAN;
        cases.push(nan);
        // every way a run splits into 64- and 16-float blocks and a ragged end, with the
        // extreme, a NaN or the deciding zero in the end's last float
        for n in [
            16usize, 17, 31, 32, 47, 63, 64, 65, 79, 80, 100, 127, 130, 200,
        ] {
            let base: Vec<f32> = (0..n).map(|i| ((i * 37) % 101) as f32 - 50.0).collect();
            for (at, v) in [
                (n - 1, 99.0),
                (n - 1, -99.0),
                (n - 1, f32::NAN),
                (n / 2, f32::NAN),
            ] {
                let mut c = base.clone();
                c[at] = v;
                cases.push(c);
            }
            let mut z = vec![-1.0f32; n];
            z[0] = -0.0;
            z[n - 1] = 0.0;
            cases.push(z.clone());
            z[n - 1] = -0.0;
            z[n / 3] = 0.0;
            cases.push(z);
        }
        for xs in &cases {
            for max in [true, false] {
                let (best, nan) = lanes_extreme::<f32>(max, xs);
                let (a, b) = (settled(xs, best, nan, max, Zeros::Last), in_order(max, xs));
                assert_eq!(a.to_bits(), b.to_bits(), "{xs:?}");
                // and the dispatching fold (AVX-512 or AVX2 registers where the CPU has them)
                let op = if max { ReduceOp::Max } else { ReduceOp::Min };
                assert_eq!(fold(op, xs, Zeros::Last).to_bits(), b.to_bits(), "{xs:?}");
                // float64 (half the lanes a register) widened from the same values
                let wide: Vec<f64> = xs.iter().map(|&v| v as f64).collect();
                let w = fold(op, &wide, Zeros::Last);
                assert!(w.to_bits() == (b as f64).to_bits() || w.is_nan() && b.is_nan());
            }
        }
    }
}
