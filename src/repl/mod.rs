//! The interactive prompt: `>>> ` / `... ` lines through rustyline when stdin is a terminal,
//! plain lines (no prompts, no banner) when it is piped. Both go through the same block rules
//! (`block.rs`), `:` commands (`commands.rs`) and runner (`session.rs`).
pub mod block;
mod commands;
mod complete;
mod helper;
pub mod highlight;
mod profile;
mod session;

pub use helper::ReplHelper;

use block::Collector;
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::{CompletionType, Config, Editor};
use session::{Flow, Session};
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::rc::Rc;

/// How the REPL starts.
#[derive(Clone, Debug)]
pub struct Options {
    /// Print `hint:` lines after errors.
    pub hints: bool,
    /// No banner.
    pub quiet: bool,
    /// Read and write the history file.
    pub history: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hints: true,
            quiet: false,
            history: true,
        }
    }
}

/// Runs the REPL with default options; returns the process exit status.
pub fn run(hints: bool) -> i32 {
    run_with(Options {
        hints,
        ..Options::default()
    })
}

pub fn run_with(opts: Options) -> i32 {
    let interactive = std::io::stdin().is_terminal();
    let session = Session::new(opts.hints, interactive);
    if interactive {
        interactive_loop(&session, &opts)
    } else {
        crate::signals::install();
        piped_loop(&session)
    }
}

/// `dirs::data_dir()/cudalearn/history.txt`, with the folder made if possible.
pub fn history_path() -> Option<PathBuf> {
    let dir = dirs::data_dir()?.join("cudalearn");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("history.txt"))
}

fn banner() -> String {
    let gpu = match crate::backend::gpu::kind() {
        crate::backend::gpu::GpuKind::Simulated => format!(
            "{}\n(the GPU is SIMULATED: host memory and CPU kernels; :smi shows it)\n",
            crate::info::device_line()
        ),
        crate::backend::gpu::GpuKind::Cuda => format!("{}\n", crate::info::device_line()),
        crate::backend::gpu::GpuKind::None => String::new(),
    };
    format!(
        "cudalearn {} — Python and PyTorch, and how they use the GPU\n\
         {gpu}Type :help for help, Tab to complete, Ctrl-D to leave.\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// A rustyline editor with the REPL's completion, highlighting and validator over `interp`,
/// for the lesson runner (which keeps one editor for its prompts and the nested REPL).
pub fn editor(interp: Rc<RefCell<crate::lang::Interp>>) -> Option<Editor<ReplHelper, FileHistory>> {
    let mut rl = Editor::with_config(config()).ok()?;
    rl.set_helper(Some(ReplHelper {
        interp,
        color: crate::style::color_enabled(),
    }));
    Some(rl)
}

/// The REPL on an existing interpreter (a lesson's): it returns on `:next`, Ctrl-D, `:quit` or
/// `exit()`, keeping every variable. No banner and no history file.
pub fn run_embedded(
    rl: &mut Editor<ReplHelper, FileHistory>,
    interp: Rc<RefCell<crate::lang::Interp>>,
    hints: bool,
) {
    let session = Session::embedded(interp, hints);
    prompt_loop(rl, &session, None);
}

fn config() -> Config {
    let mut builder = Config::builder()
        .auto_add_history(false)
        .history_ignore_space(true)
        .completion_type(CompletionType::List);
    if let Ok(b) = builder.clone().max_history_size(10_000) {
        builder = b;
    }
    if let Ok(b) = builder.clone().history_ignore_dups(true) {
        builder = b;
    }
    builder.build()
}

fn interactive_loop(session: &Session, opts: &Options) -> i32 {
    let editor = Editor::with_config(config());
    // rustyline takes SIGINT for as long as the editor lives (it only needs it in raw mode, where
    // Ctrl-C arrives as a key anyway); installing our handler after it gives Ctrl-C back to the
    // interpreter while a program runs. This relies on no one having installed it earlier.
    crate::signals::install();
    let mut rl: Editor<ReplHelper, FileHistory> = match editor {
        Ok(rl) => rl,
        Err(e) => {
            eprintln!("cudalearn: cannot use the terminal ({e}); reading plain lines instead");
            return piped_loop(session);
        }
    };
    rl.set_helper(Some(ReplHelper {
        interp: session.interp.clone(),
        color: crate::style::color_enabled(),
    }));
    let history = if opts.history { history_path() } else { None };
    if let Some(path) = &history {
        // A missing file is a first run; an unreadable one only loses old entries.
        let _ = rl.load_history(path);
    }
    if !opts.quiet {
        print!("{}", banner());
    }
    match prompt_loop(&mut rl, session, history) {
        Flow::Exit(code) => code,
        Flow::Continue | Flow::Next => 0,
    }
}

/// Reads and runs entries until the user leaves: `Flow::Exit(status)`, or `Flow::Next` for
/// `:next` in a lesson's REPL.
fn prompt_loop(
    rl: &mut Editor<ReplHelper, FileHistory>,
    session: &Session,
    history: Option<PathBuf>,
) -> Flow {
    let mut pending = Collector::default();
    loop {
        let prompt = if pending.is_empty() { ">>> " } else { "... " };
        crate::signals::clear();
        let text = match rl.readline(prompt) {
            Ok(text) => text,
            Err(ReadlineError::Interrupted) => {
                pending.clear();
                eprintln!("KeyboardInterrupt");
                continue;
            }
            Err(ReadlineError::Eof) => {
                // Ctrl-D in the middle of a block ends it; at `>>> ` it leaves.
                if let Some(entry) = pending.finish() {
                    remember(rl, history.as_ref(), &entry);
                    if let flow @ Flow::Exit(_) = session.run_code(&entry, true) {
                        return flow;
                    }
                    continue;
                }
                println!();
                return Flow::Exit(0);
            }
            Err(e) => {
                eprintln!("cudalearn: cannot read from the terminal: {e}");
                return Flow::Exit(1);
            }
        };
        let entries = if is_command(&pending, &text) {
            if let Some(entry) = pending.finish() {
                remember(rl, history.as_ref(), &entry);
                if let flow @ Flow::Exit(_) = session.run_code(&entry, true) {
                    return flow;
                }
            }
            remember(rl, history.as_ref(), &text);
            match commands::run(session, &text) {
                Flow::Continue => continue,
                flow => return flow,
            }
        } else if pending.is_empty() && text.contains('\n') {
            // A whole block recalled from history or pasted: the validator let it through.
            vec![text]
        } else {
            pending.push(&text)
        };
        for entry in entries {
            remember(rl, history.as_ref(), &entry);
            if let flow @ Flow::Exit(_) = session.run_code(&entry, true) {
                return flow;
            }
        }
    }
}

/// Whether a line is a `:` command. One typed at the margin after a finished block (without
/// the empty line) ends the block first; inside brackets or a string it is code.
fn is_command(pending: &Collector, line: &str) -> bool {
    if pending.is_empty() {
        return line.trim_start().starts_with(':') || line.trim_start().starts_with('!');
    }
    (line.starts_with(':') || line.starts_with('!')) && !block::incomplete(&pending.text())
}

/// Adds an entry (a whole block as one) to the history and appends it to the file.
fn remember(rl: &mut Editor<ReplHelper, FileHistory>, path: Option<&PathBuf>, entry: &str) {
    let entry = entry.trim_end();
    if entry.trim().is_empty() {
        return;
    }
    if let Ok(true) = rl.add_history_entry(entry) {
        if let Some(path) = path {
            // An unwritable data directory only loses the history.
            let _ = rl.append_history(path);
        }
    }
}

/// Stdin is not a terminal: the same rules, no prompts, no banner; errors go to stderr and the
/// following lines still run. Exit status 0 unless `exit(n)` says otherwise.
fn piped_loop(session: &Session) -> i32 {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut pending = Collector::default();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("cudalearn: cannot read standard input: {e}");
                break;
            }
        }
        let line = String::from_utf8_lossy(&buf);
        let entries = if is_command(&pending, &line) {
            if let Some(entry) = pending.finish() {
                if let Flow::Exit(code) = session.run_code(&entry, true) {
                    return code;
                }
            }
            match commands::run(session, &line) {
                Flow::Continue | Flow::Next => continue,
                Flow::Exit(code) => return code,
            }
        } else {
            pending.push(&line)
        };
        for entry in entries {
            if let Flow::Exit(code) = session.run_code(&entry, true) {
                return code;
            }
        }
    }
    if let Some(entry) = pending.finish() {
        if let Flow::Exit(code) = session.run_code(&entry, true) {
            return code;
        }
    }
    0
}
