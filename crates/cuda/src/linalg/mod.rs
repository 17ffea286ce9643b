//! The linear-algebra family on the GPU: products through cuBLAS (and xp's kernel for integers),
//! decompositions through cuSOLVER, stacks of small matrices through xp's one-launch kernels
//! (LU/Gauss–Jordan for solve, inv, det; Jacobi SVD and eigensolver, Cholesky, Householder QR)
//! and cuSOLVER's batched Jacobi for eigenpairs up to 32 × 32.
//! Handles are per (thread, device) on the current stream; workspaces come from xp's pool;
//! routines that can fail on their input read the solver's status back (one small wait) and
//! answer the typed error.
mod batched;
mod common;
mod eig;
mod factor;
mod gemm;
mod gemv;
mod handles;
mod kernels;
mod lu;
mod stack;
mod svd;
mod syevj;
mod triangular;

pub use handles::{allow_tf32, set_allow_tf32};

use crate::CudaStorage;
use xp_core::linalg::{
    Determinant, EigFactors, EighSpec, LuFactors, QrFactors, QrMode, SvdFactors, SvdSpec, Trans, TriangularSpec, Uplo,
};
use xp_core::{Layout, LinalgStorage, Result};

impl LinalgStorage for CudaStorage {
    fn matmul(&self, l: &Layout, rhs: &Self, rl: &Layout) -> Result<Self> {
        gemm::matmul(self, l, rhs, rl)
    }
    fn solve(&self, l: &Layout, b: &Self, bl: &Layout) -> Result<Self> {
        lu::solve(self, l, b, bl)
    }
    fn lu_factor(&self, l: &Layout) -> Result<LuFactors<Self>> {
        let (lu, piv) = triangular::lu_factor(self, l)?;
        Ok(LuFactors { lu, piv })
    }
    fn lu_solve(&self, l: &Layout, piv: &Self, pl: &Layout, b: &Self, bl: &Layout, trans: Trans) -> Result<Self> {
        triangular::lu_solve(self, l, piv, pl, b, bl, trans)
    }
    fn solve_triangular(&self, l: &Layout, b: &Self, bl: &Layout, spec: TriangularSpec) -> Result<Self> {
        triangular::solve_triangular(self, l, b, bl, spec)
    }
    fn inv(&self, l: &Layout) -> Result<Self> {
        lu::inv(self, l)
    }
    fn det(&self, l: &Layout) -> Result<Determinant<Self>> {
        let [det, sign, logabsdet] = lu::det(self, l)?;
        Ok(Determinant { det, sign, logabsdet })
    }
    fn cholesky(&self, l: &Layout, uplo: Uplo) -> Result<Self> {
        factor::cholesky(self, l, uplo)
    }
    fn qr(&self, l: &Layout, mode: QrMode) -> Result<QrFactors<Self>> {
        let (q, r) = factor::qr(self, l, mode)?;
        Ok(QrFactors { q, r })
    }
    fn svd(&self, l: &Layout, spec: SvdSpec) -> Result<SvdFactors<Self>> {
        let (u, s, vh) = svd::svd(self, l, spec)?;
        Ok(SvdFactors { u, s, vh })
    }
    fn eigh(&self, l: &Layout, spec: EighSpec) -> Result<EigFactors<Self>> {
        let (w, v) = factor::eigh(self, l, spec)?;
        Ok(EigFactors { w, v })
    }
    fn eig(&self, l: &Layout, vectors: bool) -> Result<EigFactors<Self>> {
        let (w, v) = eig::eig(self, l, vectors)?;
        Ok(EigFactors { w, v })
    }
}
