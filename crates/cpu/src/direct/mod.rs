//! Direct solves of sparse systems on the host: the LU (partial pivoting, COLAMD ordering) and
//! Cholesky (AMD ordering) factorisations of faer, an incomplete LU with threshold dropping
//! (ILUT) and triangular solves. The front end (`xp::sparse::linalg`) brings a matrix here from
//! any device as compressed parts with `usize` offsets and a float or complex value buffer.
//!
//! ```
//! use xp_core::HostBuffer;
//! use xp_cpu::direct::{Csc, Factor, Trans};
//! // [[4, 1], [2, 3]] by columns
//! let a = Csc { n: 2, ptr: &[0, 2, 4], idx: &[0, 1, 0, 1], values: &HostBuffer::F64(vec![4.0, 2.0, 1.0, 3.0]) };
//! match Factor::lu(&a) {
//!     Ok(lu) => {
//!         let x = lu.solve(&HostBuffer::F64(vec![5.0, 5.0]), 1, Trans::N).unwrap();
//!         let HostBuffer::F64(x) = x else { unreachable!() };
//!         assert!((x[0] - 1.0).abs() < 1e-12 && (x[1] - 1.0).abs() < 1e-12);
//!     }
//!     // a build without the `linalg` feature
//!     Err(e) => assert!(matches!(e, xp_core::Error::FeatureDisabled { .. })),
//! }
//! ```
#[cfg(feature = "linalg")]
mod factor;
mod ilu;
mod triangular;

pub use ilu::Ilu;
pub use triangular::solve_triangular;
use xp_core::{Complex32, Complex64, Element, Error, HostBuffer, Result};

/// A square sparse matrix by compressed lines: line `j` holds positions `idx[ptr[j]..ptr[j + 1]]`
/// (sorted, no duplicates) with `values` in the same order. [`Factor`] reads it by columns (CSC),
/// [`Ilu`] and [`solve_triangular`] by rows (CSR).
#[derive(Clone, Copy, Debug)]
pub struct Csc<'a> {
    /// rows = columns
    pub n: usize,
    /// line offsets, `n + 1` of them
    pub ptr: &'a [usize],
    /// positions within each line
    pub idx: &'a [usize],
    /// values: float32, float64, complex64 or complex128
    pub values: &'a HostBuffer,
}

/// Which system a solve answers: `A x = b`, `Aᵀ x = b` or `Aᴴ x = b` (SciPy's `trans`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Trans {
    /// `A x = b`
    #[default]
    N,
    /// `Aᵀ x = b`
    T,
    /// `Aᴴ x = b`
    H,
}

/// The scalar arithmetic the host loops need, for float32, float64, complex64 and complex128.
pub(crate) trait Num:
    Element + num_complex::ComplexFloat<Real: num_traits::Float + Default + Send + Sync> + Default + Send + Sync
{
}
impl Num for f32 {}
impl Num for f64 {}
impl Num for Complex32 {}
impl Num for Complex64 {}

/// Runs `$body` with `$v` bound to the typed vector of a float or complex buffer.
macro_rules! on_num {
    ($op:expr, $buf:expr, $v:ident => $body:expr) => {
        match $buf {
            HostBuffer::F32($v) => $body,
            HostBuffer::F64($v) => $body,
            HostBuffer::C64($v) => $body,
            HostBuffer::C128($v) => $body,
            b => Err(Error::InvalidDType { op: $op, dtype: b.dtype() }),
        }
    };
}
pub(crate) use on_num;

/// The values of a right-hand side of `nrhs` columns in C order `(n, nrhs)` as `T`, or a dtype
/// error naming `op`.
pub(crate) fn rhs_of<'a, T: Element>(op: &'static str, b: &'a HostBuffer, want: usize) -> Result<&'a [T]> {
    let v = T::slice_of(b).ok_or(Error::InvalidDType { op, dtype: b.dtype() })?;
    if v.len() != want {
        return Err(Error::invalid(op, format!("right-hand side of {} values, expected {want}", v.len())));
    }
    Ok(v)
}

/// A factorisation of a square sparse matrix (LU or Cholesky) that solves `A x = b`,
/// `Aᵀ x = b` and `Aᴴ x = b` for any number of right-hand sides.
pub struct Factor {
    #[cfg(feature = "linalg")]
    inner: factor::Inner,
    n: usize,
}

impl std::fmt::Debug for Factor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Factor").field("n", &self.n).finish_non_exhaustive()
    }
}

#[cfg(not(feature = "linalg"))]
impl Factor {
    /// LU with partial pivoting (faer; needs the `linalg` feature).
    pub fn lu(_a: &Csc<'_>) -> Result<Factor> {
        Err(Error::FeatureDisabled { op: "splu", backend: "cpu", feature: "linalg" })
    }
    /// Cholesky `L Lᴴ` of a Hermitian positive definite matrix (faer; needs `linalg`).
    pub fn cholesky(_a: &Csc<'_>) -> Result<Factor> {
        Err(Error::FeatureDisabled { op: "cholesky", backend: "cpu", feature: "linalg" })
    }
    /// `x` with `op(A) x = b` for `b` of `nrhs` columns in C order.
    pub fn solve(&self, _b: &HostBuffer, _nrhs: usize, _trans: Trans) -> Result<HostBuffer> {
        Err(Error::FeatureDisabled { op: "solve", backend: "cpu", feature: "linalg" })
    }
    /// The order of the matrix.
    pub fn n(&self) -> usize {
        self.n
    }
    /// True for a Cholesky factorisation.
    pub fn is_cholesky(&self) -> bool {
        false
    }
}

/// True when the matrix of canonical CSC parts `c` and CSR parts `r` (the same matrix) is
/// Hermitian (`c` equals `r` conjugated: column `j` of `A` is row `j` of `Aᴴ`) with a real
/// positive diagonal: the matrices a Cholesky factorisation may take (MATLAB's test before
/// its `chol` attempt).
pub fn hermitian_positive_diagonal(c: &Csc<'_>, r: &Csc<'_>) -> bool {
    fn check<T: Num>(c: &Csc<'_>, cv: &[T], r: &Csc<'_>, rv: &[T]) -> bool {
        if c.ptr != r.ptr || c.idx != r.idx || cv.len() != rv.len() {
            return false;
        }
        if cv.iter().zip(rv).any(|(&x, &y)| x != y.conj()) {
            return false;
        }
        (0..c.n).all(|j| {
            let s = c.ptr[j]..c.ptr[j + 1];
            c.idx[s.clone()]
                .iter()
                .zip(&cv[s])
                .any(|(&i, &x)| i == j && x.im() == T::Real::default() && x.re() > T::Real::default())
        })
    }
    match (c.values, r.values) {
        (HostBuffer::F32(a), HostBuffer::F32(b)) => check(c, a, r, b),
        (HostBuffer::F64(a), HostBuffer::F64(b)) => check(c, a, r, b),
        (HostBuffer::C64(a), HostBuffer::C64(b)) => check(c, a, r, b),
        (HostBuffer::C128(a), HostBuffer::C128(b)) => check(c, a, r, b),
        _ => false,
    }
}
