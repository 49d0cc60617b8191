//! `torch.profiler`: `profile(activities=[...])` as a context manager, `record_function(name)`,
//! and `prof.key_averages().table(sort_by=..., row_limit=...)` laid out as PyTorch 2.15 lays it
//! out (`torch/autograd/profiler_util.py: _build_table`). CPU rows carry measured host times;
//! on the simulated GPU the CUDA columns are the model's (the table says so under it).
use crate::backend::profile_log::{self, Entry};
use crate::lang::builtins::kwarg;
use crate::lang::error::{type_error, ExcKind, PyErr, PyResult};
use crate::lang::interp::Interp;
use crate::lang::modules::make_module;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

pub fn module() -> Value {
    let activity = make_module(
        "torch.profiler.ProfilerActivity",
        &[],
        &[
            ("CPU", Value::Native(NativeRc::new(Activity("CPU")))),
            ("CUDA", Value::Native(NativeRc::new(Activity("CUDA")))),
        ],
    );
    make_module(
        "torch.profiler",
        &[
            ("profile", |i, _, a| new_profile(i, a)),
            ("record_function", |i, _, a| {
                let name = match a.pos.first().cloned().or_else(|| kwarg(&a, "name")) {
                    Some(Value::Str(s)) => s.to_string(),
                    Some(v) => i.to_str(&v)?,
                    None => return Err(type_error(
                        "record_function.__init__() missing 1 required positional argument: 'name'",
                    )),
                };
                Ok(Value::Native(NativeRc::new(RecordFunction(name))))
            }),
        ],
        &[("ProfilerActivity", activity)],
    )
}

/// `ProfilerActivity.CPU` / `.CUDA`.
struct Activity(&'static str);

impl Native for Activity {
    fn type_name(&self) -> &str {
        "ProfilerActivity"
    }
    fn module(&self) -> &str {
        "torch._C._profiler"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        let n = if self.0 == "CPU" { 0 } else { 2 };
        Ok(format!("<ProfilerActivity.{}: {n}>", self.0))
    }
    fn str(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(format!("ProfilerActivity.{}", self.0))
    }
}

fn new_profile(i: &mut Interp, a: Args) -> PyResult<Value> {
    let acts = a.pos.first().cloned().or_else(|| kwarg(&a, "activities"));
    // PyTorch's default: the CPU, and CUDA when there is a GPU
    let cuda = match acts {
        None | Some(Value::None) => crate::backend::gpu::is_available(),
        Some(v) => {
            let mut cuda = false;
            for item in i.collect(&v)? {
                match &item {
                    Value::Native(n) => match n.as_any().downcast_ref::<Activity>() {
                        Some(act) => cuda |= act.0 == "CUDA",
                        None => {
                            return Err(type_error("activities must be ProfilerActivity values"))
                        }
                    },
                    _ => return Err(type_error("activities must be ProfilerActivity values")),
                }
            }
            cuda
        }
    };
    Ok(Value::Native(NativeRc::new(Profile {
        cuda,
        entries: RefCell::new(None),
    })))
}

/// `torch.profiler.profile(...)`.
struct Profile {
    cuda: bool,
    entries: RefCell<Option<Vec<Entry>>>,
}

fn this_profile(v: &Value) -> PyResult<&Profile> {
    match v {
        Value::Native(n) => n.as_any().downcast_ref::<Profile>(),
        _ => None,
    }
    .ok_or_else(|| type_error("expected a torch.profiler.profile"))
}

fn method(name: &'static str, f: NativeFn, this: &Value) -> Value {
    Value::Builtin(Rc::new(Builtin {
        name,
        f,
        this: Some(this.clone()),
    }))
}

impl Profile {
    fn start(&self) {
        profile_log::start();
    }
    fn stop(&self) {
        *self.entries.borrow_mut() = Some(profile_log::stop());
    }
}

impl Native for Profile {
    fn type_name(&self) -> &str {
        "profile"
    }
    fn module(&self) -> &str {
        "torch.profiler.profiler"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn get_attr(&self, this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        let f: NativeFn = match &*name.as_str() {
            "start" | "__enter__" => |_, t, _| {
                this_profile(t)?.start();
                Ok(t.clone())
            },
            "stop" => |_, t, _| {
                this_profile(t)?.stop();
                Ok(Value::None)
            },
            "__exit__" => |_, t, _| {
                this_profile(t)?.stop();
                Ok(Value::Bool(PyBool::False))
            },
            "step" => |_, _, _| Ok(Value::None),
            "key_averages" => |_, t, _| {
                let p = this_profile(t)?;
                let entries = p.entries.borrow().clone().ok_or_else(|| {
                    PyErr::new(
                        ExcKind::AssertionError,
                        "Profiler must be initialized before getting key averages",
                    )
                })?;
                Ok(Value::Native(NativeRc::new(KeyAverages(averages(
                    &entries, p.cuda,
                )))))
            },
            _ => return Ok(None),
        };
        Ok(Some(method("method", f, this)))
    }
    fn attr_names(&self) -> Vec<PyStr> {
        ["key_averages", "start", "step", "stop"]
            .iter()
            .map(|s| PyStr::from(*s))
            .collect()
    }
    fn enter(&self, this: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        self.start();
        Ok(Some(this.clone()))
    }
    fn exit(&self, _this: &Value, _i: &mut Interp, _err: Option<&PyErr>) -> PyResult<bool> {
        self.stop();
        Ok(false)
    }
}

/// `torch.profiler.record_function(name)`.
struct RecordFunction(String);

impl Native for RecordFunction {
    fn type_name(&self) -> &str {
        "record_function"
    }
    fn module(&self) -> &str {
        "torch.autograd.profiler"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn enter(&self, this: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        profile_log::range_start(&self.0);
        Ok(Some(this.clone()))
    }
    fn exit(&self, _this: &Value, _i: &mut Interp, _err: Option<&PyErr>) -> PyResult<bool> {
        profile_log::range_end();
        Ok(false)
    }
}

/// One row of `key_averages()`: times in microseconds, as PyTorch keeps them.
#[derive(Debug, Clone, PartialEq)]
pub struct Avg {
    pub key: String,
    pub count: u64,
    pub self_cpu: f64,
    pub cpu_total: f64,
    pub self_device: f64,
    pub device_total: f64,
}

/// The rows (first-seen order), and whether device times are modelled and shown.
#[derive(Debug, Clone, PartialEq)]
pub struct Averages {
    pub rows: Vec<Avg>,
    pub use_device: bool,
    pub modelled: bool,
}

/// Group entries by name. Without the CUDA activity, device times are dropped.
pub fn averages(entries: &[Entry], cuda: bool) -> Averages {
    let mut rows: Vec<Avg> = Vec::new();
    let mut modelled = false;
    for e in entries {
        let i = match rows.iter().position(|r| r.key == e.name) {
            Some(i) => i,
            None => {
                rows.push(Avg {
                    key: e.name.clone(),
                    count: 0,
                    self_cpu: 0.0,
                    cpu_total: 0.0,
                    self_device: 0.0,
                    device_total: 0.0,
                });
                rows.len() - 1
            }
        };
        let r = &mut rows[i];
        r.count += 1;
        r.self_cpu += e.self_host_s * 1e6;
        r.cpu_total += e.total_host_s * 1e6;
        if cuda {
            r.self_device += e.self_device_s * 1e6;
            r.device_total += e.total_device_s * 1e6;
            modelled |= e.device.is_some()
                && e.total_device_s > 0.0
                && crate::backend::gpu::kind() == crate::backend::gpu::GpuKind::Simulated;
        }
    }
    Averages {
        rows,
        use_device: cuda,
        modelled,
    }
}

/// PyTorch's `_format_time`.
pub fn format_time(us: f64) -> String {
    if us >= 1e6 {
        format!("{:.3}s", us / 1e6)
    } else if us >= 1e3 {
        format!("{:.3}ms", us / 1e3)
    } else {
        format!("{us:.3}us")
    }
}

fn share(t: f64, total: f64) -> String {
    if total == 0.0 {
        return "NaN".into();
    }
    format!("{:.2}%", t * 100.0 / total)
}

/// `key_averages().table(sort_by, row_limit)`; `Err(name)` for an unknown sort key.
pub fn table(avg: &Averages, sort_by: Option<&str>, row_limit: i64) -> Result<String, String> {
    if avg.rows.is_empty() {
        return Ok(String::new());
    }
    let mut rows = avg.rows.clone();
    if let Some(key) = sort_by {
        let k = key.replace("cuda", "device");
        let f: fn(&Avg) -> f64 = match k.as_str() {
            "cpu_time_total" => |r| r.cpu_total,
            "self_cpu_time_total" => |r| r.self_cpu,
            "device_time_total" => |r| r.device_total,
            "self_device_time_total" => |r| r.self_device,
            "cpu_time" => |r| r.cpu_total / r.count as f64,
            "device_time" => |r| r.device_total / r.count as f64,
            "count" => |r| r.count as f64,
            _ => return Err(k),
        };
        // Python's sorted(reverse=True) is stable: ties keep their order
        rows.sort_by(|a, b| f(b).partial_cmp(&f(a)).unwrap_or(std::cmp::Ordering::Equal));
    }
    let has_device = avg.use_device && rows.iter().any(|r| r.self_device > 0.0);
    let name_w = (rows
        .iter()
        .map(|r| r.key.chars().count())
        .max()
        .unwrap_or(0)
        + 4)
    .min(55);
    let mut headers = vec![
        "Name",
        "Self CPU %",
        "Self CPU",
        "CPU total %",
        "CPU total",
        "CPU time avg",
    ];
    if has_device {
        headers.extend(["Self CUDA", "Self CUDA %", "CUDA total", "CUDA time avg"]);
    }
    headers.push("# of Calls");
    let widths: Vec<usize> = (0..headers.len())
        .map(|i| if i == 0 { name_w } else { 12 })
        .collect();
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (c, w) in cells.iter().zip(&widths) {
            s += &format!("{c:>w$}  ");
        }
        s + "\n"
    };
    let sep: String = widths
        .iter()
        .map(|w| "-".repeat(*w) + "  ")
        .collect::<String>()
        + "\n";
    let sum_self_cpu: f64 = rows.iter().map(|r| r.self_cpu).sum();
    let sum_self_device: f64 = rows.iter().map(|r| r.self_device).sum();
    let mut out = sep.clone();
    out += &line(&headers.iter().map(|h| h.to_string()).collect::<Vec<_>>());
    out += &sep;
    for r in rows.iter().take(row_limit.max(0) as usize) {
        let mut name = r.key.clone();
        if name.chars().count() >= 52 {
            name = name.chars().take(52).collect::<String>() + "...";
        }
        let n = r.count as f64;
        let mut cells = vec![
            name,
            share(r.self_cpu, sum_self_cpu),
            format_time(r.self_cpu),
            share(r.cpu_total, sum_self_cpu),
            format_time(r.cpu_total),
            format_time(r.cpu_total / n),
        ];
        if has_device {
            cells.extend([
                format_time(r.self_device),
                share(r.self_device, sum_self_device),
                format_time(r.device_total),
                format_time(r.device_total / n),
            ]);
        }
        cells.push(r.count.to_string());
        out += &line(&cells);
    }
    out += &sep;
    out += &format!("Self CPU time total: {}\n", format_time(sum_self_cpu));
    if has_device {
        out += &format!("Self CUDA time total: {}\n", format_time(sum_self_device));
    }
    if has_device && avg.modelled {
        out += &format!(
            "(CUDA times are MODELLED for a simulated {}, not measured; CPU times of GPU ops are the modelled launch cost)\n",
            crate::backend::sim_model::chosen().name
        );
    }
    Ok(out)
}

/// `prof.key_averages()`.
struct KeyAverages(Averages);

impl Native for KeyAverages {
    fn type_name(&self) -> &str {
        "EventList"
    }
    fn module(&self) -> &str {
        "torch.autograd.profiler_util"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        table(&self.0, None, 100).map_err(|k| attr_err(&k))
    }
    fn get_attr(&self, this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        let f: NativeFn = match &*name.as_str() {
            "table" => |i, t, a| {
                let me = match t {
                    Value::Native(n) => n.as_any().downcast_ref::<KeyAverages>(),
                    _ => None,
                }
                .ok_or_else(|| type_error("expected key averages"))?;
                let sort = match a.pos.first().cloned().or_else(|| kwarg(&a, "sort_by")) {
                    None | Some(Value::None) => None,
                    Some(Value::Str(s)) => Some(s.to_string()),
                    Some(v) => Some(i.to_str(&v)?),
                };
                let limit = match a.pos.get(1).cloned().or_else(|| kwarg(&a, "row_limit")) {
                    None | Some(Value::None) => 100,
                    Some(Value::Int(n)) => n,
                    Some(v) => {
                        return Err(type_error(format!(
                            "row_limit must be an int, not {}",
                            v.type_name()
                        )))
                    }
                };
                let s = table(&me.0, sort.as_deref(), limit).map_err(|k| attr_err(&k))?;
                Ok(Value::str(&s))
            },
            _ => return Ok(None),
        };
        Ok(Some(method("table", f, this)))
    }
    fn attr_names(&self) -> Vec<PyStr> {
        vec![PyStr::from("table")]
    }
    // an EventList is a list of FunctionEventAvg: len, indexing and iteration
    fn len(&self, _i: &mut Interp) -> PyResult<Option<usize>> {
        Ok(Some(self.0.rows.len()))
    }
    fn get_item(&self, _this: &Value, index: &Value, i: &mut Interp) -> PyResult<Value> {
        i.get_item(&Value::list(self.events()), index)
    }
    fn iter(&self, _this: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(Some(Value::Iter(Rc::new(RefCell::new(Iter::Seq {
            items: Rc::new(self.events()),
            pos: 0,
        })))))
    }
}

impl KeyAverages {
    fn events(&self) -> Vec<Value> {
        let rows = self.0.rows.iter();
        rows.map(|r| Value::Native(NativeRc::new(EventAvg(r.clone()))))
            .collect()
    }
}

/// One row of `key_averages()` (`FunctionEventAvg`): its name, call count and times in
/// microseconds, under PyTorch's attribute names.
struct EventAvg(Avg);

impl Native for EventAvg {
    fn type_name(&self) -> &str {
        "FunctionEventAvg"
    }
    fn module(&self) -> &str {
        "torch.autograd.profiler_util"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        let r = &self.0;
        let n = r.count.max(1) as f64;
        Ok(format!(
            "<FunctionEventAvg key={} self_cpu_time={} cpu_time={} self_cuda_time={} cuda_time={} count={}>",
            r.key,
            format_time(r.self_cpu),
            format_time(r.cpu_total / n),
            format_time(r.self_device),
            format_time(r.device_total / n),
            r.count
        ))
    }
    fn get_attr(&self, _this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        let r = &self.0;
        let n = r.count.max(1) as f64;
        // PyTorch's device totals start as the int 0 and stay so without device events
        let device = |t: f64| {
            if t == 0.0 {
                Value::Int(0)
            } else {
                Value::float(t)
            }
        };
        Ok(Some(match &*name.as_str() {
            "key" => Value::str(&r.key),
            "count" => Value::Int(r.count as i64),
            "self_cpu_time_total" => Value::float(r.self_cpu),
            "cpu_time_total" => Value::float(r.cpu_total),
            "cpu_time" => Value::float(r.cpu_total / n),
            "self_device_time_total" | "self_cuda_time_total" => device(r.self_device),
            "device_time_total" | "cuda_time_total" => device(r.device_total),
            "device_time" | "cuda_time" => device(r.device_total / n),
            _ => return Ok(None),
        }))
    }
    fn attr_names(&self) -> Vec<PyStr> {
        let names = [
            "key",
            "count",
            "self_cpu_time_total",
            "cpu_time_total",
            "cpu_time",
        ];
        let device = ["self_device_time_total", "device_time_total", "device_time"];
        names
            .iter()
            .chain(&device)
            .map(|&n| PyStr::from(n))
            .collect()
    }
}

fn attr_err(k: &str) -> PyErr {
    PyErr::new(
        ExcKind::AttributeError,
        format!("'FunctionEventAvg' object has no attribute '{k}'"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn avg(key: &str, self_cpu: f64, total: f64) -> Avg {
        Avg {
            key: key.into(),
            count: 1,
            self_cpu,
            cpu_total: total,
            self_device: 0.0,
            device_total: 0.0,
        }
    }

    #[test]
    fn layout_follows_pytorch() {
        let a = Averages {
            rows: vec![
                avg("step", 2000.0, 4000.0),
                avg("aten::mm", 1500.0, 1500.0),
                avg("aten::sum", 500.0, 500.0),
            ],
            use_device: false,
            modelled: false,
        };
        let t = table(&a, Some("self_cpu_time_total"), 2).unwrap();
        let lines: Vec<&str> = t.lines().collect();
        // the name column is the longest name + 4; every other column 12, two spaces apart
        assert_eq!(
            lines[0],
            format!("{}  {}", "-".repeat(13), "------------  ".repeat(6))
        );
        assert_eq!(lines[1].trim_start(), "Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg    # of Calls  ");
        assert_eq!(lines[3], "         step        50.00%       2.000ms       100.00%       4.000ms       4.000ms             1  ");
        assert_eq!(lines[4].split_whitespace().next(), Some("aten::mm"));
        assert_eq!(lines.len(), 7);
        assert_eq!(lines[6], "Self CPU time total: 4.000ms");
        assert_eq!(table(&a, Some("bogus"), 2), Err("bogus".into()));
        assert_eq!(format_time(1.5e6), "1.500s");
        assert_eq!(format_time(12.0), "12.000us");
    }
}
