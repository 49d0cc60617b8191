//! The Python face of a tensor: attributes, operators, indexing, printing.
use super::convert::*;
use super::methods::tensor_method;
use super::objects::{device_value, dtype_value, PyDevice};
use super::size::size_value;
use crate::lang::ast::BinOp;
use crate::lang::error::{runtime_error, type_error, PyErr, PyResult};
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use crate::tensor::print::{tensor_repr, Suffixes, Values};
use crate::tensor::{BinaryOp, DType, Device, IndexItem, Scalar, Tensor};
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

/// The names a tensor's `get_attr` answers as attributes, not methods (its first arms); all
/// are in PyTorch's `dir(x)`.
const TENSOR_ATTRS: [&str; 16] = [
    "shape",
    "dtype",
    "device",
    "ndim",
    "is_cuda",
    "requires_grad",
    "is_leaf",
    "grad",
    "grad_fn",
    "_version",
    "retains_grad",
    "data",
    "T",
    "mT",
    "nbytes",
    "itemsize",
];

pub struct PyTensor(pub Tensor);

thread_local! {
    pub static PRINT_OPTIONS: RefCell<crate::tensor::print::PrintOptions> = RefCell::new(Default::default());
}

/// `repr(tensor)` exactly as PyTorch prints it.
pub fn repr_tensor(t: &Tensor) -> PyResult<String> {
    let suffixes = Suffixes {
        device: match t.device() {
            Device::Cpu => None,
            d => Some(d.to_string()),
        },
        requires_grad: t.requires_grad(),
        grad_fn: t.grad_fn().map(|n| n.name().to_string()),
    };
    let shape = t.shape().to_vec();
    let dtype = t.dtype();
    let opts = PRINT_OPTIONS.with(|o| o.borrow().clone());
    let default = crate::tensor::default_dtype();
    Ok(if dtype.is_floating() {
        let v = t.contiguous_values_f64().py()?;
        tensor_repr(Values::Float(&v), &shape, dtype, default, &suffixes, &opts)
    } else if dtype == DType::Bool {
        let v = t.contiguous_values_bool().py()?;
        tensor_repr(Values::Bool(&v), &shape, dtype, default, &suffixes, &opts)
    } else {
        let v = t.contiguous_values_i64().py()?;
        tensor_repr(Values::Int(&v), &shape, dtype, default, &suffixes, &opts)
    })
}

fn binop(op: BinOp) -> Option<BinaryOp> {
    Some(match op {
        BinOp::Add => BinaryOp::Add,
        BinOp::Sub => BinaryOp::Sub,
        BinOp::Mul => BinaryOp::Mul,
        BinOp::Div => BinaryOp::Div,
        BinOp::FloorDiv => BinaryOp::FloorDiv,
        BinOp::Mod => BinaryOp::Rem,
        BinOp::Pow => BinaryOp::Pow,
        BinOp::BitAnd => BinaryOp::BitAnd,
        BinOp::BitOr => BinaryOp::BitOr,
        BinOp::BitXor => BinaryOp::BitXor,
        _ => return None,
    })
}

/// `a op b` where at least one side is a tensor.
pub fn tensor_binary(op: BinaryOp, a: &Value, b: &Value) -> PyResult<Option<Value>> {
    use crate::tensor::ops::binary::{binary, binary_scalar};
    Ok(Some(match (as_tensor(a), as_tensor(b)) {
        (Some(x), Some(y)) => wrap(binary(op, x, y).map_err(|e| broadcast_hint(e, x, y))?),
        (Some(x), None) => match scalar_of(b) {
            Some(s) => wrap(binary_scalar(op, x, s, false).py()?),
            None => return Ok(None),
        },
        (None, Some(y)) => match scalar_of(a) {
            Some(s) => wrap(binary_scalar(op, y, s, true).py()?),
            None => return Ok(None),
        },
        (None, None) => return Ok(None),
    }))
}

/// Converts a Python index (`t[0, 1:, None, ..., mask]`) to engine index items.
pub fn index_items(interp: &mut Interp, idx: &Value) -> PyResult<Vec<IndexItem>> {
    let parts = match idx {
        Value::Tuple(t) => t.as_ref().clone(),
        other => vec![other.clone()],
    };
    let mut items = Vec::with_capacity(parts.len());
    for p in &parts {
        items.push(match p {
            Value::Int(i) => IndexItem::Int(*i),
            Value::Bool(b) => IndexItem::Bool(b.get()),
            Value::None => IndexItem::None,
            Value::Ellipsis => IndexItem::Ellipsis,
            Value::Slice(s) => {
                let get = |v: &Value| -> PyResult<Option<i64>> {
                    match v {
                        Value::None => Ok(None),
                        Value::Int(i) => Ok(Some(*i)),
                        other => match as_tensor(other) {
                            Some(t) if t.numel() == 1 => Ok(Some(t.item().py()?.to_i64())),
                            _ => Err(type_error(
                                "slice indices must be integers or None or have an __index__ method",
                            )),
                        },
                    }
                };
                IndexItem::Slice(get(&s[0])?, get(&s[1])?, get(&s[2])?)
            }
            Value::List(_) | Value::Tuple(_) => {
                let data = nested(interp, p, 0)?;
                let t = Tensor::from_nested(&data, None, Device::Cpu).py()?;
                IndexItem::Tensor(t)
            }
            // PyTorch reads a string as a sequence of indices and fails converting it.
            Value::Str(_) => return Err(type_error("new(): invalid data type 'str'")),
            other => match as_tensor(other) {
                Some(t) => IndexItem::Tensor(t.clone()),
                None => {
                    return Err(PyErr::new(
                        crate::lang::error::ExcKind::IndexError,
                        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got ".to_string()
                            + &other.type_name()
                            + ")",
                    ))
                }
            },
        });
    }
    Ok(items)
}

/// PyTorch's Python indexing rejects integers and slices on a 0-d tensor with messages of
/// its own (before the engine sees them), unless a `None` first gives it a dimension.
fn check_zero_dim(t: &Tensor, items: &[IndexItem]) -> PyResult<()> {
    if t.ndim() != 0 {
        return Ok(());
    }
    for it in items {
        let msg = match it {
            IndexItem::Int(_) => "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number",
            IndexItem::Slice(..) => "slice() cannot be applied to a 0-dim tensor.",
            IndexItem::Ellipsis => continue,
            // `None` gives the result a dimension; tensors index through the engine.
            _ => return Ok(()),
        };
        return Err(PyErr::new(crate::lang::error::ExcKind::IndexError, msg));
    }
    Ok(())
}

impl Native for PyTensor {
    fn module(&self) -> &str {
        if self.0.is_parameter() {
            "torch.nn.parameter"
        } else {
            "torch"
        }
    }
    fn type_name(&self) -> &str {
        if self.0.is_parameter() {
            "Parameter"
        } else {
            "Tensor"
        }
    }
    fn identity(&self) -> Option<usize> {
        Some(self.0.object_id())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        let r = repr_tensor(&self.0)?;
        Ok(if self.0.is_parameter() {
            format!("Parameter containing:\n{r}")
        } else {
            r
        })
    }
    fn hashable(&self) -> bool {
        true
    }
    /// `get_attr`'s method arm (no method is named as an attribute of `TENSOR_ATTRS`, which
    /// its first arms answer: see the test below).
    fn method(&self, name: Sym) -> Option<(NativeFn, &'static str)> {
        let n = name.as_str();
        tensor_method(&n).or_else(|| super::methods_extra::tensor_method(&n))
    }
    fn get_attr(&self, this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        let t = &self.0;
        let n = name.as_str();
        Ok(Some(match &*n {
            "shape" => size_value(t.shape()),
            "dtype" => dtype_value(t.dtype()),
            "device" => device_value(PyDevice::from_device(t.device())),
            "ndim" => Value::Int(t.ndim() as i64),
            "is_cuda" => Value::bool(t.device() != Device::Cpu),
            "requires_grad" | "is_leaf" | "grad" | "grad_fn" | "_version" | "retains_grad" => {
                super::autograd::tensor_attr(t, &n).unwrap_or(Value::None)
            }
            "data" => wrap(t.data_alias()),
            "T" => wrap(t.t_all().py()?),
            "mT" => wrap(t.mt().py()?),
            "nbytes" => Value::Int(t.nbytes() as i64),
            "itemsize" => Value::Int(t.element_size() as i64),
            _ => match self.method(name) {
                Some((f, name)) => Value::Builtin(Rc::new(Builtin {
                    name,
                    f,
                    this: Some(this.clone()),
                })),
                None => return Ok(None),
            },
        }))
    }
    fn set_attr(&self, name: Sym, value: Value, i: &mut Interp) -> PyResult<bool> {
        match &*name.as_str() {
            "requires_grad" => {
                let b = i.truthy(&value)?;
                super::autograd::set_requires_grad(&self.0, b, false)?;
                Ok(true)
            }
            "grad" => {
                super::autograd::set_grad_attr(&self.0, &value)?;
                Ok(true)
            }
            "data" => match as_tensor(&value) {
                Some(t) => {
                    self.0.set_data(t);
                    Ok(true)
                }
                None => Err(type_error(format!(
                    "Variable data has to be a tensor, but got {}",
                    value.type_name()
                ))),
            },
            _ => Ok(false),
        }
    }
    fn attr_names(&self) -> Vec<PyStr> {
        // Special names: PyTorch's list, not whatever the engine implements (`__imatmul__`
        // works but PyTorch does not list it).
        let special = |n: &&&str| n.starts_with("__") && n.ends_with("__");
        super::methods::METHOD_NAMES
            .iter()
            .chain(super::methods_extra::METHOD_NAMES)
            .filter(|n| !special(n))
            .chain(TENSOR_ATTRS.iter())
            .chain(super::tensor_dir::TENSOR_DUNDERS.iter())
            .map(|s| PyStr::from(*s))
            .collect()
    }
    fn truthy(&self, _i: &mut Interp) -> PyResult<bool> {
        if self.0.numel() != 1 {
            return Err(runtime_error(if self.0.numel() == 0 {
                "Boolean value of Tensor with no values is ambiguous"
            } else {
                "Boolean value of Tensor with more than one value is ambiguous"
            }));
        }
        Ok(self.0.item().py()?.to_bool())
    }
    fn binary(
        &self,
        this: &Value,
        op: BinOp,
        other: &Value,
        reflected: bool,
        _i: &mut Interp,
    ) -> PyResult<Option<Value>> {
        if op == BinOp::MatMul {
            let Some(o) = as_tensor(other) else {
                return Ok(None);
            };
            let (a, b) = if reflected {
                (o, &self.0)
            } else {
                (&self.0, o)
            };
            return Ok(Some(wrap(crate::tensor::ops::matmul::matmul(a, b).py()?)));
        }
        let Some(bop) = binop(op) else {
            return Ok(None);
        };
        if reflected {
            tensor_binary(bop, other, this)
        } else {
            tensor_binary(bop, this, other)
        }
    }
    fn eq(&self, this: &Value, other: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        if as_tensor(other).is_none() && scalar_of(other).is_none() {
            return Ok(Some(Value::Bool(PyBool::False)));
        }
        tensor_binary(BinaryOp::Eq, this, other)
    }
    fn get_item(&self, _this: &Value, index: &Value, i: &mut Interp) -> PyResult<Value> {
        let items = index_items(i, index)?;
        check_zero_dim(&self.0, &items)?;
        Ok(wrap(crate::tensor::index::index(&self.0, &items).py()?))
    }
    fn set_item(&self, index: &Value, value: Value, i: &mut Interp) -> PyResult<()> {
        use crate::tensor::index::IndexValue;
        let items = index_items(i, index)?;
        check_zero_dim(&self.0, &items)?;
        let v = match (scalar_of(&value), as_tensor(&value)) {
            (Some(s), _) => IndexValue::Scalar(s),
            (_, Some(t)) => IndexValue::Tensor(t.clone()),
            _ => {
                let data = nested(i, &value, 0)?;
                IndexValue::Tensor(
                    Tensor::from_nested(&data, Some(self.0.dtype()), self.0.device()).py()?,
                )
            }
        };
        crate::tensor::index::index_put(&self.0, &items, &v).py()?;
        Ok(())
    }
    fn len(&self, _i: &mut Interp) -> PyResult<Option<usize>> {
        if self.0.ndim() == 0 {
            return Err(type_error("len() of a 0-d tensor"));
        }
        Ok(Some(self.0.shape()[0]))
    }
    fn iter(&self, _this: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        if self.0.ndim() == 0 {
            return Err(type_error("iteration over a 0-d tensor"));
        }
        let mut rows = Vec::with_capacity(self.0.shape()[0]);
        for k in 0..self.0.shape()[0] {
            let row = self.0.select(0, k as i64).py()?;
            // PyTorch iterates with unbind: the rows' node is `UnbindBackward0`
            crate::tensor::ops::extra::host::rename(&row, "UnbindBackward0");
            rows.push(wrap(row));
        }
        Ok(Some(Value::Iter(Rc::new(RefCell::new(Iter::Seq {
            items: Rc::new(rows),
            pos: 0,
        })))))
    }
}

/// The scalar of a one-element tensor, for `float(t)`, `int(t)`, `t.item()`.
pub fn item(t: &Tensor) -> PyResult<Scalar> {
    t.item().py()
}

/// A shape mismatch explained: which shapes met, and the broadcasting rule.
fn broadcast_hint(e: crate::tensor::TensorError, x: &Tensor, y: &Tensor) -> PyErr {
    let is_shape = e.msg.starts_with("The size of tensor a");
    let err = terr(e);
    if !is_shape || err.0.hint.is_some() {
        return err;
    }
    err.hint(format!(
        "shapes {:?} and {:?} cannot broadcast: sizes are compared from the last dimension, and each pair must be equal or one of them 1.",
        x.shape(),
        y.shape()
    ))
}

#[cfg(test)]
mod tests {
    /// `Native::method` answers a call `x.name()` without `get_attr`, whose first arms answer
    /// `TENSOR_ATTRS`: no method may take one of those names.
    #[test]
    fn no_method_is_named_as_an_attribute() {
        let methods = super::super::methods::METHOD_NAMES
            .iter()
            .chain(super::super::methods_extra::METHOD_NAMES);
        for m in methods {
            assert!(!super::TENSOR_ATTRS.contains(m), "{m}");
        }
    }
}
