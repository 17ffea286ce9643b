//! The CuPy course's kernels written in Rust, shared by `examples/black_scholes.rs`, the suite's
//! `rust_kernels` tests and the `rust_kernel_*` bench rows (each includes this file with
//! `#[path]`), so that what is tested is what is measured and shown.
use xp::kernel::Float;

/// Leaky ReLU: `x` where positive, `alpha * x` elsewhere.
#[xp::kernel]
pub fn leaky_relu<T: Float>(x: T, alpha: T) -> T {
    if x > T::ZERO {
        x
    } else {
        alpha * x
    }
}

/// `a * x + y`, elementwise.
#[xp::kernel]
pub fn saxpy<T: Float>(a: T, x: T, y: T) -> T {
    a * x + y
}

/// The cumulative normal distribution (Abramowitz–Stegun 26.2.17, as CUDA's sample): a device
/// function that `black_scholes` inlines.
#[xp::device]
pub fn cnd<T: Float>(d: T) -> T {
    // (a kernel reads no outer constants: the values are written out)
    let k = T::ONE / (T::ONE + T::lit(0.231_641_9) * d.abs());
    let poly = k
        * (T::lit(0.319_381_53)
            + k * (T::lit(-0.356_563_782)
                + k * (T::lit(1.781_477_937) + k * (T::lit(-1.821_255_978) + k * T::lit(1.330_274_429)))));
    let c = T::lit(0.398_942_280_401_432_7) * (T::lit(-0.5) * d * d).exp() * poly;
    if d > T::ZERO {
        T::ONE - c
    } else {
        c
    }
}

/// Call and put prices of one European option (spot `s`, strike `x`, years `t`, rate `r`,
/// volatility `v`).
#[xp::kernel]
pub fn black_scholes<T: Float>(s: T, x: T, t: T, r: T, v: T) -> (T, T) {
    let sqrt_t = t.sqrt();
    let d1 = ((s / x).ln() + (r + T::lit(0.5) * v * v) * t) / (v * sqrt_t);
    let d2 = d1 - v * sqrt_t;
    let disc = x * (-r * t).exp();
    let c1 = cnd(d1);
    let c2 = cnd(d2);
    (s * c1 - disc * c2, disc * (T::ONE - c2) - s * (T::ONE - c1))
}

/// The L2 norm: squares summed, then the square root.
#[xp::reduction]
pub mod l2norm {
    use xp::kernel::Float;
    fn identity<T: Float>() -> T {
        T::ZERO
    }
    fn map<T: Float>(x: T) -> T {
        x * x
    }
    fn combine<T: Float>(a: T, b: T) -> T {
        a + b
    }
    fn finish<T: Float>(a: T) -> T {
        a.sqrt()
    }
}
