//! What the REPL tells a learner beyond Python's own output (stdin piped, so no timing and no
//! terminal): IPython magics point to `:time`, `memory_summary()` without a GPU keeps
//! PyTorch's KeyError and explains it, and the device-mismatch hint names the learner's own
//! variables. Also the prompt's traceback frames where a script's are covered elsewhere.
use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_cudalearn");

/// Runs `script` through `cudalearn [args] repl` with stdin piped; returns (stdout, stderr).
fn repl(args: &[&str], script: &str) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(BIN)
        .args(args)
        .arg("repl")
        .env("NO_COLOR", "1")
        .env("HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path().join("share"))
        .env_remove("CUDALEARN_SIM_GPU")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn ipython_magics_point_to_the_time_command() {
    let (_, err) = repl(
        &[],
        "%timeit sum(range(10))\n%time x = 1\nprint('still here')\n",
    );
    assert!(
        err.contains("%timeit is an IPython command, not Python; here `:time STATEMENT` times a statement: :time sum(range(10))"),
        "{err}"
    );
    assert!(err.contains("%time is an IPython command"), "{err}");
    assert!(err.contains(":time x = 1"), "{err}");
    assert!(!err.contains("SyntaxError"), "{err}");
}

#[test]
fn memory_summary_without_a_gpu_keeps_pytorchs_error_and_adds_a_hint() {
    let (_, err) = repl(
        &["--device", "cpu"],
        "import torch\ntorch.cuda.memory_summary()\n",
    );
    // PyTorch's own last line (tests/golden/torch/introspection.expected), then the hint.
    assert!(err.contains("KeyError: 'allocated_bytes.all.current'\nhint: memory_summary() reports GPU memory, and there is no GPU here"), "{err}");
    assert!(err.contains("--sim-gpu"), "{err}");
}

#[test]
fn device_mismatch_hint_names_the_learners_variables() {
    let script = "import torch\nfeatures = torch.ones(2)\nweights = torch.ones(2, device='cuda')\n\
                  weights * features\nfeatures + weights\nprint(torch.ones(2) + weights)\n";
    let (_, err) = repl(&["--sim-gpu"], script);
    let hints: Vec<&str> = err.lines().filter(|l| l.starts_with("hint:")).collect();
    assert_eq!(hints.len(), 3, "{err}");
    // The one on the CPU moves to the other's device, whichever side it is on.
    assert!(
        hints[0].ends_with("e.g. features = features.to(weights.device)"),
        "{err}"
    );
    assert!(
        hints[1].ends_with("e.g. features = features.to(weights.device)"),
        "{err}"
    );
    // Not two names: the general form.
    assert!(hints[2].ends_with("e.g. y = y.to(x.device)"), "{err}");
}

#[test]
fn class_body_error_at_the_prompt_has_the_class_frame() {
    // CPython 3.11's prompt (`python3 -i`) gives these frames, without the source lines.
    let script = "x = 1\ndef f():\n    class K:\n        y = [][3]\n\nf()\nclass K: z = 1 / 0\n\n";
    let (_, err) = repl(&["--no-hints"], script);
    let frames: Vec<&str> = err.lines().filter(|l| l.starts_with("  File ")).collect();
    assert_eq!(
        frames,
        [
            "  File \"<stdin>\", line 1, in <module>",
            "  File \"<stdin>\", line 2, in f",
            "  File \"<stdin>\", line 3, in K",
            "  File \"<stdin>\", line 1, in <module>",
            "  File \"<stdin>\", line 1, in K",
        ],
        "{err}"
    );
}
