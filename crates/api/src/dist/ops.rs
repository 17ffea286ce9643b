//! The collectives and point-to-point calls of a [`Communicator`] on xp arrays.
use super::{Communicator, ReduceOp};
use crate::{Array, DType};
use xp_core::{Error, Result};

impl Communicator {
    /// The element-wise reduction of `x` over every rank, on every rank (NCCL's `AllReduce`;
    /// CuPy's `allReduce`). `x` has one shape and dtype on all ranks.
    pub fn all_reduce(&self, x: &Array, op: ReduceOp) -> Result<Array> {
        let name = "all_reduce";
        self.ready(name, x, &format!("{op:?}"))?;
        let out = self.alloc(x.shape(), x.dtype())?;
        self.run(name, x, &out, Some(op), |c, s, r, n, w| c.all_reduce(s, r, n, w.ty, w.op))?;
        Ok(out)
    }

    /// [`Self::all_reduce`] into `out` (CuPy's `allReduce(sendbuf, recvbuf, …)`, NumPy's `out=`):
    /// `out` has `x`'s shape and dtype and is on this rank's device; it may be `x` itself (an
    /// in-place all-reduce). A whole C-contiguous `out` is written by NCCL directly; any other
    /// (a strided view) receives a copy of the result (inside [`super::group`], at the group's end).
    /// On an error `out` is untouched.
    pub fn all_reduce_out(&self, x: &Array, op: ReduceOp, out: &Array) -> Result<()> {
        let name = "all_reduce_out";
        if out.shape() != x.shape() {
            return Err(Error::ShapeMismatch { op: name, lhs: x.shape().to_vec(), rhs: out.shape().to_vec() });
        }
        if out.dtype() != x.dtype() {
            return Err(Error::invalid(
                name,
                format!("out is {}, x is {}: NCCL does not cast", out.dtype(), x.dtype()),
            ));
        }
        if out.device() != self.device() {
            return Err(Error::DeviceMismatch { op: name, lhs: self.device(), rhs: out.device() });
        }
        self.ready(name, x, &format!("{op:?}"))?;
        let direct = is_exact(out);
        let target = if direct { out.clone() } else { self.alloc(x.shape(), x.dtype())? };
        self.run(name, x, &target, Some(op), |c, s, r, n, w| c.all_reduce(s, r, n, w.ty, w.op))?;
        if direct {
            return Ok(());
        }
        let out = out.clone();
        super::after_group(move || out.assign(&target))
    }

    /// Rank `root`'s `x` on every rank (NCCL's `Broadcast`); the other ranks pass an array of
    /// the same shape and dtype, whose values are not read.
    pub fn broadcast(&self, x: &Array, root: usize) -> Result<Array> {
        let name = "broadcast";
        self.peer(name, root)?;
        self.ready(name, x, &format!("root {root}"))?;
        let out = self.alloc(x.shape(), x.dtype())?;
        self.run(name, x, &out, None, |c, s, r, n, w| c.broadcast(s, r, n, w.ty, root))?;
        Ok(out)
    }

    /// The element-wise reduction of `x` over every rank, on rank `root` only (`Some` there,
    /// `None` elsewhere; NCCL's `Reduce`).
    pub fn reduce(&self, x: &Array, op: ReduceOp, root: usize) -> Result<Option<Array>> {
        let name = "reduce";
        self.peer(name, root)?;
        self.ready(name, x, &format!("{op:?} root {root}"))?;
        let out = self.alloc(x.shape(), x.dtype())?;
        self.run(name, x, &out, Some(op), |c, s, r, n, w| c.reduce(s, r, n, w.ty, w.op, root))?;
        Ok((self.rank() == root).then_some(out))
    }

    /// Every rank's `x`, stacked along a new first axis in rank order: shape
    /// `(size, *x.shape)` on every rank (NCCL's `AllGather`).
    pub fn all_gather(&self, x: &Array) -> Result<Array> {
        let name = "all_gather";
        self.ready(name, x, "")?;
        let out = self.alloc(&stacked(self.size(), x.shape()), x.dtype())?;
        self.run(name, x, &out, None, |c, s, r, n, w| c.all_gather(s, r, n, w.ty))?;
        Ok(out)
    }

    /// The reduction over ranks of `x[rank]`, where `x` has shape `(size, *rest)`: shape `rest`
    /// on each rank (NCCL's `ReduceScatter`).
    pub fn reduce_scatter(&self, x: &Array, op: ReduceOp) -> Result<Array> {
        let name = "reduce_scatter";
        let rest = self.pieces(name, x)?;
        self.ready(name, x, &format!("{op:?}"))?;
        let out = self.alloc(&rest, x.dtype())?;
        self.run(name, x, &out, Some(op), |c, s, r, n, w| c.reduce_scatter(s, r, n, w.ty, w.op))?;
        Ok(out)
    }

    /// Exchanges pieces: `x` of shape `(size, *rest)`, `x[r]` goes to rank `r`; the result's
    /// `[r]` is what rank `r` sent here (MPI's `Alltoall`; grouped sends and receives).
    pub fn all_to_all(&self, x: &Array) -> Result<Array> {
        let name = "all_to_all";
        self.pieces(name, x)?;
        self.ready(name, x, "")?;
        let out = self.alloc(x.shape(), x.dtype())?;
        let all: Vec<(usize, usize)> = (0..self.size()).map(|r| (r, r)).collect();
        self.p2p(name, &exact(x)?, &out, x.size() / self.size(), &all, &all)?;
        Ok(out)
    }

    /// Every rank's `x` stacked along a new first axis on rank `root` (`Some` there, `None`
    /// elsewhere; grouped sends and receives).
    pub fn gather(&self, x: &Array, root: usize) -> Result<Option<Array>> {
        let name = "gather";
        self.peer(name, root)?;
        self.ready(name, x, &format!("root {root}"))?;
        let out = self.alloc(&stacked(self.size(), x.shape()), x.dtype())?;
        // every rank sends its x (piece 0) to the root; the root receives piece r from rank r
        let on_root = self.rank() == root;
        let recvs: Vec<(usize, usize)> = if on_root { (0..self.size()).map(|r| (r, r)).collect() } else { Vec::new() };
        self.p2p(name, &exact(x)?, &out, x.size(), &[(0, root)], &recvs)?;
        Ok(on_root.then_some(out))
    }

    /// Rank `root`'s `x[r]` on each rank `r` (`x` of shape `(size, *shape)` on the root, `None`
    /// elsewhere): an array of `shape` and `dtype` (grouped sends and receives).
    pub fn scatter(&self, x: Option<&Array>, root: usize, shape: &[usize], dtype: DType) -> Result<Array> {
        let name = "scatter";
        self.peer(name, root)?;
        let out = self.alloc(shape, dtype)?;
        let send = match (self.rank() == root, x) {
            (true, Some(x)) => {
                if x.shape() != stacked(self.size(), shape).as_slice() || x.dtype() != dtype {
                    return Err(Error::invalid(
                        name,
                        format!(
                            "the root's array is {:?} {}, expected {:?} {dtype}",
                            x.shape(),
                            x.dtype(),
                            stacked(self.size(), shape)
                        ),
                    ));
                }
                exact(x)?
            }
            (true, None) => return Err(Error::invalid(name, "the root must give the array to scatter")),
            (false, _) => out.clone(),
        };
        self.ready(name, &out, &format!("root {root}"))?;
        let sends: Vec<(usize, usize)> =
            if self.rank() == root { (0..self.size()).map(|r| (r, r)).collect() } else { Vec::new() };
        self.p2p(name, &send, &out, out.size(), &sends, &[(0, root)])?;
        Ok(out)
    }

    /// Sends `x` to rank `peer`, whose [`recv`](Communicator::recv) names this rank with the
    /// same shape and dtype (NCCL's `Send`).
    pub fn send(&self, x: &Array, peer: usize) -> Result<()> {
        let name = "send";
        self.peer(name, peer)?;
        self.usable(name, x)?;
        let x = exact(x)?;
        let w = wire(name, x.dtype(), None)?;
        self.with_storages(&[&x], |c, s| c.send(s[0], 0, x.size() * w.per, w.ty, peer))
    }

    /// Receives an array of `shape` and `dtype` that rank `peer` sends (NCCL's `Recv`).
    pub fn recv(&self, shape: &[usize], dtype: DType, peer: usize) -> Result<Array> {
        let name = "recv";
        self.peer(name, peer)?;
        let out = self.alloc(shape, dtype)?;
        self.usable(name, &out)?;
        let w = wire(name, dtype, None)?;
        self.with_storages(&[&out], |c, s| c.recv(s[0], 0, out.size() * w.per, w.ty, peer))?;
        Ok(out)
    }

    /// Returns once every rank has queued its work up to here and that work is done (an
    /// all-reduce of one byte, then [`synchronize`](Communicator::synchronize)).
    pub fn barrier(&self) -> Result<()> {
        let one = crate::on(self.device()).zeros([1], DType::U8)?;
        self.all_reduce(&one, ReduceOp::Sum)?;
        self.synchronize()
    }

    /// The communicators of the ranks that give the same `color` (`None`: this rank joins
    /// none), ranked by `key`, then by rank (NCCL's `CommSplit`, 2.18+). Every rank calls it.
    pub fn split(&self, color: Option<u32>, key: usize) -> Result<Option<Communicator>> {
        let Some(nccl) = self.inner.nccl.split(color, key)? else { return Ok(None) };
        Ok(Some(Communicator {
            inner: std::sync::Arc::new(super::Inner {
                rank: nccl.rank(),
                size: nccl.size(),
                device: self.device(),
                opts: super::Options { verify: false, ..self.inner.opts.clone() },
                rdv: None,
                local: self.inner.local,
                meeting: None,
                nccl,
            }),
        }))
    }

    // ---- the steps every call shares ----

    /// `Err` unless `x` is on this rank's device and the call may run now (a process driving
    /// several GPUs calls inside [`super::group`]).
    fn usable(&self, op: &'static str, x: &Array) -> Result<()> {
        if x.device() != self.device() {
            return Err(Error::DeviceMismatch { op, lhs: self.device(), rhs: x.device() });
        }
        if self.inner.local > 1 && !super::in_group() && !super::solo() {
            return Err(Error::invalid(
                op,
                "this thread drives several GPUs: call each one's collective inside dist::group, or run each rank on a thread of its own (dist::spmd)",
            ));
        }
        Ok(())
    }

    /// [`Self::usable`], then (with [`super::Options::verify`]) the check that every rank called
    /// the same operation on the same shape and dtype.
    fn ready(&self, op: &'static str, x: &Array, extra: &str) -> Result<()> {
        self.usable(op, x)?;
        match &self.inner.rdv {
            Some(rdv) if self.inner.opts.verify => {
                let what = format!("{op} of {} {:?} {extra}", x.dtype(), x.shape());
                rdv.lock().unwrap_or_else(|e| e.into_inner()).same(&what)
            }
            _ => Ok(()),
        }
    }

    fn peer(&self, op: &'static str, r: usize) -> Result<()> {
        if r >= self.size() {
            return Err(Error::invalid(op, format!("rank {r} is outside a world of {}", self.size())));
        }
        Ok(())
    }

    /// `x`'s pieces `(size, *rest)`: `rest`.
    fn pieces(&self, op: &'static str, x: &Array) -> Result<Vec<usize>> {
        match x.shape().split_first() {
            Some((&n, rest)) if n == self.size() => Ok(rest.to_vec()),
            _ => Err(Error::invalid(op, format!("expected shape ({}, ...), got {:?}", self.size(), x.shape()))),
        }
    }

    fn alloc(&self, shape: &[usize], dtype: DType) -> Result<Array> {
        crate::on(self.device()).empty(shape, dtype)
    }
}

/// `(n, *shape)`.
fn stacked(n: usize, shape: &[usize]) -> Vec<usize> {
    let mut s = vec![n];
    s.extend_from_slice(shape);
    s
}

use super::wire::{wire, Wire};
use super::Nccl;
use crate::backend::CudaStorage;
use crate::sparse::{exact, is_exact};

impl Communicator {
    /// `f(nccl, storages)` over the CUDA storages of `arrays`.
    fn with_storages(&self, arrays: &[&Array], f: impl FnOnce(&Nccl, &[&CudaStorage]) -> Result<()>) -> Result<()> {
        use crate::backend::{Reads, Storage};
        let reads = Reads::lock(arrays);
        let mut s = Vec::with_capacity(arrays.len());
        for (i, a) in arrays.iter().enumerate() {
            let Storage::Cuda(c) = reads.get(i) else {
                return Err(Error::DeviceMismatch { op: "dist", lhs: self.device(), rhs: a.device() });
            };
            s.push(c);
        }
        f(&self.inner.nccl, &s)
    }

    /// A collective from `send` (a contiguous copy where it is a view) into `recv`, over the
    /// smaller one's elements.
    fn run(
        &self,
        op: &'static str,
        send: &Array,
        recv: &Array,
        red: Option<ReduceOp>,
        f: impl FnOnce(&Nccl, &CudaStorage, &CudaStorage, usize, Wire) -> Result<()>,
    ) -> Result<()> {
        let w = wire(op, send.dtype(), red)?;
        #[cfg(xp_cuda)]
        if red == Some(ReduceOp::Avg) {
            xp_cuda::nccl::require(21000)?;
        }
        let send = exact(send)?;
        let count = send.size().min(recv.size()) * w.per;
        self.with_storages(&[&send, recv], |c, s| f(c, s[0], s[1], count, w))
    }

    /// One group of sends and receives of `piece` elements each: `(slot, peer)` in `sends`
    /// sends `x[slot]` to `peer`, in `recvs` receives `out[slot]` from `peer`.
    fn p2p(
        &self,
        op: &'static str,
        x: &Array,
        out: &Array,
        piece: usize,
        sends: &[(usize, usize)],
        recvs: &[(usize, usize)],
    ) -> Result<()> {
        let parts =
            |v: &[(usize, usize)]| v.iter().map(|&(slot, peer)| (slot * piece, piece, peer)).collect::<Vec<_>>();
        self.exchange(op, x, out, &parts(sends), &parts(recvs))
    }

    /// One group of sends and receives of runs of elements: `(start, len, peer)` in `sends`
    /// sends `x[start..start + len]` (of the flat `x`, copied where it is a view) to `peer`, in
    /// `recvs` receives `out[start..start + len]` (`out` contiguous) from `peer`. Runs from this
    /// rank to itself (the i-th sent to itself with the i-th received from itself, as NCCL
    /// pairs them) are copied on the device, not through NCCL. Nothing happens when both lists
    /// are empty; `x` is not read when `sends` is.
    pub(crate) fn exchange(
        &self,
        op: &'static str,
        x: &Array,
        out: &Array,
        sends: &[(usize, usize, usize)],
        recvs: &[(usize, usize, usize)],
    ) -> Result<()> {
        let me = self.rank();
        type Runs<'a> = Vec<&'a (usize, usize, usize)>;
        let (own_sends, sends): (Runs, Runs) = sends.iter().partition(|r| r.2 == me);
        let (own_recvs, recvs): (Runs, Runs) = recvs.iter().partition(|r| r.2 == me);
        if own_sends.len() != own_recvs.len() || own_sends.iter().zip(&own_recvs).any(|(s, r)| s.1 != r.1) {
            return Err(Error::invalid(op, "the runs this rank sends itself differ from those it receives"));
        }
        if !own_sends.is_empty() {
            let (flat_x, flat_out) = (x.reshape([-1])?, out.reshape([-1])?);
            let run = |a: &Array, start: usize, len: usize| a.slice(crate::s![start as isize..(start + len) as isize]);
            for (s, r) in own_sends.iter().zip(&own_recvs) {
                run(&flat_out, r.0, r.1)?.assign(&run(&flat_x, s.0, s.1)?)?;
            }
        }
        if sends.is_empty() && recvs.is_empty() {
            return Ok(());
        }
        let x = if sends.is_empty() { out.clone() } else { exact(x)? };
        let x = &x;
        let w = wire(op, out.dtype(), None)?;
        let size = out.dtype().size();
        self.with_storages(&[x, out], |c, s| {
            super::group(|| {
                for &&(start, len, to) in &sends {
                    c.send(s[0], start * size, len * w.per, w.ty, to)?;
                }
                for &&(start, len, from) in &recvs {
                    c.recv(s[1], start * size, len * w.per, w.ty, from)?;
                }
                Ok(())
            })
        })
    }
}
