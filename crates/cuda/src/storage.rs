//! The dense families' backend traits on [`CudaStorage`] (the buffer itself lives in
//! `runtime/buffer.rs`) and on [`CudaDevice`]: each method dispatches to its family's module.
//! Launches are asynchronous on the calling thread's current stream (see [`crate::Stream`]);
//! only `to_host` waits.
pub(crate) use crate::generator::builtin::Expr;
use crate::runtime::buffer::{bytes_of_mut, CudaStorage};
use crate::runtime::device::{driver_err, CudaDevice};
use cudarc::driver::result;
use xp_core::{
    with_buffer, ArgReduceOp, BackendDevice, BackendStorage, BinaryOp, DType, Device, Error, HostBuffer, Layout,
    OutRule, Result, Scalar, UnaryOp,
};

impl CudaStorage {
    /// An elementwise op into a new contiguous output of `out_dtype`.
    pub(crate) fn map(&self, ins: &[(&CudaStorage, &Layout)], out_dtype: DType, expr: Expr) -> Result<CudaStorage> {
        let shape = ins[0].1.shape();
        let n: usize = shape.iter().product();
        let out = CudaStorage::alloc(&self.dev, out_dtype, n)?;
        crate::generator::builtin::run(&self.dev, expr, &out, None, ins)?;
        Ok(out)
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
        crate::runtime::graph::capturable(self.dev.ordinal, "to_host", "it waits for the device")?;
        let n = l.numel();
        let src = self.dense(l)?;
        let mut host = HostBuffer::full(n, xp_core::Scalar::Int(0), self.dtype);
        if n > 0 {
            let w = self.dev.work(&[&src])?;
            let s = w.stream();
            let dst: &mut [u8] = with_buffer!(&mut host, v => bytes_of_mut(v));
            if dst.len() <= crate::runtime::device::SMALL_READ {
                self.dev.read_small(s, src.buf.ptr, dst)?;
                w.done()?;
                return Ok(host);
            }
            self.dev.bind()?;
            // SAFETY: `dst` holds n elements, the block at least as many; the stream is
            // synchronised before `dst` is used.
            unsafe { result::memcpy_dtoh_async(dst, src.buf.ptr, s.cu_stream()) }.map_err(driver_err)?;
            s.synchronize().map_err(driver_err)?;
            w.done()?;
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
        crate::generator::builtin::run(&self.dev, Expr::Cast, dst, Some(dl), &[(self, l)])
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

impl BackendDevice for CudaDevice {
    type Storage = CudaStorage;
    fn device(&self) -> Device {
        Device::Cuda(self.dev.ordinal)
    }
    fn upload(&self, buf: HostBuffer) -> Result<CudaStorage> {
        CudaStorage::upload(&self.dev, &buf)
    }
    fn full(&self, n: usize, value: Scalar, dtype: DType) -> Result<CudaStorage> {
        // A fill kernel with the value as a parameter: no host copy (so it can be captured).
        crate::generator::fill(&self.dev, n, value, dtype)
    }
    fn affine(&self, n: usize, start: Scalar, step: Scalar, dtype: DType) -> Result<CudaStorage> {
        // On the device with the host's arithmetic; the rare mixed cases are made on the host.
        match crate::generator::affine(&self.dev, n, start, step, dtype)? {
            Some(s) => Ok(s),
            None => CudaStorage::upload(&self.dev, &HostBuffer::affine(n, start, step, dtype)),
        }
    }
}
