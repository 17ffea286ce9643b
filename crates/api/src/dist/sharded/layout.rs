//! Changing a [`ShardedArray`]'s layout (`reshard`: one all-to-all between two sharded axes)
//! and the work along an axis that is not sharded (FFTs), which each rank does on its piece.
use super::{block, own_block, Placement, ShardedArray};
use crate::fft::{slice_axis, FftNorm};
use crate::{Array, PadMode};
use xp_core::{Error, Result, Scalar};

impl ShardedArray {
    /// The same global array laid out by `placement`: between two sharded axes one
    /// all-to-all (each rank sends every other the part of its piece that the other will
    /// hold: about `1/size` of the array moves per rank, where a gather would move all of
    /// it); to replicated an all-gather; from replicated each rank's cut.
    pub fn reshard(&self, placement: Placement) -> Result<ShardedArray> {
        let op = "ShardedArray::reshard";
        if let Placement::Sharded(a) = placement
            && a >= self.shape.len()
        {
            return Err(Error::AxisOutOfRange { op, axis: a as isize, ndim: self.shape.len() });
        }
        let local = match (self.placement, placement) {
            (p, q) if p == q => return Ok(self.clone()),
            (Placement::Sharded(_), Placement::Replicated) => self.all_gather()?,
            (Placement::Replicated, Placement::Sharded(to)) => own_block(&self.comm, &self.local, to, op)?,
            (Placement::Sharded(from), Placement::Sharded(to)) => self.exchange(from, to)?,
            (Placement::Replicated, Placement::Replicated) => unreachable!("equal placements return above"),
        };
        Ok(ShardedArray { local, placement, ..self.clone() })
    }

    /// The piece sharded along `to` of this array sharded along `from`: piece `q` of what is
    /// sent is this rank's block of `from` × rank `q`'s block of `to`, padded to the largest
    /// blocks so that every piece has one shape; what comes back from rank `r` is its block of
    /// `from` × this rank's block of `to`, joined along `from`.
    fn exchange(&self, from: usize, to: usize) -> Result<Array> {
        let (n, me) = (self.comm.size(), self.comm.rank());
        let (len_from, len_to) = (self.shape[from], self.shape[to]);
        let (big_from, big_to) = (block(len_from, n, 0).1, block(len_to, n, 0).1);
        let mine = self.local.shape()[from];
        let zero = PadMode::Constant(Scalar::Int(0));
        let mut sent = Vec::with_capacity(n);
        for q in 0..n {
            let (s, e) = block(len_to, n, q);
            let mut widths = vec![(0, 0); self.shape.len()];
            widths[from] = (0, big_from - mine);
            widths[to] = (0, big_to - (e - s));
            sent.push(slice_axis(&self.local, to, s, e)?.pad(&widths, zero)?);
        }
        let got = self.comm.all_to_all(&crate::stack(&sent.iter().collect::<Vec<_>>(), 0)?)?;
        let cols = {
            let (s, e) = block(len_to, n, me);
            e - s
        };
        let parts = (0..n)
            .map(|r| {
                let (s, e) = block(len_from, n, r);
                let piece = slice_axis(&got, 0, r, r + 1)?.squeeze(0)?;
                slice_axis(&slice_axis(&piece, from, 0, e - s)?, to, 0, cols)
            })
            .collect::<Result<Vec<_>>>()?;
        crate::concatenate(&parts.iter().collect::<Vec<_>>(), from as isize)
    }

    /// `f(piece, axis)` for work along `axis`, which must not be the sharded one; the result's
    /// extent along `axis` may differ from the input's (an `rfft`).
    fn along(
        &self,
        op: &'static str,
        axis: usize,
        f: impl FnOnce(&Array, isize) -> Result<Array>,
    ) -> Result<ShardedArray> {
        if axis >= self.shape.len() {
            return Err(Error::AxisOutOfRange { op, axis: axis as isize, ndim: self.shape.len() });
        }
        if self.placement == Placement::Sharded(axis) {
            return Err(Error::invalid(op, format!("axis {axis} is the sharded one: reshard first")));
        }
        let local = f(&self.local, axis as isize)?;
        let mut shape = self.shape.clone();
        shape[axis] = local.shape()[axis];
        Ok(ShardedArray { local, shape, ..self.clone() })
    }

    /// The FFT along `axis`, an axis that is not sharded (`numpy.fft.fft`).
    pub fn fft(&self, n: Option<usize>, axis: usize, norm: FftNorm) -> Result<ShardedArray> {
        self.along("ShardedArray::fft", axis, |x, a| crate::fft::fft(x, n, a, norm))
    }
    /// The inverse FFT along an unsharded `axis` (`numpy.fft.ifft`).
    pub fn ifft(&self, n: Option<usize>, axis: usize, norm: FftNorm) -> Result<ShardedArray> {
        self.along("ShardedArray::ifft", axis, |x, a| crate::fft::ifft(x, n, a, norm))
    }
    /// The FFT of real input along an unsharded `axis` (`numpy.fft.rfft`).
    pub fn rfft(&self, n: Option<usize>, axis: usize, norm: FftNorm) -> Result<ShardedArray> {
        self.along("ShardedArray::rfft", axis, |x, a| crate::fft::rfft(x, n, a, norm))
    }
    /// The inverse of [`rfft`](Self::rfft) along an unsharded `axis` (`numpy.fft.irfft`).
    pub fn irfft(&self, n: Option<usize>, axis: usize, norm: FftNorm) -> Result<ShardedArray> {
        self.along("ShardedArray::irfft", axis, |x, a| crate::fft::irfft(x, n, a, norm))
    }
}
