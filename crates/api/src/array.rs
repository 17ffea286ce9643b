//! The [`Array`] type: shared storage + layout + dtype, cheap to clone; views share storage.
use crate::backend::{self, Storage};
use crate::shape::{shape_of, IntoShape};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};
use xp_core::{numel, DType, Device, Element, Error, HostBuffer, Layout, Result, Scalar};

/// An n-dimensional array on a [`Device`].
///
/// Cloning is cheap (the storage is shared), and views (slices, transposes, reshapes that need no
/// copy, broadcasts) share storage with their base: writing through one ([`Array::assign`]) is
/// seen by every view of the same data, as in NumPy.
///
/// ```
/// let a = xp::Array::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
/// assert_eq!(a.shape(), &[2, 2]);
/// assert_eq!(a.dtype(), xp::DType::F32);
/// assert_eq!(a.t().unwrap().to_vec::<f32>().unwrap(), vec![1.0, 3.0, 2.0, 4.0]);
/// ```
#[derive(Clone)]
pub struct Array {
    pub(crate) storage: Arc<RwLock<Storage>>,
    pub(crate) layout: Layout,
    pub(crate) dtype: DType,
    pub(crate) device: Device,
}

impl Array {
    pub(crate) fn from_storage(s: Storage, shape: &[usize]) -> Array {
        let (dtype, device) = (s.dtype(), s.device());
        Array { storage: Arc::new(RwLock::new(s)), layout: Layout::contiguous(shape), dtype, device }
    }
    pub(crate) fn with_layout(&self, layout: Layout) -> Array {
        Array { storage: self.storage.clone(), layout, dtype: self.dtype, device: self.device }
    }
    /// Read access to the storage. A poisoned lock (a panic elsewhere while writing) still
    /// yields the data: xp writes are single copies that leave the buffer well-formed.
    pub(crate) fn read(&self) -> RwLockReadGuard<'_, Storage> {
        self.storage.read().unwrap_or_else(|e| e.into_inner())
    }
    pub(crate) fn write(&self) -> RwLockWriteGuard<'_, Storage> {
        self.storage.write().unwrap_or_else(|e| e.into_inner())
    }
    pub(crate) fn shares_storage(&self, other: &Array) -> bool {
        Arc::ptr_eq(&self.storage, &other.storage)
    }

    /// An array of `shape` from a vector in C order, in host memory.
    pub fn from_vec<T: Element>(data: Vec<T>, shape: impl IntoShape) -> Result<Array> {
        Array::from_buffer(T::into_buffer(data), shape, Device::Cpu)
    }
    /// An array of `shape` from a slice in C order, in host memory.
    pub fn from_slice<T: Element>(data: &[T], shape: impl IntoShape) -> Result<Array> {
        Array::from_vec(data.to_vec(), shape)
    }
    /// An array of `shape` on `device` from a host buffer in C order.
    pub fn from_buffer(buf: HostBuffer, shape: impl IntoShape, device: Device) -> Result<Array> {
        let shape = &shape_of("from_vec", shape)?[..];
        let n = numel(shape);
        if buf.len() != n {
            return Err(Error::LengthMismatch { op: "from_vec", shape: shape.to_vec(), expected: n, got: buf.len() });
        }
        Ok(Array::from_storage(backend::from_host(device, buf)?, shape))
    }
    /// A 0-d array holding one value of `dtype` on `device`.
    pub fn scalar_on(value: impl Into<Scalar>, dtype: DType, device: Device) -> Result<Array> {
        Ok(Array::from_storage(backend::full(device, 1, value.into(), dtype)?, &[]))
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }
    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.layout.ndim()
    }
    /// Number of elements.
    pub fn size(&self) -> usize {
        self.layout.numel()
    }
    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }
    /// The device holding the data.
    pub fn device(&self) -> Device {
        self.device
    }
    /// Strides in elements (NumPy's are in bytes: multiply by `dtype().size()`).
    pub fn strides(&self) -> &[isize] {
        self.layout.strides()
    }
    /// The layout (shape, strides, offset) of this view.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
    /// True when the view is C-contiguous.
    pub fn is_contiguous(&self) -> bool {
        self.layout.is_contiguous()
    }

    /// The elements in C order as a host buffer (synchronises with the device).
    pub fn to_buffer(&self) -> Result<HostBuffer> {
        self.read().to_host(&self.layout)
    }
    /// The elements in C order. `T` must be the array's element type (use [`Array::astype`] first
    /// to convert).
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        if T::DTYPE != self.dtype {
            return Err(Error::invalid(
                "to_vec",
                format!("array has dtype {}, asked for {}; convert with astype first", self.dtype, T::DTYPE),
            ));
        }
        let b = self.to_buffer()?;
        Ok(T::slice_of(&b).expect("dtype checked").to_vec())
    }
    /// The only element of a size-1 array as a [`Scalar`].
    pub fn scalar(&self) -> Result<Scalar> {
        if self.size() != 1 {
            return Err(Error::invalid(
                "item",
                format!("can only convert an array of size 1 to a scalar, this one has size {}", self.size()),
            ));
        }
        Ok(self.to_buffer()?.get(0).expect("size 1"))
    }
    /// The only element of a size-1 array, converted to `T` with NumPy's cast semantics.
    pub fn item<T: Element>(&self) -> Result<T> {
        Ok(T::from_scalar(self.scalar()?))
    }
    /// The only element of a size-1 array as `f64` ([`Array::item`]`::<f64>`, NumPy's `float(x)`).
    pub fn to_f64(&self) -> Result<f64> {
        self.item()
    }
    /// The only element of a size-1 array as `i64` (NumPy's `int(x)`: floats truncate).
    pub fn to_i64(&self) -> Result<i64> {
        self.item()
    }
    /// The only element of a size-1 array as `bool` (NumPy's `bool(x)`: nonzero is true).
    pub fn to_bool(&self) -> Result<bool> {
        self.item()
    }
    /// A copy of the array on `device` (a clone when it is already there). Between two GPUs the
    /// copy goes device to device (a peer copy, asynchronous); to or from the host it waits.
    pub fn to_device(&self, device: Device) -> Result<Array> {
        if device == self.device {
            return Ok(self.clone());
        }
        if let Some(s) = self.read().direct_copy(&self.layout, device) {
            return Ok(Array::from_storage(s?, self.shape()));
        }
        Array::from_buffer(self.to_buffer()?, self.shape(), device)
    }
    /// A copy of the array in host memory.
    pub fn to_host(&self) -> Result<Array> {
        self.to_device(Device::Cpu)
    }

    /// A C-contiguous copy converted to `dtype` (NumPy `astype`, unsafe casting).
    pub fn astype(&self, dtype: DType) -> Result<Array> {
        let s = crate::backend::on_storage!(&*self.read(), s => xp_core::BackendStorage::cast(s, &self.layout, dtype))?;
        Ok(Array::from_storage(s, self.shape()))
    }
    /// `astype` that returns `self` unchanged when the dtype already matches.
    pub(crate) fn cast_if(&self, dtype: DType) -> Result<Array> {
        if dtype == self.dtype {
            Ok(self.clone())
        } else {
            self.astype(dtype)
        }
    }
    /// A C-contiguous copy.
    pub fn copy(&self) -> Result<Array> {
        self.astype(self.dtype)
    }
    /// Self when C-contiguous, else a C-contiguous copy.
    pub fn ascontiguousarray(&self) -> Result<Array> {
        if self.is_contiguous() {
            Ok(self.clone())
        } else {
            self.copy()
        }
    }
}

impl std::fmt::Debug for Array {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Array {{ shape: {:?}, dtype: {}, device: {}, strides: {:?} }}",
            self.shape(),
            self.dtype,
            self.device,
            self.strides()
        )
    }
}

// SAFETY of the auto traits: Storage holds plain buffers; the RwLock makes shared access sound.
const _: fn() = || {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Array>();
};

/// A size-1 array converts to any element type with `try_into` (NumPy's `float(x)`, `int(x)`,
/// `bool(x)`), so a reduction's result goes straight into a Rust variable:
///
/// ```
/// let x = xp::Array::from_vec(vec![1.5, 2.5], [2]).unwrap();
/// let total: f64 = x.sum(..)?.try_into()?;
/// let any_big: bool = (&x.gt(2.0)?.any(..)?).try_into()?;
/// assert_eq!((total, any_big), (4.0, true));
/// # Ok::<(), xp::Error>(())
/// ```
macro_rules! try_from_array {
    ($($t:ty),*) => {$(
        impl TryFrom<&Array> for $t {
            type Error = Error;
            fn try_from(a: &Array) -> Result<$t> {
                a.item()
            }
        }
        impl TryFrom<Array> for $t {
            type Error = Error;
            fn try_from(a: Array) -> Result<$t> {
                a.item()
            }
        }
    )*};
}
try_from_array!(
    bool,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
    xp_core::f16,
    xp_core::bf16,
    f32,
    f64,
    xp_core::Complex32,
    xp_core::Complex64
);
