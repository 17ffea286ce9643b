//! Array creation, bound to a device through [`ArrayModule`] (what [`get_array_module`] returns),
//! with host-memory forms as free functions (`xp::zeros`, `xp::arange`, ...).
//!
//! ```
//! fn centered(x: &xp::Array) -> xp::Result<xp::Array> {
//!     let mods = xp::get_array_module(x);          // allocates where x lives
//!     let n = mods.full(&[], x.size() as f64, x.dtype())?;
//!     x.sub(&x.sum(..)?.div(&n)?)
//! }
//! let x = xp::linspace(0.0, 1.0, 5, Default::default()).unwrap();
//! assert_eq!(centered(&x).unwrap().to_vec::<f64>().unwrap(), vec![-0.5, -0.25, 0.0, 0.25, 0.5]);
//! ```
use crate::backend;
use crate::shape::{shape_of, IntoShape};
use crate::Array;
use xp_core::{numel, BinaryOp, DType, Device, Error, Result, Scalar, SliceElem};

/// The namespace of one device: every creation function allocates there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ArrayModule {
    device: Device,
}

/// What lives on one device: arrays and sparse arrays ([`crate::sparse`]).
pub trait OnDevice {
    /// The device the data live on.
    fn on_device(&self) -> Device;
}

impl<T: OnDevice + ?Sized> OnDevice for &T {
    fn on_device(&self) -> Device {
        (**self).on_device()
    }
}

impl OnDevice for Array {
    fn on_device(&self) -> Device {
        self.device()
    }
}

/// The namespace of the device `x` (an array or a sparse array) lives on (CuPy's
/// `get_array_module`, which recognises `cupyx.scipy.sparse` matrices too).
pub fn get_array_module<T: OnDevice + ?Sized>(x: &T) -> ArrayModule {
    ArrayModule { device: x.on_device() }
}

/// The namespace of `device`.
pub fn on(device: Device) -> ArrayModule {
    ArrayModule { device }
}

pub(crate) fn full_on(device: Device, shape: &[usize], value: impl Into<Scalar>, dtype: DType) -> Result<Array> {
    Ok(Array::from_storage(backend::full(device, numel(shape), value.into(), dtype)?, shape))
}

/// The keywords of [`ArrayModule::linspace`]: NumPy's `endpoint=True`, `dtype=None` (float64).
///
/// ```
/// let x = xp::linspace(0.0, 1.0, 4, Default::default()).unwrap();
/// assert_eq!(x.to_vec::<f64>().unwrap(), vec![0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0]);
/// let open = xp::linspace(0.0, 1.0, 4, xp::Linspace { endpoint: false, ..Default::default() }).unwrap();
/// assert_eq!(open.to_vec::<f64>().unwrap(), vec![0.0, 0.25, 0.5, 0.75]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Linspace {
    /// whether `stop` is the last value
    pub endpoint: bool,
    /// the result's dtype (`None`: float64)
    pub dtype: Option<DType>,
}

impl Default for Linspace {
    fn default() -> Self {
        Linspace { endpoint: true, dtype: None }
    }
}

/// The keywords of [`ArrayModule::logspace`]: NumPy's `endpoint=True`, `base=10.0`,
/// `dtype=None` (float64).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Logspace {
    /// whether `base ** stop` is the last value
    pub endpoint: bool,
    /// the base of the powers
    pub base: f64,
    /// the result's dtype (`None`: float64)
    pub dtype: Option<DType>,
}

impl Default for Logspace {
    fn default() -> Self {
        Logspace { endpoint: true, base: 10.0, dtype: None }
    }
}

/// How [`ArrayModule::meshgrid`] orders its outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Indexing {
    /// Cartesian (NumPy's default): the first two outputs have shape (len(y), len(x))
    Xy,
    /// matrix indexing: output i varies along axis i
    Ij,
}

impl ArrayModule {
    /// The device of this namespace.
    pub fn device(&self) -> Device {
        self.device
    }
    /// An array of `shape` filled with `value` converted to `dtype`; `None` takes the value's
    /// own dtype as NumPy's `full` does (bool, int64, float64 or complex128).
    pub fn full(
        &self,
        shape: impl IntoShape,
        value: impl Into<Scalar>,
        dtype: impl Into<Option<DType>>,
    ) -> Result<Array> {
        let value = value.into();
        let dtype = dtype.into().unwrap_or_else(|| xp_core::default_dtype(&value));
        full_on(self.device, &shape_of("full", shape)?, value, dtype)
    }
    /// Zeros (`None`: float64, NumPy's default dtype).
    pub fn zeros(&self, shape: impl IntoShape, dtype: impl Into<Option<DType>>) -> Result<Array> {
        full_on(self.device, &shape_of("zeros", shape)?, 0, dtype.into().unwrap_or(DType::F64))
    }
    /// Ones (`None`: float64).
    pub fn ones(&self, shape: impl IntoShape, dtype: impl Into<Option<DType>>) -> Result<Array> {
        full_on(self.device, &shape_of("ones", shape)?, 1, dtype.into().unwrap_or(DType::F64))
    }
    /// An array whose contents are unspecified (xp fills with zeros; `None`: float64).
    pub fn empty(&self, shape: impl IntoShape, dtype: impl Into<Option<DType>>) -> Result<Array> {
        full_on(self.device, &shape_of("empty", shape)?, 0, dtype.into().unwrap_or(DType::F64))
    }
    /// An array from a vector in C order.
    pub fn asarray<T: xp_core::Element>(&self, data: Vec<T>, shape: impl IntoShape) -> Result<Array> {
        Array::from_buffer(T::into_buffer(data), shape, self.device)
    }
    /// `start, start + step, ...` below `stop` (above, for negative steps). Integer arguments give
    /// int64 and exact integer arithmetic; any float gives float64 — unless `dtype` says otherwise.
    pub fn arange(
        &self,
        start: impl Into<Scalar>,
        stop: impl Into<Scalar>,
        step: impl Into<Scalar>,
        dtype: Option<DType>,
    ) -> Result<Array> {
        let (a, b, s) = (start.into(), stop.into(), step.into());
        let ints = [a, b, s].iter().all(|v| matches!(v, Scalar::Int(_) | Scalar::Uint(_) | Scalar::Bool(_)));
        let n = if ints {
            let (a, b, s) = (a.to_i64() as i128, b.to_i64() as i128, s.to_i64() as i128);
            if s == 0 {
                return Err(Error::invalid("arange", "step must not be zero"));
            }
            ((b - a + s - s.signum()) / s).max(0) as usize
        } else {
            let (a, b, s) = (a.to_f64(), b.to_f64(), s.to_f64());
            if s == 0.0 || !s.is_finite() {
                return Err(Error::invalid("arange", "step must be finite and nonzero"));
            }
            let n = ((b - a) / s).ceil();
            if !n.is_finite() {
                return Err(Error::invalid("arange", "arange bounds must be finite"));
            }
            n.max(0.0) as usize
        };
        let dtype = dtype.unwrap_or(if ints { DType::I64 } else { DType::F64 });
        Ok(Array::from_storage(backend::affine(self.device, n, a, s, dtype)?, &[n]))
    }
    /// `num` evenly spaced values from `start` to `stop` (included unless `opts.endpoint` is
    /// false); float64 unless `opts.dtype` says otherwise.
    pub fn linspace(&self, start: f64, stop: f64, num: usize, opts: Linspace) -> Result<Array> {
        let Linspace { endpoint, dtype } = opts;
        let div = if endpoint { num.saturating_sub(1) } else { num };
        let step = if div > 0 { (stop - start) / div as f64 } else { 0.0 };
        let a = Array::from_storage(
            backend::affine(self.device, num, Scalar::Float(start), Scalar::Float(step), DType::F64)?,
            &[num],
        );
        if endpoint && num > 1 {
            a.slice([SliceElem::Index(-1)])?.assign(stop)?;
        }
        a.cast_if(dtype.unwrap_or(DType::F64))
    }
    /// `base ** linspace(start, stop, num, endpoint)`.
    pub fn logspace(&self, start: f64, stop: f64, num: usize, opts: Logspace) -> Result<Array> {
        let Logspace { endpoint, base, dtype } = opts;
        let e = self.linspace(start, stop, num, Linspace { endpoint, dtype: None })?;
        crate::ufunc::binary(BinaryOp::Pow, base, &e)?.cast_if(dtype.unwrap_or(DType::F64))
    }
    /// An `n × m` (m defaults to n) array with ones on diagonal `k` (positive: above the main one).
    /// `None` gives float64.
    pub fn eye(&self, n: usize, m: Option<usize>, k: isize, dtype: impl Into<Option<DType>>) -> Result<Array> {
        let m = m.unwrap_or(n);
        let a = self.zeros([n, m], dtype)?;
        let (r0, c0) = if k >= 0 { (0, k as usize) } else { ((-k) as usize, 0) };
        if r0 < n && c0 < m {
            let count = (n - r0).min(m - c0);
            let start = (r0 * m + c0) as isize;
            let flat = a.ravel()?;
            let step = m as isize + 1;
            let idx =
                SliceElem::Slice { start: Some(start), stop: Some(start + (count as isize - 1) * step + 1), step };
            flat.slice([idx])?.assign(1)?;
        }
        Ok(a)
    }
    /// The `n × n` identity matrix.
    pub fn identity(&self, n: usize, dtype: impl Into<Option<DType>>) -> Result<Array> {
        self.eye(n, None, 0, dtype)
    }
    /// Coordinate matrices from coordinate vectors (copies, as NumPy's default).
    pub fn meshgrid(&self, xs: &[&Array], indexing: Indexing) -> Result<Vec<Array>> {
        let nd = xs.len();
        let mut shape: Vec<usize> = xs.iter().map(|x| x.size()).collect();
        if indexing == Indexing::Xy && nd >= 2 {
            shape.swap(0, 1);
        }
        xs.iter()
            .enumerate()
            .map(|(i, x)| {
                let mut s = vec![1usize; nd];
                let pos = match (indexing, i) {
                    (Indexing::Xy, 0) if nd >= 2 => 1,
                    (Indexing::Xy, 1) if nd >= 2 => 0,
                    _ => i,
                };
                s[pos] = x.size();
                x.ravel()?.reshape_exact(&s)?.broadcast_to(&shape)?.copy()
            })
            .collect()
    }
}

impl Array {
    /// `zeros` with this array's shape, dtype and device.
    pub fn zeros_like(&self) -> Result<Array> {
        full_on(self.device(), self.shape(), 0, self.dtype())
    }
    /// `ones` with this array's shape, dtype and device.
    pub fn ones_like(&self) -> Result<Array> {
        full_on(self.device(), self.shape(), 1, self.dtype())
    }
    /// `empty` with this array's shape, dtype and device.
    pub fn empty_like(&self) -> Result<Array> {
        self.zeros_like()
    }
    /// `full` with this array's shape, dtype and device.
    pub fn full_like(&self, value: impl Into<Scalar>) -> Result<Array> {
        full_on(self.device(), self.shape(), value, self.dtype())
    }
    /// 1-d input: a 2-d array with it on diagonal `k`. 2-d input: diagonal `k` as a 1-d view.
    pub fn diag(&self, k: isize) -> Result<Array> {
        match self.ndim() {
            1 => {
                let n = self.size() + k.unsigned_abs();
                let out = full_on(self.device(), &[n, n], 0, self.dtype())?;
                out.diag(k)?.assign(self)?;
                Ok(out)
            }
            2 => {
                let (n, m) = (self.shape()[0] as isize, self.shape()[1] as isize);
                let (r0, c0) = if k >= 0 { (0, k) } else { (-k, 0) };
                let count = (n - r0).min(m - c0).max(0) as usize;
                let (s0, s1) = (self.strides()[0], self.strides()[1]);
                let off = if count > 0 {
                    (self.layout.offset() as isize + r0 * s0 + c0 * s1) as usize
                } else {
                    self.layout.offset()
                };
                Ok(self.with_layout(xp_core::Layout::new(vec![count], vec![s0 + s1], off)))
            }
            d => Err(Error::invalid("diag", format!("input must be 1- or 2-d, got {d}-d"))),
        }
    }
    fn tri_mask(&self, k: isize, lower: bool) -> Result<Array> {
        if self.ndim() < 2 {
            return Err(Error::invalid(if lower { "tril" } else { "triu" }, "input must be at least 2-d"));
        }
        let (n, m) = (self.shape()[self.ndim() - 2], self.shape()[self.ndim() - 1]);
        let mods = crate::get_array_module(self);
        let i = mods.arange(0, n as i64, 1, None)?.reshape_exact(&[n, 1])?;
        let j = mods.arange(0, m as i64, 1, None)?.reshape_exact(&[1, m])?;
        let d = j.sub(&i)?;
        let mask = if lower { d.le(k)? } else { d.ge(k)? };
        crate::where_(&mask, self, 0)?.cast_if(self.dtype())
    }
    /// Lower triangle (elements above diagonal `k` zeroed), over the last two axes.
    pub fn tril(&self, k: isize) -> Result<Array> {
        self.tri_mask(k, true)
    }
    /// Upper triangle (elements below diagonal `k` zeroed), over the last two axes.
    pub fn triu(&self, k: isize) -> Result<Array> {
        self.tri_mask(k, false)
    }
}

pub(crate) const HOST: ArrayModule = ArrayModule { device: Device::Cpu };

/// [`ArrayModule::full`] in host memory.
pub fn full(shape: impl IntoShape, value: impl Into<Scalar>, dtype: impl Into<Option<DType>>) -> Result<Array> {
    HOST.full(shape, value, dtype)
}
/// [`ArrayModule::zeros`] in host memory.
pub fn zeros(shape: impl IntoShape, dtype: impl Into<Option<DType>>) -> Result<Array> {
    HOST.zeros(shape, dtype)
}
/// [`ArrayModule::ones`] in host memory.
pub fn ones(shape: impl IntoShape, dtype: impl Into<Option<DType>>) -> Result<Array> {
    HOST.ones(shape, dtype)
}
/// [`ArrayModule::empty`] in host memory.
pub fn empty(shape: impl IntoShape, dtype: impl Into<Option<DType>>) -> Result<Array> {
    HOST.empty(shape, dtype)
}
/// [`ArrayModule::arange`] in host memory.
pub fn arange(
    start: impl Into<Scalar>,
    stop: impl Into<Scalar>,
    step: impl Into<Scalar>,
    dtype: Option<DType>,
) -> Result<Array> {
    HOST.arange(start, stop, step, dtype)
}
/// [`ArrayModule::linspace`] in host memory.
pub fn linspace(start: f64, stop: f64, num: usize, opts: Linspace) -> Result<Array> {
    HOST.linspace(start, stop, num, opts)
}
/// [`ArrayModule::logspace`] in host memory.
pub fn logspace(start: f64, stop: f64, num: usize, opts: Logspace) -> Result<Array> {
    HOST.logspace(start, stop, num, opts)
}
/// [`ArrayModule::eye`] in host memory.
pub fn eye(n: usize, m: Option<usize>, k: isize, dtype: impl Into<Option<DType>>) -> Result<Array> {
    HOST.eye(n, m, k, dtype)
}
/// [`ArrayModule::identity`] in host memory.
pub fn identity(n: usize, dtype: impl Into<Option<DType>>) -> Result<Array> {
    HOST.identity(n, dtype)
}
/// [`ArrayModule::meshgrid`] (outputs on the inputs' device).
pub fn meshgrid(xs: &[&Array], indexing: Indexing) -> Result<Vec<Array>> {
    match xs.first() {
        Some(x) => get_array_module(x).meshgrid(xs, indexing),
        None => Ok(vec![]),
    }
}
/// `zeros` with `a`'s shape, dtype and device.
pub fn zeros_like(a: &Array) -> Result<Array> {
    a.zeros_like()
}
/// `ones` with `a`'s shape, dtype and device.
pub fn ones_like(a: &Array) -> Result<Array> {
    a.ones_like()
}
/// `empty` with `a`'s shape, dtype and device.
pub fn empty_like(a: &Array) -> Result<Array> {
    a.empty_like()
}
/// `full` with `a`'s shape, dtype and device.
pub fn full_like(a: &Array, value: impl Into<Scalar>) -> Result<Array> {
    a.full_like(value)
}
