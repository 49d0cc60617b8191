//! gradcheck: for every differentiable op, the gradient from `backward` matches central finite
//! differences in float64 (PyTorch's `torch.autograd.gradcheck` idea, eps 1e-6).
use cudalearn::tensor::autograd;
use cudalearn::tensor::index::{index, index_put, IndexItem, IndexValue};
use cudalearn::tensor::ops::addmm::addmm_checked;
use cudalearn::tensor::ops::binary::{binary, binary_scalar, clamp, clamp_tensor, BinaryOp};
use cudalearn::tensor::ops::inplace;
use cudalearn::tensor::ops::join::{cat, stack, where_, TensorOrScalar};
use cudalearn::tensor::ops::matmul::{bmm, dot, matmul, mm, mv};
use cudalearn::tensor::ops::nn::{self as nn, Reduction};
use cudalearn::tensor::ops::reduce::{amax, max_all, max_dim, mean, prod, softmax, sum};
use cudalearn::tensor::ops::unary::{unary, unary_, UnaryOp};
use cudalearn::tensor::{DType, Result, Scalar, Tensor};

type F = dyn Fn(&[Tensor]) -> Result<Tensor>;

/// Deterministic values in ±[lo, hi] (no zeros, no ties), or [lo, hi] when `positive`.
fn values(n: usize, seed: u64, lo: f64, hi: f64, positive: bool) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let u = (s >> 11) as f64 / (1u64 << 53) as f64;
            let m = lo + (hi - lo) * u;
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if positive || (s >> 63) == 0 {
                m
            } else {
                -m
            }
        })
        .collect()
}

fn t(shape: &[usize], seed: u64) -> Tensor {
    let n = shape.iter().product();
    Tensor::from_f64s(&values(n, seed, 0.2, 1.5, false), shape, DType::F64).unwrap()
}

fn pos(shape: &[usize], seed: u64) -> Tensor {
    let n = shape.iter().product();
    Tensor::from_f64s(&values(n, seed, 0.2, 1.5, true), shape, DType::F64).unwrap()
}

/// Checks `f`'s gradient for every input.
fn check(name: &str, inputs: &[Tensor], f: &F) {
    let weights_for = |out: &Tensor| {
        Tensor::from_f64s(
            &values(out.numel(), 99, 0.5, 1.5, false),
            out.shape(),
            DType::F64,
        )
        .unwrap()
    };
    // analytic
    let leaves: Vec<Tensor> = inputs
        .iter()
        .map(|x| {
            let c = x.detach().clone_tensor().unwrap();
            c.set_requires_grad(true);
            c
        })
        .collect();
    let out = f(&leaves).unwrap_or_else(|e| panic!("{name}: forward failed: {}", e.msg));
    let w = weights_for(&out);
    let loss = sum(&binary(BinaryOp::Mul, &out, &w).unwrap(), None, false, None).unwrap();
    autograd::backward(&[loss], &[None], false)
        .unwrap_or_else(|e| panic!("{name}: backward failed: {}", e.msg));
    // numeric
    let eps = 1e-6;
    for (k, x) in inputs.iter().enumerate() {
        let base = x.contiguous_values_f64().unwrap();
        let g = leaves[k]
            .grad()
            .map(|g| g.contiguous_values_f64().unwrap())
            .unwrap_or_else(|| vec![0.0; base.len()]);
        assert_eq!(
            g.len(),
            base.len(),
            "{name}: grad of input {k} has the wrong size"
        );
        for j in 0..base.len() {
            let eval = |d: f64| {
                let mut v = base.clone();
                v[j] += d;
                let xs: Vec<Tensor> = inputs
                    .iter()
                    .enumerate()
                    .map(|(i, y)| {
                        if i == k {
                            Tensor::from_f64s(&v, y.shape(), DType::F64).unwrap()
                        } else {
                            y.clone()
                        }
                    })
                    .collect();
                let _g = autograd::NoGrad::new();
                let o = f(&xs).unwrap();
                let p = binary(BinaryOp::Mul, &o, &w).unwrap();
                sum(&p, None, false, None).unwrap().item().unwrap().to_f64()
            };
            let num = (eval(eps) - eval(-eps)) / (2.0 * eps);
            let ana = g[j];
            assert!(
                (num - ana).abs() <= 1e-5 + 1e-4 * num.abs(),
                "{name}: d/d input {k}[{j}]: backward {ana} but finite differences {num}"
            );
        }
    }
}

fn bin(op: BinaryOp) -> impl Fn(&[Tensor]) -> Result<Tensor> {
    move |x| binary(op, &x[0], &x[1])
}

fn un(op: UnaryOp) -> impl Fn(&[Tensor]) -> Result<Tensor> {
    move |x| unary(op, &x[0])
}

#[test]
fn binary_ops() {
    for op in [BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div] {
        check(op.name(), &[t(&[2, 3], 1), t(&[2, 3], 2)], &bin(op));
        check(
            &format!("{} broadcast", op.name()),
            &[t(&[2, 3], 3), t(&[3], 4)],
            &bin(op),
        );
        check(
            &format!("{} broadcast2", op.name()),
            &[t(&[2, 1], 5), t(&[1, 3], 6)],
            &bin(op),
        );
    }
    check(
        "pow tensor",
        &[pos(&[2, 3], 7), t(&[2, 3], 8)],
        &bin(BinaryOp::Pow),
    );
    check(
        "maximum",
        &[t(&[5], 9), t(&[5], 10)],
        &bin(BinaryOp::Maximum),
    );
    check(
        "minimum",
        &[t(&[5], 11), t(&[5], 12)],
        &bin(BinaryOp::Minimum),
    );
    check("remainder", &[pos(&[4], 13), pos(&[4], 14)], &|x| {
        binary(
            BinaryOp::Rem,
            &x[0],
            &binary_scalar(BinaryOp::Add, &x[1], Scalar::Float(0.05), false)?,
        )
    });
}

#[test]
fn scalar_ops() {
    let cases: Vec<(&str, BinaryOp, f64, bool)> = vec![
        ("x + 2", BinaryOp::Add, 2.0, false),
        ("x - 2", BinaryOp::Sub, 2.0, false),
        ("2 - x", BinaryOp::Sub, 2.0, true),
        ("x * 3", BinaryOp::Mul, 3.0, false),
        ("x / 4", BinaryOp::Div, 4.0, false),
        ("2 / x", BinaryOp::Div, 2.0, true),
        ("x ** 3", BinaryOp::Pow, 3.0, false),
        ("2 ** x", BinaryOp::Pow, 2.0, true),
    ];
    for (name, op, s, rev) in cases {
        check(name, &[t(&[2, 3], 20)], &move |x| {
            binary_scalar(op, &x[0], Scalar::Float(s), rev)
        });
    }
    check("x ** 1.5", &[pos(&[4], 21)], &|x| {
        binary_scalar(BinaryOp::Pow, &x[0], Scalar::Float(1.5), false)
    });
    check("clamp", &[t(&[6], 22)], &|x| {
        clamp(&x[0], Some(Scalar::Float(-0.7)), Some(Scalar::Float(0.9)))
    });
    check("clamp tensor bounds", &[t(&[6], 23), t(&[6], 24)], &|x| {
        let hi = binary_scalar(BinaryOp::Add, &x[1], Scalar::Float(2.0), false)?;
        clamp_tensor(&x[0], Some(&x[1]), Some(&hi))
    });
}

#[test]
fn unary_ops() {
    use UnaryOp::*;
    for op in [
        Neg, Exp, Expm1, Sin, Cos, Tanh, Sigmoid, Relu, Abs, Square, Reciprocal, Tan,
    ] {
        let x = if op == Tan {
            t(&[2, 3], 30).clamp_small()
        } else {
            t(&[2, 3], 30)
        };
        check(op.name(), &[x], &un(op));
    }
    for op in [Log, Log2, Log10, Log1p, Sqrt, Rsqrt] {
        check(op.name(), &[pos(&[2, 3], 31)], &un(op));
    }
}

trait Small {
    fn clamp_small(self) -> Tensor;
}
impl Small for Tensor {
    fn clamp_small(self) -> Tensor {
        binary_scalar(BinaryOp::Mul, &self, Scalar::Float(0.8), false).unwrap()
    }
}

#[test]
fn reductions() {
    check("sum", &[t(&[2, 3], 40)], &|x| sum(&x[0], None, false, None));
    check("sum dim", &[t(&[2, 3, 2], 41)], &|x| {
        sum(&x[0], Some(&[1]), false, None)
    });
    check("sum dims keepdim", &[t(&[2, 3, 2], 42)], &|x| {
        sum(&x[0], Some(&[0, 2]), true, None)
    });
    check("mean", &[t(&[2, 3], 43)], &|x| {
        mean(&x[0], None, false, None)
    });
    check("mean dim", &[t(&[2, 3], 44)], &|x| {
        mean(&x[0], Some(&[-1]), true, None)
    });
    check("prod", &[t(&[2, 3], 45)], &|x| {
        prod(&x[0], None, false, None)
    });
    check("prod dim", &[t(&[2, 3], 46)], &|x| {
        prod(&x[0], Some(1), false, None)
    });
    check("max", &[t(&[2, 3], 47)], &|x| max_all(&x[0], true));
    check("min", &[t(&[2, 3], 48)], &|x| max_all(&x[0], false));
    check("max dim", &[t(&[3, 4], 49)], &|x| {
        Ok(max_dim(&x[0], 1, false, true)?.0)
    });
    check("min dim keepdim", &[t(&[3, 4], 50)], &|x| {
        Ok(max_dim(&x[0], 0, true, false)?.0)
    });
    check("amax", &[t(&[3, 4], 51)], &|x| {
        amax(&x[0], Some(&[1]), false, true)
    });
    check("softmax", &[t(&[3, 4], 52)], &|x| {
        softmax(&x[0], 1, None, false)
    });
    check("log_softmax", &[t(&[3, 4], 53)], &|x| {
        softmax(&x[0], 0, None, true)
    });
}

#[test]
fn matmul_family() {
    check("mm", &[t(&[2, 3], 60), t(&[3, 4], 61)], &|x| {
        mm(&x[0], &x[1])
    });
    check("bmm", &[t(&[2, 2, 3], 62), t(&[2, 3, 2], 63)], &|x| {
        bmm(&x[0], &x[1])
    });
    check("mv", &[t(&[2, 3], 64), t(&[3], 65)], &|x| mv(&x[0], &x[1]));
    check("dot", &[t(&[3], 66), t(&[3], 67)], &|x| dot(&x[0], &x[1]));
    check("matmul 1d@2d", &[t(&[3], 68), t(&[3, 2], 69)], &|x| {
        matmul(&x[0], &x[1])
    });
    check("matmul 3d@2d", &[t(&[2, 2, 3], 70), t(&[3, 2], 71)], &|x| {
        matmul(&x[0], &x[1])
    });
    check("matmul 3d@1d", &[t(&[2, 2, 3], 72), t(&[3], 73)], &|x| {
        matmul(&x[0], &x[1])
    });
    check(
        "matmul broadcast",
        &[t(&[2, 1, 2, 3], 74), t(&[3, 3, 2], 75)],
        &|x| matmul(&x[0], &x[1]),
    );
    let (beta, alpha) = (Scalar::Float(-0.75), Scalar::Float(1.5));
    check(
        "addmm beta alpha",
        &[t(&[3], 76), t(&[2, 4], 77), t(&[4, 3], 78)],
        &move |x| addmm_checked(&x[0], &x[1], &x[2], beta, alpha),
    );
    check(
        "addmm beta 0",
        &[t(&[2, 3], 79), t(&[2, 4], 77), t(&[4, 3], 78)],
        &move |x| addmm_checked(&x[0], &x[1], &x[2], Scalar::Int(0), alpha),
    );
}

#[test]
fn shape_ops() {
    let x = || vec![t(&[2, 3], 80)];
    check("view", &x(), &|x| x[0].view(&[3, 2]));
    check("reshape of transpose", &x(), &|x| x[0].t()?.reshape(&[6]));
    check("transpose", &[t(&[2, 3, 2], 81)], &|x| x[0].transpose(0, 2));
    check("t", &x(), &|x| x[0].t());
    check("permute", &[t(&[2, 3, 2], 82)], &|x| {
        x[0].permute(&[2, 0, 1])
    });
    check("unsqueeze squeeze", &x(), &|x| {
        x[0].unsqueeze(1)?.squeeze(None)
    });
    check("squeeze dim", &[t(&[2, 1, 3], 83)], &|x| {
        x[0].squeeze(Some(1))
    });
    check("flatten", &[t(&[2, 3, 2], 84)], &|x| x[0].flatten(1, 2));
    check("expand", &[t(&[3, 1], 85)], &|x| x[0].expand(&[2, 3, 4]));
    check("contiguous", &x(), &|x| x[0].t()?.contiguous());
    check("clone", &x(), &|x| x[0].clone_tensor());
    check("select", &x(), &|x| x[0].select(1, 2));
    check("narrow", &x(), &|x| x[0].narrow(1, 1, 2));
    check("T", &x(), &|x| x[0].t_all());
}

#[test]
fn indexing_joins_casts() {
    let x = || vec![t(&[3, 4], 90)];
    check("index basic", &x(), &|x| {
        index(
            &x[0],
            &[IndexItem::Slice(Some(1), None, None), IndexItem::Int(2)],
        )
    });
    check("index step and None", &x(), &|x| {
        index(
            &x[0],
            &[IndexItem::None, IndexItem::Slice(None, None, Some(2))],
        )
    });
    check("index tensor (repeats)", &x(), &|x| {
        let i = Tensor::from_i64s(&[2, 0, 2], &[3], DType::I64)?;
        index(&x[0], &[IndexItem::Tensor(i)])
    });
    check("index mask", &x(), &|x| {
        let m = binary_scalar(BinaryOp::Gt, &x[0], Scalar::Float(0.0), false)?;
        index(&x[0], &[IndexItem::Tensor(m)])
    });
    check(
        "index_put (CopySlices)",
        &[t(&[3, 4], 91), t(&[4], 92)],
        &|x| {
            let y = binary_scalar(BinaryOp::Mul, &x[0], Scalar::Float(2.0), false)?;
            index_put(&y, &[IndexItem::Int(1)], &IndexValue::Tensor(x[1].clone()))?;
            Ok(y)
        },
    );
    check(
        "index_put advanced",
        &[t(&[3, 4], 93), t(&[2, 4], 94)],
        &|x| {
            let y = binary_scalar(BinaryOp::Mul, &x[0], Scalar::Float(2.0), false)?;
            let i = Tensor::from_i64s(&[0, 2], &[2], DType::I64)?;
            index_put(
                &y,
                &[IndexItem::Tensor(i)],
                &IndexValue::Tensor(x[1].clone()),
            )?;
            Ok(y)
        },
    );
    check("cat", &[t(&[2, 3], 95), t(&[1, 3], 96)], &|x| {
        cat(&[x[0].clone(), x[1].clone()], 0)
    });
    check("stack", &[t(&[2, 3], 97), t(&[2, 3], 98)], &|x| {
        stack(&[x[0].clone(), x[1].clone()], 1)
    });
    check("where", &[t(&[2, 3], 99), t(&[2, 3], 100)], &|x| {
        let c = binary_scalar(BinaryOp::Gt, &x[0], Scalar::Float(0.0), false)?;
        where_(
            &c,
            &TensorOrScalar::Tensor(x[0].clone()),
            &TensorOrScalar::Tensor(x[1].clone()),
        )
    });
    check("where scalar", &[t(&[2, 3], 101)], &|x| {
        let c = binary_scalar(BinaryOp::Gt, &x[0], Scalar::Float(0.0), false)?;
        where_(
            &c,
            &TensorOrScalar::Scalar(Scalar::Float(1.0)),
            &TensorOrScalar::Tensor(x[0].clone()),
        )
    });
    check(
        "to float64 (identity) via float32 round trip of exact values",
        &[t(&[3], 102)],
        &|x| {
            // a float64 → float64 copy keeps precision; the cast node is exercised by clone+to
            x[0].to_dtype(DType::F64)
        },
    );
}

#[test]
fn inplace_on_graph() {
    check(
        "add_ on non-leaf",
        &[t(&[2, 3], 110), t(&[2, 3], 111)],
        &|x| {
            let y = binary_scalar(BinaryOp::Mul, &x[0], Scalar::Float(2.0), false)?;
            inplace::binary_inplace(BinaryOp::Add, &y, &x[1])?;
            Ok(y)
        },
    );
    check(
        "mul_ on non-leaf",
        &[t(&[2, 3], 112), t(&[2, 3], 113)],
        &|x| {
            let y = binary_scalar(BinaryOp::Add, &x[0], Scalar::Float(1.0), false)?;
            inplace::binary_inplace(BinaryOp::Mul, &y, &x[1])?;
            Ok(y)
        },
    );
    check("neg_ then relu_ on non-leaf", &[t(&[2, 3], 114)], &|x| {
        let y = binary_scalar(BinaryOp::Mul, &x[0], Scalar::Float(1.5), false)?;
        unary_(UnaryOp::Neg, &y)?;
        unary_(UnaryOp::Relu, &y)?;
        Ok(y)
    });
    check("copy_ into a fresh tensor", &[t(&[3], 115)], &|x| {
        let z = cudalearn::tensor::create::zeros(
            &[3],
            Some(DType::F64),
            cudalearn::tensor::Device::Cpu,
        )?;
        inplace::copy_(&z, &x[0])?;
        binary(BinaryOp::Mul, &z, &x[0])
    });
}

#[test]
fn functional_ops() {
    check(
        "linear 2d",
        &[t(&[4, 3], 120), t(&[2, 3], 121), t(&[2], 122)],
        &|x| nn::linear(&x[0], &x[1], Some(&x[2])),
    );
    check(
        "linear 1d",
        &[t(&[3], 123), t(&[2, 3], 124), t(&[2], 125)],
        &|x| nn::linear(&x[0], &x[1], Some(&x[2])),
    );
    check(
        "linear 3d",
        &[t(&[2, 2, 3], 126), t(&[2, 3], 127), t(&[2], 128)],
        &|x| nn::linear(&x[0], &x[1], Some(&x[2])),
    );
    check(
        "linear no bias",
        &[t(&[2, 2, 3], 129), t(&[2, 3], 130)],
        &|x| nn::linear(&x[0], &x[1], None),
    );
    check("gelu", &[t(&[6], 131)], &|x| nn::gelu(&x[0], "none"));
    check("gelu tanh", &[t(&[6], 132)], &|x| nn::gelu(&x[0], "tanh"));
    check("silu", &[t(&[6], 190)], &|x| nn::silu(&x[0]));
    check("leaky_relu", &[t(&[6], 133)], &|x| {
        nn::leaky_relu(&x[0], 0.1)
    });
    check(
        "layer_norm",
        &[t(&[2, 4], 134), t(&[4], 135), t(&[4], 136)],
        &|x| nn::layer_norm(&x[0], &[4], Some(&x[1]), Some(&x[2]), 1e-5),
    );
    check("layer_norm 2 dims no affine", &[t(&[2, 2, 3], 137)], &|x| {
        nn::layer_norm(&x[0], &[2, 3], None, None, 1e-5)
    });
    check("dropout (fixed seed)", &[t(&[10], 138)], &|x| {
        cudalearn::tensor::random::with_default(|g| g.manual_seed(7));
        nn::dropout(&x[0], 0.4, true)
    });
}

#[test]
fn losses() {
    for r in [Reduction::Mean, Reduction::Sum, Reduction::None] {
        check(
            &format!("mse_loss {r:?}"),
            &[t(&[3, 2], 140), t(&[3, 2], 141)],
            &move |x| nn::mse_loss(&x[0], &x[1], r),
        );
        check(
            &format!("l1_loss {r:?}"),
            &[t(&[3, 2], 142), t(&[3, 2], 143)],
            &move |x| nn::l1_loss(&x[0], &x[1], r),
        );
        let target = Tensor::from_i64s(&[0, 2, 1, 2], &[4], DType::I64).unwrap();
        let tg = target.clone();
        check(
            &format!("cross_entropy {r:?}"),
            &[t(&[4, 3], 144)],
            &move |x| nn::cross_entropy(&x[0], &tg, None, -100, r, 0.0),
        );
        let tg = target.clone();
        check(&format!("nll_loss {r:?}"), &[t(&[4, 3], 145)], &move |x| {
            nn::nll_loss(&x[0], &tg, None, -100, r)
        });
        check(
            &format!("bce {r:?}"),
            &[pos(&[4], 146), pos(&[4], 147)],
            &move |x| {
                let p = binary_scalar(BinaryOp::Div, &x[0], Scalar::Float(1.6), false)?;
                let q = binary_scalar(BinaryOp::Div, &x[1], Scalar::Float(1.6), false)?;
                nn::binary_cross_entropy(&p, &q, None, r)
            },
        );
        check(
            &format!("bce_with_logits {r:?}"),
            &[t(&[4], 148), pos(&[4], 149)],
            &move |x| {
                let tg = binary_scalar(BinaryOp::Div, &x[1], Scalar::Float(1.6), false)?;
                let pw = Tensor::from_f64s(&[1.0, 2.0, 0.5, 3.0], &[4], DType::F64)?;
                let w = Tensor::from_f64s(&[0.5, 1.0, 2.0, 1.0], &[4], DType::F64)?;
                nn::bce_with_logits(&x[0], &tg, Some(&w), Some(&pw), r)
            },
        );
        check(
            &format!("bce_with_logits plain {r:?}"),
            &[t(&[4], 148), pos(&[4], 149)],
            &move |x| {
                let tg = binary_scalar(BinaryOp::Div, &x[1], Scalar::Float(1.6), false)?;
                nn::bce_with_logits(&x[0], &tg, None, None, r)
            },
        );
    }
    let target = Tensor::from_i64s(&[0, 2, -100, 1], &[4], DType::I64).unwrap();
    let w = Tensor::from_f64s(&[1.0, 2.0, 0.5], &[3], DType::F64).unwrap();
    check(
        "cross_entropy weight ignore smoothing",
        &[t(&[4, 3], 150)],
        &move |x| nn::cross_entropy(&x[0], &target, Some(&w), -100, Reduction::Mean, 0.2),
    );
    check("cross_entropy probs", &[t(&[3, 4], 151)], &|x| {
        let p = softmax(&pos(&[3, 4], 152), 1, None, false)?;
        nn::cross_entropy(&x[0], &p, None, -100, Reduction::Mean, 0.1)
    });
    check("cross_entropy nd", &[t(&[2, 3, 2], 153)], &|x| {
        let tg = Tensor::from_i64s(&[0, 2, 1, 1], &[2, 2], DType::I64)?;
        nn::cross_entropy(&x[0], &tg, None, -100, Reduction::Mean, 0.0)
    });
}

// ---------------------------------------------------------------- issue 17: the new ops

use cudalearn::tensor::ops::extra::{conv, cumulative, einsum, gather, layout, sort, stats, svd};

fn idx(v: &[i64], shape: &[usize]) -> Tensor {
    Tensor::from_i64s(v, shape, DType::I64).unwrap()
}

#[test]
fn sorting_and_selection() {
    check("sort", &[t(&[3, 4], 40)], &|x| {
        Ok(sort::sort(&x[0], -1, false, false)?.0)
    });
    check("sort desc dim0", &[t(&[3, 4], 41)], &|x| {
        Ok(sort::sort(&x[0], 0, true, false)?.0)
    });
    check("topk", &[t(&[3, 5], 42)], &|x| {
        Ok(sort::topk(&x[0], 2, 1, true, true)?.0)
    });
    check("kthvalue", &[t(&[4, 3], 43)], &|x| {
        Ok(sort::kthvalue(&x[0], 2, 0, false)?.0)
    });
}

#[test]
fn scans_and_reorderings() {
    check("cumsum", &[t(&[3, 4], 44)], &|x| {
        cumulative::cumsum(&x[0], 1, None)
    });
    check("cumprod", &[t(&[2, 4], 45)], &|x| {
        cumulative::cumprod(&x[0], 1, None)
    });
    let with_zero = Tensor::from_f64s(&[0.5, 0.0, 2.0, -1.5], &[4], DType::F64).unwrap();
    check("cumprod with a zero", &[with_zero], &|x| {
        cumulative::cumprod(&x[0], 0, None)
    });
    check("flip", &[t(&[2, 3], 46)], &|x| {
        cumulative::flip(&x[0], &[0, 1])
    });
    check("roll", &[t(&[2, 3], 47)], &|x| {
        cumulative::roll(&x[0], &[1, -1], &[0, 1])
    });
    check("roll flat", &[t(&[2, 3], 48)], &|x| {
        cumulative::roll(&x[0], &[2], &[])
    });
}

#[test]
fn statistics() {
    check("var", &[t(&[3, 4], 50)], &|x| {
        stats::var(&x[0], Some(&[1]), 1.0, false, false)
    });
    check("var all", &[t(&[3, 4], 51)], &|x| {
        stats::var(&x[0], None, 0.0, false, false)
    });
    check("std keepdim", &[t(&[3, 4], 52)], &|x| {
        stats::var(&x[0], Some(&[0]), 1.0, true, true)
    });
    check("norm 2", &[t(&[3, 4], 53)], &|x| {
        stats::vector_norm(&x[0], 2.0, None, false)
    });
    check("norm 1 dim", &[t(&[3, 4], 54)], &|x| {
        stats::vector_norm(&x[0], 1.0, Some(&[1]), false)
    });
    check("norm 3", &[t(&[3, 4], 55)], &|x| {
        stats::vector_norm(&x[0], 3.0, Some(&[0]), true)
    });
    check("norm inf", &[t(&[3, 4], 56)], &|x| {
        stats::vector_norm(&x[0], f64::INFINITY, Some(&[1]), false)
    });
    check("logsumexp", &[t(&[3, 4], 57)], &|x| {
        stats::logsumexp(&x[0], &[1], false)
    });
    check(
        "lerp",
        &[t(&[2, 3], 58), t(&[2, 3], 59), pos(&[2, 3], 60)],
        &|x| stats::lerp(&x[0], &x[1], &x[2], false),
    );
    check("outer", &[t(&[3], 61), t(&[4], 62)], &|x| {
        stats::outer(&x[0], &x[1])
    });
    check("nan_to_num", &[t(&[2, 3], 63)], &|x| {
        stats::nan_to_num(&x[0], 0.0, None, None)
    });
    // singular values of tall, wide and batched matrices (distinct values: differentiable)
    check("svdvals", &[t(&[3, 2], 64)], &|x| svd::svdvals(&x[0]));
    check("svdvals wide batched", &[t(&[2, 2, 3], 65)], &|x| {
        svd::svdvals(&x[0])
    });
    // the factors of linalg.svd through functions that do not depend on the vectors' signs:
    // squared entries, rank-one parts, with S alongside (one node, three outputs)
    use cudalearn::tensor::autograd::util::{add, mul};
    check("linalg.svd U squared + S", &[t(&[3, 2], 67)], &|x| {
        let (u, s, _) = svd::linalg_svd(&x[0], false)?;
        add(&mul(&u, &u)?, &s)
    });
    check(
        "linalg.svd Vh squared, wide batched",
        &[t(&[2, 2, 3], 68)],
        &|x| {
            let (_, _, vh) = svd::linalg_svd(&x[0], false)?;
            mul(&vh, &vh)
        },
    );
    check("linalg.svd rank-one part", &[t(&[3, 4], 69)], &|x| {
        let (u, s, vh) = svd::linalg_svd(&x[0], false)?;
        let p =
            cudalearn::tensor::ops::matmul::matmul(&u.narrow(-1, 0, 1)?, &vh.narrow(-2, 0, 1)?)?;
        add(&p, &sum(&s, None, false, None)?)
    });
    check(
        "linalg.svd full_matrices, first vectors",
        &[t(&[4, 2], 70)],
        &|x| {
            let (u, _, vh) = svd::linalg_svd(&x[0], true)?;
            let p = mul(&u.narrow(-1, 0, 2)?, &u.narrow(-1, 0, 2)?)?;
            add(&p, &sum(&mul(&vh, &vh)?, None, false, None)?)
        },
    );
    check("torch.svd V squared", &[t(&[3, 3], 71)], &|x| {
        let (_, _, v) = svd::svd(&x[0], true, true)?;
        mul(&v, &v)
    });
    // the nuclear norm as matrix_norm composes it
    check("svdvals sum (nuclear norm)", &[t(&[3, 3], 66)], &|x| {
        sum(&svd::svdvals(&x[0])?, Some(&[-1]), false, None)
    });
}

#[test]
fn gather_scatter_and_layout() {
    check("split and chunk", &[t(&[5, 2], 63)], &|x| {
        let a = layout::split(&x[0], 2, 0)?;
        let b = layout::split_with_sizes(&x[0], &[1, 4], 0)?;
        let c = layout::chunk(&x[0], 2, 1)?;
        let s = cudalearn::tensor::autograd::util::mul(&a[2], &b[0])?;
        cudalearn::tensor::autograd::util::add(&s, &c[1].narrow(0, 0, 1)?)
    });
    let i = idx(&[0, 2, 1, 1, 0, 2], &[2, 3]);
    check("gather", &[t(&[2, 4], 64)], &move |x| {
        gather::gather(&x[0], 1, &i)
    });
    let i2 = idx(&[0, 2, 1, 1], &[2, 2]);
    let i3 = i2.clone();
    check(
        "scatter_add",
        &[t(&[2, 4], 65), t(&[2, 2], 66)],
        &move |x| gather::scatter(&x[0], 1, &i3, gather::Src::Tensor(&x[1]), true),
    );
    // distinct places: with repeated ones the last write wins and src has no gradient there
    let i4 = idx(&[0, 2, 1, 3], &[2, 2]);
    check("scatter", &[t(&[2, 4], 67), t(&[2, 2], 68)], &move |x| {
        gather::scatter(&x[0], 1, &i4, gather::Src::Tensor(&x[1]), false)
    });
    let mask = Tensor::from_bools(
        &[true, false, false, true, true, false],
        &[2, 3],
        DType::Bool,
    )
    .unwrap();
    check("masked_fill", &[t(&[2, 3], 69)], &move |x| {
        gather::masked_fill(&x[0], &mask, &TensorOrScalar::Scalar(Scalar::Float(0.5)))
    });
    check("repeat", &[t(&[2, 3], 70)], &|x| {
        layout::repeat(&x[0], &[2, 1, 2])
    });
    check("tile", &[t(&[2, 3], 71)], &|x| layout::tile(&x[0], &[2]));
    check("tril", &[t(&[3, 3], 72)], &|x| layout::tri(&x[0], 0, true));
    check("triu", &[t(&[3, 4], 73)], &|x| layout::tri(&x[0], 1, false));
    check("diag 1d", &[t(&[3], 74)], &|x| layout::diag(&x[0], -1));
    check("diag 2d", &[t(&[3, 4], 75)], &|x| layout::diag(&x[0], 1));
    check("diag_embed", &[t(&[2, 3], 76)], &|x| {
        layout::diag_embed(&x[0], -1, 2, 0)
    });
    check(
        "einsum ellipsis",
        &[t(&[2, 3, 4], 78), t(&[4, 2], 79)],
        &|x| einsum::einsum("...ij,jk->...ik", &[x[0].clone(), x[1].clone()]),
    );
    check("einsum diagonal", &[t(&[2, 3, 3], 99)], &|x| {
        einsum::einsum("bii->bi", &[x[0].clone()])
    });
    check("einsum matmul", &[t(&[2, 3], 76), t(&[3, 4], 77)], &|x| {
        einsum::einsum("ij,jk->ik", &[x[0].clone(), x[1].clone()])
    });
    check(
        "einsum batched",
        &[t(&[2, 2, 3], 78), t(&[2, 3, 2], 79)],
        &|x| einsum::einsum("bij,bjk->bik", &[x[0].clone(), x[1].clone()]),
    );
}

fn win(k: usize, s: usize, p: usize) -> conv::Window {
    conv::Window {
        kernel: [k, k],
        stride: [s, s],
        padding: [p, p],
        dilation: [1, 1],
        ceil_mode: false,
    }
}

#[test]
fn convolution_and_pooling() {
    check(
        "conv2d",
        &[t(&[2, 2, 4, 4], 80), t(&[3, 2, 3, 3], 81), t(&[3], 82)],
        &|x| conv::conv2d(&x[0], &x[1], Some(&x[2]), win(3, 1, 1), 1),
    );
    check(
        "conv2d stride groups",
        &[t(&[1, 4, 5, 5], 83), t(&[2, 2, 2, 2], 84)],
        &|x| conv::conv2d(&x[0], &x[1], None, win(2, 2, 0), 2),
    );
    check(
        "conv1d",
        &[t(&[2, 2, 6], 85), t(&[3, 2, 3], 86), t(&[3], 87)],
        &|x| conv::conv1d(&x[0], &x[1], Some(&x[2]), 2, 1, 1, 1),
    );
    check("max_pool2d", &[t(&[1, 2, 4, 4], 88)], &|x| {
        conv::max_pool2d(&x[0], win(2, 2, 0))
    });
    check("max_pool2d padded", &[t(&[1, 1, 5, 5], 89)], &|x| {
        conv::max_pool2d(&x[0], win(3, 2, 1))
    });
    check("avg_pool2d", &[t(&[1, 2, 4, 4], 90)], &|x| {
        conv::avg_pool2d(&x[0], win(2, 1, 0), true, None)
    });
    check("avg_pool2d no pad count", &[t(&[1, 1, 4, 4], 91)], &|x| {
        conv::avg_pool2d(&x[0], win(3, 2, 1), false, None)
    });
    let ceil = conv::Window {
        ceil_mode: true,
        ..win(3, 2, 1)
    };
    check("avg_pool2d ceil_mode", &[t(&[1, 1, 6, 6], 93)], &move |x| {
        conv::avg_pool2d(&x[0], ceil, true, None)
    });
    check(
        "avg_pool2d divisor_override",
        &[t(&[1, 1, 5, 5], 94)],
        &move |x| conv::avg_pool2d(&x[0], ceil, false, Some(3)),
    );
    check("max_pool2d ceil_mode", &[t(&[1, 1, 6, 6], 95)], &move |x| {
        conv::max_pool2d(&x[0], ceil)
    });
    let at = idx(&[0, 3, 9, 14, 1, 7, 8, 15], &[1, 2, 2, 2]);
    check("max_unpool2d", &[t(&[1, 2, 2, 2], 96)], &move |x| {
        conv::max_unpool2d(&x[0], &at, [4, 4])
    });
    check(
        "conv2d over 16 channels",
        &[t(&[1, 18, 3, 3], 97), t(&[2, 18, 2, 2], 98)],
        &|x| conv::conv2d(&x[0], &x[1], None, win(2, 1, 0), 1),
    );
    check("adaptive_avg_pool2d", &[t(&[1, 2, 5, 7], 92)], &|x| {
        conv::adaptive_avg_pool2d(&x[0], [2, 3])
    });
}

/// `create_graph=True`: the gradient has a history, and differentiating it again gives the
/// second derivative (checked against finite differences of the first).
#[test]
fn second_derivatives() {
    let fs: Vec<(&str, Box<F>)> = vec![
        (
            "x^3",
            Box::new(|x: &[Tensor]| binary_scalar(BinaryOp::Pow, &x[0], Scalar::Float(3.0), false)),
        ),
        ("exp", Box::new(|x: &[Tensor]| unary(UnaryOp::Exp, &x[0]))),
        ("tanh", Box::new(|x: &[Tensor]| unary(UnaryOp::Tanh, &x[0]))),
        (
            "sin*x",
            Box::new(|x: &[Tensor]| binary(BinaryOp::Mul, &unary(UnaryOp::Sin, &x[0])?, &x[0])),
        ),
        (
            "sigmoid",
            Box::new(|x: &[Tensor]| unary(UnaryOp::Sigmoid, &x[0])),
        ),
    ];
    for (name, f) in fs {
        let base = t(&[4], 93);
        let first = |x: &Tensor, create: bool| -> Tensor {
            let leaf = x.detach().clone_tensor().unwrap();
            leaf.set_requires_grad(true);
            let y = sum(&f(std::slice::from_ref(&leaf)).unwrap(), None, false, None).unwrap();
            autograd::grad_with(
                &[y],
                std::slice::from_ref(&leaf),
                &[None],
                create,
                false,
                create,
            )
            .unwrap()[0]
                .clone()
                .unwrap()
        };
        // analytic second derivative of sum(f) is diagonal: d/dx_i (df/dx_i)
        let leaf = base.detach().clone_tensor().unwrap();
        leaf.set_requires_grad(true);
        let y = sum(&f(std::slice::from_ref(&leaf)).unwrap(), None, false, None).unwrap();
        let g = autograd::grad_with(
            &[y],
            std::slice::from_ref(&leaf),
            &[None],
            true,
            false,
            true,
        )
        .unwrap()[0]
            .clone()
            .unwrap();
        assert!(
            g.requires_grad(),
            "{name}: create_graph gave a gradient without history"
        );
        let gg = autograd::grad_with(
            &[sum(&g, None, false, None).unwrap()],
            &[leaf],
            &[None],
            false,
            false,
            false,
        )
        .unwrap()[0]
            .clone()
            .unwrap()
            .contiguous_values_f64()
            .unwrap();
        let v = base.contiguous_values_f64().unwrap();
        for j in 0..v.len() {
            let at = |d: f64| {
                let mut w = v.clone();
                w[j] += d;
                first(&Tensor::from_f64s(&w, &[4], DType::F64).unwrap(), false)
                    .contiguous_values_f64()
                    .unwrap()[j]
            };
            let num = (at(1e-6) - at(-1e-6)) / 2e-6;
            assert!(
                (num - gg[j]).abs() <= 1e-5 + 1e-4 * num.abs(),
                "{name}: second derivative [{j}]: {} but finite differences {num}",
                gg[j]
            );
        }
    }
}

/// An in-place op on a view of a non-leaf rewrites the base's history (`CopySlices`).
#[test]
fn inplace_on_a_view_of_a_non_leaf() {
    check("mul_ on y[0]", &[t(&[2, 3], 94), t(&[3], 95)], &|x| {
        let y = binary_scalar(BinaryOp::Mul, &x[0], Scalar::Float(2.0), false)?;
        let v = index(&y, &[IndexItem::Int(0)])?;
        inplace::binary_inplace(BinaryOp::Mul, &v, &x[1])?;
        Ok(y)
    });
    check("add_ on a narrow column", &[t(&[3, 2], 96)], &|x| {
        // (not exp: it saves its output, which the write would invalidate, as in PyTorch)
        let y = binary_scalar(BinaryOp::Mul, &x[0], Scalar::Float(3.0), false)?;
        let v = y.narrow(1, 1, 1)?;
        inplace::binary_inplace(BinaryOp::Add, &v, &v.clone_tensor()?)?;
        binary(BinaryOp::Mul, &y, &y)
    });
}
