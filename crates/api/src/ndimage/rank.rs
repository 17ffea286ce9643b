//! Rank filters (SciPy's `minimum_filter`, `maximum_filter`, their 1-D forms, `median_filter`
//! and `rank_filter`), computed in the input's dtype, so integers stay exact. A box of `size` is
//! separable for the minimum and maximum (one 1-D pass per axis, an elementwise `minimum` chain
//! over the window's views); a box window of the median and other ranks goes to the filter
//! family's selection (`crate::filter::rank_valid`: the GPU's register selection, the CPU's
//! per-window select), and a footprint (or a box the backend does not take) stacks the views of
//! its taps along a new axis and sorts it.
use super::boundary::{extend, extend_axis, reach, window, window_nd};
use super::correlate::unravel;
use super::{axis_of, check_origin, per_axis, work_dtype, Filter, Filter1d, Mode};
use crate::Array;
use xp_core::{DType, Error, Result, Scalar, SliceElem};

/// The window of a rank filter (SciPy's `size` or `footprint`).
#[derive(Clone, Copy, Debug)]
pub enum Window<'a> {
    /// a box of this size: one value for every axis, or one per axis
    Size(&'a [usize]),
    /// the taps where this boolean array (one axis per input axis) is true
    Footprint(&'a Array),
}

/// `cval` in the input's dtype, as SciPy's cast of the selected double would store it.
fn cval_in(mode: Mode, dtype: DType) -> Scalar {
    let c = mode.cval();
    match dtype {
        DType::Bool => Scalar::Bool(c.trunc() != 0.0),
        d if d.is_float() => Scalar::Float(c),
        _ => Scalar::Int(c.trunc() as i64),
    }
}

/// The value of rank `rank` (0: the minimum) among the taps `p` where `footprint` (C order,
/// shape `fshape`) is true of `x[i + p - fshape/2 - origin]`.
pub(crate) fn rank_filter_impl(
    x: &Array,
    footprint: &[bool],
    fshape: &[usize],
    rank: usize,
    mode: Mode,
    origins: &[isize],
) -> Result<Array> {
    let widths: Vec<(usize, usize)> = fshape.iter().zip(origins).map(|(&m, &o)| reach(m, o)).collect();
    let ext = extend(x, &widths, mode, cval_in(mode, x.dtype()))?;
    // a box: the filter family's selection kernels, where the backend takes the window
    if footprint.iter().all(|&t| t)
        && let Some(r) = crate::filter::rank_valid(&ext, fshape, rank)?
    {
        return Ok(r);
    }
    let views = (0..footprint.len())
        .filter(|&k| footprint[k])
        .map(|k| window_nd(&ext, &unravel(k, fshape), x.shape()))
        .collect::<Result<Vec<_>>>()?;
    select(&views, rank)
}

/// The element of rank `rank` across `views` (elementwise).
fn select(views: &[Array], rank: usize) -> Result<Array> {
    let n = views.len();
    if rank == 0 || rank == n - 1 {
        let mut acc = views[0].copy()?;
        for v in &views[1..] {
            acc = if rank == 0 { acc.minimum(v)? } else { acc.maximum(v)? };
        }
        return Ok(acc);
    }
    let stacked = crate::stack(&views.iter().collect::<Vec<_>>(), -1)?.sort(-1)?;
    stacked.slice([SliceElem::Ellipsis, SliceElem::Index(rank as isize)])?.copy()
}

/// The minimum (`max == false`) or maximum over `size` values along `axis`.
fn extreme_1d(x: &Array, size: usize, axis: usize, mode: Mode, origin: isize, max: bool) -> Result<Array> {
    let (before, after) = reach(size, origin);
    let ext = extend_axis(x, axis, before, after, mode, cval_in(mode, x.dtype()))?;
    let n = x.shape()[axis];
    if let Some(r) = running_kernel(&ext, axis, size, n, max)? {
        return Ok(r);
    }
    // Extremes over windows of 1, 2, 4, … values, each from two of the last (the extreme is
    // idempotent, so two overlapping windows of the largest power of two cover any size): a
    // logarithmic number of passes instead of one per tap.
    let pick = |a: &Array, b: &Array| if max { a.maximum(b) } else { a.minimum(b) };
    let (mut cur, mut width) = (ext, 1usize);
    while width * 2 <= size {
        let len = cur.shape()[axis] - width;
        cur = pick(&window(&cur, axis, 0, len)?, &window(&cur, axis, width, len)?)?;
        width *= 2;
    }
    if width == size {
        return window(&cur, axis, 0, n)?.copy();
    }
    pick(&window(&cur, axis, 0, n)?, &window(&cur, axis, size - width, n)?)
}

/// The running extreme on the GPU: one thread per output point scans its `size` values of the
/// extended input (float32/float64 and integers; None elsewhere).
const RUNNING_BODY: &str =
    "const long long o = i / (n * inner), r = i - o * n * inner, a = r / inner, c = r - a * inner;
const long long b = (o * len + a) * inner + c;
T m = e[b];
for (long long j = 1; j < s; ++j) {
  const T v = e[b + j * inner];
  if (v != v || (mx ? v > m : v < m)) m = v;
}
y = m;";

fn running_kernel(ext: &Array, axis: usize, size: usize, n: usize, max: bool) -> Result<Option<Array>> {
    use crate::kernel::ElementwiseKernel;
    let d = ext.dtype();
    if !matches!(ext.device(), xp_core::Device::Cuda(_)) || !(matches!(d, DType::F32 | DType::F64) || d.is_integer()) {
        return Ok(None);
    }
    static K: std::sync::OnceLock<ElementwiseKernel> = std::sync::OnceLock::new();
    let k = crate::kernel::once(&K, || {
        let sig = "raw T e, int8 z, int64 n, int64 len, int64 inner, int64 s, int32 mx";
        ElementwiseKernel::new(sig, "T y", RUNNING_BODY, "xp_running_extreme")
    })?;
    let e = ext.ascontiguousarray()?;
    let mut shape = e.shape().to_vec();
    shape[axis] = n;
    let inner: usize = e.shape()[axis + 1..].iter().product();
    let at = crate::kernel::shape_only(&shape, e.device())?;
    let (len, mx) = (e.shape()[axis] as i64, max as i32);
    let args = [
        (&e).into(),
        (&at).into(),
        (n as i64).into(),
        len.into(),
        (inner as i64).into(),
        (size as i64).into(),
        mx.into(),
    ];
    k.call1(&args).map(Some)
}

fn check_input(op: &'static str, input: &Array) -> Result<()> {
    work_dtype(op, input).map(|_| ())
}

fn filter1d(
    op: &'static str,
    input: &Array,
    size: usize,
    axis: isize,
    mode: Mode,
    origin: isize,
    max: bool,
) -> Result<Array> {
    check_input(op, input)?;
    let ax = axis_of(op, input, axis)?;
    if size < 1 {
        return Err(Error::invalid(op, "incorrect filter size: it must be at least 1"));
    }
    check_origin(op, origin, size)?;
    if input.size() == 0 {
        return input.copy();
    }
    extreme_1d(input, size, ax, mode, origin, max)
}

/// The minimum over `size` consecutive values along `axis` (SciPy's `minimum_filter1d`).
///
/// ```
/// use xp::ndimage::minimum_filter1d;
/// let x = xp::Array::from_vec(vec![2i64, 8, 0, 4, 1, 9, 9, 0], &[8]).unwrap();
/// let m = minimum_filter1d(&x, 3, Default::default()).unwrap();
/// assert_eq!(m.to_vec::<i64>().unwrap(), vec![2, 0, 0, 0, 1, 1, 0, 0]);
/// ```
pub fn minimum_filter1d(input: &Array, size: usize, f: Filter1d) -> Result<Array> {
    filter1d("minimum_filter1d", input, size, f.axis, f.mode, f.origin, false)
}

/// The maximum over `size` consecutive values along `axis` (SciPy's `maximum_filter1d`).
pub fn maximum_filter1d(input: &Array, size: usize, f: Filter1d) -> Result<Array> {
    filter1d("maximum_filter1d", input, size, f.axis, f.mode, f.origin, true)
}

/// A checked window: its footprint on the host (C order), its shape and the origins.
struct Plan {
    footprint: Vec<bool>,
    shape: Vec<usize>,
    origins: Vec<isize>,
}

fn plan(op: &'static str, input: &Array, window: Window, origin: &[isize]) -> Result<Plan> {
    check_input(op, input)?;
    let nd = input.ndim();
    let origins = per_axis(op, "origin", origin, nd)?;
    let (footprint, shape) = match window {
        Window::Size(s) => {
            let shape = per_axis(op, "size", s, nd)?;
            if shape.contains(&0) {
                return Err(Error::invalid(op, "incorrect filter size: every size must be at least 1"));
            }
            (vec![true; shape.iter().product()], shape)
        }
        Window::Footprint(f) => {
            if f.device() != input.device() {
                return Err(Error::DeviceMismatch { op, lhs: input.device(), rhs: f.device() });
            }
            if f.ndim() != nd {
                return Err(Error::invalid(op, "footprint array has incorrect shape"));
            }
            let fp = f.astype(DType::Bool)?.to_vec::<bool>()?;
            if !fp.iter().any(|&b| b) {
                return Err(Error::invalid(op, "All-zero footprint is not supported."));
            }
            (fp, f.shape().to_vec())
        }
    };
    for (&o, &m) in origins.iter().zip(&shape) {
        check_origin(op, o, m)?;
    }
    Ok(Plan { footprint, shape, origins })
}

/// The rank filter with a checked plan: separable when it is a minimum or maximum over a full
/// box, else [`rank_filter_impl`].
fn run(input: &Array, p: &Plan, rank: usize, mode: Mode) -> Result<Array> {
    if input.size() == 0 {
        return input.copy();
    }
    let n = p.footprint.iter().filter(|&&b| b).count();
    if (rank == 0 || rank == n - 1) && p.footprint.iter().all(|&b| b) {
        let mut cur = input.clone();
        for ax in (0..input.ndim()).filter(|&a| p.shape[a] > 1) {
            cur = extreme_1d(&cur, p.shape[ax], ax, mode, p.origins[ax], rank != 0)?;
        }
        return if cur.shares_storage(input) { cur.copy() } else { Ok(cur) };
    }
    rank_filter_impl(input, &p.footprint, &p.shape, rank, mode, &p.origins)
}

/// The minimum over the window (SciPy's `minimum_filter`).
///
/// ```
/// use xp::ndimage::{minimum_filter, Filter, Mode, Window};
/// let x = xp::Array::from_vec(vec![3, 1, 4, 1, 5, 9], &[2, 3]).unwrap();
/// let m = minimum_filter(&x, Window::Size(&[1, 2]), Filter { mode: Mode::Nearest, ..Default::default() }).unwrap();
/// assert_eq!(m.to_vec::<i32>().unwrap(), vec![3, 1, 1, 1, 1, 5]);
/// ```
pub fn minimum_filter(input: &Array, window: Window, f: Filter) -> Result<Array> {
    let p = plan("minimum_filter", input, window, f.origin)?;
    run(input, &p, 0, f.mode)
}

/// The maximum over the window (SciPy's `maximum_filter`).
pub fn maximum_filter(input: &Array, window: Window, f: Filter) -> Result<Array> {
    let p = plan("maximum_filter", input, window, f.origin)?;
    let n = p.footprint.iter().filter(|&&b| b).count();
    run(input, &p, n - 1, f.mode)
}

/// The median over the window (SciPy's `median_filter`): for an even number of taps, the upper
/// of the two middle values (rank `n / 2`), not their mean.
///
/// ```
/// use xp::ndimage::{median_filter, Window};
/// let x = xp::Array::from_vec(vec![1.0, 9.0, 2.0, 8.0, 3.0], &[5]).unwrap();
/// let m = median_filter(&x, Window::Size(&[3]), Default::default()).unwrap();
/// assert_eq!(m.to_vec::<f64>().unwrap(), vec![1.0, 2.0, 8.0, 3.0, 3.0]);
/// ```
pub fn median_filter(input: &Array, window: Window, f: Filter) -> Result<Array> {
    let p = plan("median_filter", input, window, f.origin)?;
    let n = p.footprint.iter().filter(|&&b| b).count();
    run(input, &p, n / 2, f.mode)
}

/// The value of rank `rank` over the window (SciPy's `rank_filter`; a negative rank counts from
/// the largest).
pub fn rank_filter(input: &Array, rank: isize, window: Window, f: Filter) -> Result<Array> {
    let op = "rank_filter";
    let p = plan(op, input, window, f.origin)?;
    let n = p.footprint.iter().filter(|&&b| b).count() as isize;
    let r = if rank < 0 { rank + n } else { rank };
    if r < 0 || r >= n {
        return Err(Error::invalid(op, format!("rank {rank} not within filter footprint size {n}")));
    }
    run(input, &p, r as usize, f.mode)
}

/// The value at `percentile` (-100 to 100; negative counts from the top) of the window (SciPy's
/// `percentile_filter`): rank `int(n · percentile / 100)`, the largest for 100.
///
/// ```
/// use xp::ndimage::{percentile_filter, Filter, Mode, Window};
/// let x = xp::Array::from_vec(vec![5i64, 1, 4, 2, 3], &[5]).unwrap();
/// let nearest = Filter { mode: Mode::Nearest, ..Default::default() };
/// let p = percentile_filter(&x, 100.0, Window::Size(&[3]), nearest).unwrap();
/// assert_eq!(p.to_vec::<i64>().unwrap(), vec![5, 5, 4, 4, 3]);
/// ```
pub fn percentile_filter(input: &Array, percentile: f64, window: Window, f: Filter) -> Result<Array> {
    let op = "percentile_filter";
    let p = plan(op, input, window, f.origin)?;
    let n = p.footprint.iter().filter(|&&b| b).count();
    let pc = if percentile < 0.0 { percentile + 100.0 } else { percentile };
    if !(0.0..=100.0).contains(&pc) {
        return Err(Error::invalid(op, format!("invalid percentile {percentile}")));
    }
    let rank = ((n as f64 * pc / 100.0) as usize).min(n - 1);
    run(input, &p, rank, f.mode)
}
