//! `kernels/*.cu` loaded on one card (module, default stream, function cache), the
//! `Layout` struct the kernels take, and the raw launch the typed launchers of
//! `launchers.rs` wrap.
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub const MAX_DIMS: usize = 8;

/// `struct Layout` of `kernels/common.cuh`: an operand's shape and element strides over the
/// output's (broadcast) shape, and its storage offset.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Layout {
    pub ndim: i32,
    pub offset: i64,
    pub shape: [i64; MAX_DIMS],
    pub strides: [i64; MAX_DIMS],
}

impl Layout {
    /// A layout of `shape` with `strides` (broadcast dims have stride 0); `None` past 8 dims.
    pub fn new(shape: &[usize], strides: &[usize], offset: usize) -> Option<Layout> {
        if shape.len() > MAX_DIMS || strides.len() != shape.len() {
            return None;
        }
        let mut l = Layout {
            ndim: shape.len() as i32,
            offset: offset as i64,
            ..Default::default()
        };
        for (d, (&n, &s)) in shape.iter().zip(strides).enumerate() {
            l.shape[d] = n as i64;
            l.strides[d] = s as i64;
        }
        Some(l)
    }

    /// Row-major over `shape`.
    pub fn contiguous(shape: &[usize]) -> Option<Layout> {
        Self::new(shape, &crate::core::shape::contiguous_strides(shape), 0)
    }
}

/// The layouts of `N` operands over one iteration `shape`, each `(strides, offset)`, with every
/// dim merged that all operands allow (so a dense elementwise op becomes one flat loop).
pub fn layouts<const N: usize>(
    shape: &[usize],
    ops: [(&[usize], usize); N],
) -> Option<[Layout; N]> {
    let (merged, strides) = crate::backend::cpu::iter::coalesce(shape, ops.map(|o| o.0));
    let mut out = [Layout::default(); N];
    for i in 0..N {
        out[i] = Layout::new(&merged, &strides[i], ops[i].1)?;
    }
    Some(out)
}

/// Threads per block of every kernel (the reductions' shared buffers have this size).
pub const BLOCK: u32 = 256;

/// A grid-stride launch over `n` items.
pub fn grid(n: usize) -> cudarc::driver::LaunchConfig {
    cudarc::driver::LaunchConfig {
        grid_dim: (n.div_ceil(BLOCK as usize).clamp(1, 1 << 20) as u32, 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// `UNROLL` of `kernels/common.cuh`: elements a thread takes per tile in `DENSE_LOOP`.
const UNROLL: usize = 4;

/// The launch of a kernel with a `DENSE_LOOP` path over `n` elements: 1/UNROLL of `grid(n)`'s
/// blocks when every operand is one dense run (the kernel then takes UNROLL elements a thread),
/// else `grid(n)`. Either grid covers every element (the loops stride over the grid).
pub fn elementwise_grid(n: usize, operands: &[&Layout]) -> cudarc::driver::LaunchConfig {
    let dense = operands.iter().all(|l| l.ndim == 1 && l.strides[0] == 1);
    grid(if dense { n.div_ceil(UNROLL) } else { n })
}

/// cudalearn's kernels loaded on one card: the module, the default stream, and the functions
/// looked up so far.
pub struct Kernels {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    module: Arc<CudaModule>,
    functions: Mutex<HashMap<String, CudaFunction>>,
}

impl Kernels {
    /// Compile (or read from the disk cache) and load the kernels on device `i`, whose context
    /// is `ctx`. A cached image the driver refuses is deleted and compiled afresh, once.
    pub fn load(i: u32, ctx: &Arc<CudaContext>) -> Result<Kernels, String> {
        let p = super::probe().map_err(|e| e.reason())?;
        let nvrtc = p.nvrtc.as_ref().ok_or(
            "NVRTC (the CUDA run-time compiler, libnvrtc) was not found, so cudalearn's own kernels cannot be built",
        )?;
        let info = p
            .devices
            .get(i as usize)
            .ok_or_else(|| format!("no CUDA device {i}"))?;
        let archs = super::kernels::supported_archs();
        let t = super::kernels::target(
            (info.major, info.minor),
            &archs,
            nvrtc.version,
            p.driver_version,
        )?;
        let load = |fresh: bool| -> Result<Arc<CudaModule>, String> {
            let image = super::kernels::image(t, nvrtc.version, fresh)?;
            let ptx = match t.cubin {
                true => cudarc::nvrtc::Ptx::from_binary(image),
                false => {
                    let text = image.split(|&b| b == 0).next().unwrap_or_default();
                    cudarc::nvrtc::Ptx::from_src(String::from_utf8_lossy(text).into_owned())
                }
            };
            ctx.load_module(ptx).map_err(|e| {
                format!(
                    "the driver refused cudalearn's kernels ({}): {}",
                    t.option().trim_start_matches("--gpu-architecture="),
                    super::driver::describe(e)
                )
            })
        };
        let module = load(false).or_else(|_| load(true))?;
        Ok(Kernels {
            ctx: ctx.clone(),
            stream: ctx.default_stream(),
            module,
            functions: Mutex::new(HashMap::new()),
        })
    }

    /// Launch `name` with CUDA's argument convention (pointers to each argument, in order).
    /// The card's context is made current first: a kernel belongs to the context that loaded it.
    ///
    /// # Safety
    /// As for `cuLaunchKernel`: `params` must match the kernel's parameters, and the kernel must
    /// only touch memory inside the blocks its pointers address.
    pub(super) unsafe fn launch(
        &self,
        name: &str,
        cfg: cudarc::driver::LaunchConfig,
        params: &mut [*mut std::ffi::c_void],
    ) -> Result<(), String> {
        self.ctx.bind_to_thread().map_err(super::driver::describe)?;
        let f = {
            let mut g = self.functions.lock().unwrap_or_else(|e| e.into_inner());
            match g.get(name) {
                Some(f) => f.clone(),
                None => {
                    let f = self.module.load_function(name).map_err(|e| {
                        format!(
                            "cudalearn internal error: kernel {name}: {}",
                            super::driver::describe(e)
                        )
                    })?;
                    g.insert(name.to_string(), f.clone());
                    f
                }
            }
        };
        cudarc::driver::result::launch_kernel(
            f.cu_function(),
            cfg.grid_dim,
            cfg.block_dim,
            cfg.shared_mem_bytes,
            self.stream.cu_stream(),
            params,
        )
        .map_err(|e| {
            format!(
                "CUDA error in kernel {name}: {}",
                super::driver::describe(e)
            )
        })
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_operands_merge_into_one_dim() {
        let [a, o] = layouts(&[2, 3, 4], [(&[12, 4, 1], 5), (&[12, 4, 1], 0)]).unwrap();
        assert_eq!((a.ndim, a.shape[0], a.strides[0], a.offset), (1, 24, 1, 5));
        assert_eq!(o.ndim, 1);
        // a broadcast row keeps two dims; a transposed operand keeps its strides
        let [r, t] = layouts(&[3, 4], [(&[0, 1], 0), (&[1, 3], 0)]).unwrap();
        assert_eq!((r.ndim, r.strides[0], r.strides[1]), (2, 0, 1));
        assert_eq!((t.strides[0], t.strides[1]), (1, 3));
        // a single element has no dims left
        let [s] = layouts(&[1, 1], [(&[1, 1], 7)]).unwrap();
        assert_eq!((s.ndim, s.offset), (0, 7));
        assert!(Layout::new(&[1; 9], &[1; 9], 0).is_none());
    }

    #[test]
    fn grids_cover_the_work() {
        assert_eq!(grid(0).grid_dim.0, 1);
        assert_eq!(grid(257).grid_dim.0, 2);
        assert_eq!(grid(usize::MAX / 2).grid_dim.0, 1 << 20);
    }
}
