//! Loading the NumPy reference data of `tests/data` (made by `scripts/gen_reference.py`).
#![allow(dead_code)]
use serde_json::Value;
use xp::{BinaryOp, Complex64, DType, Device, HostBuffer, Scalar, UnaryOp};
use xp_testing::{devices, Expected, Failures};

/// A case file's test is split over this many test functions (`part_0` ..), each running the
/// cases whose index is its number modulo `PARTS`, so that a slow run (under compute-sanitizer)
/// spreads them over threads.
pub const PARTS: usize = 8;

/// The cases of `part` (see [`PARTS`]).
pub fn part(cases: &[Value], part: usize) -> impl Iterator<Item = &Value> {
    cases.iter().skip(part).step_by(PARTS)
}

/// Tests `$body::part_0` .. `part_7`, each running `$body(failures, device, case)` through
/// [`each_case`] on its part of the cases of `tests/data/$file.json`.
macro_rules! split_cases {
    ($body:ident, $file:literal) => {
        $crate::common::split_cases!(@ $body, $file, part_0 0, part_1 1, part_2 2, part_3 3, part_4 4, part_5 5, part_6 6, part_7 7);
    };
    (@ $body:ident, $file:literal, $($test:ident $k:literal),*) => {
        mod $body {
            $(#[test]
            fn $test() {
                $crate::common::each_case($file, $k, super::$body)
            })*
        }
    };
}
pub(crate) use split_cases;

/// Runs `body` on every case of `tests/data/{file}.json` in part `k` (see [`PARTS`]), on every
/// device, collecting every mismatch before failing once with all of them.
pub fn each_case(file: &str, k: usize, body: fn(&mut Failures, Device, &Value)) {
    let cases = load(file);
    let mut f = Failures::default();
    // Under a sanitizer only the GPU's cases are worth the time (the CPU's are checked against
    // the same reference in every plain run, and would compete for the host with the tool).
    for dev in devices().into_iter().filter(|&d| !(sanitizing() && d == Device::Cpu)) {
        for case in part(&cases, k) {
            let _note = OnPanic(dev, case);
            body(&mut f, dev, case);
        }
    }
    f.finish();
}

/// Names the case being run when a panic (an unreadable result, a failed unwrap) unwinds
/// through it, so that a crash points at its input.
struct OnPanic<'a>(Device, &'a Value);

impl Drop for OnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let text: String = self.1.to_string().chars().take(400).collect();
            eprintln!("while running this case on {}: {text}", self.0);
        }
    }
}

/// The reference data folder (`tests/data`), found at run time so that a test binary runs from
/// any folder: `$XP_TEST_DATA`; else `data/` in the folder the test starts in (cargo and the GPU
/// bundle's runner start it in the package folder); else `tests/data` in a folder above the test
/// binary (a bundle's `.gpu/bin/` sits in the checkout); else the package folder it was built in.
pub fn data_dir() -> std::path::PathBuf {
    use std::path::{Path, PathBuf};
    let marker = |d: &Path| d.join("numpy_omissions.txt").is_file();
    if let Some(d) = std::env::var_os("XP_TEST_DATA") {
        return PathBuf::from(d);
    }
    if marker(Path::new("data")) {
        return PathBuf::from("data");
    }
    if let Ok(exe) = std::env::current_exe() {
        if let Some(d) = exe.ancestors().map(|a| a.join("tests").join("data")).find(|d| marker(d)) {
            return d;
        }
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

pub fn load(name: &str) -> Vec<Value> {
    let path = data_dir().join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let v: Value = serde_json::from_str(&text).expect("reference data is JSON");
    v["cases"].as_array().expect("cases").clone()
}

fn float(v: &Value) -> f64 {
    v.as_str().expect("floats are strings").parse().expect("float repr")
}

pub fn scalar(v: &Value, d: DType) -> Scalar {
    match d.kind() {
        xp::Kind::Bool => Scalar::Bool(v.as_bool().expect("bool")),
        xp::Kind::Int => Scalar::Int(v.as_i64().expect("int")),
        xp::Kind::Uint => Scalar::Uint(v.as_u64().expect("uint")),
        xp::Kind::Float => Scalar::Float(float(v)),
        xp::Kind::Complex => Scalar::Complex(Complex64::new(float(&v[0]), float(&v[1]))),
    }
}

/// A case's `tol: [rtol, atol]`.
pub fn case_tolerance(case: &Value) -> xp_testing::Tolerance {
    let t = &case["tol"];
    xp_testing::Tolerance { rtol: t[0].as_f64().unwrap(), atol: t[1].as_f64().unwrap() }
}

/// A reference array on `dev`.
pub fn load_on(v: &Value, dev: xp::Device) -> xp::Array {
    let (buf, shape) = array(v);
    xp::Array::from_buffer(buf, &shape, dev).unwrap()
}

/// The sparse matrix of a case stored as coordinates (`shape`, `data`, `row`, `col`), as CSR on
/// `dev`.
pub fn coo_case(c: &Value, dev: xp::Device) -> xp::sparse::CsrArray {
    let shape = [c["shape"][0].as_u64().unwrap() as usize, c["shape"][1].as_u64().unwrap() as usize];
    xp::sparse::CooArray::new(&load_on(&c["data"], dev), &load_on(&c["row"], dev), &load_on(&c["col"], dev), shape)
        .unwrap()
        .tocsr()
        .unwrap()
}

/// `body` with the sparse solvers' and graphs' GPU paths forced on every device, the CPU
/// included (`xp::sparse::linalg::force_fused`).
pub fn forced_gpu_paths<F: FnOnce()>(body: F) {
    xp::sparse::linalg::force_fused(true);
    body();
    xp::sparse::linalg::force_fused(false);
}

/// (buffer, shape) of a reference array.
pub fn array(v: &Value) -> (HostBuffer, Vec<usize>) {
    let d = DType::from_name(v["dtype"].as_str().unwrap()).expect("known dtype");
    let shape: Vec<usize> = v["shape"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect();
    let data: Vec<Scalar> = v["data"].as_array().unwrap().iter().map(|x| scalar(x, d)).collect();
    (HostBuffer::from_fn(data.len(), d, |i| data[i]), shape)
}

/// The expected outcome of a case: values, or an error with NumPy's message.
pub fn expected(case: &Value) -> Result<Expected, String> {
    if let Some(e) = case.get("error") {
        return Err(e.as_str().unwrap_or("error").to_string());
    }
    let (buf, shape) = array(&case["result"]);
    Ok(Expected::new(buf.dtype(), &shape, xp_testing::widen(&buf)))
}

pub fn weak_scalar(v: &Value) -> Scalar {
    if let Some(b) = v.get("bool") {
        Scalar::Bool(b.as_bool().unwrap())
    } else if let Some(i) = v.get("int") {
        Scalar::Int(i.as_i64().unwrap())
    } else if let Some(f) = v.get("float") {
        Scalar::Float(float(f))
    } else {
        let c = &v["complex"];
        Scalar::Complex(Complex64::new(float(&c[0]), float(&c[1])))
    }
}

/// The unary op with NumPy's name `name`.
pub fn unary_op(name: &str) -> UnaryOp {
    *UnaryOp::ALL.iter().find(|o| o.name() == name).unwrap_or_else(|| panic!("no unary op {name}"))
}

/// The binary op with NumPy's name `name`.
pub fn binary_op(name: &str) -> BinaryOp {
    *BinaryOp::ALL.iter().find(|o| o.name() == name).unwrap_or_else(|| panic!("no binary op {name}"))
}

/// A deterministic xorshift64 stream of `n` raw words from `seed`.
pub fn xorshift(n: usize, seed: u64) -> impl Iterator<Item = u64> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n).map(move |_| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    })
}

/// The expected outcome of a case with one result (`result`) or several (`results`).
pub fn expected_all(case: &Value) -> Result<Vec<Expected>, String> {
    match case.get("results") {
        Some(r) => {
            Ok(r.as_array().unwrap().iter().map(|v| expected(&serde_json::json!({ "result": v })).unwrap()).collect())
        }
        None => expected(case).map(|e| vec![e]),
    }
}

/// A reference array: its elements and shape.
pub type Input = (HostBuffer, Vec<usize>);

/// A case with its own tolerance (`"tol": [rtol, atol]`): its expected results with that
/// tolerance, and its inputs (`args`).
pub fn tolerant_case(case: &Value) -> (Result<Vec<Expected>, String>, Vec<Input>) {
    let t = &case["tol"];
    let tol = xp_testing::Tolerance { rtol: t[0].as_f64().unwrap(), atol: t[1].as_f64().unwrap() };
    let want = expected_all(case).map(|v| v.into_iter().map(|e| e.with_tol(tol)).collect());
    (want, case["args"].as_array().unwrap().iter().map(array).collect())
}

/// Runs `run` on each layout variant of the inputs (all inputs share the variant's position) and
/// compares its results with `want`, an error with an error. With `untouched`, a call that fails
/// must leave its first input as it was (in-place operations).
pub fn check_layouts(
    f: &mut Failures,
    dev: Device,
    inputs: &[(HostBuffer, Vec<usize>)],
    want: &Result<Vec<Expected>, String>,
    what: &str,
    untouched: bool,
    run: impl Fn(&[xp::Array]) -> xp::Result<Vec<xp::Array>>,
) {
    let variants: Vec<Vec<(&str, xp::Array)>> =
        inputs.iter().map(|(b, s)| xp_testing::layouts(b, s, dev).unwrap()).collect();
    let n = variants.iter().map(|v| v.len()).max().unwrap_or(1);
    let snapshot = |x: &[xp::Array]| x.first().map(|a| format!("{:?}", a.to_buffer().unwrap())).unwrap_or_default();
    for k in 0..n {
        let x: Vec<xp::Array> = variants.iter().map(|v| v[k % v.len()].1.clone()).collect();
        let lname = variants.first().map_or("none", |v| v[k % v.len()].0);
        let shapes: Vec<_> = x.iter().map(|a| (a.dtype(), a.shape().to_vec())).collect();
        let ctx = format!("{what} on {dev}, {lname}, inputs {shapes:?}");
        let before = if untouched { snapshot(&x) } else { String::new() };
        match (run(&x), want) {
            (Ok(got), Ok(w)) if got.len() == w.len() => {
                for (g, e) in got.into_iter().zip(w) {
                    f.add(xp_testing::check(&Ok(g), &Ok(e.clone()), &ctx));
                }
            }
            (Ok(got), Ok(w)) => f.add(Err(format!("{ctx}: {} results, expected {}", got.len(), w.len()))),
            (Err(_), Err(_)) if untouched && snapshot(&x) != before => {
                f.add(Err(format!("{ctx}: the failed operation changed its input")))
            }
            (Err(_), Err(_)) => {}
            (Ok(_), Err(why)) => f.add(Err(format!("{ctx}: expected an error ({why})"))),
            (Err(e), Ok(_)) => f.add(Err(format!("{ctx}: unexpected error {e}"))),
        }
    }
}

/// Whether the suite runs under compute-sanitizer (`scripts/gpu-sanitize` sets `XP_SANITIZE`):
/// the slowest property tests then sweep a subset of their sizes, since every launch is
/// instrumented (all dtypes and layouts are still covered).
pub fn sanitizing() -> bool {
    std::env::var_os("XP_SANITIZE").is_some()
}

/// Whether the tool is racecheck (`XP_SANITIZE=racecheck`), which instruments every shared-memory
/// access: tests whose kernels read their operand the same way in every layout may then run the
/// first layout only (a race is a property of the kernel and the shape, not of the input's
/// strides; memcheck still sees every layout).
pub fn racing() -> bool {
    std::env::var_os("XP_SANITIZE").is_some_and(|v| v == "racecheck")
}
