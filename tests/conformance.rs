//! The tensor-free language against CPython 3.11: every case's output, byte for byte.
mod common;

#[test]
fn cpython_conformance() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    // int_overflow.py goes past 64-bit ints, which cudalearn reports instead of computing.
    let (total, failures) = common::check_dir(&dir, &["int_overflow"]);
    for f in &failures {
        eprintln!("{f}");
    }
    eprintln!(
        "conformance: {} of {total} cases match CPython",
        total - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {total} conformance cases differ from CPython",
        failures.len()
    );
}
