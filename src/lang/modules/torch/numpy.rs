//! `tensor.numpy()`: an array value that prints as numpy prints small arrays.
use super::convert::*;
use crate::lang::error::{type_error, PyResult};
use crate::lang::format::float_repr;
use crate::lang::interp::Interp;
use crate::lang::value::*;
use crate::tensor::{DType, Device, Tensor};
use std::any::Any;
use std::rc::Rc;

pub struct NdArray(pub Tensor);

pub fn to_numpy(t: &Tensor) -> PyResult<Value> {
    if t.device() != Device::Cpu {
        return Err(type_error(format!(
            "can't convert {} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.",
            t.device()
        )));
    }
    if t.requires_grad() {
        return Err(crate::lang::error::runtime_error(
            "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.",
        ));
    }
    Ok(Value::Native(NativeRc::new(NdArray(t.clone()))))
}

fn np_dtype(d: DType) -> &'static str {
    match d {
        DType::F32 => "float32",
        DType::F64 => "float64",
        DType::F16 => "float16",
        DType::BF16 => "bfloat16",
        DType::I64 => "int64",
        DType::I32 => "int32",
        DType::I8 => "int8",
        DType::U8 => "uint8",
        DType::Bool => "bool",
    }
}

/// numpy's element text, padded to a common width: floats in their shortest form with a
/// trailing `.` for whole numbers, integer parts right-aligned and fractions left-aligned
/// (`[-1.   2.5]`); ints and bools right-aligned.
fn elements(t: &Tensor) -> PyResult<Vec<String>> {
    let d = t.dtype();
    let raw: Vec<String> = if d.is_floating() {
        t.contiguous_values_f64()
            .py()?
            .iter()
            .map(|&v| {
                let s = if d == DType::F32 {
                    shortest_f32(v as f32)
                } else {
                    float_repr(v)
                };
                match s.strip_suffix(".0") {
                    Some(whole) => format!("{whole}."),
                    None => s,
                }
            })
            .collect()
    } else if d == DType::Bool {
        t.contiguous_values_bool()
            .py()?
            .iter()
            .map(|b| if *b { "True" } else { "False" }.to_string())
            .collect()
    } else {
        t.contiguous_values_i64()
            .py()?
            .iter()
            .map(|v| v.to_string())
            .collect()
    };
    if !d.is_floating() {
        let w = raw.iter().map(|e| e.len()).max().unwrap_or(0);
        return Ok(raw.iter().map(|e| format!("{e:>w$}")).collect());
    }
    let split = |e: &str| e.split_once('.').map(|(a, b)| (a.len(), b.len()));
    let left = raw.iter().filter_map(|e| split(e)).map(|p| p.0).max();
    let right = raw.iter().filter_map(|e| split(e)).map(|p| p.1).max();
    let (left, right) = (left.unwrap_or(0), right.unwrap_or(0));
    Ok(raw
        .iter()
        .map(|e| match e.split_once('.') {
            Some((a, b)) => format!("{a:>left$}.{b:<right$}"),
            None => format!("{e:>w$}", w = left + 1 + right),
        })
        .collect())
}

/// The shortest decimal that reads back as the same f32 (numpy prints float32 this way).
fn shortest_f32(x: f32) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let s = format!("{x}");
    if s.contains('.') || s.contains('e') || s.contains("inf") {
        s
    } else {
        format!("{s}.0")
    }
}

/// `arr.tolist()`: nested lists of Python numbers, as the tensor's `tolist()`.
fn tolist(_: &mut Interp, this: &Value, _: Args) -> PyResult<Value> {
    match this {
        Value::Native(n) => match n.as_any().downcast_ref::<NdArray>() {
            Some(a) => Ok(nested_value(a.0.tolist().py()?)),
            None => Err(type_error("tolist() needs an ndarray")),
        },
        _ => Err(type_error("tolist() needs an ndarray")),
    }
}

impl NdArray {
    /// The nested brackets; `sep` between elements, `col` the column of the first `[`.
    fn body(&self, sep: &str, col: usize) -> PyResult<String> {
        let els = elements(&self.0)?;
        let shape = self.0.shape().to_vec();
        if shape.is_empty() {
            return Ok(els
                .first()
                .map(|e| e.trim().to_string())
                .unwrap_or_default());
        }
        fn nest(els: &[String], shape: &[usize], sep: &str, col: usize) -> String {
            if shape.len() == 1 {
                return format!("[{}]", els.join(sep));
            }
            let step = els.len() / shape[0].max(1);
            let rows: Vec<String> = (0..shape[0])
                .map(|k| nest(&els[k * step..(k + 1) * step], &shape[1..], sep, col + 1))
                .collect();
            let row_sep = format!(
                "{}\n{}{}",
                sep.trim_end(),
                "\n".repeat(shape.len() - 2),
                " ".repeat(col + 1)
            );
            format!("[{}]", rows.join(&row_sep))
        }
        Ok(nest(&els, &shape, sep, col))
    }
}

impl Native for NdArray {
    fn module(&self) -> &str {
        "numpy"
    }
    fn type_name(&self) -> &str {
        "ndarray"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        let d = self.0.dtype();
        let body = self.body(", ", 6)?;
        let default = matches!(d, DType::F64 | DType::I64 | DType::Bool);
        if self.0.numel() == 0 {
            return Ok(format!("array([], dtype={})", np_dtype(d)));
        }
        Ok(if default {
            format!("array({body})")
        } else {
            format!("array({body}, dtype={})", np_dtype(d))
        })
    }
    fn str(&self, _i: &mut Interp) -> PyResult<String> {
        self.body(" ", 0)
    }
    fn get_attr(
        &self,
        this: &Value,
        name: crate::lang::symbol::Sym,
        _i: &mut Interp,
    ) -> PyResult<Option<Value>> {
        Ok(match &*name.as_str() {
            "shape" => Some(Value::tuple(
                self.0
                    .shape()
                    .iter()
                    .map(|&d| Value::Int(d as i64))
                    .collect(),
            )),
            "dtype" => Some(Value::str(np_dtype(self.0.dtype()))),
            "ndim" => Some(Value::Int(self.0.ndim() as i64)),
            "size" => Some(Value::Int(self.0.numel() as i64)),
            "tolist" => Some(Value::Builtin(Rc::new(Builtin {
                name: "tolist",
                f: tolist,
                this: Some(this.clone()),
            }))),
            _ => None,
        })
    }
    fn len(&self, _i: &mut Interp) -> PyResult<Option<usize>> {
        Ok(self.0.shape().first().copied())
    }
}
