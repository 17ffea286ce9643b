//! CUDA devices: one context and default stream per device, its architecture, and the per-device
//! cache of loaded kernels.
use crate::nvrtc;
use cudarc::driver::{CudaContext, CudaFunction, CudaStream};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex, OnceLock};
use xp_core::{DType, Error, Result};

/// A kernel's identity: its family and everything that specialises it, packed field by field
/// into bits (unique by construction, cheap to hash: the hot path builds no string).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Key {
    v: u128,
    pos: u32,
}

impl Key {
    /// A key of kernel family `family` (a small number per generator).
    pub(crate) fn new(family: u8) -> Key {
        Key { v: family as u128, pos: 8 }
    }
    /// Append `x`, which must fit in `n` bits.
    pub(crate) fn bits(self, n: u32, x: u64) -> Key {
        debug_assert!(n < 64 && x < 1 << n && self.pos + n <= 128, "kernel key overflow");
        Key { v: self.v | ((x as u128) << self.pos), pos: self.pos + n }
    }
    /// Append a dtype.
    pub(crate) fn dtype(self, d: DType) -> Key {
        self.bits(4, d as u64)
    }
    /// Append a flag.
    pub(crate) fn flag(self, b: bool) -> Key {
        self.bits(1, b as u64)
    }
}

/// A multiply-rotate hasher for [`Key`]s (std's SipHash costs more than the lookup it guards).
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A loaded kernel and how many of its 256-thread blocks fill the device in one wave.
type KernelMap = HashMap<Key, (CudaFunction, usize), std::hash::BuildHasherDefault<KeyHasher>>;

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
    pub(crate) cache: Mutex<crate::memory::Cache>,
    /// set once a [`crate::Stream`] exists on the device: buffers then order cross-stream uses
    pub(crate) multi: AtomicBool,
    kernels: Mutex<KernelMap>,
    /// the buffers of the live CUDA graphs of the device
    pub(crate) graphs: Mutex<Vec<std::sync::Weak<crate::graph::GraphMem>>>,
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
        kernels: Mutex::new(KernelMap::default()),
        bounce: Mutex::new(None),
        graphs: Mutex::new(Vec::new()),
    });
    crate::memory::keep_freed_memory(&d)?;
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
        crate::graph::capturable(self.ordinal, "reading a value", "it waits for the device")?;
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
        crate::stream::current(self)
    }
    /// The kernel `name` identified by `key`: looked up by `key`, so that the hot path never builds
    /// or hashes a source; on a miss `src()` generates the source, which is compiled (or read from
    /// the disk cache, keyed by the full source) and loaded once.
    /// Also returns how many 256-thread blocks of it are resident on the whole device at once.
    pub(crate) fn kernel(&self, key: Key, name: &str, src: impl FnOnce() -> String) -> Result<(CudaFunction, usize)> {
        self.kernels(key, [name], src).map(|[k]| k)
    }
    /// [`Dev::kernel`] for several kernels of one source, each cached under `key` and its index.
    pub(crate) fn kernels<const N: usize>(
        &self,
        key: Key,
        names: [&str; N],
        src: impl FnOnce() -> String,
    ) -> Result<[(CudaFunction, usize); N]> {
        let keys: [Key; N] = std::array::from_fn(|i| if N == 1 { key } else { key.bits(3, i as u64) });
        {
            let map = self.kernels.lock().unwrap_or_else(|e| e.into_inner());
            if keys.iter().all(|k| map.contains_key(k)) {
                return Ok(keys.map(|k| map[&k].clone()));
            }
        }
        let src = src();
        let bin = nvrtc::cubin(&src, self.arch)?;
        let module = self.ctx.load_module(cudarc::nvrtc::Ptx::from_binary(bin)).map_err(driver_err)?;
        let mut out = Vec::with_capacity(N);
        for name in names {
            let f = module.load_function(name).map_err(driver_err)?;
            let per_sm = f.occupancy_max_active_blocks_per_multiprocessor(256, 0, None).map_err(driver_err)?;
            out.push((f, self.sms * per_sm.max(1) as usize));
        }
        let mut map = self.kernels.lock().unwrap_or_else(|e| e.into_inner());
        for (k, f) in keys.iter().zip(&out) {
            map.insert(*k, f.clone());
        }
        Ok(out.try_into().unwrap_or_else(|_| unreachable!("one kernel per name")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_differ_when_any_field_differs() {
        let base = || Key::new(4).dtype(DType::F32).bits(7, 3).flag(true).bits(5, 4);
        let variants = [
            Key::new(5).dtype(DType::F32).bits(7, 3).flag(true).bits(5, 4),
            Key::new(4).dtype(DType::F64).bits(7, 3).flag(true).bits(5, 4),
            Key::new(4).dtype(DType::F32).bits(7, 2).flag(true).bits(5, 4),
            Key::new(4).dtype(DType::F32).bits(7, 3).flag(false).bits(5, 4),
            Key::new(4).dtype(DType::F32).bits(7, 3).flag(true).bits(5, 2),
            Key::new(4).dtype(DType::F32).bits(7, 3).flag(true),
        ];
        assert_eq!(base(), base());
        for (i, v) in variants.iter().enumerate() {
            assert_ne!(*v, base(), "variant {i}");
        }
        // Every dtype fits its field.
        for d in DType::ALL {
            assert!((d as u64) < 16, "{d}");
        }
    }
}
