//! Ctrl-C: while a program runs it sets a flag that the interpreter turns into
//! KeyboardInterrupt at the next loop iteration, call, or engine op (an operator or a call of
//! a native), so one long statement of matmuls stops too.
use crate::lang::interp::INTERRUPTED;
use std::sync::atomic::Ordering;
use std::sync::Once;

static INSTALL: Once = Once::new();

pub fn install() {
    INSTALL.call_once(|| {
        // Failing to install (e.g. a handler already set by a host) only loses Ctrl-C handling.
        let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    });
}

/// Forgets a Ctrl-C that arrived while nothing was running.
pub fn clear() {
    INTERRUPTED.store(false, Ordering::SeqCst);
}
