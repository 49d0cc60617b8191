//! The backward pass: count each node's dependents, then run nodes whose gradients are
//! complete, the most recently created first (PyTorch's ready queue order), summing the
//! gradients that meet at a node in the order they arrive. A node keeps one gradient slot per
//! output (PyTorch's `InputBuffer`), so a node with several outputs runs once with all of them.
use super::mode::NoGrad;
use super::node::{accumulator, Edge, Formula, Grads, InputMeta, Kind, Node};
use super::util::sum_to;
use crate::tensor::error::{runtime, Result};
use crate::tensor::ops::binary::{binary, BinaryOp};
use crate::tensor::shape::fmt_list;
use crate::tensor::{ErrorKind, Tensor, TensorError};
use std::collections::{BinaryHeap, HashMap};
use std::rc::Rc;

struct Ready(Rc<Node>);
impl PartialEq for Ready {
    fn eq(&self, o: &Self) -> bool {
        self.0.seq == o.0.seq
    }
}
impl Eq for Ready {}
impl PartialOrd for Ready {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Ready {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.seq.cmp(&o.0.seq)
    }
}

fn key(n: &Rc<Node>) -> *const Node {
    Rc::as_ptr(n)
}

/// The root edge of an output tensor.
fn root_edge(t: &Tensor, i: usize) -> Result<Edge> {
    if !t.requires_grad() {
        return Err(TensorError::new(
            ErrorKind::Runtime,
            format!("element {i} of tensors does not require grad and does not have a grad_fn"),
        )
        .with_hint("nothing in this computation requires grad: create the inputs with requires_grad=True (or call .requires_grad_()) before the forward pass, and not under torch.no_grad()"));
    }
    Ok(match t.grad_edge() {
        Some(e) => e,
        None => (accumulator(t), 0),
    })
}

/// The default `gradient=` for an output: ones for a scalar, an error otherwise.
pub fn implicit_grad(t: &Tensor) -> Result<Tensor> {
    if t.numel() != 1 {
        return Err(TensorError::new(
            ErrorKind::Runtime,
            "grad can be implicitly created only for scalar outputs",
        )
        .with_hint(format!(
            "backward() without an argument needs a single number (a loss); this tensor has shape {}. Reduce it first (y.sum().backward()) or pass gradient=torch.ones_like(y)",
            fmt_list(t.shape())
        )));
    }
    if !t.dtype().is_floating() {
        return runtime(format!(
            "grad can be implicitly created only for real scalar outputs but got {}",
            t.dtype().c10_name()
        ));
    }
    crate::tensor::create::ones_like(t, None)
}

fn check_root_grad(t: &Tensor, g: &Tensor, i: usize) -> Result<()> {
    if t.shape() != g.shape() {
        return runtime(format!(
            "Mismatch in shape: grad_output[{i}] has a shape of torch.Size({}) and output[{i}] has a shape of torch.Size({}).",
            fmt_list(g.shape()),
            fmt_list(t.shape())
        ));
    }
    Ok(())
}

/// Makes a gradient fit its input: sums broadcast dims away, casts the dtype.
fn validate(node: &Node, i: usize, g: Tensor, meta: &InputMeta) -> Result<Tensor> {
    let mut g = g;
    if g.shape() != &meta.shape[..] {
        g = match sum_to(&g, &meta.shape) {
            Some(r) => r?,
            None => {
                return runtime(format!(
                    "Function {} returned an invalid gradient at index {i} - got {} but expected shape compatible with {}",
                    node.name(),
                    fmt_list(g.shape()),
                    fmt_list(&meta.shape)
                ))
            }
        };
    }
    if g.dtype() != meta.dtype {
        g = g.to_dtype(meta.dtype)?;
    }
    if g.device() != meta.device {
        g = g.to_device(meta.device)?;
    }
    Ok(g)
}

fn add_into(slot: &mut Option<Tensor>, g: Tensor) -> Result<()> {
    *slot = Some(match slot.take() {
        None => g,
        Some(prev) => binary(BinaryOp::Add, &prev, &g)?,
    });
    Ok(())
}

/// `AccumulateGrad`: `.grad = g` the first time (keeping the buffer when nothing else holds
/// it), `.grad += g` after.
fn accumulate(leaf: &Tensor, g: Tensor) -> Result<()> {
    match leaf.grad() {
        // create_graph: `.grad` is a copy that keeps the gradient's history (`CopyBackwards`)
        None if g.requires_grad() && super::mode::is_enabled() => {
            let c = g.clone_tensor()?;
            if let Some(n) = c.grad_fn() {
                n.set_name("CopyBackwards");
            }
            leaf.set_grad(Some(c));
        }
        None => {
            let g = if g.is_unique() && obeys_layout_contract(&g, leaf) {
                g
            } else {
                clone_obey_contract(&g, leaf)?
            };
            leaf.set_grad(Some(g));
        }
        Some(prev) => crate::tensor::ops::inplace::binary_inplace(BinaryOp::Add, &prev, &g)?,
    }
    Ok(())
}

/// ATen's `obeys_layout_contract`: a dense leaf's gradient has the leaf's strides (size-1
/// dims aside), any other leaf's gradient is contiguous.
fn obeys_layout_contract(g: &Tensor, leaf: &Tensor) -> bool {
    if crate::tensor::shape::is_dense(leaf.shape(), leaf.strides()) {
        g.shape() == leaf.shape()
            && (0..g.ndim()).all(|d| g.shape()[d] == 1 || g.strides()[d] == leaf.strides()[d])
    } else {
        g.is_contiguous()
    }
}

/// ATen's `clone_obey_contract`: a copy of `g` with the dense leaf's strides, else contiguous.
fn clone_obey_contract(g: &Tensor, leaf: &Tensor) -> Result<Tensor> {
    if !crate::tensor::shape::is_dense(leaf.shape(), leaf.strides()) || g.shape() != leaf.shape() {
        return g.contiguous_clone();
    }
    let be = crate::tensor::dispatch::on(g.device());
    let storage = be.empty(g.dtype(), g.numel(), g.device())?;
    let out = Tensor::from_parts(storage, leaf.dims().clone(), leaf.stride_dims().clone(), 0);
    be.copy(&out, g)?;
    Ok(out)
}

/// `retain_grad()`: each retaining output of the node keeps the gradient that reached it.
fn run_retain_hooks(node: &Node, gs: &[Option<Tensor>]) -> Result<()> {
    let hooks = node.retained.borrow();
    for (k, w) in hooks.iter() {
        let Some(Some(g)) = gs.get(*k) else { continue };
        if let Some(t) = w.upgrade() {
            let new = match t.grad() {
                None => g.clone_tensor()?,
                Some(prev) => binary(BinaryOp::Add, &prev, g)?,
            };
            t.set_grad(Some(new));
        }
    }
    Ok(())
}

/// When the engine asks for hooks at a node.
pub enum HookAt {
    /// Before the node runs, with the gradients arriving at it, one per output (`None` where
    /// none came; for a leaf, the one at its `AccumulateGrad` node): `t.register_hook(fn)`.
    /// The runner returns the gradients to use.
    Before(Vec<Option<Tensor>>),
    /// After an `AccumulateGrad` node wrote its leaf's `.grad`:
    /// `t.register_post_accumulate_grad_hook(fn)`. The runner's result is not used.
    Accumulated,
    /// A `Kind::Foreign` node runs, with its payload and the gradients of its outputs (`None`
    /// where none came): the runner returns one gradient per edge.
    Foreign(Rc<dyn std::any::Any>, Vec<Option<Tensor>>),
}

/// Tensor hooks and foreign backwards: called with each node as `HookAt` says. The Python
/// binding keeps the hooks; the engine only asks. It returns the gradients to use (`Before`:
/// one per output), nothing (`Accumulated`) or one gradient per edge (`Foreign`).
pub type HookRunner<'a> = &'a mut dyn FnMut(&Node, HookAt) -> Result<Grads>;

/// Runs the graph from `outputs` with their `grads`. With `capture` (the `inputs` of
/// `torch.autograd.grad`), returns the gradients reaching those tensors instead of
/// accumulating into `.grad`.
fn run(
    outputs: &[Tensor],
    grads: &[Tensor],
    retain_graph: bool,
    capture: Option<&[Tensor]>,
    create_graph: bool,
    mut hooks: Option<HookRunner>,
) -> Result<Vec<Option<Tensor>>> {
    // with create_graph the formulas record too, so the gradients can be differentiated
    let _ng = NoGrad::with(create_graph);
    let mut roots = Vec::with_capacity(outputs.len());
    for (i, t) in outputs.iter().enumerate() {
        roots.push(root_edge(t, i)?);
    }
    // dependencies: how many edges point at each node (from the roots and from other nodes)
    let mut deps: HashMap<*const Node, usize> = HashMap::new();
    let mut stack: Vec<Rc<Node>> = Vec::new();
    for (r, _) in &roots {
        let e = deps.entry(key(r)).or_insert(0);
        if *e == 0 {
            stack.push(r.clone());
        }
        *e += 1;
    }
    let mut seen: std::collections::HashSet<*const Node> = std::collections::HashSet::new();
    while let Some(n) = stack.pop() {
        if !seen.insert(key(&n)) {
            continue;
        }
        for (c, _) in n.next.iter().flatten() {
            *deps.entry(key(c)).or_insert(0) += 1;
            if !seen.contains(&key(c)) {
                stack.push(c.clone());
            }
        }
    }
    let captured: HashMap<(*const Node, usize), usize> = match capture {
        None => HashMap::new(),
        Some(ts) => {
            let mut m = HashMap::new();
            for (i, t) in ts.iter().enumerate() {
                if !t.requires_grad() {
                    return runtime("One of the differentiated Tensors does not require grad");
                }
                let (n, nr) = t.grad_edge().unwrap_or_else(|| (accumulator(t), 0));
                m.insert((key(&n), nr), i);
            }
            m
        }
    };
    let mut results: Vec<Option<Tensor>> = vec![None; capture.map_or(0, |c| c.len())];
    // one slot per output of each node that some gradient has reached
    let mut buffers: HashMap<*const Node, Vec<Option<Tensor>>> = HashMap::new();
    let slots = |n: &Node| vec![None; n.outputs];
    let mut ready: BinaryHeap<Ready> = BinaryHeap::new();
    for ((r, nr), g) in roots.iter().zip(grads) {
        let buf = buffers.entry(key(r)).or_insert_with(|| slots(r));
        add_into(&mut buf[*nr], g.clone())?;
        let d = deps.get_mut(&key(r)).expect("root counted");
        *d -= 1;
        if *d == 0 {
            ready.push(Ready(r.clone()));
        }
    }
    while let Some(Ready(node)) = ready.pop() {
        let mut gs = buffers.remove(&key(&node)).unwrap_or_else(|| slots(&node));
        if let Some(h) = hooks.as_mut() {
            if gs.iter().any(Option::is_some) {
                gs = h(&node, HookAt::Before(gs))?;
                gs.resize(node.outputs, None);
            }
        }
        run_retain_hooks(&node, &gs)?;
        let mut was_captured = false;
        for (k, g) in gs.iter().enumerate() {
            if let Some(&ci) = captured.get(&(key(&node), k)) {
                results[ci] = g.clone();
                was_captured = true;
            }
        }
        if was_captured && matches!(node.kind, Kind::Accumulate(_)) {
            continue;
        }
        let any = gs.iter().any(Option::is_some);
        let outs: Vec<Option<Tensor>> = match &node.kind {
            Kind::Accumulate(leaf) => {
                if let (Some(g), None) = (gs.pop().flatten(), capture) {
                    accumulate(leaf, g)?;
                    if let Some(h) = hooks.as_mut() {
                        h(&node, HookAt::Accumulated)?;
                    }
                }
                continue;
            }
            Kind::Func { f, .. } if any => {
                let needs = node.next.iter().map(|e| e.is_some()).collect();
                let ctx = node.unpack(needs)?;
                // backward formulas are not autocast ops: the ops they run are not cast
                let r = crate::tensor::autocast::excluded(|| match f {
                    Formula::One(f) => match &gs[0] {
                        Some(g) => f(g, &ctx),
                        None => Ok(vec![None; node.next.len()]),
                    },
                    Formula::Many(f) => f(&gs, &ctx),
                })?;
                if !retain_graph {
                    node.release();
                }
                r
            }
            Kind::Foreign(payload) if any => match hooks.as_mut() {
                Some(h) => {
                    let outs = h(&node, HookAt::Foreign(payload.clone(), gs))?;
                    debug_assert_eq!(outs.len(), node.next.len());
                    outs
                }
                None => {
                    return runtime("a custom autograd.Function ran backward without its runner")
                }
            },
            Kind::Func { .. } | Kind::Foreign(_) => vec![None; node.next.len()],
        };
        for (i, next) in node.next.iter().enumerate() {
            let Some((next, nr)) = next else { continue };
            let k = key(next);
            let buf = buffers.entry(k).or_insert_with(|| slots(next));
            if let Some(Some(gi)) = outs.get(i) {
                let gi = crate::tensor::autocast::excluded(|| {
                    validate(&node, i, gi.clone(), &node.inputs[i])
                })?;
                add_into(&mut buf[*nr], gi)?;
            }
            let d = deps.get_mut(&k).expect("edge counted");
            *d -= 1;
            if *d == 0 {
                ready.push(Ready(next.clone()));
            }
        }
    }
    Ok(results)
}

/// `t.backward(gradient, retain_graph)` / `torch.autograd.backward`.
pub fn backward(outputs: &[Tensor], grads: &[Option<Tensor>], retain_graph: bool) -> Result<()> {
    backward_with(outputs, grads, retain_graph, false, None)
}

/// `backward` with `create_graph` (the gradients get a history of their own) and tensor hooks.
pub fn backward_with(
    outputs: &[Tensor],
    grads: &[Option<Tensor>],
    retain_graph: bool,
    create_graph: bool,
    hooks: Option<HookRunner>,
) -> Result<()> {
    let gs = resolve_grads(outputs, grads)?;
    run(outputs, &gs, retain_graph, None, create_graph, hooks).map(|_| ())
}

fn resolve_grads(outputs: &[Tensor], grads: &[Option<Tensor>]) -> Result<Vec<Tensor>> {
    let mut gs = Vec::with_capacity(outputs.len());
    for (i, t) in outputs.iter().enumerate() {
        gs.push(match grads.get(i).cloned().flatten() {
            Some(g) => {
                check_root_grad(t, &g, i)?;
                g
            }
            None => {
                if !t.requires_grad() {
                    root_edge(t, i)?;
                }
                implicit_grad(t)?
            }
        });
    }
    Ok(gs)
}

/// `torch.autograd.grad(outputs, inputs, grad_outputs, retain_graph, allow_unused)`.
pub fn grad(
    outputs: &[Tensor],
    inputs: &[Tensor],
    grads: &[Option<Tensor>],
    retain_graph: bool,
    allow_unused: bool,
) -> Result<Vec<Option<Tensor>>> {
    grad_with(outputs, inputs, grads, retain_graph, allow_unused, false)
}

/// `grad` with `create_graph` (second derivatives: differentiate what it returns).
pub fn grad_with(
    outputs: &[Tensor],
    inputs: &[Tensor],
    grads: &[Option<Tensor>],
    retain_graph: bool,
    allow_unused: bool,
    create_graph: bool,
) -> Result<Vec<Option<Tensor>>> {
    grad_hooked(
        outputs,
        inputs,
        grads,
        (retain_graph, allow_unused, create_graph),
        None,
    )
}

/// `grad_with` with tensor hooks and foreign backwards; `flags` are (retain_graph,
/// allow_unused, create_graph).
pub fn grad_hooked(
    outputs: &[Tensor],
    inputs: &[Tensor],
    grads: &[Option<Tensor>],
    (retain_graph, allow_unused, create_graph): (bool, bool, bool),
    hooks: Option<HookRunner>,
) -> Result<Vec<Option<Tensor>>> {
    let gs = resolve_grads(outputs, grads)?;
    let r = run(
        outputs,
        &gs,
        retain_graph,
        Some(inputs),
        create_graph,
        hooks,
    )?;
    if !allow_unused {
        if let Some(i) = r.iter().position(|g| g.is_none()) {
            return runtime(format!("The differentiated Tensor at index {i} appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior."));
        }
    }
    Ok(r)
}
