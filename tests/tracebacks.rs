//! Uncaught errors print exactly CPython 3.11's traceback (the hint line aside).
use std::path::Path;
use std::process::Command;

#[test]
fn tracebacks_match_cpython() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tracebacks");
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .expect("tracebacks dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 20);
    let mut failures = Vec::new();
    for script in &scripts {
        let out = Command::new(env!("CARGO_BIN_EXE_cudalearn"))
            .args(["--no-hints", "run"])
            .arg(script)
            .env("NO_COLOR", "1")
            .output()
            .expect("run cudalearn");
        let want_err = std::fs::read_to_string(script.with_extension("stderr"))
            .expect("stderr file")
            .replace("{DIR}", &dir.display().to_string());
        let want_out = std::fs::read_to_string(script.with_extension("stdout")).unwrap_or_default();
        let got_err = String::from_utf8_lossy(&out.stderr);
        let got_out = String::from_utf8_lossy(&out.stdout);
        if got_err != want_err || got_out != want_out || out.status.code() != Some(1) {
            failures.push(format!(
                "--- {}\n--- expected stderr\n{want_err}--- got stderr\n{got_err}--- stdout expected/got\n{want_out}/{got_out}",
                script.display()
            ));
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} tracebacks differ",
        failures.len(),
        scripts.len()
    );
}

#[test]
fn hint_line_follows_the_traceback() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tracebacks");
    let out = Command::new(env!("CARGO_BIN_EXE_cudalearn"))
        .arg("run")
        .arg(dir.join("name_error_typo.py"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run cudalearn");
    let err = String::from_utf8_lossy(&out.stderr);
    let last = err.lines().last().unwrap_or("");
    assert!(last.starts_with("hint: "), "{err}");
}
