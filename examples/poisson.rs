//! The 2-D Poisson equation `−Δu = f` on the unit square with `u = 0` on its boundary, by
//! 5-point finite differences on a `K × K` grid of interior points (`K = 1024` by default: 10^6
//! unknowns). The matrix is assembled with `diags_array` and `kronsum`, the system solved by
//! conjugate gradients (`xp::sparse::linalg::cg`) on every device present; each device prints its
//! iterations, residual, time and error. `f = 2 (x(1−x) + y(1−y))` has the solution
//! `u = x(1−x) y(1−y)`, which the 5-point scheme reproduces exactly at the grid points (it is
//! quadratic along each axis), so the error shown is the solver's alone. A coarser grid is
//! checked against a direct (dense LU) solve, and `poisson.png` shows the solution.
//!
//! ```sh
//! cargo run --release --example poisson [-- K RTOL]     # defaults: 1024 1e-8
//! ```
#[path = "common/png.rs"]
mod png_out;

use std::time::Instant;
use xp::sparse::linalg::{cg, Krylov};
use xp::sparse::{diags_array, kronsum, CsrArray, Format};
use xp::{Array, DType, Device, Result};

/// `−Δ` on a `k × k` interior grid of spacing `h = 1/(k+1)`: `kron(I, T) + kron(T, I)` with
/// `T = tridiag(−1, 2, −1) / h²`, on `device`.
pub fn laplacian(k: usize, device: Device) -> Result<CsrArray> {
    let h2 = ((k + 1) * (k + 1)) as f64;
    let c = |v: f64| Array::from_vec(vec![v * h2], [1])?.to_device(device);
    let t = diags_array(&[&c(-1.0)?, &c(2.0)?, &c(-1.0)?], &[-1, 0, 1], Some([k, k]), None, Format::Csr)?;
    kronsum(&t, &t, Some(Format::Csr))?.tocsr()
}

/// The right-hand side `f` and the exact solution `u` at the grid points, flattened row by row.
pub fn problem(k: usize, device: Device) -> Result<(Array, Array)> {
    let m = xp::on(device);
    let h = 1.0 / (k + 1) as f64;
    let s = m.arange(1.0, (k + 1) as f64, 1.0, Some(DType::F64))?.mul(h)?; // grid coordinates
    let q = s.mul(&s.neg()?.add(1.0)?)?; // s (1 − s)
    let (qy, qx) = (q.reshape([k, 1])?, q.reshape([1, k])?);
    let f = qy.add(&qx)?.mul(2.0)?.reshape([k * k])?;
    let u = qy.mul(&qx)?.reshape([k * k])?;
    Ok((f, u))
}

fn max_abs(a: &Array) -> Result<f64> {
    a.abs()?.max(..)?.to_f64()
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let k: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(1024);
    let rtol: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1e-8);
    println!("−Δu = f on a {k}×{k} grid ({} unknowns), CG to rtol {rtol:e}", k * k);
    let mut first: Option<Array> = None;
    for device in xp::devices() {
        let a = laplacian(k, device)?;
        let (f, u) = problem(k, device)?;
        // a short solve first, so that the timed one does not include the GPU's kernel compiles
        cg(&a, &f, Krylov { maxiter: Some(2), ..Default::default() })?;
        xp::synchronize(device)?;
        let start = Instant::now();
        let sol = cg(&a, &f, Krylov { rtol, ..Default::default() })?;
        xp::synchronize(device)?;
        let secs = start.elapsed().as_secs_f64();
        let res = xp::linalg::norm(&f.sub(&a.matmul(&sol.x)?)?, None, ..)?.to_f64()?
            / xp::linalg::norm(&f, None, ..)?.to_f64()?;
        let err = max_abs(&sol.x.sub(&u)?)? / max_abs(&u)?;
        println!(
            "{device}: {:?} after {} iterations in {secs:.2} s ({:.2} ms each), ‖f − A u‖/‖f‖ = {res:.2e}, max error {err:.2e}",
            sol.status,
            sol.iterations,
            1e3 * secs / sol.iterations.max(1) as f64
        );
        let x = sol.x.to_device(Device::Cpu)?;
        match &first {
            None => first = Some(x),
            Some(x0) => println!("  agrees with the first device to {:.2e}", max_abs(&x.sub(x0)?)? / max_abs(x0)?),
        }
        // a coarser grid against a direct solve (dense LU)
        let kc = 40;
        let (ac, (fc, _)) = (laplacian(kc, device)?, problem(kc, device)?);
        let direct = xp::linalg::solve(&ac.toarray()?, &fc)?;
        let iterative = cg(&ac, &fc, Krylov { rtol: 1e-12, ..Default::default() })?.ok("cg")?;
        println!(
            "  {kc}×{kc} grid: CG agrees with the direct solve to {:.2e}",
            max_abs(&iterative.sub(&direct)?)? / max_abs(&direct)?
        );
    }
    if let Some(x) = first {
        png_out::write_png("poisson.png", &[&x.reshape([k, k])?], k)?;
        println!("wrote poisson.png: the solution u on the {k}×{k} grid");
    }
    Ok(())
}
