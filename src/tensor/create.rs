//! Factory functions: `zeros`, `ones`, `full`, `empty`, `arange`, `linspace`, `eye` and the
//! `*_like` forms, with PyTorch's dtype defaults, value order and messages.
use super::error::{not_impl_for, runtime, Result};
use super::promote::default_dtype;
use super::scalar::{checked_scalar, Scalar};
use super::shape::{contiguous_strides, sizes_from_i64, Dims};
use super::storage::{Buffer, Element};
use super::{DType, Device, Tensor};
use crate::backend::storage::output_vec;

fn alloc(shape: &Dims, dtype: DType, device: Device) -> Result<Tensor> {
    let n = super::shape::checked_numel(shape)?;
    let storage = crate::tensor::dispatch::on(device).zeros(dtype, n, device)?;
    Ok(Tensor::from_parts(
        storage,
        shape.clone(),
        contiguous_strides(shape),
        0,
    ))
}

/// `torch.zeros(*size, dtype=None, device=None)`.
pub fn zeros(size: &[i64], dtype: Option<DType>, device: Device) -> Result<Tensor> {
    if size.iter().any(|&s| s < 0) {
        return runtime("zeros: Dimension size must be non-negative.");
    }
    empty(size, dtype, device)
}

/// `torch.empty(...)`: cudalearn's empty memory is zeroed (PyTorch's is arbitrary).
pub fn empty(size: &[i64], dtype: Option<DType>, device: Device) -> Result<Tensor> {
    alloc(
        &sizes_from_i64(size)?,
        dtype.unwrap_or_else(default_dtype),
        device,
    )
}

/// `torch.ones(...)`.
pub fn ones(size: &[i64], dtype: Option<DType>, device: Device) -> Result<Tensor> {
    full(
        size,
        Scalar::Int(1),
        Some(dtype.unwrap_or_else(default_dtype)),
        device,
    )
}

/// `torch.full(size, value, dtype=None)`: the dtype follows the value when not given.
pub fn full(size: &[i64], value: Scalar, dtype: Option<DType>, device: Device) -> Result<Tensor> {
    let dtype = dtype.unwrap_or_else(|| value.natural_dtype());
    let shape = sizes_from_i64(size)?;
    let v = checked_scalar(value, dtype)?;
    let t = alloc(&shape, dtype, device)?;
    if t.numel() > 0 && v.to_f64() != 0.0 || v.to_f64().is_nan() {
        crate::tensor::dispatch::on(device).fill(&t, v)?;
    }
    Ok(t)
}

/// `torch.zeros_like(t, dtype=None)` and friends keep `t`'s dtype and device by default.
pub fn zeros_like(t: &Tensor, dtype: Option<DType>) -> Result<Tensor> {
    alloc(t.dims(), dtype.unwrap_or(t.dtype()), t.device())
}
pub fn ones_like(t: &Tensor, dtype: Option<DType>) -> Result<Tensor> {
    full_like(t, Scalar::Int(1), dtype)
}
pub fn empty_like(t: &Tensor, dtype: Option<DType>) -> Result<Tensor> {
    zeros_like(t, dtype)
}
pub fn full_like(t: &Tensor, value: Scalar, dtype: Option<DType>) -> Result<Tensor> {
    let dtype = dtype.unwrap_or(t.dtype());
    let v = checked_scalar(value, dtype)?;
    let out = alloc(t.dims(), dtype, t.device())?;
    crate::tensor::dispatch::on(t.device()).fill(&out, v)?;
    Ok(out)
}

/// `torch.arange(start, end, step, dtype=None)`. Values are `start + i * step` computed in
/// double (float for half types), with PyTorch's vectorised lanes for long float ranges.
pub fn arange(
    start: Scalar,
    end: Scalar,
    step: Scalar,
    dtype: Option<DType>,
    device: Device,
) -> Result<Tensor> {
    let any_float = start.is_float() || end.is_float() || step.is_float();
    let dtype = dtype.unwrap_or(if any_float {
        default_dtype()
    } else {
        DType::I64
    });
    if dtype == DType::Bool {
        return not_impl_for("arange_cpu", dtype);
    }
    let (s, e, st) = (start.to_f64(), end.to_f64(), step.to_f64());
    let n: usize = if dtype == DType::I64 && !any_float {
        let (s, e, st) = (start.to_i64(), end.to_i64(), step.to_i64());
        if st == 0 {
            return runtime("step must be nonzero");
        }
        if !((st > 0 && e >= s) || (st < 0 && e <= s)) {
            return runtime("upper bound and lower bound inconsistent with step sign");
        }
        let sgn = st.signum();
        ((e as i128 - s as i128 + st as i128 - sgn as i128) / st as i128) as usize
    } else {
        if st == 0.0 {
            return runtime("step must be nonzero");
        }
        if !s.is_finite() || !e.is_finite() {
            return runtime(format!(
                "unsupported range: {} -> {}",
                fmt_num(start),
                fmt_num(end)
            ));
        }
        if !((st > 0.0 && e >= s) || (st < 0.0 && e <= s)) {
            return runtime("upper bound and lower bound inconsistent with step sign");
        }
        let size = ((e - s) / st).ceil();
        if size >= 9.223_372_036_854_776e18 {
            return runtime("invalid size, possible overflow?");
        }
        size as usize
    };
    super::storage::check_alloc(n, dtype)?;
    let buf = match dtype {
        DType::F32 => {
            let mut v = output_vec::<f32>(n)?;
            arange_f32(s, st, &mut v);
            Buffer::F32(v)
        }
        DType::F64 => {
            let mut v = output_vec::<f64>(n)?;
            arange_f64(s, st, &mut v);
            Buffer::F64(v)
        }
        DType::F16 | DType::BF16 => {
            // accumulate type float
            let (s32, st32) = (s as f32, st as f32);
            let v: Vec<f32> = (0..n).map(|i| s32 + st32 * i as f32).collect();
            if dtype == DType::F16 {
                Buffer::F16(v.into_iter().map(half::f16::from_f32).collect())
            } else {
                Buffer::BF16(v.into_iter().map(half::bf16::from_f32).collect())
            }
        }
        _ => {
            let (s, st) = (start.to_i64(), step.to_i64());
            crate::with_dtype!(dtype, T => {
                let mut v = output_vec::<T>(n)?;
                // a running sum (the same values: wrapping adds are associative), which the
                // compiler vectorises without 64-bit multiplies
                let mut x = s;
                for o in v.iter_mut() {
                    *o = T::from_i64(x);
                    x = x.wrapping_add(st);
                }
                <T as Element>::wrap(v)
            })
        }
    };
    let t = Tensor::from_buffer(buf, &[n], Device::Cpu)?;
    t.to_device(device)
}

fn fmt_num(s: Scalar) -> String {
    match s {
        Scalar::Float(f) if f.is_infinite() => {
            if f > 0.0 {
                "inf".into()
            } else {
                "-inf".into()
            }
        }
        Scalar::Float(f) if f.is_nan() => "nan".into(),
        other => format!("{}", other.to_f64()),
    }
}

/// arange values as ATen's AVX2 loop makes them: blocks of `2 * lanes` elements come from
/// vectors whose first lane is rounded to the element type before the others are added (the
/// compiler fuses `a + b * c` into one FMA); the tail is `start + step * i`, also fused.
fn lanes_arange<T: Element, const LANES: usize>(s: f64, st: f64, v: &mut [T]) {
    let vec_end = v.len() / (2 * LANES) * (2 * LANES);
    let (body, tail) = v.split_at_mut(vec_end);
    // a block of `LANES` a step, the lanes unrolled so that the compiler vectorises them
    for (b, o) in body.chunks_exact_mut(LANES).enumerate() {
        let base = T::from_f64(st.mul_add((b * LANES) as f64, s)).to_f64();
        for (l, o) in o.iter_mut().enumerate() {
            *o = T::from_f64((l as f64).mul_add(st, base));
        }
    }
    for (j, o) in tail.iter_mut().enumerate() {
        *o = T::from_f64(st.mul_add((vec_end + j) as f64, s));
    }
}

crate::backend::cpu::simd::simd_build! {
    /// `lanes_arange` for float32 (AVX2's 8 lanes) into `v`, built for FMA where the CPU has it.
    fn arange_f32<>(s: f64, st: f64, v: &mut [f32]) {
        lanes_arange::<f32, 8>(s, st, v)
    }
}

crate::backend::cpu::simd::simd_build! {
    /// `lanes_arange` for float64 (4 lanes).
    fn arange_f64<>(s: f64, st: f64, v: &mut [f64]) {
        lanes_arange::<f64, 4>(s, st, v)
    }
}

/// `torch.linspace(start, end, steps, dtype=None)`: ATen's two-sided formula (values from the
/// start for the first half, from the end for the second), `a + b * c` fused into one FMA as the
/// compiler does for PyTorch's kernel. Half types take their ends rounded and compute in float.
pub fn linspace(
    start: f64,
    end: f64,
    steps: i64,
    dtype: Option<DType>,
    device: Device,
) -> Result<Tensor> {
    if steps < 0 {
        return runtime("number of steps must be non-negative");
    }
    let dtype = dtype.unwrap_or_else(default_dtype);
    let n = steps as usize;
    super::storage::check_alloc(n, dtype)?;
    let half = steps / 2;
    let k = |i: i64| (steps - i - 1) as f64;
    let buf = match dtype {
        DType::F32 | DType::F16 | DType::BF16 => {
            let r = |x: f32| match dtype {
                DType::F16 => half::f16::from_f32(x).to_f32(),
                DType::BF16 => half::bf16::from_f32(x).to_f32(),
                _ => x,
            };
            let (s, e) = (r(start as f32), r(end as f32));
            let step = (e - s) / (steps - 1) as f32;
            let v = (0..steps).map(|i| {
                if i < half {
                    step.mul_add(i as f32, s)
                } else {
                    (-step).mul_add(k(i) as f32, e)
                }
            });
            match dtype {
                DType::F16 => Buffer::F16(v.map(half::f16::from_f32).collect()),
                DType::BF16 => Buffer::BF16(v.map(half::bf16::from_f32).collect()),
                _ => Buffer::F32(v.collect()),
            }
        }
        DType::F64 => {
            let step = (end - start) / (steps - 1) as f64;
            Buffer::F64(
                (0..steps)
                    .map(|i| {
                        if i < half {
                            step.mul_add(i as f64, start)
                        } else {
                            (-step).mul_add(k(i), end)
                        }
                    })
                    .collect(),
            )
        }
        _ => {
            let (s, e) = (
                Scalar::Float(start).to_i64() as f64,
                Scalar::Float(end).to_i64() as f64,
            );
            let step = (e - s) / (steps - 1) as f64;
            let v: Vec<f64> = (0..steps)
                .map(|i| {
                    if i < half {
                        step.mul_add(i as f64, s)
                    } else {
                        (-step).mul_add(k(i), e)
                    }
                })
                .collect();
            crate::with_dtype!(dtype, T => <T as Element>::wrap(v.iter().map(|&x| <T as Element>::from_f64(x)).collect()))
        }
    };
    let t = Tensor::from_buffer(buf, &[n], Device::Cpu)?;
    if steps == 1 {
        super::ops::inplace::fill_(&t, Scalar::Float(start))?;
    }
    t.to_device(device)
}

/// `torch.eye(n, m=None, dtype=None)`.
pub fn eye(n: i64, m: Option<i64>, dtype: Option<DType>, device: Device) -> Result<Tensor> {
    if n < 0 {
        return runtime(format!("n must be greater or equal to 0, got {n}"));
    }
    let m = m.unwrap_or(n);
    if m < 0 {
        return runtime(format!("m must be greater or equal to 0, got {m}"));
    }
    let t = zeros(&[n, m], dtype, device)?;
    let k = n.min(m) as usize;
    if k > 0 {
        // the diagonal is a strided view with stride m + 1
        let diag = t.view_as_layout(
            Dims::from_slice(&[k]),
            Dims::from_slice(&[m as usize + 1]),
            0,
        );
        crate::tensor::dispatch::on(device).fill(&diag, Scalar::Int(1))?;
    }
    Ok(t)
}

/// `torch.randn`/`torch.rand` (`normal`: N(p0, p1²), else U[p0, p1)) on the CPU from the default
/// generator, written straight into the new tensor's buffer (no f64 staging copy: the memory
/// used is the tensor's own), a recycled one when a tensor of that size was just freed (a fresh
/// 64 MB buffer costs ~20 ms of the kernel clearing pages before the generator writes them).
pub fn random(shape: &[i64], dtype: DType, normal: bool, p0: f64, p1: f64) -> Result<Tensor> {
    use super::random::with_default;
    let dims = sizes_from_i64(shape)?;
    let n = dims.iter().product();
    let buf = with_default(|g| -> Result<Buffer> {
        Ok(match dtype {
            DType::F64 => {
                let mut v = output_vec::<f64>(n)?;
                if normal {
                    g.fill_normal_f64(&mut v, p0, p1)
                } else {
                    g.fill_uniform_f64(&mut v, p0, p1)
                }
                Buffer::F64(v)
            }
            DType::F16 => {
                let mut v = output_vec::<half::f16>(n)?;
                if normal {
                    g.fill_normal_f16(&mut v, p0, p1)
                } else {
                    g.fill_uniform_f16(&mut v, p0, p1)
                }
                Buffer::F16(v)
            }
            DType::BF16 => {
                let mut v = output_vec::<half::bf16>(n)?;
                if normal {
                    g.fill_normal_bf16(&mut v, p0, p1)
                } else {
                    g.fill_uniform_bf16(&mut v, p0, p1)
                }
                Buffer::BF16(v)
            }
            _ => {
                let mut v = output_vec::<f32>(n)?;
                if normal {
                    g.fill_normal_f32(&mut v, p0, p1)
                } else {
                    g.fill_uniform_f32(&mut v, p0, p1)
                }
                Buffer::F32(v)
            }
        })
    })?;
    Tensor::from_buffer(buf, &dims, Device::Cpu)
}
