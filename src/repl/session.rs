//! One REPL session: the interpreter and how an entry is run and its errors shown.
use crate::lang::error::ExcKind;
use crate::lang::interp::Output;
use crate::lang::symbol::Sym;
use crate::lang::{traceback, Interp, Source};
use crate::run::Outcome;
use std::cell::RefCell;
use std::io::{IsTerminal, Write};
use std::rc::Rc;

/// What the loop does after an entry.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Exit(i32),
    /// `:next` in a lesson's REPL: back to the lesson.
    Next,
}

pub struct Session {
    /// Shared with the rustyline helper, which reads it to complete names.
    pub interp: Rc<RefCell<Interp>>,
    pub hints: bool,
    /// Stdin is a terminal: Ctrl-C returns to the prompt. When piped it ends the run.
    pub interactive: bool,
    /// Running inside a lesson (`:next` goes back to it).
    pub lesson: bool,
}

impl Session {
    pub fn new(hints: bool, interactive: bool) -> Session {
        let mut interp = Interp::new();
        if std::io::stdout().is_terminal() {
            // Unbuffered into Rust's line-buffered stdout: a loop's prints appear as they happen.
            interp.out = Output::Stdout(std::io::BufWriter::with_capacity(0, std::io::stdout()));
        }
        Session {
            interp: Rc::new(RefCell::new(interp)),
            hints,
            interactive,
            lesson: false,
        }
    }

    /// A session over a lesson's interpreter; prints go straight to the terminal.
    pub fn embedded(interp: Rc<RefCell<Interp>>, hints: bool) -> Session {
        Session {
            interp,
            hints,
            interactive: true,
            lesson: true,
        }
    }

    /// Runs one entry, echoing expression values; prints any error and keeps going.
    pub fn run_code(&self, text: &str, echo: bool) -> Flow {
        if let Some(flow) = self.exit_word(text) {
            return flow;
        }
        if let Some(msg) = magic(text) {
            eprintln!("{msg}");
            return Flow::Continue;
        }
        let src = Source::new("<stdin>", text);
        let Ok(mut interp) = self.interp.try_borrow_mut() else {
            return Flow::Continue;
        };
        let err = match crate::run::run_program(&mut interp, src, echo) {
            Outcome::Done => return Flow::Continue,
            Outcome::Exit {
                status, message, ..
            } => {
                if let Some(m) = message {
                    eprintln!("{m}");
                }
                return Flow::Exit(status);
            }
            Outcome::Error(err) => err,
            Outcome::Crashed => {
                eprintln!(
                    "cudalearn: internal error while running that (a bug in cudalearn, please \
                     report it); your variables are kept"
                );
                return Flow::Continue;
            }
        };
        let report = traceback::report(&mut interp, &err, self.hints);
        eprint!("{}", crate::style::error_text(&report));
        let _ = std::io::stderr().flush();
        if err.is(ExcKind::KeyboardInterrupt) && !self.interactive {
            return Flow::Exit(130);
        }
        Flow::Continue
    }

    /// Bare `exit` or `quit` leaves, as in Python 3.13 (unless the user defined that name).
    fn exit_word(&self, text: &str) -> Option<Flow> {
        let word = text.trim();
        if word != "exit" && word != "quit" {
            return None;
        }
        let interp = self.interp.try_borrow().ok()?;
        let shadowed = Sym::lookup(word).is_some_and(|s| interp.get_global(s).is_some());
        (!shadowed).then_some(Flow::Exit(0))
    }
}

/// IPython's `%` magics are not Python: point to cudalearn's own command instead of a
/// SyntaxError.
fn magic(text: &str) -> Option<String> {
    let t = text.trim_start();
    let word = t.strip_prefix('%')?;
    let word = word.trim_start_matches('%');
    let name: String = word.chars().take_while(|c| c.is_alphanumeric()).collect();
    let rest = word[name.len()..].trim();
    Some(match name.as_str() {
        "timeit" | "time" => {
            let example = if rest.is_empty() {
                "sum(range(10**6))"
            } else {
                rest
            };
            format!(
                "%{name} is an IPython command, not Python; here `:time STATEMENT` times a statement: :time {example}"
            )
        }
        _ => format!(
            "%{name} is an IPython command, not Python; :help lists cudalearn's own commands"
        ),
    })
}
