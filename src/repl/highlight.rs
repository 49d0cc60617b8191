//! Syntax colouring of the line being edited. A forgiving scanner of its own rather than the
//! interpreter's lexer, which rejects half-typed input (an unclosed string is still a string).
use crate::lang::lexer::is_keyword;
use nu_ansi_term::{Color, Style};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Keyword,
    Str,
    Number,
    Comment,
    Command,
}

fn style(kind: Kind) -> Style {
    match kind {
        Kind::Keyword => Color::Magenta.bold(),
        Kind::Str => Color::Green.normal(),
        Kind::Number => Color::Yellow.normal(),
        Kind::Comment => Color::DarkGray.italic(),
        Kind::Command => Color::Cyan.bold(),
    }
}

/// Byte ranges of the coloured pieces of `line`, in order, not overlapping.
pub fn spans(line: &str) -> Vec<(usize, usize, Kind)> {
    let mut out = Vec::new();
    if line.trim_start().starts_with(':') {
        let start = line.len() - line.trim_start().len();
        let end = line[start..]
            .find(char::is_whitespace)
            .map_or(line.len(), |i| start + i);
        out.push((start, end, Kind::Command));
        return out;
    }
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let at = |k: usize| chars.get(k).map_or(line.len(), |&(b, _)| b);
    let mut k = 0;
    while k < chars.len() {
        let (start, c) = chars[k];
        if c == '#' {
            out.push((start, line.len(), Kind::Comment));
            break;
        }
        if c == '"' || c == '\'' {
            let end = string_end(&chars, k);
            out.push((start, at(end), Kind::Str));
            k = end;
            continue;
        }
        if c.is_ascii_digit()
            || (c == '.' && chars.get(k + 1).is_some_and(|p| p.1.is_ascii_digit()))
        {
            let mut j = k + 1;
            while j < chars.len() {
                let d = chars[j].1;
                let exp_sign = (d == '+' || d == '-') && matches!(chars[j - 1].1, 'e' | 'E');
                if d.is_ascii_alphanumeric() || d == '.' || d == '_' || exp_sign {
                    j += 1;
                } else {
                    break;
                }
            }
            out.push((start, at(j), Kind::Number));
            k = j;
            continue;
        }
        if c == '_' || c.is_alphabetic() {
            let mut j = k + 1;
            while j < chars.len() && (chars[j].1 == '_' || chars[j].1.is_alphanumeric()) {
                j += 1;
            }
            let word = &line[start..at(j)];
            // A string prefix (r'', f"", b'', rb'' ...) belongs to the string.
            let prefix = word.len() <= 2
                && word.chars().all(|p| "rRbBfFuU".contains(p))
                && chars.get(j).is_some_and(|p| p.1 == '"' || p.1 == '\'');
            if prefix {
                let end = string_end(&chars, j);
                out.push((start, at(end), Kind::Str));
                k = end;
                continue;
            }
            let after_dot = k > 0 && chars[k - 1].1 == '.';
            if !after_dot && is_keyword(word).is_some() {
                out.push((start, at(j), Kind::Keyword));
            }
            k = j;
            continue;
        }
        k += 1;
    }
    out
}

/// Index (in `chars`) just past the string starting at `k`; the end of the line when unclosed.
fn string_end(chars: &[(usize, char)], k: usize) -> usize {
    let q = chars[k].1;
    let triple =
        chars.get(k + 1).is_some_and(|c| c.1 == q) && chars.get(k + 2).is_some_and(|c| c.1 == q);
    let mut j = if triple { k + 3 } else { k + 1 };
    while j < chars.len() {
        let c = chars[j].1;
        if c == '\\' {
            j += 2;
            continue;
        }
        if c == q {
            if !triple {
                return j + 1;
            }
            if chars.get(j + 1).is_some_and(|c| c.1 == q)
                && chars.get(j + 2).is_some_and(|c| c.1 == q)
            {
                return j + 3;
            }
        }
        j += 1;
    }
    chars.len()
}

/// `line` with ANSI colours (the text itself unchanged).
pub fn paint_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len() * 2);
    let mut last = 0;
    for (s, e, kind) in spans(line) {
        let (s, e) = (s.min(line.len()), e.min(line.len()));
        if s < last || s > e {
            continue;
        }
        out.push_str(&line[last..s]);
        out.push_str(&style(kind).paint(&line[s..e]).to_string());
        last = e;
    }
    out.push_str(&line[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &str) -> Vec<(&str, Kind)> {
        spans(line)
            .into_iter()
            .map(|(s, e, k)| (&line[s..e], k))
            .collect()
    }

    #[test]
    fn finds_keywords_strings_numbers_comments() {
        assert_eq!(
            kinds("for x in [1, 2.5e-3]: print('hi') # done"),
            vec![
                ("for", Kind::Keyword),
                ("in", Kind::Keyword),
                ("1", Kind::Number),
                ("2.5e-3", Kind::Number),
                ("'hi'", Kind::Str),
                ("# done", Kind::Comment),
            ]
        );
        assert_eq!(
            kinds("f'x{y}' + r\"\\d\""),
            vec![("f'x{y}'", Kind::Str), ("r\"\\d\"", Kind::Str)]
        );
        assert_eq!(kinds("x.if_ = 'unclosed"), vec![("'unclosed", Kind::Str)]);
        assert_eq!(kinds("s = '''a 'b' c"), vec![("'''a 'b' c", Kind::Str)]);
        assert_eq!(kinds("  :time f(1)"), vec![(":time", Kind::Command)]);
        assert_eq!(kinds("x1 = é2"), vec![]);
    }

    #[test]
    fn painting_keeps_the_text() {
        for line in [
            "def f(x): return 'a' # c",
            "'\\",
            "\"\"\"",
            "é 'ü' 3",
            "1e+",
            "rb",
        ] {
            let painted = paint_line(line);
            let plain: String = strip(&painted);
            assert_eq!(plain, line);
        }
    }

    fn strip(s: &str) -> String {
        let mut out = String::new();
        let mut esc = false;
        for c in s.chars() {
            if c == '\x1b' {
                esc = true;
            } else if esc {
                if c == 'm' {
                    esc = false;
                }
            } else {
                out.push(c);
            }
        }
        out
    }
}
