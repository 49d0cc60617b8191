//! Every lesson's full `--check` transcript (NO_COLOR, no terminal) is an insta snapshot, so
//! a lesson whose output drifts fails here. Update after a deliberate change with
//! `INSTA_UPDATE=always cargo test --test lesson_snapshots` and review `tests/snapshots/`.
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_cudalearn");

/// The device the course's transcripts are taken on: the simulated GPU, the same on every
/// machine (a real GPU's names and timings would differ). `--check-all` covers the CPU path.
const COURSE_DEVICE: &str = "sim";

/// `cudalearn lesson PATH --check` run from the crate root, with its exit status.
fn transcript(path: &Path, device: Option<&str>) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .canonicalize()
        .unwrap();
    let rel = path.strip_prefix(&root).unwrap_or(path);
    let mut cmd = Command::new(BIN);
    cmd.current_dir(&root)
        .arg("lesson")
        .arg(rel)
        .arg("--check")
        .env("NO_COLOR", "1")
        .env(
            "CUDALEARN_DATA_DIR",
            std::env::temp_dir().join("cudalearn-snapshots"),
        )
        .stdin(Stdio::null());
    if let Some(d) = device {
        cmd.args(["--device", d]);
    }
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}exit status: {}\n",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        out.status.code().unwrap_or(-1)
    );
    mask_addresses(&text)
}

/// Object addresses (`<SumBackward0 object at 0x7f3a...>`) differ from run to run, as in
/// Python; the snapshot keeps `0x…` in their place.
fn mask_addresses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("0x") {
        let hex = rest[i + 2..]
            .bytes()
            .take_while(|b| b.is_ascii_hexdigit())
            .count();
        out.push_str(&rest[..i + 2]);
        if hex >= 6 {
            out.push('…');
        } else {
            out.push_str(&rest[i + 2..i + 2 + hex]);
        }
        rest = &rest[i + 2 + hex..];
    }
    out.push_str(rest);
    out
}

#[test]
fn course_lessons() {
    // The course may have no lessons yet (only lessons/README.md, which is not one).
    let mut settings = insta::Settings::clone_current();
    settings.set_allow_empty_glob(true);
    settings.bind(|| {
        insta::glob!("../lessons", "[0-9]*.md", |path| {
            insta::assert_snapshot!("lesson", transcript(path, Some(COURSE_DEVICE)));
        });
    });
}

/// What the runner itself prints in a transcript (prose, headers, verdicts, exercise
/// reports) fits 80 columns; only what the lesson's code prints (indented) may be wider.
#[test]
fn runner_lines_fit_80_columns() {
    insta::glob!("../lessons", "[0-9]*.md", |path| {
        for l in transcript(path, Some(COURSE_DEVICE)).lines() {
            if !l.starts_with("    ") {
                assert!(l.chars().count() <= 80, "{}: {l:?}", path.display());
            }
        }
    });
}

/// The runner's own fixtures, on the CPU.
#[test]
fn fixture_lessons() {
    insta::glob!("data/lessons", "{valid,course}/*.md", |path| {
        insta::assert_snapshot!("fixture", transcript(path, Some("cpu")));
    });
}

/// A GPU fixture on the simulated GPU: the `cuda` output variants apply.
#[test]
fn gpu_fixture_on_the_simulated_gpu() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lessons/valid/devices.md");
    let path = path.canonicalize().unwrap();
    insta::assert_snapshot!("devices_sim", transcript(&path, Some("sim")));
}
