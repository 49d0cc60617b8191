//! The REPL as a person uses it: the built binary in a pseudo-terminal, keys typed, the screen
//! read back. Each test has its own data directory, so history is isolated. Outputs are chosen
//! so that they cannot be confused with the echo of what was typed (`6 * 7` prints `42`).
#![cfg(unix)]

use expectrl::process::unix::WaitStatus;
use expectrl::{Eof, Expect, Session};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_cudalearn");
/// Generous: the machine running the tests may be slow and busy.
const TIMEOUT: Duration = Duration::from_secs(30);

const UP: &str = "\x1b[A";
const TAB: &str = "\t";
const CTRL_C: &str = "\x03";
const CTRL_D: &str = "\x04";

type Repl = expectrl::session::OsSession;

fn command(data: &Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.arg("repl")
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .env("HOME", data)
        .env("XDG_DATA_HOME", data.join("share"))
        .env_remove("CUDALEARN_LOG");
    cmd
}

fn spawn(data: &Path) -> Repl {
    spawn_with_banner(data).0
}

/// Starts the REPL; returns it and what it printed before the first prompt.
fn spawn_with_banner(data: &Path) -> (Repl, String) {
    let mut p = Session::spawn(command(data)).expect("spawn cudalearn repl in a pty");
    let _ = p.get_process_mut().set_window_size(120, 40);
    p.set_expect_timeout(Some(TIMEOUT));
    let banner = prompt(&mut p);
    (p, banner)
}

/// Waits for a fresh `>>> ` prompt; returns what was printed before it.
fn prompt(p: &mut Repl) -> String {
    let found = p.expect(">>> ").expect("a >>> prompt");
    String::from_utf8_lossy(found.before()).into_owned()
}

/// Types a line and waits for the next `>>> `; returns the screen text in between.
fn enter(p: &mut Repl, line: &str) -> String {
    p.send(format!("{line}\r")).expect("type a line");
    prompt(p)
}

fn wait_exit(p: &mut Repl) -> i32 {
    p.expect(Eof).ok();
    match p.get_process().wait() {
        Ok(WaitStatus::Exited(_, code)) => code,
        other => panic!("cudalearn did not exit normally: {other:?}"),
    }
}

#[test]
fn multi_line_def_then_call() {
    let dir = tempfile::tempdir().unwrap();
    let (mut p, banner) = spawn_with_banner(dir.path());
    assert!(
        banner.contains("cudalearn 0.") && banner.contains(":help"),
        "{banner:?}"
    );
    p.send("def double(a):\r").unwrap();
    p.expect("... ")
        .expect("a ... continuation prompt after a def header");
    p.send("    return a * 2\r").unwrap();
    p.expect("... ")
        .expect("the block keeps reading until an empty line");
    p.send("\r").unwrap();
    prompt(&mut p);
    let out = enter(&mut p, "double(21)");
    assert!(out.contains("42"), "{out:?}");
    // An expression's value is echoed with repr.
    let out = enter(&mut p, "'a' + 'b'");
    assert!(out.contains("'ab'"), "{out:?}");
    p.send(CTRL_D).unwrap();
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn tab_completes_names_and_attributes() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = spawn(dir.path());
    // `pri` + Tab becomes `print(`: the rest of the line only makes sense if it did.
    p.send(format!("pri{TAB}")).unwrap();
    p.expect("print(").expect("pri completed to print(");
    let out = enter(&mut p, "'com' + 'pleted')");
    assert!(out.contains("completed"), "{out:?}");
    enter(&mut p, "xs = [1, 2]");
    p.send(format!("xs.app{TAB}")).unwrap();
    p.expect("xs.append(")
        .expect("xs.app completed to xs.append(");
    enter(&mut p, "3)");
    let out = enter(&mut p, "xs");
    assert!(out.contains("[1, 2, 3]"), "{out:?}");
    p.send(CTRL_D).unwrap();
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn tab_adds_a_paren_to_every_callable_attribute() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = spawn(dir.path());
    enter(&mut p, "import torch");
    // Natively implemented classes are callable too: `torch.dev` + Tab is `torch.device(`.
    p.send(format!("d = torch.dev{TAB}")).unwrap();
    p.expect("torch.device(")
        .expect("torch.dev completed to torch.device(");
    enter(&mut p, "'cpu')");
    p.send(format!("with torch.no_gr{TAB}")).unwrap();
    p.expect("torch.no_grad(")
        .expect("torch.no_gr completed to torch.no_grad(");
    p.send("):\r").unwrap();
    p.expect("... ").unwrap();
    p.send("    y = 6 * 7\r\r").unwrap();
    prompt(&mut p);
    let out = enter(&mut p, "y, d");
    assert!(out.contains("(42, device(type='cpu'))"), "{out:?}");
    p.send(CTRL_D).unwrap();
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn ctrl_c_interrupts_a_running_loop_and_keeps_variables() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = spawn(dir.path());
    enter(&mut p, "kept = 6");
    p.send("while True: pass\r").unwrap();
    p.expect("... ").unwrap();
    p.send("\r").unwrap();
    // The loop needs a moment to start; Ctrl-C again until it reports (a signal that arrives
    // before the loop runs is dropped, as it should be).
    std::thread::sleep(Duration::from_millis(500));
    let start = Instant::now();
    p.set_expect_timeout(Some(Duration::from_secs(2)));
    loop {
        p.send(CTRL_C).unwrap();
        if p.expect("KeyboardInterrupt").is_ok() {
            break;
        }
        assert!(start.elapsed() < TIMEOUT, "Ctrl-C never stopped the loop");
    }
    p.set_expect_timeout(Some(TIMEOUT));
    let rest = prompt(&mut p);
    assert!(rest.contains("hint:"), "{rest:?}");
    let out = enter(&mut p, "kept * 7");
    assert!(out.contains("42"), "{out:?}");
    // Ctrl-C at the prompt clears the line, like Python.
    p.send(format!("junk that is never run{CTRL_C}")).unwrap();
    let out = prompt(&mut p);
    assert!(out.contains("KeyboardInterrupt"), "{out:?}");
    p.send(CTRL_D).unwrap();
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn ctrl_c_interrupts_one_long_statement_of_matmuls() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = spawn(dir.path());
    enter(&mut p, "import torch");
    enter(&mut p, "x = torch.ones(1000, 1000) / 1000");
    // One statement, no loop and no Python call: hundreds of big matmuls (tens of seconds).
    let chain = format!("y = x{}", " @ x".repeat(400));
    p.send(format!("{chain}\r")).unwrap();
    std::thread::sleep(Duration::from_millis(800));
    let start = Instant::now();
    p.set_expect_timeout(Some(Duration::from_secs(2)));
    loop {
        p.send(CTRL_C).unwrap();
        if p.expect("KeyboardInterrupt").is_ok() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "Ctrl-C did not stop the statement between engine ops"
        );
    }
    p.set_expect_timeout(Some(TIMEOUT));
    prompt(&mut p);
    let out = enter(&mut p, "6 * 7");
    assert!(out.contains("42"), "{out:?}");
    p.send(CTRL_D).unwrap();
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn a_block_header_without_its_colon_is_a_syntax_error_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = spawn(dir.path());
    // As in Python 3.11: no `...` continuation, the error right away.
    let out = enter(&mut p, "for i in range(3) print(i)");
    assert!(out.contains("SyntaxError: expected ':'"), "{out:?}");
    assert!(!out.contains("... "), "{out:?}");
    let out = enter(&mut p, "6 * 7");
    assert!(out.contains("42"), "{out:?}");
    p.send(CTRL_D).unwrap();
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn history_recalls_with_up_arrow_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = spawn(dir.path());
    let out = enter(&mut p, "1000 + 234");
    assert!(out.contains("1234"), "{out:?}");
    enter(&mut p, "'other'");
    // Prompts are redrawn as the line changes, so wait for the output itself (the recalled
    // line `1000 + 234` does not contain it).
    p.send(format!("{UP}{UP}\r")).unwrap();
    p.expect("1234").expect("up arrow recalls the earlier line");
    prompt(&mut p);
    p.send(CTRL_D).unwrap();
    assert_eq!(wait_exit(&mut p), 0);

    let file = dir.path().join("share/cudalearn/history.txt");
    let saved = std::fs::read_to_string(&file).expect("history file written");
    assert!(saved.contains("1000 + 234"), "{saved:?}");

    // The recalled line was run again, so it is now the newest entry.
    let mut p = spawn(dir.path());
    p.send(format!("{UP}\r")).unwrap();
    p.expect("1234").expect("history from the last session");
    prompt(&mut p);
    p.send(CTRL_D).unwrap();
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn vars_reset_and_quit_commands() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = spawn(dir.path());
    enter(&mut p, "import math");
    enter(&mut p, "alpha = [1, 2]");
    p.send("def helper(): pass\r").unwrap();
    p.expect("... ").unwrap();
    // A command typed at `... ` after a finished block ends the block first.
    let out = enter(&mut p, ":vars");
    let row = out.lines().find(|l| l.starts_with("alpha")).unwrap_or("");
    assert_eq!(
        row.split_whitespace().collect::<Vec<_>>(),
        ["alpha", "list", "[1,", "2]"],
        "{out:?}"
    );
    assert!(out.contains("helper"), "{out:?}");
    assert!(
        !out.contains("math") && !out.contains("__name__"),
        "{out:?}"
    );
    let out = enter(&mut p, ":time sum(range(1000))");
    assert!(
        out.contains("499500") && out.contains("wall time:"),
        "{out:?}"
    );
    enter(&mut p, ":reset");
    let out = enter(&mut p, "alpha");
    assert!(out.contains("NameError"), "{out:?}");
    let out = enter(&mut p, ":vars");
    assert!(out.contains("no variables"), "{out:?}");
    let out = enter(&mut p, ":help");
    assert!(out.contains(":time"), "{out:?}");
    p.send(":quit\r").unwrap();
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn ctrl_d_exits_and_a_missing_data_dir_is_fine() {
    let dir = tempfile::tempdir().unwrap();
    // The data directory cannot be made (a file is in the way): no history, but no failure.
    std::fs::write(dir.path().join("share"), "not a directory").unwrap();
    let mut p = spawn(dir.path());
    let out = enter(&mut p, "40 + 2");
    assert!(out.contains("42"), "{out:?}");
    p.send(CTRL_D).unwrap();
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn piped_stdin_runs_every_line_and_errors_do_not_stop_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = command(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let script = "\
x = 20
x + 22
def f(a):
    return a * 3

print(f(5))
print(undefined_name)
for i in range(2):
    print('loop', i)
print('after the error')
:vars
";
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(script.as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        !stdout.contains(">>>") && !stderr.contains(">>>"),
        "no prompts when piped"
    );
    assert!(
        !stdout.contains("Type :help"),
        "no banner when piped: {stdout}"
    );
    let expected = ["42", "15", "loop 0", "loop 1", "after the error"];
    let mut rest = &stdout[..];
    for e in expected {
        let at = rest
            .find(e)
            .unwrap_or_else(|| panic!("{e:?} missing from {stdout:?}"));
        rest = &rest[at + e.len()..];
    }
    assert!(stdout.contains("x  ") || stdout.contains("x "), "{stdout}");
    assert!(
        stderr.contains("NameError: name 'undefined_name' is not defined"),
        "{stderr}"
    );
    assert!(stderr.contains("hint:"), "{stderr}");
}
