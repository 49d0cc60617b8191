//! float16/bfloat16 ⇄ float32 conversions written without branches, so that a loop over them
//! vectorises. The `half` crate's `f16` conversions check the CPU for F16C on every call (an
//! opaque call per element: float16 `a + b` ran 30x slower than PyTorch's), and its bfloat16
//! ones branch. These give the same bits as F16C's `vcvtph2ps`/`vcvtps2ph`: exact widening,
//! round-to-nearest-even narrowing (c10's conversions agree on every non-NaN value), a NaN
//! kept a quiet NaN with its sign and leading payload bits. The float16 pair is the
//! branch-free method of the FP16 library that c10/util/Half.h also uses, but for NaNs.

/// float16 bits to float32 (exact).
#[inline(always)]
pub fn f16_to_f32(h: u16) -> f32 {
    let w = (h as u32) << 16;
    let sign = w & 0x8000_0000;
    let two_w = w << 1;
    // normal numbers (and inf/NaN): move the exponent and mantissa into place and rebias by
    // multiplying with 2^-112 (inf and NaN stay what they are)
    let exp_offset = 0xE0u32 << 23;
    let normalized = f32::from_bits((two_w >> 4) + exp_offset) * f32::from_bits(0x0780_0000);
    // subnormals: the mantissa as the low bits of 0.5's, then 0.5 taken away (exact)
    let denormalized = f32::from_bits((two_w >> 17) | (126 << 23)) - 0.5;
    let bits = if two_w < (1 << 27) {
        denormalized.to_bits()
    } else {
        normalized.to_bits()
    };
    f32::from_bits(sign | bits)
}

/// float32 to float16 bits, rounding to nearest even.
#[inline(always)]
pub fn f32_to_f16(f: f32) -> u16 {
    // scaling up then down rounds the value to float16's precision in float32 arithmetic
    // (and overflows to inf where float16 does)
    let mut base = (f.abs() * f32::from_bits(0x7780_0000)) * f32::from_bits(0x0880_0000);
    let w = f.to_bits();
    let shl1_w = w << 1;
    let sign = (w >> 16) & 0x8000;
    let bias = (shl1_w & 0xFF00_0000).max(0x7100_0000);
    base += f32::from_bits((bias >> 1) + 0x0780_0000);
    let bits = base.to_bits();
    let nonsign = ((bits >> 13) & 0x7C00) + (bits & 0x0FFF);
    // a NaN: quieted, its leading 9 payload bits kept (as `vcvtps2ph`)
    let nan = 0x7E00 | ((w >> 13) & 0x03FF);
    (sign | if shl1_w > 0xFF00_0000 { nan } else { nonsign }) as u16
}

/// bfloat16 bits to float32 (exact; a NaN is quieted, as the `half` crate does).
#[inline(always)]
pub fn bf16_to_f32(h: u16) -> f32 {
    let quiet = if h & 0x7FFF > 0x7F80 { 0x0040 } else { 0 };
    f32::from_bits(((h | quiet) as u32) << 16)
}

/// float32 to bfloat16 bits, rounding to nearest even, as c10's scalar conversion does: every
/// NaN becomes `0x7FC0`, a positive quiet NaN (ATen's vector conversion writes `0xFFFF`
/// instead: see the CPU backend's `bf16_vectorized`).
#[inline(always)]
pub fn f32_to_bf16(f: f32) -> u16 {
    let x = f.to_bits();
    let rounded = (x.wrapping_add(0x7FFF + ((x >> 16) & 1)) >> 16) as u16;
    if x & 0x7FFF_FFFF > 0x7F80_0000 {
        0x7FC0
    } else {
        rounded
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same_f32(a: f32, b: f32) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    #[test]
    fn every_float16_widens_as_the_half_crate_does() {
        for h in 0..=u16::MAX {
            let want = half::f16::from_bits(h).to_f32();
            let got = f16_to_f32(h);
            assert!(same_f32(got, want), "{h:#06x}: {got:?} vs {want:?}");
            if want.is_nan() {
                // the payload survives, quieted
                assert_eq!(got.to_bits() & 0x8000_0000, want.to_bits() & 0x8000_0000);
                assert_eq!(got.to_bits() | 0x0040_0000, want.to_bits() | 0x0040_0000);
            }
        }
    }

    #[test]
    fn every_bfloat16_widens_as_the_half_crate_does() {
        for h in 0..=u16::MAX {
            let want = half::bf16::from_bits(h).to_f32();
            assert_eq!(bf16_to_f32(h).to_bits(), want.to_bits(), "{h:#06x}");
        }
    }

    /// Narrowing agrees with the `half` crate on every float16/bfloat16 value, on the points
    /// halfway between neighbours (ties to even), just either side of them, and on a sweep of
    /// float32 bit patterns (subnormals, overflow, infinities and NaNs among them).
    #[test]
    fn narrowing_rounds_as_the_half_crate_does() {
        let mut xs: Vec<u32> = (0..=u16::MAX as u32)
            .flat_map(|h| {
                let b = h << 16;
                [
                    b,
                    b | 0x8000,
                    (b | 0x8000) + 1,
                    (b | 0x8000) - 1,
                    b | 0x7FFF,
                ]
            })
            .collect();
        for h in 0..=u16::MAX {
            let w = half::f16::from_bits(h).to_f32().to_bits();
            xs.extend([
                w,
                w.wrapping_add(1 << 12),
                w.wrapping_add((1 << 12) + 1),
                w.wrapping_sub(1),
            ]);
        }
        xs.extend((0..u32::MAX / 7919).map(|i| i.wrapping_mul(7919)));
        for x in xs {
            let f = f32::from_bits(x);
            let (h, want) = (f32_to_f16(f), half::f16::from_f32(f).to_bits());
            if f.is_nan() {
                assert_eq!(h & 0xFE00, want & 0xFE00, "{x:#010x}");
                assert_eq!(h & 0x03FF, (x >> 13) as u16 & 0x03FF | 0x0200, "{x:#010x}");
            } else {
                assert_eq!(h, want, "{x:#010x}");
            }
            let want = if f.is_nan() {
                0x7FC0
            } else {
                half::bf16::from_f32(f).to_bits()
            };
            assert_eq!(f32_to_bf16(f), want, "{x:#010x}");
        }
    }
}
