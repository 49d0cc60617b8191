//! A small fork-join team for CPU kernels of medium size: matmul, and elementwise ops,
//! reductions, softmax and copies above `iter::PAR_THRESHOLD` split their work here.
//!
//! Why not rayon: a rayon call from outside its pool wakes the sleeping workers and then puts
//! the caller to sleep until they are done — three futex wake-ups on the critical path, 100–200 µs
//! on a virtual machine, as long as a whole 256×256 matmul (measured: 91–102 GFLOP/s per call
//! through rayon against 180–218 here on 2 cores). Here the calling thread does one share of the
//! work itself, and each helper keeps spinning for a moment after a job, as OpenMP's threads do
//! for MKL, so back-to-back ops start at once; after that it parks and costs nothing.
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::thread::Thread;
use std::time::{Duration, Instant};

/// How long an idle helper spins before parking.
const SPIN: Duration = Duration::from_millis(2);
/// The most helper threads (beyond this, memory bandwidth rather than cores limits matmul).
const MAX_HELPERS: usize = 15;

const IDLE: usize = 0;
const POSTED: usize = 1;
/// A helper took the job (it will claim parts until none are left, then set `DONE`).
const TAKEN: usize = 2;
const DONE: usize = 3;

/// `f(part)` for parts `0..parts`, claimed one at a time by whoever is free: the caller
/// and every helper that woke in time. A helper still asleep when the work is gone is simply
/// un-posted, so a late wake-up never delays the caller.
///
/// Each thread first tries its own part (the caller part 0, helper `i` part `i + 1`), as
/// OpenMP's static schedule gives each thread the same piece every time: a loop over one
/// tensor then finds its half still in that core's L2 (2 MB a core here, as large as half of a
/// 4 MB operand). Parts left over, or a late helper's, are taken in order by whoever is free.
struct Job<'a> {
    f: &'a (dyn Fn(usize) + Sync),
    /// Bit `p` set: part `p` (< 64) is claimed.
    claimed: AtomicU64,
    /// The next part from 64 on, claimed in order once the first 64 are gone.
    next: AtomicUsize,
    parts: usize,
}

impl Job<'_> {
    fn claim(&self, p: usize) -> bool {
        let bit = 1u64 << p;
        self.claimed.load(Ordering::Relaxed) & bit == 0
            && self.claimed.fetch_or(bit, Ordering::Relaxed) & bit == 0
    }

    /// Runs part `own` (when it is still free), then any others left.
    fn work(&self, own: usize) {
        let low = self.parts.min(64);
        if own < low && self.claim(own) {
            (self.f)(own);
        }
        let all = if low == 64 {
            u64::MAX
        } else {
            (1u64 << low) - 1
        };
        loop {
            let free = !self.claimed.load(Ordering::Relaxed) & all;
            if free == 0 {
                break;
            }
            let p = free.trailing_zeros() as usize;
            if self.claim(p) {
                (self.f)(p);
            }
        }
        loop {
            let p = 64 + self.next.fetch_add(1, Ordering::Relaxed);
            if p >= self.parts {
                return;
            }
            (self.f)(p);
        }
    }
}

struct Slot {
    state: AtomicUsize,
    /// Points at a `Job` on the stack of the thread inside `run`, which takes the job back
    /// (POSTED → IDLE) or waits for `DONE` before that frame ends.
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
                job: AtomicPtr::new(std::ptr::null_mut()),
                thread: OnceLock::new(),
            }));
            let spawned = std::thread::Builder::new()
                .name(format!("cudalearn-cpu-{i}"))
                .spawn(move || helper(slot, i + 1));
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

fn helper(slot: &'static Slot, own: usize) {
    loop {
        let idle_since = Instant::now();
        loop {
            let posted = slot
                .state
                .compare_exchange(POSTED, TAKEN, Ordering::Acquire, Ordering::Relaxed)
                .is_ok();
            if posted {
                break;
            }
            if idle_since.elapsed() < SPIN {
                std::hint::spin_loop();
            } else {
                std::thread::park_timeout(Duration::from_millis(100));
            }
        }
        // SAFETY: a TAKEN slot's job pointer refers to a live `Job`: the caller in `run`
        // waits for `DONE` before its frame (and the job) ends (see `Slot::job`).
        let job = unsafe { &*slot.job.load(Ordering::Acquire) };
        // Kernels do not panic; if one ever did, the caller must still be released.
        let _ = catch_unwind(AssertUnwindSafe(|| job.work(own)));
        slot.state.store(DONE, Ordering::Release);
    }
}

/// Threads a `run` can use at once (the caller plus the helpers).
pub fn threads() -> usize {
    team().slots.len() + 1
}

/// Runs `f(0)`, …, `f(parts - 1)`, each exactly once, on the calling thread and on helpers
/// that are awake (spinning after a recent job) or wake in time; returns when all are done.
/// While another thread is using the team, every part runs on the caller.
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
    let job = Job {
        f,
        claimed: AtomicU64::new(0),
        next: AtomicUsize::new(0),
        parts,
    };
    let job_ptr = &job as *const Job<'_> as *mut Job<'static>;
    for slot in &team.slots[..helpers] {
        slot.job.store(job_ptr, Ordering::Relaxed);
        slot.state.store(POSTED, Ordering::Release);
        if let Some(t) = slot.thread.get() {
            t.unpark();
        }
    }
    job.work(0);
    for slot in &team.slots[..helpers] {
        // Not taken yet: take the post back (the parts are all claimed already).
        if slot
            .state
            .compare_exchange(POSTED, IDLE, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
        {
            continue;
        }
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

/// Runs `task(0)`, …, `task(tasks - 1)` on `workers` parts of the team, each part taking every
/// `workers`-th task from its own (round robin: a part's tasks are spread over the work, so
/// parts of unequal tasks finish together).
pub fn run_tasks(tasks: usize, workers: usize, task: &(dyn Fn(usize) + Sync)) {
    let workers = workers.min(tasks).max(1);
    run(workers, &|p| {
        for t in (p..tasks).step_by(workers) {
            task(t);
        }
    });
}

/// A piece of a split output and its first index, taken once by whichever thread runs it.
type Piece<'a, O> = Mutex<Option<(usize, &'a mut [O])>>;

/// Splits `out` into `parts` nearly equal pieces and runs `body(start, piece)` for each on the
/// team (`start`: the piece's first index in `out`). Pieces are whole multiples of `align`
/// elements (except the last), so vector loops see aligned lengths.
pub fn for_pieces<O: Send>(
    out: &mut [O],
    parts: usize,
    align: usize,
    body: &(dyn Fn(usize, &mut [O]) + Sync),
) {
    let n = out.len();
    let parts = parts.max(1);
    let per = n.div_ceil(parts).div_ceil(align.max(1)) * align.max(1);
    let pieces: Vec<Piece<O>> = out
        .chunks_mut(per.max(1))
        .enumerate()
        .map(|(i, c)| Mutex::new(Some((i * per, c))))
        .collect();
    run(pieces.len(), &|p| {
        let piece = pieces[p].lock().ok().and_then(|mut g| g.take());
        if let Some((start, chunk)) = piece {
            body(start, chunk);
        }
    });
}

/// What `for_piece_pairs` runs on each piece: its start and its share of both outputs.
type PairBody<'f, A, B> = dyn Fn(usize, &mut [A], &mut [B]) + Sync + 'f;

/// `for_pieces` over two outputs of the same length cut at the same places (a reduction's
/// values and indices), so each piece writes both.
pub fn for_piece_pairs<A: Send, B: Send>(
    a: &mut [A],
    b: &mut [B],
    parts: usize,
    body: &PairBody<'_, A, B>,
) {
    assert_eq!(a.len(), b.len());
    let per = a.len().div_ceil(parts.max(1)).max(1);
    type Pair<'a, A, B> = Mutex<Option<(usize, &'a mut [A], &'a mut [B])>>;
    let pieces: Vec<Pair<A, B>> = a
        .chunks_mut(per)
        .zip(b.chunks_mut(per))
        .enumerate()
        .map(|(i, (x, y))| Mutex::new(Some((i * per, x, y))))
        .collect();
    run(pieces.len(), &|p| {
        if let Some((start, x, y)) = pieces[p].lock().ok().and_then(|mut g| g.take()) {
            body(start, x, y);
        }
    });
}

/// Parts for `n` elements of elementwise work: one per thread once each gets at least
/// `min_per_part` elements (below that the hand-off costs more than it saves).
pub fn parts_for(n: usize, min_per_part: usize) -> usize {
    (n / min_per_part.max(1)).clamp(1, threads())
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

    #[test]
    fn every_part_runs_once_past_the_claim_mask() {
        for parts in [63usize, 64, 65, 130] {
            let hits: Vec<AtomicUsize> = (0..parts).map(|_| AtomicUsize::new(0)).collect();
            super::run(parts, &|p| {
                hits[p].fetch_add(1, Ordering::Relaxed);
            });
            assert!(
                hits.iter().all(|h| h.load(Ordering::Relaxed) == 1),
                "{parts}"
            );
        }
    }
}
