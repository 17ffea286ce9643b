//! CuPy's Gaussian-mixture example (`examples/gmm/gmm.py`, `gmm_train.py`) ported line by line:
//! EM for two diagonal Gaussians on 10^6 float32 points in the plane, trained by the same
//! `train_gmm` on every device present, timed, and its train/test accuracy printed.
//!
//! ```sh
//! cargo run --release --example gmm [-- MAX_ITER TOL N_HALF]     # defaults: 30 1e-3 500000
//! ```
use xp::{Array, DType, Result};

const LOG_2PI: f64 = 1.837_877_066_409_345_5; // ln(2π)

/// The weights, means and variances of the components from the responsibilities.
pub fn estimate_gaussian_parameters(x: &Array, resp: &Array) -> Result<(Array, Array, Array)> {
    let nk = resp.sum(0)?;
    let nk_col = nk.expand_dims(1)?;
    let means = xp::dot(&resp.t()?, x)?.div(&nk_col)?;
    let avg_x2 = xp::dot(&resp.t()?, &x.mul(x)?)?.div(&nk_col)?;
    let avg_x_means = means.mul(&xp::dot(&resp.t()?, x)?)?.div(&nk_col)?;
    let covariances = avg_x2.sub(&avg_x_means.mul(2)?)?.add(&means.pow(2)?)?;
    Ok((nk.div(x.shape()[0] as f64)?, means, covariances))
}

/// The log density of every point under every component (diagonal covariances given by their
/// inverse square roots `inv_cov`).
pub fn estimate_log_prob(x: &Array, inv_cov: &Array, means: &Array) -> Result<Array> {
    let n_features = x.shape()[1] as f64;
    let log_det = inv_cov.log()?.sum(1)?;
    let precisions = inv_cov.pow(2)?;
    let log_prob = means
        .pow(2)?
        .mul(&precisions)?
        .sum(1)?
        .sub(&xp::dot(x, &means.mul(&precisions)?.t()?)?.mul(2)?)?
        .add(&xp::dot(&x.pow(2)?, &precisions.t()?)?)?;
    log_prob.add(n_features * LOG_2PI)?.mul(-0.5)?.add(&log_det)
}

/// The E step: the mean log likelihood and the log responsibilities.
pub fn e_step(x: &Array, inv_cov: &Array, means: &Array, weights: &Array) -> Result<(f64, Array)> {
    let weighted_log_prob = estimate_log_prob(x, inv_cov, means)?.add(&weights.log()?)?;
    let log_prob_norm = weighted_log_prob.exp()?.sum(1)?.log()?;
    let log_resp = weighted_log_prob.sub(&log_prob_norm.expand_dims(1)?)?;
    Ok((log_prob_norm.mean(..)?.to_f64()?, log_resp))
}

/// The M step: weights, means, variances and their inverse square roots.
pub fn m_step(x: &Array, log_resp: &Array) -> Result<(Array, Array, Array, Array)> {
    let (weights, means, covariances) = estimate_gaussian_parameters(x, &log_resp.exp()?)?;
    let inv_cov = covariances.sqrt()?.reciprocal()?;
    Ok((weights, means, covariances, inv_cov))
}

/// The model `train_gmm` returns.
pub struct Gmm {
    /// inverse standard deviations, `(2, n_features)`
    pub inv_cov: Array,
    /// means, `(2, n_features)`
    pub means: Array,
    /// mixture weights
    pub weights: Array,
    /// variances
    pub covariances: Array,
    /// EM iterations run
    pub iterations: usize,
    /// whether the likelihood settled within `tol` before `max_iter`
    pub converged: bool,
}

/// EM from CuPy's start (means drawn around ±3, random variances), until the mean log
/// likelihood changes by less than `tol` or `max_iter` iterations.
pub fn train_gmm(x: &Array, max_iter: usize, tol: f64, seed: u64) -> Result<Gmm> {
    let xp = xp::get_array_module(x);
    let mut rng = xp.default_rng(seed);
    let mean1 = rng.normal(3.0, &xp.asarray(vec![1.0, 2.0], [2])?, [2])?;
    let mean2 = rng.normal(-3.0, &xp.asarray(vec![2.0, 1.0], [2])?, [2])?;
    let means = xp::stack(&[&mean1, &mean2], 0)?;
    let covariances = rng.random([2, 2], None)?;
    em(x, max_iter, tol, means, covariances)
}

/// The EM loop of [`train_gmm`] from given means and variances (weights one half each).
pub fn em(x: &Array, max_iter: usize, tol: f64, mut means: Array, mut covariances: Array) -> Result<Gmm> {
    let xp = xp::get_array_module(x);
    let mut lower_bound = f64::NEG_INFINITY;
    let mut weights = xp.asarray(vec![0.5f32, 0.5], [2])?;
    let mut inv_cov = covariances.sqrt()?.reciprocal()?;
    let mut converged = false;
    let mut iterations = 0;
    for _ in 0..max_iter {
        iterations += 1;
        let prev_lower_bound = lower_bound;
        let (log_prob_norm, log_resp) = e_step(x, &inv_cov, &means, &weights)?;
        (weights, means, covariances, inv_cov) = m_step(x, &log_resp)?;
        lower_bound = log_prob_norm;
        if (lower_bound - prev_lower_bound).abs() < tol {
            converged = true;
            break;
        }
    }
    Ok(Gmm { inv_cov, means, weights, covariances, iterations, converged })
}

/// Each point's most likely component.
pub fn predict(x: &Array, g: &Gmm) -> Result<Array> {
    estimate_log_prob(x, &g.inv_cov, &g.means)?.add(&g.weights.log()?)?.argmax(1)
}

/// `gmm_train.py`'s data: `n` points around (3, 3) with deviations (1, 2), then `n` around
/// (-3, -3) with (2, 1), float32, and their labels (int32).
pub fn data(n: usize, seed: u64) -> Result<(Array, Array)> {
    let mut rng = xp::default_rng(seed);
    let s1 = xp::Array::from_vec(vec![1.0, 2.0], [2])?;
    let s2 = xp::Array::from_vec(vec![2.0, 1.0], [2])?;
    let a = rng.normal(3.0, &s1, [n, 2])?.astype(DType::F32)?;
    let b = rng.normal(-3.0, &s2, [n, 2])?.astype(DType::F32)?;
    let x = xp::concatenate(&[&a, &b], 0)?;
    let y = xp::concatenate(&[&xp::zeros([n], DType::I32)?, &xp::ones([n], DType::I32)?], 0)?;
    Ok((x, y))
}

/// The accuracy in percent of `g` on `(x, y)`.
pub fn accuracy(x: &Array, y: &Array, g: &Gmm) -> Result<f64> {
    predict(x, g)?.eq(y)?.mean(..)?.mul(100)?.to_f64()
}

#[allow(dead_code)]
fn main() -> Result<()> {
    let arg = |i: usize| std::env::args().nth(i);
    let max_iter: usize = arg(1).and_then(|a| a.parse().ok()).unwrap_or(30);
    let tol: f64 = arg(2).and_then(|a| a.parse().ok()).unwrap_or(1e-3);
    let n: usize = arg(3).and_then(|a| a.parse().ok()).unwrap_or(500_000);
    let (x_train, y_train) = data(n, 1)?;
    let (x_test, y_test) = data(100, 2)?;
    for device in xp::devices() {
        let on = |a: &Array| a.to_device(device);
        let (xtr, ytr, xte, yte) = (on(&x_train)?, on(&y_train)?, on(&x_test)?, on(&y_test)?);
        xp::synchronize(device)?;
        let start = std::time::Instant::now();
        let g = train_gmm(&xtr, max_iter, tol, 0)?;
        let (train, test) = (accuracy(&xtr, &ytr, &g)?, accuracy(&xte, &yte, &g)?);
        xp::synchronize(device)?;
        let secs = start.elapsed().as_secs_f64();
        if !g.converged {
            println!("Failed to converge. Try different init parameters or increase max_iter, tol or check for degenerate data.");
        }
        println!(
            " {device}: {secs:.6} sec, {} iterations, train_accuracy {train:.4}, test_accuracy {test:.4}",
            g.iterations
        );
    }
    Ok(())
}
