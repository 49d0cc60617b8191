//! `probe()`: the only door to cudarc. cudarc loads the CUDA libraries lazily and *panics* when
//! one is missing, so nothing calls it before `is_culib_present()` has said yes for the driver,
//! NVRTC and cuBLAS. Then the driver is initialised, the devices counted and a context created
//! on GPU 0. The answer is computed once and cached; `cudalearn info` prints it, or why not.
//!
//! Only the driver and a device are required. NVRTC (cudalearn's own kernels) and cuBLAS
//! (matrix products) are each optional: without one, the ops it serves take the host route.
//! Besides the library path, both are looked for where Python installs them (the `nvidia-*`
//! pip wheels under the active environment's site-packages) and under `CUDA_HOME`/`CUDA_PATH`.
use super::driver::describe;
use std::sync::OnceLock;

/// What was found for one GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceInfo {
    pub name: String,
    pub major: u32,
    pub minor: u32,
    pub total_memory: u64,
    pub multi_processor_count: u32,
    pub uuid: String,
    pub pci_bus_id: u32,
    pub pci_device_id: u32,
    pub pci_domain_id: u32,
    pub l2_cache_size: u64,
}

/// A CUDA library that was loaded: its version and the file it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    pub version: (i32, i32),
    pub path: String,
}

/// A usable CUDA installation.
#[derive(Clone, Debug)]
pub struct Probe {
    pub devices: Vec<DeviceInfo>,
    /// `cuDriverGetVersion`, e.g. 13000 for CUDA 13.0.
    pub driver_version: i32,
    /// Where libcuda was loaded from.
    pub driver_path: String,
    /// NVRTC, which builds cudalearn's kernels (without it, ops take the host route).
    pub nvrtc: Option<Loaded>,
    /// cuBLAS, which runs matrix products (without it, they take the host route).
    pub cublas: Option<Loaded>,
}

/// Why there is no usable GPU, with what to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// libcuda.so could not be loaded: no NVIDIA driver.
    NoDriver,
    /// The driver loaded but `cuInit` failed (no device, or a broken installation).
    DriverInit(String),
    /// The driver works but sees no GPU.
    NoDevice,
    /// The driver is older than what cudalearn needs.
    DriverTooOld(i32),
    /// Creating a context on GPU 0 failed.
    Context(String),
}

/// The oldest driver cudalearn uses (CUDA 12.0).
pub const MIN_DRIVER: i32 = 12000;

/// What `info` and the warning without NVRTC tell the learner to do.
pub const NVRTC_FIX: &str = "install NVRTC (e.g. `pip install nvidia-cuda-nvrtc`, or the CUDA toolkit's cuda-nvrtc package); cudalearn finds it in the active Python environment, under CUDA_HOME, or on LD_LIBRARY_PATH";

impl ProbeError {
    /// One line for `cudalearn info` and `torch.cuda.is_available()`'s hint.
    pub fn reason(&self) -> String {
        match self {
            ProbeError::NoDriver => {
                "no NVIDIA driver: the CUDA driver library (libcuda.so) was not found".into()
            }
            ProbeError::DriverInit(e) => format!("the NVIDIA driver did not initialise: {e}"),
            ProbeError::NoDevice => "the NVIDIA driver sees no GPU".into(),
            ProbeError::DriverTooOld(v) => format!(
                "the NVIDIA driver supports CUDA {}, older than the CUDA {} cudalearn needs",
                version(*v),
                version(MIN_DRIVER)
            ),
            ProbeError::Context(e) => format!("creating a CUDA context on GPU 0 failed: {e}"),
        }
    }

    /// What the learner can do.
    pub fn fix(&self) -> String {
        match self {
            ProbeError::NoDriver | ProbeError::NoDevice | ProbeError::DriverInit(_) => "on a machine with an NVIDIA GPU, install the NVIDIA driver (nvidia-smi should list the GPU). Without one, `cudalearn repl --sim-gpu` gives a simulated GPU.".into(),
            ProbeError::DriverTooOld(_) => format!("update the NVIDIA driver to a release for CUDA {} or newer.", version(MIN_DRIVER)),
            ProbeError::Context(_) => "check that no other process holds the GPU in exclusive mode and that nvidia-smi works.".into(),
        }
    }
}

/// `13000` → `13.0`.
pub fn version(v: i32) -> String {
    format!("{}.{}", v / 1000, (v % 1000) / 10)
}

static PROBE: OnceLock<Result<Probe, ProbeError>> = OnceLock::new();

/// The host-backed test device, when installed (`memory::install_host_device`).
static HOST_DEVICE: OnceLock<Probe> = OnceLock::new();

pub(super) fn set_host_device(capacity: u64) {
    let _ = HOST_DEVICE.set(Probe {
        devices: vec![DeviceInfo {
            name: "cudalearn host-backed test device".into(),
            major: 9,
            minor: 0,
            total_memory: capacity,
            multi_processor_count: 1,
            uuid: "00000000-0000-0000-0000-000000000000".into(),
            pci_bus_id: 0,
            pci_device_id: 0,
            pci_domain_id: 0,
            l2_cache_size: 0,
        }],
        driver_version: MIN_DRIVER,
        driver_path: String::new(),
        nvrtc: None,
        cublas: None,
    });
}

/// Whether the "GPU" is the host-backed test device.
pub fn is_host_device() -> bool {
    HOST_DEVICE.get().is_some()
}

/// The cached probe (the first call does the work; it never panics).
pub fn probe() -> Result<&'static Probe, &'static ProbeError> {
    if let Some(p) = HOST_DEVICE.get() {
        return Ok(p);
    }
    PROBE
        .get_or_init(|| {
            if std::env::var_os("CUDALEARN_NO_CUDA").is_some() {
                return Err(ProbeError::NoDriver);
            }
            // cudarc panics on a missing symbol: a broken installation, said as such
            std::panic::catch_unwind(run).unwrap_or_else(|p| {
                let why = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                Err(ProbeError::DriverInit(format!(
                    "a CUDA library is incomplete: {why}"
                )))
            })
        })
        .as_ref()
}

fn run() -> Result<Probe, ProbeError> {
    use cudarc::driver::{result, sys};
    // SAFETY: is_culib_present only tries to dlopen the library names; nothing is called.
    if !unsafe { sys::is_culib_present() } {
        return Err(ProbeError::NoDriver);
    }
    if let Err(e) = result::init() {
        return Err(match e.0 {
            sys::CUresult::CUDA_ERROR_NO_DEVICE => ProbeError::NoDevice,
            _ => ProbeError::DriverInit(describe(e)),
        });
    }
    let mut driver_version = 0;
    // SAFETY: the driver library is loaded and initialised; the out-pointer is valid.
    unsafe { sys::cuDriverGetVersion(&mut driver_version) }
        .result()
        .map_err(|e| ProbeError::DriverInit(describe(e)))?;
    if driver_version < MIN_DRIVER {
        return Err(ProbeError::DriverTooOld(driver_version));
    }
    let count = result::device::get_count().map_err(|e| ProbeError::DriverInit(describe(e)))?;
    if count <= 0 {
        return Err(ProbeError::NoDevice);
    }
    let mut devices = Vec::new();
    for ordinal in 0..count {
        devices.push(device_info(ordinal).map_err(ProbeError::DriverInit)?);
    }
    cudarc::driver::CudaContext::new(0).map_err(|e| ProbeError::Context(describe(e)))?;
    Ok(Probe {
        devices,
        driver_version,
        // SAFETY: the driver is present; culib only returns its handle.
        driver_path: symbol_file(unsafe { sys::culib() }, "cuInit"),
        // each optional: a broken copy is reported as missing, never as "no GPU"
        nvrtc: std::panic::catch_unwind(nvrtc).ok().flatten(),
        cublas: std::panic::catch_unwind(cublas).ok().flatten(),
    })
}

/// NVRTC, from the library path or a Python environment or CUDA_HOME.
fn nvrtc() -> Option<Loaded> {
    use cudarc::nvrtc::sys;
    // SAFETY: only dlopen.
    let found = unsafe { sys::is_culib_present() };
    let preloaded = if found { None } else { Some(preload("nvrtc")?) };
    let (mut major, mut minor) = (0, 0);
    // SAFETY: NVRTC is present (checked above); the out-pointers are valid.
    unsafe { sys::nvrtcVersion(&mut major, &mut minor) };
    Some(Loaded {
        version: (major, minor),
        // SAFETY: NVRTC is present; culib only returns its handle.
        path: preloaded.unwrap_or_else(|| symbol_file(unsafe { sys::culib() }, "nvrtcVersion")),
    })
}

/// cuBLAS, found as NVRTC is.
fn cublas() -> Option<Loaded> {
    use cudarc::cublas::sys;
    // SAFETY: only dlopen.
    let found = unsafe { sys::is_culib_present() };
    let preloaded = if found {
        None
    } else {
        Some(preload("cublas")?)
    };
    let mut v = [0; 2];
    for (i, t) in [
        sys::libraryPropertyType::MAJOR_VERSION,
        sys::libraryPropertyType::MINOR_VERSION,
    ]
    .into_iter()
    .enumerate()
    {
        // SAFETY: cuBLAS is present; the out-pointer is valid.
        unsafe { sys::cublasGetProperty(t, &mut v[i]) };
    }
    Some(Loaded {
        version: (v[0], v[1]),
        // SAFETY: cuBLAS is present; culib only returns its handle.
        path: preloaded.unwrap_or_else(|| symbol_file(unsafe { sys::culib() }, "cublasCreate_v2")),
    })
}

/// The file a library handle's `symbol` comes from (the path it was opened under).
fn symbol_file(lib: &libloading::Library, symbol: &str) -> String {
    // SAFETY: the symbol is only looked up and its address passed to dladdr, never called.
    unsafe {
        let Ok(f) = lib.get::<*const std::ffi::c_void>(symbol.as_bytes()) else {
            return String::new();
        };
        let mut info: libc::Dl_info = std::mem::zeroed();
        if libc::dladdr(*f, &mut info) == 0 || info.dli_fname.is_null() {
            return String::new();
        }
        std::ffi::CStr::from_ptr(info.dli_fname)
            .to_string_lossy()
            .into_owned()
    }
}

/// Where NVRTC and cuBLAS may be besides the library path: `CUDA_HOME`/`CUDA_PATH`, and the
/// `nvidia-*` pip wheels (CUDA 13's `nvidia/cu13/lib`, CUDA 12's `nvidia/cuda_nvrtc/lib` and
/// `nvidia/cublas/lib`, and NCCL's `nvidia/nccl/lib`) under the site-packages of the active virtual or conda environment, or
/// else of `python3`.
pub fn library_dirs() -> Vec<std::path::PathBuf> {
    use std::path::PathBuf;
    let mut dirs = Vec::new();
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(h) = std::env::var_os(var) {
            dirs.push(PathBuf::from(&h).join("lib64"));
            dirs.push(PathBuf::from(&h).join("lib"));
        }
    }
    let mut sites: Vec<PathBuf> = Vec::new();
    for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
        let Some(env) = std::env::var_os(var) else {
            continue;
        };
        let lib = PathBuf::from(env).join("lib");
        if let Ok(entries) = std::fs::read_dir(&lib) {
            for e in entries.flatten() {
                if e.file_name().to_string_lossy().starts_with("python3") {
                    sites.push(e.path().join("site-packages"));
                }
            }
        }
    }
    if sites.is_empty() {
        sites = python_site_packages();
    }
    for site in sites {
        for sub in [
            "nvidia/cu13/lib",
            "nvidia/cuda_nvrtc/lib",
            "nvidia/cublas/lib",
            // NCCL's wheels (nvidia-nccl-cu12/cu13), for `dist/nccl.rs`
            "nvidia/nccl/lib",
        ] {
            dirs.push(site.join(sub));
        }
    }
    dirs
}

/// `python3`'s site-packages directories (empty without python3).
fn python_site_packages() -> Vec<std::path::PathBuf> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import site; print('\\n'.join(site.getsitepackages() + [site.getusersitepackages()]))",
        ])
        .stderr(std::process::Stdio::null())
        .output();
    match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(std::path::PathBuf::from)
            .collect(),
        _ => Vec::new(),
    }
}

/// Load `lib<name>.so.13` / `.so.12` / `.so` from the first of `library_dirs` that has it, and
/// keep it loaded: cudarc's own later `dlopen("lib<name>.so.13")` then finds it by its soname.
/// The file loaded, if any.
fn preload(name: &str) -> Option<String> {
    for dir in library_dirs() {
        for file in [
            format!("lib{name}.so.13"),
            format!("lib{name}.so.12"),
            format!("lib{name}.so"),
        ] {
            let path = dir.join(&file);
            if !path.exists() {
                continue;
            }
            // SAFETY: loading a CUDA library runs only its own initialisers.
            let lib = unsafe {
                libloading::os::unix::Library::open(
                    Some(&path),
                    libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_GLOBAL,
                )
            };
            if let Ok(lib) = lib {
                // kept for the life of the process, as cudarc keeps its own handles
                std::mem::forget(lib);
                return Some(path.display().to_string());
            }
        }
    }
    None
}

fn device_info(ordinal: i32) -> Result<DeviceInfo, String> {
    use cudarc::driver::{result::device, sys::CUdevice_attribute as A};
    let dev = device::get(ordinal).map_err(describe)?;
    // SAFETY: `dev` is a valid device handle from the initialised driver.
    let attr = |a: A| unsafe { device::get_attribute(dev, a) }.unwrap_or(0);
    let uuid = device::get_uuid(dev)
        .map(|u| {
            let b: Vec<u8> = u.bytes.iter().map(|&c| c as u8).collect();
            format!(
                "{}-{}-{}-{}-{}",
                hex(&b[0..4]),
                hex(&b[4..6]),
                hex(&b[6..8]),
                hex(&b[8..10]),
                hex(&b[10..16])
            )
        })
        .unwrap_or_default();
    Ok(DeviceInfo {
        name: device::get_name(dev).map_err(describe)?,
        major: attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) as u32,
        minor: attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR) as u32,
        // SAFETY: as above.
        total_memory: unsafe { device::total_mem(dev) }.unwrap_or(0) as u64,
        multi_processor_count: attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) as u32,
        uuid,
        pci_bus_id: attr(A::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID) as u32,
        pci_device_id: attr(A::CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID) as u32,
        pci_domain_id: attr(A::CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID) as u32,
        l2_cache_size: attr(A::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE) as u64,
    })
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
