//! Interned identifiers. Names are compared and hashed as small integers, and module globals
//! live in a table indexed by them, so a global lookup is an array access.
use crate::lang::value::PyStr;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

struct Interner {
    map: FxHashMap<PyStr, Sym>,
    names: Vec<PyStr>,
}

/// Names the evaluator looks up on hot paths, interned first so that each is a constant
/// (`dunder::INIT`) instead of a hash of its text at every use.
macro_rules! preset {
    ($($id:ident = $text:literal),* $(,)?) => {
        const PRESET: &[&str] = &[$($text),*];
        pub mod dunder {
            use super::Sym;
            preset!(@consts 0u32; $($id),*);
        }
    };
    (@consts $n:expr; $id:ident $(, $rest:ident)*) => {
        pub const $id: Sym = Sym($n);
        preset!(@consts $n + 1; $($rest),*);
    };
    (@consts $n:expr;) => {};
}

preset! {
    INIT = "__init__", CALL = "__call__", GETATTR = "__getattr__", SETATTR = "__setattr__",
    DELATTR = "__delattr__", BOOL = "__bool__", LEN = "__len__", EQ = "__eq__",
    GETITEM = "__getitem__", SETITEM = "__setitem__", DELITEM = "__delitem__",
    ITER = "__iter__", NEXT = "__next__", CONTAINS = "__contains__", REPR = "__repr__",
    STR = "__str__", FORMAT = "__format__", ENTER = "__enter__", EXIT = "__exit__",
    ARGS = "args", HASH = "__hash__", NEW = "__new__", CLASS = "__class__",
    CAUSE = "__cause__", CONTEXT = "__context__", SUPPRESS_CONTEXT = "__suppress_context__",
}

impl Default for Interner {
    fn default() -> Interner {
        let mut i = Interner {
            map: FxHashMap::default(),
            names: Vec::new(),
        };
        for name in PRESET {
            let s = Sym(i.names.len() as u32);
            let rc: PyStr = PyStr::from(*name);
            i.names.push(rc.clone());
            i.map.insert(rc, s);
        }
        i
    }
}

thread_local! {
    static INTERNER: RefCell<Interner> = RefCell::new(Interner::default());
}

impl Sym {
    pub fn new(name: &str) -> Sym {
        INTERNER.with(|i| {
            let mut i = i.borrow_mut();
            if let Some(&s) = i.map.get(name) {
                return s;
            }
            let s = Sym(i.names.len() as u32);
            let rc: PyStr = PyStr::from(name);
            i.names.push(rc.clone());
            i.map.insert(rc, s);
            s
        })
    }

    /// The symbol for `name` if it was ever interned (no new entry).
    pub fn lookup(name: &str) -> Option<Sym> {
        INTERNER.with(|i| i.borrow().map.get(name).copied())
    }

    pub fn as_str(self) -> PyStr {
        INTERNER.with(|i| i.borrow().names[self.0 as usize].clone())
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Debug for Sym {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.as_str())
    }
}

impl fmt::Display for Sym {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preset_constants_match_their_names() {
        for (k, name) in PRESET.iter().enumerate() {
            assert_eq!(Sym::new(name), Sym(k as u32));
        }
        assert_eq!(&*dunder::SETATTR.as_str(), "__setattr__");
        assert_eq!(&*dunder::HASH.as_str(), "__hash__");
    }
}
