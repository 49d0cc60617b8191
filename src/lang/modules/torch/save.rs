//! `torch.save(obj, path)` and `torch.load(path, map_location=None)` in cudalearn's own file
//! format (PyTorch's zip archive is not needed to round-trip): tensors (dtype, device, shape,
//! requires_grad, Parameter-ness, values), and the containers state dicts and optimizer state
//! are made of (dict, `collections.OrderedDict`, list, tuple, str, int, float, bool, None),
//! and, by reference as pickle keeps them, classes and dict subclasses (`save_objects.rs`).
//! Paths must be relative and stay under the current directory. An object met twice (the same
//! tensor, list, dict or instance) is written once and referred to after, as pickle's memo
//! does, so it loads as one object again; views are saved as copies (two tensors sharing
//! memory load as two tensors).
use super::convert::*;
use super::save_objects;
use crate::lang::builtins::kwarg;
use crate::lang::error::{not_implemented_text, type_error, ExcKind, PyErr, PyResult};
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use crate::tensor::{DType, Device, Tensor};
use std::path::{Component, Path};

const MAGIC: &[u8] = b"CUDALEARN-SAVE 1\n";

fn bad_file(path: &str) -> PyErr {
    PyErr::new(
        ExcKind::RuntimeError,
        format!("Invalid magic number; corrupt file? ({path} was not written by cudalearn's torch.save)"),
    )
    .hint("torch.load reads files written by cudalearn's torch.save; PyTorch's own .pt files cannot be read")
}

/// A path that is relative and never climbs out of the current directory.
fn checked_path(v: Option<&Value>, f: &str) -> PyResult<String> {
    let p =
        match v {
            Some(Value::Str(s)) => s.to_string(),
            Some(v) => return Err(not_implemented_text(format!(
                "cudalearn's torch.{f} takes a file name (str), not {}",
                v.type_name()
            ))
            .hint(
                "pass a path such as 'model.pt'; file objects like io.BytesIO are not supported",
            )),
            None => return Err(type_error(format!("{f}() missing required argument 'f'"))),
        };
    let path = Path::new(&p);
    let escapes = path.is_absolute()
        || path.components().any(|c| {
            matches!(
                c,
                Component::ParentDir | Component::RootDir | Component::Prefix(_)
            )
        });
    if escapes || p.is_empty() {
        return Err(PyErr::new(
            ExcKind::OSError,
            format!("cudalearn only reads and writes files under the current directory, not '{p}'"),
        )
        .hint("use a relative path without '..', such as 'checkpoints/model.pt'"));
    }
    Ok(p)
}

struct Writer<'a> {
    out: Vec<u8>,
    interp: &'a mut Interp,
    /// Objects written so far (by identity) and their numbers, in the order finished; the
    /// reader numbers the objects it builds in the same order. Each is held here, so that no
    /// object made during the save (a class's own `items()` may make them) can free its
    /// address for another to be mistaken for it.
    memo: std::collections::HashMap<usize, (u32, Value)>,
}

impl Writer<'_> {
    fn u32(&mut self, n: usize) {
        self.out.extend_from_slice(&(n as u32).to_le_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.u32(b.len());
        self.out.extend_from_slice(b);
    }
    fn value(&mut self, v: &Value, depth: usize) -> PyResult<()> {
        if depth > 200 {
            return Err(PyErr::new(
                ExcKind::RecursionError,
                "maximum recursion depth exceeded while saving",
            ));
        }
        let shared = matches!(v, Value::List(_) | Value::Dict(_) | Value::Instance(_))
            || as_tensor(v).is_some();
        if !shared {
            return self.object(v, depth);
        }
        let id = v.ptr_id();
        if let Some(&(n, _)) = self.memo.get(&id) {
            self.out.push(b'R');
            self.u32(n as usize);
            return Ok(());
        }
        self.object(v, depth)?;
        let n = self.memo.len() as u32;
        self.memo.insert(id, (n, v.clone()));
        Ok(())
    }
    fn object(&mut self, v: &Value, depth: usize) -> PyResult<()> {
        match v {
            Value::None => self.out.push(b'N'),
            Value::Bool(b) => self.out.extend_from_slice(&[b'b', *b as u8]),
            Value::Int(i) => {
                self.out.push(b'i');
                self.out.extend_from_slice(&i.to_le_bytes());
            }
            Value::Float(f) => {
                self.out.push(b'f');
                self.out.extend_from_slice(&f.get().to_le_bytes());
            }
            Value::Str(s) => {
                self.out.push(b's');
                self.bytes(s.as_bytes());
            }
            Value::List(l) => {
                let items = l.borrow().clone();
                self.seq(b'l', &items, depth)?;
            }
            Value::Tuple(t) => self.seq(b't', t, depth)?,
            Value::Dict(d) => {
                let pairs: Vec<(Value, Value)> = d.borrow().iter().map(|(k, v)| (k.0.clone(), v.clone())).collect();
                self.pairs(b'd', &pairs, depth)?;
            }
            Value::Instance(inst) if is_ordered_dict(&inst.class) => {
                let pairs = save_objects::dict_parts(self.interp, v)?;
                self.pairs(b'o', &pairs, depth)?;
            }
            Value::Instance(inst)
                if matches!(inst.base, Some(Value::Dict(_)))
                    || save_objects::plain_instance(inst) =>
            {
                // a dict subclass or a plain object: its class by name, its items (none for
                // a plain object), its __dict__
                self.out.push(b'D');
                self.class_ref(&inst.class)?;
                let pairs = match inst.base {
                    Some(_) => save_objects::dict_parts(self.interp, v)?,
                    None => Vec::new(),
                };
                self.pairs(b'd', &pairs, depth)?;
                let state = save_objects::state(inst);
                self.pairs(b'd', &state, depth)?;
            }
            Value::Class(c) => {
                self.out.push(b'c');
                self.class_ref(c)?;
            }
            _ => match as_tensor(v) {
                Some(t) => self.tensor(t)?,
                None => {
                    return Err(not_implemented_text(format!(
                        "cudalearn's torch.save cannot save a '{}' object",
                        v.type_name()
                    ))
                    .hint("save tensors, state dicts (model.state_dict(), optimizer.state_dict()) and dicts/lists of them and of numbers and strings"))
                }
            },
        }
        Ok(())
    }
    fn class_ref(&mut self, c: &std::rc::Rc<Class>) -> PyResult<()> {
        let (module, qualname) = save_objects::class_name(self.interp, c)?;
        self.bytes(module.as_bytes());
        self.bytes(qualname.as_bytes());
        Ok(())
    }
    fn seq(&mut self, tag: u8, items: &[Value], depth: usize) -> PyResult<()> {
        self.out.push(tag);
        self.u32(items.len());
        for it in items {
            self.value(it, depth + 1)?;
        }
        Ok(())
    }
    fn pairs(&mut self, tag: u8, pairs: &[(Value, Value)], depth: usize) -> PyResult<()> {
        self.out.push(tag);
        self.u32(pairs.len());
        for (k, v) in pairs {
            self.value(k, depth + 1)?;
            self.value(v, depth + 1)?;
        }
        Ok(())
    }
    fn tensor(&mut self, t: &Tensor) -> PyResult<()> {
        self.out.push(b'T');
        self.bytes(t.dtype().name().as_bytes());
        self.bytes(t.device().to_string().as_bytes());
        self.out
            .push(t.requires_grad() as u8 | (t.is_parameter() as u8) << 1);
        self.u32(t.ndim());
        for &d in t.shape() {
            self.out.extend_from_slice(&(d as u64).to_le_bytes());
        }
        if t.dtype().is_floating() {
            for v in t.contiguous_values_f64().py()? {
                self.out.extend_from_slice(&v.to_le_bytes());
            }
        } else {
            for v in t.contiguous_values_i64().py()? {
                self.out.extend_from_slice(&v.to_le_bytes());
            }
        }
        Ok(())
    }
}

/// `collections.OrderedDict` itself (its subclasses are saved by name, as other dict
/// subclasses are).
fn is_ordered_dict(c: &Class) -> bool {
    &*c.name == "OrderedDict" && &*c.module == "collections"
}

/// `torch.save(obj, f)`.
pub fn save(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let obj = a
        .pos
        .first()
        .cloned()
        .or_else(|| kwarg(&a, "obj"))
        .unwrap_or(Value::None);
    let path = checked_path(a.pos.get(1).or(kwarg(&a, "f").as_ref()), "save")?;
    let mut w = Writer {
        out: MAGIC.to_vec(),
        interp: i,
        memo: Default::default(),
    };
    w.value(&obj, 0)?;
    std::fs::write(&path, &w.out).map_err(|e| os_error(&e, &path))?;
    Ok(Value::None)
}

fn os_error(e: &std::io::Error, path: &str) -> PyErr {
    let errno = e.raw_os_error().unwrap_or(0);
    let text = match e.kind() {
        std::io::ErrorKind::NotFound => "No such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "Permission denied".to_string(),
        _ => e.to_string(),
    };
    let kind = match e.kind() {
        std::io::ErrorKind::NotFound => ExcKind::FileNotFoundError,
        _ => ExcKind::OSError,
    };
    PyErr::new(kind, format!("[Errno {errno}] {text}: '{path}'"))
}

/// Where loaded tensors go: as saved, or one device for all (`map_location`).
enum Target {
    AsSaved,
    To(Device),
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
    target: Target,
    path: &'a str,
    /// `torch.load(weights_only=True)`, the default: classes other than PyTorch's safe ones
    /// are refused.
    weights_only: bool,
    /// The objects built so far that a later `R` may refer to (see `Writer::memo`).
    memo: Vec<Value>,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> PyResult<&[u8]> {
        if self.at + n > self.data.len() {
            return Err(bad_file(self.path));
        }
        let s = &self.data[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    fn u8(&mut self) -> PyResult<u8> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> PyResult<usize> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }
    fn u64(&mut self) -> PyResult<u64> {
        let b = self.take(8)?;
        Ok(u64::from_le_bytes(
            b.try_into().map_err(|_| bad_file(self.path))?,
        ))
    }
    fn string(&mut self) -> PyResult<String> {
        let n = self.u32()?;
        let path = self.path;
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| bad_file(path))
    }
    fn value(&mut self, i: &mut Interp) -> PyResult<Value> {
        let tag = self.u8()?;
        if tag == b'R' {
            let n = self.u32()?;
            return self.memo.get(n).cloned().ok_or_else(|| bad_file(self.path));
        }
        let v = self.object(tag, i)?;
        // (The kinds the writer numbers: see `Writer::value`.)
        if matches!(tag, b'l' | b'd' | b'o' | b'D' | b'T') {
            self.memo.push(v.clone());
        }
        Ok(v)
    }
    fn object(&mut self, tag: u8, i: &mut Interp) -> PyResult<Value> {
        Ok(match tag {
            b'N' => Value::None,
            b'b' => Value::bool(self.u8()? != 0),
            b'i' => Value::Int(self.u64()? as i64),
            b'f' => Value::float(f64::from_bits(self.u64()?)),
            b's' => Value::str(&self.string()?),
            b'l' => {
                let n = self.u32()?;
                Value::list((0..n).map(|_| self.value(i)).collect::<PyResult<_>>()?)
            }
            b't' => {
                let n = self.u32()?;
                Value::tuple((0..n).map(|_| self.value(i)).collect::<PyResult<_>>()?)
            }
            tag @ (b'd' | b'o') => {
                let mut map = DictMap::default();
                for (k, v) in self.pairs(i)? {
                    map.insert(Key::new(k)?, v);
                }
                let d = Value::Dict(std::rc::Rc::new(std::cell::RefCell::new(map)));
                if tag == b'o' {
                    let m = i.import("collections")?;
                    let cls = i.get_attr(&m, Sym::new("OrderedDict"))?;
                    i.call(&cls, Args::of([d]))?
                } else {
                    d
                }
            }
            b'c' => self.class_ref(i)?,
            b'D' => {
                let cls = self.class_ref(i)?;
                let items = self.tagged_pairs(i)?;
                if self.weights_only && !items.is_empty() {
                    save_objects::check_setitem(&cls)?;
                }
                let state = self.tagged_pairs(i)?;
                save_objects::rebuild(i, &cls, items, state)?
            }
            b'T' => wrap(self.tensor()?),
            _ => return Err(bad_file(self.path)),
        })
    }
    fn pairs(&mut self, i: &mut Interp) -> PyResult<Vec<(Value, Value)>> {
        let n = self.u32()?;
        let mut pairs = Vec::with_capacity(n.min(1 << 16));
        for _ in 0..n {
            let k = self.value(i)?;
            let v = self.value(i)?;
            pairs.push((k, v));
        }
        Ok(pairs)
    }
    /// A `d`-tagged run of pairs, read as pairs (not yet a dict).
    fn tagged_pairs(&mut self, i: &mut Interp) -> PyResult<Vec<(Value, Value)>> {
        if self.u8()? != b'd' {
            return Err(bad_file(self.path));
        }
        self.pairs(i)
    }
    fn class_ref(&mut self, i: &mut Interp) -> PyResult<Value> {
        let module = self.string()?;
        let qualname = self.string()?;
        if self.weights_only {
            save_objects::check_safe(&module, &qualname)?;
        }
        save_objects::find_class(i, &module, &qualname)
    }
    fn tensor(&mut self) -> PyResult<Tensor> {
        let path = self.path;
        let dtype = DType::from_name(&self.string()?).ok_or_else(|| bad_file(path))?;
        let saved_dev = self.string()?;
        let flags = self.u8()?;
        let nd = self.u32()?;
        let shape: Vec<usize> = (0..nd)
            .map(|_| self.u64().map(|d| d as usize))
            .collect::<PyResult<_>>()?;
        let n: usize = shape.iter().product();
        let raw = self.take(n.checked_mul(8).ok_or_else(|| bad_file(path))?)?;
        let words = raw
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
        let t = if dtype.is_floating() {
            let v: Vec<f64> = words.map(f64::from_bits).collect();
            Tensor::from_f64s(&v, &shape, dtype).py()?
        } else {
            let v: Vec<i64> = words.map(|w| w as i64).collect();
            Tensor::from_i64s(&v, &shape, dtype).py()?
        };
        let device = match self.target {
            Target::To(d) => d,
            Target::AsSaved => {
                let (d, _) = Device::parse(&saved_dev).map_err(|_| bad_file(path))?;
                if d != Device::Cpu && check_available(d).is_err() {
                    return Err(crate::lang::error::runtime_error(
                        "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.",
                    )
                    .hint("this file was saved from a GPU tensor: torch.load(path, map_location='cpu') loads it onto the CPU"));
                }
                d
            }
        };
        let t = if device == Device::Cpu {
            t
        } else {
            t.to_device(device).py()?
        };
        if flags & 1 != 0 {
            t.set_requires_grad(true);
        }
        if flags & 2 != 0 {
            t.mark_parameter();
        }
        Ok(t)
    }
}

/// `torch.load(f, map_location=None, weights_only=...)`.
pub fn load(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let path = checked_path(a.pos.first().or(kwarg(&a, "f").as_ref()), "load")?;
    let target = match a.pos.get(1).cloned().or_else(|| kwarg(&a, "map_location")) {
        None | Some(Value::None) => Target::AsSaved,
        Some(v @ (Value::Str(_) | Value::Native(_))) => {
            let d = device_arg(&v)?;
            check_available(d)?;
            Target::To(d)
        }
        Some(v) => {
            return Err(not_implemented_text(format!(
                "cudalearn's torch.load does not take a map_location of type '{}' yet",
                v.type_name()
            ))
            .hint("pass a device: map_location='cpu', 'cuda' or torch.device(...)"))
        }
    };
    let weights_only = match kwarg(&a, "weights_only") {
        None | Some(Value::None) => true,
        Some(v) => i.truthy(&v)?,
    };
    let data = std::fs::read(&path).map_err(|e| os_error(&e, &path))?;
    if !data.starts_with(MAGIC) {
        return Err(bad_file(&path));
    }
    let mut r = Reader {
        data: &data,
        at: MAGIC.len(),
        target,
        path: &path,
        weights_only,
        memo: Vec::new(),
    };
    let v = r.value(i)?;
    if r.at != data.len() {
        return Err(bad_file(&path));
    }
    Ok(v)
}
