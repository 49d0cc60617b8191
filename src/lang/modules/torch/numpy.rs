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
    Ok(Value::Native(Rc::new(NdArray(t.clone()))))
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

/// numpy's element text: floats in their shortest form with a trailing `.` for whole
/// numbers (`1.`, `0.5`), ints plainly, bools as True/False.
fn elements(t: &Tensor) -> PyResult<Vec<String>> {
    let d = t.dtype();
    Ok(if d.is_floating() {
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
    })
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

impl NdArray {
    fn body(&self) -> PyResult<String> {
        let els = elements(&self.0)?;
        let width = els.iter().map(|e| e.len()).max().unwrap_or(0);
        let shape = self.0.shape().to_vec();
        if shape.is_empty() {
            return Ok(els.first().cloned().unwrap_or_default());
        }
        fn nest(els: &[String], shape: &[usize], width: usize, indent: usize) -> String {
            if shape.len() == 1 {
                let parts: Vec<String> = els.iter().map(|e| format!("{e:>width$}")).collect();
                return format!("[{}]", parts.join(", "));
            }
            let step = els.len() / shape[0].max(1);
            let rows: Vec<String> = (0..shape[0])
                .map(|k| {
                    nest(
                        &els[k * step..(k + 1) * step],
                        &shape[1..],
                        width,
                        indent + 1,
                    )
                })
                .collect();
            let sep = format!(
                ",\n{}{}",
                "\n".repeat(shape.len() - 2),
                " ".repeat(indent + 1)
            );
            format!("[{}]", rows.join(&sep))
        }
        Ok(nest(&els, &shape, width, 6))
    }
}

impl Native for NdArray {
    fn type_name(&self) -> &str {
        "ndarray"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        let d = self.0.dtype();
        let body = self.body()?;
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
        Ok(self.body()?.replace(", ", " ").replace(",\n", "\n"))
    }
    fn get_attr(
        &self,
        _this: &Value,
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
            _ => None,
        })
    }
    fn len(&self, _i: &mut Interp) -> PyResult<Option<usize>> {
        Ok(self.0.shape().first().copied())
    }
}
