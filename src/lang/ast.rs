//! The syntax tree. Names carry the scope the resolver gave them, so the evaluator never
//! searches scopes by name at run time.
use super::lexer::Span;
use super::symbol::Sym;
use crate::lang::value::PyStr;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Not yet resolved (only between parsing and resolving).
    Unresolved,
    /// A slot of the current function frame. A slot holding a cell (a local captured by an
    /// inner function, or a free variable) is read and written through the cell.
    Local(u32),
    /// Module globals, then builtins.
    Global,
    /// Inside a class body: the class namespace, then globals.
    ClassBody,
}

#[derive(Clone, Debug)]
pub struct Name {
    pub sym: Sym,
    pub scope: Scope,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    MatMul,
    LShift,
    RShift,
    BitAnd,
    BitOr,
    BitXor,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::MatMul => "@",
            BinOp::LShift => "<<",
            BinOp::RShift => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
        }
    }
    /// The dunder names: (`__add__`, `__radd__`, `__iadd__`).
    pub fn dunders(self) -> (&'static str, &'static str, &'static str) {
        match self {
            BinOp::Add => ("__add__", "__radd__", "__iadd__"),
            BinOp::Sub => ("__sub__", "__rsub__", "__isub__"),
            BinOp::Mul => ("__mul__", "__rmul__", "__imul__"),
            BinOp::Div => ("__truediv__", "__rtruediv__", "__itruediv__"),
            BinOp::FloorDiv => ("__floordiv__", "__rfloordiv__", "__ifloordiv__"),
            BinOp::Mod => ("__mod__", "__rmod__", "__imod__"),
            BinOp::Pow => ("__pow__", "__rpow__", "__ipow__"),
            BinOp::MatMul => ("__matmul__", "__rmatmul__", "__imatmul__"),
            BinOp::LShift => ("__lshift__", "__rlshift__", "__ilshift__"),
            BinOp::RShift => ("__rshift__", "__rrshift__", "__irshift__"),
            BinOp::BitAnd => ("__and__", "__rand__", "__iand__"),
            BinOp::BitOr => ("__or__", "__ror__", "__ior__"),
            BinOp::BitXor => ("__xor__", "__rxor__", "__ixor__"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Pos,
    Not,
    Invert,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Is,
    IsNot,
}

impl CmpOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::In => "in",
            CmpOp::NotIn => "not in",
            CmpOp::Is => "is",
            CmpOp::IsNot => "is not",
        }
    }
}

/// An attribute expression's inline caches (see `ExprKind::Attr`): where the name last sat
/// in an instance's dict, and where it sat before that (a site meeting instances whose
/// attributes were added in different orders hits either), and, for a call
/// `obj.name(...)`, the method the instance's class gave last time.
#[derive(Default)]
pub struct AttrHint {
    index: std::cell::Cell<u32>,
    /// The index before `index` (probed after it, out of line).
    older: std::cell::Cell<u32>,
    /// (Up to four classes: a call site such as `task.run()` often meets several.)
    pub(crate) method: std::cell::RefCell<[Option<MethodHint>; 4]>,
    /// At a call site `obj.name(...)` on a builtin type's value or a native object (a
    /// tensor): the method that type gave last time (their methods never change).
    pub(crate) native: std::cell::Cell<Option<NativeHint>>,
}

/// Whose method a `NativeHint` holds: a builtin type's (by the value's variant) or a native
/// object type's (by its Rust type).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum HintKey {
    Variant(std::mem::Discriminant<super::value::Value>),
    Native(std::any::TypeId),
}

/// A builtin type's method found at a call site.
#[derive(Clone, Copy)]
pub(crate) struct NativeHint {
    /// Whose method it is.
    pub key: HintKey,
    pub f: super::value::NativeFn,
    /// Its fast form (`methods::fast_method`), if it has one.
    pub fast: Option<super::methods::FastFn>,
    pub name: &'static str,
}

/// A method found on a class, valid while no class namespace has changed since (`epoch`).
/// Both are held weakly: no cycle through a function's own body, and the class's address
/// cannot be reused while the hint names it.
pub(crate) struct MethodHint {
    pub class: std::rc::Weak<super::value::Class>,
    pub epoch: u64,
    pub func: std::rc::Weak<super::value::Function>,
}

impl AttrHint {
    #[inline(always)]
    pub fn get(&self) -> u32 {
        self.index.get()
    }
    #[inline(always)]
    pub fn older(&self) -> u32 {
        self.older.get()
    }
    /// Records where the name was found; the index it replaces becomes the older one.
    #[inline(always)]
    pub fn set(&self, i: u32) {
        let last = self.index.replace(i);
        if last != i {
            self.older.set(last);
        }
    }
}

impl Clone for AttrHint {
    fn clone(&self) -> AttrHint {
        AttrHint {
            index: std::cell::Cell::new(self.index.get()),
            older: std::cell::Cell::new(self.older.get()),
            method: Default::default(),
            native: Default::default(),
        }
    }
}

impl std::fmt::Debug for AttrHint {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "AttrHint({})", self.index.get())
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Arg {
    Pos(Expr),
    Star(Expr),
    Kw(Sym, Expr),
    StarStar(Expr),
}

#[derive(Clone, Debug)]
pub enum FPart {
    Lit(String),
    Expr {
        expr: Box<Expr>,
        conv: Option<char>,
        /// The format spec, itself an f-string (it may hold `{width}` fields).
        spec: Vec<FPart>,
        /// `f'{x=}'`: the source text to print before the value.
        debug_text: Option<String>,
    },
}

#[derive(Clone, Debug)]
pub struct Comprehension {
    pub target: Expr,
    pub iter: Expr,
    pub ifs: Vec<Expr>,
}

/// A comprehension runs in its own scope, like a nested function.
#[derive(Clone, Debug)]
pub struct CompScope {
    pub kind: CompKind,
    pub elt: Box<Expr>,
    /// Only for dict comprehensions: the value expression.
    pub value: Option<Box<Expr>>,
    pub generators: Vec<Comprehension>,
    pub info: ScopeInfo,
    /// The whole comprehension, as its expression's span: where CPython locates `iter()` of
    /// its sources failing, and the enclosing frame's entry for an error inside it.
    pub span: Span,
    /// The element compiled to closures, on the first run.
    pub compiled: crate::lang::interp::Compiled<crate::lang::interp::CExpr>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompKind {
    List,
    Set,
    Dict,
    Gen,
}

impl CompKind {
    pub fn frame_name(self) -> &'static str {
        match self {
            CompKind::List => "<listcomp>",
            CompKind::Set => "<setcomp>",
            CompKind::Dict => "<dictcomp>",
            CompKind::Gen => "<genexpr>",
        }
    }
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(PyStr),
    Ellipsis,
    FString(Vec<FPart>),
    Name(Name),
    List(Vec<Expr>),
    Tuple(Vec<Expr>),
    Set(Vec<Expr>),
    /// `None` key means `**mapping`.
    Dict(Vec<(Option<Expr>, Expr)>),
    /// `obj.name`; the hint is where `name` was last found in an instance's dict (an inline
    /// cache: a hit reads the entry at that index without hashing).
    Attr(Box<Expr>, Sym, AttrHint),
    Subscript(Box<Expr>, Box<Expr>),
    Slice(Option<Box<Expr>>, Option<Box<Expr>>, Option<Box<Expr>>),
    Call(Box<Expr>, Vec<Arg>),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Compare(Box<Expr>, Vec<(CmpOp, Expr)>),
    IfExp(Box<Expr>, Box<Expr>, Box<Expr>),
    Lambda(Rc<FuncDef>),
    Comp(Rc<CompScope>),
    Starred(Box<Expr>),
    /// `yield` / `yield x` (only inside a function, which makes it a generator).
    Yield(Option<Box<Expr>>),
    /// `yield from it`.
    YieldFrom(Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Normal,
    VarArgs,
    KwOnly,
    VarKw,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: Sym,
    pub kind: ParamKind,
    pub default: Option<Expr>,
}

/// What the resolver learned about a function-like scope.
#[derive(Clone, Debug, Default)]
pub struct ScopeInfo {
    /// Names of the local slots; free variables take the slots after them.
    pub local_names: Vec<Sym>,
    /// Local slots captured by inner scopes: they hold a cell from the start of each call.
    pub cellvars: Vec<u32>,
    /// Free variables: the slot in the *enclosing* frame (holding a cell) each one comes from.
    pub freevars: Vec<u32>,
    /// The body holds `yield`: calling the function makes a generator.
    pub is_generator: bool,
}

#[derive(Clone, Debug)]
pub struct FuncDef {
    pub name: Sym,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    pub decorators: Vec<Expr>,
    pub is_lambda: bool,
    pub info: ScopeInfo,
    pub span: Span,
    /// The body compiled to closures, on the first call.
    pub compiled: crate::lang::interp::Compiled<crate::lang::interp::CBlock>,
}

#[derive(Clone, Debug)]
pub struct ClassDef {
    pub name: Sym,
    pub bases: Vec<Expr>,
    pub body: Vec<Stmt>,
    pub decorators: Vec<Expr>,
    /// From the `class` keyword to the body's end (decorators excluded): where the enclosing
    /// frame's traceback entry points while the class is built, as CPython's does.
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Handler {
    pub kind: Option<Expr>,
    pub name: Option<Name>,
    pub body: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Expr(Expr),
    Assign(Vec<Expr>, Expr),
    AugAssign(Expr, BinOp, Expr),
    /// `x: int = 1` — the annotation is evaluated and ignored.
    AnnAssign(Expr, Expr, Option<Expr>),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    While(Expr, Vec<Stmt>, Vec<Stmt>),
    For(Expr, Expr, Vec<Stmt>, Vec<Stmt>),
    Break,
    Continue,
    Pass,
    FuncDef(Rc<FuncDef>, Name),
    ClassDef(Rc<ClassDef>, Name),
    Return(Option<Expr>),
    With(Vec<(Expr, Option<Expr>)>, Vec<Stmt>),
    Try(Vec<Stmt>, Vec<Handler>, Vec<Stmt>, Vec<Stmt>),
    Raise(Option<Expr>, Option<Expr>),
    Assert(Expr, Option<Expr>),
    Del(Vec<Expr>),
    /// `import a.b.c as d`: the dotted path and the name bound.
    Import(Vec<(Vec<Sym>, Name, bool)>),
    ImportFrom(Vec<Sym>, Vec<(Sym, Name)>),
    Global(Vec<Sym>),
    Nonlocal(Vec<Sym>),
}

/// A parsed and resolved module (a file, or one REPL input).
#[derive(Debug)]
pub struct Module {
    pub body: Vec<Stmt>,
}
