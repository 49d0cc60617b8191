//! Tensor operations, one file per family. Each op checks devices first (PyTorch's texts), then
//! works out the result dtype and shape, then calls the backend of the operands' device.
pub mod addmm;
pub mod binary;
pub mod compare;
pub mod extra;
pub mod inplace;
pub mod join;
pub mod matmul;
pub mod nn;
pub mod optim;
pub mod reduce;
pub mod shape_ops;
pub mod unary;

use super::error::{runtime, Result};
use super::promote::Operand;
use super::{Device, Tensor};

/// The device of an elementwise op's result. All tensors must share a device, except that 0-dim
/// CPU tensors may join a GPU op as scalars (TensorIterator's `allow_cpu_scalars`).
pub fn common_device(ts: &[&Tensor]) -> Result<Device> {
    let mut common = Device::Cpu;
    for t in ts {
        if common == Device::Cpu && t.device() != Device::Cpu {
            common = t.device();
        }
    }
    for t in ts {
        let d = t.device();
        if d == common || (d == Device::Cpu && t.ndim() == 0) {
            continue;
        }
        return Err(device_mismatch(common, d));
    }
    Ok(common)
}

/// All tensors on one device, no CPU-scalar exception (matmul, cat, indexing).
pub fn same_device(ts: &[&Tensor]) -> Result<Device> {
    let Some(first) = ts.first() else {
        return Ok(Device::Cpu);
    };
    let mut common = first.device();
    for t in ts {
        if common == Device::Cpu && t.device() != Device::Cpu {
            common = t.device();
        }
    }
    for t in ts {
        if t.device() != common {
            return Err(device_mismatch(common, t.device()));
        }
    }
    Ok(common)
}

pub fn device_mismatch(a: Device, b: Device) -> super::TensorError {
    let msg = format!("Expected all tensors to be on the same device, but found at least two devices, {a} and {b}!");
    let hint = match (a, b) {
        (Device::Cuda(_), Device::Cpu) | (Device::Cpu, Device::Cuda(_)) => format!(
            "one tensor is on {a} and another on {b}. Move one of them first, e.g. y = y.to(x.device)"
        ),
        _ => format!("tensors on {a} and {b} cannot be combined; move one with .to(...)"),
    };
    super::TensorError::new(super::ErrorKind::Runtime, msg).with_hint(hint)
}

/// The device check of PyTorch's generated CUDA wrappers (`wrapper_CUDA_mm`, `wrapper_CUDA_addmm`,
/// ...; `c10::impl::check_and_update_common_device`): the first argument's device is the common
/// one, and the first argument on another device is named, with its schema name:
/// `addmm(self=bias, mat1=x, mat2=w.t())` with `x` on the CPU gives "Expected all tensors to be
/// on the same device, but got mat1 is on cpu, different from other tensors on cuda:0 (when
/// checking argument in method wrapper_CUDA_addmm)". Only called when the devices differ or may
/// (all-CPU calls pass).
pub fn wrapper_devices(args: &[(&str, &Tensor)], method: &str) -> Result<Device> {
    let Some((_, first)) = args.first() else {
        return Ok(Device::Cpu);
    };
    let common = first.device();
    for (name, t) in &args[1..] {
        let d = t.device();
        if d != common {
            let mut e = device_mismatch(common, d);
            e.msg = format!(
                "Expected all tensors to be on the same device, but got {name} is on {d}, different from other tensors on {common} (when checking argument in method wrapper_CUDA_{method})"
            );
            return Err(e);
        }
    }
    Ok(common)
}

/// How a tensor takes part in type promotion: 0-dim tensors count less than tensors with dims.
pub fn operand(t: &Tensor) -> Operand {
    if t.ndim() == 0 {
        Operand::ZeroDim(t.dtype())
    } else {
        Operand::Dim(t.dtype())
    }
}

/// More than one element of `t` at one address (an `expand`ed tensor): it cannot be written.
pub fn has_internal_overlap(t: &Tensor) -> bool {
    t.shape()
        .iter()
        .zip(t.strides())
        .any(|(&n, &s)| n > 1 && s == 0)
}

pub fn check_writable(t: &Tensor) -> Result<()> {
    if has_internal_overlap(t) {
        return runtime("unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.");
    }
    Ok(())
}

fn non_overlapping_and_dense(t: &Tensor) -> bool {
    super::shape::is_dense(t.shape(), t.strides())
}

/// ATen `assert_no_partial_overlap` between an output and an input: same memory is fine, a
/// shifted window onto it (`a[1:] += a[:-1]`) is refused as in PyTorch.
pub fn check_no_partial_overlap(out: &Tensor, input: &Tensor) -> Result<()> {
    if !out.same_storage(input) || out.numel() == 0 || input.numel() == 0 {
        return Ok(());
    }
    if !non_overlapping_and_dense(out) || !non_overlapping_and_dense(input) {
        return Ok(());
    }
    let (a0, a1) = (out.offset(), out.offset() + out.numel());
    let (b0, b1) = (input.offset(), input.offset() + input.numel());
    let partial = if a0 == b0 && a1 == b1 {
        out.strides() != input.strides()
    } else {
        a0 < b1 && b0 < a1
    };
    if partial {
        return runtime("unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.");
    }
    Ok(())
}
