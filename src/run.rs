//! `cudalearn run FILE`: run a script as `python3 FILE` would.
use crate::lang::error::ExcKind;
use crate::lang::{traceback, Interp, Source};
use std::rc::Rc;

/// Stack for the interpreter thread: deep Python recursion (1000 frames) must fit.
pub const STACK_SIZE: usize = 512 * 1024 * 1024;

/// Runs `f` on a thread with a stack big enough for the interpreter.
pub fn with_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let handle = std::thread::Builder::new()
        .name("cudalearn".into())
        .stack_size(STACK_SIZE)
        .spawn(f);
    match handle {
        Ok(h) => match h.join() {
            Ok(v) => v,
            Err(p) => std::panic::resume_unwind(p),
        },
        Err(_) => panic!("cannot start the interpreter thread"),
    }
}

/// Runs a program; returns the process exit status (1 after an uncaught error).
pub fn run_source(name: &str, text: String, hints: bool) -> i32 {
    let mut interp = Interp::new();
    let mut src = Source {
        name: name.to_string(),
        text,
        show_lines: name != "<stdin>",
        prelude: false,
    };
    if name == "<stdin>" {
        src.show_lines = false;
    }
    let src = Rc::new(src);
    crate::signals::install();
    let result = interp.run(src, false);
    interp.out.flush();
    match result {
        Ok(()) => 0,
        Err(err) => {
            if err.is(ExcKind::SystemExit) {
                let code = exit_status(&mut interp, &err);
                if code != 0 {
                    crate::launch::record_failure(&format!("SystemExit: {code}"));
                }
                return code;
            }
            crate::launch::record_failure(&traceback::exception_line(&mut interp, &err));
            let text = traceback::report(&mut interp, &err, hints);
            eprint!("{}", crate::style::error_text(&text));
            1
        }
    }
}

/// The status `exit(arg)` asks for: an int as is, None as 0, anything else printed, then 1.
pub fn exit_status(interp: &mut Interp, err: &crate::lang::PyErr) -> i32 {
    let args = crate::lang::value::exc_args(&err.0.exc);
    match args.first() {
        None | Some(crate::lang::value::Value::None) => 0,
        Some(v) => match v.as_int() {
            Some(code) => code as i32,
            None => {
                let msg = interp.to_str(v).unwrap_or_default();
                eprintln!("{msg}");
                1
            }
        },
    }
}
