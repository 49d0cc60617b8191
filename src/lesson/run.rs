//! `cudalearn lesson N --check`: every block and every exercise run without asking, printed
//! as a transcript (the same with every run: no timings, no absolute paths, colour only on a
//! terminal without NO_COLOR), and a count of what did not match. Also the pieces of display
//! the interactive stepper shares.
use super::check::{self, DeviceKind};
use super::parse::{Block, Exercise, Lesson, Step, DEFAULT_TIMEOUT};
use super::render::{render, Look};
use super::session::{Attempt, LessonSession, Ran};
use nu_ansi_term::Color;
use std::io::Write;

/// The header line of a step: `━━ 2/5 · python · line 14`.
pub fn step_header(look: &Look, n: usize, total: usize, what: &str, line: usize) -> String {
    let text = format!("━━ {n}/{total} · {what} · line {line}");
    look.paint(Color::Cyan.bold(), &text)
}

/// Code indented by four spaces, highlighted when colour is on; a line too long for the
/// width continues on the next, broken between words.
pub fn code_lines(look: &Look, code: &str) -> String {
    let mut s = String::new();
    for l in code.trim_end_matches('\n').lines() {
        if l.trim().is_empty() {
            s.push('\n');
            continue;
        }
        for piece in super::render::wrap_code(l, look.width, "    ") {
            s.push_str("    ");
            if look.color {
                s.push_str(&crate::repl::highlight::paint_line(&piece));
            } else {
                s.push_str(&piece);
            }
            s.push('\n');
        }
    }
    s
}

/// Printed output, indented; the exception line in red.
pub fn output_lines(look: &Look, ran: &Ran) -> String {
    let mut s = String::new();
    for l in ran.stdout.lines() {
        let line = format!("    {l}");
        s.push_str(line.trim_end());
        s.push('\n');
    }
    if let Some(e) = &ran.error {
        for l in e.lines() {
            s.push_str(&format!("    {}\n", look.paint(Color::Red.bold(), l)));
        }
    }
    s
}

/// Whether an expected output uses `...` lines or `[..]`.
fn is_pattern(want: &str) -> bool {
    want.contains("[..]") || want.lines().any(|l| l.trim() == "...")
}

/// Who reads a verdict: the learner taking the lesson, or its author running `--check`
/// (who is told where the expected output is in the markdown).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    Learner,
    Author,
}

/// Whether a block's run matched; the lines that say so (✓, or ✗ and a diff).
pub fn verdict(
    look: &Look,
    file: &str,
    block: &Block,
    ran: &Ran,
    device: DeviceKind,
    reader: Reader,
) -> (bool, String) {
    let ok = |msg: &str| format!("  {}\n", look.paint(Color::Green.bold(), msg));
    let bad = |msg: &str| {
        let lines = super::render::wrap(msg, look.width, "  ", "    ");
        let mut s = String::new();
        for l in lines {
            s.push_str(&look.paint(Color::Red.bold(), &l));
            s.push('\n');
        }
        s
    };
    let got = ran.text();
    let (want, tol, place) = match check::pick(&block.outputs, device) {
        Some(e) => {
            let kind = match e.variant {
                super::parse::Variant::Any => String::new(),
                v => format!(", {}", v.name()),
            };
            (e.text.as_str(), e.tol, format!("{file}:{}{kind}", e.line))
        }
        None if block.outputs.is_empty() => ("", None, "no output".to_string()),
        None => {
            return (
                false,
                bad(&format!(
                    "✗ no expected output for {} (add an ```output {} block after line {})",
                    device.name(),
                    if device == DeviceKind::Cpu {
                        "cpu"
                    } else {
                        "cuda"
                    },
                    block.line
                )),
            )
        }
    };
    if check::matches(want, &got, tol) {
        return (true, ok("✓ as expected"));
    }
    let mut s = match reader {
        Reader::Author => bad(&format!("✗ expected ({place}) - but printed +:")),
        Reader::Learner => bad("✗ Your output differs from the lesson's (- expected, + yours):"),
    };
    let diff = check::diff(want, &got, tol);
    for l in check::format_diff(&diff, "    ").lines() {
        let painted = if l.trim_start().starts_with("- ") {
            look.paint(Color::Red.normal(), l)
        } else if l.trim_start().starts_with("+ ") {
            look.paint(Color::Green.normal(), l)
        } else {
            l.to_string()
        };
        s.push_str(&painted);
        s.push('\n');
    }
    (false, s)
}

/// What the check of an exercise attempt said, indented.
pub fn attempt_lines(look: &Look, a: &Attempt) -> String {
    let mut s = String::new();
    if !a.code.stdout.is_empty() {
        s.push_str(&output_lines(
            look,
            &Ran {
                stdout: a.code.stdout.clone(),
                ..Ran::default()
            },
        ));
    }
    if let Some(c) = &a.check {
        if !c.stdout.is_empty() {
            s.push_str(&output_lines(
                look,
                &Ran {
                    stdout: c.stdout.clone(),
                    ..Ran::default()
                },
            ));
        }
    }
    s
}

/// Options of a `--check` run.
pub struct CheckRun<'a> {
    pub lesson: &'a Lesson,
    pub device: DeviceKind,
    pub note: Option<String>,
    pub look: Look,
}

/// Runs the whole lesson, writing the transcript to `out`; returns the number of steps that
/// did not do what the lesson says.
pub fn check_lesson(run: &CheckRun, out: &mut dyn Write) -> usize {
    let CheckRun {
        lesson,
        device,
        look,
        ..
    } = run;
    let session = LessonSession::new();
    crate::signals::install();
    let total = lesson.runnable();
    let mut failed = 0;
    let mut n = 0;
    let title = format!(
        "Lesson: {} ({}), on {}",
        lesson.meta.title,
        lesson.file,
        device.name()
    );
    let title = super::render::wrapped(&title, look.width, "", "  ");
    let _ = write!(out, "{}", look.paint(Color::White.bold(), &title));
    if let Some(note) = &run.note {
        let _ = write!(out, "{}", render(&format!("> **Note:** {note}"), look));
    }
    for sec in &lesson.sections {
        let prose = render(&sec.prose, look);
        if !prose.is_empty() {
            let _ = write!(out, "\n{prose}");
        }
        let mut s = String::new();
        match &sec.step {
            Step::End => {}
            Step::Block(b) => {
                n += 1;
                s.push_str(&format!(
                    "\n{}\n",
                    step_header(look, n, total, "python", b.line)
                ));
                s.push_str(&code_lines(look, &b.code));
                let limit = b.timeout.unwrap_or(DEFAULT_TIMEOUT);
                let (ran, timed_out) = with_limit(limit, || session.run_block(b, &b.code));
                if timed_out {
                    s.push_str(&output_lines(look, &ran));
                    let _ = write!(out, "{s}");
                    return stopped(out, look, &lesson.file, b.line, limit, failed);
                }
                let (ok, v) = verdict(look, &lesson.file, b, &ran, *device, Reader::Author);
                // A match against a pattern (`...`, `[..]`, tol=) shows the pattern: the
                // transcript then reads the same on every run (timings, addresses) and can be
                // snapshot-tested; anything else shows what the block really printed.
                let pattern = check::pick(&b.outputs, *device)
                    .filter(|e| ok && (e.tol.is_some() || is_pattern(&e.text)));
                if let Some(e) = pattern {
                    s.push_str("  output (matched the lesson's pattern):\n");
                    for l in e.text.lines() {
                        s.push_str(format!("    {l}").trim_end());
                        s.push('\n');
                    }
                } else if !ran.text().is_empty() {
                    s.push_str("  output:\n");
                    s.push_str(&output_lines(look, &ran));
                }
                s.push_str(&v);
                failed += usize::from(!ok);
            }
            Step::Exercise(ex) => {
                n += 1;
                s.push_str(&format!(
                    "\n{}\n",
                    step_header(look, n, total, "exercise", ex.line)
                ));
                let limit = ex.timeout.unwrap_or(DEFAULT_TIMEOUT);
                let ((ok, text), timed_out) =
                    with_limit(limit, || check_exercise(look, &session, ex));
                s.push_str(&text);
                if timed_out {
                    let _ = write!(out, "{s}");
                    return stopped(out, look, &lesson.file, ex.line, limit, failed);
                }
                failed += usize::from(!ok);
            }
        }
        let _ = write!(out, "{s}");
        let _ = out.flush();
        if crate::lang::interp::INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
            || s.contains("    KeyboardInterrupt\n")
        {
            let _ = writeln!(
                out,
                "\nInterrupted (Ctrl-C): the rest of the lesson was not run."
            );
            return failed.max(1);
        }
    }
    let summary = if failed == 0 {
        look.paint(
            Color::Green.bold(),
            &format!("Passed: {} as expected on {}.", steps(total), device.name()),
        )
    } else {
        look.paint(
            Color::Red.bold(),
            &format!(
                "FAILED: {failed} of {} not as expected on {}.",
                steps(total),
                device.name()
            ),
        )
    };
    let _ = writeln!(out, "\n{summary}");
    failed
}

/// Runs `f`, stopping it (as Ctrl-C would) when it takes longer than `limit` seconds; says
/// whether it was stopped. A lesson check must end even when a block loops forever.
fn with_limit<T>(limit: u64, f: impl FnOnce() -> T) -> (T, bool) {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{mpsc, Arc};
    let (done, wait) = mpsc::channel::<()>();
    let fired = Arc::new(AtomicBool::new(false));
    let flag = fired.clone();
    let watchdog = std::thread::spawn(move || {
        if let Err(mpsc::RecvTimeoutError::Timeout) =
            wait.recv_timeout(std::time::Duration::from_secs(limit))
        {
            flag.store(true, Ordering::SeqCst);
            crate::lang::interp::INTERRUPTED.store(true, Ordering::SeqCst);
        }
    });
    let value = f();
    let _ = done.send(());
    let _ = watchdog.join();
    let timed_out = fired.load(Ordering::SeqCst);
    if timed_out {
        crate::signals::clear();
    }
    (value, timed_out)
}

/// Reports a step stopped by its time limit (with its place in the markdown) and ends the
/// check: the steps after it may need what it did not finish.
fn stopped(
    out: &mut dyn Write,
    look: &Look,
    file: &str,
    line: usize,
    limit: u64,
    failed: usize,
) -> usize {
    let msg = format!(
        "✗ {file}:{line}: stopped after {limit} s: this step ran longer than its time limit \
         (if it needs longer, raise it with timeout=N in the fence's info string, e.g. \
         ```python timeout=300); the rest of the lesson was not run."
    );
    let _ = write!(
        out,
        "{}",
        look.paint(
            Color::Red.bold(),
            &super::render::wrapped(&msg, look.width, "  ", "    ")
        )
    );
    let _ = writeln!(out);
    let _ = out.flush();
    failed + 1
}

/// A line of the exercise report, wrapped under a two-space indent, painted if `style`.
fn note(look: &Look, style: Option<nu_ansi_term::Style>, text: &str) -> String {
    let text = super::render::wrapped(text, look.width, "  ", "    ");
    match style {
        Some(st) => text
            .lines()
            .map(|l| format!("{}\n", look.paint(st, l)))
            .collect(),
        None => text,
    }
}

/// The starting code must fail the check, each wrong answer too, and the solution must pass.
fn check_exercise(look: &Look, session: &LessonSession, ex: &Exercise) -> (bool, String) {
    let red = Some(Color::Red.bold());
    let mut s = code_lines(look, &ex.start);
    let mut ok = true;
    let start = session.attempt(&ex.start, &ex.check);
    s.push_str(&attempt_lines(look, &start));
    if start.passed {
        ok = false;
        s.push_str(&note(
            look,
            red,
            "✗ the starting code already passes the check: there is nothing to do",
        ));
    } else {
        s.push_str(&note(
            look,
            None,
            &format!(
                "the starting code fails the check, as it should: {}",
                start.message()
            ),
        ));
    }
    for (k, wrong) in ex.wrong.iter().enumerate() {
        s.push_str(&format!("  wrong answer {}:\n", k + 1));
        s.push_str(&code_lines(look, wrong));
        let a = session.attempt(wrong, &ex.check);
        s.push_str(&attempt_lines(look, &a));
        if a.passed {
            ok = false;
            s.push_str(&note(
                look,
                red,
                "✗ this wrong answer passes the check: the check must reject it",
            ));
        } else {
            s.push_str(&note(
                look,
                None,
                &format!("rejected, as it should be: {}", a.message()),
            ));
        }
    }
    s.push_str("  solution:\n");
    s.push_str(&code_lines(look, &ex.solution));
    let sol = session.attempt(&ex.solution, &ex.check);
    s.push_str(&attempt_lines(look, &sol));
    if sol.passed {
        s.push_str(&note(
            look,
            Some(Color::Green.bold()),
            "✓ the solution passes the check",
        ));
    } else {
        ok = false;
        s.push_str(&note(
            look,
            red,
            &format!("✗ the solution fails the check: {}", sol.message()),
        ));
    }
    (ok, s)
}

fn steps(n: usize) -> String {
    if n == 1 {
        "1 step".into()
    } else {
        format!("{n} steps")
    }
}
