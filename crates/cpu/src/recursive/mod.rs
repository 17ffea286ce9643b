//! The recursive filters on the CPU: SciPy's `lfilter` (direct form II transposed) and
//! `sosfilt` (a cascade of second-order sections) along the last axis. One step of each
//! recursion is written once ([`Step`]) and run by one driver:
//!
//! - order-specialised: a state of up to 16 values (8 sections) and the coefficients live in
//!   fixed-size arrays, so the step unrolls and keeps its state in registers; longer states run
//!   the same step over slices;
//! - lanes: lines go in groups as wide as one SIMD register (16 float32, 8 float64), copied
//!   block by block into a transposed scratch, so that one step is one vector operation per
//!   coefficient for the whole group (compiled for AVX-512 or AVX2 when the processor has
//!   them); groups go over the cores with rayon, and any input strides are read;
//! - pieces ([`chunks`]): when the lines are too few to fill every lane of every thread, long
//!   lines are cut into pieces that run as lanes from a zero state, then are joined through the
//!   recursion's linear state map.
//!
//! Every lane runs SciPy's operations in SciPy's order, with no fused multiply-add, so the line
//! paths give SciPy's results bit for bit. The piece path matches SciPy up to rounding (a few
//! units in the last place of the signal's magnitude), not bit for bit.
mod chunks;
mod lanes;
#[cfg(test)]
mod tests;

use crate::CpuStorage;
use std::mem::MaybeUninit;
use std::ops::{Add, Mul, Sub};
use xp_core::{Complex32, Complex64, Element, Error, HostBuffer, Layout, Recursed, Recursion, RecursionKind, Result};

/// Below this many samples in all, the lines run on the calling thread.
const PAR_WORK: usize = 1 << 15;

/// A dtype the filters run in (SciPy's `f`, `d`, `F`, `D`).
pub(crate) trait Sample: Element + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> {
    /// The machine epsilon of the dtype's precision.
    const EPS: f64;
    /// A complex128 value exactly representable in the dtype (its real part for a real one).
    fn from_c(c: Complex64) -> Self;
    /// The value widened to complex128.
    fn to_c(self) -> Complex64;
    /// `|re| + |im|` (NaN for a NaN).
    fn mag(self) -> f64 {
        let c = self.to_c();
        c.re.abs() + c.im.abs()
    }
}

impl Sample for f32 {
    const EPS: f64 = f32::EPSILON as f64;
    fn from_c(c: Complex64) -> Self {
        c.re as f32
    }
    fn to_c(self) -> Complex64 {
        Complex64::new(self as f64, 0.0)
    }
}
impl Sample for f64 {
    const EPS: f64 = f64::EPSILON;
    fn from_c(c: Complex64) -> Self {
        c.re
    }
    fn to_c(self) -> Complex64 {
        Complex64::new(self, 0.0)
    }
}
impl Sample for Complex32 {
    const EPS: f64 = f32::EPSILON as f64;
    fn from_c(c: Complex64) -> Self {
        Complex32::new(c.re as f32, c.im as f32)
    }
    fn to_c(self) -> Complex64 {
        Complex64::new(self.re as f64, self.im as f64)
    }
}
impl Sample for Complex64 {
    const EPS: f64 = f64::EPSILON;
    fn from_c(c: Complex64) -> Self {
        c
    }
    fn to_c(self) -> Complex64 {
        self
    }
}

/// What a step computes on: one sample, or one sample of each line of a lane group.
pub(crate) trait Lane<T>: Copy + Send + Sync + 'static {
    /// `v` in every lane.
    fn splat(v: T) -> Self;
    /// `self + o`, lane by lane.
    fn add(self, o: Self) -> Self;
    /// `self - o`, lane by lane.
    fn sub(self, o: Self) -> Self;
    /// `self * c`, lane by lane.
    fn mul(self, c: T) -> Self;
}

impl<T: Sample> Lane<T> for T {
    #[inline(always)]
    fn splat(v: T) -> Self {
        v
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self + o
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self - o
    }
    #[inline(always)]
    fn mul(self, c: T) -> Self {
        self * c
    }
}

impl<T: Sample, const W: usize> Lane<T> for [T; W] {
    #[inline(always)]
    fn splat(v: T) -> Self {
        [v; W]
    }
    #[inline(always)]
    fn add(mut self, o: Self) -> Self {
        for i in 0..W {
            self[i] = self[i] + o[i];
        }
        self
    }
    #[inline(always)]
    fn sub(mut self, o: Self) -> Self {
        for i in 0..W {
            self[i] = self[i] - o[i];
        }
        self
    }
    #[inline(always)]
    fn mul(mut self, c: T) -> Self {
        for v in &mut self {
            *v = *v * c;
        }
        self
    }
}

/// Storage of a known length: a fixed-size array (the specialised loops) or a vector.
pub(crate) trait Arr: Send + Sync + 'static {
    /// The storage of `V`s.
    type Of<V: Copy + Send + Sync + 'static>: AsRef<[V]> + AsMut<[V]> + Send + Sync;
    /// `n` copies of `v` (`n` must be the array's length when it is fixed).
    fn filled<V: Copy + Send + Sync + 'static>(n: usize, v: V) -> Self::Of<V>;
}

/// Arrays of exactly `N` values.
pub(crate) struct Fixed<const N: usize>;
impl<const N: usize> Arr for Fixed<N> {
    type Of<V: Copy + Send + Sync + 'static> = [V; N];
    fn filled<V: Copy + Send + Sync + 'static>(n: usize, v: V) -> [V; N] {
        assert_eq!(n, N, "a specialised recursion of the wrong length");
        [v; N]
    }
}

/// Vectors of any length.
pub(crate) struct Dynamic;
impl Arr for Dynamic {
    type Of<V: Copy + Send + Sync + 'static> = Vec<V>;
    fn filled<V: Copy + Send + Sync + 'static>(n: usize, v: V) -> Vec<V> {
        vec![v; n]
    }
}

/// One step of a linear recursion: an input sample in, an output out, the state carried.
pub(crate) trait Step<T: Sample>: Sync {
    /// The state of one line (or one lane group), the values of [`Recursion::state_len`].
    type State<V: Lane<T>>: Send;
    /// An all-zero state.
    fn state<V: Lane<T>>(&self) -> Self::State<V>;
    /// The state's values in SciPy's order.
    fn flat<V: Lane<T>>(z: &mut Self::State<V>) -> &mut [V];
    /// Filters the sample `x`, updating `z`; returns the output.
    fn step<V: Lane<T>>(&self, x: V, z: &mut Self::State<V>) -> V;
}

/// Direct form II transposed: `b[0]`, then `b[1..]` and `a[1..]` (normalised by `a[0]`).
pub(crate) struct Df2t<T: Sample, A: Arr> {
    b0: T,
    b: A::Of<T>,
    a: A::Of<T>,
}

impl<T: Sample, A: Arr> Df2t<T, A> {
    /// From [`RecursionKind::Df2t`]'s coefficients.
    pub(crate) fn new(coef: &[Complex64]) -> Self {
        let k = coef.len() / 2;
        let (b, a) = coef.split_at(k);
        let (mut bs, mut as_) = (A::filled(k - 1, T::default()), A::filled(k - 1, T::default()));
        for (i, (o, p)) in bs.as_mut().iter_mut().zip(as_.as_mut()).enumerate() {
            *o = T::from_c(b[i + 1]);
            *p = T::from_c(a[i + 1]);
        }
        Df2t { b0: T::from_c(b[0]), b: bs, a: as_ }
    }
}

impl<T: Sample, A: Arr> Step<T> for Df2t<T, A> {
    type State<V: Lane<T>> = A::Of<V>;
    fn state<V: Lane<T>>(&self) -> A::Of<V> {
        A::filled(self.b.as_ref().len(), V::splat(T::default()))
    }
    #[inline(always)]
    fn flat<V: Lane<T>>(z: &mut A::Of<V>) -> &mut [V] {
        z.as_mut()
    }
    #[inline(always)]
    fn step<V: Lane<T>>(&self, x: V, z: &mut A::Of<V>) -> V {
        let z = z.as_mut();
        let s = z.len();
        let (b, a) = (&self.b.as_ref()[..s], &self.a.as_ref()[..s]);
        // SciPy's order: yn = z[0] + b[0] xn; z[j] = z[j+1] + xn b[j+1] - yn a[j+1]
        let y = z[0].add(x.mul(self.b0));
        for j in 0..s - 1 {
            z[j] = z[j + 1].add(x.mul(b[j])).sub(y.mul(a[j]));
        }
        z[s - 1] = x.mul(b[s - 1]).sub(y.mul(a[s - 1]));
        y
    }
}

/// A cascade of second-order sections, each `b0 b1 b2 1 a1 a2`.
pub(crate) struct Sos<T: Sample, A: Arr> {
    s: A::Of<[T; 6]>,
}

impl<T: Sample, A: Arr> Sos<T, A> {
    /// From [`RecursionKind::Sos`]'s coefficients.
    pub(crate) fn new(coef: &[Complex64]) -> Self {
        let mut s = A::filled(coef.len() / 6, [T::default(); 6]);
        for (o, c) in s.as_mut().iter_mut().zip(coef.chunks_exact(6)) {
            *o = std::array::from_fn(|i| T::from_c(c[i]));
        }
        Sos { s }
    }
}

impl<T: Sample, A: Arr> Step<T> for Sos<T, A> {
    type State<V: Lane<T>> = A::Of<[V; 2]>;
    fn state<V: Lane<T>>(&self) -> A::Of<[V; 2]> {
        A::filled(self.s.as_ref().len(), [V::splat(T::default()); 2])
    }
    #[inline(always)]
    fn flat<V: Lane<T>>(z: &mut A::Of<[V; 2]>) -> &mut [V] {
        z.as_mut().as_flattened_mut()
    }
    #[inline(always)]
    fn step<V: Lane<T>>(&self, x: V, z: &mut A::Of<[V; 2]>) -> V {
        let mut cur = x;
        for (s, zs) in self.s.as_ref().iter().zip(z.as_mut()) {
            // SciPy's order: new = b0 cur + z0; z0 = b1 cur - a1 new + z1; z1 = b2 cur - a2 new
            let new = cur.mul(s[0]).add(zs[0]);
            zs[0] = cur.mul(s[1]).sub(new.mul(s[4])).add(zs[1]);
            zs[1] = cur.mul(s[2]).sub(new.mul(s[5]));
            cur = new;
        }
        cur
    }
}

/// Something to run with the recursion's [`Step`], whichever specialisation it gets.
pub(crate) trait WithStep<T: Sample> {
    /// The result.
    type Out;
    /// Runs with `r`.
    fn with<R: Step<T>>(self, r: R) -> Self::Out;
}

/// Calls `f` with `rec`'s step in dtype `T`: specialised for states of up to 16 values (Df2t)
/// or 8 sections (Sos), a slice loop beyond.
pub(crate) fn dispatch<T: Sample, F: WithStep<T>>(rec: &Recursion, f: F) -> F::Out {
    macro_rules! fixed {
        ($ty:ident, $n:expr, $($k:literal)*) => {
            match $n {
                $($k => f.with($ty::<T, Fixed<$k>>::new(&rec.coef)),)*
                _ => f.with($ty::<T, Dynamic>::new(&rec.coef)),
            }
        };
    }
    match rec.kind {
        RecursionKind::Df2t => fixed!(Df2t, rec.state_len(), 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16),
        RecursionKind::Sos => fixed!(Sos, rec.coef.len() / 6, 1 2 3 4 5 6 7 8),
    }
}

/// A line of the input: `len` values from `start`, `stride` apart.
#[derive(Clone, Copy)]
pub(crate) struct Src<'a, T> {
    data: &'a [T],
    start: isize,
    stride: isize,
    len: usize,
}

impl<'a, T: Copy> Src<'a, T> {
    /// The values `pos..pos + n` as a slice, when they are adjacent.
    #[inline(always)]
    fn unit(&self, pos: usize, n: usize) -> Option<&'a [T]> {
        let s = (self.start + pos as isize * self.stride) as usize;
        (self.stride == 1 || n == 1).then(|| &self.data[s..s + n])
    }
    /// The value at `i`.
    #[inline(always)]
    fn at(&self, i: usize) -> T {
        self.data[(self.start + i as isize * self.stride) as usize]
    }
    /// The `W` values from `pos`.
    #[inline(always)]
    fn row<const W: usize>(&self, pos: usize) -> [T; W] {
        match self.unit(pos, W) {
            Some(s) => s.try_into().expect("W values"),
            None => std::array::from_fn(|i| self.at(pos + i)),
        }
    }
    /// The part from `pos`, `n` long.
    pub(crate) fn part(&self, pos: usize, n: usize) -> Src<'a, T> {
        Src { start: self.start + pos as isize * self.stride, len: n, ..*self }
    }
}

/// One line (or piece of a line) to filter: its input, where its output goes, the state it
/// starts from (`None`: zeros) and where its final state goes.
pub(crate) struct Job<'a, T> {
    /// the input samples
    pub(crate) src: Src<'a, T>,
    /// the outputs, as long as the input (every one is written)
    pub(crate) dst: &'a mut [MaybeUninit<T>],
    /// the initial state (`None`: zeros)
    pub(crate) z0: Option<&'a [T]>,
    /// the final state
    pub(crate) zf: &'a mut [T],
}

/// Filters one job alone, sample after sample.
#[inline(always)]
fn run_line<T: Sample, R: Step<T>>(r: &R, job: &mut Job<T>) {
    let mut z = r.state::<T>();
    if let Some(z0) = job.z0 {
        R::flat(&mut z).copy_from_slice(z0);
    }
    match job.src.unit(0, job.src.len) {
        Some(s) => {
            for (o, &x) in job.dst.iter_mut().zip(s) {
                o.write(r.step(x, &mut z));
            }
        }
        None => {
            for (i, o) in job.dst.iter_mut().enumerate() {
                o.write(r.step(job.src.at(i), &mut z));
            }
        }
    }
    job.zf.copy_from_slice(R::flat(&mut z));
}

/// Filters every job: in groups of up to `W` as lanes (a group of one alone), the groups over
/// the cores when there is enough work.
pub(crate) fn run_jobs<T: Sample, R: Step<T>, const W: usize>(r: &R, jobs: &mut [Job<T>]) {
    let group = |g: &mut [Job<T>]| match g {
        [one] => run_line(r, one),
        _ => lanes::group::<T, R, W>(r, g),
    };
    let work: usize = jobs.iter().map(|j| j.src.len).sum();
    let threads = rayon::current_num_threads();
    let mut groups = jobs.len().div_ceil(W);
    if work < PAR_WORK || groups == 0 {
        return jobs.chunks_mut(W).for_each(group);
    }
    if jobs.len() >= threads {
        // as many groups on every thread, each as full as the jobs allow
        groups = groups.next_multiple_of(threads);
    }
    let size = jobs.len().div_ceil(groups).max(1);
    crate::par::chunks_mut(jobs, size, &|_, g| group(g));
}

/// The offset of every line's first element (lines along the last axis, in C order).
fn line_starts(l: &Layout) -> Vec<isize> {
    let nd = l.ndim() - 1;
    let (shape, strides) = (&l.shape()[..nd], &l.strides()[..nd]);
    let lines: usize = shape.iter().product();
    let mut out = Vec::with_capacity(lines);
    let (mut idx, mut off) = (vec![0; nd], l.offset() as isize);
    for _ in 0..lines {
        out.push(off);
        for d in (0..nd).rev() {
            idx[d] += 1;
            off += strides[d];
            if idx[d] < shape[d] {
                break;
            }
            off -= strides[d] * shape[d] as isize;
            idx[d] = 0;
        }
    }
    out
}

/// The input lines.
pub(crate) struct Lines<'a, T> {
    /// every line, whole
    pub(crate) src: Vec<Src<'a, T>>,
    /// their length
    pub(crate) n: usize,
    /// the initial states, C-contiguous
    pub(crate) zi: Vec<T>,
    /// the state's length
    pub(crate) k: usize,
}

/// The driver for one dtype, `W` lanes to a group.
struct Driver<'a, T, const W: usize>(&'a Lines<'a, T>, &'a Recursion);

impl<T: Sample, const W: usize> WithStep<T> for Driver<'_, T, W> {
    type Out = (Vec<T>, Vec<T>);
    fn with<R: Step<T>>(self, r: R) -> (Vec<T>, Vec<T>) {
        let Driver(x, rec) = self;
        if let Some(out) = chunks::run::<T, R, W>(&r, rec, x) {
            return out;
        }
        let (n, k) = (x.n, x.k);
        let lines = x.src.len();
        let mut y = crate::pool::alloc::<T>(lines * n);
        let mut zf = vec![T::default(); lines * k];
        let dst = &mut y.spare_capacity_mut()[..lines * n];
        let mut jobs: Vec<Job<T>> = (dst.chunks_mut(n).zip(zf.chunks_mut(k)))
            .zip(x.src.iter().zip(x.zi.chunks(k)))
            .map(|((dst, zf), (&src, z0))| Job { src, dst, z0: Some(z0), zf })
            .collect();
        run_jobs::<T, R, W>(&r, &mut jobs);
        drop(jobs);
        // SAFETY: the jobs' outputs tile all `lines * n` elements, and each job writes all of its.
        unsafe { y.set_len(lines * n) };
        (y, zf)
    }
}

/// Filters the lines of `x` at `l` (the last axis) from the states `zi` at `zl`, in dtype `T`
/// with `W` lanes to a group: `y` and `zf`, C-contiguous.
fn typed<T: Sample, const W: usize>(
    x: &[T],
    l: &Layout,
    r: &Recursion,
    zi: &[T],
    zl: &Layout,
) -> (HostBuffer, HostBuffer) {
    let n = l.shape()[l.ndim() - 1];
    let src = line_starts(l).into_iter().map(|start| Src { data: x, start, stride: l.strides()[l.ndim() - 1], len: n });
    let x = Lines { src: src.collect(), n, zi: crate::iter::map1(zi, zl, |v| v), k: r.state_len() };
    let (y, zf) = dispatch(r, Driver::<T, W>(&x, r));
    (T::into_buffer(y), T::into_buffer(zf))
}

/// [`xp_core::FilterStorage::recursive_filter`] on the CPU.
pub(crate) fn recursive_filter(
    x: &CpuStorage,
    l: &Layout,
    r: &Recursion,
    zi: &CpuStorage,
    zl: &Layout,
) -> Result<Recursed<CpuStorage>> {
    let k = r.state_len();
    let ok = l.ndim() >= 1
        && l.numel() > 0
        && k > 0
        && zl.ndim() == l.ndim()
        && zl.shape()[..l.ndim() - 1] == l.shape()[..l.ndim() - 1]
        && zl.shape()[l.ndim() - 1] == k;
    if !ok {
        return Err(Error::invalid("lfilter", "the state's shape does not match the lines'"));
    }
    let (y, zf) = match (&x.0, &zi.0) {
        (HostBuffer::F32(x), HostBuffer::F32(z)) => typed::<f32, 16>(x, l, r, z, zl),
        (HostBuffer::F64(x), HostBuffer::F64(z)) => typed::<f64, 8>(x, l, r, z, zl),
        (HostBuffer::C64(x), HostBuffer::C64(z)) => typed::<Complex32, 8>(x, l, r, z, zl),
        (HostBuffer::C128(x), HostBuffer::C128(z)) => typed::<Complex64, 4>(x, l, r, z, zl),
        _ => return Err(Error::InvalidDType { op: "lfilter", dtype: x.0.dtype() }),
    };
    Ok(Recursed { y: CpuStorage(y), zf: CpuStorage(zf) })
}
