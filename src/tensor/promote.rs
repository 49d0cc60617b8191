//! PyTorch's type promotion: `promote_types` (c10 `promoteTypes`), `result_type` over tensors,
//! zero-dim tensors and Python scalars (ATen `TypeProperties.cpp`), `can_cast`, and the default
//! floating dtype.
use super::error::{not_impl, Result};
use super::scalar::Scalar;
use super::DType;

pub use crate::core::dtype::{default_dtype, set_default_dtype};

fn rank(d: DType) -> u8 {
    match d {
        DType::Bool => 0,
        DType::U8 | DType::I8 => 1,
        DType::I32 => 2,
        DType::I64 => 3,
        DType::F16 | DType::BF16 => 4,
        DType::F32 => 5,
        DType::F64 => 6,
    }
}

/// `torch.promote_types(a, b)`. uint8 with int8 is int16 in PyTorch, a dtype cudalearn lacks.
pub fn promote_types(a: DType, b: DType) -> Result<DType> {
    use DType::*;
    if a == b {
        return Ok(a);
    }
    Ok(match (a, b) {
        (U8, I8) | (I8, U8) => {
            return not_impl(
                "cudalearn does not support torch.int16 yet (uint8 and int8 promote to int16)",
            )
        }
        (F16, BF16) | (BF16, F16) => F32,
        _ => {
            if rank(a) >= rank(b) {
                a
            } else {
                b
            }
        }
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cat {
    Bool,
    Int,
    Float,
}

fn cat(d: DType) -> Cat {
    if d == DType::Bool {
        Cat::Bool
    } else if d.is_floating() {
        Cat::Float
    } else {
        Cat::Int
    }
}

/// An operand of `result_type`: a tensor with dims, a 0-dim tensor, or a Python number.
#[derive(Clone, Copy, Debug)]
pub enum Operand {
    Dim(DType),
    ZeroDim(DType),
    Scalar(Scalar),
}

/// The three partial results ATen keeps (`ResultTypeState`).
#[derive(Default, Clone, Copy)]
pub struct ResultTypeState {
    dim: Option<DType>,
    zero: Option<DType>,
    wrapped: Option<DType>,
}

fn promote_opt(a: Option<DType>, b: DType) -> Result<Option<DType>> {
    Ok(Some(match a {
        None => b,
        Some(a) => promote_types(a, b)?,
    }))
}

impl ResultTypeState {
    pub fn update(&mut self, op: Operand) -> Result<()> {
        match op {
            Operand::Dim(d) => self.dim = promote_opt(self.dim, d)?,
            Operand::ZeroDim(d) => self.zero = promote_opt(self.zero, d)?,
            Operand::Scalar(s) => {
                // Python floats are the default dtype, ints Long, bools Bool.
                let d = match s {
                    Scalar::Bool(_) => DType::Bool,
                    Scalar::Int(_) => DType::I64,
                    Scalar::Float(_) => default_dtype(),
                };
                self.wrapped = promote_opt(self.wrapped, d)?
            }
        }
        Ok(())
    }

    pub fn result(&self) -> Result<DType> {
        let inner = combine(self.zero, self.wrapped)?;
        Ok(combine(self.dim, inner)?.unwrap_or(DType::F32))
    }
}

/// ATen `combine_categories`: a lower-priority operand only matters when it is of a higher
/// category (bool < integer < floating) than the higher-priority one.
fn combine(higher: Option<DType>, lower: Option<DType>) -> Result<Option<DType>> {
    let Some(h) = higher else { return Ok(lower) };
    let Some(l) = lower else { return Ok(Some(h)) };
    if cat(h) == Cat::Float {
        return Ok(Some(h));
    }
    if h == DType::Bool || cat(l) == Cat::Float {
        return Ok(Some(promote_types(h, l)?));
    }
    Ok(Some(h))
}

/// `torch.result_type` over any operands.
pub fn result_type(ops: &[Operand]) -> Result<DType> {
    let mut st = ResultTypeState::default();
    for &o in ops {
        st.update(o)?;
    }
    st.result()
}

/// c10 `canCast`: the rule for writing a result into an existing tensor (in-place ops, `out=`).
pub fn can_cast(from: DType, to: DType) -> bool {
    if from.is_floating() && to.is_integral() {
        return false;
    }
    !(from != DType::Bool && to == DType::Bool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use DType::*;

    #[test]
    fn scalar_promotion() {
        let r = |ops: &[Operand]| result_type(ops).unwrap();
        assert_eq!(
            r(&[Operand::Dim(I32), Operand::Scalar(Scalar::Float(2.5))]),
            F32
        );
        assert_eq!(
            r(&[Operand::Dim(F16), Operand::Scalar(Scalar::Float(2.5))]),
            F16
        );
        assert_eq!(
            r(&[Operand::Dim(Bool), Operand::Scalar(Scalar::Int(2))]),
            I64
        );
        assert_eq!(
            r(&[Operand::Dim(I8), Operand::Scalar(Scalar::Int(1000))]),
            I8
        );
        assert_eq!(r(&[Operand::Dim(I32), Operand::ZeroDim(I64)]), I32);
        assert_eq!(r(&[Operand::Dim(I32), Operand::ZeroDim(F32)]), F32);
        assert_eq!(r(&[Operand::Dim(F16), Operand::ZeroDim(F64)]), F16);
        assert_eq!(r(&[Operand::Dim(Bool), Operand::ZeroDim(I8)]), I8);
        assert_eq!(r(&[Operand::ZeroDim(I8), Operand::ZeroDim(F64)]), F64);
        assert_eq!(
            r(&[Operand::ZeroDim(I8), Operand::Scalar(Scalar::Float(5.0))]),
            F32
        );
        assert_eq!(
            r(&[Operand::ZeroDim(Bool), Operand::Scalar(Scalar::Bool(true))]),
            Bool
        );
        assert_eq!(promote_types(F16, BF16).unwrap(), F32);
        assert!(promote_types(U8, I8).is_err());
    }
}
