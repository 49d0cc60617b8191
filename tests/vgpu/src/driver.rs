//! The CUDA driver API (`libcuda.so`): the calls cudarc makes for cudalearn. Handles are plain
//! integers behind pointer types; the rules are in `state.rs`.
use crate::state::*;
use crate::{config, ptx_isa};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::Arc;

type Ctx = usize;

unsafe fn out<T>(p: *mut T, v: T) -> CuResult {
    if p.is_null() {
        return INVALID_VALUE;
    }
    p.write(v);
    SUCCESS
}

fn device_ok(s: &mut State, call: &str, dev: c_int) -> Result<usize, CuResult> {
    s.require_init(call)?;
    if dev < 0 || dev as usize >= s.devices.len() {
        return Err(s.violation(call, INVALID_DEVICE, format!("no device {dev}")));
    }
    Ok(dev as usize)
}

macro_rules! tryc {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(code) => return code,
        }
    };
}

#[no_mangle]
pub unsafe extern "C" fn cuInit(flags: c_uint) -> CuResult {
    let mut s = lock();
    if flags != 0 {
        return s.violation("cuInit", INVALID_VALUE, "flags must be 0");
    }
    if s.devices.is_empty() {
        return NO_DEVICE;
    }
    s.initialized = true;
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuDriverGetVersion(v: *mut c_int) -> CuResult {
    out(v, config().driver)
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetCount(n: *mut c_int) -> CuResult {
    let mut s = lock();
    tryc!(s.require_init("cuDeviceGetCount"));
    out(n, s.devices.len() as c_int)
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGet(d: *mut c_int, ordinal: c_int) -> CuResult {
    let mut s = lock();
    let dev = tryc!(device_ok(&mut s, "cuDeviceGet", ordinal));
    out(d, dev as c_int)
}

/// Never a real card's name: a learner or a test must not mistake it for one.
fn device_name(dev: usize) -> String {
    let (ma, mi) = config().sm;
    format!("virtual test GPU {dev} (cudalearn vgpu, sm_{ma}{mi}, not a real card)")
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetName(name: *mut c_char, len: c_int, dev: c_int) -> CuResult {
    let mut s = lock();
    let dev = tryc!(device_ok(&mut s, "cuDeviceGetName", dev));
    if name.is_null() || len <= 0 {
        return INVALID_VALUE;
    }
    let text = device_name(dev);
    let n = text.len().min(len as usize - 1);
    std::ptr::copy_nonoverlapping(text.as_ptr(), name as *mut u8, n);
    *name.add(n) = 0;
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetUuid_v2(uuid: *mut [c_char; 16], dev: c_int) -> CuResult {
    let mut s = lock();
    let dev = tryc!(device_ok(&mut s, "cuDeviceGetUuid", dev));
    let mut b = [0 as c_char; 16];
    for (i, c) in b"VGPU-virtual".iter().enumerate() {
        b[i] = *c as c_char;
    }
    b[15] = dev as c_char;
    out(uuid, b)
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetUuid(uuid: *mut [c_char; 16], dev: c_int) -> CuResult {
    cuDeviceGetUuid_v2(uuid, dev)
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceTotalMem_v2(bytes: *mut usize, dev: c_int) -> CuResult {
    let mut s = lock();
    tryc!(device_ok(&mut s, "cuDeviceTotalMem_v2", dev));
    out(bytes, config().memory as usize)
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetAttribute(v: *mut c_int, attr: c_int, dev: c_int) -> CuResult {
    let mut s = lock();
    let dev = tryc!(device_ok(&mut s, "cuDeviceGetAttribute", dev));
    let (ma, mi) = config().sm;
    let value = match attr {
        1 => 1024,                 // max threads per block
        2 | 3 => 1024,             // max block dim x, y
        4 => 64,                   // max block dim z
        5 => i32::MAX,             // max grid dim x
        6 | 7 => 65535,            // max grid dim y, z
        8 => 48 * 1024,            // shared memory per block
        10 => 32,                  // warp size
        16 => 132,                 // multiprocessors (an H100 SXM)
        33 => 0x10 + dev as c_int, // PCI bus
        34 | 50 => 0,              // PCI device, domain
        38 => 50 << 20,            // L2 cache
        41 => 1,                   // unified addressing
        75 => ma,
        76 => mi,
        115 => 0, // no stream-ordered memory pools: cudarc then frees synchronously
        _ => 0,
    };
    out(v, value)
}

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxRetain(ctx: *mut Ctx, dev: c_int) -> CuResult {
    let mut s = lock();
    let dev = tryc!(device_ok(&mut s, "cuDevicePrimaryCtxRetain", dev));
    if config().broken_device == Some(dev) {
        return UNKNOWN;
    }
    s.events.push(format!("retain {dev}"));
    let d = &mut s.devices[dev];
    if d.retained == 0 {
        d.generation += 1;
    }
    d.retained += 1;
    let h = ctx_handle(dev, d.generation);
    s.retains += 1;
    out(ctx, h)
}

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxRelease_v2(dev: c_int) -> CuResult {
    let mut s = lock();
    let dev = tryc!(device_ok(&mut s, "cuDevicePrimaryCtxRelease_v2", dev));
    if s.devices[dev].retained == 0 {
        return s.violation(
            "cuDevicePrimaryCtxRelease_v2",
            INVALID_CONTEXT,
            format!("device {dev}'s primary context released more often than retained"),
        );
    }
    s.releases += 1;
    s.devices[dev].retained -= 1;
    if s.devices[dev].retained == 0 {
        s.destroy_context(dev);
    }
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetCurrent(ctx: *mut Ctx) -> CuResult {
    let mut s = lock();
    tryc!(s.require_init("cuCtxGetCurrent"));
    out(ctx, current_ctx())
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxSetCurrent(ctx: Ctx) -> CuResult {
    let mut s = lock();
    tryc!(s.require_init("cuCtxSetCurrent"));
    if ctx != 0 {
        if let Err(e) = s.ctx_device(ctx) {
            return s.violation("cuCtxSetCurrent", e, "not a live context");
        }
    }
    set_current_ctx(ctx);
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetDevice(dev: *mut c_int) -> CuResult {
    let mut s = lock();
    let (_, d) = tryc!(s.require_ctx("cuCtxGetDevice"));
    out(dev, d as c_int)
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxSynchronize() -> CuResult {
    let mut s = lock();
    tryc!(s.require_ctx("cuCtxSynchronize"));
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuStreamSynchronize(_stream: *mut c_void) -> CuResult {
    let mut s = lock();
    tryc!(s.require_ctx("cuStreamSynchronize"));
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuMemAlloc_v2(p: *mut u64, bytes: usize) -> CuResult {
    let mut s = lock();
    let (_, dev) = tryc!(s.require_ctx("cuMemAlloc_v2"));
    if bytes == 0 {
        return s.violation("cuMemAlloc_v2", INVALID_VALUE, "zero bytes");
    }
    if config().fail_malloc {
        return UNKNOWN;
    }
    let ptr = tryc!(s.alloc(dev, bytes as u64));
    out(p, ptr)
}

#[no_mangle]
pub unsafe extern "C" fn cuMemFree_v2(p: u64) -> CuResult {
    let mut s = lock();
    let (_, dev) = tryc!(s.require_ctx("cuMemFree_v2"));
    tryc!(s.free(dev, p));
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuMemGetInfo_v2(free: *mut usize, total: *mut usize) -> CuResult {
    let mut s = lock();
    let (_, dev) = tryc!(s.require_ctx("cuMemGetInfo_v2"));
    let cap = config().memory;
    let used = s.devices[dev].used;
    let r = out(free, (cap - used) as usize);
    if r != SUCCESS {
        return r;
    }
    out(total, cap as usize)
}

/// A synchronous copy of `n` bytes after the checks of `call`: a current context, and every
/// device-side range (`device`) inside one live allocation.
unsafe fn copy(call: &str, device: &[u64], dst: *mut u8, src: *const u8, n: usize) -> CuResult {
    let mut s = lock();
    tryc!(s.require_ctx(call));
    for &p in device {
        tryc!(s.check_range(call, p, n as u64));
    }
    if n > 0 {
        std::ptr::copy(src, dst, n);
    }
    let c = s.copies.entry(call.to_string()).or_default();
    c.0 += 1;
    c.1 += n as u64;
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyHtoD_v2(dst: u64, src: *const c_void, n: usize) -> CuResult {
    copy(
        "cuMemcpyHtoD_v2",
        &[dst],
        dst as *mut u8,
        src as *const u8,
        n,
    )
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyDtoH_v2(dst: *mut c_void, src: u64, n: usize) -> CuResult {
    copy(
        "cuMemcpyDtoH_v2",
        &[src],
        dst as *mut u8,
        src as *const u8,
        n,
    )
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyDtoD_v2(dst: u64, src: u64, n: usize) -> CuResult {
    copy(
        "cuMemcpyDtoD_v2",
        &[dst, src],
        dst as *mut u8,
        src as *const u8,
        n,
    )
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD8_v2(dst: u64, value: u8, n: usize) -> CuResult {
    let mut s = lock();
    tryc!(s.require_ctx("cuMemsetD8_v2"));
    tryc!(s.check_range("cuMemsetD8_v2", dst, n as u64));
    if n > 0 {
        std::ptr::write_bytes(dst as *mut u8, value, n);
    }
    SUCCESS
}

/// CU_MEMHOSTREGISTER_PORTABLE | DEVICEMAP | IOMEMORY | READ_ONLY.
const HOST_REGISTER_FLAGS: c_uint = 0xf;

#[no_mangle]
pub unsafe extern "C" fn cuMemHostRegister_v2(p: *mut c_void, n: usize, flags: c_uint) -> CuResult {
    let mut s = lock();
    let call = "cuMemHostRegister_v2";
    tryc!(s.require_ctx(call));
    if p.is_null() || n == 0 || flags & !HOST_REGISTER_FLAGS != 0 {
        return s.violation(
            call,
            INVALID_VALUE,
            "null pointer, zero bytes or unknown flags",
        );
    }
    let (start, end) = (p as usize, p as usize + n);
    let overlaps = s
        .host
        .range(..end)
        .next_back()
        .is_some_and(|(&a, &(len, _))| a + len > start);
    if overlaps {
        // not a violation: PyTorch's own code meets this and must handle it
        s.events.push(format!("host_register_overlap {n}"));
        return HOST_MEMORY_ALREADY_REGISTERED;
    }
    if config().fail_host_register {
        return NOT_PERMITTED;
    }
    s.host.insert(start, (n, flags));
    s.events.push(format!("host_register {n} flags {flags}"));
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuMemHostUnregister(p: *mut c_void) -> CuResult {
    let mut s = lock();
    tryc!(s.require_ctx("cuMemHostUnregister"));
    if s.host.remove(&(p as usize)).is_none() {
        return s.violation(
            "cuMemHostUnregister",
            HOST_MEMORY_NOT_REGISTERED,
            "the pointer is not the start of a registered range",
        );
    }
    s.events.push("host_unregister".into());
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuMemHostGetFlags(flags: *mut c_uint, p: *mut c_void) -> CuResult {
    let mut s = lock();
    tryc!(s.require_ctx("cuMemHostGetFlags"));
    let p = p as usize;
    match s.host.range(..=p).next_back() {
        Some((&a, &(len, f))) if p < a + len => out(flags, f),
        _ => INVALID_VALUE,
    }
}

/// What a module image holds: the CPU build's path, after the checks a driver makes.
fn parse_image(image: *const c_void, dev_sm: (i32, i32)) -> Result<String, (CuResult, String)> {
    // SAFETY (caller): `image` is a NUL-terminated PTX text or a cubin with our header.
    let head = unsafe { std::slice::from_raw_parts(image as *const u8, 8) };
    if head == crate::nvrtc::CUBIN_MAGIC {
        let meta = unsafe { std::slice::from_raw_parts((image as *const u8).add(8), 12) };
        let word = |i: usize| u32::from_le_bytes(meta[i * 4..i * 4 + 4].try_into().unwrap());
        let (major, minor, len) = (word(0) as i32, word(1) as i32, word(2) as usize);
        // SASS runs on the same major architecture at the same or a later minor revision
        if major != dev_sm.0 || minor > dev_sm.1 {
            return Err((
                NO_BINARY_FOR_GPU,
                format!(
                    "cubin for sm_{major}{minor} on an sm_{}{} device",
                    dev_sm.0, dev_sm.1
                ),
            ));
        }
        let body = unsafe { std::slice::from_raw_parts((image as *const u8).add(20), len) };
        return Ok(String::from_utf8_lossy(body).into_owned());
    }
    if head.starts_with(b"\x7fELF") {
        return Err((
            INVALID_IMAGE,
            "a cubin not made by the virtual NVRTC".into(),
        ));
    }
    let text = unsafe { CStr::from_ptr(image as *const c_char) }.to_string_lossy();
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(key).map(|v| v.trim().to_string()))
    };
    let Some(version) = field(".version") else {
        return Err((INVALID_IMAGE, "neither PTX nor a cubin".into()));
    };
    let (a, b) = version.split_once('.').unwrap_or((&version, "0"));
    let v = (a.parse().unwrap_or(99), b.parse().unwrap_or(99));
    let cuda = config().driver;
    let max = ptx_isa((cuda / 1000, (cuda % 1000) / 10));
    if v > max {
        return Err((
            UNSUPPORTED_PTX_VERSION,
            format!(
                "PTX ISA {version} is newer than this driver (CUDA {}.{}) understands ({}.{})",
                cuda / 1000,
                (cuda % 1000) / 10,
                max.0,
                max.1
            ),
        ));
    }
    let target = field(".target").unwrap_or_default();
    let sm: i32 = target
        .trim_start_matches("sm_")
        .trim_end_matches(['a', 'f'])
        .parse()
        .unwrap_or(0);
    if sm > dev_sm.0 * 10 + dev_sm.1 {
        return Err((
            NO_BINARY_FOR_GPU,
            format!("PTX for {target} on an older device"),
        ));
    }
    field("// vgpu-library:").ok_or((INVALID_PTX, "PTX not made by the virtual NVRTC".into()))
}

#[no_mangle]
pub unsafe extern "C" fn cuModuleLoadData(module: *mut usize, image: *const c_void) -> CuResult {
    let mut s = lock();
    let call = "cuModuleLoadData";
    let (ctx, _) = tryc!(s.require_ctx(call));
    if image.is_null() {
        return INVALID_VALUE;
    }
    let path = match parse_image(image, config().sm) {
        Ok(p) => p,
        // a refused image is the caller's to handle (e.g. newer PTX than the driver): logged
        // as an event, not a violation
        Err((code, why)) => {
            s.events.push(format!("module_refused {code} {why}"));
            return code;
        }
    };
    let lib = match libloading::Library::new(&path) {
        Ok(l) => l,
        Err(e) => {
            s.events.push(format!("module_refused {INVALID_IMAGE} {e}"));
            return INVALID_IMAGE;
        }
    };
    type Entries = unsafe extern "C" fn() -> *const c_char;
    let Ok(f) = lib.get::<Entries>(b"vgpu_entries\0") else {
        return INVALID_IMAGE;
    };
    let entries = CStr::from_ptr(f())
        .to_string_lossy()
        .lines()
        .map(|l| match l.strip_prefix('*') {
            Some(n) => (n.to_string(), true),
            None => (l.to_string(), false),
        })
        .collect();
    let h = s.handle();
    s.modules.insert(
        h,
        Module {
            ctx,
            lib: Arc::new(lib),
            entries,
        },
    );
    s.events.push("module_loaded".into());
    out(module, h)
}

#[no_mangle]
pub unsafe extern "C" fn cuModuleUnload(module: usize) -> CuResult {
    let mut s = lock();
    let (ctx, _) = tryc!(s.require_ctx("cuModuleUnload"));
    match s.modules.get(&module) {
        None => s.violation("cuModuleUnload", INVALID_HANDLE, "not a loaded module"),
        Some(m) if m.ctx != ctx => s.violation(
            "cuModuleUnload",
            INVALID_CONTEXT,
            "the module's context is not current",
        ),
        Some(_) => {
            s.modules.remove(&module);
            s.functions.retain(|_, f| f.module != module);
            SUCCESS
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuModuleGetFunction(
    f: *mut usize,
    module: usize,
    name: *const c_char,
) -> CuResult {
    let mut s = lock();
    let call = "cuModuleGetFunction";
    let (ctx, _) = tryc!(s.require_ctx(call));
    let name = CStr::from_ptr(name).to_string_lossy().into_owned();
    match s.modules.get(&module) {
        None => return s.violation(call, INVALID_HANDLE, "not a loaded module"),
        Some(m) if m.ctx != ctx => {
            return s.violation(call, INVALID_CONTEXT, "the module's context is not current")
        }
        Some(m) if !m.entries.contains_key(&name) => return NOT_FOUND,
        Some(_) => {}
    }
    let h = s.handle();
    s.functions.insert(h, Function { module, name });
    out(f, h)
}

type LaunchFn =
    unsafe extern "C" fn(*const c_char, *mut *mut c_void, *const c_uint, *const c_uint) -> c_int;

#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cuLaunchKernel(
    f: usize,
    gx: c_uint,
    gy: c_uint,
    gz: c_uint,
    bx: c_uint,
    by: c_uint,
    bz: c_uint,
    shared: c_uint,
    _stream: *mut c_void,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> CuResult {
    let call = "cuLaunchKernel";
    let (lib, name) = {
        let mut s = lock();
        let (ctx, _) = tryc!(s.require_ctx(call));
        let Some(func) = s.functions.get(&f) else {
            return s.violation(call, INVALID_HANDLE, "not a function of a loaded module");
        };
        let module = &s.modules[&func.module];
        if module.ctx != ctx {
            return s.violation(
                call,
                INVALID_HANDLE,
                "the function's context is not current",
            );
        }
        let (lib, name) = (module.lib.clone(), func.name.clone());
        let threads = bx as u64 * by as u64 * bz as u64;
        let bad = [gx, gy, gz, bx, by, bz].contains(&0)
            || gy > 65535
            || gz > 65535
            || gx > i32::MAX as u32
            || bx > 1024
            || by > 1024
            || bz > 64
            || threads > 1024
            || shared > 48 * 1024;
        if bad {
            return s.violation(
                call,
                INVALID_VALUE,
                format!(
                    "{name}: grid ({gx}, {gy}, {gz}), block ({bx}, {by}, {bz}), {shared} B shared"
                ),
            );
        }
        if !extra.is_null() || params.is_null() {
            return s.violation(
                call,
                INVALID_VALUE,
                format!("{name}: arguments must come as kernelParams"),
            );
        }
        *s.launches.entry(name.clone()).or_default() += 1;
        (lib, name)
    };
    // the kernel runs without the state lock: its memory accesses are plain host accesses
    let Ok(launch) = lib.get::<LaunchFn>(b"vgpu_launch\0") else {
        return INVALID_IMAGE;
    };
    let cname = std::ffi::CString::new(name.clone()).unwrap_or_default();
    let (grid, block) = ([gx, gy, gz], [bx, by, bz]);
    match launch(cname.as_ptr(), params, grid.as_ptr(), block.as_ptr()) {
        0 => SUCCESS,
        code => {
            let why = match code {
                2 => "a barrier in a kernel the build found none in",
                3 => "threads left the kernel while others waited at __syncthreads",
                _ => "the kernel is missing from the module's build",
            };
            lock().violation(call, LAUNCH_FAILED, format!("{name}: {why}"))
        }
    }
}

static ERRORS: &[(CuResult, &CStr, &CStr)] = &[
    (SUCCESS, c"CUDA_SUCCESS", c"no error"),
    (
        INVALID_VALUE,
        c"CUDA_ERROR_INVALID_VALUE",
        c"invalid argument",
    ),
    (OUT_OF_MEMORY, c"CUDA_ERROR_OUT_OF_MEMORY", c"out of memory"),
    (
        NOT_INITIALIZED,
        c"CUDA_ERROR_NOT_INITIALIZED",
        c"initialization error",
    ),
    (
        NO_DEVICE,
        c"CUDA_ERROR_NO_DEVICE",
        c"no CUDA-capable device is detected",
    ),
    (
        INVALID_DEVICE,
        c"CUDA_ERROR_INVALID_DEVICE",
        c"invalid device ordinal",
    ),
    (
        INVALID_IMAGE,
        c"CUDA_ERROR_INVALID_IMAGE",
        c"device kernel image is invalid",
    ),
    (
        INVALID_CONTEXT,
        c"CUDA_ERROR_INVALID_CONTEXT",
        c"invalid device context",
    ),
    (
        NO_BINARY_FOR_GPU,
        c"CUDA_ERROR_NO_BINARY_FOR_GPU",
        c"no kernel image is available for execution on the device",
    ),
    (
        INVALID_PTX,
        c"CUDA_ERROR_INVALID_PTX",
        c"a PTX JIT compilation failed",
    ),
    (
        UNSUPPORTED_PTX_VERSION,
        c"CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
        c"the provided PTX was compiled with an unsupported toolchain.",
    ),
    (
        INVALID_HANDLE,
        c"CUDA_ERROR_INVALID_HANDLE",
        c"invalid resource handle",
    ),
    (
        NOT_FOUND,
        c"CUDA_ERROR_NOT_FOUND",
        c"named symbol not found",
    ),
    (
        ILLEGAL_ADDRESS,
        c"CUDA_ERROR_ILLEGAL_ADDRESS",
        c"an illegal memory access was encountered",
    ),
    (
        CONTEXT_IS_DESTROYED,
        c"CUDA_ERROR_CONTEXT_IS_DESTROYED",
        c"context is destroyed",
    ),
    (
        HOST_MEMORY_ALREADY_REGISTERED,
        c"CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
        c"part or all of the requested memory range is already mapped",
    ),
    (
        HOST_MEMORY_NOT_REGISTERED,
        c"CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
        c"pointer does not correspond to a registered memory region",
    ),
    (
        LAUNCH_FAILED,
        c"CUDA_ERROR_LAUNCH_FAILED",
        c"unspecified launch failure",
    ),
    (
        NOT_PERMITTED,
        c"CUDA_ERROR_NOT_PERMITTED",
        c"operation not permitted",
    ),
    (UNKNOWN, c"CUDA_ERROR_UNKNOWN", c"unknown error"),
];

#[no_mangle]
pub unsafe extern "C" fn cuGetErrorString(e: CuResult, text: *mut *const c_char) -> CuResult {
    match ERRORS.iter().find(|x| x.0 == e) {
        Some(x) => out(text, x.2.as_ptr()),
        None => INVALID_VALUE,
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuGetErrorName(e: CuResult, text: *mut *const c_char) -> CuResult {
    match ERRORS.iter().find(|x| x.0 == e) {
        Some(x) => out(text, x.1.as_ptr()),
        None => INVALID_VALUE,
    }
}
