//! `Scalar`: a Python number crossing into the engine (`x + 2`, `item()`, `fill_(v)`).
use super::DType;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Float(f64),
}

impl Scalar {
    pub fn to_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => b as i64 as f64,
            Scalar::Int(i) => i as f64,
            Scalar::Float(f) => f,
        }
    }
    /// Truncating, as C++ `static_cast<int64_t>` does (Python floats reaching an integer tensor).
    pub fn to_i64(self) -> i64 {
        match self {
            Scalar::Bool(b) => b as i64,
            Scalar::Int(i) => i,
            Scalar::Float(f) => crate::core::element::f64_to_i64(f),
        }
    }
    pub fn to_bool(self) -> bool {
        match self {
            Scalar::Bool(b) => b,
            Scalar::Int(i) => i != 0,
            Scalar::Float(f) => f != 0.0,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Float(_))
    }
    pub fn is_bool(self) -> bool {
        matches!(self, Scalar::Bool(_))
    }
    /// The dtype `torch.tensor(s)` would infer.
    pub fn natural_dtype(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::Int(_) => DType::I64,
            Scalar::Float(_) => crate::core::dtype::default_dtype(),
        }
    }
}

impl From<f64> for Scalar {
    fn from(v: f64) -> Self {
        Scalar::Float(v)
    }
}
impl From<i64> for Scalar {
    fn from(v: i64) -> Self {
        Scalar::Int(v)
    }
}
impl From<bool> for Scalar {
    fn from(v: bool) -> Self {
        Scalar::Bool(v)
    }
}

/// c10 `overflows<To>(value)`: whether a Python number does not fit `dtype`. Negative integers
/// may wrap into unsigned types (PyTorch allows `a - b` on uint8 that way); infinities fit any
/// float type; NaN fits no integer type.
pub fn overflows(s: Scalar, dtype: DType) -> bool {
    let (lo, hi): (f64, f64) = match dtype {
        DType::Bool => return false,
        DType::U8 => (0.0, 255.0),
        DType::I8 => (-128.0, 127.0),
        DType::I32 => (-2147483648.0, 2147483647.0),
        DType::I64 => (-9.223_372_036_854_776e18, 9.223_372_036_854_776e18),
        DType::F16 => (-65504.0, 65504.0),
        DType::BF16 => (-3.3895313892515355e38, 3.3895313892515355e38),
        DType::F32 => (f32::MIN as f64, f32::MAX as f64),
        DType::F64 => return false,
    };
    match s {
        Scalar::Bool(_) => false,
        Scalar::Int(i) => {
            if dtype == DType::U8 && i < 0 {
                return i.unsigned_abs() > 255;
            }
            if dtype == DType::I64 || dtype.is_floating() && dtype != DType::F16 {
                return false;
            }
            (i as f64) < lo || (i as f64) > hi
        }
        Scalar::Float(f) => {
            if f.is_infinite() && dtype.is_floating() {
                return false;
            }
            if f.is_nan() {
                return !dtype.is_floating();
            }
            f < lo || f > hi
        }
    }
}

/// `Scalar::to<T>()` as `fill_`, `torch.full` and index assignment use it: an error on overflow.
pub fn checked_scalar(s: Scalar, dtype: DType) -> crate::core::Result<Scalar> {
    if overflows(s, dtype) {
        return crate::core::error::runtime(format!(
            "value cannot be converted to type {} without overflow",
            dtype.accessor_name()
        ));
    }
    Ok(s)
}
