//! The FFT family on the GPU: cuFFT, through cudarc's bindings, on the calling thread's current
//! stream with work areas from xp's pool ([`plan`]).
//!
//! A transform over several axes is cut into passes, each one cuFFT plan over a C-contiguous
//! buffer: the transformed axes at the end of the array go in one plan of up to three
//! dimensions (batched over the rest, NumPy's `fft2`/`rfft2` of a C-order array are one plan),
//! any other axis in a strided plan of its own (element stride the size of the axes after it,
//! batched over whichever of the axes before or after it is larger, the launch repeated over
//! the other). The first pass reads the input where it lies when it is C-contiguous (a copy
//! otherwise) and writes a new buffer; later complex passes transform that buffer in place.
//!
//! NumPy's real inverse transform runs its complex axes first and then the real axis, ignoring
//! the imaginary parts of the real axis's first and (even length) last values; cuFFT's
//! multi-dimensional C2R assumes a Hermitian input instead, so xp does NumPy's order: the
//! complex axes, then [`kernels`] zero those imaginary parts, then a one-axis C2R (on a copy:
//! C2R overwrites its input). An input known to be Hermitian ([`xp_core::FftSpec::hermitian`]:
//! FFT convolution's product of real spectra) goes to one multi-dimensional C2R instead.
//! `norm`'s scale is one more pass when it is not 1.
mod kernels;
pub mod plan;

use crate::runtime::buffer::CudaStorage;
use plan::{Shape, Ty};
use xp_core::{DType, Error, FftKind, FftSpec, FftStorage, Layout, Result};

/// One pass: axes `a0 .. a1` of the current buffer (of shape `shape`), transformed by `ty`
/// into a buffer whose shape differs only at axis `a1 - 1`, where it is `out_len`.
#[derive(Clone, Copy, Debug)]
struct Pass {
    a0: usize,
    a1: usize,
    ty: Ty,
    inverse: bool,
    out_len: usize,
}

/// The first axis of the run of axes at the end of an array of `nd` axes (at most three, cuFFT's
/// largest rank) that `has`; `nd` when the last axis is not one.
fn trailing(nd: usize, has: impl Fn(usize) -> bool) -> usize {
    let mut a0 = nd;
    while a0 > 0 && nd - a0 < 3 && has(a0 - 1) {
        a0 -= 1;
    }
    a0
}

/// The complex passes over `axes` of an array of `nd` axes: the run of transformed axes at the
/// end as one pass, and each other run of up to three adjacent axes as one strided plan (the
/// complex axes of `irfftn` over a 3-D array were one strided launch per plane before: a
/// quarter of CuPy's speed).
fn complex_passes(nd: usize, axes: &[usize], ty: Ty, inverse: bool, shape: &[usize]) -> Vec<Pass> {
    let a0 = trailing(nd, |x| axes.contains(&x));
    let mut passes = Vec::new();
    if a0 < nd {
        passes.push(Pass { a0, a1: nd, ty, inverse, out_len: shape[nd - 1] });
    }
    let mut rest: Vec<usize> = axes.iter().copied().filter(|&ax| ax < a0).collect();
    rest.sort_unstable();
    let mut i = 0;
    while i < rest.len() {
        let mut j = i + 1;
        while j < rest.len() && rest[j] == rest[j - 1] + 1 && j - i < 3 {
            j += 1;
        }
        let last = rest[j - 1];
        passes.push(Pass { a0: rest[i], a1: last + 1, ty, inverse, out_len: shape[last] });
        i = j;
    }
    passes
}

impl FftStorage for CudaStorage {
    fn fft(&self, l: &Layout, spec: &FftSpec<'_>) -> Result<Self> {
        let d = self.dtype;
        let single = matches!(d, DType::F32 | DType::C64);
        let ok = match spec.kind {
            FftKind::RealForward => matches!(d, DType::F32 | DType::F64),
            _ => matches!(d, DType::C64 | DType::C128),
        };
        if !ok {
            return Err(Error::InvalidDType { op: "fft", dtype: d });
        }
        let nd = l.ndim();
        let (&r, rest) = spec.axes.split_last().expect("at least one axis");
        let shape = l.shape().to_vec();
        let complex = Ty::of(single, false, false);
        let mut passes = Vec::new();
        match spec.kind {
            FftKind::Forward | FftKind::Inverse => {
                let inv = spec.kind == FftKind::Inverse;
                passes = complex_passes(nd, spec.axes, complex, inv, &shape);
            }
            FftKind::RealForward => {
                // the real axis last in memory: with the transformed axes before it, one plan
                let a0 = if r == nd - 1 { trailing(nd, |x| x == r || rest.contains(&x)) } else { r };
                let half = shape[r] / 2 + 1;
                passes.push(Pass { a0, a1: r + 1, ty: Ty::of(single, true, false), inverse: false, out_len: half });
                let left: Vec<usize> = rest.iter().copied().filter(|&x| x < a0 || x > r).collect();
                let mut half_shape = shape.clone();
                half_shape[r] = half;
                passes.extend(complex_passes(nd, &left, complex, false, &half_shape));
            }
            FftKind::RealInverse { n } => {
                // A known Hermitian input with its real axis last: the transformed axes at the
                // end in one multi-dimensional C2R (cuFFT's, exact for such inputs).
                let a0 = if spec.hermitian && r == nd - 1 { trailing(nd, |x| x == r || rest.contains(&x)) } else { r };
                let left: Vec<usize> = rest.iter().copied().filter(|&x| x < a0 || x > r).collect();
                passes = complex_passes(nd, &left, complex, true, &shape);
                passes.push(Pass { a0, a1: r + 1, ty: Ty::of(single, false, true), inverse: true, out_len: n });
            }
        }
        let mut out_shape = shape.clone();
        if let Some(p) = passes.iter().find(|p| matches!(p.ty, Ty::R2C | Ty::D2Z | Ty::C2R | Ty::Z2D)) {
            out_shape[p.a1 - 1] = p.out_len;
        }
        let out_dtype = passes.last().map_or(d, |p| p.ty.dtypes().1);
        let (n_in, n_out) = (shape.iter().product::<usize>(), out_shape.iter().product::<usize>());
        if n_in == 0 || n_out == 0 {
            return CudaStorage::alloc(&self.dev, out_dtype, n_out);
        }
        let out = self.run_passes(l, &passes, shape)?;
        if spec.scale != 1.0 {
            kernels::scale(&out, spec.scale)?;
        }
        Ok(out)
    }
}

impl CudaStorage {
    /// The passes of one transform of `self` at `l` (of `shape`, not empty), into a new buffer.
    fn run_passes(&self, l: &Layout, passes: &[Pass], mut shape: Vec<usize>) -> Result<CudaStorage> {
        let d = self.dtype;
        // The current buffer: the input where it lies (not ours to write), or one of ours. cuFFT
        // reads a real input as pairs: it must be aligned as a complex value of its precision.
        let aligned = self.ptr(l.offset()).is_multiple_of(2 * d.size() as u64) || d.is_complex();
        let mut owned: Option<CudaStorage> =
            (!l.is_contiguous() || !aligned).then(|| self.contiguous_copy(l)).transpose()?;
        for p in passes {
            let ax = p.a1 - 1;
            let real = !matches!(p.ty, Ty::C2C | Ty::Z2Z);
            if real && shape[p.a1..].iter().product::<usize>() > 1 {
                // A real axis that is not last: its strided launches would start at odd offsets,
                // which cuFFT refuses for reals (read and written as aligned pairs). The axis
                // goes last (a copy), the pass runs batched, and the axis comes back (a copy).
                let nd = shape.len();
                let perm: Vec<usize> = (0..nd).filter(|&x| x != ax).chain([ax]).collect();
                let (src, sl) = match &owned {
                    Some(o) => (o, Layout::contiguous(&shape)),
                    None => (self, l.clone()),
                };
                let mut mshape: Vec<usize> = perm.iter().map(|&x| shape[x]).collect();
                let moved = src.contiguous_copy(&sl.permute(&perm)?)?;
                let res = moved.run_passes(
                    &Layout::contiguous(&mshape),
                    &[Pass { a0: nd - 1, a1: nd, ..*p }],
                    mshape.clone(),
                )?;
                mshape[nd - 1] = p.out_len;
                let mut inv = vec![0; nd];
                for (i, &x) in perm.iter().enumerate() {
                    inv[x] = i;
                }
                owned = Some(res.contiguous_copy(&Layout::contiguous(&mshape).permute(&inv)?)?);
                shape[ax] = p.out_len;
                continue;
            }
            if matches!(p.ty, Ty::C2R | Ty::Z2D) {
                // C2R overwrites its input, and the fix below writes it: it must be ours.
                let cur = match owned.take() {
                    Some(o) => o,
                    None => self.contiguous_copy(l)?,
                };
                if p.a1 - p.a0 == 1 {
                    let outer: usize = shape[..ax].iter().product();
                    let inner: usize = shape[ax + 1..].iter().product();
                    kernels::drop_edge_imag(&cur, outer, shape[ax], inner, p.out_len)?;
                }
                owned = Some(cur);
            }
            let src_ptr = match &owned {
                Some(o) => o.ptr(0),
                None => self.ptr(l.offset()),
            };
            let mut next_shape = shape.clone();
            next_shape[ax] = p.out_len;
            let in_place = !real && owned.is_some();
            let dst = if in_place {
                None
            } else {
                Some(CudaStorage::alloc(&self.dev, p.ty.dtypes().1, next_shape.iter().product())?)
            };
            let dst_ptr = dst.as_ref().map_or(src_ptr, |o| o.ptr(0));
            let mut used: Vec<&CudaStorage> = vec![owned.as_ref().unwrap_or(self)];
            used.extend(dst.as_ref());
            let wk = self.dev.work(&used)?;
            let (shape_p, runs) = layout(p, &shape, &next_shape);
            let (si, so) = (esize(p.ty.dtypes().0), esize(p.ty.dtypes().1));
            let runs: Vec<(u64, u64)> = runs.iter().map(|&(i, o)| (src_ptr + i * si, dst_ptr + o * so)).collect();
            plan::exec(&self.dev, &shape_p, &runs, p.inverse)?;
            wk.done()?;
            if let Some(dst) = dst {
                owned = Some(dst);
            }
            shape = next_shape;
        }
        match owned {
            Some(o) => Ok(o),
            None => self.contiguous_copy(l), // no pass: not reached (one axis at least)
        }
    }
}

fn esize(d: DType) -> u64 {
    d.size() as u64
}

/// The plan of pass `p` from a C-contiguous buffer of `shape` to one of `next`, and the element
/// offsets (input, output) of each of its launches.
fn layout(p: &Pass, shape: &[usize], next: &[usize]) -> (Shape, Vec<(u64, u64)>) {
    let rank = p.a1 - p.a0;
    let outer: usize = shape[..p.a0].iter().product();
    let inner: usize = shape[p.a1..].iter().product();
    let (din, dout) = (&shape[p.a0..p.a1], &next[p.a0..p.a1]);
    let logical = if matches!(p.ty, Ty::C2R | Ty::Z2D) { dout } else { din };
    let fill = |d: &[usize]| {
        let mut a = [0i64; 3];
        for (x, &v) in a.iter_mut().zip(d) {
            *x = v as i64;
        }
        a
    };
    let (bin, bout) = (din.iter().product::<usize>(), dout.iter().product::<usize>());
    let mut s = Shape {
        ty: p.ty,
        rank,
        n: fill(logical),
        inembed: fill(din),
        onembed: fill(dout),
        istride: 1,
        idist: bin as i64,
        ostride: 1,
        odist: bout as i64,
        batch: outer as i64,
        basic: inner == 1,
    };
    if inner == 1 {
        return (s, vec![(0, 0)]);
    }
    s.istride = inner as i64;
    s.ostride = inner as i64;
    let (ib, ob) = ((bin * inner) as u64, (bout * inner) as u64);
    if outer <= inner {
        // batched over the axes after the pass, repeated over those before it
        (s.idist, s.odist, s.batch) = (1, 1, inner as i64);
        (s, (0..outer as u64).map(|o| (o * ib, o * ob)).collect())
    } else {
        (s.idist, s.odist) = (ib as i64, ob as i64);
        (s, (0..inner as u64).map(|i| (i, i)).collect())
    }
}
