//! The tree-walking evaluator.
mod arith;
mod builtin_subclass;
mod call;
mod class_hooks;
mod classes;
mod compare;
mod compile;
mod descriptors;
pub(crate) mod expr;
pub(crate) mod generator;
mod index;
mod iter;
mod keys;
mod ops;
mod repr;
mod slot_stack;
mod slots;
mod stmt;

pub use call::bind_error;
pub use compile::{CBlock, CExpr, Compiled};
pub(crate) use descriptors::{descriptor_types, has_property};
pub use keys::KeyedMap;

use super::ast::Stmt;
use super::error::{Exc, ExcKind, PyErr, PyResult, Source};
use super::lexer::SyntaxErr;
use super::resolve::CompileWarning;
use super::symbol::Sym;
use super::value::*;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the Ctrl-C handler; checked at loop iterations, calls and operators on natives.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Python's default recursion limit.
pub const RECURSION_LIMIT: usize = 1000;

/// Where `print` writes.
pub enum Output {
    Stdout(std::io::BufWriter<std::io::Stdout>),
    Capture(String),
}

impl Output {
    pub fn write_str(&mut self, s: &str) {
        match self {
            Output::Stdout(w) => {
                let _ = w.write_all(s.as_bytes());
            }
            Output::Capture(buf) => buf.push_str(s),
        }
    }
    pub fn flush(&mut self) {
        if let Output::Stdout(w) = self {
            let _ = w.flush();
        }
    }
}

/// One activation: a function call, a comprehension, or the module itself. It borrows its
/// function, name and source from the caller (no reference counting per call).
pub struct Frame<'a> {
    /// The locals (a window of `Interp::slot_stack`, or a `Vec` the caller keeps).
    pub slots: &'a mut [Option<Value>],
    /// While a class body runs: its namespace.
    pub class_ns: Option<Rc<RefCell<AttrMap>>>,
    pub func: Option<&'a Rc<Function>>,
    pub name: FrameName<'a>,
    pub src: &'a Rc<Source>,
}

/// A frame's name as tracebacks print it.
#[derive(Clone, Copy)]
pub enum FrameName<'a> {
    Func(&'a PyStr),
    /// `<module>`, `<listcomp>`, ...
    Fixed(&'static str),
    /// A class body while it runs (CPython gives it a frame named after the class).
    Class(Sym),
}

impl FrameName<'_> {
    pub fn to_rc(self) -> PyStr {
        match self {
            FrameName::Func(n) => n.clone(),
            FrameName::Fixed(s) => PyStr::from(s),
            FrameName::Class(s) => s.as_str(),
        }
    }
}

impl<'a> Frame<'a> {
    pub fn module(src: &'a Rc<Source>) -> Frame<'a> {
        Frame {
            slots: &mut [],
            class_ns: None,
            func: None,
            name: FrameName::Fixed("<module>"),
            src,
        }
    }

    /// A call of `func` with its bound slots.
    #[inline]
    pub fn call(func: &'a Rc<Function>, slots: &'a mut [Option<Value>]) -> Frame<'a> {
        Frame {
            slots,
            class_ns: None,
            func: Some(func),
            name: FrameName::Func(&func.name),
            src: &func.src,
        }
    }
}

/// Built-in classes the evaluator needs by hand.
pub struct Types {
    pub object: Rc<Class>,
    pub exceptions: Vec<Rc<Class>>,
    pub by_tag: Vec<(TypeTag, Rc<Class>)>,
}

pub struct Interp {
    /// Module globals, indexed by symbol.
    pub globals: Vec<Option<Value>>,
    /// Names in the order they were first defined (for `:vars`, `dir()` and suggestions).
    pub global_order: Vec<Sym>,
    pub builtins: Vec<Option<Value>>,
    pub builtin_order: Vec<Sym>,
    pub types: Types,
    pub out: Output,
    pub modules: rustc_hash::FxHashMap<String, Value>,
    /// Exceptions being handled (innermost last), for bare `raise` and implicit chaining.
    pub handling: Vec<PyErr>,
    pub depth: usize,
    /// Containers whose repr is being built (self-containing ones print as `[...]`).
    pub repr_active: Vec<usize>,
    /// For fuzzing: stop with an error after this many steps.
    pub step_limit: Option<u64>,
    pub steps: u64,
    pub random: super::modules::random::PyRandom,
    /// Objects that modules keep per session (torch's state in later issues).
    pub ext: rustc_hash::FxHashMap<&'static str, Rc<dyn std::any::Any>>,
    /// The namespace whose values are in `globals` now (the program's, or an embedded
    /// module's while its code runs).
    pub active_globals: Globals,
    /// The statement running now (source and byte offset), for warnings' `file:line`.
    pub stmt_src: Option<Rc<Source>>,
    pub stmt_offset: u32,
    /// Warnings already shown, by `file:line:category:message` (Python's default filter
    /// shows each once per location).
    pub warned: rustc_hash::FxHashSet<String>,
    /// Methods of builtin and native types by their owner (`call::method_owner`) and name.
    pub(crate) method_cache: rustc_hash::FxHashMap<(crate::lang::ast::HintKey, Sym), FoundMethod>,
    /// Slot vectors of finished calls, for the next calls' frames.
    pub(crate) slot_pool: Vec<Vec<Option<Value>>>,
    /// The windows of locals that calls of simple functions take (`slot_stack.rs`).
    pub(crate) slot_stack: slot_stack::SlotStack,
    /// The items of `xs[a:b] = ys[c:d]` between its read and its store (kept for the next).
    pub(crate) slice_buf: Vec<Value>,
    /// The generator running now: how its `yield` hands control back.
    pub(crate) gen_ctx: Option<generator::GenCtx>,
    /// Inside a generator: the lowest stack address a call may start at (its stack is
    /// smaller than the main one); 0 elsewhere.
    pub(crate) stack_floor: usize,
}

/// A builtin type's method as `builtins::method` finds it (or its absence).
pub type FoundMethod = Option<(NativeFn, &'static str)>;

impl Interp {
    pub fn new() -> Interp {
        let types = classes::builtin_types();
        let mut it = Interp {
            globals: Vec::new(),
            global_order: Vec::new(),
            builtins: Vec::new(),
            builtin_order: Vec::new(),
            types,
            out: Output::Stdout(std::io::BufWriter::new(std::io::stdout())),
            modules: Default::default(),
            handling: Vec::new(),
            depth: 0,
            repr_active: Vec::new(),
            step_limit: None,
            steps: 0,
            random: Default::default(),
            ext: Default::default(),
            active_globals: Default::default(),
            stmt_src: None,
            stmt_offset: 0,
            warned: Default::default(),
            method_cache: Default::default(),
            slot_pool: Vec::new(),
            slot_stack: Default::default(),
            slice_buf: Vec::new(),
            gen_ctx: None,
            stack_floor: 0,
        };
        super::builtins::install(&mut it);
        // autocast's state is per thread, as in PyTorch; a new session starts it afresh
        crate::amp::state::reset();
        it.set_global(Sym::new("__name__"), Value::str("__main__"));
        it
    }

    pub fn set_builtin(&mut self, name: &str, v: Value) {
        let s = Sym::new(name);
        if self.builtins.len() <= s.index() {
            self.builtins.resize(s.index() + 1, None);
        }
        if self.builtins[s.index()].is_none() {
            self.builtin_order.push(s);
        }
        self.builtins[s.index()] = Some(v);
    }

    pub fn get_global(&self, s: Sym) -> Option<&Value> {
        self.globals.get(s.index()).and_then(|v| v.as_ref())
    }

    pub fn set_global(&mut self, s: Sym, v: Value) {
        let i = s.index();
        if self.globals.len() <= i {
            self.globals.resize(i + 1, None);
        }
        // A name enters the order when defined; `del` takes it out again.
        if self.globals[i].is_none() {
            self.global_order.push(s);
        }
        self.globals[i] = Some(v);
    }

    pub fn del_global(&mut self, s: Sym) -> bool {
        match self.globals.get_mut(s.index()) {
            Some(slot @ Some(_)) => {
                *slot = None;
                self.global_order.retain(|x| *x != s);
                true
            }
            _ => false,
        }
    }

    /// Defined global names, in definition order.
    pub fn global_names(&self) -> Vec<Sym> {
        self.global_order
            .iter()
            .copied()
            .filter(|s| self.get_global(*s).is_some())
            .collect()
    }

    /// Makes `to` the running namespace; returns the one that was (to switch back to).
    pub fn switch_globals(&mut self, to: Globals) -> Globals {
        let prev = std::mem::replace(&mut self.active_globals, to);
        {
            let mut p = prev.borrow_mut();
            p.values = std::mem::take(&mut self.globals);
            p.order = std::mem::take(&mut self.global_order);
        }
        let mut t = self.active_globals.borrow_mut();
        self.globals = std::mem::take(&mut t.values);
        self.global_order = std::mem::take(&mut t.order);
        drop(t);
        prev
    }

    pub fn builtin_names(&self) -> Vec<Sym> {
        self.builtin_order.clone()
    }

    /// Forgets every user variable (the REPL's `:reset`).
    pub fn reset(&mut self) {
        let out = std::mem::replace(&mut self.out, Output::Capture(String::new()));
        *self = Interp::new();
        self.out = out;
    }

    pub fn print(&mut self, s: &str) {
        self.out.write_str(s);
    }

    pub fn class_for(&self, kind: ExcKind) -> Rc<Class> {
        let i = ExcKind::ALL.iter().position(|k| *k == kind).unwrap_or(0);
        self.types.exceptions[i].clone()
    }

    pub fn type_class(&self, tag: TypeTag) -> Rc<Class> {
        self.types
            .by_tag
            .iter()
            .find(|(t, _)| *t == tag)
            .map(|(_, c)| c.clone())
            .unwrap_or_else(|| self.types.object.clone())
    }

    /// Parses, resolves and runs a whole program (a file or one REPL entry). In `echo` mode
    /// the values of expression statements are printed with `repr`, as at Python's prompt.
    pub fn run(&mut self, src: Rc<Source>, echo: bool) -> PyResult<()> {
        let (body, warnings) = parse(&src)?;
        for (offset, msg) in warnings {
            self.note_stmt(offset, &src);
            self.emit_warning("SyntaxWarning", msg);
        }
        self.exec_module(&body, src, echo)
    }

    /// After a panic (a bug) unwound out of `run`: the calls it ended leave no locals behind
    /// and no depth, so the next statement starts as at the prompt.
    pub fn recover_from_panic(&mut self) {
        self.slot_stack.reset();
        self.depth = 0;
    }

    pub fn exec_module(&mut self, body: &[Stmt], src: Rc<Source>, echo: bool) -> PyResult<()> {
        let mut frame = Frame::module(&src);
        for s in body {
            if echo {
                if let super::ast::StmtKind::Expr(e) = &s.kind {
                    let v = self
                        .eval(e, &mut frame)
                        .map_err(|err| self.finish_stmt_error(err, s, &frame))?;
                    if !matches!(v, Value::None) {
                        let r = self
                            .repr(&v)
                            .map_err(|err| self.finish_stmt_error(err, s, &frame))?;
                        self.print(&r);
                        self.print("\n");
                        self.set_global(Sym::new("_"), v);
                    }
                    continue;
                }
            }
            self.exec(s, &mut frame)?;
            if self.depth == 0 {
                // (Every call gave its window of locals back, on every path out of it.)
                debug_assert!(self.slot_stack.is_empty());
                // SAFETY: between top-level statements, outside every Python call, no native
                // code is running, so none holds a reference into a tensor's replaced data.
                unsafe { crate::tensor::release_retired() };
            }
        }
        Ok(())
    }

    /// Notes the statement about to run (cheap: the source changes only across files).
    #[inline(always)]
    pub(crate) fn note_stmt(&mut self, offset: u32, src: &Rc<Source>) {
        self.stmt_offset = offset;
        if !matches!(&self.stmt_src, Some(s) if Rc::ptr_eq(s, src)) {
            self.stmt_src = Some(src.clone());
        }
    }

    /// `warnings.warn(msg, category)` with Python's default filter and format: written to
    /// stderr once per location as `file:line: Category: message` and the source line.
    pub fn warn(&mut self, category: &str, msg: &str) {
        let place = self.warning_place();
        let (file, line, _) = &place;
        if self
            .warned
            .insert(format!("{file}:{line}:{category}:{msg}"))
        {
            self.write_warning(place, category, msg);
        }
    }

    /// A warning at the noted statement, written whether or not it was given before there
    /// (as the compiler's are: each compilation warns afresh).
    fn emit_warning(&mut self, category: &str, msg: &str) {
        let place = self.warning_place();
        self.write_warning(place, category, msg);
    }

    fn write_warning(
        &mut self,
        (file, line, text): (String, usize, Option<String>),
        category: &str,
        msg: &str,
    ) {
        self.out.flush();
        let mut s = format!("{file}:{line}: {category}: {msg}\n");
        if let Some(t) = text.filter(|t| !t.is_empty()) {
            s.push_str(&format!("  {t}\n"));
        }
        eprint!("{s}");
    }

    /// The file, line and (where it is shown) source text of the noted statement.
    fn warning_place(&self) -> (String, usize, Option<String>) {
        match &self.stmt_src {
            Some(src) => {
                let off = (self.stmt_offset as usize).min(src.text.len());
                let line = src.text.as_bytes()[..off]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count()
                    + 1;
                let text = if src.show_lines {
                    src.text.lines().nth(line - 1).map(|l| l.trim().to_string())
                } else {
                    None
                };
                (src.name.clone(), line, text)
            }
            None => ("<stdin>".to_string(), 1, None),
        }
    }

    /// KeyboardInterrupt after Ctrl-C. Also checked before each call of a builtin or native
    /// and each operator on a native object, so one long statement of engine ops stops too.
    #[inline]
    pub fn check_interrupt(&mut self) -> PyResult<()> {
        if INTERRUPTED.load(Ordering::Relaxed) {
            INTERRUPTED.store(false, Ordering::Relaxed);
            return Err(PyErr::with_args(ExcKind::KeyboardInterrupt, Vec::new()));
        }
        Ok(())
    }

    /// Counts a step; raises KeyboardInterrupt after Ctrl-C and stops runaway fuzz inputs.
    #[inline(always)]
    pub fn tick(&mut self) -> PyResult<()> {
        if INTERRUPTED.load(Ordering::Relaxed) || self.step_limit.is_some() {
            return self.tick_slow();
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn tick_slow(&mut self) -> PyResult<()> {
        self.check_interrupt()?;
        if let Some(limit) = self.step_limit {
            self.steps += 1;
            if self.steps > limit {
                return Err(PyErr::new(ExcKind::RuntimeError, "step limit exceeded"));
            }
        }
        Ok(())
    }

    /// The exception as a Python object (materialising builtin ones).
    pub fn exc_value(&self, err: &PyErr) -> Value {
        match &err.0.exc {
            Exc::Object(v) => v.clone(),
            Exc::Builtin(kind, args) => Value::Instance(Rc::new(Instance {
                class: self.class_for(*kind),
                hash: std::cell::Cell::new(None),
                base: None,
                dict: RefCell::new({
                    let mut m = AttrMap::default();
                    m.insert(
                        crate::lang::symbol::dunder::ARGS,
                        Value::tuple(args.clone()),
                    );
                    m
                }),
            })),
        }
    }
}

impl Default for Interp {
    fn default() -> Self {
        Interp::new()
    }
}

/// Parses and resolves a source, giving SyntaxError as a Python error, and the compiler's
/// warnings.
pub fn parse(src: &Rc<Source>) -> PyResult<(Vec<Stmt>, Vec<CompileWarning>)> {
    let mut body = super::parser::parse_module(&src.text).map_err(|e| syntax_error(e, src))?;
    let warnings = super::resolve::resolve_module(&mut body).map_err(|e| syntax_error(e, src))?;
    Ok((body, warnings))
}

pub fn syntax_error(e: SyntaxErr, src: &Rc<Source>) -> PyErr {
    let kind = if e.indentation {
        ExcKind::IndentationError
    } else {
        ExcKind::SyntaxError
    };
    let mut err = PyErr::new(kind, e.msg);
    let span =
        |shift: usize| super::lexer::Span::new(e.start + shift, e.end.max(e.start + 1) + shift);
    err.0.syntax = Some(match e.shown {
        // The shown text as the reported line of a stand-in source.
        Some((text, at)) => {
            let above = src.line_of(at as u32).0 - 1;
            let stand_in = Source {
                name: src.name.clone(),
                text: "\n".repeat(above) + &text,
                show_lines: src.show_lines,
                prelude: src.prelude,
            };
            (Rc::new(stand_in), span(above))
        }
        None => (src.clone(), span(0)),
    });
    err
}

pub use builtin_subclass::unwrap as unwrap_builtin;
pub use expr::dict_insert as dict_insert_pub;
pub use index::slice_indices;
