//! Ops that copy a tensor into a new layout: `repeat`/`tile` (a view expanded then made
//! contiguous), `tril`/`triu` (a mask), `diag` (a gather by flat position). All compose
//! existing ops, so they run on every device and their gradient comes from those ops.
use super::host::{make, rename, take_flat};
use crate::tensor::error::{runtime, Result};
use crate::tensor::ops::join::{cat, where_, TensorOrScalar};
use crate::tensor::{DType, Scalar, Tensor};

/// `x.repeat(*reps)`.
pub fn repeat(x: &Tensor, reps: &[i64]) -> Result<Tensor> {
    if reps.len() < x.ndim() {
        return runtime("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
    }
    if let Some(r) = reps.iter().find(|&&r| r < 0) {
        return runtime(format!(
            "Trying to create tensor with negative dimension {r}: {}",
            crate::tensor::shape::fmt_list(reps)
        ));
    }
    let lead = reps.len() - x.ndim();
    let padded: Vec<i64> = std::iter::repeat_n(1, lead)
        .chain(x.shape().iter().map(|&s| s as i64))
        .collect();
    // [1, s0, 1, s1, ...] expanded to [r0, s0, r1, s1, ...], then folded pairwise
    let mut pairs = Vec::new();
    let mut big = Vec::new();
    let mut fin = Vec::new();
    for (&s, &r) in padded.iter().zip(reps) {
        pairs.extend([1, s]);
        big.extend([r, s]);
        fin.push(r * s);
    }
    let out = x.reshape(&pairs)?.expand(&big)?.reshape(&fin)?;
    let out = if out.same_storage(x) {
        out.clone_tensor()?
    } else {
        out
    };
    rename(&out, "RepeatBackward0");
    Ok(out)
}

/// `x.tile(reps)`: `repeat` with `reps` padded by leading ones to `x`'s dims.
pub fn tile(x: &Tensor, reps: &[i64]) -> Result<Tensor> {
    let mut r: Vec<i64> = std::iter::repeat_n(1, x.ndim().saturating_sub(reps.len())).collect();
    r.extend_from_slice(reps);
    repeat(x, &r)
}

/// `x.tril(diagonal)` / `x.triu(diagonal)`: zeros above (below) the diagonal.
pub fn tri(x: &Tensor, diagonal: i64, lower: bool) -> Result<Tensor> {
    let name = if lower { "tril" } else { "triu" };
    if x.ndim() < 2 {
        return runtime(format!(
            "{name}: input tensor must have at least 2 dimensions"
        ));
    }
    let (r, c) = (x.shape()[x.ndim() - 2], x.shape()[x.ndim() - 1]);
    let keep: Vec<f64> = (0..r * c)
        .map(|p| {
            let d = (p % c) as i64 - (p / c) as i64;
            f64::from(u8::from(if lower { d <= diagonal } else { d >= diagonal }))
        })
        .collect();
    let mask = make(&keep, &[r, c], DType::Bool, x.device())?;
    let zero = TensorOrScalar::Tensor(Tensor::scalar(Scalar::Int(0), x.dtype(), x.device())?);
    let out = where_(&mask, &TensorOrScalar::Tensor(x.clone()), &zero)?;
    rename(
        &out,
        if lower {
            "TrilBackward0"
        } else {
            "TriuBackward0"
        },
    );
    Ok(out)
}

/// `torch.diag(x, diagonal=0)`: a vector's diagonal matrix, or a matrix's diagonal.
pub fn diag(x: &Tensor, diagonal: i64) -> Result<Tensor> {
    crate::tensor::autocast::excluded(|| diag_uncast(x, diagonal))
}

/// `diag` itself: one kernel in PyTorch, so the `cat` it runs here is not cast.
fn diag_uncast(x: &Tensor, diagonal: i64) -> Result<Tensor> {
    match x.ndim() {
        1 => {
            let n = x.numel();
            let m = n + diagonal.unsigned_abs() as usize;
            // gather from [x..., 0]: position n is the zero
            let zero = crate::tensor::create::zeros(&[1], Some(x.dtype()), x.device())?;
            let ext = cat(&[x.clone(), zero], 0)?;
            let flat: Vec<i64> = (0..m * m)
                .map(|p| {
                    let (i, j) = ((p / m) as i64, (p % m) as i64);
                    let k = if diagonal >= 0 { i } else { j };
                    if j - i == diagonal {
                        k
                    } else {
                        n as i64
                    }
                })
                .collect();
            let out = take_flat(&ext, &flat, &[m, m])?;
            rename(&out, "DiagEmbedBackward0");
            Ok(out)
        }
        2 => {
            let (r, c) = (x.shape()[0] as i64, x.shape()[1] as i64);
            let (i0, j0) = if diagonal >= 0 {
                (0, diagonal)
            } else {
                (-diagonal, 0)
            };
            let len = (r - i0).min(c - j0).max(0);
            let flat: Vec<i64> = (0..len).map(|k| (i0 + k) * c + j0 + k).collect();
            let out = take_flat(x, &flat, &[len as usize])?;
            rename(&out, "DiagonalBackward0_copy");
            Ok(out)
        }
        _ => runtime(
            "diag(): Supports 1D or 2D tensors. Got ".to_string() + &format!("{}D", x.ndim()),
        ),
    }
}

/// `torch.diag_embed(x, offset, dim1, dim2)`: each vector along `x`'s last dim laid on the
/// `offset` diagonal of the planes spanned by the new dims `dim1`, `dim2` of the result
/// (a gather by flat position, as `diag` of a vector).
pub fn diag_embed(x: &Tensor, offset: i64, dim1: i64, dim2: i64) -> Result<Tensor> {
    crate::tensor::autocast::excluded(|| diag_embed_uncast(x, offset, dim1, dim2))
}

fn diag_embed_uncast(x: &Tensor, offset: i64, dim1: i64, dim2: i64) -> Result<Tensor> {
    let nd = x.ndim() + 1;
    let d1 = crate::tensor::shape::wrap_dim(dim1, nd)?;
    let d2 = crate::tensor::shape::wrap_dim(dim2, nd)?;
    if d1 == d2 {
        return runtime(format!(
            "diagonal dimensions cannot be identical {dim1}, {dim2}"
        ));
    }
    if x.ndim() == 0 {
        return crate::tensor::error::index_err(
            "Dimension specified as -1 but tensor has no dimensions",
        );
    }
    let n = x.shape()[x.ndim() - 1];
    let numel = x.numel();
    let m = n + offset.unsigned_abs() as usize;
    let mut shape: Vec<usize> = x.shape()[..x.ndim() - 1].to_vec();
    shape.insert(d1.min(d2), m);
    shape.insert(d1.max(d2), m);
    let total: usize = shape.iter().product();
    let strides = super::host::strides_of(&shape);
    let flat: Vec<i64> = (0..total)
        .map(|p| {
            let (mut i, mut j, mut batch) = (0i64, 0i64, 0usize);
            for (d, (&st, &sz)) in strides.iter().zip(&shape).enumerate() {
                let c = (p / st) % sz;
                if d == d1 {
                    i = c as i64;
                } else if d == d2 {
                    j = c as i64;
                } else {
                    batch = batch * sz + c;
                }
            }
            if j - i == offset {
                let k = if offset >= 0 { i } else { j };
                (batch * n) as i64 + k
            } else {
                numel as i64
            }
        })
        .collect();
    let zero = crate::tensor::create::zeros(&[1], Some(x.dtype()), x.device())?;
    let ext = cat(&[x.reshape(&[-1])?, zero], 0)?;
    let out = take_flat(&ext, &flat, &shape)?;
    rename(&out, "DiagEmbedBackward0");
    Ok(out)
}

/// `x.split(sizes, dim)` with explicit sizes: views along `dim`, each named `name` as
/// PyTorch names its split node.
fn split_views(x: &Tensor, sizes: &[usize], d: usize, name: &'static str) -> Result<Vec<Tensor>> {
    let mut start = 0;
    let mut out = Vec::with_capacity(sizes.len());
    for &s in sizes {
        let v = x.narrow(d as i64, start as i64, s as i64)?;
        rename(&v, name);
        out.push(v);
        start += s;
    }
    Ok(out)
}

/// `x.split(split_size, dim)`: pieces of `split_size` along `dim`, the last one shorter.
pub fn split(x: &Tensor, split_size: i64, dim: i64) -> Result<Vec<Tensor>> {
    let d = crate::tensor::shape::wrap_dim(dim, x.ndim().max(1))?;
    if split_size < 0 {
        return runtime(format!(
            "split expects split_size be non-negative, but got split_size={split_size}"
        ));
    }
    let n = x.shape().get(d).copied().unwrap_or(0);
    let step = split_size as usize;
    let sizes: Vec<usize> = if step == 0 {
        vec![0; usize::from(n == 0)]
    } else {
        (0..n.div_ceil(step).max(1))
            .map(|k| step.min(n - (k * step).min(n)))
            .collect()
    };
    split_views(x, &sizes, d, "SplitBackward0")
}

/// `x.split([s0, s1, ...], dim)`: the sizes must add up to the dim's size.
pub fn split_with_sizes(x: &Tensor, sizes: &[i64], dim: i64) -> Result<Vec<Tensor>> {
    let d = crate::tensor::shape::wrap_dim(dim, x.ndim().max(1))?;
    let n = x.shape().get(d).copied().unwrap_or(0) as i64;
    if sizes.iter().any(|&s| s < 0) || sizes.iter().sum::<i64>() != n {
        return runtime(format!(
            "split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at dimension {d}), but got split_sizes={}",
            crate::tensor::shape::fmt_list(sizes)
        ));
    }
    let sizes: Vec<usize> = sizes.iter().map(|&s| s as usize).collect();
    split_views(x, &sizes, d, "SplitWithSizesBackward0")
}

/// `x.chunk(chunks, dim)`: pieces of ceil(size / chunks), so possibly fewer than `chunks`.
pub fn chunk(x: &Tensor, chunks: i64, dim: i64) -> Result<Vec<Tensor>> {
    if chunks <= 0 {
        return runtime(format!(
            "chunk expects `chunks` to be greater than 0, got: {chunks}"
        ));
    }
    let d = crate::tensor::shape::wrap_dim(dim, x.ndim().max(1))?;
    let n = x.shape().get(d).copied().unwrap_or(0) as i64;
    split(x, (n + chunks - 1) / chunks, dim)
}
