//! Grad mode (`torch.no_grad`, `enable_grad`, `set_grad_enabled`) and inference mode.
use std::cell::{Cell, RefCell};

thread_local! {
    static ENABLED: Cell<bool> = const { Cell::new(true) };
    static INFERENCE: Cell<bool> = const { Cell::new(false) };
    static PENDING: RefCell<Option<crate::tensor::TensorError>> = const { RefCell::new(None) };
}

/// An error found while recording an op (recording itself cannot fail: it runs after the op, in
/// many places). The op's result is turned into this error where it is handed to Python
/// (`take_pending_error`), so the learner sees it at the line of the op, as in PyTorch.
pub fn set_pending_error(e: crate::tensor::TensorError) {
    PENDING.with(|p| *p.borrow_mut() = Some(e));
}

pub fn take_pending_error() -> Option<crate::tensor::TensorError> {
    PENDING.with(|p| p.borrow_mut().take())
}

/// `torch.is_grad_enabled()`.
pub fn is_enabled() -> bool {
    ENABLED.with(|c| c.get())
}

/// Sets grad mode; returns the previous value.
pub fn set_enabled(on: bool) -> bool {
    ENABLED.with(|c| c.replace(on))
}

/// `torch.is_inference_mode_enabled()`.
pub fn is_inference() -> bool {
    INFERENCE.with(|c| c.get())
}

/// Sets inference mode; returns the previous value.
pub fn set_inference(on: bool) -> bool {
    INFERENCE.with(|c| c.replace(on))
}

/// Grad mode off until dropped (restores the previous state).
pub struct NoGrad(bool);

impl NoGrad {
    pub fn new() -> NoGrad {
        NoGrad(set_enabled(false))
    }
}

impl Default for NoGrad {
    fn default() -> Self {
        NoGrad::new()
    }
}

impl Drop for NoGrad {
    fn drop(&mut self) {
        set_enabled(self.0);
    }
}

/// Runs `f` with grad mode off (composite ops that record one node for the whole op).
pub fn without<R>(f: impl FnOnce() -> R) -> R {
    let _g = NoGrad::new();
    f()
}
