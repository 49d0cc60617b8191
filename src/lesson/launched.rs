//! ```` ```python launch=N ````: a block that runs as N ranks under the launcher
//! (`cudalearn run --nproc-per-node N`), the way a learner runs a distributed script. It does
//! not share the lesson's session (each rank is its own process, as with torchrun).
//!
//! What the ranks print arrives interleaved in whatever order the processes ran; the lesson
//! shows it rank by rank (every `[default0]:` line, then every `[default1]:` line, each
//! rank's lines in their order), so a block's output reads the same on every run. An
//! uncaught error becomes the failing rank's `Type: message` line, as for any block.
use super::session::Ran;
use crate::backend::gpu::{self, GpuKind};
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Runs `code` as `ranks` processes; stops them when Ctrl-C (or `--check`'s watchdog) asks.
pub fn run(code: &str, ranks: u32) -> Ran {
    match launch(code, ranks) {
        Ok(ran) => ran,
        Err(e) => Ran {
            error: Some(format!("RuntimeError: {e}")),
            ..Ran::default()
        },
    }
}

/// The device flags of this lesson for the ranks: the simulated GPU (one per rank at
/// least), none, or the real one.
fn device_flags(ranks: u32) -> Vec<String> {
    match gpu::kind() {
        GpuKind::Simulated => vec![format!("--sim-gpu={}", gpu::device_count().max(ranks))],
        GpuKind::None => vec!["--device=cpu".into()],
        GpuKind::Cuda => vec!["--device=cuda".into()],
    }
}

fn launch(code: &str, ranks: u32) -> Result<Ran, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find cudalearn to launch the ranks: {e}"))?;
    let dir = std::env::temp_dir().join(format!("cudalearn-lesson-{}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("cannot write the block to {}: {e}", dir.display()))?;
    let file = dir.join("block.py");
    std::fs::write(&file, code).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    let mut child = Command::new(exe)
        .args(device_flags(ranks))
        .args([
            "run",
            "--nproc-per-node",
            &ranks.to_string(),
            "--master-port",
            "0",
        ])
        .arg(&file)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the launcher: {e}"))?;
    let mut out = child.stdout.take().ok_or("no stdout")?;
    let mut err = child.stderr.take().ok_or("no stderr")?;
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Ok(Some(s)) = child.try_wait() {
            break Some(s);
        }
        if crate::lang::interp::INTERRUPTED.load(Ordering::SeqCst) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = by_rank(&t_out.join().unwrap_or_default());
    let stderr = t_err.join().unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    let error = match status {
        None => Some("KeyboardInterrupt".to_string()),
        Some(s) if s.success() => None,
        Some(_) => Some(
            stderr
                .lines()
                .find_map(|l| l.strip_prefix("  error     : "))
                .map(str::to_string)
                .unwrap_or_else(|| format!("RuntimeError: the ranks failed:\n{stderr}")),
        ),
    };
    Ok(Ran {
        stdout,
        error,
        ..Ran::default()
    })
}

/// The launcher's prefixed lines grouped by rank (a stable sort on the local rank).
fn by_rank(text: &str) -> String {
    let mut lines: Vec<(u32, &str)> = text
        .lines()
        .map(|l| {
            let rank = l
                .strip_prefix("[default")
                .and_then(|r| r.split_once("]:"))
                .and_then(|(n, _)| n.parse().ok())
                .unwrap_or(u32::MAX);
            (rank, l)
        })
        .collect();
    lines.sort_by_key(|(r, _)| *r);
    lines.iter().map(|(_, l)| format!("{l}\n")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_are_grouped_by_rank_in_order() {
        let t = "[default1]:b1\n[default0]:a1\n[default1]:b2\n[default0]:a2\n";
        assert_eq!(
            super::by_rank(t),
            "[default0]:a1\n[default0]:a2\n[default1]:b1\n[default1]:b2\n"
        );
    }
}
