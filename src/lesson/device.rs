//! Which device a lesson runs on. The only place the lesson runner touches the backends:
//! the lead wires `activate` and `gpus_present` to the CUDA backend and the simulated GPU
//! (`crate::backend::sim::enable(gpus, capacity)`) when those branches are merged.
use super::check::DeviceKind;
use super::parse::Meta;

/// Real CUDA GPUs found. Until the CUDA backend is merged there are none.
pub fn gpus_present() -> u32 {
    0
}

/// Makes `kind` the device for this process's lessons, with `gpus` GPUs for the simulated one.
/// Until the CUDA backend and the simulated GPU are merged, both say they are not available.
pub fn activate(kind: DeviceKind, gpus: u32) -> Result<(), String> {
    let _ = gpus;
    match kind {
        DeviceKind::Cpu => Ok(()),
        DeviceKind::Sim => Err("the simulated GPU is not available yet in this build".into()),
        DeviceKind::Cuda => Err("the CUDA backend is not available yet in this build".into()),
    }
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
