//! Does a block's output match what the lesson expects? Lines are compared after trimming
//! trailing whitespace; a line `...` stands for any number of lines, `[..]` inside a line for
//! any text, and with a tolerance numbers compare within it instead of as text.
use super::parse::{Expected, Variant};

/// The device a lesson runs on, as far as expected outputs are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceKind {
    Cpu,
    /// A real GPU.
    Cuda,
    /// The simulated GPU.
    Sim,
}

impl DeviceKind {
    pub fn name(self) -> &'static str {
        match self {
            DeviceKind::Cpu => "cpu",
            DeviceKind::Cuda => "cuda",
            DeviceKind::Sim => "sim",
        }
    }
}

/// The most specific expected output for `device`: `sim` > `cuda` > plain on the simulated
/// GPU, `cuda` > plain on a real one, `cpu` > plain on the CPU. `None` when the block has
/// outputs but none for this device.
pub fn pick(outputs: &[Expected], device: DeviceKind) -> Option<&Expected> {
    let order: &[Variant] = match device {
        DeviceKind::Cpu => &[Variant::Cpu, Variant::Any],
        DeviceKind::Cuda => &[Variant::Cuda, Variant::Any],
        DeviceKind::Sim => &[Variant::Sim, Variant::Cuda, Variant::Any],
    };
    order
        .iter()
        .find_map(|v| outputs.iter().find(|o| o.variant == *v))
}

/// Whether `actual` matches the `expected` pattern.
pub fn matches(expected: &str, actual: &str, tol: Option<f64>) -> bool {
    align(expected, actual, tol).0 == 0
}

/// One line of a diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffLine {
    /// Matched (the actual text).
    Same(String),
    /// Only expected.
    Missing(String),
    /// Only printed.
    Extra(String),
}

/// A line diff of expected against actual that understands `...`, `[..]` and tolerance.
pub fn diff(expected: &str, actual: &str, tol: Option<f64>) -> Vec<DiffLine> {
    align(expected, actual, tol).1
}

/// `- expected` / `+ got` lines, indented by `indent`.
pub fn format_diff(lines: &[DiffLine], indent: &str) -> String {
    let mut out = String::new();
    for l in lines {
        let (mark, text) = match l {
            DiffLine::Same(t) => ("  ", t),
            DiffLine::Missing(t) => ("- ", t),
            DiffLine::Extra(t) => ("+ ", t),
        };
        out.push_str(indent);
        out.push_str(mark);
        out.push_str(text);
        out.push('\n');
    }
    out
}

fn lines(s: &str) -> Vec<&str> {
    s.lines().map(str::trim_end).collect()
}

/// Edit-distance alignment: matching lines and `...` absorbing lines cost nothing, a missing
/// or extra line costs one. Returns the cost and the diff.
fn align(expected: &str, actual: &str, tol: Option<f64>) -> (usize, Vec<DiffLine>) {
    let e = lines(expected);
    let a = lines(actual);
    let (n, m) = (e.len(), a.len());
    let is_dots = |i: usize| e[i].trim() == "...";
    let mut eq = vec![false; n * m];
    for i in 0..n {
        for j in 0..m {
            eq[i * m + j] = !is_dots(i) && line_matches(e[i], a[j], tol);
        }
    }
    // cost[i][j]: cost of aligning e[i..] with a[j..].
    let w = m + 1;
    let mut cost = vec![0usize; (n + 1) * w];
    for i in (0..=n).rev() {
        for j in (0..=m).rev() {
            let c = if i == n {
                m - j
            } else if j == m {
                // Remaining expected lines are missing, except `...`.
                cost[(i + 1) * w + j] + usize::from(!is_dots(i))
            } else if is_dots(i) {
                cost[(i + 1) * w + j].min(cost[i * w + j + 1])
            } else {
                let mut best = 1 + cost[(i + 1) * w + j];
                best = best.min(1 + cost[i * w + j + 1]);
                if eq[i * m + j] {
                    best = best.min(cost[(i + 1) * w + j + 1]);
                }
                best
            };
            cost[i * w + j] = c;
        }
    }
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        let here = cost[i * w + j];
        if i < n && is_dots(i) {
            if j < m && cost[i * w + j + 1] == here {
                out.push(DiffLine::Same(a[j].to_string()));
                j += 1;
            } else {
                i += 1;
            }
        } else if i < n && j < m && eq[i * m + j] && cost[(i + 1) * w + j + 1] == here {
            out.push(DiffLine::Same(a[j].to_string()));
            i += 1;
            j += 1;
        } else if i < n && cost[(i + 1) * w + j] + 1 == here {
            out.push(DiffLine::Missing(e[i].to_string()));
            i += 1;
        } else {
            out.push(DiffLine::Extra(a[j].to_string()));
            j += 1;
        }
    }
    (cost[0], out)
}

/// One expected line against one printed line.
pub fn line_matches(expected: &str, actual: &str, tol: Option<f64>) -> bool {
    if tol.is_none() && !expected.contains("[..]") {
        return expected == actual;
    }
    let e: Vec<char> = expected.chars().collect();
    let a: Vec<char> = actual.chars().collect();
    let mut memo = vec![None; (e.len() + 1) * (a.len() + 1)];
    glob(&e, &a, 0, 0, tol, &mut memo)
}

fn glob(
    e: &[char],
    a: &[char],
    i: usize,
    j: usize,
    tol: Option<f64>,
    memo: &mut Vec<Option<bool>>,
) -> bool {
    let key = i * (a.len() + 1) + j;
    if let Some(r) = memo[key] {
        return r;
    }
    let r = if i == e.len() {
        j == a.len()
    } else if j == a.len() && only_space_and_wildcards(&e[i..]) {
        // Printed lines lose trailing spaces: `loss: [..]` matches `loss:`.
        true
    } else if e[i..].starts_with(&['[', '.', '.', ']']) {
        (j..=a.len()).any(|k| glob(e, a, i + 4, k, tol, memo))
    } else if let (Some(t), Some((x, ei))) = (tol, number_at(e, i)) {
        match number_at(a, j) {
            Some((y, aj)) if close(x, y, t) => glob(e, a, ei, aj, tol, memo),
            _ => false,
        }
    } else {
        j < a.len() && e[i] == a[j] && glob(e, a, i + 1, j + 1, tol, memo)
    };
    memo[key] = Some(r);
    r
}

fn only_space_and_wildcards(e: &[char]) -> bool {
    let s: String = e.iter().collect();
    s.replace("[..]", "").trim().is_empty()
}

fn close(x: f64, y: f64, tol: f64) -> bool {
    if x.is_nan() || y.is_nan() {
        return x.is_nan() && y.is_nan();
    }
    if x == y {
        return true;
    }
    if x.is_infinite() || y.is_infinite() {
        return false;
    }
    (x - y).abs() <= tol + tol * x.abs()
}

/// A number starting at `i` (not inside a word: `float32` has none): its value and end.
fn number_at(s: &[char], i: usize) -> Option<(f64, usize)> {
    if i > 0 && (s[i - 1].is_alphanumeric() || s[i - 1] == '_' || s[i - 1] == '.') {
        return None;
    }
    let mut k = i;
    if k < s.len() && (s[k] == '-' || s[k] == '+') {
        k += 1;
    }
    for word in ["inf", "nan"] {
        let w: Vec<char> = word.chars().collect();
        if s[k..].starts_with(&w) && s.get(k + 3).is_none_or(|c| !c.is_alphanumeric()) {
            let text: String = s[i..k + 3].iter().collect();
            return text.parse().ok().map(|v| (v, k + 3));
        }
    }
    let digits_from = k;
    while k < s.len() && s[k].is_ascii_digit() {
        k += 1;
    }
    let mut any = k > digits_from;
    if k < s.len() && s[k] == '.' {
        let after = k + 1;
        let mut d = after;
        while d < s.len() && s[d].is_ascii_digit() {
            d += 1;
        }
        if any || d > after {
            any = true;
            k = d;
        }
    }
    if !any {
        return None;
    }
    if k < s.len() && (s[k] == 'e' || s[k] == 'E') {
        let mut d = k + 1;
        if d < s.len() && (s[d] == '-' || s[d] == '+') {
            d += 1;
        }
        let start = d;
        while d < s.len() && s[d].is_ascii_digit() {
            d += 1;
        }
        if d > start {
            k = d;
        }
    }
    if k < s.len() && (s[k].is_alphabetic() || s[k] == '_') {
        return None;
    }
    let text: String = s[i..k].iter().collect();
    text.parse::<f64>().ok().map(|v| (v, k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_text() {
        let n = |s: &str| number_at(&s.chars().collect::<Vec<_>>(), 0).map(|x| x.0);
        assert_eq!(n("1.5410,"), Some(1.541));
        assert_eq!(n("-2.e-3]"), Some(-0.002));
        assert_eq!(n("2."), Some(2.0));
        assert_eq!(n("-inf"), Some(f64::NEG_INFINITY));
        assert_eq!(n("3abc"), None);
        assert_eq!(n("."), None);
    }

    #[test]
    fn diff_marks_lines() {
        let d = diff("a\nb\nc\n", "a\nx\nc\n", None);
        assert_eq!(
            d,
            vec![
                DiffLine::Same("a".into()),
                DiffLine::Missing("b".into()),
                DiffLine::Extra("x".into()),
                DiffLine::Same("c".into()),
            ]
        );
        let d = diff("a\n...\nz\n", "a\n1\n2\nz\n", None);
        assert!(d.iter().all(|l| matches!(l, DiffLine::Same(_))), "{d:?}");
    }
}
