//! The out-of-bounds flag of raise mode: one u64 on the device, set to `u64::MAX`, that kernels
//! lower with `atomicMin` to the position `j * len(B) + b` of each index they find out of range.
//! The minimum is the first violation in NumPy's order (NumPy checks one index array after the
//! other, each in C order), so reading the flag back once (the one wait of a raise-mode call) and
//! then the raw index it names gives NumPy's error. Wrap and clip never use it. A word read back
//! clean serves the next call on its stream without a fill.
use super::{read_i64, Addr, COMMON};
use crate::codegen::PRELUDE;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use crate::runtime::launch::{cfg, Family, Key, Source};
use std::cell::Cell;
use std::sync::Mutex;
use xp_core::{DType, Error, Result};

/// A device word recording the first out-of-range index of a launch.
pub(crate) struct Flag {
    word: Option<CudaStorage>,
    /// read back as `u64::MAX` after every use: the word may serve another call unfilled
    clean: Cell<bool>,
}

/// Flag words read back clean, kept so that the next raise-mode call on the same stream needs no
/// allocation and no fill (each is reused only on the stream it was allocated on, where its
/// last use is already complete: the read back waited for it).
static CLEAN: Mutex<Vec<CudaStorage>> = Mutex::new(Vec::new());
/// At most this many words are kept.
const KEEP: usize = 16;

impl Flag {
    /// A flag reading `u64::MAX` (no violation) for the current stream: a clean word kept from an
    /// earlier call, or a new one set on the current stream.
    pub(crate) fn new(dst: &CudaStorage) -> Result<Flag> {
        let s = dst.dev.current();
        let kept = {
            let mut pool = CLEAN.lock().unwrap_or_else(|e| e.into_inner());
            let mine = |w: &CudaStorage| w.dev.ordinal == dst.dev.ordinal && w.buf.stream.cu_stream() == s.cu_stream();
            pool.iter().position(mine).map(|i| pool.swap_remove(i))
        };
        let word = match kept {
            Some(w) => w,
            None => {
                let word = CudaStorage::alloc(&dst.dev, DType::U64, 1)?;
                dst.dev.bind()?;
                // SAFETY: the block holds at least 8 bytes; the fill is ordered on the current
                // stream, before any kernel that uses the flag.
                unsafe { cudarc::driver::result::memset_d8_async(word.ptr(0), 0xff, 8, s.cu_stream()) }
                    .map_err(driver_err)?;
                word
            }
        };
        Ok(Flag { word: Some(word), clean: Cell::new(false) })
    }
    /// The flag's device address.
    pub(crate) fn ptr(&self) -> u64 {
        self.word().ptr(0)
    }
    fn word(&self) -> &CudaStorage {
        self.word.as_ref().expect("a flag holds its word until dropped")
    }
    /// Read the flag back (waits for the current stream) and turn a violation into NumPy's error:
    /// the raw index (one more read, on the error path only), its axis and that axis's size.
    pub(crate) fn check(&self, a: &Addr<'_>) -> Result<()> {
        let pos = read_i64(self.word(), 0)? as u64;
        if pos == u64::MAX {
            self.clean.set(true);
            return Ok(());
        }
        let (j, b) = locate(pos, a.nb);
        let (s, off) = a.arrays[j];
        let index = read_i64(s, off + b)? as isize;
        Err(Error::IndexOutOfBounds { index, axis: a.axis + j, size: a.lens[j] })
    }
}

impl Drop for Flag {
    fn drop(&mut self) {
        if let (true, Some(w)) = (self.clean.get(), self.word.take()) {
            let mut pool = CLEAN.lock().unwrap_or_else(|e| e.into_inner());
            if pool.len() < KEEP {
                pool.push(w);
            }
        }
    }
}

/// The (array, position) of a flag value.
pub(crate) fn locate(pos: u64, nb: usize) -> (usize, usize) {
    let nb = nb.max(1) as u64;
    ((pos / nb) as usize, (pos % nb) as usize)
}

/// Device code: report index `c` (already `fix`ed) of array `j` at position `b` when out of range,
/// and say whether it was in range.
pub(crate) fn check_code(c: &str, j: &str, b: &str) -> String {
    format!("((u64){c} < (u64)ks.len[{j}] || (atomicMin(flag, (u64)({j}) * (u64)nb + (u64)({b})), false))")
}

/// Source of the validation kernel: a thread per index position, each of the `k` arrays checked.
pub(crate) fn validate_src(k: usize) -> String {
    let ok = check_code("c", "j", "b");
    format!(
        "{PRELUDE}{COMMON}
extern \"C\" __global__ void XP_NAME(check_indices)(Ks ks, i64 nb, u64* flag) {{
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 b = (i64)blockIdx.x * blockDim.x + threadIdx.x; b < nb; b += step) {{
#pragma unroll
    for (int j = 0; j < {k}; ++j) {{ const i64 c = fix<0>(ks.p[j][b], ks.len[j]); (void){ok}; }}
  }}
}}\n"
    )
}

/// Check every index of a raise-mode set before anything is written: one launch, one read back.
pub(crate) fn validate(dst: &CudaStorage, a: &Addr<'_>) -> Result<()> {
    if a.nb == 0 || a.k == 0 {
        return Ok(());
    }
    let flag = Flag::new(dst)?;
    let key = Key::new(Family::IndexCheck).bits(4, a.k as u64);
    let k = dst.dev.kernel(key, "check_indices", || Source::new(format!("k{}", a.k), validate_src(a.k)))?;
    let arrays = a.storages();
    let w = dst.dev.work(&arrays)?;
    let (nb, fp) = (a.nb as i64, flag.ptr());
    // SAFETY: parameters match the kernel; each array holds `nb` indices from its pointer.
    unsafe { w.launch(&k, cfg(nb), &[&a.ks, &nb, &fp]) }?;
    w.done()?;
    flag.check(a)
}
