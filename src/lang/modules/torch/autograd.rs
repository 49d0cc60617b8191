//! The Python face of autograd: `grad_fn` objects, the grad-mode context managers and
//! decorators (`torch.no_grad()`, `enable_grad`, `inference_mode`, `set_grad_enabled`), the
//! `torch.autograd` module, and the tensor attributes and methods of autograd.
use super::convert::*;
use crate::lang::builtins::kwarg;
use crate::lang::error::{runtime_error, type_error, PyErr, PyResult};
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use crate::tensor::autograd::{mode, Node};
use crate::tensor::Tensor;
use std::any::Any;
use std::cell::Cell;
use std::rc::Rc;

/// `y.grad_fn`: a node of the graph.
pub struct GradFn(pub Rc<Node>);

/// The Python object of a node. Each wrapper takes the node's identity, so
/// `a.grad_fn is b.grad_fn` holds for two outputs of one node, as in PyTorch.
pub fn grad_fn_value(n: Rc<Node>) -> Value {
    Value::Native(NativeRc::new(GradFn(n)))
}

fn node_of(v: &Value) -> Option<Rc<Node>> {
    match v {
        Value::Native(n) => n.as_any().downcast_ref::<GradFn>().map(|g| g.0.clone()),
        _ => None,
    }
}

/// A node PyTorch makes from a Python `autograd.Function` (a custom one, or the
/// BackwardHookFunction of a module's full backward hooks): its class lives in
/// `torch.autograd.function`.
fn python_node(n: &Node) -> bool {
    n.is_foreign() || n.name() == "BackwardHookFunctionBackward"
}

impl Native for GradFn {
    fn type_name(&self) -> &str {
        self.0.name()
    }
    fn module(&self) -> &str {
        if python_node(&self.0) {
            "torch.autograd.function"
        } else {
            "torch.autograd.graph"
        }
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn identity(&self) -> Option<usize> {
        Some(Rc::as_ptr(&self.0) as usize)
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        // a custom Function's node is a Python class, so its repr names the module
        let module = if python_node(&self.0) {
            "torch.autograd.function."
        } else {
            ""
        };
        Ok(format!(
            "<{module}{} object at {:#x}>",
            self.0.name(),
            Rc::as_ptr(&self.0) as usize
        ))
    }
    fn hash_key(&self) -> Option<u64> {
        Some(Rc::as_ptr(&self.0) as u64)
    }
    fn eq(&self, _this: &Value, other: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(Some(Value::bool(
            node_of(other).is_some_and(|o| Rc::ptr_eq(&o, &self.0)),
        )))
    }
    fn get_attr(&self, this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(Some(match &*name.as_str() {
            "name" => Value::Builtin(Rc::new(Builtin {
                name: "name",
                f: |_, this, _| {
                    let n = node_of(this).ok_or_else(|| type_error("name() needs a node"))?;
                    // C++-only nodes report their namespaced name
                    Ok(match n.name() {
                        "AccumulateGrad" | "CopySlices" => {
                            Value::str(&format!("torch::autograd::{}", n.name()))
                        }
                        other => Value::str(other),
                    })
                },
                this: Some(this.clone()),
            })),
            "next_functions" => Value::tuple(
                self.0
                    .next_functions()
                    .iter()
                    .map(|e| match e {
                        Some((n, nr)) => {
                            Value::tuple(vec![grad_fn_value(n.clone()), Value::Int(*nr as i64)])
                        }
                        None => Value::tuple(vec![Value::None, Value::Int(0)]),
                    })
                    .collect(),
            ),
            "variable" => match self.0.variable() {
                Some(t) => wrap(t.clone()),
                None => return Ok(None),
            },
            "metadata" => Value::Dict(Default::default()),
            _ => return Ok(None),
        }))
    }
    fn attr_names(&self) -> Vec<PyStr> {
        ["name", "next_functions", "metadata"]
            .iter()
            .map(|s| PyStr::from(*s))
            .collect()
    }
}

/// Which grad-mode switch a context manager flips.
#[derive(Clone, Copy, PartialEq)]
enum Switch {
    /// `no_grad()` / `enable_grad()` / `set_grad_enabled(b)`: grad mode on or off.
    Grad(bool),
    /// `inference_mode(mode=True)`.
    Inference(bool),
}

/// A grad-mode context manager (`with torch.no_grad():`), also usable as a decorator
/// (`@torch.no_grad()`).
struct GradMode {
    class: &'static str,
    switch: Switch,
    /// The state to restore on exit (a stack: the object may be re-entered).
    saved: std::cell::RefCell<Vec<(bool, bool)>>,
}

impl GradMode {
    fn new(class: &'static str, switch: Switch) -> GradMode {
        GradMode {
            class,
            switch,
            saved: Default::default(),
        }
    }
    fn enter_mode(&self) {
        let prev = (mode::is_enabled(), mode::is_inference());
        self.saved.borrow_mut().push(prev);
        match self.switch {
            Switch::Grad(b) => {
                mode::set_enabled(b);
            }
            Switch::Inference(b) => {
                if b {
                    mode::set_enabled(false);
                    mode::set_inference(true);
                } else {
                    mode::set_inference(false);
                }
            }
        }
    }
    fn exit_mode(&self) {
        if let Some((g, inf)) = self.saved.borrow_mut().pop() {
            mode::set_enabled(g);
            mode::set_inference(inf);
        }
    }
}

impl Native for GradMode {
    fn callable(&self) -> bool {
        true
    }
    fn type_name(&self) -> &str {
        self.class
    }
    fn module(&self) -> &str {
        "torch.autograd.grad_mode"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(format!(
            "<torch.autograd.grad_mode.{} object at {:#x}>",
            self.class, self as *const _ as usize
        ))
    }
    fn enter(&self, _this: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        self.enter_mode();
        Ok(Some(Value::None))
    }
    fn exit(&self, _this: &Value, _i: &mut Interp, _err: Option<&PyErr>) -> PyResult<bool> {
        self.exit_mode();
        Ok(false)
    }
    /// Used as a decorator: the function runs in this mode on every call.
    fn call(&self, this: &Value, a: Args, _i: &mut Interp) -> PyResult<Value> {
        let f = match a.pos.as_slice() {
            [f] if a.kw.is_empty() => f.clone(),
            _ => {
                return Err(type_error(format!(
                    "{}.__call__() takes 2 positional arguments but {} were given",
                    self.class,
                    a.pos.len() + 1
                )))
            }
        };
        Ok(Value::Native(NativeRc::new(Decorated {
            mode: this.clone(),
            f,
        })))
    }
}

/// A function wrapped by `@torch.no_grad()` and friends.
struct Decorated {
    mode: Value,
    f: Value,
}

impl Native for Decorated {
    fn callable(&self) -> bool {
        true
    }
    fn type_name(&self) -> &str {
        "function"
    }
    fn binds_as_method(&self) -> bool {
        true
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, i: &mut Interp) -> PyResult<String> {
        i.repr(&self.f)
    }
    fn get_attr(&self, _this: &Value, name: Sym, i: &mut Interp) -> PyResult<Option<Value>> {
        i.get_attr(&self.f, name).map(Some)
    }
    fn call(&self, _this: &Value, a: Args, i: &mut Interp) -> PyResult<Value> {
        let Value::Native(m) = &self.mode else {
            return i.call(&self.f, a);
        };
        let Some(gm) = m.as_any().downcast_ref::<GradMode>() else {
            return i.call(&self.f, a);
        };
        gm.enter_mode();
        let r = i.call(&self.f, a);
        gm.exit_mode();
        r
    }
}

/// The class objects `torch.no_grad`, `torch.enable_grad`, `torch.inference_mode`,
/// `torch.set_grad_enabled`: calling one makes the context manager.
struct ModeClass(&'static str);

impl Native for ModeClass {
    fn callable(&self) -> bool {
        true
    }
    fn type_name(&self) -> &str {
        "type"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(format!("<class 'torch.autograd.grad_mode.{}'>", self.0))
    }
    fn get_attr(&self, _this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(match &*name.as_str() {
            "__name__" => Some(Value::str(self.0)),
            _ => None,
        })
    }
    fn call(&self, _this: &Value, a: Args, i: &mut Interp) -> PyResult<Value> {
        let flag = |i: &mut Interp, name: &str, default: Option<bool>| -> PyResult<bool> {
            match a.pos.first().cloned().or_else(|| kwarg(&a, name)) {
                Some(v) => i.truthy(&v),
                None => default.ok_or_else(|| {
                    type_error(format!(
                        "{}.__init__() missing 1 required positional argument: '{name}'",
                        self.0
                    ))
                }),
            }
        };
        let switch = match self.0 {
            "no_grad" | "enable_grad" => {
                // `@torch.no_grad` without parentheses decorates directly
                if let Some(f) = a.pos.first() {
                    if matches!(f, Value::Func(_)) {
                        let m = Value::Native(NativeRc::new(GradMode::new(
                            self.0,
                            Switch::Grad(self.0 == "enable_grad"),
                        )));
                        return Ok(Value::Native(NativeRc::new(Decorated {
                            mode: m,
                            f: f.clone(),
                        })));
                    }
                    return Err(type_error(format!(
                        "{}.__init__() takes 1 positional argument but 2 were given",
                        self.0
                    )));
                }
                Switch::Grad(self.0 == "enable_grad")
            }
            "inference_mode" => Switch::Inference(flag(i, "mode", Some(true))?),
            _ => {
                // set_grad_enabled applies at once (it also works as a plain call)
                let b = flag(i, "mode", None)?;
                let m = GradMode::new("set_grad_enabled", Switch::Grad(b));
                m.enter_mode();
                // entering again under `with` must restore the state from before the call
                let prev = m.saved.borrow_mut().pop();
                let st = SetGradEnabled {
                    inner: m,
                    before: Cell::new(prev.unwrap_or((true, false))),
                };
                return Ok(Value::Native(NativeRc::new(st)));
            }
        };
        Ok(Value::Native(NativeRc::new(GradMode::new(self.0, switch))))
    }
}

/// `torch.set_grad_enabled(b)`: switches at once; as a context manager, restores on exit.
struct SetGradEnabled {
    inner: GradMode,
    before: Cell<(bool, bool)>,
}

impl Native for SetGradEnabled {
    fn callable(&self) -> bool {
        true
    }
    fn type_name(&self) -> &str {
        "set_grad_enabled"
    }
    fn module(&self) -> &str {
        "torch.autograd.grad_mode"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(format!(
            "<torch.autograd.grad_mode.set_grad_enabled object at {:#x}>",
            self as *const _ as usize
        ))
    }
    fn enter(&self, _this: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(Some(Value::None))
    }
    fn exit(&self, _this: &Value, _i: &mut Interp, _err: Option<&PyErr>) -> PyResult<bool> {
        let (g, inf) = self.before.get();
        mode::set_enabled(g);
        mode::set_inference(inf);
        Ok(false)
    }
    fn call(&self, _this: &Value, a: Args, i: &mut Interp) -> PyResult<Value> {
        let f = a.pos.first().cloned().ok_or_else(|| {
            type_error(
                "set_grad_enabled.__call__() missing 1 required positional argument: 'orig_func'",
            )
        })?;
        // as a decorator, the mode applies during calls only: undo the immediate switch
        let (g, inf) = self.before.get();
        mode::set_enabled(g);
        mode::set_inference(inf);
        let m = Value::Native(NativeRc::new(GradMode::new(
            "set_grad_enabled",
            self.inner.switch,
        )));
        let _ = i;
        Ok(Value::Native(NativeRc::new(Decorated { mode: m, f })))
    }
}

/// The `torch.*` names of this file: the grad-mode classes (the same objects as
/// `torch.autograd.no_grad`, ...) and `torch.autograd`.
pub fn torch_consts() -> Vec<(&'static str, Value)> {
    let m = module();
    let mut consts: Vec<(&'static str, Value)> = MODE_CLASSES
        .iter()
        .filter_map(|&n| match &m {
            Value::Module(md) => md.attrs.borrow().get(&Sym::new(n)).map(|v| (n, v.clone())),
            _ => None,
        })
        .collect();
    consts.push(("autograd", m));
    consts
}

const MODE_CLASSES: [&str; 4] = [
    "no_grad",
    "enable_grad",
    "inference_mode",
    "set_grad_enabled",
];

pub fn torch_fns() -> Vec<(&'static str, NativeFn)> {
    vec![
        ("is_grad_enabled", |_, _, _| {
            Ok(Value::bool(mode::is_enabled()))
        }),
        ("is_inference_mode_enabled", |_, _, _| {
            Ok(Value::bool(mode::is_inference()))
        }),
    ]
}

/// A tensor or a sequence of tensors (`outputs`, `inputs`, `grad_outputs`).
fn tensors_arg(i: &mut Interp, v: &Value, what: &str) -> PyResult<Vec<Option<Tensor>>> {
    if let Some(t) = as_tensor(v) {
        return Ok(vec![Some(t.clone())]);
    }
    let items = match v {
        Value::List(l) => l.borrow().clone(),
        Value::Tuple(t) => t.as_ref().clone(),
        Value::None => return Ok(vec![]),
        other => {
            let _ = i;
            return Err(type_error(format!(
                "{what} must be a Tensor or a sequence of Tensors, not {}",
                other.type_name()
            )));
        }
    };
    items
        .iter()
        .map(|x| match x {
            Value::None => Ok(None),
            x => as_tensor(x).cloned().map(Some).ok_or_else(|| {
                type_error(format!(
                    "{what} must contain Tensors, not {}",
                    x.type_name()
                ))
            }),
        })
        .collect()
}

fn opt_flag(i: &mut Interp, a: &Args, k: usize, name: &str) -> PyResult<Option<bool>> {
    match a.pos.get(k).cloned().or_else(|| kwarg(a, name)) {
        None | Some(Value::None) => Ok(None),
        Some(v) => i.truthy(&v).map(Some),
    }
}

/// `torch.autograd.grad(outputs, inputs, grad_outputs=None, retain_graph=None,
/// create_graph=False, allow_unused=False)`.
fn autograd_grad(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let outs = a.pos.first().cloned().or_else(|| kwarg(&a, "outputs"));
    let ins = a.pos.get(1).cloned().or_else(|| kwarg(&a, "inputs"));
    let (Some(outs), Some(ins)) = (outs, ins) else {
        return Err(type_error(
            "grad() missing 2 required positional arguments: 'outputs' and 'inputs'",
        ));
    };
    let outs: Vec<Tensor> = tensors_arg(i, &outs, "outputs")?
        .into_iter()
        .flatten()
        .collect();
    let ins: Vec<Tensor> = tensors_arg(i, &ins, "inputs")?
        .into_iter()
        .flatten()
        .collect();
    let gos = match a.pos.get(2).cloned().or_else(|| kwarg(&a, "grad_outputs")) {
        Some(v) => tensors_arg(i, &v, "grad_outputs")?,
        None => vec![],
    };
    let create = opt_flag(i, &a, 4, "create_graph")?.unwrap_or(false);
    let retain = opt_flag(i, &a, 3, "retain_graph")?.unwrap_or(create);
    let allow_unused = opt_flag(i, &a, 6, "allow_unused")?.unwrap_or(false);
    let r = super::hooks::with_hooks(i, |h| {
        crate::tensor::autograd::grad_hooked(&outs, &ins, &gos, (retain, allow_unused, create), h)
    })?;
    Ok(Value::tuple(
        r.into_iter()
            .map(|g| g.map(wrap).unwrap_or(Value::None))
            .collect(),
    ))
}

/// `t.backward(gradient=None, retain_graph=None, create_graph=False)` and
/// `torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None)`.
pub fn backward_call(
    i: &mut Interp,
    outs: Vec<Tensor>,
    grads: Vec<Option<Tensor>>,
    retain: Option<bool>,
    create: bool,
) -> PyResult<Value> {
    let retain = retain.unwrap_or(create);
    super::hooks::with_hooks(i, |h| {
        crate::tensor::autograd::backward_with(&outs, &grads, retain, create, h)
    })?;
    // DistributedDataParallel all-reduces its gradients once backward is done
    super::distributed::after_backward(i)?;
    Ok(Value::None)
}

fn autograd_backward(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let outs = a
        .pos
        .first()
        .cloned()
        .or_else(|| kwarg(&a, "tensors"))
        .ok_or_else(|| {
            type_error("backward() missing 1 required positional argument: 'tensors'")
        })?;
    let outs: Vec<Tensor> = tensors_arg(i, &outs, "tensors")?
        .into_iter()
        .flatten()
        .collect();
    let gs = match a.pos.get(1).cloned().or_else(|| kwarg(&a, "grad_tensors")) {
        Some(v) => tensors_arg(i, &v, "grad_tensors")?,
        None => vec![],
    };
    let retain = opt_flag(i, &a, 2, "retain_graph")?;
    let create = opt_flag(i, &a, 3, "create_graph")?.unwrap_or(false);
    backward_call(i, outs, gs, retain, create)
}

/// `torch.autograd`.
pub fn module() -> Value {
    crate::lang::modules::make_module(
        "torch.autograd",
        &[("grad", autograd_grad), ("backward", autograd_backward)],
        &MODE_CLASSES.map(|n| (n, Value::Native(NativeRc::new(ModeClass(n))))),
    )
}

/// `t.requires_grad = b` / `t.requires_grad_(b)` with PyTorch's rules.
pub fn set_requires_grad(t: &Tensor, b: bool, method: bool) -> PyResult<()> {
    if !t.is_leaf() && b && method {
        return Ok(());
    }
    if !t.is_leaf() {
        let msg = if b || method {
            "you can only change requires_grad flags of leaf variables."
        } else {
            "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
        };
        return Err(runtime_error(msg).hint(
            "this tensor was computed from others (it has a grad_fn); use .detach() for a copy outside the graph",
        ));
    }
    if b && !(t.dtype().is_floating()) {
        return Err(runtime_error(if method {
            "only Tensors of floating point dtype can require gradients"
        } else {
            "only Tensors of floating point and complex dtype can require gradients"
        })
        .hint("gradients need real numbers: convert first, e.g. x = x.float().requires_grad_()"));
    }
    t.set_requires_grad(b);
    Ok(())
}

/// The autograd attributes of a tensor (`grad`, `grad_fn`, `is_leaf`, `_version`).
pub fn tensor_attr(t: &Tensor, name: &str) -> Option<Value> {
    Some(match name {
        "grad" => {
            if !t.is_leaf() && !t.retains_grad() {
                // PyTorch warns here (stderr) and returns None
            }
            t.grad().map(wrap).unwrap_or(Value::None)
        }
        "grad_fn" => t.grad_fn().map(grad_fn_value).unwrap_or(Value::None),
        "is_leaf" => Value::bool(t.is_leaf()),
        "requires_grad" => Value::bool(t.requires_grad()),
        "_version" => Value::Int(t.version() as i64),
        "retains_grad" => Value::bool(t.retains_grad()),
        _ => return None,
    })
}

/// `t.grad = v`.
pub fn set_grad_attr(t: &Tensor, v: &Value) -> PyResult<()> {
    match v {
        Value::None => {
            t.set_grad(None);
            Ok(())
        }
        other => {
            let g = as_tensor(other)
                .ok_or_else(|| {
                    type_error(format!(
                        "assigned grad expected to be a Tensor or None but got grad of type {}",
                        other.type_name()
                    ))
                })?
                .clone();
            if g.dtype() != t.dtype() {
                return Err(runtime_error(format!(
                    "attempting to assign a gradient with dtype '{}' to a tensor with grad_dtype '{}'. The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its gradient may break downstream systems that assume they match.",
                    g.dtype().cpp_name(),
                    t.dtype().c10_name()
                )));
            }
            if g.shape() != t.shape() {
                return Err(runtime_error(format!(
                    "attempting to assign a gradient of size '{}' to a tensor of size '{}'. Please ensure that the gradient and the tensor are the same size",
                    crate::tensor::shape::fmt_list(g.shape()),
                    crate::tensor::shape::fmt_list(t.shape())
                )));
            }
            t.set_grad(Some(g));
            Ok(())
        }
    }
}
