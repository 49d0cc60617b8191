//! Autocast (automatic mixed precision) inside the engine: the thread-local state
//! (`state`), PyTorch's per-device op lists (`policy`), the ops they name (`AmpOp`), and the
//! casts an op entry of `tensor::ops` applies to its inputs, next to its autograd recording, so
//! every path into the op (a method, a `torch` function, `nn.functional`, an `nn` module) is
//! cast alike and the language bindings know nothing of autocast.
//!
//! An autocast op entry does, before its body:
//! ```ignore
//! let (a, b) = autocast::cast2(AmpOp::Mm, a, b)?;     // casts per the op's policy
//! autocast::excluded(|| mm_body(&a, &b))              // ops it calls are not cast again
//! ```
//! (`opt_dtype` for ops with a `dtype=` argument.) Outside an autocast region each is one
//! thread-local flag read. Only floating-point tensors on the autocast device type are cast,
//! never float64 ones (ATen's `is_eligible`). As in ATen, where an autocast kernel redispatches
//! with the Autocast key excluded, the body of an autocast op and every backward formula run
//! `excluded`, as do the engine's composite ops whose PyTorch counterparts are single kernels
//! (`mean`, `diag`, pooling), so only the op the program called is cast.
pub mod op;
pub mod policy;
pub mod state;

pub use op::AmpOp;
pub use policy::{AmpDevice, Policy};
pub use state::excluded;

use crate::tensor::error::{runtime, Result};
use crate::tensor::{DType, Device, Tensor};

/// The device type whose autocast applies to an op on `inputs`: CUDA's when a CUDA input is
/// present and CUDA autocast is on (its dispatch key outranks the CPU one), else the CPU's.
fn active_device(inputs: &[&Tensor]) -> Option<AmpDevice> {
    let mut has_cpu = false;
    let mut has_cuda = false;
    for t in inputs {
        match t.device() {
            Device::Cpu => has_cpu = true,
            Device::Cuda(_) => has_cuda = true,
        }
    }
    if has_cuda && state::is_enabled(AmpDevice::Cuda) {
        Some(AmpDevice::Cuda)
    } else if has_cpu && state::is_enabled(AmpDevice::Cpu) {
        Some(AmpDevice::Cpu)
    } else {
        None
    }
}

/// ATen's `is_eligible`: floating point, on the autocast device type, and not float64.
fn is_eligible(t: &Tensor, dev: AmpDevice) -> bool {
    t.dtype().is_floating() && t.dtype() != DType::F64 && AmpDevice::of(t.device()) == dev
}

/// ATen's `cached_cast`: casts an eligible tensor; float32 leaf weights that require grad are
/// cast once per autocast region and reused (the weight cache).
fn cached_cast(to: DType, t: &Tensor, dev: AmpDevice) -> Result<Tensor> {
    if !is_eligible(t, dev) || t.dtype() == to {
        return Ok(t.clone());
    }
    let can_cache = to == state::dtype(dev)
        && t.dtype() == DType::F32
        && t.requires_grad()
        && t.is_leaf()
        && state::is_cache_enabled();
    if can_cache {
        if let Some(c) = state::cache_get(t) {
            return Ok(c);
        }
        let c = t.to_dtype(to)?;
        state::cache_put(t, &c);
        return Ok(c);
    }
    t.to_dtype(to)
}

/// ATen's `promote_type` for the `promote` policy: float32 wins over the lower dtype; float64
/// and ineligible inputs are ignored; mixing float16 and bfloat16 is an error.
fn promote_type(dev: AmpDevice, inputs: &[&Tensor]) -> Result<DType> {
    let lower = state::dtype(dev);
    let mut cur = lower;
    for t in inputs {
        if !t.dtype().is_floating() || AmpDevice::of(t.device()) != dev {
            continue;
        }
        let next = t.dtype();
        if next == DType::F64 {
            continue;
        }
        cur = if cur == DType::F32 || next == DType::F32 {
            DType::F32
        } else if cur == lower && next == lower {
            lower
        } else {
            return runtime("Unexpected floating ScalarType in at::autocast::prioritize");
        };
    }
    Ok(cur)
}

/// The inputs of `op` as autocast passes them on, or `None` when autocast leaves them alone
/// (no active region for their device, inside another autocast op, or no cast policy).
pub fn inputs(op: AmpOp, inputs: &[&Tensor]) -> Result<Option<Vec<Tensor>>> {
    if !state::applies() {
        return Ok(None);
    }
    let Some(dev) = active_device(inputs) else {
        return Ok(None);
    };
    let to = match policy::of(dev, op) {
        None | Some(Policy::Fp32SetOptDtype) => return Ok(None),
        Some(Policy::Banned(msg)) => return runtime(msg),
        Some(Policy::LowerPrecision) => state::dtype(dev),
        Some(Policy::Fp32) => DType::F32,
        Some(Policy::Promote) => promote_type(dev, inputs)?,
    };
    inputs
        .iter()
        .map(|t| cached_cast(to, t, dev))
        .collect::<Result<Vec<_>>>()
        .map(Some)
}

/// One input of `op`, cast per autocast.
pub fn cast1(op: AmpOp, a: &Tensor) -> Result<Tensor> {
    Ok(match inputs(op, &[a])? {
        Some(mut v) => v.remove(0),
        None => a.clone(),
    })
}

/// Two inputs of `op`, cast per autocast.
pub fn cast2(op: AmpOp, a: &Tensor, b: &Tensor) -> Result<(Tensor, Tensor)> {
    Ok(match inputs(op, &[a, b])? {
        Some(v) => {
            let mut it = v.into_iter();
            match (it.next(), it.next()) {
                (Some(x), Some(y)) => (x, y),
                _ => (a.clone(), b.clone()),
            }
        }
        None => (a.clone(), b.clone()),
    })
}

/// Inputs of `op` where some are optional (`bias=None`), cast per autocast.
pub fn cast_opts(op: AmpOp, ins: &[Option<&Tensor>]) -> Result<Vec<Option<Tensor>>> {
    let present: Vec<&Tensor> = ins.iter().flatten().copied().collect();
    let Some(cast) = inputs(op, &present)? else {
        return Ok(ins.iter().map(|t| t.cloned()).collect());
    };
    let mut it = cast.into_iter();
    Ok(ins.iter().map(|t| t.and_then(|_| it.next())).collect())
}

/// `cross_entropy`: ATen's CPU list casts `cross_entropy_loss` to float32; on CUDA it
/// decomposes into `log_softmax` (float32) and `nll_loss` (float32), which comes to the same.
pub fn cast_cross_entropy(ins: &[Option<&Tensor>]) -> Result<Vec<Option<Tensor>>> {
    let present: Vec<&Tensor> = ins.iter().flatten().copied().collect();
    if inputs(AmpOp::CrossEntropyLoss, &present)?.is_some() {
        return cast_opts(AmpOp::CrossEntropyLoss, ins);
    }
    cast_opts(AmpOp::NllLoss, ins)
}

/// A list of inputs (`cat`, `stack`), cast per autocast.
pub fn cast_list(op: AmpOp, ts: &[Tensor]) -> Result<Vec<Tensor>> {
    if !state::applies() {
        return Ok(ts.to_vec());
    }
    let refs: Vec<&Tensor> = ts.iter().collect();
    Ok(inputs(op, &refs)?.unwrap_or_else(|| ts.to_vec()))
}

/// For ops with a `dtype=` argument (`sum`, `softmax`, `log_softmax`, `prod`): the dtype to
/// run with. Autocast sets float32 when the caller gave none and the first input is eligible
/// (`fp32_set_opt_dtype`); otherwise `dtype` is returned as given.
pub fn opt_dtype(op: AmpOp, first: &Tensor, dtype: Option<DType>) -> Option<DType> {
    if dtype.is_some() || !state::applies() {
        return dtype;
    }
    let Some(dev) = active_device(&[first]) else {
        return dtype;
    };
    if policy::of(dev, op) == Some(Policy::Fp32SetOptDtype) && is_eligible(first, dev) {
        return Some(DType::F32);
    }
    dtype
}

/// A required input after `cast_opts` (present by construction: it was given as `Some`).
pub fn req(v: &Option<Tensor>) -> &Tensor {
    v.as_ref()
        .expect("cast_opts keeps every given input in its place")
}
