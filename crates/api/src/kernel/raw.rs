//! [`RawModule`] and [`RawKernel`]: CUDA C source, compiled by NVRTC (through xp's kernel cache)
//! for each device on first use, launched by hand on the current stream. GPU only: a build
//! without the `cuda` feature answers [`Error::CudaNotCompiled`], and CPU arrays as arguments
//! are a [`Error::DeviceMismatch`].
use crate::Array;
use std::sync::Arc;
#[cfg(not(xp_cuda))]
use xp_core::Error;
use xp_core::{Device, Result};

/// A grid or block shape: `n`, `(x, y)` or `(x, y, z)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim3(pub u32, pub u32, pub u32);

impl From<u32> for Dim3 {
    fn from(x: u32) -> Dim3 {
        Dim3(x, 1, 1)
    }
}
impl From<(u32, u32)> for Dim3 {
    fn from((x, y): (u32, u32)) -> Dim3 {
        Dim3(x, y, 1)
    }
}
impl From<(u32, u32, u32)> for Dim3 {
    fn from((x, y, z): (u32, u32, u32)) -> Dim3 {
        Dim3(x, y, z)
    }
}

/// An argument of a raw launch: an array (its data pointer, at the view's first element) or a
/// value passed by value (its C type is the Rust type's: `i32` → `int`, `f32` → `float`, ...).
#[derive(Clone, Debug)]
pub enum KernelParam<'a> {
    /// a device array
    Array(&'a Array),
    /// a value's bytes
    Value(Vec<u8>),
}

impl<'a> From<&'a Array> for KernelParam<'a> {
    fn from(a: &'a Array) -> Self {
        KernelParam::Array(a)
    }
}

macro_rules! param_from {
    ($($t:ty),*) => {$(
        impl From<$t> for KernelParam<'_> {
            fn from(v: $t) -> Self {
                KernelParam::Value(v.to_le_bytes().to_vec())
            }
        }
    )*};
}
param_from!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

impl From<bool> for KernelParam<'_> {
    fn from(v: bool) -> Self {
        KernelParam::Value(vec![v as u8])
    }
}

/// CUDA C source compiled as one module (CuPy's `RawModule`): kernels by name (or by a
/// template instantiation listed in `name_expressions`), globals by name.
///
/// ```
/// let m = xp::kernel::RawModule::new(
///     r#"extern "C" __global__ void fill(float* x, float v, int n) {
///            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = v; }
///        template <class T> __global__ void twice(T* x, int n) {
///            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }"#,
///     &[],
///     &["twice<float>"],
/// );
/// if xp::cuda::is_available() {
///     let x = xp::on(xp::Device::Cuda(0)).zeros(&[100], xp::DType::F32).unwrap();
///     m.get_function("fill").launch(1u32, 128u32, &[(&x).into(), 1.5f32.into(), 100i32.into()]).unwrap();
///     m.get_function("twice<float>").launch(1u32, 128u32, &[(&x).into(), 100i32.into()]).unwrap();
///     assert_eq!(x.to_vec::<f32>().unwrap(), vec![3.0; 100]);
/// }
/// ```
#[derive(Clone, Debug)]
pub struct RawModule {
    #[cfg(xp_cuda)]
    inner: Arc<xp_cuda::RawModule>,
    #[cfg(not(xp_cuda))]
    inner: Arc<()>,
}

impl RawModule {
    /// A module of `code` compiled with NVRTC `options` (such as `-DN=4`); `name_expressions`
    /// name the template instantiations to make (`"twice<float>"`).
    pub fn new(code: &str, options: &[&str], name_expressions: &[&str]) -> RawModule {
        #[cfg(xp_cuda)]
        let inner = Arc::new(xp_cuda::RawModule::new(code, options, name_expressions));
        #[cfg(not(xp_cuda))]
        let inner = {
            let _ = (code, options, name_expressions);
            Arc::new(())
        };
        RawModule { inner }
    }
    /// The kernel `name` (a function name, or one of the name expressions).
    pub fn get_function(&self, name: &str) -> RawKernel {
        RawKernel { module: self.clone(), name: name.to_string() }
    }
    /// Compile for `device` now, and check that kernel `name` exists there.
    pub fn check_function(&self, device: Device, name: &str) -> Result<()> {
        #[cfg(xp_cuda)]
        return self.inner.has_function(gpu(device)?, name);
        #[cfg(not(xp_cuda))]
        {
            let _ = (device, name);
            Err(Error::CudaNotCompiled)
        }
    }
    /// The global variable `name` on `device`: its address and size in bytes. Write it with
    /// [`RawModule::set_global`].
    pub fn get_global(&self, device: Device, name: &str) -> Result<(u64, usize)> {
        #[cfg(xp_cuda)]
        return self.inner.global(gpu(device)?, name);
        #[cfg(not(xp_cuda))]
        {
            let _ = (device, name);
            Err(Error::CudaNotCompiled)
        }
    }
    /// Copy `value` (its elements, in order) into the global variable `name` on `value`'s GPU;
    /// its byte size must match the global's.
    pub fn set_global(&self, name: &str, value: &Array) -> Result<()> {
        #[cfg(xp_cuda)]
        {
            use crate::backend::Storage;
            gpu(value.device())?;
            let c = value.ascontiguousarray()?;
            let bytes = c.size() * c.dtype().size();
            let g = c.read();
            let Storage::Cuda(s) = &*g else { unreachable!("a GPU array") };
            self.inner.write_global(name, s, c.layout.offset(), bytes)
        }
        #[cfg(not(xp_cuda))]
        {
            let _ = (name, value);
            Err(Error::CudaNotCompiled)
        }
    }
}

#[cfg(xp_cuda)]
fn gpu(device: Device) -> Result<usize> {
    match device {
        Device::Cuda(i) => Ok(i),
        d => Err(xp_core::Error::DeviceMismatch { op: "RawModule", lhs: Device::Cuda(0), rhs: d }),
    }
}

/// One kernel of CUDA C source (CuPy's `RawKernel`).
///
/// ```
/// let saxpy = xp::kernel::RawKernel::new(
///     r#"extern "C" __global__ void saxpy(float a, const float* x, const float* y, float* z, int n) {
///            int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) z[i] = a * x[i] + y[i]; }"#,
///     "saxpy",
///     &[],
/// );
/// if xp::cuda::is_available() {
///     let g = xp::on(xp::Device::Cuda(0));
///     let x = g.arange(0.0, 1000.0, 1.0, Some(xp::DType::F32)).unwrap();
///     let y = g.ones(&[1000], xp::DType::F32).unwrap();
///     let z = g.empty(&[1000], xp::DType::F32).unwrap();
///     saxpy.launch(4u32, 256u32, &[2.0f32.into(), (&x).into(), (&y).into(), (&z).into(), 1000i32.into()]).unwrap();
///     assert_eq!(z.to_vec::<f32>().unwrap()[999], 1999.0);
/// }
/// ```
#[derive(Clone, Debug)]
pub struct RawKernel {
    module: RawModule,
    name: String,
}

impl RawKernel {
    /// The kernel `name` of `code`, compiled with NVRTC `options` on first launch.
    pub fn new(code: &str, name: &str, options: &[&str]) -> RawKernel {
        RawModule::new(code, options, &[]).get_function(name)
    }
    /// Launch with `grid` blocks of `block` threads on the current stream of the arrays' GPU
    /// (GPU 0 when no argument is an array).
    pub fn launch(&self, grid: impl Into<Dim3>, block: impl Into<Dim3>, args: &[KernelParam]) -> Result<()> {
        self.launch_shared(grid, block, 0, args)
    }
    /// [`RawKernel::launch`] with `shared_mem` bytes of dynamic shared memory.
    pub fn launch_shared(
        &self,
        grid: impl Into<Dim3>,
        block: impl Into<Dim3>,
        shared_mem: u32,
        args: &[KernelParam],
    ) -> Result<()> {
        let (g, b) = (grid.into(), block.into());
        let arrays: Vec<&Array> =
            args.iter().filter_map(|a| if let KernelParam::Array(x) = a { Some(*x) } else { None }).collect();
        let device = arrays.first().map_or(Device::Cuda(0), |a| a.device());
        if let Some(a) = arrays.iter().find(|a| a.device() != device || !matches!(a.device(), Device::Cuda(_))) {
            return Err(xp_core::Error::DeviceMismatch { op: "RawKernel launch", lhs: device, rhs: a.device() });
        }
        #[cfg(xp_cuda)]
        {
            use crate::backend::Storage;
            let ordinal = gpu(device)?;
            let reads = crate::backend::Reads::lock(&arrays);
            let mut k = 0;
            let mut raw = Vec::new();
            for a in args {
                match a {
                    KernelParam::Array(x) => {
                        let Storage::Cuda(s) = reads.get(k) else {
                            return Err(xp_core::Error::DeviceMismatch {
                                op: "RawKernel launch",
                                lhs: device,
                                rhs: x.device(),
                            });
                        };
                        raw.push(xp_cuda::RawArg::Buffer(s, x.layout.offset()));
                        k += 1;
                    }
                    KernelParam::Value(v) => raw.push(xp_cuda::RawArg::Value(v.clone())),
                }
            }
            self.module.inner.launch(ordinal, &self.name, (g.0, g.1, g.2), (b.0, b.1, b.2), shared_mem, &raw)
        }
        #[cfg(not(xp_cuda))]
        {
            let _ = (g, b, shared_mem, &self.module.inner, &self.name);
            Err(Error::CudaNotCompiled)
        }
    }
}
