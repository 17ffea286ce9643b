//! The FFT family on the CPU: rustfft for complex transforms and realfft for real ones, along
//! each requested axis in turn (one pass per axis, every line of it in parallel), in the input's
//! precision. Plans come from [`plan`], the cache the user sees through `xp::fft::plan_cache`.
mod lines;
pub mod plan;

use crate::iter::map1;
use crate::CpuStorage;
use lines::along;
use num_complex::Complex;
use rayon::prelude::*;
use rustfft::FftNum;
use xp_core::{Element, Error, FftKind, FftSpec, FftStorage, HostBuffer, Layout, Result};

/// float32 or float64, with its complex type an xp element.
trait Float: FftNum + Element + Default
where
    Complex<Self>: Element,
{
}
impl Float for f32 {}
impl Float for f64 {}

impl FftStorage for CpuStorage {
    fn fft(&self, l: &Layout, spec: &FftSpec<'_>) -> Result<Self> {
        let bad = || Err(Error::InvalidDType { op: "fft", dtype: self.0.dtype() });
        let out = match (&self.0, spec.kind) {
            (HostBuffer::F32(x), FftKind::RealForward) => real_forward(x, l, spec),
            (HostBuffer::F64(x), FftKind::RealForward) => real_forward(x, l, spec),
            (_, FftKind::RealForward) => return bad(),
            (HostBuffer::C64(x), FftKind::RealInverse { n }) => real_inverse(x, l, spec, n),
            (HostBuffer::C128(x), FftKind::RealInverse { n }) => real_inverse(x, l, spec, n),
            (HostBuffer::C64(x), _) => complex(x, l, spec),
            (HostBuffer::C128(x), _) => complex(x, l, spec),
            _ => return bad(),
        };
        Ok(CpuStorage(out))
    }
}

/// Complex transforms of `buf` (of `shape`) along `axes`, in place of `buf`.
fn c2c_axes<T: Float>(buf: &mut Vec<Complex<T>>, shape: &[usize], axes: &[usize], inverse: bool)
where
    Complex<T>: Element,
{
    for &ax in axes {
        let n = shape[ax];
        let plan = plan::c2c::<T>(n, inverse);
        let scratch = plan.get_outofplace_scratch_len();
        let next = along(
            buf,
            shape,
            ax,
            n,
            || vec![Complex::default(); scratch],
            |s, i, o| plan.process_outofplace_with_scratch(i, o, s),
        );
        recycle(std::mem::replace(buf, next));
    }
}

/// A finished intermediate buffer back to the host pool (the next transform reuses it).
fn recycle<E: Element>(v: Vec<E>) {
    crate::pool::give(E::into_buffer(v));
}

fn scaled<E: Element>(mut v: Vec<E>, scale: f64, mul: impl Fn(E, f64) -> E + Sync) -> HostBuffer {
    if scale != 1.0 {
        v.par_iter_mut().with_min_len(1 << 14).for_each(|x| *x = mul(*x, scale));
    }
    E::into_buffer(v)
}

fn cmul<T: Float>(z: Complex<T>, s: f64) -> Complex<T>
where
    Complex<T>: Element,
{
    z * T::from_f64(s).expect("a float scale")
}

fn complex<T: Float>(x: &[Complex<T>], l: &Layout, spec: &FftSpec<'_>) -> HostBuffer
where
    Complex<T>: Element,
{
    let mut buf = map1(x, l, |z| z);
    c2c_axes(&mut buf, l.shape(), spec.axes, spec.kind == FftKind::Inverse);
    scaled(buf, spec.scale, cmul)
}

fn real_forward<T: Float>(x: &[T], l: &Layout, spec: &FftSpec<'_>) -> HostBuffer
where
    Complex<T>: Element,
{
    let (&r, rest) = spec.axes.split_last().expect("at least one axis");
    let mut shape = l.shape().to_vec();
    let n = shape[r];
    let plan = plan::r2c::<T>(n);
    let scratch = plan.get_scratch_len();
    let mut re = map1(x, l, |v| v);
    let mut buf = along(
        &mut re,
        &shape,
        r,
        n / 2 + 1,
        || vec![Complex::default(); scratch],
        |s, i, o| plan.process_with_scratch(i, o, s).expect("lengths match the plan"),
    );
    recycle(re);
    shape[r] = n / 2 + 1;
    c2c_axes(&mut buf, &shape, rest, false);
    scaled(buf, spec.scale, cmul)
}

fn real_inverse<T: Float>(x: &[Complex<T>], l: &Layout, spec: &FftSpec<'_>, n: usize) -> HostBuffer
where
    Complex<T>: Element,
{
    let (&r, rest) = spec.axes.split_last().expect("at least one axis");
    let shape = l.shape();
    let mut buf = map1(x, l, |z| z);
    c2c_axes(&mut buf, shape, rest, true);
    let plan = plan::c2r::<T>(n);
    let scratch = plan.get_scratch_len();
    let out = along(
        &mut buf,
        shape,
        r,
        n,
        || vec![Complex::default(); scratch],
        |s, i, o| {
            // A real signal's spectrum has real first and (n even) last values: NumPy ignores
            // their imaginary parts, and so does this.
            i[0].im = T::zero();
            if n.is_multiple_of(2) {
                i[n / 2].im = T::zero();
            }
            plan.process_with_scratch(i, o, s).expect("lengths match the plan")
        },
    );
    recycle(buf);
    scaled(out, spec.scale, |v, s| v * T::from_f64(s).expect("a float scale"))
}
