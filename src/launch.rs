//! `cudalearn run --nproc-per-node N script.py`: the launcher, as `torchrun` is PyTorch's.
//!
//! It starts N copies of this executable, each running the script with RANK, LOCAL_RANK,
//! WORLD_SIZE, LOCAL_WORLD_SIZE, MASTER_ADDR and MASTER_PORT set (RANK = node_rank × N +
//! local rank, so `--nnodes`/`--node-rank` on several machines make one world). Every line a
//! process prints is passed on prefixed with `[default<local rank>]:`, as `torchrun --tee 3`
//! does. When one process fails, the others are stopped (SIGTERM, then SIGKILL after a grace
//! period) and the launcher prints torchrun's failure summary and exits 1. Ctrl-C stops every
//! rank the same way (exit 130): a rank waiting in a collective cannot act on it itself.
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the launcher was asked for.
#[derive(Debug, Clone)]
pub struct Options {
    pub nproc_per_node: u32,
    pub nnodes: u32,
    pub node_rank: u32,
    pub master_addr: String,
    /// 0 = pick a free port (one machine only).
    pub master_port: u16,
    pub script: String,
    /// cudalearn's own flags, passed on to every process (`--sim-gpu=2`, `--no-hints`, ...).
    pub child_flags: Vec<String>,
}

/// How long the others get to stop after one failed, before SIGKILL.
const GRACE: Duration = Duration::from_secs(3);

/// Checks the options; the message says what to change.
pub fn validate(o: &Options) -> Result<(), String> {
    if o.nproc_per_node == 0 {
        return Err("--nproc-per-node must be at least 1".into());
    }
    if o.nnodes == 0 {
        return Err("--nnodes must be at least 1".into());
    }
    if o.node_rank >= o.nnodes {
        return Err(format!(
            "--node-rank {} is not in 0..{} (--nnodes {})",
            o.node_rank, o.nnodes, o.nnodes
        ));
    }
    if o.master_port == 0 && o.nnodes > 1 {
        return Err(
            "--master-port 0 (a free port) works on one machine only: with --nnodes > 1 every node needs the same --master-port".into(),
        );
    }
    if o.script == "-" {
        return Err("the launcher runs a script file, not standard input".into());
    }
    Ok(())
}

/// `--master-port 0`: a listening socket on a free port, made here and handed to rank 0
/// (`CUDALEARN_MASTER_FD`), so no other program can take the port in between.
fn free_port(addr: &str) -> Result<std::net::TcpListener, String> {
    std::net::TcpListener::bind((addr, 0))
        .map_err(|e| format!("cannot find a free port on {addr}: {e}"))
}

/// Lets the child process inherit `listener` (rank 0's master socket) and says which fd it is.
#[cfg(unix)]
fn hand_over(cmd: &mut Command, listener: &std::net::TcpListener) {
    use std::os::unix::io::AsRawFd;
    use std::os::unix::process::CommandExt;
    let fd = listener.as_raw_fd();
    cmd.env(crate::dist::rendezvous::MASTER_FD_VAR, fd.to_string());
    // SAFETY: between fork and exec only fcntl(2), which is async-signal-safe, runs; it
    // clears close-on-exec on this one descriptor so the script's process inherits it.
    unsafe {
        cmd.pre_exec(move || {
            let flags = libc::fcntl(fd, libc::F_GETFD);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC);
            }
            Ok(())
        });
    }
}

#[cfg(not(unix))]
fn hand_over(_cmd: &mut Command, _listener: &std::net::TcpListener) {}

/// Runs the job; returns the launcher's exit status.
pub fn launch(mut o: Options) -> i32 {
    if let Err(e) = validate(&o) {
        eprintln!("cudalearn run: {e}");
        return 2;
    }
    if !std::path::Path::new(&o.script).is_file() {
        eprintln!("cudalearn: can't open file '{}': No such file", o.script);
        return 2;
    }
    let mut master = None;
    if o.master_port == 0 {
        match free_port(&o.master_addr).and_then(|l| {
            let port = l.local_addr().map_err(|e| e.to_string())?.port();
            Ok((l, port))
        }) {
            Ok((l, port)) => {
                o.master_port = port;
                master = Some(l);
            }
            Err(e) => {
                eprintln!("cudalearn run: {e}");
                return 1;
            }
        }
    }
    // Ctrl-C reaches the ranks too, but one waiting in a collective cannot act on it
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("cudalearn run: cannot find this executable to start the ranks: {e}");
            return 1;
        }
    };
    let world = o.nproc_per_node * o.nnodes;
    let mut procs = Vec::new();
    let mut readers = Vec::new();
    let out_lock = Arc::new(Mutex::new(()));
    let errors = ErrorFiles::new();
    for local in 0..o.nproc_per_node {
        let rank = o.node_rank * o.nproc_per_node + local;
        let mut cmd = Command::new(&exe);
        cmd.args(&o.child_flags)
            .arg("run")
            .arg(&o.script)
            .env("RANK", rank.to_string())
            .env("LOCAL_RANK", local.to_string())
            .env("WORLD_SIZE", world.to_string())
            .env("LOCAL_WORLD_SIZE", o.nproc_per_node.to_string())
            .env("MASTER_ADDR", &o.master_addr)
            .env("MASTER_PORT", o.master_port.to_string())
            .env("CUDALEARN_ERROR_FILE", errors.path(local))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let (0, Some(l)) = (rank, &master) {
            hand_over(&mut cmd, l);
        }
        match cmd.spawn() {
            Ok(mut child) => {
                let prefix = format!("[default{local}]:");
                if let Some(out) = child.stdout.take() {
                    readers.push(relay(out, prefix.clone(), false, out_lock.clone()));
                }
                if let Some(err) = child.stderr.take() {
                    readers.push(relay(err, prefix, true, out_lock.clone()));
                }
                procs.push(Proc { child, rank, local });
            }
            Err(e) => {
                eprintln!("cudalearn run: cannot start rank {rank}: {e}");
                stop_all(&mut procs);
                return 1;
            }
        }
    }
    // rank 0 has its own copy of the master socket now
    drop(master);
    let outcome = supervise(procs, &errors);
    for r in readers {
        let _ = r.join();
    }
    match outcome {
        Outcome::Done => 0,
        Outcome::Failed(f) => {
            eprint!("{}", summary(&o.script, &f));
            1
        }
        Outcome::Interrupted => {
            eprintln!("cudalearn run: interrupted (Ctrl-C): every rank was stopped");
            130
        }
    }
}

struct Proc {
    child: Child,
    rank: u32,
    local: u32,
}

/// The first process that failed.
struct Failure {
    rank: u32,
    local: u32,
    pid: u32,
    status: ExitStatus,
    /// When the rank wrote its uncaught error (ns since the epoch), if it did.
    failed_at: Option<u128>,
    /// The last line of its error (`ValueError: ...`), if it wrote one.
    error: Option<String>,
    /// Ended after the launcher began stopping the ranks.
    stopped_by_us: bool,
}

/// Copies a child's output line by line, each line prefixed (lines of different ranks never
/// mix within a line).
fn relay(
    from: impl Read + Send + 'static,
    prefix: String,
    to_stderr: bool,
    lock: Arc<Mutex<()>>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut r = BufReader::new(from);
        let mut line = Vec::new();
        loop {
            line.clear();
            match r.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if !line.ends_with(b"\n") {
                        line.push(b'\n');
                    }
                    let _g = lock.lock().unwrap_or_else(|p| p.into_inner());
                    let mut text = prefix.clone().into_bytes();
                    text.extend_from_slice(&line);
                    let _ = if to_stderr {
                        std::io::stderr().write_all(&text)
                    } else {
                        std::io::stdout()
                            .write_all(&text)
                            .and_then(|_| std::io::stdout().flush())
                    };
                }
            }
        }
    })
}

/// Waits for every process; at the first failure stops the rest. Returns the root cause
/// among the failures (see [`root_cause`]).
fn supervise(procs: Vec<Proc>, errors: &ErrorFiles) -> Outcome {
    use std::sync::mpsc::RecvTimeoutError;
    let (tx, rx) = std::sync::mpsc::channel();
    let mut running = Vec::new();
    for mut p in procs {
        running.push(p.child.id());
        let tx = tx.clone();
        std::thread::spawn(move || {
            let status = p.child.wait();
            let _ = tx.send((p.rank, p.local, p.child.id(), status));
        });
    }
    drop(tx);
    let mut failures = Vec::new();
    // when the grace period after SIGTERM ends (None: nothing is being stopped)
    let mut deadline: Option<Instant> = None;
    let mut killed = false;
    let mut interrupted = false;
    while !running.is_empty() {
        if !interrupted && INTERRUPTED.load(Ordering::SeqCst) {
            // Ctrl-C: ranks blocked in a collective would not see it; stop them all
            interrupted = true;
            running.iter().for_each(|p| signal(*p, false));
            deadline = Some(Instant::now() + GRACE);
        }
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok((rank, local, pid, status)) => {
                running.retain(|p| *p != pid);
                let Ok(status) = status else { continue };
                if status.success() || interrupted {
                    continue;
                }
                let stopped_by_us = deadline.is_some();
                let (failed_at, error) = errors.read(local);
                failures.push(Failure {
                    rank,
                    local,
                    pid,
                    status,
                    failed_at,
                    error,
                    stopped_by_us,
                });
                if deadline.is_none() {
                    running.iter().for_each(|p| signal(*p, false));
                    deadline = Some(Instant::now() + GRACE);
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                if !killed && deadline.is_some_and(|d| Instant::now() >= d) {
                    // the grace period is over: the ones left are killed
                    running.iter().for_each(|p| signal(*p, true));
                    killed = true;
                }
            }
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    if interrupted {
        return Outcome::Interrupted;
    }
    match root_cause(failures) {
        Some(f) => Outcome::Failed(f),
        None => Outcome::Done,
    }
}

/// How the job ended.
enum Outcome {
    Done,
    Failed(Failure),
    /// Ctrl-C: every rank was stopped.
    Interrupted,
}

/// Set by Ctrl-C in the launcher's process.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The failure that caused the others. Ranks fail in a cascade (a dead peer makes its
/// neighbours fail a moment later), and which exit the launcher sees first is up to the
/// scheduler, so each rank writes the time of its uncaught error to its error file (as
/// torchrun's `@record` does): a rank killed by a signal nobody here sent comes first (it
/// wrote nothing), then the earliest error, then the first exit seen.
fn root_cause(mut failures: Vec<Failure>) -> Option<Failure> {
    let killed = |f: &Failure| exit_code(&f.status) < 0 && !f.stopped_by_us;
    failures.sort_by_key(|f| (!killed(f), f.failed_at.unwrap_or(u128::MAX)));
    failures.into_iter().next()
}

/// Where each rank records when it failed (`CUDALEARN_ERROR_FILE`), in a folder of this run.
struct ErrorFiles {
    dir: std::path::PathBuf,
}

impl ErrorFiles {
    fn new() -> ErrorFiles {
        let dir = std::env::temp_dir().join(format!("cudalearn-run-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        ErrorFiles { dir }
    }
    fn path(&self, local: u32) -> std::path::PathBuf {
        self.dir.join(format!("rank{local}.error"))
    }
    /// The time and the error line rank `local` recorded.
    fn read(&self, local: u32) -> (Option<u128>, Option<String>) {
        let text = std::fs::read_to_string(self.path(local)).unwrap_or_default();
        let mut lines = text.lines();
        let time = lines.next().and_then(|t| t.trim().parse().ok());
        (time, lines.next().map(str::to_string))
    }
}

impl Drop for ErrorFiles {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// In a rank started by the launcher: record that this process fails now, with the error's
/// last line (see [`root_cause`]).
pub fn record_failure(exception_line: &str) {
    if let Ok(path) = std::env::var("CUDALEARN_ERROR_FILE") {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let _ = std::fs::write(path, format!("{now}\n{exception_line}\n"));
    }
}

/// Stops every process started so far (a later one could not start).
fn stop_all(procs: &mut [Proc]) {
    for p in procs.iter_mut() {
        let _ = p.child.kill();
        let _ = p.child.wait();
    }
}

/// SIGTERM (or SIGKILL) to a child not known to have exited. (Its waiting thread may have
/// reaped it a moment ago; the pid could be reused only within that moment.)
#[cfg(unix)]
fn signal(pid: u32, kill: bool) {
    let sig = if kill { libc::SIGKILL } else { libc::SIGTERM };
    // SAFETY: kill(2) has no memory effects; the pid is one of our children (see above).
    unsafe {
        libc::kill(pid as libc::pid_t, sig);
    }
}

#[cfg(not(unix))]
fn signal(_pid: u32, _kill: bool) {}

fn exit_code(s: &ExitStatus) -> i32 {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            return -sig;
        }
    }
    s.code().unwrap_or(1)
}

/// torchrun's `ChildFailedError` report, without the host and time.
fn summary(script: &str, f: &Failure) -> String {
    let name = std::path::Path::new(script)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| script.to_string());
    let code = exit_code(&f.status);
    let rule = "=".repeat(60);
    let thin = "-".repeat(60);
    let mut signal = if code < 0 {
        format!("\n  signal    : {} received by PID {}", -code, f.pid)
    } else {
        String::new()
    };
    if let Some(e) = &f.error {
        signal.push_str(&format!("\n  error     : {e}"));
    }
    format!(
        "cudalearn run: ChildFailedError:\n{rule}\n{name} FAILED\n{thin}\nRoot Cause (first observed failure):\n[0]:\n  rank      : {} (local_rank: {})\n  exitcode  : {code} (pid: {}){signal}\n{thin}\nThe other ranks were stopped. The error of rank {} is above, prefixed [default{}]:\n{rule}\n",
        f.rank, f.local, f.pid, f.rank, f.local
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> Options {
        Options {
            nproc_per_node: 2,
            nnodes: 1,
            node_rank: 0,
            master_addr: "127.0.0.1".into(),
            master_port: 0,
            script: "x.py".into(),
            child_flags: vec![],
        }
    }

    #[test]
    fn bad_options_are_explained() {
        let mut o = opts();
        assert!(validate(&o).is_ok());
        o.node_rank = 1;
        assert!(validate(&o).unwrap_err().contains("--node-rank 1"));
        o.nnodes = 2;
        assert!(validate(&o).unwrap_err().contains("--master-port 0"));
        o.nproc_per_node = 0;
        assert!(validate(&o).unwrap_err().contains("at least 1"));
    }

    #[test]
    fn free_port_is_bindable() {
        let l = free_port("127.0.0.1").unwrap();
        let p = l.local_addr().unwrap().port();
        assert!(p > 0);
        // held: nobody else can take it before rank 0 has it
        assert!(std::net::TcpListener::bind(("127.0.0.1", p)).is_err());
    }
}
