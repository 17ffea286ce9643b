//! Products and numpy.linalg against NumPy (tests/data/products.json and linalg.json, made by
//! scripts/gen_linalg_reference.py): every case on every device, each input in every layout
//! variant (contiguous, F-ordered, stepped, negative-step, offset), dtype, shape and values
//! compared with the case's tolerance, errors where NumPy errors (and the failing matrix's
//! position where the case names it). Factors that are unique only up to a phase per vector
//! (Q and R of QR, singular vectors, eigenvectors) are brought to one phase convention on both
//! sides before the comparison; eigenvalues of general matrices are compared as sorted sets.
use super::common;
use serde_json::Value;
use xp::linalg::{self, NormOrd, QrMode, Uplo};
use xp::{Array, Complex64, Device, Error, LinAlgKind, Result, TensorAxes};
use xp_testing::{layouts, Failures, Tolerance};

fn isz(v: &Value) -> isize {
    v.as_i64().expect("integer parameter") as isize
}

fn ord(v: &Value) -> Option<NormOrd> {
    match v {
        Value::Null => None,
        Value::String(s) if s == "fro" => Some(NormOrd::Fro),
        Value::String(s) if s == "nuc" => Some(NormOrd::Nuc),
        Value::String(s) if s == "inf" => Some(NormOrd::Inf),
        Value::String(s) if s == "-inf" => Some(NormOrd::NegInf),
        v => Some(NormOrd::from(v.as_f64().expect("numeric order"))),
    }
}

fn axes(v: &Value) -> Option<Vec<isize>> {
    v.as_array().map(|a| a.iter().map(isz).collect())
}

/// Run case `op` on inputs `x`; every output in NumPy's order.
fn run(op: &str, x: &[Array], p: &Value) -> Result<Vec<Array>> {
    let one = |r: Result<Array>| r.map(|v| vec![v]);
    let refs: Vec<&Array> = x.iter().collect();
    let uplo = || if p["uplo"] == "U" { Uplo::Upper } else { Uplo::Lower };
    match op {
        "matmul" => one(xp::matmul(&x[0], &x[1])),
        "dot" => one(xp::dot(&x[0], &x[1])),
        "vdot" => one(xp::vdot(&x[0], &x[1])),
        "inner" => one(xp::inner(&x[0], &x[1])),
        "outer" => one(xp::outer(&x[0], &x[1])),
        "tensordot" => {
            let t = match &p["axes"] {
                Value::Array(v) => TensorAxes::Pairs(axes(&v[0]).unwrap(), axes(&v[1]).unwrap()),
                n => TensorAxes::Last(n.as_u64().unwrap() as usize),
            };
            one(xp::tensordot(&x[0], &x[1], t))
        }
        "kron" => one(xp::kron(&x[0], &x[1])),
        "diagonal" => one(x[0].diagonal(isz(&p["offset"]), isz(&p["axis1"]), isz(&p["axis2"]))),
        "trace" => one(x[0].trace(isz(&p["offset"]), isz(&p["axis1"]), isz(&p["axis2"]))),
        "matrix_transpose" => one(xp::matrix_transpose(&x[0])),
        "cross" => one(xp::cross_axes(&x[0], &x[1], isz(&p["axisa"]), isz(&p["axisb"]), isz(&p["axisc"]))),
        "vecdot" => one(xp::vecdot(&x[0], &x[1], isz(&p["axis"]))),
        "multi_dot" => one(linalg::multi_dot(&refs)),
        "matrix_power" => one(linalg::matrix_power(&x[0], p["n"].as_i64().unwrap())),
        "einsum" => one(xp::einsum(p["subscripts"].as_str().unwrap(), &refs)),
        "solve" => one(linalg::solve(&x[0], &x[1])),
        "inv" => one(linalg::inv(&x[0])),
        "det" => one(linalg::det(&x[0])),
        "slogdet" => linalg::slogdet(&x[0]).map(|r| vec![r.sign, r.logabsdet]),
        "cholesky" => one(linalg::cholesky(&x[0], if p["upper"] == true { Uplo::Upper } else { Uplo::Lower })),
        "qr" => {
            let mode = match p["mode"].as_str().unwrap() {
                "reduced" => QrMode::Reduced,
                "complete" => QrMode::Complete,
                _ => QrMode::R,
            };
            linalg::qr(&x[0], mode).map(|f| f.q.into_iter().chain([f.r]).collect())
        }
        "svd" if p["compute_uv"] == false => one(linalg::svdvals(&x[0])),
        "svd" => linalg::svd(&x[0], p["full_matrices"] == true).map(|f| vec![f.u, f.s, f.vh]),
        "svdvals" => one(linalg::svdvals(&x[0])),
        "eigh" => linalg::eigh(&x[0], uplo()).map(|f| vec![f.w, f.v]),
        "eigvalsh" => one(linalg::eigvalsh(&x[0], uplo())),
        "eig" => linalg::eig(&x[0]).map(|f| vec![f.w, f.v]),
        "eigvals" => one(linalg::eigvals(&x[0])),
        "lstsq" => linalg::lstsq(&x[0], &x[1], p["rcond"].as_f64()).and_then(|r| {
            let rank = xp::on(x[0].device()).full([], r.rank as i64, xp::DType::I64)?;
            Ok(vec![r.x, r.residuals, rank, r.s])
        }),
        "pinv" => one(linalg::pinv(&x[0], p["rcond"].as_f64())),
        "matrix_rank" => one(linalg::matrix_rank(&x[0], p["tol"].as_f64())),
        "norm" => {
            let ax = axes(&p["axis"]);
            if p["keepdims"] == true {
                one(linalg::norm_keepdim(&x[0], ord(&p["ord"]), ax))
            } else {
                one(linalg::norm(&x[0], ord(&p["ord"]), ax))
            }
        }
        "cond" => one(linalg::cond(&x[0], ord(&p["p"]))),
        "tensorsolve" => one(linalg::tensorsolve(&x[0], &x[1], axes(&p["axes"]).as_deref())),
        "tensorinv" => one(linalg::tensorinv(&x[0], p["ind"].as_u64().unwrap() as usize)),
        _ => panic!("unknown op {op}"),
    }
}

/// A host copy: shape and values widened to complex128.
struct Host {
    shape: Vec<usize>,
    v: Vec<Complex64>,
}

impl Host {
    fn of(a: &Array) -> Host {
        Host { shape: a.shape().to_vec(), v: xp_testing::widen(&a.to_buffer().expect("readable")) }
    }
    fn from_json(v: &Value) -> (xp::DType, Host) {
        let (buf, shape) = common::array(v);
        (buf.dtype(), Host { shape, v: xp_testing::widen(&buf) })
    }
    /// (rows, cols, number of matrices) of a stack.
    fn dims(&self) -> (usize, usize, usize) {
        let n = self.shape.len();
        let (r, c) = (self.shape[n - 2], self.shape[n - 1]);
        (r, c, self.v.len().checked_div(r * c).unwrap_or(0))
    }
    /// Multiply column `j` of every matrix of the stack by `f(b)` where `b` is the matrix index.
    fn scale_col(&mut self, j: usize, f: impl Fn(usize) -> Complex64) {
        let (r, c, nb) = self.dims();
        for b in 0..nb {
            for i in 0..r {
                self.v[b * r * c + i * c + j] *= f(b);
            }
        }
    }
    fn scale_row(&mut self, i: usize, f: impl Fn(usize) -> Complex64) {
        let (r, c, nb) = self.dims();
        for b in 0..nb {
            for j in 0..c {
                self.v[b * r * c + i * c + j] *= f(b);
            }
        }
    }
    /// The phase that makes the largest-magnitude entry of column `j` of matrix `b` real positive.
    fn col_phase(&self, b: usize, j: usize) -> Complex64 {
        let (r, c, _) = self.dims();
        let mut best = Complex64::new(0.0, 0.0);
        for i in 0..r {
            let x = self.v[b * r * c + i * c + j];
            if x.norm() > best.norm() * (1.0 + 1e-6) {
                best = x;
            }
        }
        if best.norm() == 0.0 {
            Complex64::new(1.0, 0.0)
        } else {
            (best / best.norm()).conj()
        }
    }
    /// Keep only the first `k` columns (or rows) of every matrix.
    fn first(&mut self, k: usize, cols: bool) {
        let (r, c, nb) = self.dims();
        let mut out = vec![];
        for b in 0..nb {
            for i in 0..r {
                for j in 0..c {
                    if (cols && j < k) || (!cols && i < k) {
                        out.push(self.v[b * r * c + i * c + j]);
                    }
                }
            }
        }
        let n = self.shape.len();
        if cols {
            self.shape[n - 1] = k.min(c);
        } else {
            self.shape[n - 2] = k.min(r);
        }
        self.v = out;
    }
}

/// Bring sign/phase-ambiguous factors to one convention (in place), per op.
/// The unit factor that makes `x` real and non-negative (1 for zero).
fn unphase(x: Complex64) -> Complex64 {
    if x.norm() == 0.0 {
        Complex64::new(1.0, 0.0)
    } else {
        (x / x.norm()).conj()
    }
}

fn canonical(op: &str, p: &Value, outs: &mut [Host]) {
    match op {
        // RQ: column c - k + t of R and row c - k + t of Q share a phase (make R's "diagonal"
        // entry, at row m - k + t, real positive); Q's first c - k rows (full mode, m < n) are
        // any orthonormal complement
        "rq" => {
            let (m, c, nb) = outs[0].dims();
            let k = m.min(c);
            for t in 0..k {
                let (row, col) = (m - k + t, c - k + t);
                let phases: Vec<Complex64> = (0..nb).map(|b| unphase(outs[0].v[b * m * c + row * c + col])).collect();
                outs[0].scale_col(col, |b| phases[b]);
                if outs.len() > 1 {
                    outs[1].scale_row(col, |b| phases[b].conj());
                }
            }
            if outs.len() > 1 {
                for t in 0..c - k {
                    outs[1].scale_row(t, |_| Complex64::new(0.0, 0.0));
                }
            }
        }
        // SciPy's pivoted QR: the permutation last, the factors as without pivoting
        "qr" if p["pivoting"] == true => {
            let k = outs.len() - 1;
            canonical("qr", &Value::Null, &mut outs[..k])
        }
        "qr" if outs.len() == 2 => {
            // Column j of Q and row j of R are determined up to a common phase: make R[j, j] real
            // positive. Columns of a complete Q beyond min(m, n) are any orthonormal complement.
            let (m, n, _) = outs[1].dims();
            let k = m.min(n);
            for j in 0..k {
                let ph = |h: &Host, b: usize| unphase(h.v[b * m * n + j * n + j]);
                let phases: Vec<Complex64> = (0..outs[1].dims().2).map(|b| ph(&outs[1], b)).collect();
                outs[1].scale_row(j, |b| phases[b]);
                outs[0].scale_col(j, |b| phases[b].conj());
            }
            outs[0].first(k, true);
            outs[1].first(k, false);
        }
        "qr" => {
            let (m, n, nb) = outs[0].dims();
            for j in 0..m.min(n) {
                let phases: Vec<Complex64> = (0..nb).map(|b| unphase(outs[0].v[b * m * n + j * n + j])).collect();
                outs[0].scale_row(j, |b| phases[b]);
            }
        }
        "svd" if outs.len() == 3 => {
            let k = *outs[1].shape.last().unwrap();
            for j in 0..k {
                let phases: Vec<Complex64> = (0..outs[0].dims().2).map(|b| outs[0].col_phase(b, j)).collect();
                outs[0].scale_col(j, |b| phases[b]);
                outs[2].scale_row(j, |b| phases[b].conj());
            }
            outs[0].first(k, true);
            outs[2].first(k, false);
        }
        "eigh" | "eig" | "eigh_tridiagonal" | "eig_banded" if outs.len() == 2 => {
            if op == "eig" {
                sort_eig(outs);
            }
            let n = *outs[0].shape.last().unwrap();
            for j in 0..n {
                let phases: Vec<Complex64> = (0..outs[1].dims().2).map(|b| outs[1].col_phase(b, j)).collect();
                outs[1].scale_col(j, |b| phases[b]);
            }
        }
        "eigvals" => sort_eig(outs),
        _ => {}
    }
    let _ = p;
}

/// Order the eigenvalues of each matrix by (real, imaginary) part, eigenvector columns with them.
fn sort_eig(outs: &mut [Host]) {
    let n = *outs[0].shape.last().unwrap();
    if n == 0 {
        return;
    }
    let nb = outs[0].v.len() / n;
    for b in 0..nb {
        let w = outs[0].v[b * n..(b + 1) * n].to_vec();
        let key = |z: Complex64| ((z.re * 1e6).round() as i64, (z.im * 1e6).round() as i64);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| key(w[i]));
        for (dst, &src) in order.iter().enumerate() {
            outs[0].v[b * n + dst] = w[src];
        }
        if outs.len() > 1 {
            let m = outs[1].v[b * n * n..(b + 1) * n * n].to_vec();
            for i in 0..n {
                for (dst, &src) in order.iter().enumerate() {
                    outs[1].v[b * n * n + i * n + dst] = m[i * n + src];
                }
            }
        }
    }
}

fn close(a: Complex64, e: Complex64, t: Tolerance) -> bool {
    let ok = |x: f64, y: f64| {
        if y.is_nan() {
            x.is_nan()
        } else if y.is_infinite() {
            x == y
        } else {
            (x - y).abs() <= t.atol + t.rtol * y.abs()
        }
    };
    ok(a.re, e.re) && ok(a.im, e.im)
}

fn compare(
    op: &str,
    p: &Value,
    got: &[Array],
    want: &[Value],
    tol: Option<Tolerance>,
) -> std::result::Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} outputs, NumPy gives {}", got.len(), want.len()));
    }
    let mut g: Vec<Host> = got.iter().map(Host::of).collect();
    let mut w: Vec<Host> = vec![];
    for (k, (a, e)) in got.iter().zip(want).enumerate() {
        let (dt, h) = Host::from_json(e);
        // lstsq's rank is a Python int in NumPy (int32 in the data); ours is an int64 array.
        if a.dtype() != dt && !(op == "lstsq" && k == 2) {
            return Err(format!("output {k}: dtype {} != NumPy's {dt}", a.dtype()));
        }
        if a.shape() != h.shape.as_slice() {
            return Err(format!("output {k}: shape {:?} != NumPy's {:?}", a.shape(), h.shape));
        }
        w.push(h);
    }
    canonical(op, p, &mut g);
    canonical(op, p, &mut w);
    for (k, (a, e)) in g.iter().zip(&w).enumerate() {
        let t = tol.unwrap_or_else(|| xp_testing::tolerance(got[k].dtype()));
        // Values a tolerance relative to the output's largest magnitude (factors hold small entries).
        let scale = e.v.iter().map(|z| z.norm()).filter(|x| x.is_finite()).fold(0.0f64, f64::max).max(1.0);
        let t = Tolerance { rtol: t.rtol, atol: t.atol * scale };
        for (i, (x, y)) in a.v.iter().zip(&e.v).enumerate() {
            if !close(*x, *y, t) {
                return Err(format!("output {k} element {i}: {x} != NumPy's {y} (rtol {}, atol {})", t.rtol, t.atol));
            }
        }
    }
    Ok(())
}

/// The layout variants to run: for each variant name, every input in that variant where it has
/// one (0-d and 1-d inputs have fewer), else contiguous.
fn variants(inputs: &[(xp::HostBuffer, Vec<usize>)], dev: Device) -> Vec<(&'static str, Vec<Array>)> {
    let per: Vec<Vec<(&'static str, Array)>> =
        inputs.iter().map(|(b, s)| layouts(b, s, dev).expect("layouts")).collect();
    let mut out = vec![];
    for name in ["contiguous", "transposed", "stepped", "reversed", "offset"] {
        if name != "contiguous" && !per.iter().any(|v| v.iter().any(|(n, _)| *n == name)) {
            continue;
        }
        let arrays = per.iter().map(|v| v.iter().find(|(n, _)| *n == name).unwrap_or(&v[0]).1.clone()).collect();
        out.push((name, arrays));
    }
    out
}

/// How a test module runs a case's op on its inputs: every output in the reference's order.
pub(super) type Runner = fn(&str, &[Array], &Value) -> Result<Vec<Array>>;

fn one_case(f: &mut Failures, dev: Device, case: &Value) {
    one_case_with(f, dev, case, run)
}

/// Run `case` through `run` on `dev` in every layout variant of its inputs and compare with the
/// reference (values, dtypes, shapes, errors and the failing matrix they name, inputs untouched).
pub(super) fn one_case_with(f: &mut Failures, dev: Device, case: &Value, run: Runner) {
    let op = case["op"].as_str().unwrap();
    let inputs: Vec<_> = case["args"].as_array().unwrap().iter().map(common::array).collect();
    let tol = case.get("tol").map(|t| Tolerance { rtol: t[0].as_f64().unwrap(), atol: t[1].as_f64().unwrap() });
    let want: Option<Vec<Value>> = case
        .get("result")
        .map(|r| vec![r.clone()])
        .or_else(|| case.get("results").map(|r| r.as_array().unwrap().clone()));
    for (name, x) in variants(&inputs, dev) {
        let before: Vec<Vec<Complex64>> = x.iter().map(|a| Host::of(a).v).collect();
        let got = run(op, &x, &case["params"]);
        let ctx = format!("{op} {} on {dev}, {name}", case["params"]);
        match (&got, &want) {
            (Ok(g), Some(w)) => f.add(compare(op, &case["params"], g, w, tol).map_err(|m| format!("{ctx}: {m}"))),
            (Err(e), None) => {
                if let Some(idx) = case.get("error_index") {
                    let at = match e {
                        Error::LinAlg { kind: LinAlgKind::Singular { index }, .. } => Some(*index),
                        Error::LinAlg { kind: LinAlgKind::NotPositiveDefinite { index, .. }, .. } => Some(*index),
                        Error::LinAlg { kind: LinAlgKind::SingularDiagonal { index, .. }, .. } => Some(*index),
                        _ => None,
                    };
                    if at != idx.as_u64().map(|i| i as usize) {
                        f.add(Err(format!("{ctx}: error {e} should name matrix {idx}")));
                    }
                }
            }
            (Ok(_), None) => f.add(Err(format!("{ctx}: NumPy raises ({}), xp returned a result", case["error"]))),
            (Err(e), Some(_)) => f.add(Err(format!("{ctx}: unexpected error {e}"))),
        }
        // A failed (or successful) call leaves its inputs untouched.
        for (k, a) in x.iter().enumerate() {
            // (NaN inputs count as unchanged where they are still NaN)
            let same = |x: &Complex64, y: &Complex64| x == y || (x.is_nan() && y.is_nan());
            if !Host::of(a).v.iter().zip(&before[k]).all(|(x, y)| same(x, y)) {
                f.add(Err(format!("{ctx}: input {k} was modified")));
            }
        }
    }
}

fn products(f: &mut Failures, dev: Device, case: &Value) {
    one_case(f, dev, case)
}
fn decompositions(f: &mut Failures, dev: Device, case: &Value) {
    one_case(f, dev, case)
}

common::split_cases!(products, "products");
common::split_cases!(decompositions, "linalg");
