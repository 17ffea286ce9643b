//! The linear-algebra family's typed parameters and named results, shared by the front end and
//! every backend: which triangle a routine reads ([`Uplo`]), QR's [`QrMode`], the SVD's
//! [`SvdSpec`], the eigensolvers' [`EighSpec`], the factors each routine returns ([`QrFactors`],
//! [`SvdFactors`], [`EigFactors`], [`Determinant`]) and what can go wrong numerically
//! ([`LinAlgKind`], carried by [`crate::Error::LinAlg`]).
//!
//! Every routine works on a stack of matrices: the last two axes of a layout are the matrix, the
//! leading ones the batch, and an error names the batch position (C order over the leading axes)
//! of the first matrix it concerns.
//!
//! ```
//! use xp_core::linalg::{QrMode, SvdSpec, Uplo};
//! use xp_core::{Error, LinAlgKind};
//! let spec = SvdSpec { full_matrices: false, compute_uv: true };
//! assert_eq!(QrMode::default(), QrMode::Reduced);
//! assert_eq!(Uplo::default(), Uplo::Lower);
//! let e = Error::LinAlg { op: "inv", kind: LinAlgKind::Singular { index: 3 } };
//! assert_eq!(e.to_string(), "inv: singular matrix (matrix 3 of the stack)");
//! # let _ = spec;
//! ```
use std::fmt;

/// Which triangle of a Hermitian matrix a routine reads (NumPy's `UPLO`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Uplo {
    /// the lower triangle (`UPLO='L'`, NumPy's default)
    #[default]
    Lower,
    /// the upper triangle (`UPLO='U'`)
    Upper,
}

/// What `qr` returns (NumPy's `mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum QrMode {
    /// `Q` of shape (m, k) and `R` of shape (k, n), k = min(m, n)
    #[default]
    Reduced,
    /// `Q` of shape (m, m) and `R` of shape (m, n)
    Complete,
    /// only `R`, of shape (k, n)
    R,
}

/// Which system a factorisation or a triangular matrix solves (LAPACK's `trans`, SciPy's
/// `trans=0, 1, 2`): `A x = b`, `Aᵀ x = b` or `Aᴴ x = b`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Trans {
    /// `A x = b` (SciPy's `trans=0` or `'N'`)
    #[default]
    N,
    /// `Aᵀ x = b` (`trans=1` or `'T'`)
    T,
    /// `Aᴴ x = b` (`trans=2` or `'C'`; the same as `T` for real matrices)
    C,
}

/// What a triangular solve reads and solves (SciPy's `solve_triangular` arguments).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TriangularSpec {
    /// the triangle of `A` that is read (the other is ignored)
    pub uplo: Uplo,
    /// the system solved with it
    pub trans: Trans,
    /// the diagonal is taken to be ones and not read
    pub unit_diagonal: bool,
}

/// A stack of LU factorisations with partial pivoting, as LAPACK's `getrf` and SciPy's
/// `lu_factor` return them: `lu` holds `U` in its upper triangle and the unit lower-triangular
/// `L` below the diagonal (`[.., m, n]`), `piv` (int32, `[.., min(m, n)]`) the row interchanges:
/// row `i` was swapped with row `piv[i]` (0-based), in order.
#[derive(Debug)]
pub struct LuFactors<S> {
    /// `L` and `U` packed in one matrix
    pub lu: S,
    /// the row interchanges, 0-based
    pub piv: S,
}

impl<S> LuFactors<S> {
    /// The same factors with each storage mapped by `f`.
    pub fn map<T>(self, f: impl Fn(S) -> T) -> LuFactors<T> {
        LuFactors { lu: f(self.lu), piv: f(self.piv) }
    }
}

/// What `svd` computes (NumPy's `full_matrices` and `compute_uv`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SvdSpec {
    /// `U` (m, m) and `Vh` (n, n) instead of (m, k) and (k, n)
    pub full_matrices: bool,
    /// compute `U` and `Vh` at all (else only the singular values)
    pub compute_uv: bool,
}

impl Default for SvdSpec {
    /// NumPy's defaults: full matrices, with `U` and `Vh`.
    fn default() -> Self {
        SvdSpec { full_matrices: true, compute_uv: true }
    }
}

/// What the Hermitian eigensolver computes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EighSpec {
    /// the triangle it reads
    pub uplo: Uplo,
    /// eigenvectors too (`eigh`), or eigenvalues only (`eigvalsh`)
    pub vectors: bool,
}

/// `Q` (absent for [`QrMode::R`]) and `R` of a stack of QR decompositions.
#[derive(Debug)]
pub struct QrFactors<S> {
    /// the orthonormal factor
    pub q: Option<S>,
    /// the upper-triangular factor
    pub r: S,
}

/// A stack of QR decompositions with column pivoting, `A[:, p] = Q R` (LAPACK's `geqp3`,
/// SciPy's `qr(pivoting=True)`): the largest remaining column norm is moved forward at each step.
#[derive(Debug)]
pub struct PivotedQrFactors<S> {
    /// `Q` and `R` as [`QrFactors`] has them for the same [`QrMode`]
    pub qr: QrFactors<S>,
    /// the column permutation `p` (int32, `[.., n]`)
    pub p: S,
}

impl<S> PivotedQrFactors<S> {
    /// The same factors with each storage mapped by `f`.
    pub fn map<T>(self, f: impl Fn(S) -> T) -> PivotedQrFactors<T> {
        PivotedQrFactors { qr: QrFactors { q: self.qr.q.map(&f), r: f(self.qr.r) }, p: f(self.p) }
    }
}

/// A stack of Schur decompositions `A = Z T Zᴴ` (LAPACK's `gees`, SciPy's `schur`).
#[derive(Debug)]
pub struct SchurFactors<S> {
    /// upper triangular (complex form), or quasi-triangular with standardised 2 × 2 blocks for
    /// the complex-conjugate eigenvalue pairs of a real matrix (real form)
    pub t: S,
    /// the unitary (orthogonal) Schur vectors as columns
    pub z: S,
}

impl<S> SchurFactors<S> {
    /// The same factors with each storage mapped by `f`.
    pub fn map<T>(self, f: impl Fn(S) -> T) -> SchurFactors<T> {
        SchurFactors { t: f(self.t), z: f(self.z) }
    }
}

/// A stack of Hessenberg decompositions `A = Q H Qᴴ` (LAPACK's `gehrd`, SciPy's `hessenberg`).
#[derive(Debug)]
pub struct HessenbergFactors<S> {
    /// upper Hessenberg: zero below the first subdiagonal
    pub h: S,
    /// the unitary factor, when asked for
    pub q: Option<S>,
}

impl<S> HessenbergFactors<S> {
    /// The same factors with each storage mapped by `f`.
    pub fn map<T>(self, f: impl Fn(S) -> T) -> HessenbergFactors<T> {
        HessenbergFactors { h: f(self.h), q: self.q.map(f) }
    }
}

/// The singular values of a stack of matrices, in non-increasing order, and `U`, `Vh` when asked
/// for (`A = U diag(s) Vh`).
#[derive(Debug)]
pub struct SvdFactors<S> {
    /// left singular vectors (columns)
    pub u: Option<S>,
    /// singular values, real
    pub s: S,
    /// right singular vectors, conjugate-transposed (rows)
    pub vh: Option<S>,
}

/// Eigenvalues and, when asked for, eigenvectors (columns) of a stack of matrices.
#[derive(Debug)]
pub struct EigFactors<S> {
    /// eigenvalues: real and ascending for Hermitian input, complex otherwise
    pub w: S,
    /// eigenvectors as columns, of unit norm
    pub v: Option<S>,
}

impl<S> QrFactors<S> {
    /// The same factors with each storage mapped by `f` (a backend's storage into the front
    /// end's dispatch enum).
    pub fn map<T>(self, f: impl Fn(S) -> T) -> QrFactors<T> {
        QrFactors { q: self.q.map(&f), r: f(self.r) }
    }
}

impl<S> SvdFactors<S> {
    /// The same factors with each storage mapped by `f`.
    pub fn map<T>(self, f: impl Fn(S) -> T) -> SvdFactors<T> {
        SvdFactors { u: self.u.map(&f), s: f(self.s), vh: self.vh.map(&f) }
    }
}

impl<S> EigFactors<S> {
    /// The same factors with each storage mapped by `f`.
    pub fn map<T>(self, f: impl Fn(S) -> T) -> EigFactors<T> {
        EigFactors { w: f(self.w), v: self.v.map(&f) }
    }
}

impl<S> Determinant<S> {
    /// The same results with each storage mapped by `f`.
    pub fn map<T>(self, f: impl Fn(S) -> T) -> Determinant<T> {
        Determinant { det: f(self.det), sign: f(self.sign), logabsdet: f(self.logabsdet) }
    }
}

/// The determinant of a stack of square matrices from one LU factorisation each: `det` directly
/// (the product of the pivots, which may overflow as NumPy's does), and `sign`, `logabsdet` as
/// `slogdet` returns them (`det = sign * exp(logabsdet)`, `sign = 0, logabsdet = -inf` for a
/// singular matrix).
#[derive(Debug)]
pub struct Determinant<S> {
    /// the determinant
    pub det: S,
    /// its sign (a unit complex number for complex input), 0 when singular
    pub sign: S,
    /// the natural logarithm of its absolute value (real)
    pub logabsdet: S,
}

/// What went wrong numerically in a linear-algebra routine. `index` is the position of the
/// first failing matrix in the stack (0 for a single matrix).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinAlgKind {
    /// the matrix is singular (an exact zero pivot in its LU factorisation)
    Singular {
        /// position in the stack
        index: usize,
    },
    /// the matrix is not positive definite (its leading minor of order `order` is not)
    NotPositiveDefinite {
        /// position in the stack
        index: usize,
        /// the order of the first leading minor that is not positive
        order: usize,
    },
    /// the iterative algorithm (SVD, eigensolver) did not converge
    NoConvergence {
        /// position in the stack
        index: usize,
    },
    /// a sparse factorisation found no nonzero pivot for column `column` of the matrix (the
    /// matrix is exactly singular)
    SingularColumn {
        /// the column of the matrix given
        column: usize,
    },
    /// a sparse Cholesky factorisation met a pivot that is not positive, at column `column` of
    /// the matrix given (the matrix is not positive definite)
    NonPositivePivot {
        /// the column of the matrix given
        column: usize,
    },
    /// a shortest-path search met a cycle of negative total weight (SciPy's
    /// `NegativeCycleError`), reachable from vertex `vertex`
    NegativeCycle {
        /// the source (or, for all-pairs methods, a vertex on the cycle)
        vertex: usize,
    },
    /// a matrix routine got an array of fewer than two dimensions
    NotMatrix {
        /// the number of dimensions given
        ndim: usize,
    },
    /// a triangular matrix (or the `U` of an LU factorisation) has an exact zero at diagonal
    /// position `diagonal` (LAPACK's `trtrs`/`getrs` refusal, SciPy's "singular matrix:
    /// resolution failed at diagonal")
    SingularDiagonal {
        /// position in the stack
        index: usize,
        /// the (0-based) diagonal position of the first zero
        diagonal: usize,
    },
    /// a routine that needs square matrices got (rows, cols)
    NotSquare {
        /// rows of the matrices given
        rows: usize,
        /// columns of the matrices given
        cols: usize,
    },
}

impl fmt::Display for LinAlgKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LinAlgKind::Singular { index } => write!(f, "singular matrix (matrix {index} of the stack)"),
            LinAlgKind::NotPositiveDefinite { index, order } => write!(
                f,
                "matrix is not positive definite (matrix {index} of the stack: its leading minor of order {order} is not)"
            ),
            LinAlgKind::NoConvergence { index } => {
                write!(f, "the algorithm did not converge (matrix {index} of the stack)")
            }
            LinAlgKind::SingularColumn { column } => {
                write!(f, "the matrix is exactly singular: no nonzero pivot for its column {column}")
            }
            LinAlgKind::NonPositivePivot { column } => {
                write!(f, "the matrix is not positive definite: the pivot of its column {column} is not positive")
            }
            LinAlgKind::NegativeCycle { vertex } => {
                write!(f, "the graph has a negative cycle (reached from vertex {vertex})")
            }
            LinAlgKind::NotMatrix { ndim } => write!(
                f,
                "{ndim}-dimensional array given; the array must be at least two-dimensional (a stack of matrices)"
            ),
            LinAlgKind::SingularDiagonal { index, diagonal } => write!(
                f,
                "singular matrix: resolution failed at diagonal {diagonal} (matrix {index} of the stack)"
            ),
            LinAlgKind::NotSquare { rows, cols } => {
                write!(f, "last 2 dimensions of the array must be square, got ({rows}, {cols})")
            }
        }
    }
}
