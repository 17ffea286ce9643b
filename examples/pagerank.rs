//! PageRank by power iteration on a random sparse graph (a million nodes by default), written
//! once over `xp::sparse` and run on every device present; the ranks of each device are checked
//! against the first device's, and the time per iteration is printed.
//!
//! ```sh
//! cargo run --release --example pagerank [-- NODES EDGES_PER_NODE ITERATIONS]   # defaults: 1000000 8 50
//! ```
//!
//! The graph: `NODES × EDGES_PER_NODE` edges with random ends (the same on every device: drawn
//! once on the host), repeated edges counting once per drawing. `M[j, i] = 1 / outdeg(i)` for an
//! edge `i → j`; a node without out-edges spreads its rank evenly; damping 0.85.
use xp::sparse::{CooArray, CsrArray};
use xp::{Array, DType, Device, Result};

/// The column-stochastic link matrix of the edges `src → dst` over `n` nodes, and the mask of
/// nodes without out-edges, on `device`.
pub fn link_matrix(src: &Array, dst: &Array, n: usize, device: Device) -> Result<(CsrArray, Array)> {
    let (src, dst) = (src.to_device(device)?, dst.to_device(device)?);
    let m = xp::on(device);
    let outdeg = m.zeros([n], DType::F64)?;
    xp::scatter_add(&outdeg, &src, 1.0)?;
    let weight = outdeg.take(&src, 0)?.reciprocal()?;
    let a = CooArray::new(&weight, &dst, &src, [n, n])?.tocsr()?;
    Ok((a, outdeg.eq(0.0)?))
}

/// `iters` steps of `r ← d M r + (d · Σ_dangling r + 1 − d) / n` from the uniform ranks.
pub fn pagerank(a: &CsrArray, dangling: &Array, iters: usize, d: f64) -> Result<Array> {
    let n = a.shape()[0];
    let m = xp::get_array_module(dangling);
    let mut r = m.full([n], 1.0 / n as f64, DType::F64)?;
    for _ in 0..iters {
        let lost = xp::where_(dangling, &r, 0.0)?.sum(..)?;
        let spread = lost.mul(d)?.add(1.0 - d)?.div(n as f64)?;
        r = a.matmul(&r)?.mul(d)?.add(&spread)?;
    }
    Ok(r)
}

fn main() -> Result<()> {
    let arg = |i: usize, default: usize| std::env::args().nth(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (n, per, iters) = (arg(1, 1_000_000), arg(2, 8), arg(3, 50));
    let mut rng = xp::default_rng(2026);
    let (src, dst) = (rng.integers(0, n as i64, [n * per], None)?, rng.integers(0, n as i64, [n * per], None)?);
    let mut first: Option<(Device, Array)> = None;
    for device in xp::devices() {
        let (a, dangling) = link_matrix(&src, &dst, n, device)?;
        pagerank(&a, &dangling, 2, 0.85)?; // warm-up (kernels compiled, pools filled)
        xp::synchronize(device)?;
        let start = std::time::Instant::now();
        let r = pagerank(&a, &dangling, iters, 0.85)?;
        xp::synchronize(device)?;
        let per_iter = start.elapsed().as_secs_f64() * 1e3 / iters as f64;
        let total = r.sum(..)?.to_f64()?;
        let top = r.argmax(..)?.to_i64()?;
        println!(
            "{device}: {n} nodes, {} links, {per_iter:.3} ms per iteration; ranks sum to {total:.12}, top node {top}",
            a.nnz()
        );
        let r = r.to_device(Device::Cpu)?;
        match &first {
            None => first = Some((device, r)),
            Some((d0, r0)) => {
                let diff = r.sub(r0)?.abs()?.max(..)?.to_f64()?;
                println!("  largest difference from {d0}: {diff:.3e}");
                assert!(diff < 1e-12, "{device} disagrees with {d0} by {diff}");
            }
        }
        assert!((total - 1.0).abs() < 1e-9, "the ranks sum to {total}");
    }
    Ok(())
}
