//! `xp::linalg`, NumPy's `numpy.linalg`: decompositions, solvers, norms and the products it
//! holds (`multi_dot`, `matrix_power`, and the Array API names), on every device, batched over
//! leading dimensions. The products of NumPy's main namespace (`matmul`, `dot`, `einsum`, ...)
//! are at the crate root.
//!
//! ```
//! use xp::linalg;
//! let a = xp::Array::from_vec(vec![4.0f64, 1.0, 1.0, 3.0], &[2, 2]).unwrap();
//! let b = xp::Array::from_vec(vec![1.0f64, 2.0], &[2]).unwrap();
//! let x = linalg::solve(&a, &b).unwrap();                         // A x = b
//! assert!(xp::allclose_with(&xp::matmul(&a, &x).unwrap(), &b, xp::Tolerance { rtol: 1e-12, atol: 0.0, ..Default::default() }).unwrap());
//! let f = linalg::svd(&a, true).unwrap();                         // full_matrices
//! let s = f.s.to_vec::<f64>().unwrap();
//! assert!(s[0] >= s[1]);
//! let singular = xp::Array::from_vec(vec![1.0f64, 2.0, 2.0, 4.0], &[2, 2]).unwrap();
//! assert!(matches!(linalg::inv(&singular), Err(xp::Error::LinAlg { .. })));
//! ```
//!
//! Dtypes follow NumPy: bool and integers are computed in float64, float32 and complex64 stay in
//! single precision, float16 and bfloat16 are refused with [`Error::InvalidDType`]. A numerical
//! failure (a singular matrix in `solve` or `inv`, a matrix that is not positive definite in
//! `cholesky`, no convergence) is [`Error::LinAlg`], naming the first failing matrix of the
//! stack; a failed call leaves its inputs untouched.
//!
//! On the GPU every routine is enqueued on the current stream; the ones that can fail on their
//! input (`solve`, `inv`, `cholesky`, `eig`, `eigh`, `svd`, `qr` and those built on them) read
//! the solver's status back, one small device-to-host copy that waits for the routine to finish
//! (CuPy skips this check and returns garbage or NaN instead). `eig` and `eigvals` of real input
//! also read whether every eigenvalue is real, to return real arrays as NumPy does; `lstsq` and
//! `matrix_rank` with a host rank wait for it.
mod assume;
mod banded;
mod banded_eigen;
mod decomp;
mod ldl;
mod lu;
pub(crate) mod matfuncs;
mod matrices;
mod norms;
mod primary;
mod schur;
mod scipy_qr;
mod solve;
mod subspace;
mod system;
mod triangular;

pub use crate::diagonal::{cross, diagonal, matrix_transpose, trace};
pub use crate::products::{matmul, multi_dot, outer, tensordot, vecdot};
pub use assume::{solve_with, AssumeA, Solve};
pub use banded::{solve_banded, solve_circulant, solve_toeplitz, solveh_banded};
pub use banded_eigen::{eig_banded, eigh_tridiagonal, eigvals_banded, eigvalsh_tridiagonal};
pub use decomp::{cholesky, eig, eigh, eigvals, eigvalsh, qr, svd, svd_with, svdvals, Eig, Qr, Svd};
pub use ldl::{ldl, Ldl};
pub use lu::{lu, lu_factor, lu_solve, Lu, LuFactor, LuOptions};
pub use matfuncs::{coshm, cosm, expm, expm_frechet, sinhm, sinm, tanhm, tanm};
pub use matrices::{
    bandwidth, bandwidth_stack, block_diag, circulant, companion, convolution_matrix, dft, dft_on, fiedler,
    fiedler_companion, hadamard, hadamard_on, hankel, helmert, helmert_on, hilbert, hilbert_on, invhilbert,
    invhilbert_on, invpascal, invpascal_on, ishermitian, issymmetric, khatri_rao, leslie, pascal, pascal_on, toeplitz,
    tri, tri_on, DftScale, Pascal, PascalKind, Symmetry,
};
pub use norms::{cond, matrix_norm, norm, norm_keepdim, vector_norm, NormOrd};
pub use primary::{fractional_matrix_power, funm, logm, signm, sqrtm};
pub use schur::{hessenberg, rsf2csf, schur, Hessenberg, Schur, SchurOutput};
pub use scipy_qr::{
    lstsq_with, qr_multiply, qr_with, rq, LstsqDriver, LstsqResult, LstsqSpec, QrMultiply, QrOut, QrPivoted, QrSide,
    QrSpec, Rq,
};
pub use solve::{
    det, inv, lstsq, matrix_power, matrix_rank, pinv, slogdet, solve, tensorinv, tensorsolve, Lstsq, Slogdet,
};
pub use subspace::{null_space, orth, pinvh, polar, subspace_angles, Pinvh, Polar, Side};
pub use triangular::{cho_factor, cho_solve, solve_triangular, ChoFactor, SolveTriangular};
pub use xp_core::linalg::{QrMode, SvdSpec, Trans, Uplo};

use crate::Array;
use xp_core::{promote_types, DType, Error, Kind, LinAlgKind, Result};

/// The dtype a decomposition of `d` computes in (CuPy's `linalg_common_type`): float32, float64,
/// complex64 and complex128 stay; bool and integers go to float64; float16 and bfloat16 are
/// refused, as NumPy refuses float16.
pub(crate) fn compute_dtype(op: &'static str, d: DType) -> Result<DType> {
    match d.kind() {
        Kind::Bool | Kind::Int | Kind::Uint => Ok(DType::F64),
        _ if matches!(d, DType::F16 | DType::BF16) => Err(Error::InvalidDType { op, dtype: d }),
        _ => Ok(d),
    }
}

/// The common compute dtype of several operands (NumPy's `_commonType`).
pub(crate) fn common_dtype(op: &'static str, ds: &[DType]) -> Result<DType> {
    let mut out: Option<DType> = None;
    for &d in ds {
        let c = compute_dtype(op, d)?;
        out = Some(out.map_or(c, |o| promote_types(o, c)));
    }
    Ok(out.unwrap_or(DType::F64))
}

/// Check that `a` is a stack of matrices (at least 2-D), square when `square`; returns (rows, cols).
pub(crate) fn check_stack(op: &'static str, a: &Array, square: bool) -> Result<(usize, usize)> {
    if a.ndim() < 2 {
        return Err(Error::LinAlg { op, kind: LinAlgKind::NotMatrix { ndim: a.ndim() } });
    }
    let (m, n) = (a.shape()[a.ndim() - 2], a.shape()[a.ndim() - 1]);
    if square && m != n {
        return Err(Error::LinAlg { op, kind: LinAlgKind::NotSquare { rows: m, cols: n } });
    }
    Ok((m, n))
}

/// `a` (a stack checked by [`check_stack`]) cast to its compute dtype.
pub(crate) fn prepared(op: &'static str, a: &Array, square: bool) -> Result<(Array, usize, usize)> {
    let (m, n) = check_stack(op, a, square)?;
    Ok((a.cast_if(compute_dtype(op, a.dtype())?)?, m, n))
}

/// The batch shape of a stack (all but the last two axes).
pub(crate) fn batch(a: &Array) -> &[usize] {
    &a.shape()[..a.ndim() - 2]
}

/// `shape` with the extra trailing dimensions `tail` appended.
pub(crate) fn with_tail(shape: &[usize], tail: &[usize]) -> Vec<usize> {
    let mut s = shape.to_vec();
    s.extend_from_slice(tail);
    s
}
