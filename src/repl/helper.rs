//! The rustyline helper: completion, highlighting and the validator for multi-line buffers.
use super::{block, complete, highlight};
use crate::lang::Interp;
use nu_ansi_term::Color;
use rustyline::completion::Completer;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Helper, Hinter};
use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

#[derive(Hinter)]
pub struct ReplHelper {
    pub interp: Rc<RefCell<Interp>>,
    pub color: bool,
}

impl Helper for ReplHelper {}

impl Completer for ReplHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        // The interpreter is never running while the user edits a line; if it somehow is
        // borrowed, offer nothing rather than panic.
        match self.interp.try_borrow_mut() {
            Ok(mut interp) => Ok(complete::complete(&mut interp, line, pos)),
            Err(_) => Ok((pos, Vec::new())),
        }
    }
}

impl Highlighter for ReplHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if !self.color {
            return Cow::Borrowed(line);
        }
        let painted: Vec<String> = line.split('\n').map(highlight::paint_line).collect();
        Cow::Owned(painted.join("\n"))
    }

    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        _default: bool,
    ) -> Cow<'b, str> {
        if self.color {
            Cow::Owned(Color::Green.bold().paint(prompt).to_string())
        } else {
            Cow::Borrowed(prompt)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        self.color
    }
}

/// Lines typed one at a time are judged by the REPL loop (which shows `... `); this validator
/// handles a buffer that already holds several lines — a block recalled from history or pasted —
/// and lets Enter run it unless it is unfinished (an open bracket, a header without a body).
impl Validator for ReplHelper {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        let input = ctx.input();
        if input.contains('\n') && block::incomplete(input) {
            Ok(ValidationResult::Incomplete)
        } else {
            Ok(ValidationResult::Valid(None))
        }
    }
}
