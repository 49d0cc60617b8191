//! Tensor hooks: `t.register_hook(fn)` calls `fn(grad)` when the gradient for `t` is computed
//! during backward, and uses what it returns (if not None) instead;
//! `t.register_post_accumulate_grad_hook(fn)` calls `fn(t)` once a leaf's `.grad` is written. The hooks live here, keyed
//! by the tensor (a leaf) or its `grad_fn` node (a non-leaf); the engine asks through
//! `crate::tensor::autograd::HookRunner` only when some hook exists. `nn.Module`'s full backward hooks
//! are built on these in `src/nn/module.py`.
use super::convert::*;
use crate::lang::error::{runtime_error, type_error, PyErr, PyResult};
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use crate::tensor::autograd::{Grads, HookAt, Node};
use crate::tensor::{ErrorKind, Tensor, TensorError};
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

/// Where a hook is attached: a leaf tensor (by identity) or a non-leaf's node and which of
/// its outputs the tensor is.
enum Target {
    Leaf(usize),
    Node(Weak<Node>, usize),
}

struct Hook {
    id: u64,
    target: Target,
    f: Value,
    /// A post-accumulate-grad hook: the leaf's Python object, which `f` is called with.
    post: Option<Value>,
}

#[derive(Default)]
struct Registry {
    hooks: RefCell<Vec<Hook>>,
    next_id: Cell<u64>,
    /// A custom `autograd.Function` node was recorded: backward needs the runner.
    foreign: Cell<bool>,
}

/// A custom `autograd.Function` node exists: every later backward runs with the runner.
pub fn note_foreign(i: &mut Interp) {
    registry(i).foreign.set(true);
}

fn registry(i: &mut Interp) -> Rc<Registry> {
    if let Some(r) = i.ext.get("tensor_hooks").cloned() {
        if let Ok(r) = r.downcast::<Registry>() {
            return r;
        }
    }
    let r = Rc::new(Registry::default());
    i.ext.insert("tensor_hooks", r.clone());
    r
}

/// `t.register_hook(hook)`.
pub fn register_hook(i: &mut Interp, t: &Tensor, f: Value) -> PyResult<Value> {
    if !t.requires_grad() {
        return Err(runtime_error(
            "cannot register a hook on a tensor that doesn't require gradient",
        ));
    }
    let target = match t.grad_edge() {
        Some((n, nr)) => Target::Node(Rc::downgrade(&n), nr),
        None => Target::Leaf(t.object_id()),
    };
    Ok(add(i, target, f, None))
}

/// `t.register_post_accumulate_grad_hook(hook)`: `hook(t)` after each write of `t.grad`.
pub fn register_post_accumulate_grad_hook(
    i: &mut Interp,
    this: &Value,
    f: Value,
) -> PyResult<Value> {
    let t = super::methods::this(this)?;
    if !t.requires_grad() {
        return Err(runtime_error(
            "cannot register a hook on a tensor that doesn't require gradient",
        ));
    }
    if t.grad_fn().is_some() {
        return Err(runtime_error(
            "post accumulate grad hooks cannot be registered on non-leaf tensors",
        ));
    }
    Ok(add(i, Target::Leaf(t.object_id()), f, Some(this.clone())))
}

/// Registers a hook; its handle.
fn add(i: &mut Interp, target: Target, f: Value, post: Option<Value>) -> Value {
    let reg = registry(i);
    let id = reg.next_id.get();
    reg.next_id.set(id + 1);
    reg.hooks.borrow_mut().push(Hook {
        id,
        target,
        f,
        post,
    });
    Value::Native(NativeRc::new(HookHandle {
        id,
        registry: Rc::downgrade(&reg),
    }))
}

/// Which output of `node` the hook's tensor is, if it is one of them.
fn matches(target: &Target, node: &Node) -> Option<usize> {
    match target {
        Target::Leaf(id) => node
            .variable()
            .is_some_and(|t| t.object_id() == *id)
            .then_some(0),
        Target::Node(w, nr) => w
            .upgrade()
            .is_some_and(|n| std::ptr::eq(Rc::as_ptr(&n), node))
            .then_some(*nr),
    }
}

/// Runs `backward` (through `run`) with the registered hooks, if any; a Python exception
/// raised by a hook comes back as itself.
pub fn with_hooks<T>(
    i: &mut Interp,
    run: impl FnOnce(Option<crate::tensor::autograd::HookRunner>) -> crate::tensor::error::Result<T>,
) -> PyResult<T> {
    let reg = registry(i);
    if reg.hooks.borrow().is_empty() && !reg.foreign.get() {
        return run(None).py();
    }
    let mut raised: Option<PyErr> = None;
    let r = {
        let mut runner = |node: &Node, at: HookAt| -> crate::tensor::error::Result<Grads> {
            let r = match at {
                HookAt::Foreign(p, g) => super::custom_function::payload(&p)
                    .and_then(|f| super::custom_function::run_backward(i, f, g)),
                at => run_hooks(i, &reg, node, at),
            };
            r.map_err(|e| {
                raised = Some(e);
                TensorError::new(ErrorKind::Runtime, "hook raised")
            })
        };
        run(Some(&mut runner))
    };
    if let Some(e) = raised {
        return Err(e);
    }
    r.py()
}

/// The tensor hooks registered for `node`, run in the order they were registered, each on
/// the gradient of its own output when one came (`Before`), or on the leaf (`Accumulated`);
/// the gradients to use.
fn run_hooks(i: &mut Interp, reg: &Registry, node: &Node, at: HookAt) -> PyResult<Grads> {
    let post = matches!(at, HookAt::Accumulated);
    let fs: Vec<(usize, Value, Option<Value>)> = reg
        .hooks
        .borrow()
        .iter()
        .filter(|h| h.post.is_some() == post)
        .filter_map(|h| Some((matches(&h.target, node)?, h.f.clone(), h.post.clone())))
        .collect();
    let mut gs = match at {
        HookAt::Before(gs) => gs,
        _ => vec![],
    };
    for (nr, f, leaf) in fs {
        if let Some(leaf) = &leaf {
            i.call(&f, Args::of([leaf.clone()]))?;
            continue;
        }
        let Some(Some(g)) = gs.get(nr) else { continue };
        if let Some(new) = call_hook(i, &f, g)? {
            gs[nr] = Some(new);
        }
    }
    Ok(gs)
}

fn call_hook(i: &mut Interp, f: &Value, g: &Tensor) -> PyResult<Option<Tensor>> {
    let r = i.call(f, Args::of([wrap(g.clone())]))?;
    match r {
        Value::None => Ok(None),
        v => match as_tensor(&v) {
            Some(t) => Ok(Some(t.clone())),
            None => Err(type_error(format!(
                "expected a Tensor or None from a tensor hook, got {}",
                v.type_name()
            ))),
        },
    }
}

/// `torch.utils.hooks.RemovableHandle` of a tensor hook.
struct HookHandle {
    id: u64,
    registry: Weak<Registry>,
}

impl HookHandle {
    fn remove(&self) {
        if let Some(r) = self.registry.upgrade() {
            r.hooks.borrow_mut().retain(|h| h.id != self.id);
        }
    }
}

impl Native for HookHandle {
    fn type_name(&self) -> &str {
        "RemovableHandle"
    }
    fn module(&self) -> &str {
        "torch.utils.hooks"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn get_attr(&self, this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(match &*name.as_str() {
            "id" => Some(Value::Int(self.id as i64)),
            "remove" => Some(Value::Builtin(Rc::new(Builtin {
                name: "remove",
                f: |_, this, _| {
                    if let Value::Native(n) = this {
                        if let Some(h) = n.as_any().downcast_ref::<HookHandle>() {
                            h.remove();
                        }
                    }
                    Ok(Value::None)
                },
                this: Some(this.clone()),
            }))),
            _ => None,
        })
    }
    fn enter(&self, this: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(Some(this.clone()))
    }
    fn exit(&self, _this: &Value, _i: &mut Interp, _err: Option<&PyErr>) -> PyResult<bool> {
        self.remove();
        Ok(false)
    }
}
