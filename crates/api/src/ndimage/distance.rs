//! SciPy's `ndimage.distance_transform_edt`: the exact Euclidean distance from every non-zero
//! element to the nearest zero element, and which zero element that is (the feature transform).
//!
//! The feature transform is SciPy's separable algorithm (Maurer, Qi and Raghavan's: per axis, the
//! lower envelope of the parabolas of the features found so far, one pass along each axis in
//! turn, with SciPy's comparisons in SciPy's order, so that equidistant features are chosen as
//! SciPy chooses them). A lower envelope is a sequential scan of each line, which array
//! operations do not express, so each device runs it natively: the CPU scans the lines on its
//! cores, the GPU runs one thread per line (a `RawKernel` compiled without fused multiply-adds,
//! so its comparisons round as the CPU's do). Nothing goes through the host on the GPU. The
//! distances are then array operations on the indices, as SciPy computes them.
//!
//! ```
//! use xp::ndimage::distance_transform_edt;
//! let x = xp::Array::from_vec(vec![0u8, 1, 1, 1, 1, 0, 1, 1], &[2, 4]).unwrap();
//! let r = distance_transform_edt(&x, None, true, true).unwrap();
//! let d = r.distances.unwrap().to_vec::<f64>().unwrap();
//! assert_eq!(d[..4], [0.0, 1.0, 2.0_f64.sqrt(), 5.0_f64.sqrt()]);
//! assert_eq!(r.indices.unwrap().to_vec::<i32>().unwrap()[..4], [0, 0, 1, 1]); // the rows
//! ```
use super::per_axis;
use crate::Array;
use xp_core::{DType, Device, Error, Result};

/// The result of [`distance_transform_edt`]: SciPy's `(distances, indices)`, each present when
/// asked for.
///
/// ```
/// use xp::ndimage::distance_transform_edt;
/// let x = xp::Array::from_vec(vec![0, 1, 1], &[3]).unwrap();
/// let r = distance_transform_edt(&x, None, false, true).unwrap();
/// assert!(r.distances.is_none());
/// assert_eq!(r.indices.unwrap().to_vec::<i32>().unwrap(), vec![0, 0, 0]);
/// ```
#[derive(Clone, Debug)]
pub struct DistanceTransform {
    /// float64 of the input's shape: the distance to the nearest zero element (scaled by
    /// `sampling`)
    pub distances: Option<Array>,
    /// int32 of shape `(ndim,) + shape`: the coordinates of that zero element
    pub indices: Option<Array>,
}

/// SciPy's `distance_transform_edt(input, sampling, return_distances, return_indices)`: for each
/// non-zero element of `input`, the Euclidean distance to the nearest zero element (0 on zero
/// elements), with `sampling` the spacing along each axis (one value or one per axis; `None`:
/// 1), and the coordinates of that element (int32, as SciPy's). An input without zero elements
/// gives SciPy's answer (indices -1 along the first axis and 0 along the others). A 0-d input is
/// treated as 1-D, as SciPy's `atleast_1d`. At least one of the two results must be asked for.
///
/// ```
/// use xp::ndimage::distance_transform_edt;
/// let x = xp::Array::from_vec(vec![1.0, 1.0, 0.0, 1.0, 1.0, 1.0], &[6]).unwrap();
/// let d = distance_transform_edt(&x, Some(&[0.5]), true, false).unwrap().distances.unwrap();
/// assert_eq!(d.to_vec::<f64>().unwrap(), vec![1.0, 0.5, 0.0, 0.5, 1.0, 1.5]);
/// ```
pub fn distance_transform_edt(
    input: &Array,
    sampling: Option<&[f64]>,
    return_distances: bool,
    return_indices: bool,
) -> Result<DistanceTransform> {
    let op = "distance_transform_edt";
    if !return_distances && !return_indices {
        return Err(Error::invalid(op, "at least one of return_distances/return_indices must be True"));
    }
    let x = if input.ndim() == 0 { input.reshape_exact(&[1])? } else { input.clone() };
    let shape = x.shape().to_vec();
    let rank = shape.len();
    let sampling = match sampling {
        Some(s) => {
            let s = per_axis(op, "sampling", s, rank)?;
            if s.iter().any(|v| !v.is_finite()) {
                return Err(Error::invalid(op, format!("sampling must be finite: {s:?}")));
            }
            s
        }
        None => vec![1.0; rank],
    };
    if shape.iter().any(|&n| n > i32::MAX as usize) {
        return Err(Error::invalid(op, "an axis longer than int32 indices can address"));
    }
    let fg = x.not_equal(0)?;
    let ft = match x.device() {
        Device::Cpu => feature_transform_host(&fg.to_vec::<bool>()?, &shape, &sampling)?,
        Device::Cuda(_) => feature_transform_gpu(&fg, &shape, &sampling)?,
    };
    let distances = if return_distances {
        // SciPy: (ft - indices) as float64, times the sampling, squared, summed over the axes
        let at = crate::on(x.device()).indices(&shape[..], DType::I32)?;
        let mut acc: Option<Array> = None;
        for (a, &s) in sampling.iter().enumerate() {
            let d = ft.slice(crate::s![a as isize])?.sub(&at.slice(crate::s![a as isize])?)?.astype(DType::F64)?;
            let d = d.mul(s)?;
            let sq = d.mul(&d)?;
            acc = Some(match acc {
                None => sq,
                Some(q) => q.add(&sq)?,
            });
        }
        Some(acc.expect("at least one axis").sqrt()?)
    } else {
        None
    };
    Ok(DistanceTransform { distances, indices: return_indices.then_some(ft) })
}

/// Where the lines along `axis` start in a C-order array of `shape`: (the flat start of line
/// `t`, the stride along the axis).
fn line_start(shape: &[usize], axis: usize, t: usize) -> (usize, usize) {
    let inner: usize = shape[axis + 1..].iter().product();
    let (o, i) = (t / inner.max(1), t % inner.max(1));
    (o * shape[axis] * inner + i, inner)
}

/// A pass of the feature transform: the rank, the axis of the lines, the sampling.
#[derive(Clone, Copy)]
struct Pass<'a> {
    rank: usize,
    axis: usize,
    s: &'a [f64],
}

/// SciPy's `_VoronoiFT` on one line of `n` features `f` (`rank` components each, row-major) along
/// the pass's axis, at coordinates `coor` on the other axes; the nearest feature of each element is written
/// to `out` (row-major, as `f`). `g` is scratch of `n`.
fn voronoi_line(f: &[i64], n: usize, pass: Pass, coor: &[i64], g: &mut [usize], out: &mut [i64]) {
    let Pass { rank, axis, s } = pass;
    let other = |k: usize, jj: usize| (f[k * rank + jj] - coor[jj]) as f64 * s[jj];
    let ring = |k: usize| -> f64 {
        let mut r = 0.0;
        for jj in (0..rank).filter(|&jj| jj != axis) {
            let t = other(k, jj);
            r += t * t;
        }
        r
    };
    let mut l: isize = -1;
    for ii in 0..n {
        if f[ii * rank] < 0 {
            continue;
        }
        let fd = f[ii * rank + axis] as f64;
        let w_r = ring(ii);
        while l >= 1 {
            let (idx1, idx2) = (g[l as usize], g[l as usize - 1]);
            let f1 = f[idx1 * rank + axis] as f64;
            let a = (f1 - f[idx2 * rank + axis] as f64) * s[axis];
            let b = (fd - f1) * s[axis];
            let c = a + b;
            let (u_r, v_r) = (ring(idx2), ring(idx1));
            if c * v_r - b * u_r - a * w_r - a * b * c <= 0.0 {
                break;
            }
            l -= 1;
        }
        l += 1;
        g[l as usize] = ii;
    }
    if l < 0 {
        out.copy_from_slice(&f[..n * rank]);
        return;
    }
    let maxl = l as usize;
    let dist = |k: usize, ii: usize| -> f64 {
        let mut r = 0.0;
        for jj in 0..rank {
            let t =
                if jj == axis { (f[k * rank + jj] - ii as i64) as f64 } else { (f[k * rank + jj] - coor[jj]) as f64 };
            let t = t * s[jj];
            r += t * t;
        }
        r
    };
    let mut l = 0usize;
    for ii in 0..n {
        let mut d1 = dist(g[l], ii);
        while l < maxl {
            let d2 = dist(g[l + 1], ii);
            if d1 <= d2 {
                break;
            }
            d1 = d2;
            l += 1;
        }
        out[ii * rank..(ii + 1) * rank].copy_from_slice(&f[g[l] * rank..(g[l] + 1) * rank]);
    }
}

/// The feature transform on the CPU: SciPy's passes along axes 0, 1, …, the lines of a pass on
/// the cores.
fn feature_transform_host(fg: &[bool], shape: &[usize], s: &[f64]) -> Result<Array> {
    use rayon::prelude::*;
    let rank = shape.len();
    let size: usize = shape.iter().product();
    // element-major features: ft[e * rank + c]; zero elements are their own feature, the others
    // start as SciPy's (-1, 0, …, 0)
    let mut ft = vec![0i64; size * rank];
    for (e, &is_fg) in fg.iter().enumerate() {
        if is_fg {
            ft[e * rank] = -1;
        } else {
            let mut r = e;
            for a in (0..rank).rev() {
                ft[e * rank + a] = (r % shape[a]) as i64;
                r /= shape[a];
            }
        }
    }
    for axis in 0..rank {
        let n = shape[axis];
        if n == 0 || size == 0 {
            break;
        }
        let lines = size / n;
        let results: Vec<Vec<i64>> = (0..lines)
            .into_par_iter()
            .with_min_len(64)
            .map_init(
                || (vec![0i64; n * rank], vec![0usize; n], vec![0i64; rank]),
                |(f, g, coor), t| {
                    let (start, stride) = line_start(shape, axis, t);
                    let mut r = start;
                    for a in (0..rank).rev() {
                        coor[a] = (r % shape[a]) as i64;
                        r /= shape[a];
                    }
                    for k in 0..n {
                        let e = start + k * stride;
                        f[k * rank..(k + 1) * rank].copy_from_slice(&ft[e * rank..(e + 1) * rank]);
                    }
                    let mut out = vec![0i64; n * rank];
                    voronoi_line(f, n, Pass { rank, axis, s }, coor, g, &mut out);
                    out
                },
            )
            .collect();
        for (t, out) in results.into_iter().enumerate() {
            let (start, stride) = line_start(shape, axis, t);
            for k in 0..n {
                let e = start + k * stride;
                ft[e * rank..(e + 1) * rank].copy_from_slice(&out[k * rank..(k + 1) * rank]);
            }
        }
    }
    // component-major int32, as SciPy's (ndim,) + shape
    let mut out = vec![0i32; size * rank];
    for e in 0..size {
        for c in 0..rank {
            out[c * size + e] = ft[e * rank + c] as i32;
        }
    }
    let mut oshape = vec![rank];
    oshape.extend_from_slice(shape);
    Array::from_vec(out, &oshape[..])
}

/// The GPU's pass along one axis: a thread per line runs SciPy's `_VoronoiFT` over the
/// component-major int32 features `ft` (`rank × size`), with scratch `fbuf` (`rank` ints per
/// element) and `gbuf` (an int per element), in double precision without fused multiply-adds.
const EDT_CUDA: &str = r#"
extern "C" __global__ void xp_edt_pass(int* ft, int* fbuf, int* gbuf, const double* s, const long long* shape,
                                       int rank, int d, long long size) {
  const long long n = shape[d];
  long long inner = 1;
  for (int a = d + 1; a < rank; ++a) inner *= shape[a];
  const long long lines = size / n;
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= lines) return;
  const long long o = t / inner, i = t - o * inner;
  const long long start = o * n * inner + i;
  long long coor[32];
  {
    long long r = start;
    for (int a = rank - 1; a >= 0; --a) { coor[a] = r % shape[a]; r /= shape[a]; }
  }
  int* f = fbuf + t * n * rank;
  int* g = gbuf + t * n;
  for (long long k = 0; k < n; ++k)
    for (int c = 0; c < rank; ++c) f[k * rank + c] = ft[c * size + start + k * inner];
  long long l = -1;
  for (long long ii = 0; ii < n; ++ii) {
    if (f[ii * rank] < 0) continue;
    const double fd = (double)f[ii * rank + d];
    double wR = 0.0;
    for (int jj = 0; jj < rank; ++jj)
      if (jj != d) { const double tw = (double)(f[ii * rank + jj] - coor[jj]) * s[jj]; wR += tw * tw; }
    while (l >= 1) {
      const long long idx1 = g[l], idx2 = g[l - 1];
      const double f1 = (double)f[idx1 * rank + d];
      const double a = (f1 - (double)f[idx2 * rank + d]) * s[d];
      const double b = (fd - f1) * s[d];
      const double c = a + b;
      double uR = 0.0, vR = 0.0;
      for (int jj = 0; jj < rank; ++jj)
        if (jj != d) {
          const double tu = (double)(f[idx2 * rank + jj] - coor[jj]) * s[jj];
          const double tv = (double)(f[idx1 * rank + jj] - coor[jj]) * s[jj];
          uR += tu * tu;
          vR += tv * tv;
        }
      if (c * vR - b * uR - a * wR - a * b * c <= 0.0) break;
      --l;
    }
    ++l;
    g[l] = (int)ii;
  }
  if (l < 0) return;
  const long long maxl = l;
  l = 0;
  for (long long ii = 0; ii < n; ++ii) {
    double d1 = 0.0;
    for (int jj = 0; jj < rank; ++jj) {
      const double tt = (double)(jj == d ? f[g[l] * rank + jj] - ii : f[g[l] * rank + jj] - coor[jj]) * s[jj];
      d1 += tt * tt;
    }
    while (l < maxl) {
      double d2 = 0.0;
      for (int jj = 0; jj < rank; ++jj) {
        const double tt = (double)(jj == d ? f[g[l + 1] * rank + jj] - ii : f[g[l + 1] * rank + jj] - coor[jj]) * s[jj];
        d2 += tt * tt;
      }
      if (d1 <= d2) break;
      d1 = d2;
      ++l;
    }
    for (int c = 0; c < rank; ++c) ft[c * size + start + ii * inner] = f[g[l] * rank + c];
  }
}
"#;

/// The feature transform on the GPU: the starting features as array operations, then one
/// [`EDT_CUDA`] launch per axis.
fn feature_transform_gpu(fg: &Array, shape: &[usize], s: &[f64]) -> Result<Array> {
    use crate::kernel::RawKernel;
    static K: std::sync::OnceLock<RawKernel> = std::sync::OnceLock::new();
    let op = "distance_transform_edt";
    let rank = shape.len();
    if rank > 32 {
        return Err(Error::invalid(op, "the GPU's feature transform takes up to 32 axes"));
    }
    let size: usize = shape.iter().product();
    let on = crate::on(fg.device());
    // zero elements: their own coordinates; the others SciPy's (-1, 0, …, 0)
    let at = on.indices(shape, DType::I32)?;
    let mut start = vec![-1i32];
    start.resize(rank, 0);
    let mut bshape = vec![rank];
    bshape.extend(std::iter::repeat_n(1, rank));
    let fill = on.asarray(start, &bshape[..])?;
    let ft = crate::where_(fg, &fill, &at)?.ascontiguousarray()?;
    if size == 0 {
        return Ok(ft);
    }
    let k = K.get_or_init(|| RawKernel::new(EDT_CUDA, "xp_edt_pass", &["--fmad=false"]));
    let fbuf = on.empty([size * rank], DType::I32)?;
    let gbuf = on.empty([size], DType::I32)?;
    let sd = on.asarray(s.to_vec(), [rank])?;
    let sh = on.asarray(shape.iter().map(|&n| n as i64).collect::<Vec<_>>(), [rank])?;
    for (axis, &n) in shape.iter().enumerate() {
        let lines = (size / n) as u32;
        let args = [
            (&ft).into(),
            (&fbuf).into(),
            (&gbuf).into(),
            (&sd).into(),
            (&sh).into(),
            (rank as i32).into(),
            (axis as i32).into(),
            (size as i64).into(),
        ];
        k.launch(lines.div_ceil(128), 128u32, &args)?;
    }
    Ok(ft)
}
