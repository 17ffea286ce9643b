//! The float32 normal's elementary functions, written once for every backend's host side:
//! branch-free, so that a loop of them vectorises, and far more accurate than a float32 ulp.

/// `[cos 2πu, sin 2πu]` for `u` in [0, 1), branch-free so that a loop of them vectorises: the
/// quarter turn nearest `4u` is taken exactly (`4u - q` has no rounding error), the rest of the
/// angle, within ±π/4, goes through short Taylor polynomials (error below 1e-11, far below a
/// float32 ulp), and the quadrant swaps and negates the pair.
#[inline(always)]
pub fn sincos_turn(u: f64) -> [f64; 2] {
    let y = 4.0 * u;
    let q = (y + 0.5) as i32;
    let t = (y - q as f64) * std::f64::consts::FRAC_PI_2;
    let t2 = t * t;
    let s = t
        * (1.0
            + t2 * (-1.0 / 6.0
                + t2 * (1.0 / 120.0 + t2 * (-1.0 / 5040.0 + t2 * (1.0 / 362_880.0 + t2 * (-1.0 / 39_916_800.0))))));
    let c = 1.0
        + t2 * (-0.5
            + t2 * (1.0 / 24.0
                + t2 * (-1.0 / 720.0
                    + t2 * (1.0 / 40_320.0 + t2 * (-1.0 / 3_628_800.0 + t2 * (1.0 / 479_001_600.0))))));
    let (sn, cs) = if q & 1 == 0 { (s, c) } else { (c, s) };
    let sn = if q & 2 == 0 { sn } else { -sn };
    let cs = if (q + 1) & 2 == 0 { cs } else { -cs };
    [cs, sn]
}

/// `ln x` for a positive normal float32, in float64 (error below 1e-12 relative), branch-free:
/// `x = 2^e m` with `m` in [√½, √2), `ln m = 2 atanh((m - 1)/(m + 1))` by its series.
#[inline(always)]
pub fn ln_f32(x: f32) -> f64 {
    let b = x.to_bits() as i32;
    // The mantissa with exponent 0 (in [1, 2)), halved (and the exponent raised) above √2.
    let e = (b >> 23) - 127;
    let m = f32::from_bits(((b & 0x007f_ffff) | 0x3f80_0000) as u32) as f64;
    let big = m > std::f64::consts::SQRT_2;
    let (m, e) = if big { (m * 0.5, e + 1) } else { (m, e) };
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let p = 1.0
        + s2 * (1.0 / 3.0
            + s2 * (1.0 / 5.0 + s2 * (1.0 / 7.0 + s2 * (1.0 / 9.0 + s2 * (1.0 / 11.0 + s2 * (1.0 / 13.0))))));
    e as f64 * std::f64::consts::LN_2 + 2.0 * s * p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agree_with_libm_far_below_a_float32_ulp() {
        for i in (0..1u32 << 24).step_by(97) {
            let u = i as f64 / 16_777_216.0;
            let [c, s] = sincos_turn(u);
            let t = std::f64::consts::TAU * u;
            assert!((c - t.cos()).abs() < 1e-11 && (s - t.sin()).abs() < 1e-11, "{u}");
            let x = (i + 1) as f32 / 16_777_216.0;
            let r = (x as f64).ln();
            assert!((ln_f32(x) - r).abs() <= 2e-12 * r.abs(), "{x}");
        }
        assert_eq!(ln_f32(1.0), 0.0);
        assert_eq!(sincos_turn(0.0), [1.0, 0.0]);
    }
}
