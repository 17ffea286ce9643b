//! xp-cuda: the CUDA backend of xp.
//!
//! The driver, NVRTC and the CUDA libraries are loaded at run time through cudarc, so that this
//! crate builds without a CUDA toolkit and a binary that contains it still runs on a machine
//! without a GPU: every entry point first probes for the driver library
//! ([`cudarc::driver::sys::is_culib_present`]) and answers `false`, `0` or a typed error, never
//! cudarc's panic.
//!
//! Kernels are CUDA C generated from templates per op family (see `codegen.rs` and the prelude in
//! `kernels/prelude.cu`), compiled by NVRTC to a cubin for the device's own architecture and
//! cached in memory per device and on disk (see [`kernels_compiled`]).
//!
//! ```
//! // On a machine without a driver this prints 0 and never panics.
//! println!("{} CUDA devices", xp_cuda::device_count());
//! ```
#![warn(missing_docs)]

mod codegen;
mod device;
pub mod fft;
mod filter;
mod graph;
mod index;
mod label;
pub mod linalg;
pub mod memory;
mod nvrtc;
mod properties;
mod random;
mod raw;
mod recursive;
mod reduce;
mod sort;
mod stats;
mod storage;
mod stream;
mod transfer;
mod ukernel;

pub use graph::Graph;
pub use nvrtc::{kernels_compiled, kernels_compiled_on_this_thread};
pub use properties::{mem_info, properties};
pub use raw::{RawArg, RawModule};
pub use storage::CudaStorage;
pub use stream::{Event, Stream, StreamGuard};
pub use transfer::Pinned;

use std::sync::Arc;
use xp_core::{BackendDevice, DType, Device, Error, HostBuffer, Result, Scalar};

fn driver_present() -> bool {
    // SAFETY: the probe only tries to open the driver library and reports whether it could; it
    // touches no CUDA state.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// Number of CUDA devices (0 when there is no driver or no device). Never panics. Probed once per
/// process (opening the driver library and counting devices cost microseconds, and every
/// creation on a GPU asks).
pub fn device_count() -> usize {
    static COUNT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *COUNT.get_or_init(|| {
        if !driver_present() {
            return 0;
        }
        cudarc::driver::result::init()
            .and_then(|_| cudarc::driver::result::device::get_count())
            .map_or(0, |n| n.max(0) as usize)
    })
}

/// Whether the NVRTC library can be loaded, probed once per process.
fn nvrtc_present() -> bool {
    static PRESENT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    // SAFETY: the probe only tries to open the library and reports whether it could.
    *PRESENT.get_or_init(|| unsafe { cudarc::nvrtc::sys::is_culib_present() })
}

/// True when at least one CUDA device can be used.
pub fn is_available() -> bool {
    device_count() > 0
}

/// One CUDA device.
#[derive(Clone, Debug)]
pub struct CudaDevice {
    dev: Arc<device::Dev>,
}

impl CudaDevice {
    /// The device with this ordinal, or a typed error when there is no driver, no NVRTC or no such
    /// device.
    pub fn new(ordinal: usize) -> Result<CudaDevice> {
        let n = device_count();
        if n == 0 && !driver_present() {
            return Err(Error::NoCuda("the CUDA driver library (libcuda) was not found".into()));
        }
        if ordinal >= n {
            return Err(Error::NoCuda(format!("device ordinal {ordinal} requested, {n} CUDA device(s) present")));
        }
        if !nvrtc_present() {
            return Err(Error::NoCuda("the NVRTC library was not found; xp compiles its kernels with it".into()));
        }
        Ok(CudaDevice { dev: device::get(ordinal)? })
    }
    pub(crate) fn of(dev: &Arc<device::Dev>) -> CudaDevice {
        CudaDevice { dev: dev.clone() }
    }
    /// Wait until all work queued on this device, on every stream, has finished.
    pub fn synchronize(&self) -> Result<()> {
        graph::capturable(self.dev.ordinal, "synchronize", "it waits for the device")?;
        self.dev.ctx.synchronize().map_err(device::driver_err)
    }
}

/// The floor under any per-op time on device `ordinal`: `n` launches of an empty kernel back to
/// back on the current stream, in microseconds per launch, as (host time to enqueue them, time
/// until all have run). xp's small-op figures are judged against it.
pub fn launch_floor_us(ordinal: usize, n: usize) -> Result<(f64, f64)> {
    let dev = CudaDevice::new(ordinal)?.dev;
    let (f, _) = dev.kernel(device::Key::new(15), "xp_k", || "extern \"C\" __global__ void xp_k() {}\n".into())?;
    let s = dev.current();
    s.synchronize().map_err(device::driver_err)?;
    dev.bind()?;
    let t = std::time::Instant::now();
    for _ in 0..n {
        // SAFETY: an empty kernel without parameters.
        unsafe {
            cudarc::driver::result::launch_kernel(f.cu_function(), (1, 1, 1), (32, 1, 1), 0, s.cu_stream(), &mut [])
        }
        .map_err(device::driver_err)?;
    }
    let issue = t.elapsed().as_secs_f64();
    s.synchronize().map_err(device::driver_err)?;
    let total = t.elapsed().as_secs_f64();
    let per = |x: f64| x * 1e6 / n.max(1) as f64;
    Ok((per(issue), per(total)))
}

impl BackendDevice for CudaDevice {
    type Storage = CudaStorage;
    fn device(&self) -> Device {
        Device::Cuda(self.dev.ordinal)
    }
    fn upload(&self, buf: HostBuffer) -> Result<CudaStorage> {
        CudaStorage::upload(&self.dev, &buf)
    }
    fn full(&self, n: usize, value: Scalar, dtype: DType) -> Result<CudaStorage> {
        // A fill kernel with the value as a parameter: no host copy (so it can be captured).
        ukernel::fill(&self.dev, n, value, dtype)
    }
    fn affine(&self, n: usize, start: Scalar, step: Scalar, dtype: DType) -> Result<CudaStorage> {
        // On the device with the host's arithmetic; the rare mixed cases are made on the host.
        match ukernel::affine(&self.dev, n, start, step, dtype)? {
            Some(s) => Ok(s),
            None => CudaStorage::upload(&self.dev, &HostBuffer::affine(n, start, step, dtype)),
        }
    }
}
