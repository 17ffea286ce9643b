//! Singular value decomposition (faer's divide and conquer): `U`, the singular values in
//! non-increasing order and `Vh = Vᴴ`, thin or full.
use super::stack::{c_order, concat, per_matrix, Stack};
use super::Field;
use faer::traits::ext::ComplexFieldExt;
use xp_core::linalg::SvdSpec;
use xp_core::{Layout, LinAlgKind, Result};

/// `(U, s, Vh)` of every matrix of the stack (`U`, `Vh` absent unless `compute_uv`).
#[allow(clippy::type_complexity)]
pub(crate) fn svd<T: Field>(
    a: &[T],
    al: &Layout,
    spec: SvdSpec,
) -> Result<(Option<Vec<T>>, Vec<T::Real>, Option<Vec<T>>)> {
    let sa = Stack::new(al);
    let fs = per_matrix("svd", sa.len(), |i| {
        let v = sa.view(a, i);
        let nc = |_| LinAlgKind::NoConvergence { index: i };
        if !spec.compute_uv {
            return Ok((Vec::<T>::new(), v.singular_values().map_err(nc)?, Vec::<T>::new()));
        }
        let f = if spec.full_matrices { v.svd() } else { v.thin_svd() }.map_err(nc)?;
        let s = f.S().column_vector();
        let s: Vec<T::Real> = (0..s.nrows()).map(|j| s[j].real()).collect();
        Ok((c_order(f.U(), |x| x), s, c_order(f.V().transpose(), |x| x.conj())))
    })?;
    let u = spec.compute_uv.then(|| concat(&fs, |f| f.0.as_slice()));
    let vh = spec.compute_uv.then(|| concat(&fs, |f| f.2.as_slice()));
    Ok((u, concat(&fs, |f| f.1.as_slice()), vh))
}
