//! Reductions (sum, prod, max, min, all, any), max/min with indices, and softmax.
use super::iter::{coalesce, for_rows};
use super::sum::{cascade_column_sum, contiguous_sum, scalar_row_sum, vec_size};
use super::{internal, tensor_of};
use crate::backend::cpu::math::FloatMath;
use crate::tensor::error::Result;
use crate::tensor::ops::reduce::ReduceOp;
use crate::tensor::shape::{numel, Dims};
use crate::tensor::storage::{zeroed_vec, Arith, Buffer, Element};
use crate::tensor::Tensor;
use crate::with_buffer;
use half::{bf16, f16};

/// The kept and reduced parts of a layout.
struct Split {
    kept_shape: Dims,
    kept_strides: Dims,
    red_shape: Dims,
    red_strides: Dims,
    out_shape: Dims,
}

fn split(x: &Tensor, dims: &[usize], keepdim: bool) -> Split {
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
            if keepdim {
                s.out_shape.push(1);
            }
        } else {
            s.kept_shape.push(x.shape()[d]);
            s.kept_strides.push(x.strides()[d]);
            s.out_shape.push(x.shape()[d]);
        }
    }
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
    let n_red = numel(rs);
    if rs.len() <= 1 && rst[0].last().copied().unwrap_or(1) == 1 && n_red >= 1 {
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

fn reduce_typed<E: Element>(op: ReduceOp, v: &[E], x: &Tensor, s: &Split) -> Result<Buffer> {
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
            for_each_output(s, x.offset(), |j, base| {
                if n_red == 0 {
                    // empty regions: sum 0, prod 1 (max/min of nothing are refused earlier)
                    out[j] = E::store(if op == ReduceOp::Prod {
                        E::M::one()
                    } else {
                        E::M::zero()
                    });
                    return;
                }
                region(base, &mut scratch);
                let xs = if dense {
                    &v[base..base + n_red]
                } else {
                    &scratch[..]
                };
                let m: E::M = match op {
                    ReduceOp::Sum => match sum_order::<E>(s, &rs, &rst, j) {
                        SumOrder::Contiguous => contiguous_sum(xs),
                        SumOrder::Row => scalar_row_sum(n_red, |i| xs[i].load()),
                        SumOrder::Column => cascade_column_sum(n_red, |i| xs[i].load()),
                    },
                    ReduceOp::Prod => xs.iter().fold(E::M::one(), |a, e| a.mul(e.load())),
                    ReduceOp::Max => xs.iter().fold(xs[0].load(), |a, e| a.max(e.load())),
                    ReduceOp::Min => xs.iter().fold(xs[0].load(), |a, e| a.min(e.load())),
                    ReduceOp::All | ReduceOp::Any => E::M::zero(),
                };
                out[j] = E::store(m);
            });
            Ok(E::wrap(out))
        }
    }
}

/// Reduce `dims` of `x` (its dtype is already the accumulation/output dtype).
pub fn reduce(op: ReduceOp, x: &Tensor, dims: &[usize], keepdim: bool) -> Result<Tensor> {
    let s = split(x, dims, keepdim);
    let b = x.storage().borrow();
    let buf = with_buffer!(&*b, v, T => reduce_typed::<T>(op, v, x, &s)?);
    tensor_of(buf, &s.out_shape, x.device())
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

fn arg_typed<E: Element>(max: bool, v: &[E], x: &Tensor, s: &Split) -> Result<(Buffer, Buffer)> {
    let n_out = numel(&s.kept_shape);
    let n_red = numel(&s.red_shape);
    let stride = s.red_strides.first().copied().unwrap_or(0);
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

/// Max/min over one dim (or over the flattened tensor when `dim` is `None`) with indices.
pub fn arg_reduce(
    max: bool,
    x: &Tensor,
    dim: Option<usize>,
    keepdim: bool,
) -> Result<(Tensor, Tensor)> {
    let (x, dim) = match dim {
        Some(d) => (x.clone(), d),
        None => {
            let flat = x.contiguous()?;
            let n = flat.numel();
            (
                flat.view_as_layout(
                    Dims::from_slice(&[n]),
                    Dims::from_slice(&[1]),
                    flat.offset(),
                ),
                0,
            )
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

fn softmax_typed<E: Element>(v: &[E], x: &Tensor, dim: usize, log: bool) -> Result<Buffer>
where
    E::M: FloatMath,
{
    let n = x.numel();
    let mut out = zeroed_vec::<E>(n)?;
    let s = split(x, &[dim], true);
    let len = x.shape()[dim];
    let stride = x.strides()[dim];
    let out_strides = crate::tensor::shape::contiguous_strides(x.shape());
    let ost = out_strides[dim];
    // output offsets follow the same kept-dims walk over a contiguous layout
    let os = Split {
        kept_shape: s.kept_shape.clone(),
        kept_strides: (0..x.ndim())
            .filter(|&d| d != dim)
            .map(|d| out_strides[d])
            .collect(),
        red_shape: s.red_shape.clone(),
        red_strides: Dims::from_slice(&[ost]),
        out_shape: s.out_shape.clone(),
    };
    let mut bases = Vec::with_capacity(numel(&s.kept_shape));
    for_each_output(&os, 0, |_, ob| bases.push(ob));
    let last = dim + 1 == x.ndim();
    let mut k = 0usize;
    let mut tmp: Vec<E::M> = Vec::with_capacity(len);
    for_each_output(&s, x.offset(), |_, base| {
        let ob = bases[k];
        k += 1;
        let mut mx = v[base].load();
        for i in 1..len {
            mx = Arith::max(mx, v[base + i * stride].load());
        }
        // exp(x - max) in the compute type (float for half types), summed in order
        tmp.clear();
        let mut sum = E::M::zero();
        for i in 0..len {
            let e = v[base + i * stride].load().sub(mx).exp();
            sum = sum.add(e);
            tmp.push(e);
        }
        if log {
            let ls = sum.ln();
            for i in 0..len {
                out[ob + i * ost] = E::store(v[base + i * stride].load().sub(mx).sub(ls));
            }
        } else if last {
            // PyTorch's last-dim kernel scales by the reciprocal; the others divide
            let r = E::M::one().div(sum);
            for (i, e) in tmp.iter().enumerate() {
                out[ob + i * ost] = E::store(e.mul(r));
            }
        } else {
            for (i, e) in tmp.iter().enumerate() {
                out[ob + i * ost] = E::store(e.div(sum));
            }
        }
    });
    Ok(E::wrap(out))
}

/// Softmax or log-softmax along `dim` of a floating tensor.
pub fn softmax(x: &Tensor, dim: usize, log: bool) -> Result<Tensor> {
    if x.numel() == 0 {
        return tensor_of(Buffer::zeros(x.dtype(), 0)?, x.shape(), x.device());
    }
    let b = x.storage().borrow();
    let buf = match &*b {
        Buffer::F32(v) => softmax_typed::<f32>(v, x, dim, log)?,
        Buffer::F64(v) => softmax_typed::<f64>(v, x, dim, log)?,
        Buffer::F16(v) => softmax_typed::<f16>(v, x, dim, log)?,
        Buffer::BF16(v) => softmax_typed::<bf16>(v, x, dim, log)?,
        _ => return internal("softmax of a non-float tensor"),
    };
    tensor_of(buf, x.shape(), x.device())
}
