//! CUDA devices: one context and default stream per device, its architecture, and the per-device
//! cache of loaded kernels; [`CudaDevice`], the handle users hold, and the probes for a driver.
use super::launch::{Family, Key, Source};
use cudarc::driver::{CudaContext, CudaStream};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex, OnceLock};
use xp_core::{Error, Result};

/// A device's shared state.
pub struct Dev {
    pub(crate) ordinal: usize,
    pub(crate) ctx: Arc<CudaContext>,
    pub(crate) stream: Arc<CudaStream>,
    pub(crate) arch: &'static str,
    /// streaming multiprocessors: how many blocks fill the device
    pub(crate) sms: usize,
    /// bytes held by xp arrays, and the most they may hold
    pub(crate) used: AtomicUsize,
    pub(crate) limit: AtomicUsize,
    /// freed small blocks, per stream
    pub(crate) cache: Mutex<crate::runtime::memory::Cache>,
    /// set once a [`crate::Stream`] exists on the device: buffers then order cross-stream uses
    pub(crate) multi: AtomicBool,
    pub(crate) kernels: Mutex<super::launch::KernelMap>,
    /// the buffers of the live CUDA graphs of the device
    pub(crate) graphs: Mutex<Vec<std::sync::Weak<crate::runtime::graph::GraphMem>>>,
    /// page-locked bytes for the small reads that calls wait on (a count, a flag, a scalar):
    /// a copy into pageable memory is staged by the driver and takes several microseconds more
    bounce: Mutex<Option<cudarc::driver::PinnedHostSlice<u8>>>,
}

impl std::fmt::Debug for Dev {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cuda:{} ({})", self.ordinal, self.arch)
    }
}

static DEVICES: OnceLock<Mutex<HashMap<usize, Arc<Dev>>>> = OnceLock::new();

pub(crate) fn driver_err(e: cudarc::driver::DriverError) -> Error {
    Error::Cuda(e.to_string())
}

/// The shared state of device `ordinal`, created on first use.
pub(crate) fn get(ordinal: usize) -> Result<Arc<Dev>> {
    let mut map = DEVICES.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(d) = map.get(&ordinal) {
        return Ok(d.clone());
    }
    let ctx = CudaContext::new(ordinal).map_err(driver_err)?;
    // xp orders cross-stream uses of its buffers itself (`stream::Uses`), and only once several
    // streams are in play: cudarc's per-buffer events are not needed.
    // SAFETY: no buffer is used on another stream without xp's own events.
    unsafe { ctx.disable_event_tracking() };
    let (ma, mi) = ctx.compute_capability().map_err(driver_err)?;
    let arch: &'static str = Box::leak(format!("sm_{ma}{mi}").into_boxed_str());
    let stream = ctx.default_stream();
    let sms = ctx
        .attribute(cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
        .map_err(driver_err)?
        .max(1) as usize;
    let d = Arc::new(Dev {
        ordinal,
        ctx,
        stream,
        arch,
        sms,
        used: AtomicUsize::new(0),
        limit: AtomicUsize::new(usize::MAX),
        multi: AtomicBool::new(false),
        cache: Mutex::new(Default::default()),
        kernels: Mutex::new(Default::default()),
        bounce: Mutex::new(None),
        graphs: Mutex::new(Vec::new()),
    });
    crate::runtime::memory::keep_freed_memory(&d)?;
    map.insert(ordinal, d.clone());
    Ok(d)
}

/// A numeric tuning knob of the environment (`XP_SORT_ITEMS`, ...), read once per process into
/// `cell`: None when unset or not a number.
pub(crate) fn knob(cell: &'static OnceLock<Option<usize>>, name: &str) -> Option<usize> {
    *cell.get_or_init(|| std::env::var(name).ok().and_then(|v| v.parse().ok()))
}

/// Reads of at most this many bytes go through the device's pinned bounce buffer.
pub(crate) const SMALL_READ: usize = 256;

impl Dev {
    /// Copy `dst.len()` (at most [`SMALL_READ`]) bytes from device address `src` into `dst`,
    /// after the work queued on `s`: through page-locked memory, then a wait for `s`.
    pub(crate) fn read_small(&self, s: &CudaStream, src: u64, dst: &mut [u8]) -> Result<()> {
        debug_assert!(dst.len() <= SMALL_READ);
        crate::runtime::graph::capturable(self.ordinal, "reading a value", "it waits for the device")?;
        let mut slot = self.bounce.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            // SAFETY: the bytes are written by the copy below before they are read.
            *slot = Some(unsafe { self.ctx.alloc_pinned::<u8>(SMALL_READ) }.map_err(driver_err)?);
        }
        let buf = slot.as_mut().expect("allocated above");
        let p = buf.as_mut_ptr().map_err(driver_err)?;
        self.bind()?;
        // SAFETY: the pinned block holds SMALL_READ >= dst.len() bytes and is only used under the
        // lock, which is held until the stream has finished the copy.
        unsafe {
            cudarc::driver::result::memcpy_dtoh_async(std::slice::from_raw_parts_mut(p, dst.len()), src, s.cu_stream())
        }
        .map_err(driver_err)?;
        s.synchronize().map_err(driver_err)?;
        // SAFETY: the copy has completed; `p` holds dst.len() bytes.
        dst.copy_from_slice(unsafe { std::slice::from_raw_parts(p, dst.len()) });
        Ok(())
    }
    /// Make this device's context the calling thread's current one (raw driver calls need it).
    pub(crate) fn bind(&self) -> Result<()> {
        self.ctx.bind_to_thread().map_err(driver_err)
    }
    /// The calling thread's current stream on this device.
    pub(crate) fn current(&self) -> Arc<CudaStream> {
        crate::runtime::stream::current(self)
    }
}

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
    pub(crate) dev: Arc<Dev>,
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
        Ok(CudaDevice { dev: get(ordinal)? })
    }
    pub(crate) fn of(dev: &Arc<Dev>) -> CudaDevice {
        CudaDevice { dev: dev.clone() }
    }
    /// Wait until all work queued on this device, on every stream, has finished.
    pub fn synchronize(&self) -> Result<()> {
        super::graph::capturable(self.dev.ordinal, "synchronize", "it waits for the device")?;
        self.dev.ctx.synchronize().map_err(driver_err)
    }
}

/// The floor under any per-op time on device `ordinal`: `n` launches of an empty kernel back to
/// back on the current stream, in microseconds per launch, as (host time to enqueue them, time
/// until all have run). xp's small-op figures are judged against it.
pub fn launch_floor_us(ordinal: usize, n: usize) -> Result<(f64, f64)> {
    let dev = CudaDevice::new(ordinal)?.dev;
    let k = dev.kernel(Key::new(Family::Empty), "empty", || {
        Source::new("", "extern \"C\" __global__ void XP_NAME(empty)() {}\n".into())
    })?;
    let s = dev.current();
    s.synchronize().map_err(driver_err)?;
    dev.bind()?;
    let t = std::time::Instant::now();
    for _ in 0..n {
        // SAFETY: an empty kernel without parameters.
        unsafe {
            cudarc::driver::result::launch_kernel(k.f.cu_function(), (1, 1, 1), (32, 1, 1), 0, s.cu_stream(), &mut [])
        }
        .map_err(driver_err)?;
    }
    let issue = t.elapsed().as_secs_f64();
    s.synchronize().map_err(driver_err)?;
    let total = t.elapsed().as_secs_f64();
    let per = |x: f64| x * 1e6 / n.max(1) as f64;
    Ok((per(issue), per(total)))
}
