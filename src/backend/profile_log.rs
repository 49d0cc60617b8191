//! What `torch.profiler.profile` and the REPL's `:profile` collect: one entry per op, copy and
//! sync point, and one per `record_function` range, on the thread running the program.
//!
//! CPU ops carry their measured host time. Simulated-GPU ops carry *modelled* times (the host's
//! dispatch or wait, the device's kernel or copy) from `sim_model`; a range's own time is the
//! real time spent in it outside the ops it contains.
use super::sim_model::Step;
use std::cell::RefCell;
use std::time::Instant;

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub name: String,
    /// None: the CPU.
    pub device: Option<u32>,
    pub step: Step,
    pub is_range: bool,
    pub bytes: f64,
    pub self_host_s: f64,
    pub total_host_s: f64,
    pub self_device_s: f64,
    pub total_device_s: f64,
}

struct Open {
    index: usize,
    start: Instant,
    child_real: f64,
    child_host: f64,
    child_device: f64,
}

#[derive(Default)]
struct Log {
    entries: Vec<Entry>,
    open: Vec<Open>,
}

thread_local! {
    static LOG: RefCell<Option<Log>> = const { RefCell::new(None) };
}

/// Whether anyone is collecting on this thread (the backends' fast path asks this per op).
static ACTIVE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

pub fn active() -> bool {
    ACTIVE.load(std::sync::atomic::Ordering::Relaxed) > 0 && LOG.with(|l| l.borrow().is_some())
}

/// Start collecting (a profile nested in another restarts it).
pub fn start() {
    LOG.with(|l| {
        let mut l = l.borrow_mut();
        if l.is_none() {
            ACTIVE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        *l = Some(Log::default());
    });
}

/// Stop collecting; the entries in the order they began (open ranges are closed first).
pub fn stop() -> Vec<Entry> {
    while LOG.with(|l| l.borrow().as_ref().is_some_and(|l| !l.open.is_empty())) {
        range_end();
    }
    LOG.with(|l| {
        let taken = l.borrow_mut().take();
        if taken.is_some() {
            ACTIVE.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        }
        taken.map(|l| l.entries).unwrap_or_default()
    })
}

/// One op, copy or sync. `real_s` is the real time it took on this thread (what the ranges
/// around it subtract from their own time).
pub fn push(e: Entry, real_s: f64) {
    LOG.with(|l| {
        let mut l = l.borrow_mut();
        let Some(l) = l.as_mut() else { return };
        for o in &mut l.open {
            o.child_real += real_s;
            o.child_host += e.total_host_s;
            o.child_device += e.total_device_s;
        }
        l.entries.push(e);
    })
}

/// `record_function(name).__enter__`.
pub fn range_start(name: &str) {
    LOG.with(|l| {
        let mut l = l.borrow_mut();
        let Some(l) = l.as_mut() else { return };
        l.open.push(Open {
            index: l.entries.len(),
            start: Instant::now(),
            child_real: 0.0,
            child_host: 0.0,
            child_device: 0.0,
        });
        l.entries.push(Entry {
            name: name.to_string(),
            device: None,
            step: Step::Kernel,
            is_range: true,
            bytes: 0.0,
            self_host_s: 0.0,
            total_host_s: 0.0,
            self_device_s: 0.0,
            total_device_s: 0.0,
        });
    })
}

/// A composite op's own row in `torch.profiler`'s table, around the ops it dispatches to (as
/// PyTorch's shows `aten::mm` inside `aten::matmul`), closed however the op ends.
pub struct Range(bool);

impl Range {
    pub fn open(name: &str) -> Range {
        let on = active();
        if on {
            range_start(name);
        }
        Range(on)
    }
}

impl Drop for Range {
    fn drop(&mut self) {
        if self.0 {
            range_end();
        }
    }
}

/// `record_function.__exit__`: the innermost open range ends.
pub fn range_end() {
    LOG.with(|l| {
        let mut l = l.borrow_mut();
        let Some(l) = l.as_mut() else { return };
        let Some(o) = l.open.pop() else { return };
        let own = (o.start.elapsed().as_secs_f64() - o.child_real).max(0.0);
        let e = &mut l.entries[o.index];
        e.self_host_s = own;
        e.total_host_s = own + o.child_host;
        e.total_device_s = o.child_device;
        // the ranges around it already counted its ops; its own time is new to them
        for p in &mut l.open {
            p.child_real += own;
            p.child_host += own;
        }
    })
}

/// A step of the modelled timeline (called by `sim_model`), when someone is collecting.
pub fn push_modelled(name: &str, device: u32, step: Step, bytes: f64, host_s: f64, device_s: f64) {
    if !active() {
        return;
    }
    push(
        Entry {
            name: name.to_string(),
            device: Some(device),
            step,
            is_range: false,
            bytes,
            self_host_s: host_s,
            total_host_s: host_s,
            self_device_s: device_s,
            total_device_s: device_s,
        },
        0.0,
    );
}

/// Real time spent computing a simulated-GPU op: the ranges around it must not count it as
/// their own, since the op's host time is the modelled one.
pub fn add_real(real_s: f64) {
    if !active() {
        return;
    }
    LOG.with(|l| {
        if let Some(l) = l.borrow_mut().as_mut() {
            for o in &mut l.open {
                o.child_real += real_s;
            }
        }
    })
}

/// A measured op: on the CPU (`device` None), or on a real card, synchronised, so its time is
/// also the device's.
pub fn push_measured(name: &str, device: Option<u32>, step: Step, bytes: f64, real_s: f64) {
    let device_s = if device.is_some() { real_s } else { 0.0 };
    push(
        Entry {
            name: name.to_string(),
            device,
            step,
            is_range: false,
            bytes,
            self_host_s: real_s,
            total_host_s: real_s,
            self_device_s: device_s,
            total_device_s: device_s,
        },
        real_s,
    );
}
