//! NVML (`libnvidia-ml.so.1`): the calls `!nvidia-smi` and PyTorch's out-of-memory message use.
//! Devices are found by the PCI address the driver reports (bus 0x10 + ordinal); memory is what
//! this process has allocated.
use crate::config;
use crate::state::lock;
use std::ffi::{c_char, c_int, c_uint, CStr};

const SUCCESS: c_int = 0;
const INVALID_ARGUMENT: c_int = 2;
const NOT_FOUND: c_int = 6;
const INSUFFICIENT_SIZE: c_int = 7;

#[repr(C)]
pub struct Memory {
    total: u64,
    free: u64,
    used: u64,
}

#[repr(C)]
pub struct Utilization {
    gpu: c_uint,
    memory: c_uint,
}

#[repr(C)]
pub struct ProcessInfo {
    pid: c_uint,
    used_gpu_memory: u64,
}

/// NVML device handles are the ordinal + 1 (never null).
fn ordinal(h: usize) -> Option<usize> {
    let i = h.checked_sub(1)?;
    (i < config().devices).then_some(i)
}

#[no_mangle]
pub extern "C" fn nvmlInit_v2() -> c_int {
    SUCCESS
}

#[no_mangle]
pub extern "C" fn nvmlShutdown() -> c_int {
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn nvmlSystemGetDriverVersion(buf: *mut c_char, len: c_uint) -> c_int {
    let v = config().driver;
    let text = format!("vgpu-{}.{}\0", v / 1000, (v % 1000) / 10);
    if buf.is_null() || (len as usize) < text.len() {
        return INSUFFICIENT_SIZE;
    }
    std::ptr::copy_nonoverlapping(text.as_ptr(), buf as *mut u8, text.len());
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetCount_v2(n: *mut c_uint) -> c_int {
    *n = config().devices as c_uint;
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetHandleByPciBusId_v2(
    id: *const c_char,
    h: *mut usize,
) -> c_int {
    if id.is_null() || h.is_null() {
        return INVALID_ARGUMENT;
    }
    // "DDDDDDDD:BB:DD.F"
    let id = CStr::from_ptr(id).to_string_lossy();
    let bus = id
        .split(':')
        .nth(1)
        .and_then(|b| usize::from_str_radix(b, 16).ok());
    match bus.and_then(|b| b.checked_sub(0x10)) {
        Some(i) if i < config().devices => {
            *h = i + 1;
            SUCCESS
        }
        _ => NOT_FOUND,
    }
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetMemoryInfo(h: usize, m: *mut Memory) -> c_int {
    let Some(i) = ordinal(h) else {
        return INVALID_ARGUMENT;
    };
    let used = lock().devices[i].used;
    let total = config().memory;
    *m = Memory {
        total,
        free: total - used,
        used,
    };
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetUtilizationRates(h: usize, u: *mut Utilization) -> c_int {
    if ordinal(h).is_none() {
        return INVALID_ARGUMENT;
    }
    *u = Utilization { gpu: 0, memory: 0 };
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetTemperature(
    h: usize,
    _sensor: c_int,
    t: *mut c_uint,
) -> c_int {
    if ordinal(h).is_none() {
        return INVALID_ARGUMENT;
    }
    *t = 30;
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetPowerUsage(h: usize, mw: *mut c_uint) -> c_int {
    if ordinal(h).is_none() {
        return INVALID_ARGUMENT;
    }
    *mw = 70_000;
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetPowerManagementLimit(h: usize, mw: *mut c_uint) -> c_int {
    if ordinal(h).is_none() {
        return INVALID_ARGUMENT;
    }
    *mw = 700_000;
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetComputeRunningProcesses(
    h: usize,
    n: *mut c_uint,
    infos: *mut ProcessInfo,
) -> c_int {
    let Some(i) = ordinal(h) else {
        return INVALID_ARGUMENT;
    };
    let used = lock().devices[i].used;
    let count = (used > 0) as c_uint;
    if *n < count {
        *n = count;
        return INSUFFICIENT_SIZE;
    }
    *n = count;
    if count == 1 {
        *infos = ProcessInfo {
            pid: std::process::id(),
            used_gpu_memory: used,
        };
    }
    SUCCESS
}

#[no_mangle]
pub extern "C" fn nvmlErrorString(_code: c_int) -> *const c_char {
    c"vgpu NVML error".as_ptr()
}
