//! The caching allocator, shared by the real GPU and the simulated one.
//!
//! It follows PyTorch's `c10/cuda/CUDACachingAllocator.cpp` (DeviceCachingAllocator, default
//! configuration: no expandable segments, `max_split_size` unlimited, one stream) so that
//! `memory_allocated`, `memory_reserved`, their peaks, `empty_cache` and the OOM message read
//! exactly as in PyTorch:
//! - every request is rounded up to a multiple of 512 bytes;
//! - requests up to 1 MiB come from the small pool, packed into 2 MiB segments; larger ones from
//!   the large pool, where a request under 10 MiB gets a 20 MiB segment and a bigger one a
//!   segment rounded up to 2 MiB;
//! - a free block is chosen by best fit (smallest size, then lowest address) and split when the
//!   rest is worth keeping (small pool: at least 512 bytes left; large pool: more than 1 MiB);
//! - a freed block merges with free neighbours of its segment;
//! - when the device (or the per-process fraction) has no room, every cached segment that is
//!   entirely free is released and the allocation retried once; then it is an OOM.
//!
//! The allocator only does bookkeeping over addresses; the `RawAllocator` (cudaMalloc on a card,
//! a host-side counter for the simulated GPU) provides the segments.
use std::collections::{BTreeSet, HashMap};

/// All sizes are rounded to at least 512 bytes.
pub const MIN_BLOCK_SIZE: u64 = 512;
/// The largest "small" allocation is 1 MiB.
pub const SMALL_SIZE: u64 = 1 << 20;
/// "Small" allocations are packed in 2 MiB segments.
pub const SMALL_BUFFER: u64 = 2 << 20;
/// "Large" allocations under `MIN_LARGE_ALLOC` are packed in 20 MiB segments.
pub const LARGE_BUFFER: u64 = 20 << 20;
/// Allocations between 1 and 10 MiB may use `LARGE_BUFFER`.
pub const MIN_LARGE_ALLOC: u64 = 10 << 20;
/// Large allocations of 10 MiB and more are rounded up to 2 MiB.
pub const ROUND_LARGE: u64 = 2 << 20;

/// Why the device gave no segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawError {
    /// `CUDA_ERROR_OUT_OF_MEMORY`: no room (the caching allocator frees its cache and retries,
    /// then reports PyTorch's out-of-memory text).
    OutOfMemory,
    /// Any other driver error, reported as that error.
    Driver(String),
}

/// Where segments come from: `cudaMalloc`/`cudaFree`/`cudaMemGetInfo` on a card.
pub trait RawAllocator {
    /// A new segment of `size` bytes.
    fn malloc(&mut self, size: u64) -> Result<u64, RawError>;
    /// Give back a segment `malloc` returned.
    fn free(&mut self, ptr: u64, size: u64);
    /// `(free, total)` bytes of the device, as `cudaMemGetInfo` reports them.
    fn mem_info(&self) -> (u64, u64);
    /// PyTorch's per-process line in the OOM message (from NVML), or nothing.
    fn process_info(&self) -> String {
        String::new()
    }
}

/// A boxed raw allocator (the CUDA backend keeps real cards and the host-backed test device in
/// one list).
impl RawAllocator for Box<dyn RawAllocator + Send> {
    fn malloc(&mut self, size: u64) -> Result<u64, RawError> {
        (**self).malloc(size)
    }
    fn free(&mut self, ptr: u64, size: u64) {
        (**self).free(ptr, size)
    }
    fn mem_info(&self) -> (u64, u64) {
        (**self).mem_info()
    }
    fn process_info(&self) -> String {
        (**self).process_info()
    }
}

/// One statistic as PyTorch keeps it (`current`, `peak`, `allocated` = total added, `freed`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stat {
    pub current: i64,
    pub peak: i64,
    pub allocated: i64,
    pub freed: i64,
}

impl Stat {
    fn increase(&mut self, amount: u64) {
        self.current += amount as i64;
        self.peak = self.peak.max(self.current);
        self.allocated += amount as i64;
    }
    fn decrease(&mut self, amount: u64) {
        self.current -= amount as i64;
        self.freed += amount as i64;
    }
    fn reset_peak(&mut self) {
        self.peak = self.current;
    }
    fn reset_accumulated(&mut self) {
        self.allocated = 0;
        self.freed = 0;
    }
}

/// A statistic for all pools, the large pool and the small pool (PyTorch's `StatArray`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatArray {
    pub all: Stat,
    pub large_pool: Stat,
    pub small_pool: Stat,
}

impl StatArray {
    fn increase(&mut self, small: bool, amount: u64) {
        self.all.increase(amount);
        self.pool(small).increase(amount);
    }
    fn decrease(&mut self, small: bool, amount: u64) {
        self.all.decrease(amount);
        self.pool(small).decrease(amount);
    }
    fn pool(&mut self, small: bool) -> &mut Stat {
        if small {
            &mut self.small_pool
        } else {
            &mut self.large_pool
        }
    }
    fn each(&mut self, f: impl Fn(&mut Stat)) {
        f(&mut self.all);
        f(&mut self.large_pool);
        f(&mut self.small_pool);
    }
}

/// PyTorch's `DeviceStats` (the keys of `torch.cuda.memory_stats()`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeviceStats {
    pub allocation: StatArray,
    pub segment: StatArray,
    pub active: StatArray,
    pub inactive_split: StatArray,
    pub allocated_bytes: StatArray,
    pub reserved_bytes: StatArray,
    pub active_bytes: StatArray,
    pub inactive_split_bytes: StatArray,
    pub requested_bytes: StatArray,
    pub oversize_allocations: Stat,
    pub oversize_segments: Stat,
    pub num_alloc_retries: u64,
    pub num_ooms: u64,
}

impl DeviceStats {
    /// Applies `f` to every statistic (each pool's entry of the arrays, and the oversize ones).
    fn each_stat(&mut self, f: fn(&mut Stat)) {
        for a in [
            &mut self.allocation,
            &mut self.segment,
            &mut self.active,
            &mut self.inactive_split,
            &mut self.allocated_bytes,
            &mut self.reserved_bytes,
            &mut self.active_bytes,
            &mut self.inactive_split_bytes,
            &mut self.requested_bytes,
        ] {
            a.each(f);
        }
        f(&mut self.oversize_allocations);
        f(&mut self.oversize_segments);
    }
}

#[derive(Clone, Debug)]
struct Block {
    size: u64,
    requested: u64,
    small: bool,
    allocated: bool,
    prev: Option<u64>,
    next: Option<u64>,
}

impl Block {
    fn is_split(&self) -> bool {
        self.prev.is_some() || self.next.is_some()
    }
}

/// A failed allocation: PyTorch's OutOfMemoryError text, or the driver's own error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AllocError {
    OutOfMemory(String),
    Driver(String),
}

impl AllocError {
    /// The text shown to the learner.
    pub fn message(&self) -> &str {
        match self {
            AllocError::OutOfMemory(m) | AllocError::Driver(m) => m,
        }
    }
}

/// One device's caching allocator.
pub struct CachingAllocator<R: RawAllocator> {
    raw: R,
    device: u32,
    /// Every block, free or allocated, by address.
    blocks: HashMap<u64, Block>,
    /// Free blocks of each pool ordered for best fit: (size, address).
    small_free: BTreeSet<(u64, u64)>,
    large_free: BTreeSet<(u64, u64)>,
    stats: DeviceStats,
    /// Bytes of all segments held (PyTorch's `total_allocated_memory`).
    total_reserved: u64,
    /// `set_per_process_memory_fraction`: the cap in bytes, once set.
    allowed_max: Option<u64>,
    /// The math libraries' workspaces taken so far (`hold`): name and address.
    held: Vec<(&'static str, u64)>,
}

/// Round a request as `round_size` does (no `roundup_power2_divisions` configured).
pub fn round_size(size: u64) -> u64 {
    if size < MIN_BLOCK_SIZE {
        MIN_BLOCK_SIZE
    } else {
        size.div_ceil(MIN_BLOCK_SIZE) * MIN_BLOCK_SIZE
    }
}

/// The segment size a rounded request makes the allocator ask the device for.
pub fn allocation_size(size: u64) -> u64 {
    if size <= SMALL_SIZE {
        SMALL_BUFFER
    } else if size < MIN_LARGE_ALLOC {
        LARGE_BUFFER
    } else {
        size.div_ceil(ROUND_LARGE) * ROUND_LARGE
    }
}

/// PyTorch's `format_size`: `512 bytes`, `1.50 KiB`, `2.00 MiB`, `2.00 GiB`.
pub fn format_size(size: u64) -> String {
    if size <= 1024 {
        format!("{size} bytes")
    } else if size <= 1048576 {
        format!("{:.2} KiB", size as f64 / 1024.0)
    } else if size <= 1073741824 {
        format!("{:.2} MiB", size as f64 / 1048576.0)
    } else {
        format!("{:.2} GiB", size as f64 / 1073741824.0)
    }
}

impl<R: RawAllocator> CachingAllocator<R> {
    pub fn new(device: u32, raw: R) -> Self {
        CachingAllocator {
            raw,
            device,
            blocks: HashMap::new(),
            small_free: BTreeSet::new(),
            large_free: BTreeSet::new(),
            stats: DeviceStats::default(),
            total_reserved: 0,
            allowed_max: None,
            held: Vec::new(),
        }
    }

    /// Whether the workspace `name` was taken (`hold`).
    pub fn holds(&self, name: &str) -> bool {
        self.held.iter().any(|h| h.0 == name)
    }

    /// Takes `bytes` for the workspace `name` once and keeps them for the allocator's life,
    /// as PyTorch keeps cuBLAS's workspaces (allocated, not cached: `empty_cache()` leaves them).
    pub fn hold(&mut self, name: &'static str, bytes: u64) -> Result<(), AllocError> {
        if !self.holds(name) {
            let ptr = self.malloc(bytes)?;
            self.held.push((name, ptr));
        }
        Ok(())
    }

    /// Frees the held workspaces (ATen's `clearCublasWorkspaces`), as a fresh process starts.
    pub fn release_held(&mut self) {
        for (_, ptr) in std::mem::take(&mut self.held) {
            self.free(ptr);
        }
    }

    pub fn raw(&self) -> &R {
        &self.raw
    }

    pub fn stats(&self) -> &DeviceStats {
        &self.stats
    }

    /// `torch.cuda.memory_allocated()`.
    pub fn allocated(&self) -> u64 {
        self.stats.allocated_bytes.all.current as u64
    }
    /// `torch.cuda.memory_reserved()`.
    pub fn reserved(&self) -> u64 {
        self.stats.reserved_bytes.all.current as u64
    }
    pub fn max_allocated(&self) -> u64 {
        self.stats.allocated_bytes.all.peak as u64
    }
    pub fn max_reserved(&self) -> u64 {
        self.stats.reserved_bytes.all.peak as u64
    }

    fn free_set(&mut self, small: bool) -> &mut BTreeSet<(u64, u64)> {
        if small {
            &mut self.small_free
        } else {
            &mut self.large_free
        }
    }

    /// Allocate `orig_size` bytes (more than 0); the block's address.
    pub fn malloc(&mut self, orig_size: u64) -> Result<u64, AllocError> {
        let size = round_size(orig_size);
        let small = size <= SMALL_SIZE;
        let alloc_size = allocation_size(size);
        let found = match self.get_free_block(small, size) {
            Some(p) => Some(p),
            None => match self.alloc_block(small, alloc_size, false)? {
                Some(p) => Some(p),
                None => {
                    // release_available_cached_blocks does nothing without max_split_size, so:
                    // free every unsplit cached segment and retry.
                    self.release_cached_blocks();
                    self.alloc_block(small, alloc_size, true)?
                }
            },
        };
        let Some(ptr) = found else {
            return Err(self.oom(alloc_size));
        };
        Ok(self.alloc_found_block(ptr, size, orig_size))
    }

    fn oom(&mut self, alloc_size: u64) -> AllocError {
        let (device_free, device_total) = self.raw.mem_info();
        let allowed_info = match self.allowed_max {
            Some(a) => format!("{} allowed; ", format_size(a)),
            None => String::new(),
        };
        self.stats.num_ooms += 1;
        let allocated = self.allocated();
        let reserved = self.reserved();
        // The text of PyTorch 2.15 (libc10_cuda), piece by piece as it is assembled there.
        let message = format!(
            "CUDA out of memory. Tried to allocate {}. GPU {} has a total capacity of {} of which {} is free. {}{}Of the allocated memory {} is allocated by PyTorch, and {} is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)",
            format_size(alloc_size),
            self.device,
            format_size(device_total),
            format_size(device_free),
            self.raw.process_info(),
            allowed_info,
            format_size(allocated),
            format_size(reserved - allocated),
        );
        AllocError::OutOfMemory(message)
    }

    fn get_free_block(&mut self, small: bool, size: u64) -> Option<u64> {
        let set = self.free_set(small);
        let &(bsize, ptr) = set.range((size, 0)..).next()?;
        set.remove(&(bsize, ptr));
        Some(ptr)
    }

    /// A new segment: `None` when there is no room, an error for any other driver failure.
    fn alloc_block(
        &mut self,
        small: bool,
        size: u64,
        retry: bool,
    ) -> Result<Option<u64>, AllocError> {
        if retry {
            self.stats.num_alloc_retries += 1;
        }
        if let Some(max) = self.allowed_max {
            if self.total_reserved + size > max {
                return Ok(None);
            }
        }
        let ptr = match self.raw.malloc(size) {
            Ok(p) => p,
            Err(RawError::OutOfMemory) => return Ok(None),
            Err(RawError::Driver(e)) => return Err(AllocError::Driver(e)),
        };
        self.total_reserved += size;
        self.blocks.insert(
            ptr,
            Block {
                size,
                requested: 0,
                small,
                allocated: false,
                prev: None,
                next: None,
            },
        );
        self.stats.segment.increase(small, 1);
        self.stats.reserved_bytes.increase(small, size);
        Ok(Some(ptr))
    }

    fn should_split(block: &Block, size: u64) -> bool {
        let remaining = block.size - size;
        if block.small {
            remaining >= MIN_BLOCK_SIZE
        } else {
            remaining > SMALL_SIZE
        }
    }

    fn alloc_found_block(&mut self, ptr: u64, size: u64, orig_size: u64) -> u64 {
        let block = self.blocks[&ptr].clone();
        let small = block.small;
        let already_split = block.is_split();
        if Self::should_split(&block, size) {
            // [ptr: size][rest: block.size - size] -> the rest stays free
            let rest_ptr = ptr + size;
            let rest = Block {
                size: block.size - size,
                requested: 0,
                small,
                allocated: false,
                prev: Some(ptr),
                next: block.next,
            };
            if let Some(n) = block.next {
                if let Some(nb) = self.blocks.get_mut(&n) {
                    nb.prev = Some(rest_ptr);
                }
            }
            let rest_size = rest.size;
            self.blocks.insert(rest_ptr, rest);
            self.free_set(small).insert((rest_size, rest_ptr));
            let b = self.blocks.get_mut(&ptr).expect("block exists");
            b.size = size;
            b.next = Some(rest_ptr);
            if already_split {
                self.stats.inactive_split_bytes.decrease(small, size);
            } else {
                self.stats.inactive_split_bytes.increase(small, rest_size);
                self.stats.inactive_split.increase(small, 1);
            }
        } else if already_split {
            self.stats.inactive_split_bytes.decrease(small, block.size);
            self.stats.inactive_split.decrease(small, 1);
        }
        let b = self.blocks.get_mut(&ptr).expect("block exists");
        b.allocated = true;
        b.requested = orig_size;
        let bsize = b.size;
        self.stats.allocation.increase(small, 1);
        self.stats.allocated_bytes.increase(small, bsize);
        self.stats.active.increase(small, 1);
        self.stats.active_bytes.increase(small, bsize);
        self.stats.requested_bytes.increase(small, orig_size);
        ptr
    }

    /// Return a block `malloc` gave out to the cache (unknown addresses are ignored).
    pub fn free(&mut self, ptr: u64) {
        let Some(b) = self.blocks.get_mut(&ptr) else {
            return;
        };
        if !b.allocated {
            return;
        }
        b.allocated = false;
        let (small, size, requested) = (b.small, b.size, b.requested);
        self.stats.allocation.decrease(small, 1);
        self.stats.allocated_bytes.decrease(small, size);

        // free_block: merge with free neighbours, then back into the pool
        let mut ptr = ptr;
        let mut net_blocks: i64 = 0;
        let mut net_bytes: i64 = 0;
        let (prev, next) = (self.blocks[&ptr].prev, self.blocks[&ptr].next);
        for cand in [prev, next].into_iter().flatten() {
            let subsumed = self.try_merge(&mut ptr, cand);
            if subsumed > 0 {
                net_blocks -= 1;
                net_bytes -= subsumed as i64;
            }
        }
        let b = &self.blocks[&ptr];
        let (bsize, split) = (b.size, b.is_split());
        self.free_set(small).insert((bsize, ptr));
        if split {
            net_blocks += 1;
            net_bytes += bsize as i64;
        }
        apply(&mut self.stats.inactive_split, small, net_blocks);
        apply(&mut self.stats.inactive_split_bytes, small, net_bytes);
        self.stats.active.decrease(small, 1);
        self.stats.active_bytes.decrease(small, size);
        self.stats.requested_bytes.decrease(small, requested);
    }

    /// Merge free neighbour `src` into the block at `*dst` (which may move to `src`'s address).
    fn try_merge(&mut self, dst: &mut u64, src: u64) -> u64 {
        let Some(s) = self.blocks.get(&src) else {
            return 0;
        };
        if s.allocated {
            return 0;
        }
        let s = s.clone();
        self.free_set(s.small).remove(&(s.size, src));
        self.blocks.remove(&src);
        let mut d = self.blocks.remove(dst).expect("block exists");
        if d.prev == Some(src) {
            // [src dst]: the merged block starts at src
            d.prev = s.prev;
            if let Some(p) = s.prev {
                if let Some(pb) = self.blocks.get_mut(&p) {
                    pb.next = Some(src);
                }
            }
            if let Some(n) = d.next {
                if let Some(nb) = self.blocks.get_mut(&n) {
                    nb.prev = Some(src);
                }
            }
            *dst = src;
        } else {
            // [dst src]
            d.next = s.next;
            if let Some(n) = s.next {
                if let Some(nb) = self.blocks.get_mut(&n) {
                    nb.prev = Some(*dst);
                }
            }
        }
        d.size += s.size;
        self.blocks.insert(*dst, d);
        s.size
    }

    /// `empty_cache`: give every cached segment that is entirely free back to the device.
    pub fn release_cached_blocks(&mut self) {
        for small in [false, true] {
            let set = if small {
                &self.small_free
            } else {
                &self.large_free
            };
            let whole: Vec<(u64, u64)> = set
                .iter()
                .copied()
                .filter(|(_, p)| !self.blocks[p].is_split())
                .collect();
            for (size, ptr) in whole {
                self.free_set(small).remove(&(size, ptr));
                self.blocks.remove(&ptr);
                self.raw.free(ptr, size);
                self.total_reserved -= size;
                self.stats.segment.decrease(small, 1);
                self.stats.reserved_bytes.decrease(small, size);
            }
        }
    }

    /// `set_per_process_memory_fraction`: cap this process at `fraction` of the device.
    pub fn set_memory_fraction(&mut self, fraction: f64) {
        let (_, total) = self.raw.mem_info();
        self.allowed_max = Some((fraction * total as f64) as u64);
    }

    pub fn memory_fraction(&self) -> f64 {
        match self.allowed_max {
            None => 1.0,
            Some(a) => a as f64 / self.raw.mem_info().1.max(1) as f64,
        }
    }

    /// `reset_peak_memory_stats`.
    pub fn reset_peak_stats(&mut self) {
        self.stats.each_stat(Stat::reset_peak);
    }

    /// `reset_accumulated_memory_stats`.
    pub fn reset_accumulated_stats(&mut self) {
        self.stats.each_stat(Stat::reset_accumulated);
        self.stats.num_alloc_retries = 0;
        self.stats.num_ooms = 0;
    }

    /// Number of blocks handed out and not yet freed.
    pub fn live_blocks(&self) -> usize {
        self.blocks.values().filter(|b| b.allocated).count()
    }
}

fn apply(stat: &mut StatArray, small: bool, net: i64) {
    if net > 0 {
        stat.increase(small, net as u64);
    } else if net < 0 {
        stat.decrease(small, (-net) as u64);
    }
}

/// `torch.cuda.memory_summary()`: the table of `torch/cuda/memory.py`, line for line.
pub fn memory_summary(device: u32, s: &DeviceStats, abbreviated: bool) -> String {
    fn fmt_size(sz: i64, pref: i64) -> String {
        let prefixes = ["B  ", "KiB", "MiB", "GiB", "TiB", "PiB"];
        let mut prefix = prefixes[0];
        let (mut sz, mut pref) = (sz, pref as f64);
        for p in &prefixes[1..] {
            if pref < 768.0 * 1024.0 {
                break;
            }
            prefix = p;
            sz = sz.div_euclid(1024);
            pref /= 1024.0;
        }
        format!("{sz:6} {prefix}")
    }
    fn fmt_count(c: i64, pref: i64) -> String {
        let prefixes = [" ", "K", "M"];
        let mut prefix = prefixes[0];
        let (mut c, mut pref) = (c, pref as f64);
        for p in &prefixes[1..] {
            if pref < 750.0 * 1000.0 {
                break;
            }
            prefix = p;
            c = c.div_euclid(1000);
            pref /= 1000.0;
        }
        format!("{c:7} {prefix} ")
    }
    type Fmt = fn(i64, i64) -> String;
    let metrics: [(&StatArray, &str, Fmt); 9] = [
        (&s.allocated_bytes, "Allocated memory", fmt_size),
        (&s.active_bytes, "Active memory", fmt_size),
        (&s.requested_bytes, "Requested memory", fmt_size),
        (&s.reserved_bytes, "GPU reserved memory", fmt_size),
        (&s.inactive_split_bytes, "Non-releasable memory", fmt_size),
        (&s.allocation, "Allocations", fmt_count),
        (&s.active, "Active allocs", fmt_count),
        (&s.segment, "GPU reserved segments", fmt_count),
        (&s.inactive_split, "Non-releasable allocs", fmt_count),
    ];
    let eq = "=".repeat(75);
    let dash = "-".repeat(75);
    let mut lines = vec![
        eq.clone(),
        format!(
            " {:16} PyTorch CUDA memory summary, device ID {:<17} ",
            "", device
        ),
        dash.clone(),
        format!(
            "  {:9} CUDA OOMs: {:<12} | {:6} cudaMalloc retries: {:<8}  ",
            "", s.num_ooms, "", s.num_alloc_retries
        ),
        eq.clone(),
        "        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  ".to_string(),
    ];
    for (arr, name, f) in metrics {
        lines.push(dash.clone());
        let large = format!("{:<21}", "      from large pool");
        let small = format!("{:<21}", "      from small pool");
        let mut subs = vec![(arr.all, format!("{name:<21}"))];
        if !abbreviated {
            subs.push((arr.large_pool, large));
            subs.push((arr.small_pool, small));
        }
        let pref = arr.all;
        for (st, label) in subs {
            lines.push(format!(
                " {label} | {} | {} | {} | {} ",
                f(st.current, pref.current),
                f(st.peak, pref.peak),
                f(st.allocated, pref.allocated),
                f(st.freed, pref.freed)
            ));
        }
    }
    for (st, name) in [
        (s.oversize_allocations, "Oversize allocations"),
        (s.oversize_segments, "Oversize GPU segments"),
    ] {
        lines.push(dash.clone());
        lines.push(format!(
            " {name:<21} | {} | {} | {} | {} ",
            fmt_count(st.current, st.current),
            fmt_count(st.peak, st.peak),
            fmt_count(st.allocated, st.allocated),
            fmt_count(st.freed, st.freed)
        ));
    }
    lines.push(eq);
    format!("|{}|\n", lines.join("|\n|"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A device of `total` bytes handing out addresses from a counter.
    struct Fake {
        total: u64,
        used: u64,
        next: u64,
        live: HashMap<u64, u64>,
    }
    impl RawAllocator for Fake {
        fn malloc(&mut self, size: u64) -> Result<u64, RawError> {
            if self.used + size > self.total {
                return Err(RawError::OutOfMemory);
            }
            let p = self.next;
            self.next += size.next_multiple_of(1 << 21) + (1 << 21);
            self.used += size;
            self.live.insert(p, size);
            Ok(p)
        }
        fn free(&mut self, ptr: u64, size: u64) {
            assert_eq!(self.live.remove(&ptr), Some(size));
            self.used -= size;
        }
        fn mem_info(&self) -> (u64, u64) {
            (self.total - self.used, self.total)
        }
    }
    const GIB: u64 = 1 << 30;
    const MIB: u64 = 1 << 20;

    fn alloc(total: u64) -> CachingAllocator<Fake> {
        CachingAllocator::new(
            0,
            Fake {
                total,
                used: 0,
                next: 1 << 32,
                live: HashMap::new(),
            },
        )
    }

    #[test]
    fn rounding_rules() {
        assert_eq!(round_size(1), 512);
        assert_eq!(round_size(512), 512);
        assert_eq!(round_size(513), 1024);
        assert_eq!(allocation_size(512), SMALL_BUFFER);
        assert_eq!(allocation_size(MIB), SMALL_BUFFER);
        assert_eq!(allocation_size(MIB + 512), LARGE_BUFFER);
        assert_eq!(allocation_size(10 * MIB - 512), LARGE_BUFFER);
        assert_eq!(allocation_size(10 * MIB), 10 * MIB);
        assert_eq!(allocation_size(10 * MIB + 512), 12 * MIB);
    }

    #[test]
    fn format_size_like_pytorch() {
        assert_eq!(format_size(512), "512 bytes");
        assert_eq!(format_size(1024), "1024 bytes");
        assert_eq!(format_size(1536), "1.50 KiB");
        assert_eq!(format_size(MIB), "1024.00 KiB");
        assert_eq!(format_size(2 * MIB), "2.00 MiB");
        assert_eq!(format_size(GIB), "1024.00 MiB");
        assert_eq!(format_size(2 * GIB), "2.00 GiB");
        assert_eq!(format_size(80 * GIB - 3 * MIB), "80.00 GiB");
        assert_eq!(format_size(80 * GIB - 30 * MIB), "79.97 GiB");
    }

    #[test]
    fn one_float() {
        let mut a = alloc(16 * GIB);
        let p = a.malloc(4).unwrap();
        assert_eq!((a.allocated(), a.reserved()), (512, 2 * MIB));
        a.free(p);
        assert_eq!((a.allocated(), a.reserved()), (0, 2 * MIB));
        assert_eq!(a.max_allocated(), 512);
        a.release_cached_blocks();
        assert_eq!(a.reserved(), 0);
        assert_eq!(a.max_reserved(), 2 * MIB);
    }

    #[test]
    fn small_blocks_share_a_segment_and_merge_back() {
        let mut a = alloc(16 * GIB);
        let x = a.malloc(4).unwrap();
        let y = a.malloc(1000).unwrap();
        assert_eq!(y, x + 512, "split from the same 2 MiB segment");
        assert_eq!((a.allocated(), a.reserved()), (512 + 1024, 2 * MIB));
        a.free(x);
        a.free(y);
        // fully merged again: one free unsplit segment, which empty_cache releases
        assert_eq!(a.stats().inactive_split.all.current, 0);
        a.release_cached_blocks();
        assert_eq!(a.reserved(), 0);
        assert_eq!(a.live_blocks(), 0);
    }

    #[test]
    fn three_mib_tensor_takes_a_20_mib_segment() {
        let mut a = alloc(16 * GIB);
        let p = a.malloc(3 * MIB).unwrap();
        assert_eq!((a.allocated(), a.reserved()), (3 * MIB, 20 * MIB));
        // the 17 MiB rest is split off and serves the next large request
        let q = a.malloc(3 * MIB).unwrap();
        assert_eq!(q, p + 3 * MIB);
        assert_eq!(a.reserved(), 20 * MIB);
        a.free(p);
        a.free(q);
        a.release_cached_blocks();
        assert_eq!(a.reserved(), 0);
    }

    #[test]
    fn free_then_reuse_keeps_reserved() {
        let mut a = alloc(16 * GIB);
        let p = a.malloc(40 * MIB).unwrap();
        assert_eq!(a.reserved(), 40 * MIB);
        a.free(p);
        let q = a.malloc(40 * MIB).unwrap();
        assert_eq!(p, q);
        assert_eq!(a.reserved(), 40 * MIB);
        assert_eq!(a.stats().segment.all.current, 1);
        // a large block is not split for a remainder of 1 MiB or less
        a.free(q);
        let r = a.malloc(39 * MIB).unwrap();
        assert_eq!(a.allocated(), 40 * MIB);
        a.free(r);
    }

    #[test]
    fn peaks_and_reset() {
        let mut a = alloc(16 * GIB);
        let p = a.malloc(100 * MIB).unwrap();
        a.free(p);
        assert_eq!(a.max_allocated(), 100 * MIB);
        a.reset_peak_stats();
        assert_eq!(a.max_allocated(), 0);
        assert_eq!(a.max_reserved(), 100 * MIB, "still cached");
    }

    #[test]
    fn oom_frees_cache_and_retries_then_reports() {
        let mut a = alloc(GIB);
        let p = a.malloc(600 * MIB).unwrap();
        a.free(p);
        // the cached 600 MiB segment is released and the retry succeeds
        let q = a.malloc(700 * MIB).unwrap();
        assert_eq!(a.reserved(), 700 * MIB);
        assert_eq!(a.stats().num_alloc_retries, 1);
        let e = a.malloc(400 * MIB).unwrap_err();
        assert_eq!(
            e.message(),
            "CUDA out of memory. Tried to allocate 400.00 MiB. GPU 0 has a total capacity of 1024.00 MiB of which 324.00 MiB is free. Of the allocated memory 700.00 MiB is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)"
        );
        assert_eq!(a.stats().num_ooms, 1);
        a.free(q);
        a.release_cached_blocks();
        assert_eq!((a.allocated(), a.reserved(), a.live_blocks()), (0, 0, 0));
        assert_eq!(a.raw().used, 0, "nothing leaks after an OOM");
    }

    #[test]
    fn fraction_caps_reservations() {
        let mut a = alloc(16 * GIB);
        a.set_memory_fraction(0.25);
        let p = a.malloc(3 * GIB).unwrap();
        let e = a.malloc(2 * GIB).unwrap_err();
        assert!(
            e.message().starts_with("CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 16.00 GiB of which 13.00 GiB is free. 4.00 GiB allowed; Of the allocated memory 3.00 GiB is allocated by PyTorch, and 0 bytes is reserved"),
            "{}",
            e.message()
        );
        a.free(p);
        assert!(
            a.malloc(2 * GIB).is_ok(),
            "fits once the 3 GiB are freed and released"
        );
    }

    #[test]
    fn summary_has_pytorch_shape() {
        let mut a = alloc(16 * GIB);
        let _p = a.malloc(4).unwrap();
        let s = memory_summary(0, a.stats(), false);
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[0], format!("|{}|", "=".repeat(75)));
        assert_eq!(
            lines[1],
            "|                  PyTorch CUDA memory summary, device ID 0                 |"
        );
        assert!(
            s.contains(
                "| Allocated memory      |    512 B   |    512 B   |    512 B   |      0 B   |"
            ),
            "{s}"
        );
        assert!(
            s.contains(
                "| GPU reserved memory   |   2048 KiB |   2048 KiB |   2048 KiB |      0 B   |"
            ),
            "{s}"
        );
        assert!(lines.iter().all(|l| l.chars().count() == 77), "{s}");
    }
}
