//! Printing uncaught errors exactly as CPython 3.11 does, plus cudalearn's hint line.
use super::error::{Anchor, Exc, ExcKind, PyErr, TbEntry};
use super::interp::Interp;
use super::value::Value;
use crate::lang::value::PyStr;

/// The final `Type: message` line (what `traceback.format_exception_only` gives).
pub fn exception_line(interp: &mut Interp, err: &PyErr) -> String {
    let (name, module) = match &err.0.exc {
        Exc::Builtin(k, _) => (k.name().to_string(), k.module().map(str::to_string)),
        Exc::Object(Value::Instance(i)) => {
            let m = &*i.class.module;
            (
                i.class.name.to_string(),
                (m != "builtins" && m != "__main__").then(|| m.to_string()),
            )
        }
        Exc::Object(v) => (v.type_name().to_string(), None),
    };
    let full = match module {
        Some(m) => format!("{m}.{name}"),
        None => name,
    };
    let msg = interp
        .exc_message(&err.0.exc)
        .unwrap_or_else(|_| "<exception str() failed>".into());
    if msg.is_empty() {
        full
    } else {
        format!("{full}: {msg}")
    }
}

/// The whole traceback text, as CPython prints an uncaught exception (without the hint).
pub fn format_traceback(interp: &mut Interp, err: &PyErr) -> String {
    let mut out = String::new();
    if let Some(cause) = &err.0.cause {
        out.push_str(&format_traceback(interp, cause));
        out.push_str("\nThe above exception was the direct cause of the following exception:\n\n");
    } else if let (Some(ctx), false) = (&err.0.context, err.0.suppress_context) {
        out.push_str(&format_traceback(interp, ctx));
        out.push_str("\nDuring handling of the above exception, another exception occurred:\n\n");
    }
    if let Some((src, span)) = &err.0.syntax {
        // SyntaxError: file/line, the line, a caret, then the message.
        let (line, line_start) = src.line_of(span.start);
        out.push_str(&format!("  File \"{}\", line {line}\n", src.name));
        let text = src.line_text(line_start);
        // As CPython's `print_error_text`: spaces, tabs and form feeds are stripped in front,
        // nothing but the newline behind.
        let stripped = text.trim_start_matches([' ', '\t', '\x0c']);
        let lead = text.chars().count() - stripped.chars().count();
        if src.show_lines || !stripped.trim_end().is_empty() {
            out.push_str(&format!("    {stripped}\n"));
            let col = chars_before(text, (span.start as usize).saturating_sub(line_start));
            let end_col = if (span.end as usize) <= line_start + text.len() {
                chars_before(text, (span.end as usize).saturating_sub(line_start))
            } else {
                text.chars().count()
            };
            let width = end_col.saturating_sub(col).max(1);
            let pad = col.saturating_sub(lead);
            out.push_str(&format!("    {}{}\n", " ".repeat(pad), "^".repeat(width)));
        }
        out.push_str(&exception_line(interp, err));
        out.push('\n');
        return out;
    }
    if !err.0.tb.is_empty() {
        out.push_str("Traceback (most recent call last):\n");
        for e in err.0.tb.iter().rev() {
            out.push_str(&format_entry(e));
        }
    }
    let mut line = exception_line(interp, err);
    if let Some(s) = suggestion(interp, err) {
        line.push_str(&format!(". Did you mean: '{s}'?"));
    }
    out.push_str(&line);
    out.push('\n');
    out
}

fn suggestion(interp: &Interp, err: &PyErr) -> Option<PyStr> {
    let name = err.0.missing_name.as_ref()?;
    let kind = err.kind()?;
    if kind == ExcKind::AttributeError {
        return super::error::suggest(name, err.0.candidates.as_ref()?);
    }
    if kind != ExcKind::NameError {
        return None;
    }
    // Locals of the failing frame are not kept; globals then builtins, as CPython searches.
    let globals: Vec<PyStr> = [
        "__name__",
        "__doc__",
        "__package__",
        "__loader__",
        "__spec__",
        "__annotations__",
        "__builtins__",
        "__file__",
        "__cached__",
    ]
    .iter()
    .map(|s| PyStr::from(*s))
    .chain(
        interp
            .global_names()
            .iter()
            .filter(|s| &*s.as_str() != "__name__")
            .map(|s| s.as_str()),
    )
    .collect();
    if let Some(s) = super::error::suggest(name, &globals) {
        return Some(s);
    }
    let builtins: Vec<PyStr> = interp.builtin_names().iter().map(|s| s.as_str()).collect();
    super::error::suggest(name, &builtins)
}

fn format_entry(e: &TbEntry) -> String {
    let (line, line_start) = e.src.line_of(e.span.start);
    let mut out = format!("  File \"{}\", line {line}, in {}\n", e.src.name, e.func);
    if !e.src.show_lines {
        return out;
    }
    let text = e.src.line_text(line_start);
    let stripped = text.trim_start();
    if stripped.is_empty() {
        return out;
    }
    let lead_chars = text.chars().count() - stripped.chars().count();
    out.push_str(&format!("    {}\n", stripped.trim_end()));
    let line_end = line_start + text.len();
    let multiline = e.span.end as usize > line_end;
    let to_col = |off: usize| chars_before(text, off.saturating_sub(line_start));
    let start = to_col(e.span.start as usize);
    let end = if multiline {
        text.trim_end().chars().count()
    } else {
        to_col(e.span.end as usize)
    };
    let segment: String = text
        .chars()
        .skip(start)
        .take(end.saturating_sub(start))
        .collect();
    let anchors = if multiline {
        None
    } else {
        anchors(e, &segment, start, &to_col)
    };
    let stripped_len = stripped.trim_end().chars().count();
    let show = end.saturating_sub(start) < stripped_len || anchors.is_some_and(|(l, r)| r > l);
    if !show {
        return out;
    }
    out.push_str("    ");
    out.push_str(&" ".repeat(start.saturating_sub(lead_chars)));
    match anchors {
        Some((l, r)) => {
            out.push_str(&"~".repeat(l));
            out.push_str(&"^".repeat(r - l));
            out.push_str(&"~".repeat((end - start).saturating_sub(r)));
        }
        None => out.push_str(&"^".repeat(end.saturating_sub(start).max(1))),
    }
    out.push('\n');
    out
}

/// CPython's `_extract_caret_anchors_from_line_segment`: offsets (in the segment) of the
/// operator of a binary operation, or of the `[...]` of a subscript.
fn anchors(
    e: &TbEntry,
    segment: &str,
    start: usize,
    to_col: &dyn Fn(usize) -> usize,
) -> Option<(usize, usize)> {
    let chars: Vec<char> = segment.chars().collect();
    match e.anchor {
        Anchor::None => None,
        Anchor::BinOp {
            left_end,
            right_start,
        } => {
            let op_start = to_col(left_end as usize).checked_sub(start)?;
            let op_end = to_col(right_start as usize).checked_sub(start)?;
            let op_str: String = chars.get(op_start..op_end)?.iter().collect();
            let offset = op_str.chars().count() - op_str.trim_start().chars().count();
            let mut left = op_start + offset;
            let op_chars: Vec<char> = op_str.chars().collect();
            let mut right = left + 1;
            if offset + 1 < op_chars.len() && !op_chars[offset + 1].is_whitespace() {
                right += 1;
            }
            // Skip closing parentheses and spaces between the left operand and the operator.
            while left < chars.len()
                && (chars[left].is_whitespace() || chars[left] == ')' || chars[left] == '#')
            {
                left += 1;
                right += 1;
            }
            Some((left, right.min(chars.len())))
        }
        Anchor::Subscript {
            value_end,
            slice_end,
        } => {
            let l = to_col(value_end as usize).checked_sub(start)?;
            let r = (to_col(slice_end as usize) + 1).checked_sub(start)?;
            Some((l, r.min(chars.len())))
        }
    }
}

/// Traceback plus the hint line, as `cudalearn run` prints to stderr.
pub fn report(interp: &mut Interp, err: &PyErr, hints: bool) -> String {
    let mut s = format_traceback(interp, err);
    if hints {
        if let Some(h) = hint_for(interp, err) {
            s.push_str(&format!("hint: {h}\n"));
        }
    }
    s
}

fn hint_for(interp: &Interp, err: &PyErr) -> Option<String> {
    if let Some(h) = &err.0.hint {
        return Some(name_operands(interp, err, h));
    }
    match err.kind()? {
        ExcKind::NameError => {
            let name = err.0.missing_name.as_ref()?;
            match suggestion(interp, err) {
                Some(s) => Some(format!("'{name}' was never assigned; did you mean '{s}'? Names are case-sensitive.")),
                None => Some(format!("'{name}' has no value yet: assign it (or import it) before this line runs.")),
            }
        }
        ExcKind::UnboundLocalError => Some(
            "assigning to a name anywhere in a function makes it local to the whole function; use a different name, or pass the value in as an argument.".into(),
        ),
        ExcKind::IndentationError => Some("Python uses indentation for blocks: indent the body of a block by 4 spaces, the same on every line.".into()),
        ExcKind::KeyboardInterrupt => Some("interrupted with Ctrl-C; your variables are still there.".into()),
        ExcKind::ZeroDivisionError => Some("check the divisor before dividing, or guard with `if d != 0:`.".into()),
        _ => None,
    }
}

/// The tensor engine's device-mismatch hint says `y = y.to(x.device)`; when the failing
/// line is a binary operation between two names, say it with the learner's own names,
/// moving the one on the CPU (when the names can be looked up) to the other's device.
fn name_operands(interp: &Interp, err: &PyErr, hint: &str) -> String {
    const GENERIC: &str = "y = y.to(x.device)";
    if !hint.contains(GENERIC) {
        return hint.to_string();
    }
    let named = (|| {
        let e = err.0.tb.iter().find(|e| !e.src.prelude)?;
        let Anchor::BinOp {
            left_end,
            right_start,
        } = e.anchor
        else {
            return None;
        };
        let text = &e.src.text;
        let left = text.get(e.span.start as usize..left_end as usize)?.trim();
        let right = text.get(right_start as usize..e.span.end as usize)?.trim();
        let simple = |s: &str| {
            !s.is_empty()
                && s.split('.').all(|p| {
                    let mut cs = p.chars();
                    matches!(cs.next(), Some(c) if c == '_' || c.is_alphabetic())
                        && cs.all(|c| c == '_' || c.is_alphanumeric())
                })
        };
        if !simple(left) || !simple(right) || left == right {
            return None;
        }
        let on_cpu = |name: &str| -> Option<bool> {
            let v = interp.get_global(super::symbol::Sym::lookup(name)?)?;
            let t = super::modules::torch::convert::as_tensor(v)?;
            Some(t.device() == crate::tensor::Device::Cpu)
        };
        let (moved, to) = match (on_cpu(left), on_cpu(right)) {
            (Some(true), _) | (_, Some(false)) => (left, right),
            _ => (right, left),
        };
        Some(hint.replace(GENERIC, &format!("{moved} = {moved}.to({to}.device)")))
    })();
    named.unwrap_or_else(|| hint.to_string())
}

/// How many characters of `text` start before byte `off` (robust to offsets inside a char).
fn chars_before(text: &str, off: usize) -> usize {
    text.char_indices().take_while(|(i, _)| *i < off).count()
}
