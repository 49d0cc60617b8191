//! The virtual machine's state and the rules a real driver enforces: initialisation, contexts
//! (per-thread current context; primary contexts retained and released in balance, destroyed —
//! with their memory, modules and cuBLAS handles — at the last release), device memory
//! (`mmap`'d host memory, range-checked, inaccessible once freed), host registrations, modules.
//! Every broken rule is logged (`violation`) as well as returned, and `VGPU_LOG` gets a summary
//! at exit (kernels launched, NCCL calls and copies counted, events, broken rules).
use crate::config;
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};

pub type CuResult = i32;
pub const SUCCESS: CuResult = 0;
pub const INVALID_VALUE: CuResult = 1;
pub const OUT_OF_MEMORY: CuResult = 2;
pub const NOT_INITIALIZED: CuResult = 3;
pub const NO_DEVICE: CuResult = 100;
pub const INVALID_DEVICE: CuResult = 101;
pub const INVALID_IMAGE: CuResult = 200;
pub const INVALID_CONTEXT: CuResult = 201;
pub const NO_BINARY_FOR_GPU: CuResult = 209;
pub const INVALID_PTX: CuResult = 218;
pub const UNSUPPORTED_PTX_VERSION: CuResult = 222;
pub const INVALID_HANDLE: CuResult = 400;
pub const NOT_FOUND: CuResult = 500;
pub const ILLEGAL_ADDRESS: CuResult = 700;
pub const CONTEXT_IS_DESTROYED: CuResult = 709;
pub const HOST_MEMORY_ALREADY_REGISTERED: CuResult = 712;
pub const HOST_MEMORY_NOT_REGISTERED: CuResult = 713;
pub const LAUNCH_FAILED: CuResult = 719;
pub const NOT_PERMITTED: CuResult = 800;
pub const UNKNOWN: CuResult = 999;

/// A loaded module: the CPU build of its kernels.
pub struct Module {
    pub ctx: usize,
    pub lib: Arc<libloading::Library>,
    /// Kernel name → whether it uses a barrier.
    pub entries: HashMap<String, bool>,
}

pub struct Function {
    pub module: usize,
    pub name: String,
}

#[derive(Default)]
pub struct Device {
    /// Primary-context references; the context exists while this is above zero.
    pub retained: u32,
    /// Bumped each time the primary context is created anew, so stale handles are detected.
    pub generation: u32,
    /// Live allocations: start → length.
    pub allocs: BTreeMap<u64, u64>,
    pub used: u64,
}

#[derive(Default)]
pub struct State {
    pub initialized: bool,
    pub devices: Vec<Device>,
    pub modules: HashMap<usize, Module>,
    pub functions: HashMap<usize, Function>,
    /// cuBLAS handle → the context it was created in.
    pub blas: HashMap<usize, usize>,
    /// Page-locked host ranges: start → (length, flags).
    pub host: BTreeMap<usize, (usize, u32)>,
    next: usize,
    /// Freed blocks kept inaccessible (`PROT_NONE`) before their address space is returned.
    quarantine: VecDeque<(u64, u64)>,
    pub launches: BTreeMap<String, u64>,
    /// NCCL calls made (`nccl.rs`), by name.
    pub nccl: BTreeMap<String, u64>,
    /// Successful copies by driver call (`cuMemcpyDtoH_v2`, ...): (count, bytes), so a test can
    /// tell whether work stayed on the device.
    pub copies: BTreeMap<String, (u64, u64)>,
    pub violations: Vec<String>,
    pub events: Vec<String>,
    pub retains: u64,
    pub releases: u64,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

thread_local! {
    static CURRENT: Cell<usize> = const { Cell::new(0) };
}

pub fn lock() -> StateGuard {
    let mut g = STATE.lock().unwrap_or_else(|e| e.into_inner());
    if g.is_none() {
        *g = Some(State {
            devices: (0..config().devices).map(|_| Device::default()).collect(),
            next: 1,
            ..Default::default()
        });
        // SAFETY: registering a plain extern "C" function to run at exit.
        unsafe { libc::atexit(write_summary) };
    }
    StateGuard(g)
}

pub struct StateGuard(MutexGuard<'static, Option<State>>);

impl std::ops::Deref for StateGuard {
    type Target = State;
    fn deref(&self) -> &State {
        self.0.as_ref().expect("state is made in lock()")
    }
}
impl std::ops::DerefMut for StateGuard {
    fn deref_mut(&mut self) -> &mut State {
        self.0.as_mut().expect("state is made in lock()")
    }
}

/// Context handles: device and generation packed into a non-null pointer value.
pub fn ctx_handle(dev: usize, generation: u32) -> usize {
    ((dev + 1) << 32) | generation as usize
}

pub fn current_ctx() -> usize {
    CURRENT.with(|c| c.get())
}
pub fn set_current_ctx(h: usize) {
    CURRENT.with(|c| c.set(h))
}

impl State {
    pub fn handle(&mut self) -> usize {
        self.next += 1;
        self.next
    }

    /// A rule broken by the caller: remembered for the summary, and the error code returned.
    pub fn violation(&mut self, call: &str, code: CuResult, why: impl Into<String>) -> CuResult {
        self.violations
            .push(format!("{call}: {} ({code})", why.into()));
        code
    }

    /// The device of a live context handle.
    pub fn ctx_device(&self, h: usize) -> Result<usize, CuResult> {
        let dev = (h >> 32).wrapping_sub(1);
        let d = self.devices.get(dev).ok_or(INVALID_CONTEXT)?;
        if d.retained == 0 || d.generation != (h & 0xffff_ffff) as u32 {
            return Err(CONTEXT_IS_DESTROYED);
        }
        Ok(dev)
    }

    /// The calling thread's current context and its device, as every context-bound call needs.
    pub fn require_ctx(&mut self, call: &str) -> Result<(usize, usize), CuResult> {
        if !self.initialized {
            return Err(self.violation(call, NOT_INITIALIZED, "called before cuInit"));
        }
        let h = current_ctx();
        if h == 0 {
            return Err(self.violation(call, INVALID_CONTEXT, "no current context on this thread"));
        }
        match self.ctx_device(h) {
            Ok(d) => Ok((h, d)),
            Err(e) => Err(self.violation(call, e, "the current context was destroyed")),
        }
    }

    pub fn require_init(&mut self, call: &str) -> Result<(), CuResult> {
        if self.initialized {
            Ok(())
        } else {
            Err(self.violation(call, NOT_INITIALIZED, "called before cuInit"))
        }
    }

    /// The last release of a primary context destroys it and everything made in it.
    pub fn destroy_context(&mut self, dev: usize) {
        let h = ctx_handle(dev, self.devices[dev].generation);
        let allocs = std::mem::take(&mut self.devices[dev].allocs);
        self.devices[dev].used = 0;
        for (p, n) in allocs {
            self.retire(p, n);
        }
        self.modules.retain(|_, m| m.ctx != h);
        let modules = &self.modules;
        self.functions
            .retain(|_, f| modules.contains_key(&f.module));
        self.blas.retain(|_, c| *c != h);
    }

    /// Whether `[p, p+n)` lies inside one live allocation of any device (unified addressing).
    pub fn in_device_memory(&self, p: u64, n: u64) -> bool {
        self.devices.iter().any(|d| {
            d.allocs
                .range(..=p)
                .next_back()
                .is_some_and(|(&s, &len)| p.checked_add(n).is_some_and(|end| end <= s + len))
        })
    }

    pub fn check_range(&mut self, call: &str, p: u64, n: u64) -> Result<(), CuResult> {
        if n == 0 || self.in_device_memory(p, n) {
            return Ok(());
        }
        Err(self.violation(
            call,
            INVALID_VALUE,
            format!("{n} bytes at {p:#x} are not inside one live device allocation"),
        ))
    }

    pub fn alloc(&mut self, dev: usize, bytes: u64) -> Result<u64, CuResult> {
        let d = &self.devices[dev];
        if d.used + bytes > config().memory {
            return Err(OUT_OF_MEMORY);
        }
        let len = bytes.div_ceil(4096) * 4096;
        // SAFETY: an anonymous private mapping; its address is what cuMemAlloc returns.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len as usize,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(OUT_OF_MEMORY);
        }
        let d = &mut self.devices[dev];
        d.allocs.insert(p as u64, bytes);
        d.used += bytes;
        Ok(p as u64)
    }

    pub fn free(&mut self, dev: usize, p: u64) -> Result<(), CuResult> {
        let Some(n) = self.devices[dev].allocs.remove(&p) else {
            let other = self.devices.iter().any(|d| d.allocs.contains_key(&p));
            let why = if other {
                "the block belongs to another device's context"
            } else {
                "not the start of a live allocation (freed twice, or never allocated)"
            };
            return Err(self.violation("cuMemFree_v2", INVALID_VALUE, why));
        };
        self.devices[dev].used -= n;
        self.retire(p, n);
        Ok(())
    }

    /// Make a freed block inaccessible; its address space is returned only after many more
    /// frees, so a use after free faults rather than touching a new allocation.
    fn retire(&mut self, p: u64, n: u64) {
        let len = n.div_ceil(4096) * 4096;
        // SAFETY: the range is a mapping made by `alloc`, no longer handed out.
        unsafe { libc::mprotect(p as *mut libc::c_void, len as usize, libc::PROT_NONE) };
        self.quarantine.push_back((p, len));
        while self.quarantine.len() > 256 {
            let (q, l) = self.quarantine.pop_front().expect("non-empty");
            // SAFETY: as above; unmapped once.
            unsafe { libc::munmap(q as *mut libc::c_void, l as usize) };
        }
    }
}

/// At exit: the summary a test reads from `VGPU_LOG`.
extern "C" fn write_summary() {
    let Some(path) = std::env::var_os("VGPU_LOG") else {
        return;
    };
    let g = STATE.lock().unwrap_or_else(|e| e.into_inner());
    let Some(s) = g.as_ref() else { return };
    let mut out = format!(
        "vgpu pid {}: retains {} releases {}\n",
        std::process::id(),
        s.retains,
        s.releases
    );
    for (name, n) in &s.launches {
        out += &format!("launch {name} {n}\n");
    }
    for (name, n) in &s.nccl {
        out += &format!("nccl {name} {n}\n");
    }
    for (name, (n, bytes)) in &s.copies {
        out += &format!("copy {name} {n} {bytes}\n");
    }
    for e in &s.events {
        out += &format!("event {e}\n");
    }
    for v in &s.violations {
        out += &format!("violation {v}\n");
    }
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = f.write_all(out.as_bytes());
    }
}
