//! The operands of a linear system `A X = B` as the solvers take them (NumPy's `solve`, SciPy's
//! `lu_solve`, `solve_triangular`, `cho_solve`): square `A` `(.., n, n)`; `B` a vector `(n,)` or
//! a stack `(.., n, k)`; batch axes broadcast; both cast to their common compute dtype.
use super::{batch, check_stack, common_dtype, with_tail};
use crate::Array;
use xp_core::{broadcast_shapes, numel, Error, Layout, Result};

/// A checked system: the cast operands, their layouts broadcast to one batch, the result's
/// shape before a vector's axis is dropped.
pub(crate) struct System {
    /// `A` in the compute dtype
    pub a: Array,
    /// `A`'s layout over the broadcast batch
    pub al: Layout,
    /// `B` as a stack in the compute dtype
    pub b: Array,
    /// `B`'s layout over the broadcast batch
    pub bl: Layout,
    /// `(.., n, k)`
    pub shape: Vec<usize>,
    /// `B` was a vector (the result drops its last axis)
    pub vector: bool,
}

impl System {
    /// Check and cast `a` and `b` for `op`.
    pub(crate) fn new(op: &'static str, a: &Array, b: &Array) -> Result<System> {
        if a.device() != b.device() {
            return Err(Error::DeviceMismatch { op, lhs: a.device(), rhs: b.device() });
        }
        let (n, _) = check_stack(op, a, true)?;
        let vector = b.ndim() == 1;
        let bm = if vector { b.expand_dims(-1)? } else { check_stack(op, b, false).map(|_| b.clone())? };
        if bm.shape()[bm.ndim() - 2] != n {
            return Err(Error::NotAligned {
                op,
                lhs: a.shape().to_vec(),
                rhs: b.shape().to_vec(),
                lhs_axis: a.ndim() - 1,
                lhs_size: n,
                rhs_axis: if vector { 0 } else { b.ndim() - 2 },
                rhs_size: bm.shape()[bm.ndim() - 2],
            });
        }
        let k = bm.shape()[bm.ndim() - 1];
        let dtype = common_dtype(op, &[a.dtype(), b.dtype()])?;
        let bs = broadcast_shapes(op, batch(a), batch(&bm))?;
        let (a, b) = (a.cast_if(dtype)?, bm.cast_if(dtype)?);
        let shape = with_tail(&bs, &[n, k]);
        let al = a.layout.broadcast_to(op, &with_tail(&bs, &[n, n]))?;
        let bl = b.layout.broadcast_to(op, &shape)?;
        Ok(System { a, al, b, bl, shape, vector })
    }
    /// Whether the result has no elements (the backends are not called).
    pub(crate) fn is_empty(&self) -> bool {
        numel(&self.shape) == 0
    }
    /// The batch shape.
    pub(crate) fn batch(&self) -> &[usize] {
        &self.shape[..self.shape.len() - 2]
    }
    /// The result from its storage `(.., n, k)`, a vector's axis dropped; zeros when empty.
    pub(crate) fn finish(&self, x: Option<crate::backend::Storage>) -> Result<Array> {
        let r = match x {
            Some(s) => Array::from_storage(s, &self.shape),
            None => crate::on(self.a.device()).zeros(&self.shape, self.a.dtype())?,
        };
        if self.vector {
            r.squeeze(-1)
        } else {
            Ok(r)
        }
    }
}
