//! `torch.dtype` and `torch.device` values.
use super::convert::TResult;
use crate::lang::error::PyResult;
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use crate::tensor::{DType, Device};
use std::any::Any;

pub struct PyDType(pub DType);

impl Native for PyDType {
    fn module(&self) -> &str {
        "torch"
    }
    fn hash_key(&self) -> Option<u64> {
        Some(self.0 as u64)
    }
    fn type_name(&self) -> &str {
        "dtype"
    }
    fn tp_name(&self) -> String {
        "torch.dtype".to_string()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(self.0.to_string())
    }
    fn eq(&self, _this: &Value, other: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(Some(Value::bool(
            super::convert::dtype_of(other) == Some(self.0),
        )))
    }
    fn get_attr(&self, _this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(match &*name.as_str() {
            "is_floating_point" => Some(Value::bool(self.0.is_floating())),
            "itemsize" => Some(Value::Int(self.0.size() as i64)),
            "is_signed" => Some(Value::bool(!matches!(self.0, DType::Bool | DType::U8))),
            _ => None,
        })
    }
}

thread_local! {
    /// One object per dtype, so `torch.long is torch.int64` as in PyTorch.
    static DTYPES: std::cell::RefCell<Vec<(DType, Value)>> = const { std::cell::RefCell::new(Vec::new()) };
}

pub fn dtype_value(d: DType) -> Value {
    DTYPES.with(|c| {
        let mut c = c.borrow_mut();
        if let Some((_, v)) = c.iter().find(|(k, _)| *k == d) {
            return v.clone();
        }
        let v = Value::Native(NativeRc::new(PyDType(d)));
        c.push((d, v.clone()));
        v
    })
}

/// A `torch.device`: its type and optional index (`cuda` and `cuda:0` differ as devices
/// objects, though both put tensors on GPU 0).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PyDevice {
    pub cuda: bool,
    pub index: Option<u32>,
}

impl PyDevice {
    /// Parses a device string (`tensor::device::parse_device`, PyTorch's rules and words).
    pub fn parse(s: &str) -> PyResult<PyDevice> {
        let spec = crate::tensor::device::parse_device(s).py()?;
        match spec.kind {
            "cpu" => Ok(PyDevice {
                cuda: false,
                index: spec.index,
            }),
            "cuda" => Ok(PyDevice {
                cuda: true,
                index: spec.index,
            }),
            other => Err(crate::lang::error::not_implemented(format!(
                "the '{other}' device type"
            ))),
        }
    }

    pub fn from_device(d: Device) -> PyDevice {
        match d {
            Device::Cpu => PyDevice {
                cuda: false,
                index: None,
            },
            Device::Cuda(i) => PyDevice {
                cuda: true,
                index: Some(i),
            },
        }
    }

    /// The concrete device a tensor goes to (`cuda` means the current GPU).
    pub fn resolved(&self) -> Device {
        if self.cuda {
            Device::Cuda(
                self.index
                    .unwrap_or_else(crate::backend::gpu::current_device),
            )
        } else {
            Device::Cpu
        }
    }

    fn type_str(&self) -> &'static str {
        if self.cuda {
            "cuda"
        } else {
            "cpu"
        }
    }
}

impl Native for PyDevice {
    fn module(&self) -> &str {
        "torch"
    }
    fn hash_key(&self) -> Option<u64> {
        Some(((self.cuda as u64) << 40) | self.index.map_or(1 << 33, |i| i as u64))
    }
    fn type_name(&self) -> &str {
        "device"
    }
    fn tp_name(&self) -> String {
        "torch.device".to_string()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(match self.index {
            Some(i) => format!("device(type='{}', index={i})", self.type_str()),
            None => format!("device(type='{}')", self.type_str()),
        })
    }
    fn str(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(match self.index {
            Some(i) => format!("{}:{i}", self.type_str()),
            None => self.type_str().to_string(),
        })
    }
    fn eq(&self, _this: &Value, other: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        let same = match other {
            Value::Native(n) => n
                .as_any()
                .downcast_ref::<PyDevice>()
                .is_some_and(|d| d == self),
            _ => false,
        };
        Ok(Some(Value::bool(same)))
    }
    fn get_attr(&self, _this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(match &*name.as_str() {
            "type" => Some(Value::str(self.type_str())),
            "index" => Some(self.index.map_or(Value::None, |i| Value::Int(i as i64))),
            _ => None,
        })
    }
    fn attr_names(&self) -> Vec<PyStr> {
        vec![PyStr::from("index"), PyStr::from("type")]
    }
}

pub fn device_value(d: PyDevice) -> Value {
    Value::Native(NativeRc::new(d))
}
