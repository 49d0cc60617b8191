//! Where the learner is in each lesson: `progress.txt` in the user's data directory
//! (`$CUDALEARN_DATA_DIR`, else the platform's data dir + `cudalearn`). Written to a temporary
//! file and renamed over the old one, so a crash never leaves half a file. A file that is not
//! ours or is damaged is reported, kept beside as `progress.txt.bad`, and replaced.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const HEADER: &str = "# cudalearn progress v1";
const FILE: &str = "progress.txt";

/// One lesson's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The step (section) the learner is at.
    pub step: usize,
    /// How many steps the lesson had then.
    pub total: usize,
    pub done: bool,
}

#[derive(Debug, Default)]
pub struct Progress {
    pub path: Option<PathBuf>,
    /// By lesson slug (the file name without `.md`).
    pub lessons: BTreeMap<String, Entry>,
    /// The lesson opened last: `cudalearn lesson` with no name resumes it.
    pub last: Option<String>,
}

/// The line that records the lesson opened last.
const LAST: &str = "@last\t";

/// The data directory, made if needed; `None` when there is none (progress is then not kept).
pub fn data_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("CUDALEARN_DATA_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => dirs::data_dir()?.join("cudalearn"),
    };
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir)
}

impl Progress {
    /// Reads the progress file; problems are reported on stderr and give an empty state.
    pub fn load() -> Progress {
        let Some(dir) = data_dir() else {
            return Progress::default();
        };
        let path = dir.join(FILE);
        let mut p = Progress {
            path: Some(path.clone()),
            ..Progress::default()
        };
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return p,
            Err(e) => {
                eprintln!(
                    "cudalearn: cannot read {}: {e}; starting afresh",
                    path.display()
                );
                return p;
            }
        };
        match parse(&bytes) {
            Ok((lessons, last)) => {
                p.lessons = lessons;
                p.last = last;
            }
            Err(why) => {
                let bad = path.with_extension("txt.bad");
                let kept = std::fs::rename(&path, &bad).is_ok();
                eprintln!(
                    "cudalearn: the progress file {} {why}; it will be replaced{}",
                    path.display(),
                    if kept {
                        format!(" (the old one is kept as {})", bad.display())
                    } else {
                        String::new()
                    }
                );
            }
        }
        p
    }

    pub fn get(&self, slug: &str) -> Option<Entry> {
        self.lessons.get(slug).copied()
    }

    /// Records and saves; a failure to save is reported, never fatal.
    pub fn set(&mut self, slug: &str, entry: Entry) {
        self.lessons.insert(slug.to_string(), entry);
        self.save();
    }

    /// Records the lesson opened last, and saves.
    pub fn set_last(&mut self, slug: &str) {
        self.last = Some(slug.to_string());
        self.save();
    }

    fn save(&mut self) {
        if let Some(path) = &self.path {
            if let Err(e) = write_atomic(path, &self.to_text()) {
                eprintln!("cudalearn: cannot save progress to {}: {e}", path.display());
                self.path = None;
            }
        }
    }

    pub fn to_text(&self) -> String {
        let mut s = format!("{HEADER}\n# lesson\tstep\tof\tdone\n");
        for (slug, e) in &self.lessons {
            s.push_str(&format!(
                "{slug}\t{}\t{}\t{}\n",
                e.step,
                e.total,
                u8::from(e.done)
            ));
        }
        if let Some(last) = &self.last {
            s.push_str(&format!("{LAST}{last}\n"));
        }
        s
    }
}

/// The entries of a progress file and the lesson opened last.
pub type Parsed = (BTreeMap<String, Entry>, Option<String>);

/// Why a file is not a progress file we wrote, or its entries.
pub fn parse(bytes: &[u8]) -> Result<Parsed, String> {
    if bytes.len() > 1 << 20 {
        return Err("is too large to be a cudalearn progress file".into());
    }
    let text = std::str::from_utf8(bytes).map_err(|_| "is not text".to_string())?;
    let mut lines = text.lines();
    if lines.next().map(str::trim_end) != Some(HEADER) {
        return Err("was not written by cudalearn (no progress header)".into());
    }
    let mut out = BTreeMap::new();
    let mut last = None;
    for (n, line) in lines.enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(slug) = line.strip_prefix(LAST) {
            last = Some(slug.trim().to_string()).filter(|s| !s.is_empty());
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let num = |s: &str| s.trim().parse::<usize>().ok();
        match f.as_slice() {
            [slug, step, total, done] if !slug.is_empty() => {
                let (Some(step), Some(total), Some(done)) = (num(step), num(total), num(done))
                else {
                    return Err(format!("is damaged (line {})", n + 2));
                };
                out.insert(
                    slug.to_string(),
                    Entry {
                        step,
                        total,
                        done: done == 1,
                    },
                );
            }
            _ => return Err(format!("is damaged (line {})", n + 2)),
        }
    }
    Ok((out, last))
}

/// Writes `text` to a temporary file beside `path`, then renames it over `path`.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rejects() {
        let mut p = Progress::default();
        p.lessons.insert(
            "01-devices".into(),
            Entry {
                step: 3,
                total: 7,
                done: false,
            },
        );
        p.last = Some("01-devices".into());
        let (back, last) = parse(p.to_text().as_bytes()).unwrap();
        assert_eq!(back, p.lessons);
        assert_eq!(last.as_deref(), Some("01-devices"));
        assert!(parse(b"{\"json\": 1}")
            .unwrap_err()
            .contains("not written by cudalearn"));
        assert!(parse(format!("{HEADER}\nx\ty\n").as_bytes())
            .unwrap_err()
            .contains("damaged"));
        assert!(parse(&[0xff, 0xfe]).unwrap_err().contains("not text"));
    }
}
