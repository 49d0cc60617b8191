//! The one place simulated-GPU ops are costed (and, while a profiler listens, CPU and CUDA ops
//! timed): a `Backend` that runs the real kernels and then tells the model what each op was —
//! its name, device, FLOPs and bytes, estimated from shapes and dtypes.
use super::cpu::CPU;
use super::sim_model::{self, Step, Work};
use super::storage::{Buffer, Storage};
use super::{profile_log, Backend, NormGrads, Normed, Owned, View};
use crate::core::window::Columns;
use crate::core::{BinaryOp, DType, Device, ReduceOp, Result, Scalar, UnaryOp};
use std::cell::Cell;
use std::time::Instant;

#[derive(PartialEq)]
enum Mode {
    /// The simulated GPU: CPU kernels, modelled times.
    Sim,
    /// The CPU under a profiler: measured host times.
    Cpu,
    /// A real card under a profiler: each op is followed by a synchronisation, so its measured
    /// time is the device's (the profiler's cost: the queue never runs ahead).
    Cuda,
}

pub struct Timed {
    mode: Mode,
    inner: &'static (dyn Backend + Sync),
}

pub static SIM: Timed = Timed {
    mode: Mode::Sim,
    inner: &CPU,
};
pub static CPU_PROFILED: Timed = Timed {
    mode: Mode::Cpu,
    inner: &CPU,
};
pub static CUDA_PROFILED: Timed = Timed {
    mode: Mode::Cuda,
    inner: &super::cuda::backend::CUDA,
};

thread_local! {
    /// Set by `to_device` for the upload that follows: the source is pinned host memory.
    static PINNED_SOURCE: Cell<bool> = const { Cell::new(false) };
    /// Set by `.to(..., non_blocking=True)`: a copy from pinned memory need not make the host wait.
    static NON_BLOCKING: Cell<bool> = const { Cell::new(false) };
    /// Inside an op being costed: the CPU kernels may call tensor ops of their own (a float16
    /// matmul computes through float32), which are part of that op, not ops of the program.
    static IN_OP: Cell<bool> = const { Cell::new(false) };
}

/// Marks this thread as inside a costed op until dropped (also when a kernel panics).
struct OpGuard;

impl OpGuard {
    /// `None` when already inside one: then the work is part of that op.
    fn enter() -> Option<OpGuard> {
        // (`then`, not `then_some`: a guard made and dropped here would clear the flag)
        (!IN_OP.with(|c| c.replace(true))).then(|| OpGuard)
    }
}

impl Drop for OpGuard {
    fn drop(&mut self) {
        IN_OP.with(|c| c.set(false));
    }
}

/// The next host→device upload copies from pinned memory.
pub fn next_upload_pinned(pinned: bool) {
    PINNED_SOURCE.with(|p| p.set(pinned));
}

/// `.to(..., non_blocking=...)` around a move: uploads in between may run behind the host.
pub fn set_non_blocking(on: bool) {
    NON_BLOCKING.with(|p| p.set(on));
}

/// Puts kernels on the simulated GPU's clock for work done by a fused host op that stands in for
/// them (an optimizer step: PyTorch launches one kernel per op of `_single_tensor_adam`), each
/// `(name, flops, bytes)`. Nothing happens off the simulated GPU or inside another costed op.
pub fn sim_kernels(device: Device, dtype: DType, kernels: &[(&'static str, f64, f64)]) {
    let on_sim =
        matches!(device, Device::Cuda(_)) && super::gpu::kind() == super::gpu::GpuKind::Simulated;
    let Some(_guard) = OpGuard::enter().filter(|_| on_sim) else {
        return;
    };
    for &(name, flops, b) in kernels {
        sim_model::with(|t| t.kernel(&[name], device_index(device), stream(flops, b, dtype)));
    }
}

fn bytes(t: View) -> f64 {
    (t.numel() * t.dtype().size()) as f64
}

fn stream(flops: f64, bytes: f64, dtype: DType) -> Work {
    Work::Stream {
        flops,
        bytes,
        dtype,
    }
}

/// The work of `a @ b` for `a: [B, M, K]`, `b: [B, K, N]`.
fn matmul_work(a: &View, b: &View) -> Work {
    let (sa, sb) = (a.shape(), b.shape());
    Work::Matmul {
        batch: sa.first().copied().unwrap_or(1),
        m: sa.get(1).copied().unwrap_or(1),
        k: sa.get(2).copied().unwrap_or(1),
        n: sb.get(2).copied().unwrap_or(1),
        dtype: a.dtype(),
    }
}

fn device_index(d: Device) -> u32 {
    match d {
        Device::Cuda(i) => i,
        Device::Cpu => 0,
    }
}

impl Timed {
    /// A kernel only the CPU has (the GPUs compose the op of others, each timed and costed as
    /// itself, so `None` there): `f` timed as `name`, costed at `ops` operations per element
    /// of `x` and `reads` times `x`'s bytes of traffic.
    fn cpu_only<T>(
        &self,
        name: &'static str,
        x: View,
        (ops, reads): (f64, f64),
        f: impl FnOnce() -> Result<Option<T>>,
    ) -> Result<Option<T>> {
        if self.mode != Mode::Cpu {
            return Ok(None);
        }
        let (n, bx, dt) = (x.numel() as f64, bytes(x), x.dtype());
        self.kernel(&[name], x.device(), |_| stream(ops * n, reads * bx, dt), f)
    }

    /// A CPU kernel fusing an elementwise op's pieces over two float32 operands shaped like
    /// `x` and one output, costed at `ops` operations an element; `None` on the GPUs and for
    /// other dtypes (whose pieces are timed one by one).
    fn fused_f32(
        &self,
        name: &'static str,
        x: View,
        ops: f64,
        f: impl FnOnce() -> Result<Option<Owned>>,
    ) -> Result<Option<Owned>> {
        if x.dtype() != DType::F32 {
            return Ok(None);
        }
        self.cpu_only(name, x, (ops, 3.0), f)
    }

    /// Run `f` on the CPU kernels, then account for it as the kernel `name` doing `work`.
    fn kernel<T>(
        &self,
        name: &[&'static str],
        device: Device,
        work: impl FnOnce(&T) -> Work,
        f: impl FnOnce() -> Result<T>,
    ) -> Result<T> {
        let Some(_guard) = OpGuard::enter() else {
            return f();
        };
        let t0 = Instant::now();
        let out = f()?;
        if self.mode == Mode::Cuda {
            super::gpu::synchronize(device_index(device))?;
        }
        let real = t0.elapsed().as_secs_f64();
        let w = work(&out);
        match self.mode {
            Mode::Sim => {
                sim_model::with(|t| t.kernel(name, device_index(device), w));
                profile_log::add_real(real);
            }
            Mode::Cpu => {
                profile_log::push_measured(&name.concat(), None, Step::Kernel, w.bytes(), real)
            }
            Mode::Cuda => {
                let d = Some(device_index(device));
                profile_log::push_measured(&name.concat(), d, Step::Kernel, w.bytes(), real)
            }
        }
        Ok(out)
    }
}

impl Timed {
    /// Account for a host↔device copy that started at `t0`.
    fn copied(
        &self,
        device: Device,
        b: f64,
        to_device: bool,
        pinned: bool,
        asynchronous: bool,
        t0: Instant,
    ) -> Result<()> {
        let d = device_index(device);
        match self.mode {
            Mode::Sim => {
                sim_model::with(|t| t.copy(d, b, to_device, pinned, asynchronous));
                profile_log::add_real(t0.elapsed().as_secs_f64());
            }
            Mode::Cuda => {
                super::gpu::synchronize(d)?;
                let (name, step) = sim_model::copy_name(to_device, pinned);
                profile_log::push_measured(name, Some(d), step, b, t0.elapsed().as_secs_f64());
            }
            Mode::Cpu => {}
        }
        Ok(())
    }
}

impl Timed {
    /// A host→device copy of `b` bytes made by `f`, charged as pinned or pageable.
    fn uploaded(
        &self,
        b: f64,
        device: Device,
        f: impl FnOnce() -> Result<Storage>,
    ) -> Result<Storage> {
        let pinned = PINNED_SOURCE.with(|p| p.replace(false));
        let Some(_guard) = OpGuard::enter() else {
            return f();
        };
        let t0 = Instant::now();
        let out = f()?;
        if device != Device::Cpu {
            let asynchronous = pinned && NON_BLOCKING.with(|p| p.get());
            self.copied(device, b, true, pinned, asynchronous, t0)?;
        }
        Ok(out)
    }
}

impl Backend for Timed {
    fn zeros(&self, dtype: DType, numel: usize, device: Device) -> Result<Storage> {
        let b = (numel * dtype.size()) as f64;
        self.kernel(
            &["aten::zero_"],
            device,
            |_| stream(0.0, b, dtype),
            || self.inner.zeros(dtype, numel, device),
        )
    }
    fn upload(&self, buf: Buffer, device: Device) -> Result<Storage> {
        let b = (buf.len() * buf.dtype().size()) as f64;
        self.uploaded(b, device, || self.inner.upload(buf, device))
    }
    fn upload_from(&self, src: View, device: Device) -> Result<Storage> {
        self.uploaded(bytes(src), device, || self.inner.upload_from(src, device))
    }
    fn to_host(&self, t: View) -> Result<Buffer> {
        let Some(_guard) = OpGuard::enter() else {
            return self.inner.to_host(t);
        };
        let t0 = Instant::now();
        let out = self.inner.to_host(t)?;
        if t.device() != Device::Cpu {
            self.copied(t.device(), bytes(t), false, false, false, t0)?;
        }
        Ok(out)
    }
    fn copy(&self, dst: View, src: View) -> Result<()> {
        let w = stream(0.0, bytes(dst) + bytes(src), dst.dtype());
        self.kernel(
            &["aten::copy_"],
            dst.device(),
            |_| w,
            || self.inner.copy(dst, src),
        )
    }
    fn fill(&self, dst: View, v: Scalar) -> Result<()> {
        let w = stream(0.0, bytes(dst), dst.dtype());
        self.kernel(
            &["aten::fill_"],
            dst.device(),
            |_| w,
            || self.inner.fill(dst, v),
        )
    }
    fn cast(&self, src: View, dtype: DType) -> Result<Owned> {
        let w = stream(0.0, bytes(src) + (src.numel() * dtype.size()) as f64, dtype);
        self.kernel(
            &["aten::_to_copy"],
            src.device(),
            |_| w,
            || self.inner.cast(src, dtype),
        )
    }
    fn contiguous_copy(&self, src: View) -> Result<Owned> {
        let w = stream(0.0, 2.0 * bytes(src), src.dtype());
        self.kernel(
            &["aten::clone"],
            src.device(),
            |_| w,
            || self.inner.contiguous_copy(src),
        )
    }
    fn unary(&self, op: UnaryOp, x: View) -> Result<Owned> {
        let name = ["aten::", op.name()];
        let (n, dt, bx) = (x.numel() as f64, x.dtype(), bytes(x));
        self.kernel(
            &name,
            x.device(),
            |o: &Owned| stream(n, bx + bytes(o.view()), dt),
            || self.inner.unary(op, x),
        )
    }
    fn binary(&self, op: BinaryOp, a: View, b: View, shape: &[usize]) -> Result<Owned> {
        let name = ["aten::", op.name()];
        let (ab, dt) = (bytes(a) + bytes(b), a.dtype());
        self.kernel(
            &name,
            a.device(),
            |o: &Owned| stream(o.numel() as f64, ab + bytes(o.view()), dt),
            || self.inner.binary(op, a, b, shape),
        )
    }
    fn binary_scalar(&self, op: BinaryOp, a: View, s: Scalar, reversed: bool) -> Result<Owned> {
        let name = ["aten::", op.name()];
        let (ab, dt) = (bytes(a), a.dtype());
        self.kernel(
            &name,
            a.device(),
            |o: &Owned| stream(o.numel() as f64, ab + bytes(o.view()), dt),
            || self.inner.binary_scalar(op, a, s, reversed),
        )
    }
    fn binary_inplace(&self, op: BinaryOp, dst: View, src: View) -> Result<()> {
        let name = ["aten::", op.name(), "_"];
        let w = stream(
            dst.numel() as f64,
            2.0 * bytes(dst) + bytes(src),
            dst.dtype(),
        );
        self.kernel(
            &name,
            dst.device(),
            |_| w,
            || self.inner.binary_inplace(op, dst, src),
        )
    }
    fn binary_scalar_inplace(&self, op: BinaryOp, dst: View, s: Scalar) -> Result<()> {
        let name = ["aten::", op.name(), "_"];
        let w = stream(dst.numel() as f64, 2.0 * bytes(dst), dst.dtype());
        self.kernel(
            &name,
            dst.device(),
            |_| w,
            || self.inner.binary_scalar_inplace(op, dst, s),
        )
    }
    fn where_(&self, cond: View, a: View, b: View, shape: &[usize]) -> Result<Owned> {
        let ib = bytes(cond) + bytes(a) + bytes(b);
        let dt = a.dtype();
        self.kernel(
            &["aten::where"],
            a.device(),
            |o: &Owned| stream(o.numel() as f64, ib + bytes(o.view()), dt),
            || self.inner.where_(cond, a, b, shape),
        )
    }
    fn reduce(
        &self,
        op: ReduceOp,
        x: View,
        dims: &[usize],
        keepdim: bool,
        out: DType,
    ) -> Result<Owned> {
        let name = [
            "aten::",
            match op {
                ReduceOp::Sum => "sum",
                ReduceOp::Prod => "prod",
                ReduceOp::Max => "amax",
                ReduceOp::Min => "amin",
                ReduceOp::All => "all",
                ReduceOp::Any => "any",
            },
        ];
        let (n, bx, dt) = (x.numel() as f64, bytes(x), x.dtype());
        self.kernel(
            &name,
            x.device(),
            |o: &Owned| stream(n, bx + bytes(o.view()), dt),
            || self.inner.reduce(op, x, dims, keepdim, out),
        )
    }
    fn arg_reduce(
        &self,
        max: bool,
        x: View,
        dim: Option<usize>,
        keepdim: bool,
    ) -> Result<(Owned, Owned)> {
        let (n, bx, dt) = (x.numel() as f64, bytes(x), x.dtype());
        self.kernel(
            &[if max { "aten::max" } else { "aten::min" }],
            x.device(),
            |o: &(Owned, Owned)| stream(n, bx + bytes(o.0.view()) + bytes(o.1.view()), dt),
            || self.inner.arg_reduce(max, x, dim, keepdim),
        )
    }
    fn softmax(&self, x: View, dim: usize, log: bool) -> Result<Owned> {
        // max, exp-sum and normalise passes: about five operations per element
        let (n, bx, dt) = (x.numel() as f64, bytes(x), x.dtype());
        self.kernel(
            &[if log {
                "aten::_log_softmax"
            } else {
                "aten::_softmax"
            }],
            x.device(),
            |_| stream(5.0 * n, 2.0 * bx, dt),
            || self.inner.softmax(x, dim, log),
        )
    }
    fn softmax_backward(&self, g: View, y: View, dim: usize, log: bool) -> Result<Option<Owned>> {
        if self.mode == Mode::Sim {
            // the simulated GPU's backward stays the ops CUDA's autograd is costed as
            return Ok(None);
        }
        if self.mode == Mode::Cpu && g.dtype() != DType::F32 {
            // no kernel: the ops the caller falls back on are timed one by one
            return self.inner.softmax_backward(g, y, dim, log);
        }
        // two reads of each operand and one write: about four operations per element
        let (n, bx, dt) = (g.numel() as f64, bytes(g), g.dtype());
        self.kernel(
            &[if log {
                "aten::_log_softmax_backward_data"
            } else {
                "aten::_softmax_backward_data"
            }],
            g.device(),
            |_| stream(4.0 * n, 3.0 * bx, dt),
            || self.inner.softmax_backward(g, y, dim, log),
        )
    }
    fn silu_backward(&self, g: View, x: View) -> Result<Option<Owned>> {
        // an exponential, a division and five multiply-adds over two reads and one write
        self.fused_f32("aten::silu_backward", x, 8.0, || {
            self.inner.silu_backward(g, x)
        })
    }
    fn leaky_relu(&self, x: View, v: View, slope: f64, backward: bool) -> Result<Option<Owned>> {
        let name = if backward {
            "aten::leaky_relu_backward"
        } else {
            "aten::leaky_relu"
        };
        // a compare and a multiply over two reads and one write
        self.fused_f32(name, x, 2.0, || {
            self.inner.leaky_relu(x, v, slope, backward)
        })
    }
    fn clamp(&self, x: View, lo: Option<Scalar>, hi: Option<Scalar>) -> Result<Option<Owned>> {
        let name = match (lo, hi) {
            (Some(_), None) => "aten::clamp_min",
            (None, Some(_)) => "aten::clamp_max",
            _ => "aten::clamp",
        };
        // a compare per bound over one read and one write
        let ops = f64::from(lo.is_some() as u8 + hi.is_some() as u8);
        self.cpu_only(name, x, (ops, 2.0), || self.inner.clamp(x, lo, hi))
    }
    fn im2col(&self, x: View, cols: &Columns, fill: f64) -> Result<Option<Owned>> {
        // each input element read about once, each of the kh*kw copies written
        let copies = cols.offsets() as f64;
        self.cpu_only("aten::im2col", x, (copies, 1.0), || {
            self.inner.im2col(x, cols, fill)
        })
    }
    fn conv2d(&self, x: View, w: View, cols: &Columns) -> Result<Option<Owned>> {
        // a multiply-add per weight, output position and image
        let per_input = (2 * w.numel() * cols.out[0] * cols.out[1]) as f64
            / x.numel().max(1) as f64
            * x.shape()[0] as f64;
        self.cpu_only("aten::convolution", x, (per_input, 1.0), || {
            self.inner.conv2d(x, w, cols)
        })
    }
    fn col2im(&self, g: View, shape: [usize; 4], cols: &Columns) -> Result<Option<Owned>> {
        // each column element read and added once
        self.cpu_only("aten::col2im", g, (1.0, 2.0), || {
            self.inner.col2im(g, shape, cols)
        })
    }
    fn var_rows(
        &self,
        x: View,
        groups: [usize; 2],
        correction: f64,
        std: bool,
        mean: Option<f64>,
        shape: &[usize],
    ) -> Result<Option<Owned>> {
        // two reads of each element (the mean, then the deviations' squares)
        let name = if std { "aten::std" } else { "aten::var" };
        self.cpu_only(name, x, (4.0, 2.0), || {
            self.inner.var_rows(x, groups, correction, std, mean, shape)
        })
    }
    fn scan(&self, x: View, dim: usize, prod: bool) -> Result<Option<Owned>> {
        // one add (multiply) per element over one read
        let name = if prod {
            "aten::cumprod"
        } else {
            "aten::cumsum"
        };
        self.cpu_only(name, x, (1.0, 1.0), || self.inner.scan(x, dim, prod))
    }
    fn vector_norm(
        &self,
        x: View,
        p: f64,
        dims: &[usize],
        shape: &[usize],
    ) -> Result<Option<Owned>> {
        // a multiply-add per element over one read
        self.cpu_only("aten::linalg_vector_norm", x, (2.0, 1.0), || {
            self.inner.vector_norm(x, p, dims, shape)
        })
    }
    fn layer_norm_rows(
        &self,
        x: View,
        inner: usize,
        affine: Option<(View, View)>,
        eps: f64,
    ) -> Result<Option<Normed>> {
        // two reads of each row (sums, then the output) and one write
        self.cpu_only("aten::native_layer_norm", x, (5.0, 2.0), || {
            self.inner.layer_norm_rows(x, inner, affine, eps)
        })
    }
    fn layer_norm_backward_rows(
        &self,
        g: View,
        xhat: View,
        w: Option<View>,
        rstd: View,
        params: bool,
    ) -> Result<Option<NormGrads>> {
        self.cpu_only("aten::native_layer_norm_backward", g, (6.0, 3.0), || {
            self.inner
                .layer_norm_backward_rows(g, xhat, w, rstd, params)
        })
    }
    fn max_all(&self, max: bool, x: View) -> Result<Owned> {
        // named `aten::max` as PyTorch's profiler names `t.max()` on every device
        let (n, bx, dt) = (x.numel() as f64, bytes(x), x.dtype());
        self.kernel(
            &[if max { "aten::max" } else { "aten::min" }],
            x.device(),
            |o: &Owned| stream(n, bx + bytes(o.view()), dt),
            || match self.mode {
                // the simulated GPU runs the CPU's kernels but stands for CUDA, which has no
                // kernel of its own for this: `reduce`, the trait's default
                Mode::Sim => {
                    let op = if max { ReduceOp::Max } else { ReduceOp::Min };
                    let all: Vec<usize> = (0..x.ndim()).collect();
                    self.inner.reduce(op, x, &all, false, dt)
                }
                _ => self.inner.max_all(max, x),
            },
        )
    }
    fn baddbmm(&self, c: View, a: View, b: View) -> Result<Option<Owned>> {
        if self.mode != Mode::Cuda {
            return self.inner.baddbmm(c, a, b);
        }
        let w = matmul_work(&a, &b);
        self.kernel(
            &["aten::addmm"],
            a.device(),
            |_| w,
            || self.inner.baddbmm(c, a, b),
        )
    }
    fn bmm(&self, a: View, b: View) -> Result<Owned> {
        let w = matmul_work(&a, &b);
        let name = if a.shape().first() == Some(&1) {
            "aten::mm"
        } else {
            "aten::bmm"
        };
        self.kernel(&[name], a.device(), |_| w, || self.inner.bmm(a, b))
    }
    fn gather(
        &self,
        src: View,
        bases: &[usize],
        shape: &[usize],
        strides: &[usize],
    ) -> Result<Owned> {
        self.kernel(
            &["aten::index"],
            src.device(),
            |o: &Owned| stream(0.0, 2.0 * bytes(o.view()), o.dtype()),
            || self.inner.gather(src, bases, shape, strides),
        )
    }
    fn scatter(
        &self,
        dst: View,
        bases: &[usize],
        shape: &[usize],
        strides: &[usize],
        values: View,
    ) -> Result<()> {
        let w = stream(0.0, 2.0 * bytes(values), values.dtype());
        self.kernel(
            &["aten::index_put_"],
            dst.device(),
            |_| w,
            || self.inner.scatter(dst, bases, shape, strides, values),
        )
    }
}
