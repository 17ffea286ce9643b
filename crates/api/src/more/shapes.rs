//! NumPy's shape manipulation and creation routines that xp lacked, written on xp's views,
//! `concatenate`, `take` and `put` (so they run on every device): `atleast_1d/2d/3d`,
//! `broadcast_shapes`, `append`/`insert`/`delete`, `column_stack`/`dstack`,
//! `hsplit`/`vsplit`/`dsplit`, `fliplr`/`flipud`/`rot90`, `trim_zeros`, `diagflat`, `tri`,
//! `vander`, `geomspace`, `fill_diagonal`, the `*_indices_from` functions and `resize`.
//!
//! ```
//! let a = xp::Array::from_vec(vec![1, 2, 3], [3]).unwrap();
//! let b = xp::insert(&a, 1, &xp::Array::from_vec(vec![9], [1]).unwrap(), ..).unwrap();
//! assert_eq!(b.to_vec::<i32>().unwrap(), vec![1, 9, 2, 3]);
//! assert_eq!(xp::delete(&b, vec![0, -1], ..).unwrap().to_vec::<i32>().unwrap(), vec![9, 2]);
//! ```
use crate::ufunc::Operand;
use crate::{concatenate, Array, IntoAxes, IntoShape, Sections};
use xp_core::{normalize_axis, DType, Device, Error, Result, SliceElem};

/// `a` with at least one dimension (NumPy `atleast_1d`: a 0-d array becomes shape `(1,)`).
///
/// ```
/// let a = xp::Array::from_vec(vec![5.0], []).unwrap();
/// assert_eq!(xp::atleast_1d(&a).unwrap().shape(), &[1]);
/// ```
pub fn atleast_1d(a: &Array) -> Result<Array> {
    if a.ndim() == 0 {
        a.reshape_exact(&[1])
    } else {
        Ok(a.clone())
    }
}

/// `a` with at least two dimensions (NumPy `atleast_2d`: `(N,)` becomes `(1, N)`).
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2], [2]).unwrap();
/// assert_eq!(xp::atleast_2d(&a).unwrap().shape(), &[1, 2]);
/// ```
pub fn atleast_2d(a: &Array) -> Result<Array> {
    match a.ndim() {
        0 => a.reshape_exact(&[1, 1]),
        1 => a.reshape_exact(&[1, a.size()]),
        _ => Ok(a.clone()),
    }
}

/// `a` with at least three dimensions (NumPy `atleast_3d`: `(N,)` becomes `(1, N, 1)` and
/// `(M, N)` becomes `(M, N, 1)`).
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2, 3, 4], [2, 2]).unwrap();
/// assert_eq!(xp::atleast_3d(&a).unwrap().shape(), &[2, 2, 1]);
/// ```
pub fn atleast_3d(a: &Array) -> Result<Array> {
    match a.ndim() {
        0 => a.reshape_exact(&[1, 1, 1]),
        1 => a.reshape_exact(&[1, a.size(), 1]),
        2 => a.reshape_exact(&[a.shape()[0], a.shape()[1], 1]),
        _ => Ok(a.clone()),
    }
}

/// The shape that `shapes` broadcast to (NumPy `broadcast_shapes`); [`Error::ShapeMismatch`]
/// when they do not.
///
/// ```
/// assert_eq!(xp::broadcast_shapes(&[&[3, 1], &[4], &[]]).unwrap(), vec![3, 4]);
/// assert!(xp::broadcast_shapes(&[&[3], &[4]]).is_err());
/// ```
pub fn broadcast_shapes(shapes: &[&[usize]]) -> Result<Vec<usize>> {
    shapes.iter().try_fold(Vec::new(), |acc, s| xp_core::broadcast_shapes("broadcast_shapes", &acc, s))
}

/// The array and axis an `axis=None`-style routine works on: the flattened array and axis 0 for
/// `..`, the normalised axis otherwise.
fn on_axis(op: &'static str, a: &Array, axis: impl IntoAxes) -> Result<(Array, usize)> {
    match axis.into_axes().single(op)? {
        None => Ok((a.ravel()?, 0)),
        Some(ax) => Ok((a.clone(), normalize_axis(op, ax, a.ndim())?)),
    }
}

/// NumPy `append(arr, values, axis)`: `values` joined after `arr` along `axis` (`..`: both
/// flattened), in their promoted dtype.
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2], [2]).unwrap();
/// let v = xp::Array::from_vec(vec![3.5], [1]).unwrap();
/// assert_eq!(xp::append(&a, &v, ..).unwrap().to_vec::<f64>().unwrap(), vec![1.0, 2.0, 3.5]);
/// ```
pub fn append(arr: &Array, values: &Array, axis: impl IntoAxes) -> Result<Array> {
    match axis.into_axes().single("append")? {
        None => concatenate(&[&arr.ravel()?, &values.ravel()?], 0),
        Some(ax) => {
            if arr.ndim() == 0 {
                return Err(Error::invalid("append", "zero-dimensional arrays cannot be concatenated"));
            }
            concatenate(&[arr, values], ax)
        }
    }
}

/// Where [`insert`] and [`delete`] act: one position (NumPy's integer `obj`) or several (a
/// sequence). Converts from `isize`/`i32`/`i64` and from vectors and slices of `isize`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Positions {
    /// one position (for `insert`, the values go in as a block before it)
    At(isize),
    /// several positions (for `insert`, one value before each, in the original indexing)
    Each(Vec<isize>),
}

impl From<isize> for Positions {
    fn from(i: isize) -> Self {
        Positions::At(i)
    }
}
impl From<i32> for Positions {
    fn from(i: i32) -> Self {
        Positions::At(i as isize)
    }
}
impl From<i64> for Positions {
    fn from(i: i64) -> Self {
        Positions::At(i as isize)
    }
}
impl From<Vec<isize>> for Positions {
    fn from(v: Vec<isize>) -> Self {
        Positions::Each(v)
    }
}
impl From<&[isize]> for Positions {
    fn from(v: &[isize]) -> Self {
        Positions::Each(v.to_vec())
    }
}
impl<const N: usize> From<[isize; N]> for Positions {
    fn from(v: [isize; N]) -> Self {
        Positions::Each(v.to_vec())
    }
}

fn index_array(dev: Device, idx: Vec<i64>) -> Result<Array> {
    let n = idx.len();
    crate::on(dev).asarray(idx, [n])
}

/// NumPy `insert(arr, obj, values, axis)`: `values` (cast to `arr`'s dtype, as NumPy does)
/// inserted before the given positions along `axis` (`..`: in the flattened array). One position
/// inserts `values` as a block (NumPy's integer `obj`: `values` gains leading axes to `arr`'s
/// rank, its first axis moved to `axis`); several insert one value slice before each.
/// Positions may be negative and may equal the axis length; others are
/// [`Error::IndexOutOfBounds`].
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2, 3, 4], [2, 2]).unwrap();
/// let v = xp::Array::from_vec(vec![0], [1]).unwrap();
/// let b = xp::insert(&a, 1, &v, 1).unwrap();
/// assert_eq!(b.to_vec::<i32>().unwrap(), vec![1, 0, 2, 3, 0, 4]);
/// let c = xp::insert(&a, vec![0, 2], &v, ..).unwrap();
/// assert_eq!(c.to_vec::<i32>().unwrap(), vec![0, 1, 2, 0, 3, 4]);
/// ```
pub fn insert(arr: &Array, obj: impl Into<Positions>, values: &Array, axis: impl IntoAxes) -> Result<Array> {
    let (a, ax) = on_axis("insert", arr, axis)?;
    if a.ndim() == 0 {
        return Err(Error::AxisOutOfRange { op: "insert", axis: 0, ndim: 0 });
    }
    let n = a.shape()[ax];
    let norm = |i: isize| -> Result<usize> {
        let j = if i < 0 { i + n as isize } else { i };
        if j < 0 || j > n as isize {
            return Err(Error::IndexOutOfBounds { index: i, axis: ax, size: n });
        }
        Ok(j as usize)
    };
    if values.device() != a.device() {
        return Err(Error::DeviceMismatch { op: "insert", lhs: a.device(), rhs: values.device() });
    }
    let v = values.astype(a.dtype())?;
    // (the values' slab along the axis, the original positions each of its slices goes before)
    // NumPy's one position: `values` gains leading axes to `arr`'s rank and fills a block of its
    // own length along the axis (an integer position first moves its first axis there)
    let block = |at: usize, v: Array, moved: bool| -> Result<(Array, Vec<usize>)> {
        let mut v = v;
        if v.ndim() < a.ndim() {
            let mut s = vec![1; a.ndim() - v.ndim()];
            s.extend_from_slice(v.shape());
            v = v.reshape_exact(&s)?;
        }
        let v = if moved { v.moveaxis(0, ax as isize)? } else { v };
        let k = v.shape().get(ax).copied().unwrap_or(1);
        let mut shape = a.shape().to_vec();
        shape[ax] = k;
        Ok((v.broadcast_to(&shape[..])?, vec![at; k]))
    };
    let (slab, before): (Array, Vec<usize>) = match obj.into() {
        Positions::At(i) => block(norm(i)?, v, true)?,
        Positions::Each(ix) if ix.len() == 1 => block(norm(ix[0])?, v, false)?,
        Positions::Each(ix) => {
            let at = ix.iter().map(|&i| norm(i)).collect::<Result<Vec<_>>>()?;
            let mut shape = a.shape().to_vec();
            shape[ax] = at.len();
            (v.broadcast_to(&shape[..])?, at)
        }
    };
    // output position of each value slice: stable order of its position, shifted by its rank
    let k = before.len();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|&j| before[j]);
    let mut src = vec![-1i64; n + k];
    for (rank, &j) in order.iter().enumerate() {
        src[before[j] + rank] = (n + j) as i64;
    }
    let mut next = 0i64;
    for s in src.iter_mut() {
        if *s < 0 {
            *s = next;
            next += 1;
        }
    }
    let joined = concatenate(&[&a, &slab], ax as isize)?;
    joined.take(&index_array(a.device(), src)?, ax as isize)
}

/// NumPy `delete(arr, obj, axis)`: `arr` without the given positions along `axis` (`..`: of the
/// flattened array); negative positions count from the end, repeated ones count once, others are
/// [`Error::IndexOutOfBounds`].
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2, 3, 4, 5, 6], [2, 3]).unwrap();
/// let b = xp::delete(&a, 1, -1).unwrap();
/// assert_eq!(b.to_vec::<i32>().unwrap(), vec![1, 3, 4, 6]);
/// ```
pub fn delete(arr: &Array, obj: impl Into<Positions>, axis: impl IntoAxes) -> Result<Array> {
    let (a, ax) = on_axis("delete", arr, axis)?;
    if a.ndim() == 0 {
        return Err(Error::AxisOutOfRange { op: "delete", axis: 0, ndim: 0 });
    }
    let n = a.shape()[ax];
    let ix = match obj.into() {
        Positions::At(i) => vec![i],
        Positions::Each(v) => v,
    };
    let mut keep = vec![true; n];
    for i in ix {
        let j = if i < 0 { i + n as isize } else { i };
        if j < 0 || j >= n as isize {
            return Err(Error::IndexOutOfBounds { index: i, axis: ax, size: n });
        }
        keep[j as usize] = false;
    }
    let idx: Vec<i64> = (0..n).filter(|&i| keep[i]).map(|i| i as i64).collect();
    a.take(&index_array(a.device(), idx)?, ax as isize)
}

/// NumPy `column_stack(arrays)`: 1-D arrays as the columns of a 2-D array (0-d as `(1, 1)`),
/// arrays of two or more dimensions joined along axis 1.
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2], [2]).unwrap();
/// let c = xp::column_stack(&[&a, &a]).unwrap();
/// assert_eq!((c.shape(), c.to_vec::<i32>().unwrap()), (&[2, 2][..], vec![1, 1, 2, 2]));
/// ```
pub fn column_stack(arrays: &[&Array]) -> Result<Array> {
    let cols = arrays
        .iter()
        .map(|a| match a.ndim() {
            0 => a.reshape_exact(&[1, 1]),
            1 => a.reshape_exact(&[a.size(), 1]),
            _ => Ok((*a).clone()),
        })
        .collect::<Result<Vec<_>>>()?;
    concatenate(&cols.iter().collect::<Vec<_>>(), 1)
}

/// NumPy `dstack(arrays)`: the arrays made at least 3-D ([`atleast_3d`]) and joined along axis 2.
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2], [2]).unwrap();
/// assert_eq!(xp::dstack(&[&a, &a]).unwrap().shape(), &[1, 2, 2]);
/// ```
pub fn dstack(arrays: &[&Array]) -> Result<Array> {
    let a3 = arrays.iter().map(|a| atleast_3d(a)).collect::<Result<Vec<_>>>()?;
    concatenate(&a3.iter().collect::<Vec<_>>(), 2)
}

/// NumPy `hsplit(a, sections)`: [`crate::split`] along axis 1 (axis 0 for 1-D arrays); 0-d
/// arrays are refused.
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2, 3, 4], [2, 2]).unwrap();
/// let p = xp::hsplit(&a, xp::Sections::Count(2)).unwrap();
/// assert_eq!(p[1].to_vec::<i32>().unwrap(), vec![2, 4]);
/// ```
pub fn hsplit(a: &Array, sections: Sections) -> Result<Vec<Array>> {
    match a.ndim() {
        0 => Err(Error::invalid("hsplit", "hsplit only works on arrays of 1 or more dimensions")),
        1 => crate::split(a, sections, 0),
        _ => crate::split(a, sections, 1),
    }
}

/// NumPy `vsplit(a, sections)`: [`crate::split`] along axis 0 of an array of two or more
/// dimensions.
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2, 3, 4], [2, 2]).unwrap();
/// assert_eq!(xp::vsplit(&a, xp::Sections::Count(2)).unwrap()[1].to_vec::<i32>().unwrap(), vec![3, 4]);
/// ```
pub fn vsplit(a: &Array, sections: Sections) -> Result<Vec<Array>> {
    if a.ndim() < 2 {
        return Err(Error::invalid("vsplit", "vsplit only works on arrays of 2 or more dimensions"));
    }
    crate::split(a, sections, 0)
}

/// NumPy `dsplit(a, sections)`: [`crate::split`] along axis 2 of an array of three or more
/// dimensions.
///
/// ```
/// let a = xp::zeros([2, 2, 4], None).unwrap();
/// assert_eq!(xp::dsplit(&a, xp::Sections::Count(2)).unwrap()[0].shape(), &[2, 2, 2]);
/// ```
pub fn dsplit(a: &Array, sections: Sections) -> Result<Vec<Array>> {
    if a.ndim() < 3 {
        return Err(Error::invalid("dsplit", "dsplit only works on arrays of 3 or more dimensions"));
    }
    crate::split(a, sections, 2)
}

/// NumPy `fliplr(m)`: the columns reversed (axis 1; a view); arrays below 2-D are refused.
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2, 3, 4], [2, 2]).unwrap();
/// assert_eq!(xp::fliplr(&a).unwrap().to_vec::<i32>().unwrap(), vec![2, 1, 4, 3]);
/// ```
pub fn fliplr(m: &Array) -> Result<Array> {
    if m.ndim() < 2 {
        return Err(Error::invalid("fliplr", "Input must be >= 2-d."));
    }
    m.flip(1)
}

/// NumPy `flipud(m)`: the rows reversed (axis 0; a view); 0-d arrays are refused.
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2, 3, 4], [2, 2]).unwrap();
/// assert_eq!(xp::flipud(&a).unwrap().to_vec::<i32>().unwrap(), vec![3, 4, 1, 2]);
/// ```
pub fn flipud(m: &Array) -> Result<Array> {
    if m.ndim() < 1 {
        return Err(Error::invalid("flipud", "Input must be >= 1-d."));
    }
    m.flip(0)
}

/// NumPy `rot90(m, k)`: rotated by 90° `k` times in the plane of axes 0 and 1, from the first
/// towards the second (a view); see [`rot90_axes`].
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2, 3, 4], [2, 2]).unwrap();
/// assert_eq!(xp::rot90(&a, 1).unwrap().to_vec::<i32>().unwrap(), vec![2, 4, 1, 3]);
/// ```
pub fn rot90(m: &Array, k: i64) -> Result<Array> {
    rot90_axes(m, k, [0, 1])
}

/// NumPy `rot90(m, k, axes)`: rotated by 90° `k` times (negative: the other way) in the plane
/// of the two `axes`, from the first towards the second; the axes must differ and lie in the
/// array.
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2, 3, 4], [2, 2]).unwrap();
/// assert_eq!(xp::rot90_axes(&a, 1, [1, 0]).unwrap().to_vec::<i32>().unwrap(), vec![3, 1, 4, 2]);
/// ```
pub fn rot90_axes(m: &Array, k: i64, axes: [isize; 2]) -> Result<Array> {
    let nd = m.ndim() as isize;
    if axes[0] == axes[1] || (axes[0] - axes[1]).abs() == nd {
        return Err(Error::invalid("rot90", "Axes must be different."));
    }
    let a0 = normalize_axis("rot90", axes[0], m.ndim())? as isize;
    let a1 = normalize_axis("rot90", axes[1], m.ndim())? as isize;
    match k.rem_euclid(4) {
        0 => Ok(m.clone()),
        2 => m.flip([a0, a1]),
        1 => m.flip(a1)?.swapaxes(a0, a1),
        _ => m.swapaxes(a0, a1)?.flip(a1),
    }
}

/// Which ends [`trim_zeros`] trims (NumPy's `trim='fb'`, `'f'`, `'b'`); `Default` is both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Trim {
    /// leading and trailing zeros (`'fb'`)
    #[default]
    Both,
    /// leading zeros (`'f'`)
    Front,
    /// trailing zeros (`'b'`)
    Back,
}

/// NumPy `trim_zeros(filt, trim)`: a 1-D array without its leading and/or trailing zeros (a
/// view; an all-zero array trims to empty). Reads the first and last nonzero positions back.
///
/// ```
/// let a = xp::Array::from_vec(vec![0, 0, 1, 2, 0], [5]).unwrap();
/// assert_eq!(xp::trim_zeros(&a, xp::Trim::Both).unwrap().to_vec::<i32>().unwrap(), vec![1, 2]);
/// assert_eq!(xp::trim_zeros(&a, xp::Trim::Back).unwrap().to_vec::<i32>().unwrap(), vec![0, 0, 1, 2]);
/// ```
pub fn trim_zeros(filt: &Array, trim: Trim) -> Result<Array> {
    if filt.ndim() != 1 {
        return Err(Error::invalid("trim_zeros", "trim_zeros takes a 1-D array"));
    }
    let nz = crate::flatnonzero(filt)?;
    let n = filt.size() as isize;
    let (first, last) = if nz.size() == 0 {
        (n, n)
    } else {
        let ends = nz.take(&index_array(nz.device(), vec![0, nz.size() as i64 - 1])?, 0)?.to_vec::<i64>()?;
        (ends[0] as isize, ends[1] as isize + 1)
    };
    let (start, stop) = match trim {
        Trim::Both => (first, last.max(first)),
        Trim::Front => (first, n),
        Trim::Back => (0, if nz.size() == 0 { 0 } else { last }),
    };
    filt.slice([SliceElem::from(start..stop)])
}

/// NumPy `diagflat(v, k)`: a 2-D array with the flattened `v` on diagonal `k`.
///
/// ```
/// let v = xp::Array::from_vec(vec![1, 2, 3, 4], [2, 2]).unwrap();
/// let d = xp::diagflat(&v, 0).unwrap();
/// assert_eq!(d.shape(), &[4, 4]);
/// ```
pub fn diagflat(v: &Array, k: isize) -> Result<Array> {
    v.ravel()?.diag(k)
}

/// NumPy `tri(N, M, k, dtype)`: an `n × m` (m defaults to n) array with ones at and below
/// diagonal `k`, zeros above (`None`: float64).
///
/// ```
/// let t = xp::tri(2, None, 0, xp::DType::I32).unwrap();
/// assert_eq!(t.to_vec::<i32>().unwrap(), vec![1, 0, 1, 1]);
/// ```
pub fn tri(n: usize, m: Option<usize>, k: isize, dtype: impl Into<Option<DType>>) -> Result<Array> {
    tri_on(Device::Cpu, n, m, k, dtype)
}

/// [`tri`] on `device`.
///
/// ```
/// let t = xp::tri_on(xp::Device::Cpu, 2, Some(3), 1, None).unwrap();
/// assert_eq!(t.to_vec::<f64>().unwrap(), vec![1.0, 1.0, 0.0, 1.0, 1.0, 1.0]);
/// ```
pub fn tri_on(device: Device, n: usize, m: Option<usize>, k: isize, dtype: impl Into<Option<DType>>) -> Result<Array> {
    let d = dtype.into().unwrap_or(DType::F64);
    crate::on(device).ones([n, m.unwrap_or(n)], d)?.tril(k)
}

/// NumPy's keyword arguments of [`vander`]: the number of columns (`None`: `len(x)`) and their
/// order; `Default` is NumPy's (`N=None`, `increasing=False`: decreasing powers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Vander {
    /// number of columns (`None`: the length of `x`)
    pub n: Option<usize>,
    /// powers increasing from left to right (`x^0` first)
    pub increasing: bool,
}

/// NumPy `vander(x, N, increasing)`: the Vandermonde matrix of a 1-D `x`, columns `x^(N-1) ..
/// x^0` (or increasing), in `x`'s dtype promoted with int64 as NumPy does (float32 → float64).
///
/// ```
/// let x = xp::Array::from_vec(vec![2, 3], [2]).unwrap();
/// let v = xp::vander(&x, xp::Vander::default()).unwrap();
/// assert_eq!(v.to_vec::<i64>().unwrap(), vec![2, 1, 3, 1]);
/// ```
pub fn vander(x: &Array, opts: Vander) -> Result<Array> {
    if x.ndim() != 1 {
        return Err(Error::invalid("vander", "x must be a one-dimensional array or sequence."));
    }
    let n = opts.n.unwrap_or(x.size());
    let d = xp_core::promote_types(x.dtype(), DType::I64);
    let len = x.size();
    let one = crate::full_on(x.device(), &[len, n.min(1)], 1, d)?;
    let v = if n > 1 {
        let rep = x.astype(d)?.reshape_exact(&[len, 1])?.broadcast_to([len, n - 1])?.cumprod(1)?;
        concatenate(&[&one, &rep.cast_if(d)?], 1)?
    } else {
        one
    };
    if opts.increasing {
        Ok(v)
    } else {
        v.flip(1)?.copy()
    }
}

/// NumPy's keyword arguments of [`geomspace`]; `Default` is NumPy's (`endpoint=True`,
/// float64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geomspace {
    /// include `stop` as the last value
    pub endpoint: bool,
    /// the result's dtype (`None`: float64)
    pub dtype: Option<DType>,
}

impl Default for Geomspace {
    fn default() -> Self {
        Geomspace { endpoint: true, dtype: None }
    }
}

/// NumPy `geomspace(start, stop, num)`: `num` numbers spaced evenly on a log scale from
/// `start` to `stop` (both negative: mirrored; the ends exact). A zero bound is refused; bounds
/// of opposite signs give NaN inside, as NumPy's real computation does (a complex `dtype` only
/// converts that result, where NumPy computes on the complex plane).
///
/// ```
/// let g = xp::geomspace(1.0, 1000.0, 4, xp::Geomspace::default()).unwrap();
/// let v = g.to_vec::<f64>().unwrap();
/// assert!((v[1] - 10.0).abs() < 1e-12 && v[3] == 1000.0);
/// ```
pub fn geomspace(start: f64, stop: f64, num: usize, opts: Geomspace) -> Result<Array> {
    geomspace_on(Device::Cpu, start, stop, num, opts)
}

/// [`geomspace`] on `device`.
///
/// ```
/// let g = xp::geomspace_on(xp::Device::Cpu, -1.0, -16.0, 5, xp::Geomspace::default()).unwrap();
/// let v = g.to_vec::<f64>().unwrap();
/// assert!((v[3] + 8.0).abs() < 1e-14 && v[4] == -16.0);
/// ```
pub fn geomspace_on(device: Device, start: f64, stop: f64, num: usize, opts: Geomspace) -> Result<Array> {
    if start == 0.0 || stop == 0.0 {
        return Err(Error::invalid("geomspace", "Geometric sequence cannot include zero"));
    }
    let sign = start.signum();
    let (s, e) = (start / sign, stop / sign);
    let r = crate::on(device).logspace(
        s.log10(),
        e.log10(),
        num,
        crate::Logspace { endpoint: opts.endpoint, dtype: None, ..Default::default() },
    )?;
    if num > 0 {
        r.slice([SliceElem::Index(0)])?.assign(s)?;
        if num > 1 && opts.endpoint {
            r.slice([SliceElem::Index(-1)])?.assign(e)?;
        }
    }
    r.mul(sign)?.cast_if(opts.dtype.unwrap_or(DType::F64))
}

fn diagonal_positions(op: &'static str, a: &Array, wrap: bool) -> Result<Array> {
    if a.ndim() < 2 {
        return Err(Error::invalid(op, "array must be at least 2-d"));
    }
    let s = a.shape();
    let step = if a.ndim() == 2 {
        s[1] + 1
    } else {
        if s.iter().any(|&d| d != s[0]) {
            return Err(Error::invalid(op, "All dimensions of input must be of equal length"));
        }
        (0..a.ndim()).map(|i| s[0].pow(i as u32)).sum()
    };
    let end = if a.ndim() == 2 && !wrap { s[1] * s[1] } else { a.size() }.min(a.size());
    let idx: Vec<i64> = (0..end).step_by(step).map(|i| i as i64).collect();
    index_array(a.device(), idx)
}

/// NumPy `fill_diagonal(a, val)`: writes `val` (a scalar or an array, repeated as needed) on the
/// main diagonal of `a` in place; `a` is 2-D, or of any rank with all axes equal. A tall matrix's
/// diagonal stops at the last column (see [`fill_diagonal_wrap`]).
///
/// ```
/// let a = xp::zeros([3, 3], xp::DType::I32).unwrap();
/// xp::fill_diagonal(&a, 7).unwrap();
/// assert_eq!(a.to_vec::<i32>().unwrap(), vec![7, 0, 0, 0, 7, 0, 0, 0, 7]);
/// ```
pub fn fill_diagonal<'a>(a: &Array, val: impl Into<Operand<'a>>) -> Result<()> {
    let idx = diagonal_positions("fill_diagonal", a, false)?;
    a.put(&idx, val, xp_core::IndexMode::Raise)
}

/// NumPy `fill_diagonal(a, val, wrap=True)`: as [`fill_diagonal`], but a tall matrix's diagonal
/// wraps after `N` columns (restarting `N + 1` rows further down).
///
/// ```
/// let a = xp::zeros([5, 2], xp::DType::I32).unwrap();
/// xp::fill_diagonal_wrap(&a, 1).unwrap();
/// assert_eq!(a.to_vec::<i32>().unwrap(), vec![1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
/// ```
pub fn fill_diagonal_wrap<'a>(a: &Array, val: impl Into<Operand<'a>>) -> Result<()> {
    let idx = diagonal_positions("fill_diagonal", a, true)?;
    a.put(&idx, val, xp_core::IndexMode::Raise)
}

/// NumPy `diag_indices_from(arr)`: [`crate::diag_indices`] of an array whose axes (at least two)
/// are all of one length.
///
/// ```
/// let a = xp::zeros([3, 3], None).unwrap();
/// let ix = xp::diag_indices_from(&a).unwrap();
/// assert_eq!(ix[1].to_vec::<i64>().unwrap(), vec![0, 1, 2]);
/// ```
pub fn diag_indices_from(arr: &Array) -> Result<Vec<Array>> {
    if arr.ndim() < 2 {
        return Err(Error::invalid("diag_indices_from", "input array must be at least 2-d"));
    }
    if arr.shape().iter().any(|&d| d != arr.shape()[0]) {
        return Err(Error::invalid("diag_indices_from", "All dimensions of input must be of equal length"));
    }
    crate::diag_indices(arr.shape()[0], arr.ndim(), arr.device())
}

fn matrix_dims(op: &'static str, arr: &Array) -> Result<(usize, usize)> {
    if arr.ndim() != 2 {
        return Err(Error::invalid(op, "input array must be 2-d"));
    }
    Ok((arr.shape()[0], arr.shape()[1]))
}

/// NumPy `tril_indices_from(arr, k)`: [`crate::tril_indices`] for the shape of a 2-D array.
///
/// ```
/// let a = xp::zeros([2, 3], None).unwrap();
/// let (r, c) = xp::tril_indices_from(&a, 0).unwrap();
/// assert_eq!((r.to_vec::<i64>().unwrap(), c.to_vec::<i64>().unwrap()), (vec![0, 1, 1], vec![0, 0, 1]));
/// ```
pub fn tril_indices_from(arr: &Array, k: isize) -> Result<(Array, Array)> {
    let (n, m) = matrix_dims("tril_indices_from", arr)?;
    crate::tril_indices(n, k, Some(m), arr.device())
}

/// NumPy `triu_indices_from(arr, k)`: [`crate::triu_indices`] for the shape of a 2-D array.
///
/// ```
/// let a = xp::zeros([2, 2], None).unwrap();
/// let (r, c) = xp::triu_indices_from(&a, 1).unwrap();
/// assert_eq!((r.to_vec::<i64>().unwrap(), c.to_vec::<i64>().unwrap()), (vec![0], vec![1]));
/// ```
pub fn triu_indices_from(arr: &Array, k: isize) -> Result<(Array, Array)> {
    let (n, m) = matrix_dims("triu_indices_from", arr)?;
    crate::triu_indices(n, k, Some(m), arr.device())
}

/// NumPy `resize(a, new_shape)`: a new array of `new_shape` filled with `a`'s elements in C
/// order, repeated as often as needed (zeros when `a` is empty).
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2, 3], [3]).unwrap();
/// assert_eq!(xp::resize(&a, [2, 4]).unwrap().to_vec::<i32>().unwrap(), vec![1, 2, 3, 1, 2, 3, 1, 2]);
/// ```
pub fn resize(a: &Array, new_shape: impl IntoShape) -> Result<Array> {
    let shape = crate::shape::shape_of("resize", new_shape)?;
    let total: usize = shape.iter().product();
    if a.size() == 0 || total == 0 {
        return crate::full_on(a.device(), &shape, 0, a.dtype());
    }
    let reps = total.div_ceil(a.size());
    let flat = a.ravel()?.tile(&[reps])?;
    flat.slice([SliceElem::from(0..total as isize)])?.reshape_exact(&shape)
}
