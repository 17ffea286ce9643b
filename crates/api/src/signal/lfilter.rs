//! SciPy's `lfilter` and `lfilter_zi`: a rational transfer function `B(z) / A(z)` applied along
//! an axis in direct form II transposed, and the initial state of its step response.
//!
//! The recursion runs through the filter family ([`super::lines`]): on the CPU an
//! order-specialised loop per line, on the GPU a chunked parallel scan of the linear recurrence.
use super::lines::{filter_lines, work_dtype};
use super::options::Iir;
use crate::Array;
use xp_core::{normalize_axis, Complex64, DType, Error, RecursionKind, Result, SliceElem};

/// A filter's output and, when an initial state was given, its final state (SciPy's `(y, zf)`).
#[derive(Clone, Debug)]
pub struct Filtered {
    /// the filtered signal, the shape of the input
    pub y: Array,
    /// the final state, the shape of the given `zi` (None when no `zi` was given)
    pub zf: Option<Array>,
}

/// The values of a 1-D coefficient array as complex128 on the host (coefficients are short).
pub(super) fn host_coefs(op: &'static str, name: &str, c: &Array) -> Result<Vec<Complex64>> {
    if c.ndim() != 1 || c.size() == 0 {
        return Err(Error::invalid(
            op,
            format!("Parameter {name} is not a non-empty 1d array, since {name}.shape={:?}!", c.shape()),
        ));
    }
    c.astype(DType::C128)?.to_vec()
}

/// `b` then `a`, normalised by `a[0]` and zero-padded to their common length, in dtype `d`,
/// as one flat array on `b`'s device.
fn normalised(b: &Array, a: &Array, d: DType) -> Result<Array> {
    let k = b.size().max(a.size());
    let a = a.astype(d)?;
    let a0 = a.slice([SliceElem::Slice { start: Some(0), stop: Some(1), step: 1 }])?;
    let pad =
        |c: &Array| c.astype(d)?.div(&a0)?.pad(&[(0, k - c.size())], crate::PadMode::Constant(xp_core::Scalar::Int(0)));
    crate::concatenate(&[&pad(b)?, &pad(&a)?], 0)
}

/// SciPy's `lfilter(b, a, x, axis, zi)`: `x` filtered along `axis` by `B(z) / A(z)`, in direct
/// form II transposed. `zi`, the initial state, has `x`'s shape with `max(len(a), len(b)) - 1`
/// along `axis` (other axes of length 1 broadcast); with it the final state comes back too.
///
/// The computation runs in the common dtype of `b`, `a`, `x` (and `zi`), which must be float32,
/// float64, complex64 or complex128 ([`Error::InvalidDType`] otherwise, as SciPy refuses
/// integers). Empty `b` or `a`, `a[0] == 0` and a `zi` of the wrong shape are
/// [`Error::InvalidArgument`]s. A GPU array is filtered on the GPU (a state of more than 16
/// values on the host).
///
/// ```
/// use xp::signal::lfilter;
/// let b = xp::Array::from_vec(vec![1.0], &[1]).unwrap();
/// let a = xp::Array::from_vec(vec![1.0, -0.5], &[2]).unwrap(); // y[n] = x[n] + y[n-1] / 2
/// let x = xp::Array::from_vec(vec![1.0, 0.0, 0.0], &[3]).unwrap();
/// let y = lfilter(&b, &a, &x, Default::default()).unwrap().y;
/// assert_eq!(y.to_vec::<f64>().unwrap(), vec![1.0, 0.5, 0.25]);
/// ```
pub fn lfilter(b: &Array, a: &Array, x: &Array, opts: Iir) -> Result<Filtered> {
    let Iir { axis, zi } = opts;
    let op = "lfilter";
    let ax = normalize_axis(op, axis, x.ndim())?;
    host_coefs(op, "b", b)?;
    let av = host_coefs(op, "a", a)?;
    if av[0] == Complex64::new(0.0, 0.0) {
        return Err(Error::invalid(op, "BUG: filter coefficient a[0] == 0 not supported yet"));
    }
    let mut dtypes = vec![b.dtype(), a.dtype(), x.dtype()];
    dtypes.extend(zi.map(|z| z.dtype()));
    let d = work_dtype(op, &dtypes)?;
    let k = b.size().max(a.size());
    let zi = match zi {
        Some(z) => {
            let mut want = x.shape().to_vec();
            want[ax] = k - 1;
            let fits = z.ndim() == x.ndim()
                && z.shape().iter().zip(&want).enumerate().all(|(i, (&g, &w))| g == w || (i != ax && g == 1));
            if !fits {
                return Err(Error::invalid(
                    op,
                    format!("Unexpected shape for zi: expected {want:?}, found {:?}.", z.shape()),
                ));
            }
            Some(z.broadcast_to(&want)?.moveaxis(ax as isize, -1)?)
        }
        None => None,
    };
    let coef = normalised(b, a, d)?;
    let xl = x.moveaxis(ax as isize, -1)?;
    let (y, zf) = filter_lines(op, RecursionKind::Df2t, d, &coef, &xl, zi.as_ref())?;
    let y = y.moveaxis(-1, ax as isize)?;
    let zf = match zi {
        Some(_) => Some(zf.moveaxis(-1, ax as isize)?),
        None => None,
    };
    Ok(Filtered { y, zf })
}

/// The steady state of a unit step through `B(z) / A(z)` in direct form II transposed (the
/// state that `lfilter_zi` returns), computed in complex128: with `y = Σb / Σa`, the state
/// `z[k] = Σ_{j > k} (b[j] - a[j] y)`. This is the solution SciPy finds with a linear solve of
/// `(I - Aᵀ) z = b[1:] - a[1:] b[0]`, whose matrix is singular exactly when `Σa = 0`.
pub(super) fn steady_state(op: &'static str, b: &[Complex64], a: &[Complex64]) -> Result<Vec<Complex64>> {
    let zero = Complex64::new(0.0, 0.0);
    let lead = a.iter().position(|&v| v != zero).unwrap_or(a.len().saturating_sub(1));
    let a = &a[lead..];
    if a.is_empty() {
        return Err(Error::invalid(op, "There must be at least one nonzero `a` coefficient."));
    }
    let k = a.len().max(b.len());
    if a[0] == zero {
        // SciPy divides by the zero and answers NaN
        return Ok(vec![Complex64::new(f64::NAN, f64::NAN); k - 1]);
    }
    let at = |c: &[Complex64], i: usize| c.get(i).map_or(zero, |&v| v / a[0]);
    let (sb, sa): (Complex64, Complex64) = ((0..k).map(|i| at(b, i)).sum(), (0..k).map(|i| at(a, i)).sum());
    if sa == zero {
        return Err(Error::invalid(op, "Singular matrix: the filter has a pole at z = 1"));
    }
    let y = sb / sa;
    let mut z = vec![zero; k - 1];
    let mut acc = zero;
    for j in (1..k).rev() {
        acc += at(b, j) - at(a, j) * y;
        z[j - 1] = acc;
    }
    Ok(z)
}

/// The dtype SciPy's `lfilter_zi` / `sosfilt_zi` return for coefficients of dtype `d`:
/// single and double precision floats and complex stay, others become float64.
pub(super) fn zi_dtype(d: DType) -> DType {
    match d {
        DType::F32 | DType::F64 | DType::C64 | DType::C128 => d,
        _ => DType::F64,
    }
}

/// SciPy's `lfilter_zi(b, a)`: the initial state of [`lfilter`] for which a unit step input
/// gives its steady state from the first sample (scale it by the first input value). Leading
/// zeros of `a` are dropped (an all-zero `a` gives NaN, as SciPy's division by it does); empty
/// `a` or `b` and a filter with a pole at `z = 1` are [`Error::InvalidArgument`]s. The dtype is that of `b` and `a` together (integers: float64);
/// the result is on `b`'s device.
///
/// ```
/// use xp::signal::lfilter_zi;
/// let b = xp::Array::from_vec(vec![0.5, 0.5], &[2]).unwrap();
/// let a = xp::Array::from_vec(vec![1.0, 0.0], &[2]).unwrap();
/// assert_eq!(lfilter_zi(&b, &a).unwrap().to_vec::<f64>().unwrap(), vec![0.5]);
/// ```
pub fn lfilter_zi(b: &Array, a: &Array) -> Result<Array> {
    let op = "lfilter_zi";
    let (bv, av) = (host_coefs(op, "b", b)?, host_coefs(op, "a", a)?);
    let z = steady_state(op, &bv, &av)?;
    let d = zi_dtype(xp_core::promote_types(b.dtype(), a.dtype()));
    let n = z.len();
    crate::on(b.device()).asarray(z, [n])?.astype(d)
}
