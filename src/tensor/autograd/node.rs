//! Graph nodes. A node is what `y.grad_fn` shows: PyTorch's class name (`AddBackward0`), its
//! `next_functions` (one edge per differentiable input: the input's own `grad_fn`, its leaf's
//! `AccumulateGrad`, or nothing when the input needs no grad), the tensors it saved for backward
//! (freed after backward unless `retain_graph=True`) and the backward formula.
use super::mode;
use crate::tensor::error::Result;
use crate::tensor::shape::{fmt_list, Dims};
use crate::tensor::{DType, Device, Tensor, WeakTensor};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// One gradient per input (`None`: no gradient flows there).
pub type Grads = Vec<Option<Tensor>>;
/// A backward formula: the gradient of the output → gradients of the inputs. It may read only
/// the saved tensors (through `Ctx`) and the plain values it captured.
pub type BackwardFn = Box<dyn Fn(&Tensor, &Ctx) -> Result<Grads>>;
/// The backward formula of a node with several outputs: one gradient per output (`None`
/// where none reached it; at least one is given) → gradients of the inputs.
pub type MultiBackwardFn = Box<dyn Fn(&[Option<Tensor>], &Ctx) -> Result<Grads>>;

/// An edge of the graph: a node and which of its outputs the gradient goes to (PyTorch's
/// `(grad_fn, output_nr)` pairs of `next_functions`).
pub type Edge = (Rc<Node>, usize);

/// How a node's formula takes its gradients.
pub(crate) enum Formula {
    /// One output: runs when its gradient is defined.
    One(BackwardFn),
    /// Several outputs: runs once with all of them, when any is defined.
    Many(MultiBackwardFn),
}

/// What a backward formula sees besides the incoming gradient.
pub struct Ctx {
    saved: Vec<Option<Tensor>>,
    needs: Vec<bool>,
}

impl Ctx {
    /// Saved tensor `i`, in the order given to `record`.
    pub fn saved(&self, i: usize) -> &Tensor {
        self.saved[i]
            .as_ref()
            .expect("a formula reads only the tensors its op saved")
    }
    /// Saved tensor `i` when the op saved one in that slot (optional operands).
    pub fn saved_opt(&self, i: usize) -> Option<&Tensor> {
        self.saved.get(i).and_then(|s| s.as_ref())
    }
    /// Whether input `i` wants a gradient (skip the work otherwise).
    pub fn needs(&self, i: usize) -> bool {
        self.needs.get(i).copied().unwrap_or(false)
    }
}

/// Shape, dtype and device of an input: the engine makes each gradient match them (summing
/// broadcast dims away and casting, like PyTorch's `validate_outputs`).
#[derive(Clone)]
pub struct InputMeta {
    pub shape: Dims,
    pub dtype: DType,
    pub device: Device,
}

impl InputMeta {
    fn of(t: &Tensor) -> InputMeta {
        InputMeta {
            shape: t.dims().clone(),
            dtype: t.dtype(),
            device: t.device(),
        }
    }
}

pub(crate) struct Saved {
    t: Tensor,
    version: u32,
    /// Which of the node's own outputs it is (else an input: its producer is looked up live).
    output: Option<usize>,
}

pub(crate) enum Kind {
    /// `AccumulateGrad`: adds the incoming gradient into the leaf's `.grad`.
    Accumulate(Tensor),
    Func {
        f: Formula,
        saved: RefCell<Vec<Option<Saved>>>,
        had_saved: bool,
        released: Cell<bool>,
    },
    /// A node whose backward runs above the engine (a Python `torch.autograd.Function`): the
    /// engine hands `payload` and the gradients of its outputs to the `HookRunner`, which
    /// returns one gradient per edge.
    Foreign(Rc<dyn std::any::Any>),
}

pub struct Node {
    name: Cell<&'static str>,
    pub(crate) seq: u64,
    pub(crate) next: Vec<Option<Edge>>,
    pub(crate) inputs: Vec<InputMeta>,
    /// How many outputs it has (tensors whose `grad_fn` it is, told apart by `output_nr`);
    /// the engine gathers a gradient per output before running it once.
    pub(crate) outputs: usize,
    pub(crate) kind: Kind,
    /// Non-leaf tensors made by this node that `retain_grad()`, with their output number.
    pub(crate) retained: RefCell<Vec<(usize, WeakTensor)>>,
}

thread_local! {
    static SEQ: Cell<u64> = const { Cell::new(0) };
}

fn next_seq() -> u64 {
    SEQ.with(|c| {
        let v = c.get();
        c.set(v + 1);
        v
    })
}

impl Node {
    /// PyTorch's class name (`type(y.grad_fn).__name__`, `y.grad_fn.name()`).
    pub fn name(&self) -> &'static str {
        self.name.get()
    }
    /// Renames a node recorded by a composite op whose last step PyTorch runs in C++ with a
    /// scalar operand (`MulBackward1`, `DivBackward1` where Python's `x * 2` gives `...0`).
    pub fn set_name(&self, name: &'static str) {
        self.name.set(name)
    }
    /// `next_functions`: one entry per input (the producing node and which of its outputs).
    pub fn next_functions(&self) -> &[Option<Edge>] {
        &self.next
    }
    /// How many outputs the node has.
    pub fn num_outputs(&self) -> usize {
        self.outputs
    }
    /// Whether its backward runs above the engine (a custom `autograd.Function`).
    pub fn is_foreign(&self) -> bool {
        matches!(self.kind, Kind::Foreign(_))
    }
    /// `AccumulateGrad.variable`.
    pub fn variable(&self) -> Option<&Tensor> {
        match &self.kind {
            Kind::Accumulate(t) => Some(t),
            Kind::Func { .. } | Kind::Foreign(_) => None,
        }
    }

    /// The saved tensors, checked: not freed by an earlier backward, not modified in place since.
    pub(crate) fn unpack(self: &Rc<Self>, needs: Vec<bool>) -> Result<Ctx> {
        let Kind::Func {
            saved,
            had_saved,
            released,
            ..
        } = &self.kind
        else {
            return Ok(Ctx {
                saved: vec![],
                needs,
            });
        };
        if *had_saved && released.get() {
            return Err(crate::tensor::TensorError::new(
                crate::tensor::ErrorKind::Runtime,
                "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.",
            )
            .with_hint("backward() frees what the graph saved; call loss.backward(retain_graph=True) the first time, or recompute the forward pass"));
        }
        let saved = saved.borrow();
        let mut out = Vec::with_capacity(saved.len());
        for s in saved.iter() {
            let Some(s) = s else {
                out.push(None);
                continue;
            };
            if s.t.version() != s.version {
                let what = format!(
                    "[{} {}]",
                    s.t.dtype().legacy_tensor_name(),
                    fmt_list(s.t.shape())
                );
                let producer = match s.output {
                    Some(k) => Some((self.name(), k)),
                    None => s.t.grad_edge().map(|(n, k)| (n.name(), k)),
                };
                let of = match producer {
                    Some((n, k)) => format!(", which is output {k} of {},", forward_name(n)),
                    None => String::new(),
                };
                return Err(crate::tensor::TensorError::new(
                    crate::tensor::ErrorKind::Runtime,
                    format!(
                        "one of the variables needed for gradient computation has been modified by an inplace operation: {what}{of} is at version {}; expected version {} instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).",
                        s.t.version(),
                        s.version
                    ),
                )
                .with_hint(format!(
                    "{} saved this tensor to compute gradients, and an in-place op (add_, +=, x[...] = ...) changed it before backward; use the out-of-place form (x = x + 1) or .clone() it first",
                    self.name()
                )));
            }
            if let (Some(k), true) = (s.output, mode::is_enabled()) {
                // create_graph: a saved output takes part in the gradient's own history
                let h = s.t.detach();
                h.set_requires_grad(true);
                h.set_grad_edge(Some((self.clone(), k)));
                out.push(Some(h));
            } else {
                out.push(Some(s.t.clone()));
            }
        }
        Ok(Ctx { saved: out, needs })
    }

    /// An in-place op computed its result `from` out of place and wrote it into `to`: a saved
    /// output now is `to` (so later writes to `to` are caught, as in PyTorch).
    pub(crate) fn rebind_output(&self, from: &Tensor, to: &Tensor) {
        if let Kind::Func { saved, .. } = &self.kind {
            for s in saved.borrow_mut().iter_mut().flatten() {
                if s.output.is_some() && s.t.same_storage(from) {
                    s.t = to.detach();
                    s.version = to.version();
                }
            }
        }
    }

    /// Frees the saved tensors (after a backward without `retain_graph`).
    pub(crate) fn release(&self) {
        if let Kind::Func {
            saved, released, ..
        } = &self.kind
        {
            saved.borrow_mut().clear();
            released.set(true);
        }
    }
}

/// The op a node belongs to, as the in-place error names it (`ExpBackward0` → `Exp`).
fn forward_name(node: &str) -> &str {
    match node.find("Backward") {
        Some(i) => &node[..i],
        None => node,
    }
}

/// Whether an op on these inputs must record a node: some input requires grad and grad mode
/// is on. The flag check comes first so ops on plain tensors pay one load.
#[inline]
pub fn is_recording(inputs: &[&Tensor]) -> bool {
    inputs.iter().any(|t| t.requires_grad()) && mode::is_enabled()
}

#[inline]
pub fn is_recording1(t: &Tensor) -> bool {
    t.requires_grad() && mode::is_enabled()
}

/// The leaf's `AccumulateGrad` node (one per leaf while a graph holds it).
pub(crate) fn accumulator(t: &Tensor) -> Rc<Node> {
    if let Some(n) = t.accumulator() {
        return n;
    }
    let n = Rc::new(Node {
        name: Cell::new("AccumulateGrad"),
        seq: u64::MAX,
        next: vec![],
        inputs: vec![InputMeta::of(t)],
        outputs: 1,
        kind: Kind::Accumulate(t.clone()),
        retained: RefCell::new(vec![]),
    });
    t.set_accumulator(&n);
    n
}

/// The edge an op's node keeps to input `t`.
pub(crate) fn edge(t: &Tensor) -> Option<Edge> {
    if !t.requires_grad() {
        return None;
    }
    match t.grad_edge() {
        Some(e) => Some(e),
        None => Some((accumulator(t), 0)),
    }
}

/// Records `out = op(inputs)`: a node named `name` with an edge per input, keeping `saved`
/// (inputs, or `out` itself; `None` slots save nothing) for the formula `f`. Call only when
/// `is_recording(inputs)`. Results that are not floating point never record. Fails only when
/// an inference tensor would be saved (PyTorch refuses those at the op).
pub fn record(
    name: &'static str,
    inputs: &[&Tensor],
    out: &Tensor,
    saved: &[Option<&Tensor>],
    f: impl Fn(&Tensor, &Ctx) -> Result<Grads> + 'static,
) -> Result<()> {
    record_padded(name, inputs, 0, out, saved, Box::new(f))
}

/// `record` with `pad` extra empty edges after the inputs (a Python number operand).
pub fn record_padded(
    name: &'static str,
    inputs: &[&Tensor],
    pad: usize,
    out: &Tensor,
    saved: &[Option<&Tensor>],
    f: BackwardFn,
) -> Result<()> {
    if !out.dtype().is_floating() {
        return Ok(());
    }
    check_saved(saved, &[out])?;
    let kind = func_kind(Formula::One(f), saved, &[out]);
    attach(name, inputs, pad, &[out], kind, &|_| true);
    Ok(())
}

/// Records `outs = op(inputs)` for an op with several outputs (`torch.linalg.svd`'s U, S,
/// Vh): one node that is every output's `grad_fn` (`outs[k]` its output `k`), whose formula
/// runs once with a gradient per output. Outputs that are not floating point get none (they
/// keep `requires_grad=False`); at least one must be. Saved outputs are kept as in `record`.
pub fn record_multi(
    name: &'static str,
    inputs: &[&Tensor],
    outs: &[&Tensor],
    saved: &[Option<&Tensor>],
    f: impl Fn(&[Option<Tensor>], &Ctx) -> Result<Grads> + 'static,
) -> Result<()> {
    if !outs.iter().any(|o| o.dtype().is_floating()) {
        return Ok(());
    }
    check_saved(saved, outs)?;
    let kind = func_kind(Formula::Many(Box::new(f)), saved, outs);
    attach(name, inputs, 0, outs, kind, &|k| {
        outs[k].dtype().is_floating()
    });
    Ok(())
}

/// PyTorch refuses to save an inference tensor (one that is not the op's own output).
fn check_saved(saved: &[Option<&Tensor>], outs: &[&Tensor]) -> Result<()> {
    if saved
        .iter()
        .flatten()
        .any(|t| t.is_inference() && !outs.iter().any(|o| t.ptr_eq(o)))
    {
        return Err(crate::tensor::TensorError::new(
            crate::tensor::ErrorKind::Runtime,
            "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.",
        ).with_hint("this tensor was made under torch.inference_mode(); make it with torch.no_grad() instead, or use x.clone() outside inference mode"));
    }
    Ok(())
}

/// A formula's node kind, keeping `saved` (an output is kept detached: saving it as it is
/// would make a cycle, out → node → out).
fn func_kind(f: Formula, saved: &[Option<&Tensor>], outs: &[&Tensor]) -> Kind {
    let saved: Vec<Option<Saved>> = saved
        .iter()
        .map(|t| {
            t.map(|t| match outs.iter().position(|o| t.ptr_eq(o)) {
                Some(k) => Saved {
                    t: outs[k].detach(),
                    version: outs[k].version(),
                    output: Some(k),
                },
                None => Saved {
                    t: t.clone(),
                    version: t.version(),
                    output: None,
                },
            })
        })
        .collect();
    let had_saved = saved.iter().any(|s| s.is_some());
    Kind::Func {
        f,
        saved: RefCell::new(saved),
        had_saved,
        released: Cell::new(false),
    }
}

/// Makes the node of `outs` (output `k` is `outs[k]`): `name`, an edge per input (then `pad`
/// empty ones), `kind`. Output `k` joins the graph when `joins(k)`.
fn attach(
    name: &'static str,
    inputs: &[&Tensor],
    pad: usize,
    outs: &[&Tensor],
    kind: Kind,
    joins: &dyn Fn(usize) -> bool,
) {
    let mut next: Vec<Option<Edge>> = inputs.iter().map(|t| edge(t)).collect();
    next.extend((0..pad).map(|_| None));
    let node = Rc::new(Node {
        name: Cell::new(name),
        seq: next_seq(),
        next,
        inputs: inputs.iter().map(|t| InputMeta::of(t)).collect(),
        outputs: outs.len(),
        kind,
        retained: RefCell::new(vec![]),
    });
    for (k, out) in outs.iter().enumerate() {
        if joins(k) {
            out.set_requires_grad(true);
            out.set_grad_edge(Some((node.clone(), k)));
        }
    }
}

/// Records `outs = f(inputs)` for a function whose backward the `HookRunner` runs with
/// `payload` (see `Kind::Foreign`): one node, output `k` being `outs[k]`. Outputs that are
/// not floating point, and those in `detached` (`ctx.mark_non_differentiable`), stay out of
/// the graph; nothing records when no output is left.
pub fn record_foreign(
    name: &'static str,
    inputs: &[&Tensor],
    outs: &[&Tensor],
    detached: &[bool],
    payload: Rc<dyn std::any::Any>,
) {
    let joins =
        |k: usize| outs[k].dtype().is_floating() && !detached.get(k).copied().unwrap_or(false);
    if !(0..outs.len()).any(joins) {
        return;
    }
    attach(name, inputs, 0, outs, Kind::Foreign(payload), &joins);
}

/// A node name made at run time (`MyFnBackward`), kept for the program's life: one leak per
/// distinct name.
pub fn intern_name(name: &str) -> &'static str {
    thread_local! {
        static NAMES: RefCell<std::collections::HashSet<&'static str>> = RefCell::default();
    }
    NAMES.with(|n| {
        let mut n = n.borrow_mut();
        match n.get(name) {
            Some(s) => s,
            None => {
                let s: &'static str = Box::leak(name.to_string().into_boxed_str());
                n.insert(s);
                s
            }
        }
    })
}

/// PyTorch refuses in-place ops on a leaf that requires grad while grad mode is on.
pub fn check_inplace(t: &Tensor) -> Result<()> {
    check_inplace_msg(
        t,
        "a leaf Variable that requires grad is being used in an in-place operation.",
    )
}

/// `check_inplace` for a write through a view (`x[0] = 5` on a leaf).
pub fn check_inplace_view(t: &Tensor) -> Result<()> {
    check_inplace_msg(
        t,
        "a view of a leaf Variable that requires grad is being used in an in-place operation.",
    )
}

fn check_inplace_msg(t: &Tensor, msg: &str) -> Result<()> {
    if t.requires_grad() && t.is_leaf() && mode::is_enabled() {
        return Err(crate::tensor::TensorError::new(
            crate::tensor::ErrorKind::Runtime,
            msg,
        )
        .with_hint("parameters are updated in place only under `with torch.no_grad():` (that is what optimizers do); otherwise use an out-of-place op (w = w - lr * w.grad)"));
    }
    Ok(())
}

/// A stand-in for `t`'s history before an in-place op rewrites it: a handle with `t`'s
/// `grad_fn` (or `t`'s `AccumulateGrad` edge is taken from `t` itself when it is a leaf).
/// Its data is a copy, so a formula that saves it is not broken by the write that follows
/// (PyTorch clones `self` for such in-place ops too).
pub fn history_of(t: &Tensor) -> Result<Tensor> {
    let old = {
        let _g = mode::NoGrad::new();
        t.clone_tensor()?
    };
    if t.requires_grad() {
        old.set_requires_grad(true);
        old.set_grad_edge(t.grad_edge());
    }
    Ok(old)
}

/// `t.retain_grad()`: a non-leaf keeps its `.grad` after backward.
pub fn retain_grad(t: &Tensor) -> Result<()> {
    if !t.requires_grad() {
        return crate::tensor::error::runtime(
            "can't retain_grad on Tensor that has requires_grad=False",
        );
    }
    if t.is_leaf() || t.retains_grad() {
        return Ok(());
    }
    if let Some((n, k)) = t.grad_edge() {
        n.retained.borrow_mut().push((k, t.downgrade()));
    }
    t.set_retains_grad();
    Ok(())
}

/// `t.detach_()`: `t` leaves the graph in place.
pub fn detach_(t: &Tensor) {
    t.set_grad_fn(None);
    t.set_requires_grad(false);
}
