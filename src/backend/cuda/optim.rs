//! Optimizer steps on device memory: `kernels/optim.cu`'s fused SGD and Adam/AdamW, so a
//! step on a card reads and writes the parameter, gradient and state where they are, with no
//! copy to the host. The hyperparameters are prepared here exactly as the CPU kernel
//! (`backend::cpu::optim`) prepares them, and the kernels repeat its arithmetic op for op, so
//! both devices give the same bits.
//!
//! Called by `tensor::ops::optim`; a step the kernels cannot take (a driver without kernels,
//! float16 parameters, a strided parameter or state, aliased tensors) returns `false` and is
//! staged there. A strided gradient is copied to a row-major one on the card first.
use super::backend::CUDA;
use super::driver::Driver;
use super::host_route::{driver, gpu_err};
use super::launch::{grid, Kernels};
use crate::backend::cpu::optim::{Adam, AdamConsts, Fl, Sgd};
use crate::backend::{Backend, Owned, View};
use crate::core::error::Result;
use crate::core::{DType, Device};
use std::sync::Arc;

/// `struct SgdArgs` of `kernels/optim.cu`: the doubles the CPU kernel rounds with `T::of`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgdArgs {
    pub neg_lr: f64,
    pub weight_decay: f64,
    pub momentum: f64,
    pub one_minus_dampening: f64,
    pub maximize: i32,
    pub nesterov: i32,
    pub decay: i32,
    pub fresh: i32,
}

impl SgdArgs {
    pub fn new(h: &Sgd, fresh: bool) -> SgdArgs {
        SgdArgs {
            neg_lr: -h.lr,
            weight_decay: h.weight_decay,
            momentum: h.momentum,
            one_minus_dampening: 1.0 - h.dampening,
            maximize: h.maximize as i32,
            nesterov: h.nesterov as i32,
            decay: (h.weight_decay != 0.0) as i32,
            fresh: fresh as i32,
        }
    }
}

/// `struct AdamArgs` of `kernels/optim.cu`: the CPU kernel's `AdamConsts` in the parameter's
/// type `T`, widened to double (exactly: the kernel narrows them back to the same values).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamArgs {
    pub w: f64,
    pub b2: f64,
    pub one_minus_b2: f64,
    pub neg_step_size: f64,
    pub bc2_sqrt: f64,
    pub eps: f64,
    pub decay: f64,
    pub small: i32,
    pub maximize: i32,
    pub has_decay: i32,
    pub decoupled: i32,
}

impl AdamArgs {
    pub fn new<T: Fl + Into<f64>>(h: &Adam) -> AdamArgs {
        let c = AdamConsts::<T>::new(h);
        AdamArgs {
            w: c.w.into(),
            b2: c.b2.into(),
            one_minus_b2: c.one_minus_b2.into(),
            neg_step_size: c.neg_step_size.into(),
            bc2_sqrt: c.bc2_sqrt.into(),
            eps: c.eps.into(),
            decay: c.decay.into(),
            small: c.small as i32,
            maximize: h.maximize as i32,
            has_decay: (h.weight_decay != 0.0) as i32,
            decoupled: h.decoupled as i32,
        }
    }
}

/// The driver of the tensors' card when the fused kernels can update them in place: all on
/// one CUDA device, in device memory, float32 or float64 alike, no two sharing a storage (each
/// thread then owns its element of every operand), and the card has kernels. All but the
/// gradient (`ts[1]`, only read) must be contiguous: `dense_grad` copies a strided one on the
/// card (a `Linear` weight's gradient is a transposed view).
fn fused_ok(ts: &[View]) -> Option<Arc<dyn Driver>> {
    let p = &ts[0];
    let (device, dt) = (p.device(), p.dtype());
    if !matches!(device, Device::Cuda(_)) || !matches!(dt, DType::F32 | DType::F64) {
        return None;
    }
    let each = ts.iter().enumerate().all(|(i, t)| {
        t.device() == device
            && t.dtype() == dt
            && (i == 1 || t.is_contiguous())
            && t.numel() == p.numel()
            && t.storage().is_device_resident()
    });
    let apart = (0..ts.len()).all(|i| (i + 1..ts.len()).all(|j| !ts[i].same_storage(&ts[j])));
    if !(each && apart) {
        return None;
    }
    let d = driver(device).ok()?;
    d.kernels()?;
    Some(d)
}

/// A row-major copy of a strided gradient, made on the card (`None`: it is read as it is).
fn dense_grad(g: View) -> Result<Option<Owned>> {
    if g.is_contiguous() {
        return Ok(None);
    }
    CUDA.contiguous_copy(g).map(Some)
}

/// The device address of `t`'s first element.
fn first(t: &View) -> u64 {
    t.storage().device_ptr() + (t.offset() * t.dtype().size()) as u64
}

/// The kernel's name for the parameter's dtype (`sgd_f32`).
fn name(family: &str, p: &View) -> String {
    let s = if p.dtype() == DType::F64 {
        "f64"
    } else {
        "f32"
    };
    format!("{family}_{s}")
}

/// Runs `launch` (given the kernels, the gradient's device address and the element count)
/// when the fused kernels can update `all` (parameter, gradient, then state) in place; `false`
/// when they cannot (nothing was touched).
fn fused_step(
    all: &[View],
    launch: impl FnOnce(&Kernels, u64, usize) -> std::result::Result<(), String>,
) -> Result<bool> {
    let Some(d) = fused_ok(all) else {
        return Ok(false);
    };
    let n = all[0].numel();
    if n > 0 {
        let dense = dense_grad(all[1])?;
        let g = dense.as_ref().map_or(all[1], Owned::view);
        let kernels = d.kernels().expect("checked by fused_ok");
        launch(kernels, first(&g), n).map_err(gpu_err)?;
    }
    Ok(true)
}

/// One SGD step on the card, as `backend::cpu::optim::sgd`; `false` when the fused kernel
/// cannot take it (nothing was touched).
pub fn sgd(p: View, g: View, buf: Option<View>, fresh: bool, h: &Sgd) -> Result<bool> {
    let mut all = vec![p, g];
    all.extend(buf);
    fused_step(&all, |k, g, n| {
        let ptrs = (first(&p), g, buf.as_ref().map_or(0, first));
        k.sgd(
            &name("sgd", &p),
            grid(n),
            n as i64,
            ptrs,
            &SgdArgs::new(h, fresh),
        )
    })
}

/// One Adam/AdamW step on the card, as `backend::cpu::optim::adam`; `false` when the fused
/// kernel cannot take it (nothing was touched).
pub fn adam(p: View, g: View, m: View, v: View, vmax: Option<View>, h: &Adam) -> Result<bool> {
    let mut all = vec![p, g, m, v];
    all.extend(vmax);
    fused_step(&all, |k, g, n| {
        let args = match p.dtype() {
            DType::F64 => AdamArgs::new::<f64>(h),
            _ => AdamArgs::new::<f32>(h),
        };
        let ptrs = (
            first(&p),
            g,
            first(&m),
            first(&v),
            vmax.as_ref().map_or(0, first),
        );
        k.adam(&name("adam", &p), grid(n), n as i64, ptrs, &args)
    })
}

/// GradScaler's unscale on the card (`kernels/optim.cu`'s `unscale`): every gradient is
/// multiplied by `inv_scale` in place, and one flag on the card collects whether any element
/// was inf or NaN, read back once for all of them (PyTorch's one `found_inf.item()` a step).
/// A gradient needs only be dense (a `Linear` weight's is a transposed view): every element is
/// treated alike, so its span of memory is one flat run. `None` when the kernels cannot take
/// them all (not float32/float64 dense device memory of one card with kernels); nothing was
/// touched then.
pub fn unscale(grads: &[View], inv_scale: f32) -> Result<Option<bool>> {
    let Some(device) = grads.first().map(View::device) else {
        return Ok(None);
    };
    let ok = grads.iter().all(|g| {
        g.device() == device
            && matches!(g.dtype(), DType::F32 | DType::F64)
            && crate::core::shape::is_dense(g.shape(), g.strides())
            && g.storage().is_device_resident()
    });
    let Some(d) = ok.then(|| driver(device).ok()).flatten() else {
        return Ok(None);
    };
    let Some(kernels) = d.kernels() else {
        return Ok(None);
    };
    let found = CUDA.zeros(DType::I32, 1, device)?;
    for g in grads.iter().filter(|g| g.numel() > 0) {
        let n = g.numel();
        let ptrs = (first(g), found.device_ptr());
        kernels
            .unscale(
                &name("unscale", g),
                grid(n),
                n as i64,
                ptrs,
                inv_scale as f64,
            )
            .map_err(gpu_err)?;
    }
    let mut flag = [0u8; 4];
    d.dtoh(found.device_ptr(), &mut flag).map_err(gpu_err)?;
    Ok(Some(i32::from_ne_bytes(flag) != 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The structs' layouts are the C ones the kernels read (doubles first, no padding).
    #[test]
    fn argument_structs_have_the_kernels_layout() {
        assert_eq!(std::mem::size_of::<SgdArgs>(), 4 * 8 + 4 * 4);
        assert_eq!(std::mem::size_of::<AdamArgs>(), 7 * 8 + 4 * 4);
        let src = include_str!("../../../kernels/optim.cu");
        for (name, fields) in [("SgdArgs", 8), ("AdamArgs", 11)] {
            let body = src
                .split(&format!("struct {name} {{"))
                .nth(1)
                .and_then(|s| s.split("};").next())
                .unwrap_or_else(|| panic!("struct {name} in optim.cu"));
            let n = body
                .lines()
                .filter(|l| {
                    l.trim_start().starts_with("double ") || l.trim_start().starts_with("int ")
                })
                .count();
            assert_eq!(n, fields, "{name}");
        }
    }

    /// Adam's constants reach the kernel as the parameter type's own values.
    #[test]
    fn adam_constants_are_rounded_to_the_parameter_type() {
        let h = Adam {
            lr: 1e-3,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 0.01,
            maximize: false,
            decoupled: true,
            step: 3.0,
        };
        let a = AdamArgs::new::<f32>(&h);
        for x in [
            a.w,
            a.b2,
            a.one_minus_b2,
            a.neg_step_size,
            a.bc2_sqrt,
            a.eps,
            a.decay,
        ] {
            assert_eq!(x, x as f32 as f64);
        }
        assert_eq!((a.small, a.has_decay, a.decoupled), (1, 1, 1));
        assert_eq!(a.decay, (1.0 - 1e-3 * 0.01) as f32 as f64);
    }
}
