//! (Feature `mpi`.) The ranks of an MPI launch (`mpirun`, `mpiexec`, `srun --mpi`) meet over
//! MPI's `MPI_COMM_WORLD` instead of xp's TCP rendezvous: the NCCL id is broadcast with
//! `MPI_Bcast`, and the agreements and per-collective checks go through MPI too, so no port
//! has to be open and no rank 0 address known. MPI is loaded at run time like NCCL (`XP_MPI_LIBRARY`,
//! else `libmpi.so.40` of Open MPI, `libmpi.so.12` of MPICH and its kin, `libmpi.so`): the
//! feature needs nothing installed to build. The two ABIs differ in their handles: Open MPI's
//! are the addresses of its predefined objects (`ompi_mpi_comm_world`, …), MPICH's fixed
//! integers (`MPI_COMM_WORLD = 0x44000000`, …), passed here in a register either way.
//!
//! MPI has no timeouts: a rank lost during one of these calls is the launcher's to end (MPI
//! launchers end the job when a rank dies). xp calls `MPI_Init` when nobody has, and
//! `MPI_Finalize` when the last communicator made over it is dropped.
use super::meeting::Meet;
use super::rendezvous::{decode, encode};
use libloading::os::unix::{Library, Symbol, RTLD_GLOBAL, RTLD_NOW};
use std::ffi::{c_int, c_void};
use xp_core::{DistKind, Error, Result};

type Handle = usize;
type InitFn = unsafe extern "C" fn(*mut c_int, *mut c_void) -> c_int;
type FlagFn = unsafe extern "C" fn(*mut c_int) -> c_int;
type CommIntFn = unsafe extern "C" fn(Handle, *mut c_int) -> c_int;
type BcastFn = unsafe extern "C" fn(*mut c_void, c_int, Handle, c_int, Handle) -> c_int;
type AllreduceFn = unsafe extern "C" fn(*const c_void, *mut c_void, c_int, Handle, Handle, Handle) -> c_int;
type FinalizeFn = unsafe extern "C" fn() -> c_int;

/// `MPI_COMM_WORLD` of the loaded MPI (feature `mpi`): the calls xp makes and the handles
/// they take. `dist::init` uses it by itself under an MPI launch; it is public, as
/// [`Rendezvous`](super::Rendezvous) is, for tests and embedding.
pub struct MpiWorld {
    _lib: Library,
    comm: Handle,
    byte: Handle,
    int: Handle,
    min: Handle,
    bcast: Symbol<BcastFn>,
    allreduce: Symbol<AllreduceFn>,
    finalize: Option<Symbol<FinalizeFn>>,
    rank: usize,
    size: usize,
}

// SAFETY: MPI is called from one thread at a time (the world is behind the communicator's
// mutex); the handles are plain values.
unsafe impl Send for MpiWorld {}

fn err(what: String) -> Error {
    Error::Dist { op: "dist::init (MPI)", kind: DistKind::Environment { what } }
}

/// Where MPI is looked for, in order: `XP_MPI_LIBRARY`, the dynamic loader's search, then the
/// `lib` folder beside each `mpiexec` on the `PATH` (the MPI that launched this process, where
/// it is not the system's: a Python wheel's, a module's).
fn candidates() -> Vec<String> {
    let names = ["libmpi.so.40", "libmpi.so.12", "libmpi.so"];
    let mut v: Vec<String> = std::env::var("XP_MPI_LIBRARY").into_iter().filter(|p| !p.is_empty()).collect();
    v.extend(names.map(String::from));
    for dir in std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect::<Vec<_>>()).unwrap_or_default() {
        let Ok(exe) = std::fs::canonicalize(dir.join("mpiexec")) else { continue };
        if let Some(lib) = exe.parent().and_then(|b| b.parent()).map(|p| p.join("lib")) {
            v.extend(
                names.iter().map(|n| lib.join(n)).filter(|f| f.is_file()).map(|f| f.to_string_lossy().into_owned()),
            );
        }
    }
    v
}

impl MpiWorld {
    /// MPI loaded and initialised (by xp where nobody has), and this process's place in
    /// `MPI_COMM_WORLD`.
    pub fn join() -> Result<MpiWorld> {
        let mut tried = Vec::new();
        let lib = candidates()
            .into_iter()
            .find_map(|name| {
                // SAFETY: loading MPI runs its initialisers, which have no preconditions;
                // global symbols, as Open MPI's plugins need them.
                match unsafe { Library::open(Some(&name), RTLD_NOW | RTLD_GLOBAL) } {
                    Ok(l) => Some(l),
                    Err(e) => {
                        tried.push(format!("{name}: {e}"));
                        None
                    }
                }
            })
            .ok_or_else(|| err(format!("no MPI library could be loaded ({})", tried.join("; "))))?;
        // SAFETY: each symbol is looked up with the C signature MPI gives it.
        unsafe {
            let sym = |n: &[u8]| -> Result<*mut c_void> {
                lib.get::<*mut c_void>(n).map(|s| *s).map_err(|e| err(format!("MPI lacks a symbol: {e}")))
            };
            // Open MPI's handles are addresses of its predefined objects; MPICH's are integers
            let (comm, byte, int, min) = match sym(b"ompi_mpi_comm_world\0") {
                Ok(c) => (
                    c as Handle,
                    sym(b"ompi_mpi_byte\0")? as Handle,
                    sym(b"ompi_mpi_int\0")? as Handle,
                    sym(b"ompi_mpi_op_min\0")? as Handle,
                ),
                Err(_) => (0x4400_0000, 0x4c00_010d, 0x4c00_0405, 0x5800_0002),
            };
            let initialized = func::<FlagFn>(&lib, b"MPI_Initialized\0")?;
            let mut flag = 0;
            ok("MPI_Initialized", initialized(&mut flag))?;
            let finalize = if flag == 0 {
                let init = func::<InitFn>(&lib, b"MPI_Init\0")?;
                ok("MPI_Init", init(std::ptr::null_mut(), std::ptr::null_mut()))?;
                Some(func::<FinalizeFn>(&lib, b"MPI_Finalize\0")?)
            } else {
                None
            };
            let (mut rank, mut size) = (0, 0);
            let comm_rank = func::<CommIntFn>(&lib, b"MPI_Comm_rank\0")?;
            let comm_size = func::<CommIntFn>(&lib, b"MPI_Comm_size\0")?;
            ok("MPI_Comm_rank", comm_rank(comm, &mut rank))?;
            ok("MPI_Comm_size", comm_size(comm, &mut size))?;
            let bcast = func::<BcastFn>(&lib, b"MPI_Bcast\0")?;
            let allreduce = func::<AllreduceFn>(&lib, b"MPI_Allreduce\0")?;
            Ok(MpiWorld {
                comm,
                byte,
                int,
                min,
                bcast,
                allreduce,
                finalize,
                rank: rank as usize,
                size: size as usize,
                _lib: lib,
            })
        }
    }

    /// This process's rank in `MPI_COMM_WORLD`.
    pub fn rank(&self) -> usize {
        self.rank
    }
    /// The size of `MPI_COMM_WORLD`.
    pub fn size(&self) -> usize {
        self.size
    }

    /// `buf` from rank `root` into `buf` on every rank.
    fn bcast_into(&self, buf: &mut [u8], root: usize) -> Result<()> {
        // SAFETY: `buf` holds `len` bytes on every rank (the callers pass one length).
        ok("MPI_Bcast", unsafe {
            (self.bcast)(buf.as_mut_ptr().cast(), buf.len() as c_int, self.byte, root as c_int, self.comm)
        })
    }

    /// The minimum of `v` over the ranks.
    fn min(&self, v: i32) -> Result<i32> {
        let mut out = 0i32;
        // SAFETY: one int in, one int out.
        ok("MPI_Allreduce", unsafe {
            (self.allreduce)((&v as *const i32).cast(), (&mut out as *mut i32).cast(), 1, self.int, self.min, self.comm)
        })?;
        Ok(out)
    }

    /// Bytes of any length from `root` (its length first).
    fn bcast_bytes(&self, bytes: &[u8], root: usize) -> Result<Vec<u8>> {
        let mut len = (bytes.len() as u64).to_le_bytes();
        self.bcast_into(&mut len, root)?;
        let mut buf = if self.rank == root { bytes.to_vec() } else { vec![0; u64::from_le_bytes(len) as usize] };
        self.bcast_into(&mut buf, root)?;
        Ok(buf)
    }
}

/// MPI's function `name` (NUL-terminated), of C type `T`.
///
/// # Safety
/// `T` is the function's C signature.
unsafe fn func<T>(lib: &Library, name: &[u8]) -> Result<Symbol<T>> {
    // SAFETY: the caller gives the signature.
    unsafe { lib.get::<T>(name) }.map_err(|e| err(format!("MPI lacks a function: {e}")))
}

fn ok(call: &str, code: c_int) -> Result<()> {
    if code == 0 {
        Ok(())
    } else {
        Err(Error::Dist { op: "dist (MPI)", kind: DistKind::Rendezvous { what: format!("{call} returned {code}") } })
    }
}

impl MpiWorld {
    /// Rank 0's `bytes` on every rank (`MPI_Bcast` of the length, then the bytes).
    pub fn broadcast(&mut self, bytes: &[u8]) -> Result<Vec<u8>> {
        self.bcast_bytes(bytes, 0)
    }

    /// `Ok` on every rank when every rank's `mine` is `Ok`; else the lowest failing rank's
    /// failure, typed, on every rank.
    pub fn agree(&mut self, mine: std::result::Result<(), DistKind>) -> Result<()> {
        // the lowest rank that failed tells the others why
        let first = self.min(if mine.is_err() { self.rank as i32 } else { i32::MAX })?;
        if first == i32::MAX {
            return Ok(());
        }
        let why = mine.err().map(|k| encode(&k)).unwrap_or_default();
        let why = self.bcast_bytes(&why, first as usize)?;
        Err(Error::Dist { op: "dist", kind: decode(&why) })
    }

    /// A typed `Mismatch` on every rank unless every rank describes its call as `what`.
    pub fn same(&mut self, what: &str) -> Result<()> {
        let theirs = self.bcast_bytes(what.as_bytes(), 0)?;
        let mine = (theirs != what.as_bytes()).then(|| DistKind::Mismatch {
            what: format!("rank {} called {what} where rank 0 called {}", self.rank, String::from_utf8_lossy(&theirs)),
        });
        self.agree(mine.map_or(Ok(()), Err))
    }
}

impl Meet for MpiWorld {
    fn broadcast(&mut self, bytes: &[u8]) -> Result<Vec<u8>> {
        MpiWorld::broadcast(self, bytes)
    }
    fn agree(&mut self, mine: std::result::Result<(), DistKind>) -> Result<()> {
        MpiWorld::agree(self, mine)
    }
    fn same(&mut self, what: &str) -> Result<()> {
        MpiWorld::same(self, what)
    }
}

impl Drop for MpiWorld {
    fn drop(&mut self) {
        if let Some(f) = &self.finalize {
            // SAFETY: MPI was initialised by xp, and this is the last use of it.
            unsafe { f() };
        }
    }
}
