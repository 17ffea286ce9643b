//! `svds` (SciPy's): the largest singular triplets by Lanczos on the augmented operator
//! `[[0, A], [Aᴴ, 0]]` started from `[0; v₀]`, which is Golub–Kahan bidiagonalisation (the
//! Lanczos vectors alternate `[u; 0]`, `[0; v]`), with full reorthogonalisation and thick
//! restarts; its eigenvalues are `±σᵢ` (and zeros), so the singular values come at the
//! accuracy of `A`, not of `AᴴA` (whose eigenvalues are `σᵢ²`: small ones lose half their digits).
//!
//! ```
//! use xp::sparse::linalg::{svds, EigOptions};
//! let a = xp::sparse::CsrArray::from_dense(&xp::Array::from_vec(vec![3.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], &[4, 3]).unwrap()).unwrap();
//! let r = svds(&a, 2, EigOptions::default()).unwrap();
//! assert_eq!(r.s.to_vec::<f64>().unwrap().iter().map(|s| (s * 1e9).round() / 1e9).collect::<Vec<_>>(), vec![2.0, 3.0]);
//! ```
use super::arnoldi::random_vector;
use super::eigen::{ritz, EigOptions, Which};
use super::operator::LinearOperator;
use super::system::Vecs;
use crate::{s, Array};
use std::cmp::Ordering;
use xp_core::{DType, Error, Result};

/// The singular triplets from [`svds`], the singular values ascending (SciPy's order).
#[derive(Clone, Debug)]
pub struct Svds {
    /// the left singular vectors as the columns of an `(m, k)` array
    pub u: Array,
    /// the `k` singular values, ascending, real
    pub s: Array,
    /// the right singular vectors as the rows of a `(k, n)` array
    pub vh: Array,
    /// restarts made
    pub restarts: usize,
}

/// The `k` largest singular values and vectors of an `(m, n)` operator (SciPy's `svds`, its
/// default `which='LM'`; `SM` is not built: an `InvalidParameter` error), `0 < k < min(m, n)`.
/// `a` must offer [`LinearOperator::rmatvec`]. Options as [`super::eigsh`]'s (`sigma` and
/// `opinv` do not apply); `v0` has length `n`.
pub fn svds(a: &dyn LinearOperator, k: usize, opts: EigOptions) -> Result<Svds> {
    let op = "svds";
    a.validate()?;
    let [m, n] = a.shape();
    if k == 0 || k >= m.min(n) {
        return Err(Error::InvalidParameter {
            op,
            param: "k",
            requirement: format!("0 < k < min(m, n) = {}, got {k}", m.min(n)),
        });
    }
    if opts.which != Which::LM || opts.sigma.is_some() {
        return Err(Error::InvalidParameter {
            op,
            param: "which",
            requirement: "only the largest singular values (LM, no sigma) are built".into(),
        });
    }
    let dt = match a.dtype() {
        DType::F32 | DType::F64 | DType::C64 | DType::C128 => a.dtype(),
        DType::F16 | DType::BF16 => DType::F32,
        _ => DType::F64,
    };
    let v = Vecs { dtype: dt };
    let device = match a.to_csr() {
        Some(c) => c?.device(),
        None => opts.v0.map_or(xp_core::Device::Cpu, |x| x.device()),
    };
    let v0 = match opts.v0 {
        Some(x) if x.shape() != [n] => {
            return Err(Error::invalid(op, format!("v0 has shape {:?}, expected ({n},)", x.shape())));
        }
        Some(x) => x.astype(dt)?,
        None => random_vector(n, 1, v, device)?,
    };
    let start = crate::concatenate(&[&crate::creation::full_on(device, &[m], 0, dt)?, &v0.to_device(device)?], 0)?;
    let aug = |z: &Array| -> Result<Array> {
        let (x, y) = (z.slice(s![..m as isize])?, z.slice(s![m as isize..])?);
        let top = v.cast(a.matvec(&y)?)?;
        let bottom = v.cast(a.rmatvec(&x)?)?;
        crate::concatenate(&[&top, &bottom], 0)
    };
    let o = EigOptions { which: Which::LA, ..opts };
    let r = ritz(&aug, m + n, v, device, k, &o, true, false, Some(start), op)?;
    let mut idx: Vec<usize> = (0..k).collect();
    idx.sort_by(|&p, &q| r.theta[p].re.partial_cmp(&r.theta[q].re).unwrap_or(Ordering::Equal));
    let perm = Array::from_vec(idx.iter().map(|&i| i as i64).collect::<Vec<_>>(), [k])?.to_device(device)?;
    let z = r.rows.take(&perm, Some(0))?;
    // each half of a unit eigenvector [u; v]/√2 has norm 1/√2: normalise both
    let unit = |h: Array| -> Result<Array> {
        let norms = crate::linalg::norm(&h, None, 1)?;
        h.div(&norms.reshape([-1, 1])?)
    };
    let u = unit(z.slice(s![.., ..m as isize])?)?.t()?.copy()?;
    let vh = unit(z.slice(s![.., m as isize..])?)?.conj()?;
    let real = if matches!(dt, DType::F32 | DType::C64) { DType::F32 } else { DType::F64 };
    let sv = Array::from_vec(idx.iter().map(|&i| r.theta[i].re).collect::<Vec<f64>>(), [k])?
        .astype(real)?
        .to_device(device)?;
    Ok(Svds { u, s: sv, vh, restarts: r.restarts })
}
