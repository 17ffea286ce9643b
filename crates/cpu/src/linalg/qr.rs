//! Householder QR (faer). `R` comes from faer's factor (its strictly lower part is zero), `Q`
//! from the Householder sequence, thin or complete as NumPy's `mode` asks.
use super::stack::{c_order, concat, per_matrix, Stack};
use super::Field;
use xp_core::linalg::QrMode;
use xp_core::{Layout, Result};

/// `Q` (thin or complete as `mode` asks, absent for [`QrMode::R`]) and `R` of one `m × n`
/// factorisation, C order: the complete `R` has `m` rows, zero from row `k` on, and nothing below
/// the diagonal is kept.
fn factors<T: Field>(
    mode: QrMode,
    (m, n): (usize, usize),
    thin_q: impl FnOnce() -> faer::Mat<T>,
    full_q: impl FnOnce() -> faer::Mat<T>,
    thin_r: faer::MatRef<'_, T>,
) -> (Option<Vec<T>>, Vec<T>) {
    let q = match mode {
        QrMode::Reduced => Some(c_order(thin_q().as_ref(), |x| x)),
        QrMode::Complete => Some(c_order(full_q().as_ref(), |x| x)),
        QrMode::R => None,
    };
    let mut r = c_order(thin_r, |x| x);
    if mode == QrMode::Complete {
        r.resize(m * n, T::default());
    }
    for row in 0..m.min(n) {
        for col in 0..row.min(n) {
            r[row * n + col] = T::default();
        }
    }
    (q, r)
}

/// `(Q, R)` of every matrix of the stack (`Q` absent for [`QrMode::R`]).
pub(crate) fn qr<T: Field>(a: &[T], al: &Layout, mode: QrMode) -> Result<(Option<Vec<T>>, Vec<T>)> {
    let sa = Stack::new(al);
    let (m, n) = (sa.rows, sa.cols);
    let fs = per_matrix("qr", sa.len(), |i| {
        if m.max(n) <= super::small::SMALL {
            return Ok(super::small::qr(sa.view(a, i), mode));
        }
        let f = sa.view(a, i).qr();
        Ok(factors(mode, (m, n), || f.compute_thin_Q(), || f.compute_Q(), f.thin_R()))
    })?;
    let q = (mode != QrMode::R).then(|| concat(&fs, |f| f.0.as_deref().unwrap_or(&[])));
    Ok((q, concat(&fs, |f| f.1.as_slice())))
}

/// `(Q, R, p)` of every matrix of the stack with column pivoting (faer's: the column of largest
/// remaining norm first, as LAPACK's `geqp3`): `A[:, p] = Q R`, `p` int32.
#[allow(clippy::type_complexity)]
pub(crate) fn qr_pivoted<T: Field>(a: &[T], al: &Layout, mode: QrMode) -> Result<(Option<Vec<T>>, Vec<T>, Vec<i32>)> {
    let sa = Stack::new(al);
    let (m, n) = (sa.rows, sa.cols);
    let fs = per_matrix("qr", sa.len(), |i| {
        let f = sa.view(a, i).col_piv_qr();
        let (q, r) = factors(mode, (m, n), || f.compute_thin_Q(), || f.compute_Q(), f.thin_R());
        let p: Vec<i32> = f.P().arrays().0.iter().map(|&j| j as i32).collect();
        Ok((q, r, p))
    })?;
    let q = (mode != QrMode::R).then(|| concat(&fs, |f| f.0.as_deref().unwrap_or(&[])));
    Ok((q, concat(&fs, |f| f.1.as_slice()), concat(&fs, |f| f.2.as_slice())))
}
