//! The autocast state: thread-local, per device type, as in ATen (`autocast_mode.cpp`).
//! `enabled` and `dtype` per device type; the nesting depth of autocast regions and the
//! weight-cast cache switch are shared by all device types.
use super::policy::AmpDevice;
use crate::tensor::{DType, Tensor};
use std::cell::{Cell, RefCell};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceState {
    pub enabled: bool,
    pub dtype: DType,
}

struct State {
    cpu: DeviceState,
    cuda: DeviceState,
    nesting: i64,
    cache_enabled: bool,
    /// Lower-precision casts of float32 leaf weights, keyed by the source tensor's identity.
    /// The source is kept alive so its address cannot be reused while the entry lives.
    cache: Vec<(Tensor, Tensor)>,
}

impl Default for State {
    fn default() -> State {
        State {
            cpu: DeviceState {
                enabled: false,
                dtype: DType::BF16,
            },
            cuda: DeviceState {
                enabled: false,
                dtype: DType::F16,
            },
            nesting: 0,
            cache_enabled: true,
            cache: Vec::new(),
        }
    }
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
    /// Whether autocast is on for any device: the one check ops pay when it is off.
    static ANY: Cell<bool> = const { Cell::new(false) };
    /// How many excluded scopes are open (inside an autocast op's body, or a backward formula):
    /// ATen's `ExcludeDispatchKeyGuard(Autocast)`, so the ops they call are not cast again.
    static EXCLUDED: Cell<u32> = const { Cell::new(0) };
}

/// Whether an op entered now gets autocast's casts: a region is on and no op above it on this
/// thread has already applied them.
#[inline]
pub fn applies() -> bool {
    any_enabled() && EXCLUDED.with(|e| e.get()) == 0
}

/// Runs `f` with autocast excluded (ops it calls are not cast); a no-op outside autocast.
#[inline]
pub fn excluded<R>(f: impl FnOnce() -> R) -> R {
    if !any_enabled() {
        return f();
    }
    struct Reopen;
    impl Drop for Reopen {
        fn drop(&mut self) {
            EXCLUDED.with(|e| e.set(e.get().saturating_sub(1)));
        }
    }
    EXCLUDED.with(|e| e.set(e.get() + 1));
    let _reopen = Reopen;
    f()
}

fn with<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STATE.with(|s| f(&mut s.borrow_mut()))
}

/// True when autocast is enabled for some device type (cheap; ops check this first).
#[inline]
pub fn any_enabled() -> bool {
    ANY.with(|a| a.get())
}

pub fn get(d: AmpDevice) -> DeviceState {
    with(|s| match d {
        AmpDevice::Cpu => s.cpu,
        AmpDevice::Cuda => s.cuda,
    })
}

fn set(d: AmpDevice, f: impl FnOnce(&mut DeviceState)) {
    let any = with(|s| {
        f(match d {
            AmpDevice::Cpu => &mut s.cpu,
            AmpDevice::Cuda => &mut s.cuda,
        });
        s.cpu.enabled || s.cuda.enabled
    });
    ANY.with(|a| a.set(any));
}

/// `torch.is_autocast_enabled(device_type)`.
pub fn is_enabled(d: AmpDevice) -> bool {
    get(d).enabled
}
/// `torch.set_autocast_enabled(device_type, enabled)`.
pub fn set_enabled(d: AmpDevice, enabled: bool) {
    set(d, |s| s.enabled = enabled)
}
/// `torch.get_autocast_dtype(device_type)`.
pub fn dtype(d: AmpDevice) -> DType {
    get(d).dtype
}
/// `torch.set_autocast_dtype(device_type, dtype)`.
pub fn set_dtype(d: AmpDevice, dtype: DType) {
    set(d, |s| s.dtype = dtype)
}

/// `torch.autocast_increment_nesting()`: the new depth.
pub fn increment_nesting() -> i64 {
    with(|s| {
        s.nesting += 1;
        s.nesting
    })
}
/// `torch.autocast_decrement_nesting()`: the new depth.
pub fn decrement_nesting() -> i64 {
    with(|s| {
        s.nesting -= 1;
        s.nesting
    })
}

pub fn is_cache_enabled() -> bool {
    with(|s| s.cache_enabled)
}
pub fn set_cache_enabled(on: bool) {
    with(|s| s.cache_enabled = on)
}
/// `torch.clear_autocast_cache()`: drops the cached weight casts (and their memory).
pub fn clear_cache() {
    let dropped = with(|s| std::mem::take(&mut s.cache));
    drop(dropped);
}
/// How many weight casts are cached (for tests and the memory lesson).
pub fn cache_len() -> usize {
    with(|s| s.cache.len())
}

pub(crate) fn cache_get(src: &Tensor) -> Option<Tensor> {
    with(|s| {
        s.cache
            .iter()
            .find(|(k, _)| k.ptr_eq(src))
            .map(|(_, v)| v.clone())
    })
}
pub(crate) fn cache_put(src: &Tensor, cast: &Tensor) {
    with(|s| s.cache.push((src.clone(), cast.clone())))
}

/// Resets everything to PyTorch's start-up state (a fresh interpreter session).
pub fn reset() {
    let old = with(std::mem::take);
    drop(old);
    ANY.with(|a| a.set(false));
    EXCLUDED.with(|e| e.set(0));
}
