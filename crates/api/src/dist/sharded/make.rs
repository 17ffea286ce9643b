//! Making a [`ShardedArray`] from a random generator (each rank draws its own positions of one
//! global draw, so the whole equals the one-device array of the same seed) and from per-rank
//! `.npy` files.
use super::{block, Placement, ShardedArray};
use crate::dist::Communicator;
use crate::random::Generator;
use crate::Array;
use std::path::{Path, PathBuf};
use xp_core::{Error, Result};

impl ShardedArray {
    /// A random global array of `shape`: `draw(generator, piece_shape)` is one element-wise
    /// draw (`|g, s| g.standard_normal(s, DType::F32)`, `|g, s| g.integers(0, 10, s, None)`,
    /// …) that each rank makes for its own positions of the global draw ([`Generator::piece`]),
    /// so the array equals `draw(generator, shape)` on one device, whatever the number of
    /// ranks. Every rank calls it with a generator of the same seed and state (each advances
    /// it as the one-device draw would). A piece sharded along an axis after the first is
    /// drawn by rows and resharded (one all-to-all).
    ///
    /// ```no_run
    /// # fn main() -> xp::Result<()> {
    /// use xp::dist::{Placement, ShardedArray};
    /// let comm = xp::dist::init()?;
    /// let mut g = xp::on(comm.device()).default_rng(7);
    /// let x = ShardedArray::random_with(&comm, &mut g, &[1 << 20, 64], Placement::Sharded(0), |g, s| {
    ///     g.standard_normal(s, xp::DType::F32)
    /// })?;
    /// assert_eq!(x.shape(), &[1 << 20, 64]);
    /// # Ok(()) }
    /// ```
    pub fn random_with(
        comm: &Communicator,
        generator: &mut Generator,
        shape: &[usize],
        placement: Placement,
        draw: impl FnOnce(&mut Generator, &[usize]) -> Result<Array>,
    ) -> Result<ShardedArray> {
        let op = "ShardedArray::random_with";
        if generator.device() != comm.device() {
            return Err(Error::DeviceMismatch { op, lhs: comm.device(), rhs: generator.device() });
        }
        let axis = match placement {
            Placement::Replicated => {
                let local = checked(op, draw(generator, shape)?, shape)?;
                return Ok(ShardedArray { comm: comm.clone(), shape: shape.to_vec(), placement, local });
            }
            Placement::Sharded(a) if a >= shape.len() => {
                return Err(Error::AxisOutOfRange { op, axis: a as isize, ndim: shape.len() })
            }
            // the axes before it have one element: its blocks are runs of the flat draw
            Placement::Sharded(a) if shape[..a].iter().all(|&d| d == 1) => a,
            Placement::Sharded(a) => {
                return ShardedArray::random_with(comm, generator, shape, Placement::Sharded(0), draw)?
                    .reshard(Placement::Sharded(a))
            }
        };
        let (s, e) = block(shape[axis], comm.size(), comm.rank());
        let inner: usize = shape[axis + 1..].iter().product();
        let mut piece = shape.to_vec();
        piece[axis] = e - s;
        let local = generator.piece(s * inner, |g| draw(g, &piece))?;
        let local = checked(op, local, &piece)?;
        Ok(ShardedArray { comm: comm.clone(), shape: shape.to_vec(), placement, local })
    }

    /// Writes this rank's piece (with the `io` feature) to `{stem}.{rank}-of-{size}.npy` (NumPy's format; every rank
    /// writes its own file, [`load`](Self::load) reads them back). Every rank learns whether
    /// all the writes succeeded (the first failure, as a typed error, on every rank).
    #[cfg(feature = "io")]
    pub fn save(&self, stem: impl AsRef<Path>) -> Result<()> {
        let path = shard_path(stem.as_ref(), self.comm.rank(), self.comm.size());
        let mine = crate::io::save(&path, &self.local);
        self.comm.agree("ShardedArray::save", mine)
    }

    /// The array (with the `io` feature) whose pieces [`save`](Self::save) wrote with this many ranks, laid out by
    /// `placement` (as it was saved), each piece loaded onto its rank's device.
    #[cfg(feature = "io")]
    pub fn load(comm: &Communicator, stem: impl AsRef<Path>, placement: Placement) -> Result<ShardedArray> {
        let path = shard_path(stem.as_ref(), comm.rank(), comm.size());
        let local = comm.agree("ShardedArray::load", crate::on(comm.device()).load(&path))?;
        ShardedArray::from_local(comm, local, placement)
    }
}

/// Rank `rank`'s file of `stem` in a world of `size`.
pub fn shard_path(stem: &Path, rank: usize, size: usize) -> PathBuf {
    let mut name = stem.as_os_str().to_owned();
    name.push(format!(".{rank}-of-{size}.npy"));
    PathBuf::from(name)
}

/// `a`, or an error when a draw did not give the shape asked for.
fn checked(op: &'static str, a: Array, shape: &[usize]) -> Result<Array> {
    if a.shape() != shape {
        return Err(Error::invalid(
            op,
            format!("the draw gave shape {:?} for {shape:?}: draw element-wise values of the shape given", a.shape()),
        ));
    }
    Ok(a)
}
