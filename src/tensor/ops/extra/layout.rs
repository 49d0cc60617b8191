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
