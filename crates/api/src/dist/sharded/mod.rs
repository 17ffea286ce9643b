//! `ShardedArray`: one global array over the ranks of a [`Communicator`], SPMD (every rank runs
//! the same program and holds its own piece): sharded along one axis in blocks (NumPy's
//! `array_split`: the first `len % size` ranks hold one more) or replicated.
//!
//! Element-wise work runs on each piece alone (a replicated operand is cut to the piece where
//! it spans the sharded axis); a reduction over the sharded axis reduces each piece and then
//! across ranks (one all-reduce); `Aᵀ B` over row shards is a local product and an all-reduce.
mod layout;
mod make;
mod sort;

pub use make::shard_path;

use super::{Communicator, ReduceOp};
use crate::{Array, DType};
use xp_core::{DistKind, Error, Result};

/// How a [`ShardedArray`] is laid out over the ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Placement {
    /// rank `r` holds block `r` of the axis
    Sharded(usize),
    /// every rank holds the whole array
    Replicated,
}

/// The rows `start..end` of block `r` of an axis of `len` over `parts` ranks (`array_split`).
pub fn block(len: usize, parts: usize, r: usize) -> (usize, usize) {
    let (q, extra) = (len / parts, len % parts);
    let start = r * q + r.min(extra);
    (start, start + q + usize::from(r < extra))
}

/// This rank's block of `whole` along `axis`, as an array of its own (the whole one is not
/// kept alive by a view).
fn own_block(comm: &Communicator, whole: &Array, axis: usize, op: &'static str) -> Result<Array> {
    if axis >= whole.ndim() {
        return Err(Error::AxisOutOfRange { op, axis: axis as isize, ndim: whole.ndim() });
    }
    let (s, e) = block(whole.shape()[axis], comm.size(), comm.rank());
    crate::fft::slice_axis(whole, axis, s, e)?.copy()
}

/// A global array spread over the ranks of a communicator.
#[derive(Clone, Debug)]
pub struct ShardedArray {
    comm: Communicator,
    shape: Vec<usize>,
    placement: Placement,
    local: Array,
}

fn mismatch(op: &'static str, what: String) -> Error {
    Error::Dist { op, kind: DistKind::Mismatch { what } }
}

impl ShardedArray {
    /// The global array whose piece on this rank is `local` (each rank passes its own; along
    /// a sharded axis the pieces' extents must be the block sizes of the total).
    pub fn from_local(comm: &Communicator, local: Array, placement: Placement) -> Result<ShardedArray> {
        let op = "ShardedArray::from_local";
        let mut shape = local.shape().to_vec();
        if let Placement::Sharded(axis) = placement {
            if axis >= shape.len() {
                return Err(Error::AxisOutOfRange { op, axis: axis as isize, ndim: shape.len() });
            }
            // every rank's shape, to check the others' axes and find the total
            let mine: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
            let all =
                comm.all_gather(&crate::on(comm.device()).asarray(mine.clone(), [mine.len()])?)?.to_vec::<i64>()?;
            let nd = shape.len();
            let total: usize = (0..comm.size()).map(|r| all[r * nd + axis] as usize).sum();
            for r in 0..comm.size() {
                let theirs: Vec<usize> = all[r * nd..(r + 1) * nd].iter().map(|&v| v as usize).collect();
                let (s, e) = block(total, comm.size(), r);
                let ok = (0..nd).all(|a| if a == axis { theirs[a] == e - s } else { theirs[a] == shape[a] });
                if !ok {
                    return Err(mismatch(op, format!("rank {r} holds a piece of shape {theirs:?}; rank {} holds {shape:?} (blocks of {total} along axis {axis})", comm.rank())));
                }
            }
            shape[axis] = total;
        }
        Ok(ShardedArray { comm: comm.clone(), shape, placement, local })
    }

    /// Rank `root`'s `x` (the others pass `None`) laid out by `placement`: broadcast whole and
    /// cut to this rank's block.
    pub fn from_root(
        comm: &Communicator,
        x: Option<&Array>,
        root: usize,
        placement: Placement,
    ) -> Result<ShardedArray> {
        let op = "ShardedArray::from_root";
        // the shape and dtype travel first (a header of 10 int64: ndim, dtype, 8 extents)
        let mut head = vec![0i64; 10];
        if comm.rank() == root {
            let x = x.ok_or_else(|| Error::invalid(op, "the root must give the array"))?;
            if x.ndim() > 8 {
                return Err(Error::invalid(op, "at most 8 dimensions"));
            }
            head[0] = x.ndim() as i64;
            head[1] = DType::ALL.iter().position(|&d| d == x.dtype()).unwrap_or(0) as i64;
            for (k, &s) in x.shape().iter().enumerate() {
                head[2 + k] = s as i64;
            }
        }
        let head =
            comm.broadcast(&crate::on(comm.device()).asarray(head.clone(), [head.len()])?, root)?.to_vec::<i64>()?;
        let shape: Vec<usize> = head[2..2 + head[0] as usize].iter().map(|&s| s as usize).collect();
        let dtype = DType::ALL[head[1] as usize];
        let mine = match (comm.rank() == root, x) {
            (true, Some(x)) => x.to_device(comm.device())?,
            _ => crate::on(comm.device()).empty(&shape, dtype)?,
        };
        let whole = comm.broadcast(&mine, root)?;
        let local = match placement {
            Placement::Replicated => whole,
            Placement::Sharded(axis) => own_block(comm, &whole, axis, op)?,
        };
        Ok(ShardedArray { comm: comm.clone(), shape, placement, local })
    }

    /// A sharded array from its parts, unchecked (the caller computed them consistently).
    pub(crate) fn from_parts(
        comm: &Communicator,
        shape: Vec<usize>,
        placement: Placement,
        local: Array,
    ) -> Result<ShardedArray> {
        Ok(ShardedArray { comm: comm.clone(), shape, placement, local })
    }

    /// The global shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    /// How it is laid out.
    pub fn placement(&self) -> Placement {
        self.placement
    }
    /// This rank's piece.
    pub fn local(&self) -> &Array {
        &self.local
    }
    /// The communicator.
    pub fn comm(&self) -> &Communicator {
        &self.comm
    }
    /// The dtype.
    pub fn dtype(&self) -> DType {
        self.local.dtype()
    }

    /// The whole array on every rank (an all-gather of the pieces, padded to the largest).
    pub fn all_gather(&self) -> Result<Array> {
        let Placement::Sharded(axis) = self.placement else { return Ok(self.local.clone()) };
        let (n, len) = (self.comm.size(), self.shape[axis]);
        let big = block(len, n, 0).1;
        // the piece with the sharded axis first, padded to `big` rows
        let piece = self.local.moveaxis(axis as isize, 0)?;
        let mut padded_shape = piece.shape().to_vec();
        padded_shape[0] = big;
        let padded = crate::on(self.comm.device()).zeros(&padded_shape, self.dtype())?;
        padded.slice(crate::s![..piece.shape()[0] as isize])?.assign(&piece)?;
        let all = self.comm.all_gather(&padded)?;
        let rows: Vec<i64> = (0..n)
            .flat_map(|r| {
                let (s, e) = block(len, n, r);
                (0..(e - s) as i64).map(move |k| r as i64 * big as i64 + k)
            })
            .collect();
        let flat =
            all.reshape([-1].into_iter().chain(padded_shape[1..].iter().map(|&s| s as isize)).collect::<Vec<_>>())?;
        let idx = crate::on(self.comm.device()).asarray(rows.clone(), [rows.len()])?;
        flat.take(&idx, Some(0))?.moveaxis(0, axis as isize)
    }

    /// `f` on each piece, the placement kept (an element-wise function: the piece's shape must
    /// not change).
    pub fn map(&self, f: impl FnOnce(&Array) -> Result<Array>) -> Result<ShardedArray> {
        let local = f(&self.local)?;
        if local.shape() != self.local.shape() {
            return Err(Error::invalid("ShardedArray::map", "the function changed the piece's shape"));
        }
        Ok(ShardedArray { local, ..self.clone() })
    }

    /// `f(self, other)` element-wise with NumPy's broadcasting: two arrays sharded along the
    /// same axis, or one sharded and one replicated (cut to this rank's block where it spans
    /// the sharded axis).
    pub fn zip(&self, other: &ShardedArray, f: impl FnOnce(&Array, &Array) -> Result<Array>) -> Result<ShardedArray> {
        let op = "ShardedArray::zip";
        let shape = crate::broadcast_shapes(&[&self.shape, &other.shape])?;
        let nd = shape.len();
        // the placement of the result: the sharded operand's axis, counted in the result
        let axis_of = |a: &ShardedArray| match a.placement {
            Placement::Sharded(ax) => Some(ax + nd - a.shape.len()),
            Placement::Replicated => None,
        };
        let (pa, pb) = (axis_of(self), axis_of(other));
        let axis = match (pa, pb) {
            (Some(a), Some(b)) if a != b => {
                return Err(Error::invalid(op, "the operands are sharded along different axes: reshard one"))
            }
            (a, b) => a.or(b),
        };
        let cut = |x: &ShardedArray, own: Option<usize>| -> Result<Array> {
            match (axis, own) {
                (Some(ax), None) => {
                    let k = ax as isize - (nd - x.shape.len()) as isize;
                    if k < 0 || x.shape[k as usize] == 1 {
                        return Ok(x.local.clone());
                    }
                    let (s, e) = block(shape[ax], x.comm.size(), x.comm.rank());
                    crate::fft::slice_axis(&x.local, k as usize, s, e)
                }
                _ => Ok(x.local.clone()),
            }
        };
        if let (Some(ax), Some(_), Some(_)) = (axis, pa, pb)
            && self.shape[ax + self.shape.len() - nd] != other.shape[ax + other.shape.len() - nd]
        {
            return Err(mismatch(op, "sharded operands of different lengths along the sharded axis".into()));
        }
        let local = f(&cut(self, pa)?, &cut(other, pb)?)?;
        Ok(ShardedArray {
            comm: self.comm.clone(),
            shape,
            placement: axis.map_or(Placement::Replicated, Placement::Sharded),
            local,
        })
    }

    /// A reduction over `axis` (`None`: all) by `local` on each piece and `op` across ranks.
    fn reduce_by(
        &self,
        axis: Option<usize>,
        local: impl Fn(&Array, Option<isize>) -> Result<Array>,
        op: ReduceOp,
    ) -> Result<ShardedArray> {
        let nd = self.shape.len();
        if let Some(a) = axis.filter(|&a| a >= nd) {
            return Err(Error::AxisOutOfRange { op: "ShardedArray reduction", axis: a as isize, ndim: nd });
        }
        let mut shape = self.shape.clone();
        match axis {
            Some(a) => {
                shape.remove(a);
            }
            None => shape.clear(),
        }
        let part = local(&self.local, axis.map(|a| a as isize))?;
        match self.placement {
            Placement::Sharded(s) if axis.is_none() || axis == Some(s) => {
                let whole = self.comm.all_reduce(&part, op)?;
                Ok(ShardedArray { comm: self.comm.clone(), shape, placement: Placement::Replicated, local: whole })
            }
            Placement::Sharded(s) => {
                let s = if axis.is_some_and(|a| a < s) { s - 1 } else { s };
                Ok(ShardedArray { comm: self.comm.clone(), shape, placement: Placement::Sharded(s), local: part })
            }
            Placement::Replicated => {
                Ok(ShardedArray { comm: self.comm.clone(), shape, placement: Placement::Replicated, local: part })
            }
        }
    }

    /// The sum over `axis` (`None`: all).
    pub fn sum(&self, axis: Option<usize>) -> Result<ShardedArray> {
        self.reduce_by(axis, |x, a| x.sum(a), ReduceOp::Sum)
    }
    /// The maximum over `axis`.
    pub fn max(&self, axis: Option<usize>) -> Result<ShardedArray> {
        self.reduce_by(axis, |x, a| x.max(a), ReduceOp::Max)
    }
    /// The minimum over `axis`.
    pub fn min(&self, axis: Option<usize>) -> Result<ShardedArray> {
        self.reduce_by(axis, |x, a| x.min(a), ReduceOp::Min)
    }
    /// Whether any element is true over `axis`.
    pub fn any(&self, axis: Option<usize>) -> Result<ShardedArray> {
        self.reduce_by(axis, |x, a| x.any(a), ReduceOp::Max)
    }
    /// Whether every element is true over `axis`.
    pub fn all(&self, axis: Option<usize>) -> Result<ShardedArray> {
        self.reduce_by(axis, |x, a| x.all(a), ReduceOp::Min)
    }
    /// The mean over `axis`.
    pub fn mean(&self, axis: Option<usize>) -> Result<ShardedArray> {
        let count = axis.map_or(self.shape.iter().product::<usize>(), |a| self.shape[a]) as f64;
        let s = self.reduce_by(
            axis,
            |x, a| if x.dtype().is_inexact() { x.sum(a) } else { x.astype(DType::F64)?.sum(a) },
            ReduceOp::Sum,
        )?;
        s.map_shape(|x| x.div(count))
    }
    /// The variance over `axis` (`ddof` as NumPy's), by the two-pass formula.
    pub fn var(&self, axis: Option<usize>, ddof: usize) -> Result<ShardedArray> {
        let count = axis.map_or(self.shape.iter().product::<usize>(), |a| self.shape[a]);
        let mean = self.mean(axis)?;
        let mean_b = match axis {
            Some(a) => mean.expand(a)?,
            None => mean,
        };
        let dev = self.zip(&mean_b, |x, m| {
            let d = x.sub(m)?;
            if d.dtype().is_complex() {
                d.abs()?.square()
            } else {
                d.square()
            }
        })?;
        dev.sum(axis)?.map_shape(|x| x.div((count.saturating_sub(ddof)) as f64))
    }
    /// The standard deviation over `axis`.
    pub fn std(&self, axis: Option<usize>, ddof: usize) -> Result<ShardedArray> {
        self.var(axis, ddof)?.map_shape(|x| x.sqrt())
    }

    fn map_shape(&self, f: impl FnOnce(&Array) -> Result<Array>) -> Result<ShardedArray> {
        Ok(ShardedArray { local: f(&self.local)?, ..self.clone() })
    }

    /// A length-1 axis inserted at `axis` (to broadcast a reduction back).
    fn expand(&self, axis: usize) -> Result<ShardedArray> {
        let mut shape = self.shape.clone();
        shape.insert(axis, 1);
        let placement = match self.placement {
            Placement::Sharded(s) if s >= axis => Placement::Sharded(s + 1),
            p => p,
        };
        Ok(ShardedArray { comm: self.comm.clone(), shape, placement, local: self.local.expand_dims(axis as isize)? })
    }
}

impl ShardedArray {
    /// The index of the largest element over `axis` (`None`: of the flattened global array),
    /// NumPy's first occurrence on ties.
    pub fn argmax(&self, axis: Option<usize>) -> Result<ShardedArray> {
        self.arg(axis, true)
    }
    /// The index of the smallest element over `axis`.
    pub fn argmin(&self, axis: Option<usize>) -> Result<ShardedArray> {
        self.arg(axis, false)
    }

    fn arg(&self, axis: Option<usize>, largest: bool) -> Result<ShardedArray> {
        let op = if largest { "ShardedArray::argmax" } else { "ShardedArray::argmin" };
        let nd = self.shape.len();
        if let Some(a) = axis.filter(|&a| a >= nd) {
            return Err(Error::AxisOutOfRange { op, axis: a as isize, ndim: nd });
        }
        let pick = |x: &Array, a: Option<isize>| if largest { x.argmax(a) } else { x.argmin(a) };
        let best = |x: &Array, a: Option<isize>| if largest { x.max(a) } else { x.min(a) };
        let s = match self.placement {
            Placement::Sharded(s) if axis.is_none() || axis == Some(s) => s,
            _ => return self.reduce_local(axis, |x, a| pick(x, a)),
        };
        if self.local.size() == 0 {
            return Err(Error::invalid(
                op,
                "a rank holds an empty piece: fewer elements than ranks along the sharded axis",
            ));
        }
        let (start, _) = block(self.shape[s], self.comm.size(), self.comm.rank());
        let dev = self.comm.device();
        let (idx, val) = match axis {
            Some(_) => (pick(&self.local, Some(s as isize))?.add(start as i64)?, best(&self.local, Some(s as isize))?),
            None => {
                // the local winner's global flat position
                let k = pick(&self.local, None)?.to_vec::<i64>()?[0] as usize;
                let mut coords = Vec::with_capacity(nd);
                let mut rest = k;
                for &d in self.local.shape().iter().rev() {
                    coords.push(rest % d);
                    rest /= d;
                }
                coords.reverse();
                coords[s] += start;
                let flat = coords.iter().zip(&self.shape).fold(0usize, |f, (&c, &d)| f * d + c);
                (crate::on(dev).asarray(vec![flat as i64], Vec::<usize>::new())?, best(&self.local, None)?)
            }
        };
        let vals = self.comm.all_gather(&val)?;
        let idxs = self.comm.all_gather(&idx)?;
        let who = pick(&vals, Some(0))?;
        let chosen = crate::take_along_axis(&idxs, &who.expand_dims(0)?, 0)?;
        let mut shape = self.shape.clone();
        match axis {
            Some(a) => {
                shape.remove(a);
            }
            None => shape.clear(),
        }
        let local = chosen.reshape(shape.iter().map(|&d| d as isize).collect::<Vec<_>>())?;
        Ok(ShardedArray { comm: self.comm.clone(), shape, placement: Placement::Replicated, local })
    }

    /// A reduction over an axis that is not sharded: each piece alone.
    fn reduce_local(
        &self,
        axis: Option<usize>,
        f: impl Fn(&Array, Option<isize>) -> Result<Array>,
    ) -> Result<ShardedArray> {
        let part = f(&self.local, axis.map(|a| a as isize))?;
        let mut shape = self.shape.clone();
        if let Some(a) = axis {
            shape.remove(a);
        }
        let placement = match (self.placement, axis) {
            (Placement::Sharded(s), Some(a)) if a < s => Placement::Sharded(s - 1),
            (p, _) => p,
        };
        Ok(ShardedArray { comm: self.comm.clone(), shape, placement, local: part })
    }

    /// The matrix product `self @ rhs` of 2-D arrays: rows sharded × replicated (rows stay
    /// sharded), columns sharded × rows sharded (local products added over ranks: replicated),
    /// or replicated × replicated.
    pub fn matmul(&self, rhs: &ShardedArray) -> Result<ShardedArray> {
        let op = "ShardedArray::matmul";
        if self.shape.len() != 2 || rhs.shape.len() != 2 || self.shape[1] != rhs.shape[0] {
            return Err(Error::NotAligned {
                op,
                lhs: self.shape.clone(),
                rhs: rhs.shape.clone(),
                lhs_axis: 1,
                lhs_size: self.shape.get(1).copied().unwrap_or(0),
                rhs_axis: 0,
                rhs_size: rhs.shape.first().copied().unwrap_or(0),
            });
        }
        let shape = vec![self.shape[0], rhs.shape[1]];
        let (local, placement) = match (self.placement, rhs.placement) {
            (Placement::Sharded(0), Placement::Replicated) => (self.local.matmul(&rhs.local)?, Placement::Sharded(0)),
            (Placement::Replicated, Placement::Replicated) => (self.local.matmul(&rhs.local)?, Placement::Replicated),
            (Placement::Replicated, Placement::Sharded(1)) => (self.local.matmul(&rhs.local)?, Placement::Sharded(1)),
            (Placement::Sharded(1), Placement::Sharded(0)) => {
                (self.comm.all_reduce(&self.local.matmul(&rhs.local)?, ReduceOp::Sum)?, Placement::Replicated)
            }
            (a, b) => return Err(Error::invalid(op, format!("no product of {a:?} and {b:?} operands: reshard one"))),
        };
        Ok(ShardedArray { comm: self.comm.clone(), shape, placement, local })
    }

    /// `selfᵀ @ rhs` for two 2-D arrays sharded by rows (a Gram or cross-product matrix): the
    /// local products added over ranks, replicated.
    pub fn t_matmul(&self, rhs: &ShardedArray) -> Result<ShardedArray> {
        if self.placement != Placement::Sharded(0) || rhs.placement != Placement::Sharded(0) {
            return Err(Error::invalid("ShardedArray::t_matmul", "both operands must be sharded by rows"));
        }
        self.transposed()?.matmul(rhs)
    }

    /// The transpose of a 2-D array (a row-sharded array becomes column-sharded).
    pub fn transposed(&self) -> Result<ShardedArray> {
        let placement = match self.placement {
            Placement::Sharded(s) if self.shape.len() == 2 => Placement::Sharded(1 - s),
            Placement::Sharded(_) => return Err(Error::invalid("ShardedArray::transposed", "a 2-D array")),
            p => p,
        };
        Ok(ShardedArray {
            comm: self.comm.clone(),
            shape: vec![self.shape[1], self.shape[0]],
            placement,
            local: self.local.t()?,
        })
    }

    /// The whole array on rank `root` (`None` elsewhere).
    pub fn gather(&self, root: usize) -> Result<Option<Array>> {
        let whole = self.all_gather()?;
        Ok((self.comm.rank() == root).then_some(whole))
    }
}
