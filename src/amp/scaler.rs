//! GradScaler's arithmetic, as ATen's CPU kernels do it (`AmpGradScalerKernels.cpp`):
//! the scale update rule and the unscale-and-check of gradients. The Python object that
//! drives them (per-optimizer state, `step`, `update`) is in `lang::modules::torch::amp`.
use crate::tensor::ops::inplace;
use crate::tensor::{BinaryOp, Result, Scalar, Tensor};

/// PyTorch's defaults: `GradScaler(init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
/// growth_interval=2000)`.
pub const INIT_SCALE: f64 = 65536.0;
pub const GROWTH_FACTOR: f64 = 2.0;
pub const BACKOFF_FACTOR: f64 = 0.5;
pub const GROWTH_INTERVAL: i64 = 2000;

/// The scale (a float32 tensor in PyTorch) and the count of clean steps since it last changed
/// (an int32 tensor).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScaleState {
    pub scale: f32,
    pub growth_tracker: i32,
}

impl ScaleState {
    pub fn new(init_scale: f64) -> ScaleState {
        ScaleState {
            scale: init_scale as f32,
            growth_tracker: 0,
        }
    }

    /// `torch._amp_update_scale_`: after a step with an inf/nan gradient the scale backs off and
    /// the tracker resets; after `growth_interval` clean steps in a row the scale grows (unless
    /// that would overflow float32) and the tracker resets.
    pub fn update(&mut self, found_inf: bool, growth: f64, backoff: f64, interval: i64) {
        if found_inf {
            self.scale = (self.scale as f64 * backoff) as f32;
            self.growth_tracker = 0;
        } else {
            let successful = self.growth_tracker as i64 + 1;
            if successful == interval {
                let grown = (self.scale as f64 * growth) as f32;
                if grown.is_finite() {
                    self.scale = grown;
                }
                self.growth_tracker = 0;
            } else {
                self.growth_tracker = successful as i32;
            }
        }
    }

    /// The factor gradients are multiplied by to unscale them: `scale.double().reciprocal().float()`.
    pub fn inv_scale(&self) -> f32 {
        (1.0 / self.scale as f64) as f32
    }
}

/// `torch._amp_foreach_non_finite_check_and_unscale_`: multiplies every gradient by `inv_scale`
/// in place and says whether any element was inf or nan. On a card one kernel per gradient
/// does both and the flag is read back once; elsewhere the values are checked on the host.
pub fn unscale_grads(grads: &[Tensor], inv_scale: f32) -> Result<bool> {
    if let Some(found) = crate::tensor::ops::optim::unscale_on_card(grads, inv_scale)? {
        return Ok(found);
    }
    let mut found_inf = false;
    for g in grads {
        if !found_inf && g.numel() > 0 {
            found_inf = g.contiguous_values_f64()?.iter().any(|v| !v.is_finite());
        }
        if inv_scale != 1.0 {
            inplace::binary_scalar_inplace(BinaryOp::Mul, g, Scalar::Float(inv_scale as f64))?;
        }
    }
    Ok(found_inf)
}
