//! Eigen-decompositions (faer): Hermitian (`eigh`, ascending real eigenvalues; the upper
//! triangle is read as the lower triangle of the adjoint view) and general (`eig`, complex
//! eigenvalues and unit-norm eigenvectors, real input included).
use super::stack::{c_order, concat, into_chunks, per_matrix, seq_in_stack, Stack};
use super::Field;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::traits::ext::ComplexFieldExt;
use faer::Side;
use faer::{Mat, MatRef, Par};
use xp_core::linalg::{EighSpec, Uplo};
use xp_core::{Layout, LinAlgKind, Result};

/// Eigenvalues (real, ascending) and, if asked, eigenvectors (columns) of Hermitian matrices.
#[allow(clippy::type_complexity)]
pub(crate) fn eigh<T: Field>(a: &[T], al: &Layout, spec: EighSpec) -> Result<(Vec<T::Real>, Option<Vec<T>>)> {
    let sa = Stack::new(al);
    let n = sa.rows;
    if !spec.vectors {
        let w = into_chunks("eigh", sa.len(), n, |i, out| {
            let v = sa.view(a, i);
            let w = eigenvalues(v, spec.uplo).ok_or(LinAlgKind::NoConvergence { index: i })?;
            out.copy_from_slice(&w);
            Ok(())
        })?;
        return Ok((w, None));
    }
    let par = seq_in_stack(sa.len());
    let fs = per_matrix("eigh", sa.len(), |i| {
        let v = sa.view(a, i);
        let nc = |_| LinAlgKind::NoConvergence { index: i };
        if let Some(r) = T::eigh(v, spec.uplo, true) {
            let (w, u) = r.ok_or(LinAlgKind::NoConvergence { index: i })?;
            return Ok((w, c_order(u.as_ref(), |x| x)));
        }
        // faer reads the lower triangle; the upper one is the lower one of the adjoint
        let (w, u) = match spec.uplo {
            Uplo::Lower => self_adjoint_eigen(v, par),
            Uplo::Upper => {
                self_adjoint_eigen(Mat::from_fn(v.nrows(), v.ncols(), |i, j| v[(j, i)].conj()).as_ref(), par)
            }
        }
        .map_err(nc)?;
        Ok((w, c_order(u.as_ref(), |x| x)))
    })?;
    Ok((concat(&fs, |f| f.0.as_slice()), Some(concat(&fs, |f| f.1.as_slice()))))
}

/// Eigenvalues (ascending) and eigenvectors of the Hermitian matrix the lower triangle of `h`
/// gives, through faer's low-level call with the parallelism `par`.
fn self_adjoint_eigen<T: Field>(h: MatRef<'_, T>, par: Par) -> std::result::Result<(Vec<T::Real>, Mat<T>), ()> {
    use faer::linalg::evd::{self_adjoint_evd, self_adjoint_evd_scratch, ComputeEigenvectors};
    let n = h.nrows();
    let mut buf = MemBuffer::new(self_adjoint_evd_scratch::<T>(n, ComputeEigenvectors::Yes, par, Default::default()));
    let (mut s, mut u) = (faer::diag::Diag::<T>::zeros(n), Mat::<T>::zeros(n, n));
    self_adjoint_evd(h, s.as_mut(), Some(u.as_mut()), par, MemStack::new(&mut buf), Default::default())
        .map_err(|_| ())?;
    let s = s.column_vector();
    Ok(((0..n).map(|j| s[j].real()).collect(), u))
}

/// The eigenvalues (ascending) of one Hermitian matrix: our loops up to
/// [`super::small::SPECTRAL`] (finite input), else LAPACK where served, else faer; `None` when
/// they did not converge.
fn eigenvalues<T: Field>(v: MatRef<'_, T>, uplo: Uplo) -> Option<Vec<T::Real>> {
    if v.nrows() <= super::small::SPECTRAL {
        if let Some(w) = super::small::eigvalsh(v, uplo) {
            return Some(w);
        }
    }
    if let Some(r) = T::eigh(v, uplo, false) {
        return r.map(|(w, _)| w);
    }
    match uplo {
        Uplo::Lower => v.self_adjoint_eigenvalues(Side::Lower),
        Uplo::Upper => v.adjoint().self_adjoint_eigenvalues(Side::Lower),
    }
    .ok()
}

/// Complex eigenvalues and, if asked, eigenvectors (columns, unit norm) of general matrices.
#[allow(clippy::type_complexity)]
pub(crate) fn eig<T: Field>(a: &[T], al: &Layout, vectors: bool) -> Result<(Vec<T::Cplx>, Option<Vec<T::Cplx>>)> {
    let sa = Stack::new(al);
    let fs = per_matrix("eig", sa.len(), |i| {
        let v = sa.view(a, i);
        let nc = |_| LinAlgKind::NoConvergence { index: i };
        if !vectors {
            let w = v.eigenvalues().map_err(nc)?;
            return Ok((w.into_iter().map(T::from_faer_cplx).collect::<Vec<_>>(), Vec::new()));
        }
        let e = v.eigen().map_err(nc)?;
        let s = e.S().column_vector();
        let w: Vec<T::Cplx> = (0..s.nrows()).map(|j| T::from_faer_cplx(s[j])).collect();
        let mut u = c_order(e.U(), T::from_faer_cplx);
        normalize_columns::<T>(&mut u, s.nrows());
        Ok((w, u))
    })?;
    Ok((concat(&fs, |f| f.0.as_slice()), vectors.then(|| concat(&fs, |f| f.1.as_slice()))))
}

/// LAPACK's (and so NumPy's) convention for eigenvectors of general matrices: each column of unit
/// Euclidean norm with its largest component real (faer's are not normalised).
fn normalize_columns<T: Field>(u: &mut [T::Cplx], n: usize) {
    use xp_core::{Element, Scalar};
    for j in 0..n {
        let col: Vec<xp_core::Complex64> = (0..n).map(|i| u[i * n + j].to_scalar().to_c128()).collect();
        let norm = col.iter().map(|z| z.norm_sqr()).sum::<f64>().sqrt();
        let big =
            col.iter().copied().fold(xp_core::Complex64::new(0.0, 0.0), |b, z| if z.norm() > b.norm() { z } else { b });
        if norm == 0.0 || big.norm() == 0.0 {
            continue;
        }
        let f = (big / big.norm()).conj() / norm;
        for i in 0..n {
            u[i * n + j] = <T::Cplx as Element>::from_scalar(Scalar::Complex(col[i] * f));
        }
    }
}
