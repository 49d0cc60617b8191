//! Grad mode (`torch.no_grad`, `enable_grad`, `set_grad_enabled`) and inference mode.
use std::cell::Cell;

thread_local! {
    static ENABLED: Cell<bool> = const { Cell::new(true) };
    static INFERENCE: Cell<bool> = const { Cell::new(false) };
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
    /// Grad mode set to `on` until dropped (the engine runs formulas with it on for
    /// `create_graph=True`).
    pub fn with(on: bool) -> NoGrad {
        NoGrad(set_enabled(on))
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
