//! `torch.return_types`: the named tuples PyTorch's ops return (`max(dim)`'s values and
//! indices, `linalg.svd`'s U, S and Vh, ...), a tuple whose items are also attributes.
use crate::lang::error::PyResult;
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::any::Any;

/// One result: its type name, field names and values.
pub struct NamedResult {
    pub name: &'static str,
    pub fields: &'static [&'static str],
    pub values: Vec<Value>,
}

impl NamedResult {
    fn tuple(&self) -> Value {
        Value::tuple(self.values.clone())
    }
}

impl Native for NamedResult {
    fn module(&self) -> &str {
        "torch.return_types"
    }
    fn is_tuple(&self) -> bool {
        true
    }
    fn type_name(&self) -> &str {
        self.name
    }
    fn tp_name(&self) -> String {
        format!("torch.return_types.{}", self.name)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, i: &mut Interp) -> PyResult<String> {
        let mut parts = Vec::with_capacity(self.values.len());
        for (f, v) in self.fields.iter().zip(&self.values) {
            parts.push(format!("{f}={}", i.repr(v)?));
        }
        Ok(format!(
            "torch.return_types.{}(\n{})",
            self.name,
            parts.join(",\n")
        ))
    }
    fn get_attr(&self, _this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        let name = name.as_str();
        Ok(self
            .fields
            .iter()
            .position(|f| **f == *name)
            .map(|k| self.values[k].clone()))
    }
    fn get_item(&self, _this: &Value, index: &Value, i: &mut Interp) -> PyResult<Value> {
        i.get_item(&self.tuple(), index)
    }
    fn len(&self, _i: &mut Interp) -> PyResult<Option<usize>> {
        Ok(Some(self.values.len()))
    }
    fn iter(&self, _this: &Value, i: &mut Interp) -> PyResult<Option<Value>> {
        i.get_iter(&self.tuple()).map(Some)
    }
}

/// `torch.return_types.NAME(values=..., indices=...)`, the result of `max(dim)` and its kin.
pub fn values_indices(name: &'static str, values: Value, indices: Value) -> Value {
    Value::Native(NativeRc::new(NamedResult {
        name,
        fields: &["values", "indices"],
        values: vec![values, indices],
    }))
}
