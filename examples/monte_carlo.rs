//! CuPy's Monte Carlo option pricing (`examples/finance/monte_carlo.py`) ported literally: the
//! same `ElementwiseKernel` source — a preamble of `__device__` functions, a local xorshift128+
//! state passed by pointer, a loop whose `i` shadows the element index, `erfcinv` — launched as
//! CuPy's `compute_option_prices` launches it, with (n_options, 1) columns against an
//! (n_options, n_threads) output, on every device present (the CPU runs the kernel through xp's
//! evaluator, a GPU through NVRTC). Each device's prices are checked against the Black–Scholes
//! closed form (the error CuPy prints, `std(call_mc - call_bs)`) and against the CPU's: every
//! device draws the same samples, so they agree to rounding.
//!
//! ```sh
//! cargo run --release --example monte_carlo [-- N_OPTIONS N_SAMPLES_PER_THREAD N_THREADS_PER_OPTION]
//! # defaults 1000 100 100: 10^7 samples, a fraction of a second on two cores.
//! # CuPy's defaults are 1000 1000 100000 (10^11 samples: a GPU's work).
//! ```
use xp::kernel::ElementwiseKernel;
use xp::{Array, DType, Device, Result};

/// The kernel's operation, as `monte_carlo.py` writes it (CuPy, MIT license).
pub const MONTE_CARLO_OPERATION: &str = r#"
    // We can use special variables i and _ind to get the index of the thread.
    // In this case, we used an index as a seed of random sequence.
    uint64_t rand_state[2];
    init_state(rand_state, i, seed);

    T call_sum = 0;
    const T v_by_sqrt_t = v * sqrt(t);
    const T mu_by_t = (r - v * v / 2) * t;

    // compute the price of the call option with Monte Carlo method
    for (int i = 0; i < n_samples; ++i) {
        const T p = sample_normal(rand_state);
        call_sum += get_call_value(s, x, p, mu_by_t, v_by_sqrt_t);
    }
    // convert the future value of the call option to the present value
    const T discount_factor = exp(- r * t);
    call = discount_factor * call_sum / n_samples;
    "#;

/// Its preamble, as `monte_carlo.py` writes it (CuPy, MIT license).
pub const MONTE_CARLO_PREAMBLE: &str = r#"
    typedef unsigned long long uint64_t;

    __device__
    inline T get_call_value(T s, T x, T p, T mu_by_t, T v_by_sqrt_t) {
        const T call_value = s * exp(mu_by_t + v_by_sqrt_t * p) - x;
        return (call_value > 0) ? call_value : 0;
    }

    // Initialize state
    __device__ inline void init_state(uint64_t* a, int i, int seed) {
        a[0] = i + 1;
        a[1] = 0x5c721fd808f616b6 + seed;
    }

    __device__ inline uint64_t xorshift128plus(uint64_t* x) {
        uint64_t s1 = x[0];
        uint64_t s0 = x[1];
        x[0] = s0;
        s1 = s1 ^ (s1 << 23);
        s1 = s1 ^ (s1 >> 17);
        s1 = s1 ^ s0;
        s1 = s1 ^ (s0 >> 26);
        x[1] = s1;
        return s0 + s1;
    }

    // Draw a sample from an uniform distribution in a range of [0, 1]
    __device__ inline T sample_uniform(uint64_t* state) {
        const uint64_t x = xorshift128plus(state);
        // 18446744073709551615 = 2^64 - 1
        return T(x) / T(18446744073709551615);
    }

    // Draw a sample from a normal distribution with N(0, 1)
    __device__ inline T sample_normal(uint64_t* state) {
        T x = sample_uniform(state);
        T s = T(-1.4142135623730950488016887242097);  // = -sqrt(2)
        if (x > 0.5) {
            x = 1 - x;
            s = -s;
        }
        T p = x + T(0.5);
        return s * erfcinv(2 * p);
    }
    "#;

/// `monte_carlo_kernel` of the example.
pub fn monte_carlo_kernel() -> Result<ElementwiseKernel> {
    ElementwiseKernel::with_preamble(
        "T s, T x, T t, T r, T v, int32 n_samples, int32 seed",
        "T call",
        MONTE_CARLO_OPERATION,
        "monte_carlo_kernel",
        MONTE_CARLO_PREAMBLE,
    )
}

/// `compute_option_prices`: an (n_options, n_threads_per_option) grid of prices, each from
/// `n_samples_per_thread` samples, averaged over the threads of each option.
#[allow(clippy::too_many_arguments)]
pub fn compute_option_prices(
    kernel: &ElementwiseKernel,
    stock_price: &Array,
    option_strike: &Array,
    option_years: &Array,
    risk_free: f64,
    volatility: f64,
    n_threads_per_option: usize,
    n_samples_per_thread: usize,
    seed: i32,
) -> Result<Array> {
    let n_options = stock_price.shape()[0];
    let call_prices = xp::on(stock_price.device()).empty([n_options, n_threads_per_option], DType::F64)?;
    // Because of the broadcasting rule, the kernel runs n_options * n_threads_per_option
    // elements, one per element of call_prices.
    let column = |a: &Array| a.reshape([n_options, 1]);
    let (s, x, t) = (column(stock_price)?, column(option_strike)?, column(option_years)?);
    kernel.call_out(
        &[
            (&s).into(),
            (&x).into(),
            (&t).into(),
            risk_free.into(),
            volatility.into(),
            (n_samples_per_thread as i32).into(),
            seed.into(),
        ],
        &[&call_prices],
    )?;
    call_prices.mean(1)
}

/// The Black–Scholes price of a European call: `s N(d1) - x e^{-rt} N(d2)`.
pub fn black_scholes_call(s: &Array, x: &Array, t: &Array, r: f64, v: f64) -> Result<Array> {
    let v_sqrt_t = t.sqrt()?.mul(v)?;
    let d1 = s.div(x)?.log()?.add(&t.mul(r + v * v / 2.0)?)?.div(&v_sqrt_t)?;
    let d2 = d1.sub(&v_sqrt_t)?;
    let discounted = x.mul(&t.mul(-r)?.exp()?)?;
    s.mul(&xp::special::ndtr(&d1)?)?.sub(&discounted.mul(&xp::special::ndtr(&d2)?)?)
}

#[allow(dead_code)]
fn main() -> Result<()> {
    let arg = |k: usize, default: usize| std::env::args().nth(k).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (n_options, n_samples, n_threads) = (arg(1, 1000), arg(2, 100), arg(3, 100));
    let (risk_free, volatility) = (0.02, 0.3);
    // The same options on every device, so that every device prices the same samples.
    let mut rng = xp::default_rng(0);
    let stock_price = rng.uniform(5.0, 30.0, [n_options])?;
    let option_strike = rng.uniform(1.0, 100.0, [n_options])?;
    let option_years = rng.uniform(0.25, 10.0, [n_options])?;
    let kernel = monte_carlo_kernel()?;
    println!(
        "{n_options} options, {} samples per option ({n_threads} threads of {n_samples} samples)",
        n_samples * n_threads
    );
    let mut cpu_prices: Option<Array> = None;
    for device in xp::devices() {
        let (s, x, t) =
            (stock_price.to_device(device)?, option_strike.to_device(device)?, option_years.to_device(device)?);
        let price = || compute_option_prices(&kernel, &s, &x, &t, risk_free, volatility, n_threads, n_samples, 0);
        // the first call compiles (NVRTC on a GPU, the evaluator's program on the CPU)
        let call_mc = price()?;
        xp::synchronize(device)?;
        let start = std::time::Instant::now();
        let call_mc2 = price()?;
        xp::synchronize(device)?;
        let secs = start.elapsed().as_secs_f64();
        let call_bs = black_scholes_call(&s, &x, &t, risk_free, volatility)?;
        let error = call_mc.sub(&call_bs)?.std(..)?.to_device(Device::Cpu)?.item::<f64>()?;
        let again = call_mc2.sub(&call_mc)?.abs()?.max(..)?.to_device(Device::Cpu)?.item::<f64>()?;
        println!("{device} (xp, Monte Carlo method):\t{secs:.6} sec   Error: {error:.6}");
        assert_eq!(again, 0.0, "{device}: two runs of the same samples differ");
        // The payoffs' standard deviation is below 50 for these options (30 e^{0.2} times a
        // lognormal's at σ√t ≤ 0.95): the error of N samples stays below 50/√N.
        let bound = 50.0 / ((n_samples * n_threads) as f64).sqrt();
        assert!(error < bound, "{device}: error {error} against Black–Scholes (bound {bound})");
        match &cpu_prices {
            None => cpu_prices = Some(call_mc.to_device(Device::Cpu)?),
            Some(c) => {
                let d = call_mc.to_device(Device::Cpu)?.sub(c)?.abs()?.max(..)?.item::<f64>()?;
                println!("  {device} against the CPU: max |difference| {d:.2e}");
                assert!(d < 1e-9, "{device} disagrees with the CPU by {d}");
            }
        }
    }
    Ok(())
}
