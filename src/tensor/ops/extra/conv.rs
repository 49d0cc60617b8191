//! Convolution and pooling as im2col: the windows of the input are one strided slice of the
//! padded input per kernel offset, stacked (`unfold`; the padding is 0 for convolution and
//! average pooling, -inf for max pooling), then convolution is one matmul with the weights and
//! pooling a max or mean over each window. Every step is an
//! existing op, so this runs on every device with autograd; the last node is named as
//! PyTorch names it (`ConvolutionBackward0`, `MaxPool2DWithIndicesBackward0`, ...).
//!
//! Rounding against PyTorch's CPU results (oneDNN 3.13 on AVX-512, measured on the golden
//! machine): the forward matches bit for bit up to 16 channels per group (see
//! `reduction_order`); above that oneDNN reorders the input to 16-channel blocks and sums
//! (channel, kh, kw), which our matmul's blocking does not reproduce. The backward does not
//! match in the last bits: oneDNN's backward-weights kernel sums the bias gradient over
//! (n, oh, ow) in one sequence for 8 channels but splits the batch over the threads for 1
//! channel (so it depends on the machine's core count), and its weight and input gradients
//! come from kernels with their own blocking; PyTorch's `Linear` is MKL's sgemm, whose
//! small-K kernels add the products as a tree (K = 8: eight lanes reduced pairwise) rather
//! than in sequence. The gradients differ by at most a few 1e-8, which SGD keeps below the
//! 4th printed digit but Adam, which divides by each gradient's running size, amplifies into
//! the 3rd-4th digit within a few epochs on the digits CNN.
use super::host::{i64s, make, make_i64, rename, take_flat, values};
use crate::core::window::Columns;
pub use crate::core::window::Window;
use crate::tensor::autocast::{self, req, AmpOp};
use crate::tensor::autograd::{is_recording, is_recording1, record};
use crate::tensor::error::{runtime, Result};
use crate::tensor::index::{index, IndexItem};
use crate::tensor::ops::join::{cat, stack};
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::reduce::{max_dim, mean, sum};
use crate::tensor::shape::fmt_list;
use crate::tensor::Tensor;

/// The flat positions of every window element of `x` ([N, C, H, W], contiguous order), in the
/// order [n][c][ki][kj][oy][ox]; positions outside the input are `n*c*h*w` (the pad element).
fn window_positions(shape: &[usize], w: &Window, out: [usize; 2]) -> Vec<i64> {
    let (n, c, h, wd) = (shape[0], shape[1], shape[2], shape[3]);
    let pad = (n * c * h * wd) as i64;
    let [kh, kw] = w.kernel;
    let mut v = Vec::with_capacity(n * c * kh * kw * out[0] * out[1]);
    for plane in 0..n * c {
        for ki in 0..kh {
            for kj in 0..kw {
                for oy in 0..out[0] {
                    let y = (oy * w.stride[0] + ki * w.dilation[0]) as i64 - w.padding[0] as i64;
                    for ox in 0..out[1] {
                        let x =
                            (ox * w.stride[1] + kj * w.dilation[1]) as i64 - w.padding[1] as i64;
                        v.push(if y < 0 || x < 0 || y >= h as i64 || x >= wd as i64 {
                            pad
                        } else {
                            (plane * h * wd) as i64 + y * wd as i64 + x
                        });
                    }
                }
            }
        }
    }
    v
}

/// `x` with one element `fill` appended after its last, flattened.
fn with_pad_element(x: &Tensor, fill: f64) -> Result<Tensor> {
    let pad = make(&[fill], &[1], x.dtype(), x.device())?;
    cat(&[x.reshape(&[-1])?, pad], 0)
}

/// `x` as a batch: (the 4-d input, whether a batch dim was added).
fn batched(x: &Tensor, op: &str) -> Result<(Tensor, bool)> {
    match x.ndim() {
        4 => Ok((x.clone(), false)),
        3 => Ok((x.unsqueeze(0)?, true)),
        _ => runtime(format!(
            "Expected 3D (unbatched) or 4D (batched) input to {op}, but got input of size: {}",
            fmt_list(x.shape())
        )),
    }
}

/// `x` ([N, C, H, W]) with `top`/`left` rows/columns of `fill` before and `bottom`/`right`
/// after (two `cat`s, so gradients flow back to `x`).
fn padded(
    x: &Tensor,
    [top, left]: [usize; 2],
    [bottom, right]: [usize; 2],
    fill: f64,
) -> Result<Tensor> {
    let mut t = x.clone();
    for (dim, before, after) in [(2, top, bottom), (3, left, right)] {
        if before + after == 0 {
            continue;
        }
        let mut shape = t.shape().to_vec();
        let mut parts = Vec::with_capacity(3);
        for (n, last) in [(before, false), (after, true)] {
            if last {
                parts.push(t.clone());
            }
            if n > 0 {
                shape[dim] = n;
                let len = shape.iter().product();
                parts.push(make(&vec![fill; len], &shape, t.dtype(), t.device())?);
            }
        }
        t = cat(&parts, dim as i64)?;
    }
    Ok(t)
}

/// The windows of `x` ([N, C, H, W]): one strided slice of the padded input per kernel offset
/// (`[N, C, OH, OW]` each, offsets row-major), and the output size. Positions in the padding
/// (or past it, for a `ceil_mode` window) read `fill`: 0 for convolution and average pooling,
/// -inf for max pooling.
fn window_views(x: &Tensor, w: &Window, fill: f64) -> Result<(Vec<Tensor>, [usize; 2])> {
    let s = x.shape().to_vec();
    let Some(out) = w.out_size([s[2], s[3]]) else {
        return runtime(format!(
            "Calculated padded input size per channel: ({} x {}). Kernel size: ({} x {}). Kernel size can't be greater than actual input size",
            s[2] + 2 * w.padding[0],
            s[3] + 2 * w.padding[1],
            w.dilation[0] * (w.kernel[0] - 1) + 1,
            w.dilation[1] * (w.kernel[1] - 1) + 1
        ));
    };
    // the rows and columns the last window reaches, past the input and its padding with ceil_mode
    let reach = |k: usize| (out[k] - 1) * w.stride[k] + w.dilation[k] * (w.kernel[k] - 1) + 1;
    let after = |k: usize| reach(k).saturating_sub(s[2 + k] + w.padding[k]);
    let xp = padded(x, w.padding, [after(0), after(1)], fill)?;
    let all = IndexItem::Slice(None, None, None);
    let mut views = Vec::with_capacity(w.kernel[0] * w.kernel[1]);
    for ki in 0..w.kernel[0] {
        for kj in 0..w.kernel[1] {
            let at = |k: usize, o: usize| {
                let start = (o * w.dilation[k]) as i64;
                let stop = start + ((out[k] - 1) * w.stride[k]) as i64 + 1;
                IndexItem::Slice(Some(start), Some(stop), Some(w.stride[k] as i64))
            };
            views.push(index(
                &xp,
                &[all.clone(), all.clone(), at(0, ki), at(1, kj)],
            )?);
        }
    }
    Ok((views, out))
}

/// The windows of `x` ([N, C, H, W]) stacked as [N, C, kh*kw, OH*OW], or with `offsets_outer`
/// as [N, kh*kw, C, OH*OW], and the output size (see `window_views`).
fn unfold(x: &Tensor, w: &Window, fill: f64, offsets_outer: bool) -> Result<(Tensor, [usize; 2])> {
    // the backend's one-pass kernel where it has one, its gradient `fold`
    let s = x.shape();
    if let Some(out) = w.out_size([s[2], s[3]]) {
        let layout = Columns {
            window: *w,
            out,
            offsets_outer,
        };
        let backend = crate::tensor::dispatch::on(x.device());
        if let Some(cols) = backend.im2col(x, &layout, fill)? {
            if is_recording1(x) {
                let shape = [s[0], s[1], s[2], s[3]];
                record("Im2ColBackward0", &[x], &cols, &[], move |g, _| {
                    Ok(vec![Some(fold(g, shape, layout)?)])
                })?;
            }
            return Ok((cols, out));
        }
    }
    unfold_composed(x, w, fill, offsets_outer)
}

/// The adjoint of `unfold` (the gradient of its one-pass kernel): the columns `g` summed back
/// onto an input shaped `shape`; its own gradient is `unfold` again (second derivatives).
fn fold(g: &Tensor, shape: [usize; 4], layout: Columns) -> Result<Tensor> {
    let backend = crate::tensor::dispatch::on(g.device());
    // (`unfold`'s columns were float32 on the CPU, so their gradient is too)
    let Some(gx) = backend.col2im(&g.contiguous()?, shape, &layout)? else {
        return runtime(format!(
            "col2im: no kernel for a {} gradient",
            g.dtype().name()
        ));
    };
    if is_recording1(g) {
        record("Col2ImBackward0", &[g], &gx, &[], move |gg, _| {
            let (w, outer) = (layout.window, layout.offsets_outer);
            Ok(vec![Some(unfold(gg, &w, 0.0, outer)?.0)])
        })?;
    }
    Ok(gx)
}

/// `unfold` from existing ops (slices of the padded input, stacked), so it runs on every
/// device and records its gradient.
fn unfold_composed(
    x: &Tensor,
    w: &Window,
    fill: f64,
    offsets_outer: bool,
) -> Result<(Tensor, [usize; 2])> {
    let s = x.shape().to_vec();
    let (views, out) = window_views(x, w, fill)?;
    let stacked = stack(&views, if offsets_outer { 1 } else { 2 })?;
    let (a, b) = if offsets_outer {
        (views.len(), s[1])
    } else {
        (s[1], views.len())
    };
    let cols = stacked.view(&i64s(&[s[0], a, b, out[0] * out[1]]))?;
    Ok((cols, out))
}

/// Up to this many input channels per group, PyTorch's CPU convolution (oneDNN's AVX-512
/// direct kernel on a plain NCHW input) accumulates each output over (kh, kw, channel); above
/// it the input is reordered to 16-channel blocks and the order is (channel, kh, kw).
const SMALL_CHANNELS: usize = 16;

/// One group's columns as [N, K, L] and weights as [og, K], the reduction index K in the
/// order PyTorch's CPU convolution sums it (one fused multiply-add per term, bias last), so
/// the matmul's sequential sums round as PyTorch's do (checked bit for bit for 1 to 16
/// channels; see `SMALL_CHANNELS`). `cols` is `unfold`'s, offsets outer for small groups.
fn reduction_order(
    cols: &Tensor,
    weight: &Tensor,
    (c0, cg): (usize, usize),
    (o0, og): (usize, usize),
    l: i64,
) -> Result<(Tensor, Tensor)> {
    let n = cols.shape()[0] as i64;
    let gw = weight.narrow(0, o0 as i64, og as i64)?;
    if cg > SMALL_CHANNELS {
        let gc = cols.narrow(1, c0 as i64, cg as i64)?;
        return Ok((gc.reshape(&[n, -1, l])?, gw.reshape(&[og as i64, -1])?));
    }
    let gc = cols.narrow(2, c0 as i64, cg as i64)?;
    Ok((
        gc.reshape(&[n, -1, l])?,
        gw.permute(&[0, 2, 3, 1])?.reshape(&[og as i64, -1])?,
    ))
}

/// The backend's one-pass convolution (`Backend::conv2d`: the product of `unfold`'s columns
/// with the weights, with its bits, without writing the columns out) as `[N, O, OH * OW]`,
/// and the output size; `None` where it has none, and when a gradient is wanted (the
/// composed path records the columns for it) or the weights form groups.
fn one_pass(
    x: &Tensor,
    weight: &Tensor,
    w: &Window,
    groups: usize,
) -> Result<Option<(Tensor, [usize; 2])>> {
    let s = x.shape();
    let Some(out) = w.out_size([s[2], s[3]]) else {
        return Ok(None);
    };
    if groups != 1 || is_recording(&[x, weight]) {
        return Ok(None);
    }
    let layout = Columns {
        window: *w,
        out,
        offsets_outer: s[1] <= SMALL_CHANNELS,
    };
    let backend = crate::tensor::dispatch::on(x.device());
    Ok(backend.conv2d(x, weight, &layout)?.map(|y| (y, out)))
}

/// `F.conv2d(x, weight, bias, stride, padding, dilation, groups)`.
pub fn conv2d(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    w: Window,
    groups: usize,
) -> Result<Tensor> {
    let v = autocast::cast_opts(AmpOp::Conv2d, &[Some(x), Some(weight), bias])?;
    let (x, weight) = (req(&v[0]), req(&v[1]));
    autocast::excluded(|| conv2d_uncast(x, weight, v[2].as_ref(), w, groups))
}

/// `conv2d` past autocast (its inputs already cast, nested ops not cast again).
fn conv2d_uncast(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    w: Window,
    groups: usize,
) -> Result<Tensor> {
    let (xb, added) = batched(x, "conv2d")?;
    if weight.ndim() != 4 {
        return runtime("weight should have at least three dimensions");
    }
    let ws = weight.shape().to_vec();
    let (n, c) = (xb.shape()[0], xb.shape()[1]);
    if groups == 0 || !ws[0].is_multiple_of(groups) || c != ws[1] * groups {
        return runtime(format!(
            "Given groups={groups}, weight of size {}, expected input{} to have {} channels, but got {c} channels instead",
            fmt_list(&ws),
            fmt_list(xb.shape()),
            ws[1] * groups
        ));
    }
    if let Some(b) = bias {
        if b.ndim() != 1 || b.shape()[0] != ws[0] {
            return runtime(format!(
                "Given weight of size {}, expected bias to be 1-dimensional with {} elements, but got bias of size {} instead",
                fmt_list(&ws),
                ws[0],
                fmt_list(b.shape())
            ));
        }
    }
    let win = Window {
        kernel: [ws[2], ws[3]],
        ..w
    };
    let (cg, og) = (c / groups, ws[0] / groups);
    let (mut y, out) = match one_pass(&xb, weight, &win, groups)? {
        Some(done) => done,
        None => {
            let (cols, out) = unfold(&xb, &win, 0.0, cg <= SMALL_CHANNELS)?;
            let l = (out[0] * out[1]) as i64;
            let mut parts = Vec::with_capacity(groups);
            for g in 0..groups {
                let (gcols, gw) = reduction_order(&cols, weight, (g * cg, cg), (g * og, og), l)?;
                parts.push(matmul(&gw, &gcols)?);
            }
            let y = if groups == 1 {
                parts.remove(0)
            } else {
                cat(&parts, 1)?
            };
            (y, out)
        }
    };
    if let Some(b) = bias {
        y = crate::tensor::autograd::util::add(&y, &b.reshape(&[1, -1, 1])?)?;
    }
    let mut y = y.reshape(&[n as i64, ws[0] as i64, out[0] as i64, out[1] as i64])?;
    if added {
        y = y.squeeze(Some(0))?;
    }
    rename(&y, "ConvolutionBackward0");
    Ok(y)
}

/// `F.conv1d(x, weight, bias, stride, padding, dilation, groups)`: a conv2d of height 1.
pub fn conv1d(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    stride: usize,
    padding: usize,
    dilation: usize,
    groups: usize,
) -> Result<Tensor> {
    let v = autocast::cast_opts(AmpOp::Conv1d, &[Some(x), Some(weight), bias])?;
    let (x, weight) = (req(&v[0]), req(&v[1]));
    autocast::excluded(|| {
        conv1d_uncast(x, weight, v[2].as_ref(), stride, padding, dilation, groups)
    })
}

/// `conv1d` past autocast (its inputs already cast, nested ops not cast again).
fn conv1d_uncast(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    stride: usize,
    padding: usize,
    dilation: usize,
    groups: usize,
) -> Result<Tensor> {
    if x.ndim() != 2 && x.ndim() != 3 {
        return runtime(format!(
            "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: {}",
            fmt_list(x.shape())
        ));
    }
    if weight.ndim() != 3 {
        return runtime("weight should have at least three dimensions");
    }
    let w = Window {
        kernel: [1, 1],
        stride: [1, stride],
        padding: [0, padding],
        dilation: [1, dilation],
        ceil_mode: false,
    };
    let y = conv2d(&x.unsqueeze(-2)?, &weight.unsqueeze(2)?, bias, w, groups)?;
    let y = y.squeeze(Some(-2))?;
    rename(&y, "ConvolutionBackward0");
    Ok(y)
}

fn pool_input(x: &Tensor, op: &str, w: &Window) -> Result<(Tensor, bool)> {
    for k in 0..2 {
        if w.padding[k] * 2 > w.kernel[k] {
            return runtime(format!(
                "pad should be at most half of effective kernel size, but got pad={}, kernel_size={} and dilation={}",
                w.padding[k], w.kernel[k], w.dilation[k]
            ));
        }
    }
    batched(x, op)
}

fn unbatch(y: Tensor, added: bool, name: &'static str) -> Result<Tensor> {
    let y = if added { y.squeeze(Some(0))? } else { y };
    rename(&y, name);
    Ok(y)
}

/// `F.max_pool2d(x, kernel_size, stride, padding, dilation, ceil_mode)`.
pub fn max_pool2d(x: &Tensor, w: Window) -> Result<Tensor> {
    Ok(max_pool2d_with_indices(x, w, false)?.0)
}

/// `F.max_pool2d(..., return_indices=...)`: the pooled values and, when asked, each one's
/// flat position in its input plane (`h * W + w`, int64), as PyTorch returns them. Ties go
/// to the first window element, as PyTorch's CPU kernel keeps the first maximum.
pub fn max_pool2d_with_indices(
    x: &Tensor,
    w: Window,
    with_indices: bool,
) -> Result<(Tensor, Option<Tensor>)> {
    // one kernel in PyTorch, so the ops it runs here are not cast
    autocast::excluded(|| max_pool2d_uncast(x, w, with_indices))
}

/// The max pooling itself, past autocast.
fn max_pool2d_uncast(
    x: &Tensor,
    w: Window,
    with_indices: bool,
) -> Result<(Tensor, Option<Tensor>)> {
    let (xb, added) = pool_input(x, "max_pool2d", &w)?;
    let (cols, out) = unfold(&xb, &w, f64::NEG_INFINITY, false)?;
    let (v, at) = max_dim(&cols, 2, false, true)?;
    let s = xb.shape().to_vec();
    let shape = i64s(&[s[0], s[1], out[0], out[1]]);
    let y = unbatch(v.reshape(&shape)?, added, "MaxPool2DWithIndicesBackward0")?;
    if !with_indices {
        return Ok((y, None));
    }
    // window element k of output p in plane c sits at positions[(c*kk + k)*L + p]
    let pos = window_positions(&s, &w, out);
    let (kk, l, plane) = (w.kernel[0] * w.kernel[1], out[0] * out[1], s[2] * s[3]);
    let idx: Vec<i64> = i64_values(&at)?
        .iter()
        .enumerate()
        .map(|(q, &k)| {
            let (c, p) = (q / l, q % l);
            pos[(c * kk + k as usize) * l + p] % plane as i64
        })
        .collect();
    let mut i = make_i64(&idx, &[s[0], s[1], out[0], out[1]], x.device())?;
    if added {
        i = i.squeeze(Some(0))?;
    }
    Ok((y, Some(i)))
}

/// `F.max_unpool2d(x, indices, ...)`: zeros of the unpooled size ([.., oh, ow]) with each
/// value of `x` written at its index (a flat position in its plane, as `max_pool2d` returns).
pub fn max_unpool2d(x: &Tensor, indices: &Tensor, out: [usize; 2]) -> Result<Tensor> {
    if x.shape() != indices.shape() {
        return runtime(format!(
            "Expected shape of indices to be same as that of the input tensor ({}) but got indices tensor with shape: {}",
            fmt_list(x.shape()),
            fmt_list(indices.shape())
        ));
    }
    let (xb, added) = batched(x, "max_unpool2d")?;
    let s = xb.shape().to_vec();
    let (n, c) = (s[0] as i64, s[1] as i64);
    let plane = out[0] * out[1];
    let idx = indices.reshape(&[n, c, -1])?;
    // PyTorch's kernel records each invalid index it meets and reports the last one
    if let Some(&bad) = i64_values(&idx)?
        .iter()
        .rev()
        .find(|&&v| v < 0 || v >= plane as i64)
    {
        return runtime(format!(
            "Found an invalid max index: {bad} (output volumes are of size {}x{})",
            out[0], out[1]
        ));
    }
    let zeros = make(
        &vec![0.0; s[0] * s[1] * plane],
        &[s[0], s[1], plane],
        x.dtype(),
        x.device(),
    )?;
    let src = xb.reshape(&[n, c, -1])?;
    let y = super::gather::scatter(&zeros, 2, &idx, super::gather::Src::Tensor(&src), false)?;
    let y = y.reshape(&[n, c, out[0] as i64, out[1] as i64])?;
    unbatch(y, added, "MaxUnpool2DBackward0")
}

/// The int64 values of `t` in order.
fn i64_values(t: &Tensor) -> Result<Vec<i64>> {
    Ok(values(t)?.into_iter().map(|v| v as i64).collect())
}

/// Each window's divisor in `F.avg_pool2d`, as PyTorch's kernel computes it: the window
/// clipped to the padded input (count_include_pad) or to the input itself, unless
/// `divisor_override` fixes it. With ceil_mode a last window may reach past the padding.
fn avg_divisors(
    w: &Window,
    input: [usize; 2],
    out: [usize; 2],
    count_include_pad: bool,
    divisor_override: Option<usize>,
) -> Vec<f64> {
    let extent = |o: usize, k: usize| {
        let start = (o * w.stride[k]) as i64 - w.padding[k] as i64;
        let end = (start + w.kernel[k] as i64).min((input[k] + w.padding[k]) as i64);
        let size = end - start;
        let inside = end.min(input[k] as i64) - start.max(0);
        if count_include_pad {
            size
        } else {
            inside
        }
    };
    (0..out[0] * out[1])
        .map(|p| match divisor_override {
            Some(d) => d as f64,
            None => (extent(p / out[1], 0) * extent(p % out[1], 1)) as f64,
        })
        .collect()
}

/// `F.avg_pool2d(x, kernel_size, stride, padding, ceil_mode, count_include_pad,
/// divisor_override)`.
pub fn avg_pool2d(
    x: &Tensor,
    w: Window,
    count_include_pad: bool,
    divisor_override: Option<usize>,
) -> Result<Tensor> {
    autocast::excluded(|| avg_pool2d_uncast(x, w, count_include_pad, divisor_override))
}

/// The pooling itself: one kernel in PyTorch, so the ops it runs here are not cast.
fn avg_pool2d_uncast(
    x: &Tensor,
    w: Window,
    count_include_pad: bool,
    divisor_override: Option<usize>,
) -> Result<Tensor> {
    let (xb, added) = pool_input(x, "avg_pool2d", &w)?;
    // each window's sum in window order (PyTorch's), one added view per kernel offset
    let (views, out) = window_views(&xb, &w, 0.0)?;
    let mut total = views[0].clone();
    for v in &views[1..] {
        total = crate::tensor::autograd::util::add(&total, v)?;
    }
    let s = xb.shape().to_vec();
    let div = avg_divisors(&w, [s[2], s[3]], out, count_include_pad, divisor_override);
    let c = make(&div, &[out[0], out[1]], x.dtype(), x.device())?;
    let v = crate::tensor::autograd::util::div(&total, &c)?;
    let y = v.reshape(&i64s(&[s[0], s[1], out[0], out[1]]))?;
    unbatch(y, added, "AvgPool2DBackward0")
}

/// `F.adaptive_avg_pool2d(x, output_size)`: output cell i averages input rows
/// floor(i*H/oh) .. ceil((i+1)*H/oh), and likewise for columns.
pub fn adaptive_avg_pool2d(x: &Tensor, size: [usize; 2]) -> Result<Tensor> {
    autocast::excluded(|| adaptive_avg_pool2d_uncast(x, size))
}

/// The pooling itself: one kernel in PyTorch, so the ops it runs here are not cast.
fn adaptive_avg_pool2d_uncast(x: &Tensor, size: [usize; 2]) -> Result<Tensor> {
    let (xb, added) = batched(x, "adaptive_avg_pool2d")?;
    if size == [1, 1] {
        // PyTorch takes the mean over the plane for a 1x1 output (`MeanBackward1`)
        return mean(x, Some(&[-2, -1]), true, None);
    }
    let s = xb.shape().to_vec();
    let (h, wd) = (s[2], s[3]);
    if size[0] == 0 || size[1] == 0 {
        return runtime("adaptive_avg_pool2d(): output_size must be greater than 0");
    }
    let span = |i: usize, o: usize, n: usize| (i * n / o, ((i + 1) * n).div_ceil(o));
    let kmax = |o: usize, n: usize| {
        (0..o)
            .map(|i| {
                let (a, b) = span(i, o, n);
                b - a
            })
            .max()
            .unwrap_or(1)
    };
    let (kh, kw) = (kmax(size[0], h), kmax(size[1], wd));
    let planes = s[0] * s[1];
    let pad = (planes * h * wd) as i64;
    let mut pos = Vec::with_capacity(planes * kh * kw * size[0] * size[1]);
    for plane in 0..planes {
        for ki in 0..kh {
            for kj in 0..kw {
                for oy in 0..size[0] {
                    let (y0, y1) = span(oy, size[0], h);
                    for ox in 0..size[1] {
                        let (x0, x1) = span(ox, size[1], wd);
                        let (y, xx) = (y0 + ki, x0 + kj);
                        pos.push(if y < y1 && xx < x1 {
                            (plane * h * wd + y * wd + xx) as i64
                        } else {
                            pad
                        });
                    }
                }
            }
        }
    }
    let counts: Vec<f64> = (0..size[0] * size[1])
        .map(|p| {
            let (a, b) = span(p / size[1], size[0], h);
            let (c, d) = span(p % size[1], size[1], wd);
            ((b - a) * (d - c)) as f64
        })
        .collect();
    let src = with_pad_element(&xb, 0.0)?;
    let cols = take_flat(&src, &pos, &[s[0], s[1], kh * kw, size[0] * size[1]])?;
    let c = make(&counts, &[size[0] * size[1]], x.dtype(), x.device())?;
    let v = crate::tensor::autograd::util::div(&sum(&cols, Some(&[2]), false, None)?, &c)?;
    let y = v.reshape(&i64s(&[s[0], s[1], size[0], size[1]]))?;
    unbatch(y, added, "AdaptiveAvgPool2DBackward0")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{DType, Device};

    /// Its gradient (`col2im`) gives the composed slices' gradient to the bit: the same sums
    /// in the same order.
    #[test]
    fn col2im_matches_the_composed_gradient() {
        let shape = [2, 3, 7, 6];
        let v: Vec<f64> = (0..252)
            .map(|i| ((i * 37) % 101) as f64 / 7.0 - 5.0)
            .collect();
        let x = make(&v, &shape, DType::F32, Device::Cpu).unwrap();
        x.set_requires_grad(true);
        for (kernel, stride, padding) in [
            ([3, 3], [1, 1], [1, 1]),
            ([3, 2], [2, 1], [1, 0]),
            ([5, 5], [1, 1], [2, 2]),
        ] {
            let w = Window {
                kernel,
                stride,
                padding,
                dilation: [1, 1],
                ceil_mode: false,
            };
            for outer in [false, true] {
                let (fast, _) = unfold(&x, &w, 0.0, outer).unwrap();
                let (slow, _) = unfold_composed(&x, &w, 0.0, outer).unwrap();
                let n = fast.numel();
                let gv: Vec<f64> = (0..n)
                    .map(|i| ((i * 7919) % 1013) as f64 / 97.0 - 5.2)
                    .collect();
                let g = make(&gv, fast.shape(), DType::F32, Device::Cpu).unwrap();
                let grad = |cols: &Tensor| {
                    let r = crate::tensor::autograd::grad(
                        std::slice::from_ref(cols),
                        std::slice::from_ref(&x),
                        &[Some(g.clone())],
                        false,
                        false,
                    );
                    values(r.unwrap()[0].as_ref().unwrap()).unwrap()
                };
                let (a, b) = (grad(&fast), grad(&slow));
                assert_eq!(a.len(), b.len());
                assert!(
                    a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()),
                    "{w:?} outer {outer}"
                );
            }
        }
    }

    /// The backend's one-pass convolution (taken when no gradient is wanted) gives the
    /// composed product's bits: strides, padding, dilation, 1×1 kernels, one image (its
    /// columns split over the threads), strips inside one output row, strips that cross
    /// output rows or end short, and both reduction orders (up to 16 channels and above).
    #[test]
    fn the_one_pass_convolution_gives_the_composed_bits() {
        let cases = [
            ([32, 16, 12, 32], [32, 16, 3, 3], [1, 1], [1, 1], [1, 1]),
            ([2, 3, 17, 13], [5, 3, 3, 3], [1, 1], [1, 1], [1, 1]),
            ([1, 1, 28, 28], [16, 1, 3, 3], [1, 1], [0, 0], [1, 1]),
            ([4, 20, 9, 11], [8, 20, 3, 2], [2, 2], [1, 2], [1, 1]),
            ([3, 4, 15, 15], [6, 4, 3, 3], [1, 3], [2, 2], [2, 2]),
            ([2, 8, 7, 40], [33, 8, 1, 1], [1, 1], [0, 0], [1, 1]),
            ([1, 24, 8, 8], [70, 24, 3, 3], [1, 1], [1, 1], [1, 1]),
            ([5, 2, 6, 6], [8, 2, 5, 5], [1, 1], [3, 3], [1, 1]),
            // rows of 64 outputs: every strip inside one row (`row_runs`), padded both sides
            ([2, 3, 5, 64], [8, 3, 3, 3], [1, 1], [1, 2], [1, 2]),
        ];
        let fill = |shape: &[usize], seed: usize| {
            let n: usize = shape.iter().product();
            let v: Vec<f64> = (0..n)
                .map(|i| ((i * 7919 + seed) % 1013) as f64 / 97.0 - 5.2)
                .collect();
            make(&v, shape, DType::F32, Device::Cpu).unwrap()
        };
        for (xs, ws, stride, padding, dilation) in cases {
            let (x, weight, bias) = (fill(&xs, 1), fill(&ws, 2), fill(&ws[..1], 3));
            let win = Window {
                kernel: [ws[2], ws[3]],
                stride,
                padding,
                dilation,
                ceil_mode: false,
            };
            if crate::backend::cpu::sleef::has_avx512() {
                assert!(one_pass(&x, &weight, &win, 1).unwrap().is_some(), "{xs:?}");
            }
            let fast = conv2d(&x, &weight, Some(&bias), win, 1).unwrap();
            x.set_requires_grad(true);
            let composed = conv2d(&x, &weight, Some(&bias), win, 1).unwrap();
            let (a, b) = (values(&fast).unwrap(), values(&composed).unwrap());
            assert_eq!(fast.shape(), composed.shape());
            assert!(
                a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()),
                "{xs:?} {ws:?}"
            );
        }
    }

    /// The one-pass gradient is itself differentiable: d<fold(g), h>/dg is `unfold(h)`.
    #[test]
    fn col2im_has_a_second_derivative() {
        use crate::tensor::autograd::{grad, grad_with, util::mul};
        let v: Vec<f64> = (0..50)
            .map(|i| ((i * 13) % 29) as f64 / 3.0 - 4.0)
            .collect();
        let x = make(&v, &[1, 2, 5, 5], DType::F32, Device::Cpu).unwrap();
        x.set_requires_grad(true);
        let w = Window {
            kernel: [3, 3],
            stride: [2, 1],
            padding: [1, 1],
            dilation: [1, 1],
            ceil_mode: false,
        };
        let (cols, _) = unfold(&x, &w, 0.0, true).unwrap();
        let gv: Vec<f64> = (0..cols.numel()).map(|i| (i % 11) as f64 - 5.0).collect();
        let g = make(&gv, cols.shape(), DType::F32, Device::Cpu).unwrap();
        g.set_requires_grad(true);
        let gx = grad_with(
            &[cols],
            std::slice::from_ref(&x),
            &[Some(g.clone())],
            true,
            false,
            true,
        )
        .unwrap();
        let hv: Vec<f64> = v.iter().map(|a| a * 0.5 + 1.0).collect();
        let h = make(&hv, &[1, 2, 5, 5], DType::F32, Device::Cpu).unwrap();
        let s = sum(
            &mul(gx[0].as_ref().unwrap(), &h).unwrap(),
            None,
            false,
            None,
        )
        .unwrap();
        let dg = grad(&[s], &[g], &[None], false, false).unwrap();
        let expected = unfold_composed(&h, &w, 0.0, true).unwrap().0;
        assert_eq!(
            values(dg[0].as_ref().unwrap()).unwrap(),
            values(&expected).unwrap()
        );
    }

    /// The CPU's one-pass `im2col` gives the composed unfold's columns, for strides, padding,
    /// dilation, `ceil_mode` windows past the input, both fills and both layouts.
    #[test]
    fn im2col_matches_the_composed_windows() {
        let image = |shape: [usize; 4]| {
            let v: Vec<f64> = (0..shape.iter().product::<usize>())
                .map(|i| ((i * 37) % 101) as f64 / 7.0 - 5.0)
                .collect();
            make(&v, &shape, DType::F32, Device::Cpu).unwrap()
        };
        let (x, wide) = (image([2, 3, 7, 6]), image([1, 2, 3, 40]));
        let geometry = [
            (&x, [3, 3], [1, 1], [1, 1], [1, 1], false),
            (&x, [2, 3], [2, 1], [0, 1], [1, 2], false),
            (&x, [3, 2], [2, 3], [1, 1], [1, 1], true),
            (&x, [1, 1], [3, 2], [0, 0], [1, 1], true),
            (&x, [5, 4], [1, 2], [2, 2], [1, 1], false),
            // a row of 30 outputs read from one of 40: the copy's tail is the row's
            (&wide, [1, 11], [1, 1], [0, 0], [1, 1], false),
        ];
        for (x, kernel, stride, padding, dilation, ceil_mode) in geometry {
            let w = Window {
                kernel,
                stride,
                padding,
                dilation,
                ceil_mode,
            };
            for fill in [0.0, f64::NEG_INFINITY] {
                for outer in [false, true] {
                    let (fast, out) = unfold(x, &w, fill, outer).unwrap();
                    let (slow, out2) = unfold_composed(x, &w, fill, outer).unwrap();
                    assert_eq!(out, out2);
                    assert_eq!(fast.shape(), slow.shape(), "{w:?}");
                    let (a, b) = (values(&fast).unwrap(), values(&slow).unwrap());
                    assert!(
                        a.iter().zip(&b).all(|(p, q)| p == q),
                        "{w:?} fill {fill} outer {outer}"
                    );
                }
            }
        }
    }
}
