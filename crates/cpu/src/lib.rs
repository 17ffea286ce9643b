//! xp-cpu: the CPU backend of xp. Storages are host vectors ([`HostBuffer`]); kernels walk any
//! strided layout, take contiguous fast paths that the compiler vectorises, and run in parallel
//! on rayon's pool above [`iter::PAR_THRESHOLD`] elements.
//!
//! Users reach this through the `xp` crate; used directly it looks like this:
//!
//! ```
//! use xp_core::{BackendDevice, BackendStorage, BinaryOp, DType, Layout, Scalar};
//! use xp_cpu::CpuDevice;
//! let a = CpuDevice.affine(6, Scalar::Int(0), Scalar::Int(1), DType::F32).unwrap();
//! let l = Layout::contiguous(&[2, 3]);
//! let s = a.reduce(&l, BinaryOp::Add, &[0]).unwrap(); // column sums
//! assert_eq!(s.to_host(&Layout::contiguous(&[3])).unwrap(), vec![3.0f32, 5.0, 7.0].into());
//! ```
#![warn(missing_docs)]

mod c99;
mod cmath;
pub mod direct;
pub mod eval;
mod extreme;
mod fastmath;
#[cfg(feature = "fft")]
pub mod fft;
#[cfg(not(feature = "fft"))]
#[path = "fft/off.rs"]
pub mod fft;
mod filter;
mod index;
pub mod iter;
mod label;
mod linalg;
mod native;
mod par;
pub mod pool;
mod random;
#[cfg(feature = "signal")]
mod recursive;
mod reduce;
pub mod scalar;
mod sort;
mod sparse;
pub mod special;
mod stats;

use iter::{map1, map2, map3, Walk};
use scalar::ScalarOps;
use xp_core::{
    with_buffer, ArgReduceOp, BackendDevice, BackendStorage, BinaryOp, DType, Device, Element, Error, HostBuffer,
    Layout, OutRule, Result, Scalar, UnaryOp,
};

/// Host memory and the CPU as a device.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuDevice;

/// A buffer in host memory. Large buffers go back to the [`pool`] when dropped.
#[derive(Clone, Debug, PartialEq)]
pub struct CpuStorage(pub HostBuffer);

impl Drop for CpuStorage {
    fn drop(&mut self) {
        pool::give(std::mem::replace(&mut self.0, HostBuffer::Bool(Vec::new())));
    }
}

fn no_loop<T>(op: &'static str, d: DType) -> Result<T> {
    Err(Error::InvalidDType { op, dtype: d })
}

/// Match two buffers of one dtype, binding the typed vectors.
macro_rules! with_pair {
    ($a:expr, $b:expr, $x:ident, $y:ident => $body:expr, $err:expr) => {{
        use HostBuffer::*;
        match ($a, $b) {
            (Bool($x), Bool($y)) => $body,
            (I8($x), I8($y)) => $body,
            (I16($x), I16($y)) => $body,
            (I32($x), I32($y)) => $body,
            (I64($x), I64($y)) => $body,
            (U8($x), U8($y)) => $body,
            (U16($x), U16($y)) => $body,
            (U32($x), U32($y)) => $body,
            (U64($x), U64($y)) => $body,
            (F16($x), F16($y)) => $body,
            (BF16($x), BF16($y)) => $body,
            (F32($x), F32($y)) => $body,
            (F64($x), F64($y)) => $body,
            (C64($x), C64($y)) => $body,
            (C128($x), C128($y)) => $body,
            _ => $err,
        }
    }};
}

fn unary_t<T: ScalarOps>(x: &[T], l: &Layout, op: UnaryOp) -> Result<HostBuffer> {
    let d = T::DTYPE;
    Ok(match op.out_rule() {
        OutRule::Bool => HostBuffer::from(map1(x, l, T::pred_fn(op).map_or_else(|| no_loop(op.name(), d), Ok)?)),
        OutRule::Real => {
            let f = T::real_fn(op).map_or_else(|| no_loop(op.name(), d), Ok)?;
            <T::Real as Element>::into_buffer(map1(x, l, f))
        }
        OutRule::Same => {
            let f = T::unary_fn(op).map_or_else(|| no_loop(op.name(), d), Ok)?;
            // Inlined (vectorisable) loop for the cheap op that variance and norms use.
            T::into_buffer(match op {
                UnaryOp::Square => map1(x, l, |v| T::mul(v, v)),
                _ => map1(x, l, f),
            })
        }
    })
}

fn binary_t<T: ScalarOps>(a: &[T], la: &Layout, b: &[T], lb: &Layout, op: BinaryOp) -> Result<HostBuffer> {
    let d = T::DTYPE;
    if op.out_rule() == OutRule::Bool {
        let f = T::cmp_fn(op).map_or_else(|| no_loop(op.name(), d), Ok)?;
        return Ok(HostBuffer::from(map2(a, la, b, lb, f)));
    }
    let f = T::binary_fn(op).map_or_else(|| no_loop(op.name(), d), Ok)?;
    // The common arithmetic ops get loops of their own so that the compiler inlines and vectorises.
    Ok(T::into_buffer(match op {
        BinaryOp::Add => map2(a, la, b, lb, T::add),
        BinaryOp::Sub => map2(a, la, b, lb, T::sub),
        BinaryOp::Mul => map2(a, la, b, lb, T::mul),
        BinaryOp::Div => map2(a, la, b, lb, T::div),
        _ => map2(a, la, b, lb, f),
    }))
}

fn reduce_t<T: ScalarOps>(x: &[T], l: &Layout, op: BinaryOp, axes: &[usize]) -> Result<HostBuffer> {
    let f = T::binary_fn(op).map_or_else(|| no_loop(op.name(), T::DTYPE), Ok)?;
    // Extremes of float32/float64 and integers as selects the compiler inlines and vectorises
    // (through the function pointer they ran at a sixteenth of NumPy's speed).
    let plain = matches!(T::DTYPE, DType::F32 | DType::F64) || T::DTYPE.is_integer();
    let nan = T::from_scalar(Scalar::Float(f64::NAN));
    Ok(T::into_buffer(match op {
        BinaryOp::Add => reduce::reduce(x, l, axes, true, T::add),
        BinaryOp::Mul => reduce::reduce(x, l, axes, true, T::mul),
        // (written with `|` and a NaN held by value, which the compiler turns into compares and
        // blends; the short-circuit forms ran six times slower than these)
        BinaryOp::Max | BinaryOp::Min | BinaryOp::Fmax | BinaryOp::Fmin
            if plain && axes.len() == l.ndim() && l.is_contiguous() && l.numel() > 0 =>
        {
            let v = &x[l.offset()..l.offset() + l.numel()];
            let skip = matches!(op, BinaryOp::Fmax | BinaryOp::Fmin);
            vec![match op {
                BinaryOp::Max | BinaryOp::Fmax => extreme::extreme::<T, true>(v, skip),
                _ => extreme::extreme::<T, false>(v, skip),
            }]
        }
        BinaryOp::Max if plain => reduce::reduce(x, l, axes, true, move |a, b| {
            let m = if T::gt(b, a) { b } else { a };
            if a.is_nan() | b.is_nan() {
                nan
            } else {
                m
            }
        }),
        BinaryOp::Min if plain => reduce::reduce(x, l, axes, true, move |a, b| {
            let m = if T::lt(b, a) { b } else { a };
            if a.is_nan() | b.is_nan() {
                nan
            } else {
                m
            }
        }),
        BinaryOp::Fmax if plain => {
            reduce::reduce(x, l, axes, true, |a, b| if T::gt(b, a) | a.is_nan() { b } else { a })
        }
        BinaryOp::Fmin if plain => {
            reduce::reduce(x, l, axes, true, |a, b| if T::lt(b, a) | a.is_nan() { b } else { a })
        }
        _ => reduce::reduce(x, l, axes, op.is_reorderable(), f),
    }))
}

fn scan_t<T: ScalarOps>(x: &[T], l: &Layout, op: BinaryOp, axis: usize) -> Result<HostBuffer> {
    let f = T::binary_fn(op).map_or_else(|| no_loop(op.name(), T::DTYPE), Ok)?;
    Ok(T::into_buffer(match op {
        BinaryOp::Add => reduce::scan(x, l, axis, T::add),
        BinaryOp::Mul => reduce::scan(x, l, axis, T::mul),
        _ => reduce::scan(x, l, axis, f),
    }))
}

fn cast_to<T: Element + Sync, U: Element>(x: &[T], l: &Layout) -> HostBuffer {
    U::into_buffer(map1(x, l, |v| U::from_scalar(v.to_scalar())))
}

fn cast_t<T: Element + Sync>(x: &[T], l: &Layout, to: DType) -> HostBuffer {
    xp_core::with_dtype!(to, U => cast_to::<T, U>(x, l))
}

fn copy_t<T: Copy>(src: &[T], sl: &Layout, dst: &mut [T], dl: &Layout) {
    let w = Walk::new(&[sl, dl]);
    let (ss, ds) = (w.inner_stride(0), w.inner_stride(1));
    w.segments(0, w.len(), |_, len, off| {
        if ss == 1 && ds == 1 {
            dst[off[1] as usize..off[1] as usize + len].copy_from_slice(&src[off[0] as usize..off[0] as usize + len]);
        } else {
            for i in 0..len as isize {
                dst[(off[1] + i * ds) as usize] = src[(off[0] + i * ss) as usize];
            }
        }
    });
}

impl BackendStorage for CpuStorage {
    const NAME: &'static str = "cpu";
    fn device(&self) -> Device {
        Device::Cpu
    }
    fn dtype(&self) -> DType {
        self.0.dtype()
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn to_host(&self, l: &Layout) -> Result<HostBuffer> {
        if l.is_contiguous() && l.offset() == 0 && l.numel() == self.len() {
            return Ok(self.0.clone());
        }
        Ok(with_buffer!(&self.0, v => Element::into_buffer(map1(v, l, |x| x))))
    }
    fn unary(&self, l: &Layout, op: UnaryOp) -> Result<Self> {
        match &self.0 {
            HostBuffer::F32(v) => {
                if let Some(r) = fastmath::unary_f32(v, l, op) {
                    return Ok(CpuStorage(HostBuffer::F32(r)));
                }
            }
            HostBuffer::F64(v) => {
                if let Some(r) = fastmath::unary_f64(v, l, op) {
                    return Ok(CpuStorage(HostBuffer::F64(r)));
                }
            }
            _ => {}
        }
        // The cheap float ops as inlined loops (through `unary_t`'s function pointer, a square
        // root of 2^24 float32 took 14 ms where the vectorised loop takes a few)
        macro_rules! cheap {
            ($v:expr, $t:ident) => {
                match op {
                    UnaryOp::Sqrt => return Ok(CpuStorage(HostBuffer::$t(map1($v, l, |x| x.sqrt())))),
                    UnaryOp::Reciprocal => return Ok(CpuStorage(HostBuffer::$t(map1($v, l, |x| 1.0 / x)))),
                    UnaryOp::Neg => return Ok(CpuStorage(HostBuffer::$t(map1($v, l, |x| -x)))),
                    UnaryOp::Abs => return Ok(CpuStorage(HostBuffer::$t(map1($v, l, |x| x.abs())))),
                    _ => {}
                }
            };
        }
        match &self.0 {
            HostBuffer::F32(v) => cheap!(v, F32),
            HostBuffer::F64(v) => cheap!(v, F64),
            _ => {}
        }
        with_buffer!(&self.0, v => unary_t(v, l, op)).map(CpuStorage)
    }
    fn binary(&self, l: &Layout, rhs: &Self, rl: &Layout, op: BinaryOp) -> Result<Self> {
        with_pair!(&self.0, &rhs.0, a, b => binary_t(a, l, b, rl, op), no_loop(op.name(), rhs.dtype())).map(CpuStorage)
    }
    fn where_cond(&self, l: &Layout, t: &Self, tl: &Layout, f: &Self, fl: &Layout) -> Result<Self> {
        let HostBuffer::Bool(c) = &self.0 else { return no_loop("where", self.dtype()) };
        with_pair!(&t.0, &f.0, a, b => {
            Ok(CpuStorage(Element::into_buffer(map3((c, l), (a, tl), (b, fl), |c, x, y| if c { x } else { y }))))
        }, no_loop("where", f.dtype()))
    }
    fn cast(&self, l: &Layout, dtype: DType) -> Result<Self> {
        Ok(CpuStorage(with_buffer!(&self.0, v => cast_t(v, l, dtype))))
    }
    fn copy_into(&self, l: &Layout, dst: &mut Self, dl: &Layout) -> Result<()> {
        with_pair!(&self.0, &mut dst.0, a, b => { copy_t(a, l, b, dl); Ok(()) }, no_loop("copyto", self.dtype()))
    }
    fn reduce(&self, l: &Layout, op: BinaryOp, axes: &[usize]) -> Result<Self> {
        with_buffer!(&self.0, v => reduce_t(v, l, op, axes)).map(CpuStorage)
    }
    fn arg_reduce(&self, l: &Layout, op: ArgReduceOp, axis: usize) -> Result<Self> {
        Ok(CpuStorage(HostBuffer::I64(with_buffer!(&self.0, v => reduce::arg_reduce(v, l, op, axis)))))
    }
    fn scan(&self, l: &Layout, op: BinaryOp, axis: usize) -> Result<Self> {
        with_buffer!(&self.0, v => scan_t(v, l, op, axis)).map(CpuStorage)
    }
}

impl BackendDevice for CpuDevice {
    type Storage = CpuStorage;
    fn device(&self) -> Device {
        Device::Cpu
    }
    fn upload(&self, buf: HostBuffer) -> Result<CpuStorage> {
        Ok(CpuStorage(buf))
    }
    fn full(&self, n: usize, value: Scalar, dtype: DType) -> Result<CpuStorage> {
        fn fill<T: Element>(n: usize, v: Scalar) -> HostBuffer {
            let x = T::from_scalar(v);
            T::into_buffer(iter::fill_chunks(n, |_, ch| {
                for o in ch {
                    o.write(x);
                }
            }))
        }
        Ok(CpuStorage(xp_core::with_dtype!(dtype, T => fill::<T>(n, value))))
    }
    fn affine(&self, n: usize, start: Scalar, step: Scalar, dtype: DType) -> Result<CpuStorage> {
        Ok(CpuStorage(HostBuffer::affine(n, start, step, dtype)))
    }
}
