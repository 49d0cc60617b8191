//! `NativeRc`: a reference-counted Rust object (`dyn Native`) behind one thin pointer.
//!
//! An `Rc<dyn Native>` is two words (pointer and vtable); this keeps the vtable in the
//! allocation, so that a native object fits `Value`'s one-word payload (see `value.rs`: a
//! two-word `Value` is moved in registers). One allocation, as `Rc::new` makes.
use super::pystr::{count_down, count_up};
use super::value::Native;
use std::alloc::{dealloc, Layout};
use std::cell::Cell;
use std::ptr::NonNull;

#[repr(C)]
struct Header {
    rc: Cell<usize>,
    /// The object, which lives right after this header in the same allocation.
    obj: *const dyn Native,
}

#[repr(C)]
struct Inner<T> {
    head: Header,
    value: T,
}

/// A shared native object (`Rc<dyn Native>` in one word).
pub struct NativeRc(NonNull<Header>);

impl NativeRc {
    pub fn new<T: Native>(value: T) -> NativeRc {
        let inner = Box::new(Inner {
            head: Header {
                rc: Cell::new(1),
                obj: std::ptr::null::<T>() as *const dyn Native,
            },
            value,
        });
        let p = Box::into_raw(inner);
        // SAFETY: `p` is a live, uniquely owned allocation; the header points at the value
        // beside it, which never moves while the allocation lives.
        unsafe {
            (*p).head.obj = std::ptr::addr_of!((*p).value) as *const dyn Native;
            NativeRc(NonNull::new_unchecked(p as *mut Header))
        }
    }

    #[inline(always)]
    fn head(&self) -> &Header {
        // SAFETY: the header lives as long as any `NativeRc` pointing to it.
        unsafe { self.0.as_ref() }
    }

    #[inline(always)]
    pub fn ptr_eq(a: &NativeRc, b: &NativeRc) -> bool {
        a.0 == b.0
    }

    /// The object's address (what `id()` gives).
    #[inline(always)]
    pub fn as_ptr(&self) -> *const u8 {
        self.head().obj as *const u8
    }
}

impl Clone for NativeRc {
    #[inline(always)]
    fn clone(&self) -> NativeRc {
        count_up(&self.head().rc);
        NativeRc(self.0)
    }
}

impl Drop for NativeRc {
    #[inline]
    fn drop(&mut self) {
        if count_down(&self.head().rc) {
            self.drop_slow();
        }
    }
}

impl NativeRc {
    /// Drops the object and frees its block (out of line: `Value`'s drop glue, which every
    /// dropped value runs, stays small).
    #[inline(never)]
    fn drop_slow(&mut self) {
        let obj = self.head().obj;
        // SAFETY: this was the last reference: the object is dropped once, then the block
        // `new` allocated (a `Box<Inner<T>>`) is freed with that block's layout: `Inner<T>`
        // is `repr(C)`, so its layout is the header's extended by the object's, padded.
        unsafe {
            let (layout, _) = Layout::new::<Header>()
                .extend(Layout::for_value(&*obj))
                .unwrap_unchecked();
            std::ptr::drop_in_place(obj as *mut dyn Native);
            dealloc(self.0.as_ptr() as *mut u8, layout.pad_to_align());
        }
    }
}

impl std::ops::Deref for NativeRc {
    type Target = dyn Native;
    #[inline(always)]
    fn deref(&self) -> &dyn Native {
        // SAFETY: `obj` points at the live object inside this allocation.
        unsafe { &*self.head().obj }
    }
}

#[cfg(test)]
mod tests {
    use super::NativeRc;
    use crate::lang::value::Native;
    use std::any::Any;
    use std::cell::Cell;
    use std::rc::Rc;

    struct Obj(Rc<Cell<u32>>);
    impl Drop for Obj {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1)
        }
    }
    impl Native for Obj {
        fn type_name(&self) -> &str {
            "obj"
        }
        fn as_any(&self) -> &dyn Any {
            self
        }
    }
    #[repr(align(32))]
    struct Aligned(u8);
    impl Native for Aligned {
        fn type_name(&self) -> &str {
            "aligned"
        }
        fn as_any(&self) -> &dyn Any {
            self
        }
    }

    #[test]
    fn shares_downcasts_and_drops_once() {
        let dropped = Rc::new(Cell::new(0));
        let a = NativeRc::new(Obj(dropped.clone()));
        let b = a.clone();
        assert!(NativeRc::ptr_eq(&a, &b));
        assert_eq!(b.type_name(), "obj");
        assert!(a.as_any().downcast_ref::<Obj>().is_some());
        drop(a);
        assert_eq!(dropped.get(), 0);
        drop(b);
        assert_eq!(dropped.get(), 1);
        let al = NativeRc::new(Aligned(7));
        assert_eq!(
            al.as_ptr() as usize % 32,
            0,
            "the object keeps its alignment"
        );
        assert_eq!(al.as_any().downcast_ref::<Aligned>().map(|x| x.0), Some(7));
    }
}
