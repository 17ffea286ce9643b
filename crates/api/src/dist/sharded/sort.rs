//! A distributed sort of a 1-D [`ShardedArray`] (sample sort): each rank sorts its block; regular
//! samples of the sorted blocks choose `size − 1` splitters, which cut every sorted block into
//! runs (a binary search each: no pass over the values); one exchange sends each run to its
//! rank, which merges the sorted runs it holds (merge path: one read and one write of each
//! value, where a second sort takes several passes); a second exchange moves the merged run
//! back into the block layout. Every value crosses the network at most twice; the splitters
//! keep the buckets within a few percent of equal for any input without long runs of equal
//! values (and the second exchange restores the blocks whatever the buckets were).
//!
//! Earlier versions, 2^28 float32 on two H200s against CuPy's 7.0 ms on one: grouping the
//! unsorted values by bucket (a compaction per bucket), exchanging, then sorting each bucket
//! took 14.0 ms; see `benches/RESULTS.md` for this one.
use super::{block, Placement, ShardedArray};
use crate::Array;

use xp_core::{Error, Result, Side};

/// Samples each rank contributes per rank of the world.
const OVERSAMPLE: usize = 32;

/// A sorted run: elements `start..start + len` of a whole contiguous array.
type Run = (Array, usize, usize);

impl ShardedArray {
    /// The values of a 1-D array in ascending order (NumPy's `sort`: NaNs last), sharded in
    /// blocks as the input (a replicated array is sorted on each rank).
    pub fn sort(&self) -> Result<ShardedArray> {
        let op = "ShardedArray::sort";
        if self.shape.len() != 1 {
            return Err(Error::invalid(op, format!("a 1-D array, not {:?}", self.shape)));
        }
        let (n, me) = (self.comm.size(), self.comm.rank());
        if self.placement == Placement::Replicated || n == 1 {
            return Ok(ShardedArray { local: self.local.sort(0)?, ..self.clone() });
        }
        let dev = crate::on(self.comm.device());
        let sorted = self.local.sort(0)?;
        let len = sorted.shape()[0];
        // regular samples of every non-empty sorted block, gathered and sorted: the splitters
        let k = OVERSAMPLE * n;
        let at: Vec<i64> = (0..k).map(|i| ((2 * i + 1) * len / (2 * k)) as i64).collect();
        let samples =
            if len == 0 { dev.zeros([k], sorted.dtype())? } else { sorted.take(&dev.asarray(at, [k])?, Some(0))? };
        let all = self.comm.all_gather(&samples)?.reshape([-1])?;
        let lens = self.comm.all_gather(&dev.asarray(vec![len as i64], [1])?)?.to_vec::<i64>()?;
        let real: Vec<i64> =
            (0..n).filter(|&r| lens[r] > 0).flat_map(|r| (r * k..(r + 1) * k).map(|i| i as i64)).collect();
        let pool = all.take(&dev.asarray(real.clone(), [real.len()])?, Some(0))?.sort(0)?;
        let picks: Vec<i64> = (1..n).map(|j| (j * real.len() / n) as i64).collect();
        let splitters = pool.take(&dev.asarray(picks, [n - 1])?, Some(0))?;
        // rank q's run: the values at or above splitter q − 1 and below splitter q (NaNs last)
        let cuts = crate::sorting::searchsorted(&sorted, &splitters, Side::Left, None)?.to_vec::<i64>()?;
        let bounds: Vec<usize> =
            std::iter::once(0).chain(cuts.iter().map(|&c| c as usize)).chain(std::iter::once(len)).collect();
        let mine: Vec<i64> = (0..n).map(|q| (bounds[q + 1] - bounds[q]) as i64).collect();
        // counts[r * n + q]: how many values rank r sends to rank q
        let counts = self.comm.all_gather(&dev.asarray(mine, [n])?)?.to_vec::<i64>()?;
        let count = |r: usize, q: usize| counts[r * n + q] as usize;
        // 1. each run to its rank (this rank's own run stays where it is)
        let sends: Vec<_> =
            (0..n).filter(|&q| q != me && count(me, q) > 0).map(|q| (bounds[q], count(me, q), q)).collect();
        let mut recvs = Vec::new();
        let mut at = Vec::new();
        let mut off = 0;
        for r in 0..n {
            at.push(off);
            if r != me {
                if count(r, me) > 0 {
                    recvs.push((off, count(r, me), r));
                }
                off += count(r, me);
            }
        }
        let got = dev.empty([off], sorted.dtype())?;
        self.comm.exchange(op, &sorted, &got, &sends, &recvs)?;
        let runs: Vec<Run> =
            (0..n)
                .map(|r| {
                    if r == me {
                        (sorted.clone(), bounds[me], count(me, me))
                    } else {
                        (got.clone(), at[r], count(r, me))
                    }
                })
                .collect();
        let bucket = merge_all(runs)?;
        // 2. the merged buckets back into blocks: bucket q holds global positions from the
        // sizes of the buckets before it
        let sizes: Vec<usize> = (0..n).map(|q| (0..n).map(|r| count(r, q)).sum()).collect();
        let start = |q: usize| sizes[..q].iter().sum::<usize>();
        let total = self.shape[0];
        let overlap = |a: (usize, usize), b: (usize, usize)| (a.0.max(b.0), a.1.min(b.1));
        let own = (start(me), start(me) + sizes[me]);
        let target = block(total, n, me);
        let sends: Vec<_> = (0..n)
            .filter_map(|t| {
                let (s, e) = overlap(own, block(total, n, t));
                (s < e).then_some((s - own.0, e - s, t))
            })
            .collect();
        let recvs: Vec<_> = (0..n)
            .filter_map(|q| {
                let (s, e) = overlap((start(q), start(q) + sizes[q]), target);
                (s < e).then_some((s - target.0, e - s, q))
            })
            .collect();
        let out = dev.empty([target.1 - target.0], sorted.dtype())?;
        self.comm.exchange(op, &bucket, &out, &sends, &recvs)?;
        Ok(ShardedArray { local: out, ..self.clone() })
    }
}

/// The sorted runs merged into one sorted array, pairwise (⌈log₂ runs⌉ rounds).
fn merge_all(mut runs: Vec<Run>) -> Result<Array> {
    while runs.len() > 1 {
        let mut next = Vec::with_capacity(runs.len().div_ceil(2));
        let mut it = runs.into_iter();
        while let Some(a) = it.next() {
            match it.next() {
                Some(b) => {
                    let m = merge(&a, &b)?;
                    let len = m.size();
                    next.push((m, 0, len));
                }
                None => next.push(a),
            }
        }
        runs = next;
    }
    let (a, start, len) = runs.pop().ok_or_else(|| Error::invalid("ShardedArray::sort", "no runs"))?;
    if start == 0 && len == a.size() {
        Ok(a)
    } else {
        a.slice(crate::s![start as isize..(start + len) as isize])?.copy()
    }
}

/// Two sorted runs merged into one sorted array (on the GPU, the merge-path kernel).
fn merge(a: &Run, b: &Run) -> Result<Array> {
    #[cfg(xp_cuda)]
    {
        use crate::backend::{Reads, Storage};
        let reads = Reads::lock(&[&a.0, &b.0]);
        if let (Storage::Cuda(x), Storage::Cuda(y)) = (reads.get(0), reads.get(1)) {
            let m = x.merge_sorted(a.1..a.1 + a.2, y, b.1..b.1 + b.2)?;
            return Ok(Array::from_storage(Storage::Cuda(m), &[a.2 + b.2]));
        }
    }
    let part = |r: &Run| r.0.slice(crate::s![r.1 as isize..(r.1 + r.2) as isize]);
    crate::concatenate(&[&part(a)?, &part(b)?], 0)?.sort(0)
}
