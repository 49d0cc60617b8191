//! `PyStr`: the text of a Python `str`, shared by reference count behind one thin pointer.
//!
//! An `Rc<str>` is two words (pointer and length); this keeps the length in the allocation
//! so that a string fits `Value`'s one-word payload (see `value.rs`: a two-word `Value` is
//! moved in registers). The header also keeps the string's hash once it has been asked for,
//! as CPython caches a `str`'s hash: a string key is hashed once, not at every lookup.
use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::borrow::Borrow;
use std::cell::Cell;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ptr::NonNull;

#[repr(C)]
struct Header {
    rc: Cell<usize>,
    len: usize,
    /// The table hash, 0 until computed (a computed 0 is stored as 1).
    hash: Cell<u64>,
}

const DATA: usize = std::mem::size_of::<Header>();

/// A shared, immutable UTF-8 string (`Rc<str>` in one word).
pub struct PyStr(NonNull<Header>);

impl PyStr {
    fn layout(len: usize) -> Layout {
        let bytes = Layout::array::<u8>(len).unwrap_or_else(|_| capacity_overflow());
        match Layout::new::<Header>().extend(bytes) {
            Ok((l, _)) => l.pad_to_align(),
            Err(_) => capacity_overflow(),
        }
    }

    pub fn new(s: &str) -> PyStr {
        let layout = Self::layout(s.len());
        // SAFETY: `layout` is non-zero-sized (it holds the header); the header is written
        // before any read, and the text is copied into the bytes the layout gives after it.
        unsafe {
            let p = alloc(layout) as *mut Header;
            if p.is_null() {
                handle_alloc_error(layout)
            }
            p.write(Header {
                rc: Cell::new(1),
                len: s.len(),
                hash: Cell::new(0),
            });
            std::ptr::copy_nonoverlapping(s.as_ptr(), (p as *mut u8).add(DATA), s.len());
            PyStr(NonNull::new_unchecked(p))
        }
    }

    #[inline(always)]
    fn head(&self) -> &Header {
        // SAFETY: the header lives as long as any `PyStr` pointing to it.
        unsafe { self.0.as_ref() }
    }

    #[inline(always)]
    pub fn as_str(&self) -> &str {
        // SAFETY: `new` copied `len` bytes of valid UTF-8 right after the header, and they
        // never change.
        unsafe {
            let data = (self.0.as_ptr() as *const u8).add(DATA);
            std::str::from_utf8_unchecked(std::slice::from_raw_parts(data, self.head().len))
        }
    }

    #[inline(always)]
    pub fn ptr_eq(a: &PyStr, b: &PyStr) -> bool {
        a.0 == b.0
    }

    /// The allocation's address (what `id()` gives).
    #[inline(always)]
    pub fn as_ptr(&self) -> *const u8 {
        self.0.as_ptr() as *const u8
    }

    /// `compute(self)` the first time, the stored value after.
    #[inline(always)]
    pub fn cached_hash(&self, compute: impl FnOnce(&str) -> u64) -> u64 {
        let h = self.head().hash.get();
        if h != 0 {
            return h;
        }
        let h = compute(self.as_str()).max(1);
        self.head().hash.set(h);
        h
    }
}

/// One more reference to a `PyStr` or `NativeRc`. (As `Rc`, abort rather than wrap: a
/// wrapped count would free a live object.)
#[inline(always)]
pub(super) fn count_up(rc: &Cell<usize>) {
    rc.set(
        rc.get()
            .checked_add(1)
            .unwrap_or_else(|| std::process::abort()),
    );
}

/// One reference fewer; `true` when it was the last.
#[inline(always)]
pub(super) fn count_down(rc: &Cell<usize>) -> bool {
    let n = rc.get() - 1;
    rc.set(n);
    n == 0
}

#[cold]
fn capacity_overflow() -> ! {
    panic!("string too long")
}

impl Clone for PyStr {
    #[inline(always)]
    fn clone(&self) -> PyStr {
        count_up(&self.head().rc);
        PyStr(self.0)
    }
}

impl Drop for PyStr {
    #[inline]
    fn drop(&mut self) {
        if count_down(&self.head().rc) {
            let layout = Self::layout(self.head().len);
            // SAFETY: this was the last reference; the block was allocated with `layout`.
            unsafe { dealloc(self.0.as_ptr() as *mut u8, layout) }
        }
    }
}

impl std::ops::Deref for PyStr {
    type Target = str;
    #[inline(always)]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for PyStr {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for PyStr {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for PyStr {
    #[inline]
    fn eq(&self, other: &PyStr) -> bool {
        PyStr::ptr_eq(self, other) || self.as_str() == other.as_str()
    }
}
impl Eq for PyStr {}

impl PartialOrd for PyStr {
    fn partial_cmp(&self, other: &PyStr) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for PyStr {
    fn cmp(&self, other: &PyStr) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

/// Hashes as `str` does, so that maps keyed by `PyStr` are searched by `&str`.
impl Hash for PyStr {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.as_str().hash(h)
    }
}

impl fmt::Display for PyStr {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}
impl fmt::Debug for PyStr {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Default for PyStr {
    fn default() -> PyStr {
        PyStr::new("")
    }
}

impl From<&str> for PyStr {
    fn from(s: &str) -> PyStr {
        PyStr::new(s)
    }
}
impl From<String> for PyStr {
    fn from(s: String) -> PyStr {
        PyStr::new(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::PyStr;

    #[test]
    fn shares_compares_and_frees() {
        let a = PyStr::from("héllo");
        let b = a.clone();
        assert!(PyStr::ptr_eq(&a, &b));
        assert_eq!(&*a, "héllo");
        assert_eq!(a.len(), 6);
        assert_eq!(a, PyStr::from(String::from("héllo")));
        let (a1, b1) = (PyStr::from("a"), PyStr::from("b"));
        assert!(a1 < b1);
        assert_eq!(&*PyStr::default(), "");
        let h = a.cached_hash(|s| s.len() as u64);
        assert_eq!(h, 6);
        assert_eq!(
            b.cached_hash(|_| 99),
            6,
            "the hash is kept in the shared header"
        );
        assert_eq!(
            PyStr::from("").cached_hash(|_| 0),
            1,
            "a computed 0 is stored as 1"
        );
        drop(a);
        assert_eq!(&*b, "héllo");
    }
}
