//! Element types, named and ordered as PyTorch names them.
use std::cell::Cell;
use std::fmt;

thread_local! {
    static DEFAULT_DTYPE: Cell<DType> = const { Cell::new(DType::F32) };
}

/// `torch.get_default_dtype()`: what Python floats become (a Python float reaching the engine
/// as a `Scalar` infers it, so it lives with the dtypes rather than with promotion).
pub fn default_dtype() -> DType {
    DEFAULT_DTYPE.with(|d| d.get())
}

/// `torch.set_default_dtype(d)`; the caller has checked that `d` is floating.
pub fn set_default_dtype(d: DType) {
    DEFAULT_DTYPE.with(|c| c.set(d));
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    Bool,
    U8,
    I8,
    I32,
    I64,
    F16,
    BF16,
    F32,
    F64,
}

impl DType {
    pub const ALL: [DType; 9] = [
        DType::Bool,
        DType::U8,
        DType::I8,
        DType::I32,
        DType::I64,
        DType::F16,
        DType::BF16,
        DType::F32,
        DType::F64,
    ];

    /// The name after `torch.`, as `repr(dtype)` prints it: `torch.float32`.
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::U8 => "uint8",
            DType::I8 => "int8",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::F16 => "float16",
            DType::BF16 => "bfloat16",
            DType::F32 => "float32",
            DType::F64 => "float64",
        }
    }

    /// Bytes per element (`element_size()`).
    pub fn size(self) -> usize {
        match self {
            DType::Bool | DType::U8 | DType::I8 => 1,
            DType::F16 | DType::BF16 => 2,
            DType::I32 | DType::F32 => 4,
            DType::I64 | DType::F64 => 8,
        }
    }

    pub fn is_floating(self) -> bool {
        matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
    }

    pub fn is_integral(self) -> bool {
        !self.is_floating() && self != DType::Bool
    }
}

/// The c10 type names PyTorch uses in error messages: `Float`, `Long`, `Half`, ...
impl DType {
    pub fn c10_name(self) -> &'static str {
        match self {
            DType::Bool => "Bool",
            DType::U8 => "Byte",
            DType::I8 => "Char",
            DType::I32 => "Int",
            DType::I64 => "Long",
            DType::F16 => "Half",
            DType::BF16 => "BFloat16",
            DType::F32 => "Float",
            DType::F64 => "Double",
        }
    }

    /// The legacy tensor type name `x.type()` gives and some messages use:
    /// `torch.FloatTensor`, `torch.cuda.FloatTensor` on a GPU.
    pub fn tensor_type(self, device: crate::core::Device) -> String {
        let on = if device == crate::core::Device::Cpu {
            ""
        } else {
            "cuda."
        };
        format!("torch.{on}{}", self.tensor_type_name())
    }

    fn tensor_type_name(self) -> &'static str {
        match self {
            DType::Bool => "BoolTensor",
            DType::U8 => "ByteTensor",
            DType::I8 => "CharTensor",
            DType::I32 => "IntTensor",
            DType::I64 => "LongTensor",
            DType::F16 => "HalfTensor",
            DType::BF16 => "BFloat16Tensor",
            DType::F32 => "FloatTensor",
            DType::F64 => "DoubleTensor",
        }
    }

    /// The C type name some messages use (`expected m1 and m2 to have the same dtype, but got:
    /// float != double`).
    pub fn cpp_name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::U8 => "unsigned char",
            DType::I8 => "signed char",
            DType::I32 => "int",
            DType::I64 => "long int",
            DType::F16 => "c10::Half",
            DType::BF16 => "c10::BFloat16",
            DType::F32 => "float",
            DType::F64 => "double",
        }
    }

    /// The C++ type name `Scalar::to<T>` reports on overflow (`fill_`, `torch.full`).
    pub fn accessor_name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::U8 => "uint8_t",
            DType::I8 => "int8_t",
            DType::I32 => "int",
            DType::I64 => "int64_t",
            DType::F16 => "c10::Half",
            DType::BF16 => "c10::BFloat16",
            DType::F32 => "float",
            DType::F64 => "double",
        }
    }

    /// The legacy tensor type name (`torch.FloatTensor`) used by a few messages.
    pub fn legacy_tensor_name(self) -> &'static str {
        match self {
            DType::Bool => "torch.BoolTensor",
            DType::U8 => "torch.ByteTensor",
            DType::I8 => "torch.CharTensor",
            DType::I32 => "torch.IntTensor",
            DType::I64 => "torch.LongTensor",
            DType::F16 => "torch.HalfTensor",
            DType::BF16 => "torch.BFloat16Tensor",
            DType::F32 => "torch.FloatTensor",
            DType::F64 => "torch.DoubleTensor",
        }
    }

    /// Parse `float32`, `float`, `half`, `long`, ... (the names after `torch.`).
    pub fn from_name(name: &str) -> Option<DType> {
        Some(match name {
            "bool" => DType::Bool,
            "uint8" => DType::U8,
            "int8" => DType::I8,
            "int32" | "int" => DType::I32,
            "int64" | "long" => DType::I64,
            "float16" | "half" => DType::F16,
            "bfloat16" => DType::BF16,
            "float32" | "float" => DType::F32,
            "float64" | "double" => DType::F64,
            _ => return None,
        })
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "torch.{}", self.name())
    }
}
