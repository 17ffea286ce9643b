//! Reductions with NumPy's axis handling (all axes, one, negative, several; see [`crate::Axes`]),
//! result dtypes (integer sums in int64/uint64, float16 accumulated in float32, means of integers
//! in float64) and pairwise-accurate float sums. Each reduction has a `_keepdim` twin that keeps
//! the reduced axes with length 1 (NumPy's `keepdims=True`).
//!
//! ```
//! let a = xp::Array::from_vec(vec![1i8, 2, 3, 4, 5, 6], &[2, 3]).unwrap();
//! let s = a.sum_keepdim(-1).unwrap();
//! assert_eq!((s.shape(), s.dtype()), (&[2usize, 1][..], xp::DType::I64));
//! assert_eq!(a.mean(..).unwrap().item::<f64>().unwrap(), 3.5);
//! assert_eq!(a.argmax(0).unwrap().to_vec::<i64>().unwrap(), vec![1, 1, 1]);
//! assert!(xp::zeros(&[0], xp::DType::F32).unwrap().max(..).is_err());
//! ```
use crate::axes::{Axes, IntoAxes};
use crate::backend::on_storage;
use crate::ufunc::{acc_dtype, reduce_raw, reduced_shape, sum_dtype};
use crate::Array;
use xp_core::{normalize_axis, ArgReduceOp, BackendStorage, BinaryOp, DType, Error, Kind, Result};

fn mean_dtypes(d: DType) -> (DType, DType) {
    match d.kind() {
        Kind::Bool | Kind::Int | Kind::Uint => (DType::F64, DType::F64),
        _ => (acc_dtype(d), d),
    }
}

/// Generates each reduction's pair of public methods (`name`, `name_keepdim`) over its
/// `fn(&Array, &Axes, keepdims) -> Result<Array>` implementation.
macro_rules! reductions {
    ($($(#[$m:meta])* $name:ident / $keep:ident => $imp:ident;)*) => {
        /// NumPy's `ddof` and `keepdims` for [`Array::var_with`] and [`Array::std_with`], named so that
/// a bare number is never read as an axis (the default is NumPy's: `ddof=0`, `keepdims=False`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Var {
    /// delta degrees of freedom: the divisor is `N - ddof`
    pub ddof: usize,
    /// keep the reduced axes with length 1
    pub keepdims: bool,
}

impl Array {$(
            $(#[$m])*
            pub fn $name(&self, axes: impl IntoAxes) -> Result<Array> {
                self.$imp(&axes.into_axes(), false)
            }
            #[doc = concat!("[`Array::", stringify!($name), "`] keeping the reduced axes with length 1 (NumPy's `keepdims=True`).")]
            pub fn $keep(&self, axes: impl IntoAxes) -> Result<Array> {
                self.$imp(&axes.into_axes(), true)
            }
        )*}
    };
}

reductions! {
    /// Sum (bool and signed integers in int64, unsigned in uint64).
    sum / sum_keepdim => sum_impl;
    /// Product (integer dtypes as for `sum`).
    prod / prod_keepdim => prod_impl;
    /// Arithmetic mean (float64 for integers; float16 accumulated in float32).
    mean / mean_keepdim => mean_impl;
    /// Maximum (NaN-propagating); an error for empty reductions.
    max / max_keepdim => max_impl;
    /// Minimum (NaN-propagating); an error for empty reductions.
    min / min_keepdim => min_impl;
    /// Maximum ignoring NaN (NaN only where a slice is all NaN).
    nanmax / nanmax_keepdim => nanmax_impl;
    /// Minimum ignoring NaN (NaN only where a slice is all NaN).
    nanmin / nanmin_keepdim => nanmin_impl;
    /// Range `max - min` (NumPy `ptp`).
    ptp / ptp_keepdim => ptp_impl;
    /// Sum treating NaN as zero.
    nansum / nansum_keepdim => nansum_impl;
    /// Mean of the non-NaN elements.
    nanmean / nanmean_keepdim => nanmean_impl;
    /// True when every element is nonzero.
    all / all_keepdim => all_impl;
    /// True when any element is nonzero.
    any / any_keepdim => any_impl;
    /// Number of nonzero elements (int64).
    count_nonzero / count_nonzero_keepdim => count_nonzero_impl;
}

impl Array {
    fn count(&self, axes: &Axes) -> Result<usize> {
        let ax = axes.normalize("count", self.ndim())?;
        Ok(ax.iter().map(|&i| self.shape()[i]).product())
    }
    fn sum_impl(&self, axes: &Axes, keepdims: bool) -> Result<Array> {
        let d = sum_dtype(self.dtype());
        reduce_raw(BinaryOp::Add, "sum", self, axes.as_option(), keepdims, acc_dtype(d), d)
    }
    fn prod_impl(&self, axes: &Axes, keepdims: bool) -> Result<Array> {
        let d = sum_dtype(self.dtype());
        reduce_raw(BinaryOp::Mul, "prod", self, axes.as_option(), keepdims, acc_dtype(d), d)
    }
    fn mean_impl(&self, axes: &Axes, keepdims: bool) -> Result<Array> {
        let (acc, out) = mean_dtypes(self.dtype());
        let s = reduce_raw(BinaryOp::Add, "mean", self, axes.as_option(), keepdims, acc, acc)?;
        s.div(self.count(axes)? as f64)?.cast_if(out)
    }
    fn var_impl(&self, axes: &Axes, keepdims: bool, ddof: usize) -> Result<Array> {
        let (acc, out) = mean_dtypes(self.dtype());
        let x = self.cast_if(acc)?;
        let m = x.mean_impl(axes, true)?;
        let d = x.sub(&m)?;
        let sq = if d.dtype().is_complex() { d.real()?.square()?.add(&d.imag()?.square()?)? } else { d.square()? };
        let n = self.count(axes)?;
        let s = reduce_raw(BinaryOp::Add, "var", &sq, axes.as_option(), keepdims, sq.dtype(), sq.dtype())?;
        s.div(n.saturating_sub(ddof) as f64)?.cast_if(out.to_real())
    }
    fn std_impl(&self, axes: &Axes, keepdims: bool, ddof: usize) -> Result<Array> {
        let (acc, out) = mean_dtypes(self.dtype());
        self.cast_if(acc)?.var_impl(axes, keepdims, ddof)?.sqrt()?.cast_if(out.to_real())
    }
    /// Variance (NumPy's `var(axis)`, `ddof=0`; real dtype for complex input).
    pub fn var(&self, axes: impl IntoAxes) -> Result<Array> {
        self.var_impl(&axes.into_axes(), false, 0)
    }
    /// [`Array::var`] keeping the reduced axes with length 1.
    pub fn var_keepdim(&self, axes: impl IntoAxes) -> Result<Array> {
        self.var_impl(&axes.into_axes(), true, 0)
    }
    /// Variance with NumPy's other arguments named: `x.var_with(0, Var { ddof: 1, ..Default::default() })`
    /// is `x.var(axis=0, ddof=1)`.
    pub fn var_with(&self, axes: impl IntoAxes, opts: Var) -> Result<Array> {
        self.var_impl(&axes.into_axes(), opts.keepdims, opts.ddof)
    }
    /// Standard deviation (NumPy's `std(axis)`, `ddof=0`).
    pub fn std(&self, axes: impl IntoAxes) -> Result<Array> {
        self.std_impl(&axes.into_axes(), false, 0)
    }
    /// [`Array::std`] keeping the reduced axes with length 1.
    pub fn std_keepdim(&self, axes: impl IntoAxes) -> Result<Array> {
        self.std_impl(&axes.into_axes(), true, 0)
    }
    /// Standard deviation with NumPy's other arguments named:
    /// `x.std_with(0, Var { ddof: 1, ..Default::default() })` is `x.std(axis=0, ddof=1)`.
    ///
    /// ```
    /// use xp::Var;
    /// let x = xp::Array::from_vec(vec![1.0, 2.0, 3.0, 4.0], [2, 2]).unwrap();
    /// let s = x.std_with(0, Var { ddof: 1, ..Default::default() }).unwrap();
    /// assert_eq!(s.to_vec::<f64>().unwrap(), vec![2f64.sqrt(); 2]);
    /// assert_eq!(x.std_with(.., Var { keepdims: true, ..Default::default() }).unwrap().shape(), &[1, 1]);
    /// ```
    pub fn std_with(&self, axes: impl IntoAxes, opts: Var) -> Result<Array> {
        self.std_impl(&axes.into_axes(), opts.keepdims, opts.ddof)
    }
    fn max_impl(&self, axes: &Axes, keepdims: bool) -> Result<Array> {
        let d = self.dtype();
        reduce_raw(BinaryOp::Max, "max", self, axes.as_option(), keepdims, d, d)
    }
    fn min_impl(&self, axes: &Axes, keepdims: bool) -> Result<Array> {
        let d = self.dtype();
        reduce_raw(BinaryOp::Min, "min", self, axes.as_option(), keepdims, d, d)
    }
    fn nanmax_impl(&self, axes: &Axes, keepdims: bool) -> Result<Array> {
        let d = self.dtype();
        reduce_raw(BinaryOp::Fmax, "nanmax", self, axes.as_option(), keepdims, d, d)
    }
    fn nanmin_impl(&self, axes: &Axes, keepdims: bool) -> Result<Array> {
        let d = self.dtype();
        reduce_raw(BinaryOp::Fmin, "nanmin", self, axes.as_option(), keepdims, d, d)
    }
    fn ptp_impl(&self, axes: &Axes, keepdims: bool) -> Result<Array> {
        let r = self.max_impl(axes, keepdims)?.sub(&self.min_impl(axes, keepdims)?)?;
        r.cast_if(self.dtype())
    }
    fn nansum_impl(&self, axes: &Axes, keepdims: bool) -> Result<Array> {
        if !self.dtype().is_inexact() {
            return self.sum_impl(axes, keepdims);
        }
        if let Some((s, _)) = self.nan_sum_count(axes, keepdims, false)? {
            return Ok(s);
        }
        crate::where_(&self.isnan()?, 0, self)?.sum_impl(axes, keepdims)
    }
    /// The NaN-skipping sum (and with `count`, the count) of a float32/float64 array on the GPU, each one pass of
    /// a reduction kernel over the values (the mask, the zero-filled copy and the count of the
    /// general path are four more passes: 0.34x CuPy's nanmean); None elsewhere.
    fn nan_sum_count(&self, axes: &Axes, keepdims: bool, count: bool) -> Result<Option<(Array, Option<Array>)>> {
        use crate::kernel::{once, ReductionKernel};
        use std::sync::OnceLock;
        if !matches!(self.dtype(), DType::F32 | DType::F64) {
            return Ok(None);
        }
        if !matches!(self.device(), xp_core::Device::Cuda(_)) {
            return self.host_nan_sum_count(axes, keepdims);
        }
        static SUM: OnceLock<ReductionKernel> = OnceLock::new();
        static COUNT: OnceLock<ReductionKernel> = OnceLock::new();
        let make = |cell: &'static OnceLock<ReductionKernel>, out: &str, map: &str, name: &str| {
            once(cell, || ReductionKernel::new("T x", out, map, "a + b", "y = a", "0", name))
        };
        let s = make(&SUM, "T y", "isnan(x) ? 0 : x", "xp_nansum")?
            .call_with(&[self.into()], axes, keepdims)?
            .swap_remove(0);
        let n = if count {
            Some(
                make(&COUNT, "int64 y", "isnan(x) ? 0 : 1", "xp_nancount")?
                    .call_with(&[self.into()], axes, keepdims)?
                    .swap_remove(0),
            )
        } else {
            None
        };
        Ok(Some((s, n)))
    }
    /// [`Array::nan_sum_count`] of a whole contiguous host array: one pass over the cores,
    /// sixteen sums and counts per chunk in the values' dtype (the general path's five passes
    /// ran at 0.29x NumPy); None for other layouts and axes.
    fn host_nan_sum_count(&self, axes: &Axes, keepdims: bool) -> Result<Option<(Array, Option<Array>)>> {
        use crate::backend::Storage;
        let all = axes.normalize("nanmean", self.ndim()).is_ok_and(|a| a.len() == self.ndim());
        if !all || !self.is_contiguous() || self.size() == 0 {
            return Ok(None);
        }
        let (off, n) = (self.layout.offset(), self.size());
        let guard = self.read();
        let Storage::Cpu(st) = &*guard else { return Ok(None) };
        let (s, c) = match &st.0 {
            xp_core::HostBuffer::F32(v) => {
                let (s, c) = nan_sum_count_slice(&v[off..off + n]);
                (Array::scalar_on(s, DType::F32, xp_core::Device::Cpu)?, c)
            }
            xp_core::HostBuffer::F64(v) => {
                let (s, c) = nan_sum_count_slice(&v[off..off + n]);
                (Array::scalar_on(s, DType::F64, xp_core::Device::Cpu)?, c)
            }
            _ => return Ok(None),
        };
        drop(guard);
        let c = Array::scalar_on(c as i64, DType::I64, xp_core::Device::Cpu)?;
        if keepdims {
            let one = vec![1; self.ndim()];
            return Ok(Some((s.reshape_exact(&one)?, Some(c.reshape_exact(&one)?))));
        }
        Ok(Some((s, Some(c))))
    }
    fn nanmean_impl(&self, axes: &Axes, keepdims: bool) -> Result<Array> {
        if !self.dtype().is_inexact() {
            return self.mean_impl(axes, keepdims);
        }
        if let Some((s, Some(n))) = self.nan_sum_count(axes, keepdims, true)? {
            return s.div(&n)?.cast_if(self.dtype());
        }
        let (acc, out) = mean_dtypes(self.dtype());
        let x = self.cast_if(acc)?;
        let s = x.nansum_impl(axes, keepdims)?;
        let n = self.isnan()?.logical_not()?.sum_impl(axes, keepdims)?;
        s.div(&n)?.cast_if(out)
    }
    fn all_impl(&self, axes: &Axes, keepdims: bool) -> Result<Array> {
        reduce_raw(BinaryOp::LogicalAnd, "all", self, axes.as_option(), keepdims, DType::Bool, DType::Bool)
    }
    fn any_impl(&self, axes: &Axes, keepdims: bool) -> Result<Array> {
        reduce_raw(BinaryOp::LogicalOr, "any", self, axes.as_option(), keepdims, DType::Bool, DType::Bool)
    }
    fn count_nonzero_impl(&self, axes: &Axes, keepdims: bool) -> Result<Array> {
        self.cast_if(DType::Bool)?.sum_impl(axes, keepdims)
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
    /// Index of the first maximum along one axis (`..`: in the flattened array), int64.
    pub fn argmax(&self, axis: impl IntoAxes) -> Result<Array> {
        self.arg_reduce(ArgReduceOp::ArgMax, axis.into_axes().single("argmax")?, false)
    }
    /// [`Array::argmax`] keeping the reduced axis with length 1.
    pub fn argmax_keepdim(&self, axis: impl IntoAxes) -> Result<Array> {
        self.arg_reduce(ArgReduceOp::ArgMax, axis.into_axes().single("argmax")?, true)
    }
    /// Index of the first minimum along one axis (`..`: in the flattened array), int64.
    pub fn argmin(&self, axis: impl IntoAxes) -> Result<Array> {
        self.arg_reduce(ArgReduceOp::ArgMin, axis.into_axes().single("argmin")?, false)
    }
    /// [`Array::argmin`] keeping the reduced axis with length 1.
    pub fn argmin_keepdim(&self, axis: impl IntoAxes) -> Result<Array> {
        self.arg_reduce(ArgReduceOp::ArgMin, axis.into_axes().single("argmin")?, true)
    }
    fn cumulative(&self, op: BinaryOp, name: &'static str, axis: Axes) -> Result<Array> {
        let (a, ax) = match axis.single(name)? {
            None => (self.ravel()?, 0),
            Some(ax) => (self.clone(), ax),
        };
        crate::BinaryUfunc::accumulate(op, &a, ax)
    }
    /// Running sum along one axis (`..`: over the flattened array); integer dtypes as for `sum`.
    pub fn cumsum(&self, axis: impl IntoAxes) -> Result<Array> {
        self.cumulative(BinaryOp::Add, "cumsum", axis.into_axes())
    }
    /// Running product along one axis (`..`: flattened); integer dtypes as for `prod`.
    pub fn cumprod(&self, axis: impl IntoAxes) -> Result<Array> {
        self.cumulative(BinaryOp::Mul, "cumprod", axis.into_axes())
    }
}

/// The sum of the values that are not NaN and their count, over the cores: each chunk in
/// sixteen lanes (a NaN adds zero and counts nothing, without a branch), the lanes and chunks
/// summed pairwise. (`v == v` is the NaN test: false only for NaN.)
#[allow(clippy::eq_op)]
fn nan_sum_count_slice<T>(x: &[T]) -> (T, usize)
where
    T: Copy + Default + PartialEq + Send + Sync + std::ops::Add<Output = T>,
{
    use rayon::prelude::*;
    const L: usize = 16;
    let part = |c: &[T]| -> (T, usize) {
        let (mut acc, mut cnt) = ([T::default(); L], [0u32; L]);
        let mut it = c.chunks_exact(L);
        for ch in &mut it {
            for j in 0..L {
                let keep = ch[j] == ch[j];
                acc[j] = acc[j] + if keep { ch[j] } else { T::default() };
                cnt[j] += keep as u32;
            }
        }
        let mut w = L;
        while w > 1 {
            w /= 2;
            for j in 0..w {
                acc[j] = acc[j] + acc[j + w];
            }
        }
        let mut n: usize = cnt.iter().map(|&k| k as usize).sum();
        let mut s = acc[0];
        for &v in it.remainder() {
            if v == v {
                s = s + v;
                n += 1;
            }
        }
        (s, n)
    };
    let parts: Vec<(T, usize)> = x.par_chunks(1 << 16).map(part).collect();
    // chunk sums pairwise
    fn pairwise<T: Copy + std::ops::Add<Output = T>>(p: &[(T, usize)]) -> (T, usize) {
        if p.len() == 1 {
            return p[0];
        }
        let (a, b) = p.split_at(p.len() / 2);
        let (x, y) = (pairwise(a), pairwise(b));
        (x.0 + y.0, x.1 + y.1)
    }
    pairwise(&parts)
}
