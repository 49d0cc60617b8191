//! `torch.autograd.Function`: user-defined ops with their own backward. The class and its `ctx`
//! are Python (`src/nn/autograd_function.py`); `apply` runs `forward` without grad and then
//! calls `custom_apply` here, which records one `<Name>Backward` node whose backward is the
//! class's `backward(ctx, *grads)`. A `forward` returning a tuple makes a node with one output
//! per tensor in it (every one's `grad_fn`), whose backward runs once with a gradient per
//! element of the tuple. The engine cannot call Python, so the node is a `Kind::Foreign` one:
//! the engine hands its payload to the hook runner (`hooks.rs`), which calls `run_backward`.
use super::convert::*;
use crate::lang::error::{not_implemented_text, runtime_error, type_error, PyErr, PyResult};
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use crate::tensor::autograd::{intern_name, is_recording, record_foreign, Grads};
use crate::tensor::{DType, Device, Tensor};
use std::rc::Rc;

/// Shape, dtype and device of a tensor output: its gradient is materialised as zeros so.
struct OutputMeta {
    shape: Vec<i64>,
    dtype: DType,
    device: Device,
}

/// What a custom node keeps for its backward.
pub struct CustomFn {
    name: &'static str,
    ctx: Value,
    backward: Value,
    /// One entry per argument of `apply`: whether it was a tensor (an edge of the node).
    is_tensor: Vec<bool>,
    /// One entry per element of what `forward` returned (one when not a tuple): the node's
    /// output number of a tensor and its metadata, `None` for anything else.
    outputs: Vec<Option<(usize, OutputMeta)>>,
}

/// `custom_apply(name, ctx, backward, args, out)`: `out` (what `forward` returned: a tensor or
/// a tuple) with a `<name>` node over the tensor arguments when grad mode is on and one of
/// them requires grad; tensors in `ctx.mark_non_differentiable(...)` stay out of it.
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
    let (items, is_tuple): (Vec<Value>, bool) = match out {
        Value::Tuple(t) => (t.as_ref().clone(), true),
        v if as_tensor(v).is_some() => (vec![v.clone()], false),
        v => {
            return Err(not_implemented_text(format!(
                "cudalearn does not implement autograd.Function whose forward returns {} yet (a tensor or a tuple is supported)",
                v.type_name()
            ))
            .hint("return a tensor, or a tuple of tensors, from forward"))
        }
    };
    let non_diff: Vec<Tensor> = match i.get_attr(ctx, Sym::new("non_differentiable")) {
        Ok(Value::Tuple(ts)) => ts.iter().filter_map(as_tensor).cloned().collect(),
        _ => vec![],
    };
    // each tensor output is a fresh tensor: an input returned as is, or one with a history,
    // gets a new identity
    let mut results: Vec<Tensor> = Vec::new();
    let mut detached: Vec<bool> = Vec::new();
    let mut outputs = Vec::with_capacity(items.len());
    let mut values = Vec::with_capacity(items.len());
    for v in &items {
        let Some(t) = as_tensor(v) else {
            outputs.push(None);
            values.push(v.clone());
            continue;
        };
        detached.push(non_diff.iter().any(|n| n.ptr_eq(t)));
        let fresh = if t.requires_grad() || inputs.iter().any(|x| x.ptr_eq(t)) {
            t.detach()
        } else {
            t.clone()
        };
        let meta = OutputMeta {
            shape: fresh.shape().iter().map(|&d| d as i64).collect(),
            dtype: fresh.dtype(),
            device: fresh.device(),
        };
        outputs.push(Some((results.len(), meta)));
        values.push(wrap(fresh.clone()));
        results.push(fresh);
    }
    // a saved output would hold its own node (out → node → ctx → out): keep it detached
    let saved = Sym::new("saved_tensors");
    if let Ok(Value::Tuple(ts)) = i.get_attr(ctx, saved) {
        let ts: Vec<Value> = ts
            .iter()
            .map(|v| match as_tensor(v) {
                Some(t) if results.iter().any(|r| t.same_storage(r)) => wrap(t.detach()),
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
        outputs,
    };
    super::hooks::note_foreign(i);
    let outs: Vec<&Tensor> = results.iter().collect();
    record_foreign(payload.name, &inputs, &outs, &detached, Rc::new(payload));
    Ok(if is_tuple {
        Value::Tuple(Rc::new(values))
    } else {
        values.swap_remove(0)
    })
}

/// The gradient `backward` is given for each element of `forward`'s result: the one that
/// reached the node's output, else zeros shaped as the output (`None` when
/// `ctx.set_materialize_grads(False)`), and `None` for what was not a tensor.
fn grad_args(i: &mut Interp, f: &CustomFn, gs: Vec<Option<Tensor>>) -> PyResult<Vec<Value>> {
    let materialize = !matches!(
        i.get_attr(&f.ctx, Sym::new("materialize_grads")),
        Ok(Value::Bool(PyBool::False))
    );
    let mut args = vec![f.ctx.clone()];
    for o in &f.outputs {
        let Some((k, meta)) = o else {
            args.push(Value::None);
            continue;
        };
        args.push(match gs.get(*k).cloned().flatten() {
            Some(g) => wrap(g),
            None if materialize => wrap(
                crate::tensor::create::zeros(&meta.shape, Some(meta.dtype), meta.device).py()?,
            ),
            None => Value::None,
        });
    }
    Ok(args)
}

/// Runs a custom node's `backward(ctx, *grads)` with the gradients of its outputs: one
/// gradient per tensor argument, checked as PyTorch checks them.
pub fn run_backward(i: &mut Interp, f: &CustomFn, gs: Vec<Option<Tensor>>) -> PyResult<Grads> {
    let args = grad_args(i, f, gs)?;
    let r = i.call(&f.backward, Args::new(args.into()))?;
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
