//! The interactive lesson as a learner uses it: the built binary in a pseudo-terminal, keys
//! typed, the screen read back. Lessons come from tests/data/lessons/course (and pty/), and
//! each test has its own progress directory (CUDALEARN_DATA_DIR).
#![cfg(unix)]

use expectrl::process::unix::WaitStatus;
use expectrl::{Eof, Expect, Session};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_cudalearn");
/// Generous: the machine running the tests may be slow and busy.
const TIMEOUT: Duration = Duration::from_secs(30);
const CTRL_C: &str = "\x03";
/// The end of the prompt at a block.
const AT_BLOCK: &str = "q quit › ";

type Pty = expectrl::session::OsSession;

fn spawn_in(course: &str, data: &Path, lesson: &str) -> Pty {
    let mut cmd = Command::new(BIN);
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["lesson", lesson])
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .env("CUDALEARN_LESSONS", course)
        .env("CUDALEARN_DATA_DIR", data)
        .env("HOME", data)
        .env("XDG_DATA_HOME", data.join("share"));
    let mut p = Session::spawn(cmd).expect("spawn cudalearn lesson in a pty");
    let _ = p.get_process_mut().set_window_size(100, 40);
    p.set_expect_timeout(Some(TIMEOUT));
    p
}

fn spawn(data: &Path) -> Pty {
    spawn_in("tests/data/lessons/course", data, "1")
}

/// Waits for `what`; returns the screen text before it.
fn wait(p: &mut Pty, what: &str) -> String {
    match p.expect(what) {
        Ok(found) => String::from_utf8_lossy(found.before()).into_owned(),
        Err(e) => panic!("waiting for {what:?}: {e}"),
    }
}

fn send(p: &mut Pty, keys: &str) {
    p.send(keys).expect("type into the pty");
}

fn wait_exit(p: &mut Pty) -> i32 {
    p.expect(Eof).ok();
    match p.get_process().wait() {
        Ok(WaitStatus::Exited(_, code)) => code,
        other => panic!("cudalearn did not exit normally: {other:?}"),
    }
}

#[test]
fn enter_runs_a_block_and_q_then_restart_resumes_there() {
    let data = tempfile::tempdir().unwrap();
    let mut p = spawn(data.path());
    let screen = wait(&mut p, AT_BLOCK);
    assert!(screen.contains("The first block sets `a`."), "{screen}");
    assert!(screen.contains("1/3 · python"), "{screen}");
    send(&mut p, "\r");
    // The output of `print(a * 7)`: 42 is not in the code shown.
    let out = wait(&mut p, "✓ as expected");
    assert!(out.contains("    42"), "{out}");
    let next = wait(&mut p, AT_BLOCK);
    assert!(next.contains("print(a + 1000)"), "{next}");
    send(&mut p, "q\r");
    wait(&mut p, "resumes here");
    assert_eq!(wait_exit(&mut p), 0);

    let saved = std::fs::read_to_string(data.path().join("progress.txt")).unwrap();
    assert!(saved.starts_with("# cudalearn progress v1\n"), "{saved}");
    assert!(saved.contains("01-steps\t1\t"), "{saved}");

    // Back at the second block, with `a` restored: 1006 needs a == 6.
    let mut p = spawn(data.path());
    let screen = wait(&mut p, AT_BLOCK);
    assert!(screen.contains("resuming at step 2 of 3"), "{screen}");
    assert!(screen.contains("print(a + 1000)"), "{screen}");
    assert!(!screen.contains("1/3 · python"), "{screen}");
    send(&mut p, "\r");
    let out = wait(&mut p, "✓ as expected");
    assert!(out.contains("1006"), "{out}");
    send(&mut p, ":quit\r");
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn exercise_waits_for_a_right_answer_and_hints_help() {
    let data = tempfile::tempdir().unwrap();
    let mut p = spawn(data.path());
    wait(&mut p, AT_BLOCK);
    send(&mut p, "\r");
    wait(&mut p, AT_BLOCK);
    send(&mut p, "\r");
    let screen = wait(&mut p, ">>> ");
    assert!(screen.contains("3/3 · exercise"), "{screen}");
    assert!(screen.contains("b = 0"), "{screen}");
    send(&mut p, ":hint\r");
    let hint = wait(&mut p, ">>> ");
    assert!(hint.contains("Hint 1: Multiply `a` by 100."), "{hint}");
    send(&mut p, ":hint\r");
    let more = wait(&mut p, ">>> ");
    assert!(more.contains("No more hints"), "{more}");
    // Wrong: the check's assert message is shown and the prompt waits again.
    send(&mut p, "b = 5\r");
    let wrong = wait(&mut p, ">>> ");
    assert!(
        wrong.contains("✗ Not yet: b should be a times 100"),
        "{wrong}"
    );
    // An error in the learner's code is shown with its hint.
    send(&mut p, "b = c\r");
    let err = wait(&mut p, ">>> ");
    assert!(
        err.contains("your code raised NameError: name 'c' is not defined"),
        "{err}"
    );
    assert!(err.contains("hint:"), "{err}");
    // A command typed into the editor is not run as code.
    send(&mut p, "\r");
    wait(&mut p, "b = c");
    send(&mut p, "\x15:hint\r");
    let cmd = wait(&mut p, "reopens it).");
    assert!(cmd.contains(":hint is a command: type it at the"), "{cmd}");
    wait(&mut p, ">>> ");
    send(&mut p, "b = a * 100\r");
    wait(&mut p, "✓ Correct!");
    let end = wait(&mut p, "q quit › ");
    assert!(end.contains("That was the last step."), "{end}");
    send(&mut p, "\r");
    wait(&mut p, "Lesson complete: Steps");
    assert_eq!(wait_exit(&mut p), 0);
    let saved = std::fs::read_to_string(data.path().join("progress.txt")).unwrap();
    assert!(saved.contains("01-steps\t0\t4\t1"), "{saved}");
}

#[test]
fn repl_has_the_lessons_variables_and_next_returns() {
    let data = tempfile::tempdir().unwrap();
    let mut p = spawn(data.path());
    wait(&mut p, AT_BLOCK);
    send(&mut p, "\r");
    wait(&mut p, AT_BLOCK);
    send(&mut p, "r\r");
    wait(&mut p, ">>> ");
    send(&mut p, "a * 1001\r");
    let out = wait(&mut p, ">>> ");
    assert!(out.contains("6006"), "{out}");
    send(&mut p, "extra = 5\r");
    wait(&mut p, ">>> ");
    send(&mut p, ":next\r");
    wait(&mut p, "Back to the lesson.");
    wait(&mut p, AT_BLOCK);
    // `b` shows the previous block again; it runs with what the REPL defined.
    send(&mut p, "b\r");
    let back = wait(&mut p, AT_BLOCK);
    assert!(back.contains("print(a * 7)"), "{back}");
    send(&mut p, "q\r");
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn a_corrupt_progress_file_is_reported_and_replaced() {
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("progress.txt");
    std::fs::write(&file, "{\"not\": \"ours\"}\n").unwrap();
    let mut p = spawn(data.path());
    let screen = wait(&mut p, AT_BLOCK);
    assert!(screen.contains("was not written by cudalearn"), "{screen}");
    send(&mut p, "q\r");
    assert_eq!(wait_exit(&mut p), 0);
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.starts_with("# cudalearn progress v1\n"), "{saved}");
    let kept = std::fs::read_to_string(data.path().join("progress.txt.bad")).unwrap();
    assert_eq!(kept, "{\"not\": \"ours\"}\n");
}

#[test]
fn ctrl_c_stops_a_block_and_keeps_the_session() {
    let data = tempfile::tempdir().unwrap();
    let mut p = spawn_in("tests/data/lessons/pty", data.path(), "1");
    wait(&mut p, AT_BLOCK);
    send(&mut p, "\r");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    p.set_expect_timeout(Some(Duration::from_secs(2)));
    loop {
        send(&mut p, CTRL_C);
        if p.expect("KeyboardInterrupt").is_ok() {
            break;
        }
        assert!(start.elapsed() < TIMEOUT, "Ctrl-C never stopped the block");
    }
    p.set_expect_timeout(Some(TIMEOUT));
    let next = wait(&mut p, AT_BLOCK);
    assert!(next.contains("print(kept * 6)"), "{next}");
    send(&mut p, "\r");
    let out = wait(&mut p, "✓ as expected");
    assert!(out.contains("42"), "{out}");
    send(&mut p, "q\r");
    assert_eq!(wait_exit(&mut p), 0);
}
