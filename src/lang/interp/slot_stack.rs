//! The locals of running calls, in one block, as CPython keeps its frames on one data stack:
//! a call of a simple function takes the next `n` slots (its window) instead of a `Vec` of
//! its own, fills them with its arguments, and gives them back emptied when it returns.
//! Calls nest (a generator's step too: it runs to its next `yield` inside the call that
//! resumed it), so windows are taken and given back in stack order. When the block is full
//! (very deep recursion of functions with many locals), calls take `Vec`s as before.
//!
//! Every slot above the top is empty (`None`): a new window needs no clearing, and giving
//! one back drops what its slots hold.
use crate::lang::value::Value;

/// Slots in the block (1 MiB), allocated at the first call.
const CAP: usize = 1 << 16;

pub struct SlotStack {
    /// The block: `cap` slots (none, at a dangling address, before the first call, so that a
    /// function without locals takes an empty window then). Kept as a raw pointer, never
    /// as a reference to the whole block, so the windows of live calls are the only
    /// references into it.
    base: *mut Option<Value>,
    cap: usize,
    top: usize,
}

/// A taken window: where it starts, for `give_back`.
#[derive(Clone, Copy)]
pub struct Mark(usize);

impl Default for SlotStack {
    fn default() -> Self {
        SlotStack {
            base: std::ptr::NonNull::dangling().as_ptr(),
            cap: 0,
            top: 0,
        }
    }
}

impl SlotStack {
    /// The next `n` slots, all empty, or `None` when they do not fit.
    ///
    /// # Safety
    /// The window's lifetime is the caller's to keep: it must be given back (`give_back`,
    /// with the mark) before any window taken before it, and not used after that.
    #[inline(always)]
    pub unsafe fn take<'w>(&mut self, n: usize) -> Option<(Mark, &'w mut [Option<Value>])> {
        if self.top + n > self.cap {
            return self.take_first(n);
        }
        let at = self.top;
        self.top += n;
        // SAFETY: `at + n <= cap` slots lie inside the block (or are none, at an aligned
        // dangling address); no other window covers them
        // (windows below `at` belong to calls still running, none lies above the top).
        Some((Mark(at), unsafe {
            std::slice::from_raw_parts_mut(self.base.add(at), n)
        }))
    }

    /// `take` when the block is not there yet (the first call) or is full.
    #[cold]
    #[inline(never)]
    fn take_first<'w>(&mut self, n: usize) -> Option<(Mark, &'w mut [Option<Value>])> {
        if self.cap != 0 || n > CAP {
            return None;
        }
        let block: Box<[Option<Value>]> = (0..CAP).map(|_| None).collect();
        self.base = Box::into_raw(block) as *mut Option<Value>;
        self.cap = CAP;
        // SAFETY: passed on from the caller of `take`.
        unsafe { self.take(n) }
    }

    /// Empties the window taken at `mark` (whose slots are `window`) and gives it back.
    #[inline(always)]
    pub fn give_back(&mut self, mark: Mark, window: &mut [Option<Value>]) {
        empty(window);
        self.top = mark.0;
    }

    /// Whether no window is taken (no call is running).
    pub fn is_empty(&self) -> bool {
        self.top == 0
    }

    /// After a panic unwound through running calls: empties every slot and starts again.
    pub fn reset(&mut self) {
        if self.cap != 0 {
            // SAFETY: no call is running (the panic ended them all), so no window is live.
            let all = unsafe { std::slice::from_raw_parts_mut(self.base, self.cap) };
            all.fill(None);
        }
        self.top = 0;
    }
}

/// Empties every slot, dropping only the values that own something: the others are read by
/// their tag alone and overwritten undropped. (Moving each slot out instead read 16 bytes
/// just written as two 8-byte halves, a store-forwarding stall per slot that made `closures`
/// 7% slower.)
#[inline(always)]
pub fn empty(slots: &mut [Option<Value>]) {
    for v in slots.iter_mut() {
        match v {
            Some(x) if !x.owns_nothing() => *v = None,
            // SAFETY: the slot holds nothing to drop, so overwriting it leaks nothing.
            _ => unsafe { std::ptr::write(v, None) },
        }
    }
}

impl Drop for SlotStack {
    fn drop(&mut self) {
        if self.cap != 0 {
            // SAFETY: the block came from `Box::into_raw` of `cap` slots, and is freed once.
            drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(self.base, self.cap)) });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_nest_and_come_back_empty() {
        let mut s = SlotStack::default();
        // SAFETY (every `take` below): each window is given back, in stack order, before
        // the stack is used again below it.
        unsafe {
            let (m0, w0) = s.take(0).unwrap();
            assert!(w0.is_empty());
            s.give_back(m0, w0);
            let (m1, w1) = s.take(3).unwrap();
            w1[0] = Some(Value::Int(1));
            w1[2] = Some(Value::from("text"));
            let (m2, w2) = s.take(2).unwrap();
            assert!(w2.iter().all(Option::is_none));
            w2[1] = Some(Value::list(vec![Value::Int(5)]));
            s.give_back(m2, w2);
            s.give_back(m1, w1);
            let (m3, w3) = s.take(5).unwrap();
            assert!(w3.iter().all(Option::is_none));
            s.give_back(m3, w3);
            assert!(s.take(CAP + 1).is_none());
            let (m4, w4) = s.take(CAP).unwrap();
            assert!(s.take(1).is_none());
            s.give_back(m4, w4);
        }
    }
}
