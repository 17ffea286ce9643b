//! xp-testing: write a test body once, run it on every device present, compare each result with an
//! independent reference — CuPy's `numpy_cupy_allclose` for Rust.
//!
//! * [`devices`] lists the CPU and every CUDA device. Where there is no GPU, it prints that the GPU
//!   cases were skipped; with `XP_REQUIRE_CUDA=1` set, a missing GPU fails the test instead.
//! * [`layouts`] turns one logical array into the layouts that break kernels: contiguous,
//!   transposed, stepped, reversed (negative strides), offset inside a larger buffer.
//! * [`Expected`] + [`assert_matches`] compare dtype, shape and values with per-dtype tolerances
//!   ([`tolerance`]), NaN where NaN is expected.
//!
//! ```
//! use xp::{DType, Complex64};
//! use xp_testing::{devices, layouts, assert_matches, Expected};
//! let data: Vec<f32> = (0..6).map(|i| i as f32).collect();
//! let expected = Expected::new(DType::F32, &[2, 3], data.iter().map(|&v| Complex64::new((v as f64).exp(), 0.0)).collect());
//! for dev in devices() {
//!     for (name, a) in layouts(&data.clone().into(), &[2, 3], dev).unwrap() {
//!         assert_matches(&a.exp(), &Ok(expected.clone()), &format!("exp on {dev}, {name}"));
//!     }
//! }
//! ```
#![warn(missing_docs)]

use xp::{Array, Complex64, DType, Device, Error, HostBuffer, Kind, Scalar};

/// Every device present: the CPU, then each CUDA device. Prints a note when GPU cases are skipped;
/// panics (fails the test) when `XP_REQUIRE_CUDA=1` is set and no GPU is usable.
pub fn devices() -> Vec<Device> {
    report_compiles_at_exit();
    let d = xp::devices();
    if d.len() == 1 {
        if std::env::var("XP_REQUIRE_CUDA").is_ok_and(|v| v == "1") {
            panic!("XP_REQUIRE_CUDA=1 but no CUDA device is usable");
        }
        eprintln!("xp-testing: no CUDA device, GPU cases skipped");
    }
    d
}

/// With `XP_REPORT_COMPILES=1`, print at process exit how many kernels NVRTC compiled (a second
/// run over a warm `XP_CACHE_DIR` should print 0).
fn report_compiles_at_exit() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    extern "C" fn report() {
        eprintln!("xp-testing: kernels compiled by NVRTC in this process: {}", xp::cuda::kernels_compiled());
    }
    if std::env::var("XP_REPORT_COMPILES").is_ok_and(|v| v == "1") {
        ONCE.call_once(|| {
            // SAFETY: registers a plain extern "C" function with no arguments.
            unsafe { libc::atexit(report) };
        });
    }
}

/// Relative and absolute tolerance of a comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// relative tolerance
    pub rtol: f64,
    /// absolute tolerance
    pub atol: f64,
}

/// Exact comparison.
pub const EXACT: Tolerance = Tolerance { rtol: 0.0, atol: 0.0 };

/// The default tolerance for results of `dtype`: exact for bool and integers, a few units in the
/// last place for floats (results of transcendental functions differ by an ulp between libms).
pub fn tolerance(dtype: DType) -> Tolerance {
    match dtype {
        DType::F16 => Tolerance { rtol: 2e-3, atol: 1e-4 },
        DType::BF16 => Tolerance { rtol: 1.6e-2, atol: 1e-3 },
        DType::F32 | DType::C64 => Tolerance { rtol: 1e-5, atol: 1e-6 },
        DType::F64 | DType::C128 => Tolerance { rtol: 1e-12, atol: 1e-13 },
        _ => EXACT,
    }
}

/// An expected result: dtype, shape, and values in C order widened to complex128.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    /// the dtype the result must have
    pub dtype: DType,
    /// the shape the result must have
    pub shape: Vec<usize>,
    /// the values
    pub data: Vec<Complex64>,
    /// the tolerance of the value comparison
    pub tol: Tolerance,
}

impl Expected {
    /// Expected values with the default tolerance of `dtype`.
    pub fn new(dtype: DType, shape: &[usize], data: Vec<Complex64>) -> Expected {
        Expected { dtype, shape: shape.to_vec(), data, tol: tolerance(dtype) }
    }
    /// The same with another tolerance.
    pub fn with_tol(mut self, tol: Tolerance) -> Expected {
        self.tol = tol;
        self
    }
}

fn close(a: f64, e: f64, tol: Tolerance) -> bool {
    if e.is_nan() {
        return a.is_nan();
    }
    if e.is_infinite() {
        return a == e;
    }
    (a - e).abs() <= tol.atol + tol.rtol * e.abs()
}

/// Compare an array with an expectation: dtype, shape, then every value.
pub fn compare(actual: &Array, e: &Expected) -> Result<(), String> {
    if actual.dtype() != e.dtype {
        return Err(format!("dtype {} != expected {}", actual.dtype(), e.dtype));
    }
    if actual.shape() != e.shape.as_slice() {
        return Err(format!("shape {:?} != expected {:?}", actual.shape(), e.shape));
    }
    let buf = actual.to_buffer().map_err(|err| format!("reading the result failed: {err}"))?;
    for (i, want) in e.data.iter().enumerate() {
        let got = buf.get(i).ok_or("result shorter than its shape")?.to_c128();
        if !(close(got.re, want.re, e.tol) && close(got.im, want.im, e.tol)) {
            return Err(format!("element {i}: {got} != expected {want} (rtol {}, atol {})", e.tol.rtol, e.tol.atol));
        }
    }
    Ok(())
}

/// Assert that `actual` matches `expected`: the same values, or an error when an error is
/// expected (the `Err` side holds a description of the expected failure).
#[track_caller]
pub fn assert_matches(actual: &xp::Result<Array>, expected: &Result<Expected, String>, ctx: &str) {
    if let Err(msg) = check(actual, expected, ctx) {
        panic!("{msg}");
    }
}

/// The check of [`assert_matches`], returning the mismatch instead of panicking (to collect many).
pub fn check(actual: &xp::Result<Array>, expected: &Result<Expected, String>, ctx: &str) -> Result<(), String> {
    match (actual, expected) {
        (Ok(a), Ok(e)) => compare(a, e).map_err(|msg| format!("{ctx}: {msg}\n  got: {a}")),
        (Err(_), Err(_)) => Ok(()),
        (Ok(a), Err(why)) => Err(format!("{ctx}: expected an error ({why}), got {a}")),
        (Err(err), Ok(e)) => Err(format!("{ctx}: unexpected error {err} (expected {} {:?})", e.dtype, e.shape)),
    }
}

/// Collects mismatches and fails once at the end with all of them (the first 30 printed).
#[derive(Default)]
pub struct Failures(Vec<String>);

impl Failures {
    /// Record the outcome of a [`check`].
    pub fn add(&mut self, r: Result<(), String>) {
        if let Err(m) = r {
            self.0.push(m);
        }
    }
    /// Panic listing the failures, if any.
    #[track_caller]
    pub fn finish(self) {
        if !self.0.is_empty() {
            let shown: Vec<&str> = self.0.iter().take(30).map(String::as_str).collect();
            panic!("{} mismatches:\n{}", self.0.len(), shown.join("\n"));
        }
    }
}

/// Assert that every device gives the same kind of error for an operation.
#[track_caller]
pub fn assert_same_errors(results: &[(Device, xp::Result<Array>)], ctx: &str) {
    let kinds: Vec<Option<std::mem::Discriminant<Error>>> =
        results.iter().map(|(_, r)| r.as_ref().err().map(std::mem::discriminant)).collect();
    if kinds.windows(2).any(|w| w[0] != w[1]) {
        let desc: Vec<String> = results.iter().map(|(d, r)| format!("{d}: {:?}", r.as_ref().err())).collect();
        panic!("{ctx}: devices disagree: {}", desc.join("; "));
    }
}

/// Build one logical array (data in C order, `shape`) in several layouts on `device`: contiguous,
/// transposed (a transpose of the transposed data), stepped (every other element of a larger
/// buffer), reversed (negative strides on the first axis) and offset (a view into a larger
/// buffer). Every variant holds the same values.
pub fn layouts(data: &HostBuffer, shape: &[usize], device: Device) -> xp::Result<Vec<(&'static str, Array)>> {
    let base = Array::from_buffer(data.clone(), shape, device)?;
    let mut out = vec![("contiguous", base.clone())];
    if shape.len() >= 2 {
        // t holds the transposed values contiguously; its transpose is the logical array.
        let t = base.t()?.copy()?;
        out.push(("transposed", t.t()?));
    }
    if !shape.is_empty() && base.size() > 0 {
        let n = shape.len();
        // stepped: a buffer twice as long in the last axis; take every other element.
        let mut wide = shape.to_vec();
        wide[n - 1] *= 2;
        let w = xp::on(device).zeros(&wide, base.dtype())?;
        let mut idx = vec![xp::SliceElem::FULL; n];
        idx[n - 1] = xp::SliceElem::FULL.step(2);
        w.slice(&idx)?.assign(&base)?;
        out.push(("stepped", w.slice(&idx)?));
        // reversed: stored back to front along axis 0, viewed through a negative stride.
        let r = base.flip(0)?.copy()?;
        out.push(("reversed", r.flip(0)?));
        // offset: the array starts one element into a larger buffer.
        let mut bigger = shape.to_vec();
        bigger[0] += 1;
        let b = xp::on(device).zeros(&bigger, base.dtype())?;
        let mut idx = vec![xp::SliceElem::FULL; n];
        idx[0] = xp::SliceElem::from(1..);
        b.slice(&idx)?.assign(&base)?;
        out.push(("offset", b.slice(&idx)?));
    }
    Ok(out)
}

/// The values of a host buffer widened to complex128 (for building [`Expected`]s).
pub fn widen(buf: &HostBuffer) -> Vec<Complex64> {
    (0..buf.len()).map(|i| buf.get(i).map_or(Complex64::new(f64::NAN, 0.0), Scalar::to_c128)).collect()
}

/// True for dtypes whose values are exact (bool and integers).
pub fn is_exact(d: DType) -> bool {
    matches!(d.kind(), Kind::Bool | Kind::Int | Kind::Uint)
}
