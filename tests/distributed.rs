//! torch.distributed across real processes on the loopback: the launcher, the collectives for
//! 1–4 ranks (CPU and simulated GPUs), DDP against one process, and the failures (a rank
//! killed mid-all-reduce, a rank that raises, a rank that never comes, a port in use). Every
//! run has a deadline and a short collective timeout, picks a free port, and is killed if it
//! outlives its deadline, so no test can hang.
use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_cudalearn")
}

fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/distributed")
        .join(name)
}

/// A command of cudalearn with a bounded collective timeout and no GPU from the environment.
fn cudalearn(flags: &[&str]) -> Command {
    let mut c = Command::new(exe());
    c.args(flags)
        .env("CUDALEARN_DIST_TIMEOUT", "20")
        .env_remove("CUDALEARN_SIM_GPU")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Waits for `child` at most `limit` (killing it after), with its output.
fn finish(mut child: Child, limit: Duration) -> (Output, Duration) {
    let start = Instant::now();
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let t_out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the run outlived its {limit:?} deadline");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = start.elapsed();
    let stdout = t_out.join().unwrap_or_default();
    let stderr = t_err.join().unwrap_or_default();
    (
        Output {
            status,
            stdout,
            stderr,
        },
        took,
    )
}

/// `cudalearn FLAGS run --nproc-per-node N --master-port 0 SCRIPT`.
fn launch(flags: &[&str], n: u32, name: &str) -> (Output, Duration) {
    let mut c = cudalearn(flags);
    c.args([
        "run",
        "--nproc-per-node",
        &n.to_string(),
        "--master-port",
        "0",
    ])
    .arg(script(name));
    finish(
        c.spawn().expect("start the launcher"),
        Duration::from_secs(120),
    )
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn collectives_on_one_to_four_ranks() {
    for n in 1..=4u32 {
        let (o, _) = launch(&["--device", "cpu"], n, "collectives.py");
        let out = text(&o.stdout);
        assert!(o.status.success(), "{n} ranks: {out}{}", text(&o.stderr));
        for r in 0..n {
            let line = format!("[default{r}]:rank {r} of {n} ok on cpu\n");
            assert!(out.contains(&line), "{n} ranks, no {line:?} in {out}");
        }
    }
}

#[test]
fn collectives_on_simulated_gpus() {
    let (o, _) = launch(&["--sim-gpu"], 3, "collectives.py");
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}{}", text(&o.stderr));
    for r in 0..3 {
        assert!(
            out.contains(&format!("[default{r}]:rank {r} of 3 ok on cuda\n")),
            "{out}"
        );
    }
}

#[test]
fn seed_ddp_snippet_runs_on_cpu_and_simulated_gpus() {
    for (flags, dev, what) in [
        (&["--device", "cpu"][..], "cpu", "no GPU"),
        (&["--sim-gpu"][..], "cuda", "the simulated GPU"),
    ] {
        let (o, _) = launch(flags, 2, "seed_snippet.py");
        let (out, err) = (text(&o.stdout), text(&o.stderr));
        assert!(o.status.success(), "{out}{err}");
        for r in 0..2 {
            let line =
                format!("[default{r}]:rank {r} on {dev}: gradients equal on every rank: True\n");
            assert!(out.contains(&line), "{out}");
        }
        // nccl without a real GPU runs over TCP, said once, by rank 0
        assert!(
            err.contains(&format!(
                "[default0]:{}",
                script("seed_snippet.py").display()
            )),
            "{err}"
        );
        assert!(
            err.contains(&format!(
                "This process has {what}, so cudalearn runs the collectives over its TCP transport"
            )),
            "{err}"
        );
        assert!(!err.contains("[default1]:"), "{err}");
    }
}

/// The final parameters rank 0 printed.
fn params(o: &Output) -> Vec<f64> {
    let out = text(&o.stdout);
    let line = out
        .lines()
        .find_map(|l| l.split_once("params [").map(|x| x.1))
        .unwrap_or_else(|| panic!("no params in {out}{}", text(&o.stderr)));
    line.trim_end_matches(']')
        .split(", ")
        .map(|v| v.parse().expect("a float"))
        .collect()
}

#[test]
fn ddp_on_two_and_four_ranks_matches_one_process() {
    let mut c = cudalearn(&["--device", "cpu"]);
    c.arg("run").arg(script("ddp_digits.py"));
    let (one, _) = finish(c.spawn().expect("start"), Duration::from_secs(120));
    assert!(one.status.success(), "{}", text(&one.stderr));
    let base = params(&one);
    assert_eq!(base.len(), 64 * 32 + 32 + 32 * 10 + 10);
    for n in [2, 4] {
        let (o, _) = launch(&["--device", "cpu"], n, "ddp_digits.py");
        assert!(o.status.success(), "{}", text(&o.stderr));
        let out = text(&o.stdout);
        for r in 0..n {
            assert!(
                out.contains(&format!("[default{r}]:replicas equal: True")),
                "{out}"
            );
        }
        let got = params(&o);
        let worst = base
            .iter()
            .zip(&got)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        // float32 sums in another order: a few ulps after 56 steps, nowhere near a real change
        assert!(worst < 1e-5, "{n} ranks differ from one process by {worst}");
        assert!(got != vec![0.0; got.len()]);
    }
}

#[test]
fn no_sync_keeps_local_gradients_until_the_next_synced_backward() {
    let (o, _) = launch(&["--device", "cpu"], 2, "ddp_no_sync.py");
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}{}", text(&o.stderr));
    for (r, own) in [(0, "1.0"), (1, "2.0")] {
        assert!(
            out.contains(&format!(
                "[default{r}]:rank {r}: weights equal after wrapping: True"
            )),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "[default{r}]:rank {r}: inside no_sync, own gradient: [[{own}, {own}, {own}]]"
            )),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "[default{r}]:rank {r}: after a synced backward: [[3.0, 3.0, 3.0]] (expected 3.0)"
            )),
            "{out}"
        );
    }
}

#[test]
fn a_rank_killed_mid_all_reduce_fails_the_others_promptly() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let world = 3;
    let mut ranks: Vec<Child> = (0..world)
        .map(|r| {
            let mut c = cudalearn(&["--device", "cpu"]);
            c.arg("run")
                .arg(script("killed.py"))
                // long enough that only the dead peer, not a timeout, can end the others
                .env("CUDALEARN_DIST_TIMEOUT", "100")
                .env("RANK", r.to_string())
                .env("WORLD_SIZE", world.to_string())
                .env("MASTER_ADDR", "127.0.0.1")
                .env("MASTER_PORT", port.to_string());
            c.spawn().expect("start a rank")
        })
        .collect();
    // wait until every rank is inside its all-reduce loop
    let mut outs: Vec<_> = ranks
        .iter_mut()
        .map(|c| c.stdout.take().expect("stdout"))
        .collect();
    for o in outs.iter_mut() {
        let mut b = [0u8; 8];
        o.read_exact(&mut b).expect("each rank says it is looping");
        assert_eq!(&b, b"looping\n");
    }
    let mut victim = ranks.remove(1);
    victim.kill().expect("kill rank 1");
    let _ = victim.wait();
    for (k, c) in ranks.into_iter().enumerate() {
        let (o, took) = finish_err_only(c, Duration::from_secs(30));
        let err = text(&o.stderr);
        assert!(!o.status.success(), "rank {k}: {err}");
        assert!(took < Duration::from_secs(30), "rank {k} took {took:?}");
        assert!(
            err.contains("RuntimeError: Connection closed by peer"),
            "rank {k}: {err}"
        );
        assert!(
            err.contains("hint: a collective needs every rank"),
            "rank {k}: {err}"
        );
    }
}

/// `finish` for a child whose stdout was taken.
fn finish_err_only(mut child: Child, limit: Duration) -> (Output, Duration) {
    child.stdout = None;
    let start = Instant::now();
    let mut err = child.stderr.take().expect("stderr");
    let t = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("a surviving rank hung for {limit:?} after its peer was killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = start.elapsed();
    (
        Output {
            status,
            stdout: Vec::new(),
            stderr: t.join().unwrap_or_default(),
        },
        took,
    )
}

#[test]
fn the_launcher_stops_every_rank_when_one_fails() {
    let (o, took) = launch(&["--device", "cpu"], 3, "one_fails.py");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(took < Duration::from_secs(15), "{took:?}");
    assert!(
        err.contains("[default1]:ValueError: rank 1 gives up"),
        "{err}"
    );
    assert!(err.contains("cudalearn run: ChildFailedError:"), "{err}");
    assert!(err.contains("one_fails.py FAILED"), "{err}");
    assert!(
        err.contains("  rank      : 1 (local_rank: 1)\n  exitcode  : 1 (pid: "),
        "{err}"
    );
    assert!(
        err.contains("  error     : ValueError: rank 1 gives up\n"),
        "{err}"
    );
}

#[test]
fn the_root_cause_is_the_rank_that_failed_first() {
    let (o, took) = launch(&["--device", "cpu"], 4, "exits_mid_loop.py");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(took < Duration::from_secs(15), "{took:?}");
    // the others fail on the dead peer, unless the launcher's SIGTERM stops them first
    assert!(
        !err.contains("[default0]:") || err.contains("RuntimeError: Connection closed by peer"),
        "{err}"
    );
    assert!(
        err.contains("  rank      : 2 (local_rank: 2)\n  exitcode  : 3 (pid: "),
        "{err}"
    );
    assert!(err.contains("  error     : SystemExit: 3\n"), "{err}");
}

#[test]
fn a_rank_that_never_joins_a_collective_times_out() {
    let mut c = cudalearn(&["--device", "cpu"]);
    c.env("CUDALEARN_DIST_TIMEOUT", "2")
        .args(["run", "--nproc-per-node", "2", "--master-port", "0"])
        .arg(script("straggler.py"));
    let (o, took) = finish(c.spawn().expect("start"), Duration::from_secs(60));
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(took < Duration::from_secs(20), "{took:?}");
    assert!(err.contains("[default0]:RuntimeError: Timed out waiting 2000ms for recv operation to complete (all_reduce with rank 1)"), "{err}");
    assert!(err.contains("  rank      : 0 (local_rank: 0)"), "{err}");
}

#[test]
fn a_master_port_in_use_is_reported() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = taken.local_addr().expect("addr").port();
    let mut c = cudalearn(&["--device", "cpu"]);
    c.args([
        "run",
        "--nproc-per-node",
        "2",
        "--master-port",
        &port.to_string(),
    ])
    .arg(script("collectives.py"));
    let (o, took) = finish(c.spawn().expect("start"), Duration::from_secs(60));
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(took < Duration::from_secs(20), "{took:?}");
    assert!(err.contains(&format!("[default0]:RuntimeError: The server socket has failed to listen on any local network address. port: {port}, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use")), "{err}");
    assert!(err.contains("pass --master-port with a free port"), "{err}");
    drop(taken);
}

#[test]
fn launcher_options_are_checked() {
    let mut c = cudalearn(&[]);
    c.args([
        "run",
        "--nproc-per-node",
        "2",
        "--nnodes",
        "2",
        "--node-rank",
        "2",
    ])
    .arg(script("collectives.py"));
    let (o, _) = finish(c.spawn().expect("start"), Duration::from_secs(30));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--node-rank 2 is not in 0..2"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn two_nodes_of_two_make_one_world_of_four() {
    // two launchers on this machine stand for two machines (--nnodes 2, one --node-rank each)
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
        .to_string();
    let node = |k: &str| {
        let mut c = cudalearn(&["--device", "cpu"]);
        c.args([
            "run",
            "--nproc-per-node",
            "2",
            "--nnodes",
            "2",
            "--node-rank",
            k,
        ])
        .args(["--master-addr", "127.0.0.1", "--master-port", &port])
        .arg(script("collectives.py"));
        c.spawn().expect("start a node")
    };
    let (n0, n1) = (node("0"), node("1"));
    let (o0, _) = finish(n0, Duration::from_secs(120));
    let (o1, _) = finish(n1, Duration::from_secs(120));
    let (out0, out1) = (text(&o0.stdout), text(&o1.stdout));
    assert!(
        o0.status.success() && o1.status.success(),
        "{out0}{out1}{}{}",
        text(&o0.stderr),
        text(&o1.stderr)
    );
    for (out, local, rank) in [(&out0, 0, 0), (&out0, 1, 1), (&out1, 0, 2), (&out1, 1, 3)] {
        let line = format!("[default{local}]:rank {rank} of 4 ok on cpu\n");
        assert!(out.contains(&line), "{out}");
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_to_the_launcher_stops_ranks_stuck_in_a_collective() {
    let mut c = cudalearn(&["--device", "cpu"]);
    c.env("CUDALEARN_DIST_TIMEOUT", "100")
        .args(["run", "--nproc-per-node", "2", "--master-port", "0"])
        .arg(script("straggler.py"));
    let child = c.spawn().expect("start");
    // rank 0 waits in all_reduce, rank 1 sleeps: neither ends by itself for a minute
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: kill(2) on our own child's pid, which is not reaped yet.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let (o, took) = finish(child, Duration::from_secs(30));
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert!(
        err.contains("cudalearn run: interrupted (Ctrl-C): every rank was stopped"),
        "{err}"
    );
}
