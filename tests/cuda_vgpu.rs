//! The real CUDA path without a GPU: `cudalearn` runs with `tests/vgpu/` — a virtual NVIDIA
//! driver, NVRTC, cuBLAS and NVML — first on its library path, so `probe()`, `CudaDriver`,
//! NVRTC compilation and module loading, kernel launches, cuBLAS and NVML all go through
//! cudarc exactly as on a card. The virtual driver enforces a real driver's rules and logs every
//! rule broken (`VGPU_LOG`), so each test also checks that nothing was: cudalearn recovers from
//! some driver errors (a kernel that fails to load sends ops to the host route), and the log is
//! what shows them. Skips (visibly) where the driver cannot be built: no C++ compiler.
mod common;
pub mod parity;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

struct Vgpu {
    /// The directory holding the driver under every library name.
    lib: PathBuf,
    /// The CPU builds of the kernels (shared by every run).
    cache: PathBuf,
    /// cudalearn's own kernel cache (its XDG cache), shared so only the first run compiles.
    xdg: PathBuf,
}

fn vgpu() -> Option<&'static Vgpu> {
    static V: OnceLock<Option<Vgpu>> = OnceLock::new();
    V.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        if Command::new("c++").arg("--version").output().is_err() {
            eprintln!("SKIP cuda_vgpu: no C++ compiler (c++) to build the kernels for the CPU");
            return None;
        }
        let st = Command::new("bash")
            .arg(root.join("tests/vgpu/run"))
            .arg("true")
            .status()
            .expect("bash runs tests/vgpu/run");
        assert!(
            st.success(),
            "tests/vgpu/run could not build the virtual driver"
        );
        let target = root.join("target/vgpu");
        let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("vgpu");
        let xdg = tmp.join(format!("xdg-{}", std::process::id()));
        std::fs::create_dir_all(&xdg).expect("temp dir");
        Some(Vgpu {
            lib: target.join("lib"),
            cache: target.join("cache"),
            xdg,
        })
    })
    .as_ref()
}

/// What one run printed, and the driver's log.
struct Run {
    stdout: String,
    stderr: String,
    ok: bool,
    log: String,
}

impl Run {
    /// No rule of the driver was broken.
    fn clean(&self) -> &Self {
        let broken: Vec<&str> = self
            .log
            .lines()
            .filter(|l| l.starts_with("violation"))
            .collect();
        assert!(
            broken.is_empty(),
            "the virtual driver saw broken rules:\n{}\n--- stderr:\n{}",
            broken.join("\n"),
            self.stderr
        );
        self
    }
    /// Kernels launched (name → count, over the whole run).
    fn launched(&self) -> Vec<String> {
        self.log
            .lines()
            .filter_map(|l| l.strip_prefix("launch "))
            .map(|l| l.split(' ').next().unwrap_or("").to_string())
            .collect()
    }
}

/// `cudalearn ARGS` against the virtual driver, with `env` (VGPU_* settings), `stdin`.
fn run(v: &Vgpu, args: &[&str], env: &[(&str, &str)], stdin: &str) -> Run {
    run_with_lib(v, &v.lib, args, env, stdin)
}

fn run_with_lib(v: &Vgpu, lib: &Path, args: &[&str], env: &[(&str, &str)], stdin: &str) -> Run {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let log = v.xdg.with_file_name(format!(
        "log-{}-{}",
        std::process::id(),
        N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let mut c = Command::new(env!("CARGO_BIN_EXE_cudalearn"));
    c.args(args)
        .env("LD_LIBRARY_PATH", lib)
        .env("VGPU_CACHE", &v.cache)
        .env("VGPU_LOG", &log)
        .env("XDG_CACHE_HOME", &v.xdg)
        .env("NO_COLOR", "1")
        .env_remove("CUDALEARN_SIM_GPU")
        .env_remove("CUDALEARN_NO_CUDA")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, val) in env {
        c.env(k, val);
    }
    let mut child = c.spawn().expect("cudalearn starts");
    {
        use std::io::Write;
        let mut i = child.stdin.take().expect("stdin");
        let _ = i.write_all(stdin.as_bytes());
    }
    let out = child.wait_with_output().expect("cudalearn ends");
    let log_text = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        ok: out.status.success(),
        log: log_text,
    }
}

fn script(v: &Vgpu, code: &str, env: &[(&str, &str)]) -> Run {
    run(v, &["run", "-"], env, code)
}

#[test]
fn info_names_a_virtual_device_and_every_library_it_loaded() {
    let Some(v) = vgpu() else { return };
    let r = run(v, &["info"], &[], "");
    let r = r.clean();
    let out = &r.stdout;
    assert!(out.contains("CUDA: available (1 GPU)"), "{out}");
    assert!(
        out.contains("virtual test GPU 0 (cudalearn vgpu, sm_90, not a real card)"),
        "{out}"
    );
    assert!(out.contains("compute capability 9.0"), "{out}");
    for lib in [
        "libcuda   CUDA 13.0",
        "NVRTC     13.0",
        "cuBLAS    13.0",
        "NVML      found",
    ] {
        assert!(out.contains(lib), "no `{lib}` line:\n{out}");
    }
    assert!(!out.contains("not yet wired in"), "{out}");
}

#[test]
fn parity_suite_prints_what_the_cpu_prints() {
    let Some(v) = vgpu() else { return };
    let mut failures = Vec::new();
    let mut launched = std::collections::BTreeSet::new();
    for (name, code) in parity::cases() {
        let want = parity::run_on("cpu", &code);
        let r = script(v, &format!("dev = 'cuda'\n{code}"), &[]);
        r.clean();
        launched.extend(r.launched());
        let got = parity::as_cpu(&r.stdout);
        if !r.ok || !parity::numbers_close(&got, &want, 1e-4) {
            failures.push(format!(
                "case {name}\n--- cuda:\n{got}{}\n--- cpu:\n{want}",
                r.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    eprintln!("{} distinct kernels ran: {launched:?}", launched.len());
    for family in [
        "binary_",
        "binary_scalar_",
        "compare_",
        "unary_",
        "fill_",
        "where_",
        "reduce_rows_",
        "arg_rows_",
        "softmax_",
        "gather_",
        "scatter_",
        "copy_",
        "cast_",
        "sgd_",
        "adam_",
    ] {
        assert!(
            launched.iter().any(|k| k.starts_with(family)),
            "no {family}* kernel ran"
        );
    }
}

#[test]
fn every_lesson_checks_on_two_virtual_gpus() {
    let Some(v) = vgpu() else { return };
    let r = run(
        v,
        &["lesson", "--check-all", "--device", "cuda"],
        &[("VGPU_DEVICES", "2")],
        "",
    );
    r.clean();
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("11 of 11 lesson runs as expected"),
        "{}",
        r.stdout
    );
}

#[test]
fn memory_sequence_matches_the_simulated_gpu() {
    let Some(v) = vgpu() else { return };
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cuda/memory.py");
    let real = run(v, &["run", file], &[], "");
    real.clean();
    // the virtual card is an sm_90 one, so its cuBLAS workspace is an H100's
    let sim = Command::new(env!("CARGO_BIN_EXE_cudalearn"))
        .args([
            "run",
            "--sim-gpu-model",
            "h100",
            "--sim-gpu-memory",
            "16GiB",
            file,
        ])
        .env("CUDALEARN_NO_CUDA", "1")
        .output()
        .expect("cudalearn runs");
    assert!(real.ok, "{}", real.stderr);
    assert_eq!(real.stdout, String::from_utf8_lossy(&sim.stdout));
    assert!(real.stdout.contains("512 2097152\n"), "{}", real.stdout);
}

#[test]
fn out_of_memory_is_pytorchs_message_and_the_session_goes_on() {
    let Some(v) = vgpu() else { return };
    let code = "import torch\n\
        try:\n    x = torch.empty(2**29, device='cuda')\n\
        except torch.OutOfMemoryError as e:\n    print(str(e).split(' Of the allocated')[0])\n\
        y = torch.ones(3, device='cuda') * 2\n\
        print(y.sum().item(), torch.cuda.memory_allocated())\n";
    let r = script(v, code, &[("VGPU_MEMORY", "1G")]);
    r.clean();
    assert_eq!(
        r.stdout,
        format!(
            "CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 1024.00 MiB of which 1024.00 MiB is free.\n6.0 512\n"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn a_driver_error_is_reported_as_itself_not_as_out_of_memory() {
    let Some(v) = vgpu() else { return };
    let r = script(
        v,
        "import torch\ntorch.ones(3, device='cuda')\n",
        &[("VGPU_FAIL_MALLOC", "1")],
    );
    assert!(!r.ok);
    assert!(
        r.stderr
            .contains("RuntimeError: CUDA error: unknown error (CUDA_ERROR_UNKNOWN)"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("out of memory"), "{}", r.stderr);
}

#[test]
fn smi_shows_the_virtual_device() {
    let Some(v) = vgpu() else { return };
    let r = run(
        v,
        &["repl"],
        &[],
        ":smi\nimport torch\nx = torch.ones(1000, device='cuda')\n:smi\n",
    );
    r.clean();
    assert!(
        r.stdout.contains("Driver Version: vgpu-13.0"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("virtual test GPU"), "{}", r.stdout);
    assert!(
        r.stdout.contains("2MiB / 16384MiB"),
        "2 MiB reserved once a tensor exists:\n{}",
        r.stdout
    );
}

/// A small program over kernels, cuBLAS and a transfer, with the values the CPU gives.
const SMOKE: &str = "import torch\n\
    x = torch.arange(6.0, device='cuda').reshape(2, 3)\n\
    print((x * 2 + 1).sum().item(), x.softmax(1).argmax(1).tolist())\n\
    print((x @ x.T).tolist(), x.half().float().mean().item())\n";
const SMOKE_OUT: &str = "36.0 [2, 2]\n[[5.0, 14.0], [14.0, 50.0]] 2.5\n";

#[test]
fn drivers_from_cuda_12_0_to_13_0_run_the_kernels() {
    let Some(v) = vgpu() else { return };
    for ver in ["12.0", "12.4", "12.8", "13.0"] {
        let env = [("VGPU_DRIVER", ver), ("VGPU_NVRTC", ver)];
        let r = script(v, SMOKE, &env);
        r.clean();
        assert_eq!(r.stdout, SMOKE_OUT, "driver {ver}: {}", r.stderr);
        assert!(
            r.launched().iter().any(|k| k == "softmax_f32"),
            "driver {ver}: kernels did not run"
        );
    }
    let r = run(v, &["info"], &[("VGPU_DRIVER", "11.8")], "");
    assert!(
        r.stdout
            .contains("supports CUDA 11.8, older than the CUDA 12.0 cudalearn needs"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("release for CUDA 12.0 or newer"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_newer_nvrtc_than_the_driver_still_loads_its_kernels() {
    let Some(v) = vgpu() else { return };
    // NVRTC 13.2 writes PTX ISA 9.2, which a 13.0 driver refuses: a cubin for sm_90 avoids it
    let r = script(v, SMOKE, &[("VGPU_NVRTC", "13.2"), ("VGPU_DRIVER", "13.0")]);
    r.clean();
    assert_eq!(r.stdout, SMOKE_OUT, "{}", r.stderr);
    assert!(!r.log.contains("module_refused"), "{}", r.log);
    assert!(r.launched().iter().any(|k| k == "softmax_f32"));
    // a device newer than NVRTC knows: PTX for its newest architecture, which this driver reads
    let r = script(v, SMOKE, &[("VGPU_NVRTC", "12.4"), ("VGPU_SM", "100")]);
    r.clean();
    assert_eq!(r.stdout, SMOKE_OUT, "{}", r.stderr);
    assert!(r.launched().iter().any(|k| k == "softmax_f32"));
    // neither a cubin nor PTX the driver reads: one clear line, and the ops still run
    let r = script(
        v,
        SMOKE,
        &[
            ("VGPU_NVRTC", "13.2"),
            ("VGPU_DRIVER", "13.0"),
            ("VGPU_SM", "130"),
        ],
    );
    r.clean();
    assert_eq!(r.stdout, SMOKE_OUT, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("its PTX is too new for this driver (CUDA 13.0)"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.matches("cudalearn:").count(), 1, "{}", r.stderr);
    assert_eq!(r.launched(), ["cublasGemmStridedBatchedEx"]);
}

#[test]
fn a_cached_kernel_image_the_driver_refuses_is_rebuilt() {
    let Some(v) = vgpu() else { return };
    let xdg = v
        .xdg
        .with_file_name(format!("xdg-stale-{}", std::process::id()));
    let env = [("XDG_CACHE_HOME", xdg.to_str().unwrap())];
    let first = script(v, SMOKE, &env);
    assert!(
        first
            .stderr
            .contains("compiling CUDA kernels for sm_90, once"),
        "{}",
        first.stderr
    );
    let dir = xdg.join("cudalearn/kernels");
    let cached: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(cached.len(), 1, "{cached:?}");
    assert!(
        cached[0]
            .to_string_lossy()
            .ends_with("-sm_90-nvrtc13.0.cubin"),
        "{cached:?}"
    );
    std::fs::write(&cached[0], b"\x7fELF not a cubin").unwrap();
    let r = script(v, SMOKE, &env);
    r.clean();
    assert_eq!(r.stdout, SMOKE_OUT, "{}", r.stderr);
    assert!(
        r.log.contains("module_refused"),
        "the stale image was offered first"
    );
    assert!(
        r.launched().iter().any(|k| k == "softmax_f32"),
        "then rebuilt and loaded"
    );
    assert!(std::fs::read(&cached[0])
        .unwrap()
        .starts_with(b"\x7fELFVGPU"));
    let third = script(v, SMOKE, &env);
    assert!(
        !third.stderr.contains("compiling"),
        "the rebuilt entry is used: {}",
        third.stderr
    );
}

/// A library directory with the driver under some names only.
fn lib_without(v: &Vgpu, name: &str, keep: &[&str]) -> PathBuf {
    let dir = v
        .xdg
        .with_file_name(format!("lib-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let so = v.lib.join("../release/libvgpu.so").canonicalize().unwrap();
    for k in keep {
        let _ = std::os::unix::fs::symlink(&so, dir.join(k));
    }
    dir
}

const NO_NVRTC: &[&str] = &[
    "libcuda.so",
    "libcuda.so.1",
    "libcublas.so",
    "libnvidia-ml.so.1",
];

/// A Python environment (for VIRTUAL_ENV) with site-packages, empty or with an NVRTC wheel.
fn venv(v: &Vgpu, name: &str) -> PathBuf {
    let env = v
        .xdg
        .with_file_name(format!("venv-{name}-{}", std::process::id()));
    std::fs::create_dir_all(env.join("lib/python3.11/site-packages")).unwrap();
    env
}

#[test]
fn without_nvrtc_the_gpu_works_without_custom_kernels() {
    let Some(v) = vgpu() else { return };
    let lib = lib_without(v, "nonvrtc", NO_NVRTC);
    let env = venv(v, "empty");
    let vars = [("VIRTUAL_ENV", env.to_str().unwrap())];
    let info = run_with_lib(v, &lib, &["info"], &vars, "");
    assert!(
        info.stdout.contains("CUDA: available (1 GPU)"),
        "{}",
        info.stdout
    );
    assert!(
        info.stdout
            .contains("NVRTC     not found: no custom kernels"),
        "{}",
        info.stdout
    );
    assert!(info.stdout.contains("cuBLAS    13.0"), "{}", info.stdout);
    let r = run_with_lib(v, &lib, &["run", "-"], &vars, SMOKE);
    r.clean();
    assert_eq!(r.stdout, SMOKE_OUT, "{}", r.stderr);
    assert_eq!(
        r.launched(),
        ["cublasGemmStridedBatchedEx"],
        "cuBLAS without kernels"
    );
    assert_eq!(r.stderr.lines().count(), 1, "one clear line: {}", r.stderr);
    assert!(r.stderr.contains("NVRTC"), "{}", r.stderr);
}

/// A stand-in for a real `libnvrtc.so.13` in `dir`: a library with that soname (as NVIDIA's
/// has), whose symbols come from the virtual driver.
fn nvrtc_stub(v: &Vgpu, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let release = v.lib.join("../release").canonicalize().unwrap();
    let st = Command::new("cc")
        .args([
            "-shared",
            "-x",
            "c",
            "/dev/null",
            "-Wl,-soname,libnvrtc.so.13",
            "-o",
        ])
        .arg(dir.join("libnvrtc.so.13"))
        .arg(format!("-L{}", release.display()))
        .args(["-Wl,--no-as-needed", "-lvgpu"])
        .arg(format!("-Wl,-rpath,{}", release.display()))
        .status()
        .expect("cc runs");
    assert!(st.success());
}

#[test]
fn nvrtc_from_a_pip_wheel_or_cuda_home_is_found_and_named() {
    let Some(v) = vgpu() else { return };
    let lib = lib_without(v, "wheel", NO_NVRTC);
    let env = venv(v, "wheel");
    let wheel = env.join("lib/python3.11/site-packages/nvidia/cu13/lib");
    nvrtc_stub(v, &wheel);
    let vars = [("VIRTUAL_ENV", env.to_str().unwrap())];
    let info = run_with_lib(v, &lib, &["info"], &vars, "");
    let line = format!("NVRTC     13.0  {}", wheel.join("libnvrtc.so.13").display());
    assert!(
        info.stdout.contains(&line),
        "no `{line}` in:\n{}",
        info.stdout
    );
    let r = run_with_lib(v, &lib, &["run", "-"], &vars, SMOKE);
    r.clean();
    assert_eq!(r.stdout, SMOKE_OUT, "{}", r.stderr);
    assert!(r.launched().iter().any(|k| k == "softmax_f32"));
    // the toolkit's copy under CUDA_HOME
    let home = v
        .xdg
        .with_file_name(format!("cuda-home-{}", std::process::id()));
    nvrtc_stub(v, &home.join("lib64"));
    let empty = venv(v, "no-wheel");
    let vars = [
        ("VIRTUAL_ENV", empty.to_str().unwrap()),
        ("CUDA_HOME", home.to_str().unwrap()),
    ];
    let info = run_with_lib(v, &lib, &["info"], &vars, "");
    let line = format!(
        "NVRTC     13.0  {}",
        home.join("lib64/libnvrtc.so.13").display()
    );
    assert!(
        info.stdout.contains(&line),
        "no `{line}` in:\n{}",
        info.stdout
    );
}

#[test]
fn pinned_memory_is_portable_and_pinned_only_when_the_driver_pinned_it() {
    let Some(v) = vgpu() else { return };
    let code = "import torch\nx = torch.ones(1000).pin_memory()\nprint(x.is_pinned(), x.cuda().sum().item())\n";
    let r = script(v, code, &[]);
    r.clean();
    assert_eq!(r.stdout, "True 1000.0\n", "{}", r.stderr);
    // CU_MEMHOSTREGISTER_PORTABLE (1): pinned for every GPU's context
    assert!(
        r.log.contains("event host_register 4000 flags 1"),
        "{}",
        r.log
    );
    let r = script(v, code, &[("VGPU_FAIL_HOST_REGISTER", "1")]);
    r.clean();
    assert_eq!(r.stdout, "False 1000.0\n", "{}", r.stderr);
}

#[test]
fn large_reductions_use_many_blocks_and_match_the_cpu() {
    let Some(v) = vgpu() else { return };
    let code = "import torch\ntorch.manual_seed(0)\n\
        x = torch.rand(3_000_000)\ng = x.cuda()\n\
        print(g.sum().item() == 3_000_000 or abs(g.sum().item() - x.sum().item()) / x.sum().item() < 1e-5)\n\
        print(torch.ones(5_000_000, device='cuda').sum().item(), g.max().item() == x.max().item())\n\
        print(torch.ones(4, 1_000_000, device='cuda', dtype=torch.float16).sum(1).tolist())\n";
    let r = script(v, code, &[]);
    r.clean();
    assert_eq!(
        r.stdout, "True\n5000000.0 True\n[inf, inf, inf, inf]\n",
        "{}",
        r.stderr
    );
    assert!(
        r.launched().iter().any(|k| k.starts_with("reduce_chunks_")),
        "{:?}",
        r.launched()
    );
}

/// Reductions over leading dims (a bias gradient's `g.sum(0)`) walk down columns with
/// `reduce_cols_*` (no transposed copy), in slices whose partial results are reduced again,
/// and give the CPU's values for every op, dtype and shape, NaN included.
#[test]
fn leading_dim_reductions_walk_columns_and_match_the_cpu() {
    let Some(v) = vgpu() else { return };
    let code = "import torch\ntorch.manual_seed(0)\n\
        for shape, dims in [((3000, 5), 0), ((70, 3, 4), (0, 1)), ((2, 9), 0), ((40, 600), 0)]:\n\
        \x20   x = torch.randint(-4, 5, shape).double()\n\
        \x20   for dt in [torch.float32, torch.float64, torch.float16, torch.int64]:\n\
        \x20       c = x.to(dt)\n\
        \x20       g = c.cuda()\n\
        \x20       for f in ['sum', 'amax', 'amin', 'mean']:\n\
        \x20           if f == 'mean' and dt == torch.int64:\n\
        \x20               continue\n\
        \x20           a, b = getattr(c, f)(dims), getattr(g, f)(dims).cpu()\n\
        \x20           print(shape, dt, f, a.shape == b.shape and torch.equal(a, b))\n\
        x = torch.rand(5000, 7)\nx[4321, 3] = float('nan')\n\
        print(x.cuda().sum(0).isnan().tolist(), x.cuda().max(0).values.isnan().tolist() == x.max(0).values.isnan().tolist())\n\
        print(torch.ones(4, 1_000_000, device='cuda', dtype=torch.float16).sum(0)[:3].tolist())\n";
    let r = script(v, code, &[]);
    r.clean();
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 62, "{}{}", r.stdout, r.stderr);
    for l in &lines[..60] {
        assert!(l.ends_with("True"), "{l}\n{}", r.stdout);
    }
    assert_eq!(
        lines[60],
        "[False, False, False, True, False, False, False] True"
    );
    assert_eq!(lines[61], "[4.0, 4.0, 4.0]");
    assert!(
        r.launched().iter().any(|k| k.starts_with("reduce_cols_")),
        "{:?}",
        r.launched()
    );
}

/// `torch.optim` steps on the card run the fused kernels of `kernels/optim.cu` and give the
/// CPU's bits (same parameters, same gradients), for SGD with and without momentum (nesterov,
/// dampening, weight decay, maximize) and Adam/AdamW (L2 decay, AMSGrad), float32 and float64.
#[test]
fn optimizer_steps_run_on_the_card_with_the_cpus_bits() {
    let Some(v) = vgpu() else { return };
    let code = include_str!("cuda/optim_bits.py");
    let r = script(v, &format!("DEV = 'cuda'\n{code}"), &[]);
    r.clean();
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 12, "{}", r.stdout);
    for l in r.stdout.lines() {
        assert!(l.contains(" True ["), "CUDA and CPU steps differ: {l}");
    }
    let launched = r.launched();
    for k in ["sgd_f32", "sgd_f64", "adam_f32", "adam_f64"] {
        assert!(
            launched.iter().any(|n| n == k),
            "{k} never ran: {launched:?}"
        );
    }
}

/// `optimizer.step()` on CUDA parameters copies nothing between host and device: a run with
/// five steps of SGD-momentum and Adam (AMSGrad) makes exactly the copies of a run with none
/// (the SGD gradient is a transposed view, as a `Linear` weight's is).
#[test]
fn optimizer_steps_copy_nothing_between_host_and_device() {
    let Some(v) = vgpu() else { return };
    let copies = |steps: usize| {
        let code = format!(
            "import torch\ntorch.manual_seed(0)\n\
            w = torch.randn(64, 32, device='cuda', requires_grad=True)\n\
            b = torch.randn(32, device='cuda', requires_grad=True)\n\
            w.grad = torch.randn(32, 64, device='cuda').t()\nb.grad = torch.randn(32, device='cuda')\n\
            opts = [torch.optim.SGD([w], lr=0.1, momentum=0.9), torch.optim.Adam([b], lr=0.01, amsgrad=True)]\n\
            for _ in range({steps}):\n    for o in opts:\n        o.step()\n\
            torch.cuda.synchronize()\nprint(w.is_cuda, b.is_cuda)\n"
        );
        let r = script(v, &code, &[]);
        r.clean();
        assert_eq!(r.stdout, "True True\n", "{}", r.stderr);
        let lines = |prefix: &str| -> Vec<String> {
            r.log
                .lines()
                .filter(|l| l.starts_with(prefix))
                .map(String::from)
                .collect()
        };
        (lines("copy "), lines("launch sgd_"), lines("launch adam_"))
    };
    let (none, no_sgd, no_adam) = copies(0);
    let (five, sgd, adam) = copies(5);
    assert!(
        none.iter().any(|l| l.starts_with("copy cuMemcpyHtoD_v2 ")),
        "the log counts copies: {none:?}"
    );
    assert_eq!(five, none, "step() copied between host and device");
    assert!(
        no_sgd.is_empty() && no_adam.is_empty(),
        "{no_sgd:?} {no_adam:?}"
    );
    assert_eq!(sgd, ["launch sgd_f32 5"]);
    assert_eq!(adam, ["launch adam_f32 5"]);
}

/// The virtual driver itself enforces a real driver's rules (called directly through its C API):
/// each broken rule returns the driver's error code. The driver's state is per process and the
/// rules start from "cuInit not called", so the calls run in a fresh copy of this test binary.
#[test]
fn the_virtual_driver_enforces_the_rules_of_a_real_one() {
    let Some(v) = vgpu() else { return };
    if std::env::var_os("VGPU_RULES_CHILD").is_some() {
        return driver_rules(v);
    }
    let name = "the_virtual_driver_enforces_the_rules_of_a_real_one";
    let out = Command::new(std::env::current_exe().expect("the test binary"))
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env("VGPU_RULES_CHILD", "1")
        .output()
        .expect("the test binary runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn driver_rules(v: &Vgpu) {
    use std::ffi::{c_int, c_uint, c_void};
    type Ctx = usize;
    let so = v.lib.join("../release/libvgpu.so");
    // SAFETY: the library is the virtual driver; each symbol is declared with its C signature.
    unsafe {
        let lib = libloading::Library::new(&so).expect("the driver loads");
        macro_rules! f {
            ($name:literal, $t:ty) => {
                *lib.get::<$t>($name).expect("the driver exports it")
            };
        }
        let init = f!(b"cuInit", unsafe extern "C" fn(c_uint) -> c_int);
        let alloc = f!(
            b"cuMemAlloc_v2",
            unsafe extern "C" fn(*mut u64, usize) -> c_int
        );
        let free = f!(b"cuMemFree_v2", unsafe extern "C" fn(u64) -> c_int);
        let retain = f!(
            b"cuDevicePrimaryCtxRetain",
            unsafe extern "C" fn(*mut Ctx, c_int) -> c_int
        );
        let release = f!(
            b"cuDevicePrimaryCtxRelease_v2",
            unsafe extern "C" fn(c_int) -> c_int
        );
        let set = f!(b"cuCtxSetCurrent", unsafe extern "C" fn(Ctx) -> c_int);
        let htod = f!(
            b"cuMemcpyHtoD_v2",
            unsafe extern "C" fn(u64, *const c_void, usize) -> c_int
        );
        let register = f!(
            b"cuMemHostRegister_v2",
            unsafe extern "C" fn(*mut c_void, usize, c_uint) -> c_int
        );
        let load = f!(
            b"cuModuleLoadData",
            unsafe extern "C" fn(*mut usize, *const c_void) -> c_int
        );
        let launch = f!(
            b"cuLaunchKernel",
            unsafe extern "C" fn(
                usize,
                c_uint,
                c_uint,
                c_uint,
                c_uint,
                c_uint,
                c_uint,
                c_uint,
                *mut c_void,
                *mut *mut c_void,
                *mut *mut c_void,
            ) -> c_int
        );
        let blas = f!(
            b"cublasCreate_v2",
            unsafe extern "C" fn(*mut usize) -> c_int
        );
        let mut p = 0u64;
        assert_eq!(
            alloc(&mut p, 64),
            3,
            "CUDA_ERROR_NOT_INITIALIZED before cuInit"
        );
        assert_eq!(init(0), 0);
        assert_eq!(
            alloc(&mut p, 64),
            201,
            "CUDA_ERROR_INVALID_CONTEXT without a current context"
        );
        let mut h = 0usize;
        assert_eq!(
            blas(&mut h),
            1,
            "CUBLAS_STATUS_NOT_INITIALIZED without a context"
        );
        let mut ctx: Ctx = 0;
        assert_eq!(retain(&mut ctx, 0), 0);
        assert_eq!(set(ctx), 0);
        assert_eq!(alloc(&mut p, 1000), 0);
        let host = [0u8; 2000];
        assert_eq!(htod(p, host.as_ptr().cast(), 1000), 0);
        assert_eq!(
            htod(p + 500, host.as_ptr().cast(), 1000),
            1,
            "a copy past the block"
        );
        assert_eq!(
            alloc(&mut p.clone(), 64 << 30),
            2,
            "CUDA_ERROR_OUT_OF_MEMORY past 16 GiB"
        );
        let mut buf = vec![0u8; 8192];
        assert_eq!(register(buf.as_mut_ptr().cast(), 8192, 1), 0);
        assert_eq!(
            register(buf.as_mut_ptr().add(4096).cast(), 100, 1),
            712,
            "overlapping registration"
        );
        let mut m = 0usize;
        let ptx = c".version 9.2\n.target sm_90\n";
        assert_eq!(
            load(&mut m, ptx.as_ptr().cast()),
            222,
            "PTX ISA 9.2 on a CUDA 13.0 driver"
        );
        let ptx = c".version 9.0\n.target sm_100\n";
        assert_eq!(
            load(&mut m, ptx.as_ptr().cast()),
            209,
            "PTX for a newer architecture"
        );
        let none: *mut *mut c_void = std::ptr::null_mut();
        assert_eq!(
            launch(
                12345,
                1,
                1,
                1,
                32,
                1,
                1,
                0,
                std::ptr::null_mut(),
                none,
                none
            ),
            400,
            "not a function"
        );
        assert_eq!(free(p), 0);
        assert_eq!(free(p), 1, "a block freed twice");
        assert_eq!(release(0), 0);
        assert_eq!(release(0), 201, "released more often than retained");
        assert_eq!(set(ctx), 709, "the last release destroyed the context");
    }
}

#[test]
fn an_nvrtc_compile_error_shows_its_log_as_text() {
    let Some(v) = vgpu() else { return };
    let xdg = v
        .xdg
        .with_file_name(format!("xdg-fail-{}", std::process::id()));
    let env = [
        ("VGPU_NVRTC_FAIL", "1"),
        ("XDG_CACHE_HOME", xdg.to_str().unwrap()),
    ];
    let r = script(v, SMOKE, &env);
    r.clean();
    assert_eq!(
        r.stdout, SMOKE_OUT,
        "ops still run, on the host route: {}",
        r.stderr
    );
    assert!(
        r.stderr.contains("NVRTC could not compile cudalearn's kernels for sm_90:\nprogram.cu(1): error: identifier \"broken\" is undefined\n"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("CompileError"), "{}", r.stderr);
}

#[test]
fn each_gpu_gets_its_context_when_first_used_and_a_broken_one_spares_the_others() {
    let Some(v) = vgpu() else { return };
    let code = "import torch\nprint(torch.ones(2, device='cuda:0').sum().item())\n";
    let r = script(v, code, &[("VGPU_DEVICES", "2")]);
    r.clean();
    assert_eq!(r.stdout, "2.0\n", "{}", r.stderr);
    assert!(
        !r.log.contains("event retain 1"),
        "cuda:1 was never used:\n{}",
        r.log
    );
    let code = "import torch\n\
        try:\n    torch.ones(2, device='cuda:1')\n\
        except RuntimeError as e:\n    print(e)\n\
        print((torch.ones(2, device='cuda:0') @ torch.ones(2, device='cuda:0')).item())\n";
    let r = script(
        v,
        code,
        &[("VGPU_DEVICES", "2"), ("VGPU_BROKEN_DEVICE", "1")],
    );
    r.clean();
    assert_eq!(
        r.stdout, "cuda:1 cannot be used: CUDA error: unknown error (CUDA_ERROR_UNKNOWN)\n2.0\n",
        "{}",
        r.stderr
    );
}

#[test]
fn the_profiler_and_profile_command_time_the_card() {
    let Some(v) = vgpu() else { return };
    let code =
        "import torch\nfrom torch.profiler import profile, record_function, ProfilerActivity\n\
        a = torch.ones(64, 64, device='cuda')\n\
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:\n    \
        with record_function('step'):\n        s = (a @ a).relu().sum().item()\n\
        print(prof.key_averages().table(sort_by='cuda_time_total', row_limit=10))\nprint(s)\n";
    let r = script(v, code, &[]);
    r.clean();
    assert!(r.ok, "{}", r.stderr);
    let names: Vec<&str> = r
        .stdout
        .lines()
        .skip(3)
        .take(6)
        .map(|l| l.trim_start().split("  ").next().unwrap_or(""))
        .collect();
    assert_eq!(names[0], "step", "{}", r.stdout);
    for op in [
        "aten::matmul",
        "aten::mm",
        "aten::relu",
        "aten::sum",
        "Memcpy DtoH (Device -> Pageable)",
    ] {
        assert!(names.contains(&op), "{op} missing:\n{}", r.stdout);
    }
    assert!(r.stdout.contains("Self CUDA time total: "), "{}", r.stdout);
    assert!(!r.stdout.contains("MODELLED"), "{}", r.stdout);
    assert!(r.stdout.ends_with("262144.0\n"), "{}", r.stdout);
    let r = run(
        v,
        &["repl", "--quiet", "--no-history"],
        &[],
        "import torch\na = torch.ones(64, 64, device='cuda')\n:profile b = (a @ a).sum().item()\n",
    );
    r.clean();
    assert!(
        r.stdout.contains("1 host<->device copies (4 B)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("measured"), "{}", r.stdout);
}

/// An "nccl" group on two virtual GPUs runs its collectives on (the virtual driver's) NCCL:
/// a communicator per rank from rank 0's unique id, then all-reduce with every op and a few
/// dtypes, a non-contiguous tensor, broadcast, all-gather, reduce-scatter and barrier as NCCL
/// calls on device memory (the driver's log counts them, and would show a buffer outside the
/// communicator's device), printing what the same script prints on the CPU over TCP. CPU
/// tensors are refused; a broken or missing libnccl is a clear error.
#[test]
fn nccl_groups_on_virtual_gpus() {
    let Some(v) = vgpu() else { return };
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/distributed/nccl_cuda.py"
    );
    let args = [
        "--device",
        "cuda",
        "run",
        "--nproc-per-node",
        "2",
        "--master-port",
        "0",
        file,
    ];
    let r = run(
        v,
        &args,
        &[("VGPU_DEVICES", "2"), ("CUDALEARN_DIST_TIMEOUT", "30")],
        "",
    );
    r.clean();
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    // the same script without a GPU: the TCP transport's results, which NCCL's must equal
    let cpu = Command::new(env!("CARGO_BIN_EXE_cudalearn"))
        .args(&args[2..])
        .env("CUDALEARN_NO_CUDA", "1")
        .env("CUDALEARN_DIST_TIMEOUT", "30")
        .env("NO_COLOR", "1")
        .env_remove("CUDALEARN_SIM_GPU")
        .output()
        .expect("cudalearn runs");
    assert!(
        cpu.status.success(),
        "{}",
        String::from_utf8_lossy(&cpu.stderr)
    );
    let sorted = |s: &str| {
        let mut l: Vec<String> = s.lines().map(str::to_string).collect();
        l.sort();
        l
    };
    let gpu_lines: Vec<String> = sorted(&r.stdout)
        .into_iter()
        .filter(|l| !l.contains(": on cuda:") && !l.contains("a CPU tensor"))
        .collect();
    assert_eq!(gpu_lines, sorted(&String::from_utf8_lossy(&cpu.stdout)));
    assert_eq!(gpu_lines.len(), 30, "{}", r.stdout);
    for rank in 0..2 {
        let on = format!("[default{rank}]:rank {rank}: on cuda:{rank}\n");
        assert!(r.stdout.contains(&on), "{}", r.stdout);
        let refused = format!("[default{rank}]:rank {rank}: a CPU tensor: No backend type associated with device type cpu\n");
        assert!(r.stdout.contains(&refused), "{}", r.stdout);
    }
    // NCCL carried the data: both processes made a communicator and called NCCL (12
    // all-reduces: sum, four ops, int64, float16, bfloat16, bool, the transposed view, DDP's
    // gradients, the barrier; 3 broadcasts: one, and DDP's two parameters)
    for line in [
        "event ncclCommInitRank rank 0 of 2 on device 0",
        "event ncclCommInitRank rank 1 of 2 on device 1",
    ] {
        assert!(r.log.contains(line), "{}", r.log);
    }
    for (call, n) in [
        ("ncclAllReduce", 12),
        ("ncclBroadcast", 3),
        ("ncclAllGather", 1),
        ("ncclReduceScatter", 1),
        ("ncclCommDestroy", 1),
    ] {
        let line = format!("nccl {call} {n}\n");
        assert_eq!(r.log.matches(&line).count(), 2, "{call}: {}", r.log);
    }
    assert!(!r.stderr.contains("TCP transport"), "{}", r.stderr);

    let broken = run(
        v,
        &args,
        &[
            ("VGPU_DEVICES", "2"),
            ("VGPU_NCCL", "broken"),
            ("CUDALEARN_DIST_TIMEOUT", "30"),
        ],
        "",
    );
    assert!(!broken.ok);
    assert!(
        broken.stderr.contains(
            "RuntimeError: libnccl.so.2 has no working ncclGetVersion: not an NCCL library"
        ),
        "{}",
        broken.stderr
    );
    // no libnccl anywhere: the clear error, with what to do
    let lib = lib_without(
        v,
        "no-nccl",
        &[
            "libcuda.so",
            "libcuda.so.1",
            "libcublas.so",
            "libnvidia-ml.so.1",
            "libnvrtc.so",
            "libnvrtc.so.13",
        ],
    );
    let env = venv(v, "no-nccl");
    let missing = run_with_lib(
        v,
        &lib,
        &args,
        &[
            ("VGPU_DEVICES", "2"),
            ("CUDALEARN_DIST_TIMEOUT", "30"),
            ("VIRTUAL_ENV", env.to_str().unwrap()),
        ],
        "",
    );
    assert!(!missing.ok);
    assert!(
        missing.stderr.contains(
            "RuntimeError: ProcessGroupNCCL: the NCCL library (libnccl.so.2) could not be loaded"
        ),
        "{}",
        missing.stderr
    );
    assert!(
        missing.stderr.contains("pip install nvidia-nccl-cu12"),
        "{}",
        missing.stderr
    );
}

/// GradScaler on a card unscales with `kernels/optim.cu`'s `unscale` (one launch per gradient,
/// the inf/NaN flag read back once a step) instead of reading every gradient to the host: the
/// scales are the CPU's, a step with an inf gradient is skipped as PyTorch skips it, losses and
/// weights agree with the CPU's (to the last bits the two GEMMs' summation orders leave), no op
/// takes the host route, and the bytes read back stay far below one gradient per step.
#[test]
fn grad_scaler_unscales_on_the_card_with_the_cpus_bits() {
    let Some(v) = vgpu() else { return };
    let code = |dev: &str| {
        format!(
            "import torch\ntorch.manual_seed(0)\ndev = '{dev}'\n\
            model = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 10)).to(dev)\n\
            opt = torch.optim.SGD(model.parameters(), lr=0.1)\n\
            scaler = torch.amp.GradScaler(dev, init_scale=1024.0)\n\
            x = torch.randn(16, 64).to(dev)\ny = torch.randint(0, 10, (16,)).to(dev)\n\
            for step in range(4):\n\
            \x20   opt.zero_grad()\n\
            \x20   loss = torch.nn.functional.cross_entropy(model(x), y)\n\
            \x20   scaler.scale(loss).backward()\n\
            \x20   if step == 2:\n\
            \x20       model[0].weight.grad[3, 5] = float('inf')\n\
            \x20   scaler.step(opt)\n\
            \x20   scaler.update()\n\
            \x20   print(repr(loss.item()), scaler.get_scale(), repr(model[0].weight.sum().item()))\n"
        )
    };
    let cpu = script(v, &code("cpu"), &[]);
    let gpu = script(v, &code("cuda"), &[("CUDALEARN_TRACE_HOST_ROUTE", "1")]);
    gpu.clean();
    assert!(cpu.ok && gpu.ok, "{}\n{}", cpu.stderr, gpu.stderr);
    let rows = |out: &str| -> Vec<Vec<f64>> {
        out.lines()
            .map(|l| l.split(' ').map(|x| x.parse().expect("a number")).collect())
            .collect()
    };
    let (g, c) = (rows(&gpu.stdout), rows(&cpu.stdout));
    assert_eq!(g.len(), 4, "{}", gpu.stdout);
    for (gr, cr) in g.iter().zip(&c) {
        assert_eq!(
            gr[1], cr[1],
            "scales differ:\n{}\n{}",
            gpu.stdout, cpu.stdout
        );
        for k in [0, 2] {
            assert!(
                (gr[k] - cr[k]).abs() < 1e-5,
                "{}\n{}",
                gpu.stdout,
                cpu.stdout
            );
        }
    }
    // the inf step is skipped (the weights stay) and halves the scale
    assert_eq!(
        g.iter().map(|r| r[1]).collect::<Vec<_>>(),
        [1024.0, 1024.0, 512.0, 512.0]
    );
    assert_eq!(g[2][2], g[1][2], "{}", gpu.stdout);
    assert_ne!(g[3][2], g[2][2], "{}", gpu.stdout);
    assert!(!gpu.stderr.contains("host route"), "{}", gpu.stderr);
    assert!(gpu.log.contains("launch unscale_f32 16"), "{}", gpu.log);
    let read_back: u64 = gpu
        .log
        .lines()
        .find_map(|l| l.strip_prefix("copy cuMemcpyDtoH_v2 "))
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|b| b.parse().ok())
        .expect("the log counts DtoH bytes");
    assert!(
        read_back < 64 * 32 * 4,
        "{read_back} bytes read back: {}",
        gpu.log
    );
}
