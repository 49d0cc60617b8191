//! `torch.autograd.Function`: user-defined ops with their own backward. The class and its `ctx`
//! are Python (`src/nn/autograd_function.py`); `apply` runs `forward` without grad and then
//! calls `custom_apply` here, which records one `<Name>Backward` node whose backward is the
//! class's `backward(ctx, grad)`. The engine cannot call Python, so the node is a
//! `Kind::Foreign` one: the engine hands its payload to the hook runner (`hooks.rs`), which
//! calls `run_backward`.
use super::convert::*;
use crate::lang::error::{not_implemented_text, runtime_error, type_error, PyErr, PyResult};
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use crate::tensor::autograd::{intern_name, is_recording, record_foreign, Grads};
use crate::tensor::Tensor;
use std::rc::Rc;

/// What a custom node keeps for its backward.
pub struct CustomFn {
    name: &'static str,
    ctx: Value,
    backward: Value,
    /// One entry per argument of `apply`: whether it was a tensor (an edge of the node).
    is_tensor: Vec<bool>,
}

/// `custom_apply(name, ctx, backward, args, out)`: `out` (what `forward` returned) with a
/// `<name>` node over the tensor arguments when grad mode is on and one of them requires grad.
pub fn custom_apply(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let [Value::Str(name), ctx, backward, Value::Tuple(args), out] = &a.pos[..] else {
        return Err(type_error(
            "custom_apply(name, ctx, backward, args, out): wrong arguments",
        ));
    };
    let inputs: Vec<&Tensor> = args.iter().filter_map(as_tensor).collect();
    if !is_recording(&inputs) {
        return Ok(out.clone());
    }
    let Some(result) = as_tensor(out) else {
        return Err(not_implemented_text(format!(
            "cudalearn does not implement autograd.Function whose forward returns {} yet (one tensor is supported)",
            out.type_name()
        ))
        .hint("return a single tensor from forward; call two Functions for two results"));
    };
    // a fresh tensor: an input returned as is, or one with a history, gets a new identity
    let result = if result.requires_grad() || inputs.iter().any(|t| t.ptr_eq(result)) {
        result.detach()
    } else {
        result.clone()
    };
    // a saved output would hold its own node (out → node → ctx → out): keep it detached
    let saved = Sym::new("saved_tensors");
    if let Ok(Value::Tuple(ts)) = i.get_attr(ctx, saved) {
        let ts: Vec<Value> = ts
            .iter()
            .map(|v| match as_tensor(v) {
                Some(t) if t.same_storage(&result) => wrap(t.detach()),
                _ => v.clone(),
            })
            .collect();
        i.set_attr(ctx, saved, Value::Tuple(Rc::new(ts)))?;
    }
    let payload = CustomFn {
        name: intern_name(&format!("{name}Backward")),
        ctx: ctx.clone(),
        backward: backward.clone(),
        is_tensor: args.iter().map(|v| as_tensor(v).is_some()).collect(),
    };
    super::hooks::note_foreign(i);
    record_foreign(payload.name, &inputs, &result, Rc::new(payload));
    Ok(wrap(result))
}

/// Runs a custom node's `backward(ctx, grad)`: one gradient per tensor argument, checked as
/// PyTorch checks them.
pub fn run_backward(i: &mut Interp, f: &CustomFn, g: Tensor) -> PyResult<Grads> {
    let r = i.call(&f.backward, Args::new(vec![f.ctx.clone(), wrap(g)]))?;
    let grads: Vec<Value> = match r {
        Value::Tuple(t) => t.as_ref().clone(),
        v => vec![v],
    };
    let n = f.is_tensor.len();
    if grads.len() < n || grads[n..].iter().any(|v| !matches!(v, Value::None)) {
        return Err(runtime_error(format!(
            "function {} returned an incorrect number of gradients (expected {n}, got {})",
            f.name,
            grads.len()
        )));
    }
    let mut out = Vec::new();
    for (k, (v, &is_tensor)) in grads.iter().zip(&f.is_tensor).enumerate() {
        match (v, is_tensor) {
            (Value::None, true) => out.push(None),
            (Value::None, false) => {}
            (v, true) => match as_tensor(v) {
                Some(t) => out.push(Some(t.clone())),
                None => {
                    return Err(type_error(format!(
                        "expected a Tensor or None as gradient {} of {}, got {}",
                        k + 1,
                        f.name,
                        v.type_name()
                    )))
                }
            },
            (_, false) => {
                return Err(runtime_error(format!(
                    "function {} returned a gradient different than None at position {}, but the corresponding forward input was not a Variable",
                    f.name,
                    k + 1
                )))
            }
        }
    }
    Ok(out)
}

/// The payload of a foreign node, if it is a custom Function's.
pub fn payload(p: &Rc<dyn std::any::Any>) -> Result<&CustomFn, PyErr> {
    p.downcast_ref::<CustomFn>()
        .ok_or_else(|| runtime_error("an autograd node of an unknown kind"))
}
