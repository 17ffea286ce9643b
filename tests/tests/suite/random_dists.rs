//! The distributions of `xp::random::Generator` on every device: each against its exact
//! distribution (KS or chi-squared at the 10^-6 level, see `fit`), every device against the CPU
//! for the same seed (integers and index draws bit for bit, floats within the stated bound), the
//! rejection samplers against the host specification value by value, and the typed errors.
use crate::fit::{chi2, chi2_limit, ks, phi, KS_LIMIT};
use xp::random::spec::sample::{binomial, poisson, standard_gamma, Words};
use xp::random::spec::Stream;
use xp::random::{default_rng, Choice, Generator};
use xp::{Array, DType, Device, Error};
use xp_testing::devices;

/// Floats from different devices' `ln`/`exp`/`sin`/`cos`/`pow`: within this relative distance
/// (a few ulp of each step, compounded through the formula).
const CROSS_DEVICE_REL: f64 = 1e-12;
/// The same for float32 draws: four float32 ulp (each device rounds its float64 or float32
/// result to float32 on its own, and the last rounding may differ).
const CROSS_DEVICE_REL_F32: f64 = 4.0 / (1u64 << 23) as f64;

const N: usize = 1 << 16;

fn f64s(a: &Array) -> Vec<f64> {
    a.astype(DType::F64).unwrap().to_vec::<f64>().unwrap()
}

fn rng(dev: Device, seed: u64) -> Generator {
    xp::on(dev).default_rng(seed)
}

/// The continuous draws, each with its exact CDF.
#[allow(clippy::type_complexity)]
fn continuous() -> Vec<(&'static str, Box<dyn Fn(&mut Generator) -> Array>, Box<dyn Fn(f64) -> f64>)> {
    let gamma_int = |k: u32, x: f64| {
        // P(k, x) for integer k: 1 - e^-x Σ_{i<k} x^i / i!.
        let (mut term, mut sum) = (1.0, 0.0);
        for i in 0..k {
            sum += term;
            term *= x / (i + 1) as f64;
        }
        if x <= 0.0 {
            0.0
        } else {
            1.0 - (-x).exp() * sum
        }
    };
    vec![
        ("uniform", Box::new(|g| g.uniform(-2.0, 3.0, N).unwrap()), Box::new(|x| ((x + 2.0) / 5.0).clamp(0.0, 1.0))),
        ("normal", Box::new(|g| g.normal(1.5, 2.0, N).unwrap()), Box::new(|x| phi((x - 1.5) / 2.0))),
        (
            "lognormal",
            Box::new(|g| g.lognormal(0.5, 0.75, N).unwrap()),
            Box::new(|x| if x <= 0.0 { 0.0 } else { phi((x.ln() - 0.5) / 0.75) }),
        ),
        (
            "exponential",
            Box::new(|g| g.exponential(3.0, N).unwrap()),
            Box::new(|x| if x <= 0.0 { 0.0 } else { 1.0 - (-x / 3.0).exp() }),
        ),
        (
            "standard_exponential f32",
            Box::new(|g| g.standard_exponential([N], DType::F32).unwrap()),
            Box::new(|x| if x <= 0.0 { 0.0 } else { 1.0 - (-x).exp() }),
        ),
        (
            "gamma(0.5)",
            Box::new(|g| g.gamma(0.5, 1.0, N).unwrap()),
            Box::new(|x| if x <= 0.0 { 0.0 } else { 2.0 * phi((2.0 * x).sqrt()) - 1.0 }),
        ),
        ("gamma(3, 2)", Box::new(|g| g.gamma(3.0, 2.0, N).unwrap()), Box::new(move |x| gamma_int(3, x / 2.0))),
        (
            "standard_gamma(1) f32",
            Box::new(|g| g.standard_gamma(1.0, N, DType::F32).unwrap()),
            Box::new(move |x| gamma_int(1, x)),
        ),
        ("chisquare(4)", Box::new(|g| g.chisquare(4.0, N).unwrap()), Box::new(move |x| gamma_int(2, x / 2.0))),
        ("beta(2.5, 1)", Box::new(|g| g.beta(2.5, 1.0, N).unwrap()), Box::new(|x| x.clamp(0.0, 1.0).powf(2.5))),
        (
            "beta(2, 2)",
            Box::new(|g| g.beta(2.0, 2.0, N).unwrap()),
            Box::new(|x| {
                let x = x.clamp(0.0, 1.0);
                3.0 * x * x - 2.0 * x * x * x
            }),
        ),
        (
            "laplace",
            Box::new(|g| g.laplace(1.0, 2.0, N).unwrap()),
            Box::new(|x| {
                let t = (x - 1.0) / 2.0;
                if t < 0.0 {
                    0.5 * t.exp()
                } else {
                    1.0 - 0.5 * (-t).exp()
                }
            }),
        ),
        (
            "logistic",
            Box::new(|g| g.logistic(-1.0, 0.5, N).unwrap()),
            Box::new(|x| 1.0 / (1.0 + (-(x + 1.0) / 0.5).exp())),
        ),
        ("gumbel", Box::new(|g| g.gumbel(0.5, 2.0, N).unwrap()), Box::new(|x| (-(-(x - 0.5) / 2.0).exp()).exp())),
        (
            "weibull",
            Box::new(|g| g.weibull(1.7, N).unwrap()),
            Box::new(|x| if x <= 0.0 { 0.0 } else { 1.0 - (-x.powf(1.7)).exp() }),
        ),
        (
            "pareto",
            Box::new(|g| g.pareto(3.0, N).unwrap()),
            Box::new(|x| if x <= 0.0 { 0.0 } else { 1.0 - (1.0 + x).powf(-3.0) }),
        ),
        (
            "rayleigh",
            Box::new(|g| g.rayleigh(2.0, N).unwrap()),
            Box::new(|x| if x <= 0.0 { 0.0 } else { 1.0 - (-x * x / 8.0).exp() }),
        ),
    ]
}

#[test]
fn continuous_distributions_fit_their_cdfs_and_agree_across_devices() {
    let cpu: Vec<Vec<f64>> = continuous().iter().map(|(_, draw, _)| f64s(&draw(&mut default_rng(77)))).collect();
    for dev in devices() {
        for ((name, draw, cdf), want) in continuous().iter().zip(&cpu) {
            let got = f64s(&draw(&mut rng(dev, 77)));
            assert_eq!(got.len(), N);
            // relative to the value, absolute below 1: where a draw passes near zero (gumbel's
            // log(-log u) at u = 1/e) a last-ulp difference of the logarithms is a large relative one
            let worst = got.iter().zip(want).map(|(a, b)| (a - b).abs() / b.abs().max(1.0)).fold(0.0, f64::max);
            let bound = if name.ends_with("f32") { CROSS_DEVICE_REL_F32 } else { CROSS_DEVICE_REL };
            assert!(worst <= bound, "{name}: {worst:e} relative to the CPU's on {dev}");
            let d = ks(got, cdf);
            assert!(d < KS_LIMIT, "{name}: KS {d} on {dev}");
        }
    }
}

#[test]
fn rejection_samplers_follow_the_specification_value_by_value() {
    let n = 20_000;
    for dev in devices() {
        let mut g = rng(dev, 31);
        let shape: Vec<f64> = (0..n).map(|i| 0.05 + (i % 97) as f64 * 0.3).collect();
        let a = Array::from_vec(shape.clone(), [n]).unwrap().to_device(dev).unwrap();
        let got = f64s(&g.standard_gamma(&a, None, DType::F64).unwrap());
        let s = Stream::new(31, 0);
        for (i, (&v, &k)) in got.iter().zip(&shape).enumerate() {
            let want = standard_gamma(&mut Words::new(&s, i as u64), k);
            assert!((v - want).abs() <= CROSS_DEVICE_REL * want.abs(), "gamma({k}) value {i} on {dev}: {v} vs {want}");
        }
        let lam: Vec<f64> = (0..n).map(|i| [0.0, 0.7, 9.9, 10.0, 35.0, 1e5][i % 6]).collect();
        let l = Array::from_vec(lam.clone(), [n]).unwrap().to_device(dev).unwrap();
        let got = g.poisson(&l, None).unwrap().to_vec::<i64>().unwrap();
        let s = Stream::new(31, 1);
        for (i, (&v, &m)) in got.iter().zip(&lam).enumerate() {
            assert_eq!(v, poisson(&mut Words::new(&s, i as u64), m), "poisson({m}) value {i} on {dev}");
        }
        // Broadcast parameters: n per row, p per column.
        let trials = Array::from_vec(vec![0i64, 7, 40, 5000], [4, 1]).unwrap().to_device(dev).unwrap();
        let p = Array::from_vec(vec![0.0, 0.02, 0.3, 0.5, 0.9, 1.0], [6]).unwrap().to_device(dev).unwrap();
        let got = g.binomial(&trials, &p, [250, 4, 6]).unwrap().to_vec::<i64>().unwrap();
        let s = Stream::new(31, 2);
        for (i, &v) in got.iter().enumerate() {
            let (t, q) = ([0, 7, 40, 5000][i / 6 % 4], [0.0, 0.02, 0.3, 0.5, 0.9, 1.0][i % 6]);
            assert_eq!(v, binomial(&mut Words::new(&s, i as u64), t, q), "binomial({t}, {q}) value {i} on {dev}");
        }
    }
}

/// The chi-squared statistic of integer draws against a pmf over `0 .. cells`, the tail lumped
/// into the last cell.
fn discrete_fit(x: &[i64], pmf: impl Fn(i64) -> f64, cells: i64) -> (f64, usize) {
    let n = x.len() as f64;
    let mut obs = vec![0.0; cells as usize + 1];
    x.iter().for_each(|&v| obs[v.clamp(0, cells) as usize] += 1.0);
    let mut exp: Vec<f64> = (0..cells).map(|k| n * pmf(k)).collect();
    exp.push(n - exp.iter().sum::<f64>());
    chi2(&obs, &exp)
}

fn ln_choose(n: i64, k: i64) -> f64 {
    use xp::random::spec::sample::lgamma;
    lgamma(n as f64 + 1.0) - lgamma(k as f64 + 1.0) - lgamma((n - k) as f64 + 1.0)
}

#[test]
fn discrete_distributions_fit_their_pmfs_on_every_device() {
    for dev in devices() {
        let mut g = rng(dev, 4242);
        for lam in [3.0f64, 60.0] {
            let x = g.poisson(lam, N).unwrap().to_vec::<i64>().unwrap();
            let pmf = |k: i64| (k as f64 * lam.ln() - lam - xp::random::spec::sample::lgamma(k as f64 + 1.0)).exp();
            let (c, df) = discrete_fit(&x, pmf, (lam * 3.0) as i64 + 10);
            assert!(c < chi2_limit(df), "poisson({lam}) chi2 {c} ({df} df) on {dev}");
        }
        for (t, p) in [(20i64, 0.3f64), (1000, 0.4), (60, 0.85)] {
            let x = g.binomial(t, p, N).unwrap().to_vec::<i64>().unwrap();
            let pmf = |k: i64| (ln_choose(t, k) + k as f64 * p.ln() + (t - k) as f64 * (1.0 - p).ln()).exp();
            let (c, df) = discrete_fit(&x, pmf, t);
            assert!(c < chi2_limit(df), "binomial({t}, {p}) chi2 {c} ({df} df) on {dev}");
        }
        let x = g.geometric(0.2, N).unwrap().to_vec::<i64>().unwrap();
        assert!(x.iter().all(|&k| k >= 1));
        let (c, df) = discrete_fit(&x, |k| if k == 0 { 0.0 } else { 0.2 * 0.8f64.powi(k as i32 - 1) }, 40);
        assert!(c < chi2_limit(df), "geometric chi2 {c} on {dev}");
        // Multinomial: every row sums to n; each category's mean within 5 standard errors.
        let pv = [0.2, 0.5, 0.1, 0.2];
        let m = g.multinomial(30, &pv, [4000]).unwrap();
        assert_eq!(m.shape(), &[4000, 4]);
        let v = m.to_vec::<i64>().unwrap();
        assert!(v.chunks(4).all(|r| r.iter().sum::<i64>() == 30 && r.iter().all(|&c| c >= 0)));
        for (j, p) in pv.iter().enumerate() {
            let mean = v.iter().skip(j).step_by(4).sum::<i64>() as f64 / 4000.0;
            let se = (30.0 * p * (1.0 - p) / 4000.0).sqrt();
            assert!((mean - 30.0 * p).abs() < 5.0 * se, "multinomial category {j}: {mean} on {dev}");
        }
    }
}

#[test]
fn multivariate_normal_has_the_requested_mean_and_covariance() {
    for dev in devices() {
        let mean = Array::from_vec(vec![1.0, -2.0, 0.5], [3]).unwrap().to_device(dev).unwrap();
        // A singular (rank-2) covariance works, as with NumPy's SVD.
        let c = [4.0, 2.0, 2.0, 2.0, 2.0, 0.0, 2.0, 0.0, 2.0];
        let cov = Array::from_vec(c.to_vec(), [3, 3]).unwrap().to_device(dev).unwrap();
        let n = 40_000;
        let x = rng(dev, 9).multivariate_normal(&mean, &cov, [n]).unwrap();
        assert_eq!(x.shape(), &[n, 3]);
        let v = f64s(&x);
        let mu: Vec<f64> = (0..3).map(|j| v.iter().skip(j).step_by(3).sum::<f64>() / n as f64).collect();
        for j in 0..3 {
            assert!((mu[j] - [1.0, -2.0, 0.5][j]).abs() < 5.0 * (c[4 * j] / n as f64).sqrt(), "mean {mu:?} on {dev}");
            for k in 0..3 {
                let s: f64 = v.chunks(3).map(|r| (r[j] - mu[j]) * (r[k] - mu[k])).sum::<f64>() / (n - 1) as f64;
                // Standard error of a covariance: sqrt((σ_jj σ_kk + σ_jk²) / n).
                let se = ((c[4 * j] * c[4 * k] + c[3 * j + k] * c[3 * j + k]) / n as f64).sqrt();
                assert!((s - c[3 * j + k]).abs() < 5.0 * se + 1e-9, "cov[{j}][{k}] = {s} on {dev}");
            }
        }
        // x0 - x1 - x2 has variance 4 + 2 + 2 - 2·2 - 2·2 + 0 = 0: the rank is honoured.
        assert!(v.chunks(3).all(|r| (r[0] - r[1] - r[2] - 2.5).abs() < 1e-9), "singular direction on {dev}");
    }
}

#[test]
fn permutations_and_choices_are_the_same_on_every_device() {
    let want_perm = default_rng(8).permutation(1000).unwrap().to_vec::<i64>().unwrap();
    let mut sorted = want_perm.clone();
    sorted.sort();
    assert_eq!(sorted, (0..1000).collect::<Vec<_>>());
    let w = Array::from_vec(vec![0.1, 0.0, 0.6, 0.3], [4]).unwrap();
    let pick = |g: &mut Generator, w: &Array| {
        let a = g.choice_index(4, [N], Choice { p: Some(w), ..Choice::default() }).unwrap().to_vec::<i64>().unwrap();
        let b =
            g.choice_index(50, [20], Choice { replace: false, ..Choice::default() }).unwrap().to_vec::<i64>().unwrap();
        let c = g
            .choice_index(4, [3], Choice { replace: false, p: Some(w), ..Choice::default() })
            .unwrap()
            .to_vec::<i64>()
            .unwrap();
        (a, b, c)
    };
    let want = pick(&mut default_rng(8), &w);
    // Weighted with replacement: counts against the weights; element 1 (weight 0) never drawn.
    let mut counts = [0.0; 4];
    want.0.iter().for_each(|&i| counts[i as usize] += 1.0);
    assert_eq!(counts[1], 0.0);
    let (c, df) = chi2(&[counts[0], counts[2], counts[3]], &[0.1 * N as f64, 0.6 * N as f64, 0.3 * N as f64]);
    assert!(c < chi2_limit(df), "weighted choice chi2 {c}: {counts:?}");
    let mut b = want.1.clone();
    b.sort();
    b.dedup();
    assert_eq!(b.len(), 20, "choice without replacement repeats: {:?}", want.1);
    let mut c = want.2.clone();
    c.sort();
    assert_eq!(c, vec![0, 2, 3], "the three nonzero weights, each once");
    for dev in devices() {
        let mut g = rng(dev, 8);
        assert_eq!(g.permutation(1000).unwrap().to_vec::<i64>().unwrap(), want_perm, "permutation on {dev}");
        let w = w.to_device(dev).unwrap();
        assert_eq!(pick(&mut rng(dev, 8), &w), want, "choice on {dev}");
        // choice of an array's rows, shuffle in place, permuted rows.
        let x = xp::on(dev).arange(0.0, 12.0, 1.0, Some(DType::I32)).unwrap().reshape([4, 3]).unwrap();
        let rows = rng(dev, 3).choice(&x, [2], Choice { replace: false, ..Choice::default() }).unwrap();
        assert_eq!(rows.shape(), &[2, 3]);
        let r = rows.to_vec::<i32>().unwrap();
        assert!(r.chunks(3).all(|row| row[0] % 3 == 0 && row[1] == row[0] + 1 && row[2] == row[0] + 2));
        let y = x.copy().unwrap();
        let mut g = rng(dev, 4);
        let expect = g.clone().permutation_of(&y, 1).unwrap().to_vec::<i32>().unwrap();
        g.shuffle(&y, 1).unwrap();
        assert_eq!(y.to_vec::<i32>().unwrap(), expect, "shuffle on {dev}");
        let p = rng(dev, 5).permuted(&x, Some(1)).unwrap().to_vec::<i32>().unwrap();
        for (i, row) in p.chunks(3).enumerate() {
            let mut s = row.to_vec();
            s.sort();
            assert_eq!(s, vec![3 * i as i32, 3 * i as i32 + 1, 3 * i as i32 + 2], "permuted row {i} on {dev}");
        }
    }
}

#[test]
fn spawned_and_jumped_streams_are_independent_and_reproducible() {
    let mut g = default_rng(12);
    let kids = g.spawn(3);
    let more = g.spawn(1);
    let first = |g: &Generator| g.clone().random([8], DType::F64).unwrap().to_vec::<f64>().unwrap();
    let mut seen: Vec<Vec<f64>> = kids.iter().chain(&more).map(first).collect();
    seen.push(first(&g));
    seen.push(first(&g.jumped(1)));
    seen.push(first(&g.jumped(2)));
    for i in 0..seen.len() {
        for j in 0..i {
            assert_ne!(seen[i], seen[j], "streams {i} and {j} coincide");
        }
    }
    assert_eq!(default_rng(12).spawn(3), kids);
    assert_eq!(first(&default_rng(12).jumped(2)), seen[6]);
}

#[test]
fn legacy_functions_follow_the_global_seed() {
    xp::random::seed(17);
    let a = xp::random::randn([5]).unwrap().to_vec::<f64>().unwrap();
    let b = xp::random::randint(0, 10, [5]).unwrap().to_vec::<i64>().unwrap();
    let mut g = default_rng(17);
    assert_eq!(a, g.standard_normal([5], DType::F64).unwrap().to_vec::<f64>().unwrap());
    assert_eq!(b, g.integers(0, 10, [5], DType::I64).unwrap().to_vec::<i64>().unwrap());
    for dev in devices() {
        let m = xp::on(dev).random();
        assert_eq!(m.uniform(2.0, 3.0, [4]).unwrap().device(), dev);
        assert!(f64s(&m.rand([100]).unwrap()).iter().all(|x| (0.0..1.0).contains(x)));
    }
}

#[test]
fn bad_distribution_parameters_are_typed_errors_and_draw_nothing() {
    for dev in devices() {
        let mut g = rng(dev, 1);
        let before = g.clone();
        let neg = Array::from_vec(vec![1.0, -0.5], [2]).unwrap().to_device(dev).unwrap();
        let param = |e: Error| match e {
            Error::InvalidParameter { op, param, .. } => (op, param),
            e => panic!("not InvalidParameter: {e:?}"),
        };
        assert_eq!(param(g.normal(0.0, -1.0, [3]).unwrap_err()), ("normal", "scale"));
        assert_eq!(param(g.normal(0.0, &neg, None).unwrap_err()), ("normal", "scale"));
        assert_eq!(param(g.exponential(f64::NAN, [3]).unwrap_err()), ("exponential", "scale"));
        assert_eq!(param(g.gamma(&neg, 1.0, None).unwrap_err()), ("gamma", "shape"));
        assert_eq!(param(g.beta(0.0, 1.0, [2]).unwrap_err()), ("beta", "a"));
        assert_eq!(param(g.poisson(-1.0, [2]).unwrap_err()), ("poisson", "lam"));
        assert_eq!(param(g.binomial(10, 1.5, [2]).unwrap_err()), ("binomial", "p"));
        assert_eq!(param(g.geometric(0.0, [2]).unwrap_err()), ("geometric", "p"));
        assert_eq!(param(g.multinomial(5, &[0.7, 0.6, 0.1], [2]).unwrap_err()), ("multinomial", "pvals"));
        assert_eq!(param(g.integers(3, 3, [2], DType::I64).unwrap_err()), ("integers", "high"));
        let w = Array::from_vec(vec![0.5, 0.4], [2]).unwrap().to_device(dev).unwrap();
        assert_eq!(
            param(g.choice_index(2, [3], Choice { p: Some(&w), ..Choice::default() }).unwrap_err()),
            ("choice", "p")
        );
        assert_eq!(
            param(g.choice_index(5, [6], Choice { replace: false, ..Choice::default() }).unwrap_err()),
            ("choice", "size")
        );
        // Parameters that do not broadcast to `size`.
        assert!(matches!(g.normal(&neg.abs().unwrap(), 1.0, [3]), Err(Error::ShapeMismatch { .. })));
        assert_eq!(g, before, "a refused call advanced the generator on {dev}");
        assert_eq!(neg.to_vec::<f64>().unwrap(), vec![1.0, -0.5], "the parameter array changed");
    }
}

#[test]
fn scalar_parameters_draw_the_values_of_0d_array_parameters_bit_for_bit() {
    // scalar parameters take a path of scalar operations (no 0-d arrays, no multiply by 1 or add
    // of 0); it must give the bits of the array path and of the formula over the standard draw
    for dev in devices() {
        let nd = |v: f64| Array::scalar_on(v, DType::F64, dev).unwrap();
        let bits = |a: Array| a.to_vec::<f64>().unwrap().into_iter().map(f64::to_bits).collect::<Vec<_>>();
        for (loc, scale) in [(0.0, 1.0), (1.5, 2.0), (-3.0, 1.0), (0.0, 0.25)] {
            let ctx = format!("loc {loc} scale {scale} on {dev}");
            let s = bits(rng(dev, 5).normal(loc, scale, [4097]).unwrap());
            assert_eq!(s, bits(rng(dev, 5).normal(&nd(loc), &nd(scale), [4097]).unwrap()), "normal {ctx}");
            let z = rng(dev, 5).standard_normal([4097], DType::F64).unwrap();
            assert_eq!(s, bits(z.mul(scale).unwrap().add(loc).unwrap()), "normal as z * scale + loc, {ctx}");
            let l = bits(rng(dev, 6).lognormal(loc, scale, [300]).unwrap());
            assert_eq!(l, bits(rng(dev, 6).lognormal(&nd(loc), &nd(scale), [300]).unwrap()), "lognormal {ctx}");
            let (lo, hi) = (loc, loc + scale);
            let u = bits(rng(dev, 7).uniform(lo, hi, [300]).unwrap());
            assert_eq!(u, bits(rng(dev, 7).uniform(&nd(lo), &nd(hi), [300]).unwrap()), "uniform {ctx}");
            let e = bits(rng(dev, 8).exponential(scale, [300]).unwrap());
            assert_eq!(e, bits(rng(dev, 8).exponential(&nd(scale), [300]).unwrap()), "exponential {ctx}");
        }
        // no size: one value, 0-d, as NumPy's `normal(0, 1)` is a scalar
        assert_eq!(rng(dev, 9).normal(0.0, 1.0, None).unwrap().shape(), &[] as &[usize]);
    }
}
