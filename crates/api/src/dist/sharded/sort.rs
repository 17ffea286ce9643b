//! A distributed sort of a 1-D [`ShardedArray`] (sample sort): regular samples of every block
//! choose `size − 1` splitters; each rank groups its values by the splitters they fall between
//! (one compaction per bucket, not a sort of the values), one exchange sends each rank the
//! values of its bucket, which it sorts (the only sort of the values); a second exchange moves
//! the sorted run back into the block layout (first version: the blocks sorted before and
//! after, 3.7 ms for 2^26 float32 on two H200s against CuPy's 1.8 ms on one). Every value crosses the network at most twice; the splitters
//! keep the buckets within a few percent of equal for any input without long runs of equal
//! values (and the second exchange restores the blocks whatever the buckets were).
use super::{block, Placement, ShardedArray};

use xp_core::{Error, Result, Side};

/// Samples each rank contributes per rank of the world.
const OVERSAMPLE: usize = 32;

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
        let local = &self.local;
        let dev = crate::on(self.comm.device());
        let len = local.shape()[0];
        // regular samples of every non-empty block, gathered and sorted: the splitters
        let k = OVERSAMPLE * n;
        let at: Vec<i64> = (0..k).map(|i| (i * len / k) as i64).collect();
        let samples =
            if len == 0 { dev.zeros([k], local.dtype())? } else { local.take(&dev.asarray(at, [k])?, Some(0))? };
        let all = self.comm.all_gather(&samples)?.reshape([-1])?;
        let lens = self.comm.all_gather(&dev.asarray(vec![len as i64], [1])?)?.to_vec::<i64>()?;
        let real: Vec<i64> =
            (0..n).filter(|&r| lens[r] > 0).flat_map(|r| (r * k..(r + 1) * k).map(|i| i as i64)).collect();
        let pool = all.take(&dev.asarray(real.clone(), [real.len()])?, Some(0))?.sort(0)?;
        let picks: Vec<i64> = (1..n).map(|j| (j * real.len() / n) as i64).collect();
        let splitters = pool.take(&dev.asarray(picks, [n - 1])?, Some(0))?;
        // each value's bucket: how many splitters are at or below it (NaNs last, as sorted)
        let bucket = crate::sorting::searchsorted(&splitters, local, Side::Right, None)?;
        // grouped by bucket with one compaction per bucket (an argsort of the one-byte bucket
        // numbers took 8.96 ms where the whole sort of 2^26 float32 takes CuPy 1.8 ms)
        let parts = (0..n).map(|q| crate::extract(&bucket.eq(q as i64)?, local)).collect::<Result<Vec<_>>>()?;
        let mine: Vec<i64> = parts.iter().map(|p| p.size() as i64).collect();
        let grouped = crate::concatenate(&parts.iter().collect::<Vec<_>>(), 0)?;
        let bounds: Vec<usize> = std::iter::once(0)
            .chain(mine.iter().scan(0usize, |acc, &c| {
                *acc += c as usize;
                Some(*acc)
            }))
            .collect();
        // counts[r * n + q]: how many values rank r sends to rank q
        let counts = self.comm.all_gather(&dev.asarray(mine, [n])?)?.to_vec::<i64>()?;
        let count = |r: usize, q: usize| counts[r * n + q] as usize;
        // 1. each value to its bucket's rank
        let sends: Vec<_> = (0..n).filter(|&q| count(me, q) > 0).map(|q| (bounds[q], count(me, q), q)).collect();
        let mut recvs = Vec::new();
        let mut off = 0;
        for r in 0..n {
            if count(r, me) > 0 {
                recvs.push((off, count(r, me), r));
            }
            off += count(r, me);
        }
        let bucket = dev.empty([off], local.dtype())?;
        self.comm.exchange(op, &grouped, &bucket, &sends, &recvs)?;
        let bucket = bucket.sort(0)?;
        // 2. the sorted buckets back into blocks: bucket q holds global positions from the
        // sizes of the buckets before it
        let sizes: Vec<usize> = (0..n).map(|q| (0..n).map(|r| count(r, q)).sum()).collect();
        let start = |q: usize| sizes[..q].iter().sum::<usize>();
        let total = self.shape[0];
        let overlap = |a: (usize, usize), b: (usize, usize)| (a.0.max(b.0), a.1.min(b.1));
        let own = (start(me), start(me) + sizes[me]);
        let sends: Vec<_> = (0..n)
            .filter_map(|t| {
                let (s, e) = overlap(own, block(total, n, t));
                (s < e).then_some((s - own.0, e - s, t))
            })
            .collect();
        let target = block(total, n, me);
        let recvs: Vec<_> = (0..n)
            .filter_map(|q| {
                let (s, e) = overlap((start(q), start(q) + sizes[q]), target);
                (s < e).then_some((s - target.0, e - s, q))
            })
            .collect();
        let out = dev.empty([target.1 - target.0], local.dtype())?;
        self.comm.exchange(op, &bucket, &out, &sends, &recvs)?;
        Ok(ShardedArray { local: out, ..self.clone() })
    }
}
