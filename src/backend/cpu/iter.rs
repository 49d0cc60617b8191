//! Strided iteration shared by the CPU kernels. Operands are (offset, strides) over one common
//! shape; dimensions that are contiguous for every operand are merged first so that a dense
//! tensor becomes a single row and the inner loops see plain slices (which vectorise).
use crate::core::shape::Dims;

/// Work below this many elements runs on the calling thread; rayon's fork/join costs more than
/// the work itself for small tensors.
pub const PAR_THRESHOLD: usize = 32 * 1024;

/// Merge dimensions (dropping size-1 ones) where every operand's strides allow it.
pub fn coalesce<const N: usize>(shape: &[usize], strides: [&[usize]; N]) -> (Dims, [Dims; N]) {
    let mut out_shape = Dims::new();
    let mut out_strides: [Dims; N] = std::array::from_fn(|_| Dims::new());
    for d in 0..shape.len() {
        let s = shape[d];
        if s == 1 {
            continue;
        }
        if let Some(&last) = out_shape.last() {
            let k = out_shape.len() - 1;
            let mergeable = (0..N).all(|i| out_strides[i][k] == strides[i][d] * s);
            if mergeable {
                out_shape[k] = last * s;
                for i in 0..N {
                    out_strides[i][k] = strides[i][d];
                }
                continue;
            }
        }
        out_shape.push(s);
        for i in 0..N {
            out_strides[i].push(strides[i][d]);
        }
    }
    (out_shape, out_strides)
}

/// Visit the rows of the linear range `[start, end)` of `shape` (row-major). For each row,
/// `f(pos, len, offsets)` gets the linear position of its first element, its length, and each
/// operand's offset of that element; within a row operand `i` advances by `strides[i].last()`.
#[inline]
pub fn for_rows<const N: usize>(
    shape: &[usize],
    strides: &[Dims; N],
    base: [usize; N],
    start: usize,
    end: usize,
    mut f: impl FnMut(usize, usize, [usize; N]),
) {
    if start >= end {
        return;
    }
    let nd = shape.len();
    if nd == 0 {
        f(start, 1, base);
        return;
    }
    let last = nd - 1;
    // multi-index of `start`
    let mut idx = Dims::filled(nd, 0);
    let mut rem = start;
    for d in (0..nd).rev() {
        idx[d] = rem % shape[d];
        rem /= shape[d];
    }
    let mut offs = base;
    for i in 0..N {
        for d in 0..nd {
            offs[i] += idx[d] * strides[i][d];
        }
    }
    let mut pos = start;
    while pos < end {
        let len = (shape[last] - idx[last]).min(end - pos);
        f(pos, len, offs);
        pos += len;
        if pos >= end {
            break;
        }
        idx[last] += len;
        for i in 0..N {
            offs[i] += len * strides[i][last];
        }
        let mut d = last;
        while idx[d] == shape[d] && d > 0 {
            idx[d] = 0;
            for i in 0..N {
                offs[i] -= shape[d] * strides[i][d];
            }
            d -= 1;
            idx[d] += 1;
            for i in 0..N {
                offs[i] += strides[i][d];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_a_transposed_matrix() {
        // 2x3 viewed transposed (3x2, strides [1, 3])
        let (shape, st) = coalesce(&[3, 2], [&[1, 3]]);
        let mut seen = vec![];
        for_rows(&shape, &st, [0], 1, 6, |pos, len, [o]| {
            for i in 0..len {
                seen.push((pos + i, o + i * st[0][shape.len() - 1]));
            }
        });
        assert_eq!(seen, vec![(1, 3), (2, 1), (3, 4), (4, 2), (5, 5)]);
    }

    #[test]
    fn dense_coalesces_to_one_row() {
        let (shape, st) = coalesce(&[2, 3, 4], [&[12, 4, 1], &[0, 0, 0]]);
        assert_eq!(&*shape, &[24]);
        assert_eq!(&*st[1], &[0]);
    }
}

/// The memory order (outermost dim first) that PyTorch's TensorIterator gives an elementwise
/// result: dims sorted by the inputs' strides, the first input with a strict order deciding
/// (`reorder_dimensions`). `None` when that is plain row-major, which is the common case: so
/// `x.t() + 1` is laid out like `x.t()` (and is not contiguous), as in PyTorch.
pub fn output_order(shape: &[usize], strides: &[&[usize]]) -> Option<Dims> {
    let nd = shape.len();
    if nd < 2 || shape.contains(&0) {
        return None;
    }
    let should_swap = |d0: usize, d1: usize| -> i32 {
        for st in strides {
            let (s0, s1) = (st[d0], st[d1]);
            if s0 == 0 || s1 == 0 {
                continue;
            }
            if s0 < s1 {
                return -1;
            }
            if s0 > s1 {
                return 1;
            }
            if shape[d0] > shape[d1] {
                return 1;
            }
        }
        0
    };
    // perm[0] is the innermost dim, as in ATen
    let mut perm: Vec<usize> = (0..nd).rev().collect();
    for i in 1..nd {
        let mut dim1 = i;
        for dim0 in (0..i).rev() {
            let c = should_swap(perm[dim0], perm[dim1]);
            if c > 0 {
                perm.swap(dim0, dim1);
                dim1 = dim0;
            } else if c < 0 {
                break;
            }
        }
    }
    let order: Dims = perm.iter().rev().copied().collect();
    if order.iter().enumerate().all(|(i, &d)| i == d) {
        None
    } else {
        Some(order)
    }
}

/// Strides of a dense tensor of `shape` stored in `order` (outermost dim first).
pub fn strides_for_order(shape: &[usize], order: &[usize]) -> Dims {
    let mut st = Dims::filled(shape.len(), 0);
    let mut acc = 1;
    for &d in order.iter().rev() {
        st[d] = acc;
        acc *= shape[d];
    }
    st
}

/// `xs` reordered by `order`.
pub fn permuted(xs: &[usize], order: &[usize]) -> Dims {
    order.iter().map(|&d| xs[d]).collect()
}

#[cfg(test)]
mod order_tests {
    use super::*;

    #[test]
    fn transposed_inputs_give_transposed_outputs() {
        // x.t() of a 2x3: shape [3, 2], strides [1, 3]
        let o = output_order(&[3, 2], &[&[1, 3]]).unwrap();
        assert_eq!(&*o, &[1, 0]);
        assert_eq!(&*strides_for_order(&[3, 2], &o), &[1, 3]);
        assert!(output_order(&[2, 3], &[&[3, 1], &[1, 2]]).is_none());
        // a broadcast operand has no say
        assert_eq!(
            &*output_order(&[3, 2], &[&[0, 1], &[1, 3]]).unwrap(),
            &[1, 0]
        );
    }
}
