//! Automatic mixed precision above the engine: GradScaler's arithmetic (`scaler`), and the
//! autocast state and policies, which live in the engine (`tensor::autocast`, where each op
//! entry applies its casts) and are re-exported here for `torch.autocast`'s bindings.
//!
//! The functions below look an op up by its ATen name (`"mm"`), for listings and tests that
//! speak PyTorch's names; the engine itself uses the typed `AmpOp`. A name the engine has no
//! op for has no casts.
pub mod scaler;

pub use crate::tensor::autocast::{policy, state, AmpDevice, AmpOp, Policy};

use crate::tensor::autocast as ac;
use crate::tensor::error::Result;
use crate::tensor::{DType, Tensor};

/// The inputs of the op named `op` as autocast passes them on, or `None` when autocast leaves
/// them alone.
pub fn autocast_inputs(op: &str, inputs: &[&Tensor]) -> Result<Option<Vec<Tensor>>> {
    match AmpOp::from_name(op) {
        Some(o) => ac::inputs(o, inputs),
        None => Ok(None),
    }
}

/// One input of the op named `op`, cast per autocast.
pub fn cast1(op: &str, a: &Tensor) -> Result<Tensor> {
    match AmpOp::from_name(op) {
        Some(o) => ac::cast1(o, a),
        None => Ok(a.clone()),
    }
}

/// A list of inputs of the op named `op` (`cat`, `stack`), cast per autocast.
pub fn cast_list(op: &str, ts: &[Tensor]) -> Result<Vec<Tensor>> {
    match AmpOp::from_name(op) {
        Some(o) => ac::cast_list(o, ts),
        None => Ok(ts.to_vec()),
    }
}

/// The dtype the op named `op` runs with under autocast (`tensor::autocast::opt_dtype`).
pub fn opt_dtype(op: &str, first: &Tensor, dtype: Option<DType>) -> Option<DType> {
    match AmpOp::from_name(op) {
        Some(o) => ac::opt_dtype(o, first, dtype),
        None => dtype,
    }
}
