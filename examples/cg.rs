//! CuPy's conjugate-gradient example (`examples/cg/cg.py`) ported line by line: a random
//! symmetric positive semi-definite 2000² system `A x = b` solved by the same `fit` on every
//! device present, each answer's distance to the true `x` printed with the time.
//!
//! ```sh
//! cargo run --release --example cg [-- N TOL MAX_ITER]     # defaults: 2000 0.1 5000
//! ```
//!
//! `fit` is written once, as CuPy's is (`cupy.get_array_module(A)` there, arrays that carry
//! their device here): the products, inner products and the norm run where `a` lives.
use xp::linalg;
use xp::{Array, DType, Device, Result};

/// The conjugate-gradient iteration of CuPy's example: at most `max_iter` steps, stopping when
/// the residual's norm falls below `tol`. Returns the solution and the number of steps taken if
/// it converged.
pub fn fit(a: &Array, b: &Array, tol: f64, max_iter: usize) -> Result<(Array, Option<usize>)> {
    let xp = xp::get_array_module(a);
    let mut x = xp.zeros(b.shape(), DType::F64)?;
    let mut r0 = b.sub(&xp::dot(a, &x)?)?;
    let mut p = r0.clone();
    for i in 0..max_iter {
        let a_step = xp::inner(&r0, &r0)?.div(&xp::inner(&p, &xp::dot(a, &p)?)?)?;
        x += &a_step.mul(&p)?;
        let r1 = r0.sub(&a_step.mul(&xp::dot(a, &p)?)?)?;
        if linalg::norm(&r1, None, ..)?.to_f64()? < tol {
            return Ok((x, Some(i + 1)));
        }
        let b_step = xp::inner(&r1, &r1)?.div(&xp::inner(&r0, &r0)?)?;
        p = r1.add(&b_step.mul(&p)?)?;
        r0 = r1;
    }
    Ok((x, None))
}

/// The example's system: `A = M Mᵀ` for `M` of integers in [-50, 50), `x` of integers in
/// [-50, 50), `b = A x` (float64), on the host.
pub fn system(n: usize, seed: u64) -> Result<(Array, Array, Array)> {
    let mut rng = xp::default_rng(seed);
    let m = rng.integers(-50, 50, [n, n], None)?;
    let a = xp::matmul(&m, &m.t()?)?.astype(DType::F64)?;
    let x_ans = rng.integers(-50, 50, [n], None)?.astype(DType::F64)?;
    let b = xp::dot(&a, &x_ans)?;
    Ok((a, b, x_ans))
}

#[allow(dead_code)]
fn main() -> Result<()> {
    let arg = |i: usize| std::env::args().nth(i);
    let n: usize = arg(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let tol: f64 = arg(2).and_then(|a| a.parse().ok()).unwrap_or(0.1);
    let max_iter: usize = arg(3).and_then(|a| a.parse().ok()).unwrap_or(5000);
    for trial in 0..3 {
        println!("Trial: {trial}");
        let (a, b, x_ans) = system(n, trial)?;
        for device in xp::devices() {
            let (a, b) = (a.to_device(device)?, b.to_device(device)?);
            xp::synchronize(device)?;
            let start = std::time::Instant::now();
            let (x, steps) = fit(&a, &b, tol, max_iter)?;
            xp::synchronize(device)?;
            let secs = start.elapsed().as_secs_f64();
            let err = linalg::norm(&x.to_device(Device::Cpu)?.sub(&x_ans)?, None, ..)?;
            match steps {
                Some(k) => println!(" {device}: {secs:.6} sec, {k} steps, |x - x_ans| = {err}"),
                None => println!(" {device}: {secs:.6} sec: failed to converge. Increase max-iter or tol."),
            }
        }
        println!();
    }
    Ok(())
}
