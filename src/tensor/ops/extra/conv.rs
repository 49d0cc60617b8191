//! Convolution and pooling as im2col: the windows of the input are gathered by flat position
//! (`host::take_flat`; positions in the padding read one extra element appended to the input:
//! 0 for convolution and average pooling, -inf for max pooling), then convolution is one
//! matmul with the weights and pooling a max or mean over each window. Every step is an
//! existing op, so this runs on every device with autograd; the last node is named as
//! PyTorch names it (`ConvolutionBackward0`, `MaxPool2DWithIndicesBackward0`, ...).
use super::host::{i64s, make, rename, take_flat};
use crate::tensor::error::{not_impl, runtime, Result};
use crate::tensor::ops::join::cat;
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::reduce::{max_dim, mean, sum};
use crate::tensor::shape::fmt_list;
use crate::tensor::Tensor;

/// Window geometry of a 2-d op: kernel, stride, padding, dilation (each (h, w)).
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    pub padding: [usize; 2],
    pub dilation: [usize; 2],
    pub ceil_mode: bool,
}

impl Window {
    fn out_size(&self, input: [usize; 2]) -> Option<[usize; 2]> {
        let mut o = [0; 2];
        for k in 0..2 {
            let span = self.dilation[k] * (self.kernel[k] - 1) + 1;
            let padded = input[k] + 2 * self.padding[k];
            if padded < span || self.stride[k] == 0 {
                return None;
            }
            let mut n = (padded - span) / self.stride[k] + 1;
            if self.ceil_mode && !(padded - span).is_multiple_of(self.stride[k]) {
                // a last window may start in the input or left padding, never the right
                if (n) * self.stride[k] < input[k] + self.padding[k] {
                    n += 1;
                }
            }
            o[k] = n;
        }
        Some(o)
    }
}

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

/// The windows of `x` ([N, C, H, W]) as [N, C, kh*kw, OH*OW], and the output size.
fn unfold(x: &Tensor, w: &Window, fill: f64) -> Result<(Tensor, [usize; 2])> {
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
    let pos = window_positions(&s, w, out);
    let src = with_pad_element(x, fill)?;
    let cols = take_flat(
        &src,
        &pos,
        &[s[0], s[1], w.kernel[0] * w.kernel[1], out[0] * out[1]],
    )?;
    Ok((cols, out))
}

/// `F.conv2d(x, weight, bias, stride, padding, dilation, groups)`.
pub fn conv2d(
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
    let (cols, out) = unfold(&xb, &win, 0.0)?;
    let l = (out[0] * out[1]) as i64;
    let (cg, og) = (c / groups, ws[0] / groups);
    let mut parts = Vec::with_capacity(groups);
    for g in 0..groups {
        // [N, cg*kh*kw, L] for this group's channels, times its weights [og, cg*kh*kw]
        let gcols = cols
            .narrow(1, (g * cg) as i64, cg as i64)?
            .reshape(&[n as i64, -1, l])?;
        let gw = weight
            .narrow(0, (g * og) as i64, og as i64)?
            .reshape(&[og as i64, -1])?;
        parts.push(matmul(&gw, &gcols)?);
    }
    let mut y = if groups == 1 {
        parts.remove(0)
    } else {
        cat(&parts, 1)?
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
    let (xb, added) = pool_input(x, "max_pool2d", &w)?;
    let (cols, out) = unfold(&xb, &w, f64::NEG_INFINITY)?;
    let (v, _) = max_dim(&cols, 2, false, true)?;
    let s = xb.shape();
    let y = v.reshape(&i64s(&[s[0], s[1], out[0], out[1]]))?;
    unbatch(y, added, "MaxPool2DWithIndicesBackward0")
}

/// `F.avg_pool2d(x, kernel_size, stride, padding, ceil_mode=False, count_include_pad=True)`.
pub fn avg_pool2d(x: &Tensor, w: Window, count_include_pad: bool) -> Result<Tensor> {
    if w.ceil_mode {
        return not_impl("cudalearn does not implement avg_pool2d with ceil_mode=True yet")
            .map_err(|e| e.with_hint("pad the input so the windows fit, or use ceil_mode=False"));
    }
    let (xb, added) = pool_input(x, "avg_pool2d", &w)?;
    let (cols, out) = unfold(&xb, &w, 0.0)?;
    let s = xb.shape().to_vec();
    let v = if count_include_pad || w.padding == [0, 0] {
        mean(&cols, Some(&[2]), false, None)?
    } else {
        // divide each window's sum by the number of its elements inside the input
        let counts: Vec<f64> = (0..out[0] * out[1])
            .map(|p| {
                let (oy, ox) = (p / out[1], p % out[1]);
                let inside = |o: usize, k: usize| {
                    (0..w.kernel[k])
                        .filter(|&i| {
                            let at = (o * w.stride[k] + i) as i64 - w.padding[k] as i64;
                            at >= 0 && at < s[2 + k] as i64
                        })
                        .count()
                };
                (inside(oy, 0) * inside(ox, 1)) as f64
            })
            .collect();
        let c = make(&counts, &[out[0] * out[1]], x.dtype(), x.device())?;
        crate::tensor::autograd::util::div(&sum(&cols, Some(&[2]), false, None)?, &c)?
    };
    let y = v.reshape(&i64s(&[s[0], s[1], out[0], out[1]]))?;
    unbatch(y, added, "AvgPool2DBackward0")
}

/// `F.adaptive_avg_pool2d(x, output_size)`: output cell i averages input rows
/// floor(i*H/oh) .. ceil((i+1)*H/oh), and likewise for columns.
pub fn adaptive_avg_pool2d(x: &Tensor, size: [usize; 2]) -> Result<Tensor> {
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
