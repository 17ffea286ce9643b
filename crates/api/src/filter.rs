//! The filter family's front end: sliding-window filters over an input already extended by its
//! boundary (the front ends of `xp::signal` and `xp::ndimage` pad first, by their mode), so that
//! every window lies inside it: the "valid" correlation and rank filter of the
//! [`xp_core::FilterStorage`] family.
//!
//! float32 and float64 go to the backend's kernels (the tiled GPU kernels, the CPU's row
//! passes). Other dtypes, and windows a backend does not take (`Unsupported`), are computed
//! here: the correlation as one multiply-add pass per weight in the promoted dtype (so
//! integers stay exact and complex values are complex), the rank filter in float64 (exact for
//! the integers up to 32 bits); a rank window a backend does not take is the caller's to compute.
use crate::backend::{on_pair, on_storage};
use crate::products::with_two;
use crate::{Array, SliceElem};
use xp_core::{promote_types, DType, Error, FilterStorage, Result};

/// The shape of the valid part: `n - m + 1` per axis.
fn valid_shape(n: &[usize], m: &[usize]) -> Vec<usize> {
    n.iter().zip(m).map(|(a, b)| a + 1 - b).collect()
}

/// `at[i] .. at[i] + len[i]` along each axis (the index of a box of a larger array).
pub(crate) fn spans(at: &[usize], len: &[usize]) -> Vec<SliceElem> {
    at.iter()
        .zip(len)
        .map(|(&s, &n)| SliceElem::Slice { start: Some(s as isize), stop: Some((s + n) as isize), step: 1 })
        .collect()
}

/// Whether a family call answered that the backend does not take this case.
fn unsupported<T>(r: &Result<T>) -> bool {
    matches!(r, Err(Error::Unsupported { .. }))
}

/// The valid correlation `out[i] = Σ_k w[k] · x[i + k]` (`x` and `w` of one device and the same
/// number of axes, `w` no longer than `x` along any), in the operands' promoted dtype.
pub(crate) fn correlate_valid(x: &Array, w: &Array) -> Result<Array> {
    let dt = promote_types(x.dtype(), w.dtype());
    let shape = valid_shape(x.shape(), w.shape());
    let (x, w) = (x.cast_if(dt)?, w.cast_if(dt)?);
    if let Some(folded) = folded_1d(&x, &w)? {
        return Ok(folded);
    }
    if matches!(dt, DType::F32 | DType::F64) {
        let r =
            with_two(&x, &w, |p, q| on_pair!("correlate", p, q, s, t => s.correlate_valid(&x.layout, t, &w.layout)));
        if !unsupported(&r) {
            return Ok(Array::from_storage(r?, &shape));
        }
    }
    let taps = w.to_buffer()?;
    let mut acc = crate::on(x.device()).zeros(&shape, dt)?;
    let mut at = vec![0usize; w.ndim()];
    for k in 0..w.size() {
        // `at`: the C-order position of weight k
        let mut r = k;
        for (i, &n) in w.shape().iter().enumerate().rev() {
            at[i] = r % n;
            r /= n;
        }
        acc = acc.add(&x.slice(spans(&at, &shape))?.mul(taps.get(k).expect("k < size"))?)?;
    }
    Ok(acc)
}

/// Rows of a long 1-D signal folded for the GPU's kernels, which tile the last two axes: one
/// row of 2^22 values kept 63 of every 64 threads of a tile idle (5 ms for 64 taps, CuPy 0.3).
const FOLD: usize = 4096;

/// A long 1-D float correlation on a GPU as a 2-D one: the input (zero-padded to whole rows)
/// seen as overlapping rows `x[r·FOLD .. r·FOLD + FOLD + m - 1]` (a strided view), correlated
/// along them, the rows joined again. None where that does not apply.
fn folded_1d(x: &Array, w: &Array) -> Result<Option<Array>> {
    if w.ndim() != 1 {
        return Ok(None);
    }
    let Some(rows) = fold_rows(x, w.size())? else { return Ok(None) };
    let out = x.size() - w.size() + 1;
    let r = correlate_valid(&rows, &w.reshape([1, w.size() as isize])?)?;
    Ok(Some(r.reshape([r.size() as isize])?.slice(spans(&[0], &[out]))?))
}

/// A long 1-D float signal on a GPU, for a window of `m`, as overlapping rows
/// `x[r·FOLD .. r·FOLD + FOLD + m - 1]` (zero-padded to whole rows; a strided view of one
/// copy); None where that does not apply.
fn fold_rows(x: &Array, m: usize) -> Result<Option<Array>> {
    let n = x.size();
    let float = matches!(x.dtype(), DType::F32 | DType::F64);
    if x.ndim() != 1 || x.device() == xp_core::Device::Cpu || !float || n < m || n - m + 1 < 16 * FOLD {
        return Ok(None);
    }
    let rows = (n - m + 1).div_ceil(FOLD);
    let need = rows * FOLD + m - 1;
    let xp = x.pad(&[(0, need - n)], crate::PadMode::Constant(xp_core::Scalar::Int(0)))?.ascontiguousarray()?;
    let layout = xp_core::Layout::new(vec![rows, FOLD + m - 1], vec![FOLD as isize, 1], xp.layout.offset());
    Ok(Some(xp.with_layout(layout)))
}

/// The valid rank filter: at each position, the `rank`-th smallest (from 0) of the `size` box
/// of `x` (one length per axis, none longer than `x`'s), in `x`'s dtype; None when `x`'s backend
/// does not take this window (a GPU window beyond its last two axes or over 64 values) or `x`
/// holds 64-bit integers (float64 is not exact beyond 2^53), so that the caller computes it its
/// own way.
pub(crate) fn rank_valid(x: &Array, size: &[usize], rank: usize) -> Result<Option<Array>> {
    let d = x.dtype();
    if matches!(d, DType::I64 | DType::U64) {
        return Ok(None);
    }
    let work = if matches!(d, DType::F32 | DType::F64) { d } else { DType::F64 };
    let xw = x.cast_if(work)?;
    if let Some(rows) = fold_rows(&xw, size[0])? {
        // the rows' windows, then the rows joined and cut to the valid length
        let r = rank_valid(&rows, &[1, size[0]], rank)?;
        let out = x.size() - size[0] + 1;
        return r.map(|r| r.reshape([r.size() as isize])?.slice(spans(&[0], &[out]))?.cast_if(d)).transpose();
    }
    let shape = valid_shape(x.shape(), size);
    let r = on_storage!(&*xw.read(), s => s.rank_valid(&xw.layout, size, rank));
    if unsupported(&r) {
        return Ok(None);
    }
    Ok(Some(Array::from_storage(r?, &shape).cast_if(d)?))
}
