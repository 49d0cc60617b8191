//! The lesson runner: markdown lessons (`lessons/NN-slug.md`, format in `lessons/README.md`)
//! that run, check and teach. `parse` reads a lesson, `render` draws its prose, `check` matches
//! outputs, `session` runs code in the lesson's one interpreter, `run` is `--check`,
//! `stepper` the interactive mode, `progress` the saved place, `device` the device choice.
pub mod check;
pub mod device;
pub mod parse;
pub mod progress;
pub mod render;
pub mod run;
pub mod session;
pub mod stepper;

use check::DeviceKind;
use parse::{Lesson, Step};
use render::Look;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Exit status when the device asked for cannot be had.
pub const EXIT_NO_DEVICE: i32 = 3;

/// A lesson file found in the course folder.
#[derive(Clone, Debug)]
pub struct Found {
    pub number: Option<u32>,
    /// File name without `.md` (`01-devices`): the progress key.
    pub slug: String,
    pub path: PathBuf,
    /// As shown: `lessons/01-devices.md`, or the path as typed.
    pub shown: String,
}

/// The course folder: `$CUDALEARN_LESSONS`, else `./lessons`, else the one beside the
/// sources this binary was built from.
pub fn lessons_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("CUDALEARN_LESSONS").filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    let here = PathBuf::from("lessons");
    if here.is_dir() {
        return here;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons")
}

/// The lessons (`NN-slug.md`) in a folder, in order.
pub fn course(dir: &Path) -> Vec<Found> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<Found> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            let stem = name.strip_suffix(".md")?.to_string();
            let digits: String = stem.chars().take_while(char::is_ascii_digit).collect();
            if digits.is_empty() || !stem[digits.len()..].starts_with('-') {
                return None;
            }
            Some(Found {
                number: digits.parse().ok(),
                slug: stem,
                path: e.path(),
                shown: format!("lessons/{name}"),
            })
        })
        .collect();
    out.sort_by(|a, b| (a.number, &a.slug).cmp(&(b.number, &b.slug)));
    out
}

/// A lesson by number (`3`), slug (`devices` or `03-devices`) or path (`x/y.md`).
pub fn find(arg: &str) -> Result<Found, String> {
    if arg.ends_with(".md") || arg.contains('/') || arg.contains(std::path::MAIN_SEPARATOR) {
        let path = PathBuf::from(arg);
        if !path.is_file() {
            return Err(format!("no lesson file {arg}"));
        }
        let slug = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("lesson")
            .to_string();
        return Ok(Found {
            number: None,
            slug,
            path,
            shown: arg.to_string(),
        });
    }
    let all = course(&lessons_dir());
    let hit = match arg.parse::<u32>() {
        Ok(n) => all.iter().find(|f| f.number == Some(n)),
        Err(_) => all
            .iter()
            .find(|f| f.slug == arg || f.slug.split_once('-').is_some_and(|(_, rest)| rest == arg)),
    };
    match hit {
        Some(f) => Ok(f.clone()),
        None if all.is_empty() => Err(format!(
            "no lesson '{arg}': no lessons found in {} (set CUDALEARN_LESSONS to the course folder)",
            lessons_dir().display()
        )),
        None => Err(format!(
            "no lesson '{arg}' (`cudalearn lessons` lists them: 1 to {})",
            all.iter().filter_map(|f| f.number).max().unwrap_or(1)
        )),
    }
}

/// Reads and parses a lesson; the error is `file:line: message`.
pub fn load(found: &Found) -> Result<Lesson, String> {
    let text =
        std::fs::read(&found.path).map_err(|e| format!("{}: cannot read: {e}", found.shown))?;
    let text = String::from_utf8(text).map_err(|e| {
        let line = 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        format!("{}:{line}: not UTF-8 text", found.shown)
    })?;
    parse::parse(&found.shown, &text).map_err(|e| e.to_string())
}

/// How prose and transcripts look here: colour on a terminal unless NO_COLOR.
pub fn look() -> Look {
    Look {
        color: crate::style::color_enabled(),
        width: render::terminal_width(),
    }
}

/// `cudalearn lessons`
pub fn list() -> i32 {
    let dir = lessons_dir();
    let all = course(&dir);
    if all.is_empty() {
        println!(
            "No lessons found in {} (set CUDALEARN_LESSONS to the course folder).",
            dir.display()
        );
        return 0;
    }
    let progress = progress::Progress::load();
    let look = look();
    println!("The course ({} lessons):", all.len());
    let mut rows = Vec::new();
    for f in &all {
        let num = f.number.map(|n| n.to_string()).unwrap_or_default();
        match load(f) {
            Ok(l) => {
                let minutes = l
                    .meta
                    .minutes
                    .map(|m| format!("{m} min"))
                    .unwrap_or_default();
                let state = match progress.get(&f.slug) {
                    Some(e) if e.done => "done".to_string(),
                    Some(e) if e.step > 0 => {
                        let n = l.sections[..e.step.min(l.sections.len())]
                            .iter()
                            .filter(|s| !matches!(s.step, Step::End))
                            .count();
                        format!("at step {} of {}", n + 1, l.runnable())
                    }
                    _ => "not started".to_string(),
                };
                let gpu = if l.meta.gpus_needed() > 0 {
                    " (GPU)"
                } else {
                    ""
                };
                rows.push((
                    num,
                    format!("{}{gpu}", l.meta.title),
                    minutes,
                    state,
                    l.meta.summary,
                ));
            }
            Err(e) => rows.push((
                num,
                e,
                String::new(),
                "cannot be read".into(),
                String::new(),
            )),
        }
    }
    let wt = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
    for (num, title, minutes, state, summary) in rows {
        let state = match state.as_str() {
            "done" => look.paint(nu_ansi_term::Color::Green.normal(), "✓ done"),
            s => s.to_string(),
        };
        println!("  {num:>2}. {title:<wt$}  {minutes:>6}  {state}");
        if !summary.is_empty() {
            println!(
                "      {}",
                look.paint(nu_ansi_term::Color::DarkGray.normal(), &summary)
            );
        }
    }
    println!("Open one with `cudalearn lesson 1` (a number or its name).");
    0
}

/// `cudalearn lesson ARG [--check] [--device D]`
pub fn lesson(arg: &str, check_only: bool, device: Option<DeviceKind>, hints: bool) -> i32 {
    let found = match find(arg) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("cudalearn: {e}");
            return 2;
        }
    };
    let lesson = match load(&found) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let (device, note) = match device::setup(device, &lesson.meta) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("cudalearn: {e}");
            return EXIT_NO_DEVICE;
        }
    };
    let look = look();
    if check_only || !std::io::stdin().is_terminal() {
        let run = run::CheckRun {
            lesson: &lesson,
            device,
            note,
            look,
        };
        let failed = run::check_lesson(&run, &mut std::io::stdout());
        return i32::from(failed > 0);
    }
    stepper::Stepper {
        lesson: &lesson,
        slug: found.slug,
        device,
        note,
        hints,
        look,
    }
    .run()
}

/// `cudalearn lesson --check-all`: every lesson on cpu and on the simulated GPU (or only on
/// `device`). Each run is its own process: the device is chosen once per process.
pub fn check_all(device: Option<DeviceKind>) -> i32 {
    let dir = lessons_dir();
    let all = course(&dir);
    if all.is_empty() {
        eprintln!("cudalearn: no lessons found in {}", dir.display());
        return 2;
    }
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("cudalearn: cannot find my own program to run the lessons: {e}");
            return 2;
        }
    };
    let devices = match device {
        Some(d) => vec![d],
        None => vec![DeviceKind::Cpu, DeviceKind::Sim],
    };
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for f in &all {
        if let Err(e) = load(f) {
            println!("✗ {e}");
            failed += 1;
            continue;
        }
        for d in &devices {
            let out = std::process::Command::new(&exe)
                .args(["lesson", &f.slug])
                .args(["--check", "--device", d.name()])
                .env("NO_COLOR", "1")
                .stdin(std::process::Stdio::null())
                .output();
            let out = match out {
                Ok(o) => o,
                Err(e) => {
                    println!("✗ {} on {}: cannot run: {e}", f.shown, d.name());
                    failed += 1;
                    continue;
                }
            };
            match out.status.code() {
                Some(0) => {
                    passed += 1;
                    println!("✓ {} on {}", f.shown, d.name());
                }
                Some(EXIT_NO_DEVICE) => {
                    skipped += 1;
                    let why = String::from_utf8_lossy(&out.stderr);
                    println!("- {} on {}: skipped ({})", f.shown, d.name(), why.trim());
                }
                _ => {
                    failed += 1;
                    println!("✗ {} on {}:", f.shown, d.name());
                    for l in String::from_utf8_lossy(&out.stdout).lines() {
                        println!("    {l}");
                    }
                    for l in String::from_utf8_lossy(&out.stderr).lines() {
                        println!("    {l}");
                    }
                }
            }
        }
    }
    println!(
        "{passed} of {} lesson runs as expected ({failed} not, {skipped} skipped)",
        passed + failed + skipped
    );
    i32::from(failed > 0)
}
