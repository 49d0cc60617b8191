//! `:profile STMT`: run one statement and show, per op, where it ran and what it cost — kernel
//! launches, bytes moved, host↔device copies and their size, sync points, host and device time
//! (modelled on the simulated GPU) — the hidden costs of small transfers, `.item()` in a loop
//! and tiny kernels.
use super::session::{Flow, Session};
use crate::backend::gpu::GpuKind;
use crate::backend::profile_log::{self, Entry};
use crate::backend::sim_model::Step;

pub fn run(session: &Session, stmt: &str) -> Flow {
    if stmt.is_empty() {
        eprintln!("usage: :profile STATEMENT   (for example  :profile (x @ x).sum().item())");
        return Flow::Continue;
    }
    profile_log::start();
    let flow = session.run_code(&format!("{stmt}\n"), true);
    let entries = profile_log::stop();
    if flow == Flow::Continue {
        print!("{}", report(&entries, crate::backend::gpu::kind()));
    }
    flow
}

#[derive(Default)]
struct Row {
    name: String,
    device: String,
    calls: usize,
    kernels: usize,
    bytes: f64,
    copies: usize,
    copy_bytes: f64,
    syncs: usize,
    host_s: f64,
    device_s: f64,
}

/// The per-op table and its totals; `gpu` says whether GPU times were modelled or measured.
pub fn report(entries: &[Entry], gpu: GpuKind) -> String {
    let mut rows: Vec<Row> = Vec::new();
    let mut modelled = false;
    let mut measured_gpu = false;
    for e in entries.iter().filter(|e| !e.is_range) {
        measured_gpu |=
            e.device.is_some() && crate::backend::gpu::kind() == crate::backend::gpu::GpuKind::Cuda;
        let device = e.device.map_or("cpu".to_string(), |d| format!("cuda:{d}"));
        modelled |= e.device.is_some() && gpu == GpuKind::Simulated;
        let i = match rows
            .iter()
            .position(|r| r.name == e.name && r.device == device)
        {
            Some(i) => i,
            None => {
                rows.push(Row {
                    name: e.name.clone(),
                    device,
                    ..Row::default()
                });
                rows.len() - 1
            }
        };
        let r = &mut rows[i];
        r.calls += 1;
        match e.step {
            Step::Kernel => {
                r.kernels += 1;
                r.bytes += e.bytes;
            }
            Step::HostToDevice | Step::DeviceToHost => {
                r.copies += 1;
                r.copy_bytes += e.bytes;
                r.bytes += e.bytes;
            }
            Step::Sync => r.syncs += 1,
        }
        r.host_s += e.self_host_s;
        r.device_s += e.self_device_s;
    }
    if rows.is_empty() {
        return "(no tensor ops ran)\n".to_string();
    }
    let w = rows.iter().map(|r| r.name.len()).max().unwrap_or(2).max(2);
    let dash = |n: usize| {
        if n == 0 {
            "-".to_string()
        } else {
            n.to_string()
        }
    };
    let mut s = format!(
        "{:<w$}  {:<6}  {:>5}  {:>7}  {:>10}  {:>17}  {:>5}  {:>10}  {:>10}\n",
        "op", "device", "calls", "kernels", "moved", "host<->device", "syncs", "host", "device"
    );
    for r in &rows {
        let copies = if r.copies == 0 {
            "-".to_string()
        } else {
            format!("{} x {}", r.copies, bytes(r.copy_bytes / r.copies as f64))
        };
        let dev = if r.device == "cpu" {
            "-".to_string()
        } else {
            time(r.device_s)
        };
        s += &format!(
            "{:<w$}  {:<6}  {:>5}  {:>7}  {:>10}  {:>17}  {:>5}  {:>10}  {:>10}\n",
            r.name,
            r.device,
            r.calls,
            dash(r.kernels),
            if r.bytes > 0.0 {
                bytes(r.bytes)
            } else {
                "-".into()
            },
            copies,
            dash(r.syncs),
            time(r.host_s),
            dev
        );
    }
    let sum = |f: fn(&Row) -> f64| rows.iter().map(f).sum::<f64>();
    s += &format!(
        "total: {} kernel launches, {} moved, {} host<->device copies ({}), {} sync points; host {}, device {}\n",
        rows.iter().map(|r| r.kernels).sum::<usize>(),
        bytes(sum(|r| r.bytes)),
        rows.iter().map(|r| r.copies).sum::<usize>(),
        bytes(sum(|r| r.copy_bytes)),
        rows.iter().map(|r| r.syncs).sum::<usize>(),
        time(sum(|r| r.host_s)),
        time(sum(|r| r.device_s)),
    );
    if measured_gpu {
        s += "GPU times are measured, with a synchronisation after each op (so the queue never runs ahead).\n";
    }
    if modelled {
        s += &format!(
            "GPU times are MODELLED for a simulated {} (host: launch cost and waits; device: kernels and copies); CPU times are measured.\n",
            crate::backend::sim_model::chosen().name
        );
    }
    s
}

fn bytes(b: f64) -> String {
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.2} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.1} kB", b / 1e3)
    } else {
        format!("{b:.0} B")
    }
}

fn time(s: f64) -> String {
    if s < 1e-3 {
        format!("{:.1} us", s * 1e6)
    } else if s < 1.0 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{s:.3} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(name: &str, step: Step, bytes: f64, host: f64, dev: f64) -> Entry {
        Entry {
            name: name.into(),
            device: Some(0),
            step,
            is_range: false,
            bytes,
            self_host_s: host,
            total_host_s: host,
            self_device_s: dev,
            total_device_s: dev,
        }
    }

    #[test]
    fn rows_count_kernels_copies_and_syncs() {
        let entries = [
            e("aten::add", Step::Kernel, 12.0, 7e-6, 3e-6),
            e("aten::add", Step::Kernel, 12.0, 7e-6, 3e-6),
            e("cudaStreamSynchronize", Step::Sync, 0.0, 1e-6, 0.0),
            e(
                "Memcpy DtoH (Device -> Pageable)",
                Step::DeviceToHost,
                4.0,
                17e-6,
                10e-6,
            ),
        ];
        let r = report(&entries, GpuKind::Simulated);
        let lines: Vec<&str> = r.lines().collect();
        assert!(lines[1].starts_with("aten::add ") && lines[1].contains("cuda:0"));
        assert!(lines[1].contains("24 B") && lines[1].contains("14.0 us"));
        assert!(lines[3].contains("1 x 4 B"));
        assert!(lines[4].starts_with(
            "total: 2 kernel launches, 28 B moved, 1 host<->device copies (4 B), 1 sync points"
        ));
        assert!(lines[5].contains("MODELLED"));
    }
}
