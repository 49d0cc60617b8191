//! Standard-library modules written in the Python subset itself (as CPython writes most of
//! them in Python): `collections`, `itertools`, `functools`, `dataclasses`, `typing`,
//! `__future__`. They load
//! like the embedded `torch.nn` (`crate::nn::prelude`), into a namespace of their own on first
//! import. Their iterators are classes with `__iter__`/`__next__`, lazy as CPython's are.

pub mod generic_alias;

/// Module name → the sources run, in order, into its namespace.
const PRELUDES: &[(&str, &[&str])] = &[
    ("collections", &[include_str!("collections.py")]),
    ("itertools", &[include_str!("itertools.py")]),
    ("functools", &[include_str!("functools.py")]),
    ("dataclasses", &[include_str!("dataclasses.py")]),
    ("typing", &[include_str!("typing.py")]),
    ("__future__", &[include_str!("future.py")]),
];

/// The embedded sources of module `name`, if it is one of these.
pub fn prelude(name: &str) -> Option<&'static [&'static str]> {
    PRELUDES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// Every embedded standard-library module's name.
pub fn module_names() -> impl Iterator<Item = &'static str> {
    PRELUDES.iter().map(|(n, _)| *n)
}
