//! Python exceptions as Rust errors: the built-in exception kinds, raised errors with their
//! traceback entries, and cudalearn's teaching hint.
use super::lexer::Span;
use super::value::Value;
use crate::lang::value::PyStr;
use std::rc::Rc;

macro_rules! exc_kinds {
    ($($kind:ident : $parent:ident),* $(,)?) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ExcKind { $($kind),* }
        impl ExcKind {
            pub const ALL: &'static [ExcKind] = &[$(ExcKind::$kind),*];
            pub fn name(self) -> &'static str {
                match self { $(ExcKind::$kind => stringify!($kind)),* }
            }
            fn parent_raw(self) -> ExcKind {
                match self { $(ExcKind::$kind => ExcKind::$parent),* }
            }
        }
    };
}

// Each kind with its base class (BaseException is its own root).
exc_kinds! {
    BaseException: BaseException,
    SystemExit: BaseException,
    KeyboardInterrupt: BaseException,
    GeneratorExit: BaseException,
    Exception: BaseException,
    StopIteration: Exception,
    ArithmeticError: Exception,
    FloatingPointError: ArithmeticError,
    OverflowError: ArithmeticError,
    ZeroDivisionError: ArithmeticError,
    AssertionError: Exception,
    AttributeError: Exception,
    ImportError: Exception,
    ModuleNotFoundError: ImportError,
    LookupError: Exception,
    IndexError: LookupError,
    KeyError: LookupError,
    MemoryError: Exception,
    NameError: Exception,
    UnboundLocalError: NameError,
    OSError: Exception,
    FileNotFoundError: OSError,
    RuntimeError: Exception,
    NotImplementedError: RuntimeError,
    RecursionError: RuntimeError,
    OutOfMemoryError: RuntimeError,
    AcceleratorError: RuntimeError,
    SyntaxError: Exception,
    IndentationError: SyntaxError,
    TabError: IndentationError,
    TypeError: Exception,
    ValueError: Exception,
    UnicodeError: ValueError,
    Warning: Exception,
    UserWarning: Warning,
    DeprecationWarning: Warning,
    FutureWarning: Warning,
    RuntimeWarning: Warning,
    PicklingError: Exception,
    UnpicklingError: Exception,
}

impl ExcKind {
    pub fn parent(self) -> Option<ExcKind> {
        (self != ExcKind::BaseException).then(|| self.parent_raw())
    }

    pub fn is_subclass_of(self, other: ExcKind) -> bool {
        let mut k = self;
        loop {
            if k == other {
                return true;
            }
            match k.parent() {
                Some(p) => k = p,
                None => return false,
            }
        }
    }

    /// The module a traceback names the class with (`torch.OutOfMemoryError`).
    pub fn module(self) -> Option<&'static str> {
        match self {
            ExcKind::OutOfMemoryError | ExcKind::AcceleratorError => Some("torch"),
            ExcKind::PicklingError | ExcKind::UnpicklingError => Some("_pickle"),
            _ => None,
        }
    }

    pub fn from_name(name: &str) -> Option<ExcKind> {
        ExcKind::ALL.iter().copied().find(|k| k.name() == name)
    }
}

/// Where a caret line puts its `~` and `^` marks (CPython 3.11's anchors).
#[derive(Clone, Copy, Debug)]
pub enum Anchor {
    None,
    /// A binary operation: the operator lies between these two byte offsets.
    BinOp {
        left_end: u32,
        right_start: u32,
    },
    /// A subscript: `value[...]`, the index part from `value_end` to `slice_end`.
    Subscript {
        value_end: u32,
        slice_end: u32,
    },
}

#[derive(Clone, Debug)]
pub struct Source {
    /// The file name as tracebacks print it (an absolute path, `<stdin>`, ...).
    pub name: String,
    pub text: String,
    /// Whether tracebacks show the source line (CPython's REPL does not; cudalearn's does).
    pub show_lines: bool,
    /// Embedded library code (`torch.nn`, ...): its frames stay out of tracebacks, so a
    /// learner sees their own lines and the final message.
    pub prelude: bool,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Rc<Source> {
        Rc::new(Source {
            name: name.into(),
            text: text.into(),
            show_lines: true,
            prelude: false,
        })
    }

    /// 1-based line number and the line's byte offset for a byte offset.
    pub fn line_of(&self, offset: u32) -> (usize, usize) {
        let off = (offset as usize).min(self.text.len());
        let before = &self.text.as_bytes()[..off];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        (line, start)
    }

    pub fn line_text(&self, line_start: usize) -> &str {
        let rest = self.text.get(line_start..).unwrap_or("");
        rest.split('\n').next().unwrap_or("").trim_end_matches('\r')
    }
}

#[derive(Clone, Debug)]
pub struct TbEntry {
    pub src: Rc<Source>,
    pub span: Span,
    pub anchor: Anchor,
    pub func: PyStr,
}

/// The exception object: kept as kind + message until Python code needs the instance.
#[derive(Clone, Debug)]
pub enum Exc {
    Builtin(ExcKind, Vec<Value>),
    Object(Value),
}

#[derive(Clone, Debug)]
pub struct ErrInner {
    pub exc: Exc,
    /// Innermost entry first.
    pub tb: Vec<TbEntry>,
    /// Whether the innermost frame still needing an entry has been given one.
    pub located: bool,
    pub hint: Option<String>,
    /// The exception being handled when this one was raised ("During handling ...").
    pub context: Option<PyErr>,
    /// `raise ... from cause`: the cause ("The above exception was the direct cause ...").
    pub cause: Option<PyErr>,
    /// Set by any `raise ... from`: the context is not shown (`from None` shows neither).
    pub suppress_context: bool,
    /// For NameError/AttributeError: the missing name, for "Did you mean" suggestions.
    pub missing_name: Option<PyStr>,
    /// For AttributeError: the candidate names of the object (dir).
    pub candidates: Option<Vec<PyStr>>,
    /// For SyntaxError: the source and span to show.
    pub syntax: Option<(Rc<Source>, Span)>,
    /// Identity of the exception: a re-raise keeps it, so it is not chained to itself.
    pub id: u64,
}

#[derive(Clone, Debug)]
pub struct PyErr(pub Box<ErrInner>);

pub type PyResult<T> = Result<T, PyErr>;

static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl PyErr {
    pub fn new(kind: ExcKind, msg: impl Into<String>) -> PyErr {
        PyErr::with_args(kind, vec![Value::from(msg.into())])
    }

    pub fn with_args(kind: ExcKind, args: Vec<Value>) -> PyErr {
        PyErr::from_exc(Exc::Builtin(kind, args))
    }

    pub fn from_exc(exc: Exc) -> PyErr {
        PyErr(Box::new(ErrInner {
            exc,
            tb: Vec::new(),
            located: false,
            hint: None,
            context: None,
            cause: None,
            suppress_context: false,
            missing_name: None,
            candidates: None,
            syntax: None,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }))
    }

    pub fn hint(mut self, hint: impl Into<String>) -> PyErr {
        self.0.hint = Some(hint.into());
        self
    }

    /// Records where the error happened in the current frame, unless already recorded.
    pub fn locate(mut self, src: &Rc<Source>, span: Span, anchor: Anchor, func: &PyStr) -> PyErr {
        if !self.0.located {
            self.0.located = true;
            if src.prelude {
                return self;
            }
            self.0.tb.push(TbEntry {
                src: src.clone(),
                span,
                anchor,
                func: func.clone(),
            });
        }
        self
    }

    /// The builtin kind when the exception is (a subclass of) a builtin one.
    pub fn kind(&self) -> Option<ExcKind> {
        match &self.0.exc {
            Exc::Builtin(k, _) => Some(*k),
            Exc::Object(v) => v.exc_kind(),
        }
    }

    pub fn is(&self, kind: ExcKind) -> bool {
        self.kind().is_some_and(|k| k.is_subclass_of(kind))
    }

    /// An attribute lookup that found nothing: an `AttributeError`, or the
    /// `NotImplementedError` for a real library name cudalearn lacks (so `hasattr` and
    /// `getattr(obj, name, default)` still answer "missing" for it).
    pub fn is_missing_attr(&self) -> bool {
        self.is(ExcKind::AttributeError)
            || (self.is(ExcKind::NotImplementedError) && self.0.missing_name.is_some())
    }
}

pub fn type_error(msg: impl Into<String>) -> PyErr {
    PyErr::new(ExcKind::TypeError, msg)
}
pub fn value_error(msg: impl Into<String>) -> PyErr {
    PyErr::new(ExcKind::ValueError, msg)
}
pub fn index_error(msg: impl Into<String>) -> PyErr {
    PyErr::new(ExcKind::IndexError, msg)
}
pub fn runtime_error(msg: impl Into<String>) -> PyErr {
    PyErr::new(ExcKind::RuntimeError, msg)
}
pub fn attr_error(msg: impl Into<String>) -> PyErr {
    PyErr::new(ExcKind::AttributeError, msg)
}
pub fn not_implemented(what: impl std::fmt::Display) -> PyErr {
    PyErr::new(
        ExcKind::NotImplementedError,
        format!("cudalearn does not support {what} yet"),
    )
}
/// A NotImplementedError whose whole text is given.
pub fn not_implemented_text(text: impl Into<String>) -> PyErr {
    PyErr::new(ExcKind::NotImplementedError, text.into())
}
/// A size past `i64::MAX` where Python needs a C `ssize_t` (`len()` of a huge range).
pub fn ssize_overflow() -> PyErr {
    PyErr::new(
        ExcKind::OverflowError,
        "Python int too large to convert to C ssize_t",
    )
}
pub fn overflow_error() -> PyErr {
    PyErr::new(ExcKind::OverflowError, "integer overflow: cudalearn integers are 64-bit")
        .hint("Python ints are unbounded, but cudalearn keeps them in 64 bits (up to 9223372036854775807).")
}

/// CPython's suggestion engine (Python/suggestions.c): the closest candidate within a third
/// of the characters, with case changes costing half a substitution.
pub fn suggest(name: &str, candidates: &[PyStr]) -> Option<PyStr> {
    const MAX_ITEMS: usize = 750;
    const MAX_LEN: usize = 40;
    if candidates.len() >= MAX_ITEMS || name.len() > MAX_LEN {
        return None;
    }
    let mut best: Option<PyStr> = None;
    let mut best_dist = usize::MAX;
    for c in candidates {
        if &**c == name {
            continue;
        }
        let max = ((name.len() + c.len() + 3) * MOVE_COST / 6).min(best_dist.saturating_sub(1));
        let d = levenshtein(name.as_bytes(), c.as_bytes(), max);
        if d > max {
            continue;
        }
        if best.is_none() || d < best_dist {
            best = Some(c.clone());
            best_dist = d;
        }
    }
    best
}

const MOVE_COST: usize = 2;
const CASE_COST: usize = 1;

fn levenshtein(a: &[u8], b: &[u8], max_cost: usize) -> usize {
    if a == b {
        return 0;
    }
    let pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[pre..], &b[pre..]);
    let post = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[..a.len() - post], &b[..b.len() - post]);
    if a.is_empty() || b.is_empty() {
        return MOVE_COST * (a.len() + b.len());
    }
    if a.len() > 40 || b.len() > 40 {
        return max_cost + 1;
    }
    let (a, b) = if b.len() < a.len() { (b, a) } else { (a, b) };
    if (b.len() - a.len()) * MOVE_COST > max_cost {
        return max_cost + 1;
    }
    let mut row: Vec<usize> = (1..=a.len()).map(|i| i * MOVE_COST).collect();
    let mut result = 0;
    for (bi, &bc) in b.iter().enumerate() {
        let mut distance = bi * MOVE_COST;
        result = distance;
        let mut minimum = usize::MAX;
        for (i, &ac) in a.iter().enumerate() {
            let cost = if ac == bc {
                0
            } else if ac.eq_ignore_ascii_case(&bc) {
                CASE_COST
            } else {
                MOVE_COST
            };
            let substitute = distance + cost;
            distance = row[i];
            let insert_delete = result.min(distance) + MOVE_COST;
            result = insert_delete.min(substitute);
            row[i] = result;
            minimum = minimum.min(result);
        }
        if minimum > max_cost {
            return max_cost + 1;
        }
    }
    result
}
