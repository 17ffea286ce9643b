//! Order-preserving keys: NumPy's sort order of every dtype as the order of unsigned integers,
//! written as the CUDA device functions every sort kernel is compiled with (`key_digit`, `key_lt`).
//!
//! The sorts move the *original bits* of each element (`RAW`) and compute its key on the fly, so
//! the transform may merge values NumPy treats as equal without losing them: every NaN (any sign
//! or payload) becomes one key above +inf, `-0.0` the key of `+0.0`. A stable sort then keeps
//! those in input order, as NumPy does, and the sorted values are bit-exact copies of the input.
//!
//! Real dtypes: signed integers flip the sign bit; floats flip every bit of negatives and the
//! sign bit of positives. Complex numbers follow NumPy's order `[R + Rj, R + nanj, nan + Rj,
//! nan + nanj]`: first the class (real is NaN, imaginary is NaN) as a 2-bit number, then the real
//! part, then the imaginary part, a NaN part comparing equal. That takes more than 64 bits, so the
//! sort is several LSD digit passes: the imaginary key's bytes, the real key's bytes, the class.
//!
//! A host model of the same arithmetic (tests only) is checked against NumPy's comparison rules.
use xp_core::DType;

/// How a real dtype's bits become its key.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Real {
    Bool,
    Unsigned,
    Signed,
    /// IEEE binary floats; `inf` is the bit pattern of +inf
    Float {
        inf: u64,
    },
}

/// A real dtype's key rule and width in bits (None for complex).
fn real(d: DType) -> Option<(Real, u32)> {
    Some(match d {
        DType::Bool => (Real::Bool, 8),
        DType::U8 => (Real::Unsigned, 8),
        DType::U16 => (Real::Unsigned, 16),
        DType::U32 => (Real::Unsigned, 32),
        DType::U64 => (Real::Unsigned, 64),
        DType::I8 => (Real::Signed, 8),
        DType::I16 => (Real::Signed, 16),
        DType::I32 => (Real::Signed, 32),
        DType::I64 => (Real::Signed, 64),
        DType::F16 => (Real::Float { inf: 0x7c00 }, 16),
        DType::BF16 => (Real::Float { inf: 0x7f80 }, 16),
        DType::F32 => (Real::Float { inf: 0x7f80_0000 }, 32),
        DType::F64 => (Real::Float { inf: 0x7ff0_0000_0000_0000 }, 64),
        DType::C64 | DType::C128 => return None,
    })
}

/// The CUDA type a sort moves for `d`: its storage bits as an unsigned integer (bool, float16 and
/// bfloat16 included), complex numbers as their struct.
pub(crate) fn raw_ty(d: DType) -> &'static str {
    match d {
        DType::C64 => "cf",
        DType::C128 => "cd",
        d => match d.size() {
            1 => "u8",
            2 => "u16",
            4 => "u32",
            _ => "u64",
        },
    }
}

/// How many 8-bit digit passes order `d` completely: the key's bytes; for complex numbers the
/// imaginary key's, the real key's and one for the class.
pub(crate) fn key_passes(d: DType) -> usize {
    match real(d) {
        Some((_, w)) => w as usize / 8,
        None => d.size() + 1,
    }
}

/// The masks of a `w`-bit key: (all ones, sign bit).
fn masks(w: u32) -> (u64, u64) {
    (if w == 64 { u64::MAX } else { (1u64 << w) - 1 }, 1u64 << (w - 1))
}

/// CUDA declarations for `d` that every sort kernel is compiled with: `RAW`, `PK` (digit passes),
/// `u32 key_digit(RAW, int p)` (byte `p` of the key, least significant first) and
/// `bool key_lt(RAW, RAW)` (NumPy's order, strict).
pub(crate) fn header(d: DType) -> String {
    let raw = raw_ty(d);
    let pk = key_passes(d);
    let Some((kind, w)) = real(d) else {
        return complex_header(d);
    };
    let (c, sfx) = if w == 64 { ("u64", "ull") } else { ("u32", "u") };
    let (mask, sign) = masks(w);
    let body = match kind {
        Real::Bool => "return b != 0u ? 1u : 0u;".to_string(),
        Real::Unsigned => "return b;".to_string(),
        Real::Signed => format!("return b ^ {sign:#x}{sfx};"),
        Real::Float { inf } => format!(
            "const {c} m = b & {abs:#x}{sfx};
  if (m > {inf:#x}{sfx}) return {mask:#x}{sfx};  // every NaN: above +inf
  if (m == 0{sfx}) return {sign:#x}{sfx};  // -0.0: the key of +0.0
  return (b & {sign:#x}{sfx}) ? (~b & {mask:#x}{sfx}) : (b | {sign:#x}{sfx});",
            abs = mask ^ sign
        ),
    };
    format!(
        "typedef {raw} RAW;
#define PK {pk}
__device__ __forceinline__ {c} key_of(RAW r) {{
  const {c} b = ({c})r;
  {body}
}}
__device__ __forceinline__ u32 key_digit(RAW r, int p) {{ return (u32)(key_of(r) >> (8 * p)) & 255u; }}
__device__ __forceinline__ bool key_lt(RAW a, RAW b) {{ return key_of(a) < key_of(b); }}
"
    )
}

/// The complex declarations: `cls` (NumPy's NaN class), `part_key` (a part's float key, NaN
/// excluded by the class), digits imaginary first, then real, then the class.
fn complex_header(d: DType) -> String {
    let (raw, w, bits, pk) = match d {
        DType::C64 => ("cf", 32u32, "(u32)__float_as_uint(x)", 9),
        _ => ("cd", 64, "(u64)__double_as_longlong(x)", 17),
    };
    let (part, f, sfx) = if w == 64 { ("u64", "double", "ull") } else { ("u32", "float", "u") };
    let (_, sign) = masks(w);
    let abs = masks(w).0 ^ sign;
    let inf = if w == 64 { 0x7ff0_0000_0000_0000u64 } else { 0x7f80_0000 };
    let bytes = w / 8;
    format!(
        "typedef {raw} RAW;
#define PK {pk}
__device__ __forceinline__ {part} part_bits({f} x) {{ return {bits}; }}
__device__ __forceinline__ u32 part_nan({part} b) {{ return (b & {abs:#x}{sfx}) > {inf:#x}{sfx} ? 1u : 0u; }}
// A non-NaN part's key (-0.0 as +0.0).
__device__ __forceinline__ {part} part_key({part} b) {{
  if ((b & {abs:#x}{sfx}) == 0{sfx}) return {sign:#x}{sfx};
  return (b & {sign:#x}{sfx}) ? ~b : (b | {sign:#x}{sfx});
}}
// NumPy's classes [R + Rj, R + nanj, nan + Rj, nan + nanj] as 0..3.
__device__ __forceinline__ u32 cls(RAW r) {{ return (part_nan(part_bits(r.re)) << 1) | part_nan(part_bits(r.im)); }}
__device__ __forceinline__ u32 key_digit(RAW r, int p) {{
  const u32 c = cls(r);
  if (p < {bytes}) return (c & 1u) ? 0u : (u32)(part_key(part_bits(r.im)) >> (8 * p)) & 255u;
  if (p < {b2}) return (c & 2u) ? 0u : (u32)(part_key(part_bits(r.re)) >> (8 * (p - {bytes}))) & 255u;
  return c;
}}
__device__ __forceinline__ bool key_lt(RAW a, RAW b) {{
  const u32 ca = cls(a), cb = cls(b);
  if (ca != cb) return ca < cb;
  const {part} ra = (ca & 2u) ? 0{sfx} : part_key(part_bits(a.re)), rb = (cb & 2u) ? 0{sfx} : part_key(part_bits(b.re));
  if (ra != rb) return ra < rb;
  const {part} ia = (ca & 1u) ? 0{sfx} : part_key(part_bits(a.im)), ib = (cb & 1u) ? 0{sfx} : part_key(part_bits(b.im));
  return ia < ib;
}}
",
        b2 = 2 * bytes
    )
}

/// The host model of `key_of` for real dtypes: the same arithmetic as the CUDA in [`header`].
#[cfg(test)]
pub(crate) fn model_real(d: DType, b: u64) -> u64 {
    let (kind, w) = real(d).expect("a real dtype");
    let (mask, sign) = masks(w);
    match kind {
        Real::Bool => (b != 0) as u64,
        Real::Unsigned => b,
        Real::Signed => b ^ sign,
        Real::Float { inf } => {
            let m = b & (mask ^ sign);
            if m > inf {
                mask
            } else if m == 0 {
                sign
            } else if b & sign != 0 {
                !b & mask
            } else {
                b | sign
            }
        }
    }
}

/// The host model of the complex key: (class, real key, imaginary key), compared in that order,
/// for parts of `w` bits given as bits.
#[cfg(test)]
pub(crate) fn model_complex(w: u32, re: u64, im: u64) -> (u32, u64, u64) {
    let (mask, sign) = masks(w);
    let inf = if w == 64 { 0x7ff0_0000_0000_0000u64 } else { 0x7f80_0000 };
    let nan = |b: u64| ((b & (mask ^ sign)) > inf) as u32;
    let key = |b: u64| {
        if b & (mask ^ sign) == 0 {
            sign
        } else if b & sign != 0 {
            !b & mask
        } else {
            b | sign
        }
    };
    let c = (nan(re) << 1) | nan(im);
    (c, if c & 2 != 0 { 0 } else { key(re) }, if c & 1 != 0 { 0 } else { key(im) })
}

#[cfg(test)]
mod tests {
    //! The key transform against NumPy's comparison rules, without a device: NumPy's `LT` for
    //! floats is `a < b || (b != b && a == a)` (NaNs last, -0.0 == +0.0) and for complex numbers
    //! `npysort`'s `CFLOAT_LT`; the keys must order every pair exactly as those do (equal keys
    //! exactly for the pairs neither orders).
    use super::*;

    fn f_lt(a: f64, b: f64) -> bool {
        a < b || (b.is_nan() && !a.is_nan())
    }

    /// NumPy's complex `LT` (numpy/_core/src/npysort/npysort_common.h).
    fn c_lt(a: (f64, f64), b: (f64, f64)) -> bool {
        let n = |x: f64| x.is_nan();
        if a.0 < b.0 {
            !n(a.1) || n(b.1)
        } else if a.0 > b.0 {
            n(b.1) && !n(a.1)
        } else if a.0 == b.0 || (n(a.0) && n(b.0)) {
            a.1 < b.1 || (n(b.1) && !n(a.1))
        } else {
            n(b.0)
        }
    }

    /// Keys agree with `lt` on every pair of `vals` (bits, value).
    fn check_pairs<V: Copy + std::fmt::Debug>(
        name: &str,
        vals: &[(u64, V)],
        key: impl Fn(u64) -> u128,
        lt: impl Fn(V, V) -> bool,
    ) {
        for &(ba, a) in vals {
            for &(bb, b) in vals {
                assert_eq!(key(ba) < key(bb), lt(a, b), "{name}: {a:?} ({ba:#x}) < {b:?} ({bb:#x})");
            }
        }
    }

    fn f16_value(b: u64) -> f64 {
        let (s, e, m) = ((b >> 15) & 1, (b >> 10) & 31, (b & 1023) as f64);
        let v = match e {
            0 => m * 2f64.powi(-24),
            31 if m == 0.0 => f64::INFINITY,
            31 => f64::NAN,
            e => (1.0 + m / 1024.0) * 2f64.powi(e as i32 - 15),
        };
        if s == 1 {
            -v
        } else {
            v
        }
    }

    fn bf16_value(b: u64) -> f64 {
        f32::from_bits((b as u32) << 16) as f64
    }

    /// Every 16-bit pattern, sorted by key: adjacent keys must agree with NumPy's order (which is a
    /// strict weak order, so adjacent agreement is agreement everywhere).
    #[test]
    fn half_precision_keys_order_every_bit_pattern() {
        for (d, value) in [(DType::F16, f16_value as fn(u64) -> f64), (DType::BF16, bf16_value)] {
            let mut all: Vec<u64> = (0..1 << 16).collect();
            all.sort_by_key(|&b| model_real(d, b));
            for p in all.windows(2) {
                let (ka, kb) = (model_real(d, p[0]), model_real(d, p[1]));
                let (a, b) = (value(p[0]), value(p[1]));
                assert!(!f_lt(b, a), "{d}: {a} after {b}");
                assert_eq!(ka < kb, f_lt(a, b), "{d}: {a} ({:#x}) vs {b} ({:#x})", p[0], p[1]);
            }
            // Spot checks: NaNs last and equal, -0.0 == +0.0.
            let nan = model_real(d, if d == DType::F16 { 0x7e00 } else { 0x7fc0 });
            assert_eq!(nan, model_real(d, 0xffff));
            assert_eq!(model_real(d, 0x8000), model_real(d, 0));
            assert!(model_real(d, if d == DType::F16 { 0x7c00 } else { 0x7f80 }) < nan);
        }
    }

    fn f32_edges() -> Vec<(u64, f64)> {
        let mut v: Vec<f32> = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::from_bits(0x8000_0001),
            f32::from_bits(0x007f_ffff),
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1.5,
            -2.5,
        ];
        let mut nans = vec![f32::NAN, -f32::NAN, f32::from_bits(0x7f80_0001), f32::from_bits(0xffc0_1234)];
        nans.push(f32::from_bits(0x7fff_ffff));
        v.extend(nans);
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v.push(f32::from_bits(x as u32));
        }
        v.into_iter().map(|f| (f.to_bits() as u64, f as f64)).collect()
    }

    fn f64_edges() -> Vec<(u64, f64)> {
        let mut v: Vec<f64> = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            f64::from_bits(1),
            f64::from_bits(0x8000_0000_0000_0001),
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::from_bits(0x7ff0_0000_0000_0001),
            f64::from_bits(0xfff8_0000_dead_beef),
            1e-300,
            -1e300,
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v.push(f64::from_bits(x));
        }
        v.into_iter().map(|f| (f.to_bits(), f)).collect()
    }

    #[test]
    fn float_keys_order_edge_values_as_numpy() {
        check_pairs("f32", &f32_edges(), |b| model_real(DType::F32, b) as u128, f_lt);
        check_pairs("f64", &f64_edges(), |b| model_real(DType::F64, b) as u128, f_lt);
    }

    #[test]
    fn integer_and_bool_keys_order_numerically() {
        for d in [DType::I8, DType::I16, DType::I32, DType::I64, DType::U8, DType::U16, DType::U32, DType::U64] {
            let w = 8 * d.size() as u32;
            let (mask, sign) = masks(w);
            let signed = matches!(d, DType::I8 | DType::I16 | DType::I32 | DType::I64);
            let mut bits =
                vec![0, 1, 2, mask, mask - 1, sign, sign - 1, sign + 1, 0x55 & mask, (0xa5a5_a5a5_a5a5_a5a5 & mask)];
            bits.extend((0..64).map(|i| (0x9e37_79b9_7f4a_7c15u64.rotate_left(i) ^ i as u64) & mask));
            // The value of `b` as an i128 (sign-extended for signed dtypes).
            let value = |b: u64| if signed && b & sign != 0 { b as i128 - (mask as i128 + 1) } else { b as i128 };
            let vals: Vec<(u64, i128)> = bits.iter().map(|&b| (b, value(b))).collect();
            check_pairs(d.name(), &vals, |b| model_real(d, b) as u128, |a, b| a < b);
            if w < 64 {
                for &b in &bits {
                    assert!(model_real(d, b) <= mask, "{d}: key of {b:#x} wider than the dtype");
                }
            }
        }
        assert!(model_real(DType::Bool, 0) < model_real(DType::Bool, 1));
        assert_eq!(model_real(DType::Bool, 1), model_real(DType::Bool, 2), "any nonzero byte is true");
    }

    #[test]
    fn complex_keys_order_as_numpy_classes() {
        let parts32 =
            [0.0f32, -0.0, 1.0, -1.0, 2.5, f32::INFINITY, f32::NEG_INFINITY, f32::from_bits(1), f32::NAN, -f32::NAN];
        let mut vals = vec![];
        for &re in &parts32 {
            for &im in &parts32 {
                vals.push(((re.to_bits() as u64) << 32 | im.to_bits() as u64, (re as f64, im as f64)));
            }
        }
        let key32 = |b: u64| {
            let (c, r, i) = model_complex(32, b >> 32, b & 0xffff_ffff);
            (c as u128) << 64 | (r as u128) << 32 | i as u128
        };
        check_pairs("c64", &vals, key32, c_lt);
        // complex128: parts as bits; keys compared as tuples.
        let parts64 =
            [0.0f64, -0.0, 1.0, -3.0, f64::INFINITY, f64::NEG_INFINITY, f64::from_bits(1), f64::NAN, -f64::NAN];
        let vals: Vec<(f64, f64)> = parts64.iter().flat_map(|&r| parts64.iter().map(move |&i| (r, i))).collect();
        for &a in &vals {
            for &b in &vals {
                let ka = model_complex(64, a.0.to_bits(), a.1.to_bits());
                let kb = model_complex(64, b.0.to_bits(), b.1.to_bits());
                assert_eq!(ka < kb, c_lt(a, b), "c128: {a:?} < {b:?}");
            }
        }
        // The classes in NumPy's order.
        let c = |re: f64, im: f64| model_complex(64, re.to_bits(), im.to_bits()).0;
        assert_eq!([c(1.0, 1.0), c(1.0, f64::NAN), c(f64::NAN, 1.0), c(f64::NAN, f64::NAN)], [0, 1, 2, 3]);
    }

    #[test]
    fn passes_cover_the_key() {
        assert_eq!(key_passes(DType::Bool), 1);
        assert_eq!(key_passes(DType::F16), 2);
        assert_eq!(key_passes(DType::F32), 4);
        assert_eq!(key_passes(DType::I64), 8);
        assert_eq!(key_passes(DType::C64), 9);
        assert_eq!(key_passes(DType::C128), 17);
        for d in DType::ALL {
            assert_eq!(raw_ty(d) == "cf" || raw_ty(d) == "cd", d.is_complex(), "{d}");
        }
    }
}
