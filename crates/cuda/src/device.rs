//! CUDA devices: one context and default stream per device, its architecture, and the per-device
//! cache of loaded kernels.
use crate::nvrtc;
use cudarc::driver::{CudaContext, CudaFunction, CudaStream};
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
    /// set once a [`crate::Stream`] exists on the device: buffers then order cross-stream uses
    pub(crate) multi: AtomicBool,
    kernels: Mutex<HashMap<String, CudaFunction>>,
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
        kernels: Mutex::new(HashMap::new()),
    });
    map.insert(ordinal, d.clone());
    Ok(d)
}

impl Dev {
    /// The calling thread's current stream on this device.
    pub(crate) fn current(&self) -> Arc<CudaStream> {
        crate::stream::current(self)
    }
    /// The kernel `name` described by `key` (a short string naming the family and everything
    /// that specialises it): looked up by `key`, so that the hot path never builds or hashes a
    /// source; on a miss `src()` generates the source, which is compiled (or read from the disk
    /// cache, keyed by the full source) and loaded once.
    pub(crate) fn kernel(&self, key: &str, name: &str, src: impl FnOnce() -> String) -> Result<CudaFunction> {
        if let Some(f) = self.kernels.lock().unwrap_or_else(|e| e.into_inner()).get(key) {
            return Ok(f.clone());
        }
        let src = src();
        let bin = nvrtc::cubin(&src, self.arch)?;
        let module = self.ctx.load_module(cudarc::nvrtc::Ptx::from_binary(bin)).map_err(driver_err)?;
        let f = module.load_function(name).map_err(driver_err)?;
        self.kernels.lock().unwrap_or_else(|e| e.into_inner()).insert(key.to_string(), f.clone());
        Ok(f)
    }
}
