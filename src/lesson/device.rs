//! Which device a lesson runs on. The only place the lesson runner touches the backends
//! (`crate::backend::{cuda, gpu, sim}`).
use super::check::DeviceKind;
use super::parse::Meta;

/// Real CUDA GPUs found (the probe runs once and never panics).
pub fn gpus_present() -> u32 {
    crate::backend::cuda::probe().map_or(0, |p| p.devices.len() as u32)
}

/// Makes `kind` the device for this process's lessons, with `gpus` GPUs for the simulated one.
pub fn activate(kind: DeviceKind, gpus: u32) -> Result<(), String> {
    use crate::backend::{cuda, gpu, sim};
    match kind {
        DeviceKind::Cpu => {
            sim::disable();
            gpu::hide_gpus(true);
        }
        DeviceKind::Sim => {
            gpu::hide_gpus(false);
            // keep a capacity chosen with --sim-gpu-memory
            let capacity = sim::lock().as_ref().map(|s| s.capacity);
            sim::enable(gpus, capacity);
        }
        DeviceKind::Cuda => {
            let found = cuda::probe().map_err(|e| format!("{} ({})", e.reason(), e.fix()))?;
            if (found.devices.len() as u32) < gpus {
                return Err(format!(
                    "this lesson needs {gpus} GPUs and {} were found",
                    found.devices.len()
                ));
            }
            gpu::hide_gpus(false);
            sim::disable();
        }
    }
    Ok(())
}

/// The device to use: the one asked for, else a real GPU when the lesson needs one and there
/// are enough, else the simulated GPU for a lesson that needs one (said in `note`), else cpu.
pub fn choose(asked: Option<DeviceKind>, meta: &Meta) -> (DeviceKind, Option<String>) {
    if let Some(k) = asked {
        return (k, None);
    }
    let need = meta.gpus_needed();
    if need == 0 {
        return (DeviceKind::Cpu, None);
    }
    if gpus_present() >= need {
        return (DeviceKind::Cuda, None);
    }
    let what = if need > 1 {
        format!("{need} GPUs")
    } else {
        "a CUDA GPU".to_string()
    };
    let found = match gpus_present() {
        0 => "none was found".to_string(),
        n => format!("only {n} found"),
    };
    (
        DeviceKind::Sim,
        Some(format!(
            "This lesson uses {what} and {found}, so it runs on cudalearn's simulated GPU: \
             devices, transfers and memory behave as on a real card, the arithmetic runs on \
             your CPU. (--device cpu shows the CPU path instead.)"
        )),
    )
}

/// Chooses and activates; a simulated GPU that was only offered (not asked for) and cannot
/// be had falls back to the CPU, saying so.
pub fn setup(
    asked: Option<DeviceKind>,
    meta: &Meta,
) -> Result<(DeviceKind, Option<String>), String> {
    let (kind, note) = choose(asked, meta);
    match activate(kind, meta.gpus_needed().max(1)) {
        Ok(()) => Ok((kind, note)),
        Err(why) if asked.is_none() => {
            activate(DeviceKind::Cpu, 0)?;
            Ok((
                DeviceKind::Cpu,
                Some(format!(
                    "This lesson uses a GPU; none was found and {why}, so it runs on the CPU \
                     (the lesson shows what happens there)."
                )),
            ))
        }
        Err(why) => Err(format!("--device {}: {why}", kind.name())),
    }
}
