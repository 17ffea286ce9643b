//! A CSR matrix partitioned by rows over the ranks of a [`Communicator`], and its product with
//! a [`ShardedArray`] vector by halo exchange: each rank holds its block of rows (blocks as
//! [`block`] cuts them) and its block of `x`; the columns its rows reach in other ranks' blocks
//! (the halo) arrive in one group of sends and receives before the local product.
//!
//! At construction each rank lists the columns it needs from each other rank and tells that
//! rank which of its entries to send; the matrix's column indices are renumbered once into the
//! rank's own vector `[its block of x | the halo, by rank]`. A product is then one gather of
//! the entries to send, one grouped exchange and one local SpMV: a 5-point Poisson matrix
//! sharded by rows exchanges one grid row with each neighbour.
use super::{block, Communicator, Placement, ShardedArray};
use crate::sparse::CsrArray;
use crate::{Array, DType};
use xp_core::{DistKind, Error, Result};

/// A sparse matrix whose rows are split over the ranks (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct ShardedCsr {
    comm: Communicator,
    shape: [usize; 2],
    /// this rank's rows, their columns renumbered into `[own block of x | halo]`
    local: CsrArray,
    /// the length of this rank's block of `x`
    own: usize,
    /// the positions in this rank's block of `x` that other ranks need, peer after peer
    gather: Array,
    /// `(start in the gathered values, count, peer)`
    sends: Vec<(usize, usize, usize)>,
    /// `(start in the extended vector, count, peer)`
    recvs: Vec<(usize, usize, usize)>,
}

impl ShardedCsr {
    /// The matrix whose rows on this rank are `rows` (each rank passes its own block of rows,
    /// with global column indices; the blocks as [`block`] cuts the total).
    pub fn from_local(comm: &Communicator, rows: &CsrArray) -> Result<ShardedCsr> {
        let op = "ShardedCsr::from_local";
        let (n, me) = (comm.size(), comm.rank());
        let [m_local, cols] = rows.shape();
        let dev = crate::on(comm.device());
        let dims = comm.all_gather(&dev.asarray(vec![m_local as i64, cols as i64], [2])?)?.to_vec::<i64>()?;
        let m: usize = (0..n).map(|r| dims[2 * r] as usize).sum();
        for r in 0..n {
            let (s, e) = block(m, n, r);
            if dims[2 * r] as usize != e - s || dims[2 * r + 1] as usize != cols {
                return Err(Error::Dist {
                    op,
                    kind: DistKind::Mismatch {
                        what: format!(
                            "rank {r} holds {} × {} rows where blocks of {m} rows × {cols} columns need {} × {cols}",
                            dims[2 * r],
                            dims[2 * r + 1],
                            e - s
                        ),
                    },
                });
            }
        }
        // which rank owns each column, and the columns this rank needs from each other rank
        let starts: Vec<usize> = (0..n).map(|q| block(cols, n, q).0).collect();
        let owner = |c: usize| starts.partition_point(|&s| s <= c) - 1;
        let (cs, ce) = block(cols, n, me);
        let own = ce - cs;
        let idx = rows.indices().astype(DType::I64)?.to_vec::<i64>()?;
        let mut needed: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &c in &idx {
            let c = c as usize;
            if !(cs..ce).contains(&c) {
                needed[owner(c)].push(c);
            }
        }
        for v in &mut needed {
            v.sort_unstable();
            v.dedup();
        }
        // the halo's place in the extended vector, then every column renumbered
        let mut at = vec![own; n + 1];
        for q in 0..n {
            at[q + 1] = at[q] + needed[q].len();
        }
        let renumbered: Vec<i64> = idx
            .iter()
            .map(|&c| {
                let c = c as usize;
                if (cs..ce).contains(&c) {
                    (c - cs) as i64
                } else {
                    let q = owner(c);
                    (at[q] + needed[q].partition_point(|&v| v < c)) as i64
                }
            })
            .collect();
        let ext = at[n];
        let local = CsrArray::new(
            rows.data(),
            &dev.asarray(renumbered.clone(), [renumbered.len()])?,
            rows.indptr(),
            [m_local, ext],
        )?;
        // how many entries each rank needs from each: counts[r * n + q]
        let mine: Vec<i64> = needed.iter().map(|v| v.len() as i64).collect();
        let counts = comm.all_gather(&dev.asarray(mine, [n])?)?.to_vec::<i64>()?;
        let count = |r: usize, q: usize| counts[r * n + q] as usize;
        // tell each owner the columns wanted from it; receive the positions others want here
        let wanted: Vec<i64> = needed.iter().flatten().map(|&c| c as i64).collect();
        let mut sends = Vec::new();
        let mut off = 0;
        for r in (0..n).filter(|&r| r != me && count(r, me) > 0) {
            sends.push((off, count(r, me), r));
            off += count(r, me);
        }
        let recvs: Vec<(usize, usize, usize)> =
            (0..n).filter(|&q| !needed[q].is_empty()).map(|q| (at[q], needed[q].len(), q)).collect();
        let gather = dev.empty([off], DType::I64)?;
        let list = dev.asarray(wanted.clone(), [wanted.len()])?;
        let asks: Vec<_> = recvs.iter().map(|&(s, k, q)| (s - own, k, q)).collect();
        comm.exchange(op, &list, &gather, &asks, &sends)?;
        let gather = gather.sub(cs as i64)?;
        Ok(ShardedCsr { comm: comm.clone(), shape: [m, cols], local, own, gather, sends, recvs })
    }

    /// Rank `root`'s matrix (the others pass `None`), split by rows: its parts are broadcast
    /// and each rank keeps its rows (a convenience; [`from_local`](Self::from_local) never
    /// holds the whole matrix on one rank).
    pub fn from_root(comm: &Communicator, a: Option<&CsrArray>, root: usize) -> Result<ShardedCsr> {
        let part = |f: fn(&CsrArray) -> &Array| -> Result<Array> {
            let x = a.map(|a| f(a).to_device(comm.device())).transpose()?;
            Ok(ShardedArray::from_root(comm, x.as_ref(), root, Placement::Replicated)?.local().clone())
        };
        let dims = a.map(|a| {
            let [r, c] = a.shape();
            crate::on(comm.device()).asarray(vec![r as i64, c as i64], [2])
        });
        let dims = ShardedArray::from_root(comm, dims.transpose()?.as_ref(), root, Placement::Replicated)?
            .local()
            .to_vec::<i64>()?;
        let (indptr, indices, data) = (part(CsrArray::indptr)?, part(CsrArray::indices)?, part(CsrArray::data)?);
        let (m, cols) = (dims[0] as usize, dims[1] as usize);
        let (s, e) = block(m, comm.size(), comm.rank());
        let ptr = indptr.astype(DType::I64)?.to_vec::<i64>()?;
        let (p0, p1) = (ptr[s] as usize, ptr[e] as usize);
        let cut = |x: &Array| crate::fft::slice_axis(x, 0, p0, p1);
        let local_ptr = crate::fft::slice_axis(&indptr.astype(DType::I64)?, 0, s, e + 1)?.sub(p0 as i64)?;
        let rows = CsrArray::new(&cut(&data)?, &cut(&indices)?, &local_ptr, [e - s, cols])?;
        ShardedCsr::from_local(comm, &rows)
    }

    /// The global shape.
    pub fn shape(&self) -> [usize; 2] {
        self.shape
    }
    /// This rank's rows, their columns numbered into `[own block of x | halo]`.
    pub fn local(&self) -> &CsrArray {
        &self.local
    }
    /// The communicator.
    pub fn comm(&self) -> &Communicator {
        &self.comm
    }
    /// How many entries of `x` this rank receives from the others for a product.
    pub fn halo(&self) -> usize {
        self.recvs.iter().map(|r| r.1).sum()
    }

    /// `A @ x` for `x` a vector sharded in blocks (`Placement::Sharded(0)`, the length of a
    /// row): the result is sharded the same way over the rows.
    pub fn matvec(&self, x: &ShardedArray) -> Result<ShardedArray> {
        let op = "ShardedCsr::matvec";
        if x.shape() != [self.shape[1]] || x.placement() != Placement::Sharded(0) {
            return Err(Error::invalid(
                op,
                format!(
                    "x must be a vector of {} sharded by blocks, not {:?} {:?}",
                    self.shape[1],
                    x.shape(),
                    x.placement()
                ),
            ));
        }
        if x.comm().device() != self.comm.device() || x.comm().size() != self.comm.size() {
            return Err(Error::invalid(op, "x lives on another communicator"));
        }
        let ext = if self.recvs.is_empty() && self.sends.is_empty() {
            x.local().clone()
        } else {
            let ext = crate::on(self.comm.device()).empty([self.own + self.halo()], x.dtype())?;
            crate::fft::slice_axis(&ext, 0, 0, self.own)?.assign(x.local())?;
            let out = x.local().take(&self.gather, Some(0))?;
            self.comm.exchange(op, &out, &ext, &self.sends, &self.recvs)?;
            ext
        };
        let y = self.local.matmul(&ext)?;
        ShardedArray::from_parts(&self.comm, vec![self.shape[0]], Placement::Sharded(0), y)
    }
}
