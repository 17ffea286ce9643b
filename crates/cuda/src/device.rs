//! CUDA devices: one context and stream per device (shared by every array on it), its
//! architecture, and the per-device cache of loaded kernels.
use crate::nvrtc;
use cudarc::driver::{CudaContext, CudaFunction, CudaStream};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use xp_core::{Error, Result};

/// A device's shared state.
pub struct Dev {
    pub(crate) ordinal: usize,
    pub(crate) ctx: Arc<CudaContext>,
    pub(crate) stream: Arc<CudaStream>,
    pub(crate) arch: &'static str,
    kernels: Mutex<HashMap<u64, CudaFunction>>,
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
    // One stream per device and ordered use of buffers: cudarc's per-buffer events are not needed.
    // SAFETY: no buffer is used on another stream without an explicit event (xp records its own).
    unsafe { ctx.disable_event_tracking() };
    let (ma, mi) = ctx.compute_capability().map_err(driver_err)?;
    let arch: &'static str = Box::leak(format!("sm_{ma}{mi}").into_boxed_str());
    let stream = ctx.default_stream();
    let d = Arc::new(Dev { ordinal, ctx, stream, arch, kernels: Mutex::new(HashMap::new()) });
    map.insert(ordinal, d.clone());
    Ok(d)
}

impl Dev {
    /// The kernel `name` of `src`, compiled (or read from the disk cache) and loaded once.
    pub(crate) fn kernel(&self, src: &str, name: &str) -> Result<CudaFunction> {
        let key = nvrtc::fnv(7, src.as_bytes()) ^ nvrtc::fnv(8, name.as_bytes()).rotate_left(1);
        if let Some(f) = self.kernels.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(f.clone());
        }
        let bin = nvrtc::cubin(src, self.arch)?;
        let module = self.ctx.load_module(cudarc::nvrtc::Ptx::from_binary(bin)).map_err(driver_err)?;
        let f = module.load_function(name).map_err(driver_err)?;
        self.kernels.lock().unwrap_or_else(|e| e.into_inner()).insert(key, f.clone());
        Ok(f)
    }
}
