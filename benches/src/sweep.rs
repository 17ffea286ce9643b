//! `xp-bench --sweep`: one speed row for every public function of `xp::linalg`, `xp::fft`,
//! `xp::signal`, `xp::ndimage`, the statistics, indexing, sorting and set routines that CuPy (or
//! `cupyx.scipy.signal` / `cupyx.scipy.ndimage`) also has, each at one representative size:
//! about 2^22 elements for elementwise and 1-D work (2^22 samples for 1-D signals, a 2048² image
//! for 2-D filters), a stack of 1024 matrices of 32×32 for linear algebra (complex64 where
//! natural), plus one 1024² single-matrix row for the decompositions and solvers. A row that would
//! take more than about 2 s on the CPU is shrunk there only, and its size says so.
//!
//! ```text
//! # the CPU against NumPy/SciPy (python3 with numpy and scipy)
//! cargo run --release -p xp-bench -- --sweep --compare
//! # a GPU against CuPy (python3 with cupy: cupyx.scipy.signal, .ndimage and cupy.fft)
//! cargo run --release -p xp-bench -- --sweep --device cuda:0 --compare
//! # a subset, more repetitions, JSON lines as well
//! cargo run --release -p xp-bench -- --sweep --filter ndimage. --reps 20 --json
//! # do xp and the reference compute the same thing? (same inputs, outputs compared)
//! cargo run --release -p xp-bench -- --sweep --check [--device cuda:0]
//! ```
//!
//! Each row holds its xp call (built from inputs made on the device) and its reference as two
//! Python strings, setup and timed call, written against the names `sweep.py` provides: `xp`
//! (numpy or cupy), `np` (numpy), `sp` (scipy or cupyx.scipy, with `sp.signal`, `sp.ndimage`,
//! `sp.fft` and `sp.linalg` imported), `gpu`, and the input helpers [`uniform`], [`cuniform`],
//! [`ints`], [`well`], [`hpd`] (and `scatter(op, a, i, v)`), which build exactly the inputs the
//! Rust helpers of the same names build: the same counter-based generator (splitmix64 of the
//! element index) runs in NumPy, so both sides see the same values.
//!
//! Timing, on both sides: two warm-up calls, then the median of `--reps` calls (default 10; 3
//! when the first call took more than 1 s), each followed by a wait for the device. `--compare`
//! hands the rows to `sweep.py` (as JSON on its stdin), which times the references the same way
//! and answers with one JSON line per row; a reference that raises `AttributeError`,
//! `NotImplementedError` or `ImportError` (CuPy lacking the function) is `n/a`. The table's
//! ratio is reference time / xp time: above 1 means xp is faster; rows below 1 are marked `◀`.
//! An xp call that fails prints its error in its row, and the sweep goes on.
//!
//! `--check` runs each row once on both sides instead of timing it: xp's outputs are saved as
//! `.npy` files, and `sweep.py` compares them with the reference's (shapes, dtypes, and values to
//! a relative tolerance of the precision: 2e-3 in single, 1e-6 in double precision, measured
//! against the largest magnitude), after the row's normalisation ([`Cmp`]): eigenvalues
//! sorted, signs of QR factors dropped. The files go to a temporary folder, removed afterwards,
//! or to `$XP_SWEEP_CHECK_DIR`, kept (`<row>_<output>.npy`, rows numbered as listed).
mod csgraph;
mod dist;
mod dist_spmd;
mod everyday;
mod fft;
mod index;
mod linalg;
mod ndimage;
mod ports;
mod signal;
mod sparse;
mod sparse_linalg;
mod stats;

use std::io::{Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::{Command, Stdio};
use std::time::Instant;
use xp::{Array, DType, Device, Result};

/// The reference runner, run by `python3 -c`.
const SWEEP_PY: &str = include_str!("sweep.py");

/// The arrays one call produced: what `--check` compares (the timed runs drop them).
pub(crate) type Outs = Vec<Array>;

/// A row's xp call. Its argument is true for the `--check` run, where a row may return a
/// normalised form of its result (e.g. the values an `argsort` puts in order rather than the
/// positions, which ties make ambiguous); the timed runs pass false.
pub(crate) type Call = Box<dyn FnMut(bool) -> Result<Outs>>;

/// Builds a row's inputs on a device and returns its call.
type Setup = Box<dyn Fn(Device) -> Result<Call>>;

/// How `--check` compares xp's outputs with the reference's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Cmp {
    /// values to the precision's tolerance
    #[default]
    Close,
    /// each output sorted along its last axis first (eigenvalues, whose order is unspecified)
    Sorted,
    /// magnitudes only (factors defined up to the sign or phase of each column or row)
    Abs,
    /// values to single precision's tolerance whatever the dtypes (the reference rounds some
    /// intermediate values to float32)
    Loose,
}

impl Cmp {
    fn py(self) -> &'static str {
        match self {
            Cmp::Close => "close",
            Cmp::Sorted => "sorted",
            Cmp::Abs => "abs",
            Cmp::Loose => "loose",
        }
    }
}

/// One row of the sweep: an xp function at one size, and its NumPy/CuPy reference.
pub(crate) struct Row {
    /// the xp path of the function (`linalg.svd`, `fft.rfft2`, `take`, ...)
    function: String,
    /// the size and dtype (`1024x32x32 c64`)
    size: String,
    /// builds the inputs on a device and returns the call
    setup: Setup,
    /// Python run once before timing (builds the inputs)
    py_setup: String,
    /// the timed Python expression
    py_call: String,
    /// Python expression of the call's result `r` giving the list of arrays `--check` compares
    /// with xp's outputs, in order
    py_out: String,
    /// how `--check` compares
    cmp: Cmp,
}

impl Row {
    /// A row whose reference is `py_call` after `py_setup`, compared (with `--check`) as the
    /// single array the call returns.
    pub(crate) fn new(
        function: &str,
        size: impl Into<String>,
        py_setup: impl Into<String>,
        py_call: impl Into<String>,
        setup: impl Fn(Device) -> Result<Call> + 'static,
    ) -> Row {
        Row {
            function: function.to_string(),
            size: size.into(),
            setup: Box::new(setup),
            py_setup: py_setup.into(),
            py_call: py_call.into(),
            py_out: "r".to_string(),
            cmp: Cmp::Close,
        }
    }
    /// The Python expression (of the result `r` and the setup's names) whose arrays `--check`
    /// compares with the xp call's outputs.
    pub(crate) fn out(mut self, py: impl Into<String>) -> Row {
        self.py_out = py.into();
        self
    }
    /// How `--check` compares.
    pub(crate) fn cmp(mut self, c: Cmp) -> Row {
        self.cmp = c;
        self
    }
    /// The row's unique name: function and size.
    fn name(&self) -> String {
        format!("{} {}", self.function, self.size)
    }
}

/// A call returning one array.
pub(crate) fn one(mut f: impl FnMut() -> Result<Array> + 'static) -> Result<Call> {
    Ok(Box::new(move |_| Ok(vec![f()?])))
}

/// A call returning several arrays.
pub(crate) fn many(mut f: impl FnMut() -> Result<Outs> + 'static) -> Result<Call> {
    Ok(Box::new(move |_| f()))
}

/// A call that knows whether it is the `--check` run.
pub(crate) fn checked(f: impl FnMut(bool) -> Result<Outs> + 'static) -> Result<Call> {
    Ok(Box::new(f))
}

/// `n` values of a counter-based generator: splitmix64's finaliser of `(seed << 40) + i`. NumPy
/// computes the same values (`sweep.py`'s `_bits`) without a loop.
fn bits(n: usize, seed: u64) -> impl Iterator<Item = u64> {
    (0..n as u64).map(move |i| {
        let mut z = (seed << 40).wrapping_add(i).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    })
}

/// Uniform float32 values in (0, 1): `(k + 1/2) / 2^23` for 23 random bits `k`, exact in
/// float32 and never 0 or 1.
fn unit(n: usize, seed: u64) -> Vec<f32> {
    bits(n, seed).map(|z| ((z >> 41) as f32 + 0.5) / (1u64 << 23) as f32).collect()
}

/// A float32 array of uniform values in (0, 1) on `d` (`uniform(shape, seed)` in Python).
pub(crate) fn uniform(shape: &[usize], seed: u64, d: Device) -> Result<Array> {
    let n = shape.iter().product();
    Array::from_vec(unit(n, seed), shape)?.to_device(d)
}

/// A complex64 array whose real and imaginary parts are uniform in (0, 1) (`cuniform`).
pub(crate) fn cuniform(shape: &[usize], seed: u64, d: Device) -> Result<Array> {
    let n = shape.iter().product();
    let v: Vec<xp::Complex32> =
        unit(n, seed).into_iter().zip(unit(n, seed + 0x8000)).map(|(re, im)| xp::Complex32::new(re, im)).collect();
    Array::from_vec(v, shape)?.to_device(d)
}

/// An int64 array of values in `0 .. hi` (`ints(shape, hi, seed)`).
pub(crate) fn ints(shape: &[usize], hi: u64, seed: u64, d: Device) -> Result<Array> {
    let n = shape.iter().product();
    let v: Vec<i64> = bits(n, seed).map(|z| (z % hi) as i64).collect();
    Array::from_vec(v, shape)?.to_device(d)
}

/// Uniform values of dtype `dt` (complex dtypes get random imaginary parts too).
pub(crate) fn uniform_as(shape: &[usize], seed: u64, dt: DType, d: Device) -> Result<Array> {
    if dt.is_complex() {
        cuniform(shape, seed, d)?.astype(dt)
    } else {
        uniform(shape, seed, d)?.astype(dt)
    }
}

/// `shape` with the batch (if any) in front of `n × n`.
fn stack_shape(batch: Option<usize>, n: usize) -> Vec<usize> {
    batch.map_or(vec![n, n], |b| vec![b, n, n])
}

/// A well-conditioned stack (`batch` of `n × n`, or one matrix): uniform / n + I, whose
/// eigenvalues lie near 1 but one near 1.5 (`well(batch, n, dtype)`).
pub(crate) fn well(batch: Option<usize>, n: usize, dt: DType, d: Device) -> Result<Array> {
    let a = uniform_as(&stack_shape(batch, n), 0, dt, d)?.div(n as f64)?;
    a.add(&xp::on(d).eye(n, None, 0, dt)?)
}

/// A Hermitian (symmetric) positive definite stack: `A Aᴴ / n + I` of uniform `A` (`hpd`).
pub(crate) fn hpd(batch: Option<usize>, n: usize, dt: DType, d: Device) -> Result<Array> {
    let a = uniform_as(&stack_shape(batch, n), 0, dt, d)?;
    let g = xp::matmul(&a, &a.conj()?.matrix_transpose()?)?.div(n as f64)?;
    g.add(&xp::on(d).eye(n, None, 0, dt)?)
}

/// A shape as a Python tuple: `(2048, 2048)`, `(64,)`.
pub(crate) fn py_tuple(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        s => format!("({})", s.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")),
    }
}

/// A shape as a size: `2048x2048`.
pub(crate) fn dims(shape: &[usize]) -> String {
    shape.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("x")
}

/// The side of a square image: `full` on a GPU, `cpu` on the CPU, with the size column saying so
/// when they differ (`1024x1024 f32 (CPU; GPU 2048x2048)`).
pub(crate) fn shrunk(gpu: bool, full: usize, cpu: usize, tail: &str) -> (usize, String) {
    let n = if gpu { full } else { cpu };
    let mut s = format!("{n}x{n} {tail}");
    if n != full {
        s.push_str(&format!(" (CPU; GPU {full}x{full})"));
    }
    (n, s)
}

/// Every row, for a GPU or the CPU (whose slow rows are smaller).
fn rows(gpu: bool) -> Vec<Row> {
    let mut r = vec![];
    linalg::rows(&mut r, gpu);
    fft::rows(&mut r, gpu);
    signal::rows(&mut r, gpu);
    ndimage::rows(&mut r, gpu);
    stats::rows(&mut r, gpu);
    sparse::rows(&mut r, gpu);
    sparse_linalg::rows(&mut r, gpu);
    csgraph::rows(&mut r);
    dist::rows(&mut r, gpu);
    dist_spmd::rows(&mut r, gpu);
    index::rows(&mut r, gpu);
    everyday::rows(&mut r, gpu);
    ports::rows(&mut r, gpu);
    r
}

/// The sweep's options (see the module doc).
pub(crate) struct Options {
    /// where xp runs (and the reference: NumPy for the CPU, CuPy for a GPU)
    pub device: Device,
    /// only rows whose name contains this (or one of its comma-separated parts)
    pub filter: Option<String>,
    /// timed calls per row after the warm-ups
    pub reps: usize,
    /// run the reference too
    pub compare: bool,
    /// print JSON lines after the table
    pub json: bool,
    /// compare outputs instead of timing
    pub check: bool,
}

/// Wait for everything queued on `d`.
fn wait(d: Device) -> Result<()> {
    match d {
        Device::Cuda(i) => xp::cuda::synchronize(i),
        Device::Cpu => Ok(()),
    }
}

/// Run `f`, turning a panic into an error message.
fn guarded<T>(f: impl FnOnce() -> Result<T>) -> std::result::Result<T, String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(t)) => Ok(t),
        Ok(Err(e)) => Err(e.to_string()),
        Err(p) => Err(format!(
            "panicked: {}",
            p.downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default()
        )),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// One call and the wait for the device, in ms (the outputs freed inside, as Python frees
/// them).
fn timed_call(call: &mut Call, d: Device) -> Result<f64> {
    let t = Instant::now();
    let outs = call(false)?;
    wait(d)?;
    drop(outs);
    Ok(t.elapsed().as_secs_f64() * 1e3)
}

/// The median time of a row: two warm-ups, then `reps` calls (3 when the first took > 1 s).
fn time_row(row: &Row, d: Device, reps: usize) -> std::result::Result<f64, String> {
    guarded(|| {
        let mut call = (row.setup)(d)?;
        wait(d)?;
        let first = timed_call(&mut call, d)?;
        timed_call(&mut call, d)?;
        let n = if first > 1000.0 { 3 } else { reps.max(1) };
        let ts = (0..n).map(|_| timed_call(&mut call, d)).collect::<Result<Vec<f64>>>()?;
        Ok(median(ts))
    })
}

/// A JSON string literal.
fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            '\r' => o.push_str("\\r"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The string value of `"key"` in a one-line JSON object as `json.dumps` writes it.
fn json_get_str(line: &str, key: &str) -> Option<String> {
    let rest = line.split(&format!("\"{key}\": \"")).nth(1)?;
    let mut out = String::new();
    let mut it = rest.chars();
    while let Some(c) = it.next() {
        match c {
            '"' => return Some(out),
            '\\' => match it.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'u' => {
                    let hex: String = it.by_ref().take(4).collect();
                    out.push(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32).unwrap_or('?'));
                }
                c => out.push(c),
            },
            c => out.push(c),
        }
    }
    None
}

/// The number value of `"key"` in a one-line JSON object.
fn json_get_num(line: &str, key: &str) -> Option<f64> {
    let rest = line.split(&format!("\"{key}\": ")).nth(1)?;
    rest.split([',', '}']).next()?.trim().parse().ok()
}

/// What the reference runner said about one row.
#[derive(Clone, Debug)]
enum Answer {
    /// its median time (ms), or with `--check` the comparison's verdict and detail
    Done(f64, String),
    /// CuPy (or NumPy) lacks the function
    NotAvailable(String),
    /// the Python code raised
    Failed(String),
}

/// Run `sweep.py` on the rows (JSON on its stdin); None when python3 cannot run it. `mode` is
/// `time` or `check:<dir>`.
fn reference(rows: &[&Row], device: Device, reps: usize, mode: &str) -> Option<Vec<Option<Answer>>> {
    let items: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            format!(
                "{{\"id\": {i}, \"name\": {}, \"setup\": {}, \"call\": {}, \"out\": {}, \"cmp\": {}}}",
                json_str(&r.name()),
                json_str(&r.py_setup),
                json_str(&r.py_call),
                json_str(&r.py_out),
                json_str(r.cmp.py())
            )
        })
        .collect();
    let input = format!("[{}]", items.join(",\n"));
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(SWEEP_PY)
        .arg(device.to_string())
        .arg(reps.to_string())
        .arg(mode)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| eprintln!("xp-bench: cannot run python3: {e}"))
        .ok()?;
    child.stdin.take()?.write_all(input.as_bytes()).ok()?;
    let mut out = String::new();
    child.stdout.take()?.read_to_string(&mut out).ok()?;
    let status = child.wait().ok()?;
    if !status.success() {
        eprintln!("xp-bench: the reference runner failed ({status})");
        if out.trim().is_empty() {
            return None;
        }
    }
    let mut answers = vec![None; rows.len()];
    for line in out.lines() {
        let Some(id) = json_get_num(line, "id").map(|v| v as usize).filter(|&i| i < rows.len()) else { continue };
        let detail = json_get_str(line, "detail").unwrap_or_default();
        answers[id] = Some(match json_get_str(line, "status").as_deref() {
            Some("n/a") => Answer::NotAvailable(detail),
            Some("error") => Answer::Failed(detail),
            Some(verdict) => Answer::Done(json_get_num(line, "ms").unwrap_or(f64::NAN), format!("{verdict} {detail}")),
            None => continue,
        });
    }
    Some(answers)
}

/// Milliseconds with about four significant digits.
fn ms(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.1}")
    } else if v >= 1.0 {
        format!("{v:.3}")
    } else {
        format!("{v:.4}")
    }
}

/// Markdown cells never hold a `|` or a newline.
fn cell(s: &str) -> String {
    let one: String = s.lines().next().unwrap_or("").replace('|', "/");
    if one.chars().count() > 120 {
        format!("{}…", one.chars().take(120).collect::<String>())
    } else {
        one
    }
}

/// `xp-bench --sweep`: time (or with `check`, compare) every row matching the filter and print
/// the table.
pub(crate) fn main(o: Options) {
    let gpu = o.device != Device::Cpu;
    let all = rows(gpu);
    let mut seen = std::collections::HashSet::new();
    for r in &all {
        assert!(seen.insert(r.name()), "duplicate sweep row {}", r.name());
    }
    let rows: Vec<&Row> =
        all.iter().filter(|r| o.filter.as_ref().is_none_or(|f| f.split(',').any(|p| r.name().contains(p)))).collect();
    if o.check {
        check(&rows, o.device);
        return;
    }
    let t0 = Instant::now();
    let mut xs: Vec<std::result::Result<f64, String>> = vec![];
    for r in &rows {
        let x = time_row(r, o.device, o.reps);
        match &x {
            Ok(m) => eprintln!("xp {:<48} {:>10} ms", r.name(), ms(*m)),
            Err(e) => eprintln!("xp {:<48} error: {e}", r.name()),
        }
        xs.push(x);
    }
    eprintln!("xp-bench: xp side took {:.1} s", t0.elapsed().as_secs_f64());
    let refname = if gpu { "CuPy" } else { "NumPy/SciPy" };
    let refs = if o.compare {
        let t1 = Instant::now();
        let a = reference(&rows, o.device, o.reps, "time");
        eprintln!("xp-bench: reference side took {:.1} s", t1.elapsed().as_secs_f64());
        if a.is_none() {
            eprintln!("xp-bench: --compare: the {refname} runner did not run; printing xp alone");
        }
        a
    } else {
        None
    };
    println!("| function | size | device | xp ms | ref ms | ratio |");
    println!("|---|---|---|---:|---:|---:|");
    let mut slower = 0;
    let mut json = vec![];
    for (i, r) in rows.iter().enumerate() {
        let answer = refs.as_ref().and_then(|a| a[i].clone());
        let rm = match &answer {
            Some(Answer::Done(v, _)) => Some(*v),
            _ => None,
        };
        let (xcell, ratio) = match &xs[i] {
            Ok(m) => (ms(*m), rm.map(|v| v / m)),
            Err(e) => (format!("error: {}", cell(e)), None),
        };
        let rcell = match &answer {
            None if o.compare => "-".to_string(),
            None => String::new(),
            Some(Answer::Done(v, _)) => ms(*v),
            Some(Answer::NotAvailable(_)) => "n/a".to_string(),
            Some(Answer::Failed(e)) => format!("error: {}", cell(e)),
        };
        let rcell = if o.compare { rcell } else { "-".to_string() };
        let qcell = match ratio {
            Some(q) if q < 1.0 => {
                slower += 1;
                format!("{q:.2}× ◀")
            }
            Some(q) => format!("{q:.2}×"),
            None => "-".to_string(),
        };
        println!("| {} | {} | {} | {xcell} | {rcell} | {qcell} |", r.function, r.size, o.device);
        if o.json {
            let num = |v: Option<f64>| v.map_or("null".to_string(), |v| format!("{v:.6}"));
            let err = xs[i].as_ref().err().map_or("null".to_string(), |e| json_str(e));
            json.push(format!(
                "{{\"function\": {}, \"size\": {}, \"device\": \"{}\", \"xp_ms\": {}, \"xp_error\": {err}, \"reference\": \"{refname}\", \"reference_ms\": {}, \"ratio\": {}}}",
                json_str(&r.function),
                json_str(&r.size),
                o.device,
                num(xs[i].as_ref().ok().copied()),
                num(rm),
                num(ratio)
            ));
        }
    }
    if o.compare {
        println!("\n{} rows; {slower} below 1.0× (◀: {refname} faster); ratio = {refname} time / xp time", rows.len());
    }
    for j in json {
        println!("{j}");
    }
}

/// `--check`: run every row once on both sides with the same inputs and compare the outputs.
fn check(rows: &[&Row], d: Device) {
    let keep = std::env::var_os("XP_SWEEP_CHECK_DIR");
    let dir = keep
        .as_ref()
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join(format!("xp-sweep-check-{}", std::process::id())));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("xp-bench: --check: cannot create {}: {e}", dir.display());
        std::process::exit(1);
    }
    let mut xs = vec![];
    for (i, r) in rows.iter().enumerate() {
        let res = guarded(|| {
            let mut call = (r.setup)(d)?;
            let outs = call(true)?;
            for (k, a) in outs.iter().enumerate() {
                xp::save(dir.join(format!("{i}_{k}.npy")), a)?;
            }
            Ok(outs.len())
        });
        if let Err(e) = &res {
            eprintln!("xp {:<48} error: {e}", r.name());
        }
        xs.push(res);
    }
    let answers = reference(rows, d, 1, &format!("check:{}", dir.display()));
    if keep.is_none() {
        std::fs::remove_dir_all(&dir).ok();
    }
    println!("| function | size | device | check | detail |");
    println!("|---|---|---|---|---|");
    let mut bad = 0;
    for (i, r) in rows.iter().enumerate() {
        let (verdict, detail) = match (&xs[i], answers.as_ref().and_then(|a| a[i].clone())) {
            (Err(e), _) => ("xp error".to_string(), e.clone()),
            (Ok(_), None) => ("-".to_string(), "no reference answer".to_string()),
            (Ok(_), Some(Answer::NotAvailable(e))) => ("n/a".to_string(), e),
            (Ok(_), Some(Answer::Failed(e))) => ("ref error".to_string(), e),
            (Ok(_), Some(Answer::Done(_, v))) => {
                let (verdict, detail) = v.split_once(' ').unwrap_or((&v, ""));
                (verdict.to_string(), detail.to_string())
            }
        };
        if verdict != "ok" {
            bad += 1;
        }
        println!("| {} | {} | {d} | {verdict} | {} |", r.function, r.size, cell(&detail));
    }
    println!("\n{} rows; {bad} not ok", rows.len());
}
