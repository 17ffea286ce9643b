//! Closeness and equality tests with NumPy's rules: `|a - b| <= atol + rtol * |b|` elementwise,
//! infinities close only to themselves, NaN close to nothing (unless `equal_nan`);
//! `array_equal` (same shape, equal elements) and `array_equiv` (broadcastable, equal elements).
//!
//! ```
//! let a = xp::Array::from_vec(vec![1.0, 2.0, f64::INFINITY], &[3]).unwrap();
//! let b = xp::Array::from_vec(vec![1.0 + 1e-9, 2.1, f64::INFINITY], &[3]).unwrap();
//! assert_eq!(xp::isclose(&a, &b).unwrap().to_vec::<bool>().unwrap(), vec![true, false, true]);
//! assert!(!xp::allclose(&a, &b).unwrap());                    // NumPy's rtol=1e-5, atol=1e-8
//! let loose = xp::Tolerance { rtol: 0.1, ..Default::default() };
//! assert!(xp::allclose_with(&a, &b, loose).unwrap());
//! // NaN equal to NaN
//! let n = xp::Array::from_vec(vec![f64::NAN, 1.0], &[2]).unwrap();
//! let tol = xp::Tolerance { equal_nan: true, ..Default::default() };
//! assert!(xp::allclose_with(&n, &n, tol).unwrap());
//! assert!(xp::array_equal_nan(&n, &n).unwrap() && !xp::array_equal(&n, &n).unwrap());
//! assert!(xp::array_equiv(&n.slice(xp::s![1..]).unwrap(), &xp::ones(&[3, 1], xp::DType::I8).unwrap()).unwrap());
//! ```
use crate::Array;
use xp_core::{DType, Layout, Result};

/// The tolerances of [`isclose_with`]/[`allclose_with`]; `Default` is NumPy's (`rtol=1e-05`,
/// `atol=1e-08`, `equal_nan=False`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// relative tolerance, applied to `|b|`
    pub rtol: f64,
    /// absolute tolerance
    pub atol: f64,
    /// whether NaN compares close to NaN
    pub equal_nan: bool,
}

impl Default for Tolerance {
    fn default() -> Tolerance {
        Tolerance { rtol: 1e-5, atol: 1e-8, equal_nan: false }
    }
}

/// Elementwise closeness with NumPy's default tolerances (`isclose(a, b)`: `rtol=1e-05`,
/// `atol=1e-08`), broadcast; bool result. Other tolerances: [`isclose_with`].
pub fn isclose(a: &Array, b: &Array) -> Result<Array> {
    isclose_with(a, b, Tolerance::default())
}

/// Elementwise closeness with every NumPy option (`isclose(a, b, rtol, atol, equal_nan)`).
pub fn isclose_with(a: &Array, b: &Array, tol: Tolerance) -> Result<Array> {
    let f = |x: &Array| if x.dtype().is_inexact() { Ok(x.clone()) } else { x.astype(DType::F64) };
    let (x, y) = (f(a)?, f(b)?);
    let near = x.sub(&y)?.abs()?.le(&y.abs()?.mul(tol.rtol)?.add(tol.atol)?)?;
    let finite = x.isfinite()?.logical_and(&y.isfinite()?)?;
    let close = crate::where_(&finite, &near, &x.equal(&y)?)?;
    if tol.equal_nan {
        close.logical_or(&x.isnan()?.logical_and(&y.isnan()?)?)
    } else {
        Ok(close)
    }
}

/// True when every element pair is close with NumPy's default tolerances (NumPy `allclose(a, b)`);
/// waits for the result. Other tolerances: [`allclose_with`].
pub fn allclose(a: &Array, b: &Array) -> Result<bool> {
    allclose_with(a, b, Tolerance::default())
}

/// [`allclose`] with every NumPy option; waits for the result.
pub fn allclose_with(a: &Array, b: &Array, tol: Tolerance) -> Result<bool> {
    isclose_with(a, b, tol)?.all(..)?.item::<bool>()
}

/// True when `a` and `b` have the same shape and equal elements (NumPy `array_equal(a1, a2)`;
/// values compare after promotion, so `[1, 2]` equals `[1.0, 2.0]`). Arrays on different devices
/// are an error, as in every binary operation.
pub fn array_equal(a: &Array, b: &Array) -> Result<bool> {
    if a.shape() != b.shape() {
        return Ok(false);
    }
    elements_equal(a, b, false)
}

/// [`array_equal`] with NaN equal to NaN (NumPy's `array_equal(a1, a2, equal_nan=True)`).
pub fn array_equal_nan(a: &Array, b: &Array) -> Result<bool> {
    if a.shape() != b.shape() {
        return Ok(false);
    }
    elements_equal(a, b, true)
}

/// True when `a` and `b` broadcast to one shape and are equal there (NumPy `array_equiv`).
pub fn array_equiv(a: &Array, b: &Array) -> Result<bool> {
    if xp_core::broadcast_shapes("array_equiv", a.shape(), b.shape()).is_err() {
        return Ok(false);
    }
    elements_equal(a, b, false)
}

fn elements_equal(a: &Array, b: &Array, equal_nan: bool) -> Result<bool> {
    if let Some(r) = host_elements_equal(a, b, equal_nan) {
        return Ok(r);
    }
    let mut eq = a.equal(b)?;
    if equal_nan && (a.dtype().is_inexact() || b.dtype().is_inexact()) {
        eq = eq.logical_or(&a.isnan()?.logical_and(&b.isnan()?)?)?;
    }
    eq.all(..)?.item::<bool>()
}

/// [`elements_equal`] of two host arrays of one shape and dtype, any layout: one parallel pass
/// that compares in place and stops at the first chunk with a difference (the general path's
/// `equal` then `all` wrote a bool array between two passes: 0.16x NumPy at 2^22 float32). None
/// where the dtypes differ (promotion) or an array is on a device.
fn host_elements_equal(a: &Array, b: &Array, equal_nan: bool) -> Option<bool> {
    use crate::backend::Storage;
    use xp_core::HostBuffer as H;
    let cpu = xp_core::Device::Cpu;
    if a.shape() != b.shape() || a.dtype() != b.dtype() || a.device() != cpu || b.device() != cpu {
        return None;
    }
    let ga = a.read();
    // one lock for an array compared with a view of itself
    let gb = if a.shares_storage(b) { None } else { Some(b.read()) };
    let (Storage::Cpu(sa), Storage::Cpu(sb)) = (&*ga, gb.as_deref().unwrap_or(&*ga)) else { return None };
    let (la, lb) = (&a.layout, &b.layout);
    macro_rules! real {
        ($x:expr, $y:expr) => {
            if equal_nan {
                all_pairs($x, la, $y, lb, |p, q| p == q || (p.is_nan() && q.is_nan()))
            } else {
                all_pairs($x, la, $y, lb, |p, q| p == q)
            }
        };
    }
    macro_rules! complex {
        ($x:expr, $y:expr) => {
            if equal_nan {
                // NumPy's isnan of a complex number: either part NaN
                all_pairs($x, la, $y, lb, |p, q| {
                    p == q || ((p.re.is_nan() || p.im.is_nan()) && (q.re.is_nan() || q.im.is_nan()))
                })
            } else {
                all_pairs($x, la, $y, lb, |p, q| p == q)
            }
        };
    }
    Some(match (&sa.0, &sb.0) {
        (H::Bool(x), H::Bool(y)) => all_pairs(x, la, y, lb, |p, q| p == q),
        (H::I8(x), H::I8(y)) => all_pairs(x, la, y, lb, |p, q| p == q),
        (H::I16(x), H::I16(y)) => all_pairs(x, la, y, lb, |p, q| p == q),
        (H::I32(x), H::I32(y)) => all_pairs(x, la, y, lb, |p, q| p == q),
        (H::I64(x), H::I64(y)) => all_pairs(x, la, y, lb, |p, q| p == q),
        (H::U8(x), H::U8(y)) => all_pairs(x, la, y, lb, |p, q| p == q),
        (H::U16(x), H::U16(y)) => all_pairs(x, la, y, lb, |p, q| p == q),
        (H::U32(x), H::U32(y)) => all_pairs(x, la, y, lb, |p, q| p == q),
        (H::U64(x), H::U64(y)) => all_pairs(x, la, y, lb, |p, q| p == q),
        (H::F16(x), H::F16(y)) => real!(x, y),
        (H::BF16(x), H::BF16(y)) => real!(x, y),
        (H::F32(x), H::F32(y)) => real!(x, y),
        (H::F64(x), H::F64(y)) => real!(x, y),
        (H::C64(x), H::C64(y)) => complex!(x, y),
        (H::C128(x), H::C128(y)) => complex!(x, y),
        _ => return None,
    })
}

/// Whether `eq` holds for every pair of elements of two strided operands of one shape: chunks in
/// parallel, each stopping at its first difference, contiguous runs compared 256 at a time
/// without a branch per element.
fn all_pairs<T: Copy + Sync>(a: &[T], la: &Layout, b: &[T], lb: &Layout, eq: impl Fn(T, T) -> bool + Sync) -> bool {
    use rayon::prelude::*;
    let w = xp_cpu::iter::Walk::new(&[la, lb]);
    let n = w.len();
    if n == 0 {
        return true;
    }
    let c = xp_cpu::iter::chunk_len(n);
    let (sa, sb) = (w.inner_stride(0), w.inner_stride(1));
    (0..n.div_ceil(c)).into_par_iter().all(|i| {
        let mut ok = true;
        w.segments(i * c, ((i + 1) * c).min(n), |_, len, off| {
            if !ok {
                return;
            }
            let (oa, ob) = (off[0], off[1]);
            if sa == 1 && sb == 1 {
                let (x, y) = (&a[oa as usize..oa as usize + len], &b[ob as usize..ob as usize + len]);
                for (x, y) in x.chunks(256).zip(y.chunks(256)) {
                    if !x.iter().zip(y).fold(true, |acc, (&p, &q)| acc & eq(p, q)) {
                        ok = false;
                        return;
                    }
                }
            } else {
                ok = (0..len as isize).all(|k| eq(a[(oa + k * sa) as usize], b[(ob + k * sb) as usize]));
            }
        });
        ok
    })
}
