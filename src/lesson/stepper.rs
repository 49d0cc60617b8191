//! The interactive lesson: prose, then each block shown and run on Enter with a ✓ or a diff;
//! `e` edits a block, `r` opens the REPL on the lesson's variables, `b` goes back, `q` quits
//! and remembers the place. Exercises wait at `>>> ` until the check passes.
use super::check::DeviceKind;
use super::parse::{Block, Exercise, Lesson, Step};
use super::progress::{Entry, Progress};
use super::render::{render, Look};
use super::run::{attempt_lines, code_lines, output_lines, step_header, verdict};
use super::session::LessonSession;
use crate::repl::block::Collector;
use crate::repl::ReplHelper;
use nu_ansi_term::Color;
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::{Cmd, Editor, KeyCode, KeyEvent, Modifiers};

type Rl = Editor<ReplHelper, FileHistory>;

const BLOCK_KEYS: &str = "Enter run · e edit · r REPL · b back · q quit";
const EXERCISE_KEYS: &str = "type your answer at the prompt (Enter on an empty line opens your latest code, at first the starting code, in an editor) · :hint · :solution · :skip · :repl · :back · :quit";

const EDITING: &str = "Editing (Enter runs it · Alt-Enter adds a line · Ctrl-C cancels):";

/// What the learner asked for at a prompt.
enum Move {
    Next,
    Back,
    Quit,
}

pub struct Stepper<'a> {
    pub lesson: &'a Lesson,
    /// Progress key: the file name without `.md`.
    pub slug: String,
    pub device: DeviceKind,
    pub note: Option<String>,
    pub hints: bool,
    pub look: Look,
}

impl Stepper<'_> {
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
        let sections = &self.lesson.sections;
        let total = self.lesson.runnable();
        self.banner();
        let mut i = match progress.get(&self.slug) {
            Some(e) if !e.done && e.step > 0 && e.step < sections.len() => {
                self.replay(&session, e.step);
                let n = self.number(e.step);
                println!(
                    "{}",
                    self.look.paint(
                        Color::Cyan.normal(),
                        &format!(
                            "Welcome back: resuming at step {n} of {total} (the steps before it were run again to restore your variables)."
                        )
                    )
                );
                e.step
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
                println!(
                    "\n{}",
                    self.look.paint(
                        Color::Green.bold(),
                        &format!("✓ Lesson complete: {}", self.lesson.meta.title)
                    )
                );
                println!("`cudalearn lessons` shows what comes next.");
                return 0;
            };
            progress.set(
                &self.slug,
                Entry {
                    step: i,
                    total: sections.len(),
                    done: false,
                },
            );
            let prose = render(&sec.prose, &self.look);
            if !prose.is_empty() {
                print!("\n{prose}");
            }
            let n = self.number(i);
            let mv = match &sec.step {
                Step::End => self.end_prompt(&mut rl),
                Step::Block(b) => self.block(&mut rl, &session, b, n, total),
                Step::Exercise(ex) => self.exercise(&mut rl, &session, ex, n, total),
            };
            match mv {
                Move::Next => i += 1,
                Move::Back => i = i.saturating_sub(1),
                Move::Quit => {
                    println!(
                        "Your place is saved: `cudalearn lesson {}` resumes here.",
                        self.slug
                    );
                    return 0;
                }
            }
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
        let minutes = m
            .minutes
            .map(|n| format!(" · about {n} minutes"))
            .unwrap_or_default();
        println!(
            "{}",
            self.look
                .paint(Color::White.bold(), &format!("{}{minutes}", m.title))
        );
        if let Some(note) = &self.note {
            print!("{}", render(&format!("> **Note:** {note}"), &self.look));
        }
        println!(
            "{}",
            self.look.paint(
                Color::DarkGray.normal(),
                &format!(
                    "Keys at each block: {BLOCK_KEYS}. Running on {}.",
                    self.device.name()
                )
            )
        );
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
                Step::Block(b) => {
                    session.run(&b.code);
                }
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
                    println!("(q quits and keeps your place)");
                    if !initial.is_empty() {
                        return Some(String::new());
                    }
                }
                Err(_) => return None,
            }
        }
    }

    fn end_prompt(&self, rl: &mut Rl) -> Move {
        loop {
            let p = self.look.paint(
                Color::DarkGray.normal(),
                "Enter finish · b back · q quit › ",
            );
            match self.read(rl, &p, "").as_deref().map(str::trim) {
                None | Some("q" | ":q" | ":quit") => return Move::Quit,
                Some("") => return Move::Next,
                Some("b" | ":back") => return Move::Back,
                Some(_) => println!("Enter finishes the lesson, b goes back, q quits."),
            }
        }
    }

    fn block(
        &self,
        rl: &mut Rl,
        session: &LessonSession,
        b: &Block,
        n: usize,
        total: usize,
    ) -> Move {
        println!("\n{}", step_header(&self.look, n, total, "python", b.line));
        print!("{}", code_lines(&self.look, &b.code));
        loop {
            let p = self
                .look
                .paint(Color::DarkGray.normal(), &format!("{BLOCK_KEYS} › "));
            let Some(cmd) = self.read(rl, &p, "") else {
                return Move::Quit;
            };
            match cmd.trim() {
                "" => {
                    self.run_block(session, b, &b.code);
                    return Move::Next;
                }
                "e" | ":edit" => {
                    println!("{EDITING}");
                    let edited = self.read(rl, "", b.code.trim_end()).unwrap_or_default();
                    if edited.trim().is_empty() {
                        continue;
                    }
                    let mut code = edited;
                    code.push('\n');
                    self.run_block(session, b, &code);
                    println!("(Enter runs the lesson's version and goes on; e edits again)");
                }
                "r" | ":repl" => self.repl(rl, session),
                "b" | ":back" => return Move::Back,
                "q" | ":q" | ":quit" => return Move::Quit,
                other => println!("'{other}'? {BLOCK_KEYS}."),
            }
        }
    }

    fn run_block(&self, session: &LessonSession, b: &Block, code: &str) {
        let ran = session.run(code);
        print!("{}", output_lines(&self.look, &ran));
        if let (true, Some(h)) = (self.hints, &ran.hint) {
            println!(
                "    {}",
                self.look.paint(Color::Cyan.bold(), &format!("hint: {h}"))
            );
        }
        let (_, v) = verdict(&self.look, &self.lesson.file, b, &ran, self.device);
        print!("{v}");
    }

    fn repl(&self, rl: &mut Rl, session: &LessonSession) {
        println!(
            "{}",
            self.look.paint(
                Color::Cyan.normal(),
                "The REPL, with the lesson's variables. :next (or Ctrl-D) goes back to the lesson."
            )
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

    fn exercise(
        &self,
        rl: &mut Rl,
        session: &LessonSession,
        ex: &Exercise,
        n: usize,
        total: usize,
    ) -> Move {
        println!(
            "\n{}",
            step_header(&self.look, n, total, "exercise", ex.line)
        );
        print!("{}", code_lines(&self.look, &ex.start));
        println!(
            "{}",
            self.look.paint(Color::DarkGray.normal(), EXERCISE_KEYS)
        );
        let mut draft = ex.start.trim_end().to_string();
        let mut hints_shown = 0;
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
                            println!("{cmd} is a command: type it at the >>> prompt, not in the editor (your code is kept; Enter on an empty line reopens it).");
                            draft = edited
                                .lines()
                                .filter(|l| !l.trim().starts_with(':'))
                                .collect::<Vec<_>>()
                                .join("\n");
                            continue;
                        }
                        edited + "\n"
                    }
                    ":hint" | ":h" => {
                        match ex.hints.get(hints_shown) {
                            Some(h) => {
                                hints_shown += 1;
                                let quoted: Vec<String> =
                                    h.trim().lines().map(|l| format!("> {l}")).collect();
                                let label = format!(
                                    "> **Hint {hints_shown}:** {}",
                                    quoted.join("\n").trim_start_matches("> ")
                                );
                                print!("{}", render(&label, &self.look));
                            }
                            None if ex.hints.is_empty() => {
                                println!("This exercise has no hints; :solution shows the answer.")
                            }
                            None => println!("No more hints; :solution shows the answer."),
                        }
                        continue;
                    }
                    ":solution" | ":s" => {
                        println!("A solution (Enter on an empty line puts it in the editor):");
                        print!("{}", code_lines(&self.look, &ex.solution));
                        draft = ex.solution.trim_end().to_string();
                        continue;
                    }
                    ":skip" => {
                        // Later steps may need what the exercise defines.
                        let ran = session.run(&ex.solution);
                        if ran.error.is_none() {
                            println!("Skipped; the solution was run so the next steps have what they need.");
                        }
                        return Move::Next;
                    }
                    ":back" | ":b" => return Move::Back,
                    ":quit" | ":q" => return Move::Quit,
                    ":repl" | ":r" => {
                        self.repl(rl, session);
                        continue;
                    }
                    t if t.starts_with(':') => {
                        println!("'{t}'? {EXERCISE_KEYS}");
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
            let a = session.attempt(&code, &ex.check);
            print!("{}", attempt_lines(&self.look, &a));
            if a.passed {
                println!(
                    "{}",
                    self.look
                        .paint(Color::Green.bold(), "✓ Correct! The check passes.")
                );
                return Move::Next;
            }
            println!(
                "{}",
                self.look
                    .paint(Color::Yellow.bold(), &format!("✗ Not yet: {}", a.message()))
            );
            if let (true, Some(h)) = (self.hints, a.hint()) {
                println!(
                    "{}",
                    self.look.paint(Color::Cyan.bold(), &format!("hint: {h}"))
                );
            }
            if hints_shown < ex.hints.len() {
                println!("(:hint for a hint)");
            }
            draft = code.trim_end().to_string();
        }
    }
}

/// The code a typed line completes, if any (two entries completed at once run as one).
fn entries(pending: &mut Collector, line: &str) -> Option<String> {
    let done = pending.push(line);
    (!done.is_empty()).then(|| done.concat())
}
