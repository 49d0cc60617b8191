//! The GPU part of `cudalearn bench`: what can be measured on this machine's GPU, or why not.
use super::probe;
use std::time::Instant;

/// The benchmark lines (one per measurement), or the reason there is no GPU to measure.
pub fn report() -> String {
    let p = match probe() {
        Ok(p) => p,
        Err(e) => {
            return format!(
                "GPU: no GPU ({}) — skipped: matmul f32/f16 4096³, add of 100M floats, host→device GB/s pinned vs pageable, first-use kernel compile time, start-to-first-CUDA-op\n",
                e.reason()
            )
        }
    };
    let d = &p.devices[0];
    let mut s = format!(
        "GPU: {} (compute capability {}.{})\n",
        d.name, d.major, d.minor
    );
    let t = Instant::now();
    match super::kernels::ptx(d.major, d.minor) {
        Ok(_) => {
            s += &format!(
                "  kernels ready (NVRTC compile or disk cache): {:.1} ms\n",
                t.elapsed().as_secs_f64() * 1e3
            )
        }
        Err(e) => s += &format!("  kernels: {e}\n"),
    }
    match h2d_gbps() {
        Some((pageable, pinned)) => {
            s += &format!(
                "  host→device 256 MiB: pageable {pageable:.1} GB/s, pinned {pinned:.1} GB/s\n"
            )
        }
        None => s += "  host→device: could not be measured\n",
    }
    s += "  matmul and elementwise: not measured (tensor compute runs on the CPU kernels in this version)\n";
    s
}

/// Host→device copy speed of 256 MiB from ordinary and from page-locked memory, in GB/s.
fn h2d_gbps() -> Option<(f64, f64)> {
    use cudarc::driver::result;
    let ctx = super::memory::context(0)?;
    ctx.bind_to_thread().ok()?;
    let n = 256usize << 20;
    let host = vec![1u8; n];
    // SAFETY: the context is current; every pointer below is freed before returning and each
    // copy stays within the n bytes allocated on both sides.
    unsafe {
        let dev = result::malloc_sync(n).ok()?;
        let t = Instant::now();
        result::memcpy_htod_sync(dev, &host[..]).ok()?;
        let pageable = n as f64 / t.elapsed().as_secs_f64() / 1e9;
        let pinned_ptr = result::malloc_host(n, 0).ok()? as *mut u8;
        std::ptr::copy_nonoverlapping(host.as_ptr(), pinned_ptr, n);
        let pinned_slice = std::slice::from_raw_parts(pinned_ptr, n);
        let t = Instant::now();
        let ok = result::memcpy_htod_sync(dev, pinned_slice).is_ok();
        let pinned = n as f64 / t.elapsed().as_secs_f64() / 1e9;
        let _ = result::free_host(pinned_ptr as *mut std::ffi::c_void);
        let _ = result::free_sync(dev);
        ok.then_some((pageable, pinned))
    }
}
