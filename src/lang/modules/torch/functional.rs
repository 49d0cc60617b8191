//! `torch.nn.functional` (`import torch.nn.functional as F`): activations, `linear`, losses,
//! `dropout`, `layer_norm`, `one_hot`, with PyTorch's signatures. The work is in
//! `crate::tensor::ops::nn`.
use super::convert::*;
use crate::lang::error::{not_implemented, type_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::modules::ExcKind;
use crate::lang::value::*;
use crate::lang::PyErr;
use crate::tensor::ops::extra::gather;
use crate::tensor::ops::nn::{self as nn, Reduction};
use crate::tensor::ops::reduce::softmax;
use crate::tensor::ops::unary::{unary, unary_};
use crate::tensor::{Tensor, UnaryOp};

/// Arguments bound to a Python signature: `names[k]` by position `k` or by keyword.
struct Bound {
    fname: &'static str,
    vals: Vec<Option<Value>>,
    names: &'static [&'static str],
}

fn bind(fname: &'static str, names: &'static [&'static str], a: &Args) -> PyResult<Bound> {
    if a.pos.len() > names.len() {
        return Err(type_error(format!(
            "{fname}() takes from 1 to {} positional arguments but {} were given",
            names.len(),
            a.pos.len()
        )));
    }
    let mut vals: Vec<Option<Value>> = vec![None; names.len()];
    for (k, v) in a.pos.iter().enumerate() {
        vals[k] = Some(v.clone());
    }
    for (k, v) in &a.kw {
        let key = k.as_str();
        match names.iter().position(|n| **n == *key) {
            Some(i) => {
                if vals[i].is_some() {
                    return Err(type_error(format!(
                        "{fname}() got multiple values for argument '{key}'"
                    )));
                }
                vals[i] = Some(v.clone())
            }
            None => {
                return Err(type_error(format!(
                    "{fname}() got an unexpected keyword argument '{key}'"
                )))
            }
        }
    }
    Ok(Bound { fname, vals, names })
}

impl Bound {
    fn get(&self, i: usize) -> Option<&Value> {
        self.vals[i].as_ref().filter(|v| !matches!(v, Value::None))
    }
    fn tensor(&self, i: usize) -> PyResult<Tensor> {
        match self.vals[i].as_ref() {
            Some(v) => as_tensor(v).cloned().ok_or_else(|| {
                type_error(format!(
                    "{}(): argument '{}' (position {}) must be Tensor, not {}",
                    self.fname,
                    self.names[i],
                    i + 1,
                    v.type_name()
                ))
            }),
            None => Err(type_error(format!(
                "{}() missing 1 required positional argument: '{}'",
                self.fname, self.names[i]
            ))),
        }
    }
    fn opt_tensor(&self, i: usize) -> PyResult<Option<Tensor>> {
        match self.get(i) {
            None => Ok(None),
            Some(_) => self.tensor(i).map(Some),
        }
    }
    fn float(&self, i: usize, default: f64) -> PyResult<f64> {
        match self.get(i) {
            None => Ok(default),
            Some(Value::Float(f)) => Ok(f.get()),
            Some(Value::Int(n)) => Ok(*n as f64),
            Some(Value::Bool(b)) => Ok(*b as i64 as f64),
            Some(v) => match as_tensor(v) {
                Some(t) if t.numel() == 1 => Ok(t.item().py()?.to_f64()),
                _ => Err(type_error(format!(
                    "{}(): argument '{}' must be float, not {}",
                    self.fname,
                    self.names[i],
                    v.type_name()
                ))),
            },
        }
    }
    fn int(&self, i: usize, default: i64) -> PyResult<i64> {
        match self.get(i) {
            None => Ok(default),
            Some(Value::Int(n)) => Ok(*n),
            Some(Value::Bool(b)) => Ok(*b as i64),
            Some(v) => Err(type_error(format!(
                "{}(): argument '{}' must be int, not {}",
                self.fname,
                self.names[i],
                v.type_name()
            ))),
        }
    }
    fn flag(&self, interp: &mut Interp, i: usize, default: bool) -> PyResult<bool> {
        match self.get(i) {
            None => Ok(default),
            Some(v) => interp.truthy(v),
        }
    }
    fn str(&self, i: usize, default: &str) -> PyResult<String> {
        match self.get(i) {
            None => Ok(default.to_string()),
            Some(Value::Str(s)) => Ok(s.to_string()),
            Some(v) => Err(type_error(format!(
                "{}(): argument '{}' must be str, not {}",
                self.fname,
                self.names[i],
                v.type_name()
            ))),
        }
    }
    /// `reduction=` (the deprecated `size_average`/`reduce` are accepted when None).
    fn reduction(&self, i: usize) -> PyResult<Reduction> {
        Reduction::parse(&self.str(i, "mean")?).py()
    }
}

fn unary_f(
    name: &'static str,
    op: UnaryOp,
    i: &mut Interp,
    a: &Args,
    with_inplace: bool,
) -> PyResult<Value> {
    let names: &'static [&'static str] = if with_inplace {
        &["input", "inplace"]
    } else {
        &["input"]
    };
    let b = bind(name, names, a)?;
    let x = b.tensor(0)?;
    if with_inplace && b.flag(i, 1, false)? {
        unary_(op, &x).py()?;
        // the input object itself (passed by position or as `input=`)
        return Ok(b.get(0).cloned().unwrap_or_else(|| wrap(x)));
    }
    Ok(wrap(unary(op, &x).py()?))
}

/// An activation's result `r` of its input (argument 0 of `b`, positional or `input=`): with
/// `inplace`, written into the input and the input object returned; the input object too when
/// the op returned it unchanged (dropout in eval mode).
fn activation(inplace: bool, b: &Bound, x: &Tensor, r: Tensor) -> PyResult<Value> {
    // (`x` came from argument 0, so it is there)
    let Some(input) = b.get(0) else {
        return Ok(wrap(r));
    };
    if inplace {
        crate::tensor::ops::inplace::copy_(x, &r).py()?;
        return Ok(input.clone());
    }
    Ok(if r.ptr_eq(x) { input.clone() } else { wrap(r) })
}

/// `_get_softmax_dim`: the implicit dim of `F.softmax(x)` (with PyTorch's warning).
fn softmax_dim(ndim: usize) -> i64 {
    eprintln!("UserWarning: Implicit dimension choice for softmax has been deprecated. Change the call to include dim=X as an argument.");
    if matches!(ndim, 0 | 1 | 3) {
        0
    } else {
        1
    }
}

fn softmax_f(fname: &'static str, a: &Args, log: bool) -> PyResult<Value> {
    let b = bind(fname, &["input", "dim", "_stacklevel", "dtype"], a)?;
    let x = b.tensor(0)?;
    let dim = match b.get(1) {
        None => softmax_dim(x.ndim()),
        Some(_) => b.int(1, 0)?,
    };
    let dtype = match b.get(3) {
        None => None,
        Some(v) => Some(dtype_of(v).ok_or_else(|| type_error("dtype must be a torch.dtype"))?),
    };
    Ok(wrap(softmax(&x, dim, dtype, log).py()?))
}

const LOSS2: &[&str] = &["input", "target", "size_average", "reduce", "reduction"];

fn functions() -> Vec<(&'static str, NativeFn)> {
    vec![
        ("relu", |i, _, a| {
            unary_f("relu", UnaryOp::Relu, i, &a, true)
        }),
        ("sigmoid", |i, _, a| {
            unary_f("sigmoid", UnaryOp::Sigmoid, i, &a, false)
        }),
        ("tanh", |i, _, a| {
            unary_f("tanh", UnaryOp::Tanh, i, &a, false)
        }),
        ("softmax", |_, _, a| softmax_f("softmax", &a, false)),
        ("log_softmax", |_, _, a| softmax_f("log_softmax", &a, true)),
        ("linear", |_, _, a| {
            let b = bind("linear", &["input", "weight", "bias"], &a)?;
            let bias = b.opt_tensor(2)?;
            let (x, w) = (b.tensor(0)?, b.tensor(1)?);
            Ok(wrap(nn::linear(&x, &w, bias.as_ref()).py()?))
        }),
        ("mse_loss", |_, _, a| {
            let b = bind("mse_loss", LOSS2, &a)?;
            let (x, y) = (b.tensor(0)?, b.tensor(1)?);
            Ok(wrap(nn::mse_loss(&x, &y, b.reduction(4)?).py()?))
        }),
        ("l1_loss", |_, _, a| {
            let b = bind("l1_loss", LOSS2, &a)?;
            let (x, y) = (b.tensor(0)?, b.tensor(1)?);
            Ok(wrap(nn::l1_loss(&x, &y, b.reduction(4)?).py()?))
        }),
        ("cross_entropy", |_, _, a| {
            let b = bind(
                "cross_entropy",
                &[
                    "input",
                    "target",
                    "weight",
                    "size_average",
                    "ignore_index",
                    "reduce",
                    "reduction",
                    "label_smoothing",
                ],
                &a,
            )?;
            let (x, w) = (b.tensor(0)?, b.opt_tensor(2)?);
            Ok(wrap(
                nn::cross_entropy(
                    &x,
                    &b.tensor(1)?,
                    w.as_ref(),
                    b.int(4, -100)?,
                    b.reduction(6)?,
                    b.float(7, 0.0)?,
                )
                .py()?,
            ))
        }),
        ("nll_loss", |_, _, a| {
            let b = bind(
                "nll_loss",
                &[
                    "input",
                    "target",
                    "weight",
                    "size_average",
                    "ignore_index",
                    "reduce",
                    "reduction",
                ],
                &a,
            )?;
            let (x, w) = (b.tensor(0)?, b.opt_tensor(2)?);
            Ok(wrap(
                nn::nll_loss(
                    &x,
                    &b.tensor(1)?,
                    w.as_ref(),
                    b.int(4, -100)?,
                    b.reduction(6)?,
                )
                .py()?,
            ))
        }),
        ("binary_cross_entropy", |_, _, a| {
            let b = bind(
                "binary_cross_entropy",
                &[
                    "input",
                    "target",
                    "weight",
                    "size_average",
                    "reduce",
                    "reduction",
                ],
                &a,
            )?;
            let (x, y, w) = (b.tensor(0)?, b.tensor(1)?, b.opt_tensor(2)?);
            Ok(wrap(
                nn::binary_cross_entropy(&x, &y, w.as_ref(), b.reduction(5)?).py()?,
            ))
        }),
        ("binary_cross_entropy_with_logits", |_, _, a| {
            let b = bind(
                "binary_cross_entropy_with_logits",
                &[
                    "input",
                    "target",
                    "weight",
                    "size_average",
                    "reduce",
                    "reduction",
                    "pos_weight",
                ],
                &a,
            )?;
            let (x, y) = (b.tensor(0)?, b.tensor(1)?);
            let (w, pw) = (b.opt_tensor(2)?, b.opt_tensor(6)?);
            Ok(wrap(
                nn::bce_with_logits(&x, &y, w.as_ref(), pw.as_ref(), b.reduction(5)?).py()?,
            ))
        }),
        ("dropout", |i, _, a| {
            let b = bind("dropout", &["input", "p", "training", "inplace"], &a)?;
            let x = b.tensor(0)?;
            let r = nn::dropout(&x, b.float(1, 0.5)?, b.flag(i, 2, true)?).py()?;
            activation(b.flag(i, 3, false)?, &b, &x, r)
        }),
        ("layer_norm", |i, _, a| {
            let b = bind(
                "layer_norm",
                &["input", "normalized_shape", "weight", "bias", "eps"],
                &a,
            )?;
            let shape =
                match b.get(1) {
                    Some(v) => int_list(i, v)?,
                    None => return Err(type_error(
                        "layer_norm() missing 1 required positional argument: 'normalized_shape'",
                    )),
                };
            let shape: Vec<usize> = shape.iter().map(|&s| s.max(0) as usize).collect();
            let (x, w, bias) = (b.tensor(0)?, b.opt_tensor(2)?, b.opt_tensor(3)?);
            Ok(wrap(
                nn::layer_norm(&x, &shape, w.as_ref(), bias.as_ref(), b.float(4, 1e-5)?).py()?,
            ))
        }),
        ("gelu", |_, _, a| {
            let b = bind("gelu", &["input", "approximate"], &a)?;
            Ok(wrap(nn::gelu(&b.tensor(0)?, &b.str(1, "none")?).py()?))
        }),
        ("leaky_relu", |i, _, a| {
            let b = bind("leaky_relu", &["input", "negative_slope", "inplace"], &a)?;
            let x = b.tensor(0)?;
            let r = nn::leaky_relu(&x, b.float(1, 0.01)?).py()?;
            activation(b.flag(i, 2, false)?, &b, &x, r)
        }),
        ("elu", |i, _, a| {
            let b = bind("elu", &["input", "alpha", "inplace"], &a)?;
            let x = b.tensor(0)?;
            let r = nn::elu(&x, b.float(1, 1.0)?).py()?;
            activation(b.flag(i, 2, false)?, &b, &x, r)
        }),
        ("softplus", |_, _, a| {
            let b = bind("softplus", &["input", "beta", "threshold"], &a)?;
            let (beta, threshold) = (b.float(1, 1.0)?, b.float(2, 20.0)?);
            Ok(wrap(nn::softplus(&b.tensor(0)?, beta, threshold).py()?))
        }),
        ("silu", |i, _, a| {
            let b = bind("silu", &["input", "inplace"], &a)?;
            let x = b.tensor(0)?;
            let r = nn::silu(&x).py()?;
            activation(b.flag(i, 1, false)?, &b, &x, r)
        }),
        ("embedding", |i, _, a| {
            const NAMES: &[&str] = &[
                "input",
                "weight",
                "padding_idx",
                "max_norm",
                "norm_type",
                "scale_grad_by_freq",
                "sparse",
            ];
            let b = bind("embedding", NAMES, &a)?;
            let (input, weight) = (b.tensor(0)?, b.tensor(1)?);
            if b.get(3).is_some() || b.flag(i, 5, false)? || b.flag(i, 6, false)? {
                return Err(not_implemented(
                    "F.embedding(max_norm=, scale_grad_by_freq=, sparse=)",
                ));
            }
            let rows = weight.shape().first().copied().unwrap_or(0) as i64;
            let pad = match b.get(2) {
                None => None,
                Some(_) => {
                    let p = b.int(2, 0)?;
                    if p >= rows || p < -rows {
                        return Err(PyErr::new(
                            ExcKind::AssertionError,
                            "Padding_idx must be within num_embeddings",
                        ));
                    }
                    Some((if p < 0 { p + rows } else { p }) as usize)
                }
            };
            Ok(wrap(gather::embedding(&input, &weight, pad).py()?))
        }),
        ("one_hot", |_, _, a| {
            let b = bind("one_hot", &["tensor", "num_classes"], &a)?;
            Ok(wrap(nn::one_hot(&b.tensor(0)?, b.int(1, -1)?).py()?))
        }),
    ]
}

/// `torch.nn.functional`.
pub fn module() -> Value {
    let mut fns = functions();
    fns.extend(super::functional_conv::functions());
    crate::lang::modules::make_module("torch.nn.functional", &fns, &[])
}
