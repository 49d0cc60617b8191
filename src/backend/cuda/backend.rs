//! The CUDA backend: storages whose bytes live in device memory (`Memory::Cuda`),
//! computed by `kernels/*.cu` and cuBLAS. Each method launches a kernel when one exists for the
//! op and dtype (`codes.rs`) and otherwise takes the host route (`host_route.rs`).
//!
//! Result layouts follow the CPU backend (and so PyTorch): elementwise results are laid out by
//! `iter::output_order`, casts of dense tensors keep their strides, the rest are row-major.
use super::codes::{
    arith_suffix, binary_code, cast_name, exact_as_double, reduce_code, size_suffix, unary_code,
};
use super::host_route::{self as host, driver, gpu_err};
use super::launch::{elementwise_grid, grid, layouts, Kernels, Layout, BLOCK};
use crate::backend::cpu::iter::{output_order, strides_for_order};
use crate::backend::cpu::CPU;
use crate::backend::storage::{Buffer, Storage};
use crate::backend::{Backend, Owned, View};
use crate::core::error::Result;
use crate::core::shape::{
    broadcast_strides, contiguous_strides, is_dense, numel, reduced_shape, Dims,
};
use crate::core::{BinaryOp, DType, Device, ReduceOp, Scalar, UnaryOp};
// the engine's view layout; `Layout` here is the kernels' (`launch.rs`)
use crate::core::Layout as CoreLayout;
use std::sync::Arc;

pub struct Cuda;

/// The one CUDA backend instance.
pub static CUDA: Cuda = Cuda;

/// Uninitialised device storage of `n` elements (every caller overwrites all of it).
pub fn alloc(dtype: DType, n: usize, device: Device) -> Result<Storage> {
    let block = Storage::reserve(device, n * dtype.size())?;
    Ok(Storage::device_resident(dtype, n, device, block))
}

/// A new device result of `shape`, row-major or with `strides` (dense, offset 0).
fn empty(dtype: DType, shape: &[usize], strides: Option<Dims>, device: Device) -> Result<Owned> {
    let s = alloc(dtype, numel(shape), device)?;
    let st = strides.unwrap_or_else(|| contiguous_strides(shape));
    Ok(Owned::new(
        s,
        CoreLayout::new(Dims::from_slice(shape), st, 0),
    ))
}

/// The device address of an operand's storage (element 0; layouts add the offset).
fn base(t: &View) -> u64 {
    t.storage().device_ptr()
}

/// The address of an operand's first element.
fn first(t: &View) -> u64 {
    base(t) + (t.offset() * t.dtype().size()) as u64
}

/// The driver of `device` when every operand is device-resident there.
fn resident(device: Device, ops: &[&View]) -> Option<Arc<dyn super::driver::Driver>> {
    if !ops
        .iter()
        .all(|t| t.storage().is_device_resident() && t.device() == device)
    {
        return None;
    }
    driver(device).ok()
}

/// The driver of `device`, when it has kernels and every operand is device-resident there.
fn kernels(device: Device, ops: &[&View]) -> Option<Arc<dyn super::driver::Driver>> {
    let d = resident(device, ops)?;
    d.kernels()?;
    Some(d)
}

fn k(d: &Arc<dyn super::driver::Driver>) -> &Kernels {
    d.kernels().expect("checked by `kernels`")
}

/// The strides PyTorch's TensorIterator gives the output of an elementwise op over `shape`.
fn out_strides(shape: &[usize], inputs: &[&[usize]]) -> Option<Dims> {
    output_order(shape, inputs).map(|o| strides_for_order(shape, &o))
}

fn lay<const N: usize>(shape: &[usize], ops: [(&[usize], usize); N]) -> Result<[Layout; N]> {
    layouts(shape, ops).ok_or_else(|| {
        gpu_err("tensors of more than 8 dimensions are not supported on CUDA in cudalearn".into())
    })
}

/// A private copy of `src` when it shares storage with `dst` (a kernel must not read what
/// another thread of it is writing); `None` when `src` can be read as it is.
fn unaliased(dst: &View, src: &View) -> Result<Option<Owned>> {
    if dst.same_storage(src) {
        CUDA.contiguous_copy(*src).map(Some)
    } else {
        Ok(None)
    }
}

/// `dst = src` elementwise over `dst`'s shape (src broadcast), casting when the dtypes differ.
fn copy_kernel(d: &Arc<dyn super::driver::Driver>, dst: &View, src: &View) -> Result<()> {
    let n = dst.numel();
    if n == 0 {
        return Ok(());
    }
    let ss = broadcast_strides(src.shape(), src.strides(), dst.shape());
    let [ls, ld] = lay(
        dst.shape(),
        [(&ss, src.offset()), (dst.strides(), dst.offset())],
    )?;
    let name = if src.dtype() == dst.dtype() {
        if ls.ndim == 1 && ld.ndim == 1 && ls.strides[0] == 1 && ld.strides[0] == 1 {
            let bytes = n * dst.dtype().size();
            return d.dtod(first(dst), first(src), bytes).map_err(gpu_err);
        }
        format!("copy_{}", size_suffix(dst.dtype()))
    } else {
        format!("cast_{}_{}", cast_name(src.dtype()), cast_name(dst.dtype()))
    };
    let (n64, ps, pd) = (n as i64, base(src), base(dst));
    k(d).copy(
        &name,
        elementwise_grid(n, &[&ls, &ld]),
        n64,
        (ps, &ls),
        (pd, &ld),
    )
    .map_err(gpu_err)
}

impl Backend for Cuda {
    fn zeros(&self, dtype: DType, numel: usize, device: Device) -> Result<Storage> {
        let s = alloc(dtype, numel, device)?;
        if numel > 0 {
            driver(device)?
                .memset0(s.device_ptr(), numel * dtype.size())
                .map_err(gpu_err)?;
        }
        Ok(s)
    }

    fn upload(&self, buf: Buffer, device: Device) -> Result<Storage> {
        host::upload(&buf, device)
    }

    fn empty(&self, dtype: DType, numel: usize, device: Device) -> Result<Storage> {
        alloc(dtype, numel, device)
    }

    fn upload_from(&self, src: View, device: Device) -> Result<Storage> {
        let data = match src.storage().memory() {
            crate::backend::storage::Memory::Host(data) if src.is_contiguous() => data,
            _ => return self.upload(CPU.to_host(src)?, device),
        };
        let s = alloc(src.dtype(), src.numel(), device)?;
        if src.numel() > 0 {
            let size = src.dtype().size();
            let buf = data.borrow();
            let all = host::bytes(&buf);
            let mine = &all[src.offset() * size..(src.offset() + src.numel()) * size];
            driver(device)?
                .htod(s.device_ptr(), mine)
                .map_err(gpu_err)?;
        }
        Ok(s)
    }

    fn to_host(&self, t: View) -> Result<Buffer> {
        if t.numel() == 0 {
            return Buffer::zeros(t.dtype(), 0);
        }
        if t.is_contiguous() {
            return host::read(t.device(), first(&t), t.dtype(), t.numel());
        }
        if kernels(t.device(), &[&t]).is_some() {
            return self.to_host(self.contiguous_copy(t)?.view());
        }
        let mut m = host::Mirror::default();
        m.load(t)?;
        CPU.to_host(m.view(t))
    }

    fn copy(&self, dst: View, src: View) -> Result<()> {
        if let Some(d) = kernels(dst.device(), &[&dst, &src]) {
            let copy = unaliased(&dst, &src)?;
            return copy_kernel(&d, &dst, &copy.as_ref().map_or(src, Owned::view));
        }
        host::run_inplace(dst, &[src], |d, v| CPU.copy(d, v[0]))
    }

    fn fill(&self, dst: View, v: Scalar) -> Result<()> {
        if let (Some(d), Some(s)) = (kernels(dst.device(), &[&dst]), arith_suffix(dst.dtype())) {
            if exact_as_double(v) {
                let n = dst.numel();
                if n == 0 {
                    return Ok(());
                }
                let [lo] = lay(dst.shape(), [(dst.strides(), dst.offset())])?;
                let (n64, p, x) = (n as i64, base(&dst), v.to_f64());
                return k(&d)
                    .fill(&format!("fill_{s}"), grid(n), n64, (p, &lo), x)
                    .map_err(gpu_err);
            }
        }
        host::run_inplace(dst, &[], |d, _| CPU.fill(d, v))
    }

    fn cast(&self, src: View, dtype: DType) -> Result<Owned> {
        if let Some(d) = kernels(src.device(), &[&src]) {
            let keep = is_dense(src.shape(), src.strides()).then(|| src.stride_dims().clone());
            let out = empty(dtype, src.shape(), keep, src.device())?;
            copy_kernel(&d, &out.view(), &src)?;
            return Ok(out);
        }
        host::run(src.device(), &[src], |v| CPU.cast(v[0], dtype))
    }

    fn contiguous_copy(&self, src: View) -> Result<Owned> {
        if let Some(d) = kernels(src.device(), &[&src]) {
            let out = empty(src.dtype(), src.shape(), None, src.device())?;
            copy_kernel(&d, &out.view(), &src)?;
            return Ok(out);
        }
        host::run(src.device(), &[src], |v| CPU.contiguous_copy(v[0]))
    }

    fn unary(&self, op: UnaryOp, x: View) -> Result<Owned> {
        if let (Some(d), Some(code), Some(s)) = (
            kernels(x.device(), &[&x]),
            unary_code(op, x.dtype()),
            arith_suffix(x.dtype()),
        ) {
            let st = out_strides(x.shape(), &[x.strides()]);
            let out = empty(x.dtype(), x.shape(), st, x.device())?;
            let n = x.numel();
            if n > 0 {
                let o = out.view();
                let [la, lo] = lay(x.shape(), [(x.strides(), x.offset()), (o.strides(), 0)])?;
                let (n64, pa, po) = (n as i64, base(&x), base(&o));
                k(&d)
                    .unary(
                        &format!("unary_{s}"),
                        elementwise_grid(n, &[&la, &lo]),
                        code,
                        n64,
                        (pa, &la),
                        (po, &lo),
                    )
                    .map_err(gpu_err)?;
            }
            return Ok(out);
        }
        host::run(x.device(), &[x], |v| CPU.unary(op, v[0]))
    }

    fn binary(&self, op: BinaryOp, a: View, b: View, shape: &[usize]) -> Result<Owned> {
        if let (Some(d), Some(code), Some(s)) = (
            kernels(a.device(), &[&a, &b]),
            binary_code(op, a.dtype()),
            arith_suffix(a.dtype()),
        ) {
            let sa = broadcast_strides(a.shape(), a.strides(), shape);
            let sb = broadcast_strides(b.shape(), b.strides(), shape);
            let (family, dt) = match op.is_comparison() {
                true => ("compare", DType::Bool),
                false => ("binary", a.dtype()),
            };
            let out = empty(dt, shape, out_strides(shape, &[&sa, &sb]), a.device())?;
            let n = out.numel();
            if n > 0 {
                let o = out.view();
                let [la, lb, lo] = lay(
                    shape,
                    [(&sa, a.offset()), (&sb, b.offset()), (o.strides(), 0)],
                )?;
                let (n64, pa, pb, po) = (n as i64, base(&a), base(&b), base(&o));
                k(&d)
                    .binary(
                        &format!("{family}_{s}"),
                        elementwise_grid(n, &[&la, &lb, &lo]),
                        code,
                        n64,
                        (pa, &la),
                        (pb, &lb),
                        (po, &lo),
                    )
                    .map_err(gpu_err)?;
            }
            return Ok(out);
        }
        host::run(a.device(), &[a, b], |v| CPU.binary(op, v[0], v[1], shape))
    }

    fn binary_scalar(&self, op: BinaryOp, a: View, s: Scalar, reversed: bool) -> Result<Owned> {
        if let (Some(d), Some(code), Some(sfx), true) = (
            kernels(a.device(), &[&a]),
            binary_code(op, a.dtype()),
            arith_suffix(a.dtype()),
            exact_as_double(s),
        ) {
            let (family, dt) = match op.is_comparison() {
                true => ("compare_scalar", DType::Bool),
                false => ("binary_scalar", a.dtype()),
            };
            let st = out_strides(a.shape(), &[a.strides()]);
            let out = empty(dt, a.shape(), st, a.device())?;
            scalar_kernel(&d, (family, sfx, code), &a, s, reversed, &out.view())?;
            return Ok(out);
        }
        host::run(a.device(), &[a], |v| {
            CPU.binary_scalar(op, v[0], s, reversed)
        })
    }

    fn binary_inplace(&self, op: BinaryOp, dst: View, src: View) -> Result<()> {
        if let (Some(d), Some(code), Some(s), false) = (
            kernels(dst.device(), &[&dst, &src]),
            binary_code(op, dst.dtype()),
            arith_suffix(dst.dtype()),
            op.is_comparison(),
        ) {
            let copy = unaliased(&dst, &src)?;
            let src = copy.as_ref().map_or(src, Owned::view);
            let n = dst.numel();
            if n == 0 {
                return Ok(());
            }
            let sb = broadcast_strides(src.shape(), src.strides(), dst.shape());
            let [la, lb, lo] = lay(
                dst.shape(),
                [
                    (dst.strides(), dst.offset()),
                    (&sb, src.offset()),
                    (dst.strides(), dst.offset()),
                ],
            )?;
            let (n64, pa, pb) = (n as i64, base(&dst), base(&src));
            return k(&d)
                .binary(
                    &format!("binary_{s}"),
                    elementwise_grid(n, &[&la, &lb, &lo]),
                    code,
                    n64,
                    (pa, &la),
                    (pb, &lb),
                    (pa, &lo),
                )
                .map_err(gpu_err);
        }
        host::run_inplace(dst, &[src], |d, v| CPU.binary_inplace(op, d, v[0]))
    }

    fn binary_scalar_inplace(&self, op: BinaryOp, dst: View, s: Scalar) -> Result<()> {
        if let (Some(d), Some(code), Some(sfx), true, false) = (
            kernels(dst.device(), &[&dst]),
            binary_code(op, dst.dtype()),
            arith_suffix(dst.dtype()),
            exact_as_double(s),
            op.is_comparison(),
        ) {
            return scalar_kernel(&d, ("binary_scalar", sfx, code), &dst, s, false, &dst);
        }
        host::run_inplace(dst, &[], |d, _| CPU.binary_scalar_inplace(op, d, s))
    }

    fn where_(&self, cond: View, a: View, b: View, shape: &[usize]) -> Result<Owned> {
        if let (Some(d), Some(s), DType::Bool) = (
            kernels(a.device(), &[&cond, &a, &b]),
            arith_suffix(a.dtype()),
            cond.dtype(),
        ) {
            let sc = broadcast_strides(cond.shape(), cond.strides(), shape);
            let sa = broadcast_strides(a.shape(), a.strides(), shape);
            let sb = broadcast_strides(b.shape(), b.strides(), shape);
            let out = empty(
                a.dtype(),
                shape,
                out_strides(shape, &[&sc, &sa, &sb]),
                a.device(),
            )?;
            let n = out.numel();
            if n > 0 {
                let o = out.view();
                let [lc, la, lb, lo] = lay(
                    shape,
                    [
                        (&sc, cond.offset()),
                        (&sa, a.offset()),
                        (&sb, b.offset()),
                        (o.strides(), 0),
                    ],
                )?;
                let (n64, pc, pa, pb, po) = (n as i64, base(&cond), base(&a), base(&b), base(&o));
                k(&d)
                    .where_(
                        &format!("where_{s}"),
                        grid(n),
                        n64,
                        (pc, &lc),
                        (pa, &la),
                        (pb, &lb),
                        (po, &lo),
                    )
                    .map_err(gpu_err)?;
            }
            return Ok(out);
        }
        host::run(a.device(), &[cond, a, b], |v| {
            CPU.where_(v[0], v[1], v[2], shape)
        })
    }

    fn reduce(
        &self,
        op: ReduceOp,
        x: View,
        dims: &[usize],
        keepdim: bool,
        out: DType,
    ) -> Result<Owned> {
        if let (Some(d), Some(code), Some(s), true) = (
            kernels(x.device(), &[&x]),
            reduce_code(op, out),
            arith_suffix(out),
            x.numel() > 0,
        ) {
            let cast = (x.dtype() != out).then(|| self.cast(x, out)).transpose()?;
            let x = cast.as_ref().map_or(x, Owned::view);
            let shape = reduced_shape(x.shape(), dims, keepdim);
            let st = contiguous_strides(&shape);
            if let Some((rows, cols)) = leading_dims(&x, dims) {
                let res = reduce_cols(&d, op, (code, s), first(&x), (rows, cols), out, x.device())?;
                return Ok(res.relayout(CoreLayout::new(shape, st, 0)));
            }
            let (rows, cols, px, _keep) = rows_last(&x, dims)?;
            let chunks = reduce_chunks(rows, cols);
            let (r, c) = (rows as i64, cols as i64);
            let res = if chunks > 1 {
                // two passes: partial results in the accumulation type, then one row each
                let acc = acc_type(out);
                let partial = empty(acc, &[rows, chunks], None, x.device())?;
                let (n, pp) = (chunks as i64, base(&partial.view()));
                k(&d)
                    .reduce_partial(
                        &format!("reduce_chunks_{s}"),
                        row_grid(rows * chunks),
                        code,
                        (r, c, n),
                        px,
                        pp,
                    )
                    .map_err(gpu_err)?;
                let res = self.reduce(op, partial.view(), &[1], false, acc)?;
                if acc == out {
                    res
                } else {
                    self.cast(res.view(), out)?
                }
            } else {
                let res = empty(out, &[rows], None, x.device())?;
                let po = base(&res.view());
                k(&d)
                    .reduce_rows(
                        &format!("reduce_rows_{s}"),
                        row_grid(rows),
                        code,
                        r,
                        c,
                        px,
                        po,
                    )
                    .map_err(gpu_err)?;
                res
            };
            return Ok(res.relayout(CoreLayout::new(shape, st, 0)));
        }
        host::run(x.device(), &[x], |v| {
            CPU.reduce(op, v[0], dims, keepdim, out)
        })
    }

    fn arg_reduce(
        &self,
        max: bool,
        x: View,
        dim: Option<usize>,
        keepdim: bool,
    ) -> Result<(Owned, Owned)> {
        if let (Some(d), Some(s), true) = (
            kernels(x.device(), &[&x]),
            arith_suffix(x.dtype()),
            x.numel() > 0,
        ) {
            let (copy, flat_layout);
            let (flat, dims) = match dim {
                Some(dd) => (x, vec![dd]),
                None => {
                    copy = dense_copy(x)?;
                    let c = copy.as_ref().map_or(x, Owned::view);
                    flat_layout = CoreLayout::new(
                        Dims::from_slice(&[c.numel()]),
                        Dims::from_slice(&[1]),
                        c.offset(),
                    );
                    (View::new(c.storage(), &flat_layout), vec![0])
                }
            };
            let (rows, cols, px, _keep) = rows_last(&flat, &dims)?;
            let vals = empty(x.dtype(), &[rows], None, x.device())?;
            let idx = empty(DType::I64, &[rows], None, x.device())?;
            let (m, r, c) = (max as i32, rows as i64, cols as i64);
            let (pv, pi) = (base(&vals.view()), base(&idx.view()));
            k(&d)
                .arg_rows(
                    &format!("arg_rows_{s}"),
                    row_grid(rows),
                    m,
                    r,
                    c,
                    px,
                    (pv, pi),
                )
                .map_err(gpu_err)?;
            let shape = reduced_shape(flat.shape(), &dims, keepdim);
            let st = contiguous_strides(&shape);
            return Ok((
                vals.relayout(CoreLayout::new(shape.clone(), st.clone(), 0)),
                idx.relayout(CoreLayout::new(shape, st, 0)),
            ));
        }
        let mut m = host::Mirror::default();
        m.load(x)?;
        let (v, i) = CPU.arg_reduce(max, m.view(x), dim, keepdim)?;
        Ok((
            host::to_device(v.view(), x.device())?,
            host::to_device(i.view(), x.device())?,
        ))
    }

    fn softmax(&self, x: View, dim: usize, log: bool) -> Result<Owned> {
        let float = matches!(
            x.dtype(),
            DType::F32 | DType::F64 | DType::F16 | DType::BF16
        );
        if let (Some(d), Some(s), true) = (
            kernels(x.device(), &[&x]),
            arith_suffix(x.dtype()),
            float && x.numel() > 0,
        ) {
            let nd = x.ndim();
            // the softmax dim last, everything else in order
            let order: Vec<usize> = (0..nd).filter(|&i| i != dim).chain([dim]).collect();
            let (rows, cols, px, _keep) = rows_last(&x, &[dim])?;
            let res = empty(x.dtype(), &[rows * cols], None, x.device())?;
            let (r, c, po, lg) = (rows as i64, cols as i64, base(&res.view()), log as i32);
            k(&d)
                .softmax(&format!("softmax_{s}"), row_grid(rows), r, c, px, po, lg)
                .map_err(gpu_err)?;
            // `res` is row-major in `order`; view it in the original dim order
            let pshape: Vec<usize> = order.iter().map(|&i| x.shape()[i]).collect();
            let pst = contiguous_strides(&pshape);
            let mut st = Dims::filled(nd, 0);
            for (j, &i) in order.iter().enumerate() {
                st[i] = pst[j];
            }
            let v = res.relayout(CoreLayout::new(x.dims().clone(), st, 0));
            return if v.view().is_contiguous() {
                Ok(v)
            } else {
                self.contiguous_copy(v.view())
            };
        }
        host::run(x.device(), &[x], |v| CPU.softmax(v[0], dim, log))
    }

    fn baddbmm(&self, c: View, a: View, b: View) -> Result<Option<Owned>> {
        match resident(a.device(), &[&a, &b, &c]) {
            Some(d) if d.kernels().is_some() => super::blas::baddbmm(&*d, c, a, b),
            _ => Ok(None),
        }
    }

    fn bmm(&self, a: View, b: View) -> Result<Owned> {
        if let Some(d) = resident(a.device(), &[&a, &b]) {
            if let Some(out) = super::blas::bmm(&*d, a, b)? {
                return Ok(out);
            }
        }
        host::run(a.device(), &[a, b], |v| CPU.bmm(v[0], v[1]))
    }

    fn gather(
        &self,
        src: View,
        bases: &[usize],
        shape: &[usize],
        strides: &[usize],
    ) -> Result<Owned> {
        if let Some(d) = kernels(src.device(), &[&src]) {
            let mut out_shape = vec![bases.len()];
            out_shape.extend_from_slice(shape);
            let out = empty(src.dtype(), &out_shape, None, src.device())?;
            if out.numel() > 0 {
                let (sub, b, nb, sn) = index_args(bases, shape, strides, src.device())?;
                let (pb, ps, po) = (b.device_ptr(), base(&src), base(&out.view()));
                let name = format!("gather_{}", size_suffix(src.dtype()));
                k(&d)
                    .index(&name, grid(out.numel()), nb, pb, &sub, sn, ps, po)
                    .map_err(gpu_err)?;
            }
            return Ok(out);
        }
        host::run(src.device(), &[src], |v| {
            CPU.gather(v[0], bases, shape, strides)
        })
    }

    fn scatter(
        &self,
        dst: View,
        bases: &[usize],
        shape: &[usize],
        strides: &[usize],
        values: View,
    ) -> Result<()> {
        if let Some(d) = kernels(dst.device(), &[&dst, &values]) {
            let total = bases.len() * numel(shape);
            if total == 0 {
                return Ok(());
            }
            let copy = unaliased(&dst, &values)?;
            let v = copy.as_ref().map_or(values, Owned::view);
            let dense = dense_copy(v)?;
            let v = dense.as_ref().map_or(v, Owned::view);
            let (sub, b, nb, sn) = index_args(bases, shape, strides, dst.device())?;
            let (pb, pd, pv) = (b.device_ptr(), base(&dst), first(&v));
            let name = format!("scatter_{}", size_suffix(dst.dtype()));
            return k(&d)
                .index(&name, grid(total), nb, pb, &sub, sn, pd, pv)
                .map_err(gpu_err);
        }
        host::run_inplace(dst, &[values], |d, v| {
            CPU.scatter(d, bases, shape, strides, v[0])
        })
    }
}

/// A row-major copy of `t`, or `None` when `t` already is row-major.
fn dense_copy(t: View) -> Result<Option<Owned>> {
    if t.is_contiguous() {
        Ok(None)
    } else {
        CUDA.contiguous_copy(t).map(Some)
    }
}

/// `op(a, s)` (or `op(s, a)`) written into `out` (which may be `a` itself).
fn scalar_kernel(
    d: &Arc<dyn super::driver::Driver>,
    (family, sfx, code): (&str, &str, i32),
    a: &View,
    s: Scalar,
    reversed: bool,
    out: &View,
) -> Result<()> {
    let n = a.numel();
    if n == 0 {
        return Ok(());
    }
    let [la, lo] = lay(
        a.shape(),
        [(a.strides(), a.offset()), (out.strides(), out.offset())],
    )?;
    let (n64, pa, x, rev, po) = (n as i64, base(a), s.to_f64(), reversed as i32, base(out));
    let name = format!("{family}_{sfx}");
    let cfg = elementwise_grid(n, &[&la, &lo]);
    k(d).binary_scalar(&name, cfg, code, n64, (pa, &la), x, rev, (po, &lo))
        .map_err(gpu_err)
}

/// Pieces to cut each of `rows` rows of `cols` elements into so a reduction keeps about 1024
/// blocks busy (an H100 has 132 SMs), each piece at least 4096 elements; 1 for one pass.
fn reduce_chunks(rows: usize, cols: usize) -> usize {
    if cols < 1 << 16 {
        return 1;
    }
    (cols / 4096).clamp(1, (1024 / rows.max(1)).max(1))
}

/// `op` over the rows of a contiguous `[rows, cols]` operand at `px` into `cols` values of
/// dtype `out` (the operand's): slices of rows reduced by `reduce_cols_*` into partial results
/// in the accumulation type, which are reduced the same way until one slice is left.
#[allow(clippy::too_many_arguments)]
fn reduce_cols(
    d: &Arc<dyn super::driver::Driver>,
    op: ReduceOp,
    (code, suffix): (i32, &str),
    px: u64,
    (rows, cols): (usize, usize),
    out: DType,
    device: Device,
) -> Result<Owned> {
    let acc = acc_type(out);
    // about 1024 blocks in all, each thread walking at least 32 rows
    let col_blocks = cols.div_ceil(BLOCK as usize);
    let splits = (1024 / col_blocks).clamp(1, (rows / 32).clamp(1, 65535));
    let len = rows.div_ceil(splits);
    let splits = rows.div_ceil(len);
    let partial = empty(acc, &[splits, cols], None, device)?;
    let cfg = cudarc::driver::LaunchConfig {
        grid_dim: (col_blocks.clamp(1, 1 << 20) as u32, splits as u32, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    };
    let dims = (rows as i64, cols as i64, len as i64);
    let pp = base(&partial.view());
    k(d).reduce_partial(&format!("reduce_cols_{suffix}"), cfg, code, dims, px, pp)
        .map_err(gpu_err)?;
    let res = if splits > 1 {
        CUDA.reduce(op, partial.view(), &[0], false, acc)?
    } else {
        partial
    };
    if acc == out {
        Ok(res)
    } else {
        CUDA.cast(res.view(), out)
    }
}

/// The type the reduction kernels accumulate `out` in (partial results are kept in it).
fn acc_type(out: DType) -> DType {
    match out {
        DType::F16 | DType::BF16 => DType::F32,
        o => o,
    }
}

/// `(rows, cols)` when the reduced `dims` are the leading axes of a contiguous `x` and more
/// than one element is kept: the column kernel's case (see `Cuda::reduce_cols`).
fn leading_dims(x: &View, dims: &[usize]) -> Option<(usize, usize)> {
    let j = dims.len();
    if !x.is_contiguous() || j == 0 || j >= x.ndim() || !(0..j).all(|i| dims.contains(&i)) {
        return None;
    }
    let rows = x.shape()[..j].iter().product();
    let cols: usize = x.shape()[j..].iter().product();
    (cols > 1).then_some((rows, cols))
}

/// One block per row for the row kernels.
fn row_grid(rows: usize) -> cudarc::driver::LaunchConfig {
    cudarc::driver::LaunchConfig {
        grid_dim: (rows.clamp(1, 1 << 20) as u32, 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// `x` with `dims` moved last and made contiguous, for the row kernels: `(rows, cols, address
/// of the first element, the copy made when `x` was not already in that order)`.
fn rows_last(x: &View, dims: &[usize]) -> Result<(usize, usize, u64, Option<Owned>)> {
    let kept: Vec<usize> = (0..x.ndim()).filter(|i| !dims.contains(i)).collect();
    let order: Vec<usize> = kept.iter().chain(dims).copied().collect();
    let shape: Dims = order.iter().map(|&i| x.shape()[i]).collect();
    let strides: Dims = order.iter().map(|&i| x.strides()[i]).collect();
    let rows: usize = kept.iter().map(|&i| x.shape()[i]).product();
    let cols: usize = dims.iter().map(|&i| x.shape()[i]).product();
    let l = CoreLayout::new(shape, strides, x.offset());
    let v = View::new(x.storage(), &l);
    let copy = dense_copy(v)?;
    let p = first(&copy.as_ref().map_or(v, Owned::view));
    Ok((rows, cols, p, copy))
}

/// The arguments of the gather/scatter kernels: the sub-tensor's layout, the base offsets in
/// int64 device storage, their count and the sub-tensor's size.
fn index_args(
    bases: &[usize],
    shape: &[usize],
    strides: &[usize],
    device: Device,
) -> Result<(Layout, Storage, i64, i64)> {
    let sub = Layout::new(shape, strides, 0).ok_or_else(|| {
        gpu_err("tensors of more than 8 dimensions are not supported on CUDA in cudalearn".into())
    })?;
    let v: Vec<i64> = bases.iter().map(|&b| b as i64).collect();
    let s = host::upload(&Buffer::I64(v), device)?;
    Ok((sub, s, bases.len() as i64, numel(shape) as i64))
}
