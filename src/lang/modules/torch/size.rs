//! `torch.Size`: a tuple of ints that prints as `torch.Size([2, 3])`.
use crate::lang::error::PyResult;
use crate::lang::interp::Interp;
use crate::lang::value::*;
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

pub struct TorchSize(pub Vec<i64>);

pub fn size_value(dims: &[usize]) -> Value {
    Value::Native(NativeRc::new(TorchSize(
        dims.iter().map(|&d| d as i64).collect(),
    )))
}

impl TorchSize {
    fn tuple(&self) -> Value {
        Value::tuple(self.0.iter().map(|&d| Value::Int(d)).collect())
    }
}

impl Native for TorchSize {
    fn module(&self) -> &str {
        "torch"
    }
    fn type_name(&self) -> &str {
        "Size"
    }
    fn tp_name(&self) -> String {
        "torch.Size".to_string()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        let parts: Vec<String> = self.0.iter().map(|d| d.to_string()).collect();
        Ok(format!("torch.Size([{}])", parts.join(", ")))
    }
    fn len(&self, _i: &mut Interp) -> PyResult<Option<usize>> {
        Ok(Some(self.0.len()))
    }
    fn iter(&self, _this: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(Some(Value::Iter(Rc::new(RefCell::new(Iter::Seq {
            items: Rc::new(self.0.iter().map(|&d| Value::Int(d)).collect()),
            pos: 0,
        })))))
    }
    fn get_item(&self, _this: &Value, index: &Value, i: &mut Interp) -> PyResult<Value> {
        match i.get_item(&self.tuple(), index)? {
            Value::Tuple(t) => Ok(Value::Native(NativeRc::new(TorchSize(
                t.iter().filter_map(|v| v.as_int()).collect(),
            )))),
            other => Ok(other),
        }
    }
    fn eq(&self, _this: &Value, other: &Value, i: &mut Interp) -> PyResult<Option<Value>> {
        let other = match other {
            Value::Native(n) => match n.as_any().downcast_ref::<TorchSize>() {
                Some(s) => s.tuple(),
                None => return Ok(Some(Value::Bool(PyBool::False))),
            },
            v => v.clone(),
        };
        Ok(Some(Value::bool(i.eq(&self.tuple(), &other)?)))
    }
    fn truthy(&self, _i: &mut Interp) -> PyResult<bool> {
        Ok(!self.0.is_empty())
    }
    fn get_attr(
        &self,
        _this: &Value,
        name: crate::lang::symbol::Sym,
        _i: &mut Interp,
    ) -> PyResult<Option<Value>> {
        if &*name.as_str() == "numel" {
            let n: i64 = self.0.iter().product();
            return Ok(Some(Value::Builtin(Rc::new(Builtin {
                name: "numel",
                f: |_, this, _| match this {
                    Value::Int(n) => Ok(Value::Int(*n)),
                    _ => Ok(Value::Int(0)),
                },
                this: Some(Value::Int(n)),
            }))));
        }
        Ok(None)
    }
}
