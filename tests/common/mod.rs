//! Shared by the golden-output tests: reading case files and running cases in-process.
#![allow(dead_code)]
use cudalearn::lang::interp::Output;
use cudalearn::lang::{traceback, Interp, Source};
use std::path::Path;

pub const MARK: &str = "# %% ";

/// Splits a case file (or its `.expected`) into (name, text) pairs.
pub fn split_cases(text: &str) -> Vec<(String, String)> {
    let mut cases = Vec::new();
    let mut cur: Option<(String, String)> = None;
    for line in text.split_inclusive('\n') {
        if let Some(name) = line.strip_prefix(MARK) {
            if let Some(c) = cur.take() {
                cases.push(c);
            }
            cur = Some((name.trim().to_string(), String::new()));
        } else if let Some((_, body)) = cur.as_mut() {
            body.push_str(line);
        }
    }
    cases.extend(cur);
    cases
}

/// Runs one case as the generator does: stdout, then the exception line if one escaped.
pub fn run_case(code: &str) -> String {
    let code = code.to_string();
    cudalearn::run::with_big_stack(move || {
        let mut interp = Interp::new();
        interp.out = Output::Capture(String::new());
        interp.step_limit = Some(50_000_000);
        let r = interp.run(Source::new("<case>", code), false);
        let mut out = match std::mem::replace(&mut interp.out, Output::Capture(String::new())) {
            Output::Capture(s) => s,
            _ => String::new(),
        };
        if let Err(e) = r {
            out.push_str(&traceback::exception_line(&mut interp, &e));
            out.push('\n');
        }
        out
    })
}

/// Runs every case of every `*.py` in `dir` against its `.expected`; returns the failures.
pub fn check_dir(dir: &Path, skip_files: &[&str]) -> (usize, Vec<String>) {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("case directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    files.sort();
    let mut total = 0;
    let mut failures = Vec::new();
    for f in files {
        let stem = f
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_string();
        if skip_files.contains(&stem.as_str()) {
            continue;
        }
        let cases = split_cases(&std::fs::read_to_string(&f).expect("case file"));
        // (A file without a `# %% name` line would hold no case, and check nothing.)
        assert!(!cases.is_empty(), "{}: no `{MARK}` case line", f.display());
        let expected = split_cases(
            &std::fs::read_to_string(f.with_extension("expected")).expect("expected file"),
        );
        assert_eq!(
            cases.len(),
            expected.len(),
            "{}: cases and expectations differ in number",
            f.display()
        );
        for ((name, code), (ename, want)) in cases.iter().zip(expected.iter()) {
            assert_eq!(name, ename, "{}: case order", f.display());
            total += 1;
            let got = run_case(code);
            if &got != want {
                failures.push(format!(
                    "--- {stem}/{name}\n{code}--- expected\n{want}--- got\n{got}"
                ));
            }
        }
    }
    (total, failures)
}
