//! `repr(tensor)` exactly as PyTorch 2.15 prints it: a port of `torch/_tensor_str.py` for
//! strided, real-valued tensors, independent of the tensor type (the caller hands over the
//! elements in row-major order).
//!
//! Function names follow the Python ones (`_Formatter`, `_vector_str`,
//! `_tensor_str_with_formatter`, `get_summarized_data`, `_add_suffixes`, `_str_intern`) so the
//! two can be read side by side.
use crate::tensor::dtype::DType;

/// `torch._tensor_str.PRINT_OPTS`. `threshold` is an f64 because `profile='full'` sets it to
/// `inf` and Python compares `numel > threshold` with whatever number was given.
#[derive(Clone, Debug, PartialEq)]
pub struct PrintOptions {
    pub precision: usize,
    pub threshold: f64,
    pub edgeitems: usize,
    pub linewidth: usize,
    pub sci_mode: Option<bool>,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            precision: 4,
            threshold: 1000.0,
            edgeitems: 3,
            linewidth: 80,
            sci_mode: None,
        }
    }
}

impl PrintOptions {
    /// Applies a `set_printoptions(profile=...)` preset: it sets precision, threshold,
    /// edgeitems and linewidth only. Returns false (and changes nothing) for an unknown name,
    /// which PyTorch silently ignores too.
    pub fn apply_profile(&mut self, profile: &str) -> bool {
        let (precision, threshold, edgeitems) = match profile {
            "default" => (4, 1000.0, 3),
            "short" => (2, 1000.0, 2),
            "full" => (4, f64::INFINITY, 3),
            _ => return false,
        };
        self.precision = precision;
        self.threshold = threshold;
        self.edgeitems = edgeitems;
        self.linewidth = 80;
        true
    }
}

/// A tensor's elements, contiguous and row-major: floating dtypes widened to f64 (exact for
/// f16/bf16/f32), integer dtypes as i64, bool as bool.
#[derive(Clone, Copy, Debug)]
pub enum Values<'a> {
    Float(&'a [f64]),
    Int(&'a [i64]),
    Bool(&'a [bool]),
}

impl Values<'_> {
    fn len(&self) -> usize {
        match self {
            Values::Float(v) => v.len(),
            Values::Int(v) => v.len(),
            Values::Bool(v) => v.len(),
        }
    }
}

/// What follows the numbers in `tensor(..., device='cuda:0', dtype=..., grad_fn=<...>)`.
/// The dtype suffix is decided here; the caller decides whether a device shows (PyTorch shows
/// it when the device type differs from the default device's, or for a CUDA tensor on a
/// device other than the current one) and passes its `str(device)`, e.g. `cuda:0`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Suffixes {
    pub device: Option<String>,
    /// `requires_grad=True` shows only for a tensor without `grad_fn` (a leaf).
    pub requires_grad: bool,
    /// The backward node's name, e.g. `AddBackward0`.
    pub grad_fn: Option<String>,
}

/// `repr(tensor)` / `str(tensor)` / `print(tensor)` for a strided tensor.
/// `default_dtype` is `torch.get_default_dtype()`.
pub fn tensor_repr(
    values: Values,
    shape: &[usize],
    dtype: DType,
    default_dtype: DType,
    suffixes: &Suffixes,
    opts: &PrintOptions,
) -> String {
    let prefix = "tensor(";
    let indent = prefix.len();
    let numel = shape.iter().product::<usize>();
    let mut sfx = Vec::new();
    if let Some(dev) = &suffixes.device {
        sfx.push(format!("device='{dev}'"));
    }
    let has_default_dtype = dtype == default_dtype || dtype == DType::I64 || dtype == DType::Bool;
    let body = if numel == 0 {
        // Explicit shape unless 1-d; an empty tensor shows any non-default dtype, int64 too.
        if shape.len() != 1 {
            sfx.push(format!("size={}", size_tuple(shape)));
        }
        if dtype != default_dtype {
            sfx.push(format!("dtype=torch.{}", dtype.name()));
        }
        "[]".to_string()
    } else {
        if opts.edgeitems == 0 {
            sfx.push(format!("size={}", size_tuple(shape)));
        }
        if !has_default_dtype {
            sfx.push(format!("dtype=torch.{}", dtype.name()));
        }
        tensor_str(values, shape, indent, opts)
    };
    if let Some(name) = &suffixes.grad_fn {
        sfx.push(format!("grad_fn=<{name}>"));
    } else if suffixes.requires_grad {
        sfx.push("requires_grad=True".to_string());
    }
    add_suffixes(format!("{prefix}{body}"), &sfx, indent, opts.linewidth)
}

/// `_tensor_str(self, indent)`: the bracketed numbers alone, continuation lines indented by
/// `indent` columns (the prefix's length). A value count that does not match the shape gives
/// a marker rather than a panic.
pub fn tensor_str(values: Values, shape: &[usize], indent: usize, opts: &PrintOptions) -> String {
    let numel = shape.iter().product::<usize>();
    if numel != values.len() {
        return format!("<{} values for shape {shape:?}>", values.len());
    }
    if numel == 0 {
        return "[]".to_string();
    }
    let summarize = numel as f64 > opts.threshold;
    let mut seen = Vec::new();
    if summarize {
        summarized_indices(shape, 0, opts.edgeitems, &mut seen);
    } else {
        seen.extend(0..numel);
    }
    let p = Printer {
        values,
        opts,
        summarize,
        fmt: Formatter::new(values, &seen, opts),
    };
    let mut out = String::new();
    p.tensor_str_with_formatter(&mut out, shape, 0, indent);
    out
}

/// Python's `str(tuple(shape))`: `()`, `(3,)`, `(0, 3)`.
fn size_tuple(shape: &[usize]) -> String {
    match shape {
        [d] => format!("({d},)"),
        _ => {
            let parts: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
            format!("({})", parts.join(", "))
        }
    }
}

/// `get_summarized_data`: the flat indices of the elements a summarised print shows, which
/// are the only ones the formatter measures.
fn summarized_indices(shape: &[usize], offset: usize, edge: usize, out: &mut Vec<usize>) {
    let Some((&n, rest)) = shape.split_first() else {
        out.push(offset);
        return;
    };
    if rest.is_empty() {
        // `self[:e]` and `self[-e:]`; with e == 0 the latter is the whole row.
        if n > edge.saturating_mul(2) && edge > 0 {
            out.extend((offset..offset + edge).chain(offset + n - edge..offset + n));
        } else {
            out.extend(offset..offset + n);
        }
        return;
    }
    if edge == 0 {
        // `self.new_empty([0] * dim)`: nothing to measure.
        return;
    }
    let stride: usize = rest.iter().product();
    let rows: Vec<usize> = if n > edge.saturating_mul(2) {
        (0..edge).chain(n - edge..n).collect()
    } else {
        (0..n).collect()
    };
    for i in rows {
        summarized_indices(rest, offset + i * stride, edge, out);
    }
}

/// Python's `"{:.{p}f}".format(v)`; Rust's fixed formatting rounds the exact binary value
/// half-to-even as Python does, only the non-finite spellings differ.
fn fmt_fixed(v: f64, precision: usize) -> String {
    match nonfinite(v) {
        Some(s) => s.to_string(),
        None => format!("{v:.precision$}"),
    }
}

/// Python's `"{:.{p}e}".format(v)`: Rust writes `1.5e0`, Python `1.5e+00`.
fn fmt_sci(v: f64, precision: usize) -> String {
    if let Some(s) = nonfinite(v) {
        return s.to_string();
    }
    let s = format!("{v:.precision$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
}

fn nonfinite(v: f64) -> Option<&'static str> {
    if v.is_nan() {
        Some("nan")
    } else if v.is_infinite() {
        Some(if v > 0.0 { "inf" } else { "-inf" })
    } else {
        None
    }
}

/// `_Formatter`: one width and one notation for every element printed.
struct Formatter {
    floating: bool,
    int_mode: bool,
    sci_mode: bool,
    max_width: usize,
    precision: usize,
}

impl Formatter {
    fn new(values: Values, seen: &[usize], opts: &PrintOptions) -> Self {
        let precision = opts.precision;
        let mut f = Formatter {
            floating: matches!(values, Values::Float(_)),
            int_mode: true,
            sci_mode: false,
            max_width: 1,
            precision,
        };
        let vals = match values {
            Values::Float(v) => v,
            Values::Int(v) => {
                for &i in seen {
                    f.max_width = f.max_width.max(v[i].to_string().len());
                }
                return f;
            }
            Values::Bool(v) => {
                for &i in seen {
                    f.max_width = f.max_width.max(if v[i] { 4 } else { 5 });
                }
                return f;
            }
        };
        let nz: Vec<f64> = seen
            .iter()
            .map(|&i| vals[i])
            .filter(|v| v.is_finite() && *v != 0.0)
            .collect();
        if nz.is_empty() {
            return f;
        }
        let abs_min = nz.iter().fold(f64::INFINITY, |m, v| m.min(v.abs()));
        let abs_max = nz.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        f.int_mode = nz.iter().all(|v| *v == v.ceil());
        f.sci_mode = opts
            .sci_mode
            .unwrap_or(abs_max / abs_min > 1000.0 || abs_max > 1.0e8 || abs_min < 1.0e-4);
        for &v in &nz {
            let w = if f.sci_mode {
                fmt_sci(v, precision).len()
            } else if f.int_mode {
                // Room for the "." that marks a float.
                fmt_fixed(v, 0).len() + 1
            } else {
                fmt_fixed(v, precision).len()
            };
            f.max_width = f.max_width.max(w);
        }
        f
    }

    fn format(&self, values: Values, i: usize) -> String {
        let ret = match values {
            Values::Float(v) => {
                let v = v[i];
                if self.sci_mode {
                    fmt_sci(v, self.precision)
                } else if self.int_mode {
                    let mut s = fmt_fixed(v, 0);
                    if v.is_finite() {
                        s.push('.');
                    }
                    s
                } else {
                    fmt_fixed(v, self.precision)
                }
            }
            Values::Int(v) => v[i].to_string(),
            Values::Bool(v) => (if v[i] { "True" } else { "False" }).to_string(),
        };
        debug_assert!(self.floating == matches!(values, Values::Float(_)));
        format!("{ret:>width$}", width = self.max_width)
    }
}

struct Printer<'a> {
    values: Values<'a>,
    opts: &'a PrintOptions,
    summarize: bool,
    fmt: Formatter,
}

impl Printer<'_> {
    /// `_tensor_str_with_formatter` for the sub-tensor of `shape` starting at `offset`.
    fn tensor_str_with_formatter(
        &self,
        out: &mut String,
        shape: &[usize],
        offset: usize,
        indent: usize,
    ) {
        let Some((&n, rest)) = shape.split_first() else {
            out.push_str(&self.fmt.format(self.values, offset));
            return;
        };
        if rest.is_empty() {
            self.vector_str(out, n, offset, indent);
            return;
        }
        let edge = self.opts.edgeitems;
        let stride: usize = rest.iter().product();
        let rows: Vec<Option<usize>> = if self.summarize && n > edge.saturating_mul(2) {
            (0..edge)
                .map(Some)
                .chain(std::iter::once(None))
                .chain((n - edge..n).map(Some))
                .collect()
        } else {
            (0..n).map(Some).collect()
        };
        let sep = format!(
            ",{}{}",
            "\n".repeat(shape.len() - 1),
            " ".repeat(indent + 1)
        );
        out.push('[');
        for (k, row) in rows.into_iter().enumerate() {
            if k > 0 {
                out.push_str(&sep);
            }
            match row {
                Some(i) => {
                    self.tensor_str_with_formatter(out, rest, offset + i * stride, indent + 1)
                }
                None => out.push_str("..."),
            }
        }
        out.push(']');
    }

    /// `_vector_str`: one row, wrapped to `linewidth`.
    fn vector_str(&self, out: &mut String, n: usize, offset: usize, indent: usize) {
        let element_length = (self.fmt.max_width + 2) as i64;
        let room = self.opts.linewidth as i64 - indent as i64;
        let per_line = room.div_euclid(element_length).max(1) as usize;
        let edge = self.opts.edgeitems;
        let fmt = |i: usize| self.fmt.format(self.values, offset + i);
        let data: Vec<String> = if self.summarize && edge == 0 {
            vec!["...".to_string()]
        } else if self.summarize && n > edge.saturating_mul(2) {
            (0..edge)
                .map(fmt)
                .chain(std::iter::once(" ...".to_string()))
                .chain((n - edge..n).map(fmt))
                .collect()
        } else {
            (0..n).map(fmt).collect()
        };
        let lines: Vec<String> = data.chunks(per_line).map(|l| l.join(", ")).collect();
        out.push('[');
        out.push_str(&lines.join(&format!(",\n{}", " ".repeat(indent + 1))));
        out.push(']');
    }
}

/// `_add_suffixes`: `, suffix` on the last line while it fits in `linewidth`, else on a new
/// line indented under the opening bracket.
fn add_suffixes(
    tensor_str: String,
    suffixes: &[String],
    indent: usize,
    linewidth: usize,
) -> String {
    let chars = tensor_str.chars().count();
    // Python: len(s) - s.rfind("\n") + 1, where rfind gives -1 without a newline.
    let mut last_line_len = match tensor_str.rfind('\n') {
        Some(p) => chars - tensor_str[..p].chars().count() + 1,
        None => chars + 2,
    };
    let mut out = tensor_str;
    for s in suffixes {
        let len = s.chars().count();
        if last_line_len + len + 2 > linewidth {
            out.push_str(",\n");
            out.push_str(&" ".repeat(indent));
            last_line_len = indent + len;
        } else {
            out.push_str(", ");
            last_line_len += len + 2;
        }
        out.push_str(s);
    }
    out.push(')');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOLDEN: &str = include_str!("../../tests/data/print_golden.txt");

    fn dtype(name: &str) -> DType {
        DType::ALL
            .into_iter()
            .find(|d| d.name() == name)
            .unwrap_or_else(|| panic!("unknown dtype {name}"))
    }

    struct Case {
        name: String,
        opts: PrintOptions,
        dtype: DType,
        default_dtype: DType,
        shape: Vec<usize>,
        suffixes: Suffixes,
        values: Vec<String>,
        expected: String,
    }

    fn parse() -> Vec<Case> {
        let mut cases = Vec::new();
        for block in GOLDEN.split("=== ").skip(1) {
            let (head, expected) = block.split_once("\n---\n").expect("--- separator");
            let mut lines = head.lines();
            let name = lines.next().unwrap().to_string();
            let mut field = |key: &str| -> Vec<String> {
                let l = lines.next().unwrap();
                let mut w = l.split(' ');
                assert_eq!(w.next(), Some(key), "{name}: {l}");
                w.filter(|s| !s.is_empty()).map(str::to_string).collect()
            };
            let o = field("opts");
            let opts = PrintOptions {
                precision: o[0].parse().unwrap(),
                threshold: o[1].parse().unwrap(),
                edgeitems: o[2].parse().unwrap(),
                linewidth: o[3].parse().unwrap(),
                sci_mode: match o[4].as_str() {
                    "True" => Some(true),
                    "False" => Some(false),
                    _ => None,
                },
            };
            let d = field("dtype");
            let shape = field("shape").iter().map(|s| s.parse().unwrap()).collect();
            let device = field("device").pop().filter(|s| s != "-");
            let grad_fn = field("grad").pop().filter(|s| s != "-");
            let requires_grad = field("req")[0] == "1";
            let values = field("values");
            cases.push(Case {
                name,
                opts,
                dtype: dtype(&d[0]),
                default_dtype: dtype(&d[1]),
                shape,
                suffixes: Suffixes {
                    device,
                    requires_grad,
                    grad_fn,
                },
                values,
                expected: expected.strip_suffix('\n').unwrap_or(expected).to_string(),
            });
        }
        cases
    }

    fn render(c: &Case) -> String {
        let (f, i, b): (Vec<f64>, Vec<i64>, Vec<bool>);
        let values = if c.dtype.is_floating() {
            f = c.values.iter().map(|s| s.parse().unwrap()).collect();
            Values::Float(&f)
        } else if c.dtype == DType::Bool {
            b = c.values.iter().map(|s| s == "True").collect();
            Values::Bool(&b)
        } else {
            i = c.values.iter().map(|s| s.parse().unwrap()).collect();
            Values::Int(&i)
        };
        tensor_repr(
            values,
            &c.shape,
            c.dtype,
            c.default_dtype,
            &c.suffixes,
            &c.opts,
        )
    }

    #[test]
    fn golden_reprs() {
        let cases = parse();
        assert!(cases.len() >= 80, "only {} cases", cases.len());
        let failed: Vec<String> = cases
            .iter()
            .filter_map(|c| {
                let got = render(c);
                (got != c.expected)
                    .then(|| format!("--- {}\nexpected:\n{}\ngot:\n{}", c.name, c.expected, got))
            })
            .collect();
        assert!(
            failed.is_empty(),
            "{} of {} cases differ:\n{}",
            failed.len(),
            cases.len(),
            failed.join("\n")
        );
    }

    #[test]
    fn profiles() {
        let mut o = PrintOptions {
            precision: 7,
            ..Default::default()
        };
        assert!(o.apply_profile("short"));
        assert_eq!((o.precision, o.edgeitems), (2, 2));
        assert!(o.apply_profile("full"));
        assert!(o.threshold.is_infinite());
        assert!(!o.apply_profile("nope"));
        assert!(o.apply_profile("default"));
        assert_eq!(o, PrintOptions::default());
    }

    #[test]
    fn mismatched_input_does_not_panic() {
        let s = tensor_repr(
            Values::Float(&[1.0]),
            &[2, 2],
            DType::F32,
            DType::F32,
            &Suffixes::default(),
            &PrintOptions::default(),
        );
        assert!(s.starts_with("tensor(<1 values"));
        let narrow = PrintOptions {
            linewidth: 0,
            ..Default::default()
        };
        let s = tensor_repr(
            Values::Int(&[1, 2, 3]),
            &[3],
            DType::I64,
            DType::F32,
            &Suffixes::default(),
            &narrow,
        );
        assert_eq!(s, "tensor([1,\n        2,\n        3])");
        let extreme = PrintOptions {
            threshold: 0.0,
            edgeitems: usize::MAX,
            precision: 30,
            ..Default::default()
        };
        let s = tensor_repr(
            Values::Float(&[0.5, f64::NAN, -0.0, 1e300]),
            &[2, 2],
            DType::F16,
            DType::F32,
            &Suffixes::default(),
            &extreme,
        );
        assert!(s.ends_with("dtype=torch.float16)"), "{s}");
    }
}
