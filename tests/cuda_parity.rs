//! CUDA kernels (`kernels/*.cu`, compiled by NVRTC) against the CPU backend: every op × dtype ×
//! shape, broadcast and non-contiguous operands included, within a tolerance. Without a GPU the
//! suite SKIPS with a visible message (and checks nothing panics on the way).
use cudalearn::backend::cuda::launch::{loaded, Layout, Loaded};
use cudalearn::tensor::ops::binary as tb;
use cudalearn::tensor::ops::unary as tu;
use cudalearn::tensor::shape::broadcast_strides;
use cudalearn::tensor::{create, BinaryOp, Buffer, DType, Device, Scalar, Tensor, UnaryOp};
use std::sync::Arc;

fn gpu() -> Option<Arc<Loaded>> {
    match cudalearn::backend::cuda::probe() {
        Err(e) => {
            eprintln!("SKIP cuda_parity: no GPU here ({})", e.reason());
            None
        }
        Ok(_) => match loaded(0) {
            Ok(l) => Some(l),
            Err(e) => panic!("a GPU was found but cudalearn's kernels did not load: {e}"),
        },
    }
}

/// A CPU tensor of `shape` with varied values (negatives, fractions) in `dtype`.
fn sample(shape: &[usize], seed: f64, dtype: DType) -> Tensor {
    let n: usize = shape.iter().product();
    let t = create::arange(
        Scalar::Int(0),
        Scalar::Int(n as i64),
        Scalar::Int(1),
        Some(DType::F64),
        Device::Cpu,
    )
    .unwrap();
    let t = tb::mul_scalar(&t, Scalar::Float(0.37)).unwrap();
    let t = tb::add_scalar(&t, Scalar::Float(seed - n as f64 * 0.15)).unwrap();
    t.reshape(&shape.iter().map(|&d| d as i64).collect::<Vec<_>>())
        .unwrap()
        .to_dtype(dtype)
        .unwrap()
}

fn values(t: &Tensor) -> Vec<f64> {
    t.contiguous_values_f64().unwrap()
}

fn close(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ok = (g.is_nan() && w.is_nan()) || (g - w).abs() <= tol * (1.0 + w.abs());
        assert!(ok, "{what}: element {i}: GPU {g} vs CPU {w}");
    }
}

/// The operand pairs: same shape, broadcast row, broadcast column, transposed (non-contiguous).
fn cases(dtype: DType) -> Vec<(String, Tensor, Tensor)> {
    let a = sample(&[4, 5], 0.5, dtype);
    vec![
        ("same".into(), a.clone(), sample(&[4, 5], 1.25, dtype)),
        ("row".into(), a.clone(), sample(&[5], 2.0, dtype)),
        ("col".into(), a.clone(), sample(&[4, 1], -1.0, dtype)),
        (
            "transposed".into(),
            sample(&[5, 4], 0.75, dtype).transpose(0, 1).unwrap(),
            a,
        ),
    ]
}

fn layout(t: &Tensor, out: &[usize]) -> Layout {
    let st = broadcast_strides(t.shape(), t.strides(), out);
    Layout::new(out, &st[..], t.offset()).expect("few dims")
}

#[test]
fn binary_ops_match_cpu() {
    let Some(g) = gpu() else { return };
    let ops = [
        (BinaryOp::Add, 0),
        (BinaryOp::Sub, 1),
        (BinaryOp::Mul, 2),
        (BinaryOp::Div, 3),
        (BinaryOp::Maximum, 4),
        (BinaryOp::Minimum, 5),
    ];
    let mut checked = 0;
    for dtype in [DType::F32, DType::F64] {
        for (name, a, b) in cases(dtype) {
            for (op, code) in ops {
                let want = tb::binary(op, &a, &b).unwrap();
                let out = want.shape().to_vec();
                let n = want.numel();
                let got: Vec<f64> = match dtype {
                    DType::F32 => {
                        let (av, bv) = (raw_f32(&a), raw_f32(&b));
                        g.binary::<f32, f32>(
                            "binary_f32",
                            code,
                            n,
                            (&av, layout(&a, &out)),
                            (&bv, layout(&b, &out)),
                        )
                        .unwrap()
                        .into_iter()
                        .map(|x| x as f64)
                        .collect()
                    }
                    _ => {
                        let (av, bv) = (raw_f64(&a), raw_f64(&b));
                        g.binary::<f64, f64>(
                            "binary_f64",
                            code,
                            n,
                            (&av, layout(&a, &out)),
                            (&bv, layout(&b, &out)),
                        )
                        .unwrap()
                    }
                };
                close(
                    &got,
                    &values(&want),
                    1e-6,
                    &format!("{op:?} {dtype:?} {name}"),
                );
                checked += 1;
            }
        }
    }
    eprintln!("cuda_parity: {checked} binary op × dtype × shape cases match the CPU");
}

#[test]
fn unary_ops_match_cpu() {
    let Some(g) = gpu() else { return };
    let ops = [
        (UnaryOp::Neg, 0),
        (UnaryOp::Abs, 1),
        (UnaryOp::Exp, 2),
        (UnaryOp::Relu, 5),
        (UnaryOp::Sigmoid, 6),
        (UnaryOp::Tanh, 7),
    ];
    for (_, a, _) in cases(DType::F32) {
        for (op, code) in ops {
            let want = tu::unary(op, &a).unwrap();
            let out = a.shape().to_vec();
            let got: Vec<f64> = g
                .unary::<f32>("unary_f32", code, a.numel(), &raw_f32(&a), layout(&a, &out))
                .unwrap()
                .into_iter()
                .map(|x| x as f64)
                .collect();
            close(&got, &values(&want), 1e-5, &format!("{op:?}"));
        }
    }
}

#[test]
fn row_sums_and_softmax_match_cpu() {
    let Some(g) = gpu() else { return };
    for (rows, cols) in [(3, 7), (2, 1000), (1, 1)] {
        let a = sample(&[rows, cols], 0.3, DType::F32);
        let want = cudalearn::tensor::ops::reduce::sum(&a, Some(&[1]), false, None).unwrap();
        let got: Vec<f64> = g
            .rows::<f32>("sum_rows_f32", rows, cols, &raw_f32(&a), rows, None)
            .unwrap()
            .into_iter()
            .map(|x| x as f64)
            .collect();
        close(&got, &values(&want), 1e-4, "sum_rows");
        let want = cudalearn::tensor::ops::reduce::softmax(&a, 1, None, false).unwrap();
        let got: Vec<f64> = g
            .rows::<f32>(
                "softmax_f32",
                rows,
                cols,
                &raw_f32(&a),
                rows * cols,
                Some(0),
            )
            .unwrap()
            .into_iter()
            .map(|x| x as f64)
            .collect();
        close(&got, &values(&want), 1e-5, "softmax");
    }
}

/// The whole storage (kernels address it through the layout, offset and strides included).
fn raw_f32(t: &Tensor) -> Vec<f32> {
    match &*t.storage().borrow() {
        Buffer::F32(v) => v.clone(),
        other => panic!("expected float32 storage, got {:?}", other.dtype()),
    }
}

fn raw_f64(t: &Tensor) -> Vec<f64> {
    match &*t.storage().borrow() {
        Buffer::F64(v) => v.clone(),
        other => panic!("expected float64 storage, got {:?}", other.dtype()),
    }
}

#[test]
fn without_gpu_the_skip_is_visible_and_nothing_panics() {
    if cudalearn::backend::cuda::probe().is_err() {
        assert!(gpu().is_none());
        assert!(
            loaded(0).is_err(),
            "loading kernels without a GPU is an error, not a panic"
        );
    }
}
