//! PyTorch's CPU random number generator, bit for bit (PyTorch 2.15, x86-64).
//!
//! The engine is `at::mt19937` (`ATen/core/MT19937RNGEngine.h`); the distributions follow
//! `ATen/core/DistributionsHelper.h`, `TransformationHelper.h` and the CPU kernels in
//! `ATen/native/cpu/DistributionTemplates.h` as the x86-64 wheel runs them. Those kernels are
//! built for the DEFAULT and AVX2 capabilities only (normal is explicitly not dispatched to
//! AVX512), so every x86-64 machine with AVX2 runs the AVX2 code; we reproduce its arithmetic,
//! including the fused multiply-adds GCC formed (read from the shipped `libtorch_cpu.so`).
//!
//! How each dtype is produced (`n` = number of elements of a contiguous output):
//! - **normal, n < 16 (or a non-contiguous target)**: per element, the scalar Box–Muller of
//!   `at::normal_distribution<double>` (53-bit uniforms, `log1p`/`sin`/`cos` in f64, the second
//!   sample cached in the generator across calls), `fma(x, std, mean)` in f64, then cast:
//!   f64 as is, f32 by one rounding, f16/bf16 through f32 (two roundings, as `static_cast` does).
//! - **normal, n ≥ 16, f32/f16/bf16**: `n` 24-bit f32 uniforms, then the AVX2 16-wide
//!   Box–Muller (Cephes-style `log256_ps`/`sincos256_ps` with FMA) on blocks of 16 pairing
//!   `i` with `i + 8`; if `n % 16 != 0` the last 16 are redrawn and recomputed. f16/bf16
//!   compute in f32 and round once at the end.
//! - **normal, n ≥ 16, f64**: the same blocks with 53-bit uniforms and libm `log`/`sin`/`cos`.
//! - **uniform**: f32/f16/bf16 from 24 bits of one 32-bit draw, in f32; f64 from 53 bits of a
//!   64-bit draw; `fma(u, to - from, from)`, rounded to the dtype, and a result equal to `to`
//!   after rounding becomes `from`.
//! - **randint**: `(draw % range) + low`, with a 32-bit draw when `range < 2^28`, else 64-bit;
//!   the same draws for every dtype (the caller casts the i64 results).
//! - **randperm**: swap shuffle with 32-bit draws for `n < u32::MAX / 20`, else the
//!   "inside-out" Fisher–Yates with 64-bit draws.
//!
//! The f64 transcendental functions come from the platform libm, as PyTorch's do (glibc on
//! Linux), so on another libm an f64 result could differ in the last bit.
use half::{bf16, f16};
use std::cell::RefCell;

/// The seed of `torch.Generator()` when nobody seeds it (`default_rng_seed_val`).
pub const DEFAULT_SEED: u64 = 67280421310721;

const MT_N: usize = 624;
const MT_M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UMASK: u32 = 0x8000_0000;
const LMASK: u32 = 0x7fff_ffff;

/// `CPUGeneratorImpl`: an mt19937 engine plus the cached second Box–Muller sample.
#[derive(Clone)]
pub struct Generator {
    seed: u64,
    state: [u32; MT_N],
    left: u32,
    next: u32,
    next_double_normal: Option<f64>,
    /// Never set by CPU kernels, but `set_rng_state` can carry one, and `get_rng_state`
    /// must give it back.
    next_float_normal: Option<f32>,
}

/// `sizeof(CPUGeneratorImplState)` on x86-64: the length of `torch.get_rng_state()`.
pub const STATE_SIZE: usize = 5056;

impl Default for Generator {
    fn default() -> Self {
        Self::new(DEFAULT_SEED)
    }
}

impl std::fmt::Debug for Generator {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Generator(seed={})", self.seed)
    }
}

impl Generator {
    /// A generator seeded with `seed` (`torch.Generator().manual_seed(seed)`).
    pub fn new(seed: u64) -> Self {
        let mut g = Generator {
            seed,
            state: [0; MT_N],
            left: 1,
            next: 0,
            next_double_normal: None,
            next_float_normal: None,
        };
        g.manual_seed(seed);
        g
    }

    /// A generator seeded from OS entropy, as PyTorch seeds its process-wide default generator
    /// (`getNonDeterministicRandom`), so `torch.initial_seed()` differs between runs.
    pub fn from_entropy() -> Self {
        use std::hash::{BuildHasher, Hasher};
        // RandomState's keys come from the OS; hashing nothing yields a random u64.
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(0x5eed);
        Self::new(h.finish())
    }

    /// `manual_seed`: reseeds the engine and drops the cached normal sample.
    pub fn manual_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.next_double_normal = None;
        self.next_float_normal = None;
        // mt19937 takes the low 32 bits; the full seed is still reported by initial_seed.
        self.state[0] = seed as u32;
        for j in 1..MT_N {
            let prev = self.state[j - 1];
            self.state[j] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(j as u32);
        }
        self.left = 1;
        self.next = 0;
    }

    /// `seed()`: reseeds from OS entropy and returns the new seed.
    pub fn seed(&mut self) -> u64 {
        let s = Self::from_entropy().seed;
        self.manual_seed(s);
        s
    }

    /// `initial_seed`: the seed last given.
    pub fn initial_seed(&self) -> u64 {
        self.seed
    }

    /// `torch.get_rng_state()`: the bytes of PyTorch's `CPUGeneratorImplState` (legacy
    /// layout: seed, left, seeded, next, 624 u64 state words, the cached normal as
    /// `normal_y`/`normal_is_valid`, then the float cache), padding zeroed.
    pub fn get_state(&self) -> Vec<u8> {
        let mut b = vec![0u8; STATE_SIZE];
        let mut put = |at: usize, bytes: &[u8]| b[at..at + bytes.len()].copy_from_slice(bytes);
        put(0, &self.seed.to_le_bytes());
        put(8, &(self.left as i32).to_le_bytes());
        put(12, &1i32.to_le_bytes());
        put(16, &(self.next as u64).to_le_bytes());
        for (i, w) in self.state.iter().enumerate() {
            put(24 + 8 * i, &(*w as u64).to_le_bytes());
        }
        if let Some(y) = self.next_double_normal {
            put(5024, &y.to_le_bytes());
            put(5040, &1i32.to_le_bytes());
        }
        if let Some(f) = self.next_float_normal {
            put(5048, &f.to_le_bytes());
            put(5052, &[1]);
        }
        b
    }

    /// `torch.set_rng_state(state)`; errors carry PyTorch's messages. (Checking that the
    /// tensor is a CPU uint8 tensor is the caller's part.)
    pub fn set_state(&mut self, b: &[u8]) -> Result<(), String> {
        if b.len() != STATE_SIZE {
            return Err(format!(
                "Expected a CPUGeneratorImplState of size {STATE_SIZE} but found the input RNG state size to be {}",
                b.len()
            ));
        }
        let u64_at = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[at..at + 8]);
            u64::from_le_bytes(w)
        };
        let i32_at = |at: usize| {
            let mut w = [0u8; 4];
            w.copy_from_slice(&b[at..at + 4]);
            i32::from_le_bytes(w)
        };
        let left = i32_at(8);
        let seeded = i32_at(12) != 0;
        // The engine keeps `next` as a u32 (static_cast), then validates it.
        let next = u64_at(16) as u32;
        if !(seeded && left > 0 && left as usize <= MT_N && next as usize <= MT_N) {
            return Err("Invalid mt19937 state".to_string());
        }
        self.seed = u64_at(0);
        self.left = left as u32;
        self.next = next;
        for (i, w) in self.state.iter_mut().enumerate() {
            *w = u64_at(24 + 8 * i) as u32;
        }
        self.next_double_normal = (i32_at(5040) != 0).then(|| f64::from_bits(u64_at(5024)));
        self.next_float_normal = (b[5052] != 0).then(|| f32::from_bits(i32_at(5048) as u32));
        Ok(())
    }

    fn next_state(&mut self) {
        let s = &mut self.state;
        let twist = |u: u32, v: u32| -> u32 {
            (((u & UMASK) | (v & LMASK)) >> 1) ^ if v & 1 != 0 { MATRIX_A } else { 0 }
        };
        for j in 0..MT_N - MT_M {
            s[j] = s[j + MT_M] ^ twist(s[j], s[j + 1]);
        }
        for j in MT_N - MT_M..MT_N - 1 {
            s[j] = s[j + MT_M - MT_N] ^ twist(s[j], s[j + 1]);
        }
        s[MT_N - 1] = s[MT_M - 1] ^ twist(s[MT_N - 1], s[0]);
        self.left = MT_N as u32;
        self.next = 0;
    }

    /// One 32-bit draw (`CPUGeneratorImpl::random`).
    #[inline(always)]
    pub fn random(&mut self) -> u32 {
        self.left -= 1;
        if self.left == 0 {
            self.next_state();
        }
        let mut y = self.state[self.next as usize];
        self.next += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// One 64-bit draw: the first 32-bit draw is the high half (`random64`).
    pub fn random64(&mut self) -> u64 {
        let hi = self.random() as u64;
        let lo = self.random() as u64;
        (hi << 32) | lo
    }

    /// A uniform f32 in [0, 1) from 24 bits (`uniform_real_distribution<float>(0, 1)`).
    #[inline(always)]
    fn unit_f32(&mut self) -> f32 {
        (self.random() & 0x00ff_ffff) as f32 * (1.0 / (1u32 << 24) as f32)
    }

    /// A uniform f64 in [0, 1) from 53 bits (`uniform_real_distribution<double>(0, 1)`).
    pub(crate) fn unit_f64(&mut self) -> f64 {
        (self.random64() & ((1u64 << 53) - 1)) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// One sample of `at::normal_distribution<double>(mean, std)`: the scalar path, used for
    /// outputs of fewer than 16 elements and for non-contiguous outputs (one call per element,
    /// in iteration order, then cast as the module docs say). Box–Muller gives two samples;
    /// the second is cached (before mean/std are applied) and returned by the next call.
    pub fn normal_f64(&mut self, mean: f64, std: f64) -> f64 {
        if let Some(cached) = self.next_double_normal.take() {
            return cached.mul_add(std, mean);
        }
        let u1 = self.unit_f64();
        let u2 = self.unit_f64();
        let r = (-2.0 * (-u2).ln_1p()).sqrt();
        let theta = 2.0 * std::f64::consts::PI * u1;
        self.next_double_normal = Some(r * theta.sin());
        (r * theta.cos()).mul_add(std, mean)
    }

    /// `normal_(mean, std)` / `randn` on a contiguous f32 buffer.
    pub fn fill_normal_f32(&mut self, out: &mut [f32], mean: f64, std: f64) {
        if out.len() < 16 {
            for v in out.iter_mut() {
                *v = self.normal_f64(mean, std) as f32;
            }
            return;
        }
        let (m, s) = (mean as f32, std as f32);
        for v in out.iter_mut() {
            *v = self.unit_f32();
        }
        let n = out.len();
        normal_fill_blocks(out, m, s);
        if !n.is_multiple_of(16) {
            let tail = &mut out[n - 16..];
            for v in tail.iter_mut() {
                *v = self.unit_f32();
            }
            normal_fill_16_avx2(tail, m, s);
        }
    }

    /// `normal_(mean, std)` / `randn` on a contiguous f64 buffer.
    pub fn fill_normal_f64(&mut self, out: &mut [f64], mean: f64, std: f64) {
        if out.len() < 16 {
            for v in out.iter_mut() {
                *v = self.normal_f64(mean, std);
            }
            return;
        }
        for v in out.iter_mut() {
            *v = self.unit_f64();
        }
        let n = out.len();
        for block in out.chunks_exact_mut(16) {
            normal_fill_16_f64(block, mean, std);
        }
        if !n.is_multiple_of(16) {
            let tail = &mut out[n - 16..];
            for v in tail.iter_mut() {
                *v = self.unit_f64();
            }
            normal_fill_16_f64(tail, mean, std);
        }
    }

    /// Reduced-precision normal: computed in f32 exactly as PyTorch's opmath path, then
    /// rounded once (n ≥ 16) or through f64 → f32 → dtype (n < 16).
    fn fill_normal_reduced<T: Copy>(
        &mut self,
        out: &mut [T],
        mean: f64,
        std: f64,
        cast: impl Fn(f32) -> T,
    ) {
        let n = out.len();
        if n < 16 {
            for v in out.iter_mut() {
                *v = cast(self.normal_f64(mean, std) as f32);
            }
            return;
        }
        let (m, s) = (mean as f32, std as f32);
        let mut buf = [0f32; 16];
        let mut run = |g: &mut Self, dst: &mut [T]| {
            for b in buf.iter_mut() {
                *b = g.unit_f32();
            }
            normal_fill_16_avx2(&mut buf, m, s);
            for (d, b) in dst.iter_mut().zip(buf.iter()) {
                *d = cast(*b);
            }
        };
        for block in out.chunks_exact_mut(16) {
            run(self, block);
        }
        if !n.is_multiple_of(16) {
            run(self, &mut out[n - 16..]);
        }
    }

    /// `normal_(mean, std)` / `randn` on a contiguous float16 buffer.
    pub fn fill_normal_f16(&mut self, out: &mut [f16], mean: f64, std: f64) {
        self.fill_normal_reduced(out, mean, std, f16::from_f32);
    }

    /// `normal_(mean, std)` / `randn` on a contiguous bfloat16 buffer.
    pub fn fill_normal_bf16(&mut self, out: &mut [bf16], mean: f64, std: f64) {
        self.fill_normal_reduced(out, mean, std, bf16::from_f32);
    }

    /// `uniform_(from, to)` / `rand` on f32 (any layout: one draw per element in order).
    pub fn fill_uniform_f32(&mut self, out: &mut [f32], from: f64, to: f64) {
        #[cfg(target_arch = "x86_64")]
        {
            // `mul_add` as one instruction rather than a call (same bits; see
            // `normal_fill_blocks`)
            #[target_feature(enable = "fma")]
            unsafe fn fma(g: &mut Generator, out: &mut [f32], from: f64, to: f64) {
                g.fill_uniform_reduced(out, from, to, |x| x, |x| x);
            }
            if std::is_x86_feature_detected!("fma") {
                // SAFETY: the CPU has FMA (detected just above), the only requirement of a
                // `target_feature` function.
                unsafe { fma(self, out, from, to) };
                return;
            }
        }
        self.fill_uniform_reduced(out, from, to, |x| x, |x| x);
    }

    /// `uniform_(from, to)` / `rand` on float16.
    pub fn fill_uniform_f16(&mut self, out: &mut [f16], from: f64, to: f64) {
        self.fill_uniform_reduced(out, from, to, f16::from_f32, f16::to_f32);
    }

    /// `uniform_(from, to)` / `rand` on bfloat16.
    pub fn fill_uniform_bf16(&mut self, out: &mut [bf16], from: f64, to: f64) {
        self.fill_uniform_reduced(out, from, to, bf16::from_f32, bf16::to_f32);
    }

    #[inline(always)]
    fn fill_uniform_reduced<T: Copy, K: PartialEq>(
        &mut self,
        out: &mut [T],
        from: f64,
        to: f64,
        cast: impl Fn(f32) -> T,
        key: impl Fn(T) -> K,
    ) {
        let (f, t) = (from as f32, to as f32);
        let (from_s, to_s) = (cast(from as f32), cast(to as f32));
        let width = t - f;
        for v in out.iter_mut() {
            let x = cast(self.unit_f32().mul_add(width, f));
            // Rounding may land on `to`; PyTorch folds that back onto `from`.
            *v = if key(x) == key(to_s) { from_s } else { x };
        }
    }

    /// `uniform_(from, to)` / `rand` on f64.
    pub fn fill_uniform_f64(&mut self, out: &mut [f64], from: f64, to: f64) {
        let width = to - from;
        for v in out.iter_mut() {
            let x = self.unit_f64().mul_add(width, from);
            *v = if x == to { from } else { x };
        }
    }

    /// `randint(low, high)` / `random_(low, high)`: values in `[low, high)`. The draws do not
    /// depend on the dtype; cast the results (`as` wraps for narrow ints, as `static_cast`
    /// does). An empty range (`high <= low`) is the caller's error to report; here it yields `low`.
    pub fn fill_randint(&mut self, out: &mut [i64], low: i64, high: i64) {
        let range = (high as u64).wrapping_sub(low as u64);
        for v in out.iter_mut() {
            let draw = if range >= 1 << 28 {
                self.random64()
            } else {
                self.random() as u64
            };
            *v = match draw.checked_rem(range) {
                Some(r) => r.wrapping_add(low as u64) as i64,
                None => low,
            };
        }
    }

    /// `randperm(n)`, as int64 values.
    pub fn randperm(&mut self, n: usize) -> Vec<i64> {
        let mut r: Vec<i64> = (0..n as i64).collect();
        if (n as u64) < (u32::MAX / 20) as u64 {
            for i in 0..n.saturating_sub(1) {
                let z = self.random() as usize % (n - i);
                r.swap(i, z + i);
            }
        } else {
            for i in 0..n {
                let z = (self.random64() % (i as u64 + 1)) as usize;
                r[i] = r[z];
                r[z] = i as i64;
            }
        }
        r
    }

    /// `bernoulli_(p)` with a scalar `p` (dropout's mask): one 53-bit uniform per element,
    /// `u < p`. This is PyTorch's portable kernel; an Intel CPU with MKL takes a different
    /// (MKL VSL) path in PyTorch and draws other numbers.
    pub fn fill_bernoulli(&mut self, out: &mut [bool], p: f64) {
        for v in out.iter_mut() {
            *v = self.unit_f64() < p;
        }
    }

    /// `torch.bernoulli(probs)` with float32 (or reduced) probabilities: one 24-bit uniform
    /// per element, `u < p` in f32. (For float64 probabilities use [`Self::fill_bernoulli_probs_f64`].)
    pub fn fill_bernoulli_probs_f32(&mut self, out: &mut [bool], probs: &[f32]) {
        for (v, p) in out.iter_mut().zip(probs) {
            *v = self.unit_f32() < *p;
        }
    }

    /// `torch.bernoulli(probs)` with float64 probabilities: 53-bit uniforms.
    pub fn fill_bernoulli_probs_f64(&mut self, out: &mut [bool], probs: &[f64]) {
        for (v, p) in out.iter_mut().zip(probs) {
            *v = self.unit_f64() < *p;
        }
    }
}

thread_local! {
    static DEFAULT: RefCell<Generator> = RefCell::new(Generator::from_entropy());
}

/// Runs `f` on this thread's default generator (`torch.default_generator`). Like PyTorch's, it
/// starts from an entropy seed; `torch.manual_seed` is `with_default(|g| g.manual_seed(s))`.
pub fn with_default<R>(f: impl FnOnce(&mut Generator) -> R) -> R {
    DEFAULT.with(|g| f(&mut g.borrow_mut()))
}

/// `NormalFill16<double>`: scalar Box–Muller over one block of 16 uniforms, pairing `j`, `j+8`.
fn normal_fill_16_f64(data: &mut [f64], mean: f64, std: f64) {
    for j in 0..8 {
        let u1 = 1.0 - data[j];
        let u2 = data[j + 8];
        let radius = (-2.0 * u1.ln()).sqrt();
        let theta = 2.0 * std::f64::consts::PI * u2;
        data[j] = (radius * theta.cos()).mul_add(std, mean);
        data[j + 8] = (radius * theta.sin()).mul_add(std, mean);
    }
}

// Cephes constants of avx_mathfun.h, as the f32 bit patterns in libtorch_cpu.so.
const MIN_NORM_POS: u32 = 0x0080_0000;
const INV_MANT_MASK: u32 = !0x7f80_0000;
const SQRTHF: u32 = 0x3f35_04f3;
const LOG_P: [u32; 9] = [
    0x3d90_21bb,
    0xbdeb_d1b8,
    0x3def_251a,
    0xbdfe_5d4f,
    0x3e11_e9bf,
    0xbe2a_ae50,
    0x3e4c_ceac,
    0xbe7f_fffc,
    0x3eaa_aaaa,
];
const LOG_Q1: u32 = 0xb95e_8083;
const LOG_Q2: u32 = 0x3f31_8000;
const FOPI: u32 = 0x3fa2_f983;
const MINUS_DP: [u32; 3] = [0xbf49_0000, 0xb97d_a000, 0xb322_2169];
const COSCOF: [u32; 3] = [0x37cc_f5ce, 0xbab6_061a, 0x3d2a_aaa5];
const SINCOF: [u32; 3] = [0xb94c_a1f9, 0x3c08_839e, 0xbe2a_aaa3];
const TWO_PI_F32: u32 = 0x40c9_0fdb;

fn c(bits: u32) -> f32 {
    f32::from_bits(bits)
}

/// All-ones when `cond`, as an AVX compare mask.
fn mask(cond: bool) -> u32 {
    if cond {
        u32::MAX
    } else {
        0
    }
}

/// One lane of `log256_ps`, with the FMAs GCC fused in PyTorch's build.
#[inline(always)]
fn log_ps(x: f32) -> f32 {
    let invalid = mask(x <= 0.0);
    let min = c(MIN_NORM_POS);
    let x = if x > min { x } else { min };
    let imm0 = ((x.to_bits() >> 23) as i32).wrapping_sub(0x7f);
    let x = f32::from_bits((x.to_bits() & INV_MANT_MASK) | 0.5f32.to_bits());
    let e = imm0 as f32 + 1.0;
    let m = mask(x < c(SQRTHF));
    let tmp = f32::from_bits(x.to_bits() & m);
    let x = x + -1.0;
    let e = e - f32::from_bits(1.0f32.to_bits() & m);
    let x = x + tmp;
    let z = x * x;
    let mut y = c(LOG_P[0]);
    for p in &LOG_P[1..] {
        y = y.mul_add(x, c(*p));
    }
    let y = x * y;
    let y = y.mul_add(z, e * c(LOG_Q1));
    let y = (-z).mul_add(0.5, y);
    let x = x + y;
    let x = e.mul_add(c(LOG_Q2), x);
    f32::from_bits(x.to_bits() | invalid)
}

/// One lane of `sincos256_ps` (returns `(sin, cos)`), with PyTorch's build's FMAs.
#[inline(always)]
fn sincos_ps(x: f32) -> (f32, f32) {
    let sign_sin = x.to_bits() & 0x8000_0000;
    let x = f32::from_bits(x.to_bits() & 0x7fff_ffff);
    let y = x * c(FOPI);
    // cvttps2dq: out-of-range gives i32::MIN; `as` saturates instead, never reached for θ < 2π.
    let j = ((y as i32).wrapping_add(1)) & !1;
    let y = j as f32;
    let swap_sign_sin = ((j & 4) as u32) << 29;
    let poly = mask(j & 2 == 0);
    let x = y.mul_add(c(MINUS_DP[0]), x);
    let x = y.mul_add(c(MINUS_DP[1]), x);
    let x = y.mul_add(c(MINUS_DP[2]), x);
    let sign_cos = ((!(j.wrapping_sub(2)) & 4) as u32) << 29;
    let sign_sin = sign_sin ^ swap_sign_sin;
    let z = x * x;
    let tmp = z * 0.5;
    let yc = c(COSCOF[0]).mul_add(z, c(COSCOF[1]));
    let yc = yc.mul_add(z, c(COSCOF[2]));
    let yc = z * yc;
    let yc = yc.mul_add(z, -tmp) + 1.0;
    let ys = c(SINCOF[0]).mul_add(z, c(SINCOF[1]));
    let ys = ys.mul_add(z, c(SINCOF[2]));
    let ys = z * ys;
    let ys = ys.mul_add(x, x);
    let ysin2 = f32::from_bits(ys.to_bits() & poly);
    let ysin1 = f32::from_bits(yc.to_bits() & !poly);
    let ys = ys - ysin2;
    let yc = yc - ysin1;
    let s = f32::from_bits((ysin1 + ysin2).to_bits() ^ sign_sin);
    let cc = f32::from_bits((yc + ys).to_bits() ^ sign_cos);
    (s, cc)
}

/// `normal_fill_16_avx2` on each whole block of 16, built for FMA where the CPU has it: `mul_add`
/// is then one instruction instead of a call (the bits are the same, a fused multiply-add has
/// one rounding either way).
fn normal_fill_blocks(data: &mut [f32], mean: f32, std: f32) {
    #[inline(always)]
    fn blocks(data: &mut [f32], mean: f32, std: f32) {
        for block in data.chunks_exact_mut(16) {
            normal_fill_16_avx2(block, mean, std);
        }
    }
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2,fma")]
        unsafe fn fma(data: &mut [f32], mean: f32, std: f32) {
            blocks(data, mean, std)
        }
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU has AVX2 and FMA (detected just above), the only requirement of
            // a `target_feature` function.
            unsafe { fma(data, mean, std) };
            return;
        }
    }
    blocks(data, mean, std)
}

/// `NormalFill16<float>` (AVX2): Box–Muller on 16 uniforms in place, lane by lane.
#[inline(always)]
fn normal_fill_16_avx2(data: &mut [f32], mean: f32, std: f32) {
    for j in 0..8 {
        let u1 = 1.0 - data[j];
        let u2 = data[j + 8];
        let radius = (-2.0 * log_ps(u1)).sqrt();
        let theta = c(TWO_PI_F32) * u2;
        let (s, cs) = sincos_ps(theta);
        data[j] = (radius * cs).mul_add(std, mean);
        data[j + 8] = (radius * s).mul_add(std, mean);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOLDEN: &str = include_str!("../../tests/data/random_golden.txt");

    fn hex_bits(s: &str) -> Vec<u64> {
        s.split_whitespace()
            .map(|h| u64::from_str_radix(h, 16).unwrap())
            .collect()
    }

    fn ints(s: &str) -> Vec<i64> {
        s.split_whitespace().map(|v| v.parse().unwrap()).collect()
    }

    /// Replays every line of the golden file (see tests/data/gen_random.py) on our generator.
    #[test]
    fn golden_sequences() {
        let mut g = Generator::default();
        let mut checked = 0;
        for line in GOLDEN.lines() {
            let (head, rest) = line.split_once(" : ").unwrap_or((line, ""));
            let w: Vec<&str> = head.split_whitespace().collect();
            let f = |i: usize| w[i].parse::<f64>().unwrap();
            let n = || w[2].parse::<usize>().unwrap();
            match w[0] {
                "initial_seed" | "randn23" => continue,
                "state" => {
                    let hex: String = g.get_state().iter().map(|b| format!("{b:02x}")).collect();
                    assert_eq!(hex, rest, "get_rng_state");
                    let mut h = Generator::new(99);
                    h.set_state(&g.get_state()).unwrap();
                    assert_eq!(h.get_state(), g.get_state());
                    assert_eq!((h.random(), h.normal_f64(0.0, 1.0)), {
                        let mut c = g.clone();
                        (c.random(), c.normal_f64(0.0, 1.0))
                    });
                }
                "gen" => {
                    g = if w[1] == "default" {
                        Generator::default()
                    } else {
                        Generator::new(w[1].parse().unwrap())
                    };
                    assert_eq!(g.initial_seed().to_string(), w[2]);
                    continue;
                }
                "normal" | "uniform" => {
                    let normal = w[0] == "normal";
                    let (a, b) = (f(3), f(4));
                    let got: Vec<u64> = match w[1] {
                        "f32" => {
                            let mut o = vec![0f32; n()];
                            if normal {
                                g.fill_normal_f32(&mut o, a, b)
                            } else {
                                g.fill_uniform_f32(&mut o, a, b)
                            }
                            o.iter().map(|v| v.to_bits() as u64).collect()
                        }
                        "f64" => {
                            let mut o = vec![0f64; n()];
                            if normal {
                                g.fill_normal_f64(&mut o, a, b)
                            } else {
                                g.fill_uniform_f64(&mut o, a, b)
                            }
                            o.iter().map(|v| v.to_bits()).collect()
                        }
                        "f16" => {
                            let mut o = vec![f16::ZERO; n()];
                            if normal {
                                g.fill_normal_f16(&mut o, a, b)
                            } else {
                                g.fill_uniform_f16(&mut o, a, b)
                            }
                            o.iter().map(|v| v.to_bits() as u64).collect()
                        }
                        _ => {
                            let mut o = vec![bf16::ZERO; n()];
                            if normal {
                                g.fill_normal_bf16(&mut o, a, b)
                            } else {
                                g.fill_uniform_bf16(&mut o, a, b)
                            }
                            o.iter().map(|v| v.to_bits() as u64).collect()
                        }
                    };
                    assert_eq!(got, hex_bits(rest), "{head}");
                }
                "randint" => {
                    let (lo, hi, n): (i64, i64, usize) = (
                        w[1].parse().unwrap(),
                        w[2].parse().unwrap(),
                        w[3].parse().unwrap(),
                    );
                    let mut o = vec![0i64; n];
                    g.fill_randint(&mut o, lo, hi);
                    assert_eq!(o, ints(rest), "{head}");
                }
                "randperm" => {
                    let n: usize = w[1].parse().unwrap();
                    assert_eq!(g.randperm(n), ints(rest), "{head}");
                }
                "bernoulli" => {
                    let n: usize = w[1].parse().unwrap();
                    let mut o = vec![false; n];
                    g.fill_bernoulli(&mut o, f(2));
                    let got: Vec<i64> = o.iter().map(|b| *b as i64).collect();
                    assert_eq!(got, ints(rest), "{head}");
                }
                "bernoulli_t" => {
                    let (probs, want) = rest.split_once(" : ").unwrap();
                    let probs: Vec<f32> = probs
                        .split_whitespace()
                        .map(|v| v.parse().unwrap())
                        .collect();
                    let mut o = vec![false; probs.len()];
                    g.fill_bernoulli_probs_f32(&mut o, &probs);
                    let got: Vec<i64> = o.iter().map(|b| *b as i64).collect();
                    assert_eq!(got, ints(want), "{head}");
                }
                other => panic!("unknown golden op {other}"),
            }
            checked += 1;
        }
        assert!(checked > 100, "only {checked} golden operations");
    }

    #[test]
    fn manual_seed_zero_randn_2x3() {
        let line = GOLDEN.lines().find(|l| l.starts_with("randn23")).unwrap();
        let mut g = Generator::new(0);
        let mut o = [0f32; 6];
        g.fill_normal_f32(&mut o, 0.0, 1.0);
        let got: Vec<u64> = o.iter().map(|v| v.to_bits() as u64).collect();
        assert_eq!(got, hex_bits(&line["randn23".len()..]));
        assert_eq!(format!("{:.4}", o[0]), "1.5410");
    }

    #[test]
    fn default_generator_is_entropy_seeded_and_reseedable() {
        // PyTorch seeds its process default from entropy; only manual_seed makes it repeatable.
        let a = with_default(|g| {
            g.manual_seed(0);
            g.random()
        });
        let b = with_default(|g| {
            g.manual_seed(0);
            g.random()
        });
        assert_eq!(a, b);
        assert_eq!(Generator::default().initial_seed(), DEFAULT_SEED);
    }

    #[test]
    fn set_state_rejects_bad_states() {
        let mut g = Generator::new(3);
        let err = g.set_state(&[0u8; 10]).unwrap_err();
        assert_eq!(
            err,
            "Expected a CPUGeneratorImplState of size 5056 but found the input RNG state size to be 10"
        );
        assert_eq!(
            g.set_state(&[0u8; STATE_SIZE]).unwrap_err(),
            "Invalid mt19937 state"
        );
        assert_eq!(g.initial_seed(), 3);
    }

    #[test]
    fn degenerate_inputs_do_not_panic() {
        let mut g = Generator::new(1);
        let mut o = [0i64; 4];
        g.fill_randint(&mut o, 5, 5);
        assert_eq!(o, [5; 4]);
        g.fill_randint(&mut o, i64::MIN, i64::MAX);
        assert!(g.randperm(0).is_empty());
        let mut f = [0f32; 20];
        g.fill_normal_f32(&mut f, f64::NAN, f64::INFINITY);
        g.fill_uniform_f32(&mut f, 1.0, 0.0);
        let mut e: [f32; 0] = [];
        g.fill_normal_f32(&mut e, 0.0, 1.0);
    }
}
