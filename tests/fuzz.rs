//! A short deterministic fuzz run for CI, plus every reproducer in `tests/fuzz_regressions.txt`.
//! The long run is `examples/fuzz.rs`; both share the generators in `tests/fuzz/common.rs`.
#[path = "fuzz/common.rs"]
mod common;

use common::Config;

/// Small allocations only: CI machines should not see 1 GiB strings.
const CFG: Config = Config {
    big_allocations: false,
    skip_open_bugs: false,
};
const SEED: u64 = 0x00C0_FFEE;
const INPUTS: u64 = 4000;

fn on_big_stack(f: impl FnOnce() -> Vec<String> + Send + 'static) -> Vec<String> {
    cudalearn::run::with_big_stack(move || {
        common::install_panic_hook();
        f()
    })
}

fn regressions(open: bool) -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fuzz_regressions.txt");
    let text = std::fs::read_to_string(path).expect("tests/fuzz_regressions.txt");
    let sections: Vec<_> = common::split_sections(&text)
        .into_iter()
        .filter(|(name, _)| name.starts_with("open_") == open)
        .collect();
    assert!(!sections.is_empty());
    sections
}

fn run_all(sections: Vec<(String, String)>) {
    let failures = on_big_stack(move || {
        sections
            .into_iter()
            .filter_map(|(name, body)| common::run_one(&body).err().map(|p| format!("{name}: {p}")))
            .collect()
    });
    assert!(failures.is_empty(), "panics:\n{}", failures.join("\n"));
}

#[test]
fn regressions_do_not_panic() {
    run_all(regressions(false));
}

/// Operator and postfix chains far longer than any real program: the parser must refuse them
/// with a SyntaxError before anything recurses over a tree that deep.
#[test]
fn very_long_chains_do_not_overflow() {
    let mut programs = Vec::new();
    for piece in ["1 + ", "x or ", "x and ", "x < "] {
        programs.push(format!("x = 1\ny = {}1\n", piece.repeat(300_000)));
    }
    programs.push(format!("x = 1\ny = x{}\n", ".real".repeat(300_000)));
    programs.push(format!("x = [1]\ny = x{}\n", "[0:1]".repeat(300_000)));
    programs.push(format!("x = 1\ny = f'{{{}1}}'\n", "1 - ".repeat(300_000)));
    // Just under the limit still runs.
    programs.push(format!("x = 1\ny = {}1\nprint(y)\n", "x + ".repeat(40_000)));
    let sections = programs
        .into_iter()
        .enumerate()
        .map(|(i, p)| (format!("chain {i}"), p))
        .collect();
    run_all(sections);
}

#[test]
fn generated_programs_do_not_panic() {
    let failures = on_big_stack(|| {
        let corpus = common::load_corpus();
        let mut failures = Vec::new();
        for idx in 0..INPUTS {
            let (kind, text) = common::generate(SEED, idx, &corpus, CFG);
            if let Err(p) = common::run_one(&text) {
                failures.push(format!(
                    "input {idx} ({}): {p}\n--- input ---\n{text}\n---",
                    kind.name()
                ));
            }
        }
        failures
    });
    assert!(
        failures.is_empty(),
        "{} panics:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
