//! Terminal colours: on for terminals, off for pipes and when NO_COLOR is set.
use nu_ansi_term::{Color, Style};
use std::io::IsTerminal;
use std::sync::OnceLock;

static COLOR: OnceLock<bool> = OnceLock::new();

pub fn color_enabled() -> bool {
    *COLOR.get_or_init(|| {
        std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            && std::io::stderr().is_terminal()
            && std::io::stdout().is_terminal()
    })
}

pub fn paint(style: Style, s: &str) -> String {
    if color_enabled() {
        style.paint(s).to_string()
    } else {
        s.to_string()
    }
}

/// Colours a traceback: the exception line red, the hint line cyan.
pub fn error_text(text: &str) -> String {
    if !color_enabled() {
        return text.to_string();
    }
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("hint:") {
            out.push_str(&paint(Color::Cyan.bold(), line));
        } else if !line.starts_with(' ')
            && !line.starts_with("Traceback")
            && !line.is_empty()
            && !line.starts_with("During handling")
        {
            out.push_str(&paint(Color::Red.bold(), line));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}
