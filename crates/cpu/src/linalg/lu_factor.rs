//! SciPy's `lu_factor` and `lu_solve`: LU factors packed as LAPACK's `getrf` returns them, with
//! its row interchanges, and the solves with them (`getrs`, any of the three systems). Large
//! matrices factor blocked (panels by rows, faer's triangular solve and GEMM for the rest);
//! small ones, and any with an exact zero pivot, through our own `getf2` loop (`small::lu_rows`).
use super::small::{lu_rows, panel, SMALL};
use super::stack::{c_order, concat, per_matrix, seq_in_stack, Stack};
use super::Field;
use faer::linalg::triangular_solve as tri;
use faer::reborrow::ReborrowMut;
use faer::{Conj, MatMut, MatRef, Par};
use xp_core::linalg::Trans;
use xp_core::{Layout, Result};

/// The packed factors (C order) and the 0-based interchanges of every matrix of the stack.
pub(crate) fn lu_factor<T: Field>(a: &[T], al: &Layout) -> Result<(Vec<T>, Vec<i32>)> {
    let sa = Stack::new(al);
    let (m, n) = (sa.rows, sa.cols);
    let par = seq_in_stack(sa.len());
    let fs = per_matrix("lu_factor", sa.len(), |i| {
        let v = sa.view(a, i);
        let mut f = c_order(v, |x| x);
        if m.max(n) > SMALL {
            if let Some(piv) = blocked(&mut f, m, n, par) {
                return Ok((f, piv));
            }
            f = c_order(v, |x| x); // a zero pivot: LAPACK's loop below
        }
        let piv = lu_rows(&mut f, m, n);
        Ok((f, piv))
    })?;
    Ok((concat(&fs, |f| f.0.as_slice()), concat(&fs, |f| f.1.as_slice())))
}

/// Columns per panel of [`blocked`].
const PANEL: usize = 128;
/// Panels at most this wide are factored column by column; wider ones recursively.
const LEAF: usize = 16;

/// Right-looking blocked LU (LAPACK's `getrf`) of the row-major `m × n` matrix `f` in place:
/// each panel of [`PANEL`] columns is gathered into a compact buffer (its rows adjacent: walking
/// the panel's column of a 1024-wide matrix in place cost a TLB miss per row, a fifth of the
/// LU), factored there recursively (down to [`LEAF`] columns done by rows) and scattered back,
/// its interchanges applied to the columns left and right of it, the rows right of it solved with
/// its unit lower triangle, and the trailing matrix updated by one GEMM (faer's, in parallel).
/// `None` when a pivot is exactly zero (the caller then runs LAPACK's unblocked loop, whose
/// zero-pivot semantics this does not keep).
fn blocked<T: Field>(f: &mut [T], m: usize, n: usize, par: Par) -> Option<Vec<i32>> {
    let k = m.min(n);
    let mut piv = Vec::with_capacity(k);
    let mut p = Vec::with_capacity(m * PANEL.min(k));
    let mut local = Vec::with_capacity(PANEL);
    let mut j0 = 0;
    while j0 < k {
        let jb = PANEL.min(k - j0);
        let cols = |r: usize| r * n + j0..r * n + j0 + jb;
        p.clear();
        (j0..m).for_each(|r| p.extend_from_slice(&f[cols(r)]));
        local.clear();
        if !factor_cols(&mut p, (m - j0, jb), (0, jb, jb), (jb / 2).max(LEAF), &mut local) {
            return None;
        }
        for (r, row) in (j0..m).zip(p.chunks_exact(jb)) {
            f[cols(r)].copy_from_slice(row);
        }
        for (c, &q) in local.iter().enumerate() {
            let (a, b) = (j0 + c, j0 + q as usize);
            piv.push(b as i32);
            if a != b {
                let (top, bottom) = f.split_at_mut(b * n);
                let (ra, rb) = (&mut top[a * n..a * n + n], &mut bottom[..n]);
                ra[..j0].swap_with_slice(&mut rb[..j0]);
                ra[j0 + jb..].swap_with_slice(&mut rb[j0 + jb..]);
            }
        }
        update(f, (m, n), (j0, jb, n), par);
        j0 += jb;
    }
    Some(piv)
}

/// Factor columns `c0..c1` (rows `c0..`) of the row-major `m × n` panel `f` in blocks of `nb`
/// (recursively halved, interchanging whole rows of the panel), updating the columns up to `cend`.
fn factor_cols<T: Field>(
    f: &mut [T],
    (m, n): (usize, usize),
    (c0, c1, cend): (usize, usize, usize),
    nb: usize,
    piv: &mut Vec<i32>,
) -> bool {
    let mut j0 = c0;
    while j0 < c1 {
        let jb = nb.min(c1 - j0);
        let ok = if jb <= LEAF {
            panel(f, (m, n), j0, jb, piv)
        } else {
            factor_cols(f, (m, n), (j0, j0 + jb, j0 + jb), (jb / 2).max(LEAF), piv)
        };
        if !ok {
            return false;
        }
        update(f, (m, n), (j0, jb, cend), Par::Seq);
        j0 += jb;
    }
    true
}

/// With the columns `j0..j0 + jb` of the row-major `m × n` matrix `f` factored: solve the rows
/// `j0..j0 + jb` of the columns right of them up to `cend` with the unit lower triangle, and
/// subtract `L21 U12` from the trailing block below.
fn update<T: Field>(f: &mut [T], (m, n): (usize, usize), (j0, jb, cend): (usize, usize, usize), par: Par) {
    let rest = cend - j0 - jb;
    if rest == 0 {
        return;
    }
    // SAFETY: the views are disjoint blocks of `f` (rows j0..j0+jb and below, columns j0..j0+jb
    // and right of them up to cend), each inside the m × n row-major buffer.
    unsafe {
        let base = f.as_mut_ptr();
        let at = |r: usize, c: usize| base.add(r * n + c);
        let l11 = MatRef::from_raw_parts(at(j0, j0) as *const T, jb, jb, n as isize, 1);
        let u12 = MatMut::from_raw_parts_mut(at(j0, j0 + jb), jb, rest, n as isize, 1);
        tri::solve_unit_lower_triangular_in_place_with_conj(l11, Conj::No, u12, par);
        let below = m - j0 - jb;
        if below > 0 {
            let l21 = MatRef::from_raw_parts(at(j0 + jb, j0) as *const T, below, jb, n as isize, 1);
            let u12 = MatRef::from_raw_parts(at(j0, j0 + jb) as *const T, jb, rest, n as isize, 1);
            let a22 = MatMut::from_raw_parts_mut(at(j0 + jb, j0 + jb), below, rest, n as isize, 1);
            faer::linalg::matmul::matmul(a22, faer::Accum::Add, l21, u12, T::of(-1.0, 0.0), par);
        }
    }
}

/// `X` from the factors `lu` of square `[.., n, n]`, their interchanges `piv` `[.., n]` and
/// `B` `[.., n, k]` (batches already broadcast to one shape), for the system `trans`.
pub(crate) fn lu_solve<T: Field>(
    lu: &[T],
    l: &Layout,
    piv: &[i32],
    pl: &Layout,
    b: &[T],
    bl: &Layout,
    trans: Trans,
) -> Result<Vec<T>> {
    let (sa, sb) = (Stack::new(l), Stack::new(bl));
    let sp = Stack::new(&pl.insert_axis(pl.ndim() - 1));
    let (n, nrhs) = (sa.rows, sb.cols);
    let par = seq_in_stack(sa.len());
    let xs = per_matrix("lu_solve", sa.len(), |i| {
        let p = sp.view(piv, i);
        let mut x = c_order(sb.view(b, i), |v| v);
        substitute(
            sa.view(lu, i),
            |j| p[(0, j)] as usize,
            MatMut::from_row_major_slice_mut(&mut x, n, nrhs),
            trans,
            par,
        );
        Ok(x)
    })?;
    Ok(concat(&xs, Vec::as_slice))
}

/// Solve in place with the LU factors `f` (`n × n`, as [`lu_factor`] packs them) and their
/// interchanges (`piv(j)`: the row swapped with row `j`) the system `trans` says for `x`.
fn substitute<T: Field>(f: MatRef<'_, T>, piv: impl Fn(usize) -> usize, mut xm: MatMut<'_, T>, trans: Trans, par: Par) {
    let (n, nrhs) = (xm.nrows(), xm.ncols());
    let swap = |xm: &mut MatMut<'_, T>, j: usize| {
        let q = piv(j);
        if q != j && q < n {
            for c in 0..nrhs {
                let t = xm[(j, c)];
                xm[(j, c)] = xm[(q, c)];
                xm[(q, c)] = t;
            }
        }
    };
    match trans {
        Trans::N => {
            (0..n).for_each(|j| swap(&mut xm, j));
            tri::solve_unit_lower_triangular_in_place_with_conj(f, Conj::No, xm.rb_mut(), par);
            tri::solve_upper_triangular_in_place_with_conj(f, Conj::No, xm.rb_mut(), par);
        }
        Trans::T | Trans::C => {
            let c = if trans == Trans::C { Conj::Yes } else { Conj::No };
            tri::solve_lower_triangular_in_place_with_conj(f.transpose(), c, xm.rb_mut(), par);
            tri::solve_unit_upper_triangular_in_place_with_conj(f.transpose(), c, xm.rb_mut(), par);
            (0..n).rev().for_each(|j| swap(&mut xm, j));
        }
    }
}

/// Solve `A X = B` in place for row-major square `a` (`n × n`, overwritten by its LU factors)
/// and `x` (`n × nrhs`, overwritten by `X`): `false`, with `x` unsolved, when a pivot is
/// exactly zero (`A` singular, as LAPACK's `gesv` reports it).
pub(super) fn solve_in_place<T: Field>(a: &mut [T], n: usize, x: &mut [T], nrhs: usize, par: Par) -> bool {
    let piv = if n > SMALL {
        match blocked(a, n, n, par) {
            Some(p) => p,
            None => return false,
        }
    } else {
        let p = lu_rows(a, n, n);
        if (0..n).any(|d| a[d * n + d] == T::zero_impl()) {
            return false;
        }
        p
    };
    let f = MatRef::from_row_major_slice(a, n, n);
    substitute(f, |j| piv[j] as usize, MatMut::from_row_major_slice_mut(x, n, nrhs), Trans::N, par);
    true
}

/// `X` with `op(A) X = B` for triangular `A` `[.., n, n]` (the triangle, system and diagonal
/// of `spec`) and `B` `[.., n, k]`; an exact zero on the read diagonal is refused first.
pub(crate) fn solve_triangular<T: Field>(
    a: &[T],
    al: &Layout,
    b: &[T],
    bl: &Layout,
    spec: xp_core::linalg::TriangularSpec,
) -> Result<Vec<T>> {
    use xp_core::linalg::Uplo;
    use xp_core::LinAlgKind;
    let (sa, sb) = (Stack::new(al), Stack::new(bl));
    let (n, nrhs) = (sa.rows, sb.cols);
    let par = seq_in_stack(sa.len());
    let xs = per_matrix("solve_triangular", sa.len(), |i| {
        let v = sa.view(a, i);
        if !spec.unit_diagonal {
            if let Some(d) = (0..n).find(|&d| v[(d, d)] == T::zero_impl()) {
                return Err(LinAlgKind::SingularDiagonal { index: i, diagonal: d });
            }
        }
        let mut x = c_order(sb.view(b, i), |v| v);
        let xm = MatMut::from_row_major_slice_mut(&mut x, n, nrhs);
        // op(A) and whether it is lower triangular
        let (m, c, lower): (MatRef<'_, T>, Conj, bool) = match spec.trans {
            Trans::N => (v, Conj::No, spec.uplo == Uplo::Lower),
            Trans::T => (v.transpose(), Conj::No, spec.uplo == Uplo::Upper),
            Trans::C => (v.transpose(), Conj::Yes, spec.uplo == Uplo::Upper),
        };
        triangular(m, c, lower, spec.unit_diagonal, xm, par);
        Ok(x)
    })?;
    Ok(concat(&xs, Vec::as_slice))
}

/// Solve in place with the triangle of `m` (conjugated by `c`) that `lower` names.
fn triangular<T: Field>(m: MatRef<'_, T>, c: Conj, lower: bool, unit: bool, x: MatMut<'_, T>, par: Par) {
    match (lower, unit) {
        (true, false) => tri::solve_lower_triangular_in_place_with_conj(m, c, x, par),
        (true, true) => tri::solve_unit_lower_triangular_in_place_with_conj(m, c, x, par),
        (false, false) => tri::solve_upper_triangular_in_place_with_conj(m, c, x, par),
        (false, true) => tri::solve_unit_upper_triangular_in_place_with_conj(m, c, x, par),
    }
}
