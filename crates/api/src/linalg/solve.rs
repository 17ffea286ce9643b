//! Solvers and what is built on them: `solve`, `inv`, `det`, `slogdet`, `matrix_power`,
//! `lstsq`, `pinv`, `matrix_rank`, `tensorsolve`, `tensorinv`.
use super::decomp::{eye_stack, svd};
use super::system::System;
use super::{batch, check_stack, common_dtype, prepared, with_tail};
use crate::backend::{on_pair, on_storage, on_storage_map};
use crate::products::with_two;
use crate::Array;
use xp_core::{DType, Error, LinAlgKind, LinalgStorage, Result};

/// `x` with `a @ x = b` (NumPy 2 `solve`): `a` (.., n, n); `b` a vector (n,) or a stack
/// (.., n, k), batch axes broadcast. A singular `a` is [`LinAlgKind::Singular`].
pub fn solve(a: &Array, b: &Array) -> Result<Array> {
    let sys = System::new("solve", a, b)?;
    if sys.is_empty() {
        return sys.finish(None);
    }
    let s = with_two(&sys.a, &sys.b, |p, q| on_pair!("solve", p, q, s, t => s.solve(&sys.al, t, &sys.bl)))?;
    sys.finish(Some(s))
}

/// The inverse of square matrices (NumPy `inv`); a singular matrix is
/// [`LinAlgKind::Singular`].
pub fn inv(a: &Array) -> Result<Array> {
    let (x, _, _) = prepared("inv", a, true)?;
    if x.size() == 0 {
        return crate::on(x.device()).zeros(x.shape(), x.dtype());
    }
    let s = on_storage!(&*x.read(), s => s.inv(&x.layout))?;
    Ok(Array::from_storage(s, x.shape()))
}

/// `sign` and `logabsdet` of [`slogdet`]: `det = sign * exp(logabsdet)`.
#[derive(Clone, Debug)]
pub struct Slogdet {
    /// the sign (a unit complex number for complex input; 0 when singular)
    pub sign: Array,
    /// the natural logarithm of |det| (real; -inf when singular)
    pub logabsdet: Array,
}

fn determinant(op: &'static str, a: &Array) -> Result<xp_core::linalg::Determinant<Array>> {
    let (x, n, _) = prepared(op, a, true)?;
    let bs = batch(&x).to_vec();
    if x.size() == 0 {
        let m = crate::on(x.device());
        let (one, zero) = (if n == 0 { 1.0 } else { 0.0 }, 0.0);
        let (d, r) = (x.dtype(), x.dtype().to_real());
        return Ok(xp_core::linalg::Determinant {
            det: m.full(&bs, one, d)?,
            sign: m.full(&bs, one, d)?,
            logabsdet: m.full(&bs, zero, r)?,
        });
    }
    let f = on_storage_map!(&*x.read(), s => s.det(&x.layout)).map_err(|e| e.in_op(op))?;
    Ok(f.map(|s| Array::from_storage(s, &bs)))
}

/// The determinant of square matrices (NumPy `det`; singular matrices give 0, no error).
pub fn det(a: &Array) -> Result<Array> {
    Ok(determinant("det", a)?.det)
}

/// Sign and log-magnitude of the determinant (NumPy `slogdet`), free of the overflow `det` has.
pub fn slogdet(a: &Array) -> Result<Slogdet> {
    let d = determinant("slogdet", a)?;
    Ok(Slogdet { sign: d.sign, logabsdet: d.logabsdet })
}

/// `a` to the integer power `n` (NumPy `linalg.matrix_power`): repeated squaring through
/// `matmul` (any dtype), the identity for `n = 0`, the inverse's power for `n < 0`.
pub fn matrix_power(a: &Array, n: i64) -> Result<Array> {
    let (m, _) = check_stack("matrix_power", a, true)?;
    if n == 0 {
        return eye_stack(a, batch(a), m, m, a.dtype());
    }
    let mut base = if n < 0 { inv(a).map_err(|e| e.in_op("matrix_power"))? } else { a.clone() };
    let mut e = n.unsigned_abs();
    let mut result: Option<Array> = None;
    loop {
        if e & 1 == 1 {
            result = Some(match result {
                None => base.clone(),
                Some(r) => crate::products::matmul_named("matrix_power", &r, &base)?,
            });
        }
        e >>= 1;
        if e == 0 {
            break;
        }
        base = crate::products::matmul_named("matrix_power", &base, &base)?;
    }
    let r = result.expect("n != 0");
    if r.shares_storage(a) {
        r.copy()
    } else {
        Ok(r)
    }
}

/// The machine epsilon of a real or complex dtype's precision.
fn eps(d: DType) -> f64 {
    match d.to_real() {
        DType::F32 => f32::EPSILON as f64,
        _ => f64::EPSILON,
    }
}

/// The results of [`lstsq`].
#[derive(Clone, Debug)]
pub struct Lstsq {
    /// the least-squares solution: (n,) or (n, k)
    pub x: Array,
    /// squared residual norms per column, (k,) (or (1,) for a vector `b`) when `a` has full
    /// column rank and more rows than columns; empty otherwise (NumPy's rule)
    pub residuals: Array,
    /// the effective rank of `a` (read back from the device: this call waits)
    pub rank: usize,
    /// singular values of `a`, non-increasing
    pub s: Array,
}

/// Least-squares solution of `a @ x = b` for a 2-D `a` (m, n) and `b` (m,) or (m, k), through
/// the SVD (NumPy `lstsq`): singular values at most `rcond * max(s)` count as zero, `rcond`
/// defaulting to `eps * max(m, n)` (NumPy 2).
pub fn lstsq(a: &Array, b: &Array, rcond: Option<f64>) -> Result<Lstsq> {
    if a.ndim() != 2 {
        return Err(Error::LinAlg { op: "lstsq", kind: LinAlgKind::NotMatrix { ndim: a.ndim() } });
    }
    if !(1..=2).contains(&b.ndim()) || b.shape()[0] != a.shape()[0] {
        return Err(Error::NotAligned {
            op: "lstsq",
            lhs: a.shape().to_vec(),
            rhs: b.shape().to_vec(),
            lhs_axis: 0,
            lhs_size: a.shape()[0],
            rhs_axis: 0,
            rhs_size: b.shape().first().copied().unwrap_or(0),
        });
    }
    let (m, n) = (a.shape()[0], a.shape()[1]);
    let dtype = common_dtype("lstsq", &[a.dtype(), b.dtype()])?;
    let (x, y) = (a.cast_if(dtype)?, b.cast_if(dtype)?);
    let y2 = if b.ndim() == 1 { y.expand_dims(-1)? } else { y.clone() };
    let f = svd(&x, false)?;
    let rcond = rcond.unwrap_or(eps(dtype) * m.max(n) as f64);
    let smax = if f.s.size() == 0 { crate::on(a.device()).zeros([], f.s.dtype())? } else { f.s.max(..)? };
    let large = f.s.gt(&smax.mul(rcond)?)?;
    let rank = large.count_nonzero(..)?.item::<i64>()? as usize;
    let sinv = crate::where_(&large, &crate::on(a.device()).ones([], f.s.dtype())?.div(&f.s)?, 0.0)?;
    let uhb = f.u.matrix_transpose()?.conj()?.matmul(&y2)?;
    let sol = f.vh.matrix_transpose()?.conj()?.matmul(&uhb.mul(&sinv.expand_dims(-1)?)?)?;
    let real = dtype.to_real();
    let residuals = if rank == n && m > n {
        let r = y2.sub(&x.matmul(&sol)?)?.abs()?.square()?.sum(0)?;
        r.cast_if(real)?
    } else {
        crate::on(a.device()).zeros([0], real)?
    };
    let sol = if b.ndim() == 1 { sol.squeeze(-1)? } else { sol };
    Ok(Lstsq { x: sol, residuals, rank, s: f.s })
}

/// The Moore–Penrose pseudo-inverse of a stack (NumPy `pinv(a, rcond)`): singular values at
/// most `rcond * max(s)` count as zero (`rcond` defaults to 1e-15, NumPy's default).
pub fn pinv(a: &Array, rcond: Option<f64>) -> Result<Array> {
    let (x, m, n) = prepared("pinv", a, false)?;
    if x.size() == 0 {
        // NumPy answers empty input before converting it: the input's dtype.
        return crate::on(x.device()).zeros(with_tail(batch(&x), &[n, m]), a.dtype());
    }
    let f = svd(&x, false)?;
    let cutoff = f.s.max_keepdim(-1)?.mul(rcond.unwrap_or(1e-15))?;
    let large = f.s.gt(&cutoff)?;
    let one = crate::on(x.device()).ones([], f.s.dtype())?;
    let sinv = crate::where_(&large, &one.div(&f.s)?, 0.0)?.cast_if(x.dtype())?;
    let vs = f.vh.matrix_transpose()?.conj()?.mul(&sinv.expand_dims(-2)?)?;
    vs.matmul(&f.u.matrix_transpose()?.conj()?)
}

/// The rank of a stack of matrices (NumPy 2 `matrix_rank`): singular values above `tol`, which
/// defaults to `max(s) * max(m, n) * eps`, as int64 (a 1-D input: 1 unless all zero).
pub fn matrix_rank(a: &Array, tol: Option<f64>) -> Result<Array> {
    if a.ndim() < 2 {
        return a.not_equal(0)?.any(..)?.astype(DType::I64);
    }
    let (m, n) = check_stack("matrix_rank", a, false)?;
    let s = super::svdvals(a)?;
    let real = s.dtype();
    let t = match tol {
        Some(t) => crate::on(a.device()).full([], t, real)?,
        None if s.shape()[s.ndim() - 1] == 0 => crate::on(a.device()).zeros([], real)?,
        None => s.max_keepdim(-1)?.mul(m.max(n) as f64 * eps(real))?,
    };
    s.gt(&t)?.sum(-1)
}

/// Solve the tensor equation `tensordot(a, x, x.ndim) = b` for `x` (NumPy `tensorsolve`);
/// `axes` are axes of `a` moved to the end first.
pub fn tensorsolve(a: &Array, b: &Array, axes: Option<&[isize]>) -> Result<Array> {
    let mut a = a.clone();
    if let Some(ax) = axes {
        let nd = a.ndim();
        let moved = ax.iter().map(|&k| xp_core::normalize_axis("tensorsolve", k, nd)).collect::<Result<Vec<_>>>()?;
        let mut perm: Vec<isize> = (0..nd).filter(|i| !moved.contains(i)).map(|i| i as isize).collect();
        perm.extend(moved.iter().map(|&i| i as isize));
        a = a.transpose(perm)?;
    }
    if b.ndim() > a.ndim() {
        return Err(Error::invalid("tensorsolve", "b has more dimensions than a"));
    }
    let old: Vec<usize> = a.shape()[b.ndim()..].to_vec();
    let prod: usize = old.iter().product();
    if a.size() != prod * prod {
        return Err(Error::LinAlg {
            op: "tensorsolve",
            kind: LinAlgKind::NotSquare { rows: a.size() / prod.max(1), cols: prod },
        });
    }
    let r = solve(&a.reshape_exact(&[prod, prod])?, &b.ravel()?).map_err(|e| e.in_op("tensorsolve"))?;
    r.reshape_exact(&old)
}

/// The inverse of a tensor under `tensordot` over its first `ind` axes (NumPy `tensorinv`).
pub fn tensorinv(a: &Array, ind: usize) -> Result<Array> {
    if ind == 0 || ind > a.ndim() {
        return Err(Error::invalid("tensorinv", format!("invalid ind {ind} for an array of {} dimensions", a.ndim())));
    }
    let (head, tail) = a.shape().split_at(ind);
    let prod: usize = tail.iter().product();
    let rows: usize = head.iter().product();
    let mut inv_shape = tail.to_vec();
    inv_shape.extend_from_slice(head);
    let ia = inv(&a.reshape_exact(&[rows, prod])?).map_err(|e| e.in_op("tensorinv"))?;
    ia.reshape_exact(&inv_shape)
}
