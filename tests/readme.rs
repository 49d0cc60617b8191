//! The README tells the truth: its tour prints what the program prints today, the commands it
//! names exist, `--help` states the same main job, ARCHITECTURE.md names files that exist, and
//! the release profile ships no debug information.
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_cudalearn");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> String {
    std::fs::read_to_string(root().join(name)).unwrap()
}

/// The README's ```text blocks that show `$ cat FILE`, the file, `$ cudalearn run FILE`, and
/// the output: (file name, script, expected output).
fn tours(readme: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for block in readme.split("```text\n").skip(1) {
        let block = &block[..block.find("\n```").unwrap_or(block.len())];
        let Some(rest) = block.strip_prefix("$ cat ") else {
            continue;
        };
        let (name, rest) = rest.split_once('\n').unwrap();
        let run = format!("$ cudalearn run {name}\n");
        let (script, expected) = rest.split_once(&run).expect("a `$ cudalearn run` line");
        out.push((
            name.to_string(),
            script.to_string(),
            format!("{expected}\n"),
        ));
    }
    out
}

#[test]
fn the_readme_tour_prints_what_the_program_prints() {
    let readme = read("README.md");
    let cases = tours(&readme);
    assert_eq!(cases.len(), 2, "the tour's two scripts");
    let dir = tempfile::tempdir().unwrap();
    let dir_path = dir.path().canonicalize().unwrap();
    for (name, script, expected) in cases {
        let file = dir_path.join(&name);
        std::fs::write(&file, script).unwrap();
        let out = Command::new(BIN)
            .arg("run")
            .arg(&file)
            .env("NO_COLOR", "1")
            .env_remove("CUDALEARN_SIM_GPU")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        // The README shows the script at /tmp/NAME; here it is in a temporary folder.
        let got = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
        .replace(&format!("{}/", dir_path.display()), "/tmp/");
        assert_eq!(got, expected, "README tour of {name}");
        assert_eq!(
            out.status.code(),
            Some(1),
            "{name} ends with an uncaught error"
        );
    }
}

fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn help_and_readme_agree_on_the_main_job() {
    const MAIN_JOB: &str = "Start with the course: `cudalearn lesson` opens lesson 1, and later resumes where you stopped.";
    let readme = words(&read("README.md"));
    assert!(readme.contains(MAIN_JOB), "README");
    let out = Command::new(BIN).arg("--help").output().unwrap();
    let help = words(&String::from_utf8_lossy(&out.stdout));
    assert!(help.contains(MAIN_JOB), "{help}");
}

#[test]
fn every_command_the_readme_names_exists() {
    let readme = read("README.md");
    assert!(
        readme.contains("cargo install --path ."),
        "how to get the command"
    );
    assert!(
        !readme.contains("DESIGN.md"),
        "no document outside the repository"
    );
    let mut named: Vec<String> = readme
        .split("`cudalearn ")
        .skip(1)
        .filter_map(|rest| {
            let w: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase())
                .collect();
            (!w.is_empty()).then_some(w)
        })
        .collect();
    named.sort();
    named.dedup();
    for cmd in ["lesson", "lessons", "repl", "run", "info", "bench"] {
        assert!(named.contains(&cmd.to_string()), "{cmd} in {named:?}");
    }
    for cmd in &named {
        let out = Command::new(BIN).args([cmd, "--help"]).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "`cudalearn {cmd}` is not a command"
        );
    }
}

#[test]
fn architecture_names_files_that_exist() {
    let text = read("ARCHITECTURE.md");
    let mut checked = 0;
    for piece in text.split('`').skip(1).step_by(2) {
        let top = ["src/", "tests/", "lessons/", "kernels/", "assets/"];
        if top.iter().any(|t| piece.starts_with(t)) && !piece.contains([' ', '<', '*']) {
            let path = piece.trim_end_matches('/');
            assert!(root().join(path).exists(), "ARCHITECTURE.md names {piece}");
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked}");
}

#[test]
fn release_builds_carry_no_debug_info_and_profiling_keeps_it() {
    let toml = read("Cargo.toml");
    let section = |name: &str| -> String {
        let head = format!("[{name}]\n");
        let start = toml.find(&head).unwrap_or_else(|| panic!("no {head}")) + head.len();
        let rest = &toml[start..];
        rest[..rest.find("\n[").unwrap_or(rest.len())].to_string()
    };
    let release = section("profile.release");
    assert!(release.contains("debug = false"), "{release}");
    assert!(release.contains("strip = \"debuginfo\""), "{release}");
    let profiling = section("profile.profiling");
    assert!(profiling.contains("inherits = \"release\""), "{profiling}");
    assert!(profiling.contains("debug = 1"), "{profiling}");
}
