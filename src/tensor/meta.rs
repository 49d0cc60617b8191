//! The autograd slot of a tensor: what `crate::autograd` keeps per tensor object.
use super::Tensor;
use crate::autograd::Node;
use std::rc::{Rc, Weak};

#[derive(Default)]
pub struct AutogradMeta {
    /// `.grad`
    pub grad: Option<Tensor>,
    /// The node that produced this tensor (`grad_fn`); `None` for a leaf.
    pub grad_fn: Option<Rc<Node>>,
    /// A leaf's `AccumulateGrad` node, shared by every op that uses the leaf (weak: the graph
    /// owns it, so it dies with the graph).
    pub accumulator: Option<Weak<Node>>,
    /// Whether `.grad` is kept for a non-leaf (`retain_grad()`).
    pub retains_grad: bool,
}
