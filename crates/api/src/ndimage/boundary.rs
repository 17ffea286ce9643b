//! Extending an array beyond its border by a [`Mode`], along one axis or all, and the views of
//! the extended array that a window position reads. SciPy's `NI_ExtendLine` continues each mode
//! periodically however far the window reaches; `Array::pad`'s index maps do the same.
use super::Mode;
use crate::manip::PadMode;
use crate::{Array, SliceElem};
use xp_core::{Result, Scalar};

/// The padding that reproduces a filter's mode (`cval` as given, in the array's dtype).
fn pad_mode(mode: Mode, cval: Scalar) -> PadMode {
    match mode.for_filter() {
        Mode::Reflect => PadMode::Symmetric,
        Mode::Mirror => PadMode::Reflect,
        Mode::Nearest => PadMode::Edge,
        Mode::Wrap => PadMode::Wrap,
        _ => PadMode::Constant(cval),
    }
}

/// `x` extended by `widths[i] = (before, after)` along each axis by `mode` (`cval`: the
/// constant, already in `x`'s dtype where it matters).
pub(super) fn extend(x: &Array, widths: &[(usize, usize)], mode: Mode, cval: Scalar) -> Result<Array> {
    if widths.iter().all(|&(b, a)| b + a == 0) {
        return Ok(x.clone());
    }
    x.pad(widths, pad_mode(mode, cval))
}

/// `x` extended along `axis` only.
pub(super) fn extend_axis(
    x: &Array,
    axis: usize,
    before: usize,
    after: usize,
    mode: Mode,
    cval: Scalar,
) -> Result<Array> {
    let mut w = vec![(0, 0); x.ndim()];
    w[axis] = (before, after);
    extend(x, &w, mode, cval)
}

/// The view `start .. start + len` of `x` along `axis`.
pub(super) fn window(x: &Array, axis: usize, start: usize, len: usize) -> Result<Array> {
    let mut idx = vec![SliceElem::FULL; x.ndim()];
    idx[axis] = SliceElem::from(start as isize..(start + len) as isize);
    x.slice(idx)
}

/// The view `start[i] .. start[i] + len[i]` of `x` along every axis.
pub(super) fn window_nd(x: &Array, start: &[usize], len: &[usize]) -> Result<Array> {
    x.slice(crate::filter::spans(start, len))
}

/// The extension `(before, after)` of a window of `size` taps with `origin` (SciPy's
/// `size // 2 + origin` before the point).
pub(super) fn reach(size: usize, origin: isize) -> (usize, usize) {
    let before = (size / 2) as isize + origin;
    (before as usize, (size as isize - 1 - before) as usize)
}
