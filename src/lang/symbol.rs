//! Interned identifiers. Names are compared and hashed as small integers, and module globals
//! live in a table indexed by them, so a global lookup is an array access.
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

#[derive(Default)]
struct Interner {
    map: HashMap<Rc<str>, Sym>,
    names: Vec<Rc<str>>,
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
            let rc: Rc<str> = Rc::from(name);
            i.names.push(rc.clone());
            i.map.insert(rc, s);
            s
        })
    }

    /// The symbol for `name` if it was ever interned (no new entry).
    pub fn lookup(name: &str) -> Option<Sym> {
        INTERNER.with(|i| i.borrow().map.get(name).copied())
    }

    pub fn as_str(self) -> Rc<str> {
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
