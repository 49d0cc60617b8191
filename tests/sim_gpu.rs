//! The simulated GPU: every device rule, transfer, memory statistic and error of `torch.cuda`,
//! run through the real binary (`--sim-gpu`) so each case has its own process and GPU state.
//! Memory numbers are those PyTorch's caching allocator rules give (512-byte rounding, 2 MiB
//! small segments, 20 MiB large segments under 10 MiB, 2 MiB rounding above); texts are PyTorch
//! 2.15's (the OOM text from libc10_cuda.so of torch 2.15.0+cu132, the device-mismatch texts
//! from aten's TensorIterator and the addmm/mm wrappers).
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `script` with `cudalearn [args] run -`; returns (stdout, stderr, exit code).
fn run(args: &[&str], script: &str) -> (String, String, i32) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cudalearn"));
    cmd.args(args)
        .args(["run", "-"])
        .env_remove("CUDALEARN_SIM_GPU")
        // a real GPU on the test machine must not change these expectations
        .env("CUDALEARN_NO_CUDA", "1")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("cudalearn runs");
    // a usage error exits before reading the script: a closed pipe is not a failure here
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes());
    let out = child.wait_with_output().expect("cudalearn finishes");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// The script's stdout with one simulated GPU; it must not fail.
fn sim(script: &str) -> String {
    sim_with(&["--sim-gpu"], script)
}

fn sim_with(args: &[&str], script: &str) -> String {
    let (out, err, code) = run(args, &format!("import torch\n{script}"));
    assert_eq!(
        code, 0,
        "script failed:\n{script}\nstdout:\n{out}\nstderr:\n{err}"
    );
    out
}

const OOM_TAIL: &str = " If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)";

#[test]
fn is_available_and_names_say_simulated() {
    let out = sim("print(torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.current_device())\nprint(torch.cuda.get_device_name(0))\nprint(torch.cuda.get_device_name())\np = torch.cuda.get_device_properties(0)\nprint(p.name, p.total_memory, p.major, p.minor)\nprint(torch.cuda.get_device_capability())");
    assert_eq!(
        out,
        "True 1 0\ncudalearn simulated GPU (modelled A100-SXM4-40GB)\ncudalearn simulated GPU (modelled A100-SXM4-40GB)\ncudalearn simulated GPU (modelled A100-SXM4-40GB) 17179869184 8 0\n(8, 0)\n"
    );
}

#[test]
fn properties_repr_has_pytorch_fields() {
    let out = sim_with(
        &["--sim-gpu", "--sim-gpu-memory", "8GiB"],
        "print(torch.cuda.get_device_properties(0))",
    );
    assert_eq!(out, "_CudaDeviceProperties(name='cudalearn simulated GPU (modelled A100-SXM4-40GB)', major=8, minor=0, total_memory=8192MB, multi_processor_count=108, uuid=00000000-0000-0000-0000-000000000000, pci_bus_id=0, pci_device_id=0, pci_domain_id=0, L2_cache_size=40MB)\n");
}

#[test]
fn one_float_is_512_allocated_2mib_reserved() {
    let out = sim("x = torch.zeros(1, device='cuda')\nprint(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())");
    assert_eq!(out, "512 2097152\n");
}

#[test]
fn small_tensors_share_a_2mib_segment() {
    // 1000 floats = 4000 bytes -> 4096; 100 int64 = 800 -> 1024; both from the same segment
    let out = sim("a = torch.zeros(1000, device='cuda')\nb = torch.zeros(100, dtype=torch.int64, device='cuda')\nprint(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())");
    assert_eq!(out, "5120 2097152\n");
}

#[test]
fn three_mib_tensor_gets_a_20mib_segment() {
    let out = sim("x = torch.empty(3 * 2**20, dtype=torch.uint8, device='cuda')\nprint(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())\ny = torch.empty(3 * 2**20, dtype=torch.uint8, device='cuda')\nprint(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())");
    // the second 3 MiB is split from the first segment's 17 MiB rest
    assert_eq!(out, "3145728 20971520\n6291456 20971520\n");
}

#[test]
fn large_tensors_round_to_2mib() {
    // 14 MiB + 4 bytes -> 14 MiB + 512 from a 16 MiB segment (the 2 MiB - 512 rest is split off);
    // 11 MiB + 4 -> a 12 MiB segment whose rest (1 MiB - 512) is too small to split, so the whole
    // block counts as allocated, as in PyTorch (allocated_bytes adds block->size)
    let out = sim("x = torch.empty(14 * 2**20 + 4, dtype=torch.uint8, device='cuda')\nprint(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())\ndel x\ntorch.cuda.empty_cache()\ny = torch.empty(11 * 2**20 + 4, dtype=torch.uint8, device='cuda')\nprint(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())");
    assert_eq!(out, "14680576 16777216\n12582912 12582912\n");
}

#[test]
fn free_reuse_empty_cache_and_peaks() {
    let out = sim("x = torch.zeros(256, 1024, 1024, device='cuda')
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
del x
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
y = torch.ones(256, 1024, 1024, device='cuda')
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
del y
torch.cuda.empty_cache()
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
print(torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved())
torch.cuda.reset_peak_memory_stats()
print(torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved())
");
    assert_eq!(
        out,
        "1073741824 1073741824\n0 1073741824\n1073741824 1073741824\n0 0\n1073741824 1073741824\n0 0\n"
    );
}

#[test]
fn op_results_and_temporaries_are_counted() {
    // x, y: 4 MiB each (one 20 MiB segment for both); x + y: a third 4 MiB block from the same
    // segment; dropping the result returns it
    let out = sim("x = torch.ones(1024, 1024, device='cuda')
y = torch.ones(1024, 1024, device='cuda')
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
z = x + y
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
del z
print(torch.cuda.memory_allocated())
print((x + y).sum().item(), torch.cuda.memory_allocated())
");
    assert_eq!(
        out,
        "8388608 20971520\n12582912 20971520\n8388608\n2097152.0 8388608\n"
    );
}

#[test]
fn fraction_cap_gives_pytorchs_oom_and_nothing_leaks() {
    let out = sim("torch.cuda.set_per_process_memory_fraction(0.25)
keep = torch.zeros(1, device='cuda')
try:
    big = torch.empty(5 * 2**30, dtype=torch.uint8, device='cuda')
except torch.cuda.OutOfMemoryError as e:
    print(e)
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
ok = torch.empty(2**30, dtype=torch.uint8, device='cuda')
print(torch.cuda.memory_allocated())
del ok, keep
print(torch.cuda.memory_allocated())
");
    let want = format!(
        "CUDA out of memory. Tried to allocate 5.00 GiB. GPU 0 has a total capacity of 16.00 GiB of which 16.00 GiB is free. Including non-PyTorch memory, this process has 2.00 MiB memory in use. 4.00 GiB allowed; Of the allocated memory 512 bytes is allocated by PyTorch, and 2.00 MiB is reserved by PyTorch but unallocated.{OOM_TAIL}\n512 2097152\n1073742336\n0\n"
    );
    assert_eq!(out, want);
}

#[test]
fn capacity_oom_is_a_runtime_error_subclass() {
    let out = sim_with(
        &["--sim-gpu", "--sim-gpu-memory", "1GiB"],
        "import torch
try:
    x = torch.empty(2 * 2**30, dtype=torch.uint8, device='cuda')
except RuntimeError as e:
    print(type(e).__name__, isinstance(e, torch.OutOfMemoryError))
    print(str(e).split('. Of')[0])
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
",
    );
    assert_eq!(out, "OutOfMemoryError True\nCUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 1024.00 MiB of which 1024.00 MiB is free. Including non-PyTorch memory, this process has 0 bytes memory in use\n0 0\n");
}

#[test]
fn oom_frees_the_cache_before_failing() {
    // 600 MiB cached, then 700 MiB on a 1 GiB card: the cache is released and the retry fits
    let out = sim_with(
        &["--sim-gpu", "--sim-gpu-memory", "1GiB"],
        "import torch
x = torch.empty(600 * 2**20, dtype=torch.uint8, device='cuda')
del x
print(torch.cuda.memory_reserved())
y = torch.empty(700 * 2**20, dtype=torch.uint8, device='cuda')
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
",
    );
    assert_eq!(out, "629145600\n734003200 734003200\n");
}

#[test]
fn uncaught_oom_has_traceback_and_hint() {
    let (_, err, code) = run(
        &["--sim-gpu", "--sim-gpu-memory", "1GiB"],
        "import torch\nx = torch.empty(2**31, dtype=torch.uint8, device='cuda')\n",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."),
        "{err}"
    );
    assert!(err.contains("hint:"), "{err}");
}

#[test]
fn memory_summary_reads_like_pytorchs() {
    let out = sim("x = torch.zeros(1, device='cuda')\nprint(torch.cuda.memory_summary(abbreviated=True), end='')");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 29, "{out}");
    assert_eq!(
        lines[1],
        "|                  PyTorch CUDA memory summary, device ID 0                 |"
    );
    assert_eq!(
        lines[3],
        "|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |"
    );
    assert_eq!(
        lines[7],
        "| Allocated memory      |    512 B   |    512 B   |    512 B   |      0 B   |"
    );
    assert_eq!(
        lines[13],
        "| GPU reserved memory   |   2048 KiB |   2048 KiB |   2048 KiB |      0 B   |"
    );
}

#[test]
fn elementwise_device_mismatch_names_the_gpu_first() {
    let out = sim("x = torch.ones(2, device='cuda')
y = torch.ones(2)
for f in (lambda: x + y, lambda: y + x, lambda: torch.where(x > 0, x, y)):
    try:
        f()
    except RuntimeError as e:
        print(e)
print(x + torch.tensor(2.0))
");
    let m = "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!\n";
    assert_eq!(out, format!("{m}{m}{m}tensor([3., 3.], device='cuda:0')\n"));
}

#[test]
fn layer_norm_with_weights_on_another_device_is_a_mismatch() {
    // the CPU row kernel must not be handed the GPU's weight and bias
    let out = sim("import torch.nn.functional as F
x = torch.randn(3, 4)
w, b = torch.ones(4, device='cuda'), torch.zeros(4, device='cuda')
try:
    F.layer_norm(x, (4,), w, b)
except RuntimeError as e:
    print(e)
print(F.layer_norm(x.cuda(), (4,), w, b).device)
");
    assert_eq!(
        out,
        "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!\ncuda:0\n"
    );
}

#[test]
fn two_gpus_mismatch_and_set_device() {
    let out = sim_with(
        &["--sim-gpu=2"],
        "import torch
print(torch.cuda.device_count())
a = torch.ones(2, device='cuda:0')
b = torch.ones(2, device='cuda:1')
try:
    a + b
except RuntimeError as e:
    print(e)
torch.cuda.set_device(1)
c = torch.zeros(1, device='cuda')
print(c.device, torch.cuda.current_device())
print(torch.cuda.memory_allocated(0), torch.cuda.memory_allocated(1))
print((a + b.to('cuda:0')).device, b.to(a.device).device, b.cuda(0).device)
",
    );
    assert_eq!(out, "2\nExpected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!\ncuda:1 1\n512 1024\ncuda:0 cuda:0 cuda:0\n");
}

#[test]
fn env_var_turns_on_two_gpus() {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cudalearn"));
    let out = cmd
        .args(["run", "-"])
        .env("CUDALEARN_SIM_GPU", "2")
        .env("CUDALEARN_NO_CUDA", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().expect("stdin").write_all(
                b"import torch\nprint(torch.cuda.device_count(), torch.cuda.get_device_name(1))\n",
            )?;
            c.wait_with_output()
        })
        .expect("runs");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "2 cudalearn simulated GPU (modelled A100-SXM4-40GB)\n"
    );
}

#[test]
fn matmul_device_mismatch_uses_the_wrapper_form() {
    let out = sim(
        "a = torch.ones(2, 2, device='cuda')
b = torch.ones(2, 2)
for f in (lambda: a @ b, lambda: b @ a, lambda: torch.mm(a, b), lambda: torch.bmm(a[None], b[None])):
    try:
        f()
    except RuntimeError as e:
        print(e)
",
    );
    // the first argument's device is the common one; the first other is named (cf. PyTorch
    // issues quoting "got mat2 is on cuda:0, different from other tensors on cpu (... wrapper_CUDA_mm)")
    assert_eq!(out, "Expected all tensors to be on the same device, but got mat2 is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_mm)\nExpected all tensors to be on the same device, but got mat2 is on cuda:0, different from other tensors on cpu (when checking argument in method wrapper_CUDA_mm)\nExpected all tensors to be on the same device, but got mat2 is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_mm)\nExpected all tensors to be on the same device, but got mat2 is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_bmm)\n");
}

#[test]
fn numpy_of_a_gpu_tensor_asks_for_cpu() {
    let out = sim("x = torch.ones(2, device='cuda')
try:
    x.numpy()
except TypeError as e:
    print(e)
print(x.cpu().numpy())
");
    assert_eq!(out, "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.\n[1. 1.]\n");
}

#[test]
fn invalid_ordinal_and_invalid_device_id() {
    let out = sim("try:
    torch.zeros(1, device='cuda:3')
except torch.AcceleratorError as e:
    print(repr(str(e)))
try:
    torch.ones(1).to('cuda:1')
except RuntimeError as e:
    print(type(e).__name__)
try:
    torch.cuda.get_device_name(3)
except AssertionError as e:
    print('AssertionError', e)
try:
    torch.cuda.set_device(2)
except RuntimeError as e:
    print(str(e).splitlines()[0])
");
    assert_eq!(out, "'CUDA error: invalid device ordinal\\nGPU device may be out of range, do you have enough GPUs?\\n'\nAcceleratorError\nAssertionError Invalid device id\nCUDA error: invalid device ordinal\n");
}

#[test]
fn transfers_keep_values_and_identity() {
    let out = sim("x = torch.arange(6.).reshape(2, 3)
g = x.cuda()
print(g)
print(g.is_cuda, x.is_cuda, g.device, g.to('cuda') is g, g.cuda() is g, g.to('cuda:0') is g)
print(g.cpu(), g.cpu().is_cuda)
t = x.t().to('cuda', non_blocking=True)
print(t, t.is_contiguous())
h = g.to(torch.float16)
print(h.dtype, h.device)
print(x.to('cuda', torch.int64))
print(g.tolist(), g.sum().item(), g[1, 2].item())
");
    assert_eq!(out, "tensor([[0., 1., 2.],\n        [3., 4., 5.]], device='cuda:0')\nTrue False cuda:0 True True True\ntensor([[0., 1., 2.],\n        [3., 4., 5.]]) False\ntensor([[0., 3.],\n        [1., 4.],\n        [2., 5.]], device='cuda:0') False\ntorch.float16 cuda:0\ntensor([[0, 1, 2],\n        [3, 4, 5]], device='cuda:0')\n[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] 15.0 5.0\n");
}

#[test]
fn pinned_memory() {
    let out = sim("x = torch.ones(3)
p = x.pin_memory()
print(x.is_pinned(), p.is_pinned(), p.pin_memory() is p, p.cuda(non_blocking=True).is_pinned())
try:
    p.cuda().pin_memory()
except RuntimeError as e:
    print(e)
");
    assert_eq!(out, "False True True False\ncannot pin 'torch.cuda.FloatTensor' only dense CPU tensors can be pinned\n");
}

#[test]
fn seeded_random_is_the_same_on_every_device() {
    let out = sim("torch.manual_seed(0)
a = torch.randn(2, 3)
torch.manual_seed(0)
b = torch.randn(2, 3, device='cuda')
print(torch.equal(a, b.cpu()), b.device)
torch.manual_seed(0)
print(torch.randn(2, 3, device='cuda'))
");
    assert_eq!(out, "True cuda:0\ntensor([[ 1.5410, -0.2934, -2.1788],\n        [ 0.5684, -1.0845, -1.3986]], device='cuda:0')\n");
}

#[test]
fn events_time_between_records() {
    let out = sim("s = torch.cuda.Event(enable_timing=True)
e = torch.cuda.Event(enable_timing=True)
s.record()
x = torch.ones(100, device='cuda') * 2
e.record()
torch.cuda.synchronize()
ms = s.elapsed_time(e)
print(type(ms).__name__, ms >= 0.0)
try:
    torch.cuda.Event(enable_timing=True).elapsed_time(e)
except RuntimeError as err:
    print(err)
");
    assert_eq!(
        out,
        "float True\nBoth events must be recorded before calculating elapsed time.\n"
    );
}

#[test]
fn fraction_argument_checks() {
    let out = sim("for f in (1.5, 1, -0.1):
    try:
        torch.cuda.set_per_process_memory_fraction(f)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
");
    assert_eq!(out, "ValueError Invalid fraction value: 1.5. Allowed range: 0~1\nTypeError Invalid type for fraction argument, must be `float`\nValueError Invalid fraction value: -0.1. Allowed range: 0~1\n");
}

#[test]
fn device_cpu_hides_gpus() {
    let (out, _, _) = run(
        &["--sim-gpu", "--device", "cpu"],
        "import torch\nprint(torch.cuda.is_available())\n",
    );
    assert_eq!(out, "False\n");
}

#[test]
fn bad_memory_size_is_a_usage_error() {
    let (_, err, code) = run(&["--sim-gpu-memory", "lots"], "print(1)\n");
    assert_eq!(code, 2);
    assert!(err.contains("not a memory size"), "{err}");
}

#[test]
fn repl_smi_and_device_say_simulated() {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cudalearn"));
    let out = cmd
        .args(["--sim-gpu", "repl", "--no-history"])
        .env("CUDALEARN_NO_CUDA", "1")
        .env_remove("CUDALEARN_SIM_GPU")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().expect("stdin").write_all(
                b"import torch\nx = torch.zeros(1, device='cuda')\n!nvidia-smi\n:device\n!ls\n",
            )?;
            c.wait_with_output()
        })
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("SIMULATED GPU"), "{stdout}");
    assert!(stdout.contains("cudalearn simulated GPU"), "{stdout}");
    assert!(stdout.contains("2MiB / 16384MiB"), "{stdout}");
    assert!(stdout.contains("device: SIMULATED GPU"), "{stdout}");
    assert!(stderr.contains("runs no shell commands"), "{stderr}");
}

/// CUDA autocast on the simulated GPU, applied at the engine's op entries, so every path to an
/// op gets its casts: lower precision for matrix products, convolutions, `linear` and `einsum`;
/// float32 for `exp`/`log1p`/`pow`/`reciprocal` and the losses; `dtype=float32` for `sum`,
/// `softmax`, `log_softmax`, `prod`; nothing for unlisted ops (`mean`, `gelu`, `cat`, pooling)
/// or in-place ones; `binary_cross_entropy` refused. (PyTorch 2.15's `autocast_mode.h` lists.)
#[test]
fn cuda_autocast_casts_every_path_to_an_op_alike() {
    let out = sim(include_str!("amp/cuda_paths.py"));
    let (h, f) = ("torch.float16", "torch.float32");
    let want = [
        format!("lin {h} {h} {h} {h}"),
        format!("fp32 {f} {f} {f} {f} {f} {f} {f}"),
        format!("keep {h} {h} {h} {h} {h} {h}"),
        format!("optdtype {f} {f} {f} {f} {h}"),
        format!("loss {f} {f} {f}"),
        format!("layer {f} {h}"),
        format!("conv {h} {h} {h} {h}"),
        format!("inplace {h}"),
        "bce torch.nn.functional.binary_cross_entropy".to_string(),
    ];
    assert_eq!(out.lines().collect::<Vec<_>>(), want, "{out}");
}

/// `Module.to` swaps each Parameter's data in place (PyTorch's `set_data`): an optimizer built
/// before `model.to('cuda')` trains the moved parameters. The losses are PyTorch 2.15's for the
/// same script on the CPU; moving back frees the parameters' and gradients' GPU memory (what is
/// left is the inputs, the last loss and Adam's state, which stays where it was made, and the
/// cuBLAS and cuBLASLt workspaces of the first `Linear`: 8 MiB + 128 KiB and 1 MiB on the
/// simulated A100, as PyTorch keeps them).
#[test]
fn optimizer_built_before_module_to_trains_the_moved_parameters() {
    let out = sim("import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
ids = [id(p) for p in model.parameters()]
opt = torch.optim.Adam(model.parameters(), lr=0.01)
model.to('cuda')
print([id(p) for p in model.parameters()] == ids, next(model.parameters()).device)
print(torch.cuda.memory_allocated())
x = torch.randn(16, 4, device='cuda')
y = x.sum(1, keepdim=True)
for step in range(50):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, f'{loss.item():.4f}')
print(opt.state[model[0].weight]['exp_avg'].device)
model.cpu()
print(torch.cuda.memory_allocated(), next(model.parameters()).device, [id(p) for p in model.parameters()] == ids)
");
    assert_eq!(out, "True cuda:0\n2048\n0 4.7567\n10 3.9324\n20 2.7531\n30 1.3751\n40 0.4712\ncuda:0\n9573888 cpu True\n");
}
