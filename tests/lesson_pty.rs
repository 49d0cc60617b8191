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
    send(&mut p, "q");
    wait(&mut p, "resumes here.");
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
    // The exercise's prompt reads lines: commands end with Enter there.
    wait(&mut p, ">>> ");
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
    send(&mut p, ":clue\r");
    let clue = wait(&mut p, ">>> ");
    assert!(clue.contains("Clue 1: Multiply `a` by 100."), "{clue}");
    send(&mut p, ":clue\r");
    let more = wait(&mut p, ">>> ");
    assert!(more.contains("No more clues"), "{more}");
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
    send(&mut p, "\x15:clue\r");
    let cmd = wait(&mut p, "reopens it).");
    assert!(cmd.contains(":clue is a command: type it at the"), "{cmd}");
    wait(&mut p, ">>> ");
    send(&mut p, "b = a * 100\r");
    wait(&mut p, "✓ Correct!");
    let end = wait(&mut p, "q quit › ");
    assert!(end.contains("That was the last step."), "{end}");
    send(&mut p, "\r");
    wait(&mut p, "Lesson complete: Steps");
    // The next lesson is offered, and Enter starts it in the same terminal.
    wait(&mut p, "Next: lesson 2, A GPU lesson.");
    wait(&mut p, "Enter starts it · q quits › ");
    let saved = std::fs::read_to_string(data.path().join("progress.txt")).unwrap();
    assert!(saved.contains("01-steps\t0\t4\t1"), "{saved}");
    send(&mut p, "\r");
    let next = wait(&mut p, AT_BLOCK);
    assert!(next.contains("A GPU lesson · about 4 minutes"), "{next}");
    send(&mut p, "q");
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn repl_has_the_lessons_variables_and_next_returns() {
    let data = tempfile::tempdir().unwrap();
    let mut p = spawn(data.path());
    wait(&mut p, AT_BLOCK);
    send(&mut p, "\r");
    wait(&mut p, AT_BLOCK);
    send(&mut p, "r");
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
    send(&mut p, "b");
    let back = wait(&mut p, AT_BLOCK);
    assert!(back.contains("print(a * 7)"), "{back}");
    send(&mut p, "q");
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
    send(&mut p, "q");
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
    send(&mut p, "q");
    assert_eq!(wait_exit(&mut p), 0);
}

/// Starts `cudalearn lesson ARGS...` on a course folder at a given terminal width.
fn spawn_args(course: &str, data: &Path, args: &[&str], cols: u16) -> Pty {
    let mut cmd = Command::new(BIN);
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("lesson")
        .args(args)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .env("CUDALEARN_LESSONS", course)
        .env("CUDALEARN_DATA_DIR", data)
        .env("HOME", data)
        .env("XDG_DATA_HOME", data.join("share"));
    let mut p = Session::spawn(cmd).expect("spawn cudalearn lesson in a pty");
    let _ = p.get_process_mut().set_window_size(cols, 40);
    p.set_expect_timeout(Some(TIMEOUT));
    p
}

/// The screen text as lines, without escape sequences and carriage returns.
fn screen_lines(text: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // CSI: ESC [ ... final byte in @..~
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if ('@'..='~').contains(&d) {
                        break;
                    }
                }
            }
            continue;
        }
        if c != '\r' {
            plain.push(c);
        }
    }
    plain.lines().map(str::to_string).collect()
}

fn assert_within(text: &str, cols: usize) {
    for l in screen_lines(text) {
        assert!(
            l.chars().count() <= cols,
            "a line wider than {cols} columns: {l:?}"
        );
    }
}

#[test]
fn a_finished_lesson_stays_finished_when_reopened_and_b_at_the_start_says_so() {
    let data = tempfile::tempdir().unwrap();
    std::fs::write(
        data.path().join("progress.txt"),
        "# cudalearn progress v1\n01-steps\t0\t4\t1\n",
    )
    .unwrap();
    let mut p = spawn(data.path());
    let screen = wait(&mut p, AT_BLOCK);
    assert!(
        screen.contains("Keys at each block act at once, without Enter: Enter run"),
        "{screen}"
    );
    assert!(
        screen.contains("this is a review, and it stays finished"),
        "{screen}"
    );
    // One key, no Enter: `b` at the first block has nowhere to go.
    send(&mut p, "b");
    let said = wait(&mut p, AT_BLOCK);
    assert!(said.contains("There is nothing before this"), "{said}");
    send(&mut p, "x");
    let said = wait(&mut p, AT_BLOCK);
    assert!(said.contains("'x' is not a key here."), "{said}");
    send(&mut p, "q");
    wait(&mut p, "stays finished;");
    assert_eq!(wait_exit(&mut p), 0);
    let saved = std::fs::read_to_string(data.path().join("progress.txt")).unwrap();
    assert!(saved.contains("01-steps\t0\t4\t1"), "{saved}");
    let out = Command::new(BIN)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("lessons")
        .env("NO_COLOR", "1")
        .env("CUDALEARN_LESSONS", "tests/data/lessons/course")
        .env("CUDALEARN_DATA_DIR", data.path())
        .output()
        .unwrap();
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(list.contains("1 min  ✓ done"), "{list}");
}

#[test]
fn lesson_by_name_then_no_name_resumes_there() {
    let data = tempfile::tempdir().unwrap();
    let course = "tests/data/lessons/course";
    // Nothing taken yet: `cudalearn lesson` alone starts lesson 1.
    let mut p = spawn_args(course, data.path(), &[], 100);
    let first = wait(&mut p, AT_BLOCK);
    assert!(first.contains("1/3 · python"), "{first}");
    send(&mut p, "q");
    assert_eq!(wait_exit(&mut p), 0);
    // By its title, in capitals.
    let mut p = spawn_args(course, data.path(), &["STEPS"], 100);
    wait(&mut p, AT_BLOCK);
    send(&mut p, "\r");
    wait(&mut p, "✓ as expected");
    wait(&mut p, AT_BLOCK);
    send(&mut p, "q");
    let bye = wait(&mut p, "resumes here.");
    assert!(
        bye.contains("`cudalearn lesson` (or `cudalearn lesson steps`)"),
        "{bye}"
    );
    assert_eq!(wait_exit(&mut p), 0);
    let mut p = spawn_args(course, data.path(), &[], 100);
    let screen = wait(&mut p, AT_BLOCK);
    assert!(
        screen.starts_with("Steps") || screen.contains("\nSteps"),
        "{screen}"
    );
    assert!(screen.contains("resuming at step 2 of 3"), "{screen}");
    send(&mut p, "q");
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn expressions_at_an_exercise_show_their_value_and_errors_in_your_function_are_yours() {
    let data = tempfile::tempdir().unwrap();
    let mut p = spawn_in("tests/data/lessons/pty", data.path(), "explore");
    let screen = wait(&mut p, ">>> ");
    assert!(
        screen.contains("An expression on its own shows"),
        "{screen}"
    );
    // Exploring: the value, as at the REPL, and no check run.
    send(&mut p, "6 * 7\r");
    let out = wait(&mut p, ">>> ");
    assert!(out.contains("42"), "{out}");
    assert!(!out.contains("Not yet"), "{out}");
    // The check calls the learner's function, which raises: that is their code's error.
    send(&mut p, "def half(n): raise ValueError('odd input')\r\r");
    let out = wait(&mut p, ">>> ");
    assert!(
        out.contains("✗ Not yet: your code raised ValueError: odd input"),
        "{out}"
    );
    assert!(out.contains("(:clue gives a clue)"), "{out}");
    // An expression that raises shows the error, as the REPL would, and runs no check.
    send(&mut p, "half(9)\r");
    let out = wait(&mut p, ">>> ");
    assert!(out.contains("ValueError: odd input"), "{out}");
    assert!(!out.contains("Not yet"), "{out}");
    send(&mut p, "def half(n): return n // 2\r\r");
    wait(&mut p, "✓ Correct!");
    send(&mut p, "q");
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn a_learners_diff_is_in_words_without_the_markdown_line() {
    let data = tempfile::tempdir().unwrap();
    let mut p = spawn(data.path());
    wait(&mut p, AT_BLOCK);
    send(&mut p, "e");
    wait(&mut p, "print(a * 7)");
    // Left over `)`, add `, 1`: the edited block prints `42 1`.
    send(&mut p, "\x1b[D, 1\r");
    let out = wait(&mut p, "e edits again)");
    assert!(
        out.contains("✗ Your output differs from the lesson's (- expected, + yours):"),
        "{out}"
    );
    assert!(out.contains("- 42") && out.contains("+ 42 1"), "{out}");
    assert!(!out.contains(".md:"), "{out}");
    wait(&mut p, AT_BLOCK);
    send(&mut p, "q");
    assert_eq!(wait_exit(&mut p), 0);
}

#[test]
fn at_80_columns_every_line_fits_and_a_resize_redraws_at_the_new_width() {
    let data = tempfile::tempdir().unwrap();
    let mut p = spawn_args("lessons", data.path(), &["1"], 80);
    let mut seen = wait(&mut p, AT_BLOCK);
    for _ in 0..3 {
        send(&mut p, "\r");
        seen.push_str(&wait(&mut p, AT_BLOCK));
    }
    assert!(seen.contains("Keys at each block act at once"), "{seen}");
    assert_within(&seen, 80);
    let _ = p.get_process_mut().set_window_size(60, 40);
    let redrawn = wait(&mut p, AT_BLOCK);
    assert!(
        redrawn.contains("\x1b[2J"),
        "the screen is cleared: {redrawn:?}"
    );
    assert!(redrawn.contains("━━ 4/"), "{redrawn}");
    assert_within(&redrawn, 60);
    send(&mut p, "q");
    assert_eq!(wait_exit(&mut p), 0);
}
