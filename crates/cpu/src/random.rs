//! The random family on the CPU: each thread fills its chunk of the output from the Philox
//! blocks of its positions ([`xp_core::random`] says which words each value takes).
use crate::fastmath::double;
use crate::iter::{fill_chunks, fill_chunks_work};
use crate::{CpuDevice, CpuStorage};
use std::mem::MaybeUninit;
use xp_core::random::sample::{binomial, poisson, standard_gamma, Words};
use xp_core::random::{
    exponential_f32, exponential_f64, integer, normal_pair_f32, open_unit_f64, round_keys, unit_f32, unit_f64, wide,
    Stream, PHILOX_M,
};
use xp_core::{BackendStorage, DType, Distribution, Element, Error, HostBuffer, RandomDevice, Result, Scalar};

/// Blocks per batch: the lanes of the vectorised Philox.
const LANES: usize = 16;

/// The words of blocks `b0 .. b0 + LANES` of `s` in value order (word `j` of block `b0 + l` at
/// `4l + j`): [`xp_core::random::philox`] computed lane by lane, so that each round is a few
/// vector instructions.
#[inline(always)]
fn batch(s: &Stream, b0: u64) -> [u32; 4 * LANES] {
    let mut c = [
        std::array::from_fn(|l| (b0 + l as u64) as u32),
        std::array::from_fn(|l| ((b0 + l as u64) >> 32) as u32),
        [s.draw as u32; LANES],
        [(s.draw >> 32) as u32; LANES],
    ];
    for k in round_keys(s.key) {
        let [c0, c1, c2, c3] = &mut c;
        for l in 0..LANES {
            let p0 = PHILOX_M[0] as u64 * c0[l] as u64;
            let p1 = PHILOX_M[1] as u64 * c2[l] as u64;
            (c0[l], c1[l], c2[l], c3[l]) =
                ((p1 >> 32) as u32 ^ c1[l] ^ k[0], p1 as u32, (p0 >> 32) as u32 ^ c3[l] ^ k[1], p0 as u32);
        }
    }
    std::array::from_fn(|i| c[i % 4][i / 4])
}

/// How a batch's words become its `V` values (`V / LANES` to a block), inlined into the
/// vectorised loop of [`by_batches`].
trait Values<T, const V: usize>: Sync {
    /// The values of the batch starting at block `k0`, from its words `w`.
    fn values(&self, k0: u64, w: &[u32; 4 * LANES], v: &mut [T; V]);
}

/// `random`: one value per word (float32) or per two words (float64).
struct Unit;
impl Values<f32, { 4 * LANES }> for Unit {
    #[inline(always)]
    fn values(&self, _: u64, w: &[u32; 4 * LANES], v: &mut [f32; 4 * LANES]) {
        v.iter_mut().zip(w).for_each(|(v, &w)| *v = unit_f32(w));
    }
}
impl Values<f64, { 2 * LANES }> for Unit {
    #[inline(always)]
    fn values(&self, _: u64, w: &[u32; 4 * LANES], v: &mut [f64; 2 * LANES]) {
        v.iter_mut().zip(w.chunks_exact(2)).for_each(|(v, p)| *v = unit_f64(p[0], p[1]));
    }
}

/// `standard_normal`: a Box–Muller pair per two words (float32) or per block (float64).
struct Normal;
impl Values<f32, { 4 * LANES }> for Normal {
    #[inline(always)]
    fn values(&self, _: u64, w: &[u32; 4 * LANES], v: &mut [f32; 4 * LANES]) {
        for (v, p) in v.chunks_exact_mut(2).zip(w.chunks_exact(2)) {
            [v[0], v[1]] = normal_pair_f32(p[0], p[1]);
        }
    }
}
/// float64: the specification's pair ([`xp_core::random::normal_pair_f64`]: `√(-2 ln u1)·(cos, sin)(2π u2)`) through
/// xp's branch-free `ln` and `cos`/`sin` of the angle, which the compiler vectorises, instead of
/// libm's three calls per pair (2^20 values took 10.5 ms on the 2-core EPYC, NumPy's ziggurat
/// 11.4). Within 3 ulp of the specification's values (`random_props` bounds 4).
impl Values<f64, { 2 * LANES }> for Normal {
    #[inline(always)]
    fn values(&self, _: u64, w: &[u32; 4 * LANES], v: &mut [f64; 2 * LANES]) {
        let (mut r, mut a) = ([0.0; LANES], [0.0; LANES]);
        for ((r, a), p) in r.iter_mut().zip(&mut a).zip(w.chunks_exact(4)) {
            *r = (-2.0 * double::log::<false>(open_unit_f64(p[0], p[1]))).sqrt();
            *a = std::f64::consts::TAU * unit_f64(p[2], p[3]);
        }
        for ((v, r), a) in v.chunks_exact_mut(2).zip(r).zip(a) {
            let [c, s] = double::cos_sin_angle::<false>(a);
            [v[0], v[1]] = [r * c, r * s];
        }
    }
}

/// `standard_exponential`: as [`Unit`], through `-ln(1 - u)`.
struct Exponential;
impl Values<f32, { 4 * LANES }> for Exponential {
    #[inline(always)]
    fn values(&self, _: u64, w: &[u32; 4 * LANES], v: &mut [f32; 4 * LANES]) {
        v.iter_mut().zip(w).for_each(|(v, &w)| *v = exponential_f32(w));
    }
}
impl Values<f64, { 2 * LANES }> for Exponential {
    #[inline(always)]
    fn values(&self, _: u64, w: &[u32; 4 * LANES], v: &mut [f64; 2 * LANES]) {
        v.iter_mut().zip(w.chunks_exact(2)).for_each(|(v, p)| *v = exponential_f64(p[0], p[1]));
    }
}

/// `integers`: `low + integer(..)` converted to `T`, `PER` values to a block (`V = PER * LANES`).
struct Ints<'a, const PER: usize> {
    low: i64,
    span: u64,
    s: &'a Stream,
}
impl<T: Element, const PER: usize, const V: usize> Values<T, V> for Ints<'_, PER> {
    #[inline(always)]
    fn values(&self, k0: u64, w: &[u32; 4 * LANES], v: &mut [T; V]) {
        for l in 0..LANES {
            let b: &[u32; 4] = w[4 * l..4 * l + 4].try_into().expect("four words");
            for j in 0..PER {
                let i = (k0 + l as u64) * PER as u64 + j as u64;
                let x = integer(self.s, i, self.span, b) as i64;
                v[PER * l + j] = T::from_scalar(Scalar::Int(self.low.wrapping_add(x)));
            }
        }
    }
}

/// Fill `n` values, `V / LANES` to a block, a batch of blocks at a time, with the widest vector
/// instructions the processor has (pulp's runtime dispatch).
fn by_batches<T: Element, const V: usize>(n: usize, f: &impl Values<T, V>, s: &Stream) -> Vec<T> {
    fill_chunks(n, |start, out: &mut [MaybeUninit<T>]| pulp::Arch::new().dispatch(Fill::<T, _, V> { f, s, start, out }))
}

/// One chunk of [`by_batches`], as pulp's `WithSimd` so that the whole loop, with the values'
/// formula inlined, is compiled for the instruction set dispatched to.
struct Fill<'a, T, F, const V: usize> {
    f: &'a F,
    s: &'a Stream,
    start: usize,
    out: &'a mut [MaybeUninit<T>],
}

impl<T: Element, const V: usize, F: Values<T, V>> pulp::WithSimd for Fill<'_, T, F, V> {
    type Output = ();
    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) {
        let Fill { f, s, start, out } = self;
        let mut vals = [T::from_scalar(Scalar::Int(0)); V];
        let (mut i, end) = (start, start + out.len());
        while i < end {
            let g = i / V;
            let k0 = (g * LANES) as u64 + s.first_block((V / LANES) as u64);
            f.values(k0, &batch(s, k0), &mut vals);
            let (lo, hi) = (i - g * V, (end - g * V).min(V));
            for (o, v) in out[i - start..i - start + hi - lo].iter_mut().zip(&vals[lo..hi]) {
                o.write(*v);
            }
            i += hi - lo;
        }
    }
}

/// Fill `n` values, value `i` from `f(words of i, parameters of i)`.
fn by_values<T: Element>(
    n: usize,
    params: &[&CpuStorage],
    f: impl Fn(&mut Words, &[f64]) -> T + Sync,
    s: &Stream,
) -> Result<Vec<T>> {
    let ps: Vec<&[f64]> = params
        .iter()
        .map(|p| match &p.0 {
            HostBuffer::F64(v) => Ok(&v[..]),
            _ => Err(Error::InvalidDType { op: "random", dtype: p.dtype() }),
        })
        .collect::<Result<_>>()?;
    // A value costs tens of words and a few logarithms: split the work as a reduction's.
    Ok(fill_chunks_work(n, 32, |start, out: &mut [MaybeUninit<T>]| {
        let mut args = vec![0.0; ps.len()];
        for (j, o) in out.iter_mut().enumerate() {
            let i = start + j;
            for (a, p) in args.iter_mut().zip(&ps) {
                *a = p[if p.len() == 1 { 0 } else { i }];
            }
            o.write(f(&mut Words::new(s, s.first + i as u64), &args));
        }
    }))
}

impl RandomDevice for CpuDevice {
    fn random(
        &self,
        n: usize,
        dtype: DType,
        dist: Distribution,
        params: &[&CpuStorage],
        s: Stream,
    ) -> Result<CpuStorage> {
        let buf = match (dist, dtype) {
            (Distribution::Uniform, DType::F32) => HostBuffer::F32(by_batches(n, &Unit, &s)),
            (Distribution::Uniform, DType::F64) => HostBuffer::F64(by_batches(n, &Unit, &s)),
            (Distribution::StandardNormal, DType::F32) => HostBuffer::F32(by_batches(n, &Normal, &s)),
            (Distribution::StandardNormal, DType::F64) => HostBuffer::F64(by_batches(n, &Normal, &s)),
            (Distribution::StandardExponential, DType::F32) => HostBuffer::F32(by_batches(n, &Exponential, &s)),
            (Distribution::StandardExponential, DType::F64) => HostBuffer::F64(by_batches(n, &Exponential, &s)),
            (Distribution::StandardGamma, DType::F32) => {
                HostBuffer::F32(by_values(n, params, |w, a| standard_gamma(w, a[0]) as f32, &s)?)
            }
            (Distribution::StandardGamma, DType::F64) => {
                HostBuffer::F64(by_values(n, params, |w, a| standard_gamma(w, a[0]), &s)?)
            }
            (Distribution::Poisson, DType::I64) => HostBuffer::I64(by_values(n, params, |w, a| poisson(w, a[0]), &s)?),
            (Distribution::Binomial, DType::I64) => {
                HostBuffer::I64(by_values(n, params, |w, a| binomial(w, a[0] as i64, a[1]), &s)?)
            }
            (Distribution::Integers { low, span }, d) if d.is_integer() && wide(span) => {
                let f = Ints::<2> { low, span, s: &s };
                xp_core::with_dtype!(d, T => T::into_buffer(by_batches::<T, { 2 * LANES }>(n, &f, &s)))
            }
            (Distribution::Integers { low, span }, d) if d.is_integer() => {
                let f = Ints::<4> { low, span, s: &s };
                xp_core::with_dtype!(d, T => T::into_buffer(by_batches::<T, { 4 * LANES }>(n, &f, &s)))
            }
            _ => return Err(Error::InvalidDType { op: "random", dtype }),
        };
        Ok(CpuStorage(buf))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_are_the_specifications_blocks() {
        let s = Stream::new(0xDEAD_BEEF_1234, 7);
        for b0 in [0u64, 16, (1 << 32) - 8, 123_456_789] {
            let w = batch(&s, b0);
            for l in 0..LANES {
                assert_eq!(w[4 * l..4 * l + 4], s.block(b0 + l as u64), "block {}", b0 + l as u64);
            }
        }
    }

    #[test]
    fn a_piece_of_a_draw_is_the_whole_draws_values_from_its_first() {
        let dev = CpuDevice;
        let whole = Stream::new(99, 3);
        let param = CpuStorage(HostBuffer::F64(vec![2.5]));
        let cases = [
            (Distribution::Uniform, DType::F32),
            (Distribution::Uniform, DType::F64),
            (Distribution::StandardNormal, DType::F32),
            (Distribution::StandardNormal, DType::F64),
            (Distribution::StandardExponential, DType::F64),
            (Distribution::Integers { low: -5, span: 6 }, DType::I32),
            (Distribution::Integers { low: 0, span: 1 << 40 }, DType::I64),
            (Distribution::StandardGamma, DType::F64),
            (Distribution::Poisson, DType::I64),
        ];
        for (dist, d) in cases {
            let ps: Vec<&CpuStorage> = (0..dist.params()).map(|_| &param).collect();
            let all = dev.random(1000, d, dist, &ps, whole).unwrap();
            for first in [0usize, 4, 64, 516] {
                let part = dev.random(1000 - first, d, dist, &ps, whole.from(first as u64)).unwrap();
                let tail = xp_core::with_buffer!(&all.0, v => format!("{:?}", &v[first..]));
                let piece = xp_core::with_buffer!(&part.0, v => format!("{v:?}"));
                assert_eq!(piece, tail, "{dist:?} {d} from {first}");
            }
        }
    }
}
