//! Python's `math` module.
use super::make_module;
use crate::lang::error::{type_error, value_error, ExcKind, PyErr, PyResult};
use crate::lang::format;
use crate::lang::value::*;

fn arg(a: &Args, i: usize) -> PyResult<f64> {
    match a.pos.get(i) {
        Some(v) => num_of(v)
            .map(|n| n.to_f64())
            .ok_or_else(|| type_error(format!("must be real number, not {}", v.type_name()))),
        None => Err(type_error(format!(
            "math function expected {} argument(s), got {}",
            i + 1,
            a.pos.len()
        ))),
    }
}

fn domain() -> PyErr {
    value_error("math domain error")
}

fn checked(x: f64, input_finite: bool) -> PyResult<Value> {
    if x.is_infinite() && input_finite {
        return Err(PyErr::new(ExcKind::OverflowError, "math range error"));
    }
    Ok(Value::float(x))
}

fn to_int(x: f64) -> PyResult<Value> {
    format::float_to_int_checked(x)
        .map(Value::Int)
        .map_err(|e| match e {
            format::NumError::Value(m) => value_error(m),
            format::NumError::Overflow(m) => PyErr::new(ExcKind::OverflowError, m),
        })
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

pub fn module() -> Value {
    make_module(
        "math",
        &[
            ("sqrt", |_, _, a| {
                let x = arg(&a, 0)?;
                if x < 0.0 {
                    return Err(domain());
                }
                Ok(Value::float(x.sqrt()))
            }),
            ("exp", |_, _, a| {
                let x = arg(&a, 0)?;
                checked(x.exp(), x.is_finite())
            }),
            ("log", |_, _, a| {
                let x = arg(&a, 0)?;
                if x <= 0.0 {
                    return Err(domain());
                }
                if a.pos.len() > 1 {
                    let b = arg(&a, 1)?;
                    if b <= 0.0 {
                        return Err(domain());
                    }
                    if b == 1.0 {
                        return Err(PyErr::new(
                            ExcKind::ZeroDivisionError,
                            "float division by zero",
                        ));
                    }
                    return Ok(Value::float(x.ln() / b.ln()));
                }
                Ok(Value::float(x.ln()))
            }),
            ("log2", |_, _, a| {
                let x = arg(&a, 0)?;
                if x <= 0.0 {
                    return Err(domain());
                }
                Ok(Value::float(x.log2()))
            }),
            ("log10", |_, _, a| {
                let x = arg(&a, 0)?;
                if x <= 0.0 {
                    return Err(domain());
                }
                Ok(Value::float(x.log10()))
            }),
            ("log1p", |_, _, a| {
                let x = arg(&a, 0)?;
                if x <= -1.0 {
                    return Err(domain());
                }
                Ok(Value::float(x.ln_1p()))
            }),
            ("pow", |_, _, a| {
                let (x, y) = (arg(&a, 0)?, arg(&a, 1)?);
                if x == 0.0 && y < 0.0 {
                    return Err(domain());
                }
                if x < 0.0 && y.fract() != 0.0 && y.is_finite() {
                    return Err(domain());
                }
                checked(x.powf(y), x.is_finite() && y.is_finite())
            }),
            ("floor", |_, _, a| match a.pos.first() {
                Some(Value::Int(i)) => Ok(Value::Int(*i)),
                _ => to_int(arg(&a, 0)?.floor()),
            }),
            ("ceil", |_, _, a| match a.pos.first() {
                Some(Value::Int(i)) => Ok(Value::Int(*i)),
                _ => to_int(arg(&a, 0)?.ceil()),
            }),
            ("trunc", |_, _, a| match a.pos.first() {
                Some(Value::Int(i)) => Ok(Value::Int(*i)),
                _ => to_int(arg(&a, 0)?.trunc()),
            }),
            ("fabs", |_, _, a| Ok(Value::float(arg(&a, 0)?.abs()))),
            ("sin", |_, _, a| Ok(Value::float(arg(&a, 0)?.sin()))),
            ("cos", |_, _, a| Ok(Value::float(arg(&a, 0)?.cos()))),
            ("tan", |_, _, a| Ok(Value::float(arg(&a, 0)?.tan()))),
            ("asin", |_, _, a| Ok(Value::float(arg(&a, 0)?.asin()))),
            ("acos", |_, _, a| Ok(Value::float(arg(&a, 0)?.acos()))),
            ("atan", |_, _, a| Ok(Value::float(arg(&a, 0)?.atan()))),
            ("atan2", |_, _, a| {
                Ok(Value::float(arg(&a, 0)?.atan2(arg(&a, 1)?)))
            }),
            ("sinh", |_, _, a| Ok(Value::float(arg(&a, 0)?.sinh()))),
            ("cosh", |_, _, a| Ok(Value::float(arg(&a, 0)?.cosh()))),
            ("tanh", |_, _, a| Ok(Value::float(arg(&a, 0)?.tanh()))),
            ("hypot", |_, _, a| {
                Ok(Value::float(arg(&a, 0)?.hypot(arg(&a, 1)?)))
            }),
            ("degrees", |_, _, a| {
                Ok(Value::float(arg(&a, 0)?.to_degrees()))
            }),
            ("radians", |_, _, a| {
                Ok(Value::float(arg(&a, 0)?.to_radians()))
            }),
            ("isnan", |_, _, a| Ok(Value::bool(arg(&a, 0)?.is_nan()))),
            ("isinf", |_, _, a| {
                Ok(Value::bool(arg(&a, 0)?.is_infinite()))
            }),
            ("isfinite", |_, _, a| {
                Ok(Value::bool(arg(&a, 0)?.is_finite()))
            }),
            ("copysign", |_, _, a| {
                Ok(Value::float(arg(&a, 0)?.copysign(arg(&a, 1)?)))
            }),
            ("isclose", |_, _, a| {
                let (x, y) = (arg(&a, 0)?, arg(&a, 1)?);
                let mut rel = 1e-9;
                let mut abs = 0.0;
                for (k, v) in &a.kw {
                    let v = num_of(v)
                        .map(|n| n.to_f64())
                        .ok_or_else(|| type_error("must be real number"))?;
                    match &*k.as_str() {
                        "rel_tol" => rel = v,
                        "abs_tol" => abs = v,
                        other => {
                            return Err(type_error(format!(
                                "isclose() got an unexpected keyword argument '{other}'"
                            )))
                        }
                    }
                }
                if rel < 0.0 || abs < 0.0 {
                    return Err(value_error("tolerances must be non-negative"));
                }
                if x == y {
                    return Ok(Value::Bool(PyBool::True));
                }
                if x.is_infinite() || y.is_infinite() {
                    return Ok(Value::Bool(PyBool::False));
                }
                let d = (y - x).abs();
                Ok(Value::bool(
                    d <= (rel * y).abs() || d <= (rel * x).abs() || d <= abs,
                ))
            }),
            ("factorial", |_, _, a| {
                let n = a
                    .pos
                    .first()
                    .and_then(|v| v.as_int())
                    .ok_or_else(|| type_error("factorial() only accepts integral values"))?;
                if n < 0 {
                    return Err(value_error("factorial() not defined for negative values"));
                }
                let mut r: i64 = 1;
                for k in 2..=n {
                    r = r
                        .checked_mul(k)
                        .ok_or_else(crate::lang::error::overflow_error)?;
                }
                Ok(Value::Int(r))
            }),
            ("gcd", |_, _, a| {
                let mut g = 0;
                for v in &a.pos {
                    let x = v.as_int().ok_or_else(|| {
                        type_error(format!(
                            "'{}' object cannot be interpreted as an integer",
                            v.type_name()
                        ))
                    })?;
                    g = gcd(g, x);
                }
                Ok(Value::Int(g))
            }),
            ("prod", |i, _, a| {
                let items = i.collect(a.pos.first().unwrap_or(&Value::None))?;
                let mut acc = Value::Int(1);
                for x in items {
                    acc = i.binary(crate::lang::ast::BinOp::Mul, &acc, &x)?;
                }
                Ok(acc)
            }),
            ("fsum", |i, _, a| {
                let items = i.collect(a.pos.first().unwrap_or(&Value::None))?;
                // Neumaier summation: exact enough for the sums lessons take.
                let (mut s, mut c) = (0.0f64, 0.0f64);
                for x in items {
                    let v = num_of(&x)
                        .ok_or_else(|| type_error("must be real number"))?
                        .to_f64();
                    let t = s + v;
                    c += if s.abs() >= v.abs() {
                        (s - t) + v
                    } else {
                        (v - t) + s
                    };
                    s = t;
                }
                Ok(Value::float(s + c))
            }),
        ],
        &[
            ("pi", Value::float(std::f64::consts::PI)),
            ("e", Value::float(std::f64::consts::E)),
            ("tau", Value::float(std::f64::consts::TAU)),
            ("inf", Value::float(f64::INFINITY)),
            ("nan", Value::float(f64::NAN)),
        ],
    )
}
