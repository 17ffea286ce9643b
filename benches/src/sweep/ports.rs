//! Sweep rows of CuPy's example programs ported to xp (issue 27): each row runs the function of
//! `examples/<name>.rs` (included here, so the row times exactly what the example runs) against
//! the same Python code with `xp` NumPy or CuPy, on the same data and the same number of steps.
use super::{many, one, uniform, Row};
use xp::DType;

#[allow(dead_code)]
#[path = "../../../examples/cg.rs"]
mod cg;
#[allow(dead_code)]
#[path = "../../../examples/gmm.rs"]
mod gmm;
#[allow(dead_code)]
#[path = "../../../examples/kmeans.rs"]
mod kmeans;
#[allow(dead_code)]
#[path = "../../../examples/map_reduce.rs"]
mod map_reduce;
#[allow(dead_code)]
#[path = "../../../examples/monte_carlo.rs"]
mod monte_carlo;

/// CuPy's `monte_carlo.py` pricing: on CuPy its own `ElementwiseKernel` (the text xp's example
/// runs), on NumPy the same estimate vectorised (NumPy's normals, one (options, samples) array).
fn monte_carlo_py() -> String {
    format!(
        r#"
OPERATION = r"""{}"""
PREAMBLE = r"""{}"""
if hasattr(xp, "ElementwiseKernel"):
    kernel = xp.ElementwiseKernel("T s, T x, T t, T r, T v, int32 n_samples, int32 seed", "T call",
                                  OPERATION, "monte_carlo_kernel", preamble=PREAMBLE)
    def prices(s, x, t, r, v, n_threads, n_samples, seed):
        call = xp.empty((len(s), n_threads), dtype=xp.float64)
        kernel(s[:, None], x[:, None], t[:, None], r, v, n_samples, seed, call)
        return call.mean(axis=1)
else:
    def prices(s, x, t, r, v, n_threads, n_samples, seed):
        p = xp.random.default_rng(seed).standard_normal((len(s), n_threads * n_samples))
        growth = xp.exp(((r - v * v / 2) * t)[:, None] + (v * xp.sqrt(t))[:, None] * p)
        payoff = xp.maximum(s[:, None] * growth - x[:, None], 0)
        return xp.exp(-r * t) * payoff.mean(axis=1)
s = uniform((1000,)).astype(xp.float64) * 25 + 5
x = uniform((1000,), 1).astype(xp.float64) * 99 + 1
t = uniform((1000,), 2).astype(xp.float64) * 9.75 + 0.25
"#,
        monte_carlo::MONTE_CARLO_OPERATION,
        monte_carlo::MONTE_CARLO_PREAMBLE
    )
}

/// CuPy's `cg.py` `fit`, `tol` 0 so that it runs `max_iter` steps.
const CG_PY: &str = "
def fit(A, b, tol, max_iter):
    x = xp.zeros_like(b, dtype=xp.float64)
    r0 = b - xp.dot(A, x)
    p = r0
    for i in range(max_iter):
        a = xp.inner(r0, r0) / xp.inner(p, xp.dot(A, p))
        x += a * p
        r1 = r0 - a * xp.dot(A, p)
        if xp.linalg.norm(r1) < tol:
            return x
        b = xp.inner(r1, r1) / xp.inner(r0, r0)
        p = r1 + b * p
        r0 = r1
    return x
M = xp.floor(uniform((2000, 2000)).astype(xp.float64) * 100) - 50
A = M @ M.T
b = xp.dot(A, xp.floor(uniform((2000,), 1).astype(xp.float64) * 100) - 50)
";

/// CuPy's `kmeans.py` `fit` (its NumPy branch), from the given initial points.
const KMEANS_PY: &str = "
def fit(X, init, n_clusters, max_iter):
    pred = xp.zeros(len(X))
    centers = X[init]
    data_num, data_dim = X.shape
    for _ in range(max_iter):
        X2 = X.repeat(n_clusters, axis=0).reshape(data_num, n_clusters, data_dim)
        c = xp.broadcast_to(centers, (data_num, n_clusters, data_dim))
        new_pred = xp.argmin(xp.sum((X2 - c) ** 2, axis=2), axis=1)
        if xp.all(new_pred == pred):
            break
        pred = new_pred
        centers = xp.empty((0, data_dim))
        for i in range(n_clusters):
            centers = xp.vstack((centers, X[pred == i].mean(axis=0)))
    return centers
s = uniform((500, 3000)).astype(xp.float64)
X = xp.concatenate([s + 1, s - 1])
init = xp.asarray([0, 500])
";

/// CuPy's `gmm.py` (EM from fixed means and variances).
const GMM_PY: &str = "
def estimate_gaussian_parameters(X, resp):
    nk = xp.sum(resp, axis=0)
    means = xp.dot(resp.T, X) / nk[:, None]
    avg_X2 = xp.dot(resp.T, X * X) / nk[:, None]
    avg_X_means = means * xp.dot(resp.T, X) / nk[:, None]
    covariances = avg_X2 - 2 * avg_X_means + means ** 2
    return nk / len(X), means, covariances
def estimate_log_prob(X, inv_cov, means):
    n_features = X.shape[1]
    log_det = xp.sum(xp.log(inv_cov), axis=1)
    precisions = inv_cov ** 2
    log_prob = xp.sum((means ** 2 * precisions), 1) - 2 * xp.dot(X, (means * precisions).T) + xp.dot(X ** 2, precisions.T)
    return -0.5 * (n_features * xp.log(2 * xp.pi) + log_prob) + log_det
def em(X, max_iter, means, covariances):
    weights = xp.array([0.5, 0.5], dtype=xp.float32)
    inv_cov = 1 / xp.sqrt(covariances)
    for _ in range(max_iter):
        wlp = estimate_log_prob(X, inv_cov, means) + xp.log(weights)
        log_prob_norm = xp.log(xp.sum(xp.exp(wlp), axis=1))
        log_resp = wlp - log_prob_norm[:, None]
        float(xp.mean(log_prob_norm))
        weights, means, covariances = estimate_gaussian_parameters(X, xp.exp(log_resp))
        inv_cov = 1 / xp.sqrt(covariances)
    return means
X = (uniform((1000000, 2)) * 12 - 6).astype(xp.float32)
means0 = xp.asarray([[3.0, 3.0], [-3.0, -3.0]])
covs0 = xp.asarray([[1.0, 2.0], [2.0, 1.0]])
";

/// One piece of the GMM step on (R, X, P).
type Piece = fn(&xp::Array, &xp::Array, &xp::Array) -> xp::Result<xp::Array>;

pub(super) fn rows(r: &mut Vec<Row>, _gpu: bool) {
    r.push(Row::new("port.cg", "2000x2000 f64, 50 steps", CG_PY, "fit(A, b, 0.0, 50)", |d| {
        let m = uniform(&[2000, 2000], 0, d)?.astype(DType::F64)?.mul(100)?.floor()?.sub(50)?;
        let a = xp::matmul(&m, &m.t()?)?;
        let x = uniform(&[2000], 1, d)?.astype(DType::F64)?.mul(100)?.floor()?.sub(50)?;
        let b = xp::dot(&a, &x)?;
        one(move || Ok(cg::fit(&a, &b, 0.0, 50)?.0))
    }));
    r.push(Row::new("port.kmeans", "1000x3000 f64, 2 clusters", KMEANS_PY, "fit(X, init, 2, 10)", |d| {
        let s = uniform(&[500, 3000], 0, d)?.astype(DType::F64)?;
        let x = xp::concatenate(&[&s.add(1.0)?, &s.sub(1.0)?], 0)?;
        let init = xp::on(d).asarray(vec![0i64, 500], [2])?;
        one(move || {
            let mut k = kmeans::KMeans::new(2, 10);
            k.fit_from(&x, &init)?;
            Ok(k.centers.expect("fitted"))
        })
    }));
    r.push(Row::new("port.gmm", "10^6x2 f32, 10 EM steps", GMM_PY, "em(X, 10, means0, covs0)", |d| {
        let x = uniform(&[1_000_000, 2], 0, d)?.mul(12.0)?.sub(6.0)?;
        let means0 = xp::on(d).asarray(vec![3.0, 3.0, -3.0, -3.0], [2, 2])?;
        let covs0 = xp::on(d).asarray(vec![1.0, 2.0, 2.0, 1.0], [2, 2])?;
        one(move || Ok(gmm::em(&x, 10, 0.0, means0.clone(), covs0.clone())?.means))
    }));
    // the GMM step's pieces, each alone: a tall (10^6, 2) operand reduced along its long axis, its
    // transposed product with another (k = 10^6, m = n = 2), and the thin products and row sums
    let tall = "R = uniform((1000000, 2), 1).astype(xp.float64); X = (uniform((1000000, 2)) * 12 - 6).astype(xp.float32); P = xp.asarray([[1.0, 2.0], [3.0, 4.0]])";
    let pieces: [(&str, &str, Piece); 5] = [
        ("gmm.sum_axis0", "xp.sum(R, axis=0)", |r, _, _| r.sum(0)),
        ("gmm.dot_rT_x", "xp.dot(R.T, X)", |r, x, _| xp::dot(&r.t()?, x)),
        ("gmm.dot_x_pT", "xp.dot(X, P.T)", |_, x, p| xp::dot(x, &p.t()?)),
        ("gmm.logsumexp_rows", "xp.log(xp.sum(xp.exp(R), axis=1))", |r, _, _| r.exp()?.sum(1)?.log()),
        ("gmm.mean_all", "xp.mean(R)", |r, _, _| r.mean(..)),
    ];
    for (name, py, f) in pieces {
        r.push(Row::new(name, "(10^6, 2) f64 / f32", tall, py, move |d| {
            let rr = uniform(&[1_000_000, 2], 1, d)?.astype(DType::F64)?;
            let x = uniform(&[1_000_000, 2], 0, d)?.mul(12.0)?.sub(6.0)?;
            let p = xp::on(d).asarray(vec![1.0, 2.0, 3.0, 4.0], [2, 2])?;
            one(move || f(&rr, &x, &p))
        }));
    }
    r.push(
        Row::new(
            "port.map_reduce",
            "10 x 2^20 f64",
            "g = xp.random.default_rng(1)",
            "sum(xp.matmul(g.standard_normal(size=(1, 1 << 20)), g.standard_normal(size=(1 << 20, 1))) for _ in range(10))",
            // different generators: nothing to compare, only the time
            |d| many(move || map_reduce::map_reduce(d, 10, 1 << 20, 1).map(|_| vec![])),
        )
        .out("[]"),
    );
    r.push(
        Row::new(
            "port.monte_carlo",
            "1000 options x 10^4 samples f64",
            monte_carlo_py(),
            "prices(s, x, t, 0.02, 0.3, 100, 100, 0)",
            |d| {
                let col = |seed, k: f64, c: f64| -> xp::Result<xp::Array> {
                    uniform(&[1000], seed, d)?.astype(DType::F64)?.mul(k)?.add(c)
                };
                let (s, x, t) = (col(0, 25.0, 5.0)?, col(1, 99.0, 1.0)?, col(2, 9.75, 0.25)?);
                let kernel = monte_carlo::monte_carlo_kernel()?;
                one(move || monte_carlo::compute_option_prices(&kernel, &s, &x, &t, 0.02, 0.3, 100, 100, 0))
            },
        )
        // different samples: the prices agree only to the Monte Carlo error
        .out("[]"),
    );
    // the map step's pieces: the two draws, and the (1, 2^20) @ (2^20, 1) product
    r.push(
        Row::new(
            "mr.normal_pair",
            "2 x 2^20 f64",
            "g = xp.random.default_rng(1)",
            "(g.standard_normal(size=(1, 1 << 20)), g.standard_normal(size=(1 << 20, 1)))",
            |d| {
                let mut rng = xp::on(d).default_rng(1);
                many(move || {
                    rng.normal(0.0, 1.0, [1, 1 << 20])?;
                    rng.normal(0.0, 1.0, [1 << 20, 1])?;
                    Ok(vec![])
                })
            },
        )
        .out("[]"),
    );
    let rc =
        "x = uniform((1, 1 << 20)).astype(xp.float64) - 0.5; y = uniform((1 << 20, 1), 1).astype(xp.float64) - 0.5";
    r.push(Row::new("mr.matmul_row_col", "(1, 2^20) @ (2^20, 1) f64", rc, "xp.matmul(x, y)", |d| {
        let x = uniform(&[1, 1 << 20], 0, d)?.astype(DType::F64)?.sub(0.5)?;
        let y = uniform(&[1 << 20, 1], 1, d)?.astype(DType::F64)?.sub(0.5)?;
        one(move || xp::matmul(&x, &y))
    }));
}
