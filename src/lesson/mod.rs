//! The lesson runner: markdown lessons (`lessons/NN-slug.md`, format in `lessons/README.md`)
//! that run, check and teach. `parse` reads a lesson, `render` draws its prose, `check` matches
//! outputs, `session` runs code in the lesson's one interpreter, `run` is `--check`,
//! `stepper` the interactive mode, `progress` the saved place, `device` the device choice.
pub mod check;
pub mod device;
pub mod keys;
pub mod launched;
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

/// The name a learner types for a lesson: its file name without the number (`devices`,
/// `mismatch-error`).
pub fn short_name(slug: &str) -> &str {
    match slug.split_once('-') {
        Some((n, rest)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => rest,
        _ => slug,
    }
}

/// The lowercase words of a title (`The device mismatch error` → the, device, ...).
fn title_words(title: &str) -> Vec<String> {
    title
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// One way of naming a lesson: (its index in the course, the lesson) → named?
type Tier<'a> = dyn Fn(usize, &Found) -> bool + 'a;

/// A lesson by number (`3`), path (`x/y.md`), or name, case-insensitive: its file name
/// (`03-mismatch-error`), its short name or a unique prefix of it (`mismatch`), or a word of
/// its title or a unique prefix of one (`Devices`).
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
    if all.is_empty() {
        return Err(format!(
            "no lesson '{arg}': no lessons found in {} (set CUDALEARN_LESSONS to the course folder)",
            lessons_dir().display()
        ));
    }
    let want = arg.trim().to_lowercase();
    let not_found = || {
        format!(
            "no lesson '{arg}' (`cudalearn lessons` lists them, with their names: 1 to {})",
            all.iter().filter_map(|f| f.number).max().unwrap_or(1)
        )
    };
    if let Ok(n) = want.parse::<u32>() {
        return all
            .iter()
            .find(|f| f.number == Some(n))
            .cloned()
            .ok_or_else(not_found);
    }
    if want.is_empty() {
        return Err(not_found());
    }
    let titles: Vec<Vec<String>> = all
        .iter()
        .map(|f| {
            load(f)
                .map(|l| title_words(&l.meta.title))
                .unwrap_or_default()
        })
        .collect();
    let short = |f: &Found| short_name(&f.slug).to_lowercase();
    // From the most exact way of naming a lesson to the loosest; the first that names
    // exactly one lesson wins, and one that names several asks for more.
    let tiers: [&Tier; 4] = [
        &|_, f| f.slug.to_lowercase() == want || short(f) == want,
        &|_, f| short(f).starts_with(&want),
        &|k, _| titles[k].contains(&want),
        &|k, _| titles[k].iter().any(|w| w.starts_with(&want)),
    ];
    for tier in tiers {
        let hits: Vec<&Found> = all
            .iter()
            .enumerate()
            .filter(|(k, f)| tier(*k, f))
            .map(|(_, f)| f)
            .collect();
        match hits.as_slice() {
            [] => continue,
            [one] => return Ok((*one).clone()),
            many => {
                let names: Vec<String> = many
                    .iter()
                    .map(|f| {
                        let n = f.number.map(|n| format!("{n} ")).unwrap_or_default();
                        format!("{n}({})", short_name(&f.slug))
                    })
                    .collect();
                return Err(format!(
                    "'{arg}' could be more than one lesson: {}; type more of the name, or the number",
                    names.join(", ")
                ));
            }
        }
    }
    Err(not_found())
}

/// What `cudalearn lesson` with no name opens: the lesson opened last, unless it is
/// finished (then the one after it), else the first unfinished one, else lesson 1.
pub fn resume_target() -> Option<Found> {
    let all = course(&lessons_dir());
    let progress = progress::Progress::load();
    let done = |f: &Found| progress.get(&f.slug).is_some_and(|e| e.done);
    if let Some(k) = progress
        .last
        .as_ref()
        .and_then(|last| all.iter().position(|f| &f.slug == last))
    {
        if !done(&all[k]) {
            return Some(all[k].clone());
        }
        if let Some(f) = all[k + 1..].iter().find(|f| !done(f)) {
            return Some(f.clone());
        }
    }
    all.iter().find(|f| !done(f)).or(all.first()).cloned()
}

/// The lesson after `found` in the course, with its title.
fn next_lesson(found: &Found) -> Option<stepper::NextLesson> {
    found.number?;
    let all = course(&lessons_dir());
    let k = all.iter().position(|f| f.slug == found.slug)?;
    let next = all.get(k + 1)?;
    let title = load(next).ok()?.meta.title;
    Some(stepper::NextLesson {
        arg: short_name(&next.slug).to_string(),
        number: next.number,
        title,
    })
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
                let name = short_name(&f.slug);
                let about = if l.meta.summary.is_empty() {
                    name.to_string()
                } else {
                    format!("{name} · {}", l.meta.summary)
                };
                rows.push((num, format!("{}{gpu}", l.meta.title), minutes, state, about));
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
            "done" => "✓ done".to_string(),
            s => s.to_string(),
        };
        let line = format!("  {num:>2}. {title:<wt$}  {minutes:>6}  {state}");
        let line = render::wrapped(&line, look.width, "", "      ");
        print!(
            "{}",
            line.replace(
                "✓ done",
                &look.paint(nu_ansi_term::Color::Green.normal(), "✓ done")
            )
        );
        if !summary.is_empty() {
            let text = render::wrapped(&summary, look.width, "      ", "      ");
            print!(
                "{}",
                look.paint(nu_ansi_term::Color::DarkGray.normal(), &text)
            );
        }
    }
    print!(
        "{}",
        render::wrapped(
            "Open one with `cudalearn lesson NAME` (its name, as above, or its number); \
             `cudalearn lesson` alone resumes where you stopped.",
            look.width,
            "",
            ""
        )
    );
    0
}

/// `cudalearn lesson [ARG] [--check] [--device D]`; no ARG resumes.
pub fn lesson(arg: Option<&str>, check_only: bool, device: Option<DeviceKind>, hints: bool) -> i32 {
    let found = match arg {
        Some(arg) => find(arg),
        None if check_only => {
            Err("--check needs a lesson: `cudalearn lesson 1 --check` (or --check-all)".into())
        }
        None => resume_target().ok_or_else(|| {
            format!(
                "no lessons found in {} (set CUDALEARN_LESSONS to the course folder)",
                lessons_dir().display()
            )
        }),
    };
    let found = match found {
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
    let next = next_lesson(&found);
    let short = if found.number.is_some() {
        short_name(&found.slug).to_string()
    } else {
        found.shown.clone()
    };
    stepper::Stepper {
        lesson: &lesson,
        slug: found.slug,
        short,
        device,
        note,
        hints,
        look,
        next,
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
