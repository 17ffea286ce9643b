//! Diagonals and vector products: `diagonal` (a view, no copy), `trace`, `matrix_transpose` (a
//! view) and `cross`, with NumPy's axis arguments.
//!
//! ```
//! let a = xp::arange(0, 9, 1, None).unwrap().reshape(&[3, 3]).unwrap();
//! assert_eq!(a.diagonal(0, 0, 1).unwrap().to_vec::<i64>().unwrap(), vec![0, 4, 8]);
//! assert_eq!(a.diagonal(1, 0, 1).unwrap().to_vec::<i64>().unwrap(), vec![1, 5]);
//! assert_eq!(a.trace(0, 0, 1).unwrap().item::<i64>().unwrap(), 12);
//! let x = xp::Array::from_vec(vec![1.0, 0.0, 0.0], &[3]).unwrap();
//! let y = xp::Array::from_vec(vec![0.0, 1.0, 0.0], &[3]).unwrap();
//! assert_eq!(xp::cross(&x, &y).unwrap().to_vec::<f64>().unwrap(), vec![0.0, 0.0, 1.0]);
//! ```
use crate::Array;
use xp_core::{normalize_axis, Error, Result, SliceElem};

impl Array {
    /// The diagonal at `offset` (above the main one when positive, below when negative) of the
    /// plane of `axis1` and `axis2`, as the last axis of a view (NumPy `diagonal`; writing through
    /// the view writes the array).
    pub fn diagonal(&self, offset: isize, axis1: isize, axis2: isize) -> Result<Array> {
        if self.ndim() < 2 {
            return Err(Error::invalid("diagonal", "diag requires an array of at least two dimensions"));
        }
        let (a1, a2) =
            (normalize_axis("diagonal", axis1, self.ndim())?, normalize_axis("diagonal", axis2, self.ndim())?);
        if a1 == a2 {
            return Err(Error::invalid("diagonal", "axis1 and axis2 cannot be the same"));
        }
        Ok(self.with_layout(self.layout.diagonal(offset, a1, a2)))
    }
    /// The sum along that diagonal (NumPy `trace`; integers summed as `sum` does).
    pub fn trace(&self, offset: isize, axis1: isize, axis2: isize) -> Result<Array> {
        self.diagonal(offset, axis1, axis2)?.sum(-1)
    }
    /// The last two axes swapped, a view (Array API `matrix_transpose`, NumPy's `.mT`).
    pub fn matrix_transpose(&self) -> Result<Array> {
        if self.ndim() < 2 {
            return Err(Error::invalid("matrix_transpose", "input array must be at least 2-dimensional"));
        }
        self.swapaxes(-1, -2)
    }
}

/// NumPy `diagonal(a, offset, axis1, axis2)`.
pub fn diagonal(a: &Array, offset: isize, axis1: isize, axis2: isize) -> Result<Array> {
    a.diagonal(offset, axis1, axis2)
}

/// NumPy `trace(a, offset, axis1, axis2)`.
pub fn trace(a: &Array, offset: isize, axis1: isize, axis2: isize) -> Result<Array> {
    a.trace(offset, axis1, axis2)
}

/// `x` with its last two axes swapped (Array API `matrix_transpose`).
pub fn matrix_transpose(x: &Array) -> Result<Array> {
    x.matrix_transpose()
}

/// The cross product of 3-vectors (or 2-vectors) along the last axis of broadcast operands
/// (NumPy `cross` with its default axes).
pub fn cross(a: &Array, b: &Array) -> Result<Array> {
    cross_axes(a, b, -1, -1, -1)
}

/// NumPy `cross(a, b, axisa, axisb, axisc)`: vectors along `axisa` of `a` and `axisb` of `b`,
/// of length 2 or 3; the result's vector axis is `axisc` (absent when both have length 2: the
/// z component alone, as NumPy).
pub fn cross_axes(a: &Array, b: &Array, axisa: isize, axisb: isize, axisc: isize) -> Result<Array> {
    if a.ndim() == 0 || b.ndim() == 0 {
        return Err(Error::invalid("cross", "0-d operand: cross needs a vector axis"));
    }
    let x = a.moveaxis(normalize_axis("cross", axisa, a.ndim())? as isize, -1)?;
    let y = b.moveaxis(normalize_axis("cross", axisb, b.ndim())? as isize, -1)?;
    let (la, lb) = (x.shape()[x.ndim() - 1], y.shape()[y.ndim() - 1]);
    if !(2..=3).contains(&la) || !(2..=3).contains(&lb) {
        return Err(Error::invalid(
            "cross",
            format!("incompatible dimensions for cross product (dimension must be 2 or 3), got {la} and {lb}"),
        ));
    }
    let c = |v: &Array, i: isize| v.slice([SliceElem::Ellipsis, SliceElem::Index(i)]);
    let (a0, a1, b0, b1) = (c(&x, 0)?, c(&x, 1)?, c(&y, 0)?, c(&y, 1)?);
    let z = a0.mul(&b1)?.sub(&a1.mul(&b0)?)?;
    if la == 2 && lb == 2 {
        return Ok(z);
    }
    // NumPy's formulas per case (no multiplications by a padded zero, so infinities stay).
    let (cx, cy) = match (la, lb) {
        (2, _) => {
            let b2 = c(&y, 2)?;
            (a1.mul(&b2)?, a0.neg()?.mul(&b2)?)
        }
        (_, 2) => {
            let a2 = c(&x, 2)?;
            (a2.neg()?.mul(&b1)?, a2.mul(&b0)?)
        }
        _ => {
            let (a2, b2) = (c(&x, 2)?, c(&y, 2)?);
            (a1.mul(&b2)?.sub(&a2.mul(&b1)?)?, a2.mul(&b0)?.sub(&a0.mul(&b2)?)?)
        }
    };
    let shape = xp_core::broadcast_shapes("cross", cx.shape(), z.shape())?;
    let parts = [cx.broadcast_to(&shape)?, cy.broadcast_to(&shape)?, z.broadcast_to(&shape)?];
    let r = crate::stack(&parts.iter().collect::<Vec<_>>(), -1)?;
    r.moveaxis(-1, normalize_axis("cross", axisc, r.ndim())? as isize)
}
