//! The long-running fuzz driver (stable Rust, no cargo-fuzz):
//!
//! ```text
//! cargo build --release --example fuzz
//! target/release/examples/fuzz --seconds 620 [--seed S] [--out DIR]
//! ```
//!
//! It runs generated programs (token soup, grammar-based programs, mutations of the conformance
//! corpus; see `tests/fuzz/common.rs`) through lexer, parser, resolver and evaluator with a step
//! bound. The work happens in a child process (this same binary with `--child`) so that aborts
//! (failed allocations, stack overflows) and hangs are caught too: the parent watches the child's
//! progress, restarts it after a crash, re-runs the guilty input alone to see whether it
//! reproduces, and writes the first three inputs of every kind of finding (panic location, stack
//! overflow, failed allocation, hang) to `DIR/findings.txt` (default `target/fuzz`) as `# %% name`
//! sections ready to paste into `tests/fuzz_regressions.txt`; `DIR/findings-index.txt` lists all
//! of them by input number (`--show N --seed S --corpus DIR/corpus.txt` prints one).
//!
//! Other modes: `--child --seed S --start N --corpus F` (internal), `--show N --seed S
//! [--corpus DIR/corpus.txt]` (print input N of a run),
//! `--file F` (run every `# %% ` section of F, or F whole, in-process; report panics).
#[path = "../tests/fuzz/common.rs"]
mod common;

use common::{Config, Kind};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const CFG: Config = Config {
    big_allocations: true,
    skip_open_bugs: false,
};

struct Args {
    seconds: u64,
    seed: u64,
    out: std::path::PathBuf,
    child: bool,
    start: u64,
    only: bool,
    show: Option<u64>,
    file: Option<String>,
    hang_secs: u64,
    mem_gib: u64,
    corpus: Option<String>,
}

fn parse_args() -> Args {
    let mut a = Args {
        seconds: 60,
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(1),
        out: std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/target/fuzz")),
        child: false,
        start: 0,
        only: false,
        show: None,
        file: None,
        hang_secs: 10,
        mem_gib: 8,
        corpus: None,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut it = argv.iter();
    while let Some(k) = it.next() {
        let mut val = || it.next().cloned().unwrap_or_default();
        match k.as_str() {
            "--seconds" => a.seconds = val().parse().unwrap_or(60),
            "--seed" => a.seed = val().parse().unwrap_or(1),
            "--out" => a.out = val().into(),
            "--child" => a.child = true,
            "--start" => a.start = val().parse().unwrap_or(0),
            "--only" => a.only = true,
            "--show" => a.show = val().parse().ok(),
            "--file" => a.file = Some(val()),
            "--hang-secs" => a.hang_secs = val().parse().unwrap_or(10),
            "--mem-gib" => a.mem_gib = val().parse().unwrap_or(8),
            "--corpus" => a.corpus = Some(val()),
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    a
}

fn main() {
    let args = parse_args();
    // The parent snapshots the corpus so that every child (and `--show`) sees the same one even
    // if the files change during a run: input numbers stay reproducible.
    let corpus = match &args.corpus {
        Some(f) => common::split_sections(&std::fs::read_to_string(f).expect("read --corpus"))
            .into_iter()
            .map(|(_, body)| body)
            .collect(),
        None => common::load_corpus(),
    };
    if let Some(n) = args.show {
        let (kind, text) = common::generate(args.seed, n, &corpus, CFG);
        println!("# kind: {}\n{text}", kind.name());
        return;
    }
    if let Some(f) = &args.file {
        let text = std::fs::read_to_string(f).expect("cannot read --file");
        let mut sections = common::split_sections(&text);
        if sections.is_empty() {
            sections.push((f.clone(), text));
        }
        let bad = cudalearn::run::with_big_stack(move || {
            common::install_panic_hook();
            let mut bad = 0;
            for (name, body) in sections {
                let t = Instant::now();
                let r = common::run_one(&body);
                let ms = t.elapsed().as_millis();
                match r {
                    Ok(()) => println!("ok     {name} ({ms} ms)"),
                    Err(p) => {
                        bad += 1;
                        println!("PANIC  {name} ({ms} ms): {p}");
                    }
                }
            }
            bad
        });
        std::process::exit(if bad > 0 { 1 } else { 0 });
    }
    if args.child {
        child(args, corpus);
    } else {
        parent(args, corpus);
    }
}

/// Resident set size in bytes (Linux), 0 elsewhere.
fn rss() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map(|pages| pages * 4096)
        .unwrap_or(0)
}

/// Protocol on stdout, one line per event:
/// `R idx kind` before running input idx; `P idx msg` after it panicked; `S idx ms` when it was
/// slow; `D next` when the child retires (to bound leaks: cycles of `Rc`s are never freed).
fn child(args: Args, corpus: Vec<String>) {
    cudalearn::run::with_big_stack(move || {
        common::install_panic_hook();
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let mut idx = args.start;
        loop {
            let (kind, text) = common::generate(args.seed, idx, &corpus, CFG);
            let _ = writeln!(out, "R {idx} {}", kind.name());
            let _ = out.flush();
            let t = Instant::now();
            if let Err(p) = common::run_one(&text) {
                let _ = writeln!(out, "P {idx} {}", p.replace('\n', "\\n"));
            }
            let ms = t.elapsed().as_millis();
            if ms >= 1000 {
                let _ = writeln!(out, "S {idx} {ms}");
            }
            idx += 1;
            if args.only
                || (idx - args.start).is_multiple_of(20_000)
                || (idx.is_multiple_of(256) && rss() > 2 << 30)
            {
                let _ = writeln!(out, "D {idx}");
                let _ = out.flush();
                return;
            }
        }
    });
}

enum Event {
    Line(String),
    Eof,
}

struct Outcome {
    /// Inputs started, with their kinds.
    started: Vec<(u64, String)>,
    panics: Vec<(u64, String)>,
    slow: Vec<(u64, u64)>,
    /// Next input to run after a clean retirement.
    done: Option<u64>,
    hang: bool,
    status: String,
}

fn spawn_child(args: &Args, start: u64, only: bool, deadline: Instant) -> Outcome {
    let exe = std::env::current_exe().expect("current_exe");
    let stderr_path = args.out.join("child-stderr.txt");
    let stderr = std::fs::File::create(&stderr_path).expect("create child-stderr.txt");
    // `ulimit -v` turns absurd allocations into a quick abort instead of swapping the machine.
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!(
            "ulimit -v {} && exec \"$0\" \"$@\"",
            args.mem_gib * 1024 * 1024
        ))
        .arg(exe)
        .args(["--child", "--seed", &args.seed.to_string()])
        .args(["--start", &start.to_string()])
        .arg("--corpus")
        .arg(args.out.join("corpus.txt"));
    if only {
        cmd.arg("--only");
    }
    let mut ch = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(stderr))
        .spawn()
        .expect("spawn child");
    let stdout = ch.stdout.take().expect("child stdout");
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            match line {
                Ok(l) => {
                    if tx.send(Event::Line(l)).is_err() {
                        return;
                    }
                }
                Err(_) => break,
            }
        }
        let _ = tx.send(Event::Eof);
    });
    let mut o = Outcome {
        started: Vec::new(),
        panics: Vec::new(),
        slow: Vec::new(),
        done: None,
        hang: false,
        status: String::new(),
    };
    let mut last = Instant::now();
    loop {
        match rx.recv_timeout(Duration::from_millis(250)) {
            Ok(Event::Line(l)) => {
                last = Instant::now();
                let mut parts = l.splitn(3, ' ');
                let tag = parts.next().unwrap_or("");
                let idx: u64 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
                let rest = parts.next().unwrap_or("").to_string();
                match tag {
                    "R" => o.started.push((idx, rest)),
                    "P" => o.panics.push((idx, rest)),
                    "S" => o.slow.push((idx, rest.parse().unwrap_or(0))),
                    "D" => o.done = Some(idx),
                    _ => {}
                }
                if Instant::now() > deadline && !only {
                    let _ = ch.kill();
                    o.done = o.started.last().map(|s| s.0 + 1);
                    break;
                }
            }
            Ok(Event::Eof) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if last.elapsed() > Duration::from_secs(args.hang_secs) {
                    o.hang = true;
                    let _ = ch.kill();
                    break;
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let status = ch.wait().map(|s| format!("{s}")).unwrap_or_default();
    let _ = reader.join();
    let err = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    // The lines that say what went wrong, without the backtrace.
    let key: Vec<&str> = err
        .lines()
        .filter(|l| {
            l.contains("overflowed its stack")
                || l.contains("memory allocation")
                || l.contains("panicked")
                || l.contains("fatal")
        })
        .take(3)
        .collect();
    o.status = format!("{status}; stderr: {}", key.join(" | "));
    o
}

fn parent(args: Args, corpus: Vec<String>) {
    std::fs::create_dir_all(&args.out).expect("create output directory");
    let findings_path = args.out.join("findings.txt");
    let mut findings = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&findings_path)
        .expect("open findings.txt");
    let snapshot: String = corpus
        .iter()
        .enumerate()
        .map(|(i, body)| format!("# %% c{i}\n{body}"))
        .collect();
    std::fs::write(args.out.join("corpus.txt"), snapshot).expect("write corpus.txt");
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.seconds);
    println!(
        "fuzz: seed {} for {} s, findings in {}",
        args.seed,
        args.seconds,
        findings_path.display()
    );
    let mut next = 0u64;
    let mut per_kind = [0u64; 3];
    let mut n_panics = 0u64;
    let mut n_aborts = 0u64;
    let mut n_hangs = 0u64;
    let mut n_slow = 0u64;
    let mut restarts = 0u64;
    let mut last_report = Instant::now();
    // Findings by signature (panic location, or the kind of abort): only the first few inputs
    // of each are written out, the rest are counted.
    let mut signatures: std::collections::BTreeMap<String, u64> = Default::default();
    let mut index = std::fs::File::create(args.out.join("findings-index.txt"))
        .expect("create findings-index.txt");
    let mut record = |name: String, what: &str, idx: u64, sig: String| {
        let _ = writeln!(index, "{idx}\t{sig}");
        let seen = signatures.entry(sig.clone()).or_insert(0);
        *seen += 1;
        if *seen > 3 {
            return;
        }
        let (kind, text) = common::generate(args.seed, idx, &corpus, CFG);
        let _ = writeln!(
            findings,
            "# %% {name}\n# {what}\n# seed {} input {idx} ({})\n{text}",
            args.seed,
            kind.name()
        );
        let _ = findings.flush();
        println!("FOUND {name}: {what}");
    };
    while Instant::now() < deadline {
        let o = spawn_child(&args, next, false, deadline);
        restarts += 1;
        for (_, k) in &o.started {
            if let Some(i) = Kind::ALL.iter().position(|x| x.name() == k) {
                per_kind[i] += 1;
            }
        }
        for (idx, msg) in &o.panics {
            n_panics += 1;
            let sig = msg.rsplit(" at ").next().unwrap_or(msg).to_string();
            record(
                format!("panic_{}_{idx}", args.seed),
                &format!("panic: {msg}"),
                *idx,
                format!("panic at {sig}"),
            );
        }
        for (idx, ms) in &o.slow {
            n_slow += 1;
            println!("slow input {idx}: {ms} ms");
        }
        match o.done {
            Some(n) => next = n,
            None => {
                // Crashed or hung on the last input it started.
                let Some(&(idx, _)) = o.started.last() else {
                    println!("child failed before running anything: {}", o.status);
                    break;
                };
                let what = if o.hang { "hang" } else { "abort" };
                // Does it reproduce alone, in a fresh process?
                let alone = spawn_child(&args, idx, true, deadline + Duration::from_secs(3600));
                let repro = alone.done.is_none();
                let desc = format!(
                    "{what} ({}), alone: {}",
                    o.status,
                    if repro {
                        format!("reproduces ({})", alone.status)
                    } else {
                        "does not reproduce (cumulative: leaks across inputs?)".to_string()
                    }
                );
                if o.hang {
                    n_hangs += 1;
                } else {
                    n_aborts += 1;
                }
                let sig = if o.hang {
                    "hang".to_string()
                } else if o.status.contains("overflowed its stack") {
                    "abort: stack overflow".to_string()
                } else if o.status.contains("memory allocation") {
                    "abort: allocation failed".to_string()
                } else {
                    format!("abort: {}", o.status)
                };
                record(format!("{what}_{}_{idx}", args.seed), &desc, idx, sig);
                next = idx + 1;
            }
        }
        if last_report.elapsed() > Duration::from_secs(30) {
            last_report = Instant::now();
            println!(
                "[{:>4} s] inputs {} (soup {}, grammar {}, mutation {}), panics {n_panics}, aborts {n_aborts}, hangs {n_hangs}, slow {n_slow}",
                started.elapsed().as_secs(),
                per_kind.iter().sum::<u64>(),
                per_kind[0],
                per_kind[1],
                per_kind[2]
            );
        }
    }
    println!(
        "done in {} s: seed {}, inputs {} (soup {}, grammar {}, mutation {}), child processes {restarts}, panics {n_panics}, aborts {n_aborts}, hangs {n_hangs}, slow (>1 s) {n_slow}",
        started.elapsed().as_secs(),
        args.seed,
        per_kind.iter().sum::<u64>(),
        per_kind[0],
        per_kind[1],
        per_kind[2]
    );
    for (sig, n) in &signatures {
        println!("  {n:>6} x {sig}");
    }
    if n_panics + n_aborts + n_hangs > 0 {
        std::process::exit(1);
    }
}
