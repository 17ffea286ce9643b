//! SciPy's LU family: `lu_factor` (LAPACK's packed factors and 0-based pivots), `lu_solve`
//! (any of the three systems) and `lu` (the explicit `P`, `L`, `U`), batched over leading axes.
//!
//! ```
//! use xp::linalg::{self, Trans};
//! let a = xp::Array::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
//! let f = linalg::lu_factor(&a).unwrap();
//! assert_eq!(f.piv.to_vec::<i32>().unwrap(), vec![1, 1]); // row 0 swapped with row 1
//! let b = xp::Array::from_vec(vec![5.0f64, 6.0], &[2]).unwrap();
//! let x = linalg::lu_solve(&f, &b, Trans::N).unwrap();
//! let back = xp::matmul(&a, &x).unwrap().to_vec::<f64>().unwrap();
//! assert!((back[0] - 5.0).abs() < 1e-12 && (back[1] - 6.0).abs() < 1e-12);
//! let p = linalg::lu(&a, linalg::LuOptions::default()).unwrap();
//! let plu = xp::matmul(&p.p.unwrap(), &xp::matmul(&p.l, &p.u).unwrap()).unwrap();
//! assert!(xp::allclose(&plu, &a).unwrap());
//! ```
use super::system::System;
use super::{batch, prepared, with_tail};
use crate::backend::{on_many, on_storage_map, Reads};
use crate::Array;
use xp_core::linalg::Trans;
use xp_core::{DType, Error, LinalgStorage, Result, SliceElem};

/// LU factors as SciPy's `lu_factor` returns them: `lu` `(.., m, n)` holds `U` on and above
/// the diagonal and the unit lower-triangular `L` below it; `piv` `(.., min(m, n))` (int32):
/// row `i` was interchanged with row `piv[i]` (0-based), for `i` in order.
#[derive(Clone, Debug)]
pub struct LuFactor {
    /// `L` and `U` packed in one matrix
    pub lu: Array,
    /// the row interchanges
    pub piv: Array,
}

/// LU with partial pivoting, packed (SciPy `lu_factor(a)`): `A = P L U`. An exact zero pivot
/// is not an error (SciPy warns): the factors are LAPACK's, with that column of `L` zero, and
/// [`lu_solve`] with them gives infinities or NaN.
pub fn lu_factor(a: &Array) -> Result<LuFactor> {
    let (x, m, n) = prepared("lu_factor", a, false)?;
    let bs = batch(&x).to_vec();
    let k = m.min(n);
    if x.size() == 0 {
        let dev = crate::on(x.device());
        return Ok(LuFactor {
            lu: dev.zeros(x.shape(), x.dtype())?,
            piv: dev.zeros(with_tail(&bs, &[k]), DType::I32)?,
        });
    }
    let f = on_storage_map!(&*x.read(), s => s.lu_factor(&x.layout))?;
    Ok(LuFactor { lu: Array::from_storage(f.lu, x.shape()), piv: Array::from_storage(f.piv, &with_tail(&bs, &[k])) })
}

/// Solve `A x = b` (or `Aᵀ x = b`, `Aᴴ x = b`, as `trans` says) with `A`'s [`lu_factor`]
/// (SciPy `lu_solve((lu, piv), b, trans)`): `b` a vector `(n,)` or a stack `(.., n, k)`, batch
/// axes broadcast against the factors'. Pivots outside `0..n` are [`Error::InvalidArgument`]
/// (LAPACK would read outside the matrix).
pub fn lu_solve(f: &LuFactor, b: &Array, trans: Trans) -> Result<Array> {
    let op = "lu_solve";
    let sys = System::new(op, &f.lu, b)?;
    let n = sys.al.shape()[sys.al.ndim() - 1];
    let piv = &f.piv;
    if piv.ndim() < 1 || piv.shape()[piv.ndim() - 1] != n || !piv.dtype().is_integer() {
        return Err(Error::InvalidArgument {
            op,
            msg: format!(
                "piv must be integers of shape (..., {n}) for factors of order {n}, got {} of shape {:?}",
                piv.dtype(),
                piv.shape()
            ),
        });
    }
    if sys.is_empty() {
        return sys.finish(None);
    }
    let piv = piv.cast_if(DType::I32)?;
    let outside = piv.lt(0)?.logical_or(&piv.ge(n as i64)?)?.any(..)?;
    if outside.item::<bool>()? {
        return Err(Error::InvalidArgument { op, msg: format!("piv holds values outside 0..{n}") });
    }
    let pl = piv.layout.broadcast_to(op, &with_tail(sys.batch(), &[n]))?;
    let reads = Reads::lock(&[&sys.a, &piv, &sys.b]);
    let s = on_many!(reads.many(op)?, s => s[0].lu_solve(&sys.al, s[1], &pl, s[2], &sys.bl, trans))?;
    sys.finish(Some(s))
}

/// SciPy's `lu` options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LuOptions {
    /// return `P L` (as `l`) instead of `P` and `L` (SciPy's `permute_l`)
    pub permute_l: bool,
    /// return the permutation as row indices `(.., m)` (int32) instead of a matrix (SciPy's
    /// `p_indices`): `A = L[p] U`
    pub p_indices: bool,
}

/// The factors of [`lu`]: `A = P L U`.
#[derive(Clone, Debug)]
pub struct Lu {
    /// the permutation: a matrix `(.., m, m)` of the real dtype, or row indices `(.., m)` with
    /// [`LuOptions::p_indices`]; absent with [`LuOptions::permute_l`]
    pub p: Option<Array>,
    /// `L` `(.., m, k)`, unit lower triangular (`P L` with [`LuOptions::permute_l`])
    pub l: Array,
    /// `U` `(.., k, n)`, upper triangular
    pub u: Array,
}

/// LU decomposition with partial pivoting (SciPy `lu(a, permute_l, p_indices)`): `A = P L U`
/// with `k = min(m, n)`. The factors are [`lu_factor`]'s, unpacked; the permutation is made on
/// the host from the pivots (one small copy).
pub fn lu(a: &Array, opts: LuOptions) -> Result<Lu> {
    let f = lu_factor(a)?;
    let (m, n) = (f.lu.shape()[f.lu.ndim() - 2], f.lu.shape()[f.lu.ndim() - 1]);
    let k = m.min(n);
    let bs = batch(&f.lu).to_vec();
    let all = SliceElem::FULL;
    let mut lsl = vec![all; bs.len()];
    lsl.extend([all, SliceElem::from(0..k)]);
    let mut usl = vec![all; bs.len()];
    usl.extend([SliceElem::from(0..k), all]);
    let dev = crate::on(f.lu.device());
    let eye = dev.eye(m, Some(k), 0, f.lu.dtype())?;
    let l = f.lu.slice(&lsl)?.tril(-1)?.add(&eye)?;
    let u = f.lu.slice(&usl)?.triu(0)?;
    // p[i] = the row of A that row i of L U is: the inverse of the rows the interchanges gather
    let count: usize = bs.iter().product();
    let piv = f.piv.to_vec::<i32>()?;
    let mut p = Vec::with_capacity(count * m);
    for z in 0..count {
        let mut order: Vec<i32> = (0..m as i32).collect();
        for (j, &q) in piv[z * k..(z + 1) * k].iter().enumerate() {
            order.swap(j, q as usize);
        }
        let mut inv = vec![0i32; m];
        for (i, &r) in order.iter().enumerate() {
            inv[r as usize] = i as i32;
        }
        p.extend(inv);
    }
    let p = Array::from_vec(p, with_tail(&bs, &[m]))?.to_device(f.lu.device())?;
    if opts.permute_l {
        let idx = p.expand_dims(-1)?;
        return Ok(Lu { p: None, l: crate::take_along_axis(&l, &idx, -2)?, u });
    }
    let p = if opts.p_indices {
        p
    } else {
        // P[i, p[i]] = 1, so that P L = L[p]
        let cols = dev.arange(0, m as i64, 1, Some(DType::I32))?;
        p.expand_dims(-1)?.eq(&cols)?.astype(f.lu.dtype().to_real())?
    };
    Ok(Lu { p: Some(p), l, u })
}
