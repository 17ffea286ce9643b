//! SciPy's `upfirdn`: upsample (insert zeros), FIR filter, downsample, along one axis, with
//! zeros beyond the ends. Built on [`super::oaconvolve`], so it runs on every device.
use super::options::Upfirdn;
use super::{oaconvolve, Mode};
use crate::fft::slice_axis;
use crate::{Array, PadMode};
use xp_core::{normalize_axis, promote_types, DType, Error, Result, Scalar, SliceElem};

/// SciPy's `upfirdn(h, x, up, down, axis)` (its default `mode="constant"`, `cval=0`): `x` with
/// `up - 1` zeros after each sample, convolved with the 1-D filter `h` (in full), every
/// `down`-th sample kept: `((n - 1) up + len(h) - 1) / down + 1` points along `axis`.
///
/// The dtype is SciPy's `result_type(h, x, float32)`. Real signals are filtered as SciPy does,
/// by the polyphase sum (each output point sums the `len(h) / up` taps that meet a sample: one
/// thread per point on the GPU, the lines' points over the cores on the host); complex ones
/// by an FFT convolution (overlap-add for long signals) of the zero-stuffed signal. An empty
/// or non-1-D `h` and `up` or `down` of 0 are [`Error::InvalidArgument`]s.
///
/// ```
/// use xp::signal::{upfirdn, Upfirdn};
/// let h = xp::Array::from_vec(vec![1.0, 1.0], &[2]).unwrap();
/// let x = xp::Array::from_vec(vec![1.0, 2.0, 3.0], &[3]).unwrap();
/// // upsample by 2 with a zero-order hold
/// let y = upfirdn(&h, &x, Upfirdn { up: 2, ..Default::default() }).unwrap().to_vec::<f64>().unwrap();
/// let want = [1.0, 1.0, 2.0, 2.0, 3.0, 3.0];
/// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12));
/// ```
pub fn upfirdn(h: &Array, x: &Array, opts: Upfirdn) -> Result<Array> {
    let Upfirdn { up, down, axis } = opts;
    let op = "upfirdn";
    let ax = normalize_axis(op, axis, x.ndim())?;
    if h.ndim() != 1 || h.size() == 0 {
        return Err(Error::invalid(op, "h must be 1-D with non-zero length"));
    }
    if up < 1 || down < 1 {
        return Err(Error::invalid(op, "Both up and down must be >= 1"));
    }
    let d = promote_types(promote_types(h.dtype(), x.dtype()), DType::F32);
    let n = x.shape()[ax];
    if n == 0 {
        // SciPy's output length ((n - 1) up + len(h) - 1) // down + 1 still counts the filter's
        // tail past the (absent) signal: zeros
        let len = (h.size() as i64 - 1 - up as i64).div_euclid(down as i64) + 1;
        let mut shape = x.shape().to_vec();
        shape[ax] = len.max(0) as usize;
        return crate::on(x.device()).zeros(&shape, d);
    }
    let x = x.astype(d)?;
    if matches!(d, DType::F32 | DType::F64) {
        return direct(&h.astype(d)?, &x, up, down, ax);
    }
    let stuffed = if up > 1 {
        // (…, n, 1, …) padded to (…, n, up, …) and merged: each sample then up - 1 zeros
        let mut w = vec![(0, 0); x.ndim() + 1];
        w[ax + 1] = (0, up - 1);
        let mut shape: Vec<isize> = x.shape().iter().map(|&v| v as isize).collect();
        shape[ax] = (n * up) as isize;
        let s = x.expand_dims(ax as isize + 1)?.pad(&w, PadMode::Constant(Scalar::Int(0)))?.reshape(&shape)?;
        slice_axis(&s, ax, 0, (n - 1) * up + 1)?
    } else {
        x
    };
    let mut hshape = vec![1; stuffed.ndim()];
    hshape[ax] = h.size();
    let h = h.astype(d)?.reshape(hshape.iter().map(|&v| v as isize).collect::<Vec<_>>())?;
    let y = oaconvolve(&stuffed, &h, Mode::Full, Some(&[ax as isize]))?;
    let mut ix = vec![SliceElem::Slice { start: None, stop: None, step: 1 }; y.ndim()];
    ix[ax] = SliceElem::Slice { start: None, stop: None, step: down as isize };
    y.slice(ix)?.copy()
}

/// `Σ a[i] b[i]` in four interleaved sums (one running sum is a chain of dependent additions).
#[inline]
fn dot<T: Copy + Default + std::ops::Add<Output = T> + std::ops::Mul<Output = T>>(a: &[T], b: &[T]) -> T {
    let mut s = [T::default(); 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for j in 0..4 {
            s[j] = s[j] + x[j] * y[j];
        }
    }
    let mut t = (s[0] + s[1]) + (s[2] + s[3]);
    for (&x, &y) in ra.iter().zip(rb) {
        t = t + x * y;
    }
    t
}

/// The polyphase sums of every line on the host, the points over the cores: the filter split
/// into its `up` phases, each reversed, so that a point is one contiguous dot product of its
/// phase with the samples it meets.
fn host<T: xp_core::Element + Default + std::ops::Add<Output = T> + std::ops::Mul<Output = T>>(
    x: &Array,
    h: &Array,
    n: usize,
    nout: usize,
    up: usize,
    down: usize,
) -> Result<Array> {
    use rayon::prelude::*;
    let (xv, hv) = (x.to_vec::<T>()?, h.to_vec::<T>()?);
    // phase f holds h[f], h[f + up], … reversed
    let phases: Vec<Vec<T>> =
        (0..up).map(|f| (f..hv.len()).step_by(up).map(|k| hv[k]).rev().collect::<Vec<T>>()).collect();
    let lines = x.size() / n;
    let (dq, dr) = (down / up, down % up);
    // from the host pool (a fresh buffer's page faults cost a tenth of the filtering)
    let mut y = xp_cpu::pool::alloc::<T>(lines * nout);
    y.resize(lines * nout, T::default());
    y.par_chunks_mut(4096).enumerate().for_each(|(c, out)| {
        // the chunk's first point by division, the rest by steps of `down` (four integer
        // divisions a point cost more than its multiply-adds)
        let i0 = c * 4096;
        let (mut line, mut p) = (i0 / nout, i0 % nout);
        let (mut j, mut f) = ((p * down) / up, (p * down) % up);
        for v in out.iter_mut() {
            let xs = &xv[line * n..(line + 1) * n];
            let ph = &phases[f];
            let len = ph.len();
            // taps m = 0 .. len meet sample j - m where 0 <= j - m < n; reversed, tap
            // index len - 1 - m meets sample j - m
            let m_lo = j.saturating_sub(n - 1);
            let m_hi = len.min(j + 1);
            if m_lo < m_hi {
                let (a, b) = (len - m_hi, len - m_lo);
                *v = dot(&ph[a..b], &xs[j + 1 - m_hi..j + 1 - m_lo]);
            }
            p += 1;
            if p == nout {
                (line, p, j, f) = (line + 1, 0, 0, 0);
            } else {
                f += dr;
                j += dq;
                if f >= up {
                    f -= up;
                    j += 1;
                }
            }
        }
    });
    Array::from_vec(y, [lines, nout])
}

/// The polyphase sum of one output point on the GPU (as [`host`] sums it, in one running sum).
const POINT_BODY: &str = "const long long line = i / nout, p = i - line * nout, t = p * down;
long long j = t / up, k = t - j * up;
if (j > n - 1) { k += (j - (n - 1)) * up; j = n - 1; }
T acc = 0;
for (; k < nh && j >= 0; k += up, --j) acc += h[k] * x[line * n + j];
y = acc;";

/// SciPy's polyphase `upfirdn` of real `x` (of the result dtype) along `ax`.
fn direct(h: &Array, x: &Array, up: usize, down: usize, ax: usize) -> Result<Array> {
    let n = x.shape()[ax];
    let nout = ((n - 1) * up + h.size() - 1) / down + 1;
    let lines = x.moveaxis(ax as isize, -1)?.ascontiguousarray()?;
    let h = h.ascontiguousarray()?;
    let mut shape = lines.shape().to_vec();
    *shape.last_mut().expect("at least one axis") = nout;
    let y = match (x.device(), x.dtype()) {
        (xp_core::Device::Cuda(_), _) => {
            use crate::kernel::ElementwiseKernel;
            static K: std::sync::OnceLock<ElementwiseKernel> = std::sync::OnceLock::new();
            let k = crate::kernel::once(&K, || {
                let sig = "int8 z, raw T x, raw T h, int64 n, int64 nh, int64 nout, int64 up, int64 down";
                ElementwiseKernel::new(sig, "T y", POINT_BODY, "xp_upfirdn")
            })?;
            let at = crate::kernel::shape_only(&shape, x.device())?;
            let (nh, nt) = (h.size() as i64, n as i64);
            let args = [
                (&at).into(),
                (&lines).into(),
                (&h).into(),
                nt.into(),
                nh.into(),
                (nout as i64).into(),
                (up as i64).into(),
                (down as i64).into(),
            ];
            k.call1(&args)?
        }
        (_, DType::F32) => host::<f32>(&lines, &h, n, nout, up, down)?.reshape_exact(&shape)?.to_device(x.device())?,
        _ => host::<f64>(&lines, &h, n, nout, up, down)?.reshape_exact(&shape)?.to_device(x.device())?,
    };
    y.moveaxis(-1, ax as isize)?.ascontiguousarray()
}
