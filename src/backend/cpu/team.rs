//! A small fork-join team for CPU kernels of medium size (matmul splits its work here).
//!
//! Why not rayon: a rayon call from outside its pool wakes the sleeping workers and then puts
//! the caller to sleep until they are done — three futex wake-ups on the critical path, 100–200 µs
//! on a virtual machine, as long as a whole 256×256 matmul (measured: 91–102 GFLOP/s per call
//! through rayon against 180–218 here on 2 cores). Here the calling thread does one share of the
//! work itself, and each helper keeps spinning for a moment after a job, as OpenMP's threads do
//! for MKL, so back-to-back ops start at once; after that it parks and costs nothing.
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::thread::Thread;
use std::time::{Duration, Instant};

/// How long an idle helper spins before parking.
const SPIN: Duration = Duration::from_millis(2);
/// The most helper threads (beyond this, memory bandwidth rather than cores limits matmul).
const MAX_HELPERS: usize = 15;

const IDLE: usize = 0;
const POSTED: usize = 1;
const DONE: usize = 2;

/// One share of work: `f(part)`.
struct Job<'a> {
    f: &'a (dyn Fn(usize) + Sync),
}

struct Slot {
    state: AtomicUsize,
    part: AtomicUsize,
    /// Points at a `Job` on the stack of the thread inside `run`, which waits for `DONE`
    /// before that frame ends.
    job: AtomicPtr<Job<'static>>,
    thread: OnceLock<Thread>,
}

struct Team {
    slots: Vec<&'static Slot>,
    /// One caller at a time (tests run on several threads); others run their parts serially.
    busy: Mutex<()>,
}

fn team() -> &'static Team {
    static TEAM: OnceLock<Team> = OnceLock::new();
    TEAM.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut slots = Vec::new();
        for i in 0..cores.saturating_sub(1).min(MAX_HELPERS) {
            let slot: &'static Slot = Box::leak(Box::new(Slot {
                state: AtomicUsize::new(IDLE),
                part: AtomicUsize::new(0),
                job: AtomicPtr::new(std::ptr::null_mut()),
                thread: OnceLock::new(),
            }));
            let spawned = std::thread::Builder::new()
                .name(format!("cudalearn-cpu-{i}"))
                .spawn(move || helper(slot));
            match spawned {
                Ok(h) => {
                    let _ = slot.thread.set(h.thread().clone());
                    slots.push(slot);
                }
                Err(_) => break, // fewer helpers; the work still gets done
            }
        }
        Team {
            slots,
            busy: Mutex::new(()),
        }
    })
}

fn helper(slot: &'static Slot) {
    loop {
        let idle_since = Instant::now();
        while slot.state.load(Ordering::Acquire) != POSTED {
            if idle_since.elapsed() < SPIN {
                std::hint::spin_loop();
            } else {
                std::thread::park_timeout(Duration::from_millis(100));
            }
        }
        // SAFETY: a POSTED slot's job pointer refers to a live `Job` (see `Slot::job`).
        let job = unsafe { &*slot.job.load(Ordering::Acquire) };
        let part = slot.part.load(Ordering::Relaxed);
        // Kernels do not panic; if one ever did, the caller must still be released.
        let _ = catch_unwind(AssertUnwindSafe(|| (job.f)(part)));
        slot.state.store(DONE, Ordering::Release);
    }
}

/// Threads a `run` can use at once (the caller plus the helpers).
pub fn threads() -> usize {
    team().slots.len() + 1
}

/// Runs `f(0)`, …, `f(parts - 1)`, part 0 on the calling thread and the others on helpers,
/// and returns when all are done. With `parts` beyond `threads()`, or while another thread is
/// using the team, the extra parts run on the caller.
pub fn run(parts: usize, f: &(dyn Fn(usize) + Sync)) {
    let team = team();
    let guard = if parts > 1 && !team.slots.is_empty() {
        team.busy.try_lock().ok()
    } else {
        None
    };
    let helpers = match guard {
        Some(_) => (parts - 1).min(team.slots.len()),
        None => 0,
    };
    let job = Job { f };
    let job_ptr = &job as *const Job<'_> as *mut Job<'static>;
    for (i, slot) in team.slots[..helpers].iter().enumerate() {
        slot.part.store(i + 1, Ordering::Relaxed);
        slot.job.store(job_ptr, Ordering::Relaxed);
        slot.state.store(POSTED, Ordering::Release);
        if let Some(t) = slot.thread.get() {
            t.unpark();
        }
    }
    f(0);
    for p in helpers + 1..parts {
        f(p);
    }
    for slot in &team.slots[..helpers] {
        let waiting = Instant::now();
        while slot.state.load(Ordering::Acquire) != DONE {
            if waiting.elapsed() < Duration::from_millis(1) {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        slot.state.store(IDLE, Ordering::Relaxed);
    }
    drop(guard);
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_part_runs_once() {
        for parts in 1..6 {
            let hits: Vec<AtomicUsize> = (0..parts).map(|_| AtomicUsize::new(0)).collect();
            super::run(parts, &|p| {
                hits[p].fetch_add(1, Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
        }
    }
}
