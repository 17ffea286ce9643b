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

/// `T` and `Z` (C order) of every matrix of a stack: its Hessenberg form, moved to the working
/// scalars `W` by `to`, brought to Schur form by `qr` (one of [`super::francis`]'s sweeps;
/// `false` is no convergence) and back by `from`.
fn each<T: ComplexField + Copy + Send + Sync, W: Copy, U: xp_core::Element + Send>(
    a: &[T],
    al: &Layout,
    to: impl Fn(T) -> W + Sync + Send,
    qr: fn(&mut [W], &mut [W], usize) -> bool,
    from: impl Fn(W) -> U + Sync + Send,
) -> Result<(Vec<U>, Vec<U>)> {
    let sa = Stack::new(al);
    let par = seq_in_stack(sa.len());
    let fs = per_matrix("schur", sa.len(), |i| {
        let n = sa.rows;
        let (h, q) = hessenberg_one(sa.view(a, i), true, par);
        let (mut t, mut z) = (c_order(h.as_ref(), &to), c_order(q.expect("asked for Q").as_ref(), &to));
        if !qr(&mut t, &mut z, n) {
            return Err(LinAlgKind::NoConvergence { index: i });
        }
        Ok((t.into_iter().map(&from).collect::<Vec<U>>(), z.into_iter().map(&from).collect::<Vec<U>>()))
    })?;
    Ok((concat(&fs, |f| f.0.as_slice()), concat(&fs, |f| f.1.as_slice())))
}

/// The real Schur form of every real matrix of a stack (computed in float64): `(T, Z)`.
pub(crate) fn schur_real<R: RealField + xp_core::Element>(
    a: &[R],
    al: &Layout,
    to: impl Fn(R) -> f64 + Sync + Send,
    from: impl Fn(f64) -> R + Sync + Send,
) -> Result<(Vec<R>, Vec<R>)> {
    each(a, al, to, super::francis::real_schur, from)
}

/// The complex Schur form of every matrix of a stack (computed in complex128; real input is
/// made complex by `up` first, as SciPy's `output='complex'`).
pub(crate) fn schur_complex<T: Copy + Send + Sync, C: ComplexField + xp_core::Element + Copy>(
    a: &[T],
    al: &Layout,
    up: impl Fn(T) -> C + Sync + Send,
    to: impl Fn(C) -> Complex64 + Sync + Send,
    from: impl Fn(Complex64) -> C + Sync + Send,
) -> Result<(Vec<C>, Vec<C>)> {
    let sa = Stack::new(al);
    let c: Vec<C> = (0..sa.len()).flat_map(|i| c_order(sa.view(a, i), &up)).collect();
    let cl = Layout::contiguous(al.shape());
    each(&c, &cl, to, super::francis::complex_schur, from)
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
