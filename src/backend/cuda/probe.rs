//! `probe()`: the only door to cudarc. cudarc loads the CUDA libraries lazily and *panics* when
//! one is missing, so nothing calls it before `is_culib_present()` has said yes for the driver,
//! NVRTC and cuBLAS. Then the driver is initialised, the devices counted and a context created
//! on GPU 0. The answer is computed once and cached; `cudalearn info` prints it, or why not.
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

/// A usable CUDA installation.
#[derive(Clone, Debug)]
pub struct Probe {
    pub devices: Vec<DeviceInfo>,
    /// `cuDriverGetVersion`, e.g. 13000 for CUDA 13.0.
    pub driver_version: i32,
    /// NVRTC's `(major, minor)`.
    pub nvrtc_version: (i32, i32),
    /// Whether cuBLAS could be loaded (matmul falls back to a tiled kernel without it).
    pub cublas: bool,
    /// Where the driver, NVRTC and cuBLAS were loaded from (from /proc/self/maps).
    pub libraries: Vec<String>,
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
    /// NVRTC (the run-time CUDA compiler) is missing: kernels cannot be built.
    NoNvrtc,
    /// Creating a context on GPU 0 failed.
    Context(String),
}

/// The oldest driver cudalearn uses (CUDA 12.0); 12.8+ is needed for event timing.
pub const MIN_DRIVER: i32 = 12000;

impl ProbeError {
    /// One line for `cudalearn info` and `torch.cuda.is_available()`'s hint.
    pub fn reason(&self) -> String {
        match self {
            ProbeError::NoDriver => "no NVIDIA driver: the CUDA driver library (libcuda.so) was not found".into(),
            ProbeError::DriverInit(e) => format!("the NVIDIA driver did not initialise: {e}"),
            ProbeError::NoDevice => "the NVIDIA driver sees no GPU".into(),
            ProbeError::DriverTooOld(v) => format!(
                "the NVIDIA driver supports CUDA {}, older than the CUDA {} cudalearn needs",
                version(*v),
                version(MIN_DRIVER)
            ),
            ProbeError::NoNvrtc => "NVRTC (libnvrtc.so, the CUDA run-time compiler) was not found, so kernels cannot be built".into(),
            ProbeError::Context(e) => format!("creating a CUDA context on GPU 0 failed: {e}"),
        }
    }

    /// What the learner can do.
    pub fn fix(&self) -> &'static str {
        match self {
            ProbeError::NoDriver | ProbeError::NoDevice | ProbeError::DriverInit(_) => "on a machine with an NVIDIA GPU, install the NVIDIA driver (nvidia-smi should list the GPU). Without one, `cudalearn repl --sim-gpu` gives a simulated GPU.",
            ProbeError::DriverTooOld(_) => "update the NVIDIA driver to a CUDA 12.8 or newer release.",
            ProbeError::NoNvrtc => "install NVRTC from the CUDA toolkit (e.g. `pip install nvidia-cuda-nvrtc` or the distribution's cuda-nvrtc package) and make sure its directory is in LD_LIBRARY_PATH.",
            ProbeError::Context(_) => "check that no other process holds the GPU in exclusive mode and that nvidia-smi works.",
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
        nvrtc_version: (0, 0),
        cublas: false,
        libraries: Vec::new(),
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
            std::panic::catch_unwind(run).unwrap_or(Err(ProbeError::NoDriver))
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
            _ => ProbeError::DriverInit(format!("{e:?}")),
        });
    }
    let mut driver_version = 0;
    // SAFETY: the driver library is loaded and initialised; the out-pointer is valid.
    unsafe { sys::cuDriverGetVersion(&mut driver_version) }
        .result()
        .map_err(|e| ProbeError::DriverInit(format!("{e:?}")))?;
    if driver_version < MIN_DRIVER {
        return Err(ProbeError::DriverTooOld(driver_version));
    }
    let count =
        result::device::get_count().map_err(|e| ProbeError::DriverInit(format!("{e:?}")))?;
    if count <= 0 {
        return Err(ProbeError::NoDevice);
    }
    // SAFETY: as above, only dlopen.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return Err(ProbeError::NoNvrtc);
    }
    let (mut major, mut minor) = (0, 0);
    // SAFETY: NVRTC is present (checked above); the out-pointers are valid.
    unsafe { cudarc::nvrtc::sys::nvrtcVersion(&mut major, &mut minor) };
    // SAFETY: only dlopen.
    let cublas = unsafe { cudarc::cublas::sys::is_culib_present() };
    let mut devices = Vec::new();
    for ordinal in 0..count {
        devices.push(device_info(ordinal).map_err(ProbeError::DriverInit)?);
    }
    cudarc::driver::CudaContext::new(0).map_err(|e| ProbeError::Context(format!("{e:?}")))?;
    Ok(Probe {
        devices,
        driver_version,
        nvrtc_version: (major, minor),
        cublas,
        libraries: loaded_libraries(),
    })
}

fn device_info(ordinal: i32) -> Result<DeviceInfo, String> {
    use cudarc::driver::{result::device, sys::CUdevice_attribute as A};
    let dev = device::get(ordinal).map_err(|e| format!("{e:?}"))?;
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
        name: device::get_name(dev).map_err(|e| format!("{e:?}"))?,
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

/// The CUDA libraries mapped into this process, with their paths.
fn loaded_libraries() -> Vec<String> {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    let mut out: Vec<String> = Vec::new();
    for line in maps.lines() {
        if let Some(path) = line.split_whitespace().nth(5) {
            let file = path.rsplit('/').next().unwrap_or(path);
            let wanted = [
                "libcuda.so",
                "libnvrtc.so",
                "libcublas.so",
                "libcublasLt.so",
            ];
            if wanted.iter().any(|w| file.starts_with(w)) && !out.iter().any(|p| p == path) {
                out.push(path.to_string());
            }
        }
    }
    out
}
