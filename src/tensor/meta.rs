//! The autograd slot of a tensor. Autograd itself comes in a later issue; this holds what it will
//! need per tensor object so that the `Tensor` layout does not have to change then.
use super::Tensor;
use std::any::Any;
use std::rc::Rc;

#[derive(Default)]
pub struct AutogradMeta {
    /// `.grad`
    pub grad: Option<Tensor>,
    /// The node that produced this tensor (`grad_fn`), owned by the autograd module.
    pub grad_fn: Option<Rc<dyn Any>>,
    /// Whether `.grad` is kept for a non-leaf (`retain_grad()`).
    pub retains_grad: bool,
}
