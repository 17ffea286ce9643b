//! NCCL's shared library, found and loaded at run time (as shipped: `libnccl.so.2` from Debian's
//! `libnccl2` or from the `nvidia-nccl-cu*` Python wheels, which put it in
//! `site-packages/nvidia/nccl/lib`), with the entry points xp calls.
use std::ffi::{c_char, c_int, c_void};
use std::path::PathBuf;
use std::sync::OnceLock;
use xp_core::{DistKind, Error, Result};

/// NCCL's `ncclResult_t`.
pub(crate) type NcclResult = c_int;
/// `ncclSuccess`.
pub(crate) const SUCCESS: NcclResult = 0;
/// `ncclInProgress` (a non-blocking communicator's call still running).
pub(crate) const IN_PROGRESS: NcclResult = 7;
/// An opaque `ncclComm_t`.
pub(crate) type CommPtr = *mut c_void;

/// `ncclUniqueId`: the 128 bytes every rank of a communicator must start from.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct UniqueId(pub [u8; 128]);

/// `ncclConfig_t` as of NCCL 2.17 (newer versions read the fields they know by `size` and
/// `version`; unset fields are `INT_MIN` / null, NCCL's `NCCL_CONFIG_UNDEF_*`).
#[repr(C)]
pub(crate) struct Config {
    pub size: usize,
    pub magic: u32,
    pub version: u32,
    pub blocking: c_int,
    pub cga_cluster_size: c_int,
    pub min_ctas: c_int,
    pub max_ctas: c_int,
    pub net_name: *const c_char,
    pub split_share: c_int,
}

impl Config {
    /// `NCCL_CONFIG_INITIALIZER` with `blocking` set.
    pub(crate) fn new(blocking: bool) -> Config {
        const UNDEF: c_int = c_int::MIN;
        Config {
            size: std::mem::size_of::<Config>(),
            magic: 0xcafe_beef,
            version: 21700,
            blocking: blocking as c_int,
            cga_cluster_size: UNDEF,
            min_ctas: UNDEF,
            max_ctas: UNDEF,
            net_name: std::ptr::null(),
            split_share: UNDEF,
        }
    }
}

type Stream = *mut c_void;

/// The entry points (resolved once).
pub(crate) struct Nccl {
    _lib: libloading::Library,
    pub(crate) path: String,
    pub(crate) version: u32,
    pub(crate) get_unique_id: unsafe extern "C" fn(*mut UniqueId) -> NcclResult,
    pub(crate) init_rank_config: unsafe extern "C" fn(*mut CommPtr, c_int, UniqueId, c_int, *mut Config) -> NcclResult,
    pub(crate) init_all: unsafe extern "C" fn(*mut CommPtr, c_int, *const c_int) -> NcclResult,
    pub(crate) finalize: unsafe extern "C" fn(CommPtr) -> NcclResult,
    pub(crate) destroy: unsafe extern "C" fn(CommPtr) -> NcclResult,
    pub(crate) abort: unsafe extern "C" fn(CommPtr) -> NcclResult,
    pub(crate) async_error: unsafe extern "C" fn(CommPtr, *mut NcclResult) -> NcclResult,
    pub(crate) error_string: unsafe extern "C" fn(NcclResult) -> *const c_char,
    pub(crate) last_error: unsafe extern "C" fn(CommPtr) -> *const c_char,
    pub(crate) split: unsafe extern "C" fn(CommPtr, c_int, c_int, *mut CommPtr, *mut Config) -> NcclResult,
    pub(crate) user_rank: unsafe extern "C" fn(CommPtr, *mut c_int) -> NcclResult,
    pub(crate) count: unsafe extern "C" fn(CommPtr, *mut c_int) -> NcclResult,
    pub(crate) all_reduce:
        unsafe extern "C" fn(*const c_void, *mut c_void, usize, c_int, c_int, CommPtr, Stream) -> NcclResult,
    pub(crate) broadcast:
        unsafe extern "C" fn(*const c_void, *mut c_void, usize, c_int, c_int, CommPtr, Stream) -> NcclResult,
    pub(crate) reduce:
        unsafe extern "C" fn(*const c_void, *mut c_void, usize, c_int, c_int, c_int, CommPtr, Stream) -> NcclResult,
    pub(crate) all_gather:
        unsafe extern "C" fn(*const c_void, *mut c_void, usize, c_int, CommPtr, Stream) -> NcclResult,
    pub(crate) reduce_scatter:
        unsafe extern "C" fn(*const c_void, *mut c_void, usize, c_int, c_int, CommPtr, Stream) -> NcclResult,
    pub(crate) send: unsafe extern "C" fn(*const c_void, usize, c_int, c_int, CommPtr, Stream) -> NcclResult,
    pub(crate) recv: unsafe extern "C" fn(*mut c_void, usize, c_int, c_int, CommPtr, Stream) -> NcclResult,
    pub(crate) group_start: unsafe extern "C" fn() -> NcclResult,
    pub(crate) group_end: unsafe extern "C" fn() -> NcclResult,
}

// SAFETY: function pointers into a library that stays loaded for the process's life.
unsafe impl Send for Nccl {}
// SAFETY: as above; NCCL's entry points are thread-safe as NCCL documents them.
unsafe impl Sync for Nccl {}

/// The library names and files tried, in order: `XP_NCCL_LIBRARY`, the dynamic loader's search
/// for `libnccl.so.2` and `libnccl.so`, then the Python wheels' folders under the usual prefixes.
pub(crate) fn candidates() -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(p) = std::env::var("XP_NCCL_LIBRARY") {
        out.push(p);
    }
    out.push("libnccl.so.2".into());
    out.push("libnccl.so".into());
    let mut roots: Vec<PathBuf> =
        ["/usr/local/lib", "/usr/lib", "/usr/lib64", "/opt/conda/lib"].map(PathBuf::from).into();
    for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
        if let Ok(v) = std::env::var(var) {
            roots.push(PathBuf::from(v).join("lib"));
        }
    }
    if let Ok(h) = std::env::var("HOME") {
        roots.push(PathBuf::from(h).join(".local/lib"));
    }
    // virtual environments one or two levels under /opt (e.g. /opt/torch/.venv)
    for base in ["/opt"] {
        for d in subdirs(&PathBuf::from(base)) {
            roots.push(d.join("lib"));
            for e in subdirs(&d) {
                roots.push(e.join("lib"));
            }
        }
    }
    for root in roots {
        for py in subdirs(&root)
            .into_iter()
            .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("python3")))
        {
            for pkgs in ["site-packages", "dist-packages"] {
                for sub in ["nvidia/nccl/lib", "nvidia/cu13/lib", "nvidia/cu12/lib"] {
                    let f = py.join(pkgs).join(sub).join("libnccl.so.2");
                    if f.is_file() {
                        out.push(f.to_string_lossy().into_owned());
                    }
                }
            }
        }
    }
    out
}

fn subdirs(p: &PathBuf) -> Vec<PathBuf> {
    std::fs::read_dir(p)
        .map(|r| r.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_default()
}

/// `XP_NCCL_LIBRARY` where it is set; else the newest of the NCCLs found (a machine often has
/// the system's and a Python wheel's, and the newer is the one CuPy and PyTorch run: on the
/// H200 machines 2.28.9 against the system's 2.28.3).
fn load() -> Result<Nccl> {
    let tried = candidates();
    let explicit = std::env::var_os("XP_NCCL_LIBRARY").is_some();
    let mut best: Option<Nccl> = None;
    for name in &tried {
        // SAFETY: loading NCCL runs its initialisers, which have no preconditions.
        let Ok(lib) = (unsafe { libloading::Library::new(name) }) else { continue };
        let Ok(found) = resolve(lib, name.clone()) else { continue };
        if explicit {
            return Ok(found);
        }
        if best.as_ref().is_none_or(|b| found.version > b.version) {
            best = Some(found);
        }
    }
    best.ok_or(Error::Dist { op: "loading NCCL", kind: DistKind::NcclNotFound { searched: tried } })
}

fn resolve(lib: libloading::Library, path: String) -> Result<Nccl> {
    macro_rules! sym {
        ($name:literal) => {{
            // SAFETY: the symbol has the C signature of the field it is stored in (NCCL's nccl.h).
            *unsafe { lib.get($name) }.map_err(|e| Error::Dist {
                op: "loading NCCL",
                kind: DistKind::Nccl { code: -1, msg: format!("{path}: {e}") },
            })?
        }};
    }
    let get_version: unsafe extern "C" fn(*mut c_int) -> NcclResult = sym!(b"ncclGetVersion\0");
    let mut v: c_int = 0;
    // SAFETY: `v` is a valid out-pointer.
    unsafe { get_version(&mut v) };
    let nccl = Nccl {
        version: v.max(0) as u32,
        get_unique_id: sym!(b"ncclGetUniqueId\0"),
        init_rank_config: sym!(b"ncclCommInitRankConfig\0"),
        init_all: sym!(b"ncclCommInitAll\0"),
        finalize: sym!(b"ncclCommFinalize\0"),
        destroy: sym!(b"ncclCommDestroy\0"),
        abort: sym!(b"ncclCommAbort\0"),
        async_error: sym!(b"ncclCommGetAsyncError\0"),
        error_string: sym!(b"ncclGetErrorString\0"),
        last_error: sym!(b"ncclGetLastError\0"),
        split: sym!(b"ncclCommSplit\0"),
        user_rank: sym!(b"ncclCommUserRank\0"),
        count: sym!(b"ncclCommCount\0"),
        all_reduce: sym!(b"ncclAllReduce\0"),
        broadcast: sym!(b"ncclBroadcast\0"),
        reduce: sym!(b"ncclReduce\0"),
        all_gather: sym!(b"ncclAllGather\0"),
        reduce_scatter: sym!(b"ncclReduceScatter\0"),
        send: sym!(b"ncclSend\0"),
        recv: sym!(b"ncclRecv\0"),
        group_start: sym!(b"ncclGroupStart\0"),
        group_end: sym!(b"ncclGroupEnd\0"),
        path,
        _lib: lib,
    };
    Ok(nccl)
}

/// NCCL, loaded on first use (an error that says what was tried where it is missing).
pub(crate) fn nccl() -> Result<&'static Nccl> {
    static LIB: OnceLock<std::result::Result<Nccl, Error>> = OnceLock::new();
    LIB.get_or_init(load).as_ref().map_err(Clone::clone)
}

/// Whether NCCL can be loaded, and its version code (e.g. 22803 for 2.28.3).
pub fn nccl_version() -> Result<u32> {
    Ok(nccl()?.version)
}

/// The file NCCL was loaded from.
pub fn nccl_path() -> Result<String> {
    Ok(nccl()?.path.clone())
}

/// `Err(NcclVersion)` unless the loaded NCCL is at least `need` (NCCL's code, e.g. 21000).
pub fn require(need: u32) -> Result<()> {
    require_lib(need).map(|_| ())
}

pub(crate) fn require_lib(need: u32) -> Result<&'static Nccl> {
    let n = nccl()?;
    if n.version < need {
        return Err(Error::Dist { op: "NCCL", kind: DistKind::NcclVersion { have: n.version, need } });
    }
    Ok(n)
}

/// NCCL's result `r` as xp's error (with the communicator's last message where there is one).
pub(crate) fn check(op: &'static str, r: NcclResult, comm: CommPtr) -> Result<()> {
    if r == SUCCESS || r == IN_PROGRESS {
        return Ok(());
    }
    Err(Error::Dist { op, kind: DistKind::Nccl { code: r, msg: message(r, comm) } })
}

/// NCCL's text for `r`, and its last error on `comm` (or the thread) where it says more.
pub(crate) fn message(r: NcclResult, comm: CommPtr) -> String {
    let Ok(n) = nccl() else { return format!("result {r}") };
    let text = |p: *const c_char| {
        if p.is_null() {
            String::new()
        } else {
            // SAFETY: NCCL returns NUL-terminated static or per-communicator strings.
            unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy().into_owned()
        }
    };
    // SAFETY: both calls take a result code / a communicator (or null) and return a string.
    let (base, last) = unsafe { (text((n.error_string)(r)), text((n.last_error)(comm))) };
    if last.is_empty() {
        base
    } else {
        format!("{base} ({last})")
    }
}
