//! LU with partial pivoting (faer): `solve`, `inv` and the determinant. A matrix whose LU has an
//! exact zero pivot is singular, as LAPACK's `getrf` reports it (NumPy's "Singular matrix").
use super::stack::{c_order, concat, per_matrix, Stack};
use super::Field;
use faer::linalg::solvers::{DenseSolveCore, PartialPivLu, Solve};
use faer::{Mat, MatRef};
use xp_core::{Complex64, Element, Layout, LinAlgKind, Result, Scalar};

/// LU of one matrix, or `Singular` when a pivot is exactly zero.
fn factor<T: Field>(a: MatRef<'_, T>, index: usize) -> std::result::Result<PartialPivLu<T>, LinAlgKind> {
    let lu = a.partial_piv_lu();
    let u = lu.U();
    // The first exact zero pivot makes the matrix singular (faer factorises on past it, so the
    // later ones may be NaN).
    if (0..u.nrows()).any(|i| u[(i, i)] == T::zero_impl()) {
        return Err(LinAlgKind::Singular { index });
    }
    Ok(lu)
}

/// `X` with `A X = B` for every matrix pair of the stacks.
pub(crate) fn solve<T: Field>(a: &[T], al: &Layout, b: &[T], bl: &Layout) -> Result<Vec<T>> {
    let (sa, sb) = (Stack::new(al), Stack::new(bl));
    let xs = per_matrix("solve", sa.len(), |i| {
        if let Some(x) = T::solve(sa.view(a, i), sb.view(b, i)) {
            return Ok(c_order(x.ok_or(LinAlgKind::Singular { index: i })?.as_ref(), |v| v));
        }
        let lu = factor(sa.view(a, i), i)?;
        let x: Mat<T> = lu.solve(sb.view(b, i));
        Ok(c_order(x.as_ref(), |v| v))
    })?;
    Ok(concat(&xs, Vec::as_slice))
}

/// The inverse of every matrix of the stack.
pub(crate) fn inv<T: Field>(a: &[T], al: &Layout) -> Result<Vec<T>> {
    let sa = Stack::new(al);
    let xs = per_matrix("inv", sa.len(), |i| {
        if let Some(x) = T::inv(sa.view(a, i)) {
            return Ok(c_order(x.ok_or(LinAlgKind::Singular { index: i })?.as_ref(), |v| v));
        }
        Ok(c_order(factor(sa.view(a, i), i)?.inverse().as_ref(), |v| v))
    })?;
    Ok(concat(&xs, Vec::as_slice))
}

/// Parity of a permutation given as the image of each position: +1 or -1.
fn parity(p: &[usize]) -> i32 {
    let mut seen = vec![false; p.len()];
    let mut sign = 1;
    for s in 0..p.len() {
        let (mut i, mut len) = (s, 0);
        while !seen[i] {
            seen[i] = true;
            i = p[i];
            len += 1;
        }
        if len > 0 && len % 2 == 0 {
            sign = -sign;
        }
    }
    sign
}

/// `(det, sign, logabsdet)` of every matrix (`sign = 0, logabsdet = -inf` when singular; an
/// empty matrix has determinant 1). The products run in float64 / complex128 and are rounded once.
#[allow(clippy::type_complexity)]
pub(crate) fn det<T: Field>(a: &[T], al: &Layout) -> Result<(Vec<T>, Vec<T>, Vec<T::Real>)> {
    let sa = Stack::new(al);
    let parts = per_matrix("det", sa.len(), |i| {
        let lu = sa.view(a, i).partial_piv_lu();
        let u = lu.U();
        let p = parity(lu.P().arrays().0) as f64;
        let (mut det, mut sign, mut log) = (Complex64::new(p, 0.0), Complex64::new(p, 0.0), 0.0f64);
        for j in 0..u.nrows() {
            let d = u[(j, j)].to_scalar().to_c128();
            let m = d.norm();
            if m == 0.0 {
                // An exact zero pivot: singular. (The factorisation goes on past it, so later
                // pivots may be NaN; LAPACK's stops there, and so does NumPy's determinant.)
                (det, sign, log) = (Complex64::new(0.0, 0.0), Complex64::new(0.0, 0.0), f64::NEG_INFINITY);
                break;
            }
            det *= d;
            sign *= d / m;
            log += m.ln();
        }
        let back = |c: Complex64| T::from_scalar(Scalar::Complex(c));
        Ok((back(det), back(sign), T::Real::from_scalar(Scalar::Float(log))))
    })?;
    Ok((parts.iter().map(|p| p.0).collect(), parts.iter().map(|p| p.1).collect(), parts.iter().map(|p| p.2).collect()))
}
