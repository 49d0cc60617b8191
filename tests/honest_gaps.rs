//! Names that PyTorch 2.15 or CPython 3.11 have and cudalearn lacks say so plainly
//! (`NotImplementedError: cudalearn does not implement torch.X yet` plus a hint), never a bare
//! AttributeError or a "Did you mean" pointing at a different function; real typos keep
//! CPython's suggestion; `help()` prints the real libraries' signature and first sentence.
use cudalearn::lang::interp::Output;
use cudalearn::lang::{traceback, Interp, Source};

/// The last two lines `cudalearn run` prints for an uncaught error (exception and hint), or
/// the captured output when nothing escaped.
fn run(code: &str) -> String {
    let code = code.to_string();
    cudalearn::run::with_big_stack(move || {
        let mut interp = Interp::new();
        interp.out = Output::Capture(String::new());
        let r = interp.run(Source::new("<case>", code), false);
        let out = match std::mem::replace(&mut interp.out, Output::Capture(String::new())) {
            Output::Capture(s) => s,
            _ => String::new(),
        };
        match r {
            Ok(()) => out,
            Err(e) => {
                let report = traceback::report(&mut interp, &e, true);
                let lines: Vec<&str> = report.lines().collect();
                lines[lines.len().saturating_sub(2)..].join("\n")
            }
        }
    })
}

fn assert_gap(code: &str, message: &str) {
    let got = run(code);
    let want = format!("NotImplementedError: cudalearn does not implement {message} yet\nhint: ");
    assert!(got.starts_with(&want), "{code}\n--- got\n{got}");
    assert!(!got.contains("Did you mean"), "{got}");
}

#[test]
fn real_torch_names_are_not_implemented_with_a_hint() {
    assert_gap(
        "import torch\ntorch.searchsorted(torch.ones(2), torch.ones(1))",
        "torch.searchsorted",
    );
    assert_gap(
        "import torch\ntorch.ones(2).index_put_",
        "torch.Tensor.index_put_",
    );
    assert_gap(
        "import torch\ntorch.nn.Transformer()",
        "torch.nn.Transformer",
    );
    assert_gap(
        "import torch.nn.functional as F\nF.interpolate",
        "torch.nn.functional.interpolate",
    );
    assert_gap(
        "import torch\ntorch.nn.Linear(1, 1).compile()",
        "torch.nn.Module.compile",
    );
    assert_gap("from torch import kron", "torch.kron");
    assert_gap(
        "import torch\ntorch.Tensor.index_put_",
        "torch.Tensor.index_put_",
    );
    assert_gap("import torch\ntorch.fft", "torch.fft");
    assert_gap("import torch.fft", "the torch.fft module");
}

#[test]
fn the_hint_says_what_to_use_instead() {
    let got = run("import torch\ntorch.ones(2).index_put_");
    assert!(
        got.ends_with("hint: index assignment does the same: x[idx] = values."),
        "{got}"
    );
    let got = run("import torch\ntorch.linalg.det");
    assert!(
        got.contains("dir(torch.linalg)") || got.contains("torch.linalg"),
        "{got}"
    );
}

#[test]
fn real_python_names_are_not_implemented() {
    assert_gap("memoryview(1)", "memoryview");
    assert_gap("'abc'.casefold()", "str.casefold");
    // (dict.fromkeys exists now, a class method beside the dict slots subclasses use.)
    assert_gap("'a'.expandtabs", "str.expandtabs");
    assert_gap("import json", "the json module");
    assert_gap("import math\nmath.fsum\nmath.nextafter", "math.nextafter");
}

#[test]
fn typos_keep_cpythons_suggestion() {
    let got = run("import torch\ntorch.sqrtt");
    assert!(
        got.contains(
            "AttributeError: module 'torch' has no attribute 'sqrtt'. Did you mean: 'sqrt'?"
        ),
        "{got}"
    );
    let got = run("prnt(1)");
    assert!(
        got.contains("NameError: name 'prnt' is not defined. Did you mean: 'print'?"),
        "{got}"
    );
    // Not a standard-library module: still ModuleNotFoundError.
    assert!(run("import numpy").starts_with("ModuleNotFoundError: No module named 'numpy'"));
}

#[test]
fn lookups_that_probe_still_answer_missing() {
    let got = run(
        "import torch\nx = torch.ones(1)\nprint(hasattr(torch, 'kron'), hasattr(x, 'index_put_'), getattr(x, 'index_put_', 7))\n",
    );
    assert_eq!(got, "False False 7\n");
}

#[test]
fn a_name_cudalearn_gains_is_found_first() {
    // The lists are consulted only after the module's own lookup fails, so whatever the
    // module holds at run time (an op added later, or this assignment) wins.
    let got = run("import torch\ntorch.kron = lambda x: 'mine'\nprint(torch.kron(1))\n");
    assert_eq!(got, "mine\n");
}

#[test]
fn help_prints_the_real_signature_and_summary() {
    let got = run("import torch\nhelp(torch.tensor)");
    assert!(got.starts_with("Help on built-in function tensor in module torch:\n\ntensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False) -> Tensor\n    Constructs a tensor"), "{got}");
    let got = run("import torch.nn as nn\nhelp(nn.Linear)");
    assert!(
        got.contains("Help on class Linear in module torch.nn:"),
        "{got}"
    );
    assert!(
        got.contains("Applies an affine linear transformation"),
        "{got}"
    );
    let got = run("import torch\nhelp(torch.ones(1).view)");
    assert!(got.contains("view(*shape) -> Tensor"), "{got}");
    let got = run("help(len)");
    assert!(
        got.contains("len(obj, /)\n    Return the number of items in a container."),
        "{got}"
    );
}

#[test]
fn help_shows_a_learners_own_docstring() {
    let got =
        run("def area(w, h=2):\n    \"\"\"Width times height.\"\"\"\n    return w * h\nhelp(area)");
    assert_eq!(
        got,
        "Help on function area in module __main__:\n\narea(w, h=2)\n    Width times height.\n\n"
    );
}

/// A missing name next to a similar one that exists gets the gap, not a "Did you mean".
#[test]
fn a_missing_name_beside_an_existing_one_is_not_a_typo() {
    assert_gap(
        "import torch\ntorch.linalg.matrix_rank(torch.eye(2))",
        "torch.linalg.matrix_rank",
    );
}

#[test]
fn unsupported_syntax_says_so() {
    // `match` stays a usable name; only its statement form is refused, in plain words.
    let got = run("x = 3\nmatch x:\n    case 3:\n        pass\n");
    assert!(
        got.contains("SyntaxError: cudalearn does not support the match statement yet"),
        "{got}"
    );
    assert_eq!(run("match = 5\nprint(match)\n"), "5\n");
}
