//! Indexing with arrays: NumPy's advanced indexing (`a[idx]`, `a[mask]`, mixed with slices,
//! integers, new axes and an ellipsis), assignment through it, and the routines built on gathers
//! and scatters (`take`, `put`, `compress`, `nonzero`, `ufunc.at`, …). Index arrays stay on the
//! array's device.
//!
//! ```
//! use xp::{ix, s, Array};
//! let a = xp::arange(0, 12, 1, None).unwrap().reshape(&[3, 4]).unwrap();
//! let rows = Array::from_vec(vec![2i64, 0], &[2]).unwrap();
//! // a[[2, 0], 1:3]
//! let g = a.get(ix![&rows, 1..3]).unwrap();
//! assert_eq!(g.to_vec::<i64>().unwrap(), vec![9, 10, 1, 2]);
//! // a[a > 8] = 0
//! let big = a.gt(8).unwrap();
//! a.set(&big, 0).unwrap();
//! assert_eq!(a.sum(..).unwrap().item::<i64>().unwrap(), 36);
//! ```
//!
//! **Where indexing waits.** A boolean index's result size depends on the data: `a[mask]`,
//! `nonzero`, `compress`, and assignments through a mask that is not a scalar assignment read
//! one count back from the device (a single small copy). On the GPU, integer indices in the
//! default [`IndexMode::Raise`] are checked by the kernel, which records the first violation in a
//! flag that the call reads back (one small copy) before it returns, so that an out-of-bounds
//! index is an `Err` from the call itself; with [`IndexMode::Wrap`] or [`IndexMode::Clip`] a
//! gather or scatter never waits. A scatter checks every index before it writes, so a failed
//! assignment leaves the array unchanged.
mod item;
mod plan;
mod routines;

pub use item::{IndexItem, IntoIndex};
pub use routines::*;

use crate::backend::{Many, Reads};
use crate::ufunc::{materialize, Operand};
use crate::Array;
use plan::Plan;
use xp_core::{Combine, DType, Error, IndexMode, IndexSet, IndexStorage, Layout, Result, SliceElem};

/// Remap the axis of an out-of-bounds error from the view's to the indexed array's.
fn remap(e: Error, axis: usize, axes: &[usize]) -> Error {
    match e {
        Error::IndexOutOfBounds { index, axis: ax, size } if ax >= axis && ax - axis < axes.len() => {
            Error::IndexOutOfBounds { index, axis: axes[ax - axis], size }
        }
        e => e,
    }
}

/// Gather from `src` at `view` through `arrays` (int64, C-contiguous, shape `shape`).
pub(crate) fn gather(
    src: &Array,
    view: &Layout,
    axis: usize,
    arrays: &[Array],
    shape: &[usize],
    mode: IndexMode,
) -> Result<Array> {
    let mut all: Vec<&Array> = vec![src];
    all.extend(arrays.iter());
    let reads = Reads::lock(&all);
    let offs: Vec<usize> = arrays.iter().map(|x| x.layout.offset()).collect();
    let out_shape = {
        let mut s = view.shape()[..axis].to_vec();
        s.extend_from_slice(shape);
        s.extend_from_slice(&view.shape()[axis + arrays.len()..]);
        s
    };
    let s = crate::backend::on_many!(reads.many("index")?, v => {
        let pairs: Vec<_> = v[1..].iter().zip(&offs).map(|(s, &o)| (*s, o)).collect();
        v[0].gather(view, &IndexSet { axis, arrays: &pairs, shape, mode })
    })?;
    Ok(Array::from_storage(s, &out_shape))
}

/// Scatter `v` (broadcast to the gather's output shape) into `dst` at `view`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn scatter(
    dst: &Array,
    view: &Layout,
    axis: usize,
    arrays: &[Array],
    shape: &[usize],
    mode: IndexMode,
    v: &Array,
    how: Combine,
) -> Result<()> {
    let mut out_shape = view.shape()[..axis].to_vec();
    out_shape.extend_from_slice(shape);
    out_shape.extend_from_slice(&view.shape()[axis + arrays.len()..]);
    let vl = v.layout.broadcast_to("index", &out_shape)?;
    // Operands that share the destination's storage are copied first (so that each storage is
    // locked once, and the values read are those before the write).
    let own = |x: &Array| if x.shares_storage(dst) { x.copy() } else { Ok(x.clone()) };
    let arrays: Vec<Array> = arrays.iter().map(own).collect::<Result<_>>()?;
    let (v, vl) = if v.shares_storage(dst) {
        let c = v.with_layout(vl).copy()?;
        let l = c.layout.clone();
        (c, l)
    } else {
        (v.clone(), vl)
    };
    let mut all: Vec<&Array> = arrays.iter().collect();
    all.push(&v);
    let (reads, mut guard) = Reads::lock_with_write(dst, &all);
    let offs: Vec<usize> = arrays.iter().map(|x| x.layout.offset()).collect();
    let many = reads.many("index")?;
    // bound, so that the tuple (which borrows `reads`) is dropped before `reads` is
    #[allow(clippy::let_and_return)]
    let r = match (&mut *guard, many) {
        (crate::backend::Storage::Cpu(d), Many::Cpu(xs)) => {
            let pairs: Vec<_> = xs[..arrays.len()].iter().zip(&offs).map(|(s, &o)| (*s, o)).collect();
            d.scatter(view, &IndexSet { axis, arrays: &pairs, shape, mode }, xs[arrays.len()], &vl, how)
        }
        (crate::backend::Storage::Cuda(d), Many::Cuda(xs)) => {
            let pairs: Vec<_> = xs[..arrays.len()].iter().zip(&offs).map(|(s, &o)| (*s, o)).collect();
            d.scatter(view, &IndexSet { axis, arrays: &pairs, shape, mode }, xs[arrays.len()], &vl, how)
        }
        (d, _) => Err(Error::DeviceMismatch { op: "index", lhs: d.device(), rhs: v.device() }),
    };
    r
}

impl Array {
    /// NumPy's `a[index]` with any index: basic elements give a view (as [`Array::slice`]), an
    /// integer or boolean array anywhere gives a copy. Out-of-bounds integers are an
    /// [`Error::IndexOutOfBounds`] naming the index, the axis and its size.
    pub fn get(&self, index: impl IntoIndex) -> Result<Array> {
        match plan::plan(self, index.into_index())? {
            Plan::View(l) => Ok(self.with_layout(l)),
            Plan::Mask { view, axis, mask } => self.compress_at(&view, axis, &mask),
            Plan::Gather { view, axis, arrays, shape, axes } => {
                gather(self, &view, axis, &arrays, &shape, IndexMode::Raise).map_err(|e| remap(e, axis, &axes))
            }
        }
    }

    /// NumPy's `a[index] = value` with any index (`value` broadcast to the selection and cast to
    /// this array's dtype). Where integer arrays select one element several times, the last
    /// value in C order over the index wins, as NumPy documents. On error nothing is written.
    pub fn set<'a>(&self, index: impl IntoIndex, value: impl Into<Operand<'a>>) -> Result<()> {
        let value = value.into();
        if let Operand::Array(v) = &value
            && v.device() != self.device()
        {
            return Err(Error::DeviceMismatch { op: "assign", lhs: self.device(), rhs: v.device() });
        }
        match plan::plan(self, index.into_index())? {
            Plan::View(l) => self.with_layout(l).assign(value),
            Plan::Mask { view, axis, mask } => {
                let target = self.with_layout(view.clone());
                if matches!(value, Operand::Scalar(_)) || matches!(&value, Operand::Array(v) if v.ndim() == 0) {
                    // A scalar through a mask needs no count: one `where` over the masked axes.
                    let mut shape = vec![1; axis];
                    shape.extend_from_slice(mask.shape());
                    shape.resize(target.ndim(), 1);
                    let m = mask.reshape_exact(&shape)?;
                    let v = materialize(&value, self.dtype(), self.device())?;
                    return target.assign(&crate::where_(&m, &v, &target)?);
                }
                let nz = mask.nonzero_coords()?;
                let arrays = (0..mask.ndim())
                    .map(|d| nz.slice([SliceElem::FULL, SliceElem::Index(d as isize)])?.copy())
                    .collect::<Result<Vec<_>>>()?;
                let v = materialize(&value, self.dtype(), self.device())?;
                scatter(self, &view, axis, &arrays, &[nz.shape()[0]], IndexMode::Raise, &v, Combine::Assign)
            }
            Plan::Gather { view, axis, arrays, shape, axes } => {
                let v = materialize(&value, self.dtype(), self.device())?;
                scatter(self, &view, axis, &arrays, &shape, IndexMode::Raise, &v, Combine::Assign)
                    .map_err(|e| remap(e, axis, &axes))
            }
        }
    }

    /// The elements of `view` where `mask` (over axes `axis ..`) is true.
    pub(crate) fn compress_at(&self, view: &Layout, axis: usize, mask: &Array) -> Result<Array> {
        let reads = Reads::lock(&[self, mask]);
        let s = crate::backend::on_many!(reads.many("compress")?, v => v[0].compress(view, axis, v[1], &mask.layout))?;
        let rest = view.numel() / mask.size().max(1);
        let n = match s.len().checked_div(rest) {
            Some(n) => n,
            None => mask.count_nonzero(..)?.item::<i64>()? as usize,
        };
        let mut shape = view.shape()[..axis].to_vec();
        shape.push(n);
        shape.extend_from_slice(&view.shape()[axis + mask.ndim()..]);
        Ok(Array::from_storage(s, &shape))
    }

    /// The coordinates of the nonzero elements, int64 of shape `(count, ndim)` (NumPy's
    /// `argwhere`; one small wait for the count on the GPU).
    pub(crate) fn nonzero_coords(&self) -> Result<Array> {
        let s = crate::backend::on_storage!(&*self.read(), x => x.nonzero(&self.layout))?;
        let n = s.len() / self.ndim().max(1);
        Ok(Array::from_storage(s, &[n, self.ndim()]))
    }
}

/// The dtype of an index array, checked (integers and booleans only).
pub(crate) fn int_index(op: &'static str, a: &Array, x: &Array) -> Result<Array> {
    if x.device() != a.device() {
        return Err(Error::DeviceMismatch { op, lhs: a.device(), rhs: x.device() });
    }
    match x.dtype() {
        DType::Bool => Err(Error::IndexDType { op, dtype: x.dtype() }),
        d if d.is_integer() => x.cast_if(DType::I64),
        d => Err(Error::IndexDType { op, dtype: d }),
    }
}
