//! The engine's bottom layer: what every other layer shares and that needs nothing above it.
//! dtypes (`dtype.rs`) and how each is stored and computed in (`element.rs`: `Element`,
//! `Arith`; `half_bits.rs`: float16/bfloat16 conversions that vectorise), Python numbers
//! crossing into the engine (`scalar.rs`), typed host memory (`buffer.rs`), devices
//! (`device.rs`), shapes, strides and their rules (`shape.rs`), a view's `Layout` (`layout.rs`),
//! the op enums (`op.rs`), a 2-d op's window geometry (`window.rs`) and the engine error with PyTorch's message text (`error.rs`).
//!
//! Dependencies run one way: `lang` → `tensor` (with its autograd) → `backend` → `core`;
//! `core` refers to nothing else in the crate (`tests/layering.rs` checks it).
pub mod buffer;
pub mod device;
pub mod dtype;
pub mod element;
pub mod error;
pub mod half_bits;
pub mod layout;
pub mod op;
pub mod scalar;
pub mod shape;
pub mod window;

pub use buffer::Buffer;
pub use device::Device;
pub use dtype::DType;
pub use error::{ErrorKind, Result, TensorError};
pub use layout::Layout;
pub use op::{BinaryOp, ReduceOp, UnaryOp};
pub use scalar::Scalar;
pub use shape::Dims;
