//! [`CudaStorage`]: a typed buffer in one device's memory, and every backend family on it as
//! generated kernels. Launches are asynchronous on the calling thread's current stream (see
//! [`crate::Stream`]); only `to_host` waits.
use crate::codegen;
use crate::device::{driver_err, Dev, Key};
use crate::stream::Uses;
use cudarc::driver::{result, CudaStream, DeviceRepr, LaunchConfig, PushKernelArg};
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
    /// Launch the strided elementwise kernel `o = expr(inputs)` over `ix` (the output first).
    fn launch_ew(&self, expr: Expr, out: &mut CudaStorage, ins: &[&CudaStorage], ix: Idx) -> Result<()> {
        if ix.n == 0 {
            return Ok(());
        }
        let key = ins.iter().fold(Key::new(1).bits(8, expr.id()).dtype(out.dtype), |k, s| k.dtype(s.dtype));
        let (f, _) = self.dev.kernel(key, "xp_k", || {
            let dts: Vec<DType> = ins.iter().map(|s| s.dtype).collect();
            codegen::elementwise("xp_k", out.dtype, &dts, &expr.code(out.dtype))
        })?;
        let s = self.dev.current();
        before(&s, ins)?;
        before(&s, &[&*out])?;
        let mut b = s.launch_builder(&f);
        b.arg(&out.buf.ptr);
        for s in ins {
            b.arg(&s.buf.ptr);
        }
        b.arg(&ix);
        // SAFETY: the kernel's parameters are exactly the pushed arguments (generated together),
        // and every offset it computes lies inside the buffers (layouts are validated by xp).
        unsafe { b.launch(cfg(ix.n)) }.map_err(driver_err)?;
        after(&s, ins)?;
        after(&s, &[&*out])
    }
    /// Launch the contiguous elementwise kernel over `n` elements: the output from element 0,
    /// input k from element `ins[k].1`. Each thread handles up to 16 bytes of the widest operand
    /// per access where every operand's start is aligned for it.
    fn launch_dense(&self, expr: Expr, out: &mut CudaStorage, ins: &[(&CudaStorage, usize)], n: usize) -> Result<()> {
        let s = self.dev.current();
        let mut ptrs = [0u64; 4];
        let mut sizes = [out.dtype.size(); 4];
        ptrs[0] = out.ptr(0);
        for (k, (x, off)) in ins.iter().enumerate() {
            ptrs[k + 1] = x.ptr(*off);
            sizes[k + 1] = x.dtype.size();
        }
        let m = ins.len() + 1;
        let widest = sizes[..m].iter().max().copied().unwrap_or(1);
        let v = vector_width(16 / widest, |v| (0..m).all(|k| ptrs[k] % (v * sizes[k]) as u64 == 0));
        let key = ins
            .iter()
            .fold(Key::new(2).bits(8, expr.id()).dtype(out.dtype).bits(5, v as u64), |k, (x, _)| k.dtype(x.dtype));
        let (f, _) = self.dev.kernel(key, "xp_k", || {
            let dts: Vec<DType> = ins.iter().map(|(x, _)| x.dtype).collect();
            codegen::dense("xp_k", out.dtype, &dts, &expr.code(out.dtype), v)
        })?;
        for (x, _) in ins {
            before(&s, &[x])?;
        }
        before(&s, &[&*out])?;
        let nn = n as i64;
        let mut params: [*mut std::ffi::c_void; 5] = [std::ptr::null_mut(); 5];
        for (k, p) in ptrs[..m].iter().enumerate() {
            params[k] = p as *const u64 as *mut std::ffi::c_void;
        }
        params[m] = &nn as *const i64 as *mut std::ffi::c_void;
        let grid = cfg(n.div_ceil(v) as i64);
        self.dev.bind()?;
        // SAFETY: the kernel takes `m` pointers and the count (the parameters point at live locals);
        // each pointer addresses `n` elements of its operand's dtype inside its buffer (contiguous
        // layouts validated by xp), and `v` divides each pointer's alignment.
        unsafe {
            result::launch_kernel(f.cu_function(), grid.grid_dim, grid.block_dim, 0, s.cu_stream(), &mut params[..=m])
        }
        .map_err(driver_err)?;
        for (x, _) in ins {
            after(&s, &[x])?;
        }
        after(&s, &[&*out])
    }
    /// An elementwise op into a new contiguous output of `out_dtype`.
    pub(crate) fn map(&self, ins: &[(&CudaStorage, &Layout)], out_dtype: DType, expr: Expr) -> Result<CudaStorage> {
        let shape = ins[0].1.shape();
        let n: usize = shape.iter().product();
        let mut out = CudaStorage::alloc(&self.dev, out_dtype, n)?;
        if n == 0 {
            return Ok(out);
        }
        if ins.iter().all(|(_, l)| l.is_contiguous()) {
            let mut dense = [(self, 0); 3];
            for (k, (x, l)) in ins.iter().enumerate() {
                dense[k] = (*x, l.offset());
            }
            self.launch_dense(expr, &mut out, &dense[..ins.len()], n)?;
            return Ok(out);
        }
        let ol = Layout::contiguous(shape);
        let mut ls = vec![&ol];
        ls.extend(ins.iter().map(|(_, l)| *l));
        let ix = idx(&ls)?;
        let stores: Vec<&CudaStorage> = ins.iter().map(|(s, _)| *s).collect();
        self.launch_ew(expr, &mut out, &stores, ix)?;
        Ok(out)
    }
}

/// What an elementwise kernel computes from its inputs `x0, x1, ...`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Expr {
    Unary(UnaryOp),
    Binary(BinaryOp),
    /// `x0` converted to the output's dtype
    Cast,
    Where,
}

impl Expr {
    fn id(self) -> u64 {
        match self {
            Expr::Unary(op) => op as u64,
            Expr::Binary(op) => 64 + op as u64,
            Expr::Cast => 128,
            Expr::Where => 129,
        }
    }
    fn code(self, out: DType) -> String {
        match self {
            Expr::Unary(op) => format!("u_{}(x0)", op.name()),
            Expr::Binary(op) => format!("b_{}(x0, x1)", op.name()),
            Expr::Cast => format!("cv<{}>(x0)", codegen::compute_ty(out)),
            Expr::Where => "(x0 ? x1 : x2)".into(),
        }
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
        let ix = idx(&[dl, l])?;
        self.launch_ew(Expr::Cast, dst, &[self], ix)
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
