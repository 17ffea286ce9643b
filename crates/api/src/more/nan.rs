//! The NaN-skipping reductions xp lacked: `nanargmax`, `nanargmin`, `nanprod`, `nanvar` and
//! `nanstd`, as methods next to [`Array::nanmax`] and [`Array::nansum`], composed of a NaN mask,
//! `where` and the plain reductions (so they run on every device). Integer and bool arrays have
//! no NaN: they give the plain reduction.
//!
//! ```
//! let x = xp::Array::from_vec(vec![1.0, f64::NAN, 3.0, 4.0], [2, 2]).unwrap();
//! assert_eq!(x.nanargmax(..).unwrap().item::<i64>().unwrap(), 3);
//! assert_eq!(x.nanprod(0).unwrap().to_vec::<f64>().unwrap(), vec![3.0, 4.0]);
//! assert!((x.nanvar(..).unwrap().item::<f64>().unwrap() - 14.0 / 9.0).abs() < 1e-15);
//! ```
use crate::axes::{Axes, IntoAxes};
use crate::{where_, Array, Var};
use xp_core::{Error, Result};

impl Array {
    fn nan_arg(&self, op: &'static str, max: bool, axis: Axes, keepdims: bool) -> Result<Array> {
        let axis = axis.single(op)?;
        let a = if self.dtype().is_inexact() {
            let mask = self.isnan()?;
            if mask.size() > 0 {
                let all = match axis {
                    None => mask.all(..)?,
                    Some(ax) => mask.all(ax)?,
                };
                if all.any(..)?.to_bool()? {
                    return Err(Error::invalid(op, "All-NaN slice encountered"));
                }
            }
            let fill = if max { f64::NEG_INFINITY } else { f64::INFINITY };
            where_(&mask, fill, self)?.cast_if(self.dtype())?
        } else {
            self.clone()
        };
        let axes: Axes = match axis {
            None => Axes::All,
            Some(ax) => ax.into_axes(),
        };
        match (max, keepdims) {
            (true, false) => a.argmax(axes),
            (true, true) => a.argmax_keepdim(axes),
            (false, false) => a.argmin(axes),
            (false, true) => a.argmin_keepdim(axes),
        }
        .map_err(|e| match e {
            Error::EmptyReduction { .. } => Error::EmptyReduction { op },
            e => e,
        })
    }

    /// Index of the first maximum ignoring NaN along one axis (`..`: in the flattened array),
    /// int64 (NumPy `nanargmax`); a slice of NaN only is an [`Error::InvalidArgument`] ("All-NaN
    /// slice encountered"), an empty one [`Error::EmptyReduction`]. Reads one flag back.
    ///
    /// ```
    /// let x = xp::Array::from_vec(vec![f64::NAN, 2.0, 1.0, 5.0], [2, 2]).unwrap();
    /// assert_eq!(x.nanargmax(1).unwrap().to_vec::<i64>().unwrap(), vec![1, 1]);
    /// ```
    pub fn nanargmax(&self, axis: impl IntoAxes) -> Result<Array> {
        self.nan_arg("nanargmax", true, axis.into_axes(), false)
    }
    /// [`Array::nanargmax`] keeping the reduced axis with length 1.
    ///
    /// ```
    /// let x = xp::Array::from_vec(vec![f64::NAN, 2.0, 1.0, 5.0], [2, 2]).unwrap();
    /// assert_eq!(x.nanargmax_keepdim(1).unwrap().shape(), &[2, 1]);
    /// ```
    pub fn nanargmax_keepdim(&self, axis: impl IntoAxes) -> Result<Array> {
        self.nan_arg("nanargmax", true, axis.into_axes(), true)
    }
    /// Index of the first minimum ignoring NaN (NumPy `nanargmin`; see [`Array::nanargmax`]).
    ///
    /// ```
    /// let x = xp::Array::from_vec(vec![f64::NAN, 2.0, 1.0], [3]).unwrap();
    /// assert_eq!(x.nanargmin(..).unwrap().item::<i64>().unwrap(), 2);
    /// ```
    pub fn nanargmin(&self, axis: impl IntoAxes) -> Result<Array> {
        self.nan_arg("nanargmin", false, axis.into_axes(), false)
    }
    /// [`Array::nanargmin`] keeping the reduced axis with length 1.
    ///
    /// ```
    /// let x = xp::Array::from_vec(vec![f64::NAN, 2.0, 1.0], [3]).unwrap();
    /// assert_eq!(x.nanargmin_keepdim(0).unwrap().shape(), &[1]);
    /// ```
    pub fn nanargmin_keepdim(&self, axis: impl IntoAxes) -> Result<Array> {
        self.nan_arg("nanargmin", false, axis.into_axes(), true)
    }

    fn nanprod_impl(&self, axes: Axes, keepdims: bool) -> Result<Array> {
        let a = if self.dtype().is_inexact() {
            where_(&self.isnan()?, 1, self)?.cast_if(self.dtype())?
        } else {
            self.clone()
        };
        if keepdims {
            a.prod_keepdim(axes)
        } else {
            a.prod(axes)
        }
    }
    /// Product treating NaN as one (NumPy `nanprod`; integer dtypes as for [`Array::prod`]).
    ///
    /// ```
    /// let x = xp::Array::from_vec(vec![2.0, f64::NAN, 3.0], [3]).unwrap();
    /// assert_eq!(x.nanprod(..).unwrap().item::<f64>().unwrap(), 6.0);
    /// ```
    pub fn nanprod(&self, axes: impl IntoAxes) -> Result<Array> {
        self.nanprod_impl(axes.into_axes(), false)
    }
    /// [`Array::nanprod`] keeping the reduced axes with length 1.
    ///
    /// ```
    /// let x = xp::Array::from_vec(vec![2.0, f64::NAN, 3.0, 1.0], [2, 2]).unwrap();
    /// assert_eq!(x.nanprod_keepdim(1).unwrap().to_vec::<f64>().unwrap(), vec![2.0, 3.0]);
    /// ```
    pub fn nanprod_keepdim(&self, axes: impl IntoAxes) -> Result<Array> {
        self.nanprod_impl(axes.into_axes(), true)
    }

    fn nanvar_impl(&self, axes: Axes, opts: Var) -> Result<Array> {
        if !self.dtype().is_inexact() {
            return self.var_with(axes, opts);
        }
        let mask = self.isnan()?;
        let keep = mask.logical_not()?;
        let cnt = keep.sum_keepdim(axes.clone())?;
        let arr = where_(&mask, 0, self)?.cast_if(self.dtype())?;
        let avg = arr.sum_keepdim(axes.clone())?.div(&cnt)?.cast_if(self.dtype())?;
        let d = where_(&mask, 0, &arr.sub(&avg)?)?.cast_if(self.dtype())?;
        let sq = if d.dtype().is_complex() { d.real()?.square()?.add(&d.imag()?.square()?)? } else { d.square()? };
        let (s, cnt) = if opts.keepdims {
            (sq.sum_keepdim(axes)?, cnt)
        } else {
            let shape = sq.sum(axes.clone())?.shape().to_vec();
            (sq.sum(axes)?, cnt.reshape_exact(&shape)?)
        };
        let dof = cnt.sub(opts.ddof as i64)?;
        let v = s.div(&dof)?.cast_if(s.dtype())?;
        where_(&dof.le(0)?, f64::NAN, &v)?.cast_if(s.dtype())
    }
    /// Variance of the non-NaN elements (NumPy `nanvar(axis)`, `ddof=0`; the dtype's precision,
    /// real for complex input; NaN where a slice has no more than `ddof` numbers).
    ///
    /// ```
    /// let x = xp::Array::from_vec(vec![1.0f32, f32::NAN, 3.0], [3]).unwrap();
    /// assert_eq!(x.nanvar(..).unwrap().item::<f32>().unwrap(), 1.0);
    /// ```
    pub fn nanvar(&self, axes: impl IntoAxes) -> Result<Array> {
        self.nanvar_impl(axes.into_axes(), Var::default())
    }
    /// [`Array::nanvar`] with NumPy's `ddof` and `keepdims` named (see [`Var`]).
    ///
    /// ```
    /// use xp::Var;
    /// let x = xp::Array::from_vec(vec![1.0, f64::NAN, 3.0], [3]).unwrap();
    /// let v = x.nanvar_with(.., Var { ddof: 1, keepdims: true }).unwrap();
    /// assert_eq!((v.shape(), v.to_vec::<f64>().unwrap()), (&[1][..], vec![2.0]));
    /// ```
    pub fn nanvar_with(&self, axes: impl IntoAxes, opts: Var) -> Result<Array> {
        self.nanvar_impl(axes.into_axes(), opts)
    }
    /// Standard deviation of the non-NaN elements (NumPy `nanstd`; see [`Array::nanvar`]).
    ///
    /// ```
    /// let x = xp::Array::from_vec(vec![1.0, f64::NAN, 3.0], [3]).unwrap();
    /// assert_eq!(x.nanstd(..).unwrap().item::<f64>().unwrap(), 1.0);
    /// ```
    pub fn nanstd(&self, axes: impl IntoAxes) -> Result<Array> {
        self.nanvar_impl(axes.into_axes(), Var::default())?.sqrt()
    }
    /// [`Array::nanstd`] with NumPy's `ddof` and `keepdims` named (see [`Var`]).
    ///
    /// ```
    /// use xp::Var;
    /// let x = xp::Array::from_vec(vec![1.0, f64::NAN, 3.0], [3]).unwrap();
    /// let s = x.nanstd_with(0, Var { ddof: 1, ..Default::default() }).unwrap();
    /// assert_eq!(s.item::<f64>().unwrap(), 2f64.sqrt());
    /// ```
    pub fn nanstd_with(&self, axes: impl IntoAxes, opts: Var) -> Result<Array> {
        self.nanvar_impl(axes.into_axes(), opts)?.sqrt()
    }
}
