//! The per-parameter updates of `torch.optim` (SGD, Adam/AdamW), each one native call doing
//! PyTorch's `_single_tensor_sgd` / `_single_tensor_adam` op for op: the same order, the same
//! rounding to the parameter's dtype after every op, and FMA where PyTorch's vectorised CPU
//! kernels use `fmadd` (add with alpha, lerp), so trained weights match PyTorch's.
use super::convert::*;
use crate::lang::error::{type_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::value::*;
use crate::tensor::storage::Buffer;
use crate::tensor::{DType, Device, Tensor};

/// The float types updates run in (f16/bf16 parameters run in f32, rounded on write).
trait Fl: Copy + PartialOrd {
    fn of(x: f64) -> Self;
    fn get(self) -> f64;
    fn add(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn fma(self, b: Self, c: Self) -> Self;
    fn sqrt(self) -> Self;
    fn abs(self) -> Self;
}

macro_rules! fl {
    ($t:ty) => {
        impl Fl for $t {
            fn of(x: f64) -> Self {
                x as $t
            }
            fn get(self) -> f64 {
                self as f64
            }
            fn add(self, o: Self) -> Self {
                self + o
            }
            fn mul(self, o: Self) -> Self {
                self * o
            }
            fn div(self, o: Self) -> Self {
                self / o
            }
            fn sub(self, o: Self) -> Self {
                self - o
            }
            fn fma(self, b: Self, c: Self) -> Self {
                self.mul_add(b, c)
            }
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
        }
    };
}
fl!(f32);
fl!(f64);

fn read<T: Fl>(t: &Tensor) -> PyResult<Vec<T>> {
    Ok(t.contiguous_values_f64()
        .py()?
        .into_iter()
        .map(T::of)
        .collect())
}

/// Writes `vals` into `t` in place: straight into the storage for a contiguous CPU tensor of
/// the same type, else through an engine copy.
fn write<T: Fl>(t: &Tensor, vals: &[T]) -> PyResult<()> {
    if t.device() == Device::Cpu && t.is_contiguous() {
        // An in-place update, as PyTorch's optimizers make it: autograd sees a new version.
        t.bump_version();
        let off = t.offset();
        let mut b = t.storage().borrow_mut();
        match &mut *b {
            Buffer::F32(v) if std::mem::size_of::<T>() == 4 => {
                for (d, s) in v[off..off + vals.len()].iter_mut().zip(vals) {
                    *d = s.get() as f32;
                }
                return Ok(());
            }
            Buffer::F64(v) if std::mem::size_of::<T>() == 8 => {
                for (d, s) in v[off..off + vals.len()].iter_mut().zip(vals) {
                    *d = s.get();
                }
                return Ok(());
            }
            _ => {}
        }
    }
    let f: Vec<f64> = vals.iter().map(|x| x.get()).collect();
    let src = Tensor::from_f64s(&f, t.shape(), t.dtype())
        .py()?
        .to_device(t.device())
        .py()?;
    crate::autograd::mode::without(|| crate::tensor::ops::inplace::copy_(t, &src)).py()
}

fn tensor(v: &Value, what: &str) -> PyResult<Tensor> {
    as_tensor(v)
        .cloned()
        .ok_or_else(|| type_error(format!("{what} must be a Tensor, not {}", v.type_name())))
}

fn opt_tensor(v: &Value, what: &str) -> PyResult<Option<Tensor>> {
    match v {
        Value::None => Ok(None),
        v => tensor(v, what).map(Some),
    }
}

fn num(v: &Value, what: &str) -> PyResult<f64> {
    scalar_of(v)
        .map(|s| s.to_f64())
        .ok_or_else(|| type_error(format!("{what} must be a number, not {}", v.type_name())))
}

fn flag(v: &Value) -> bool {
    matches!(v, Value::Bool(true)) || matches!(v, Value::Int(i) if *i != 0)
}

fn check(p: &Tensor, others: &[&Tensor]) -> PyResult<()> {
    if !p.dtype().is_floating() {
        return Err(type_error(
            "optimizers update floating-point parameters only",
        ));
    }
    for o in others {
        if o.numel() != p.numel() {
            return Err(crate::lang::error::runtime_error(format!(
                "The size of tensor a ({}) must match the size of tensor b ({})",
                p.numel(),
                o.numel()
            )));
        }
    }
    Ok(())
}

/// `sgd_step(param, grad, buf, lr, momentum, dampening, weight_decay, nesterov, maximize)`:
/// updates `param` (and `buf`) in place; returns the momentum buffer (new on the first step).
fn sgd_step(_: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    if a.pos.len() != 9 {
        return Err(type_error("sgd_step expects 9 arguments"));
    }
    let p = tensor(&a.pos[0], "param")?;
    let g = tensor(&a.pos[1], "grad")?;
    let buf = opt_tensor(&a.pos[2], "momentum_buffer")?;
    let (lr, momentum, dampening, wd) = (
        num(&a.pos[3], "lr")?,
        num(&a.pos[4], "momentum")?,
        num(&a.pos[5], "dampening")?,
        num(&a.pos[6], "weight_decay")?,
    );
    let (nesterov, maximize) = (flag(&a.pos[7]), flag(&a.pos[8]));
    check(&p, &[&g])?;
    if let Some(b) = &buf {
        check(&p, &[b])?;
    }
    if p.dtype() == DType::F64 {
        sgd::<f64>(&p, &g, buf, lr, momentum, dampening, wd, nesterov, maximize)
    } else {
        sgd::<f32>(&p, &g, buf, lr, momentum, dampening, wd, nesterov, maximize)
    }
}

#[allow(clippy::too_many_arguments)]
fn sgd<T: Fl>(
    p: &Tensor,
    g: &Tensor,
    buf: Option<Tensor>,
    lr: f64,
    momentum: f64,
    dampening: f64,
    wd: f64,
    nesterov: bool,
    maximize: bool,
) -> PyResult<Value> {
    let mut pv: Vec<T> = read(p)?;
    let mut gv: Vec<T> = read(g)?;
    if maximize {
        gv.iter_mut().for_each(|x| *x = T::of(-x.get()));
    }
    if wd != 0.0 {
        // grad.add(param, alpha=weight_decay)
        let w = T::of(wd);
        gv.iter_mut().zip(&pv).for_each(|(x, &q)| *x = q.fma(w, *x));
    }
    let mut new_buf = Value::None;
    if momentum != 0.0 {
        let m = T::of(momentum);
        let bv: Vec<T> = match &buf {
            None => gv.clone(),
            Some(b) => {
                // buf.mul_(momentum).add_(grad, alpha=1 - dampening)
                let d = T::of(1.0 - dampening);
                let mut bv: Vec<T> = read(b)?;
                bv.iter_mut()
                    .zip(&gv)
                    .for_each(|(x, &q)| *x = q.fma(d, x.mul(m)));
                bv
            }
        };
        match buf {
            Some(b) => {
                write(&b, &bv)?;
                new_buf = wrap(b);
            }
            None => {
                let f: Vec<f64> = bv.iter().map(|x| x.get()).collect();
                let t = Tensor::from_f64s(&f, g.shape(), g.dtype())
                    .py()?
                    .to_device(g.device())
                    .py()?;
                new_buf = wrap(t);
            }
        }
        if nesterov {
            // grad.add(buf, alpha=momentum)
            gv.iter_mut().zip(&bv).for_each(|(x, &q)| *x = q.fma(m, *x));
        } else {
            gv = bv;
        }
    }
    // param.add_(grad, alpha=-lr)
    let nl = T::of(-lr);
    pv.iter_mut()
        .zip(&gv)
        .for_each(|(x, &q)| *x = q.fma(nl, *x));
    write(p, &pv)?;
    Ok(new_buf)
}

/// `adam_step(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, step, lr, beta1, beta2, eps,
/// weight_decay, amsgrad, maximize, decoupled)`: one `_single_tensor_adam` iteration,
/// in place; `step` is the state's 0-d step tensor, incremented here.
fn adam_step(_: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    if a.pos.len() != 14 {
        return Err(type_error("adam_step expects 14 arguments"));
    }
    let p = tensor(&a.pos[0], "param")?;
    let g = tensor(&a.pos[1], "grad")?;
    let m = tensor(&a.pos[2], "exp_avg")?;
    let v = tensor(&a.pos[3], "exp_avg_sq")?;
    let vmax = opt_tensor(&a.pos[4], "max_exp_avg_sq")?;
    let step_t = tensor(&a.pos[5], "step")?;
    let h = Hyper {
        lr: num(&a.pos[6], "lr")?,
        beta1: num(&a.pos[7], "beta1")?,
        beta2: num(&a.pos[8], "beta2")?,
        eps: num(&a.pos[9], "eps")?,
        wd: num(&a.pos[10], "weight_decay")?,
        amsgrad: flag(&a.pos[11]),
        maximize: flag(&a.pos[12]),
        decoupled: flag(&a.pos[13]),
    };
    check(&p, &[&g, &m, &v])?;
    if let Some(x) = &vmax {
        check(&p, &[x])?;
    }
    // step_t += 1 (a float32 tensor), then step = step_t.item()
    let step = f32::of(step_t.item().py()?.to_f64()).add(1.0);
    write::<f32>(&step_t, &[step])?;
    let step = step as f64;
    if p.dtype() == DType::F64 {
        adam::<f64>(&p, &g, &m, &v, vmax.as_ref(), step, &h)?;
    } else {
        adam::<f32>(&p, &g, &m, &v, vmax.as_ref(), step, &h)?;
    }
    Ok(Value::None)
}

struct Hyper {
    lr: f64,
    beta1: f64,
    beta2: f64,
    eps: f64,
    wd: f64,
    amsgrad: bool,
    maximize: bool,
    decoupled: bool,
}

fn adam<T: Fl>(
    p: &Tensor,
    g: &Tensor,
    m: &Tensor,
    v: &Tensor,
    vmax: Option<&Tensor>,
    step: f64,
    h: &Hyper,
) -> PyResult<()> {
    let mut pv: Vec<T> = read(p)?;
    let mut gv: Vec<T> = read(g)?;
    let mut mv: Vec<T> = read(m)?;
    let mut vv: Vec<T> = read(v)?;
    if h.maximize {
        gv.iter_mut().for_each(|x| *x = T::of(-x.get()));
    }
    if h.wd != 0.0 {
        if h.decoupled {
            // param.mul_(1 - lr * weight_decay)
            let f = T::of(1.0 - h.lr * h.wd);
            pv.iter_mut().for_each(|x| *x = x.mul(f));
        } else {
            // grad = grad.add(param, alpha=weight_decay)
            let w = T::of(h.wd);
            gv.iter_mut().zip(&pv).for_each(|(x, &q)| *x = q.fma(w, *x));
        }
    }
    // exp_avg.lerp_(grad, 1 - beta1): the vectorised lerp, fmadd(coeff, end - start, base)
    let w = T::of(1.0 - h.beta1);
    let small = w.abs().get() < 0.5;
    let coeff = if small { w } else { w.sub(T::of(1.0)) };
    mv.iter_mut().zip(&gv).for_each(|(x, &e)| {
        let base = if small { *x } else { e };
        *x = coeff.fma(e.sub(*x), base);
    });
    // exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    let b2 = T::of(h.beta2);
    let val = T::of(1.0 - h.beta2);
    vv.iter_mut()
        .zip(&gv)
        .for_each(|(x, &q)| *x = val.mul(q).fma(q, x.mul(b2)));
    let bias_correction1 = 1.0 - h.beta1.powf(step);
    let bias_correction2 = 1.0 - h.beta2.powf(step);
    let step_size = h.lr / bias_correction1;
    let bc2_sqrt = T::of(bias_correction2.powf(0.5));
    let eps = T::of(h.eps);
    let denom_src: Vec<T> = match vmax {
        Some(mx) => {
            let mut xv: Vec<T> = read(mx)?;
            xv.iter_mut()
                .zip(&vv)
                .for_each(|(x, &q)| *x = if q > *x || q.get().is_nan() { q } else { *x });
            write(mx, &xv)?;
            xv
        }
        None => vv.clone(),
    };
    // param.addcdiv_(exp_avg, denom, value=-step_size), denom = sqrt(v) / bc2_sqrt + eps
    let ns = T::of(-step_size);
    for ((x, &e), &d) in pv.iter_mut().zip(&mv).zip(&denom_src) {
        let denom = d.sqrt().div(bc2_sqrt).add(eps);
        *x = x.add(ns.mul(e).div(denom));
    }
    let _ = h.amsgrad;
    write(m, &mv)?;
    write(v, &vv)?;
    write(p, &pv)?;
    Ok(())
}

pub const FUNCTIONS: &[(&str, NativeFn)] = &[("sgd_step", sgd_step), ("adam_step", adam_step)];
