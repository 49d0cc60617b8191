//! Helpers for the tensor golden tests: read `.expected` files written by tests/golden/gen.py and
//! format engine results the way the Python side (`tests/golden/tensor_show.py`) prints them.
#![allow(dead_code)]
use cudalearn::tensor::shape::fmt_list;
use cudalearn::tensor::{DType, Result, Scalar, Tensor};
use std::collections::BTreeMap;

/// `name -> expected output` from a `.expected` file.
pub fn load_expected(path: &str) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = BTreeMap::new();
    let mut name: Option<String> = None;
    let mut body = String::new();
    for line in text.split_inclusive('\n') {
        if let Some(n) = line.strip_prefix("# %% ") {
            if let Some(prev) = name.take() {
                out.insert(prev, std::mem::take(&mut body));
            }
            name = Some(n.trim().to_string());
        } else {
            body.push_str(line);
        }
    }
    if let Some(prev) = name {
        out.insert(prev, body);
    }
    out
}

/// Python's `repr(float)`.
pub fn py_float(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let e = format!("{:e}", x.abs());
    let (mant, exp) = e.split_once('e').unwrap();
    let exp: i32 = exp.parse().unwrap();
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let decpt = exp + 1;
    let body = if decpt > -4 && decpt <= 16 {
        if decpt <= 0 {
            format!("0.{}{}", "0".repeat((-decpt) as usize), digits)
        } else if decpt as usize >= digits.len() {
            format!("{}{}.0", digits, "0".repeat(decpt as usize - digits.len()))
        } else {
            format!(
                "{}.{}",
                &digits[..decpt as usize],
                &digits[decpt as usize..]
            )
        }
    } else {
        let m = if digits.len() > 1 {
            format!("{}.{}", &digits[..1], &digits[1..])
        } else {
            digits.clone()
        };
        let es = if exp < 0 { "-" } else { "+" };
        format!("{m}e{es}{:02}", exp.abs())
    };
    format!("{sign}{body}")
}

pub fn py_scalar(s: Scalar) -> String {
    match s {
        Scalar::Bool(b) => {
            if b {
                "True".into()
            } else {
                "False".into()
            }
        }
        Scalar::Int(i) => i.to_string(),
        Scalar::Float(f) => py_float(f),
    }
}

/// Python tuple formatting: `(3,)`, `(3, 1)`, `()`.
pub fn py_tuple(xs: &[usize]) -> String {
    match xs.len() {
        0 => "()".into(),
        1 => format!("({},)", xs[0]),
        _ => format!(
            "({})",
            xs.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Collected stdout of one case.
#[derive(Default)]
pub struct Out(pub String);

impl Out {
    pub fn line(&mut self, s: impl AsRef<str>) {
        self.0.push_str(s.as_ref());
        self.0.push('\n');
    }
    /// `show(t)`: `torch.float32 [2, 3] [0.0, 1.0, ...]`.
    pub fn show(&mut self, t: &Tensor) -> Result<()> {
        let vals: Vec<String> = t.contiguous_scalars()?.into_iter().map(py_scalar).collect();
        self.line(format!(
            "{} {} [{}]",
            t.dtype(),
            fmt_list(t.shape()),
            vals.join(", ")
        ));
        Ok(())
    }
    /// `lay(t)`: `[2, 3] (3, 1) 0 True`.
    pub fn lay(&mut self, t: &Tensor) {
        let c = if t.is_contiguous() { "True" } else { "False" };
        self.line(format!(
            "{} {} {} {}",
            fmt_list(t.shape()),
            py_tuple(t.strides()),
            t.offset(),
            c
        ));
    }
}

pub fn f32t(v: &[f64], shape: &[usize]) -> Tensor {
    Tensor::from_f64s(v, shape, DType::F32).unwrap()
}
pub fn vf(v: &[f64]) -> Tensor {
    Tensor::from_f64s(v, &[v.len()], DType::F32).unwrap()
}
pub fn vd(v: &[f64], d: DType) -> Tensor {
    Tensor::from_f64s(v, &[v.len()], d).unwrap()
}
pub fn vi(v: &[i64]) -> Tensor {
    Tensor::from_i64s(v, &[v.len()], DType::I64).unwrap()
}
pub fn vid(v: &[i64], d: DType) -> Tensor {
    Tensor::from_i64s(v, &[v.len()], d).unwrap()
}
pub fn vb(v: &[bool]) -> Tensor {
    Tensor::from_bools(v, &[v.len()], DType::Bool).unwrap()
}
pub fn sf(x: f64) -> Tensor {
    Tensor::from_f64s(&[x], &[], DType::F32).unwrap()
}
pub fn si(x: i64, d: DType) -> Tensor {
    Tensor::from_i64s(&[x], &[], d).unwrap()
}
/// `torch.arange(n, dtype=d)`.
pub fn ar(n: usize, d: DType) -> Tensor {
    let v: Vec<f64> = (0..n).map(|i| i as f64).collect();
    Tensor::from_f64s(&v, &[n], d).unwrap()
}
