//! The indexing family on the CPU: gathers and scatters through int64 index arrays, compaction
//! by masks. Gathers run in parallel over rows of the output; scatters run in index order on one
//! thread, which gives NumPy's results for duplicate indices by construction (the last write
//! wins; `ufunc.at` combines in order).
mod compact;
mod gather;
mod scatter;

use crate::iter::Walk;
use crate::CpuStorage;
use rayon::prelude::*;
use xp_core::{
    with_buffer, BackendStorage, Combine, Error, HostBuffer, IndexMode, IndexSet, IndexStorage, Layout, Result,
};

/// The element offsets (relative to 0) of every position of the sub-layout of `l` over `axes`,
/// in C order.
pub(crate) fn offsets(l: &Layout, axes: std::ops::Range<usize>) -> Vec<isize> {
    let sub = Layout::new(l.shape()[axes.clone()].to_vec(), l.strides()[axes].to_vec(), 0);
    let w = Walk::new(&[&sub]);
    let mut v = Vec::with_capacity(sub.numel());
    w.segments(0, sub.numel(), |_, len, off| v.extend((0..len as isize).map(|i| off[0] + i * w.inner_stride(0))));
    v
}

/// True when `offs` is `0, 1, 2, …` (a contiguous run).
pub(crate) fn is_run(offs: &[isize]) -> bool {
    offs.iter().enumerate().all(|(i, &o)| o == i as isize)
}

/// An index resolved against an axis of `n` positions as `mode` says; `None` when it is out of
/// bounds (in every mode for an empty axis).
#[inline]
pub(crate) fn resolve(i: i64, n: usize, mode: IndexMode) -> Option<i64> {
    let n = n as i64;
    match mode {
        _ if n == 0 => None,
        IndexMode::Raise if i < -n || i >= n => None,
        IndexMode::Raise => Some(if i < 0 { i + n } else { i }),
        IndexMode::Wrap => Some(i.rem_euclid(n)),
        IndexMode::Clip => Some(i.clamp(0, n - 1)),
    }
}

/// The index arrays of a set as slices of `len` int64 each.
pub(crate) fn index_slices<'a>(set: &IndexSet<'a, CpuStorage>) -> Result<Vec<&'a [i64]>> {
    let n = set.len();
    set.arrays
        .iter()
        .map(|(s, off)| match &s.0 {
            HostBuffer::I64(v) if off + n <= v.len() => Ok(&v[*off..off + n]),
            b => Err(Error::InvalidDType { op: "index", dtype: b.dtype() }),
        })
        .collect()
}

/// The typed error for the violation at linear position `bad = j * len(B) + b` (NumPy checks one
/// index array after the other, so the first violation is the first in that order).
pub(crate) fn out_of_bounds(l: &Layout, set: &IndexSet<'_, CpuStorage>, idx: &[&[i64]], bad: usize) -> Error {
    let nb = set.len().max(1);
    let (j, b) = (bad / nb, bad % nb);
    Error::IndexOutOfBounds { index: idx[j][b] as isize, axis: set.axis + j, size: l.shape()[set.axis + j] }
}

/// The smallest and largest of `c`, in eight lanes (`vpminsq` where the processor has AVX-512;
/// the scalar fold was a chain of `cmov`s at a quarter of the memory's speed).
#[inline(always)]
fn range_of(c: &[i64]) -> (i64, i64) {
    let (mut lo, mut hi) = ([i64::MAX; 8], [i64::MIN; 8]);
    let mut it = c.chunks_exact(8);
    for x in &mut it {
        for k in 0..8 {
            lo[k] = lo[k].min(x[k]);
            hi[k] = hi[k].max(x[k]);
        }
    }
    let r = it.remainder().iter().fold((i64::MAX, i64::MIN), |(l, h), &i| (l.min(i), h.max(i)));
    (lo.into_iter().fold(r.0, i64::min), hi.into_iter().fold(r.1, i64::max))
}

/// Check every index against its axis (as `mode` says): the first violation `j * len(B) + b`.
pub(crate) fn validate(l: &Layout, set: &IndexSet<'_, CpuStorage>, idx: &[&[i64]]) -> std::result::Result<(), usize> {
    let nb = set.len();
    for (j, ix) in idx.iter().enumerate() {
        let n = l.shape()[set.axis + j];
        // the range of the indices, over both cores (this pass reads every index before the
        // scatter does: 128 MB for `add.at` of 2^24 values)
        let (lo, hi) = ix
            .par_chunks(1 << 16)
            .map(|c| crate::eval::col::wide(|| range_of(c)))
            .reduce(|| (i64::MAX, i64::MIN), |a, b| (a.0.min(b.0), a.1.max(b.1)));
        if nb == 0 || (n > 0 && (set.mode != IndexMode::Raise || (lo >= -(n as i64) && hi < n as i64))) {
            continue;
        }
        let b = ix.iter().position(|&i| resolve(i, n, set.mode).is_none()).unwrap_or(0);
        return Err(j * nb + b);
    }
    Ok(())
}

impl IndexStorage for CpuStorage {
    fn gather(&self, l: &Layout, set: &IndexSet<'_, Self>) -> Result<Self> {
        let idx = index_slices(set)?;
        with_buffer!(&self.0, v => gather::gather(v, l, set, &idx)).map(CpuStorage)
    }
    fn scatter(&mut self, l: &Layout, set: &IndexSet<'_, Self>, v: &Self, vl: &Layout, how: Combine) -> Result<()> {
        let idx = index_slices(set)?;
        validate(l, set, &idx).map_err(|bad| out_of_bounds(l, set, &idx, bad))?;
        scatter::scatter(&mut self.0, l, set, &idx, &v.0, vl, how)
    }
    fn nonzero(&self, l: &Layout) -> Result<Self> {
        Ok(CpuStorage(HostBuffer::I64(with_buffer!(&self.0, v => compact::nonzero(v, l)))))
    }
    fn compress(&self, l: &Layout, axis: usize, mask: &Self, ml: &Layout) -> Result<Self> {
        let HostBuffer::Bool(m) = &mask.0 else {
            return Err(Error::InvalidDType { op: "compress", dtype: mask.dtype() });
        };
        Ok(CpuStorage(with_buffer!(&self.0, v => xp_core::Element::into_buffer(compact::compress(v, l, axis, m, ml)))))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn range_of_sees_every_lane_and_the_remainder() {
        for n in [1usize, 7, 8, 9, 64, 67] {
            for at in 0..n {
                let mut v: Vec<i64> = (0..n as i64).map(|k| k % 5).collect();
                v[at] = -9;
                assert_eq!(super::range_of(&v).0, -9, "min at {at} of {n}");
                v[at] = 99;
                assert_eq!(super::range_of(&v).1, 99, "max at {at} of {n}");
            }
        }
    }
}
