//! The opt-in `lapack` feature: decompositions through nalgebra-lapack on the system's LAPACK
//! (OpenBLAS), for the types it serves — the SVD (`gesdd`) in float32 and float64, Cholesky
//! (`potrf`) and LU (`getrf`, `getrs`, `getri`) in all four float and complex types — and the
//! symmetric eigensolver through the `lapack` crate's `syevd` (nalgebra-lapack's `syev` ran 5×
//! slower than NumPy's `syevd` at 1024²). Everything else (QR, `eig`, the determinant, the complex SVD and
//! eigensolver) stays on faer, and so does the whole family in the default build. Each routine
//! answers `None` where LAPACK does not serve the type, and the caller runs faer.
use faer::traits::ComplexField;
use faer::{Mat, MatRef};
use xp_core::linalg::Uplo;

/// One matrix's SVD: `U`, the singular values, `V` (not conjugate-transposed).
pub(crate) type SvdParts<T> = (Mat<T>, Vec<<T as ComplexField>::Real>, Mat<T>);

/// One Hermitian matrix's eigenvalues (ascending) and eigenvectors (columns).
pub(crate) type EighParts<T> = (Vec<<T as ComplexField>::Real>, Mat<T>);

/// LAPACK's routines for one element type; every default is "not served".
pub(crate) trait Lapack: ComplexField + Copy {
    /// SVD of `a`: `Some(None)` when LAPACK did not converge.
    fn svd(_a: MatRef<'_, Self>, _full: bool) -> Option<Option<SvdParts<Self>>> {
        None
    }
    /// Eigenvalues (ascending) and, with `vectors`, eigenvectors (else an empty matrix) of the
    /// Hermitian matrix given by the `uplo` triangle of `a`: `Some(None)` when LAPACK did not
    /// converge.
    fn eigh(_a: MatRef<'_, Self>, _uplo: Uplo, _vectors: bool) -> Option<Option<EighParts<Self>>> {
        None
    }
    /// The lower Cholesky factor of the Hermitian matrix given by the `uplo` triangle of `a`:
    /// `Some(None)` when it is not positive definite.
    fn cholesky(_a: MatRef<'_, Self>, _uplo: Uplo) -> Option<Option<Mat<Self>>> {
        None
    }
    /// `X` with `A X = B`: `Some(None)` when `A` is singular.
    fn solve(_a: MatRef<'_, Self>, _b: MatRef<'_, Self>) -> Option<Option<Mat<Self>>> {
        None
    }
    /// `A⁻¹`: `Some(None)` when `A` is singular.
    fn inv(_a: MatRef<'_, Self>) -> Option<Option<Mat<Self>>> {
        None
    }
}

#[cfg(not(feature = "lapack"))]
mod off {
    use super::Lapack;
    use xp_core::{Complex32, Complex64};
    impl Lapack for f32 {}
    impl Lapack for f64 {}
    impl Lapack for Complex32 {}
    impl Lapack for Complex64 {}
}

#[cfg(feature = "lapack")]
mod on {
    // The system library, linked through openblas-src's `system` feature.
    extern crate openblas_src as _;

    use super::{EighParts, Lapack, SvdParts};
    use faer::traits::ComplexField;
    use faer::{Mat, MatRef};
    use nalgebra::DMatrix;
    use nalgebra_lapack::{Cholesky, LU, SVD};
    use xp_core::linalg::Uplo;
    use xp_core::{Complex32, Complex64};

    fn to_na<T: nalgebra::Scalar + Copy>(a: MatRef<'_, T>) -> DMatrix<T> {
        DMatrix::from_fn(a.nrows(), a.ncols(), |i, j| a[(i, j)])
    }

    fn from_na<T: ComplexField + Copy>(m: &DMatrix<T>, rows: usize, cols: usize) -> Mat<T> {
        Mat::from_fn(rows, cols, |i, j| m[(i, j)])
    }

    /// The Hermitian matrix given by the `uplo` triangle of `a`, in full (LAPACK reads its lower
    /// triangle; the other is filled so that nothing depends on it).
    fn hermitian<T: nalgebra::ComplexField + Copy>(a: MatRef<'_, T>, uplo: Uplo) -> DMatrix<T> {
        let at = |i: usize, j: usize| match uplo {
            Uplo::Lower => a[(i, j)],
            Uplo::Upper => a[(j, i)].conjugate(),
        };
        DMatrix::from_fn(a.nrows(), a.ncols(), |i, j| if i >= j { at(i, j) } else { at(j, i).conjugate() })
    }

    macro_rules! lu_chol {
        () => {
            fn cholesky(a: MatRef<'_, Self>, uplo: Uplo) -> Option<Option<Mat<Self>>> {
                let n = a.nrows();
                Some(Cholesky::new(hermitian(a, uplo)).map(|c| from_na(&c.l(), n, n)))
            }
            fn solve(a: MatRef<'_, Self>, b: MatRef<'_, Self>) -> Option<Option<Mat<Self>>> {
                let lu = LU::new(to_na(a));
                Some(lu.solve(&to_na(b)).map(|x| from_na(&x, b.nrows(), b.ncols())))
            }
            fn inv(a: MatRef<'_, Self>) -> Option<Option<Mat<Self>>> {
                let n = a.nrows();
                Some(LU::new(to_na(a)).inverse().map(|x| from_na(&x, n, n)))
            }
        };
    }

    macro_rules! real {
        ($t:ty, $syevd:path) => {
            impl Lapack for $t {
                fn svd(a: MatRef<'_, Self>, full: bool) -> Option<Option<SvdParts<Self>>> {
                    let (m, n) = (a.nrows(), a.ncols());
                    let k = m.min(n);
                    let Some(f) = SVD::new(to_na(a)) else { return Some(None) };
                    let (uc, vc) = if full { (m, n) } else { (k, k) };
                    let u = from_na(&f.u, m, uc);
                    let v = Mat::from_fn(n, vc, |i, j| f.vt[(j, i)]);
                    Some(Some((u, f.singular_values.iter().copied().collect(), v)))
                }
                fn eigh(a: MatRef<'_, Self>, uplo: Uplo, vectors: bool) -> Option<Option<EighParts<Self>>> {
                    let n = a.nrows();
                    let jobz = if vectors { b'V' } else { b'N' };
                    // Column-major, full Hermitian; LAPACK reads the lower triangle.
                    let mut m = hermitian(a, uplo).as_slice().to_vec();
                    let mut w = vec![0.0 as $t; n];
                    let (ni, mut info) = (n.max(1) as i32, 0i32);
                    let (mut lw, mut liw) = ([0.0 as $t], [0i32]);
                    // SAFETY: a workspace query: the slices hold n² and n elements.
                    unsafe { $syevd(jobz, b'L', n as i32, &mut m, ni, &mut w, &mut lw, -1, &mut liw, -1, &mut info) };
                    if info != 0 {
                        return Some(None);
                    }
                    let (mut work, mut iwork) = (vec![0.0 as $t; lw[0] as usize], vec![0i32; liw[0] as usize]);
                    // SAFETY: the workspaces have the sizes the query returned.
                    unsafe {
                        $syevd(
                            jobz,
                            b'L',
                            n as i32,
                            &mut m,
                            ni,
                            &mut w,
                            &mut work,
                            lw[0] as i32,
                            &mut iwork,
                            liw[0],
                            &mut info,
                        )
                    };
                    if info != 0 {
                        return Some(None);
                    }
                    let v = if vectors { Mat::from_fn(n, n, |i, j| m[i + j * n]) } else { Mat::new() };
                    Some(Some((w, v)))
                }
                lu_chol!();
            }
        };
    }
    real!(f32, lapack::ssyevd);
    real!(f64, lapack::dsyevd);

    impl Lapack for Complex32 {
        lu_chol!();
    }
    impl Lapack for Complex64 {
        lu_chol!();
    }
}
