//! Lesson prose for the terminal: headings, emphasis, lists, tables, block quotes (tips and
//! warnings), inline code and links, wrapped to the width. Without colour (NO_COLOR, a pipe)
//! the text stays readable: inline code keeps its backticks, headings are underlined.
use nu_ansi_term::{Color, Style};
use pulldown_cmark::{
    Alignment, BlockQuoteKind, CodeBlockKind, Event, Options, Parser, Tag, TagEnd,
};
use unicode_width::UnicodeWidthStr;

/// How to render.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    pub color: bool,
    /// Wrap width in columns.
    pub width: usize,
}

impl Look {
    pub fn paint(&self, style: Style, s: &str) -> String {
        if self.color && !s.is_empty() {
            style.paint(s).to_string()
        } else {
            s.to_string()
        }
    }
}

/// The terminal's width (stdout), 80 when it is not a terminal; capped for readability.
pub fn terminal_width() -> usize {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return 80;
    }
    columns().unwrap_or(80).clamp(40, 100)
}

#[cfg(unix)]
fn columns() -> Option<usize> {
    // SAFETY: TIOCGWINSZ fills a winsize struct we own; on failure it is left zeroed.
    let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut ws) } == 0;
    (ok && ws.ws_col > 0).then_some(ws.ws_col as usize)
}

#[cfg(not(unix))]
fn columns() -> Option<usize> {
    std::env::var("COLUMNS").ok()?.parse().ok()
}

/// Plain text wrapped at spaces to `width` columns: the first line starts with `first`, the
/// others with `rest`. A word longer than a line stays whole on its own line; existing line
/// breaks are kept. Every line the runner prints about itself goes through this.
pub fn wrap(text: &str, width: usize, first: &str, rest: &str) -> Vec<String> {
    let mut out = Vec::new();
    for para in text.split('\n') {
        let lead = if out.is_empty() { first } else { rest };
        if lead.width() + para.width() <= width {
            // It fits: kept as written (aligned columns stay aligned).
            out.push(format!("{lead}{para}").trim_end().to_string());
            continue;
        }
        let mut cur = if out.is_empty() { first } else { rest }.to_string();
        let mut base = cur.width();
        let mut cur_w = base;
        for word in para.split(' ').filter(|w| !w.is_empty()) {
            let ww = word.width();
            if cur_w > base && cur_w + 1 + ww > width {
                out.push(std::mem::take(&mut cur));
                cur = rest.to_string();
                base = cur.width();
                cur_w = base;
            }
            if cur_w > base {
                cur.push(' ');
                cur_w += 1;
            }
            cur.push_str(word);
            cur_w += ww;
        }
        out.push(cur.trim_end().to_string());
    }
    out
}

/// `wrap` joined into lines, each ending with a newline.
pub fn wrapped(text: &str, width: usize, first: &str, rest: &str) -> String {
    let mut s = wrap(text, width, first, rest).join("\n");
    s.push('\n');
    s
}

/// A code line split at spaces so no piece is wider than `width` with its prefix: the
/// first piece keeps the line's own indentation, the others are indented 4 more (a word is
/// never cut).
pub fn wrap_code(line: &str, width: usize, prefix: &str) -> Vec<String> {
    if prefix.width() + line.width() <= width {
        return vec![line.to_string()];
    }
    let body = line.trim_start();
    let indent = &line[..line.len() - body.len()];
    let cont = format!("{indent}    ");
    let mut out: Vec<String> = Vec::new();
    let mut cur = indent.to_string();
    for word in body.split(' ') {
        let room = width.saturating_sub(prefix.width());
        let start = if out.is_empty() {
            indent.len()
        } else {
            cont.len()
        };
        if cur.len() > start && cur.width() + 1 + word.width() > room {
            out.push(std::mem::take(&mut cur));
            cur = cont.clone();
        } else if cur.len() > start {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    out.push(cur);
    out
}

/// A word: styled pieces with no space between them.
#[derive(Default)]
struct Word {
    plain: String,
    painted: String,
    space_before: bool,
}

/// A container that prefixes lines: a quote bar or a list item's marker.
struct Frame {
    first: String,
    rest: String,
    first_done: bool,
    /// For quotes: the colour of the bar, decided by the first words (Tip/Warning/Note).
    quote: Option<Option<Color>>,
}

#[derive(Default)]
struct Table {
    align: Vec<Alignment>,
    rows: Vec<Vec<String>>,
    /// Plain-text widths of the cells (for padding painted text).
    widths: Vec<Vec<usize>>,
    head_rows: usize,
}

struct Renderer<'a> {
    look: &'a Look,
    out: Vec<String>,
    words: Vec<Word>,
    space: bool,
    styles: Vec<Style>,
    frames: Vec<Frame>,
    lists: Vec<Option<u64>>,
    link: Vec<String>,
    heading: Option<u8>,
    code: Option<(String, String)>,
    table: Option<Table>,
    cell: Option<(String, String)>,
}

/// Renders markdown prose to terminal text (ends with a newline unless empty).
pub fn render(md: &str, look: &Look) -> String {
    let opts = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_GFM;
    let mut r = Renderer {
        look,
        out: Vec::new(),
        words: Vec::new(),
        space: false,
        styles: Vec::new(),
        frames: Vec::new(),
        lists: Vec::new(),
        link: Vec::new(),
        heading: None,
        code: None,
        table: None,
        cell: None,
    };
    for ev in Parser::new_ext(md, opts) {
        r.event(ev);
    }
    r.flush();
    while r.out.last().is_some_and(|l| l.trim().is_empty()) {
        r.out.pop();
    }
    let mut s = r.out.join("\n");
    if !s.is_empty() {
        s.push('\n');
    }
    s
}

impl Renderer<'_> {
    fn style(&self) -> Option<Style> {
        if self.styles.is_empty() {
            return None;
        }
        let mut s = Style::new();
        for st in &self.styles {
            s.is_bold |= st.is_bold;
            s.is_italic |= st.is_italic;
            s.is_underline |= st.is_underline;
            s.is_strikethrough |= st.is_strikethrough;
            if st.foreground.is_some() {
                s.foreground = st.foreground;
            }
        }
        Some(s)
    }

    /// Adds inline text, splitting it into words.
    fn text(&mut self, t: &str, style: Option<Style>, breakable: bool) {
        if let Some((plain, painted)) = self.cell.as_mut() {
            plain.push_str(t);
            painted.push_str(&match style {
                Some(s) => self.look.paint(s, t),
                None => t.to_string(),
            });
            return;
        }
        let pieces: Vec<&str> = if breakable {
            t.split(char::is_whitespace).collect()
        } else {
            vec![t]
        };
        for (k, piece) in pieces.iter().enumerate() {
            if k > 0 {
                self.space = true;
            }
            if piece.is_empty() {
                continue;
            }
            let painted = match style {
                Some(s) => self.look.paint(s, piece),
                None => piece.to_string(),
            };
            let glue = !self.space && !self.words.is_empty();
            if glue {
                let w = self.words.last_mut().expect("a word to glue to");
                w.plain.push_str(piece);
                w.painted.push_str(&painted);
            } else {
                self.words.push(Word {
                    plain: piece.to_string(),
                    painted,
                    space_before: self.space,
                });
            }
            self.space = false;
        }
    }

    fn prefix(&mut self) -> (String, usize) {
        let mut s = String::new();
        let mut w = 0;
        for f in &mut self.frames {
            let p = if f.first_done { &f.rest } else { &f.first };
            w += p.width();
            let painted = match f.quote {
                Some(Some(c)) => self.look.paint(c.normal(), p),
                _ => p.clone(),
            };
            s.push_str(&painted);
            f.first_done = true;
        }
        (s, w)
    }

    fn line(&mut self, text: &str) {
        let (p, _) = self.prefix();
        let l = format!("{p}{text}");
        self.out.push(l.trim_end().to_string());
    }

    fn blank(&mut self) {
        if self
            .out
            .last()
            .is_none_or(|l| l.is_empty() || l.trim_end() == "│")
        {
            return;
        }
        // Inside a quote the bar continues across the blank line.
        let in_quote = self.frames.iter().any(|f| f.quote.is_some());
        if in_quote {
            let first_done: Vec<bool> = self.frames.iter().map(|f| f.first_done).collect();
            self.line("");
            for (f, d) in self.frames.iter_mut().zip(first_done) {
                f.first_done = d;
            }
        } else {
            self.out.push(String::new());
        }
    }

    /// Wraps the pending words into lines.
    fn flush(&mut self) {
        if self.words.is_empty() {
            return;
        }
        let words = std::mem::take(&mut self.words);
        self.space = false;
        // A quote takes its colour from how it starts: Tip, Warning, Note.
        if let Some(f) = self.frames.iter_mut().rev().find(|f| f.quote.is_some()) {
            if f.quote == Some(None) {
                let first = words[0].plain.trim_matches(|c: char| !c.is_alphabetic());
                f.quote = Some(Some(quote_color(first)));
            }
        }
        let indent: usize = self
            .frames
            .iter()
            .map(|f| {
                if f.first_done {
                    f.rest.width()
                } else {
                    f.first.width()
                }
            })
            .sum();
        let avail = self.look.width.saturating_sub(indent).max(20);
        let mut cur = String::new();
        let mut cur_w = 0;
        for w in words {
            let ww = w.plain.width();
            if cur_w > 0 && cur_w + usize::from(w.space_before) + ww > avail {
                self.line(&cur);
                cur.clear();
                cur_w = 0;
            }
            if cur_w > 0 && w.space_before {
                cur.push(' ');
                cur_w += 1;
            }
            cur.push_str(&w.painted);
            cur_w += ww;
        }
        if cur_w > 0 {
            self.line(&cur);
        }
    }

    fn event(&mut self, ev: Event) {
        if let Some((_, buf)) = self.code.as_mut() {
            match ev {
                Event::Text(t) => buf.push_str(&t),
                Event::End(TagEnd::CodeBlock) => {
                    let (info, buf) = self.code.take().unwrap_or_default();
                    self.code_block(&info, &buf);
                }
                _ => {}
            }
            return;
        }
        match ev {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                let st = self.style();
                self.text(&t, st, true);
            }
            Event::Code(t) => {
                let t = if self.look.color {
                    t.to_string()
                } else if t.contains('`') {
                    format!("`` {t} ``")
                } else {
                    format!("`{t}`")
                };
                let st = Some(Color::Yellow.normal());
                self.text(&t, st, false);
            }
            Event::InlineMath(t) | Event::DisplayMath(t) => self.text(&t, None, false),
            Event::Html(t) | Event::InlineHtml(t) => {
                // Comments are for authors; other HTML is shown as written.
                if !t.trim_start().starts_with("<!--") {
                    self.text(&t, None, true);
                }
            }
            Event::FootnoteReference(t) => self.text(&format!("[{t}]"), None, false),
            Event::SoftBreak => self.space = true,
            Event::HardBreak => {
                self.flush();
            }
            Event::Rule => {
                self.flush();
                self.blank();
                let w = self.look.width.min(60);
                let rule = self.look.paint(Color::DarkGray.normal(), &"─".repeat(w));
                self.line(&rule);
                self.blank();
            }
            Event::TaskListMarker(done) => {
                self.text(if done { "[x]" } else { "[ ]" }, None, false);
                self.space = true;
            }
        }
    }

    fn start(&mut self, tag: Tag) {
        match tag {
            Tag::Paragraph => {
                self.flush();
                self.blank();
            }
            Tag::Heading { level, .. } => {
                self.flush();
                self.blank();
                self.heading = Some(level as u8);
                let st = match level as u8 {
                    1 => Color::Cyan.bold().underline(),
                    2 => Color::Cyan.bold(),
                    _ => Style::new().bold(),
                };
                self.styles.push(st);
            }
            Tag::BlockQuote(kind) => {
                self.flush();
                self.blank();
                let color = kind.map(|k| match k {
                    BlockQuoteKind::Tip => Color::Green,
                    BlockQuoteKind::Warning | BlockQuoteKind::Caution => Color::Yellow,
                    BlockQuoteKind::Note | BlockQuoteKind::Important => Color::Blue,
                });
                self.frames.push(Frame {
                    first: "│ ".into(),
                    rest: "│ ".into(),
                    first_done: false,
                    quote: Some(color),
                });
                if let Some(k) = kind {
                    let label = match k {
                        BlockQuoteKind::Tip => "Tip:",
                        BlockQuoteKind::Warning => "Warning:",
                        BlockQuoteKind::Caution => "Caution:",
                        BlockQuoteKind::Note => "Note:",
                        BlockQuoteKind::Important => "Important:",
                    };
                    self.text(label, Some(Style::new().bold()), false);
                    self.space = true;
                }
            }
            Tag::CodeBlock(kind) => {
                self.flush();
                let info = match kind {
                    CodeBlockKind::Fenced(i) => i.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((info, String::new()));
            }
            Tag::List(start) => {
                self.flush();
                if self.lists.is_empty() {
                    self.blank();
                }
                self.lists.push(start);
            }
            Tag::Item => {
                self.flush();
                let depth = self.lists.len();
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        let m = format!("{n}. ");
                        *n += 1;
                        m
                    }
                    _ => if depth > 1 { "◦ " } else { "• " }.to_string(),
                };
                let rest = " ".repeat(marker.width());
                self.frames.push(Frame {
                    first: marker,
                    rest,
                    first_done: false,
                    quote: None,
                });
            }
            Tag::Emphasis => self.styles.push(Style::new().italic()),
            Tag::Strong => self.styles.push(Style::new().bold()),
            Tag::Strikethrough => self.styles.push(Style::new().strikethrough()),
            Tag::Link { dest_url, .. } => {
                self.styles.push(Color::Blue.underline());
                self.link.push(dest_url.to_string());
            }
            Tag::Image { dest_url, .. } => {
                self.text("[image:", None, false);
                self.space = true;
                self.link.push(dest_url.to_string());
            }
            Tag::Table(align) => {
                self.flush();
                self.blank();
                self.table = Some(Table {
                    align,
                    ..Table::default()
                });
            }
            Tag::TableRow | Tag::TableHead => {
                if let Some(t) = self.table.as_mut() {
                    t.rows.push(Vec::new());
                    t.widths.push(Vec::new());
                }
            }
            Tag::TableCell => self.cell = Some((String::new(), String::new())),
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => self.flush(),
            TagEnd::Heading(_) => {
                self.styles.pop();
                let level = self.heading.take().unwrap_or(3);
                let plain: String = self
                    .words
                    .iter()
                    .map(|w| w.plain.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                self.flush();
                if level <= 2 && !self.look.color {
                    let ch = if level == 1 { "═" } else { "─" };
                    self.line(&ch.repeat(plain.width().min(self.look.width)));
                }
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.frames.pop();
                self.blank();
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.blank();
                }
            }
            TagEnd::Item => {
                self.flush();
                self.frames.pop();
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => {
                self.styles.pop();
            }
            TagEnd::Link => {
                self.styles.pop();
                let url = self.link.pop().unwrap_or_default();
                let text = self
                    .words
                    .last()
                    .map(|w| w.plain.clone())
                    .unwrap_or_default();
                if !url.is_empty() && text != url && !url.starts_with('#') {
                    self.space = true;
                    let shown = format!("({url})");
                    self.text(&shown, Some(Color::DarkGray.normal()), false);
                }
            }
            TagEnd::Image => {
                let url = self.link.pop().unwrap_or_default();
                self.space = false;
                self.text(&format!("({url})]"), None, false);
            }
            TagEnd::TableCell => {
                let (plain, painted) = self.cell.take().unwrap_or_default();
                if let Some(t) = self.table.as_mut() {
                    if let (Some(r), Some(w)) = (t.rows.last_mut(), t.widths.last_mut()) {
                        w.push(plain.trim().width());
                        r.push(painted.trim().to_string());
                    }
                }
            }
            TagEnd::TableHead => {
                if let Some(t) = self.table.as_mut() {
                    t.head_rows = t.rows.len();
                }
            }
            TagEnd::Table => {
                if let Some(t) = self.table.take() {
                    self.table(t);
                }
                self.blank();
            }
            _ => {}
        }
    }

    fn table(&mut self, t: Table) {
        let cols = t.rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut width = vec![0usize; cols];
        for r in &t.widths {
            for (c, w) in r.iter().enumerate() {
                width[c] = width[c].max(*w);
            }
        }
        let sep = self.look.paint(Color::DarkGray.normal(), " │ ");
        for (k, (row, ws)) in t.rows.iter().zip(&t.widths).enumerate() {
            let mut cells = Vec::new();
            for (c, full) in width.iter().enumerate() {
                let text = row.get(c).cloned().unwrap_or_default();
                let pad = full.saturating_sub(ws.get(c).copied().unwrap_or(0));
                let cell = match t.align.get(c) {
                    Some(Alignment::Right) => format!("{}{text}", " ".repeat(pad)),
                    Some(Alignment::Center) => {
                        format!("{}{text}{}", " ".repeat(pad / 2), " ".repeat(pad - pad / 2))
                    }
                    _ => format!("{text}{}", " ".repeat(pad)),
                };
                cells.push(if k < t.head_rows {
                    self.look.paint(Style::new().bold(), &cell)
                } else {
                    cell
                });
            }
            self.line(&cells.join(&sep));
            if k + 1 == t.head_rows {
                let rule: Vec<String> = width.iter().map(|w| "─".repeat(*w)).collect();
                let rule = self.look.paint(Color::DarkGray.normal(), &rule.join("─┼─"));
                self.line(&rule);
            }
        }
    }

    fn code_block(&mut self, info: &str, code: &str) {
        self.blank();
        let python = info.split_whitespace().next() == Some("python");
        for l in code.trim_end_matches('\n').lines() {
            let shown = if python && self.look.color {
                crate::repl::highlight::paint_line(l)
            } else {
                l.to_string()
            };
            self.line(&format!("    {shown}"));
        }
        self.blank();
    }
}

fn quote_color(first: &str) -> Color {
    match first.to_ascii_lowercase().as_str() {
        "tip" | "hint" => Color::Green,
        "warning" | "caution" | "careful" | "danger" => Color::Yellow,
        "note" | "important" | "info" => Color::Blue,
        _ => Color::DarkGray,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(md: &str, width: usize) -> String {
        render(
            md,
            &Look {
                color: false,
                width,
            },
        )
    }

    #[test]
    fn headings_paragraphs_and_wrapping() {
        let s = plain(
            "# Devices\n\nA tensor lives on a *device*: `cpu` or `cuda:0`, and every op runs there.\n",
            30,
        );
        assert_eq!(
            s,
            "Devices\n═══════\n\nA tensor lives on a device:\n`cpu` or `cuda:0`, and every\nop runs there.\n"
        );
    }

    #[test]
    fn lists_quotes_tables_links() {
        let s = plain(
            "- one\n- two\n  1. a\n\n> **Tip:** move it first.\n\n| a | bb |\n|---|---:|\n| 1 | 2 |\n\nSee [docs](https://x.org).\n",
            60,
        );
        assert_eq!(
            s,
            "• one\n• two\n  1. a\n\n│ Tip: move it first.\n\na │ bb\n──┼───\n1 │  2\n\nSee docs (https://x.org).\n"
        );
    }

    #[test]
    fn runner_lines_wrap_at_word_boundaries() {
        let lines = wrap(
            "Keys at each block: Enter run · e edit · r REPL",
            20,
            "",
            "  ",
        );
        assert_eq!(
            lines,
            ["Keys at each block:", "  Enter run · e edit", "  · r REPL"]
        );
        assert!(lines.iter().all(|l| l.width() <= 20));
        assert_eq!(wrap("a\nb", 80, "> ", "  "), ["> a", "  b"]);
        assert_eq!(
            wrap("unbreakable_word_here x", 10, "", ""),
            ["unbreakable_word_here", "x"]
        );
        let code = wrap_code(
            "    total = compute_something(alpha, beta) + another_call(gamma)",
            40,
            "    ",
        );
        assert_eq!(
            code,
            [
                "    total = compute_something(alpha,",
                "        beta) + another_call(gamma)"
            ]
        );
        assert_eq!(wrap_code("x = 1", 80, "    "), ["x = 1"]);
    }

    #[test]
    fn colour_only_when_asked() {
        let s = render(
            "**bold** `x`",
            &Look {
                color: true,
                width: 80,
            },
        );
        assert!(s.contains('\x1b'));
        assert!(!plain("**bold** `x`", 80).contains('\x1b'));
    }
}
