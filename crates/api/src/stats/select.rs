//! The median of a whole float array by radix selection ([`xp_core::select`]): the two middle
//! values found from a few histograms of their bits on the device, instead of a sort of every
//! value. NaNs are counted first (one pass): `median` of an array holding one is NaN,
//! `nanmedian` selects among the others.
use crate::backend::Storage;
use crate::{full_on, Array};
use xp_core::select::{radix_select, RadixKey};
use xp_core::{DType, Error, Result, StatsStorage};

/// Below this many values a sort is as quick.
const MIN: usize = 1 << 14;

/// The keys of ranks `ks` among the contiguous values of `x`, or None where the backend has no
/// radix counts.
fn select_keys(x: &Array, bits: u32, ks: &[u64]) -> Result<Option<Vec<u64>>> {
    let s = x.read();
    let r = match &*s {
        Storage::Cpu(v) => radix_select(bits, ks, |p| v.radix_counts(&x.layout, p)),
        Storage::Cuda(v) => radix_select(bits, ks, |p| v.radix_counts(&x.layout, p)),
    };
    match r {
        Err(Error::Unsupported { .. }) => Ok(None),
        r => r.map(Some),
    }
}

/// NumPy's median of all of `a` (float32 or float64, large), or None where the sort path
/// should answer.
pub(super) fn whole_median(a: &Array, skip_nan: bool) -> Result<Option<Array>> {
    let d = a.dtype();
    if !matches!(d, DType::F32 | DType::F64) || a.size() < MIN {
        return Ok(None);
    }
    let x = a.ravel()?.ascontiguousarray()?;
    let nan = x.isnan()?.sum(..)?.astype(DType::I64)?.item::<i64>()? as u64;
    let m = x.size() as u64 - nan;
    if m == 0 || (nan > 0 && !skip_nan) {
        return full_on(a.device(), &[], f64::NAN, d).map(Some);
    }
    let ks = [(m - 1) / 2, m / 2];
    let Some(keys) = select_keys(&x, if d == DType::F32 { f32::KEY_BITS } else { f64::KEY_BITS }, &ks)? else {
        return Ok(None);
    };
    // The mean of the two middle values in the values' dtype, as NumPy's `mean` of them.
    let v = if d == DType::F32 {
        let (lo, hi) = (f32::from_key(keys[0]), f32::from_key(keys[1]));
        (if ks[0] == ks[1] { lo } else { (lo + hi) / 2.0 }) as f64
    } else {
        let (lo, hi) = (f64::from_key(keys[0]), f64::from_key(keys[1]));
        if ks[0] == ks[1] {
            lo
        } else {
            (lo + hi) / 2.0
        }
    };
    full_on(a.device(), &[], v, d).map(Some)
}
