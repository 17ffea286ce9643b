//! The statistics family on the CPU: a histogram per chunk of the values (each thread its own
//! bins), added together. A value's bin is first guessed from its position in the range, as
//! NumPy's equal-bin path does, and checked against the two edges around it; only a wrong guess
//! (unequal bins) searches the edges. The digit counts of a radix selection are made the same
//! way, per chunk, added together.
use crate::CpuStorage;
use rayon::prelude::*;
use xp_core::select::{RadixKey, RadixPass};
use xp_core::{BackendStorage, Error, HostBuffer, Layout, Result, StatsStorage};

/// Values per task: enough to amortise a task's private bins.
const CHUNK: usize = 1 << 16;

/// The bin of `x` among `e` (non-decreasing, `nb + 1` edges), or None outside them or for NaN.
#[inline(always)]
fn bin<T: Copy + PartialOrd + Into<f64>>(x: T, e: &[T], lo: f64, scale: f64) -> Option<usize> {
    let nb = e.len() - 1;
    if !(x >= e[0] && x <= e[nb]) {
        return None;
    }
    // In range, so the product is in [0, nb]: a plain conversion, clamped to the last bin.
    let g = (((x.into() - lo) * scale) as u32 as usize).min(nb - 1);
    if let (Some(&a), Some(&b)) = (e.get(g), e.get(g + 1)) {
        if x >= a && (x < b || g + 1 == nb) {
            return Some(g);
        }
    }
    // Edges `e[1..nb]` at or below x: the bin (the last edge belongs to the last bin).
    Some(e[1..nb].partition_point(|b| *b <= x))
}

fn counts<T: Copy + PartialOrd + Into<f64> + Sync>(x: &[T], e: &[T], w: Option<&[f64]>) -> HostBuffer {
    let nb = e.len() - 1;
    let (lo, hi) = (e[0].into(), e[nb].into());
    let scale = if hi > lo { nb as f64 / (hi - lo) } else { 0.0 };
    match w {
        None => {
            let part = |c: &[T]| {
                let mut h = vec![0i64; nb];
                c.iter().filter_map(|&v| bin(v, e, lo, scale)).for_each(|i| h[i] += 1);
                h
            };
            let h = x.par_chunks(CHUNK).map(part).reduce(
                || vec![0; nb],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
                    a
                },
            );
            HostBuffer::I64(h)
        }
        Some(w) => {
            let part = |(c, ws): (&[T], &[f64])| {
                let mut h = vec![0f64; nb];
                c.iter().zip(ws).for_each(|(&v, &wt)| {
                    if let Some(i) = bin(v, e, lo, scale) {
                        h[i] += wt;
                    }
                });
                h
            };
            let h = x.par_chunks(CHUNK).zip(w.par_chunks(CHUNK)).map(part).reduce(
                || vec![0.0; nb],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
                    a
                },
            );
            HostBuffer::F64(h)
        }
    }
}

/// Per-chunk digit counts of the keys of `x` that match the pass's prefix, added together.
fn digits<T: RadixKey + Sync>(x: &[T], p: RadixPass) -> Vec<u64> {
    let (nb, dm) = (1usize << p.bits, (1u64 << p.bits) - 1);
    let part = |c: &[T]| {
        let mut h = vec![0u32; nb];
        for k in c.iter().map(|v| v.key()).filter(|k| k & p.mask == p.prefix) {
            h[((k >> p.shift) & dm) as usize] += 1;
        }
        h.into_iter().map(u64::from).collect::<Vec<u64>>()
    };
    x.par_chunks(CHUNK).map(part).reduce(
        || vec![0; nb],
        |mut a, b| {
            a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
            a
        },
    )
}

impl StatsStorage for CpuStorage {
    fn radix_counts(&self, l: &Layout, p: RadixPass) -> Result<Vec<u64>> {
        if !l.is_contiguous() {
            return Err(Error::invalid("radix_counts", "the backend takes contiguous values"));
        }
        let (o, n) = (l.offset(), l.numel());
        match &self.0 {
            HostBuffer::F32(x) => Ok(digits(&x[o..o + n], p)),
            HostBuffer::F64(x) => Ok(digits(&x[o..o + n], p)),
            _ => Err(Error::InvalidDType { op: "radix_counts", dtype: self.dtype() }),
        }
    }
    fn histogram(&self, l: &Layout, edges: &Self, weights: Option<&Self>) -> Result<Self> {
        let op = "histogram";
        if !l.is_contiguous() {
            return Err(Error::invalid(op, "the backend takes contiguous values"));
        }
        let (o, n) = (l.offset(), l.numel());
        let w = match weights.map(|w| &w.0) {
            None => None,
            Some(HostBuffer::F64(w)) if w.len() >= n => Some(&w[..n]),
            Some(_) => return Err(Error::invalid(op, "weights must be float64, one per value")),
        };
        let r = match (&self.0, &edges.0) {
            (HostBuffer::F32(x), HostBuffer::F32(e)) if e.len() >= 2 => counts(&x[o..o + n], e, w),
            (HostBuffer::F64(x), HostBuffer::F64(e)) if e.len() >= 2 => counts(&x[o..o + n], e, w),
            _ => return Err(Error::InvalidDType { op, dtype: self.dtype() }),
        };
        Ok(CpuStorage(r))
    }
}
