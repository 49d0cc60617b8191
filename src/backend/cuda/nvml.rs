//! The few NVML calls `!nvidia-smi` and PyTorch's OOM message need, from libnvidia-ml opened at
//! run time. Without the library (or a GPU) every function answers `None`; nothing panics.
use libloading::{Library, Symbol};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::OnceLock;

type Device = *mut c_void;

#[repr(C)]
#[derive(Default)]
struct Memory {
    total: u64,
    free: u64,
    used: u64,
}

#[repr(C)]
#[derive(Default)]
struct Utilization {
    gpu: c_uint,
    memory: c_uint,
}

#[repr(C)]
#[derive(Default, Clone, Copy)]
struct ProcessInfoV1 {
    pid: c_uint,
    used_gpu_memory: u64,
}

/// The NVML library, initialised once (or `None`).
fn lib() -> Option<&'static Library> {
    static LIB: OnceLock<Option<Library>> = OnceLock::new();
    LIB.get_or_init(|| {
        // SAFETY: loading NVML runs its (trusted, vendor) initialisers only.
        let lib = ["libnvidia-ml.so.1", "libnvidia-ml.so"]
            .iter()
            .find_map(|n| unsafe { Library::new(*n) }.ok())?;
        // SAFETY: nvmlInit_v2 has this signature in every NVML since 2012.
        let ok = unsafe {
            let init: Symbol<unsafe extern "C" fn() -> c_int> = lib.get(b"nvmlInit_v2\0").ok()?;
            init() == 0
        };
        ok.then_some(lib)
    })
    .as_ref()
}

/// The file NVML was loaded from (`None` without NVML).
pub fn library_path() -> Option<String> {
    let lib = lib()?;
    // SAFETY: the symbol's address is only passed to dladdr.
    unsafe {
        let f: Symbol<*const c_void> = lib.get(b"nvmlInit_v2\0").ok()?;
        let mut info: libc::Dl_info = std::mem::zeroed();
        if libc::dladdr(*f, &mut info) == 0 || info.dli_fname.is_null() {
            return None;
        }
        Some(
            CStr::from_ptr(info.dli_fname)
                .to_string_lossy()
                .into_owned(),
        )
    }
}

/// The NVML handle of the GPU at this PCI address (`domain:bus:device.0`).
fn handle_by_pci(domain: u32, bus: u32, device: u32) -> Option<Device> {
    let lib = lib()?;
    let id = format!("{domain:08X}:{bus:02X}:{device:02X}.0\0");
    let mut dev: Device = std::ptr::null_mut();
    // SAFETY: documented signature; `id` is NUL-terminated, `dev` a valid out-pointer.
    let r = unsafe {
        let f: Symbol<unsafe extern "C" fn(*const c_char, *mut Device) -> c_int> =
            lib.get(b"nvmlDeviceGetHandleByPciBusId_v2\0").ok()?;
        f(id.as_ptr() as *const c_char, &mut dev)
    };
    (r == 0).then_some(dev)
}

/// The NVML handle of CUDA device `ordinal` (matched by PCI address, as PyTorch does).
fn handle(ordinal: u32) -> Option<Device> {
    let p = super::probe().ok()?;
    let d = p.devices.get(ordinal as usize)?;
    handle_by_pci(d.pci_domain_id, d.pci_bus_id, d.pci_device_id)
}

/// The driver version string (`580.65.06`).
pub fn driver_version() -> Option<String> {
    let lib = lib()?;
    let mut buf = [0 as c_char; 96];
    // SAFETY: documented signature; the buffer length is passed.
    let r = unsafe {
        let f: Symbol<unsafe extern "C" fn(*mut c_char, c_uint) -> c_int> =
            lib.get(b"nvmlSystemGetDriverVersion\0").ok()?;
        f(buf.as_mut_ptr(), buf.len() as c_uint)
    };
    // SAFETY: NVML wrote a NUL-terminated string into the buffer.
    (r == 0).then(|| {
        unsafe { CStr::from_ptr(buf.as_ptr()) }
            .to_string_lossy()
            .into_owned()
    })
}

/// What `!nvidia-smi` shows for one GPU.
#[derive(Clone, Debug, Default)]
pub struct GpuStatus {
    pub memory_used: u64,
    pub memory_total: u64,
    pub utilization: u32,
    pub temperature: Option<u32>,
    pub power_mw: Option<u32>,
    pub power_limit_mw: Option<u32>,
}

pub fn status(ordinal: u32) -> Option<GpuStatus> {
    let lib = lib()?;
    let dev = handle(ordinal)?;
    let mut mem = Memory::default();
    let mut util = Utilization::default();
    let (mut temp, mut power, mut limit): (c_uint, c_uint, c_uint) = (0, 0, 0);
    // SAFETY: documented NVML signatures with valid out-pointers.
    unsafe {
        let f: Symbol<unsafe extern "C" fn(Device, *mut Memory) -> c_int> =
            lib.get(b"nvmlDeviceGetMemoryInfo\0").ok()?;
        if f(dev, &mut mem) != 0 {
            return None;
        }
        let u: Symbol<unsafe extern "C" fn(Device, *mut Utilization) -> c_int> =
            lib.get(b"nvmlDeviceGetUtilizationRates\0").ok()?;
        let _ = u(dev, &mut util);
        let t: Option<Symbol<unsafe extern "C" fn(Device, c_int, *mut c_uint) -> c_int>> =
            lib.get(b"nvmlDeviceGetTemperature\0").ok();
        let temp_ok = t.is_some_and(|t| t(dev, 0, &mut temp) == 0);
        let p: Option<Symbol<unsafe extern "C" fn(Device, *mut c_uint) -> c_int>> =
            lib.get(b"nvmlDeviceGetPowerUsage\0").ok();
        let power_ok = p.is_some_and(|p| p(dev, &mut power) == 0);
        let l: Option<Symbol<unsafe extern "C" fn(Device, *mut c_uint) -> c_int>> =
            lib.get(b"nvmlDeviceGetPowerManagementLimit\0").ok();
        let limit_ok = l.is_some_and(|l| l(dev, &mut limit) == 0);
        Some(GpuStatus {
            memory_used: mem.used,
            memory_total: mem.total,
            utilization: util.gpu,
            temperature: temp_ok.then_some(temp),
            power_mw: power_ok.then_some(power),
            power_limit_mw: limit_ok.then_some(limit),
        })
    }
}

/// `(pid, bytes)` of every compute process on CUDA device `ordinal`.
pub fn processes(ordinal: u32) -> Option<Vec<(u32, u64)>> {
    let lib = lib()?;
    let dev = handle(ordinal)?;
    let mut procs = vec![ProcessInfoV1::default(); 8];
    // SAFETY: documented signature (the unversioned symbol takes nvmlProcessInfo_v1_t); `n` holds
    // the buffer's length and NVML asks for more when it is too short.
    unsafe {
        let f: Symbol<unsafe extern "C" fn(Device, *mut c_uint, *mut ProcessInfoV1) -> c_int> =
            lib.get(b"nvmlDeviceGetComputeRunningProcesses\0").ok()?;
        loop {
            let mut n = procs.len() as c_uint;
            match f(dev, &mut n, procs.as_mut_ptr()) {
                0 => {
                    procs.truncate(n as usize);
                    break;
                }
                // NVML_ERROR_INSUFFICIENT_SIZE
                7 if (n as usize) > procs.len() && n < 4096 => {
                    procs.resize(n as usize, ProcessInfoV1::default())
                }
                _ => return None,
            }
        }
    }
    Some(procs.iter().map(|p| (p.pid, p.used_gpu_memory)).collect())
}
