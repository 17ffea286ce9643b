//! Reductions with NumPy's axis handling (None, an axis, negative axes, several axes), keepdims
//! and result dtypes: integer sums in int64/uint64, float16 accumulated in float32, means of
//! integers in float64; pairwise-accurate float sums.
//!
//! ```
//! let a = xp::Array::from_vec(vec![1i8, 2, 3, 4, 5, 6], &[2, 3]).unwrap();
//! let s = a.sum(Some(&[-1]), true).unwrap();
//! assert_eq!((s.shape(), s.dtype()), (&[2usize, 1][..], xp::DType::I64));
//! assert_eq!(a.mean(None, false).unwrap().item::<f64>().unwrap(), 3.5);
//! assert_eq!(a.argmax(Some(0), false).unwrap().to_vec::<i64>().unwrap(), vec![1, 1, 1]);
//! assert!(xp::zeros(&[0], xp::DType::F32).unwrap().max(None, false).is_err());
//! ```
use crate::backend::on_storage;
use crate::ufunc::{acc_dtype, reduce_raw, reduced_shape, sum_dtype};
use crate::Array;
use xp_core::{normalize_axes, normalize_axis, ArgReduceOp, BackendStorage, BinaryOp, DType, Error, Kind, Result};

/// Axes to reduce: None for all, or a list (negative counts from the end).
pub type Axes<'a> = Option<&'a [isize]>;

fn mean_dtypes(d: DType) -> (DType, DType) {
    match d.kind() {
        Kind::Bool | Kind::Int | Kind::Uint => (DType::F64, DType::F64),
        _ => (acc_dtype(d), d),
    }
}

impl Array {
    fn count(&self, axes: Axes) -> Result<usize> {
        let ax = normalize_axes("count", axes, self.ndim())?;
        Ok(ax.iter().map(|&i| self.shape()[i]).product())
    }
    /// Sum (bool and signed integers in int64, unsigned in uint64).
    pub fn sum(&self, axes: Axes, keepdims: bool) -> Result<Array> {
        let d = sum_dtype(self.dtype());
        reduce_raw(BinaryOp::Add, "sum", self, axes, keepdims, acc_dtype(d), d)
    }
    /// Product (integer dtypes as for `sum`).
    pub fn prod(&self, axes: Axes, keepdims: bool) -> Result<Array> {
        let d = sum_dtype(self.dtype());
        reduce_raw(BinaryOp::Mul, "prod", self, axes, keepdims, acc_dtype(d), d)
    }
    /// Arithmetic mean (float64 for integers; float16 accumulated in float32).
    pub fn mean(&self, axes: Axes, keepdims: bool) -> Result<Array> {
        let (acc, out) = mean_dtypes(self.dtype());
        let s = reduce_raw(BinaryOp::Add, "mean", self, axes, keepdims, acc, acc)?;
        s.div(self.count(axes)? as f64)?.cast_if(out)
    }
    /// Variance with `ddof` delta degrees of freedom (real dtype for complex input).
    pub fn var(&self, axes: Axes, keepdims: bool, ddof: usize) -> Result<Array> {
        let (acc, out) = mean_dtypes(self.dtype());
        let x = self.cast_if(acc)?;
        let m = x.mean(axes, true)?;
        let d = x.sub(&m)?;
        let sq = if d.dtype().is_complex() { d.real()?.square()?.add(&d.imag()?.square()?)? } else { d.square()? };
        let n = self.count(axes)?;
        let s = reduce_raw(BinaryOp::Add, "var", &sq, axes, keepdims, sq.dtype(), sq.dtype())?;
        s.div(n.saturating_sub(ddof) as f64)?.cast_if(out.to_real())
    }
    /// Standard deviation with `ddof` delta degrees of freedom.
    pub fn std(&self, axes: Axes, keepdims: bool, ddof: usize) -> Result<Array> {
        let (acc, out) = mean_dtypes(self.dtype());
        self.cast_if(acc)?.var(axes, keepdims, ddof)?.sqrt()?.cast_if(out.to_real())
    }
    /// Maximum (NaN-propagating); an error for empty reductions.
    pub fn max(&self, axes: Axes, keepdims: bool) -> Result<Array> {
        let d = self.dtype();
        reduce_raw(BinaryOp::Max, "max", self, axes, keepdims, d, d)
    }
    /// Minimum (NaN-propagating); an error for empty reductions.
    pub fn min(&self, axes: Axes, keepdims: bool) -> Result<Array> {
        let d = self.dtype();
        reduce_raw(BinaryOp::Min, "min", self, axes, keepdims, d, d)
    }
    /// Maximum ignoring NaN (NaN only where a slice is all NaN).
    pub fn nanmax(&self, axes: Axes, keepdims: bool) -> Result<Array> {
        let d = self.dtype();
        reduce_raw(BinaryOp::Fmax, "nanmax", self, axes, keepdims, d, d)
    }
    /// Minimum ignoring NaN (NaN only where a slice is all NaN).
    pub fn nanmin(&self, axes: Axes, keepdims: bool) -> Result<Array> {
        let d = self.dtype();
        reduce_raw(BinaryOp::Fmin, "nanmin", self, axes, keepdims, d, d)
    }
    /// Range `max - min` (NumPy `ptp`).
    pub fn ptp(&self, axes: Axes, keepdims: bool) -> Result<Array> {
        let r = self.max(axes, keepdims)?.sub(&self.min(axes, keepdims)?)?;
        r.cast_if(self.dtype())
    }
    /// Sum treating NaN as zero.
    pub fn nansum(&self, axes: Axes, keepdims: bool) -> Result<Array> {
        if !self.dtype().is_inexact() {
            return self.sum(axes, keepdims);
        }
        crate::where_(&self.isnan()?, 0, self)?.sum(axes, keepdims)
    }
    /// Mean of the non-NaN elements.
    pub fn nanmean(&self, axes: Axes, keepdims: bool) -> Result<Array> {
        if !self.dtype().is_inexact() {
            return self.mean(axes, keepdims);
        }
        let (acc, out) = mean_dtypes(self.dtype());
        let x = self.cast_if(acc)?;
        let s = x.nansum(axes, keepdims)?;
        let n = self.isnan()?.logical_not()?.sum(axes, keepdims)?;
        s.div(&n)?.cast_if(out)
    }
    /// True when every element is nonzero.
    pub fn all(&self, axes: Axes, keepdims: bool) -> Result<Array> {
        reduce_raw(BinaryOp::LogicalAnd, "all", self, axes, keepdims, DType::Bool, DType::Bool)
    }
    /// True when any element is nonzero.
    pub fn any(&self, axes: Axes, keepdims: bool) -> Result<Array> {
        reduce_raw(BinaryOp::LogicalOr, "any", self, axes, keepdims, DType::Bool, DType::Bool)
    }
    /// Number of nonzero elements (int64).
    pub fn count_nonzero(&self, axes: Axes, keepdims: bool) -> Result<Array> {
        self.cast_if(DType::Bool)?.sum(axes, keepdims)
    }
    fn arg_reduce(&self, op: ArgReduceOp, axis: Option<isize>, keepdims: bool) -> Result<Array> {
        let (a, ax) = match axis {
            None => (self.ravel()?, 0),
            Some(ax) => (self.clone(), normalize_axis(op.name(), ax, self.ndim())?),
        };
        if a.ndim() == 0 {
            return a.reshape_exact(&[1])?.arg_reduce(op, Some(0), keepdims);
        }
        if a.shape()[ax] == 0 {
            return Err(Error::EmptyReduction { op: op.name() });
        }
        let shape = reduced_shape(a.shape(), &[ax], false);
        let s = on_storage!(&*a.read(), s => s.arg_reduce(&a.layout, op, ax))?;
        let r = Array::from_storage(s, &shape);
        if !keepdims {
            return Ok(r);
        }
        match axis {
            None => r.reshape_exact(&vec![1; self.ndim()]),
            Some(_) => r.reshape_exact(&reduced_shape(a.shape(), &[ax], true)),
        }
    }
    /// Index of the first maximum (None: in the flattened array), int64.
    pub fn argmax(&self, axis: Option<isize>, keepdims: bool) -> Result<Array> {
        self.arg_reduce(ArgReduceOp::ArgMax, axis, keepdims)
    }
    /// Index of the first minimum (None: in the flattened array), int64.
    pub fn argmin(&self, axis: Option<isize>, keepdims: bool) -> Result<Array> {
        self.arg_reduce(ArgReduceOp::ArgMin, axis, keepdims)
    }
    fn cumulative(&self, op: BinaryOp, axis: Option<isize>) -> Result<Array> {
        let (a, ax) = match axis {
            None => (self.ravel()?, 0),
            Some(ax) => (self.clone(), ax),
        };
        crate::BinaryUfunc::accumulate(op, &a, ax)
    }
    /// Running sum along `axis` (None: flattened); integer dtypes as for `sum`.
    pub fn cumsum(&self, axis: Option<isize>) -> Result<Array> {
        self.cumulative(BinaryOp::Add, axis)
    }
    /// Running product along `axis` (None: flattened); integer dtypes as for `prod`.
    pub fn cumprod(&self, axis: Option<isize>) -> Result<Array> {
        self.cumulative(BinaryOp::Mul, axis)
    }
}
