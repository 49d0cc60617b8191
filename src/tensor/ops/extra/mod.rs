//! Ops added for PyTorch's beginner surface (issue 17), built above the `Backend` trait: they
//! compose existing tensor ops (so they run on every device, with autograd), or take the host
//! route (`host.rs`: read to the CPU, compute, make the result on the operand's device) where
//! no composition fits (sorting, counting, scans). Each file is one family.
pub mod conv;
pub mod counting;
pub mod cumulative;
pub mod einsum;
pub mod gather;
pub mod host;
pub mod layout;
pub mod rounding;
pub mod select;
pub mod sort;
pub mod stats;
pub mod svd;
pub mod svd_basis;
pub mod svd_grad;
