//! Optimizer steps as engine ops (`torch.optim.SGD`, `Adam`, `AdamW`): in place, on the
//! parameter's own device, outside autograd (as `torch.no_grad()` steps are), each bumping the
//! version counters of what it writes.
//!
//! Float32/float64 parameters and state, contiguous and unshared, are updated in one pass where
//! they live: host-backed storage (the CPU, the simulated GPU) by the fused kernels of
//! `backend::cpu::optim`, device memory on a card by `kernels/optim.cu`
//! (`backend::cuda::optim`), with the same arithmetic. Anything else (float16/bfloat16
//! parameters computed in float32, strided views, a card without kernels, the host-backed test
//! device) is staged through host vectors of the compute type and written back with `copy_`,
//! which is slower but gives the same numbers.
use crate::backend::cpu::optim::{self as kernel, Fl};
pub use crate::backend::cpu::optim::{Adam, Sgd};
use crate::tensor::error::{runtime, Result};
use crate::tensor::{create, DType, Tensor};

/// Checks what every step needs: float parameters, matching sizes, one device.
fn check(p: &Tensor, others: &[&Tensor]) -> Result<()> {
    if !p.dtype().is_floating() {
        return crate::tensor::error::type_err("optimizers update floating-point parameters only");
    }
    for o in others {
        if o.numel() != p.numel() {
            return runtime(format!(
                "The size of tensor a ({}) must match the size of tensor b ({})",
                p.numel(),
                o.numel()
            ));
        }
        if o.device() != p.device() {
            return runtime(format!(
                "Expected all tensors to be on the same device, but found at least two devices, {} and {}!",
                p.device(),
                o.device()
            ));
        }
    }
    Ok(())
}

/// Whether the fused kernel can work on the storages themselves.
fn in_place_ok(ts: &[&Tensor]) -> bool {
    let dt = ts[0].dtype();
    matches!(dt, DType::F32 | DType::F64)
        && ts
            .iter()
            .all(|t| t.dtype() == dt && t.is_contiguous() && !t.storage().is_device_resident())
        && (0..ts.len()).all(|i| (i + 1..ts.len()).all(|j| !ts[i].same_storage(ts[j])))
}

/// The typed slice of tensor `t` inside its (borrowed) buffer.
macro_rules! slice_of {
    ($buf:expr, $t:expr, $T:ty) => {{
        let (off, n) = ($t.offset(), $t.numel());
        match <$T as crate::tensor::storage::Element>::slice_mut(&mut *$buf) {
            Some(v) => &mut v[off..off + n],
            None => return runtime("cudalearn internal error: optimizer dtypes differ"),
        }
    }};
}

/// Row-major values of `t` in the compute type (the staged route).
fn read<T: Fl>(t: &Tensor) -> Result<Vec<T>> {
    Ok(t.contiguous_values_f64()?.into_iter().map(T::of).collect())
}

/// Writes `vals` (row-major) into `t` through an engine copy (the staged route).
fn write<T: Fl + Into<f64>>(t: &Tensor, vals: &[T]) -> Result<()> {
    let f: Vec<f64> = vals.iter().map(|&x| x.into()).collect();
    let src = Tensor::from_f64s(&f, t.shape(), t.dtype())?.to_device(t.device())?;
    crate::tensor::autograd::mode::without(|| super::inplace::copy_(t, &src))
}

/// GradScaler's unscale of `grads` on their card, in place (`backend::cuda::optim::unscale`):
/// whether any element was inf or NaN, or `None` when the card's kernel cannot take them (the
/// caller then unscales through engine ops).
pub fn unscale_on_card(grads: &[Tensor], inv_scale: f32) -> Result<Option<bool>> {
    let views: Vec<_> = grads.iter().map(Tensor::operand).collect();
    let found = crate::backend::cuda::optim::unscale(&views, inv_scale)?;
    if found.is_some() {
        grads.iter().for_each(Tensor::bump_version);
    }
    Ok(found)
}

/// One SGD step on `p` from `g`; `buf` is the momentum buffer, or `None` before the first
/// step with momentum, when a new one is made (and returned).
pub fn sgd_(p: &Tensor, g: &Tensor, buf: Option<&Tensor>, h: &Sgd) -> Result<Option<Tensor>> {
    check(p, &[g])?;
    if let Some(b) = buf {
        check(p, &[b])?;
    }
    let fresh = h.momentum != 0.0 && buf.is_none();
    let buf = match (h.momentum != 0.0, buf) {
        (false, _) => None,
        (true, Some(b)) => Some(b.clone()),
        (true, None) => Some(create::zeros_like(g, None)?),
    };
    if crate::backend::cuda::optim::sgd(
        p.operand(),
        g.operand(),
        buf.as_ref().map(Tensor::operand),
        fresh,
        h,
    )? {
        p.bump_version();
        if let Some(b) = &buf {
            b.bump_version();
        }
    } else if p.dtype() == DType::F64 {
        sgd_typed::<f64>(p, g, buf.as_ref(), fresh, h)?;
    } else {
        sgd_typed::<f32>(p, g, buf.as_ref(), fresh, h)?;
    }
    // the simulated GPU's clock: the kernels of `_single_tensor_sgd`, in streamed elements
    let mut k: Vec<(&'static str, f64)> = Vec::new();
    if h.maximize {
        k.push(("aten::neg", 2.0));
    }
    if h.weight_decay != 0.0 {
        k.push(("aten::add", 3.0));
    }
    if h.momentum != 0.0 {
        if fresh {
            k.push(("aten::clone", 2.0));
        } else {
            k.extend([("aten::mul_", 2.0), ("aten::add_", 3.0)]);
        }
        if h.nesterov {
            k.push(("aten::add", 3.0));
        }
    }
    k.push(("aten::add_", 3.0));
    charge(p, &k);
    Ok(if fresh { buf } else { None })
}

fn sgd_typed<T: Fl + Into<f64> + crate::tensor::storage::Element>(
    p: &Tensor,
    g: &Tensor,
    buf: Option<&Tensor>,
    fresh: bool,
    h: &Sgd,
) -> Result<()> {
    let mut all = vec![p, g];
    all.extend(buf);
    if in_place_ok(&all) {
        let gb = g.storage().borrow();
        let gs = match T::slice(&gb) {
            Some(v) => &v[g.offset()..g.offset() + g.numel()],
            None => return runtime("cudalearn internal error: optimizer dtypes differ"),
        };
        let mut pb = p.storage().borrow_mut();
        let ps = slice_of!(pb, p, T);
        match buf {
            Some(b) => {
                let mut bb = b.storage().borrow_mut();
                kernel::sgd(h, ps, gs, Some(slice_of!(bb, b, T)), fresh);
                b.bump_version();
            }
            None => kernel::sgd(h, ps, gs, None, fresh),
        }
        p.bump_version();
        return Ok(());
    }
    let mut pv: Vec<T> = read(p)?;
    let gv: Vec<T> = read(g)?;
    match buf {
        Some(b) => {
            let mut bv: Vec<T> = read(b)?;
            kernel::sgd(h, &mut pv, &gv, Some(&mut bv), fresh);
            write(b, &bv)?;
        }
        None => kernel::sgd(h, &mut pv, &gv, None, fresh),
    }
    write(p, &pv)
}

/// One Adam/AdamW step on `p` from `g` with the moment estimates `m`, `v` (and AMSGrad's
/// `vmax`), all updated in place.
pub fn adam_(
    p: &Tensor,
    g: &Tensor,
    m: &Tensor,
    v: &Tensor,
    vmax: Option<&Tensor>,
    h: &Adam,
) -> Result<()> {
    check(p, &[g, m, v])?;
    if let Some(x) = vmax {
        check(p, &[x])?;
    }
    if crate::backend::cuda::optim::adam(
        p.operand(),
        g.operand(),
        m.operand(),
        v.operand(),
        vmax.map(Tensor::operand),
        h,
    )? {
        for t in [p, m, v].into_iter().chain(vmax) {
            t.bump_version();
        }
    } else if p.dtype() == DType::F64 {
        adam_typed::<f64>(p, g, m, v, vmax, h)?;
    } else {
        adam_typed::<f32>(p, g, m, v, vmax, h)?;
    }
    // the simulated GPU's clock: the kernels of `_single_tensor_adam`, in streamed elements
    let mut k: Vec<(&'static str, f64)> = Vec::new();
    if h.maximize {
        k.push(("aten::neg", 2.0));
    }
    if h.weight_decay != 0.0 {
        k.push(if h.decoupled {
            ("aten::mul_", 2.0)
        } else {
            ("aten::add", 3.0)
        });
    }
    k.extend([
        ("aten::lerp_", 3.0),
        ("aten::mul_", 2.0),
        ("aten::addcmul_", 3.0),
    ]);
    if vmax.is_some() {
        k.push(("aten::maximum", 3.0));
    }
    k.extend([
        ("aten::sqrt", 2.0),
        ("aten::div", 2.0),
        ("aten::add_", 2.0),
        ("aten::addcdiv_", 4.0),
    ]);
    charge(p, &k);
    Ok(())
}

/// The simulated GPU's clock for a fused step standing in for PyTorch's per-op kernels, each
/// `(name, elements streamed per parameter element)`: one flop per element, bytes as streamed.
fn charge(p: &Tensor, kernels: &[(&'static str, f64)]) {
    let (n, size) = (p.numel() as f64, p.dtype().size() as f64);
    let work: Vec<(&'static str, f64, f64)> = kernels
        .iter()
        .map(|&(name, e)| (name, n, e * n * size))
        .collect();
    crate::backend::timed::sim_kernels(p.device(), p.dtype(), &work);
}

fn adam_typed<T: Fl + Into<f64> + crate::tensor::storage::Element>(
    p: &Tensor,
    g: &Tensor,
    m: &Tensor,
    v: &Tensor,
    vmax: Option<&Tensor>,
    h: &Adam,
) -> Result<()> {
    let mut all = vec![p, g, m, v];
    all.extend(vmax);
    if in_place_ok(&all) {
        let gb = g.storage().borrow();
        let gs = match T::slice(&gb) {
            Some(s) => &s[g.offset()..g.offset() + g.numel()],
            None => return runtime("cudalearn internal error: optimizer dtypes differ"),
        };
        let (mut pb, mut mb, mut vb) = (
            p.storage().borrow_mut(),
            m.storage().borrow_mut(),
            v.storage().borrow_mut(),
        );
        let (ps, ms, vs) = (
            slice_of!(pb, p, T),
            slice_of!(mb, m, T),
            slice_of!(vb, v, T),
        );
        match vmax {
            Some(x) => {
                let mut xb = x.storage().borrow_mut();
                kernel::adam(h, ps, gs, ms, vs, Some(slice_of!(xb, x, T)));
                x.bump_version();
            }
            None => kernel::adam(h, ps, gs, ms, vs, None),
        }
        for t in [p, m, v] {
            t.bump_version();
        }
        return Ok(());
    }
    let mut pv: Vec<T> = read(p)?;
    let gv: Vec<T> = read(g)?;
    let (mut mv, mut vv): (Vec<T>, Vec<T>) = (read(m)?, read(v)?);
    match vmax {
        Some(x) => {
            let mut xv: Vec<T> = read(x)?;
            kernel::adam(h, &mut pv, &gv, &mut mv, &mut vv, Some(&mut xv));
            write(x, &xv)?;
        }
        None => kernel::adam(h, &mut pv, &gv, &mut mv, &mut vv, None),
    }
    write(m, &mv)?;
    write(v, &vv)?;
    write(p, &pv)
}
