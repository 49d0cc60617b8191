//! The names and op codes of `kernels/*.cu` as the backend asks for them, and which op × dtype
//! pairs have a kernel (the rest take the backend's host route). Kept apart from the launches so
//! that `cargo test` can check every name against the kernel sources without a GPU.
use crate::core::BinaryOp;
use crate::core::DType;
use crate::core::ReduceOp;
use crate::core::UnaryOp;

/// The suffix of the per-dtype arithmetic kernels (`binary_f32`, `reduce_rows_i64`, ...).
pub fn arith_suffix(d: DType) -> Option<&'static str> {
    use DType::*;
    matches!(d, F32 | F64 | F16 | BF16 | I64 | I32).then(|| cast_name(d))
}

/// Every dtype's name in the cast kernels (`cast_f16_bool`).
pub fn cast_name(d: DType) -> &'static str {
    use DType::*;
    match d {
        F32 => "f32",
        F64 => "f64",
        F16 => "f16",
        BF16 => "bf16",
        I64 => "i64",
        I32 => "i32",
        I8 => "i8",
        U8 => "u8",
        Bool => "bool",
    }
}

/// The size-keyed kernels (`copy_b4`, `gather_b2`): moving bytes needs no arithmetic.
pub fn size_suffix(d: DType) -> &'static str {
    match d.size() {
        1 => "b1",
        2 => "b2",
        4 => "b4",
        _ => "b8",
    }
}

fn is_float(d: DType) -> bool {
    matches!(d, DType::F32 | DType::F64 | DType::F16 | DType::BF16)
}

/// The `OP_*` code of `elementwise.cu` for `op` on `d`, if a kernel computes it.
pub fn binary_code(op: BinaryOp, d: DType) -> Option<i32> {
    use BinaryOp::*;
    arith_suffix(d)?;
    let float = is_float(d);
    Some(match op {
        Add => 0,
        Sub => 1,
        Mul => 2,
        Div if float => 3,
        Maximum => 4,
        Minimum => 5,
        Pow if float => 6,
        Eq => 7,
        Ne => 8,
        Lt => 9,
        Le => 10,
        Gt => 11,
        Ge => 12,
        FloorDiv => 13,
        TruncDiv => 14,
        Rem => 15,
        Fmod => 16,
        BitAnd if !float => 17,
        BitOr if !float => 18,
        BitXor if !float => 19,
        _ => return None,
    })
}

/// The `UN_*` code of `elementwise.cu` (the order of `UnaryOp`), if a kernel computes it.
pub fn unary_code(op: UnaryOp, d: DType) -> Option<i32> {
    use UnaryOp::*;
    arith_suffix(d)?;
    let code = match op {
        Neg => 0,
        Abs => 1,
        Sqrt => 2,
        Rsqrt => 3,
        Exp => 4,
        Expm1 => 5,
        Log => 6,
        Log2 => 7,
        Log10 => 8,
        Log1p => 9,
        Sin => 10,
        Cos => 11,
        Tan => 12,
        Tanh => 13,
        Sigmoid => 14,
        Relu => 15,
        Floor => 16,
        Ceil => 17,
        Round => 18,
        Trunc => 19,
        Frac => 20,
        Sign => 21,
        Reciprocal => 22,
        Square => 23,
        LogicalNot | BitwiseNot | IsNan | Signbit | Silu | Gelu | GeluTanh | GeluGrad
        | GeluTanhGrad => return None,
    };
    // integer kernels know only the ops that stay integral
    (is_float(d) || matches!(op, Neg | Abs | Relu | Sign | Square)).then_some(code)
}

/// The `RED_*` code of `reduce.cu`.
pub fn reduce_code(op: ReduceOp, d: DType) -> Option<i32> {
    arith_suffix(d)?;
    Some(match op {
        ReduceOp::Sum => 0,
        ReduceOp::Prod => 1,
        ReduceOp::Max => 2,
        ReduceOp::Min => 3,
        ReduceOp::All | ReduceOp::Any => return None,
    })
}

/// Whether `v` travels to a kernel as a double argument without changing (`fill`, scalars).
pub fn exact_as_double(v: crate::core::Scalar) -> bool {
    match v {
        crate::core::Scalar::Int(i) => i.unsigned_abs() <= 1 << 53,
        _ => true,
    }
}

/// Every kernel name the backend can ask for, for the tests that check them against the sources.
pub fn all_names() -> Vec<String> {
    let all = DType::ALL;
    let mut v = Vec::new();
    for d in all {
        for s in all {
            v.push(format!("cast_{}_{}", cast_name(d), cast_name(s)));
        }
        for k in ["copy", "gather", "scatter"] {
            v.push(format!("{k}_{}", size_suffix(d)));
        }
        if let Some(s) = arith_suffix(d) {
            for k in [
                "binary",
                "binary_scalar",
                "compare",
                "compare_scalar",
                "unary",
                "fill",
                "where",
                "reduce_rows",
                "reduce_chunks",
                "reduce_cols",
                "arg_rows",
            ] {
                v.push(format!("{k}_{s}"));
            }
            if is_float(d) {
                v.push(format!("softmax_{s}"));
            }
            if matches!(d, DType::F32 | DType::F64) {
                v.push(format!("sgd_{s}"));
                v.push(format!("adam_{s}"));
                v.push(format!("unscale_{s}"));
            }
        }
    }
    v.sort();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The op codes agree with the `#define`s in elementwise.cu and reduce.cu.
    #[test]
    fn codes_match_the_kernel_defines() {
        let src = super::super::kernels::program();
        let define = |name: &str| -> i32 {
            let pat = format!("#define {name} ");
            let line = src
                .lines()
                .find(|l| l.starts_with(&pat))
                .unwrap_or_else(|| panic!("{name}"));
            line[pat.len()..].trim().parse().unwrap()
        };
        use BinaryOp::*;
        for (op, name) in [
            (Add, "OP_ADD"),
            (Sub, "OP_SUB"),
            (Mul, "OP_MUL"),
            (Div, "OP_DIV"),
            (Maximum, "OP_MAX"),
            (Minimum, "OP_MIN"),
            (Pow, "OP_POW"),
            (Eq, "OP_EQ"),
            (Ne, "OP_NE"),
            (Lt, "OP_LT"),
            (Le, "OP_LE"),
            (Gt, "OP_GT"),
            (Ge, "OP_GE"),
            (FloorDiv, "OP_FLOORDIV"),
            (TruncDiv, "OP_TRUNCDIV"),
            (Rem, "OP_REM"),
            (Fmod, "OP_FMOD"),
        ] {
            assert_eq!(binary_code(op, DType::F32), Some(define(name)), "{name}");
        }
        assert_eq!(binary_code(BitXor, DType::I64), Some(define("OP_BITXOR")));
        assert_eq!(binary_code(Div, DType::I64), None);
        assert_eq!(binary_code(LogicalAnd, DType::F32), None);
        assert_eq!(binary_code(Add, DType::Bool), None);
        let names = [
            "NEG",
            "ABS",
            "SQRT",
            "RSQRT",
            "EXP",
            "EXPM1",
            "LOG",
            "LOG2",
            "LOG10",
            "LOG1P",
            "SIN",
            "COS",
            "TAN",
            "TANH",
            "SIGMOID",
            "RELU",
            "FLOOR",
            "CEIL",
            "ROUND",
            "TRUNC",
            "FRAC",
            "SIGN",
            "RECIPROCAL",
            "SQUARE",
        ];
        for (i, n) in names.iter().enumerate() {
            let op = crate::core::op::ALL_UNARY[i];
            assert_eq!(op.name().to_uppercase(), *n);
            assert_eq!(unary_code(op, DType::F32), Some(define(&format!("UN_{n}"))));
        }
        assert_eq!(unary_code(UnaryOp::Exp, DType::I64), None);
        assert_eq!(unary_code(UnaryOp::Neg, DType::I32), Some(0));
        for (op, n) in [
            (ReduceOp::Sum, "RED_SUM"),
            (ReduceOp::Prod, "RED_PROD"),
            (ReduceOp::Max, "RED_MAX"),
            (ReduceOp::Min, "RED_MIN"),
        ] {
            assert_eq!(reduce_code(op, DType::F16), Some(define(n)));
        }
    }

    /// Every name the backend can launch is defined by a macro instantiation in the sources:
    /// `DEFINE_X(suffix, ...)` whose body declares `void <family>_##NAME`.
    #[test]
    fn every_name_is_defined_in_the_sources() {
        let src = super::super::kernels::program();
        let defined = super::super::kernels::macro_names::expanded_names(&src);
        for n in all_names() {
            assert!(defined.contains(&n), "kernel {n} is not in kernels/*.cu");
        }
        assert_eq!(defined.len(), all_names().len(), "kernels nobody launches");
    }

    #[test]
    fn big_ints_do_not_travel_as_doubles() {
        use crate::core::Scalar;
        assert!(exact_as_double(Scalar::Int(1 << 53)));
        assert!(!exact_as_double(Scalar::Int((1 << 53) + 1)));
        assert!(exact_as_double(Scalar::Float(0.1)));
    }
}
