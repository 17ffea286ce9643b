//! SciPy's `sosfilt` and `sosfilt_zi`: a cascade of second-order sections, each in direct form
//! II transposed, along an axis, through the filter family like `lfilter`.
use super::lfilter::{host_coefs, steady_state, zi_dtype, Filtered};
use super::lines::{filter_lines, work_dtype};
use super::options::Iir;
use crate::Array;
use xp_core::{normalize_axis, Complex64, Error, RecursionKind, Result};

/// SciPy's `_validate_sos`: a 2-D `(n_sections, 6)` array whose `a0` column is all ones; its
/// values on the host.
fn validate(op: &'static str, sos: &Array) -> Result<Vec<Complex64>> {
    if sos.ndim() != 2 || sos.shape()[1] != 6 {
        return Err(Error::invalid(op, "sos array must be shape (n_sections, 6)"));
    }
    let v = host_coefs(op, "sos", &sos.ravel()?)?;
    if v.chunks_exact(6).any(|s| s[3] != Complex64::new(1.0, 0.0)) {
        return Err(Error::invalid(op, "sos[:, 3] should be all ones"));
    }
    Ok(v)
}

/// SciPy's `sosfilt(sos, x, axis, zi)`: `x` filtered along `axis` by the cascade of the second
/// order sections `sos` (shape `(n_sections, 6)`, each row `b0 b1 b2 a0 a1 a2` with `a0 = 1`).
/// `zi` has shape `(n_sections, ..., 2, ...)`: `x`'s shape with 2 along `axis`, after the
/// section axis; with it the final state comes back in the same shape.
///
/// The dtype is the common one of `sos`, `x` (and `zi`): float32, float64, complex64 or
/// complex128, else [`Error::InvalidDType`]. A malformed `sos` or `zi` is an
/// [`Error::InvalidArgument`]. A GPU array is filtered on the GPU (more than 8 sections on the
/// host).
///
/// ```
/// use xp::signal::sosfilt;
/// // one section: y[n] = x[n] + y[n-1] / 2
/// let sos = xp::Array::from_vec(vec![1.0, 0.0, 0.0, 1.0, -0.5, 0.0], &[1, 6]).unwrap();
/// let x = xp::Array::from_vec(vec![1.0, 0.0, 0.0], &[3]).unwrap();
/// let y = sosfilt(&sos, &x, Default::default()).unwrap().y;
/// assert_eq!(y.to_vec::<f64>().unwrap(), vec![1.0, 0.5, 0.25]);
/// ```
pub fn sosfilt(sos: &Array, x: &Array, opts: Iir) -> Result<Filtered> {
    let Iir { axis, zi } = opts;
    let op = "sosfilt";
    let ax = normalize_axis(op, axis, x.ndim())?;
    validate(op, sos)?;
    let n = sos.shape()[0];
    let mut dtypes = vec![sos.dtype(), x.dtype()];
    dtypes.extend(zi.map(|z| z.dtype()));
    let d = work_dtype(op, &dtypes)?;
    let mut want = vec![n];
    want.extend(x.shape());
    want[ax + 1] = 2;
    let zl = match zi {
        Some(z) if z.shape() != want.as_slice() => {
            return Err(Error::invalid(
                op,
                format!(
                    "Invalid zi shape. With axis={axis}, an input with shape {:?}, and an sos array with {n} \
                     sections, zi must have shape {want:?}, got {:?}.",
                    x.shape(),
                    z.shape()
                ),
            ))
        }
        // (sections, ..., 2, ...) -> (..., sections, 2): one line's state is contiguous
        Some(z) => Some(z.moveaxis(ax as isize + 1, -1)?.moveaxis(0, -2)?.reshape(lines_shape(x, ax, 2 * n))?),
        None => None,
    };
    let xl = x.moveaxis(ax as isize, -1)?;
    let (y, zf) = filter_lines(op, RecursionKind::Sos, d, &sos.ravel()?, &xl, zl.as_ref())?;
    let zf = match zi {
        Some(_) => {
            let mut s: Vec<isize> = zf.shape()[..zf.ndim() - 1].iter().map(|&v| v as isize).collect();
            s.extend([n as isize, 2]);
            Some(zf.reshape(&s)?.moveaxis(-2, 0)?.moveaxis(-1, ax as isize + 1)?)
        }
        None => None,
    };
    Ok(Filtered { y: y.moveaxis(-1, ax as isize)?, zf })
}

/// `x`'s shape without `axis`, then `last`, as reshape's argument.
fn lines_shape(x: &Array, axis: usize, last: usize) -> Vec<isize> {
    let mut s: Vec<isize> =
        x.shape().iter().enumerate().filter(|&(i, _)| i != axis).map(|(_, &v)| v as isize).collect();
    s.push(last as isize);
    s
}

/// SciPy's `sosfilt_zi(sos)`: the initial state of [`sosfilt`] (shape `(n_sections, 2)`) for
/// the steady state of a unit step: each section's `lfilter_zi`, scaled by the DC gain of the
/// sections before it. The dtype is `sos`'s (integers: float64); on `sos`'s device.
///
/// ```
/// use xp::signal::sosfilt_zi;
/// let sos = xp::Array::from_vec(vec![0.5, 0.5, 0.0, 1.0, 0.0, 0.0], &[1, 6]).unwrap();
/// assert_eq!(sosfilt_zi(&sos).unwrap().to_vec::<f64>().unwrap(), vec![0.5, 0.0]);
/// ```
pub fn sosfilt_zi(sos: &Array) -> Result<Array> {
    let op = "sosfilt_zi";
    if sos.ndim() != 2 || sos.shape()[1] != 6 {
        return Err(Error::invalid(op, "sos must be shape (n_sections, 6)"));
    }
    let v = host_coefs(op, "sos", &sos.ravel()?)?;
    let mut scale = Complex64::new(1.0, 0.0);
    let mut out = Vec::with_capacity(v.len() / 3);
    for s in v.chunks_exact(6) {
        let (b, a) = s.split_at(3);
        out.extend(steady_state(op, b, a)?.into_iter().map(|z| z * scale));
        scale *= b.iter().sum::<Complex64>() / a.iter().sum::<Complex64>();
    }
    crate::on(sos.device()).asarray(out, [v.len() / 6, 2])?.astype(zi_dtype(sos.dtype()))
}
