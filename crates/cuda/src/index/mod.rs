//! The indexing family on the GPU: gathers and scatters through int64 index arrays that stay on
//! the device, `ufunc.at`, `nonzero` and boolean-mask compaction.
//!
//! Every gather and scatter runs over the index space `P × B × Q` of the family's one shape (see
//! `xp_core::backend::index`): the source layout with its indexed axes `K` replaced by stride-0
//! axes standing for `B`, the values or output, and a third layout that yields the position `b`
//! (stride 0 on `P` and `Q`, contiguous over `B`) are collapsed together into one `Idx`, so a
//! thread finds its source offset, its value offset and its `b` in one pass of divisions, then
//! adds `fix(i_j[b]) * stride_j` per index array.
//!
//! **Where calls wait.** Wrap and clip never wait. A raise-mode gather or scatter reads one word
//! back (the out-of-bounds flag, `flag.rs`) to answer `IndexOutOfBounds`; a scatter checks every
//! index before writing anything (so `self` is unchanged on error). `nonzero` and `compress` read
//! the number of kept elements back to size their result (`compact.rs`): NumPy's shapes depend on
//! the data, so that wait cannot be avoided.
mod atomic;
pub(crate) use atomic::{strategy, update_fn, Strategy};
mod compact;
mod compact_src;
mod flag;
mod gather;
mod privatized;
mod scatter;
#[cfg(test)]
mod tests;

use crate::runtime::buffer::CudaStorage;
use cudarc::driver::DeviceRepr;
use xp_core::{Combine, DType, Error, IndexMode, IndexSet, IndexStorage, Layout, Result};

/// The most index arrays one gather or scatter takes (NumPy allows one per axis; xp's kernels
/// address at most 12 axes, as the indexer).
pub(crate) const MAXK: usize = 12;

/// The index arrays of a launch, passed by value (mirrors `struct Ks` of [`COMMON`]): per array
/// its first element, the length and stride of the axis it addresses, and the stride of that
/// axis in the C-order numbering of the addressed positions `K` (scatter's duplicate detection).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ks {
    pub(crate) p: [u64; MAXK],
    pub(crate) len: [i64; MAXK],
    pub(crate) st: [i64; MAXK],
    pub(crate) ts: [i64; MAXK],
}

// SAFETY: plain #[repr(C)] integers, laid out as `struct Ks` of the device code.
unsafe impl DeviceRepr for Ks {}

impl Ks {
    /// The axes `axis .. axis + k` of `l` (array pointers left 0).
    pub(crate) fn for_layout(l: &Layout, axis: usize, k: usize) -> Ks {
        let mut ks = Ks { p: [0; MAXK], len: [0; MAXK], st: [0; MAXK], ts: [0; MAXK] };
        let mut t = 1i64;
        for j in (0..k).rev() {
            let n = l.shape()[axis + j];
            ks.len[j] = n as i64;
            ks.st[j] = l.strides()[axis + j] as i64;
            ks.ts[j] = t;
            t = t.saturating_mul(n.max(1) as i64);
        }
        ks
    }
}

/// What a kernel does with an index (the device's `fix<M>`): NumPy's three modes, and `Unchecked`
/// for indices xp made itself (the coordinates of a compaction), known to be in range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fix {
    Raise = 0,
    Wrap = 1,
    Clip = 2,
    Unchecked = 3,
}

impl Fix {
    /// The mode in a kernel's name.
    pub(crate) fn name(self) -> &'static str {
        ["raise", "wrap", "clip", "unchecked"][self as usize]
    }
}

impl From<IndexMode> for Fix {
    fn from(m: IndexMode) -> Fix {
        match m {
            IndexMode::Raise => Fix::Raise,
            IndexMode::Wrap => Fix::Wrap,
            IndexMode::Clip => Fix::Clip,
        }
    }
}

/// An [`IndexSet`] resolved against a layout: the arrays checked, the launch argument built.
pub(crate) struct Addr<'a> {
    pub(crate) axis: usize,
    pub(crate) k: usize,
    /// lengths of the addressed axes
    pub(crate) lens: Vec<usize>,
    /// the index shape `B` and its size
    pub(crate) bshape: &'a [usize],
    pub(crate) nb: usize,
    pub(crate) fix: Fix,
    pub(crate) ks: Ks,
    /// the index storages and their element offsets
    pub(crate) arrays: Vec<(&'a CudaStorage, usize)>,
}

impl<'a> Addr<'a> {
    pub(crate) fn new(
        dst: &CudaStorage,
        l: &Layout,
        set: &IndexSet<'a, CudaStorage>,
        fix: Fix,
        op: &'static str,
    ) -> Result<Addr<'a>> {
        let k = set.arrays.len();
        if set.axis + k > l.ndim() {
            return Err(Error::TooManyIndices { ndim: l.ndim(), given: set.axis + k });
        }
        if k > MAXK {
            return Err(Error::Unsupported { op: "more than 12 index arrays", backend: "cuda" });
        }
        let nb = set.len();
        let mut ks = Ks::for_layout(l, set.axis, k);
        for (j, &(s, off)) in set.arrays.iter().enumerate() {
            if s.dtype != DType::I64 {
                return Err(Error::IndexDType { op, dtype: s.dtype });
            }
            if s.dev.ordinal != dst.dev.ordinal {
                return Err(Error::DeviceMismatch {
                    op,
                    lhs: xp_core::Device::Cuda(dst.dev.ordinal),
                    rhs: xp_core::Device::Cuda(s.dev.ordinal),
                });
            }
            if off + nb > s.len {
                return Err(Error::invalid(op, "an index array is shorter than the index shape"));
            }
            ks.p[j] = s.ptr(off);
        }
        let lens: Vec<usize> = l.shape()[set.axis..set.axis + k].to_vec();
        Ok(Addr { axis: set.axis, k, lens, bshape: set.shape, nb, fix, ks, arrays: set.arrays.to_vec() })
    }
    /// The number of addressed positions `prod(K)`.
    pub(crate) fn nk(&self) -> usize {
        self.lens.iter().product()
    }
    /// The index storages, for stream ordering.
    pub(crate) fn storages(&self) -> Vec<&'a CudaStorage> {
        self.arrays.iter().map(|a| a.0).collect()
    }
    /// Wrap and clip have no answer for an empty axis (NumPy: "cannot do a non-empty take from an
    /// empty axes"): the error names the first index of the first empty axis (one read back).
    pub(crate) fn empty_axis_error(&self) -> Result<()> {
        match self.lens.iter().position(|&n| n == 0) {
            Some(j) if self.nb > 0 && self.fix != Fix::Raise => {
                let (s, off) = self.arrays[j];
                let index = read_i64(s, off)? as isize;
                Err(Error::IndexOutOfBounds { index, axis: self.axis + j, size: 0 })
            }
            _ => Ok(()),
        }
    }
    /// The layouts of the index space `P × B × Q` over `l`: its shape, `l` with the addressed axes
    /// replaced by stride-0 axes for `B` (offset kept), and the layout that yields `b`.
    pub(crate) fn pbq(&self, l: &Layout) -> (Vec<usize>, Layout, Layout) {
        let (p, q) = (&l.shape()[..self.axis], &l.shape()[self.axis + self.k..]);
        let mut shape = p.to_vec();
        shape.extend_from_slice(self.bshape);
        shape.extend_from_slice(q);
        let mut st = l.strides()[..self.axis].to_vec();
        st.extend(std::iter::repeat_n(0, self.bshape.len()));
        st.extend_from_slice(&l.strides()[self.axis + self.k..]);
        let base = Layout::new(shape.clone(), st, l.offset());
        let bc = Layout::contiguous(self.bshape);
        let mut bst = vec![0; p.len()];
        bst.extend_from_slice(bc.strides());
        bst.extend(std::iter::repeat_n(0, q.len()));
        (shape.clone(), base, Layout::new(shape, bst, 0))
    }
}

/// Read one 8-byte element of `s` back to the host (waits for the current stream).
pub(crate) fn read_i64(s: &CudaStorage, off: usize) -> Result<i64> {
    let w = s.dev.work(&[s])?;
    let mut v = [0u8; 8];
    debug_assert!(off < s.len && s.dtype.size() == 8);
    s.dev.read_small(w.stream(), s.buf.ptr + off as u64 * 8, &mut v)?;
    w.done()?;
    Ok(i64::from_ne_bytes(v))
}

/// The CUDA type that moves `bytes` bytes in one access (gathers and assignments copy bits).
pub(crate) fn word_ty(bytes: usize) -> &'static str {
    match bytes {
        1 => "u8",
        2 => "u16",
        4 => "u32",
        8 => "u64",
        _ => "Pack<2, u64>",
    }
}

/// An expression that turns compute value `v` into the storage type of `d`.
pub(crate) fn store_expr(d: DType, v: &str) -> String {
    match d {
        DType::F16 => format!("st_h({v})"),
        DType::BF16 => format!("st_bh({v})"),
        _ => format!("({})({v})", crate::codegen::storage_ty(d)),
    }
}

/// Code that sets `p{k}` for each `k` of `slots` to operand k's offset of position `i` of the
/// indexer `ix`; `small` (fewer than 2^31 positions) divides in 32 bits. The outermost dimension
/// needs no division.
pub(crate) fn offsets(slots: &[usize], small: bool) -> String {
    let it = if small { "u32" } else { "i64" };
    let decl: Vec<String> = slots.iter().map(|k| format!("p{k} = ix.off[{k}]")).collect();
    let (mut inner, mut last) = (String::new(), String::new());
    for k in slots {
        inner += &format!(" p{k} += (i64)q * ix.st[{k}][d];");
        last += &format!(" p{k} += (i64)r * ix.st[{k}][0];");
    }
    format!(
        "i64 {};\n    {{ {it} r = ({it})i;\n      for (int d = (int)ix.nd - 1; d > 0; --d) {{ const {it} s = ({it})ix.shape[d], q = r % s; r /= s;{inner} }}\n     {last} }}",
        decl.join(", ")
    )
}

/// Device code shared by every kernel of the family (after the prelude): the index arrays, the
/// index modes, bit casts and an indexer lookup.
pub(crate) const COMMON: &str = r#"
struct Ks { const i64* p[12]; i64 len[12]; i64 st[12]; i64 ts[12]; };
// NumPy's index modes: 0 raise (negatives from the end; the caller checks the range), 1 wrap
// (Python modulo, only computed off the fast path), 2 clip (negatives clip to 0), 3 in range.
template <int M> __device__ __forceinline__ i64 fix(i64 i, i64 len) {
  if (M == 0) return i < 0 ? i + len : i;
  if (M == 1) { if ((u64)i >= (u64)len) { i %= len; if (i < 0) i += len; } return i; }
  if (M == 2) return i < 0 ? 0 : (i >= len ? len - 1 : i);
  return i;
}
template <class D, class S> __device__ __forceinline__ D bitcast(S s) { union { S s; D d; } u; u.s = s; return u.d; }
// The offset of position e of operand k of an indexer.
__device__ __forceinline__ i64 at(const Idx& ix, int k, i64 e) {
  i64 p = ix.off[k];
  for (int d = (int)ix.nd - 1; d > 0; --d) { const i64 s = ix.shape[d]; p += (e % s) * ix.st[k][d]; e /= s; }
  return p + e * ix.st[k][0];
}
"#;

impl IndexStorage for CudaStorage {
    fn gather(&self, l: &Layout, set: &IndexSet<'_, Self>) -> Result<Self> {
        gather::gather(self, l, set)
    }
    fn scatter(&mut self, l: &Layout, set: &IndexSet<'_, Self>, v: &Self, vl: &Layout, how: Combine) -> Result<()> {
        scatter::scatter(self, l, set, v, vl, how)
    }
    fn nonzero(&self, l: &Layout) -> Result<Self> {
        compact::nonzero(self, l)
    }
    fn compress(&self, l: &Layout, axis: usize, mask: &Self, ml: &Layout) -> Result<Self> {
        compact::compress(self, l, axis, mask, ml)
    }
}
