//! cuBLAS and cuSOLVER handles: one of each per (thread, device), created on first use, bound to
//! the calling thread's current stream before each call (the stream is only re-set when it
//! changed), destroyed when the thread ends. And the TF32 switch for float32 GEMM.
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::Dev;
use cudarc::cublas::sys as blas;
use cudarc::cusolver::sys as solver;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use xp_core::{DType, Error, Result};

/// 0: not read yet from `XP_ALLOW_TF32`, 1: off, 2: on.
static TF32: AtomicU8 = AtomicU8::new(0);

/// Whether float32 matrix products may use TF32 tensor cores (10-bit mantissa products, about
/// 3 decimal digits: not NumPy's accuracy). Off unless `XP_ALLOW_TF32=1` is set or
/// [`set_allow_tf32`] turned it on.
pub fn allow_tf32() -> bool {
    match TF32.load(Ordering::Relaxed) {
        0 => {
            let on = std::env::var("XP_ALLOW_TF32").is_ok_and(|v| v == "1");
            TF32.store(if on { 2 } else { 1 }, Ordering::Relaxed);
            on
        }
        v => v == 2,
    }
}

/// Allow (or forbid) TF32 tensor cores in float32 matrix products, for this process.
pub fn set_allow_tf32(on: bool) {
    TF32.store(if on { 2 } else { 1 }, Ordering::Relaxed);
}

pub(crate) fn blas_err(what: &str, e: cudarc::cublas::result::CublasError) -> Error {
    Error::Cuda(format!("cuBLAS {what}: {:?}", e.0))
}

pub(crate) fn solver_err(what: &str, e: cudarc::cusolver::result::CusolverError) -> Error {
    Error::Cuda(format!("cuSOLVER {what}: {:?}", e.0))
}

/// The handles of one thread on one device, the streams they are bound to, and cuBLAS's
/// workspace for each stream it has run on.
#[derive(Default)]
struct Handles {
    blas: Option<(blas::cublasHandle_t, usize)>,
    solver: Option<(solver::cusolverDnHandle_t, solver::cusolverDnParams_t, usize)>,
    workspaces: HashMap<usize, CudaStorage>,
}

/// cuBLAS's workspace per stream, of the size NVIDIA recommends for Hopper (32 MiB); without
/// one, cuBLAS 12.2+ takes a workspace from the driver's pool at each call that needs one.
const WORKSPACE: usize = 32 << 20;

impl Drop for Handles {
    fn drop(&mut self) {
        // SAFETY: the handles were created by this thread and are used by nothing else; errors at
        // teardown (the context already gone) are ignored.
        unsafe {
            if let Some((h, _)) = self.blas {
                let _ = cudarc::cublas::result::destroy_handle(h);
            }
            if let Some((h, p, _)) = self.solver {
                let _ = cudarc::cusolver::result::dn_destroy_params(p);
                let _ = cudarc::cusolver::result::dn_destroy(h);
            }
        }
    }
}

thread_local! {
    static HANDLES: RefCell<HashMap<usize, Handles>> = RefCell::new(HashMap::new());
}

fn missing(lib: &str) -> Error {
    Error::NoCuda(format!("the {lib} library was not found; xp's linear algebra on the GPU needs it"))
}

/// This thread's cuBLAS handle on `dev`, bound to its current stream.
pub(crate) fn cublas(dev: &Arc<Dev>) -> Result<blas::cublasHandle_t> {
    let stream = dev.current().cu_stream() as usize;
    // The libraries run on the calling thread's current context: make it this device's.
    dev.bind()?;
    HANDLES.with(|m| {
        let mut m = m.borrow_mut();
        let h = m.entry(dev.ordinal).or_insert_with(Handles::default);
        if h.blas.is_none() {
            // SAFETY: only probes for the library file.
            if !unsafe { blas::is_culib_present() } {
                return Err(missing("cuBLAS"));
            }
            let handle = cudarc::cublas::result::create_handle().map_err(|e| blas_err("create", e))?;
            h.blas = Some((handle, usize::MAX));
        }
        let (handle, bound) = h.blas.as_mut().expect("created");
        if *bound != stream {
            // SAFETY: a live handle and a live stream of this device.
            unsafe { cudarc::cublas::result::set_stream(*handle, stream as blas::cudaStream_t) }
                .map_err(|e| blas_err("set stream", e))?;
            // Setting the stream resets the workspace: give the handle this stream's own, and
            // let go of the workspaces of streams nothing else holds (each kept its stream, and
            // 32 MiB, alive: a loop making a stream per GEMM grew without bound)
            h.workspaces.retain(|&k, ws| k == stream || !crate::runtime::memory::unheld(dev, &ws.buf.stream));
            let ws = match h.workspaces.entry(stream) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(CudaStorage::alloc(dev, DType::U8, WORKSPACE)?)
                }
            };
            // SAFETY: a live handle; the block holds WORKSPACE bytes and lives as long as the
            // handle (both dropped with this thread's Handles), used only on this stream.
            unsafe { blas::cublasSetWorkspace_v2(*handle, ws.ptr(0) as *mut std::ffi::c_void, WORKSPACE) }
                .result()
                .map_err(|e| blas_err("set workspace", e))?;
            *bound = stream;
        }
        Ok(*handle)
    })
}

/// This thread's cuSOLVER dense handle and its 64-bit API parameters on `dev`, bound to its
/// current stream.
pub(crate) fn cusolver(dev: &Dev) -> Result<(solver::cusolverDnHandle_t, solver::cusolverDnParams_t)> {
    let stream = dev.current().cu_stream() as usize;
    dev.bind()?;
    HANDLES.with(|m| {
        let mut m = m.borrow_mut();
        let h = m.entry(dev.ordinal).or_insert_with(Handles::default);
        if h.solver.is_none() {
            // SAFETY: only probes for the library files (cuSOLVER loads cuBLAS too).
            if !unsafe { solver::is_culib_present() && blas::is_culib_present() } {
                return Err(missing("cuSOLVER"));
            }
            let handle = cudarc::cusolver::result::dn_create().map_err(|e| solver_err("create", e))?;
            let params = cudarc::cusolver::result::dn_create_params().map_err(|e| solver_err("create params", e))?;
            h.solver = Some((handle, params, usize::MAX));
        }
        let (handle, params, bound) = h.solver.as_mut().expect("created");
        if *bound != stream {
            // SAFETY: a live handle and a live stream of this device.
            unsafe { cudarc::cusolver::result::dn_set_stream(*handle, stream as solver::cudaStream_t) }
                .map_err(|e| solver_err("set stream", e))?;
            *bound = stream;
        }
        Ok((*handle, *params))
    })
}
