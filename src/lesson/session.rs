//! One interpreter per lesson: blocks run in order and share their variables. What a block
//! printed is captured; an uncaught exception becomes its `Type: message` line, as in the
//! golden case files, with the hint kept apart for the learner.
use crate::lang::error::ExcKind;
use crate::lang::interp::Output;
use crate::lang::{traceback, Interp, PyErr, Source};
use crate::run::Outcome;
use std::cell::RefCell;
use std::rc::Rc;

/// What running some code gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ran {
    pub stdout: String,
    /// `Type: message` of an uncaught exception.
    pub error: Option<String>,
    /// cudalearn's hint for that exception.
    pub hint: Option<String>,
    /// The source line the exception came from (for a bare failing `assert`).
    pub failed_line: Option<String>,
    /// The exception was raised inside code the learner typed (a function they defined and
    /// the check called), not in the check itself.
    pub in_your_code: bool,
}

/// The file name of code the learner typed at an exercise, so an exception raised in a
/// function they wrote can be told from one raised by the check.
pub const YOUR_CODE: &str = "<your code>";

impl Ran {
    /// Stdout, then the exception line: what expected outputs are matched against.
    pub fn text(&self) -> String {
        let mut s = self.stdout.clone();
        if let Some(e) = &self.error {
            if !s.is_empty() && !s.ends_with('\n') {
                s.push('\n');
            }
            s.push_str(e);
            s.push('\n');
        }
        s
    }
}

/// An exercise attempt: the learner's code, then the check.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    pub code: Ran,
    pub check: Option<Ran>,
    pub passed: bool,
}

impl Attempt {
    /// Why the attempt failed, in words for the learner (empty when it passed).
    pub fn message(&self) -> String {
        if let Some(e) = &self.code.error {
            return format!("your code raised {e}");
        }
        let Some(check) = &self.check else {
            return String::new();
        };
        match &check.error {
            None => String::new(),
            Some(e) if check.in_your_code => format!("your code raised {e}"),
            Some(e) if e == "AssertionError" => match &check.failed_line {
                Some(l) => format!("the check failed: {l}"),
                None => "the check failed".into(),
            },
            Some(e) => match e.strip_prefix("AssertionError: ") {
                Some(msg) => msg.to_string(),
                None => format!("the check raised {e}"),
            },
        }
    }

    /// The hint for an exception the learner's code raised (directly, or called by the check).
    pub fn hint(&self) -> Option<&str> {
        match &self.check {
            Some(c) if c.in_your_code => c.hint.as_deref(),
            _ => self.code.hint.as_deref(),
        }
    }
}

pub struct LessonSession {
    pub interp: Rc<RefCell<Interp>>,
}

impl Default for LessonSession {
    fn default() -> Self {
        LessonSession::new()
    }
}

impl LessonSession {
    pub fn new() -> LessonSession {
        LessonSession {
            interp: Rc::new(RefCell::new(Interp::new())),
        }
    }

    /// Runs code as a script would (no echo of expression values), capturing what it prints.
    pub fn run(&self, code: &str) -> Ran {
        self.run_as("<lesson>", code, false)
    }

    /// Runs a lesson block's `code`: in this session, or as N ranks when it says `launch=N`.
    pub fn run_block(&self, b: &super::parse::Block, code: &str) -> Ran {
        match b.launch {
            Some(n) => super::launched::run(code, n),
            None => self.run(code),
        }
    }

    /// Runs code under a file name; with `echo`, expression values are printed as at the
    /// REPL's prompt.
    pub fn run_as(&self, name: &str, code: &str, echo: bool) -> Ran {
        let Ok(mut interp) = self.interp.try_borrow_mut() else {
            return Ran {
                error: Some("RuntimeError: the lesson's interpreter is busy".into()),
                ..Ran::default()
            };
        };
        interp.out = Output::Capture(String::new());
        let src = Source::new(name, code);
        let outcome = crate::run::run_program(&mut interp, src, echo);
        let stdout = match std::mem::replace(&mut interp.out, Output::Capture(String::new())) {
            Output::Capture(s) => s,
            Output::Stdout(_) => String::new(),
        };
        let mut ran = Ran {
            stdout,
            ..Ran::default()
        };
        match outcome {
            Outcome::Done => {}
            // A lesson block cannot end the lesson: `exit()` reads as the exception it is.
            Outcome::Exit { err, .. } | Outcome::Error(err) => {
                describe(&mut interp, &err, &mut ran)
            }
            Outcome::Crashed => {
                ran.error = Some(
                    "cudalearn: internal error while running this block (a bug in cudalearn, \
                     please report it)"
                        .into(),
                );
            }
        }
        ran
    }

    /// Runs the learner's code, then (if it raised nothing) the check.
    pub fn attempt(&self, code: &str, check: &str) -> Attempt {
        let code = self.run_as(YOUR_CODE, code, false);
        if code.error.is_some() {
            return Attempt {
                code,
                check: None,
                passed: false,
            };
        }
        let check = self.run(check);
        let passed = check.error.is_none();
        Attempt {
            code,
            check: Some(check),
            passed,
        }
    }
}

fn describe(interp: &mut Interp, err: &PyErr, ran: &mut Ran) {
    ran.error = Some(traceback::exception_line(interp, err));
    let report = traceback::report(interp, err, true);
    let hint: Vec<&str> = report
        .lines()
        .filter_map(|l| l.strip_prefix("hint: "))
        .collect();
    if !hint.is_empty() {
        ran.hint = Some(hint.join("\n"));
    }
    // The learner's code was running when it was raised (it may have called lesson code).
    ran.in_your_code = err.0.tb.iter().any(|e| e.src.name == YOUR_CODE);
    if err.is(ExcKind::AssertionError) {
        if let Some(tb) = err.0.tb.first() {
            let (_, start) = tb.src.line_of(tb.span.start);
            ran.failed_line = Some(tb.src.line_text(start).trim().to_string());
        }
    }
}
