//! [`CudaStorage`]: a typed buffer in one device's memory, and every backend family on it as
//! generated kernels. Launches are asynchronous on the device's stream; only `to_host` waits.
use crate::codegen;
use crate::device::{driver_err, Dev};
use cudarc::driver::{CudaSlice, DeviceRepr, LaunchConfig, PushKernelArg};
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
    pub(crate) buf: CudaSlice<u8>,
    pub(crate) dtype: DType,
    pub(crate) len: usize,
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
    n: i64,
    pub(crate) nd: i64,
    shape: [i64; MAXD],
    st: [[i64; MAXD]; 4],
    off: [i64; 4],
}

// SAFETY: plain #[repr(C)] integers, laid out as the prelude's `Idx`.
unsafe impl DeviceRepr for Idx {}

/// The index space of same-shaped layouts (the output first). Collapsed unless `keep_dims`.
/// Returns it and whether every operand is contiguous (the kernel then skips index arithmetic).
fn idx(layouts: &[&Layout], keep_dims: bool) -> Result<(Idx, bool)> {
    let (shape, strides) = if keep_dims {
        let s = layouts[0].shape().to_vec();
        (
            if s.is_empty() { vec![1] } else { s },
            layouts.iter().map(|l| if l.ndim() == 0 { vec![1] } else { l.strides().to_vec() }).collect(),
        )
    } else {
        collapse(layouts)
    };
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
    let contiguous = !keep_dims && shape.len() == 1 && strides.iter().all(|s| s[0] == 1);
    Ok((ix, contiguous))
}

fn cfg(n: i64) -> LaunchConfig {
    let blocks = ((n.max(1) as u64).div_ceil(BLOCK as u64)).min(1 << 20) as u32;
    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (BLOCK, 1, 1), shared_mem_bytes: 0 }
}

fn blocks_cfg(n: i64) -> LaunchConfig {
    LaunchConfig {
        grid_dim: ((n.max(1) as u64).min(1 << 20) as u32, 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    }
}

fn split(l: &Layout, axes: &[usize]) -> (Layout, Layout) {
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
        let bytes = (len * dtype.size()).max(1);
        // SAFETY: every kernel writes each element of its output before anything reads it.
        let buf = crate::memory::reserve(dev, bytes, || unsafe { dev.stream.alloc::<u8>(bytes) })?;
        Ok(CudaStorage { dev: dev.clone(), buf, dtype, len })
    }
    pub(crate) fn upload(dev: &Arc<Dev>, host: &HostBuffer) -> Result<CudaStorage> {
        let bytes: &[u8] = with_buffer!(host, v => bytes_of(v));
        let n = bytes.len().max(1);
        let buf = crate::memory::reserve(dev, n, || {
            if bytes.is_empty() {
                // SAFETY: a one-byte placeholder that nothing reads.
                unsafe { dev.stream.alloc::<u8>(1) }
            } else {
                dev.stream.clone_htod(bytes)
            }
        })?;
        Ok(CudaStorage { dev: dev.clone(), buf, dtype: host.dtype(), len: host.len() })
    }
    /// Launch the elementwise kernel `o = expr(inputs)` over `ix` (the output first).
    fn launch_ew(
        &self,
        expr: &str,
        contiguous: bool,
        out: &mut CudaStorage,
        ins: &[&CudaStorage],
        ix: Idx,
        take: Option<(&CudaSlice<i64>, i32)>,
    ) -> Result<()> {
        if ix.n == 0 {
            return Ok(());
        }
        let dts: Vec<DType> = ins.iter().map(|s| s.dtype).collect();
        let key = format!("ew|{}|{dts:?}|{expr}|{contiguous}|{}", out.dtype, take.is_some());
        let f = self
            .dev
            .kernel(&key, "xp_k", || codegen::elementwise("xp_k", out.dtype, &dts, expr, contiguous, take.is_some()))?;
        let mut b = self.dev.stream.launch_builder(&f);
        b.arg(&mut out.buf);
        for s in ins {
            b.arg(&s.buf);
        }
        if let Some((tk, tax)) = &take {
            b.arg(*tk);
            b.arg(tax);
        }
        b.arg(&ix);
        // SAFETY: the kernel's parameters are exactly the pushed arguments (generated together),
        // and every offset it computes lies inside the buffers (layouts are validated by xp).
        unsafe { b.launch(cfg(ix.n)) }.map_err(driver_err)?;
        Ok(())
    }
    /// An elementwise op into a new contiguous output of `out_dtype`.
    fn map(&self, ins: &[(&CudaStorage, &Layout)], out_dtype: DType, expr: &str) -> Result<CudaStorage> {
        let shape = ins[0].1.shape().to_vec();
        let n: usize = shape.iter().product();
        let mut out = CudaStorage::alloc(&self.dev, out_dtype, n)?;
        let ol = Layout::contiguous(&shape);
        let mut ls = vec![&ol];
        ls.extend(ins.iter().map(|(_, l)| *l));
        let (ix, contiguous) = idx(&ls, false)?;
        let stores: Vec<&CudaStorage> = ins.iter().map(|(s, _)| *s).collect();
        self.launch_ew(expr, contiguous, &mut out, &stores, ix, None)?;
        Ok(out)
    }
}

impl CudaStorage {
    /// Column-mode stage: partials (chunks, kept) over ranges of `per` reduced positions.
    fn reduce_columns(
        &self,
        l: &Layout,
        op: BinaryOp,
        axes: &[usize],
        chunks: usize,
        per: usize,
    ) -> Result<CudaStorage> {
        let (kl, rl) = split(l, axes);
        let nk = kl.numel();
        let mut out = CudaStorage::alloc(&self.dev, self.dtype, nk * chunks)?;
        let ok = Layout::contiguous(kl.shape());
        let (kix, _) = idx(&[&ok, &kl], false)?;
        let (rix, _) = idx(&[&rl, &rl], false)?;
        let run = rix.nd == 1;
        let key = format!("reducecols|{}|{}|{run}", self.dtype, op.name());
        let f = self
            .dev
            .kernel(&key, "xp_k", || codegen::reduce_columns("xp_k", self.dtype, &format!("b_{}", op.name()), run))?;
        let (c, p) = (chunks as i64, per as i64);
        let mut b = self.dev.stream.launch_builder(&f);
        b.arg(&mut out.buf).arg(&self.buf).arg(&kix).arg(&rix).arg(&c).arg(&p);
        // SAFETY: parameters match the generated kernel; offsets stay inside the input.
        unsafe { b.launch(cfg((nk * chunks) as i64)) }.map_err(driver_err)?;
        Ok(out)
    }
    /// Stage one of a reduction: `chunks` partial results per output (C-contiguous, the part
    /// index fastest), each over a contiguous range of the reduced positions.
    fn reduce_parts(&self, l: &Layout, op: BinaryOp, axes: &[usize], chunks: usize) -> Result<CudaStorage> {
        let (kl, rl) = split(l, axes);
        let (nk, nr) = (kl.numel(), rl.numel());
        let ordered = !op.is_reorderable();
        let per = nr.div_ceil(chunks.max(1));
        let mut out = CudaStorage::alloc(&self.dev, self.dtype, nk * chunks)?;
        if nk == 0 {
            return Ok(out);
        }
        let ok = Layout::contiguous(kl.shape());
        let (kix, _) = idx(&[&ok, &kl], false)?;
        let (rix, _) = idx(&[&rl, &rl], false)?;
        let run = rix.nd == 1;
        let key = format!("reduce|{}|{}|{ordered}|{run}", self.dtype, op.name());
        let f = self
            .dev
            .kernel(&key, "xp_k", || codegen::reduce("xp_k", self.dtype, &format!("b_{}", op.name()), ordered, run))?;
        let (c, p) = (chunks as i64, per as i64);
        let mut b = self.dev.stream.launch_builder(&f);
        b.arg(&mut out.buf).arg(&self.buf).arg(&kix).arg(&rix).arg(&c).arg(&p);
        // SAFETY: parameters match the generated kernel; offsets stay inside the input.
        unsafe { b.launch(blocks_cfg((nk * chunks) as i64)) }.map_err(driver_err)?;
        Ok(out)
    }
}

impl Drop for CudaStorage {
    fn drop(&mut self) {
        self.dev.used.fetch_sub(self.buf.len(), std::sync::atomic::Ordering::Relaxed);
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
        let n = l.numel();
        let tmp;
        let src = if l.is_contiguous() && l.offset() == 0 && n == self.len {
            self
        } else {
            tmp = self.map(&[(self, l)], self.dtype, "x0")?;
            &tmp
        };
        let mut host = HostBuffer::full(n, xp_core::Scalar::Int(0), self.dtype);
        if n > 0 {
            let view = src.buf.slice(0..n * self.dtype.size());
            let dst: &mut [u8] = with_buffer!(&mut host, v => bytes_of_mut(v));
            self.dev.stream.memcpy_dtoh(&view, dst).map_err(driver_err)?;
            self.dev.stream.synchronize().map_err(driver_err)?;
        }
        Ok(host)
    }
    fn unary(&self, l: &Layout, op: UnaryOp) -> Result<Self> {
        let out = match op.out_rule() {
            OutRule::Same => self.dtype,
            OutRule::Bool => DType::Bool,
            OutRule::Real => self.dtype.to_real(),
        };
        self.map(&[(self, l)], out, &format!("u_{}(x0)", op.name()))
    }
    fn binary(&self, l: &Layout, rhs: &Self, rl: &Layout, op: BinaryOp) -> Result<Self> {
        same_device(self, rhs, op.name())?;
        let out = if op.out_rule() == OutRule::Bool { DType::Bool } else { self.dtype };
        self.map(&[(self, l), (rhs, rl)], out, &format!("b_{}(x0, x1)", op.name()))
    }
    fn where_cond(&self, l: &Layout, t: &Self, tl: &Layout, f: &Self, fl: &Layout) -> Result<Self> {
        same_device(self, t, "where")?;
        same_device(self, f, "where")?;
        self.map(&[(self, l), (t, tl), (f, fl)], t.dtype, "(x0 ? x1 : x2)")
    }
    fn cast(&self, l: &Layout, dtype: DType) -> Result<Self> {
        self.map(&[(self, l)], dtype, &format!("cv<{}>(x0)", codegen::compute_ty(dtype)))
    }
    fn copy_into(&self, l: &Layout, dst: &mut Self, dl: &Layout) -> Result<()> {
        same_device(self, dst, "copyto")?;
        let (ix, contiguous) = idx(&[dl, l], false)?;
        self.launch_ew("x0", contiguous, dst, &[self], ix, None)
    }
    fn reduce(&self, l: &Layout, op: BinaryOp, axes: &[usize]) -> Result<Self> {
        let (kl, rl) = split(l, axes);
        let (nk, nr) = (kl.numel(), rl.numel());
        if nk == 0 {
            return CudaStorage::alloc(&self.dev, self.dtype, 0);
        }
        // The axis that moves fastest in memory decides: reduced → a block per output (rows);
        // kept → a thread per output, coalesced across outputs (columns).
        let inner = (0..l.ndim())
            .filter(|&a| l.shape()[a] > 1)
            .min_by_key(|&a| l.strides()[a].unsigned_abs())
            .is_none_or(|a| axes.contains(&a));
        let reorder = op.is_reorderable();
        if !inner {
            // Enough threads to fill the device, at least 16 reduced positions each.
            let threads = 2048 * self.dev.sms;
            let chunks = if reorder { (threads / nk).min(nr / 16).max(1) } else { 1 };
            let per = nr.div_ceil(chunks);
            let chunks = nr.div_ceil(per);
            let parts = self.reduce_columns(l, op, axes, chunks, per)?;
            if chunks == 1 {
                return Ok(parts);
            }
            let mut shape = vec![chunks];
            shape.extend_from_slice(kl.shape());
            return parts.reduce(&Layout::contiguous(&shape), op, &[0]);
        }
        // Few outputs over many elements: spread each output over enough blocks to fill the
        // device (8 blocks of 256 threads per SM), then reduce the partials.
        let fill = 8 * self.dev.sms;
        let chunks = if !reorder || nk >= fill { 1 } else { (fill / nk).min(nr / 2048).max(1) };
        let out = self.reduce_parts(l, op, axes, chunks)?;
        if chunks == 1 {
            return Ok(out);
        }
        out.reduce(&Layout::contiguous(&[nk, chunks]), op, &[1])
    }
    fn arg_reduce(&self, l: &Layout, op: ArgReduceOp, axis: usize) -> Result<Self> {
        let (kl, _) = split(l, &[axis]);
        let (nk, n) = (kl.numel(), l.shape()[axis]);
        let fill = 8 * self.dev.sms;
        let chunks = if nk >= fill { 1 } else { (fill / nk.max(1)).min(n / 2048).max(1) };
        let per = n.div_ceil(chunks);
        if nk == 0 {
            return CudaStorage::alloc(&self.dev, DType::I64, 0);
        }
        let ok = Layout::contiguous(kl.shape());
        let (kix, _) = idx(&[&ok, &kl], false)?;
        let better = match op {
            ArgReduceOp::ArgMax => "gt",
            ArgReduceOp::ArgMin => "lt",
        };
        let key = format!("argreduce|{}|{better}", self.dtype);
        let f = self.dev.kernel(&key, "xp_k", || codegen::arg_reduce("xp_k", self.dtype, better))?;
        let (nn, s) = (n as i64, l.strides()[axis] as i64);
        let launch = |out: &mut CudaStorage, chunks: i64, per: i64, cand: &CudaSlice<u8>, ncand: i64| -> Result<()> {
            let mut b = self.dev.stream.launch_builder(&f);
            b.arg(&mut out.buf).arg(&self.buf).arg(&kix).arg(&nn).arg(&s).arg(&chunks).arg(&per).arg(cand).arg(&ncand);
            // SAFETY: parameters match the generated kernel; offsets and candidate indices stay
            // inside the input.
            unsafe { b.launch(blocks_cfg(nk as i64 * chunks)) }.map_err(driver_err).map(|_| ())
        };
        let mut first = CudaStorage::alloc(&self.dev, DType::I64, nk * chunks)?;
        launch(&mut first, chunks as i64, per as i64, &self.buf, 0)?;
        if chunks == 1 {
            return Ok(first);
        }
        let mut out = CudaStorage::alloc(&self.dev, DType::I64, nk)?;
        launch(&mut out, 1, nn, &first.buf, chunks as i64)?;
        Ok(out)
    }
    fn scan(&self, l: &Layout, op: BinaryOp, axis: usize) -> Result<Self> {
        let n = l.numel();
        let mut out = CudaStorage::alloc(&self.dev, self.dtype, n)?;
        if n == 0 {
            return Ok(out);
        }
        let ol = Layout::contiguous(l.shape());
        let (kl, _) = split(l, &[axis]);
        let (okl, _) = split(&ol, &[axis]);
        let (kix, _) = idx(&[&okl, &kl], false)?;
        let (nk, len) = (kl.numel(), l.shape()[axis]);
        // Few long lines: chunk totals (stage one of the reduction), their running totals per line,
        // then every chunk scans from the total before it. Not-reorderable ops scan line by line.
        let fill = 32 * self.dev.sms;
        let chunks = if !op.is_reorderable() || nk >= fill { 1 } else { (fill / nk).min(len / 256).max(1) };
        let per = len.div_ceil(chunks);
        let pre = if chunks > 1 {
            let parts = self.reduce_parts(l, op, &[axis], chunks)?;
            Some(parts.scan(&Layout::contiguous(&[nk, chunks]), op, 1)?)
        } else {
            None
        };
        let (ln, sa, so) = (len as i64, l.strides()[axis] as i64, ol.strides()[axis] as i64);
        // Chunks (reorderable ops only) scan as blocks over coalesced tiles; otherwise one thread
        // per line walks it in order.
        let blocks = chunks > 1;
        let key = format!("scan|{}|{}|{blocks}", self.dtype, op.name());
        let opn = format!("b_{}", op.name());
        let f = self.dev.kernel(&key, "xp_k", || {
            if blocks {
                codegen::scan_blocks("xp_k", self.dtype, &opn)
            } else {
                codegen::scan("xp_k", self.dtype, &opn)
            }
        })?;
        let (c, p) = (chunks as i64, per as i64);
        let pre_buf = pre.as_ref().map_or(&self.buf, |p| &p.buf);
        let mut b = self.dev.stream.launch_builder(&f);
        b.arg(&mut out.buf).arg(&self.buf).arg(&kix).arg(&ln).arg(&sa).arg(&so).arg(&c).arg(&p).arg(pre_buf);
        let launch = if blocks { blocks_cfg(nk as i64 * c) } else { cfg(nk as i64 * c) };
        // SAFETY: as for reduce; `pre` is read only when chunks > 1, where it holds nk * chunks totals.
        unsafe { b.launch(launch) }.map_err(driver_err)?;
        Ok(out)
    }
    fn take(&self, l: &Layout, axis: usize, indices: &[usize]) -> Result<Self> {
        let mut shape = l.shape().to_vec();
        shape[axis] = indices.len();
        let n: usize = shape.iter().product();
        let mut out = CudaStorage::alloc(&self.dev, self.dtype, n)?;
        if n == 0 {
            return Ok(out);
        }
        let ol = Layout::contiguous(&shape);
        let il = Layout::new(shape.clone(), l.strides().to_vec(), l.offset());
        let (ix, _) = idx(&[&ol, &il], true)?;
        let tk: Vec<i64> = indices.iter().map(|&i| i as i64).collect();
        let tk = self.dev.stream.clone_htod(&tk).map_err(driver_err)?;
        self.launch_ew("x0", false, &mut out, &[self], ix, Some((&tk, axis as i32)))?;
        Ok(out)
    }
}
