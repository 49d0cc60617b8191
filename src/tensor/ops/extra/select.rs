//! The selection and sorting algorithms behind PyTorch's CPU `topk`, `kthvalue` and unstable
//! `sort`, step for step, so that equal values come out with PyTorch's indices: libstdc++'s
//! `std::partial_sort`, `std::nth_element` and `std::sort` (heap select, introselect,
//! introsort with its 16-element insertion sort), and TH's quickselect (Sedgewick's
//! partitioning, which `kthvalue` uses). Each works on (value, position) pairs ordered by
//! `less` on the values alone, and moves the pairs exactly as the C++ does.
//!
//! These orders are not stable: among equal values which position comes first depends on
//! every swap on the way, so nothing short of the same steps reproduces it.

/// A value and its position along the sorted dim.
pub type Item<T> = (T, usize);

/// A value as the comparators see it: f64 (exact for every dtype but large int64s) or i64.
pub trait Value: Copy + PartialOrd {
    fn is_nan(self) -> bool;
}

impl Value for f64 {
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
}

impl Value for i64 {
    fn is_nan(self) -> bool {
        false
    }
}

/// `less(a, b)` for PyTorch's ascending order (NaN above every number).
pub fn ascending<T: Value>(a: T, b: T) -> bool {
    (!a.is_nan() && b.is_nan()) || a < b
}

/// `less(a, b)` for PyTorch's descending order (NaN first).
pub fn descending<T: Value>(a: T, b: T) -> bool {
    (a.is_nan() && !b.is_nan()) || a > b
}

/// floor(log2(n)) for n > 0 (`std::__lg`).
fn lg(n: usize) -> usize {
    (usize::BITS - 1 - n.leading_zeros()) as usize
}

/// `std::partial_sort(v, v + middle, v + len)`: the `middle` least items, in order, first.
pub fn partial_sort<T: Value>(
    v: &mut [Item<T>],
    middle: usize,
    less: impl Fn(T, T) -> bool + Copy,
) {
    heap_select(v, middle, less);
    sort_heap(&mut v[..middle], less);
}

/// `std::nth_element(v, v + nth, v + len)` (introselect).
pub fn nth_element<T: Value>(v: &mut [Item<T>], nth: usize, less: impl Fn(T, T) -> bool + Copy) {
    if nth >= v.len() {
        return;
    }
    let (mut first, mut last) = (0, v.len());
    let mut depth = lg(v.len()) * 2;
    while last - first > 3 {
        if depth == 0 {
            heap_select(&mut v[first..last], nth + 1 - first, less);
            v.swap(first, nth);
            return;
        }
        depth -= 1;
        let cut = first + partition_pivot(&mut v[first..last], less);
        if cut <= nth {
            first = cut;
        } else {
            last = cut;
        }
    }
    insertion_sort(&mut v[first..last], less);
}

/// `std::sort` (introsort, then the final insertion sort).
pub fn sort<T: Value>(v: &mut [Item<T>], less: impl Fn(T, T) -> bool + Copy) {
    if v.len() < 2 {
        return;
    }
    introsort_loop(v, lg(v.len()) * 2, less);
    if v.len() > 16 {
        insertion_sort(&mut v[..16], less);
        for i in 16..v.len() {
            linear_insert(v, i, less);
        }
    } else {
        insertion_sort(v, less);
    }
}

fn introsort_loop<T: Value>(
    v: &mut [Item<T>],
    mut depth: usize,
    less: impl Fn(T, T) -> bool + Copy,
) {
    let mut last = v.len();
    while last > 16 {
        if depth == 0 {
            partial_sort(&mut v[..last], last, less);
            return;
        }
        depth -= 1;
        let cut = partition_pivot(&mut v[..last], less);
        introsort_loop(&mut v[cut..last], depth, less);
        last = cut;
    }
}

/// `std::__unguarded_partition_pivot`: the median of the second, middle and last items moved
/// to the front as the pivot, then Hoare's partition of the rest; returns the cut.
fn partition_pivot<T: Value>(v: &mut [Item<T>], less: impl Fn(T, T) -> bool + Copy) -> usize {
    let (n, mid) = (v.len(), v.len() / 2);
    let lt = |v: &[Item<T>], a: usize, b: usize| less(v[a].0, v[b].0);
    let (a, b, c) = (1, mid, n - 1);
    let median = if lt(v, a, b) {
        if lt(v, b, c) {
            b
        } else if lt(v, a, c) {
            c
        } else {
            a
        }
    } else if lt(v, a, c) {
        a
    } else if lt(v, b, c) {
        c
    } else {
        b
    };
    v.swap(0, median);
    let (mut first, mut last) = (1, n);
    loop {
        while lt(v, first, 0) {
            first += 1;
        }
        last -= 1;
        while lt(v, 0, last) {
            last -= 1;
        }
        if first >= last {
            return first;
        }
        v.swap(first, last);
        first += 1;
    }
}

/// `std::__insertion_sort`.
fn insertion_sort<T: Value>(v: &mut [Item<T>], less: impl Fn(T, T) -> bool + Copy) {
    for i in 1..v.len() {
        if less(v[i].0, v[0].0) {
            v[..=i].rotate_right(1);
        } else {
            linear_insert(v, i, less);
        }
    }
}

/// `std::__unguarded_linear_insert`: moves `v[i]` down past the larger items before it (an
/// item not larger than it lies below, so no bound check).
fn linear_insert<T: Value>(v: &mut [Item<T>], mut i: usize, less: impl Fn(T, T) -> bool + Copy) {
    let val = v[i];
    while less(val.0, v[i - 1].0) {
        v[i] = v[i - 1];
        i -= 1;
    }
    v[i] = val;
}

/// `std::__heap_select(v, v + middle, v + len)`: a max-heap of the first `middle` items,
/// into which each later item smaller than its top is exchanged.
fn heap_select<T: Value>(v: &mut [Item<T>], middle: usize, less: impl Fn(T, T) -> bool + Copy) {
    make_heap(&mut v[..middle], less);
    for i in middle..v.len() {
        if middle > 0 && less(v[i].0, v[0].0) {
            // std::__pop_heap(first, middle, i)
            let val = v[i];
            v[i] = v[0];
            adjust_heap(&mut v[..middle], 0, val, less);
        }
    }
}

fn make_heap<T: Value>(v: &mut [Item<T>], less: impl Fn(T, T) -> bool + Copy) {
    let len = v.len();
    if len < 2 {
        return;
    }
    let mut parent = (len - 2) / 2;
    loop {
        let val = v[parent];
        adjust_heap(v, parent, val, less);
        if parent == 0 {
            return;
        }
        parent -= 1;
    }
}

fn sort_heap<T: Value>(v: &mut [Item<T>], less: impl Fn(T, T) -> bool + Copy) {
    let mut last = v.len();
    while last > 1 {
        last -= 1;
        let val = v[last];
        v[last] = v[0];
        adjust_heap(&mut v[..last], 0, val, less);
    }
}

/// `std::__adjust_heap`: sifts the hole at `hole` down to a leaf, then pushes `val` up from
/// there (no higher than `hole`).
fn adjust_heap<T: Value>(
    v: &mut [Item<T>],
    mut hole: usize,
    val: Item<T>,
    less: impl Fn(T, T) -> bool + Copy,
) {
    let (len, top) = (v.len(), hole);
    let mut child = hole;
    while child < (len.saturating_sub(1)) / 2 {
        child = 2 * (child + 1);
        if less(v[child].0, v[child - 1].0) {
            child -= 1;
        }
        v[hole] = v[child];
        hole = child;
    }
    if len % 2 == 0 && len >= 2 && child == (len - 2) / 2 {
        child = 2 * (child + 1);
        v[hole] = v[child - 1];
        hole = child - 1;
    }
    // std::__push_heap
    while hole > top {
        let parent = (hole - 1) / 2;
        if !less(v[parent].0, val.0) {
            break;
        }
        v[hole] = v[parent];
        hole = parent;
    }
    v[hole] = val;
}

/// TH's `quick_select_template` for `kthvalue`: moves the `k`-th least item (from 0) of `v`
/// to `v[k]`, ordering by `gt(a, b)` as "a after b".
pub fn quick_select<T: Value>(v: &mut [Item<T>], k: usize, gt: impl Fn(T, T) -> bool + Copy) {
    if v.is_empty() {
        return;
    }
    let gt_at = |v: &[Item<T>], a: usize, b: usize| gt(v[a].0, v[b].0);
    let (mut l, mut r) = (0usize, v.len() - 1);
    loop {
        if r <= l {
            return;
        }
        if r == l + 1 {
            if gt_at(v, l, r) {
                v.swap(l, r);
            }
            return;
        }
        let p = (l + r) >> 1;
        v.swap(p, l + 1);
        if gt_at(v, l + 1, r) {
            v.swap(l + 1, r);
        }
        if gt_at(v, l, r) {
            v.swap(l, r);
        }
        if gt_at(v, l + 1, l) {
            v.swap(l + 1, l);
        }
        let (mut i, mut j) = (l + 1, r);
        let piv = v[l].0;
        loop {
            i += 1;
            while gt(piv, v[i].0) {
                i += 1;
            }
            j -= 1;
            while gt(v[j].0, piv) {
                j -= 1;
            }
            if j < i {
                break;
            }
            v.swap(i, j);
        }
        v.swap(l, j);
        if j <= k {
            l = i;
        }
        if j >= k {
            // j >= k >= l here, and j > l (the pivot's place is past the first item)
            r = j - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lanes with many ties and a NaN (a fixed LCG), lengths around the 16-item insertion
    /// sort and the heap fallbacks.
    fn lane(n: usize, seed: u64) -> Vec<Item<f64>> {
        let mut s = seed;
        (0..n)
            .map(|p| {
                s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let v = if p == n / 3 {
                    f64::NAN
                } else {
                    ((s >> 33) % 9) as f64
                };
                (v, p)
            })
            .collect()
    }

    fn in_order(v: &[Item<f64>], less: fn(f64, f64) -> bool) -> bool {
        v.windows(2).all(|w| !less(w[1].0, w[0].0))
    }

    fn positions(v: &[Item<f64>]) -> Vec<usize> {
        let mut p: Vec<usize> = v.iter().map(|i| i.1).collect();
        p.sort_unstable();
        p
    }

    #[test]
    fn orders_and_selections_keep_every_item_and_order_them() {
        for n in [1, 2, 3, 4, 15, 16, 17, 40, 300, 2000] {
            for less in [ascending::<f64>, descending::<f64>] {
                let mut v = lane(n, n as u64);
                sort(&mut v, less);
                assert!(in_order(&v, less), "sort {n}");
                assert_eq!(positions(&v), (0..n).collect::<Vec<_>>());

                for k in [0, 1, n / 2, n - 1].into_iter().filter(|&k| k < n) {
                    let mut v = lane(n, 7);
                    nth_element(&mut v, k, less);
                    assert!(v[..k].iter().all(|a| !less(v[k].0, a.0)), "nth {n} {k}");
                    assert!(v[k..].iter().all(|a| !less(a.0, v[k].0)), "nth {n} {k}");

                    let mut v = lane(n, 9);
                    partial_sort(&mut v, k, less);
                    assert!(in_order(&v[..k], less), "partial {n} {k}");
                    assert!(v[k..].iter().all(|a| k == 0 || !less(a.0, v[k - 1].0)));

                    let mut v = lane(n, 11);
                    quick_select(&mut v, k, descending::<f64>);
                    let mut want = lane(n, 11);
                    sort(&mut want, ascending::<f64>);
                    assert_eq!(v[k].0.to_bits(), want[k].0.to_bits(), "select {n} {k}");
                    assert_eq!(positions(&v), (0..n).collect::<Vec<_>>());
                }
            }
        }
    }
}
