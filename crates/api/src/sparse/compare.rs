//! Comparisons of sparse arrays, giving sparse bool arrays as SciPy's do: where the comparison of
//! two absent entries (zeros) is false (`!=`, `<`, `>`, or a scalar that zero does not satisfy)
//! only stored positions can be true, and the result is computed over them; otherwise (`==`,
//! `<=`, `>=`, or `A < 1`) nearly every position is true, and the result is as dense as SciPy's
//! (which warns that such a comparison is inefficient).
//!
//! ```
//! use xp::sparse::{CsrArray, Sparse};
//! use xp::BinaryOp;
//! let a = CsrArray::from_dense(&xp::Array::from_vec(vec![1.0f64, 0.0, 0.0, 2.0], &[2, 2]).unwrap()).unwrap();
//! let b = CsrArray::from_dense(&xp::Array::from_vec(vec![1.0f64, 3.0, 0.0, 0.0], &[2, 2]).unwrap()).unwrap();
//! let ne = a.compare(&b, BinaryOp::Ne).unwrap();
//! assert_eq!((ne.dtype(), ne.nnz()), (xp::DType::Bool, 2));
//! assert_eq!(ne.toarray().unwrap().to_vec::<bool>().unwrap(), vec![false, true, false, true]);
//! let big = a.compare_scalar(1.5.into(), BinaryOp::Gt).unwrap();
//! assert_eq!(big.toarray().unwrap().to_vec::<bool>().unwrap(), vec![false, false, false, true]);
//! ```
use super::{shape_error, CooArray, CsrArray, Format, Sparse, SparseArray};
use crate::ufunc::BinaryUfunc;
use crate::Array;
use xp_core::{BinaryOp, Error, Result, Scalar};

/// The comparison ops and their names.
fn name(op: BinaryOp) -> Result<&'static str> {
    Ok(match op {
        BinaryOp::Eq => "equal",
        BinaryOp::Ne => "not_equal",
        BinaryOp::Lt => "less",
        BinaryOp::Le => "less_equal",
        BinaryOp::Gt => "greater",
        BinaryOp::Ge => "greater_equal",
        _ => return Err(Error::invalid("compare", format!("{op:?} is not a comparison (== != < <= > >=)"))),
    })
}

/// The dense bool array `d` in the compressed format of `like` (CSR for COO, as SciPy's).
fn from_dense(d: &Array, like: Format) -> Result<SparseArray> {
    let csr = CsrArray::from_dense(d)?;
    Ok(match like {
        Format::Csc => SparseArray::Csc(csr.tocsc()?),
        _ => SparseArray::Csr(csr),
    })
}

/// `a op b` of two sparse arrays of one shape.
pub(crate) fn sparse<A: Sparse + ?Sized>(a: &A, b: &dyn Sparse, op: BinaryOp) -> Result<SparseArray> {
    let n = name(op)?;
    if a.shape() != b.shape() {
        return Err(shape_error(n, &a.shape(), &b.shape()));
    }
    if matches!(op, BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Gt) {
        return super::arith::binop(a, b, op, n);
    }
    let (da, db) = (a.canonical_csr()?.toarray()?, b.canonical_csr()?.toarray()?);
    from_dense(&op.call(&da, &db).map_err(|e| e.in_op(n))?, a.format())
}

/// `a op s` for a scalar `s`.
pub(crate) fn scalar<A: Sparse + ?Sized>(a: &A, s: Scalar, op: BinaryOp) -> Result<SparseArray> {
    let n = name(op)?;
    let zero = Array::from_vec(vec![0i64], [1])?.astype(a.dtype())?;
    let at_zero = op.call(&zero, s).map_err(|e| e.in_op(n))?.item::<bool>()?;
    let c = a.canonical_csr()?;
    if at_zero {
        return from_dense(&op.call(&c.toarray()?, s)?, a.format());
    }
    // only stored values can compare true: the same structure with bool values, false dropped
    let hit = op.call(c.data(), s)?;
    let coo = c.tocoo()?;
    let pick = |x: &Array| crate::compress(&hit, x, 0);
    let ix = coo.row().dtype();
    let out = CooArray::from_parts(pick(&hit)?, pick(coo.row())?, pick(coo.col())?, a.shape(), true, ix)?;
    Ok(match a.format() {
        Format::Csc => SparseArray::Csc(out.tocsc()?),
        _ => SparseArray::Csr(out.tocsr()?),
    })
}
