//! Running `tests/cuda/parity.py` on both devices and comparing (shared by the CUDA tests).
#![allow(dead_code)]
use super::common::{run_case, split_cases};

pub fn cases() -> Vec<(String, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/parity.py");
    split_cases(&std::fs::read_to_string(path).expect("tests/cuda/parity.py"))
}

/// A case's output with `dev` set; device names are spelled as on the CPU so outputs compare
/// (a CUDA tensor's repr loses its `device=` suffix, which a CPU tensor's does not have).
pub fn run_on(dev: &str, code: &str) -> String {
    as_cpu(&run_case(&format!("dev = '{dev}'\n{code}")))
}

/// Output with CUDA device names spelled as on the CPU.
pub fn as_cpu(out: &str) -> String {
    out.replace(", device='cuda:0'", "")
        .replace("cuda:0", "cpu")
        .replace("cuda", "cpu")
}

/// Every case on both devices; `same(gpu, cpu)` decides. Returns the differing cases.
pub fn compare_all(same: impl Fn(&str, &str) -> bool) -> Vec<String> {
    let mut failures = Vec::new();
    for (name, code) in cases() {
        let want = run_on("cpu", &code);
        assert!(
            !want.contains("Error"),
            "parity case {name} fails on the CPU itself:\n{want}"
        );
        let got = run_on("cuda", &code);
        if !same(&got, &want) {
            failures.push(format!("case {name}\n--- cuda:\n{got}\n--- cpu:\n{want}"));
        }
    }
    eprintln!("parity: {} cases", cases().len());
    failures
}

/// Equal text apart from numbers, and numbers equal within `rtol` (relative, with an absolute
/// floor of `rtol` for values near zero).
pub fn numbers_close(got: &str, want: &str, rtol: f64) -> bool {
    let (g, w) = (tokens(got), tokens(want));
    g.len() == w.len()
        && g.iter()
            .zip(&w)
            .all(|(a, b)| match (a.parse::<f64>(), b.parse::<f64>()) {
                (Ok(x), Ok(y)) => {
                    (x.is_nan() && y.is_nan()) || x == y || (x - y).abs() <= rtol * (1.0 + y.abs())
                }
                _ => a == b,
            })
}

/// Numbers and the text between them.
fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut num = false;
    for c in s.chars() {
        let is_num = c.is_ascii_digit()
            || c == '.'
            || c == '-'
            || c == 'e' && num
            || c == '+' && cur.ends_with('e');
        if is_num != num && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        num = is_num;
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Every single-GPU lesson's `--check` on the "cuda" device; the failing transcripts. (The
/// two-GPU lesson needs a second device; the simulated GPU covers it in `lesson_snapshots.rs`.)
pub fn lessons_on_cuda() -> (usize, Vec<String>) {
    use cudalearn::lesson::{self, check::DeviceKind, run};
    let (mut checked, mut failures) = (0, Vec::new());
    for f in lesson::course(&lesson::lessons_dir()) {
        let l = lesson::load(&f).expect("lesson loads");
        if l.meta.gpus_needed() > 1 {
            continue;
        }
        checked += 1;
        lesson::device::activate(DeviceKind::Cuda, 1).expect("the test device is a GPU");
        // `lesson --check-all` runs each lesson in a process of its own
        cudalearn::backend::gpu::release_blas_workspaces(0);
        let r = run::CheckRun {
            lesson: &l,
            device: DeviceKind::Cuda,
            note: None,
            look: lesson::look(),
        };
        let mut out = Vec::new();
        if run::check_lesson(&r, &mut out) > 0 {
            failures.push(format!("{}:\n{}", f.shown, String::from_utf8_lossy(&out)));
        }
    }
    (checked, failures)
}
