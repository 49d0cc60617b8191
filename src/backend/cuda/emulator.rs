//! A CPU build of `kernels/*.cu`, for tests on machines without a GPU: the same sources compiled
//! by the system C++ compiler with a small shim, loaded as a shared library. Elementwise kernels
//! run as one thread (their grid-stride loops cover all the work); the row kernels, whose
//! block-wide tree reductions depend on `__syncthreads`, run as real threads — blocks of 8 (the
//! same tree as 256, fewer levels) and up to 3 blocks striding over the rows — with a barrier,
//! so a missing barrier or a wrong tree step shows up as a wrong result. Installed behind the host-backed test device
//! (`memory::install_host_device_with_kernels`), it lets `cargo test` run every kernel and the
//! backend's launches — argument order, layouts, pointer offsets — against the CPU backend.
//! It is not a GPU: races, occupancy, and cuBLAS (matmul takes the host route) are not covered.
use std::path::{Path, PathBuf};

/// What makes the CUDA sources valid C++ for one thread.
const SHIM: &str = r#"
#include <barrier>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>
#define CUDALEARN_CPU_EMULATION 1
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
using namespace std;
struct Dim3 { unsigned x, y, z; };
static thread_local Dim3 blockIdx = {0, 0, 0}, threadIdx = {0, 0, 0};
static Dim3 blockDim = {1, 1, 1}, gridDim = {1, 1, 1};
static std::barrier<>* block_barrier = nullptr;
static inline void __syncthreads() { if (block_barrier) block_barrier->arrive_and_wait(); }
static inline float __uint_as_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
static inline unsigned __float_as_uint(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static inline double __longlong_as_double(long long x) { double d; memcpy(&d, &x, 8); return d; }
static inline float f16_to_f32(unsigned short h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }
static inline unsigned short f32_to_f16(float f) { _Float16 x = (_Float16)f; unsigned short h; memcpy(&h, &x, 2); return h; }
"#;

/// Calls a kernel with CUDA's argument convention (an array of pointers to each argument).
const CALL: &str = r#"
template <typename... A, size_t... I>
static void call_impl(void (*f)(A...), void** args, std::index_sequence<I...>) {
    f(*static_cast<A*>(args[I])...);
}
template <typename... A>
static void call(void (*f)(A...), void** args) { call_impl(f, args, std::index_sequence_for<A...>{}); }
struct Entry { const char* name; void (*fn)(void**); };
"#;

/// Runs `grid` blocks of `block` threads, one block after another (a block's `__shared__`
/// arrays are function statics, shared by its threads only while it runs).
const LAUNCH: &str = r#"
extern "C" int cudalearn_emu_launch(const char* name, void** args, unsigned grid, unsigned block) {
    const Entry* e = nullptr;
    for (const Entry& x : entries) if (!strcmp(x.name, name)) e = &x;
    if (!e) return 1;
    gridDim = {grid, 1, 1};
    blockDim = {block, 1, 1};
    std::barrier<> bar(block);
    block_barrier = block > 1 ? &bar : nullptr;
    for (unsigned b = 0; b < grid; ++b) {
        if (block == 1) { blockIdx = {b, 0, 0}; threadIdx = {0, 0, 0}; e->fn(args); continue; }
        std::vector<std::thread> ts;
        for (unsigned t = 0; t < block; ++t)
            ts.emplace_back([=] { blockIdx = {b, 0, 0}; threadIdx = {t, 0, 0}; e->fn(args); });
        for (auto& t : ts) t.join();
    }
    block_barrier = nullptr;
    return 0;
}
"#;

/// The C++ translation unit: shim, kernels, and a name → launcher table.
pub fn source(names: &[String]) -> String {
    let mut s = String::from(SHIM);
    s += &super::kernels::program();
    s += CALL;
    s += "static const Entry entries[] = {\n";
    for n in names {
        s += &format!("    {{\"{n}\", [](void** a) {{ call({n}, a); }}}},\n");
    }
    s += "};\n";
    s += LAUNCH;
    s
}

/// Compile the emulation into `dir` with `c++`; the library's path, or why not.
pub fn build(dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let src = dir.join("kernels_cpu.cpp");
    let lib = dir.join("libcudalearn_kernels_cpu.so");
    std::fs::write(&src, source(&super::codes::all_names())).map_err(|e| e.to_string())?;
    let out = std::process::Command::new("c++")
        .args([
            "-std=c++20",
            "-O1",
            "-shared",
            "-fPIC",
            "-pthread",
            "-w",
            "-o",
        ])
        .arg(&lib)
        .arg(&src)
        .output()
        .map_err(|e| format!("no C++ compiler (c++): {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(lib)
}

static LAUNCHED: std::sync::Mutex<std::collections::BTreeSet<String>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

/// The kernels launched through the emulation so far (so tests can show what they covered).
pub fn launched() -> Vec<String> {
    let g = LAUNCHED.lock().unwrap_or_else(|e| e.into_inner());
    g.iter().cloned().collect()
}

/// The loaded library.
pub struct Emulated {
    _lib: libloading::Library,
    launch: LaunchFn,
}

type LaunchFn =
    unsafe extern "C" fn(*const std::ffi::c_char, *mut *mut std::ffi::c_void, u32, u32) -> i32;

impl Emulated {
    pub fn load(path: &Path) -> Result<Emulated, String> {
        // SAFETY: the library is the one `build` made; its only export has this signature.
        unsafe {
            let lib = libloading::Library::new(path).map_err(|e| e.to_string())?;
            let f = *lib
                .get::<LaunchFn>(b"cudalearn_emu_launch\0")
                .map_err(|e| e.to_string())?;
            Ok(Emulated {
                _lib: lib,
                launch: f,
            })
        }
    }

    /// Run kernel `name` to completion on this thread.
    ///
    /// # Safety
    /// `params` must point to the kernel's arguments, in order and of its types; every pointer
    /// among them must address host memory large enough for what the kernel touches.
    pub unsafe fn launch(
        &self,
        name: &str,
        params: &mut [*mut std::ffi::c_void],
    ) -> Result<(), String> {
        let c = std::ffi::CString::new(name).map_err(|e| e.to_string())?;
        LAUNCHED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name.to_string());
        // the row kernels synchronise their threads; the rest need only one
        let rows = ["reduce_rows_", "arg_rows_", "softmax_"];
        let (grid, block) = match rows.iter().any(|r| name.starts_with(r)) {
            true => (3, 8),
            false => (1, 1),
        };
        match (self.launch)(c.as_ptr(), params.as_mut_ptr(), grid, block) {
            0 => Ok(()),
            _ => Err(format!("no kernel {name} in the CPU emulation")),
        }
    }
}
