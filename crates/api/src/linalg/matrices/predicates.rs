//! The structure of a matrix: `bandwidth` (and [`bandwidth_stack`] for stacks), `issymmetric`,
//! `ishermitian`, as whole-array reductions over the last two axes.
use super::grid;
use crate::linalg::{batch, check_stack};
use crate::{isclose_with, where_, Array, Tolerance};
use xp_core::{DType, Error, Kind, Result};

/// SciPy's `bandwidth(a)` of one matrix: `(lower, upper)`, the farthest sub- and super-diagonals
/// holding a nonzero (NaN counts as nonzero, `-0.0` as zero); `(0, 0)` for a diagonal or empty
/// matrix. `a` must be 2-D (as SciPy, an input without elements gives `(0, 0)` whatever its
/// shape); [`bandwidth_stack`] answers a stack. Reads two integers back from the device.
///
/// ```
/// let a = xp::Array::from_vec(vec![3.0, 0.0, 0.0, 1.0, 4.0, 2.0, 8.0, 0.0, 5.0], &[3, 3]).unwrap();
/// assert_eq!(xp::linalg::bandwidth(&a).unwrap(), (2, 1));
/// ```
pub fn bandwidth(a: &Array) -> Result<(usize, usize)> {
    if a.size() == 0 {
        return Ok((0, 0));
    }
    if a.ndim() != 2 {
        return Err(Error::invalid(
            "bandwidth",
            format!("a must be 2-D, not {}-D (bandwidth_stack takes stacks)", a.ndim()),
        ));
    }
    let (l, u) = bandwidth_stack(a)?;
    Ok((l.item::<i64>()? as usize, u.item::<i64>()? as usize))
}

/// [`bandwidth`] of every matrix of a stack (at least 2-D), as SciPy answers batched input: two
/// int64 arrays of the batch shape, `(lower, upper)`, on `a`'s device.
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 0, 1, 1, 1, 1, 0, 1], &[2, 2, 2]).unwrap();
/// let (l, u) = xp::linalg::bandwidth_stack(&a).unwrap();
/// assert_eq!((l.to_vec::<i64>().unwrap(), u.to_vec::<i64>().unwrap()), (vec![1, 0], vec![0, 1]));
/// ```
pub fn bandwidth_stack(a: &Array) -> Result<(Array, Array)> {
    let (m, n) = check_stack("bandwidth", a, false)?;
    if m == 0 || n == 0 {
        let z = crate::get_array_module(a).zeros(batch(a), DType::I64)?;
        return Ok((z.clone(), z));
    }
    let nonzero = a.ne(0)?;
    let (i, j) = grid(a.device(), m, n)?;
    let d = i.sub(&j)?; // positive below the diagonal
    let lower = where_(&nonzero, &d, 0i64)?.max([-2, -1])?;
    let upper = where_(&nonzero, &d.neg()?, 0i64)?.max([-2, -1])?;
    Ok((lower, upper))
}

/// The tolerances of [`issymmetric`] and [`ishermitian`] (SciPy's `atol=None`, `rtol=None`,
/// the `Default`: an exact comparison). Where either is given and nonzero (NaN counts, as in
/// Python's truth test) and `a` is not of an integer dtype, the matrices are compared as NumPy's
/// `allclose(a, b, rtol, atol)` compares (`|a - b| ≤ atol + rtol |b|` elementwise, NaN never
/// close), the one not given being 0.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Symmetry {
    /// absolute tolerance
    pub atol: Option<f64>,
    /// relative tolerance
    pub rtol: Option<f64>,
}

impl Symmetry {
    /// Whether `a` is compared with tolerances (SciPy's `(atol or rtol) and not integer`).
    fn tolerant(&self, d: DType) -> bool {
        let given = |x: Option<f64>| x.is_some_and(|v| v != 0.0 || v.is_nan());
        (given(self.atol) || given(self.rtol)) && !matches!(d.kind(), Kind::Int | Kind::Uint)
    }
}

/// Whether each matrix of `a` (square, batched over leading axes) equals its transpose, or its
/// conjugate transpose when `hermitian`.
fn symmetric(op: &'static str, a: &Array, tol: Symmetry, hermitian: bool) -> Result<Array> {
    let (n, _) = check_stack(op, a, true)?;
    let t = a.swapaxes(-1, -2)?;
    let b = if hermitian && a.dtype().is_complex() { t.conj()? } else { t };
    if tol.tolerant(a.dtype()) {
        let tol = Tolerance { rtol: tol.rtol.unwrap_or(0.0), atol: tol.atol.unwrap_or(0.0), equal_nan: false };
        return isclose_with(a, &b, tol)?.all([-2, -1]);
    }
    let mut differ = a.ne(&b)?;
    if !(hermitian && a.dtype().is_complex()) {
        // SciPy's exact test skips the diagonal (a NaN there is symmetric), except a complex
        // diagonal in `ishermitian`, which must be real.
        let (i, j) = grid(a.device(), n, n)?;
        differ = differ.logical_and(&i.ne(&j)?)?;
    }
    differ.any([-2, -1])?.logical_not()
}

/// SciPy's `issymmetric(a, atol, rtol)`: whether each square matrix of `a` equals its transpose
/// (complex matrices are not conjugated), as a bool array of the batch shape (0-d for one
/// matrix) on `a`'s device. Exact by default, skipping the diagonal; see [`Symmetry`] for the
/// tolerances. An empty matrix is symmetric. Unlike SciPy, float16 is accepted.
///
/// ```
/// use xp::linalg::{issymmetric, Symmetry};
/// let a = xp::Array::from_vec(vec![1.0, 2.0, 2.0 + 1e-9, 1.0], &[2, 2]).unwrap();
/// assert!(!issymmetric(&a, Symmetry::default()).unwrap().item::<bool>().unwrap());
/// let near = Symmetry { atol: Some(1e-8), ..Default::default() };
/// assert!(issymmetric(&a, near).unwrap().item::<bool>().unwrap());
/// ```
pub fn issymmetric(a: &Array, tol: Symmetry) -> Result<Array> {
    symmetric("issymmetric", a, tol, false)
}

/// SciPy's `ishermitian(a, atol, rtol)`: whether each square matrix of `a` equals its conjugate
/// transpose (so a complex diagonal must be real), as a bool array of the batch shape; real
/// matrices are tested as [`issymmetric`] tests them.
///
/// ```
/// use xp::{linalg::ishermitian, Complex64 as C};
/// let a = xp::Array::from_vec(vec![C::new(1.0, 0.0), C::new(2.0, 3.0), C::new(2.0, -3.0), C::new(4.0, 0.0)], &[2, 2]).unwrap();
/// assert!(ishermitian(&a, Default::default()).unwrap().item::<bool>().unwrap());
/// ```
pub fn ishermitian(a: &Array, tol: Symmetry) -> Result<Array> {
    symmetric("ishermitian", a, tol, true)
}
