//! Schur and Hessenberg decompositions (faer's blocked Hessenberg reduction, then the QR
//! iteration of [`super::francis`]): `A = Z T Zᴴ` with `T` upper triangular (complex form) or
//! quasi-triangular with standardised 2 × 2 blocks (real form, LAPACK's `gees`), and
//! `A = Q H Qᴴ` with `H` upper Hessenberg (`gehrd`).
use super::stack::{c_order, concat, per_matrix, seq_in_stack, Stack};
use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::linalg::evd::hessenberg;
use faer::traits::{ComplexField, RealField};
use faer::{Conj, Mat, MatMut, MatRef, Par};
use xp_core::{Complex64, Layout, LinAlgKind, Result};

/// `H` (upper Hessenberg) and, when `calc_q`, `Q` of `a` (`A = Q H Qᴴ`), by Householder
/// reflections; `H` below its subdiagonal exactly zero.
fn hessenberg_one<T: ComplexField>(a: MatRef<'_, T>, calc_q: bool, par: Par) -> (Mat<T>, Option<Mat<T>>) {
    let n = a.nrows();
    let mut h = a.to_owned();
    if n <= 1 {
        return (h, calc_q.then(|| Mat::identity(n, n)));
    }
    let bs = faer::linalg::qr::no_pivoting::factor::recommended_block_size::<T>(n - 1, n - 1);
    let req = StackReq::any_of(&[
        hessenberg::hessenberg_in_place_scratch::<T>(n, bs, par, Default::default()),
        faer::linalg::householder::apply_block_householder_sequence_on_the_right_in_place_scratch::<T>(
            n - 1,
            bs,
            n - 1,
        ),
    ]);
    let mut buf = MemBuffer::new(req);
    let stack = MemStack::new(&mut buf);
    let mut hh = Mat::<T>::zeros(bs, n - 1);
    hessenberg::hessenberg_in_place(h.as_mut(), hh.as_mut(), par, stack, Default::default());
    let q = calc_q.then(|| {
        let mut q = Mat::<T>::identity(n, n);
        faer::linalg::householder::apply_block_householder_sequence_on_the_right_in_place_with_conj(
            h.as_ref().submatrix(1, 0, n - 1, n - 1),
            hh.as_ref(),
            Conj::No,
            q.as_mut().submatrix_mut(1, 1, n - 1, n - 1),
            par,
            stack,
        );
        q
    });
    zero_below(h.as_mut(), 1);
    (h, q)
}

/// Zero the entries of `m` more than `k` below the diagonal.
fn zero_below<T: ComplexField>(mut m: MatMut<'_, T>, k: usize) {
    let n = m.nrows();
    for j in 0..n {
        for i in j + k + 1..n {
            m[(i, j)] = T::zero_impl();
        }
    }
}

/// The real Schur form of real `a` (computed in float64): `(T, Z)`; `None` when the QR
/// iteration did not converge.
fn real_schur_one<R: RealField + Copy>(
    a: MatRef<'_, R>,
    par: Par,
    to: impl Fn(R) -> f64,
    from: impl Fn(f64) -> R,
) -> Option<(Mat<R>, Mat<R>)> {
    let n = a.nrows();
    let (h, q) = hessenberg_one(a, true, par);
    let q = q.expect("asked for Q");
    let (mut t, mut z) = (c_order(h.as_ref(), &to), c_order(q.as_ref(), &to));
    super::francis::real_schur(&mut t, &mut z, n)
        .then(|| (Mat::from_fn(n, n, |i, j| from(t[i * n + j])), Mat::from_fn(n, n, |i, j| from(z[i * n + j]))))
}

/// The complex Schur form of complex `a` (computed in complex128): `(T, Z)`; `None` when the
/// QR iteration did not converge.
fn complex_schur_one<C: ComplexField + Copy>(
    a: MatRef<'_, C>,
    par: Par,
    to: impl Fn(C) -> Complex64,
    from: impl Fn(Complex64) -> C,
) -> Option<(Mat<C>, Mat<C>)> {
    let n = a.nrows();
    let (h, q) = hessenberg_one(a, true, par);
    let q = q.expect("asked for Q");
    let (mut t, mut z) = (c_order(h.as_ref(), &to), c_order(q.as_ref(), &to));
    super::francis::complex_schur(&mut t, &mut z, n)
        .then(|| (Mat::from_fn(n, n, |i, j| from(t[i * n + j])), Mat::from_fn(n, n, |i, j| from(z[i * n + j]))))
}

/// `T` and `Z` of every matrix of a stack, C-order, as converted by `f`.
fn each<T: Copy + Send + Sync, U: xp_core::Element + Send>(
    op: &'static str,
    a: &[T],
    al: &Layout,
    one: impl Fn(MatRef<'_, T>, Par) -> Option<(Mat<U>, Mat<U>)> + Sync + Send,
) -> Result<(Vec<U>, Vec<U>)> {
    let sa = Stack::new(al);
    let par = seq_in_stack(sa.len());
    let fs = per_matrix(op, sa.len(), |i| {
        let (t, z) = one(sa.view(a, i), par).ok_or(LinAlgKind::NoConvergence { index: i })?;
        Ok((c_order(t.as_ref(), |x| x), c_order(z.as_ref(), |x| x)))
    })?;
    Ok((concat(&fs, |f| f.0.as_slice()), concat(&fs, |f| f.1.as_slice())))
}

/// The real Schur form of every real matrix of a stack: `(T, Z)`.
pub(crate) fn schur_real<R: RealField + xp_core::Element>(
    a: &[R],
    al: &Layout,
    to: impl Fn(R) -> f64 + Sync + Send,
    from: impl Fn(f64) -> R + Sync + Send,
) -> Result<(Vec<R>, Vec<R>)> {
    each("schur", a, al, |v, par| real_schur_one(v, par, &to, &from))
}

/// The complex Schur form of every matrix of a stack (real input is made complex by `up`).
pub(crate) fn schur_complex<T: Copy + Send + Sync, C: ComplexField + xp_core::Element + Copy>(
    a: &[T],
    al: &Layout,
    up: impl Fn(T) -> C + Sync + Send,
    to: impl Fn(C) -> Complex64 + Sync + Send,
    from: impl Fn(Complex64) -> C + Sync + Send,
) -> Result<(Vec<C>, Vec<C>)> {
    each("schur", a, al, |v, par| {
        complex_schur_one(Mat::from_fn(v.nrows(), v.ncols(), |i, j| up(v[(i, j)])).as_ref(), par, &to, &from)
    })
}

/// `H` and, when `calc_q`, `Q` of every matrix of a stack.
pub(crate) fn hessenberg<T: ComplexField + xp_core::Element>(
    a: &[T],
    al: &Layout,
    calc_q: bool,
) -> Result<(Vec<T>, Option<Vec<T>>)> {
    let sa = Stack::new(al);
    let par = seq_in_stack(sa.len());
    let fs = per_matrix("hessenberg", sa.len(), |i| {
        let (h, q) = hessenberg_one(sa.view(a, i), calc_q, par);
        Ok((c_order(h.as_ref(), |x| x), q.map(|q| c_order(q.as_ref(), |x| x)).unwrap_or_default()))
    })?;
    Ok((concat(&fs, |f| f.0.as_slice()), calc_q.then(|| concat(&fs, |f| f.1.as_slice()))))
}
