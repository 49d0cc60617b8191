//! Property tests of the engine against simple reference implementations: broadcasting
//! elementwise ops over arbitrary strided views, basic and advanced indexing, view/reshape, and
//! a fuzz loop asserting that no combination of shapes and arguments panics.
use cudalearn::tensor::create::{arange, zeros};
use cudalearn::tensor::index::{index, index_put, IndexValue};
use cudalearn::tensor::ops::binary::{binary, BinaryOp};
use cudalearn::tensor::ops::reduce::sum;
use cudalearn::tensor::shape::Dims;
use cudalearn::tensor::{DType, Device, IndexItem, Scalar, Tensor};

/// xorshift64*: small, deterministic, good enough to pick shapes.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() % 1000) as f64 / 1000.0 < p
    }
}

/// Reads element `idx` of `t` straight from its storage by strides (independent of the kernels).
fn raw(t: &Tensor, idx: &[usize]) -> f64 {
    let off = t.offset()
        + idx
            .iter()
            .zip(t.strides())
            .map(|(i, s)| i * s)
            .sum::<usize>();
    let b = t.storage().borrow();
    cudalearn::with_buffer!(&*b, v, T => <T as cudalearn::tensor::storage::Element>::to_f64(v[off]))
}

fn unravel(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        idx[d] = i % shape[d];
        i /= shape[d];
    }
    idx
}

fn numel(s: &[usize]) -> usize {
    s.iter().product()
}

/// A random tensor of `shape`, possibly presented as a non-contiguous view of a bigger one
/// (transposed, sliced with steps, or expanded from size 1).
fn random_view(r: &mut Rng, shape: &[usize]) -> Tensor {
    let mode = r.below(4);
    let base_shape: Vec<usize> = match mode {
        2 => shape.iter().map(|&s| s * 2).collect(),
        _ => shape.to_vec(),
    };
    let n = numel(&base_shape);
    let vals: Vec<f64> = (0..n).map(|_| r.range(-9, 9) as f64 * 0.5).collect();
    let base = Tensor::from_f64s(&vals, &base_shape, DType::F32).unwrap();
    match mode {
        1 if shape.len() >= 2 => {
            // materialise transposed, then transpose back: same shape, permuted strides
            let mut ts = shape.to_vec();
            ts.swap(0, shape.len() - 1);
            let t = Tensor::from_f64s(&vals, &ts, DType::F32).unwrap();
            t.transpose(0, shape.len() as i64 - 1).unwrap()
        }
        2 => {
            let items: Vec<IndexItem> = shape
                .iter()
                .map(|_| IndexItem::Slice(None, None, Some(2)))
                .collect();
            index(&base, &items).unwrap()
        }
        3 if !shape.is_empty() && shape[0] > 0 => {
            // expand a size-1 first dim
            let mut s1 = shape.to_vec();
            s1[0] = 1;
            let m = numel(&s1);
            let t = Tensor::from_f64s(&vals[..m], &s1, DType::F32).unwrap();
            let sz: Vec<i64> = shape.iter().map(|&x| x as i64).collect();
            t.expand(&sz).unwrap()
        }
        _ => base,
    }
}

fn random_shape(r: &mut Rng, max_nd: usize) -> Vec<usize> {
    let nd = r.below(max_nd + 1);
    (0..nd)
        .map(|_| {
            if r.chance(0.1) {
                0
            } else {
                r.range(1, 4) as usize
            }
        })
        .collect()
}

fn reference_broadcast(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let x = if i + a.len() >= n {
            a[i + a.len() - n]
        } else {
            1
        };
        let y = if i + b.len() >= n {
            b[i + b.len() - n]
        } else {
            1
        };
        if x != y && x != 1 && y != 1 {
            return None;
        }
        out[i] = if x == 1 { y } else { x };
    }
    Some(out)
}

#[test]
fn broadcasting_matches_reference() {
    let mut r = Rng(0x1234_5678_9abc_def1);
    let ops = [
        (BinaryOp::Add, 0),
        (BinaryOp::Mul, 1),
        (BinaryOp::Maximum, 2),
        (BinaryOp::Sub, 3),
        (BinaryOp::Lt, 4),
    ];
    for case in 0..600 {
        let sa = random_shape(&mut r, 4);
        let mut sb = random_shape(&mut r, 4);
        if r.chance(0.6) {
            // make them compatible most of the time
            sb = sa
                .iter()
                .map(|&s| if r.chance(0.4) { 1 } else { s })
                .collect();
            sb.drain(..r.below(sb.len() + 1).min(sb.len()));
        }
        let a = random_view(&mut r, &sa);
        let b = random_view(&mut r, &sb);
        let (op, k) = ops[case % ops.len()];
        let got = binary(op, &a, &b);
        match reference_broadcast(&sa, &sb) {
            None => assert!(got.is_err(), "{sa:?} vs {sb:?} should not broadcast"),
            Some(shape) => {
                let t = got.unwrap_or_else(|e| panic!("{sa:?} {sb:?}: {e}"));
                assert_eq!(t.shape(), &shape[..]);
                let vals = t.contiguous_values_f64().unwrap();
                for (i, &v) in vals.iter().enumerate() {
                    let idx = unravel(i, &shape);
                    let ia: Vec<usize> = sa
                        .iter()
                        .enumerate()
                        .map(|(d, &s)| {
                            if s == 1 {
                                0
                            } else {
                                idx[d + shape.len() - sa.len()]
                            }
                        })
                        .collect();
                    let ib: Vec<usize> = sb
                        .iter()
                        .enumerate()
                        .map(|(d, &s)| {
                            if s == 1 {
                                0
                            } else {
                                idx[d + shape.len() - sb.len()]
                            }
                        })
                        .collect();
                    let (x, y) = (raw(&a, &ia), raw(&b, &ib));
                    let want = match k {
                        0 => x + y,
                        1 => x * y,
                        2 => x.max(y),
                        3 => x - y,
                        _ => (x < y) as i32 as f64,
                    };
                    assert_eq!(v, want, "{op:?} {sa:?} {sb:?} at {idx:?}");
                }
            }
        }
    }
}

#[test]
fn inplace_through_views_matches_reference() {
    let mut r = Rng(77);
    for _ in 0..300 {
        let shape = random_shape(&mut r, 3);
        let vals0 = random_view(&mut r, &shape).contiguous_values_f64().unwrap();
        let base = Tensor::from_f64s(&vals0, &shape, DType::F32).unwrap();
        let before: Vec<f64> = base.contiguous_values_f64().unwrap();
        // a random basic-index view of it, then an in-place add through the view
        let mut items = vec![];
        for &s in &shape {
            if s > 0 && r.chance(0.3) {
                items.push(IndexItem::Int(r.range(-(s as i64), s as i64 - 1)));
            } else {
                let start = r.range(-(s as i64) - 1, s as i64 + 1);
                items.push(IndexItem::Slice(Some(start), None, Some(r.range(1, 3))));
            }
        }
        let v = index(&base, &items).unwrap();
        let src = random_view(&mut r, v.shape());
        let srcv = src.contiguous_values_f64().unwrap();
        cudalearn::tensor::ops::inplace::binary_inplace(BinaryOp::Add, &v, &src).unwrap();
        // reference: every element of the view changed by src, the rest unchanged
        let after = base.contiguous_values_f64().unwrap();
        let mut expect = before.clone();
        for (i, sv) in srcv.iter().enumerate() {
            let vi = unravel(i, v.shape());
            let off = v.offset()
                + vi.iter()
                    .zip(v.strides())
                    .map(|(a, b)| a * b)
                    .sum::<usize>();
            // base is contiguous, so `off` is a flat index of it
            expect[off] += sv;
        }
        assert_eq!(after, expect, "shape {shape:?} items {items:?}");
    }
}

#[test]
fn basic_indexing_matches_reference() {
    let mut r = Rng(42);
    for _ in 0..500 {
        let shape = random_shape(&mut r, 4);
        let x = random_view(&mut r, &shape);
        // build an index of ints / slices / None / one Ellipsis
        let mut items = vec![];
        let mut used = 0;
        let mut ell = false;
        while used < shape.len() && r.chance(0.85) {
            match r.below(5) {
                0 if shape[used] > 0 => {
                    items.push(IndexItem::Int(
                        r.range(-(shape[used] as i64), shape[used] as i64 - 1),
                    ));
                    used += 1;
                }
                1 => items.push(IndexItem::None),
                2 if !ell => {
                    items.push(IndexItem::Ellipsis);
                    ell = true;
                    used = shape.len(); // the rest is spanned
                }
                _ => {
                    let n = shape[used] as i64;
                    let a = if r.chance(0.3) {
                        None
                    } else {
                        Some(r.range(-n - 2, n + 2))
                    };
                    let b = if r.chance(0.3) {
                        None
                    } else {
                        Some(r.range(-n - 2, n + 2))
                    };
                    items.push(IndexItem::Slice(a, b, Some(r.range(1, 3))));
                    used += 1;
                }
            }
        }
        let got = index(&x, &items).unwrap_or_else(|e| panic!("{shape:?} {items:?}: {e}"));
        // reference: walk the items to map each output index to an input index
        let out_shape = got.shape().to_vec();
        let vals = got.contiguous_values_f64().unwrap();
        for (i, &v) in vals.iter().enumerate() {
            let oi = unravel(i, &out_shape);
            let mut src = vec![];
            let mut od = 0;
            let mut d = 0;
            let consumed = items
                .iter()
                .filter(|it| matches!(it, IndexItem::Int(_) | IndexItem::Slice(..)))
                .count();
            for it in &items {
                match it {
                    IndexItem::Int(k) => {
                        let n = shape[d] as i64;
                        src.push((if *k < 0 { k + n } else { *k }) as usize);
                        d += 1;
                    }
                    IndexItem::Slice(a, _, st) => {
                        let n = shape[d] as i64;
                        let c = |v: i64| (if v < 0 { v + n } else { v }).clamp(0, n);
                        let s0 = a.map(c).unwrap_or(0);
                        src.push((s0 + oi[od] as i64 * st.unwrap()) as usize);
                        od += 1;
                        d += 1;
                    }
                    IndexItem::None => od += 1,
                    IndexItem::Ellipsis => {
                        for _ in 0..shape.len() - consumed {
                            src.push(oi[od]);
                            od += 1;
                            d += 1;
                        }
                    }
                    _ => unreachable!(),
                }
            }
            while d < shape.len() {
                src.push(oi[od]);
                od += 1;
                d += 1;
            }
            assert_eq!(v, raw(&x, &src), "{shape:?} {items:?} at {oi:?}");
        }
    }
}

#[test]
fn advanced_indexing_matches_reference() {
    let mut r = Rng(9);
    for _ in 0..300 {
        let shape: Vec<usize> = (0..r.range(1, 3)).map(|_| r.range(1, 4) as usize).collect();
        let x = random_view(&mut r, &shape);
        let d = r.below(shape.len());
        let k = r.range(0, 4) as usize;
        let idx: Vec<i64> = (0..k)
            .map(|_| r.range(-(shape[d] as i64), shape[d] as i64 - 1))
            .collect();
        let mut items: Vec<IndexItem> =
            (0..d).map(|_| IndexItem::Slice(None, None, None)).collect();
        items.push(IndexItem::Tensor(
            Tensor::from_i64s(&idx, &[k], DType::I64).unwrap(),
        ));
        let got = index(&x, &items).unwrap();
        let mut want_shape = shape.clone();
        want_shape[d] = k;
        assert_eq!(got.shape(), &want_shape[..]);
        let vals = got.contiguous_values_f64().unwrap();
        for (i, &v) in vals.iter().enumerate() {
            let mut oi = unravel(i, &want_shape);
            let j = idx[oi[d]];
            oi[d] = (if j < 0 { j + shape[d] as i64 } else { j }) as usize;
            assert_eq!(v, raw(&x, &oi));
        }
        // a boolean mask over the whole tensor picks the elements in order
        let mvals: Vec<bool> = (0..numel(&shape)).map(|_| r.chance(0.5)).collect();
        let mask = Tensor::from_bools(&mvals, &shape, DType::Bool).unwrap();
        let picked = index(&x, &[IndexItem::Tensor(mask.clone())])
            .unwrap()
            .contiguous_values_f64()
            .unwrap();
        let xv = x.contiguous_values_f64().unwrap();
        let want: Vec<f64> = xv
            .iter()
            .zip(&mvals)
            .filter(|(_, &m)| m)
            .map(|(v, _)| *v)
            .collect();
        assert_eq!(picked, want);
        // and assignment through the mask writes exactly there
        let y = x.clone_tensor().unwrap();
        index_put(
            &y,
            &[IndexItem::Tensor(mask)],
            &IndexValue::Scalar(Scalar::Float(100.0)),
        )
        .unwrap();
        let yv = y.contiguous_values_f64().unwrap();
        for ((a, b), m) in yv.iter().zip(&xv).zip(&mvals) {
            assert_eq!(*a, if *m { 100.0 } else { *b });
        }
    }
}

#[test]
fn reshape_preserves_order() {
    let mut r = Rng(5);
    for _ in 0..400 {
        let shape = random_shape(&mut r, 4);
        let x = random_view(&mut r, &shape);
        let n = numel(&shape);
        let want = x.contiguous_values_f64().unwrap();
        // a random factorisation of n, one dim possibly -1
        let mut target: Vec<i64> = vec![];
        let mut rest = n;
        while rest > 1 && r.chance(0.7) {
            let f = (2..=rest)
                .find(|f| rest.is_multiple_of(*f) && r.chance(0.5))
                .unwrap_or(rest);
            target.push(f as i64);
            rest /= f;
        }
        target.push(rest as i64);
        if n > 0 && r.chance(0.5) {
            let i = r.below(target.len());
            target[i] = -1;
        }
        let y = x
            .reshape(&target)
            .unwrap_or_else(|e| panic!("{shape:?} -> {target:?}: {e}"));
        assert_eq!(y.contiguous_values_f64().unwrap(), want);
        // view works exactly when the layout allows; when it does, it agrees with reshape
        if let Ok(v) = x.view(&target) {
            assert!(v.same_storage(&x));
            assert_eq!(v.contiguous_values_f64().unwrap(), want);
        } else {
            assert!(!x.is_contiguous());
        }
        // permute + contiguous: the reference permutation
        if shape.len() >= 2 {
            let p = x.permute(&[1, 0]).or_else(|_| x.transpose(0, 1)).unwrap();
            let pv = p.contiguous().unwrap().contiguous_values_f64().unwrap();
            for (i, &v) in pv.iter().enumerate() {
                let mut oi = unravel(i, p.shape());
                oi.swap(0, 1);
                assert_eq!(v, raw(&x, &oi));
            }
        }
    }
}

#[test]
fn no_shape_or_argument_panics() {
    let mut r = Rng(2024);
    let dev = Device::Cpu;
    for _ in 0..3000 {
        let shape: Vec<i64> = (0..r.below(5)).map(|_| r.range(-2, 4)).collect();
        let res = std::panic::catch_unwind(|| {
            let mut r = Rng(shape.iter().fold(11u64, |a, &x| {
                a.wrapping_mul(31).wrapping_add(x as u64 ^ 0x9e37)
            }));
            let Ok(x) = zeros(&shape, None, dev) else {
                return;
            };
            let x = binary(
                BinaryOp::Add,
                &x,
                &arange(Scalar::Int(0), Scalar::Int(1), Scalar::Int(1), None, dev).unwrap(),
            )
            .unwrap_or(x);
            let dims: Vec<i64> = (0..r.below(4)).map(|_| r.range(-5, 5)).collect();
            let _ = x.view(&dims);
            let _ = x.reshape(&dims);
            let _ = x.permute(&dims);
            let _ = x.expand(&dims);
            let _ = x.transpose(r.range(-4, 4), r.range(-4, 4));
            let _ = x.unsqueeze(r.range(-6, 6));
            let _ = x.squeeze(Some(r.range(-6, 6)));
            let _ = x.flatten(r.range(-5, 5), r.range(-5, 5));
            let _ = x.select(r.range(-5, 5), r.range(-5, 5));
            let _ = x.narrow(r.range(-5, 5), r.range(-5, 5), r.range(-5, 5));
            let _ = sum(&x, Some(&dims), r.chance(0.5), None);
            let _ = cudalearn::tensor::ops::reduce::max_dim(&x, r.range(-5, 5), false, true);
            let _ = cudalearn::tensor::ops::reduce::argmax(&x, Some(r.range(-5, 5)), false, true);
            let _ = cudalearn::tensor::ops::reduce::softmax(&x, r.range(-5, 5), None, false);
            let _ = cudalearn::tensor::ops::join::cat(&[x.clone(), x.clone()], r.range(-5, 5));
            let _ = cudalearn::tensor::ops::join::stack(&[x.clone(), x.clone()], r.range(-5, 5));
            let _ = cudalearn::tensor::ops::matmul::matmul(&x, &x);
            let _ = cudalearn::tensor::ops::matmul::matmul(&x, &x.t_all().unwrap());
            let items: Vec<IndexItem> = (0..r.below(5))
                .map(|_| match r.below(6) {
                    0 => IndexItem::Int(r.range(-5, 5)),
                    1 => IndexItem::Slice(
                        Some(r.range(-5, 5)),
                        Some(r.range(-5, 5)),
                        Some(r.range(-1, 3)),
                    ),
                    2 => IndexItem::None,
                    3 => IndexItem::Ellipsis,
                    4 => IndexItem::Tensor(
                        Tensor::from_i64s(&[r.range(-5, 5)], &[1], DType::I64).unwrap(),
                    ),
                    _ => IndexItem::Tensor(
                        Tensor::from_bools(&[true, false], &[2], DType::Bool).unwrap(),
                    ),
                })
                .collect();
            let _ = index(&x, &items);
            let _ = index_put(&x, &items, &IndexValue::Scalar(Scalar::Int(1)));
            let _ = index_put(&x, &items, &IndexValue::Tensor(x.clone()));
            let _ = Dims::from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        });
        assert!(res.is_ok(), "panic for shape {shape:?}");
    }
    // huge sizes are errors, not aborts
    assert!(zeros(&[1 << 40], None, dev).is_err());
    assert!(zeros(&[1 << 31, 1 << 31, 1 << 31], None, dev).is_err());
    assert!(zeros(&[i64::MAX, 2], None, dev).is_err());
    let x = zeros(&[2, 3], None, dev).unwrap();
    assert!(x.expand(&[1 << 40, 1 << 40, 2, 3]).is_err());
    assert!(x.view(&[i64::MAX, -1]).is_err());
}

#[test]
fn extreme_arguments_are_errors_not_panics() {
    let dev = Device::Cpu;
    let big = Scalar::Int(i64::MAX);
    assert!(arange(Scalar::Int(0), big, Scalar::Int(1), None, dev).is_err());
    assert!(arange(
        Scalar::Int(0),
        Scalar::Float(1e18),
        Scalar::Float(1.0),
        None,
        dev
    )
    .is_err());
    assert!(arange(Scalar::Int(0), big, Scalar::Int(1), Some(DType::F16), dev).is_err());
    assert!(cudalearn::tensor::create::linspace(0.0, 1.0, i64::MAX, None, dev).is_err());
    assert!(cudalearn::tensor::create::eye(1 << 40, None, None, dev).is_err());
    let x = zeros(&[2, 3], None, dev).unwrap();
    assert!(x.narrow(1, 1, i64::MAX).is_err());
    let s = index(
        &x,
        &[IndexItem::Slice(
            Some(i64::MIN),
            Some(i64::MAX),
            Some(i64::MAX),
        )],
    )
    .unwrap();
    assert_eq!(s.shape(), &[1, 3]);
    let idx = Tensor::from_i64s(&[0], &[1, 1], DType::I64)
        .unwrap()
        .expand(&[1 << 20, 1 << 20])
        .unwrap();
    assert!(index(&x, &[IndexItem::Tensor(idx)]).is_err());
    let e = zeros(&[1, 2, 3], None, dev)
        .unwrap()
        .expand(&[1 << 30, 1 << 30, 2, 3]);
    assert!(
        e.is_err()
            || cudalearn::tensor::ops::matmul::matmul(
                &e.unwrap(),
                &zeros(&[3, 2], None, dev).unwrap()
            )
            .is_err()
    );
    assert!(cudalearn::tensor::ops::binary::binary_scalar(
        BinaryOp::Pow,
        &x,
        Scalar::Int(i64::MAX),
        false
    )
    .is_ok());
    assert!(cudalearn::tensor::ops::binary::binary_scalar(
        BinaryOp::FloorDiv,
        &Tensor::from_i64s(&[i64::MIN], &[1], DType::I64).unwrap(),
        Scalar::Int(-1),
        false
    )
    .is_ok());
}

/// Square float32 products large enough to split over the threads (by rows or by columns)
/// round every element as one fused multiply-add per k, in k order from +0, as a single
/// single-threaded pass does: the split never shows in the bits.
#[test]
fn split_products_round_as_one_pass() {
    for (m, k, n) in [(256, 256, 256), (200, 300, 200), (256, 100, 255)] {
        let fill = |len: usize, seed: u64| -> Vec<f64> {
            (0..len as u64)
                .map(|i| (((i * 2654435761 + seed) % 1000) as f64 - 500.0) / 97.0)
                .map(|v| v as f32 as f64)
                .collect()
        };
        let (av, bv) = (fill(m * k, 1), fill(k * n, 7));
        let a = Tensor::from_f64s(&av, &[m, k], DType::F32).unwrap();
        let b = Tensor::from_f64s(&bv, &[k, n], DType::F32).unwrap();
        let got = cudalearn::tensor::ops::matmul::matmul(&a, &b)
            .unwrap()
            .contiguous_values_f64()
            .unwrap();
        for i in 0..m {
            for j in 0..n {
                let want = (0..k).fold(0f32, |acc, p| {
                    (av[i * k + p] as f32).mul_add(bv[p * n + j] as f32, acc)
                });
                assert_eq!(got[i * n + j] as f32, want, "{m}x{k}x{n} at ({i}, {j})");
            }
        }
    }
}
