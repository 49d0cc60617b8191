//! `cudalearn run FILE`: run a script as `python3 FILE` would; and `run_program`, how every
//! front end (this, the REPL, lessons) runs code and reads its outcome.
use crate::lang::error::ExcKind;
use crate::lang::value::Value;
use crate::lang::{traceback, Interp, PyErr, Source};
use std::panic::{catch_unwind, AssertUnwindSafe};
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

/// How running a program (a file, a REPL entry, a lesson block) ended.
pub enum Outcome {
    /// It ran to the end.
    Done,
    /// It raised `SystemExit`: the process status CPython would exit with, and the text it
    /// would print to stderr first (for a code that is neither an int nor None).
    Exit {
        status: i32,
        message: Option<String>,
        err: PyErr,
    },
    /// An uncaught exception.
    Error(PyErr),
    /// cudalearn itself panicked (a bug); the interpreter's state is kept.
    Crashed,
}

/// Runs `src` in `interp` (expression values echoed with `echo`, as at a prompt), with Ctrl-C
/// armed afresh, output flushed, and a panic contained: the one place every front end (`run`,
/// the REPL, lessons) runs code and reads its outcome.
pub fn run_program(interp: &mut Interp, src: Rc<Source>, echo: bool) -> Outcome {
    crate::signals::clear();
    let result = catch_unwind(AssertUnwindSafe(|| interp.run(src, echo)));
    interp.out.flush();
    match result {
        Ok(Ok(())) => Outcome::Done,
        Ok(Err(err)) if err.is(ExcKind::SystemExit) => {
            let (status, message) = exit_status(interp, &err);
            Outcome::Exit {
                status,
                message,
                err,
            }
        }
        Ok(Err(err)) => Outcome::Error(err),
        Err(_) => {
            interp.recover_from_panic();
            Outcome::Crashed
        }
    }
}

/// CPython's `SystemExit` rule (`_Py_HandleSystemExit`): the code is `args[0]` (the args
/// tuple when there are several); None gives 0, an int (bools too) is the status as C's
/// `(int)` cast makes it, anything else is printed as `str(code)` and gives 1.
pub fn exit_status(interp: &mut Interp, err: &PyErr) -> (i32, Option<String>) {
    let args = crate::lang::value::exc_args(&err.0.exc);
    let code = match args.len() {
        0 => Value::None,
        1 => args[0].clone(),
        _ => Value::Tuple(Rc::new(args)),
    };
    match code {
        Value::None => (0, None),
        v => match v.as_int() {
            Some(n) => (n as i32, None),
            None => (1, Some(interp.to_str(&v).unwrap_or_default())),
        },
    }
}

/// Runs a program file; returns the process exit status (1 after an uncaught error).
pub fn run_source(name: &str, text: String, hints: bool) -> i32 {
    let mut interp = Interp::new();
    let src = Rc::new(Source {
        name: name.to_string(),
        text,
        show_lines: name != "<stdin>",
        prelude: false,
    });
    crate::signals::install();
    match run_program(&mut interp, src, false) {
        Outcome::Done => 0,
        Outcome::Exit {
            status, message, ..
        } => {
            if status != 0 {
                // the launcher names the failing rank's cause (torchrun's @record)
                crate::launch::record_failure(&format!("SystemExit: {status}"));
            }
            if let Some(m) = message {
                eprintln!("{m}");
            }
            status
        }
        Outcome::Error(err) => {
            crate::launch::record_failure(&traceback::exception_line(&mut interp, &err));
            let text = traceback::report(&mut interp, &err, hints);
            eprint!("{}", crate::style::error_text(&text));
            1
        }
        Outcome::Crashed => {
            eprintln!("cudalearn: internal error (a bug in cudalearn, please report it)");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(status, message)` of a program, as `python3 -c PROGRAM` exits (checked with CPython
    /// 3.11; the process status is the low byte of these, as the OS keeps it).
    fn outcome(program: &str) -> (i32, Option<String>) {
        let mut interp = Interp::new();
        interp.out = crate::lang::interp::Output::Capture(String::new());
        match run_program(&mut interp, Source::new("<t>", program), false) {
            Outcome::Done => (0, None),
            Outcome::Exit {
                status, message, ..
            } => (status, message),
            Outcome::Error(_) => (1, Some("error".into())),
            Outcome::Crashed => (-1, None),
        }
    }

    #[test]
    fn system_exit_follows_cpython() {
        assert_eq!(outcome("raise SystemExit"), (0, None));
        assert_eq!(outcome("raise SystemExit(None)"), (0, None));
        assert_eq!(outcome("raise SystemExit(3)"), (3, None));
        assert_eq!(outcome("raise SystemExit(True)"), (1, None));
        assert_eq!(outcome("exit(-1)").0 & 0xff, 255);
        assert_eq!(outcome("raise SystemExit(2**32 + 5)"), (5, None));
        assert_eq!(outcome("raise SystemExit('bye')"), (1, Some("bye".into())));
        assert_eq!(outcome("raise SystemExit(2.5)"), (1, Some("2.5".into())));
        assert_eq!(
            outcome("raise SystemExit(1, 2)"),
            (1, Some("(1, 2)".into()))
        );
        assert_eq!(outcome("x = 1"), (0, None));
        assert_eq!(outcome("1/0"), (1, Some("error".into())));
    }
}
