//! The torch module against real PyTorch 2.15: every case's output, byte for byte.
//! Regenerate expectations with `../shared/tools/torch-golden tests/golden/gen.py tests/golden/torch/*.py`.
mod common;

#[test]
fn pytorch_golden_cases() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/torch");
    let (total, failures) = common::check_dir(&dir, &[]);
    for f in &failures {
        eprintln!("{f}");
    }
    eprintln!(
        "torch golden: {} of {total} cases match PyTorch",
        total - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {total} PyTorch golden cases differ",
        failures.len()
    );
}
