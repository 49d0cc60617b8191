//! Autograd (see ARCHITECTURE.md): ops record a `Node` per result when grad mode is on and an input
//! requires grad (one flag check otherwise); `backward` walks the graph in PyTorch's order and
//! accumulates into leaves' `.grad`.
//!
//! - `mode`: grad mode and inference mode (thread-local), `NoGrad` guard, `without`
//! - `node`: `Node` (named as PyTorch names it), its edges and saved tensors, `record`
//! - `engine`: `backward`, `grad` (`torch.autograd.grad`)
//! - `ops`: helpers the backward formulas share (`sum_to`, zero grads)
//!
//! The formulas themselves live beside each op in `crate::tensor::ops`. Autograd is part of the
//! tensor layer, not a layer of its own: a node saves tensors and a tensor holds its `grad_fn`,
//! so the two refer to each other by nature (candle keeps backprop inside its tensor crate too).
pub mod engine;
pub mod mode;
pub mod node;
pub mod util;
pub mod views;

pub use engine::{backward, backward_with, grad, grad_hooked, grad_with, HookAt, HookRunner};
pub use mode::{is_enabled, is_inference, NoGrad};
pub use node::{
    intern_name, is_recording, is_recording1, record, record_foreign, record_multi, Ctx, Edge,
    Grads, Node,
};
