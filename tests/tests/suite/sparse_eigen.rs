//! Sparse eigensolvers against the dense decomposition of the same matrix
//! (tests/data/sparse_eigen.json, made by scripts/gen_sparse_eigen_reference.py): `eigsh` on
//! CuPy's failing cases (the identity; the float32 2-D Laplacian of a 26 × 26 grid with k = 1,
//! 20 and 300, whose eigenvalues are largely double) and on random real symmetric and complex
//! Hermitian matrices with every `which` and shift-invert; `eigs` on non-symmetric matrices;
//! `svds`'s singular values. Each result is checked for its values (to 1e-9 relative in double,
//! 2e-4 in single precision), its residuals `‖A v − λ v‖`, and for `eigsh` the orthonormality
//! of its eigenvectors: `‖VᴴV − I‖_max ≤ 100 · n · eps`, on every device.
use super::common::split_cases;
use serde_json::Value;
use xp::sparse::linalg::{eigs, eigsh, svds, EigOptions, Which};
use xp::sparse::CsrArray;
use xp::{Array, Complex64 as C, DType, Device};
use xp_testing::Failures;

fn load(v: &Value, dev: Device) -> Array {
    super::common::load_on(v, dev)
}

fn matrix(c: &Value, dev: Device) -> CsrArray {
    super::common::coo_case(c, dev)
}

fn which(s: &str) -> Which {
    match s {
        "LM" => Which::LM,
        "SM" => Which::SM,
        "LA" => Which::LA,
        "SA" => Which::SA,
        "BE" => Which::BE,
        "SR" => Which::SR,
        "LI" => Which::LI,
        _ => panic!("which {s}"),
    }
}

fn complex(a: &Array) -> Vec<C> {
    a.astype(DType::C128).unwrap().to_vec::<C>().unwrap()
}

fn single(c: &Value) -> bool {
    matches!(c["dtype"].as_str().unwrap(), "float32" | "complex64")
}

fn add(f: &mut Failures, ok: bool, msg: impl FnOnce() -> String) {
    f.add(if ok { Ok(()) } else { Err(msg()) });
}

/// Largest distance from a wanted value to the nearest got value not matched before (greedy;
/// sorting by real part would pair a conjugate pair's members wrongly when rounding orders them).
fn value_error(got: &[C], want: &[C]) -> f64 {
    if got.len() != want.len() {
        return f64::INFINITY;
    }
    let mut used = vec![false; got.len()];
    let mut worst: f64 = 0.0;
    for w in want {
        let (j, d) = got
            .iter()
            .enumerate()
            .filter(|(j, _)| !used[*j])
            .map(|(j, g)| (j, (g - w).norm()))
            .min_by(|a, b| a.1.partial_cmp(&b.1).unwrap())
            .unwrap();
        used[j] = true;
        worst = worst.max(d);
    }
    worst
}

/// `max_i ‖A v_i − λ_i v_i‖` for the columns of `v`.
fn residual(a: &CsrArray, w: &Array, v: &Array) -> f64 {
    let dt = if v.dtype().is_complex() || w.dtype().is_complex() { DType::C128 } else { DType::F64 };
    let av = a.matmul(&v.astype(dt).unwrap()).unwrap();
    let lv = v.astype(dt).unwrap().mul(&w.astype(dt).unwrap().reshape([1, -1]).unwrap()).unwrap();
    let r = av.sub(&lv).unwrap();
    complex(&xp::linalg::norm(&r, None, 0).unwrap()).iter().map(|x| x.re).fold(0.0, f64::max)
}

/// `‖VᴴV − I‖_max`.
fn orthogonality(v: &Array) -> f64 {
    let v = v.astype(DType::C128).unwrap();
    let g = v.conj().unwrap().t().unwrap().matmul(&v).unwrap();
    let k = g.shape()[0];
    let e = g.sub(&xp::eye(k, None, 0, DType::C128).unwrap().to_device(v.device()).unwrap()).unwrap();
    complex(&e).iter().map(|x| x.norm()).fold(0.0, f64::max)
}

fn eigen_case(f: &mut Failures, dev: Device, c: &Value) {
    let name = c["name"].as_str().unwrap();
    let group = c["group"].as_str().unwrap();
    let a = matrix(c, dev);
    let k = c["k"].as_u64().unwrap() as usize;
    let want = complex(&load(if group == "svds" { &c["s"] } else { &c["w"] }, Device::Cpu));
    let scale = want.iter().map(|x| x.norm()).fold(1.0, f64::max);
    let (vtol, eps) = if single(c) { (2e-4, f32::EPSILON as f64) } else { (1e-9, f64::EPSILON) };
    let sigma = c.get("sigma").and_then(|s| s.as_f64());
    let opts = || EigOptions {
        which: c.get("which").map_or(Which::LM, |w| which(w.as_str().unwrap())),
        sigma,
        ..Default::default()
    };
    let n = a.shape()[0];
    match group {
        "eigsh" | "eigs" => {
            let r = if group == "eigsh" { eigsh(&a, k, opts()) } else { eigs(&a, k, opts()) };
            let r = match r {
                Ok(r) => r,
                Err(e) => return f.add(Err(format!("{name} on {dev}: {e}"))),
            };
            add(f, r.w.device() == dev && r.v.device() == dev, || format!("{name}: not on {dev}"));
            add(f, r.v.shape() == [n, k], || format!("{name} on {dev}: v of shape {:?}", r.v.shape()));
            let got = complex(&r.w);
            let e = value_error(&got, &want);
            add(f, e <= vtol * scale, || {
                format!("{name} on {dev}: values off by {e:e} (scale {scale}): got {got:?}, want {want:?}")
            });
            let res = residual(&a, &r.w, &r.v);
            add(f, res <= vtol * scale * 10.0, || format!("{name} on {dev}: residual {res:e}"));
            if group == "eigsh" {
                let w =
                    r.w.to_vec::<f64>().ok().or_else(|| r.w.astype(DType::F64).unwrap().to_vec::<f64>().ok()).unwrap();
                add(f, w.windows(2).all(|p| p[0] <= p[1]), || format!("{name} on {dev}: not ascending"));
                let o = orthogonality(&r.v);
                add(f, o <= 100.0 * n as f64 * eps, || format!("{name} on {dev}: ‖VᴴV − I‖ = {o:e}"));
            }
        }
        _ => {
            let r = match svds(&a, k, EigOptions::default()) {
                Ok(r) => r,
                Err(e) => return f.add(Err(format!("{name} on {dev}: {e}"))),
            };
            let got = complex(&r.s);
            let e = value_error(&got, &want);
            add(f, e <= vtol * scale, || format!("{name} on {dev}: singular values off by {e:e}"));
            let g: Vec<f64> = got.iter().map(|x| x.re).collect();
            add(f, g.windows(2).all(|p| p[0] <= p[1]), || format!("{name} on {dev}: not ascending"));
            // A v = σ u
            let dt = if r.u.dtype().is_complex() { DType::C128 } else { DType::F64 };
            let av = a.matmul(&r.vh.conj().unwrap().t().unwrap().astype(dt).unwrap()).unwrap();
            let su = r.u.astype(dt).unwrap().mul(&r.s.astype(dt).unwrap().reshape([1, -1]).unwrap()).unwrap();
            let res = complex(&av.sub(&su).unwrap()).iter().map(|x| x.norm()).fold(0.0, f64::max);
            add(f, res <= vtol * scale * 10.0, || format!("{name} on {dev}: ‖A v − σ u‖ = {res:e}"));
            let (ou, ov) = (orthogonality(&r.u), orthogonality(&r.vh.conj().unwrap().t().unwrap()));
            let lim = 100.0 * (a.shape()[0] + a.shape()[1]) as f64 * eps;
            add(f, ou <= lim && ov <= lim, || format!("{name} on {dev}: orthogonality {ou:e} {ov:e}"));
        }
    }
}
split_cases!(eigen_case, "sparse_eigen");

/// `lobpcg` finds the same extreme eigenvalues as the dense decomposition (the reference's LA
/// and SA cases of the random Hermitian matrices), its vectors orthonormal with small residuals.
fn lobpcg_case(f: &mut Failures, dev: Device, c: &Value) {
    let name = c["name"].as_str().unwrap();
    let which = c.get("which").and_then(|w| w.as_str()).unwrap_or("");
    if c["group"] != "eigsh" || !name.starts_with("eigsh_random") || !(which == "LA" || which == "SA") || single(c) {
        return;
    }
    let a = matrix(c, dev);
    let n = a.shape()[0];
    let k = c["k"].as_u64().unwrap() as usize;
    let dt = if c["dtype"] == "complex128" { DType::C128 } else { DType::F64 };
    let x = xp::random::default_rng(3)
        .standard_normal([n, k], DType::F64)
        .unwrap()
        .astype(dt)
        .unwrap()
        .to_device(dev)
        .unwrap();
    let opts = xp::sparse::linalg::Lobpcg {
        tol: Some(1e-9),
        maxiter: Some(2000),
        smallest: which == "SA",
        ..Default::default()
    };
    match xp::sparse::linalg::lobpcg(&a, &x, opts) {
        Ok(r) => {
            let want = complex(&load(&c["w"], Device::Cpu));
            let e = value_error(&complex(&r.w), &want);
            add(f, r.converged && e <= 1e-7, || {
                format!("{name} on {dev}: lobpcg values off by {e:e} (converged {})", r.converged)
            });
            let o = orthogonality(&r.v);
            add(f, o <= 1e-10, || format!("{name} on {dev}: lobpcg ‖VᴴV − I‖ = {o:e}"));
            let w = complex(&r.w);
            let ordered = if which == "LA" {
                w.windows(2).all(|p| p[0].re >= p[1].re)
            } else {
                w.windows(2).all(|p| p[0].re <= p[1].re)
            };
            add(f, ordered, || format!("{name} on {dev}: lobpcg order {w:?}"));
        }
        Err(e) => f.add(Err(format!("{name} on {dev}: lobpcg {e}"))),
    }
}
split_cases!(lobpcg_case, "sparse_eigen");
