//! The random family on the CPU: each thread fills its chunk of the output from the Philox
//! blocks of its positions ([`xp_core::random`] says which words each value takes).
use crate::iter::{fill_chunks, fill_chunks_work};
use crate::{CpuDevice, CpuStorage};
use std::mem::MaybeUninit;
use xp_core::random::sample::{binomial, poisson, standard_gamma, Words};
use xp_core::random::{
    exponential_f32, exponential_f64, integer, normal_pair_f32, normal_pair_f64, unit_f32, unit_f64, wide, Stream,
};
use xp_core::{BackendStorage, DType, Distribution, Element, Error, HostBuffer, RandomDevice, Result, Scalar};

/// Fill `n` values, `per` to a block: `f(block, k)` gives the `per` values of block `k`.
fn by_blocks<T: Element>(n: usize, per: usize, f: impl Fn(&[u32; 4], u64) -> [T; 4] + Sync, s: &Stream) -> Vec<T> {
    fill_chunks(n, |start, out: &mut [MaybeUninit<T>]| {
        let mut cache: Option<(u64, [T; 4])> = None;
        for (j, o) in out.iter_mut().enumerate() {
            let i = start + j;
            let k = (i / per) as u64;
            let v = match cache {
                Some((c, v)) if c == k => v,
                _ => {
                    let v = f(&s.block(k), k);
                    cache = Some((k, v));
                    v
                }
            };
            o.write(v[i % per]);
        }
    })
}

/// Integers: `low + integer(..)` converted to `T`.
fn integers<T: Element>(n: usize, low: i64, span: u64, s: &Stream) -> Vec<T> {
    let per = if wide(span) { 2 } else { 4 };
    let value = |i: u64, b: &[u32; 4]| T::from_scalar(Scalar::Int(low.wrapping_add(integer(s, i, span, b) as i64)));
    // Lanes past `per` are never read.
    let zero = T::from_scalar(Scalar::Int(0));
    by_blocks(
        n,
        per,
        |b, k| std::array::from_fn(|j| if j < per { value(k * per as u64 + j as u64, b) } else { zero }),
        s,
    )
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
            o.write(f(&mut Words::new(s, i as u64), &args));
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
            (Distribution::Uniform, DType::F32) => {
                HostBuffer::F32(by_blocks(n, 4, |b, _| [0, 1, 2, 3].map(|j| unit_f32(b[j])), &s))
            }
            (Distribution::Uniform, DType::F64) => HostBuffer::F64(by_blocks(
                n,
                2,
                |b, _| {
                    let (x, y) = (unit_f64(b[0], b[1]), unit_f64(b[2], b[3]));
                    [x, y, 0.0, 0.0]
                },
                &s,
            )),
            (Distribution::StandardNormal, DType::F32) => HostBuffer::F32(by_blocks(
                n,
                4,
                |b, _| {
                    let ([a, c], [d, e]) = (normal_pair_f32(b[0], b[1]), normal_pair_f32(b[2], b[3]));
                    [a, c, d, e]
                },
                &s,
            )),
            (Distribution::StandardNormal, DType::F64) => HostBuffer::F64(by_blocks(
                n,
                2,
                |b, _| {
                    let [x, y] = normal_pair_f64(*b);
                    [x, y, 0.0, 0.0]
                },
                &s,
            )),
            (Distribution::StandardExponential, DType::F32) => {
                HostBuffer::F32(by_blocks(n, 4, |b, _| [0, 1, 2, 3].map(|j| exponential_f32(b[j])), &s))
            }
            (Distribution::StandardExponential, DType::F64) => HostBuffer::F64(by_blocks(
                n,
                2,
                |b, _| [exponential_f64(b[0], b[1]), exponential_f64(b[2], b[3]), 0.0, 0.0],
                &s,
            )),
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
            (Distribution::Integers { low, span }, d) if d.is_integer() => {
                xp_core::with_dtype!(d, T => T::into_buffer(integers::<T>(n, low, span, &s)))
            }
            _ => return Err(Error::InvalidDType { op: "random", dtype }),
        };
        Ok(CpuStorage(buf))
    }
}
