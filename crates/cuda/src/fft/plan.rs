//! cuFFT plans: 64-bit advanced-layout plans (`cufftMakePlanMany64`: strides, distances and
//! batches of any size), made without their own work area (xp's pool lends one per execution),
//! kept per device in an LRU cache that `xp::fft::plan_cache` reports (CuPy's `PlanCache`).
//! A plan is taken out of the cache while it runs, so that two threads never share one (a cuFFT
//! plan holds its stream and work area).
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::Dev;
use cudarc::cufft::{result as cf, sys};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex};
use xp_core::{DType, Error, PlanCacheInfo, Result};

/// What a plan transforms into what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Ty {
    /// complex64 ↔ complex64
    C2C,
    /// complex128 ↔ complex128
    Z2Z,
    /// float32 → complex64
    R2C,
    /// float64 → complex128
    D2Z,
    /// complex64 → float32
    C2R,
    /// complex128 → float64
    Z2D,
}

impl Ty {
    fn sys(self) -> sys::cufftType {
        match self {
            Ty::C2C => sys::cufftType::CUFFT_C2C,
            Ty::Z2Z => sys::cufftType::CUFFT_Z2Z,
            Ty::R2C => sys::cufftType::CUFFT_R2C,
            Ty::D2Z => sys::cufftType::CUFFT_D2Z,
            Ty::C2R => sys::cufftType::CUFFT_C2R,
            Ty::Z2D => sys::cufftType::CUFFT_Z2D,
        }
    }
    /// The complex-to-complex, real-to-complex or complex-to-real type of a precision.
    pub(crate) fn of(single: bool, from_real: bool, to_real: bool) -> Ty {
        match (single, from_real, to_real) {
            (true, true, _) => Ty::R2C,
            (false, true, _) => Ty::D2Z,
            (true, _, true) => Ty::C2R,
            (false, _, true) => Ty::Z2D,
            (true, ..) => Ty::C2C,
            (false, ..) => Ty::Z2Z,
        }
    }
    /// The element types read and written.
    pub(crate) fn dtypes(self) -> (DType, DType) {
        match self {
            Ty::C2C => (DType::C64, DType::C64),
            Ty::Z2Z => (DType::C128, DType::C128),
            Ty::R2C => (DType::F32, DType::C64),
            Ty::D2Z => (DType::F64, DType::C128),
            Ty::C2R => (DType::C64, DType::F32),
            Ty::Z2D => (DType::C128, DType::F64),
        }
    }
}

/// A plan's shape in cuFFT's advanced layout: `rank` logical lengths `n`, the input's and
/// output's embedding (`inembed`/`onembed`), element strides and batch distances, and the batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Shape {
    pub(crate) ty: Ty,
    pub(crate) rank: usize,
    pub(crate) n: [i64; 3],
    pub(crate) inembed: [i64; 3],
    pub(crate) onembed: [i64; 3],
    pub(crate) istride: i64,
    pub(crate) idist: i64,
    pub(crate) ostride: i64,
    pub(crate) odist: i64,
    pub(crate) batch: i64,
    /// a contiguous batch of contiguous transforms: cuFFT's basic layout (no embedding)
    pub(crate) basic: bool,
}

/// A plan of one device and the work area it needs, in bytes.
struct Plan {
    handle: sys::cufftHandle,
    work: usize,
}

/// One device's cache: plans, most recently used last.
struct Cache {
    capacity: usize,
    plans: Vec<(Shape, Plan)>,
    hits: u64,
    misses: u64,
}

impl Default for Cache {
    fn default() -> Self {
        Cache { capacity: PlanCacheInfo::DEFAULT_CAPACITY, plans: Vec::new(), hits: 0, misses: 0 }
    }
}

static CACHES: Mutex<Option<HashMap<usize, Cache>>> = Mutex::new(None);

fn with_cache<R>(ordinal: usize, f: impl FnOnce(&mut Cache) -> R) -> R {
    let mut g = CACHES.lock().unwrap_or_else(|e| e.into_inner());
    f(g.get_or_insert_with(HashMap::new).entry(ordinal).or_default())
}

pub(crate) fn fft_err(what: &str, e: cf::CufftError) -> Error {
    Error::Cuda(format!("cuFFT {what}: {:?}", e.0))
}

fn destroy(p: Plan) {
    // SAFETY: the plan was made by `make` and is destroyed once; a failure at teardown is
    // ignored.
    let _ = unsafe { cf::destroy(p.handle) };
}

fn make(s: &Shape) -> Result<Plan> {
    // SAFETY: only probes for the library file.
    if !unsafe { sys::is_culib_present() } {
        return Err(Error::NoCuda("the cuFFT library was not found; xp::fft on the GPU needs it".into()));
    }
    let handle = cf::create().map_err(|e| fft_err("create", e))?;
    let (mut n, mut ie, mut oe) = (s.n, s.inembed, s.onembed);
    let embed = |e: &mut [i64; 3]| if s.basic { std::ptr::null_mut() } else { e.as_mut_ptr() };
    let (ie, oe) = (embed(&mut ie), embed(&mut oe));
    // SAFETY: a new plan; the arrays hold `rank` values and outlive the call (or are null: the
    // basic layout).
    let made = unsafe {
        cf::set_auto_allocation(handle, false).and_then(|_| {
            cf::make_plan_many64(
                handle,
                s.rank as i32,
                n.as_mut_ptr(),
                ie,
                s.istride,
                s.idist,
                oe,
                s.ostride,
                s.odist,
                s.ty.sys(),
                s.batch,
            )
        })
    };
    match made {
        Ok(work) => Ok(Plan { handle, work }),
        Err(e) => {
            destroy(Plan { handle, work: 0 });
            Err(fft_err("plan", e))
        }
    }
}

/// Run the plan of `s` on the current stream once per `(src, dst)` pair of device addresses
/// (equal for an in-place transform), `inverse` choosing the complex-to-complex direction.
pub(crate) fn exec(dev: &Arc<Dev>, s: &Shape, runs: &[(u64, u64)], inverse: bool) -> Result<()> {
    dev.bind()?;
    let found = with_cache(dev.ordinal, |c| {
        let i = c.plans.iter().position(|(k, _)| k == s);
        match i {
            Some(_) => c.hits += 1,
            None => c.misses += 1,
        }
        i.map(|i| c.plans.remove(i).1)
    });
    let plan = match found {
        Some(p) => p,
        None => {
            // making a plan allocates device memory, which a graph capture cannot record
            crate::runtime::graph::capturable(
                dev.ordinal,
                "fft",
                "it makes a cuFFT plan: run the transform once before the capture",
            )?;
            make(s)?
        }
    };
    let r = run(dev, &plan, s.ty, runs, inverse);
    with_cache(dev.ordinal, |c| {
        if c.capacity == 0 || c.plans.iter().any(|(k, _)| k == s) {
            destroy(plan);
        } else {
            if c.plans.len() >= c.capacity {
                destroy(c.plans.remove(0).1);
            }
            c.plans.push((*s, plan));
        }
    });
    r
}

fn run(dev: &Arc<Dev>, p: &Plan, ty: Ty, runs: &[(u64, u64)], inverse: bool) -> Result<()> {
    let stream = dev.current();
    // The work area: from the pool, on this stream, returned to it after the launch (the pool
    // orders its reuse after the transform).
    let work = CudaStorage::alloc(dev, DType::U8, p.work)?;
    let dir = if inverse { 1 } else { -1 };
    let h = p.handle;
    // SAFETY: a live plan of this device; the stream is the device's current one; the work
    // area holds `p.work` bytes; `src` and `dst` are device buffers that hold every element the
    // plan's layout addresses (the caller's shapes come from their lengths).
    unsafe {
        cf::set_stream(h, stream.cu_stream() as sys::cudaStream_t).map_err(|e| fft_err("set stream", e))?;
        cf::set_work_area(h, work.ptr(0) as *mut c_void).map_err(|e| fft_err("set work area", e))?;
        for &(src, dst) in runs {
            let r = match ty {
                Ty::C2C => cf::exec_c2c(h, src as *mut _, dst as *mut _, dir),
                Ty::Z2Z => cf::exec_z2z(h, src as *mut _, dst as *mut _, dir),
                Ty::R2C => cf::exec_r2c(h, src as *mut _, dst as *mut _),
                Ty::D2Z => cf::exec_d2z(h, src as *mut _, dst as *mut _),
                Ty::C2R => cf::exec_c2r(h, src as *mut _, dst as *mut _),
                Ty::Z2D => cf::exec_z2d(h, src as *mut _, dst as *mut _),
            };
            r.map_err(|e| fft_err("exec", e))?;
        }
        Ok(())
    }
}

/// The cache of device `ordinal`.
pub fn info(ordinal: usize) -> PlanCacheInfo {
    with_cache(ordinal, |c| PlanCacheInfo { size: c.plans.len(), capacity: c.capacity, hits: c.hits, misses: c.misses })
}

/// Keep at most `capacity` plans on device `ordinal`, dropping the least recently used.
pub fn set_capacity(ordinal: usize, capacity: usize) -> Result<()> {
    let dev = crate::runtime::device::get(ordinal)?;
    dev.bind()?;
    with_cache(ordinal, |c| {
        c.capacity = capacity;
        while c.plans.len() > capacity {
            destroy(c.plans.remove(0).1);
        }
    });
    Ok(())
}

/// Drop every plan of device `ordinal` and reset its counts.
pub fn clear(ordinal: usize) -> Result<()> {
    let dev = crate::runtime::device::get(ordinal)?;
    dev.bind()?;
    with_cache(ordinal, |c| {
        for (_, p) in c.plans.drain(..) {
            destroy(p);
        }
        c.hits = 0;
        c.misses = 0;
    });
    Ok(())
}
