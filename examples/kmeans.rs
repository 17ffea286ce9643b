//! CuPy's k-means example (`examples/kmeans/kmeans.py`, `kmeans_train.py`) ported line by
//! line: two clusters of 500 points in 30000 dimensions (`randn + 1` and `randn - 1`), fitted by
//! the same `KMeans::fit` on every device present, each fit timed and its centres checked
//! against the CPU's.
//!
//! ```sh
//! cargo run --release --example kmeans [-- N_CLUSTERS MAX_ITER DIM]     # defaults: 2 10 30000
//! ```
//!
//! CuPy's example has two ways of computing the centres: NumPy's (a boolean mask per cluster
//! and a mean) and, for the GPU, an `ElementwiseKernel` with `atomicAdd`. With xp the first is
//! already device-generic, so the port keeps that one and runs it everywhere.
use xp::{Array, Result};

/// CuPy's `KMeans`: the centres and the labels of the last fit.
pub struct KMeans {
    /// the number of clusters
    pub n_clusters: usize,
    /// the largest number of iterations
    pub max_iter: usize,
    /// the centres, `(n_clusters, dim)`
    pub centers: Option<Array>,
    /// each point's cluster
    pub pred: Option<Array>,
}

impl KMeans {
    /// An unfitted estimator.
    pub fn new(n_clusters: usize, max_iter: usize) -> KMeans {
        KMeans { n_clusters, max_iter, centers: None, pred: None }
    }

    /// Lloyd's iterations from `n_clusters` points drawn at random (the permutation seeded with
    /// `seed`, on the host as CuPy's example draws it with NumPy), as CuPy's `fit`: the
    /// distances of every point to every centre through a repeat and a broadcast, the labels by
    /// `argmin`, the centres as the means of their points. Returns the iterations run.
    pub fn fit(&mut self, x: &Array, seed: u64) -> Result<usize> {
        let x_indexes = xp::default_rng(seed).permutation(x.shape()[0])?;
        let initial = x_indexes.slice(xp::s![..self.n_clusters as isize])?.to_device(x.device())?;
        self.fit_from(x, &initial)
    }

    /// [`KMeans::fit`] from the points `initial` (int64 indexes, on `x`'s device).
    pub fn fit_from(&mut self, x: &Array, initial: &Array) -> Result<usize> {
        let xp = xp::get_array_module(x);
        let (data_num, data_dim) = (x.shape()[0], x.shape()[1]);
        let mut pred = xp.zeros([data_num], None)?;
        let mut centers = x.take(initial, 0)?;
        let mut iterations = 0;
        for _ in 0..self.max_iter {
            iterations += 1;
            // calculate distances and label
            let x2 = x.repeat(self.n_clusters, Some(0))?.reshape([data_num, self.n_clusters, data_dim])?;
            let c = centers.broadcast_to([data_num, self.n_clusters, data_dim])?;
            let new_pred = x2.sub(&c)?.pow(2)?.sum(2)?.argmin(1)?;
            if new_pred.eq(&pred)?.all(..)?.to_bool()? {
                break;
            }
            pred = new_pred;
            // calculate centers
            let mut rows = xp.empty([0, data_dim], None)?;
            for i in 0..self.n_clusters {
                let mean = x.get(&pred.eq(i as i64)?)?.mean(0)?;
                rows = xp::vstack(&[&rows, &mean])?;
            }
            centers = rows;
        }
        self.centers = Some(centers);
        self.pred = Some(pred);
        Ok(iterations)
    }
}

/// `kmeans_train.py`'s data: `samples = randn(500, dim)`, `X = r_[samples + 1, samples - 1]`.
pub fn data(dim: usize, seed: u64) -> Result<Array> {
    let samples = xp::default_rng(seed).standard_normal([500, dim], None)?;
    xp::concatenate(&[&samples.add(1.0)?, &samples.sub(1.0)?], 0)
}

#[allow(dead_code)]
fn main() -> Result<()> {
    let arg = |i: usize| std::env::args().nth(i);
    let n_clusters: usize = arg(1).and_then(|a| a.parse().ok()).unwrap_or(2);
    let max_iter: usize = arg(2).and_then(|a| a.parse().ok()).unwrap_or(10);
    let dim: usize = arg(3).and_then(|a| a.parse().ok()).unwrap_or(30000);
    let x_train = data(dim, 1)?;
    let mut reference: Option<Array> = None;
    for device in xp::devices() {
        let x = x_train.to_device(device)?;
        let mut estimator = KMeans::new(n_clusters, max_iter);
        xp::synchronize(device)?;
        let start = std::time::Instant::now();
        let iterations = estimator.fit(&x, 0)?;
        xp::synchronize(device)?;
        let secs = start.elapsed().as_secs_f64();
        let centers = estimator.centers.expect("fitted").to_host()?;
        let agree = match &reference {
            None => {
                reference = Some(centers.clone());
                String::new()
            }
            Some(r) => format!(", centres within {:.1e} of the CPU's", centers.sub(r)?.abs()?.max(..)?.to_f64()?),
        };
        println!(" {device}: {secs:.6} sec, {iterations} iterations{agree}");
    }
    Ok(())
}
