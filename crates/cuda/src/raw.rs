//! Raw CUDA C modules: compiled by NVRTC for each device on first use (through the disk cache
//! unless template name expressions are asked for), functions and globals looked up by name,
//! kernels launched by hand on the current stream.
use crate::generator::params::Params;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::{driver_err, get, Dev};
use crate::runtime::launch::Kernel;
use cudarc::driver::{CudaFunction, CudaModule, LaunchConfig};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use xp_core::{Device, Error, Result};

/// An argument of a raw launch.
pub enum RawArg<'a> {
    /// the address of element `offset` of a buffer
    Buffer(&'a CudaStorage, usize),
    /// a value passed by value, as its bytes
    Value(Vec<u8>),
}

struct Loaded {
    module: Arc<CudaModule>,
    lowered: Vec<(String, String)>,
    dev: Arc<Dev>,
}

/// CUDA C source with its compile options and name expressions (CuPy's `RawModule`).
pub struct RawModule {
    code: String,
    options: Vec<String>,
    names: Vec<String>,
    loaded: Mutex<HashMap<usize, Arc<Loaded>>>,
}

impl std::fmt::Debug for RawModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RawModule({} bytes of source, options {:?}, names {:?})", self.code.len(), self.options, self.names)
    }
}

impl RawModule {
    /// A module; nothing is compiled until a device first uses it.
    pub fn new(code: &str, options: &[&str], name_expressions: &[&str]) -> RawModule {
        RawModule {
            code: code.to_string(),
            options: options.iter().map(|s| s.to_string()).collect(),
            names: name_expressions.iter().map(|s| s.to_string()).collect(),
            loaded: Mutex::new(HashMap::new()),
        }
    }
    fn load(&self, ordinal: usize) -> Result<Arc<Loaded>> {
        if let Some(l) = self.loaded.lock().unwrap_or_else(|e| e.into_inner()).get(&ordinal) {
            return Ok(l.clone());
        }
        let dev = get(ordinal)?;
        let named = |e: Error| match e {
            Error::KernelCompile { log, .. } => Error::KernelCompile { kernel: "RawModule".into(), log },
            e => e,
        };
        let (bin, lowered) = if self.names.is_empty() {
            (crate::runtime::nvrtc::cubin_with(&self.code, dev.arch, &self.options).map_err(named)?, Vec::new())
        } else {
            crate::runtime::nvrtc::cubin_named(&self.code, dev.arch, &self.options, &self.names).map_err(named)?
        };
        dev.bind()?;
        let module = dev.ctx.load_module(cudarc::nvrtc::Ptx::from_binary(bin)).map_err(driver_err)?;
        let lowered = self.names.iter().cloned().zip(lowered).collect();
        let l = Arc::new(Loaded { module, lowered, dev });
        self.loaded.lock().unwrap_or_else(|e| e.into_inner()).insert(ordinal, l.clone());
        Ok(l)
    }
    /// Compile for device `ordinal` now (otherwise the first launch does).
    pub fn compile(&self, ordinal: usize) -> Result<()> {
        self.load(ordinal).map(|_| ())
    }
    /// The symbol of `name`: its lowered name when it is a name expression.
    fn symbol<'a>(l: &'a Loaded, name: &'a str) -> &'a str {
        l.lowered.iter().find(|(n, _)| n == name).map_or(name, |(_, m)| m.as_str())
    }
    fn function(&self, l: &Loaded, name: &str) -> Result<CudaFunction> {
        l.module.load_function(Self::symbol(l, name)).map_err(|e| Error::KernelArgs {
            kernel: name.to_string(),
            msg: format!("no kernel of this name in the module ({e:?})"),
        })
    }
    /// Check that `name` is a kernel of the module on device `ordinal`.
    pub fn has_function(&self, ordinal: usize, name: &str) -> Result<()> {
        let l = self.load(ordinal)?;
        self.function(&l, name).map(|_| ())
    }
    /// The device address and size in bytes of the global (`__device__`/`__constant__`)
    /// variable `name` on device `ordinal`.
    pub fn global(&self, ordinal: usize, name: &str) -> Result<(u64, usize)> {
        let l = self.load(ordinal)?;
        let s = l.dev.current();
        let v = l.module.get_global(Self::symbol(&l, name), &s).map_err(|e| Error::KernelArgs {
            kernel: name.to_string(),
            msg: format!("no global of this name in the module ({e:?})"),
        })?;
        use cudarc::driver::DevicePtr;
        let (p, _g) = v.device_ptr(&s);
        Ok((p, v.len()))
    }
    /// Copy the `bytes` bytes of `src` from element `off` into the global `name` on `src`'s
    /// device, on the current stream (the global must hold exactly that many bytes).
    pub fn write_global(&self, name: &str, src: &CudaStorage, off: usize, bytes: usize) -> Result<()> {
        let ordinal = src.dev.ordinal;
        let (dst, size) = self.global(ordinal, name)?;
        if size != bytes {
            let msg = format!("global `{name}` has {size} bytes, the array {bytes}");
            return Err(Error::invalid("set_global", msg));
        }
        let wk = src.dev.work(&[src])?;
        let s = wk.stream();
        src.dev.bind()?;
        // SAFETY: `dst` is a global of `bytes` bytes of this module on the device, and the source
        // holds `bytes` bytes from element `off` (a contiguous array, checked by the caller).
        unsafe { cudarc::driver::result::memcpy_dtod_async(dst, src.ptr(off), bytes, s.cu_stream()) }
            .map_err(driver_err)?;
        wk.done()
    }
    /// Launch kernel `name` on the current stream of device `ordinal` with `grid` × `block`
    /// threads and `shared` bytes of dynamic shared memory. Buffers must live on that device.
    pub fn launch(
        &self,
        ordinal: usize,
        name: &str,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared: u32,
        args: &[RawArg],
    ) -> Result<()> {
        let mut p = Params::default();
        let mut bufs = Vec::new();
        for a in args {
            match a {
                RawArg::Buffer(s, off) => {
                    if s.dev.ordinal != ordinal {
                        let (lhs, rhs) = (Device::Cuda(ordinal), Device::Cuda(s.dev.ordinal));
                        return Err(Error::DeviceMismatch { op: "RawKernel launch", lhs, rhs });
                    }
                    p.ptr(s.ptr(*off));
                    bufs.push(*s);
                }
                RawArg::Value(b) => p.bytes(b),
            }
        }
        let l = self.load(ordinal)?;
        let f = self.function(&l, name)?;
        let c = LaunchConfig { grid_dim: grid, block_dim: block, shared_mem_bytes: shared };
        if shared > 48 * 1024 {
            f.set_attribute(
                cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                shared as i32,
            )
            .map_err(|e| Error::Launch {
                kernel: name.to_string(),
                msg: format!("{shared} bytes of shared memory: {e:?}"),
            })?;
        }
        let k = Kernel { f, fill: 0, name: name.into() };
        p.launch(&l.dev, &k, c, &bufs)
    }
}
