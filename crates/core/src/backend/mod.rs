//! The seam between the `xp` front end and a backend.
//!
//! The front end validates, broadcasts and promotes; a backend receives storages plus
//! [`Layout`]s that are already checked (same shape where an op needs it, dtypes equal to the
//! op's loop dtype) and only computes. Operations are grouped in families: the elementwise,
//! copy, reduction and scan families of [`BackendStorage`], where an op is a marker value
//! ([`UnaryOp`], [`BinaryOp`], [`ArgReduceOp`]), and one trait per later family
//! ([`LinalgStorage`], [`IndexStorage`], [`SortStorage`], [`StatsStorage`], [`FftStorage`], [`FilterStorage`],
//! [`RandomDevice`], [`SparseStorage`]) whose parameters are
//! typed values and whose results are named structs. A family's methods have default bodies that
//! answer [`Error::Unsupported`], so a backend that lacks a family still compiles and says so.
use crate::{ArgReduceOp, BinaryOp, DType, Device, Error, HostBuffer, Layout, Result, Scalar, UnaryOp};

mod fft;
mod filter;
mod index;
mod kernel;
mod linalg;
mod random;
mod sort;
mod sparse;
mod stats;

pub use fft::{FftKind, FftNorm, FftSpec, FftStorage, PlanCacheInfo};
pub use filter::{matrix_power, norm_inf, FilterStorage, Recursed, Recursion, RecursionKind};
pub use index::{Combine, IndexMode, IndexSet, IndexStorage};
pub use kernel::{KernelArg, KernelDevice, KernelTypes, Outputs};
pub use linalg::LinalgStorage;
pub use random::{Distribution, RandomDevice};
pub use sort::{Side, SortOutput, SortStorage};
pub use sparse::{BsrParts, CgRun, CsrBuilt, CsrParts, SparseStorage};
pub use stats::StatsStorage;

/// The answer of a family method that a backend does not implement.
pub(crate) fn unsupported<T>(op: &'static str, backend: &'static str) -> Result<T> {
    Err(Error::Unsupported { op, backend })
}

/// The storage of one backend: a buffer of elements of one dtype on one device.
///
/// Every method leaves `self` (and every other input) unchanged; outputs are new C-contiguous
/// storages unless the method writes into a `dst`.
pub trait BackendStorage: Sized + Send + Sync + 'static {
    /// The backend's name, for error messages.
    const NAME: &'static str;
    /// The device the data live on.
    fn device(&self) -> Device;
    /// The dtype of the elements.
    fn dtype(&self) -> DType;
    /// Number of elements in the buffer.
    fn len(&self) -> usize;
    /// True when the buffer holds nothing.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Copy the elements of `layout` to the host, in C order.
    fn to_host(&self, layout: &Layout) -> Result<HostBuffer>;
    /// Elementwise `op` over `layout`; the storage's dtype is the op's loop dtype.
    fn unary(&self, layout: &Layout, op: UnaryOp) -> Result<Self>;
    /// Elementwise `op` of two same-shaped, same-dtype operands.
    fn binary(&self, layout: &Layout, rhs: &Self, rhs_layout: &Layout, op: BinaryOp) -> Result<Self>;
    /// `where(self, t, f)`: self is bool; all three layouts have the same shape; t and f one dtype.
    fn where_cond(&self, layout: &Layout, t: &Self, tl: &Layout, f: &Self, fl: &Layout) -> Result<Self>;
    /// Convert to `dtype` (NumPy `astype` semantics), C-contiguous.
    fn cast(&self, layout: &Layout, dtype: DType) -> Result<Self>;
    /// Copy the elements of `layout` into `dst` at `dst_layout` (same shape, same dtype).
    fn copy_into(&self, layout: &Layout, dst: &mut Self, dst_layout: &Layout) -> Result<()>;
    /// Reduce `axes` (sorted, non-empty set of reduced axes) with `op`; the output holds the kept
    /// axes in order, C-contiguous. Additions are pairwise-accurate. Callers handle empty axes.
    fn reduce(&self, layout: &Layout, op: BinaryOp, axes: &[usize]) -> Result<Self>;
    /// Index of the first extreme along `axis` (int64), kept axes in order.
    fn arg_reduce(&self, layout: &Layout, op: ArgReduceOp, axis: usize) -> Result<Self>;
    /// Inclusive scan (accumulate) of `op` along `axis`; output C-contiguous with the input shape.
    fn scan(&self, layout: &Layout, op: BinaryOp, axis: usize) -> Result<Self>;
}

/// A device of one backend: makes storages.
pub trait BackendDevice: Send + Sync {
    /// The storage this device makes.
    type Storage: BackendStorage;
    /// Which device this is.
    fn device(&self) -> Device;
    /// Move a host buffer onto the device.
    fn upload(&self, buf: HostBuffer) -> Result<Self::Storage>;
    /// `n` elements of `dtype`, all equal to `value`.
    fn full(&self, n: usize, value: Scalar, dtype: DType) -> Result<Self::Storage>;
    /// `n` elements `start + i * step` converted to `dtype` (arange, linspace). Integer dtypes are
    /// computed exactly in integer arithmetic when `start` and `step` are integers.
    fn affine(&self, n: usize, start: Scalar, step: Scalar, dtype: DType) -> Result<Self::Storage>;
}
