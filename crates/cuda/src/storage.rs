//! [`CudaStorage`]: a typed buffer in one device's memory, and every backend family on it as
//! generated kernels. Launches are asynchronous on the calling thread's current stream (see
//! [`crate::Stream`]); only `to_host` waits.
use crate::device::{driver_err, Dev};
use crate::stream::Uses;
pub(crate) use crate::ukernel::builtin::Expr;
use cudarc::driver::{result, CudaStream, DeviceRepr, LaunchConfig};
use std::sync::Arc;
use xp_core::{
    collapse, with_buffer, ArgReduceOp, BackendStorage, BinaryOp, DType, Device, Element, Error, HostBuffer, Layout,
    OutRule, Result, UnaryOp,
};

const MAXD: usize = 12;
const BLOCK: u32 = 256;

/// A buffer in the memory of one CUDA device.
pub struct CudaStorage {
    pub(crate) dev: Arc<Dev>,
    pub(crate) buf: crate::memory::Block,
    pub(crate) dtype: DType,
    pub(crate) len: usize,
    /// cross-stream ordering (used only once the device has several streams)
    pub(crate) uses: Uses,
}

/// Before `bufs` are used on stream `s`: wait for their own streams' work (a no-op while the
/// device has only its default stream).
pub(crate) fn before(s: &Arc<CudaStream>, bufs: &[&CudaStorage]) -> Result<()> {
    for b in bufs {
        crate::graph::note_use(b.dev.ordinal, b.buf.ptr);
        // During a capture nothing is ordered across streams: the capture began after the
        // device's queued work, and a dependency on uncaptured work would break it.
        if b.dev.multi.load(std::sync::atomic::Ordering::Relaxed) && !crate::graph::capturing(b.dev.ordinal) {
            b.uses.before(&b.buf.stream, s)?;
        }
    }
    Ok(())
}

/// After `bufs` were used on stream `s`: remember the use for their frees.
pub(crate) fn after(s: &Arc<CudaStream>, bufs: &[&CudaStorage]) -> Result<()> {
    for b in bufs {
        if b.dev.multi.load(std::sync::atomic::Ordering::Relaxed) && !crate::graph::capturing(b.dev.ordinal) {
            b.uses.after(&b.buf.stream, s)?;
        }
    }
    Ok(())
}

impl std::fmt::Debug for CudaStorage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CudaStorage({:?}, {} x {})", self.dev, self.len, self.dtype)
    }
}

/// The index space of a launch, passed by value (mirrors `struct Idx` of the prelude).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Idx {
    pub(crate) n: i64,
    pub(crate) nd: i64,
    pub(crate) shape: [i64; MAXD],
    pub(crate) st: [[i64; MAXD]; 4],
    pub(crate) off: [i64; 4],
}

// SAFETY: plain #[repr(C)] integers, laid out as the prelude's `Idx`.
unsafe impl DeviceRepr for Idx {}

/// The index space of same-shaped layouts (the output first), contiguous dimensions collapsed.
pub(crate) fn idx(layouts: &[&Layout]) -> Result<Idx> {
    let (shape, strides) = collapse(layouts);
    if shape.len() > MAXD {
        return Err(Error::Unsupported { op: "more than 12 non-mergeable dimensions", backend: "cuda" });
    }
    let mut ix = Idx {
        n: shape.iter().product::<usize>() as i64,
        nd: shape.len() as i64,
        shape: [1; MAXD],
        st: [[0; MAXD]; 4],
        off: [0; 4],
    };
    for (d, &n) in shape.iter().enumerate() {
        ix.shape[d] = n as i64;
    }
    for (k, l) in layouts.iter().enumerate() {
        ix.off[k] = l.offset() as i64;
        for (d, &s) in strides[k].iter().enumerate() {
            ix.st[k][d] = s as i64;
        }
    }
    Ok(ix)
}

pub(crate) fn cfg(n: i64) -> LaunchConfig {
    let blocks = ((n.max(1) as u64).div_ceil(BLOCK as u64)).min(1 << 20) as u32;
    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK, 1, 1), shared_mem_bytes: 0 }
}

pub(crate) fn blocks_cfg(n: i64) -> LaunchConfig {
    LaunchConfig {
        grid_dim: ((n.max(1) as u64).min(1 << 20) as u32, 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// The widest vector width, halving from `v` (a power of two), for which `aligned(width)` holds;
/// 1 (scalar accesses) at worst.
pub(crate) fn vector_width(mut v: usize, aligned: impl Fn(usize) -> bool) -> usize {
    while v > 1 && !aligned(v) {
        v /= 2;
    }
    v.max(1)
}

pub(crate) fn split(l: &Layout, axes: &[usize]) -> (Layout, Layout) {
    let kept: Vec<usize> = (0..l.ndim()).filter(|a| !axes.contains(a)).collect();
    let part = |ax: &[usize], off: usize| {
        Layout::new(ax.iter().map(|&a| l.shape()[a]).collect(), ax.iter().map(|&a| l.strides()[a]).collect(), off)
    };
    (part(&kept, l.offset()), part(axes, 0))
}

fn bytes_of<T>(v: &[T]) -> &[u8] {
    // SAFETY: any initialised memory may be viewed as bytes.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
}

fn bytes_of_mut<T: Element>(v: &mut [T]) -> &mut [u8] {
    // SAFETY: every element type of xp is plain data for which the device writes valid bit
    // patterns (bool as 0/1 bytes), so any bytes copied from a device buffer of the same dtype
    // are valid values.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, std::mem::size_of_val(v)) }
}

impl CudaStorage {
    pub(crate) fn alloc(dev: &Arc<Dev>, dtype: DType, len: usize) -> Result<CudaStorage> {
        // Uninitialised: every kernel writes each element of its output before anything reads it.
        let buf = crate::memory::alloc(dev, (len * dtype.size()).max(1))?;
        Ok(CudaStorage { dev: dev.clone(), buf, dtype, len, uses: Uses::default() })
    }
    pub(crate) fn upload(dev: &Arc<Dev>, host: &HostBuffer) -> Result<CudaStorage> {
        crate::graph::capturable(dev.ordinal, "a host to device copy", "it reads host memory when queued")?;
        let bytes: &[u8] = with_buffer!(host, v => bytes_of(v));
        let out = CudaStorage::alloc(dev, host.dtype(), host.len())?;
        if !bytes.is_empty() {
            dev.bind()?;
            // SAFETY: the block holds at least `bytes.len()` bytes; the copy from pageable memory
            // has read `bytes` when the call returns.
            unsafe { result::memcpy_htod_async(out.buf.ptr, bytes, out.buf.stream.cu_stream()) }.map_err(driver_err)?;
        }
        Ok(out)
    }
    /// The device this storage lives on (no driver call: the storage holds it).
    pub fn cuda_device(&self) -> crate::CudaDevice {
        crate::CudaDevice::of(&self.dev)
    }
    /// The device address of element `off` (no event is involved: xp orders streams itself).
    pub(crate) fn ptr(&self, off: usize) -> u64 {
        self.buf.ptr + (off * self.dtype.size()) as u64
    }
    /// An elementwise op into a new contiguous output of `out_dtype`.
    pub(crate) fn map(&self, ins: &[(&CudaStorage, &Layout)], out_dtype: DType, expr: Expr) -> Result<CudaStorage> {
        let shape = ins[0].1.shape();
        let n: usize = shape.iter().product();
        let out = CudaStorage::alloc(&self.dev, out_dtype, n)?;
        crate::ukernel::builtin::run(&self.dev, expr, &out, None, ins)?;
        Ok(out)
    }
}

impl Drop for CudaStorage {
    fn drop(&mut self) {
        // The block is reused or freed on its own stream: after every foreign use.
        self.uses.release(&self.buf.stream);
        crate::memory::release(&self.dev, &self.buf);
    }
}

fn same_device(a: &CudaStorage, b: &CudaStorage, op: &'static str) -> Result<()> {
    if a.dev.ordinal != b.dev.ordinal {
        return Err(Error::DeviceMismatch { op, lhs: Device::Cuda(a.dev.ordinal), rhs: Device::Cuda(b.dev.ordinal) });
    }
    Ok(())
}

impl BackendStorage for CudaStorage {
    const NAME: &'static str = "cuda";
    fn device(&self) -> Device {
        Device::Cuda(self.dev.ordinal)
    }
    fn dtype(&self) -> DType {
        self.dtype
    }
    fn len(&self) -> usize {
        self.len
    }
    fn to_host(&self, l: &Layout) -> Result<HostBuffer> {
        crate::graph::capturable(self.dev.ordinal, "to_host", "it waits for the device")?;
        let n = l.numel();
        let src = self.dense(l)?;
        let mut host = HostBuffer::full(n, xp_core::Scalar::Int(0), self.dtype);
        if n > 0 {
            let s = self.dev.current();
            before(&s, &[&src])?;
            let dst: &mut [u8] = with_buffer!(&mut host, v => bytes_of_mut(v));
            if dst.len() <= crate::device::SMALL_READ {
                self.dev.read_small(&s, src.buf.ptr, dst)?;
                return Ok(host);
            }
            self.dev.bind()?;
            // SAFETY: `dst` holds n elements, the block at least as many; the stream is
            // synchronised before `dst` is used.
            unsafe { result::memcpy_dtoh_async(dst, src.buf.ptr, s.cu_stream()) }.map_err(driver_err)?;
            s.synchronize().map_err(driver_err)?;
        }
        Ok(host)
    }
    fn unary(&self, l: &Layout, op: UnaryOp) -> Result<Self> {
        let out = match op.out_rule() {
            OutRule::Same => self.dtype,
            OutRule::Bool => DType::Bool,
            OutRule::Real => self.dtype.to_real(),
        };
        self.map(&[(self, l)], out, Expr::Unary(op))
    }
    fn binary(&self, l: &Layout, rhs: &Self, rl: &Layout, op: BinaryOp) -> Result<Self> {
        same_device(self, rhs, op.name())?;
        let out = if op.out_rule() == OutRule::Bool { DType::Bool } else { self.dtype };
        self.map(&[(self, l), (rhs, rl)], out, Expr::Binary(op))
    }
    fn where_cond(&self, l: &Layout, t: &Self, tl: &Layout, f: &Self, fl: &Layout) -> Result<Self> {
        same_device(self, t, "where")?;
        same_device(self, f, "where")?;
        self.map(&[(self, l), (t, tl), (f, fl)], t.dtype, Expr::Where)
    }
    fn cast(&self, l: &Layout, dtype: DType) -> Result<Self> {
        if dtype == self.dtype {
            return self.contiguous_copy(l);
        }
        self.map(&[(self, l)], dtype, Expr::Cast)
    }
    fn copy_into(&self, l: &Layout, dst: &mut Self, dl: &Layout) -> Result<()> {
        same_device(self, dst, "copyto")?;
        if self.copy_run(l, dst, dl)? {
            return Ok(());
        }
        crate::ukernel::builtin::run(&self.dev, Expr::Cast, dst, Some(dl), &[(self, l)])
    }
    fn reduce(&self, l: &Layout, op: BinaryOp, axes: &[usize]) -> Result<Self> {
        self.reduce_impl(l, op, axes)
    }
    fn arg_reduce(&self, l: &Layout, op: ArgReduceOp, axis: usize) -> Result<Self> {
        self.arg_reduce_impl(l, op, axis)
    }
    fn scan(&self, l: &Layout, op: BinaryOp, axis: usize) -> Result<Self> {
        self.scan_impl(l, op, axis)
    }
}
