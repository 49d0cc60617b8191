//! NCCL on a real GPU: found at run time, like cuBLAS and NVRTC (`backend/cuda/probe.rs`).
//!
//! Only the library's presence and version are checked. The collectives of an "nccl" group
//! on a real card move the CUDA tensors through host memory over the TCP ring (what Gloo
//! does with CUDA tensors): results are right, the speed is not NCCL's. Driving NCCL itself
//! (cudarc's `nccl` feature, a communicator per rank from a unique id sent through the
//! rendezvous) is not done, and says so in a warning.
use super::DistError;
use std::sync::OnceLock;

/// Said once, on rank 0, when an "nccl" group starts on a real GPU.
pub const STAGED_WARNING: &str = "libnccl was found, but cudalearn does not drive NCCL itself yet: this 'nccl' group moves CUDA tensors through host memory over cudalearn's TCP transport (right results, not NCCL's speed).";

const NAMES: &[&str] = &["libnccl.so.2", "libnccl.so"];

/// NCCL's version (e.g. 22703 for 2.27.3), or why it cannot be loaded.
pub fn probe() -> Result<i32, DistError> {
    static FOUND: OnceLock<Result<i32, DistError>> = OnceLock::new();
    FOUND.get_or_init(load).clone()
}

fn load() -> Result<i32, DistError> {
    let mut why = String::new();
    for name in NAMES {
        // SAFETY: loading NCCL runs its initialisers, which only set up its own state.
        match unsafe { libloading::Library::new(*name) } {
            Ok(lib) => {
                // SAFETY: ncclGetVersion(int*) is NCCL's stable C signature since 2.0.
                let version = unsafe {
                    lib.get::<unsafe extern "C" fn(*mut i32) -> i32>(b"ncclGetVersion\0")
                        .ok()
                        .and_then(|f| {
                            let mut v = 0;
                            (f(&mut v) == 0).then_some(v)
                        })
                };
                return version.ok_or_else(|| {
                    DistError::runtime(format!(
                        "{name} has no working ncclGetVersion: not an NCCL library"
                    ))
                });
            }
            Err(e) => {
                if why.is_empty() {
                    why = e.to_string();
                }
            }
        }
    }
    Err(DistError::runtime(format!(
        "ProcessGroupNCCL: the NCCL library (libnccl.so.2) could not be loaded: {why}"
    ))
    .hint("install NCCL (e.g. `pip install nvidia-nccl-cu12` and add its lib folder to LD_LIBRARY_PATH), or use init_process_group('gloo')"))
}

#[cfg(test)]
mod tests {
    /// Wherever these tests run: NCCL's version, or an error that names the library and says
    /// what to do.
    #[test]
    fn the_probe_answers_with_a_version_or_a_clear_error() {
        match super::load() {
            Ok(v) => assert!(v > 0),
            Err(e) => {
                assert!(e.msg.contains("libnccl.so.2"), "{}", e.msg);
                assert!(e
                    .hint
                    .unwrap_or_default()
                    .contains("init_process_group('gloo')"));
            }
        }
    }
}
