//! Loading `kernels/*.cu` on a device and launching them on host data (upload, run, download).
//! The parity suite (`tests/cuda_parity.rs`) drives the kernels through this against the CPU
//! backend; the tensor backend is to use the same module and launch shapes.
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaStream, DeviceRepr, LaunchConfig, PushKernelArg,
    ValidAsZeroBits,
};
use std::sync::{Arc, Mutex};

pub const MAX_DIMS: usize = 8;

/// `struct Layout` of `kernels/common.cuh`: an operand's shape and element strides over the
/// output's (broadcast) shape, and its storage offset.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Layout {
    pub ndim: i32,
    pub offset: i64,
    pub shape: [i64; MAX_DIMS],
    pub strides: [i64; MAX_DIMS],
}

// SAFETY: a plain repr(C) struct of integers, laid out as the CUDA struct.
unsafe impl DeviceRepr for Layout {}

impl Layout {
    /// A layout of `shape` with `strides` (broadcast dims have stride 0). More than 8 dims is
    /// refused (the engine's tensors stay below that in the course).
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
        Self::new(shape, &crate::tensor::shape::contiguous_strides(shape), 0)
    }
}

/// cudalearn's kernels loaded on one device.
pub struct Loaded {
    pub ctx: Arc<CudaContext>,
    pub stream: Arc<CudaStream>,
    pub module: Arc<CudaModule>,
}

static LOADED: Mutex<Vec<(u32, Arc<Loaded>)>> = Mutex::new(Vec::new());

/// The kernels on device `i`, compiled (or read from the disk cache) on first use.
pub fn loaded(i: u32) -> Result<Arc<Loaded>, String> {
    let mut g = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, l)) = g.iter().find(|(d, _)| *d == i) {
        return Ok(l.clone());
    }
    let p = super::probe().map_err(|e| e.reason())?;
    let info = p
        .devices
        .get(i as usize)
        .ok_or_else(|| format!("no CUDA device {i}"))?;
    let ptx = super::kernels::ptx(info.major, info.minor)?;
    let ctx = CudaContext::new(i as usize).map_err(|e| format!("{e:?}"))?;
    let module = ctx
        .load_module(cudarc::nvrtc::Ptx::from_src(ptx))
        .map_err(|e| format!("loading the kernels failed: {e:?}"))?;
    let stream = ctx.default_stream();
    let l = Arc::new(Loaded {
        ctx,
        stream,
        module,
    });
    g.push((i, l.clone()));
    Ok(l)
}

impl Loaded {
    pub fn function(&self, name: &str) -> Result<CudaFunction, String> {
        self.module
            .load_function(name)
            .map_err(|e| format!("kernel {name}: {e:?}"))
    }

    /// `binary_<sfx>` / `compare_<sfx>`: `out[i] = op(a[la(i)], b[lb(i)])` for `n` elements.
    pub fn binary<T, O>(
        &self,
        kernel: &str,
        op: i32,
        n: usize,
        (a, la): (&[T], Layout),
        (b, lb): (&[T], Layout),
    ) -> Result<Vec<O>, String>
    where
        T: DeviceRepr,
        O: DeviceRepr + ValidAsZeroBits + Clone + Default,
    {
        let f = self.function(kernel)?;
        let s = &self.stream;
        let e = |e: cudarc::driver::DriverError| format!("{e:?}");
        let da = s.clone_htod(a).map_err(e)?;
        let db = s.clone_htod(b).map_err(e)?;
        let mut out = s.alloc_zeros::<O>(n.max(1)).map_err(e)?;
        let n64 = n as i64;
        let mut l = s.launch_builder(&f);
        l.arg(&op)
            .arg(&n64)
            .arg(&da)
            .arg(&la)
            .arg(&db)
            .arg(&lb)
            .arg(&mut out);
        // SAFETY: the argument list matches the kernel's signature in elementwise.cu, and every
        // index the kernel forms stays inside the buffers (layouts come from valid tensors).
        unsafe { l.launch(LaunchConfig::for_num_elems(n.max(1) as u32)) }.map_err(e)?;
        let mut v = s.clone_dtoh(&out).map_err(e)?;
        v.truncate(n);
        Ok(v)
    }

    /// `unary_<sfx>`: `out[i] = op(a[la(i)])`.
    pub fn unary<T>(
        &self,
        kernel: &str,
        op: i32,
        n: usize,
        a: &[T],
        la: Layout,
    ) -> Result<Vec<T>, String>
    where
        T: DeviceRepr + ValidAsZeroBits + Clone + Default,
    {
        let f = self.function(kernel)?;
        let s = &self.stream;
        let e = |e: cudarc::driver::DriverError| format!("{e:?}");
        let da = s.clone_htod(a).map_err(e)?;
        let mut out = s.alloc_zeros::<T>(n.max(1)).map_err(e)?;
        let n64 = n as i64;
        let mut l = s.launch_builder(&f);
        l.arg(&op).arg(&n64).arg(&da).arg(&la).arg(&mut out);
        // SAFETY: as in `binary`.
        unsafe { l.launch(LaunchConfig::for_num_elems(n.max(1) as u32)) }.map_err(e)?;
        let mut v = s.clone_dtoh(&out).map_err(e)?;
        v.truncate(n);
        Ok(v)
    }

    /// `sum_rows_<sfx>` / `max_rows_<sfx>` / `softmax_<sfx>` over a contiguous [rows, cols].
    pub fn rows<T>(
        &self,
        kernel: &str,
        rows: usize,
        cols: usize,
        x: &[T],
        out_len: usize,
        log: Option<i32>,
    ) -> Result<Vec<T>, String>
    where
        T: DeviceRepr + ValidAsZeroBits + Clone + Default,
    {
        let f = self.function(kernel)?;
        let s = &self.stream;
        let e = |e: cudarc::driver::DriverError| format!("{e:?}");
        let dx = s.clone_htod(x).map_err(e)?;
        let mut out = s.alloc_zeros::<T>(out_len.max(1)).map_err(e)?;
        let (r, c) = (rows as i64, cols as i64);
        let mut l = s.launch_builder(&f);
        l.arg(&r).arg(&c).arg(&dx).arg(&mut out);
        if let Some(flag) = log.as_ref() {
            l.arg(flag);
        }
        let cfg = LaunchConfig {
            grid_dim: (rows.clamp(1, 65535) as u32, 1, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: as in `binary`; blocks are 256 threads, the size of the shared buffers.
        unsafe { l.launch(cfg) }.map_err(e)?;
        let mut v = s.clone_dtoh(&out).map_err(e)?;
        v.truncate(out_len);
        Ok(v)
    }
}
