//! NVTX ranges without NVIDIA's library: NVTX 3 is header-only, and a profiler (Nsight Systems,
//! Nsight Compute) attaches by naming its injection library in `NVTX_INJECTION64_PATH`. xp does
//! what the headers do: on first use it loads that library, calls its
//! `InitializeInjectionNvtx2` with our export table, and the tool fills in our table of the core
//! module's function pointers (push, pop, ...). Without a tool nothing is loaded and a range
//! costs one atomic load.
use std::ffi::{c_char, c_int, c_uint, c_void, CString};
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::OnceLock;

/// NVTX's callback ids of the core module (`NvtxCallbackIdCore`) that xp calls.
const CBID_RANGE_PUSH_A: usize = 9;
const CBID_RANGE_POP: usize = 11;
/// `NVTX_CBID_CORE_SIZE`
const CORE_SIZE: usize = 16;
/// `NVTX_CB_MODULE_CORE`
const MODULE_CORE: c_int = 1;
/// The other modules (CUDA, OpenCL, CUDA runtime, core 2, sync: ids 2 to 6) and their table
/// sizes: xp calls none of them, but a tool fills every module's table, and may give up on the
/// whole library when one is missing.
const OTHER_SIZES: [usize; 5] = [9, 15, 7, 16, 7];
/// Slots of every other module's table (more than any of them has).
const OTHER_SLOTS: usize = 32;
/// export table ids
const ETID_CALLBACKS: u32 = 1;
const ETID_VERSIONINFO: u32 = 3;
const NVTX_VERSION: u32 = 3;

/// The core module's function pointers, filled in by the tool (null: not provided).
static CORE: [AtomicPtr<c_void>; CORE_SIZE + 1] = [const { AtomicPtr::new(std::ptr::null_mut()) }; CORE_SIZE + 1];

/// The table of pointers to [`CORE`]'s slots handed to the tool (`NvtxFunctionTable`).
struct Table([*mut AtomicPtr<c_void>; CORE_SIZE + 1]);
// SAFETY: the pointers address statics; the tool writes through them (atomics) during init.
unsafe impl Sync for Table {}
unsafe impl Send for Table {}

/// The other modules' slots, never called.
static OTHER: [[AtomicPtr<c_void>; OTHER_SLOTS]; 5] =
    [const { [const { AtomicPtr::new(std::ptr::null_mut()) }; OTHER_SLOTS] }; 5];

fn other_tables() -> &'static [Table2; 5] {
    static T: OnceLock<[Table2; 5]> = OnceLock::new();
    T.get_or_init(|| {
        std::array::from_fn(|m| {
            let mut t = [std::ptr::null_mut(); OTHER_SLOTS + 1];
            for (k, slot) in t.iter_mut().enumerate().take(OTHER_SLOTS).skip(1) {
                *slot = &OTHER[m][k] as *const AtomicPtr<c_void> as *mut AtomicPtr<c_void>;
            }
            Table2(t)
        })
    })
}

/// A table of pointers to another module's slots.
struct Table2([*mut AtomicPtr<c_void>; OTHER_SLOTS + 1]);
// SAFETY: as for `Table`.
unsafe impl Sync for Table2 {}
unsafe impl Send for Table2 {}

fn table() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = [std::ptr::null_mut(); CORE_SIZE + 1];
        for (k, slot) in t.iter_mut().enumerate().take(CORE_SIZE).skip(1) {
            *slot = &CORE[k] as *const AtomicPtr<c_void> as *mut AtomicPtr<c_void>;
        }
        Table(t)
    })
}

#[repr(C)]
struct Callbacks {
    struct_size: usize,
    get_module_function_table: unsafe extern "C" fn(c_int, *mut *const *mut AtomicPtr<c_void>, *mut c_uint) -> c_int,
}

#[repr(C)]
struct VersionInfo {
    struct_size: usize,
    version: u32,
    reserved0: u32,
    set_injection_nvtx_version: unsafe extern "C" fn(u32),
}

unsafe extern "C" fn get_module_function_table(
    module: c_int,
    out_table: *mut *const *mut AtomicPtr<c_void>,
    out_size: *mut c_uint,
) -> c_int {
    let (ptr, size) = match module {
        MODULE_CORE => (table().0.as_ptr(), CORE_SIZE),
        2..=6 => {
            let m = (module - 2) as usize;
            (other_tables()[m].0.as_ptr(), OTHER_SIZES[m])
        }
        _ => return 0,
    };
    debug(&format!("module {module}: table of {size}"));
    // SAFETY: the tool passes valid out-pointers (or null).
    unsafe {
        if !out_table.is_null() {
            *out_table = ptr;
        }
        if !out_size.is_null() {
            *out_size = size as c_uint;
        }
    }
    1
}

unsafe extern "C" fn set_injection_nvtx_version(_version: u32) {}

static CALLBACKS: Callbacks = Callbacks { struct_size: std::mem::size_of::<Callbacks>(), get_module_function_table };
static VERSION: VersionInfo = VersionInfo {
    struct_size: std::mem::size_of::<VersionInfo>(),
    version: NVTX_VERSION,
    reserved0: 0,
    set_injection_nvtx_version,
};

/// With `XP_NVTX_DEBUG` set: what the handshake with the tool did, on stderr.
fn debug(msg: &str) {
    static ON: OnceLock<bool> = OnceLock::new();
    if *ON.get_or_init(|| std::env::var_os("XP_NVTX_DEBUG").is_some()) {
        eprintln!("xp nvtx: {msg}");
    }
}

unsafe extern "C" fn get_export_table(id: u32) -> *const c_void {
    debug(&format!("export table {id} requested"));
    match id {
        ETID_CALLBACKS => &CALLBACKS as *const Callbacks as *const c_void,
        ETID_VERSIONINFO => &VERSION as *const VersionInfo as *const c_void,
        _ => std::ptr::null(),
    }
}

type InitFn = unsafe extern "C" fn(unsafe extern "C" fn(u32) -> *const c_void) -> c_int;

/// Whether a tool is attached (loaded once, on first use).
fn attached() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        let Some(path) = std::env::var_os("NVTX_INJECTION64_PATH") else {
            debug("NVTX_INJECTION64_PATH is not set: no tool");
            return false;
        };
        debug(&format!("loading {path:?}"));
        // SAFETY: loading the tool's library runs its initialisers, as NVTX's headers do.
        let lib = match unsafe { libloading::Library::new(&path) } {
            Ok(l) => l,
            Err(e) => {
                debug(&format!("cannot load it: {e}"));
                return false;
            }
        };
        // SAFETY: NVTX's documented entry point of injection libraries, of this signature.
        let ok = unsafe {
            match lib.get::<InitFn>(b"InitializeInjectionNvtx2\0") {
                Ok(init) => {
                    let r = init(get_export_table);
                    debug(&format!("InitializeInjectionNvtx2 returned {r}"));
                    r != 0
                }
                Err(e) => {
                    debug(&format!("no InitializeInjectionNvtx2: {e}"));
                    false
                }
            }
        };
        debug(&format!(
            "push {:?}, pop {:?}",
            CORE[CBID_RANGE_PUSH_A].load(Ordering::Acquire),
            CORE[CBID_RANGE_POP].load(Ordering::Acquire)
        ));
        // The tool stays loaded for the life of the process.
        std::mem::forget(lib);
        ok
    })
}

/// Whether NVTX ranges are recorded (a profiler with NVTX support is attached).
pub fn enabled() -> bool {
    attached() && !CORE[CBID_RANGE_PUSH_A].load(Ordering::Acquire).is_null()
}

/// An open NVTX range; it ends when dropped.
#[must_use = "the range ends when this is dropped"]
#[derive(Debug)]
pub struct Range {
    open: bool,
}

/// Open a range named `name` on the calling thread (nothing without a profiler).
pub fn range(name: &str) -> Range {
    if !enabled() {
        return Range { open: false };
    }
    let push = CORE[CBID_RANGE_PUSH_A].load(Ordering::Acquire);
    let Ok(c) = CString::new(name) else { return Range { open: false } };
    // SAFETY: the tool stored its `nvtxRangePushA` (int (const char*)) in this slot.
    let push: unsafe extern "C" fn(*const c_char) -> c_int = unsafe { std::mem::transmute(push) };
    // SAFETY: a NUL-terminated string that lives through the call.
    unsafe { push(c.as_ptr()) };
    Range { open: true }
}

impl Drop for Range {
    fn drop(&mut self) {
        if !self.open {
            return;
        }
        let pop = CORE[CBID_RANGE_POP].load(Ordering::Acquire);
        if !pop.is_null() {
            // SAFETY: the tool stored its `nvtxRangePop` (int (void)) in this slot.
            let pop: unsafe extern "C" fn() -> c_int = unsafe { std::mem::transmute(pop) };
            // SAFETY: pops the range this guard pushed on this thread.
            unsafe { pop() };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The protocol as a tool sees it: the export tables, the core module's table of slots,
    /// and ranges calling what the tool stored there.
    #[test]
    fn a_tool_fills_the_core_table_and_ranges_call_it() {
        use std::sync::atomic::AtomicUsize;
        static PUSHED: AtomicUsize = AtomicUsize::new(0);
        static POPPED: AtomicUsize = AtomicUsize::new(0);
        unsafe extern "C" fn push(_: *const c_char) -> c_int {
            PUSHED.fetch_add(1, Ordering::SeqCst);
            0
        }
        unsafe extern "C" fn pop() -> c_int {
            POPPED.fetch_add(1, Ordering::SeqCst);
            0
        }
        // SAFETY: what a tool does with the export table.
        unsafe {
            assert!(get_export_table(2).is_null());
            let v = &*(get_export_table(ETID_VERSIONINFO) as *const VersionInfo);
            assert_eq!((v.struct_size, v.version), (std::mem::size_of::<VersionInfo>(), 3));
            let cb = &*(get_export_table(ETID_CALLBACKS) as *const Callbacks);
            let (mut t, mut n) = (std::ptr::null(), 0);
            assert_eq!((cb.get_module_function_table)(7, &mut t, &mut n), 0, "modules 1 to 6");
            for m in 2..=6 {
                assert_eq!((cb.get_module_function_table)(m, &mut t, &mut n), 1);
                assert_eq!(n as usize, OTHER_SIZES[m as usize - 2]);
                assert!((*t).is_null() && !(*t.add(n as usize - 1)).is_null());
            }
            assert_eq!((cb.get_module_function_table)(MODULE_CORE, &mut t, &mut n), 1);
            assert_eq!(n as usize, CORE_SIZE);
            assert!((*t).is_null(), "slot 0 is invalid");
            (**t.add(CBID_RANGE_PUSH_A)).store(push as *mut c_void, Ordering::Release);
            (**t.add(CBID_RANGE_POP)).store(pop as *mut c_void, Ordering::Release);
        }
        // no tool attached in tests: ranges stay off even with a filled table
        assert!(std::env::var_os("NVTX_INJECTION64_PATH").is_some() || !enabled());
        let r = Range { open: true };
        drop(r);
        assert_eq!(POPPED.load(Ordering::SeqCst), 1);
    }
}
