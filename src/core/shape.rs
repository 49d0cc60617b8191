//! Shapes and strides. `Dims` keeps up to six sizes inline so that making a small tensor costs no
//! heap allocation for its metadata (the per-op budget is a few hundred nanoseconds); larger ranks
//! spill to the heap. Also PyTorch's broadcasting rule, dimension wrapping and size checks.
use super::error::{index_err, runtime, Result};
use std::fmt;
use std::ops::{Deref, DerefMut};

const INLINE: usize = 6;

#[derive(Clone)]
pub enum Dims {
    Inline(u8, [usize; INLINE]),
    Heap(Vec<usize>),
}

impl Dims {
    pub fn new() -> Self {
        Dims::Inline(0, [0; INLINE])
    }
    /// `n` copies of `v`.
    pub fn filled(n: usize, v: usize) -> Self {
        if n <= INLINE {
            Dims::Inline(n as u8, [v; INLINE])
        } else {
            Dims::Heap(vec![v; n])
        }
    }
    /// (Inlined, so that an op's result layout is built where it lives: a `Dims` returned
    /// through a temporary and then copied stalls the copy on the stores just made.)
    #[inline(always)]
    pub fn from_slice(s: &[usize]) -> Self {
        if s.len() <= INLINE {
            let mut a = [0; INLINE];
            a[..s.len()].copy_from_slice(s);
            Dims::Inline(s.len() as u8, a)
        } else {
            Dims::heap_of(s)
        }
    }
    #[cold]
    #[inline(never)]
    fn heap_of(s: &[usize]) -> Self {
        Dims::Heap(s.to_vec())
    }
    pub fn push(&mut self, v: usize) {
        match self {
            Dims::Inline(n, a) if (*n as usize) < INLINE => {
                a[*n as usize] = v;
                *n += 1;
            }
            Dims::Inline(n, a) => {
                let mut v2 = a[..*n as usize].to_vec();
                v2.push(v);
                *self = Dims::Heap(v2);
            }
            Dims::Heap(h) => h.push(v),
        }
    }
    pub fn insert(&mut self, at: usize, v: usize) {
        let mut out = Dims::new();
        for (i, &x) in self.iter().enumerate() {
            if i == at {
                out.push(v);
            }
            out.push(x);
        }
        if at >= self.len() {
            out.push(v);
        }
        *self = out;
    }
    pub fn remove(&mut self, at: usize) {
        let out: Dims = self
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != at)
            .map(|(_, &x)| x)
            .collect();
        *self = out;
    }
}

impl Default for Dims {
    fn default() -> Self {
        Dims::new()
    }
}

impl Deref for Dims {
    type Target = [usize];
    #[inline]
    fn deref(&self) -> &[usize] {
        match self {
            Dims::Inline(n, a) => &a[..*n as usize],
            Dims::Heap(v) => v,
        }
    }
}

impl DerefMut for Dims {
    #[inline]
    fn deref_mut(&mut self) -> &mut [usize] {
        match self {
            Dims::Inline(n, a) => &mut a[..*n as usize],
            Dims::Heap(v) => v,
        }
    }
}

impl FromIterator<usize> for Dims {
    fn from_iter<I: IntoIterator<Item = usize>>(it: I) -> Self {
        let mut d = Dims::new();
        for x in it {
            d.push(x);
        }
        d
    }
}

impl PartialEq for Dims {
    fn eq(&self, o: &Self) -> bool {
        **self == **o
    }
}
impl Eq for Dims {}

impl PartialEq<[usize]> for Dims {
    fn eq(&self, o: &[usize]) -> bool {
        **self == *o
    }
}

impl fmt::Debug for Dims {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", fmt_list(self))
    }
}

/// `[2, 3]`, as PyTorch prints sizes in messages.
pub fn fmt_list<T: fmt::Display>(xs: &[T]) -> String {
    let parts: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

/// Row-major strides; a size-0 dimension counts as 1, as in c10. (Inlined like
/// `Dims::from_slice`: this runs for every op result.)
#[inline(always)]
pub fn contiguous_strides(shape: &[usize]) -> Dims {
    let n = shape.len();
    if n <= INLINE {
        let mut a = [0usize; INLINE];
        let mut acc = 1usize;
        for i in (0..n).rev() {
            a[i] = acc;
            acc = acc.saturating_mul(shape[i].max(1));
        }
        return Dims::Inline(n as u8, a);
    }
    heap_strides(shape)
}

#[cold]
#[inline(never)]
fn heap_strides(shape: &[usize]) -> Dims {
    let mut st = Dims::filled(shape.len(), 1);
    let mut acc = 1usize;
    for i in (0..shape.len()).rev() {
        st[i] = acc;
        acc = acc.saturating_mul(shape[i].max(1));
    }
    st
}

/// PyTorch's `is_contiguous`: size-1 dimensions may have any stride; empty tensors are contiguous.
pub fn is_contiguous(shape: &[usize], strides: &[usize]) -> bool {
    let mut expected = 1usize;
    for i in (0..shape.len()).rev() {
        if shape[i] == 0 {
            return true;
        }
        if shape[i] != 1 {
            if strides[i] != expected {
                return false;
            }
            expected *= shape[i];
        }
    }
    true
}

/// Strides that are a permutation of a dense layout: no gaps, no overlaps
/// (c10 `is_non_overlapping_and_dense`).
pub fn is_dense(shape: &[usize], strides: &[usize]) -> bool {
    let mut dims: Vec<(usize, usize)> = shape
        .iter()
        .copied()
        .zip(strides.iter().copied())
        .filter(|&(n, _)| n != 1)
        .collect();
    dims.sort_by_key(|&(_, s)| s);
    let mut expected = 1;
    for (n, s) in dims {
        if s != expected {
            return false;
        }
        expected *= n;
    }
    true
}

/// Product of sizes; only called on shapes already validated by `checked_numel`.
#[inline]
/// The one rule for a reduction's result shape: reduced dims dropped, or kept as size 1 with
/// `keepdim` (`dims`: the reduced dims, each once).
pub fn reduced_shape(shape: &[usize], dims: &[usize], keepdim: bool) -> Dims {
    (0..shape.len())
        .filter_map(|i| match (dims.contains(&i), keepdim) {
            (false, _) => Some(shape[i]),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

pub fn numel(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// Number of elements, or an error when it overflows (a huge user-given shape).
pub fn checked_numel(shape: &[usize]) -> Result<usize> {
    let mut n: usize = 1;
    for &s in shape {
        n = match n.checked_mul(s) {
            Some(v) if v <= i64::MAX as usize => v,
            _ => {
                if shape.contains(&0) {
                    return Ok(0);
                }
                return runtime(format!(
                    "numel: integer multiplication overflow (shape {})",
                    fmt_list(shape)
                ));
            }
        };
    }
    Ok(n)
}

/// Sizes given by the user to a factory function (`torch.zeros(2, -1)`).
pub fn sizes_from_i64(sizes: &[i64]) -> Result<Dims> {
    for &s in sizes {
        if s < 0 {
            return runtime(format!(
                "Trying to create tensor with negative dimension {s}: {}",
                fmt_list(sizes)
            ));
        }
    }
    let d: Dims = sizes.iter().map(|&s| s as usize).collect();
    checked_numel(&d)?;
    Ok(d)
}

/// Wrap a possibly negative dimension index. A 0-d tensor accepts dims -1 and 0, as in PyTorch.
pub fn wrap_dim(dim: i64, ndim: usize) -> Result<usize> {
    let n = ndim.max(1) as i64;
    if dim < -n || dim >= n {
        return index_err(format!(
            "Dimension out of range (expected to be in range of [{}, {}], but got {dim})",
            -n,
            n - 1
        ));
    }
    Ok(if dim < 0 {
        (dim + n) as usize
    } else {
        dim as usize
    })
}

/// Broadcast two shapes (ExpandUtils `infer_size`), with PyTorch's message on a mismatch.
pub fn broadcast_shapes(a: &[usize], b: &[usize]) -> Result<Dims> {
    if a == b {
        return Ok(Dims::from_slice(a));
    }
    let n = a.len().max(b.len());
    let mut out = Dims::filled(n, 0);
    for i in (0..n).rev() {
        let off = n - 1 - i;
        let sa = if off < a.len() {
            a[a.len() - 1 - off]
        } else {
            1
        };
        let sb = if off < b.len() {
            b[b.len() - 1 - off]
        } else {
            1
        };
        if sa != sb && sa != 1 && sb != 1 {
            let msg = format!(
                "The size of tensor a ({sa}) must match the size of tensor b ({sb}) at non-singleton dimension {i}"
            );
            let hint = format!(
                "shapes {} and {} do not broadcast: lined up from the right, each pair of sizes must be equal or one of them 1",
                fmt_list(a),
                fmt_list(b)
            );
            return Err(
                super::error::TensorError::new(super::error::ErrorKind::Runtime, msg)
                    .with_hint(hint),
            );
        }
        out[i] = if sa == 1 { sb } else { sa };
    }
    Ok(out)
}

/// Strides that read a tensor of `shape`/`strides` as if expanded to `target` (stride 0 on
/// broadcast dimensions). The caller has checked that `shape` broadcasts to `target`.
pub fn broadcast_strides(shape: &[usize], strides: &[usize], target: &[usize]) -> Dims {
    let mut out = Dims::filled(target.len(), 0);
    let lead = target.len() - shape.len();
    for i in 0..shape.len() {
        out[lead + i] = if shape[i] == 1 && target[lead + i] != 1 {
            0
        } else {
            strides[i]
        };
    }
    out
}

/// Resolve a `view`/`reshape` shape with at most one `-1` against `numel` (`infer_size`).
pub fn infer_shape(shape: &[i64], numel: usize) -> Result<Dims> {
    let mut infer: Option<usize> = None;
    let mut prod: usize = 1;
    for (i, &s) in shape.iter().enumerate() {
        if s == -1 {
            if infer.is_some() {
                return runtime("only one dimension can be inferred");
            }
            infer = Some(i);
        } else if s < 0 {
            return runtime(format!(
                "invalid shape dimension {s} at index {i} of shape {}",
                fmt_list(shape)
            ));
        } else {
            prod = prod.saturating_mul(s as usize);
        }
    }
    let bad = || {
        runtime(format!(
            "shape '{}' is invalid for input of size {numel}",
            fmt_list(shape)
        ))
    };
    match infer {
        None => {
            if prod != numel {
                return bad();
            }
            Ok(shape.iter().map(|&s| s as usize).collect())
        }
        Some(at) => {
            if prod == 0 {
                if numel == 0 {
                    return runtime(format!(
                        "cannot reshape tensor of 0 elements into shape {} because the unspecified dimension size -1 can be any value and is ambiguous",
                        fmt_list(shape)
                    ));
                }
                return bad();
            }
            if !numel.is_multiple_of(prod) {
                return bad();
            }
            let mut d: Dims = shape.iter().map(|&s| s.max(0) as usize).collect();
            d[at] = numel / prod;
            Ok(d)
        }
    }
}

/// Strides for viewing (`shape`, `strides`) as `new_shape` without copying, or `None` when the
/// memory layout does not allow it (ATen `computeStride`).
pub fn view_strides(shape: &[usize], strides: &[usize], new_shape: &[usize]) -> Option<Dims> {
    let mut out = Dims::filled(new_shape.len(), 0);
    if shape.is_empty() {
        for s in out.iter_mut() {
            *s = 1;
        }
        return Some(out);
    }
    let numel: usize = shape.iter().product();
    if numel == 0 {
        if shape == new_shape {
            return Some(Dims::from_slice(strides));
        }
        return Some(contiguous_strides(new_shape));
    }
    let mut view_d = new_shape.len() as isize - 1;
    let mut chunk_base_stride = *strides.last().unwrap_or(&1);
    let mut tensor_numel = 1usize;
    let mut view_numel = 1usize;
    for tensor_d in (0..shape.len()).rev() {
        tensor_numel *= shape[tensor_d];
        if tensor_d == 0
            || (shape[tensor_d - 1] != 1
                && strides[tensor_d - 1] != tensor_numel * chunk_base_stride)
        {
            while view_d >= 0 && (view_numel < tensor_numel || new_shape[view_d as usize] == 1) {
                out[view_d as usize] = view_numel * chunk_base_stride;
                view_numel *= new_shape[view_d as usize];
                view_d -= 1;
            }
            if view_numel != tensor_numel {
                return None;
            }
            if tensor_d > 0 {
                chunk_base_stride = strides[tensor_d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    if view_d != -1 {
        return None;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dims_inline_and_heap() {
        let mut d = Dims::from_slice(&[1, 2, 3, 4, 5, 6]);
        assert!(matches!(d, Dims::Inline(..)));
        d.push(7);
        assert_eq!(&*d, &[1, 2, 3, 4, 5, 6, 7]);
        d.remove(0);
        assert_eq!(&*d, &[2, 3, 4, 5, 6, 7]);
        d.insert(6, 9);
        assert_eq!(&*d, &[2, 3, 4, 5, 6, 7, 9]);
        d.insert(0, 1);
        assert_eq!(d[0], 1);
    }

    #[test]
    fn broadcast_message() {
        let e = broadcast_shapes(&[2, 3], &[2, 4]).unwrap_err();
        assert_eq!(e.msg, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
        assert_eq!(&*broadcast_shapes(&[3, 1], &[4]).unwrap(), &[3, 4]);
    }

    #[test]
    fn view_strides_cases() {
        // transpose of 2x3 cannot be flattened
        assert!(view_strides(&[3, 2], &[1, 3], &[6]).is_none());
        assert_eq!(&*view_strides(&[2, 3], &[3, 1], &[3, 2]).unwrap(), &[2, 1]);
        assert_eq!(
            &*view_strides(&[2, 3], &[3, 1], &[2, 1, 3]).unwrap(),
            &[3, 3, 1]
        );
    }
}
