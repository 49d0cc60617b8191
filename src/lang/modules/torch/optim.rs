//! `torch.optim`'s per-parameter updates (SGD, Adam/AdamW) as native calls from
//! `src/nn/optim.py`: arguments are read here, the update itself is the engine's
//! (`tensor::ops::optim`: on the parameter's own device, PyTorch's arithmetic op for op).
use super::convert::*;
use crate::lang::error::{type_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::value::*;
use crate::tensor::ops::optim::{self, Adam, Sgd};
use crate::tensor::Tensor;

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
    matches!(v, Value::Bool(PyBool::True)) || matches!(v, Value::Int(i) if *i != 0)
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
    let h = Sgd {
        lr,
        momentum,
        dampening,
        weight_decay: wd,
        nesterov,
        maximize,
    };
    let fresh = optim::sgd_(&p, &g, buf.as_ref(), &h).py()?;
    Ok(match (fresh, buf) {
        (Some(t), _) => wrap(t),
        (None, Some(b)) if momentum != 0.0 => wrap(b),
        _ => Value::None,
    })
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
    // step_t += 1 (a float32 tensor), then step = step_t.item()
    let step = (step_t.item().py()?.to_f64() as f32 + 1.0) as f64;
    crate::tensor::autograd::mode::without(|| {
        crate::tensor::ops::inplace::fill_(&step_t, crate::tensor::Scalar::Float(step))
    })
    .py()?;
    let h = Adam {
        lr: num(&a.pos[6], "lr")?,
        beta1: num(&a.pos[7], "beta1")?,
        beta2: num(&a.pos[8], "beta2")?,
        eps: num(&a.pos[9], "eps")?,
        weight_decay: num(&a.pos[10], "weight_decay")?,
        maximize: flag(&a.pos[12]),
        decoupled: flag(&a.pos[13]),
        step,
    };
    // amsgrad (a.pos[11]) is carried by max_exp_avg_sq being given
    optim::adam_(&p, &g, &m, &v, vmax.as_ref(), &h).py()?;
    Ok(Value::None)
}

pub const FUNCTIONS: &[(&str, NativeFn)] = &[("sgd_step", sgd_step), ("adam_step", adam_step)];
