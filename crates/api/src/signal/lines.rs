//! The host path of the sequential filters (`lfilter`, `sosfilt`, hence `filtfilt`): each output
//! depends on the one before, so a line is one loop on one core. A GPU array is copied to the
//! host, filtered there and copied back (one transfer each way); the loop is written once,
//! generic over float32, float64, complex64 and complex128.
use crate::Array;
use std::ops::{Add, Mul, Sub};
use xp_core::{Complex32, Complex64, DType, Device, Element, Error, Result};

/// An element type the filters run in: SciPy's `f`, `d`, `F`, `D`.
pub(super) trait Sample:
    Element + Copy + Default + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self>
{
}
impl Sample for f32 {}
impl Sample for f64 {}
impl Sample for Complex32 {}
impl Sample for Complex64 {}

/// One filter's recursion over a line, in place, carrying its state.
pub(super) trait LineFilter {
    /// Filters `line` in place with the coefficients `coef`, starting from and leaving `state`.
    fn run<T: Sample>(&self, coef: &[T], line: &mut [T], state: &mut [T]);
}

/// SciPy's working dtype of a filter: the common type of its operands, which must be a
/// floating or complex type of single or double precision (SciPy's "input type not
/// supported").
pub(super) fn work_dtype(op: &'static str, dtypes: &[DType]) -> Result<DType> {
    let d = dtypes.iter().copied().reduce(xp_core::promote_types).expect("at least one operand");
    match d {
        DType::F32 | DType::F64 | DType::C64 | DType::C128 => Ok(d),
        _ => Err(Error::InvalidDType { op, dtype: d }),
    }
}

/// Runs `filter` over every line of `x` along its last axis, in dtype `d`, with the flat
/// coefficients `coef` (host values) and, per line, `state_len` values of state: `zi` (the same
/// leading shape as `x`, the state last) or zeros. Returns the output and the final state, on
/// `x`'s device.
pub(super) fn filter_lines<F: LineFilter>(
    filter: &F,
    d: DType,
    coef: &Array,
    x: &Array,
    zi: Option<&Array>,
    state_len: usize,
) -> Result<(Array, Array)> {
    match d {
        DType::F32 => lines::<f32, F>(filter, coef, x, zi, state_len),
        DType::F64 => lines::<f64, F>(filter, coef, x, zi, state_len),
        DType::C64 => lines::<Complex32, F>(filter, coef, x, zi, state_len),
        _ => lines::<Complex64, F>(filter, coef, x, zi, state_len),
    }
}

fn lines<T: Sample, F: LineFilter>(
    filter: &F,
    coef: &Array,
    x: &Array,
    zi: Option<&Array>,
    state_len: usize,
) -> Result<(Array, Array)> {
    let c: Vec<T> = coef.astype(T::DTYPE)?.to_vec()?;
    let n = *x.shape().last().expect("a line axis");
    let mut y: Vec<T> = x.astype(T::DTYPE)?.to_vec()?;
    let count: usize = x.shape()[..x.ndim() - 1].iter().product();
    let mut z: Vec<T> = match zi {
        Some(z) => z.astype(T::DTYPE)?.to_vec()?,
        None => vec![T::default(); count * state_len],
    };
    if n > 0 && state_len > 0 {
        for (line, st) in y.chunks_mut(n).zip(z.chunks_mut(state_len)) {
            filter.run(&c, line, st);
        }
    } else if n > 0 {
        for line in y.chunks_mut(n) {
            filter.run(&c, line, &mut []);
        }
    }
    let mut zshape = x.shape().to_vec();
    *zshape.last_mut().expect("a line axis") = state_len;
    let dev = x.device();
    let up = |v: Vec<T>, shape: &[usize]| -> Result<Array> {
        let a = Array::from_vec(v, shape)?;
        if dev == Device::Cpu {
            Ok(a)
        } else {
            a.to_device(dev)
        }
    };
    Ok((up(y, x.shape())?, up(z, &zshape)?))
}
