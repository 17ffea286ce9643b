//! The one launch path: kernels looked up by a typed [`Key`], compiled on a miss under a name that
//! says what they do (`xp_gather_w8_k1`, `xp_radix_pass_f32_v1`: readable in Nsight), and
//! launched inside a [`Work`] scope that orders the operands' streams before the first launch and
//! records their uses when it ends, so that no launch site can forget either half.
//!
//! Kernel sources name their entry points `XP_NAME(entry)`; the loader defines the macro as
//! `xp_<entry>_<spec>`, where `spec` is what specialises the kernel (dtypes, modes), so that one
//! name always means one source. Every built-in name loaded by the process is listed by
//! [`kernels_loaded`]; a name that would stand for two different sources is an error.
use super::device::{driver_err, Dev};
use super::nvrtc;
use crate::runtime::buffer::CudaStorage;
use cudarc::driver::{result, CudaFunction, CudaStream, DeviceRepr, LaunchConfig};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use xp_core::{DType, Error, Result};

/// The kernel families: the first field of every [`Key`] and the first words of every built-in
/// kernel's name.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub(crate) enum Family {
    /// the generator's built-in elementwise and reduction kernels, keyed by a hash of their
    /// specification
    Generated = 1,
    /// a user's `ElementwiseKernel`/`ReductionKernel` (named by the user, not listed by
    /// [`kernels_loaded`])
    User,
    /// the empty kernel of [`crate::launch_floor_us`]
    Empty,
    Scan,
    StackGemm,
    LinalgAux,
    StackSmall,
    StackLinalg,
    Gemv,
    RadixHist,
    RadixPlan,
    RadixPass,
    SegmentSortBlock,
    SegmentSortWarp,
    SearchSorted,
    Take,
    Gather,
    IndexCheck,
    ScatterTargets,
    ScatterAssign,
    ScatterCombine,
    ScatterOrdered,
    CompactCount,
    CompactScan,
    CompactWrite,
    PrivatizedScatter,
    PrivatizedReduce,
    Histogram,
    RadixSelect,
    Random,
    FftPost,
    Correlate,
    RankFilter,
    Recursive,
    Label,
    SparseMatmul,
    SparseCg,
    Merge,
}

/// A kernel's identity: its family and everything that specialises it, packed field by field
/// into bits (unique by construction, cheap to hash: the hot path builds no string).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Key {
    v: u128,
    pos: u32,
}

impl Key {
    /// A key of kernel family `family`.
    pub(crate) fn new(family: Family) -> Key {
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
    /// The key of a generated kernel whose specification hashes to `h` (a user's when `user`).
    pub(crate) fn generated(h: u64, user: bool) -> Key {
        let f = if user { Family::User } else { Family::Generated };
        Key::new(f).bits(32, h & 0xffff_ffff).bits(32, h >> 32)
    }
    fn is_user(self) -> bool {
        self.v as u8 == Family::User as u8
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

/// A loaded kernel: the function, how many of its 256-thread blocks fill the device in one wave,
/// and its name (for errors).
#[derive(Clone, Debug)]
pub(crate) struct Kernel {
    pub(crate) f: CudaFunction,
    pub(crate) fill: usize,
    pub(crate) name: Arc<str>,
}

/// The per-device map of loaded kernels.
pub(crate) type KernelMap = HashMap<Key, Kernel, std::hash::BuildHasherDefault<KeyHasher>>;

/// What a kernel source needs besides its text: the specialisation that ends its entries' names.
pub(crate) struct Source {
    /// `xp_<entry>_<spec>`: the dtypes and modes that specialise the source (identifier
    /// characters; anything else becomes `_`)
    pub(crate) spec: String,
    pub(crate) code: String,
}

impl Source {
    pub(crate) fn new(spec: impl Into<String>, code: String) -> Source {
        Source { spec: spec.into(), code }
    }
}

/// The name of entry `entry` of a source specialised by `spec`.
fn full_name(entry: &str, spec: &str) -> String {
    let spec: String = spec.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if spec.is_empty() {
        format!("xp_{entry}")
    } else {
        format!("xp_{entry}_{spec}")
    }
}

/// The definition of `XP_NAME(e)` that gives [`full_name`]`(e, spec)`.
fn name_macro(spec: &str) -> String {
    let n = full_name("##e##", spec);
    format!("#define XP_NAME(e) {}\n", n.strip_suffix("##").unwrap_or(&n))
}

/// Built-in kernel names loaded by this process, each with a hash of its source.
static NAMES: OnceLock<Mutex<HashMap<String, u64>>> = OnceLock::new();

/// The names of the built-in kernels this process has loaded (on any device), sorted: the names
/// Nsight Systems and Nsight Compute show. A user's own kernels are not listed.
pub fn kernels_loaded() -> Vec<String> {
    let map = NAMES.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    let mut v: Vec<String> = map.keys().cloned().collect();
    v.sort();
    v
}

/// Remember that `name` stands for a source of hash `h`: an error when it already stands for
/// another source (two kernels would then be indistinguishable in a profile).
fn register(name: &str, h: u64) -> Result<()> {
    let mut map = NAMES.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    match map.get(name) {
        Some(&old) if old != h => {
            Err(Error::Cuda(format!("internal error: the kernel name {name} stands for two different sources")))
        }
        _ => {
            map.insert(name.to_string(), h);
            Ok(())
        }
    }
}

impl Dev {
    /// The kernel `entry` identified by `key`: looked up by `key`, so that the hot path never
    /// builds or hashes a source; on a miss `src()` generates the source, which is compiled (or
    /// read from the disk cache, keyed by the full source) and loaded once.
    pub(crate) fn kernel(&self, key: Key, entry: &str, src: impl FnOnce() -> Source) -> Result<Kernel> {
        self.kernels(key, [entry], src).map(|[k]| k)
    }
    /// [`Dev::kernel`] for several entries of one source, each cached under `key` and its index.
    pub(crate) fn kernels<const N: usize>(
        &self,
        key: Key,
        entries: [&str; N],
        src: impl FnOnce() -> Source,
    ) -> Result<[Kernel; N]> {
        let keys: [Key; N] = std::array::from_fn(|i| if N == 1 { key } else { key.bits(3, i as u64) });
        {
            let map = self.kernels.lock().unwrap_or_else(|e| e.into_inner());
            if keys.iter().all(|k| map.contains_key(k)) {
                return Ok(keys.map(|k| map[&k].clone()));
            }
        }
        let src = src();
        let user = key.is_user();
        let (names, head): (Vec<String>, String) = if user {
            (entries.iter().map(|e| e.to_string()).collect(), String::new())
        } else {
            (entries.iter().map(|e| full_name(e, &src.spec)).collect(), name_macro(&src.spec))
        };
        let bin = nvrtc::cubin(&format!("{head}{}", src.code), self.arch)?;
        if !user {
            let h = nvrtc::fnv(5, head.as_bytes()) ^ nvrtc::fnv(8, src.code.as_bytes());
            for n in &names {
                register(n, h)?;
            }
        }
        let module = self.ctx.load_module(cudarc::nvrtc::Ptx::from_binary(bin)).map_err(driver_err)?;
        let mut out = Vec::with_capacity(N);
        for name in names {
            let f = module.load_function(&name).map_err(driver_err)?;
            let per_sm = f.occupancy_max_active_blocks_per_multiprocessor(256, 0, None).map_err(driver_err)?;
            out.push(Kernel { f, fill: self.sms * per_sm.max(1) as usize, name: name.into() });
        }
        let mut map = self.kernels.lock().unwrap_or_else(|e| e.into_inner());
        for (k, f) in keys.iter().zip(&out) {
            map.insert(*k, f.clone());
        }
        Ok(out.try_into().unwrap_or_else(|_| unreachable!("one kernel per entry")))
    }
    /// A [`Work`] scope on the calling thread's current stream over `bufs`.
    pub(crate) fn work<'a>(&self, bufs: &[&'a CudaStorage]) -> Result<Work<'a>> {
        Work::new(self.current(), bufs)
    }
}

/// A kernel parameter: a plain value, passed by its address.
pub(crate) trait Param {
    fn addr(&self) -> *mut std::ffi::c_void;
}

impl<T: DeviceRepr> Param for T {
    fn addr(&self) -> *mut std::ffi::c_void {
        self as *const T as *mut std::ffi::c_void
    }
}

/// Run `f` on the `n` parameter addresses `addr(0..n)`, laid out on the stack when they are few
/// (no allocation per launch: small kernels are bound by host time).
pub(crate) fn with_addresses<R>(
    n: usize,
    addr: impl Fn(usize) -> *mut std::ffi::c_void,
    f: impl FnOnce(&mut [*mut std::ffi::c_void]) -> R,
) -> R {
    let mut inline = [std::ptr::null_mut(); 32];
    if n <= inline.len() {
        for (i, p) in inline[..n].iter_mut().enumerate() {
            *p = addr(i);
        }
        f(&mut inline[..n])
    } else {
        f(&mut (0..n).map(addr).collect::<Vec<_>>())
    }
}

/// Work on one stream that uses some buffers: made after their streams' pending work is ordered
/// before it (a no-op while the device has only its default stream), and recording their uses
/// for their frees when it ends ([`Work::done`], or on drop after an error).
pub(crate) struct Work<'a> {
    s: Arc<CudaStream>,
    bufs: smallvec::SmallVec<[&'a CudaStorage; 8]>,
    done: bool,
}

impl<'a> Work<'a> {
    /// Order `bufs` on stream `s`.
    pub(crate) fn new(s: Arc<CudaStream>, bufs: &[&'a CudaStorage]) -> Result<Work<'a>> {
        before(&s, bufs)?;
        Ok(Work { s, bufs: bufs.iter().copied().collect(), done: false })
    }
    /// The stream the work is queued on (for library calls and copies).
    pub(crate) fn stream(&self) -> &Arc<CudaStream> {
        &self.s
    }
    /// Launch `k` with the parameters `args`, in the kernel's order.
    ///
    /// # Safety
    /// `args` match the kernel's parameters in number, order and size, and every address the
    /// kernel computes from them lies inside live buffers ordered on this work's stream.
    pub(crate) unsafe fn launch(&self, k: &Kernel, c: LaunchConfig, args: &[&dyn Param]) -> Result<()> {
        // SAFETY: as vouched for by the caller.
        with_addresses(args.len(), |i| args[i].addr(), |ptrs| unsafe { self.launch_raw(k, c, ptrs) })
    }
    /// [`Work::launch`] with the parameters' addresses already laid out.
    ///
    /// # Safety
    /// As for [`Work::launch`]: `ptrs` address the kernel's parameters, in order.
    pub(crate) unsafe fn launch_raw(
        &self,
        k: &Kernel,
        c: LaunchConfig,
        ptrs: &mut [*mut std::ffi::c_void],
    ) -> Result<()> {
        let ctx = self.s.context();
        ctx.bind_to_thread().map_err(driver_err)?;
        // SAFETY: the caller vouches for the parameters; the stream belongs to the bound context.
        unsafe {
            result::launch_kernel(
                k.f.cu_function(),
                c.grid_dim,
                c.block_dim,
                c.shared_mem_bytes,
                self.s.cu_stream(),
                ptrs,
            )
        }
        .map_err(|e| match e.0 {
            cudarc::driver::sys::CUresult::CUDA_ERROR_INVALID_VALUE
            | cudarc::driver::sys::CUresult::CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES => Error::Launch {
                kernel: k.name.to_string(),
                msg: format!(
                    "{e:?} for grid {:?}, block {:?}, {} bytes of shared memory",
                    c.grid_dim, c.block_dim, c.shared_mem_bytes
                ),
            },
            _ => driver_err(e),
        })
    }
    /// End the work: record the buffers' uses on its stream.
    pub(crate) fn done(mut self) -> Result<()> {
        self.done = true;
        after(&self.s, &self.bufs)
    }
}

impl Drop for Work<'_> {
    fn drop(&mut self) {
        if !self.done {
            // An error ended the work early: its launches may still have been queued.
            let _ = after(&self.s, &self.bufs);
        }
    }
}

/// Before `bufs` are used on stream `s`: wait for their own streams' work (a no-op while the
/// device has only its default stream).
fn before(s: &Arc<CudaStream>, bufs: &[&CudaStorage]) -> Result<()> {
    for b in bufs {
        super::graph::note_use(b.dev.ordinal, b.buf.ptr);
        // During a capture nothing is ordered across streams: the capture began after the
        // device's queued work, and a dependency on uncaptured work would break it.
        if b.dev.multi.load(std::sync::atomic::Ordering::Relaxed) && !super::graph::capturing(b.dev.ordinal) {
            b.uses.before(&b.buf.stream, s)?;
        }
    }
    Ok(())
}

/// After `bufs` were used on stream `s`: remember the use for their frees.
fn after(s: &Arc<CudaStream>, bufs: &[&CudaStorage]) -> Result<()> {
    for b in bufs {
        if b.dev.multi.load(std::sync::atomic::Ordering::Relaxed) && !super::graph::capturing(b.dev.ordinal) {
            b.uses.after(&b.buf.stream, s)?;
        }
    }
    Ok(())
}

/// Threads per block of the one-dimensional launches.
pub(crate) const BLOCK: u32 = 256;

/// One thread per element of `n`, in blocks of [`BLOCK`] (at most 2^20 blocks: kernels stride).
pub(crate) fn cfg(n: i64) -> LaunchConfig {
    let blocks = ((n.max(1) as u64).div_ceil(BLOCK as u64)).min(1 << 20) as u32;
    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK, 1, 1), shared_mem_bytes: 0 }
}

/// `n` blocks of [`BLOCK`] threads (at most 2^20).
pub(crate) fn blocks_cfg(n: i64) -> LaunchConfig {
    LaunchConfig {
        grid_dim: ((n.max(1) as u64).min(1 << 20) as u32, 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_differ_when_any_field_differs() {
        let f = Family::Gather;
        let base = || Key::new(f).dtype(DType::F32).bits(7, 3).flag(true).bits(5, 4);
        let variants = [
            Key::new(Family::Take).dtype(DType::F32).bits(7, 3).flag(true).bits(5, 4),
            Key::new(f).dtype(DType::F64).bits(7, 3).flag(true).bits(5, 4),
            Key::new(f).dtype(DType::F32).bits(7, 2).flag(true).bits(5, 4),
            Key::new(f).dtype(DType::F32).bits(7, 3).flag(false).bits(5, 4),
            Key::new(f).dtype(DType::F32).bits(7, 3).flag(true).bits(5, 2),
            Key::new(f).dtype(DType::F32).bits(7, 3).flag(true),
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

    #[test]
    fn names_say_entry_and_specialisation_and_stand_for_one_source() {
        assert_eq!(full_name("gather", "w8 k1"), "xp_gather_w8_k1");
        assert_eq!(full_name("radix_plan", ""), "xp_radix_plan");
        assert_eq!(name_macro("f32"), "#define XP_NAME(e) xp_##e##_f32\n");
        assert_eq!(name_macro(""), "#define XP_NAME(e) xp_##e\n");
        let name = format!("xp_test_{}", std::process::id());
        register(&name, 1).unwrap();
        register(&name, 1).unwrap();
        assert!(register(&name, 2).is_err());
        assert!(kernels_loaded().contains(&name));
    }
}
