//! The tensor engine (see DESIGN.md, "The engine").
pub mod device;
pub mod dtype;
pub mod print;
pub mod random;

pub use device::Device;
pub use dtype::DType;
