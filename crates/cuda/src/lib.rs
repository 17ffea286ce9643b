//! xp-cuda: the CUDA backend of xp.
//!
//! This crate loads the CUDA driver at run time through cudarc, so that it builds without a CUDA
//! toolkit and a binary that contains it still runs on a machine without a GPU: every entry point
//! first probes for the driver library ([`cudarc::driver::sys::is_culib_present`]) and answers
//! `false`, `0` or a typed error instead of cudarc's panic.
//!
//! Today it finds devices; the kernels, the memory pool and the streams arrive with the CUDA
//! backend issue, and until then every array operation on a CUDA storage answers
//! [`Error::Unsupported`].
//!
//! ```
//! // On a machine without a driver this prints 0 and never panics.
//! println!("{} CUDA devices", xp_cuda::device_count());
//! ```
#![warn(missing_docs)]

use xp_core::{
    ArgReduceOp, BackendDevice, BackendStorage, BinaryOp, DType, Device, Error, HostBuffer, Layout, Result, Scalar,
    UnaryOp,
};

fn driver_present() -> bool {
    // SAFETY: the probe only tries to open the driver library and reports whether it could; it
    // touches no CUDA state.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// Number of CUDA devices (0 when there is no driver or no device). Never panics.
pub fn device_count() -> usize {
    if !driver_present() {
        return 0;
    }
    cudarc::driver::result::init()
        .and_then(|_| cudarc::driver::result::device::get_count())
        .map_or(0, |n| n.max(0) as usize)
}

/// True when at least one CUDA device can be used.
pub fn is_available() -> bool {
    device_count() > 0
}

/// One CUDA device.
#[derive(Clone, Debug)]
pub struct CudaDevice {
    ordinal: usize,
}

impl CudaDevice {
    /// The device with this ordinal, or a typed error when there is no driver or no such device.
    pub fn new(ordinal: usize) -> Result<CudaDevice> {
        if !driver_present() {
            return Err(Error::NoCuda("the CUDA driver library (libcuda) was not found".into()));
        }
        let n = device_count();
        if ordinal >= n {
            return Err(Error::NoCuda(format!("device ordinal {ordinal} requested, {n} CUDA device(s) present")));
        }
        Ok(CudaDevice { ordinal })
    }
}

/// A buffer in the memory of one CUDA device.
#[derive(Debug)]
pub struct CudaStorage {
    device: Device,
    dtype: DType,
    len: usize,
}

fn pending<T>(op: &'static str) -> Result<T> {
    Err(Error::Unsupported { op, backend: "cuda" })
}

impl BackendStorage for CudaStorage {
    const NAME: &'static str = "cuda";
    fn device(&self) -> Device {
        self.device
    }
    fn dtype(&self) -> DType {
        self.dtype
    }
    fn len(&self) -> usize {
        self.len
    }
    fn to_host(&self, _: &Layout) -> Result<HostBuffer> {
        pending("to_host")
    }
    fn unary(&self, _: &Layout, op: UnaryOp) -> Result<Self> {
        pending(op.name())
    }
    fn binary(&self, _: &Layout, _: &Self, _: &Layout, op: BinaryOp) -> Result<Self> {
        pending(op.name())
    }
    fn where_cond(&self, _: &Layout, _: &Self, _: &Layout, _: &Self, _: &Layout) -> Result<Self> {
        pending("where")
    }
    fn cast(&self, _: &Layout, _: DType) -> Result<Self> {
        pending("astype")
    }
    fn copy_into(&self, _: &Layout, _: &mut Self, _: &Layout) -> Result<()> {
        pending("copyto")
    }
    fn reduce(&self, _: &Layout, op: BinaryOp, _: &[usize]) -> Result<Self> {
        pending(op.name())
    }
    fn arg_reduce(&self, _: &Layout, op: ArgReduceOp, _: usize) -> Result<Self> {
        pending(op.name())
    }
    fn scan(&self, _: &Layout, op: BinaryOp, _: usize) -> Result<Self> {
        pending(op.name())
    }
    fn take(&self, _: &Layout, _: usize, _: &[usize]) -> Result<Self> {
        pending("take")
    }
}

impl BackendDevice for CudaDevice {
    type Storage = CudaStorage;
    fn device(&self) -> Device {
        Device::Cuda(self.ordinal)
    }
    fn upload(&self, _: HostBuffer) -> Result<CudaStorage> {
        pending("from_host")
    }
    fn full(&self, _: usize, _: Scalar, _: DType) -> Result<CudaStorage> {
        pending("full")
    }
    fn affine(&self, _: usize, _: Scalar, _: Scalar, _: DType) -> Result<CudaStorage> {
        pending("arange")
    }
}
