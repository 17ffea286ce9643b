//! NVRTC compilation to a cubin for the device's own architecture, with a cache on disk, and the
//! prelude every generated kernel begins with ([`PRELUDE`]: storage types, conversions, the device
//! function of every op, the indexer).
//!
//! NVRTC's automatic precompiled header was tried for the prelude and left out: NVRTC's front end
//! is only 40–50 ms of a generated kernel's 300–450 ms on an H100 host (the optimizer and PTX
//! translation take the rest; `benches/experiments/nvrtc_phases.py`, `benches/RESULTS.md`).
//!
//! Entries live under `XP_CACHE_DIR` (default `$XDG_CACHE_HOME/xp/kernels` or
//! `~/.cache/xp/kernels`), named by a hash of the source, options, architecture and NVRTC version.
//! A file holds a magic tag, the payload length, a checksum and the cubin; a file that fails any
//! check is recompiled and rewritten, never trusted. Writes go to a temporary file that is renamed
//! into place, so readers never see half a file.
use cudarc::nvrtc::sys;
use std::ffi::{c_char, CString};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use xp_core::{BinaryOp, Error, Result, UnaryOp};

const MAGIC: &[u8; 8] = b"xpcubin1";

/// The prelude compiled in front of every generated kernel (types, conversions, op functions,
/// indexer; CUDA's special functions that the math library lacks).
pub(crate) const PRELUDE: &str = include_str!("prelude.cu");
/// SciPy's special functions on the device (`u_erf`, `b_beta`, …), added after the [`PRELUDE`] of
/// the kernels that call one ([`with_special`]), so that every other kernel's front end skips
/// their ~300 lines.
pub(crate) const SPECIAL: &str = include_str!("special.cu");

/// `src` with [`SPECIAL`] after its prelude where, after the prelude, it calls the device
/// function of one of `xp::special`'s ops (`u_<name>(` or `b_<name>(`); else `src` itself.
pub(crate) fn with_special(src: &str) -> std::borrow::Cow<'_, str> {
    static CALLS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let calls = CALLS.get_or_init(|| {
        let u = UnaryOp::ALL.iter().filter(|o| o.is_special()).map(|o| format!("u_{}(", o.name()));
        u.chain(BinaryOp::ALL.iter().filter(|o| o.is_special()).map(|o| format!("b_{}(", o.name()))).collect()
    });
    let Some(at) = src.find(PRELUDE).map(|i| i + PRELUDE.len()) else { return src.into() };
    if !calls.iter().any(|c| src[at..].contains(c.as_str())) {
        return src.into();
    }
    format!("{}{SPECIAL}{}", &src[..at], &src[at..]).into()
}

static COMPILED: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static COMPILED_HERE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How long each NVRTC compilation of this process took, in nanoseconds, in order.
static COMPILE_NS: std::sync::Mutex<Vec<u64>> = std::sync::Mutex::new(Vec::new());

/// The wall-clock seconds of each NVRTC compilation this process ran, in order (cache hits take
/// none): what a first run waits for.
pub fn compile_seconds() -> Vec<f64> {
    COMPILE_NS.lock().unwrap_or_else(|e| e.into_inner()).iter().map(|&n| n as f64 * 1e-9).collect()
}

/// Count a compilation that took `t`, and write its source under `XP_KERNEL_SOURCES` when that is
/// set (for reading or profiling the generated CUDA).
fn compiled(t: std::time::Duration, src: &str) {
    COMPILED.fetch_add(1, Ordering::Relaxed);
    COMPILED_HERE.with(|c| c.set(c.get() + 1));
    COMPILE_NS.lock().unwrap_or_else(|e| e.into_inner()).push(t.as_nanos() as u64);
    if let Some(dir) = std::env::var_os("XP_KERNEL_SOURCES") {
        let dir = PathBuf::from(dir);
        let h = format!("{:016x}", fnv(6, src.as_bytes()));
        if std::fs::create_dir_all(&dir).is_ok() {
            let _ = std::fs::write(dir.join(format!("{h}.cu")), src);
        }
    }
}

/// Number of kernels the calling thread compiled with NVRTC (unaffected by other threads).
pub fn kernels_compiled_on_this_thread() -> usize {
    COMPILED_HERE.with(|c| c.get())
}

/// Number of kernels this process compiled with NVRTC (cache hits, in memory or on disk, do not
/// count).
pub fn kernels_compiled() -> usize {
    COMPILED.load(Ordering::Relaxed)
}

/// FNV-1a over bytes, from a seed: stable across Rust versions and platforms.
pub(crate) fn fnv(seed: u64, bytes: &[u8]) -> u64 {
    let mut h = seed ^ 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn nvrtc_version() -> (i32, i32) {
    let (mut a, mut b) = (0, 0);
    // SAFETY: writes two ints.
    unsafe { sys::nvrtcVersion(&mut a, &mut b) };
    (a, b)
}

fn cache_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("XP_CACHE_DIR") {
        return Some(PathBuf::from(d));
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("xp").join("kernels"))
}

fn check(r: sys::nvrtcResult, what: &str) -> Result<()> {
    if r == sys::nvrtcResult::NVRTC_SUCCESS {
        Ok(())
    } else {
        Err(Error::Cuda(format!("NVRTC {what}: {r:?}")))
    }
}

/// Compile `src` for `arch` (e.g. "sm_90") to a cubin, through the disk cache.
pub(crate) fn cubin(src: &str, arch: &str) -> Result<Vec<u8>> {
    cubin_with(src, arch, &[])
}

/// NVRTC's options: the device's architecture, C++17, device code by default, NVRTC's own cache
/// off (12.9 and later: xp's cache above holds the cubins already), then `extra`.
fn options(arch: &str, extra: &[String]) -> Vec<String> {
    let mut opts = vec![format!("-arch={arch}"), "-std=c++17".to_string(), "-default-device".to_string()];
    if nvrtc_version() >= (12, 9) {
        opts.push("--no-cache".into());
    }
    opts.extend(extra.iter().cloned());
    opts
}

/// [`cubin`] with further NVRTC options (a user's `-D...`, `--use_fast_math`, ...).
pub(crate) fn cubin_with(src: &str, arch: &str, extra: &[String]) -> Result<Vec<u8>> {
    let src = &*with_special(src);
    let opts = options(arch, extra);
    let (ma, mi) = nvrtc_version();
    let key_text = format!("{src}\u{0}{}\u{0}{arch}\u{0}{ma}.{mi}", opts.join(" "));
    let key = format!("{:016x}{:016x}", fnv(1, key_text.as_bytes()), fnv(2, key_text.as_bytes()));
    let path = cache_dir().map(|d| d.join(format!("{key}.cubin")));
    if let Some(bin) = path.as_ref().and_then(read_entry) {
        return Ok(bin);
    }
    let t = std::time::Instant::now();
    let (bin, _) = compile(src, &opts, &[])?;
    compiled(t.elapsed(), src);
    if let Some(p) = path {
        write_entry(&p, &bin);
    }
    Ok(bin)
}

fn read_entry(p: &PathBuf) -> Option<Vec<u8>> {
    let data = std::fs::read(p).ok()?;
    if data.len() < 24 || &data[..8] != MAGIC {
        return None;
    }
    let len = u64::from_le_bytes(data[8..16].try_into().ok()?) as usize;
    let sum = u64::from_le_bytes(data[16..24].try_into().ok()?);
    let payload = data.get(24..)?;
    (payload.len() == len && fnv(3, payload) == sum).then(|| payload.to_vec())
}

fn write_entry(p: &PathBuf, bin: &[u8]) {
    let Some(dir) = p.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let mut data = Vec::with_capacity(bin.len() + 24);
    data.extend_from_slice(MAGIC);
    data.extend_from_slice(&(bin.len() as u64).to_le_bytes());
    data.extend_from_slice(&fnv(3, bin).to_le_bytes());
    data.extend_from_slice(bin);
    let tmp = dir.join(format!(".{}.{}.tmp", std::process::id(), fnv(4, bin)));
    // A failed write only costs a recompilation next time.
    if std::fs::write(&tmp, &data).is_ok() && std::fs::rename(&tmp, p).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// Compile `src` with `extra` options and the template instantiations `names` (NVRTC's name
/// expressions), without the disk cache: the cubin and each name's lowered (mangled) name.
pub(crate) fn cubin_named(src: &str, arch: &str, extra: &[String], names: &[String]) -> Result<(Vec<u8>, Vec<String>)> {
    let src = &*with_special(src);
    let opts = options(arch, extra);
    let t = std::time::Instant::now();
    let r = compile(src, &opts, names)?;
    compiled(t.elapsed(), src);
    Ok(r)
}

fn compile(src: &str, opts: &[String], names: &[String]) -> Result<(Vec<u8>, Vec<String>)> {
    let cnames: Vec<CString> = names
        .iter()
        .map(|n| {
            CString::new(n.as_str()).map_err(|_| Error::invalid("RawModule", "a name expression contains a NUL byte"))
        })
        .collect::<Result<_>>()?;
    let csrc = CString::new(src).map_err(|_| Error::Cuda("kernel source contains a NUL byte".into()))?;
    let name = CString::new("xp.cu").expect("no NUL");
    let mut prog: sys::nvrtcProgram = std::ptr::null_mut();
    // SAFETY: all pointers are valid C strings for the duration of the calls; the program is
    // destroyed on every path below.
    unsafe {
        check(
            sys::nvrtcCreateProgram(&mut prog, csrc.as_ptr(), name.as_ptr(), 0, std::ptr::null(), std::ptr::null()),
            "create",
        )?;
        for n in &cnames {
            if let Err(e) = check(sys::nvrtcAddNameExpression(prog, n.as_ptr()), "name expression") {
                sys::nvrtcDestroyProgram(&mut prog);
                return Err(e);
            }
        }
        let copts: Vec<CString> =
            match opts.iter().map(|o| CString::new(o.as_str())).collect::<std::result::Result<_, _>>() {
                Ok(c) => c,
                Err(_) => {
                    sys::nvrtcDestroyProgram(&mut prog);
                    return Err(Error::invalid("RawModule", "an option contains a NUL byte"));
                }
            };
        let ptrs: Vec<*const c_char> = copts.iter().map(|c| c.as_ptr()).collect();
        let r = sys::nvrtcCompileProgram(prog, ptrs.len() as i32, ptrs.as_ptr());
        let out = if r != sys::nvrtcResult::NVRTC_SUCCESS {
            let mut n = 0usize;
            sys::nvrtcGetProgramLogSize(prog, &mut n);
            let mut log = vec![0u8; n.max(1)];
            sys::nvrtcGetProgramLog(prog, log.as_mut_ptr() as *mut c_char);
            let log = String::from_utf8_lossy(&log).trim_end_matches('\0').to_string();
            Err(Error::KernelCompile { kernel: String::new(), log })
        } else {
            let mut n = 0usize;
            check(sys::nvrtcGetCUBINSize(prog, &mut n), "cubin size")
                .and_then(|_| {
                    let mut bin = vec![0u8; n];
                    check(sys::nvrtcGetCUBIN(prog, bin.as_mut_ptr() as *mut c_char), "cubin").map(|_| bin)
                })
                .and_then(|bin| {
                    let mut lowered = Vec::new();
                    for n in &cnames {
                        let mut p: *const c_char = std::ptr::null();
                        check(sys::nvrtcGetLoweredName(prog, n.as_ptr(), &mut p), "lowered name")?;
                        lowered.push(std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned());
                    }
                    Ok((bin, lowered))
                })
        };
        sys::nvrtcDestroyProgram(&mut prog);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_functions_come_only_with_kernels_that_call_one() {
        let plain = format!("#define XP_NAME(e) e\n{PRELUDE}\n__global__ void k(float* o) {{ o[0] = u_exp(o[0]); }}\n");
        assert_eq!(with_special(&plain), plain.as_str());
        for call in ["u_erf(o[0])", "b_beta(o[0], o[1])", "u_log_ndtr(o[0])"] {
            let s = format!("{PRELUDE}\n__global__ void k(float* o) {{ o[0] = {call}; }}\n");
            let w = with_special(&s);
            assert_eq!(w.len(), s.len() + SPECIAL.len(), "{call}");
            assert!(w.starts_with(&format!("{PRELUDE}{SPECIAL}")), "{call}: after the prelude");
        }
        assert_eq!(with_special("no prelude: u_erf(x)"), "no prelude: u_erf(x)");
    }

    #[test]
    fn corrupt_entries_are_rejected() {
        let dir = std::env::temp_dir().join(format!("xp-cache-test-{}", std::process::id()));
        let p = dir.join("k.cubin");
        write_entry(&p, b"payload bytes");
        assert_eq!(read_entry(&p).as_deref(), Some(&b"payload bytes"[..]));
        let mut data = std::fs::read(&p).unwrap();
        let last = data.len() - 1;
        data[last] ^= 1; // garbage
        std::fs::write(&p, &data).unwrap();
        assert_eq!(read_entry(&p), None);
        std::fs::write(&p, &data[..10]).unwrap(); // truncated
        assert_eq!(read_entry(&p), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
