//! The simulated GPU's modelled clock as programs see it: CUDA events and `synchronize` read the
//! model, `--sim-gpu-model` picks the imitated card, `torch.profiler` lays its table out as
//! PyTorch does (`tests/golden/profiler/`, from real PyTorch; times masked), `:profile` shows
//! per-op costs, and `bench --sim-gpu` labels its figures as modelled. Modelled numbers are
//! deterministic, so they are asserted exactly; nothing here times the machine.
use std::io::Write;
use std::process::{Command, Stdio};

fn cudalearn(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> (String, String, i32) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cudalearn"));
    cmd.args(args)
        .env_remove("CUDALEARN_SIM_GPU")
        .env_remove("CUDALEARN_SIM_GPU_MODEL")
        .env("CUDALEARN_NO_CUDA", "1")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("cudalearn runs");
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    let out = child.wait_with_output().expect("cudalearn finishes");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// `script` on a simulated GPU (extra flags first); it must succeed.
fn sim(flags: &[&str], script: &str) -> String {
    let mut args = vec!["--sim-gpu"];
    args.extend_from_slice(flags);
    args.extend(["run", "-"]);
    let (out, err, code) = cudalearn(&args, &format!("import torch\n{script}"), &[]);
    assert_eq!(code, 0, "{script}\nstdout:\n{out}\nstderr:\n{err}");
    out
}

const TIME_MS: &str = "
def time_ms(fn, reps=10):
    fn()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / reps
";

#[test]
fn events_report_modelled_device_time() {
    let out = sim(
        &[],
        &format!(
            "{TIME_MS}
for n in [16, 64, 256, 1024]:
    a = torch.ones(n, n, device='cuda')
    print(n, f'{{time_ms(lambda: a @ a):.4f}}')
"
        ),
    );
    // launch bound (the host's 7 us per op) up to 64, then the A100's FP32 rate takes over
    assert_eq!(out, "16 0.0071\n64 0.0071\n256 0.0159\n1024 0.1579\n");
}

#[test]
fn half_precision_uses_tensor_cores() {
    let out = sim(
        &[],
        &format!(
            "{TIME_MS}
a = torch.ones(1024, 1024, device='cuda')
h = a.half()
b = a.bfloat16()
t32, t16, tb = time_ms(lambda: a @ a), time_ms(lambda: h @ h), time_ms(lambda: b @ b)
print(f'{{t32 / t16:.1f}} {{t32 / tb:.1f}}')
"
        ),
    );
    // an A100 at n = 1024: about 11x for float16 and bfloat16 on tensor cores
    assert_eq!(out, "10.8 10.8\n");
}

#[test]
fn copies_pinned_pageable_and_item_syncs() {
    let out = sim(
        &[],
        &format!(
            "{TIME_MS}
x = torch.ones(1024, 1024)
xp = x.pin_memory()
print(f'{{time_ms(lambda: x.to(\"cuda\")):.4f}} {{time_ms(lambda: xp.to(\"cuda\")):.4f}}')
"
        ),
    );
    // 4 MiB over PCIe 4.0: ~12.6 GB/s pageable, ~25.2 GB/s pinned, plus latency
    assert_eq!(out, "0.3500 0.1835\n");
}

#[test]
fn model_choice_names_the_card() {
    let out = sim(
        &["--sim-gpu-model", "H100-SXM"],
        "p = torch.cuda.get_device_properties(0)\nprint(p.name, p.major, p.minor, p.multi_processor_count, p.total_memory // 2**30)",
    );
    assert_eq!(
        out,
        "cudalearn simulated GPU (modelled H100 80GB HBM3) 9 0 132 80\n"
    );
    let (out, _, code) = cudalearn(
        &["--sim-gpu", "run", "-"],
        "import torch\nprint(torch.cuda.get_device_name())",
        &[("CUDALEARN_SIM_GPU_MODEL", "t4")],
    );
    assert_eq!(
        (out.as_str(), code),
        ("cudalearn simulated GPU (modelled Tesla T4)\n", 0)
    );
    let (_, err, code) = cudalearn(&["--sim-gpu-model", "v100", "run", "-"], "", &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("t4, a100, h100, rtx4090"), "{err}");
}

#[test]
fn host_clocks_measure_the_host() {
    // synchronize waits for the model, not the wall clock: a modelled 10 ms of matmuls does not
    // make perf_counter move by the modelled time
    let out = sim(
        &[],
        "import time
a = torch.ones(64, 64, device='cuda')
s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
s.record()
for _ in range(3):
    b = a @ a
e.record()
e.synchronize()
print(e.query(), s.elapsed_time(e) > 0, type(time.perf_counter()).__name__)
",
    );
    assert_eq!(out, "True True float\n");
}

/// A table line cut into its fixed-width fields after the name column (12 wide, 2 apart), with
/// numbers and time units masked: what must match PyTorch whatever the times were.
fn fields(line: &str, name_w: usize) -> Vec<String> {
    let rest: Vec<char> = line.chars().skip(name_w + 2).collect();
    rest.chunks(14)
        .map(|c| {
            let f: String = c.iter().collect();
            let mut m = String::new();
            let mut prev_digit = false;
            for ch in f.trim().chars() {
                let d = ch.is_ascii_digit() || ch == '.';
                if !(d && prev_digit) {
                    m.push(if d { '#' } else { ch });
                }
                prev_digit = d;
            }
            m.replace("#ms", "#us").replace("#s", "#us")
        })
        .collect()
}

#[test]
fn profiler_table_has_pytorchs_layout() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/profiler");
    let script = std::fs::read_to_string(dir.join("cpu_table.py")).unwrap();
    let golden = std::fs::read_to_string(dir.join("cpu_table.expected")).unwrap();
    let (out, err, code) = cudalearn(&["run", "-"], &script, &[]);
    assert_eq!(code, 0, "{err}");
    let (got, want): (Vec<&str>, Vec<&str>) = (out.lines().collect(), golden.lines().collect());
    assert_eq!(got.len(), want.len(), "{out}");
    // the name column follows the longest op name of all the events, which differs (PyTorch's
    // aten::mm calls aten::resolve_conj and more); the rows' names and every other column
    // must be PyTorch's (`x @ w` is an aten::matmul row around aten::mm)
    let w = |t: &[&str]| t[0].find(' ').unwrap();
    let (gw, ww) = (w(&got), w(&want));
    for (g, p) in got.iter().zip(&want).take(got.len() - 3) {
        assert_eq!(
            g.len() - gw,
            p.len() - ww,
            "line width:\n{out}\nPyTorch:\n{golden}"
        );
        assert_eq!(
            fields(g, gw),
            fields(p, ww),
            "\ngot:\n{out}\nPyTorch:\n{golden}"
        );
    }
    assert_eq!(got[1].trim_start(), want[1].trim_start());
    // Which ops fill the rows under `step` follows their times (a sum stalled on a busy
    // machine can outlast the product), so each must be one of the program's ops under
    // PyTorch's name (the golden rows, and aten::sum), each once; `step` is always first.
    let name = |l: &str| l.trim_start().split("  ").next().unwrap_or("").to_string();
    let mut ops: Vec<String> = (4..want.len() - 4).map(|k| name(want[k])).collect();
    ops.push("aten::sum".into());
    let rows: Vec<String> = (4..got.len() - 4).map(|k| name(got[k])).collect();
    for (i, r) in rows.iter().enumerate() {
        assert!(
            ops.contains(r) && !rows[..i].contains(r),
            "row {r:?}\ngot:\n{out}\nPyTorch:\n{golden}"
        );
    }
    assert_eq!(name(got[3]), "step");
    assert_eq!(name(want[3]), "step");
    assert!(got[got.len() - 3].starts_with("Self CPU time total: "));
    assert_eq!(got[got.len() - 1], want[want.len() - 1]);
}

/// `prof.key_averages()` is a list of `FunctionEventAvg` rows, as PyTorch's `EventList`: it
/// has a length, indexes and iterates, and each row has PyTorch's attributes (what PyTorch
/// 2.15 printed for this script).
#[test]
fn key_averages_is_a_list_of_event_averages() {
    let script = "import torch\nfrom torch.profiler import profile, record_function, ProfilerActivity\n\
        x = torch.randn(64, 64)\n\
        with profile(activities=[ProfilerActivity.CPU]) as prof:\n\
        \x20   with record_function('step'):\n\
        \x20       y = x @ x\n\
        ka = prof.key_averages()\n\
        print(type(ka).__name__, len(ka) == len(list(ka)))\n\
        by = {e.key: e for e in ka}\n\
        print(by['aten::mm'].count, type(by['step'].cpu_time_total).__name__, by['step'].cpu_time_total >= by['aten::mm'].cpu_time_total)\n\
        print(type(ka[0]).__name__, ka[-1].key in by, by['aten::mm'].self_device_time_total)\n";
    let (out, err, code) = cudalearn(&["run", "-"], script, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "EventList True\n1 float True\nFunctionEventAvg True 0\n"
    );
}

/// `t.max()`/`t.min()` are `aten::max`/`aten::min` rows and `t.amax(dim)` an `aten::amax`
/// one, as PyTorch 2.15 names them, on the CPU and on the simulated GPU.
#[test]
fn profiler_names_max_min_and_amax_as_pytorch_does() {
    let script = |dev: &str| {
        format!(
            "from torch.profiler import profile, ProfilerActivity
x = torch.randn(10, 20, device='{dev}')
with profile(activities=[ProfilerActivity.CPU]) as prof:
    a, b, c, d = x.max(), x.min(), x.amax(dim=0), x.max(dim=1)
print(sorted(set(e.key for e in prof.key_averages())))
"
        )
    };
    let want = "['aten::amax', 'aten::max', 'aten::min']\n";
    let (out, err, code) = cudalearn(
        &["run", "-"],
        &format!("import torch\n{}", script("cpu")),
        &[],
    );
    assert_eq!((out.as_str(), code), (want, 0), "{err}");
    let out = sim(&[], &script("cuda"));
    assert!(out.ends_with(want), "{out}");
}

#[test]
fn profiler_on_the_simulated_gpu_shows_modelled_cuda_columns() {
    let out = sim(
        &[],
        "from torch.profiler import profile, record_function, ProfilerActivity
a = torch.ones(256, 256, device='cuda')
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
    with record_function('step'):
        s = (a @ a).relu().sum().item()
print(prof.key_averages().table(sort_by='self_cuda_time_total', row_limit=3))
",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].trim_start().starts_with("Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg     Self CUDA   Self CUDA %    CUDA total  CUDA time avg    # of Calls"), "{out}");
    // the CPU shares depend on the real time spent in `step` itself: left out
    let mut mm: Vec<&str> = lines[3].split_whitespace().collect();
    mm.retain(|f| !f.ends_with('%') || *f == "48.94%");
    assert_eq!(
        mm,
        [
            "aten::mm", "7.000us", "7.000us", "7.000us", "15.906us", "48.94%", "15.906us",
            "15.906us", "1"
        ],
        "{out}"
    );
    assert!(out.contains("Self CUDA time total: 32.501us"), "{out}");
    assert!(
        out.contains("MODELLED for a simulated A100-SXM4-40GB"),
        "{out}"
    );
}

#[test]
fn repl_profile_shows_copies_syncs_and_kernels() {
    let (out, err, code) = cudalearn(
        &["--sim-gpu", "repl", "--no-history", "--quiet"],
        "import torch\nx = torch.ones(1000)\n:profile t = 0.0\nlosses = [torch.ones(()).cuda() for _ in range(3)]\n:profile y = x.cuda() * 2\n:profile for l in losses: t += l.item()\n\n:profile\n",
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(no tensor ops ran)"), "{out}");
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} row in\n{out}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(
        row("Memcpy HtoD (Pageable -> Device)"),
        "Memcpy HtoD (Pageable -> Device) cuda:0 1 - 4.0 kB 1 x 4.0 kB - 17.3 us 10.3 us"
    );
    assert_eq!(
        row("aten::mul"),
        "aten::mul cuda:0 1 1 8.0 kB - - 7.0 us 3.0 us"
    );
    assert_eq!(
        row("cudaStreamSynchronize"),
        "cudaStreamSynchronize cuda:0 3 - - - 3 3.0 us 0.0 us"
    );
    assert!(
        out.contains("3 host<->device copies (12 B), 3 sync points"),
        "{out}"
    );
    assert!(
        out.contains("MODELLED for a simulated A100-SXM4-40GB"),
        "{out}"
    );
    assert!(err.contains("usage: :profile"), "{err}");
}

#[test]
fn bench_prints_modelled_figures() {
    let (out, err, code) = cudalearn(&["--sim-gpu-model", "t4", "--sim-gpu", "bench"], "", &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("MODELLED figures imitating the Tesla T4"),
        "{out}"
    );
    let tf = out
        .lines()
        .find(|l| l.starts_with("matmul f16 4096³ (modelled)"))
        .expect("f16 row");
    assert!(tf.contains("TFLOP/s"), "{out}");
    assert!(
        out.contains("tiny op, host launch cost (modelled)"),
        "{out}"
    );
}
