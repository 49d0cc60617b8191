//! The engine's error type. `kind` says which Python exception the interpreter raises; `msg` is
//! PyTorch's own text (so `str(e)` reads as in PyTorch); `hint` is cudalearn's teaching line.
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Runtime,
    Index,
    Value,
    Type,
    NotImplemented,
    /// `torch.OutOfMemoryError` (the caching allocator's OOM).
    OutOfMemory,
    /// `torch.AcceleratorError` (a CUDA error such as an invalid device ordinal).
    Accelerator,
}

impl ErrorKind {
    /// The Python exception class the interpreter raises for this kind.
    pub fn python_name(self) -> &'static str {
        match self {
            ErrorKind::Runtime => "RuntimeError",
            ErrorKind::Index => "IndexError",
            ErrorKind::Value => "ValueError",
            ErrorKind::Type => "TypeError",
            ErrorKind::NotImplemented => "NotImplementedError",
            ErrorKind::OutOfMemory => "torch.OutOfMemoryError",
            ErrorKind::Accelerator => "torch.AcceleratorError",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TensorError {
    pub kind: ErrorKind,
    pub msg: String,
    /// A teaching hint shown after the traceback (`hint: ...`), when the engine has one.
    pub hint: Option<String>,
}

pub type Result<T> = std::result::Result<T, TensorError>;

impl TensorError {
    pub fn new(kind: ErrorKind, msg: impl Into<String>) -> Self {
        TensorError {
            kind,
            msg: msg.into(),
            hint: None,
        }
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

/// `Err(RuntimeError(msg))`, the most common failure.
pub fn runtime<T>(msg: impl Into<String>) -> Result<T> {
    Err(TensorError::new(ErrorKind::Runtime, msg))
}
pub fn index_err<T>(msg: impl Into<String>) -> Result<T> {
    Err(TensorError::new(ErrorKind::Index, msg))
}
pub fn value_err<T>(msg: impl Into<String>) -> Result<T> {
    Err(TensorError::new(ErrorKind::Value, msg))
}
pub fn type_err<T>(msg: impl Into<String>) -> Result<T> {
    Err(TensorError::new(ErrorKind::Type, msg))
}
pub fn not_impl<T>(msg: impl Into<String>) -> Result<T> {
    Err(TensorError::new(ErrorKind::NotImplemented, msg))
}

/// `"abs_cpu" not implemented for 'Bool'`: PyTorch's dispatch-macro failure text.
pub fn not_impl_for<T>(kernel: &str, dtype: crate::core::DType) -> Result<T> {
    not_impl(format!(
        "\"{kernel}\" not implemented for '{}'",
        dtype.c10_name()
    ))
}

/// `python_name: msg`, as the last line of a Python traceback shows it.
impl fmt::Display for TensorError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}: {}", self.kind.python_name(), self.msg)
    }
}

impl std::error::Error for TensorError {}
