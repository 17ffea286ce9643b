//! Black–Scholes prices of European calls and puts, written four ways — plain xp (a dozen
//! array ops), `xp::fuse` (the same chain traced into one kernel), an `ElementwiseKernel` (the
//! formula in C) and `#[xp::kernel]` (the formula in Rust: native on the CPU, translated to
//! CUDA on a GPU) — on every device present. The four must agree on each device, and each
//! device with the CPU; the times are `xp::profiler::benchmark`'s (host time, and device time on
//! each GPU).
//!
//! ```sh
//! cargo run --release --example black_scholes [-- N]     # N options, default 2^21
//! ```
use xp::fuse::Sym;
use xp::kernel::ElementwiseKernel;
use xp::{Array, DType, Device, Result};

#[path = "common/course_kernels.rs"]
#[allow(dead_code)]
mod course;

const R: f64 = 0.02; // riskless rate
const V: f64 = 0.30; // volatility
const A: [f64; 5] = [0.319_381_53, -0.356_563_782, 1.781_477_937, -1.821_255_978, 1.330_274_429];
const RSQRT2PI: f64 = 0.398_942_280_401_432_7;

/// The cumulative normal distribution (Abramowitz–Stegun 26.2.17, as CUDA's sample), plain xp.
fn cnd(d: &Array) -> Result<Array> {
    let k = d.abs()?.mul(0.231_641_9)?.add(1.0)?.reciprocal()?;
    let poly = k.mul(A[4])?.add(A[3])?.mul(&k)?.add(A[2])?.mul(&k)?.add(A[1])?.mul(&k)?.add(A[0])?.mul(&k)?;
    let c = d.square()?.mul(-0.5)?.exp()?.mul(RSQRT2PI)?.mul(&poly)?;
    xp::where_(&d.gt(0.0)?, &c.neg()?.add(1.0)?, &c)
}

/// Call and put prices, plain xp.
fn plain(s: &Array, x: &Array, t: &Array) -> Result<(Array, Array)> {
    let sqrt_t = t.sqrt()?;
    let d1 = s.div(x)?.log()?.add(&t.mul(R + 0.5 * V * V)?)?.div(&sqrt_t.mul(V)?)?;
    let d2 = d1.sub(&sqrt_t.mul(V)?)?;
    let disc = x.mul(&t.mul(-R)?.exp()?)?;
    let (n1, n2) = (cnd(&d1)?, cnd(&d2)?);
    let call = s.mul(&n1)?.sub(&disc.mul(&n2)?)?;
    let put = disc.mul(&n2.neg()?.add(1.0)?)?.sub(&s.mul(&n1.neg()?.add(1.0)?)?)?;
    Ok((call, put))
}

/// The same chain on symbolic arrays.
fn cnd_sym(d: &Sym) -> Result<Sym> {
    let k = d.abs()?.mul(0.231_641_9)?.add(1.0)?.reciprocal()?;
    let poly = k.mul(A[4])?.add(A[3])?.mul(&k)?.add(A[2])?.mul(&k)?.add(A[1])?.mul(&k)?.add(A[0])?.mul(&k)?;
    let c = d.square()?.mul(-0.5)?.exp()?.mul(RSQRT2PI)?.mul(&poly)?;
    d.gt(0.0)?.where_(&c.neg()?.add(1.0)?, &c)
}

fn fused() -> (xp::fuse::Fused, xp::fuse::Fused) {
    let d12 = |s: &Sym, x: &Sym, t: &Sym| -> Result<(Sym, Sym, Sym)> {
        let sqrt_t = t.sqrt()?;
        let d1 = s.div(x)?.log()?.add(&t.mul(R + 0.5 * V * V)?)?.div(&sqrt_t.mul(V)?)?;
        let d2 = d1.sub(&sqrt_t.mul(V)?)?;
        Ok((d1, d2, x.mul(&t.mul(-R)?.exp()?)?))
    };
    let call = xp::fuse(move |s: &Sym, x: &Sym, t: &Sym| {
        let (d1, d2, disc) = d12(s, x, t)?;
        s.mul(&cnd_sym(&d1)?)?.sub(&disc.mul(&cnd_sym(&d2)?)?)
    });
    // The put from the call by put-call parity: put = call - s + x e^{-rt}.
    let put = xp::fuse(|c: &Sym, s: &Sym, x: &Sym, t: &Sym| c.sub(s)?.add(&x.mul(&t.mul(-R)?.exp()?)?));
    (call, put)
}

/// One way of pricing: (call, put).
type Way<'a> = Box<dyn Fn() -> Result<(Array, Array)> + 'a>;

const BODY: &str = r#"
    const T sqrt_t = sqrt(t);
    const T d1 = (log(s / x) + (r + (T)0.5 * v * v) * t) / (v * sqrt_t);
    const T d2 = d1 - v * sqrt_t;
    const T disc = x * exp(-r * t);
    T k1 = (T)1 / ((T)1 + (T)0.2316419 * fabs(d1));
    T c1 = (T)0.3989422804014327 * exp((T)-0.5 * d1 * d1) *
           (k1 * ((T)0.31938153 + k1 * ((T)-0.356563782 + k1 * ((T)1.781477937 + k1 * ((T)-1.821255978 + k1 * (T)1.330274429)))));
    if (d1 > 0) c1 = (T)1 - c1;
    T k2 = (T)1 / ((T)1 + (T)0.2316419 * fabs(d2));
    T c2 = (T)0.3989422804014327 * exp((T)-0.5 * d2 * d2) *
           (k2 * ((T)0.31938153 + k2 * ((T)-0.356563782 + k2 * ((T)1.781477937 + k2 * ((T)-1.821255978 + k2 * (T)1.330274429)))));
    if (d2 > 0) c2 = (T)1 - c2;
    call = s * c1 - disc * c2;
    put = disc * ((T)1 - c2) - s * ((T)1 - c1);
"#;

fn inputs(n: usize, device: Device) -> Result<(Array, Array, Array)> {
    let mut rng = xp::on(device).default_rng(7);
    let s = rng.uniform(5.0, 30.0, [n])?.astype(DType::F32)?;
    let x = rng.uniform(1.0, 100.0, [n])?.astype(DType::F32)?;
    let t = rng.uniform(0.25, 10.0, [n])?.astype(DType::F32)?;
    Ok((s, x, t))
}

fn max_diff(a: &Array, b: &Array) -> Result<f64> {
    let d = a.astype(DType::F64)?.sub(&b.astype(DType::F64)?)?.abs()?.max(..)?;
    d.to_device(Device::Cpu)?.item::<f64>()
}

fn main() -> Result<()> {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1 << 21);
    let kernel = ElementwiseKernel::new("T s, T x, T t, T r, T v", "T call, T put", BODY, "black_scholes")?;
    let (fcall, fput) = fused();
    let mut reference: Option<(Array, Array)> = None;
    for device in xp::devices() {
        let (s, x, t) = inputs(n, device)?;
        let ways: Vec<(&str, Way)> = vec![
            ("plain xp", Box::new(|| plain(&s, &x, &t))),
            (
                "xp::fuse",
                Box::new(|| {
                    let c = fcall.call(&[&s, &x, &t])?;
                    let p = fput.call(&[&c, &s, &x, &t])?;
                    Ok((c, p))
                }),
            ),
            (
                "ElementwiseKernel",
                Box::new(|| {
                    let r = kernel.call(&[(&s).into(), (&x).into(), (&t).into(), R.into(), V.into()])?;
                    Ok((r[0].clone(), r[1].clone()))
                }),
            ),
            ("#[xp::kernel]", Box::new(|| course::black_scholes::call(&s, &x, &t, R as f32, V as f32))),
        ];
        let base = ways[0].1()?;
        println!("{device}: {n} options");
        for (name, f) in &ways {
            let (c, p) = f()?;
            let err = max_diff(&c, &base.0)?.max(max_diff(&p, &base.1)?);
            let b = xp::profiler::benchmark(name, f, 10, 2)?;
            let gpu = b.gpu_median_us(device).map_or(String::new(), |g| format!(", device {:.3} ms", g / 1e3));
            println!(
                "  {name:<18} host {:8.3} ms{gpu}   max |difference| from plain xp {err:.2e}",
                b.cpu_median_us() / 1e3
            );
            assert!(err < 1e-3, "{name} on {device} disagrees with plain xp by {err}");
        }
        match &reference {
            None => reference = Some((base.0.to_device(Device::Cpu)?, base.1.to_device(Device::Cpu)?)),
            Some((c, p)) => {
                let err =
                    max_diff(&base.0.to_device(Device::Cpu)?, c)?.max(max_diff(&base.1.to_device(Device::Cpu)?, p)?);
                println!("  {device} against the CPU: max |difference| {err:.2e}");
                assert!(err < 1e-3, "{device} disagrees with the CPU by {err}");
            }
        }
    }
    Ok(())
}
