//! When is an entry complete? Python's interactive rules: a simple statement runs at once, a
//! compound statement (`def`, `for`, `if`, ...) keeps reading until an empty line, and open
//! brackets, triple-quoted strings and trailing backslashes always keep reading.
use crate::lang::parser::parse_module;

/// Whether `src` stops in the middle of something: an open bracket or triple-quoted string, a
/// trailing `\`, or a block header whose body has not started yet.
pub fn incomplete(src: &str) -> bool {
    let last = src
        .trim_end_matches(['\n', '\r'])
        .lines()
        .last()
        .unwrap_or("");
    if last.ends_with('\\') {
        return true;
    }
    // (An open bracket reads on only when the parser reaches the end inside it, as CPython's
    // does: `def f(:` is a SyntaxError at once.)
    match parse_module(src) {
        Err(e) => {
            e.msg.contains("was never closed")
                || e.msg.starts_with("unterminated triple-quoted string")
                || e.msg.starts_with("unexpected EOF")
                || (e.msg.starts_with("expected an indented block")
                    && e.start >= src.trim_end().len())
        }
        Ok(_) => false,
    }
}

/// A compound statement's first line that no body can complete (`for i in range(3) print(i)`,
/// `def f()`): Python reports the SyntaxError at once rather than reading a body. A decorator
/// line alone is not one (its `def` follows).
fn bad_header(src: &str) -> bool {
    if src.trim_start().starts_with('@') || incomplete(src) {
        return false;
    }
    matches!(parse_module(src), Err(e) if !e.msg.starts_with("expected an indented block"))
}

const COMPOUND: &[&str] = &[
    "def", "class", "if", "for", "while", "try", "with", "async", "match",
];

/// Whether a first line opens a compound statement, which Python ends with an empty line.
pub fn starts_block(line: &str) -> bool {
    let t = line.trim_start();
    if t.starts_with('@') {
        return true;
    }
    let word: String = t
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if word == "match" {
        // `match` is a soft keyword: only a header when the line ends with ':'.
        return code_part(t).trim_end().ends_with(':');
    }
    COMPOUND.contains(&word.as_str())
}

/// The line without a trailing comment (a rough cut: `#` inside strings is rare in headers).
fn code_part(line: &str) -> &str {
    let mut quote: Option<char> = None;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' => return &line[..i],
            None => {}
        }
    }
    line
}

/// Keywords that continue a compound statement at its own indentation.
const CONTINUATIONS: &[&str] = &["elif", "else", "except", "finally", "case"];

/// Collects typed (or piped) lines into complete entries.
#[derive(Default)]
pub struct Collector {
    lines: Vec<String>,
    block: bool,
}

impl Collector {
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The text gathered so far.
    pub fn text(&self) -> String {
        let mut s = self.lines.join("\n");
        s.push('\n');
        s
    }

    /// Forgets a half-typed entry (Ctrl-C at `... `).
    pub fn clear(&mut self) {
        self.lines.clear();
        self.block = false;
    }

    /// The pending entry, if any, as if an empty line had ended it (end of input).
    pub fn finish(&mut self) -> Option<String> {
        if self.lines.is_empty() {
            return None;
        }
        let text = self.text();
        self.clear();
        Some(text)
    }

    /// Adds one line; returns the entries it completes (none, one, or two when a line at the
    /// left margin both ends a finished block and starts the next statement).
    pub fn push(&mut self, line: &str) -> Vec<String> {
        let line = line.trim_end_matches(['\n', '\r']);
        if self.lines.is_empty() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                return Vec::new();
            }
            self.lines.push(line.to_string());
            self.block = starts_block(line) && !bad_header(&self.text());
            if self.block || incomplete(&self.text()) {
                return Vec::new();
            }
            return self.finish().into_iter().collect();
        }
        let blank = line.trim().is_empty();
        if self.block && !blank && self.starts_new_statement(line) {
            let mut out: Vec<String> = self.finish().into_iter().collect();
            out.extend(self.push(line));
            return out;
        }
        self.lines.push(line.to_string());
        let text = self.text();
        if incomplete(&text) || (self.block && !blank) {
            return Vec::new();
        }
        self.finish().into_iter().collect()
    }

    /// A line at the left margin after a block that already parses is a new statement (piped
    /// scripts often have no empty line after a block).
    fn starts_new_statement(&self, line: &str) -> bool {
        if line.starts_with([' ', '\t']) || line.starts_with('#') {
            return false;
        }
        let word: String = line
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if CONTINUATIONS.contains(&word.as_str()) {
            return false;
        }
        let text = self.text();
        !incomplete(&text) && parse_module(&text).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(lines: &[&str]) -> Vec<String> {
        let mut c = Collector::default();
        let mut out = Vec::new();
        for l in lines {
            out.extend(c.push(l));
        }
        out.extend(c.finish());
        out
    }

    #[test]
    fn simple_statements_run_at_once() {
        let mut c = Collector::default();
        assert_eq!(c.push("x = 1"), vec!["x = 1\n"]);
        assert!(c.push("").is_empty());
        assert!(c.push("# just a comment").is_empty());
    }

    #[test]
    fn blocks_end_with_an_empty_line() {
        let mut c = Collector::default();
        assert!(c.push("def f(x):").is_empty());
        assert!(c.push("    return x * 2").is_empty());
        assert_eq!(c.push(""), vec!["def f(x):\n    return x * 2\n\n"]);
        assert!(c.push("if True: print(1)").is_empty());
        assert_eq!(c.push("").len(), 1);
    }

    #[test]
    fn brackets_and_strings_keep_reading() {
        let mut c = Collector::default();
        assert!(c.push("xs = [1,").is_empty());
        assert!(c.push("").is_empty());
        assert_eq!(c.push("2]"), vec!["xs = [1,\n\n2]\n"]);
        assert!(c.push("s = '''a").is_empty());
        assert_eq!(c.push("b'''").len(), 1);
        assert!(c.push("y = 1 + \\").is_empty());
        assert_eq!(c.push("2").len(), 1);
    }

    #[test]
    fn an_open_bracket_after_an_error_does_not_wait() {
        // CPython's parser fails at `:` before it needs the rest of the bracket.
        assert!(!incomplete("def f(:\n"));
        assert!(!incomplete("print(f(1 :\n"));
        assert!(incomplete("f(1, 2\n"));
        assert!(incomplete("xs = [1, 2 3\n"));
    }

    #[test]
    fn header_without_body_waits() {
        assert!(incomplete("for i in range(3):\n"));
        assert!(incomplete("if x:\n    pass\nelse:\n"));
        assert!(!incomplete("x = (1 +\n2)\n"));
        assert!(!incomplete("x = )\n"));
    }

    #[test]
    fn a_margin_line_ends_a_block_in_scripts() {
        let got = feed(&["for i in range(2):", "    print(i)", "print('done')"]);
        assert_eq!(
            got,
            vec!["for i in range(2):\n    print(i)\n", "print('done')\n"]
        );
        let got = feed(&["if x:", "    a = 1", "else:", "    a = 2", ""]);
        assert_eq!(got.len(), 1);
        let got = feed(&["@dec", "def f():", "    pass", ""]);
        assert_eq!(got.len(), 1);
        let got = feed(&["def f():", "# note", "    pass", ""]);
        assert_eq!(got.len(), 1);
    }

    #[test]
    fn a_header_without_its_colon_fails_at_once() {
        let mut c = Collector::default();
        assert_eq!(
            c.push("for i in range(3) print(i)"),
            vec!["for i in range(3) print(i)\n"]
        );
        assert_eq!(c.push("def f()").len(), 1);
        assert_eq!(c.push("if x").len(), 1);
        // Still waiting for a body: a good header, a one-line body, a decorator.
        assert!(c.push("for i in range(3):").is_empty());
        c.clear();
        assert!(c.push("if x: print(1)").is_empty());
        assert_eq!(c.push("").len(), 1);
        assert!(c.push("@dec").is_empty());
    }

    #[test]
    fn unexpected_indent_runs_and_fails_rather_than_waiting() {
        let mut c = Collector::default();
        assert_eq!(c.push("    x = 1").len(), 1);
    }
}
