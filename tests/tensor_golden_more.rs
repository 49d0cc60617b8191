//! More golden cases (`tests/golden/tensor_more.py`): clamp, integer dtypes, isclose/nonzero,
//! scalar promotion, writes through many kinds of views, reductions over several dims, cat.
#[path = "engine_common/mod.rs"]
mod common;

use common::*;
use cudalearn::tensor::create::zeros;
use cudalearn::tensor::index::{index, index_put, nonzero, IndexValue};
use cudalearn::tensor::ops::binary::{binary, binary_scalar, clamp, BinaryOp::*};
use cudalearn::tensor::ops::compare::isclose;
use cudalearn::tensor::ops::inplace::{binary_inplace, binary_scalar_inplace, fill_};
use cudalearn::tensor::ops::join::{cat, stack};
use cudalearn::tensor::ops::reduce::{
    all_any, amax, argmax, max_all, max_dim, mean, prod, softmax, sum,
};
use cudalearn::tensor::ops::unary::{unary, UnaryOp};
use cudalearn::tensor::{DType::*, Device, IndexItem as I, Result, Scalar, Tensor};

fn fl(x: f64) -> Scalar {
    Scalar::Float(x)
}
fn int(x: i64) -> Scalar {
    Scalar::Int(x)
}
fn all() -> I {
    I::Slice(None, None, None)
}

fn run_case(name: &str, o: &mut Out) -> Result<()> {
    match name {
        "clamp" => {
            let x = vf(&[-2.0, -0.5, 0.0, 0.7, 3.0, f64::NAN]);
            o.show(&clamp(&x, Some(int(-1)), Some(int(1)))?)?;
            o.show(&clamp(&x, Some(int(0)), None)?)?;
            o.show(&clamp(&x, None, Some(fl(0.5)))?)?;
            o.show(&clamp(&vi(&[1, 2, 3]), Some(fl(1.5)), None)?)?;
            o.show(&clamp(&vi(&[1, 5, 9]), Some(int(2)), Some(int(6)))?)?;
            o.show(&clamp(&x, Some(int(2)), Some(int(1)))?)?;
        }
        "clamp_none" => {
            clamp(&vf(&[1.0]), None, None)?;
        }
        "int_dtypes" => {
            let a = vid(&[100, -100, 7], I32);
            let b = vid(&[3, 3, -2], I8);
            let c = vid(&[200, 10, 255], U8);
            o.show(&binary(Add, &a, &b)?)?;
            o.show(&binary(Mul, &a, &b)?)?;
            o.show(&binary(FloorDiv, &a, &b)?)?;
            o.show(&binary(Rem, &a, &b)?)?;
            o.show(&binary(Mul, &binary(Mul, &b, &b)?, &b)?)?;
            o.show(&binary(Add, &c, &c)?)?;
            o.show(&binary_scalar(Sub, &c, int(201), false)?)?;
            o.show(&binary_scalar(FloorDiv, &c, int(7), false)?)?;
            o.show(&binary(Mul, &c, &vb(&[true, false, true]))?)?;
            o.show(&a.to_dtype(I8)?)?;
            o.show(&unary(UnaryOp::Neg, &c)?)?;
            o.show(&binary(BitAnd, &a, &b)?)?;
            o.show(&binary_scalar(BitOr, &c, int(1), false)?)?;
            o.show(&unary(UnaryOp::BitwiseNot, &c)?)?;
            o.show(&unary(UnaryOp::BitwiseNot, &vb(&[true, false]))?)?;
            o.show(&unary(UnaryOp::Abs, &a)?)?;
        }
        "isclose_nonzero" => {
            let a = vf(&[1.0, 2.0, f64::INFINITY, f64::NAN, 1e-9]);
            let b = vf(&[1.0 + 1e-6, 2.1, f64::INFINITY, f64::NAN, 0.0]);
            o.show(&isclose(&a, &b, 1e-5, 1e-8, false)?)?;
            o.show(&isclose(&a, &b, 1e-5, 1e-8, true)?)?;
            o.show(&isclose(&a, &b, 0.1, 1e-8, false)?)?;
            o.show(&nonzero(&Tensor::from_i64s(&[0, 1, 2, 0], &[2, 2], I64)?)?)?;
            o.show(&nonzero(&vf(&[0.0, 3.0]))?)?;
        }
        "mixed_scalar_ops" => {
            let h = vd(&[1.0, 2.0], F16);
            o.show(&binary_scalar(Add, &h, fl(0.1), false)?)?;
            o.show(&binary_scalar(Div, &h, int(3), false)?)?;
            o.show(&binary_scalar(Sub, &h, fl(1e-4), false)?)?;
            o.show(&binary_scalar(Mul, &vid(&[1, 2], I32), fl(0.5), false)?)?;
            o.show(&binary(Add, &vid(&[1, 2], I8), &si(1000, I64))?)?;
            o.show(&binary(Mul, &sf(2.5), &vi(&[1, 2]))?)?;
            o.show(&binary(Pow, &vf(&[3.0]), &vi(&[2]))?)?;
            o.show(&binary(Pow, &vid(&[2], I32), &vi(&[3]))?)?;
            o.show(&binary(Eq, &vf(&[1.0, 2.0]), &vi(&[1, 3]))?)?;
        }
        "views_and_inplace" => {
            let x = zeros(&[3, 4], None, Device::Cpu)?;
            let row = index(&x, &[I::Int(1)])?;
            let col = index(&x, &[all(), I::Int(2)])?;
            let blk = index(
                &x,
                &[
                    I::Slice(Some(1), None, None),
                    I::Slice(Some(1), Some(3), None),
                ],
            )?;
            let flat = x.view(&[-1])?;
            let tt = x.t()?;
            binary_scalar_inplace(Add, &row, int(1))?;
            fill_(&col, int(5))?;
            binary_scalar_inplace(Mul, &blk, int(2))?;
            index_put(&flat, &[I::Int(0)], &IndexValue::Scalar(int(9)))?;
            index_put(&tt, &[I::Int(3), I::Int(0)], &IndexValue::Scalar(int(-1)))?;
            for t in [&x, &row, &col, &blk, &tt] {
                o.show(t)?;
            }
            let y = ar(6, F32).view(&[2, 3])?;
            let z = y.unsqueeze(0)?.expand(&[2, 2, 3])?;
            index_put(&y, &[I::Int(0), I::Int(0)], &IndexValue::Scalar(int(100)))?;
            o.show(&z)?;
            let w = ar(4, F32);
            let w2 = w.view(&[2, 2])?;
            binary_inplace(Mul, &w2.t()?, &vf(&[1.0, 10.0]))?;
            o.show(&w)?;
        }
        "reductions_more" => {
            let x = binary_scalar(
                Sub,
                &binary_scalar(Mul, &ar(24, F32).view(&[2, 3, 4])?, fl(1.5), false)?,
                int(7),
                false,
            )?;
            o.show(&sum(&x, Some(&[1, 2]), false, None)?)?;
            o.show(&mean(&x, Some(&[0, 2]), true, None)?)?;
            o.show(&amax(&x, Some(&[0, 1]), false, true)?)?;
            let (v, i) = max_dim(&x, -1, false, true)?;
            o.show(&v)?;
            o.show(&i)?;
            o.show(&max_dim(&x, 1, false, false)?.1)?;
            o.show(&prod(&x, Some(0), false, None)?)?;
            o.show(&sum(&x.transpose(0, 2)?, Some(&[0]), false, None)?)?;
            o.show(&argmax(&x, Some(2), false, false)?)?;
            o.show(&index(&softmax(&x, -1, None, true)?, &[I::Int(0)])?)?;
            o.show(&index(&softmax(&x, 0, None, false)?, &[I::Int(1)])?)?;
            let m = Tensor::from_bools(&[true, false, true, true], &[2, 2], Bool)?;
            o.show(&all_any(&m, Some(&[1]), false, true)?)?;
            o.show(&all_any(&m, Some(&[0]), false, false)?)?;
            o.show(&sum(&vid(&[3, 1, 2], I32), None, false, None)?)?;
            o.show(&max_all(&vid(&[3, 1, 2], U8), true)?)?;
        }
        "cat_more" => {
            let a = ar(4, F32).view(&[2, 2])?;
            let e = index(&a, &[all(), I::Slice(None, Some(1), None)])?.expand(&[2, 2])?;
            o.show(&cat(&[a.clone(), a.t()?, e], 1)?)?;
            o.show(&cat(
                &[
                    a.clone(),
                    Tensor::from_bools(&[true, false], &[1, 2], Bool)?,
                ],
                0,
            )?)?;
            let r0 = index(&a, &[I::Int(0)])?;
            let r1 = index(&a, &[I::Int(1)])?;
            let c0 = index(&a, &[all(), I::Int(0)])?;
            o.show(&stack(&[r0, r1, c0], 0)?)?;
            o.show(&cat(&[a.to_dtype(F16)?, a.to_dtype(BF16)?], 0)?)?;
        }
        "result_layouts" => {
            use cudalearn::tensor::ops::join::{where_, TensorOrScalar as TS};
            use cudalearn::tensor::ops::matmul::matmul;
            let x = ar(6, F32).view(&[2, 3])?;
            let t = x.t()?;
            let p = ar(24, F32).view(&[2, 3, 4])?.permute(&[2, 0, 1])?;
            let ones32 = cudalearn::tensor::create::ones(&[3, 2], None, Device::Cpu)?;
            o.lay(&binary_scalar(Add, &t, int(1), false)?);
            o.lay(&binary(Mul, &t, &t)?);
            o.lay(&binary(Add, &t, &ones32)?);
            o.lay(&binary(Add, &ones32, &t)?);
            o.lay(&unary(UnaryOp::Exp, &t)?);
            o.lay(&binary_scalar(Gt, &t, int(2), false)?);
            o.lay(&t.to_dtype(F64)?);
            o.lay(&t.contiguous()?);
            o.lay(&t.clone_tensor()?);
            o.lay(&binary_scalar(Mul, &p, int(2), false)?);
            o.lay(&binary(
                Add,
                &p,
                &cudalearn::tensor::create::ones(&[4, 1, 1], None, Device::Cpu)?,
            )?);
            o.lay(&where_(
                &binary_scalar(Gt, &t, int(1), false)?,
                &TS::Tensor(t.clone()),
                &TS::Scalar(fl(0.0)),
            )?);
            o.lay(&binary_scalar(
                Mul,
                &index(&t, &[I::Slice(None, None, Some(2))])?,
                int(1),
                false,
            )?);
            o.lay(&unary(UnaryOp::Neg, &t)?);
            o.lay(&t.to_dtype(I32)?);
            o.lay(&unary(
                UnaryOp::Neg,
                &index(&t, &[all(), I::Slice(None, Some(1), None)])?.expand(&[3, 4])?,
            )?);
            o.lay(&sum(&t, Some(&[0]), false, None)?);
            o.lay(&matmul(&t, &x)?);
            o.show(&binary_scalar(Add, &t, int(1), false)?)?;
            o.show(&binary_scalar(
                Sub,
                &binary_scalar(Mul, &p, int(2), false)?,
                int(1),
                false,
            )?)?;
        }
        other => panic!("no Rust side for golden case {other}"),
    }
    Ok(())
}

#[test]
fn tensor_more_matches_pytorch() {
    let expected = load_expected("tests/golden/tensor_more.expected");
    let mut failures = vec![];
    for (name, want) in &expected {
        let mut o = Out::default();
        if let Err(e) = run_case(name, &mut o) {
            o.line(e.to_string());
        }
        if &o.0 != want {
            failures.push(format!("--- {name}\nexpected:\n{want}got:\n{}", o.0));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        expected.len(),
        failures.join("\n")
    );
}
