//! The linear-algebra family: products and decompositions of stacks of matrices.
//!
//! Every operand is a stack: the last two axes of its [`Layout`] are the matrix (any strides:
//! transposed, negative, zero), the leading ones the batch, which the front end has already
//! broadcast between operands (a broadcast batch axis has stride 0). Outputs are new C-contiguous
//! storages whose shapes follow from the inputs as documented per method. The front end has also
//! chosen the dtype: products run on any dtype; decompositions receive float32, float64,
//! complex64 or complex128 only. A numerical failure comes back as [`Error::LinAlg`] naming the
//! first failing matrix of the stack.
use super::unsupported;
use crate::linalg::{
    Determinant, EigFactors, EighSpec, HessenbergFactors, LuFactors, PivotedQrFactors, QrFactors, QrMode, SchurFactors,
    SvdFactors, SvdSpec, Trans, TriangularSpec, Uplo,
};
#[allow(unused_imports)] // for the docs
use crate::Error;
use crate::{BackendStorage, Layout, Result};

/// The linear-algebra family of a backend's storage. Methods a backend lacks answer
/// [`Error::Unsupported`].
pub trait LinalgStorage: BackendStorage {
    /// `[.., m, k] @ [.., k, n]` → `[.., m, n]`, both operands and the result of this storage's
    /// dtype (integers wrap, bool is or-of-ands, float16 and bfloat16 accumulate in float32).
    fn matmul(&self, _l: &Layout, _rhs: &Self, _rl: &Layout) -> Result<Self> {
        unsupported("matmul", Self::NAME)
    }
    /// BLAS's `axpy` out of place: `self + alpha x` for two vectors of one shape and of this
    /// storage's dtype (float32 or float64), in one pass. Optional: the front end composes it of
    /// a product and a sum where a backend answers `Unsupported`.
    fn axpy(&self, _l: &Layout, _alpha: f64, _x: &Self, _xl: &Layout) -> Result<Self> {
        unsupported("axpy", Self::NAME)
    }
    /// Solve `A X = B` for square `A` `[.., n, n]` and `B` `[.., n, k]` → `X` `[.., n, k]`.
    /// An exact zero pivot is [`crate::LinAlgKind::Singular`].
    fn solve(&self, _l: &Layout, _b: &Self, _bl: &Layout) -> Result<Self> {
        unsupported("solve", Self::NAME)
    }
    /// The `[m/m]` Padé approximant of the exponential of square `[.., n, n]`,
    /// `r_m(A) = (V − U)⁻¹ (V + U)` with `U` the odd and `V` the even part of `Σ b_k A^k`
    /// (`b` = `b_0..b_m`, `m` odd: 3, 5, 7, 9 or 13, evaluated as Higham 2005 does) →
    /// `[.., n, n]`. An exact zero pivot of `V − U` is [`crate::LinAlgKind::Singular`].
    /// Optional: the front end composes it of products and a solve where a backend answers
    /// `Unsupported`.
    fn expm_pade(&self, _l: &Layout, _b: &[f64]) -> Result<Self> {
        unsupported("expm_pade", Self::NAME)
    }
    /// LU with partial pivoting of `[.., m, n]` (LAPACK's `getrf`): the packed factors and the
    /// 0-based int32 row interchanges (see [`LuFactors`]). An exact zero pivot is not an error
    /// (SciPy warns): the factorisation goes on as LAPACK's does, leaving that column of `L`
    /// zero.
    fn lu_factor(&self, _l: &Layout) -> Result<LuFactors<Self>> {
        unsupported("lu_factor", Self::NAME)
    }
    /// Solve with the LU factors of square `[.., n, n]` (this storage, as
    /// [`LinalgStorage::lu_factor`] returns them) and their pivots `piv` `[.., n]` (int32) the
    /// system `trans` says for `B` `[.., n, k]` → `X` `[.., n, k]` (LAPACK's `getrs`: a zero
    /// on the diagonal of `U` gives infinities or NaN, as there).
    fn lu_solve(&self, _l: &Layout, _piv: &Self, _pl: &Layout, _b: &Self, _bl: &Layout, _trans: Trans) -> Result<Self> {
        unsupported("lu_solve", Self::NAME)
    }
    /// Solve with triangular `A` `[.., n, n]` (the triangle and system of `spec`) for `B`
    /// `[.., n, k]` → `X` `[.., n, k]`. An exact zero on the read diagonal (not with
    /// `unit_diagonal`) is [`crate::LinAlgKind::SingularDiagonal`], found before solving.
    fn solve_triangular(&self, _l: &Layout, _b: &Self, _bl: &Layout, _spec: TriangularSpec) -> Result<Self> {
        unsupported("solve_triangular", Self::NAME)
    }
    /// The inverse of square matrices `[.., n, n]` (singular: as for [`LinalgStorage::solve`]).
    fn inv(&self, _l: &Layout) -> Result<Self> {
        unsupported("inv", Self::NAME)
    }
    /// Determinants of square matrices `[.., n, n]` → each output `[..]`.
    fn det(&self, _l: &Layout) -> Result<Determinant<Self>> {
        unsupported("det", Self::NAME)
    }
    /// The Cholesky factor of Hermitian positive-definite `[.., n, n]`, reading and returning the
    /// triangle `uplo` (lower: `A = L L^H`; upper: `A = U^H U`), zeros in the other.
    fn cholesky(&self, _l: &Layout, _uplo: Uplo) -> Result<Self> {
        unsupported("cholesky", Self::NAME)
    }
    /// QR of `[.., m, n]` (k = min(m, n)): `Q` `[.., m, k]` or `[.., m, m]`, `R` `[.., k, n]` or
    /// `[.., m, n]` as [`QrMode`] says.
    fn qr(&self, _l: &Layout, _mode: QrMode) -> Result<QrFactors<Self>> {
        unsupported("qr", Self::NAME)
    }
    /// SVD of `[.., m, n]`: `s` `[.., k]` (real dtype), non-increasing; `U` `[.., m, m|k]` and
    /// `Vh` `[.., n|k, n]` when [`SvdSpec::compute_uv`].
    fn svd(&self, _l: &Layout, _spec: SvdSpec) -> Result<SvdFactors<Self>> {
        unsupported("svd", Self::NAME)
    }
    /// Eigen-decomposition of Hermitian `[.., n, n]` reading triangle [`EighSpec::uplo`]: `w`
    /// `[.., n]` (real dtype) ascending, `v` `[.., n, n]` with eigenvectors as columns.
    fn eigh(&self, _l: &Layout, _spec: EighSpec) -> Result<EigFactors<Self>> {
        unsupported("eigh", Self::NAME)
    }
    /// Eigen-decomposition of general square `[.., n, n]`: `w` `[.., n]` and `v` `[.., n, n]`
    /// (columns of unit norm), both of the complex dtype of the input's precision.
    fn eig(&self, _l: &Layout, _vectors: bool) -> Result<EigFactors<Self>> {
        unsupported("eig", Self::NAME)
    }
    /// Schur decomposition of square `[.., n, n]`: `t` and `z` `[.., n, n]` (see
    /// [`SchurFactors`]). Real input gives the real quasi-triangular form unless `complex`, which
    /// gives the complex form in the complex dtype of the input's precision; complex input
    /// always gives the complex form. No convergence is [`crate::LinAlgKind::NoConvergence`].
    fn schur(&self, _l: &Layout, _complex: bool) -> Result<SchurFactors<Self>> {
        unsupported("schur", Self::NAME)
    }
    /// Hessenberg decomposition of square `[.., n, n]`: `h` and, when `calc_q`, `q`, both
    /// `[.., n, n]` of the input's dtype.
    fn hessenberg(&self, _l: &Layout, _calc_q: bool) -> Result<HessenbergFactors<Self>> {
        unsupported("hessenberg", Self::NAME)
    }
    /// QR with column pivoting of `[.., m, n]` (see [`PivotedQrFactors`]): `Q` and `R` shaped
    /// as [`LinalgStorage::qr`] shapes them for `mode`, and the permutation `[.., n]` (int32).
    fn qr_pivoted(&self, _l: &Layout, _mode: QrMode) -> Result<PivotedQrFactors<Self>> {
        unsupported("qr_pivoted", Self::NAME)
    }
}
