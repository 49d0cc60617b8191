//! Generators: a generator function's body (or a generator expression's loop) runs on a stack
//! of its own (a `corosensei` coroutine), so `yield` anywhere in the tree-walking evaluator
//! suspends it and `next`/`send`/`throw` resume it where it stopped, as CPython's frames do.
//!
//! The body borrows the interpreter only while it runs: each resume passes `&mut Interp` in
//! as a raw pointer, and `yield` hands control straight back to the resumer.
use super::{Frame, Interp, RECURSION_LIMIT};
use crate::lang::error::{type_error, Exc, ExcKind, PyErr, PyResult};
use crate::lang::value::*;
use corosensei::stack::{DefaultStack, Stack};
use corosensei::{Coroutine, CoroutineResult, Yielder};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Virtual size of a generator's stack (pages are committed only when touched).
const STACK_SIZE: usize = 256 << 20;
/// A call inside a generator raises RecursionError when less than this is left of its stack.
const STACK_MARGIN: usize = 16 << 20;
/// Finished generators' stacks kept for the next ones (an mmap and munmap saved per generator).
const POOL_MAX: usize = 16;

thread_local! {
    static STACK_POOL: RefCell<Vec<DefaultStack>> = const { RefCell::new(Vec::new()) };
}

/// What a resume sends in: the interpreter, where the generator's saved exception context
/// starts on `handling`, and the value of the `yield` (or the exception thrown at it).
pub struct GenIn {
    interp: *mut Interp,
    base: usize,
    msg: PyResult<Value>,
}

/// What a `yield` hands out: the value, and the exceptions the generator was handling
/// (kept with it while it is suspended, as CPython keeps a frame's exception state).
pub struct GenOut {
    value: Value,
    handling: Vec<PyErr>,
}

type Co = Coroutine<GenIn, GenOut, PyResult<Value>, DefaultStack>;
type Body = Box<dyn FnOnce(&mut Interp) -> PyResult<Value>>;

/// The running generator's link back to its resumer.
pub struct GenCtx {
    yielder: *const Yielder<GenIn, GenOut>,
    base: usize,
}

/// A generator object.
pub struct Generator {
    /// The function's name (`<genexpr>` for generator expressions), for its repr.
    pub name: PyStr,
    globals: Globals,
    co: RefCell<Option<Co>>,
    /// Lowest address its code may reach before a call raises RecursionError.
    floor: usize,
    running: Cell<bool>,
    started: Cell<bool>,
    /// The interpreter it first ran in (it must not be resumed from another).
    owner: Cell<usize>,
    saved: RefCell<Vec<PyErr>>,
}

/// What one resume gave.
pub enum Step {
    Yielded(Value),
    /// Finished, with the `return` value.
    Returned(Value),
}

fn new_stack() -> PyResult<DefaultStack> {
    if let Some(s) = STACK_POOL.with(|p| p.borrow_mut().pop()) {
        return Ok(s);
    }
    DefaultStack::new(STACK_SIZE)
        .map_err(|_| PyErr::new(ExcKind::MemoryError, "cannot allocate a generator's stack"))
}

fn recycle(co: Co) {
    if co.done() {
        let stack = co.into_stack();
        STACK_POOL.with(|p| {
            let mut p = p.borrow_mut();
            if p.len() < POOL_MAX {
                p.push(stack);
            }
        });
    }
}

/// Address of the caller's stack frame, near enough (for the stack-depth check).
#[inline(always)]
pub(crate) fn stack_pointer() -> usize {
    let x = 0u8;
    std::ptr::addr_of!(x) as usize
}

impl Generator {
    /// A generator that will run `body` with the interpreter's globals switched to `globals`.
    pub fn new(name: PyStr, globals: Globals, body: Body) -> PyResult<Generator> {
        let stack = new_stack()?;
        let floor = stack.limit().get() + STACK_MARGIN;
        let co = Coroutine::with_stack(stack, move |y: &Yielder<GenIn, GenOut>, input: GenIn| {
            // SAFETY: the resumer passes its own `&mut Interp` and does not touch it until
            // this coroutine yields or returns.
            let interp = unsafe { &mut *input.interp };
            interp.gen_ctx = Some(GenCtx {
                yielder: y as *const _,
                base: input.base,
            });
            input.msg?;
            body(interp)
        });
        Ok(Generator {
            name,
            globals,
            co: RefCell::new(Some(co)),
            floor,
            running: Cell::new(false),
            started: Cell::new(false),
            owner: Cell::new(0),
            saved: RefCell::new(Vec::new()),
        })
    }

    pub fn value(self) -> Value {
        Value::Iter(Rc::new(RefCell::new(Iter::Gen(Rc::new(self)))))
    }
}

impl Interp {
    /// Calls a generator function: binds nothing more, runs nothing yet.
    pub(crate) fn make_generator(
        &mut self,
        func: &Rc<Function>,
        slots: Vec<Option<Value>>,
    ) -> PyResult<Value> {
        let f = func.clone();
        let body: Body = Box::new(move |interp: &mut Interp| {
            let mut slots = slots;
            let mut frame = Frame::call(&f, &mut slots);
            match interp.exec_block(&f.def.body, &mut frame)? {
                super::stmt::Flow::Return(v) => Ok(v),
                _ => Ok(Value::None),
            }
        });
        Ok(Generator::new(func.qualname.clone(), func.globals.clone(), body)?.value())
    }

    /// A generator expression's generator, running `body` in the current module's globals.
    pub(crate) fn make_genexpr(&mut self, body: Body) -> PyResult<Value> {
        let g = Generator::new(PyStr::from("<genexpr>"), self.active_globals.clone(), body)?;
        Ok(g.value())
    }

    /// `yield value` inside a running generator: suspends it until it is resumed, and gives
    /// what was sent in (or raises what was thrown in).
    #[inline(never)]
    pub(crate) fn do_yield(&mut self, value: Value) -> PyResult<Value> {
        let Some(ctx) = self.gen_ctx.take() else {
            return Err(PyErr::new(
                ExcKind::RuntimeError,
                "'yield' outside a generator",
            ));
        };
        let base = ctx.base.min(self.handling.len());
        let handling = self.handling.split_off(base);
        let me: *mut Interp = self;
        // SAFETY: the yielder outlives every suspension of its own coroutine.
        let input = unsafe { &*ctx.yielder }.suspend(GenOut { value, handling });
        // Resumed: the resumer checked it is the same interpreter.
        debug_assert_eq!(input.interp, me);
        let this = unsafe { &mut *input.interp };
        this.gen_ctx = Some(GenCtx {
            yielder: ctx.yielder,
            base: input.base,
        });
        input.msg
    }

    /// Runs a generator until its next `yield` or its end. `msg` is the value sent in, or
    /// the exception thrown in.
    pub(crate) fn resume(&mut self, g: &Rc<Generator>, msg: PyResult<Value>) -> PyResult<Step> {
        if g.running.get() {
            return Err(PyErr::new(
                ExcKind::ValueError,
                "generator already executing",
            ));
        }
        let me = self as *mut Interp as usize;
        if g.started.get() && g.owner.get() != me {
            return Err(PyErr::new(
                ExcKind::RuntimeError,
                "generator started in another interpreter session",
            ));
        }
        let Some(mut co) = g.co.borrow_mut().take() else {
            // Finished: nothing more comes, and what is thrown in is raised here.
            return msg.map(|_| Step::Returned(Value::None));
        };
        if !g.started.get() {
            if let Ok(v) = &msg {
                if !matches!(v, Value::None) {
                    *g.co.borrow_mut() = Some(co);
                    return Err(type_error(
                        "can't send non-None value to a just-started generator",
                    ));
                }
            }
        }
        self.depth += 1;
        if self.depth > RECURSION_LIMIT {
            self.depth -= 1;
            *g.co.borrow_mut() = Some(co);
            return Err(PyErr::new(
                ExcKind::RecursionError,
                "maximum recursion depth exceeded",
            ));
        }
        g.started.set(true);
        g.owner.set(me);
        g.running.set(true);
        let prev_ctx = self.gen_ctx.take();
        let prev_floor = std::mem::replace(&mut self.stack_floor, g.floor);
        let base = self.handling.len();
        self.handling.append(&mut g.saved.borrow_mut());
        let switched = !Rc::ptr_eq(&g.globals, &self.active_globals);
        let prev_globals = switched.then(|| self.switch_globals(g.globals.clone()));
        let r = co.resume(GenIn {
            interp: self,
            base,
            msg,
        });
        if let Some(p) = prev_globals {
            self.switch_globals(p);
        }
        self.stack_floor = prev_floor;
        self.gen_ctx = prev_ctx;
        self.depth -= 1;
        g.running.set(false);
        match r {
            CoroutineResult::Yield(out) => {
                *g.saved.borrow_mut() = out.handling;
                *g.co.borrow_mut() = Some(co);
                Ok(Step::Yielded(out.value))
            }
            CoroutineResult::Return(r) => {
                self.handling.truncate(base);
                recycle(co);
                match r {
                    Ok(v) => Ok(Step::Returned(v)),
                    Err(mut e) => {
                        // The resumer's frame needs its own traceback entry now.
                        e.0.located = false;
                        if e.is(ExcKind::StopIteration) {
                            let mut re =
                                PyErr::new(ExcKind::RuntimeError, "generator raised StopIteration");
                            re.0.context = Some(e);
                            return Err(re);
                        }
                        Err(e)
                    }
                }
            }
        }
    }

    /// `next(g)` / `g.send(v)`: the yielded value, or StopIteration carrying the return value.
    pub(crate) fn gen_send(&mut self, g: &Rc<Generator>, msg: PyResult<Value>) -> PyResult<Value> {
        match self.resume(g, msg)? {
            Step::Yielded(v) => Ok(v),
            Step::Returned(v) => Err(stop_iteration(v)),
        }
    }

    /// `g.close()`: GeneratorExit thrown in at the `yield` it stopped at.
    pub(crate) fn gen_close(&mut self, g: &Rc<Generator>) -> PyResult<Value> {
        if !g.started.get() {
            // Never started: it simply ends.
            g.co.borrow_mut().take();
            return Ok(Value::None);
        }
        let exit = PyErr::with_args(ExcKind::GeneratorExit, Vec::new());
        match self.resume(g, Err(exit)) {
            Ok(Step::Yielded(_)) => Err(PyErr::new(
                ExcKind::RuntimeError,
                "generator ignored GeneratorExit",
            )),
            Ok(Step::Returned(_)) => Ok(Value::None),
            Err(e) if e.is(ExcKind::GeneratorExit) => Ok(Value::None),
            Err(e) => Err(e),
        }
    }

    /// `g.throw(exc)`: `exc` (a class or an instance) raised at the `yield` it stopped at.
    pub(crate) fn gen_throw(&mut self, g: &Rc<Generator>, exc: &Value) -> PyResult<Value> {
        let obj = match exc {
            Value::Class(c) if c.exc_kind().is_some() => self.call(exc, Args::default())?,
            Value::Instance(i) if i.class.exc_kind().is_some() => exc.clone(),
            _ => {
                return Err(type_error(
                    "exceptions must be classes or instances deriving from BaseException, not "
                        .to_string()
                        + &exc.type_name(),
                ))
            }
        };
        let err = PyErr::from_exc(Exc::Object(obj));
        if !g.started.get() {
            // Thrown into a generator that never ran: it ends, and the exception propagates.
            g.co.borrow_mut().take();
            return Err(err);
        }
        self.gen_send(g, Err(err))
    }

    /// `yield from it`: yields every item of `it` (passing sends and throws on to a
    /// generator), and gives the generator's return value.
    pub(crate) fn yield_from(&mut self, it: &Value) -> PyResult<Value> {
        let it = self.get_iter(it)?;
        let inner = match &it {
            Value::Iter(cell) => match &*cell.borrow() {
                Iter::Gen(g) => Some(g.clone()),
                _ => None,
            },
            _ => None,
        };
        let Some(g) = inner else {
            while let Some(v) = self.next(&it)? {
                self.do_yield(v)?;
            }
            return Ok(Value::None);
        };
        let mut msg: PyResult<Value> = Ok(Value::None);
        loop {
            let step = match msg {
                Err(e) if e.is(ExcKind::GeneratorExit) => {
                    // Closing the outer generator closes the inner one first.
                    self.gen_close(&g)?;
                    return Err(e);
                }
                m => self.resume(&g, m)?,
            };
            match step {
                Step::Yielded(v) => msg = self.do_yield(v),
                Step::Returned(v) => return Ok(v),
            }
        }
    }
}

/// StopIteration carrying a generator's return value (none for `None`, as CPython).
pub fn stop_iteration(v: Value) -> PyErr {
    let args = match v {
        Value::None => Vec::new(),
        v => vec![v],
    };
    PyErr::with_args(ExcKind::StopIteration, args)
}
