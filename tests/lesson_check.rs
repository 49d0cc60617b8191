//! The lesson runner's checking: output matching (elisions, `[..]`, tolerance, exceptions,
//! device variants), malformed lesson files (tests/data/lessons/bad/) reported with file and
//! line, and `cudalearn lesson FILE --check` on small fixture lessons.
use cudalearn::lesson::check::{diff, format_diff, matches, pick, DeviceKind};
use cudalearn::lesson::parse::{parse, Expected, Variant};
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_cudalearn");

#[test]
fn exact_text_ignores_trailing_space_and_final_newline() {
    assert!(matches("a\nb\n", "a\nb\n", None));
    assert!(matches("a\nb\n", "a  \nb", None));
    assert!(!matches("a\nb\n", "a\nc\n", None));
    assert!(!matches("a\n", "a\nb\n", None));
    assert!(!matches("a\nb\n", "a\n", None));
    assert!(matches("", "", None));
    assert!(!matches("", "x\n", None), "no output block means no output");
}

#[test]
fn dots_line_matches_any_number_of_lines() {
    let want = "first\n...\nlast\n";
    assert!(matches(want, "first\nlast\n", None));
    assert!(matches(want, "first\n1\n2\n3\nlast\n", None));
    assert!(!matches(want, "first\n1\n", None));
    assert!(!matches(want, "zeroth\nfirst\nlast\n", None));
    assert!(matches("...\n", "anything\nat all\n", None));
    assert!(matches("...\n", "", None));
    assert!(matches("a\n...\nb\n...\nc\n", "a\nb\nx\nc\n", None));
    assert!(!matches("a\n...\nb\n...\nc\n", "a\nc\n", None));
}

#[test]
fn wildcard_inside_a_line() {
    assert!(matches("loss: [..]\n", "loss: 0.1234\n", None));
    assert!(matches("loss: [..]\n", "loss: \n", None));
    assert!(matches(
        "[..] of [..]!\n",
        "found at least two devices, cuda:0 and cpu of them!\n",
        None
    ));
    assert!(!matches("loss: [..]\n", "acc: 0.5\n", None));
    assert!(!matches("a[..]b\n", "a..c\n", None));
    assert!(matches("[..]\n", "x\n", None));
    assert!(!matches("[..]\n", "x\ny\n", None), "[..] stays on its line");
}

#[test]
fn tolerance_compares_numbers() {
    let want = "tensor([0.3333, 1.0000e-04])\n";
    assert!(matches(want, "tensor([0.3334, 1.0001e-04])\n", Some(1e-3)));
    assert!(!matches(want, "tensor([0.3400, 1.0000e-04])\n", Some(1e-3)));
    assert!(!matches(want, "tensor([0.3334, 1.0001e-04])\n", None));
    // The text around the numbers must still match, and words with digits are text.
    assert!(!matches("x = 1.0\n", "y = 1.0\n", Some(0.1)));
    assert!(matches(
        "dtype=torch.float32 2.0\n",
        "dtype=torch.float32 2.05\n",
        Some(0.1)
    ));
    assert!(!matches(
        "dtype=torch.float32\n",
        "dtype=torch.float16\n",
        Some(0.1)
    ));
    assert!(matches("nan inf -inf\n", "nan inf -inf\n", Some(1e-6)));
    assert!(!matches("inf\n", "-inf\n", Some(1e-6)));
    // With [..] and ... too.
    assert!(matches(
        "step 1 loss [..]\n...\nmean 0.5\n",
        "step 1 loss 9\nstep 2 loss 8\nmean 0.5004\n",
        Some(1e-3)
    ));
}

#[test]
fn exceptions_are_the_last_line() {
    let want = "before\nRuntimeError: Expected all tensors to be on the same device, [..]\n";
    let got = "before\nRuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!\n";
    assert!(matches(want, got, None));
    assert!(!matches(want, "before\n", None));
    assert!(!matches(
        want,
        "before\nTypeError: Expected all tensors to be on the same device, x\n",
        None
    ));
}

#[test]
fn diff_is_readable() {
    let d = diff("one\n2\nthree\n", "one\ntwo\nthree\n", None);
    assert_eq!(format_diff(&d, ""), "  one\n- 2\n+ two\n  three\n");
    let d = diff("head\n...\ntail\n", "head\nx\ny\nTAIL\n", None);
    // `...` takes TAIL; then `tail` is missing.
    assert_eq!(format_diff(&d, ""), "  head\n  x\n  y\n  TAIL\n- tail\n");
    let d = diff("a\nb\n", "a\n", None);
    assert_eq!(format_diff(&d, ""), "  a\n- b\n");
}

fn out(variant: Variant, text: &str) -> Expected {
    Expected {
        line: 1,
        variant,
        tol: None,
        text: text.into(),
    }
}

#[test]
fn device_variants_pick_the_most_specific() {
    let all = vec![
        out(Variant::Any, "any"),
        out(Variant::Cpu, "cpu"),
        out(Variant::Cuda, "cuda"),
        out(Variant::Sim, "sim"),
    ];
    let text = |outs: &[Expected], d| pick(outs, d).map(|e| e.text.clone());
    assert_eq!(text(&all, DeviceKind::Cpu).as_deref(), Some("cpu"));
    assert_eq!(text(&all, DeviceKind::Cuda).as_deref(), Some("cuda"));
    assert_eq!(text(&all, DeviceKind::Sim).as_deref(), Some("sim"));
    let no_sim = &all[..3];
    assert_eq!(text(no_sim, DeviceKind::Sim).as_deref(), Some("cuda"));
    let plain = &all[..1];
    for d in [DeviceKind::Cpu, DeviceKind::Cuda, DeviceKind::Sim] {
        assert_eq!(text(plain, d).as_deref(), Some("any"));
    }
    let gpu_only = vec![out(Variant::Cuda, "cuda")];
    assert_eq!(text(&gpu_only, DeviceKind::Cpu), None);
    assert_eq!(text(&gpu_only, DeviceKind::Sim).as_deref(), Some("cuda"));
}

/// Each malformed fixture and the `file:line: message` start it must give.
const BAD: &[(&str, &str)] = &[
    (
        "bad_minutes.md",
        "3: minutes must be a whole number, not `soon`",
    ),
    ("bad_tolerance.md", "7: bad tolerance 'abc'"),
    (
        "check_without_exercise.md",
        "4: a ```check block must follow a ```python exercise block",
    ),
    (
        "exercise_without_check.md",
        "4: this exercise has no ```check block",
    ),
    (
        "exercise_without_solution.md",
        "4: this exercise has no ```solution block",
    ),
    ("no_front_matter.md", "1: a lesson starts with front matter"),
    (
        "output_after_prose.md",
        "10: an ```output block must come right after the ```python block",
    ),
    (
        "output_without_python.md",
        "6: an ```output block must come right after the ```python block",
    ),
    (
        "two_outputs.md",
        "10: a second ```output block for the same python block (the first is at line 7)",
    ),
    (
        "unclosed_fence.md",
        "6: this ```python block is never closed",
    ),
    (
        "unclosed_front_matter.md",
        "1: the front matter is not closed",
    ),
    ("unknown_info.md", "4: unknown info string ```pyhton"),
    (
        "unknown_variant.md",
        "7: unknown option 'gpu' in ```output gpu",
    ),
];

#[test]
fn malformed_lessons_are_reported_with_file_and_line() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lessons/bad");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let listed: Vec<&str> = BAD.iter().map(|b| b.0).collect();
    assert_eq!(
        files, listed,
        "every fixture in bad/ has an expected message"
    );
    for (file, want) in BAD {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let shown = format!("lessons/{file}");
        let err = parse(&shown, &text).expect_err(file).to_string();
        let want = format!("{shown}:{want}");
        assert!(err.starts_with(&want), "{file}:\n got  {err}\n want {want}");
    }
}

#[test]
fn malformed_lesson_on_the_command_line_exits_2_with_the_location() {
    let (code, stdout, stderr) = check("tests/data/lessons/bad/unclosed_fence.md", &[]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(
        stderr.trim(),
        "tests/data/lessons/bad/unclosed_fence.md:6: this ```python block is never closed (add a line ``` after it)"
    );
}

#[test]
fn garbage_never_panics() {
    let samples = [
        "",
        "---",
        "---\n---\n",
        "---\ntitle: t\n---\n```",
        "---\ntitle: t\n---\n````python\n```\n",
        "---\ntitle: t\n---\n> ```python\n> x\n",
        "---\ntitle: t\n---\n| a |\n|---|\n| ```python |\n",
        "---\ntitle: t\n---\n```output\n```\n```python\n```\n",
        "\u{feff}---\ntitle: t\n---\n",
        "---\ntitle: t\nneeds: gpus: 99\n---\n",
        "---\ntitle: t\n---\n~~~python\nx\n~~~\n~~~output\n",
    ];
    for s in samples {
        let _ = parse("l.md", s);
    }
}

/// Runs `cudalearn lesson PATH --check` from the crate root without a terminal.
fn check(path: &str, extra: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["lesson", path, "--check"])
        .args(extra)
        .env("NO_COLOR", "1")
        .env(
            "CUDALEARN_DATA_DIR",
            std::env::temp_dir().join("cudalearn-lesson-check"),
        )
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_passes_a_good_lesson() {
    let (code, stdout, stderr) = check("tests/data/lessons/valid/basics.md", &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("Passed: 6 steps as expected on cpu."),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("the starting code fails the check, as it should: total should be 12, not 0"),
        "{stdout}"
    );
    assert!(
        stdout.contains("✓ the solution passes the check"),
        "{stdout}"
    );
    assert!(!stdout.contains('\x1b'), "no colour without a terminal");
    assert!(
        !stdout.contains(env!("CARGO_MANIFEST_DIR")),
        "no absolute paths"
    );
}

#[test]
fn check_fails_on_a_mismatch_and_shows_a_diff() {
    let (code, stdout, _) = check("tests/data/lessons/valid/mismatch.md", &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("✗ expected (tests/data/lessons/valid/mismatch.md:10) - but printed +:"),
        "{stdout}"
    );
    assert!(stdout.contains("    - 2\n    + two\n"), "{stdout}");
    assert!(
        stdout.contains("✗ the solution fails the check: done must be False"),
        "{stdout}"
    );
    assert!(
        stdout.contains("FAILED: 2 of 2 steps not as expected on cpu."),
        "{stdout}"
    );
}

#[test]
fn check_uses_the_cpu_variant_and_says_why() {
    // Without a GPU a lesson that needs one runs on the simulated GPU, and says so; with a
    // real GPU it runs there. Either way the `cuda` variant applies.
    let (code, stdout, stderr) = check("tests/data/lessons/valid/devices.md", &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    if stdout.contains("), on sim") {
        assert!(
            stdout.contains("Note: This lesson uses a CUDA GPU and none was found"),
            "{stdout}"
        );
    }
    assert!(stdout.contains("    cuda:0\n"), "{stdout}");
    let (code, stdout, _) = check("tests/data/lessons/valid/devices.md", &["--device", "cpu"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("RuntimeError: Found no NVIDIA driver"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("Note:"),
        "asked for the CPU: nothing to explain\n{stdout}"
    );
}

#[test]
fn without_a_terminal_a_lesson_prints_its_transcript() {
    let out = Command::new(BIN)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["lesson", "steps"])
        .env("CUDALEARN_LESSONS", "tests/data/lessons/course")
        .env(
            "CUDALEARN_DATA_DIR",
            std::env::temp_dir().join("cudalearn-lesson-check"),
        )
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.starts_with("Lesson: Steps (lessons/01-steps.md), on cpu"),
        "{stdout}"
    );
    assert!(stdout.contains("Passed: 3 steps"), "{stdout}");
}

#[test]
fn lessons_lists_the_course_and_unknown_lessons_are_named() {
    let data = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::new(BIN)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .env("CUDALEARN_LESSONS", "tests/data/lessons/course")
            .env("CUDALEARN_DATA_DIR", data.path())
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let out = run(&["lessons"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(" 1. Steps"), "{stdout}");
    assert!(stdout.contains("1 min  not started"), "{stdout}");
    assert!(stdout.contains(" 2. A GPU lesson (GPU)"), "{stdout}");
    let out = run(&["lesson", "9", "--check"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no lesson '9'"));
    let out = run(&["lesson", "--check-all", "--device", "cpu"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("✓ lessons/01-steps.md on cpu"), "{stdout}");
    assert!(
        stdout.contains("2 of 2 lesson runs as expected"),
        "{stdout}"
    );
}

#[test]
fn asking_for_a_device_that_is_not_there_is_an_error() {
    let (code, _, stderr) = check("tests/data/lessons/valid/basics.md", &["--device", "cuda"]);
    // On a machine without a GPU: a clear error, not a run on some other device.
    if code != 0 {
        assert!(code == 2 || code == 3, "{code}: {stderr}");
        assert!(stderr.contains("--device cuda"), "{stderr}");
    }
}

#[test]
fn check_stops_a_block_that_runs_past_its_time_limit() {
    // `timeout=1` in the info string (the default is 60 s); the time itself is not asserted.
    let (code, stdout, stderr) = check("tests/data/lessons/limits/hangs.md", &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("✗ tests/data/lessons/limits/hangs.md:16: stopped after 1 s"),
        "{stdout}"
    );
    assert!(stdout.contains("timeout=N"), "{stdout}");
    assert!(!stdout.contains("never reached"), "{stdout}");
}

#[test]
fn check_all_reports_a_hanging_lesson_instead_of_hanging() {
    let data = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["lesson", "--check-all", "--device", "cpu"])
        .env("CUDALEARN_LESSONS", "tests/data/lessons/limits/course")
        .env("CUDALEARN_DATA_DIR", data.path())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("lessons/01-hangs.md:7: stopped after 1 s"),
        "{stdout}"
    );
    assert!(
        stdout.contains("0 of 1 lesson runs as expected"),
        "{stdout}"
    );
}

#[test]
fn check_fails_when_a_wrong_answer_passes_the_check() {
    let (code, stdout, _) = check("tests/data/lessons/limits/weak_check.md", &[]);
    assert_eq!(code, 1, "{stdout}");
    // n * n gives 4 for 2: the check lets it through, and --check says so.
    assert!(
        stdout.contains(
            "  wrong answer 1:\n    def double(n):\n        return n * n\n  ✗ this wrong answer passes the check: the check must reject it"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("rejected, as it should be: double(2) should be 4"),
        "{stdout}"
    );
}

#[test]
fn lessons_open_by_name_prefix_or_title_word_in_any_case() {
    let run = |arg: &str| {
        let out = Command::new(BIN)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["lesson", arg, "--check", "--device", "cpu"])
            .env("CUDALEARN_LESSONS", "lessons")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let first = String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .to_string();
        (first, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    for (arg, file) in [
        ("mismatch", "03-mismatch-error"),
        ("Devices", "01-devices"),
        ("MOVING-MODELS", "04-moving-models"),
        ("precision", "07-mixed-precision"),
        ("10", "10-two-gpus"),
    ] {
        let (first, err) = run(arg);
        assert!(
            first.contains(&format!("(lessons/{file}.md)")),
            "{arg}: {first}{err}"
        );
    }
    let (_, err) = run("mov");
    assert!(
        err.contains("'mov' could be more than one lesson: 2 (moving-tensors), 4 (moving-models)"),
        "{err}"
    );
}

#[test]
fn lessons_shows_short_names_and_wraps_at_80_columns() {
    let data = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("lessons")
        .env("CUDALEARN_LESSONS", "lessons")
        .env("CUDALEARN_DATA_DIR", data.path())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("      mismatch-error · Cause the most famous"),
        "{stdout}"
    );
    assert!(
        stdout.contains("`cudalearn lesson` alone resumes"),
        "{stdout}"
    );
    for l in stdout.lines() {
        assert!(l.chars().count() <= 80, "wider than 80 columns: {l:?}");
    }
}
