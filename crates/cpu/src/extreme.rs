//! The maximum or minimum of a whole contiguous array of floats or integers: sixteen lanes of
//! compare-and-blend with a flag per lane for a NaN seen and for a number seen, compiled at the
//! processor's vector width (`linalg::small::wide`), chunks over the cores. The general
//! reduction folds through one function of two values, whose NaN rule (a select that the
//! compiler does not widen) held `max` of 2^22 float32 to a third of NumPy's speed.
use crate::linalg::wide;
use crate::scalar::ScalarOps;
use xp_core::Scalar;

/// One chunk's best value, whether it held a NaN, and whether it held anything else.
#[derive(Clone, Copy)]
struct Part<T> {
    best: T,
    nan: bool,
    number: bool,
}

#[inline(always)]
fn better<T: ScalarOps, const MAX: bool>(v: T, than: T) -> bool {
    if MAX {
        T::gt(v, than)
    } else {
        T::lt(v, than)
    }
}

#[inline(always)]
fn lanes<T: ScalarOps, const MAX: bool>(x: &[T], start: T) -> Part<T> {
    const L: usize = 16;
    let (mut acc, mut nan, mut num) = ([start; L], [false; L], [false; L]);
    let mut it = x.chunks_exact(L);
    for c in &mut it {
        for j in 0..L {
            let v = c[j];
            acc[j] = if better::<T, MAX>(v, acc[j]) { v } else { acc[j] };
            let n = v.is_nan();
            nan[j] |= n;
            num[j] |= !n;
        }
    }
    let mut p = Part { best: start, nan: false, number: false };
    for j in 0..L {
        p.best = if better::<T, MAX>(acc[j], p.best) { acc[j] } else { p.best };
        p.nan |= nan[j];
        p.number |= num[j];
    }
    for &v in it.remainder() {
        p.best = if better::<T, MAX>(v, p.best) { v } else { p.best };
        p.nan |= v.is_nan();
        p.number |= !v.is_nan();
    }
    p
}

/// NumPy's `max` (`MAX`; else `min`) of the non-empty `x`: NaN if any value is NaN, or with
/// `skip_nan` (`nanmax`/`fmax`), the extreme of the numbers (NaN when there are none).
pub(crate) fn extreme<T: ScalarOps, const MAX: bool>(x: &[T], skip_nan: bool) -> T {
    // floats start from the infinity every number beats; integers from their first value
    let start = if T::DTYPE.is_float() {
        T::from_scalar(Scalar::Float(if MAX { f64::NEG_INFINITY } else { f64::INFINITY }))
    } else {
        x[0]
    };
    let part = |c: &[T]| {
        wide(
            #[inline(always)]
            || lanes::<T, MAX>(c, start),
        )
    };
    let parts: Vec<Part<T>> =
        if x.len() >= 1 << 17 { crate::par::chunks_map(x, 1 << 16, &part) } else { vec![part(x)] };
    let mut p = parts[0];
    for q in &parts[1..] {
        p.best = if better::<T, MAX>(q.best, p.best) { q.best } else { p.best };
        p.nan |= q.nan;
        p.number |= q.number;
    }
    if (p.nan && !skip_nan) || !p.number {
        T::from_scalar(Scalar::Float(f64::NAN))
    } else {
        p.best
    }
}

#[cfg(test)]
mod tests {
    use super::extreme;

    #[test]
    fn extremes_match_a_plain_fold_with_nans_infinities_and_integers() {
        let mut x: Vec<f32> = (0..100_003).map(|i| ((i as f32) * 0.37).sin() * 1e3).collect();
        let fold = |v: &[f32], max: bool| {
            v.iter().copied().fold(if max { f32::MIN } else { f32::MAX }, |a, b| if max { a.max(b) } else { a.min(b) })
        };
        assert_eq!(extreme::<f32, true>(&x, false), fold(&x, true));
        assert_eq!(extreme::<f32, false>(&x, false), fold(&x, false));
        x[77_777] = f32::NAN;
        assert!(extreme::<f32, true>(&x, false).is_nan());
        assert!(extreme::<f32, false>(&x, false).is_nan());
        assert_eq!(extreme::<f32, true>(&x, true), fold(&x, true));
        x[5] = f32::NEG_INFINITY;
        assert_eq!(extreme::<f32, false>(&x, true), f32::NEG_INFINITY);
        assert!(extreme::<f64, true>(&[f64::NAN; 40], true).is_nan());
        let i: Vec<i32> = (0..70_000).map(|k| (k * 7919) % 100_003 - 50_000).collect();
        assert_eq!(extreme::<i32, true>(&i, false), *i.iter().max().unwrap());
        assert_eq!(extreme::<i32, false>(&i, true), *i.iter().min().unwrap());
        let u = [3u8, 250, 0, 9];
        assert_eq!((extreme::<u8, true>(&u, false), extreme::<u8, false>(&u, false)), (250, 0));
    }
}
