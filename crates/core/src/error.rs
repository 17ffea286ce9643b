//! The typed errors of xp. Every user mistake comes back as one of these, naming what was wrong.
use crate::{DType, Device, DistKind, LinAlgKind};
use thiserror::Error;

/// Result with xp's [`enum@Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// Everything that can go wrong in an xp operation.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum Error {
    /// Two shapes that must broadcast (or match) do not.
    #[error("{op}: shapes {lhs:?} and {rhs:?} cannot be broadcast together")]
    ShapeMismatch {
        /// the operation
        op: &'static str,
        /// first shape
        lhs: Vec<usize>,
        /// second shape
        rhs: Vec<usize>,
    },
    /// The contracted dimensions of a product differ (NumPy's "shapes not aligned").
    #[error(
        "{op}: shapes {lhs:?} and {rhs:?} not aligned: {lhs_size} (dim {lhs_axis}) != {rhs_size} (dim {rhs_axis})"
    )]
    NotAligned {
        /// the operation
        op: &'static str,
        /// first operand's shape
        lhs: Vec<usize>,
        /// second operand's shape
        rhs: Vec<usize>,
        /// the contracted axis of the first operand
        lhs_axis: usize,
        /// its length
        lhs_size: usize,
        /// the contracted axis of the second operand
        rhs_axis: usize,
        /// its length
        rhs_size: usize,
    },
    /// An axis outside `-ndim..ndim`.
    #[error("{op}: axis {axis} is out of bounds for an array of dimension {ndim}")]
    AxisOutOfRange {
        /// the operation
        op: &'static str,
        /// the axis as given
        axis: isize,
        /// the number of dimensions
        ndim: usize,
    },
    /// The same axis named twice.
    #[error("{op}: repeated axis {axis}")]
    RepeatedAxis {
        /// the operation
        op: &'static str,
        /// the repeated axis
        axis: isize,
    },
    /// An operation that has no implementation for a dtype (NumPy's "ufunc not supported for the
    /// input types").
    #[error("{op}: not supported for dtype {dtype}")]
    InvalidDType {
        /// the operation
        op: &'static str,
        /// the offending dtype
        dtype: DType,
    },
    /// A reshape whose element count differs.
    #[error("cannot reshape array of size {size} (shape {from:?}) into shape {to:?}")]
    ReshapeSize {
        /// the input shape
        from: Vec<usize>,
        /// the requested shape (-1 shown as usize::MAX)
        to: Vec<isize>,
        /// the input size
        size: usize,
    },
    /// A reduction without identity over an empty array.
    #[error("{op}: zero-size array to reduction operation which has no identity")]
    EmptyReduction {
        /// the operation
        op: &'static str,
    },
    /// Operands on different devices.
    #[error("{op}: arrays are on different devices ({lhs} and {rhs}); move one explicitly with to_device")]
    DeviceMismatch {
        /// the operation
        op: &'static str,
        /// the first device
        lhs: Device,
        /// the second device
        rhs: Device,
    },
    /// An index outside an axis.
    #[error("index {index} is out of bounds for axis {axis} with size {size}")]
    IndexOutOfBounds {
        /// the index as given
        index: isize,
        /// the axis
        axis: usize,
        /// that axis's length
        size: usize,
    },
    /// A boolean index whose shape differs from the axes it covers.
    #[error("boolean index did not match indexed array along axis {axis}; size of axis is {size} but size of corresponding boolean axis is {got}")]
    BoolIndexMismatch {
        /// the first axis where the sizes differ
        axis: usize,
        /// that axis's length
        size: usize,
        /// the mask's length there
        got: usize,
    },
    /// More indices than the array has dimensions.
    #[error("too many indices for array: array is {ndim}-dimensional, but {given} were indexed")]
    TooManyIndices {
        /// dimensions of the array
        ndim: usize,
        /// dimensions the index addresses
        given: usize,
    },
    /// An index array that is neither integer nor boolean.
    #[error("{op}: arrays used as indices must be of integer (or boolean) type, not {dtype}")]
    IndexDType {
        /// the operation
        op: &'static str,
        /// the index array's dtype
        dtype: DType,
    },
    /// Data of the wrong length for a shape.
    #[error("{op}: {got} elements given for shape {shape:?} ({expected} elements)")]
    LengthMismatch {
        /// the operation
        op: &'static str,
        /// the shape
        shape: Vec<usize>,
        /// elements the shape needs
        expected: usize,
        /// elements given
        got: usize,
    },
    /// A Rust scalar that does not fit the array's integer dtype (NumPy 2's OverflowError).
    #[error("{op}: scalar {value} is out of bounds for {dtype}")]
    ScalarOverflow {
        /// the operation
        op: &'static str,
        /// the value
        value: String,
        /// the dtype of the array
        dtype: DType,
    },
    /// Any other invalid argument, with what was wrong.
    #[error("{op}: {msg}")]
    InvalidArgument {
        /// the operation
        op: &'static str,
        /// what was wrong
        msg: String,
    },
    /// A parameter outside its domain (a negative scale, a probability above 1, weights that do
    /// not sum to 1, a quantile outside [0, 1], bin edges that decrease, …).
    #[error("{op}: {param} {requirement}")]
    InvalidParameter {
        /// the operation
        op: &'static str,
        /// the parameter's name, as NumPy spells it
        param: &'static str,
        /// what it must satisfy
        requirement: String,
    },
    /// Reading or writing a file failed in the file system.
    #[error("{op} {path}: {msg}")]
    Io {
        /// the operation
        op: &'static str,
        /// the file
        path: String,
        /// the system's message
        msg: String,
    },
    /// A file's contents are not what its format says: truncated data, a header that does not
    /// parse, or a dtype xp cannot hold.
    #[error("{path}: {msg}")]
    BadFile {
        /// the file (or the archive member)
        path: String,
        /// what was wrong
        msg: String,
    },
    /// The operation is not implemented on this backend (yet).
    #[error("{op} is not implemented on the {backend} backend")]
    Unsupported {
        /// the operation
        op: &'static str,
        /// the backend
        backend: &'static str,
    },
    /// This build of xp was made without the feature that holds the operation on this backend
    /// (say `linalg` or `fft` on the CPU: see the `xp` crate's features).
    #[error("{op} on the {backend} backend needs xp's `{feature}` feature, which this build was made without")]
    FeatureDisabled {
        /// the operation
        op: &'static str,
        /// the backend
        backend: &'static str,
        /// the Cargo feature that would enable it
        feature: &'static str,
    },
    /// This build of xp has no CUDA backend (feature `cuda` off).
    #[error("xp was built without the `cuda` feature; Device::Cuda is unavailable")]
    CudaNotCompiled,
    /// No usable CUDA device or driver.
    #[error("no CUDA device: {0}")]
    NoCuda(String),
    /// A device allocation failed.
    #[error("out of memory on {device}: requested {requested} bytes, {free} bytes free")]
    OutOfMemory {
        /// the device
        device: Device,
        /// bytes requested
        requested: usize,
        /// bytes free
        free: usize,
    },
    /// A linear-algebra routine failed on its input (NumPy's `LinAlgError`): a singular or not
    /// positive-definite matrix, no convergence, or a shape that is not a (square) matrix.
    #[error("{op}: {kind}")]
    LinAlg {
        /// the operation
        op: &'static str,
        /// what went wrong, with the position in the stack where one is involved
        kind: LinAlgKind,
    },
    /// A kernel's source does not parse or type-check (xp's own parser, for the CPU).
    #[error("kernel {kernel}: line {line}: {msg}")]
    KernelSource {
        /// the kernel's name
        kernel: String,
        /// the line in the body (1-based)
        line: usize,
        /// what was wrong
        msg: String,
    },
    /// NVRTC refused a kernel's source: its log, with lines of the kernel's body.
    #[error("kernel {kernel}: NVRTC failed to compile it:\n{log}")]
    KernelCompile {
        /// the kernel's name
        kernel: String,
        /// NVRTC's log
        log: String,
    },
    /// A kernel body outside what a backend can run (the CPU runs the expression subset).
    #[error("kernel {kernel} cannot run on the {backend} backend: {reason}")]
    KernelUnsupported {
        /// the kernel's name
        kernel: String,
        /// the backend
        backend: &'static str,
        /// which construct, and where
        reason: String,
    },
    /// A kernel called with the wrong arguments: their number, a dtype, an unresolved type.
    #[error("kernel {kernel}: {msg}")]
    KernelArgs {
        /// the kernel's name
        kernel: String,
        /// what was wrong
        msg: String,
    },
    /// A launch configuration the device refuses (grid, block or shared memory too large).
    #[error("kernel {kernel}: launch refused: {msg}")]
    Launch {
        /// the kernel's name
        kernel: String,
        /// what the device refused
        msg: String,
    },
    /// An operation that cannot be recorded into a CUDA graph, called during capture.
    #[error("{op} cannot run while a CUDA graph is being captured ({why})")]
    NotCapturable {
        /// the operation
        op: &'static str,
        /// why: it waits for the device or reads data on the host
        why: &'static str,
    },
    /// An error from the CUDA driver, NVRTC or a CUDA library.
    #[error("CUDA: {0}")]
    Cuda(String),
    /// A distributed operation failed (`xp::dist`): a rank that never arrived, ranks that
    /// disagree, NCCL missing or failing.
    #[error("{op}: {kind}")]
    Dist {
        /// the operation
        op: &'static str,
        /// what went wrong
        kind: DistKind,
    },
}

impl Error {
    /// Shorthand for [`Error::InvalidArgument`].
    pub fn invalid(op: &'static str, msg: impl Into<String>) -> Self {
        Error::InvalidArgument { op, msg: msg.into() }
    }
    /// The same error reported under the name `op` (a routine built on another, such as `inv`
    /// on `solve`, reports its own name). Errors without an operation name are unchanged.
    pub fn in_op(self, op: &'static str) -> Self {
        match self {
            Error::LinAlg { kind, .. } => Error::LinAlg { op, kind },
            Error::InvalidDType { dtype, .. } => Error::InvalidDType { op, dtype },
            Error::FeatureDisabled { backend, feature, .. } => Error::FeatureDisabled { op, backend, feature },
            Error::ShapeMismatch { lhs, rhs, .. } => Error::ShapeMismatch { op, lhs, rhs },
            Error::NotAligned { lhs, rhs, lhs_axis, lhs_size, rhs_axis, rhs_size, .. } => {
                Error::NotAligned { op, lhs, rhs, lhs_axis, lhs_size, rhs_axis, rhs_size }
            }
            e => e,
        }
    }
}
