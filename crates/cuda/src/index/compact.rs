//! Compaction: `nonzero` and `compress` (`a[mask]`, `a[:, mask]`), by tile counts, a scan of
//! them and a ranked write (see `compact_src.rs`).
//!
//! **The wait.** The result's length is the number of kept positions, which only the device
//! knows: after the count and scan launches the host reads that one total back (8 bytes), which
//! waits for the stream, then allocates the result and queues the write. NumPy's data-dependent
//! shapes leave no way around it (CuPy waits in the same place).
//!
//! `compress` with a mask over every non-trivial axis (`a[a > 0.5]`) writes the kept values
//! directly; with axes before or after the mask it writes the kept coordinates (one int64 array
//! per mask axis) and gathers `P × [count] × Q` through them.
use super::compact_src::{access_spec, count_src, scan_src, write_src, Access, Out, IPT};
use super::gather::gather_into;
use super::{read_i64, Addr, Fix};
use crate::runtime::buffer::CudaStorage;
use crate::runtime::launch::{Family, Key, Param, Source};
use crate::space::{idx, vector_width, Idx};
use cudarc::driver::{DeviceRepr, LaunchConfig};
use xp_core::{DType, Device, Error, IndexMode, IndexSet, Layout, Result};

const THREADS: u32 = 256;
const MAXND: usize = 32;

/// The logical shape whose C-order coordinates a compaction writes (mirrors `struct Dims`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct Dims {
    nd: i64,
    d: [i64; MAXND],
}

// SAFETY: plain #[repr(C)] integers, laid out as `struct Dims` of the write kernel.
unsafe impl DeviceRepr for Dims {}

/// One compaction: the flag source and, for value compaction, the value source, both over the
/// same shape (C order of that shape is the order of the result).
pub(crate) struct Compaction<'a> {
    f: &'a CudaStorage,
    fa: Access,
    /// the pointer the kernels read flags from (pre-offset when dense)
    fp: u64,
    ix: Idx,
    n: usize,
    vals: Option<(&'a CudaStorage, Access, u64)>,
}

/// How to read `l` of `s`: dense (a pointer at its first element and the widest aligned load of
/// at most `IPT` elements and 16 bytes) or through the indexer.
fn access(s: &CudaStorage, l: &Layout) -> (Access, u64) {
    let size = s.dtype.size();
    if l.is_contiguous() {
        let vec = vector_width((16 / size).clamp(1, IPT), |v| l.offset().is_multiple_of(v));
        (Access { dtype: s.dtype, dense: true, vec }, s.ptr(l.offset()))
    } else {
        (Access { dtype: s.dtype, dense: false, vec: 1 }, s.buf.ptr)
    }
}

fn tiles(n: usize) -> usize {
    n.div_ceil(IPT * THREADS as usize)
}

fn grid(blocks: usize) -> LaunchConfig {
    LaunchConfig { grid_dim: (blocks.clamp(1, 1 << 20) as u32, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 }
}

impl<'a> Compaction<'a> {
    /// Keep the positions of `fl` (over `f`) that are nonzero; `vals`: the values to compact.
    pub(crate) fn new(
        f: &'a CudaStorage,
        fl: &Layout,
        vals: Option<(&'a CudaStorage, &Layout)>,
    ) -> Result<Compaction<'a>> {
        let (fa, fp) = access(f, fl);
        let ix = match vals {
            Some((_, vl)) => idx(&[fl, vl])?,
            None => idx(&[fl])?,
        };
        // Values load one per thread and round (coalesced): no vector width.
        let vals = vals.map(|(v, vl)| {
            let (a, p) = access(v, vl);
            (v, Access { vec: 1, ..a }, p)
        });
        Ok(Compaction { f, fa, fp, ix, n: fl.numel(), vals })
    }
    /// Count and scan: the tile offsets (`tiles + 1` int64, the total last). Queues two launches.
    fn offsets(&self) -> Result<CudaStorage> {
        let dev = &self.f.dev;
        let t = tiles(self.n);
        let cnt = CudaStorage::alloc(dev, DType::I32, t)?;
        let offs = CudaStorage::alloc(dev, DType::I64, t + 1)?;
        let key = Key::new(Family::CompactCount).dtype(self.fa.dtype).flag(self.fa.dense).bits(5, self.fa.vec as u64);
        let kc = dev.kernel(key, "compact_count", || Source::new(access_spec(self.fa), count_src(self.fa)))?;
        let ks = dev.kernel(Key::new(Family::CompactScan), "compact_scan", || Source::new("", scan_src()))?;
        let w = dev.work(&[self.f, &cnt, &offs])?;
        let (n, nt) = (self.n as i64, t as i64);
        // SAFETY: parameters match the kernel; flags are read only below `n` (dense: from the
        // pre-offset pointer, else at indexer offsets of the validated layout); `cnt` has a slot
        // per tile.
        unsafe { w.launch(&kc, grid(t), &[&self.fp, &self.ix, &n, &cnt.buf.ptr]) }?;
        let one = LaunchConfig { grid_dim: (1, 1, 1), block_dim: (1024, 1, 1), shared_mem_bytes: 0 };
        // SAFETY: one block reads `t` counts and writes `t + 1` offsets.
        unsafe { w.launch(&ks, one, &[&cnt.buf.ptr, &offs.buf.ptr, &nt]) }?;
        w.done()?;
        Ok(offs)
    }
    /// Count, scan and read the total back (the wait): the offsets and the number kept.
    pub(crate) fn count(&self) -> Result<(CudaStorage, usize)> {
        let offs = self.offsets()?;
        let total = read_i64(&offs, tiles(self.n))?;
        Ok((offs, total as usize))
    }
    /// The write launch, its output parameters in `extra`.
    fn write(&self, offs: &CudaStorage, extra: Extra, outs: &[&CudaStorage]) -> Result<()> {
        let dev = &self.f.dev;
        let out = match extra {
            Extra::Values { .. } => Out::Values(self.vals.expect("a value compaction").1),
            Extra::Coords { .. } => Out::Coords,
        };
        let key = Key::new(Family::CompactWrite).dtype(self.fa.dtype).flag(self.fa.dense).bits(5, self.fa.vec as u64);
        let key = match out {
            Out::Values(v) => key.bits(2, 0).dtype(v.dtype).flag(v.dense),
            Out::Coords => key.bits(2, 1),
        };
        let k = dev.kernel(key, "compact_write", || {
            let what = match out {
                Out::Values(v) => format!("values_{}", access_spec(v)),
                Out::Coords => "coords".into(),
            };
            Source::new(format!("{}_{what}", access_spec(self.fa)), write_src(self.fa, out))
        })?;
        let mut ins = vec![self.f, offs];
        ins.extend(self.vals.map(|v| v.0));
        ins.extend(outs);
        let w = dev.work(&ins)?;
        let n = self.n as i64;
        let mut args: Vec<&dyn Param> = vec![&self.fp, &self.ix, &n, &offs.buf.ptr];
        match &extra {
            Extra::Values { vp, o } => args.extend([vp as &dyn Param, o]),
            Extra::Coords { o, dm, rs, js } => args.extend([o as &dyn Param, dm, rs, js]),
        };
        // SAFETY: parameters match the kernel (the common ones, then the output's); reads as for
        // the count; each kept position's rank is below the total the output was sized by.
        unsafe { w.launch(&k, grid(tiles(self.n)), &args) }?;
        w.done()
    }
    /// Write the kept values into `out` (at least the counted number of elements).
    pub(crate) fn write_values(&self, offs: &CudaStorage, out: &CudaStorage) -> Result<()> {
        let vp = self.vals.expect("a value compaction").2;
        self.write(offs, Extra::Values { vp, o: out.buf.ptr }, &[out])
    }
    /// Write the coordinates (over `shape`, C order) of each kept position: coordinate `d` of rank
    /// `r` at element `r * rs + d * js` of `out`.
    pub(crate) fn write_coords(
        &self,
        offs: &CudaStorage,
        out: &CudaStorage,
        shape: &[usize],
        rs: usize,
        js: usize,
    ) -> Result<()> {
        if shape.len() > MAXND {
            return Err(Error::Unsupported { op: "nonzero/compress of more than 32 dimensions", backend: "cuda" });
        }
        let mut dm = Dims { nd: shape.len() as i64, d: [1; MAXND] };
        for (d, &n) in shape.iter().enumerate() {
            dm.d[d] = n as i64;
        }
        self.write(offs, Extra::Coords { o: out.buf.ptr, dm, rs: rs as i64, js: js as i64 }, &[out])
    }
}

/// The output parameters of a write launch (on the stack for one launch).
#[allow(clippy::large_enum_variant)]
enum Extra {
    Values { vp: u64, o: u64 },
    Coords { o: u64, dm: Dims, rs: i64, js: i64 },
}

/// `nonzero` of the trait: int64 coordinates of shape `(count, ndim)`.
pub(crate) fn nonzero(src: &CudaStorage, l: &Layout) -> Result<CudaStorage> {
    let nd = l.ndim();
    if l.numel() == 0 || nd == 0 {
        return CudaStorage::alloc(&src.dev, DType::I64, 0);
    }
    let c = Compaction::new(src, l, None)?;
    let (offs, count) = c.count()?;
    let out = CudaStorage::alloc(&src.dev, DType::I64, count * nd)?;
    if count > 0 {
        c.write_coords(&offs, &out, l.shape(), nd, 1)?;
    }
    Ok(out)
}

/// `compress` of the trait: `P × [count] × Q`, C-contiguous.
pub(crate) fn compress(
    src: &CudaStorage,
    l: &Layout,
    axis: usize,
    mask: &CudaStorage,
    ml: &Layout,
) -> Result<CudaStorage> {
    if mask.dev.ordinal != src.dev.ordinal {
        let (lhs, rhs) = (Device::Cuda(src.dev.ordinal), Device::Cuda(mask.dev.ordinal));
        return Err(Error::DeviceMismatch { op: "compress", lhs, rhs });
    }
    if mask.dtype != DType::Bool {
        return Err(Error::IndexDType { op: "compress", dtype: mask.dtype });
    }
    let md = ml.ndim();
    if axis + md > l.ndim() {
        return Err(Error::TooManyIndices { ndim: l.ndim(), given: axis + md });
    }
    let msh = ml.shape();
    if let Some(d) = (0..md).find(|&d| l.shape()[axis + d] != msh[d]) {
        return Err(Error::BoolIndexMismatch { axis: axis + d, size: l.shape()[axis + d], got: msh[d] });
    }
    let np: usize = l.shape()[..axis].iter().product();
    let nq: usize = l.shape()[axis + md..].iter().product();
    if ml.numel() == 0 || np * nq == 0 {
        return CudaStorage::alloc(&src.dev, src.dtype, 0);
    }
    if np * nq == 1 {
        // The mask covers every axis that is not 1 long: compact the values themselves.
        let vl = Layout::new(msh.to_vec(), l.strides()[axis..axis + md].to_vec(), l.offset());
        let c = Compaction::new(mask, ml, Some((src, &vl)))?;
        let (offs, count) = c.count()?;
        let out = CudaStorage::alloc(&src.dev, src.dtype, count)?;
        if count > 0 {
            c.write_values(&offs, &out)?;
        }
        return Ok(out);
    }
    // Coordinates laid out (mask axis, rank): each axis's array contiguous for the gather.
    let c = Compaction::new(mask, ml, None)?;
    let (offs, count) = c.count()?;
    let mut out = CudaStorage::alloc(&src.dev, src.dtype, np * count * nq)?;
    if count == 0 {
        return Ok(out);
    }
    let coords = CudaStorage::alloc(&src.dev, DType::I64, md * count)?;
    c.write_coords(&offs, &coords, msh, 1, count)?;
    let arrays: Vec<(&CudaStorage, usize)> = (0..md).map(|j| (&coords, j * count)).collect();
    let bshape = [count];
    let set = IndexSet { axis, arrays: &arrays, shape: &bshape, mode: IndexMode::Raise };
    let a = Addr::new(src, l, &set, Fix::Unchecked, "compress")?;
    gather_into(src, l, &a, &mut out, 0)?;
    Ok(out)
}
