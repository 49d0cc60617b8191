//! Reading a lesson file: the front matter, the prose, and the fenced blocks that run.
//! Every problem is a `LessonError` naming the file and line, never a panic.
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use std::fmt;
use std::ops::Range;

/// `lessons/03-x.md:42: message`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError {
    pub file: String,
    pub line: usize,
    pub msg: String,
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.msg)
    }
}

/// The front matter.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Meta {
    pub title: String,
    pub summary: String,
    pub minutes: Option<u32>,
    /// `needs: cuda`
    pub cuda: bool,
    /// `needs: gpus: 2` (or `gpus: 2`): how many GPUs the lesson uses.
    pub gpus: u32,
}

impl Meta {
    /// How many GPUs the lesson needs (0: runs on the CPU).
    pub fn gpus_needed(&self) -> u32 {
        self.gpus.max(u32::from(self.cuda))
    }
}

/// Which devices an expected output is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// ```` ```output ````: every device.
    Any,
    Cpu,
    /// Any GPU, real or simulated.
    Cuda,
    /// Only the simulated GPU.
    Sim,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Variant::Any => "output",
            Variant::Cpu => "output cpu",
            Variant::Cuda => "output cuda",
            Variant::Sim => "output sim",
        }
    }
}

/// An ```` ```output ```` block.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    pub line: usize,
    pub variant: Variant,
    /// `tol=1e-3`: numbers compare within this relative/absolute tolerance.
    pub tol: Option<f64>,
    pub text: String,
}

/// A ```` ```python ```` block and its expected outputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub line: usize,
    pub code: String,
    pub outputs: Vec<Expected>,
    /// `timeout=N` seconds: how long `--check` lets it run (else `DEFAULT_TIMEOUT`).
    pub timeout: Option<u64>,
    /// `launch=N`: runs as N ranks under the launcher (`lesson/launched.rs`), not in the session.
    pub launch: Option<u32>,
}

/// A ```` ```python exercise ```` block with its check, hints and solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Exercise {
    pub line: usize,
    pub start: String,
    pub check: String,
    /// Shown by `:clue`, one at a time (```` ```hint ```` blocks).
    pub hints: Vec<String>,
    pub solution: String,
    /// Plausible wrong answers (```` ```wrong ````): `--check` verifies the check rejects each.
    pub wrong: Vec<String>,
    /// `timeout=N` seconds for `--check`, as for a block.
    pub timeout: Option<u64>,
}

/// How long `--check` lets a block (or an exercise's runs) take before stopping it.
pub const DEFAULT_TIMEOUT: u64 = 60;

#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Block(Block),
    Exercise(Exercise),
    /// The prose after the last block.
    End,
}

/// The prose shown before a step (markdown), and the step.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    pub prose: String,
    pub step: Step,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// As shown in messages and transcripts (relative, e.g. `lessons/01-devices.md`).
    pub file: String,
    pub meta: Meta,
    pub sections: Vec<Section>,
}

impl Lesson {
    /// How many steps run something (blocks and exercises).
    pub fn runnable(&self) -> usize {
        self.sections
            .iter()
            .filter(|s| !matches!(s.step, Step::End))
            .count()
    }
}

/// Fence kinds that are only shown.
const DISPLAY_KINDS: &[&str] = &["", "text", "sh", "bash", "shell", "console", "markdown"];

/// What an info string asks for.
enum Kind {
    Display,
    Run(Option<u64>, Option<u32>),
    Exercise(Option<u64>),
    Output(Variant, Option<f64>),
    Check,
    Hint,
    Solution,
    Wrong,
}

/// `timeout=N` among a python fence's words (the others stay).
fn take_timeout<'a>(info: &str, rest: &[&'a str]) -> Result<(Option<u64>, Vec<&'a str>), String> {
    let mut timeout = None;
    let mut others = Vec::new();
    for w in rest {
        match w.strip_prefix("timeout=") {
            Some(t) => match t.parse::<u64>() {
                Ok(v) if v > 0 => timeout = Some(v),
                _ => {
                    return Err(format!(
                        "bad timeout '{t}' in ```{info} (whole seconds, e.g. timeout=120)"
                    ))
                }
            },
            None => others.push(*w),
        }
    }
    Ok((timeout, others))
}

/// `launch=N` (2 to 8 ranks) among a python fence's words (the others stay).
fn take_launch<'a>(info: &str, rest: &[&'a str]) -> Result<(Option<u32>, Vec<&'a str>), String> {
    let mut launch = None;
    let mut others = Vec::new();
    for w in rest {
        match w.strip_prefix("launch=") {
            Some(t) => match t.parse::<u32>() {
                Ok(v) if (1..=8).contains(&v) => launch = Some(v),
                _ => {
                    return Err(format!(
                        "bad launch '{t}' in ```{info} (how many ranks, 1 to 8, e.g. launch=2)"
                    ))
                }
            },
            None => others.push(*w),
        }
    }
    Ok((launch, others))
}

fn kind_of(info: &str) -> Result<Kind, String> {
    let mut words = info.split_whitespace();
    let first = words.next().unwrap_or("");
    let rest: Vec<&str> = words.collect();
    let only = |kind: Kind, rest: &[&str]| -> Result<Kind, String> {
        match rest.first() {
            None => Ok(kind),
            Some(w) => Err(format!("unknown option '{w}' in ```{info}")),
        }
    };
    match first {
        "python" => {
            let (timeout, words) = take_timeout(info, &rest)?;
            let (launch, words) = take_launch(info, &words)?;
            match words.as_slice() {
                [] => Ok(Kind::Run(timeout, launch)),
                _ if launch.is_some() => Err(format!(
                    "launch=N in ```{info}: only a plain ```python block can run as N ranks"
                )),
                ["norun"] => Ok(Kind::Display),
                ["exercise"] => Ok(Kind::Exercise(timeout)),
                _ => Err(format!(
                    "unknown info string ```{info} (python blocks are ```python, ```python norun or ```python exercise, with timeout=N if they may run long)"
                )),
            }
        }
        "output" => {
            let mut variant = Variant::Any;
            let mut tol = None;
            for w in rest {
                match w {
                    "cpu" | "cuda" | "sim" if variant != Variant::Any => {
                        return Err(format!("```{info} names more than one device"));
                    }
                    "cpu" => variant = Variant::Cpu,
                    "cuda" => variant = Variant::Cuda,
                    "sim" => variant = Variant::Sim,
                    _ => match w.strip_prefix("tol=") {
                        Some(t) => match t.parse::<f64>() {
                            Ok(v) if v.is_finite() && v >= 0.0 => tol = Some(v),
                            _ => return Err(format!("bad tolerance '{t}' in ```{info} (e.g. tol=1e-3)")),
                        },
                        None => {
                            return Err(format!(
                                "unknown option '{w}' in ```{info} (output takes cpu, cuda or sim, and tol=...)"
                            ))
                        }
                    },
                }
            }
            Ok(Kind::Output(variant, tol))
        }
        "check" => only(Kind::Check, &rest),
        "hint" => only(Kind::Hint, &rest),
        "solution" => only(Kind::Solution, &rest),
        "wrong" => only(Kind::Wrong, &rest),
        k if DISPLAY_KINDS.contains(&k) => Ok(Kind::Display),
        k => {
            let close = ["python", "output", "check", "hint", "solution", "wrong"]
                .iter()
                .find(|w| k.starts_with(&w[..2]) || w.starts_with(k));
            let also = match close {
                Some(w) => format!("; did you mean ```{w}?"),
                None => String::new(),
            };
            Err(format!(
                "unknown info string ```{info} (python, python norun, python exercise, output, check, hint, solution, wrong, or text to only show it){also}"
            ))
        }
    }
}

/// Splits `text` into front matter and body; parses both.
pub fn parse(file: &str, text: &str) -> Result<Lesson, LessonError> {
    let err = |line: usize, msg: String| LessonError {
        file: file.to_string(),
        line,
        msg,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (meta, body_start) = front_matter(text).map_err(|(l, m)| err(l, m))?;
    let sections = body(text, body_start).map_err(|(l, m)| err(l, m))?;
    Ok(Lesson {
        file: file.to_string(),
        meta,
        sections,
    })
}

/// The 1-based line of a byte offset.
fn line_at(text: &str, off: usize) -> usize {
    text.as_bytes()[..off.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

type Fail = (usize, String);

fn front_matter(text: &str) -> Result<(Meta, usize), Fail> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if first.trim_end() != "---" {
        return Err((
            1,
            "a lesson starts with front matter: a line `---`, then `title: ...` (and summary, minutes, needs), then `---`".into(),
        ));
    }
    let mut meta = Meta::default();
    let mut off = first.len();
    let mut line_no = 1;
    let mut has_title = false;
    for line in lines {
        line_no += 1;
        off += line.len();
        let t = line.trim();
        if t == "---" {
            if !has_title {
                return Err((line_no, "the front matter has no `title:`".into()));
            }
            return Ok((meta, off));
        }
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let Some((key, value)) = t.split_once(':') else {
            return Err((
                line_no,
                format!("front matter lines are `key: value`, not `{t}`"),
            ));
        };
        let key = key.trim();
        let value = unquote(strip_comment(value).trim());
        match key {
            "title" => {
                if value.is_empty() {
                    return Err((line_no, "the title is empty".into()));
                }
                meta.title = value.to_string();
                has_title = true;
            }
            "summary" => meta.summary = value.to_string(),
            "minutes" => match value.parse::<u32>() {
                Ok(m) => meta.minutes = Some(m),
                Err(_) => {
                    return Err((
                        line_no,
                        format!("minutes must be a whole number, not `{value}`"),
                    ))
                }
            },
            "needs" => needs(value, &mut meta).map_err(|m| (line_no, m))?,
            "gpus" => meta.gpus = gpu_count(value).map_err(|m| (line_no, m))?,
            _ => {
                return Err((
                    line_no,
                    format!("unknown front matter key `{key}` (title, summary, minutes, needs)"),
                ))
            }
        }
    }
    Err((
        1,
        "the front matter is not closed: add a line `---` after it".into(),
    ))
}

/// `needs: cuda`, `needs: gpus: 2`, `needs: cuda, gpus: 2`.
fn needs(value: &str, meta: &mut Meta) -> Result<(), String> {
    let value = value.trim_start_matches('[').trim_end_matches(']');
    for part in value.split(',') {
        let p = part.trim();
        if p == "cuda" || p == "gpu" {
            meta.cuda = true;
        } else if let Some(n) = p.strip_prefix("gpus") {
            meta.gpus = gpu_count(n.trim_start_matches([':', '=', ' ']))?;
        } else if !p.is_empty() {
            return Err(format!(
                "unknown need `{p}` (needs: cuda, or needs: gpus: 2)"
            ));
        }
    }
    Ok(())
}

fn gpu_count(v: &str) -> Result<u32, String> {
    match v.trim().parse::<u32>() {
        Ok(n) if (1..=16).contains(&n) => Ok(n),
        _ => Err(format!(
            "gpus must be a number from 1 to 16, not `{}`",
            v.trim()
        )),
    }
}

/// Drops a ` # comment` (a `#` after whitespace).
fn strip_comment(v: &str) -> &str {
    let b = v.as_bytes();
    for i in 0..b.len() {
        if b[i] == b'#' && (i == 0 || b[i - 1].is_ascii_whitespace()) {
            return &v[..i];
        }
    }
    v
}

fn unquote(v: &str) -> &str {
    for q in ['"', '\''] {
        if v.len() >= 2 && v.starts_with(q) && v.ends_with(q) {
            return &v[1..v.len() - 1];
        }
    }
    v
}

/// A fenced block of the body: its info string, content and source range.
struct Fence {
    info: String,
    content: String,
    range: Range<usize>,
    nested: bool,
}

/// The fenced code blocks of the body, checked for closing fences.
fn fences(text: &str, start: usize) -> Result<Vec<Fence>, Fail> {
    let body = &text[start..];
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_GFM;
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut cur: Option<Fence> = None;
    for (ev, range) in Parser::new_ext(body, opts).into_offset_iter() {
        match ev {
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => "indented".to_string(),
                };
                cur = Some(Fence {
                    info,
                    content: String::new(),
                    range: start + range.start..start + range.end,
                    nested: depth > 0,
                });
            }
            Event::Text(t) if cur.is_some() => {
                if let Some(f) = cur.as_mut() {
                    f.content.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some(f) = cur.take() {
                    if f.info == "indented" {
                        continue;
                    }
                    if !closed(&text[f.range.clone()]) {
                        return Err((
                            line_at(text, f.range.start),
                            format!(
                                "this ```{} block is never closed (add a line ``` after it)",
                                f.info.trim()
                            ),
                        ));
                    }
                    out.push(f);
                }
            }
            Event::Start(
                Tag::BlockQuote(_)
                | Tag::List(_)
                | Tag::Item
                | Tag::FootnoteDefinition(_)
                | Tag::Table(_)
                | Tag::DefinitionList,
            ) => depth += 1,
            Event::End(
                TagEnd::BlockQuote(_)
                | TagEnd::List(_)
                | TagEnd::Item
                | TagEnd::FootnoteDefinition
                | TagEnd::Table
                | TagEnd::DefinitionList,
            ) => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(out)
}

/// Whether a fenced block's source ends with a closing fence at least as long as its opening.
fn closed(src: &str) -> bool {
    let mut lines = src.lines();
    let open = lines.next().unwrap_or("").trim_start();
    let ch = match open.chars().next() {
        Some(c @ ('`' | '~')) => c,
        _ => return true,
    };
    let n = open.chars().take_while(|&c| c == ch).count();
    let last = src.trim_end().lines().last().unwrap_or("").trim();
    src.trim_end().lines().count() > 1 && last.chars().all(|c| c == ch) && last.chars().count() >= n
}

/// An exercise being assembled from its parts, with the prose shown before it.
struct Partial {
    prose: String,
    ex: Exercise,
    has_check: bool,
    has_solution: bool,
}

/// Checks an exercise is whole and adds it.
fn finish(p: Option<Partial>, sections: &mut Vec<Section>) -> Result<(), Fail> {
    let Some(p) = p else { return Ok(()) };
    if !p.has_check {
        return Err((
            p.ex.line,
            "this exercise has no ```check block (Python that raises unless the answer is right)"
                .into(),
        ));
    }
    if !p.has_solution {
        return Err((p.ex.line, "this exercise has no ```solution block".into()));
    }
    sections.push(Section {
        prose: p.prose,
        step: Step::Exercise(p.ex),
    });
    Ok(())
}

fn body(text: &str, start: usize) -> Result<Vec<Section>, Fail> {
    let mut sections = Vec::new();
    // Where the prose not yet given to a section starts; output and exercise parts must
    // follow the fence that ended at `last_end` with nothing but blank lines between.
    let mut cut = start;
    let mut last_end = start;
    let mut last_block: Option<Block> = None;
    let mut partial: Option<Partial> = None;
    let flush_block = |b: &mut Option<Block>, sections: &mut Vec<Section>, prose: &mut String| {
        if let Some(b) = b.take() {
            sections.push(Section {
                prose: std::mem::take(prose),
                step: Step::Block(b),
            });
        }
    };
    let mut block_prose = String::new();

    for f in fences(text, start)? {
        let line = line_at(text, f.range.start);
        let kind = kind_of(&f.info).map_err(|m| (line, m))?;
        if f.nested && !matches!(kind, Kind::Display) {
            return Err((
                line,
                format!(
                    "a ```{} block inside a list or quote is not run: move it to the top level",
                    f.info.trim()
                ),
            ));
        }
        let adjacent = text[last_end..f.range.start].trim().is_empty();
        match kind {
            Kind::Display => continue,
            Kind::Run(timeout, _) | Kind::Exercise(timeout) => {
                flush_block(&mut last_block, &mut sections, &mut block_prose);
                finish(partial.take(), &mut sections)?;
                let prose = text[cut..f.range.start].to_string();
                if let Kind::Run(_, launch) = kind {
                    block_prose = prose;
                    last_block = Some(Block {
                        line,
                        code: f.content,
                        outputs: Vec::new(),
                        timeout,
                        launch,
                    });
                } else {
                    partial = Some(Partial {
                        prose,
                        ex: Exercise {
                            line,
                            start: f.content,
                            check: String::new(),
                            hints: Vec::new(),
                            solution: String::new(),
                            wrong: Vec::new(),
                            timeout,
                        },
                        has_check: false,
                        has_solution: false,
                    });
                }
            }
            Kind::Output(variant, tol) => {
                let block = match (adjacent, last_block.as_mut()) {
                    (true, Some(b)) => b,
                    _ => {
                        return Err((
                            line,
                            "an ```output block must come right after the ```python block it belongs to (nothing but blank lines between)".into(),
                        ))
                    }
                };
                if let Some(prev) = block.outputs.iter().find(|o| o.variant == variant) {
                    return Err((
                        line,
                        format!(
                            "a second ```{} block for the same python block (the first is at line {})",
                            variant.name(),
                            prev.line
                        ),
                    ));
                }
                block.outputs.push(Expected {
                    line,
                    variant,
                    tol,
                    text: f.content,
                });
            }
            Kind::Check | Kind::Hint | Kind::Solution | Kind::Wrong => {
                let name = f.info.trim().to_string();
                let p = match (partial.as_mut(), adjacent) {
                    (Some(p), true) => p,
                    _ => {
                        return Err((
                            line,
                            format!("a ```{name} block must follow a ```python exercise block (and its other parts) directly"),
                        ))
                    }
                };
                match kind {
                    Kind::Check if p.has_check => {
                        return Err((line, "this exercise already has a ```check block".into()))
                    }
                    Kind::Check => {
                        p.ex.check = f.content;
                        p.has_check = true;
                    }
                    Kind::Solution if p.has_solution => {
                        return Err((line, "this exercise already has a ```solution block".into()))
                    }
                    Kind::Solution => {
                        p.ex.solution = f.content;
                        p.has_solution = true;
                    }
                    Kind::Wrong => p.ex.wrong.push(f.content),
                    _ => p.ex.hints.push(f.content),
                }
            }
        }
        cut = f.range.end;
        last_end = f.range.end;
    }
    flush_block(&mut last_block, &mut sections, &mut block_prose);
    finish(partial.take(), &mut sections)?;
    let rest = &text[cut..];
    if !rest.trim().is_empty() {
        sections.push(Section {
            prose: rest.to_string(),
            step: Step::End,
        });
    }
    Ok(sections)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "---\ntitle: T\nminutes: 5\n---\n";

    fn ok(body: &str) -> Lesson {
        parse("l.md", &format!("{HEAD}{body}")).unwrap()
    }

    fn bad(body: &str) -> String {
        parse("l.md", &format!("{HEAD}{body}"))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn blocks_outputs_and_exercises() {
        let l = ok("# Hi\n\ntext\n\n```python\nprint(1)\n```\n```output\n1\n```\n```output cpu tol=1e-3\n1\n```\n\nmore\n\n```python exercise\nx = 0\n```\n```check\nassert x == 1\n```\n```hint\nset it\n```\n```solution\nx = 1\n```\nbye\n");
        assert_eq!(l.meta.title, "T");
        assert_eq!(l.meta.minutes, Some(5));
        assert_eq!(l.sections.len(), 3);
        assert!(l.sections[0].prose.contains("# Hi"));
        let Step::Block(b) = &l.sections[0].step else {
            panic!()
        };
        assert_eq!(b.line, 9);
        assert_eq!(b.outputs.len(), 2);
        assert_eq!(b.outputs[1].tol, Some(1e-3));
        assert_eq!(b.outputs[1].variant, Variant::Cpu);
        assert!(l.sections[1].prose.contains("more"));
        let Step::Exercise(e) = &l.sections[1].step else {
            panic!("{:?}", l.sections[1])
        };
        assert_eq!(e.start, "x = 0\n");
        assert_eq!(e.hints, vec!["set it\n"]);
        assert_eq!(e.solution, "x = 1\n");
        assert_eq!(l.sections[2].step, Step::End);
        assert!(l.sections[2].prose.contains("bye"));
    }

    #[test]
    fn exercise_followed_by_a_block() {
        let l = ok("```python exercise\nx = 0\n```\n```check\nassert x\n```\n```solution\nx = 1\n```\nthen\n```python\nprint(x)\n```\n");
        assert_eq!(l.sections.len(), 2);
        assert!(matches!(l.sections[0].step, Step::Exercise(_)));
        assert!(matches!(l.sections[1].step, Step::Block(_)));
        assert!(l.sections[1].prose.contains("then"));
    }

    #[test]
    fn launched_blocks() {
        let l = ok("```python launch=2 timeout=30\nprint(1)\n```\n```output\n[default0]:1\n```\n");
        let Step::Block(b) = &l.sections[0].step else {
            panic!()
        };
        assert_eq!((b.launch, b.timeout), (Some(2), Some(30)));
        assert!(bad("```python launch=9\nx\n```\n").contains("bad launch '9'"));
        assert!(
            bad("```python exercise launch=2\nx\n```\n").contains("only a plain ```python block")
        );
    }

    #[test]
    fn time_limits_and_wrong_answers() {
        let l = ok("```python timeout=5\nx = 1\n```\n```python exercise timeout=9\ny = 0\n```\n```check\nassert y\n```\n```wrong\ny = False\n```\n```wrong\ny = []\n```\n```solution\ny = 1\n```\n");
        let Step::Block(b) = &l.sections[0].step else {
            panic!()
        };
        assert_eq!(b.timeout, Some(5));
        let Step::Exercise(e) = &l.sections[1].step else {
            panic!()
        };
        assert_eq!(e.timeout, Some(9));
        assert_eq!(e.wrong, vec!["y = False\n", "y = []\n"]);
        assert!(bad("```python timeout=soon\nx\n```\n").contains("l.md:5: bad timeout 'soon'"));
        assert!(bad("```python timeout=0\nx\n```\n").contains("bad timeout '0'"));
        assert!(bad("text\n\n```wrong\nx\n```\n").contains("must follow a ```python exercise"));
    }

    #[test]
    fn front_matter_needs() {
        let l = parse("l.md", "---\ntitle: \"A: B\"\nneeds: cuda   # a GPU\n---\n").unwrap();
        assert_eq!(l.meta.title, "A: B");
        assert_eq!(l.meta.gpus_needed(), 1);
        let l = parse("l.md", "---\ntitle: A\nneeds: gpus: 2\n---\n").unwrap();
        assert_eq!(l.meta.gpus_needed(), 2);
    }

    #[test]
    fn malformed_lessons_name_the_line() {
        assert_eq!(
            bad("text\n\n```output\n1\n```\n"),
            "l.md:7: an ```output block must come right after the ```python block it belongs to (nothing but blank lines between)"
        );
        assert!(bad("```pyhton\nx\n```\n").starts_with("l.md:5: unknown info string ```pyhton"));
        assert!(bad("```python\nx = 1\n").contains("l.md:5: this ```python block is never closed"));
        assert!(bad("```python exercise\nx\n```\n```solution\nx\n```\n")
            .contains("l.md:5: this exercise has no ```check"));
        assert!(bad("```python exercise\nx\n```\n```check\nx\n```\n").contains("no ```solution"));
        assert!(bad("- item\n\n  ```python\n  x\n  ```\n").contains("inside a list"));
        assert!(parse("l.md", "# no front matter\n")
            .unwrap_err()
            .to_string()
            .starts_with("l.md:1: a lesson starts"));
        assert!(parse("l.md", "---\ntitle: x\nminutes: ten\n---\n")
            .unwrap_err()
            .to_string()
            .starts_with("l.md:3: minutes"));
        assert!(parse("l.md", "---\ntitle: x\n")
            .unwrap_err()
            .to_string()
            .contains("not closed"));
    }
}
