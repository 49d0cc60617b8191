//! `torch.nn.functional` convolution and pooling: `conv1d`, `conv2d`, `max_pool2d`,
//! `avg_pool2d`, `adaptive_avg_pool2d` (the engine side is `tensor::ops::extra::conv`).
use super::convert::*;
use super::methods::arg;
use super::methods_extra::need_tensor;
use crate::lang::error::{runtime_error, type_error, value_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::value::*;
use crate::tensor::ops::extra::conv::{self, Window};
use crate::tensor::Tensor;

/// An int or a pair of ints (`3`, `(3, 2)`), as (h, w); non-negative.
fn pair(i: &mut Interp, v: &Value, name: &str, f: &str) -> PyResult<[usize; 2]> {
    let l = int_list(i, v)?;
    let l = match l.as_slice() {
        [a] => [*a, *a],
        [a, b] => [*a, *b],
        _ => {
            return Err(type_error(format!(
                "{f}(): argument '{name}' must be an int or a tuple of 2 ints"
            )))
        }
    };
    if l.iter().any(|&x| x < 0) {
        return Err(crate::lang::error::runtime_error(format!(
            "{f}(): {name} must be non-negative, got {l:?}"
        )));
    }
    Ok([l[0] as usize, l[1] as usize])
}

fn pair_or(
    i: &mut Interp,
    a: &Args,
    k: usize,
    name: &str,
    f: &str,
    default: [usize; 2],
) -> PyResult<[usize; 2]> {
    match arg(a, k, name) {
        Some(v) => pair(i, &v, name, f),
        None => Ok(default),
    }
}

/// `padding=` of a convolution: numbers, `'valid'` (0) or `'same'`, as (the padding on both
/// sides, the extra zeros after the end). An even kernel needs an odd total; PyTorch puts
/// the extra one at the end (right, bottom), padding the input before the convolution.
fn conv_padding(
    i: &mut Interp,
    a: &Args,
    k: usize,
    kernel: [usize; 2],
    dil: [usize; 2],
    stride: [usize; 2],
    f: &str,
) -> PyResult<([usize; 2], [usize; 2])> {
    match arg(a, k, "padding") {
        Some(Value::Str(s)) if &*s == "valid" => Ok(([0, 0], [0, 0])),
        Some(Value::Str(s)) if &*s == "same" => {
            if stride != [1, 1] {
                return Err(value_error(
                    "padding='same' is not supported for strided convolutions",
                ));
            }
            let total = [dil[0] * (kernel[0] - 1), dil[1] * (kernel[1] - 1)];
            Ok(([total[0] / 2, total[1] / 2], [total[0] % 2, total[1] % 2]))
        }
        Some(Value::Str(s)) => Err(value_error(format!(
            "Invalid padding string '{s}', should be one of {{'valid', 'same'}}"
        ))),
        Some(v) => Ok((pair(i, &v, "padding", f)?, [0, 0])),
        None => Ok(([0, 0], [0, 0])),
    }
}

/// `x` with `extra` zeros appended to its last two dims (the end of each row, then rows).
fn pad_end(x: &Tensor, extra: [usize; 2]) -> PyResult<Tensor> {
    let mut x = x.clone();
    for (k, &e) in extra.iter().enumerate() {
        if e == 0 || x.ndim() < 2 {
            continue;
        }
        let dim = x.ndim() - 2 + k;
        let mut shape: Vec<i64> = x.shape().iter().map(|&d| d as i64).collect();
        shape[dim] = e as i64;
        let z = crate::tensor::create::zeros(&shape, Some(x.dtype()), x.device()).py()?;
        x = crate::tensor::ops::join::cat(&[x, z], dim as i64).py()?;
    }
    Ok(x)
}

fn groups(a: &Args) -> PyResult<usize> {
    match arg(a, 6, "groups") {
        None => Ok(1),
        Some(v) => v
            .as_int()
            .filter(|&g| g > 0)
            .map(|g| g as usize)
            .ok_or_else(|| {
                crate::lang::error::runtime_error("non-positive groups is not supported")
            }),
    }
}

fn conv2d_f(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let x = need_tensor(&a, 0, "input", "conv2d")?;
    let w = need_tensor(&a, 1, "weight", "conv2d")?;
    let b = arg(&a, 2, "bias").and_then(|v| as_tensor(&v).cloned());
    let stride = pair_or(i, &a, 3, "stride", "conv2d", [1, 1])?;
    let dil = pair_or(i, &a, 5, "dilation", "conv2d", [1, 1])?;
    let k = if w.ndim() == 4 {
        [w.shape()[2], w.shape()[3]]
    } else {
        [1, 1]
    };
    let (padding, extra) = conv_padding(i, &a, 4, k, dil, stride, "conv2d")?;
    let x = pad_end(&x, extra)?;
    let win = Window {
        kernel: k,
        stride,
        padding,
        dilation: dil,
        ceil_mode: false,
    };
    Ok(wrap(
        conv::conv2d(&x, &w, b.as_ref(), win, groups(&a)?).py()?,
    ))
}

fn single(i: &mut Interp, a: &Args, k: usize, name: &str, default: usize) -> PyResult<usize> {
    match arg(a, k, name) {
        Some(v) => {
            let l = int_list(i, &v)?;
            match l.as_slice() {
                [x] if *x >= 0 => Ok(*x as usize),
                _ => Err(type_error(format!(
                    "conv1d(): argument '{name}' must be an int or a tuple of 1 int"
                ))),
            }
        }
        None => Ok(default),
    }
}

fn conv1d_f(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let mut x = need_tensor(&a, 0, "input", "conv1d")?;
    let w = need_tensor(&a, 1, "weight", "conv1d")?;
    let b = arg(&a, 2, "bias").and_then(|v| as_tensor(&v).cloned());
    let stride = single(i, &a, 3, "stride", 1)?;
    let dil = single(i, &a, 5, "dilation", 1)?;
    let k = if w.ndim() == 3 { w.shape()[2] } else { 1 };
    let padding = match arg(&a, 4, "padding") {
        Some(Value::Str(_)) => {
            let (p, extra) = conv_padding(i, &a, 4, [1, k], [1, dil], [1, stride], "conv1d")?;
            x = pad_end(&x, [0, extra[1]])?;
            p[1]
        }
        _ => single(i, &a, 4, "padding", 0)?,
    };
    Ok(wrap(
        conv::conv1d(&x, &w, b.as_ref(), stride, padding, dil, groups(&a)?).py()?,
    ))
}

/// The window of a pooling call: kernel_size, stride (default: the kernel), padding, ...
fn pool_window(i: &mut Interp, a: &Args, f: &str, max: bool) -> PyResult<Window> {
    let kernel = match arg(a, 1, "kernel_size") {
        Some(v) => pair(i, &v, "kernel_size", f)?,
        None => {
            return Err(type_error(format!(
                "{f}() missing required argument 'kernel_size'"
            )))
        }
    };
    if kernel.contains(&0) {
        return Err(crate::lang::error::runtime_error(format!(
            "{f}(): kernel_size must be greater than zero, but got {kernel:?}"
        )));
    }
    let stride = match arg(a, 2, "stride") {
        Some(Value::List(l)) if l.borrow().is_empty() => kernel,
        Some(Value::Tuple(t)) if t.is_empty() => kernel,
        Some(v) => pair(i, &v, "stride", f)?,
        None => kernel,
    };
    let padding = pair_or(i, a, 3, "padding", f, [0, 0])?;
    let (dilation, ceil_k) = if max {
        (pair_or(i, a, 4, "dilation", f, [1, 1])?, 5)
    } else {
        ([1, 1], 4)
    };
    let ceil_mode = match arg(a, ceil_k, "ceil_mode") {
        Some(v) => i.truthy(&v)?,
        None => false,
    };
    Ok(Window {
        kernel,
        stride,
        padding,
        dilation,
        ceil_mode,
    })
}

fn max_pool2d_f(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let x = need_tensor(&a, 0, "input", "max_pool2d")?;
    let with_indices = match arg(&a, 6, "return_indices") {
        Some(v) => i.truthy(&v)?,
        None => false,
    };
    let w = pool_window(i, &a, "max_pool2d", true)?;
    match conv::max_pool2d_with_indices(&x, w, with_indices).py()? {
        (y, Some(at)) => Ok(Value::tuple(vec![wrap(y), wrap(at)])),
        (y, None) => Ok(wrap(y)),
    }
}

/// `F.max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None)`.
fn max_unpool2d_f(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let x = need_tensor(&a, 0, "input", "max_unpool2d")?;
    let at = need_tensor(&a, 1, "indices", "max_unpool2d")?;
    let kernel = match arg(&a, 2, "kernel_size") {
        Some(v) => pair(i, &v, "kernel_size", "max_unpool2d")?,
        None => {
            return Err(type_error(
                "max_unpool2d() missing required argument 'kernel_size'",
            ))
        }
    };
    let stride = match arg(&a, 3, "stride") {
        None | Some(Value::None) => kernel,
        Some(v) => pair(i, &v, "stride", "max_unpool2d")?,
    };
    let padding = pair_or(i, &a, 4, "padding", "max_unpool2d", [0, 0])?;
    let nd = x.ndim();
    let out = match arg(&a, 5, "output_size") {
        None | Some(Value::None) => {
            let mut o = [0; 2];
            for k in 0..2 {
                let size = x
                    .shape()
                    .get((nd + k).wrapping_sub(2))
                    .copied()
                    .unwrap_or(0);
                o[k] = ((size.max(1) - 1) * stride[k] + kernel[k]).saturating_sub(2 * padding[k]);
            }
            o
        }
        Some(v) => {
            let l = int_list(i, &v)?;
            match l.len() {
                n if n >= 2 => [l[n - 2] as usize, l[n - 1] as usize],
                _ => {
                    return Err(value_error(
                        "output_size should be a sequence containing 2 or 4 elements",
                    ))
                }
            }
        }
    };
    Ok(wrap(conv::max_unpool2d(&x, &at, out).py()?))
}

fn avg_pool2d_f(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let x = need_tensor(&a, 0, "input", "avg_pool2d")?;
    let w = pool_window(i, &a, "avg_pool2d", false)?;
    let cip = match arg(&a, 5, "count_include_pad") {
        Some(v) => i.truthy(&v)?,
        None => true,
    };
    let divisor = match arg(&a, 6, "divisor_override") {
        None | Some(Value::None) => None,
        Some(v) => match v.as_int() {
            Some(d) if d > 0 => Some(d as usize),
            Some(_) => return Err(runtime_error("divisor must be not zero")),
            None => {
                return Err(type_error(
                    "avg_pool2d(): argument 'divisor_override' must be int",
                ))
            }
        },
    };
    Ok(wrap(conv::avg_pool2d(&x, w, cip, divisor).py()?))
}

fn adaptive_avg_pool2d_f(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let x = need_tensor(&a, 0, "input", "adaptive_avg_pool2d")?;
    let size = match arg(&a, 1, "output_size") {
        Some(v) => {
            let items: Vec<Value> = match &v {
                Value::Int(_) => vec![v.clone(), v.clone()],
                _ => i.collect(&v)?,
            };
            let n = x.ndim();
            let mut s = [0usize; 2];
            for (k, it) in items.iter().take(2).enumerate() {
                s[k] = match it {
                    // None keeps the input's size
                    Value::None if n >= 2 => x.shape()[n - 2 + k],
                    other => other.as_int().filter(|&d| d >= 0).ok_or_else(|| {
                        type_error("adaptive_avg_pool2d(): output_size must be ints or None")
                    })? as usize,
                };
            }
            if items.len() != 2 {
                return Err(type_error(
                    "adaptive_avg_pool2d(): output_size must be an int or a pair",
                ));
            }
            s
        }
        None => {
            return Err(type_error(
                "adaptive_avg_pool2d() missing required argument 'output_size'",
            ))
        }
    };
    Ok(wrap(conv::adaptive_avg_pool2d(&x, size).py()?))
}

pub fn functions() -> Vec<(&'static str, NativeFn)> {
    vec![
        ("conv1d", conv1d_f),
        ("conv2d", conv2d_f),
        ("max_pool2d", max_pool2d_f),
        ("avg_pool2d", avg_pool2d_f),
        ("max_unpool2d", max_unpool2d_f),
        ("adaptive_avg_pool2d", adaptive_avg_pool2d_f),
    ]
}
