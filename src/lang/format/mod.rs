//! CPython 3.11's text conversions for numbers and strings: `repr(float)`, the `format()`
//! mini-language, `%`-formatting, `str.format` parsing, `round`, `float(str)`, `int(str, base)`
//! and `repr(str)`.
//!
//! Each routine follows the CPython code it replaces (Python/formatter_unicode.c,
//! Python/pystrtod.c, Objects/stringlib/unicode_format.h, Objects/unicodeobject.c,
//! Objects/longobject.c, Objects/floatobject.c) step by step, so that output and error
//! messages are byte-identical. It depends on nothing else in the crate.
//!
//! Strings are measured in code points, as Python does, never in bytes.

/// Largest width or precision we are willing to materialise. CPython would try (and raise
/// MemoryError far beyond this); we refuse early instead of aborting the process.
const MAX_FIELD: usize = 1 << 26;

/// Message of the OverflowError CPython raises for `format(c, 'c')` / `'%c' % c` out of range.
pub const C_ARG_RANGE_MSG: &str = "%c arg not in range(0x110000)";

/// Message for an integer that Python would hold but cudalearn's 64-bit ints cannot.
pub const INT_OVERFLOW_MSG: &str = "int too large to convert to a 64-bit integer";

/// The Python exception a numeric conversion raises, with its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NumError {
    /// `ValueError(msg)`
    Value(String),
    /// `OverflowError(msg)`
    Overflow(String),
}

impl NumError {
    /// The exception's message, whichever kind it is.
    pub fn message(&self) -> &str {
        match self {
            NumError::Value(m) | NumError::Overflow(m) => m,
        }
    }
}

/// `int(str, base)` fails with ValueError (bad literal or base) or, when the literal is valid
/// but does not fit cudalearn's 64-bit ints, with the `Overflow` variant.
pub type IntParseError = NumError;

mod float_text;
mod format_string;
mod parse;
mod percent;
mod repr;
mod spec;
#[cfg(test)]
mod tests;

pub use float_text::*;
pub use format_string::*;
pub use parse::*;
pub use percent::*;
pub use repr::*;
pub use spec::*;
