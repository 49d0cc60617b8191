//! The autograd slot of a tensor: what `crate::tensor::autograd` keeps per tensor object.
use super::Tensor;
use crate::tensor::autograd::Node;
use std::rc::{Rc, Weak};

#[derive(Default)]
pub struct AutogradMeta {
    /// `.grad`
    pub grad: Option<Tensor>,
    /// The node that produced this tensor (`grad_fn`); `None` for a leaf.
    pub grad_fn: Option<Rc<Node>>,
    /// Which of `grad_fn`'s outputs this tensor is (PyTorch's `output_nr`; 0 but for the
    /// outputs of a multi-output node).
    pub output_nr: usize,
    /// A leaf's `AccumulateGrad` node, shared by every op that uses the leaf (weak: the graph
    /// owns it, so it dies with the graph).
    pub accumulator: Option<Weak<Node>>,
    /// Whether `.grad` is kept for a non-leaf (`retain_grad()`).
    pub retains_grad: bool,
    /// A view recorded in a graph (`y[0]`, `y.narrow(..)`): its base, and how to take the same
    /// view of a tensor shaped like the base, so an in-place op on the view rewrites the base's
    /// history (`crate::tensor::autograd::views`).
    pub view_of: Option<(Tensor, ViewFn)>,
}

/// Takes a view's window out of a tensor shaped like its base.
pub type ViewFn = Rc<dyn Fn(&Tensor) -> crate::tensor::Result<Tensor>>;
