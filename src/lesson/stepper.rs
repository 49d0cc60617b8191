//! The interactive lesson: prose, then each block shown and run on Enter with a ✓ or a diff;
//! `e` edits a block, `r` opens the REPL on the lesson's variables, `b` goes back, `q` quits
//! and remembers the place: single keys, acting at once (`keys.rs`). Exercises wait at
//! `>>> ` until the check passes. Everything is drawn for the terminal's current width and
//! drawn again when it changes.
use super::check::DeviceKind;
use super::keys::{read_key, Key};
use super::parse::{Block, Exercise, Lesson, Step};
use super::progress::{Entry, Progress};
use super::render::{render, terminal_width, wrapped, Look};
use super::run::{attempt_lines, code_lines, output_lines, step_header, verdict, Reader};
use super::session::{LessonSession, YOUR_CODE};
use crate::repl::block::Collector;
use crate::repl::ReplHelper;
use nu_ansi_term::Color;
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::{Cmd, Editor, KeyCode, KeyEvent, Modifiers};
use std::io::Write;

type Rl = Editor<ReplHelper, FileHistory>;

const BLOCK_KEYS: &str = "Enter run · e edit · r REPL · b back · q quit";
const EXERCISE_KEYS: &str = "Type your answer at the prompt and press Enter; the check runs on it. An expression on its own shows its value, as at the REPL. Enter on an empty line opens your latest code (at first the starting code) in an editor. Commands: :clue · :solution · :skip · :repl · :back · :quit";

const EDITING: &str = "Editing (Enter runs it · Alt-Enter adds a line · Ctrl-C cancels):";
const NOTHING_BEFORE: &str = "There is nothing before this: it is the lesson's first step.";

/// What the learner asked for at a prompt.
enum Move {
    Next,
    Back,
    Quit,
}

/// The lesson after this one in the course, offered at the end.
#[derive(Clone, Debug)]
pub struct NextLesson {
    /// What `cudalearn lesson` takes to open it (its short name).
    pub arg: String,
    pub number: Option<u32>,
    pub title: String,
}

pub struct Stepper<'a> {
    pub lesson: &'a Lesson,
    /// Progress key: the file name without `.md`.
    pub slug: String,
    /// The name to type after `cudalearn lesson` for this one.
    pub short: String,
    pub device: DeviceKind,
    pub note: Option<String>,
    pub hints: bool,
    pub look: Look,
    pub next: Option<NextLesson>,
}

impl Stepper<'_> {
    /// How to draw now: the terminal's width may have changed since the lesson started.
    fn look(&self) -> Look {
        Look {
            width: terminal_width(),
            ..self.look
        }
    }

    /// Runner text wrapped to the width, in one style.
    fn say(&self, style: nu_ansi_term::Style, text: &str) {
        let look = self.look();
        print!("{}", look.paint(style, &wrapped(text, look.width, "", "")));
    }

    /// Runs the lesson at the terminal; returns the exit status.
    pub fn run(&self) -> i32 {
        let session = LessonSession::new();
        let Some(mut rl) = crate::repl::editor(session.interp.clone()) else {
            eprintln!("cudalearn: cannot use the terminal; printing the lesson instead");
            return self.transcript();
        };
        // Alt-Enter adds a line when editing a block.
        rl.bind_sequence(KeyEvent(KeyCode::Enter, Modifiers::ALT), Cmd::Newline);
        // After the editor (which takes SIGINT while it lives): Ctrl-C stops a running block.
        crate::signals::install();
        let mut progress = Progress::load();
        progress.set_last(&self.slug);
        let sections = &self.lesson.sections;
        let total = self.lesson.runnable();
        self.banner();
        let before = progress.get(&self.slug);
        // A finished lesson stays finished: opening it again is a review.
        let finished = before.is_some_and(|e| e.done);
        let mut i = match before {
            Some(e) if !e.done && e.step > 0 && e.step < sections.len() => {
                self.replay(&session, e.step);
                let n = self.number(e.step);
                self.say(
                    Color::Cyan.normal(),
                    &format!(
                        "Welcome back: resuming at step {n} of {total} (the steps before it were run again to restore your variables)."
                    ),
                );
                e.step
            }
            Some(e) if e.done => {
                self.say(
                    Color::Cyan.normal(),
                    "You finished this lesson before: this is a review, and it stays finished.",
                );
                0
            }
            _ => 0,
        };
        loop {
            let Some(sec) = sections.get(i) else {
                progress.set(
                    &self.slug,
                    Entry {
                        step: 0,
                        total: sections.len(),
                        done: true,
                    },
                );
                println!();
                self.say(
                    Color::Green.bold(),
                    &format!("✓ Lesson complete: {}", self.lesson.meta.title),
                );
                return self.offer_next();
            };
            progress.set(
                &self.slug,
                Entry {
                    step: i,
                    total: sections.len(),
                    done: finished,
                },
            );
            let first = i == 0;
            let mv = match &sec.step {
                Step::End => self.end_prompt(i, first),
                Step::Block(b) => self.block(&mut rl, &session, i, b, first),
                Step::Exercise(ex) => {
                    self.show(i);
                    self.exercise(&mut rl, &session, ex, first)
                }
            };
            match mv {
                Move::Next => i += 1,
                Move::Back => i = i.saturating_sub(1),
                Move::Quit => {
                    let msg = if finished {
                        format!(
                            "This lesson stays finished; `cudalearn lesson {}` opens it again.",
                            self.short
                        )
                    } else {
                        format!(
                            "Your place is saved: `cudalearn lesson` (or `cudalearn lesson {}`) resumes here.",
                            self.short
                        )
                    };
                    self.say(nu_ansi_term::Style::new(), &msg);
                    return 0;
                }
            }
        }
    }

    /// At the end: the next lesson, started at once on Enter (in this terminal, as a fresh
    /// `cudalearn lesson NAME`).
    fn offer_next(&self) -> i32 {
        let Some(next) = &self.next else {
            self.say(
                nu_ansi_term::Style::new(),
                "That was the last lesson of the course. `cudalearn lessons` shows them all.",
            );
            return 0;
        };
        let num = next.number.map(|n| format!(" {n}")).unwrap_or_default();
        self.say(
            nu_ansi_term::Style::new(),
            &format!("Next: lesson{num}, {}.", next.title),
        );
        loop {
            let width = self.prompt("Enter starts it · q quits");
            match read_key(width) {
                Key::Enter => {
                    println!();
                    return self.start(next);
                }
                Key::Resize => println!(),
                Key::Char(_) | Key::Interrupt | Key::Eof => {
                    println!();
                    self.say(
                        nu_ansi_term::Style::new(),
                        &format!(
                            "`cudalearn lesson {}` starts it when you are ready.",
                            next.arg
                        ),
                    );
                    return 0;
                }
            }
        }
    }

    /// Replaces this process with `cudalearn lesson NEXT`.
    fn start(&self, next: &NextLesson) -> i32 {
        let exe = match std::env::current_exe() {
            Ok(e) => e,
            Err(e) => {
                eprintln!("cudalearn: cannot find my own program to start the next lesson: {e}");
                return 2;
            }
        };
        let mut cmd = std::process::Command::new(exe);
        cmd.args(["lesson", &next.arg]);
        if !self.hints {
            cmd.arg("--no-hints");
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            let err = cmd.exec();
            eprintln!("cudalearn: cannot start the next lesson: {err}");
            2
        }
        #[cfg(not(unix))]
        {
            cmd.status()
                .map(|s| s.code().unwrap_or(1))
                .unwrap_or_else(|e| {
                    eprintln!("cudalearn: cannot start the next lesson: {e}");
                    2
                })
        }
    }

    /// Prints what --check prints (no terminal to talk to).
    fn transcript(&self) -> i32 {
        let run = super::run::CheckRun {
            lesson: self.lesson,
            device: self.device,
            note: self.note.clone(),
            look: self.look,
        };
        let failed = super::run::check_lesson(&run, &mut std::io::stdout());
        i32::from(failed > 0)
    }

    fn banner(&self) {
        let m = &self.lesson.meta;
        let look = self.look();
        let minutes = m
            .minutes
            .map(|n| format!(" · about {n} minutes"))
            .unwrap_or_default();
        self.say(Color::White.bold(), &format!("{}{minutes}", m.title));
        if let Some(note) = &self.note {
            print!("{}", render(&format!("> **Note:** {note}"), &look));
        }
        self.say(
            Color::DarkGray.normal(),
            &format!(
                "Keys at each block act at once, without Enter: {BLOCK_KEYS}. Running on {}.",
                self.device.name()
            ),
        );
    }

    /// Section `i` as it is first shown: its prose, then its step's header (and code).
    fn show(&self, i: usize) {
        let look = self.look();
        let sec = &self.lesson.sections[i];
        let prose = render(&sec.prose, &look);
        if !prose.is_empty() {
            print!("\n{prose}");
        }
        let (n, total) = (self.number(i), self.lesson.runnable());
        match &sec.step {
            Step::End => {}
            Step::Block(b) => {
                println!("\n{}", step_header(&look, n, total, "python", b.line));
                print!("{}", code_lines(&look, &b.code));
            }
            Step::Exercise(ex) => {
                println!("\n{}", step_header(&look, n, total, "exercise", ex.line));
                print!("{}", code_lines(&look, &ex.start));
                self.say(Color::DarkGray.normal(), EXERCISE_KEYS);
            }
        }
    }

    /// The terminal changed width: clear it and draw section `i` again at the new width.
    fn redraw(&self, i: usize) {
        print!("\x1b[2J\x1b[H");
        self.show(i);
    }

    /// A key prompt: the keys, wrapped, then `› `. Gives the width it was drawn for, which
    /// `read_key` watches (asking the terminal again after the prompt would miss a resize
    /// that lands between the two).
    fn prompt(&self, keys: &str) -> usize {
        let look = self.look();
        let text = wrapped(&format!("{keys} ›"), look.width, "", "");
        print!(
            "{} ",
            look.paint(Color::DarkGray.normal(), text.trim_end_matches('\n'))
        );
        let _ = std::io::stdout().flush();
        look.width
    }

    /// The 1-based number of the runnable step at section `i`.
    fn number(&self, i: usize) -> usize {
        self.lesson.sections[..=i.min(self.lesson.sections.len() - 1)]
            .iter()
            .filter(|s| !matches!(s.step, Step::End))
            .count()
    }

    /// Runs the steps before `upto` quietly (solutions for exercises) to rebuild the variables.
    fn replay(&self, session: &LessonSession, upto: usize) {
        for sec in &self.lesson.sections[..upto] {
            match &sec.step {
                // a launched block runs in processes of its own: nothing to rebuild
                Step::Block(b) if b.launch.is_none() => {
                    session.run(&b.code);
                }
                Step::Block(_) => {}
                Step::Exercise(ex) => {
                    session.run(&ex.solution);
                }
                Step::End => {}
            }
        }
    }

    /// Reads a line at a prompt; Ctrl-D quits, Ctrl-C asks again.
    fn read(&self, rl: &mut Rl, prompt: &str, initial: &str) -> Option<String> {
        loop {
            crate::signals::clear();
            let r = if initial.is_empty() {
                rl.readline(prompt)
            } else {
                rl.readline_with_initial(prompt, (initial, ""))
            };
            match r {
                Ok(s) => return Some(s),
                Err(ReadlineError::Interrupted) => {
                    println!("(:quit quits and keeps your place)");
                    if !initial.is_empty() {
                        return Some(String::new());
                    }
                }
                Err(_) => return None,
            }
        }
    }

    fn end_prompt(&self, i: usize, first: bool) -> Move {
        self.show(i);
        loop {
            let width = self.prompt("Enter finish · b back · q quit");
            let key = read_key(width);
            println!();
            match key {
                Key::Eof | Key::Char('q') => return Move::Quit,
                Key::Enter => return Move::Next,
                Key::Char('b') if first => println!("{NOTHING_BEFORE}"),
                Key::Char('b') => return Move::Back,
                Key::Resize => self.redraw(i),
                Key::Interrupt => println!("(q quits and keeps your place)"),
                Key::Char(_) => self.say(
                    nu_ansi_term::Style::new(),
                    "Enter finishes the lesson, b goes back, q quits (one key, no Enter).",
                ),
            }
        }
    }

    fn block(
        &self,
        rl: &mut Rl,
        session: &LessonSession,
        i: usize,
        b: &Block,
        first: bool,
    ) -> Move {
        self.show(i);
        loop {
            let width = self.prompt(BLOCK_KEYS);
            let key = read_key(width);
            match key {
                Key::Char(c) if !c.is_control() => println!("{c}"),
                _ => println!(),
            }
            match key {
                Key::Enter => {
                    self.run_block(session, b, &b.code);
                    return Move::Next;
                }
                Key::Char('e') => {
                    println!("{EDITING}");
                    let edited = self.read(rl, "", b.code.trim_end()).unwrap_or_default();
                    if edited.trim().is_empty() {
                        continue;
                    }
                    let mut code = edited;
                    code.push('\n');
                    self.run_block(session, b, &code);
                    self.say(
                        nu_ansi_term::Style::new(),
                        "(Enter runs the lesson's version and goes on; e edits again)",
                    );
                }
                Key::Char('r') => self.repl(rl, session),
                Key::Char('b') if first => println!("{NOTHING_BEFORE}"),
                Key::Char('b') => return Move::Back,
                Key::Char('q') | Key::Eof => return Move::Quit,
                Key::Resize => self.redraw(i),
                Key::Interrupt => println!("(q quits and keeps your place)"),
                Key::Char(c) => {
                    let shown = if c.is_control() {
                        "that".to_string()
                    } else {
                        format!("'{c}'")
                    };
                    self.say(
                        nu_ansi_term::Style::new(),
                        &format!("{shown} is not a key here. One key, no Enter: {BLOCK_KEYS}."),
                    )
                }
            }
        }
    }

    fn run_block(&self, session: &LessonSession, b: &Block, code: &str) {
        let look = self.look();
        let ran = session.run_block(b, code);
        print!("{}", output_lines(&look, &ran));
        if let (true, Some(h)) = (self.hints, &ran.hint) {
            print!(
                "{}",
                look.paint(
                    Color::Cyan.bold(),
                    &wrapped(&format!("hint: {h}"), look.width, "    ", "    ")
                )
            );
        }
        let (_, v) = verdict(
            &look,
            &self.lesson.file,
            b,
            &ran,
            self.device,
            Reader::Learner,
        );
        print!("{v}");
    }

    fn repl(&self, rl: &mut Rl, session: &LessonSession) {
        self.say(
            Color::Cyan.normal(),
            "The REPL, with the lesson's variables. :next (or Ctrl-D) goes back to the lesson.",
        );
        if let Ok(mut interp) = session.interp.try_borrow_mut() {
            interp.out = crate::lang::interp::Output::Stdout(std::io::BufWriter::with_capacity(
                0,
                std::io::stdout(),
            ));
        }
        crate::repl::run_embedded(rl, session.interp.clone(), self.hints);
        println!("Back to the lesson.");
    }

    fn exercise(&self, rl: &mut Rl, session: &LessonSession, ex: &Exercise, first: bool) -> Move {
        let mut draft = ex.start.trim_end().to_string();
        let mut clues_shown = 0;
        let mut pending = Collector::default();
        loop {
            let prompt = if pending.is_empty() { ">>> " } else { "... " };
            let Some(line) = self.read(rl, prompt, "") else {
                return Move::Quit;
            };
            let code = if pending.is_empty() {
                match line.trim() {
                    "" => {
                        println!("{EDITING}");
                        let edited = self.read(rl, "", &draft).unwrap_or_default();
                        if edited.trim().is_empty() {
                            continue;
                        }
                        // No Python line starts with ':', so this is a command typed in the
                        // editor by mistake: keep the code, say where commands go.
                        if let Some(cmd) =
                            edited.lines().map(str::trim).find(|l| l.starts_with(':'))
                        {
                            self.say(nu_ansi_term::Style::new(), &format!("{cmd} is a command: type it at the >>> prompt, not in the editor (your code is kept; Enter on an empty line reopens it)."));
                            draft = edited
                                .lines()
                                .filter(|l| !l.trim().starts_with(':'))
                                .collect::<Vec<_>>()
                                .join("\n");
                            continue;
                        }
                        edited + "\n"
                    }
                    ":clue" | ":c" => {
                        match ex.hints.get(clues_shown) {
                            Some(h) => {
                                clues_shown += 1;
                                let quoted: Vec<String> =
                                    h.trim().lines().map(|l| format!("> {l}")).collect();
                                let label = format!(
                                    "> **Clue {clues_shown}:** {}",
                                    quoted.join("\n").trim_start_matches("> ")
                                );
                                print!("{}", render(&label, &self.look()));
                            }
                            None if ex.hints.is_empty() => self.say(
                                nu_ansi_term::Style::new(),
                                "This exercise has no clues; :solution shows the answer.",
                            ),
                            None => self.say(
                                nu_ansi_term::Style::new(),
                                "No more clues; :solution shows the answer.",
                            ),
                        }
                        continue;
                    }
                    ":solution" | ":s" => {
                        self.say(
                            nu_ansi_term::Style::new(),
                            "A solution (Enter on an empty line puts it in the editor):",
                        );
                        print!("{}", code_lines(&self.look(), &ex.solution));
                        draft = ex.solution.trim_end().to_string();
                        continue;
                    }
                    ":skip" => {
                        // Later steps may need what the exercise defines.
                        let ran = session.run(&ex.solution);
                        if ran.error.is_none() {
                            self.say(nu_ansi_term::Style::new(), "Skipped; the solution was run so the next steps have what they need.");
                        }
                        return Move::Next;
                    }
                    ":back" | ":b" if first => {
                        println!("{NOTHING_BEFORE}");
                        continue;
                    }
                    ":back" | ":b" => return Move::Back,
                    ":quit" | ":q" => return Move::Quit,
                    ":repl" | ":r" => {
                        self.repl(rl, session);
                        continue;
                    }
                    t if t.starts_with(':') => {
                        self.say(
                            nu_ansi_term::Style::new(),
                            &format!("'{t}'? {EXERCISE_KEYS}"),
                        );
                        continue;
                    }
                    _ => match entries(&mut pending, &line) {
                        Some(entry) => entry,
                        None => continue,
                    },
                }
            } else {
                match entries(&mut pending, &line) {
                    Some(entry) => entry,
                    None => continue,
                }
            };
            let _ = rl.add_history_entry(code.trim_end());
            if only_expressions(&code) {
                // Exploring, as at the REPL: show the value, leave the check for an answer.
                self.explore(session, &code);
                continue;
            }
            let look = self.look();
            let a = session.attempt(&code, &ex.check);
            print!("{}", attempt_lines(&look, &a));
            if a.passed {
                self.say(Color::Green.bold(), "✓ Correct! The check passes.");
                return Move::Next;
            }
            self.say(Color::Yellow.bold(), &format!("✗ Not yet: {}", a.message()));
            if let (true, Some(h)) = (self.hints, a.hint()) {
                self.say(Color::Cyan.bold(), &format!("hint: {h}"));
            }
            if clues_shown < ex.hints.len() {
                self.say(nu_ansi_term::Style::new(), "(:clue gives a clue)");
            }
            draft = code.trim_end().to_string();
        }
    }

    /// Runs expressions typed at an exercise's prompt and shows their values (or the error
    /// and its hint), as the REPL does.
    fn explore(&self, session: &LessonSession, code: &str) {
        let look = self.look();
        let ran = session.run_as(YOUR_CODE, code, true);
        for l in ran.stdout.lines() {
            println!("{l}");
        }
        if let Some(e) = &ran.error {
            println!("{}", look.paint(Color::Red.bold(), e));
            if let (true, Some(h)) = (self.hints, &ran.hint) {
                self.say(Color::Cyan.bold(), &format!("hint: {h}"));
            }
        }
    }
}

/// Whether code is nothing but expression statements (so it asks, rather than answers).
fn only_expressions(code: &str) -> bool {
    use crate::lang::ast::StmtKind;
    match crate::lang::parser::parse_module(code) {
        Ok(stmts) => !stmts.is_empty() && stmts.iter().all(|s| matches!(s.kind, StmtKind::Expr(_))),
        Err(_) => false,
    }
}

/// The code a typed line completes, if any (two entries completed at once run as one).
fn entries(pending: &mut Collector, line: &str) -> Option<String> {
    let done = pending.push(line);
    (!done.is_empty()).then(|| done.concat())
}
