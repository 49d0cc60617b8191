//! The Python subset: lexer → parser → resolver → tree-walking interpreter.
pub mod ast;
pub mod builtins;
pub mod dict_map;
pub mod error;
pub mod format;
pub mod help;
pub mod interp;
pub mod lexer;
pub mod methods;
pub mod modules;
pub mod native_rc;
pub mod parser;
pub mod pystr;
pub mod resolve;
pub mod symbol;
pub mod traceback;
pub mod value;

pub use error::{PyErr, PyResult, Source};
pub use interp::Interp;
