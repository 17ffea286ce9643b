//! xp-bench: time xp workloads on a device, optionally against NumPy (CPU) or CuPy (GPU) run by
//! `python3` in the same process tree, and print the medians and ratios.
//!
//! ```text
//! cargo run --release -p xp-bench -- [--device cpu|cuda:0] [--filter NAME] [--json] [--compare] [--reps N]
//! ```
//! Each workload is warmed up twice, then run `--reps` times (default 15); the median is
//! reported. `small_*` workloads report microseconds per op over 10^4 back-to-back ops; the others
//! milliseconds per run. The ratio is reference time / xp time: above 1 means xp is faster.
//!
//! `--cold` instead measures a first run from empty kernel caches (see the `cold` module).
//!
//! `--sweep` instead times one row for every public function of xp's linalg, fft, signal, ndimage,
//! statistics, indexing, sorting and set routines that CuPy also has, and prints a Markdown table
//! (see the `sweep` module: `--sweep [--device D] [--compare] [--filter S] [--reps N] [--json]
//! [--check]`).
mod cold;
mod elementwise;
mod fft;
mod filters;
mod index;
mod kernels;
mod linalg;
mod random;
mod rust_kernels;
mod scipy_linalg;
mod stats;
mod sweep;

use std::io::Write;
use std::process::Command;
use std::time::Instant;
use xp::{Array, Device, Result};

const REFERENCE_PY: &str = include_str!("reference.py");

/// The timed part of a workload.
type Timed = Box<dyn FnMut() -> Result<()>>;

struct Workload {
    name: String,
    unit: &'static str,
    /// builds the inputs and returns the timed closure
    setup: Box<dyn Fn(Device) -> Result<Timed>>,
}

/// `n` values of the xorshift stream that starts from `seed`.
pub(crate) fn xorshift(n: usize, mut s: u64) -> impl Iterator<Item = u64> {
    (0..n).map(move |_| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    })
}

/// Uniform [0, 1) floats from a fixed xorshift stream (never zeros: see METHOD.md).
fn rand(n: usize, shape: &[usize], device: Device) -> Result<Array> {
    let v: Vec<f32> = xorshift(n, 0x9E37_79B9_7F4A_7C15).map(|s| (s >> 40) as f32 / (1u64 << 24) as f32).collect();
    Array::from_vec(v, shape)?.to_device(device)
}

/// Wait for the device, as CuPy's reference waits for its stream (every op is synchronous on the
/// CPU).
fn sync(a: &Array) -> Result<()> {
    match a.device() {
        Device::Cuda(i) => xp::cuda::synchronize(i),
        Device::Cpu => Ok(()),
    }
}

/// A small-op workload: 10^4 back-to-back calls of `op`, then one wait.
fn small(op: impl Fn() -> Result<Array> + 'static) -> Timed {
    Box::new(move || {
        let mut last = None;
        for _ in 0..10_000 {
            last = Some(op()?);
        }
        sync(&last.expect("ran"))
    })
}

fn standardize(x: &Array) -> Result<Array> {
    let mods = xp::get_array_module(x);
    let eps = mods.full([], 1e-12, x.dtype())?;
    x.sub(&x.mean_keepdim(0)?)?.div(&x.std_keepdim(0)?.add(&eps)?)
}

fn workloads(gpu: bool) -> Vec<Workload> {
    let (n, (r, c)) = if gpu { (1usize << 26, (8192usize, 8192usize)) } else { (1 << 25, (4096, 8192)) };
    let lg = n.trailing_zeros();
    let mut w: Vec<Workload> = vec![];
    macro_rules! wl {
        ($name:expr, $unit:expr, |$d:ident| $body:expr) => {
            w.push(Workload { name: $name, unit: $unit, setup: Box::new(move |$d: Device| $body) });
        };
    }
    wl!(format!("add_f32_2^{lg}"), "ms", |d| {
        let (a, b) = (rand(n, &[n], d)?, rand(n, &[n], d)?.mul(0.5)?);
        Ok(Box::new(move || sync(&a.add(&b)?)))
    });
    wl!(format!("sum_f32_2^{lg}"), "ms", |d| {
        let a = rand(n, &[n], d)?;
        Ok(Box::new(move || sync(&a.sum(..)?)))
    });
    wl!(format!("tanh_sin_f32_2^{lg}"), "ms", |d| {
        let a = rand(n, &[n], d)?;
        Ok(Box::new(move || sync(&a.sin()?.add(&a.mul(0.1)?)?.tanh()?)))
    });
    wl!(format!("sum_axis0_{r}x{c}"), "ms", |d| {
        let a = rand(r * c, &[r, c], d)?;
        Ok(Box::new(move || sync(&a.sum(0)?)))
    });
    wl!(format!("sum_axis1_{r}x{c}"), "ms", |d| {
        let a = rand(r * c, &[r, c], d)?;
        Ok(Box::new(move || sync(&a.sum(1)?)))
    });
    wl!(format!("transpose_copy_{r}x{c}"), "ms", |d| {
        let a = rand(r * c, &[r, c], d)?;
        Ok(Box::new(move || sync(&a.t()?.ascontiguousarray()?)))
    });
    wl!(format!("standardize_{r}x{c}"), "ms", |d| {
        let a = rand(r * c, &[r, c], d)?;
        Ok(Box::new(move || sync(&standardize(&a)?)))
    });
    wl!("cumsum_f32_1e7".to_string(), "ms", |d| {
        let a = rand(10_000_000, &[10_000_000], d)?;
        Ok(Box::new(move || sync(&a.cumsum(..)?)))
    });
    wl!(format!("argmax_f32_2^{lg}"), "ms", |d| {
        let a = rand(n, &[n], d)?;
        Ok(Box::new(move || sync(&a.argmax(..)?)))
    });
    wl!("small_add_1024".to_string(), "us/op", |d| {
        let (a, b) = (rand(1024, &[1024], d)?, rand(1024, &[1024], d)?);
        Ok(small(move || a.add(&b)))
    });
    elementwise::workloads(&mut w);
    linalg::workloads(&mut w, gpu);
    linalg::stacks(&mut w);
    scipy_linalg::workloads(&mut w, gpu);
    index::workloads(&mut w, gpu);
    random::workloads(&mut w, gpu);
    stats::workloads(&mut w, gpu);
    fft::workloads(&mut w, gpu);
    filters::workloads(&mut w, gpu);
    kernels::workloads(&mut w, gpu);
    rust_kernels::workloads(&mut w, gpu);
    if gpu {
        kernels::graph_workload(&mut w);
        transfers(&mut w, n);
        wl!("small_copy_1024".to_string(), "us/op", |d| {
            let a = rand(1024, &[1024], d)?;
            Ok(small(move || a.copy()))
        });
        wl!("small_sum_1024".to_string(), "us/op", |d| {
            let a = rand(1024, &[1024], d)?;
            Ok(small(move || a.sum(..)))
        });
    }
    w
}

/// Host<->device through pinned memory and device-to-device, 256 MB each (GPU only).
fn transfers(w: &mut Vec<Workload>, n: usize) {
    use xp::cuda::pinned::Pinned;
    let mb = (n * 4) >> 20;
    w.push(Workload {
        name: format!("copy_d2d_{mb}MB"),
        unit: "ms",
        setup: Box::new(move |d| {
            let a = rand(n, &[n], d)?;
            Ok(Box::new(move || sync(&a.copy()?)))
        }),
    });
    w.push(Workload {
        name: format!("h2d_pinned_{mb}MB"),
        unit: "ms",
        setup: Box::new(move |d| {
            let p = Pinned::from_slice(&rand(n, &[n], Device::Cpu)?.to_vec::<f32>()?)?;
            Ok(Box::new(move || sync(&Array::from_pinned(&p, &[n], d)?)))
        }),
    });
    w.push(Workload {
        name: format!("d2h_pinned_{mb}MB"),
        unit: "ms",
        setup: Box::new(move |d| {
            let a = rand(n, &[n], d)?;
            let mut p = Pinned::<f32>::zeros(n)?;
            Ok(Box::new(move || {
                a.to_pinned(&mut p)?;
                p.as_slice().map(|_| ())
            }))
        }),
    });
}

/// With both add and the device-to-device copy measured: the bandwidth each reaches (add moves
/// three arrays, the copy two) and add's share of the copy's.
fn bandwidth(results: &[(String, &str, f64)]) {
    let find = |p: &str| results.iter().find(|r| r.0.starts_with(p)).map(|r| r.2);
    let (Some(add), Some(copy)) = (find("add_f32"), find("copy_d2d")) else { return };
    let bytes = (1u64 << 26) as f64 * 4.0;
    let (ga, gc) = (3.0 * bytes / add / 1e6, 2.0 * bytes / copy / 1e6);
    println!("add moves {ga:.0} GB/s, the device-to-device copy {gc:.0} GB/s: add at {:.0}% of copy", 100.0 * ga / gc);
}

struct Args {
    device: Device,
    filter: Option<String>,
    json: bool,
    compare: bool,
    /// `--reps`, when given (default 15; 10 for `--sweep`)
    reps: Option<usize>,
    /// `--sweep`: the per-function table (see the `sweep` module)
    sweep: bool,
    /// `--check`: with `--sweep`, compare outputs with the reference instead of timing
    check: bool,
}

fn parse() -> std::result::Result<Args, String> {
    let mut a =
        Args { device: Device::Cpu, filter: None, json: false, compare: false, reps: None, sweep: false, check: false };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        match x.as_str() {
            "--device" => a.device = it.next().ok_or("--device needs a value")?.parse().map_err(|e| format!("{e}"))?,
            "--filter" => a.filter = Some(it.next().ok_or("--filter needs a value")?),
            "--json" => a.json = true,
            "--compare" => a.compare = true,
            "--reps" => a.reps = Some(it.next().and_then(|v| v.parse().ok()).ok_or("--reps needs a number")?),
            "--sweep" => a.sweep = true,
            "--check" => a.check = true,
            "-h" | "--help" => {
                println!("xp-bench [--device cpu|cuda:N] [--filter NAME] [--json] [--compare] [--reps N]");
                println!(
                    "xp-bench --sweep [--device cpu|cuda:N] [--filter S] [--json] [--compare] [--reps N] [--check]"
                );
                println!("xp-bench --cold [--compare] [--tour BIN]   (first-run cost from empty kernel caches)");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(a)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The number after `"key": ` in a one-line JSON object, if present.
fn field(line: &str, key: &str) -> Option<f64> {
    let rest = line.split(&format!("\"{key}\": ")).nth(1)?;
    rest.split([',', '}']).next()?.trim().parse().ok()
}

/// Reference figures of one workload: the framework's median, and (GPU GEMMs) one raw cuBLAS
/// call's median, the ceiling xp is judged against.
#[derive(Clone, Copy)]
struct Reference {
    ms: f64,
    cublas_ms: Option<f64>,
}

/// Run the reference implementation; None when python3 or the module is missing.
fn reference(device: Device, reps: usize, names: &[String]) -> Option<std::collections::HashMap<String, Reference>> {
    // From a file, not `-c`: cupyx.jit reads its kernels' Python source.
    let script = std::env::temp_dir().join(format!("xp_bench_reference_{}.py", std::process::id()));
    std::fs::write(&script, REFERENCE_PY).ok()?;
    let out = Command::new("python3").arg(&script).arg(device.to_string()).arg(reps.to_string()).args(names).output();
    let _ = std::fs::remove_file(&script);
    let out = out.ok()?;
    if !out.status.success() {
        eprintln!(
            "xp-bench: reference run failed: {}",
            String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("")
        );
        return None;
    }
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    let mut m = std::collections::HashMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Some(name) = line.split("\"workload\": \"").nth(1).and_then(|r| r.split('"').next()) else { continue };
        let Some(ms) = field(line, "median_ms") else { continue };
        m.insert(name.to_string(), Reference { ms, cublas_ms: field(line, "cublas_ms") });
    }
    Some(m)
}

/// The per-op floor on a GPU: empty-kernel launches, 10^4 back to back (the queue fills, so the
/// host waits for the device) and in bursts of 100 after a wait (the host's own enqueue cost,
/// the launch queue never full); then xp's small ops timed the same two ways.
fn launch_costs(i: usize) -> Result<()> {
    let (issue, run) = xp::cuda::launch_floor_us(i, 10_000)?;
    println!("empty kernel launches: {issue:.2} us/op to enqueue, {run:.2} us/op until run (the per-op floor)");
    let (issue, run) = xp::cuda::Stream::new(i)?.scope(|| xp::cuda::launch_floor_us(i, 10_000))?;
    println!("  on a non-blocking stream: {issue:.2} us/op to enqueue, {run:.2} us/op until run");
    let bursts =
        |f: &dyn Fn() -> Result<f64>| -> Result<f64> { (0..30).map(|_| f()).collect::<Result<Vec<_>>>().map(median) };
    let empty = bursts(&|| Ok(xp::cuda::launch_floor_us(i, 100)?.0))?;
    let a = rand(1024, &[1024], Device::Cuda(i))?;
    let host = |op: &dyn Fn() -> Result<Array>| {
        bursts(&|| {
            xp::cuda::synchronize(i)?;
            let t = Instant::now();
            for _ in 0..100 {
                op()?;
            }
            Ok(t.elapsed().as_secs_f64() * 1e6 / 100.0)
        })
    };
    let (add, sum) = (host(&|| a.add(&a))?, host(&|| a.sum(..))?);
    let k = xp::kernel::ElementwiseKernel::new("T x, T y, float32 s", "T z", "z = s * x + y", "xp_bench_axpy")?;
    let ewk = host(&|| k.call1(&[(&a).into(), (&a).into(), 2.0f32.into()]))?;
    println!("host enqueue cost per op, bursts of 100 after a wait: empty kernel {empty:.2} us, small add {add:.2} us, small sum {sum:.2} us, ElementwiseKernel {ewk:.2} us (xp's own host work: {:.2} us above the empty launch)", ewk - empty);
    Ok(())
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.first().is_some_and(|a| a == "--cold" || a == "--cold-child") {
        if let Err(e) = cold::main(&raw) {
            eprintln!("xp-bench: {e}");
            std::process::exit(2);
        }
        return;
    }
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("xp-bench: {e}");
            std::process::exit(2);
        }
    };
    if args.check && !args.sweep {
        eprintln!("xp-bench: --check goes with --sweep");
        std::process::exit(2);
    }
    if args.sweep {
        sweep::main(sweep::Options {
            device: args.device,
            filter: args.filter,
            reps: args.reps.unwrap_or(10),
            compare: args.compare,
            json: args.json,
            check: args.check,
        });
        return;
    }
    let reps = args.reps.unwrap_or(15);
    let gpu = args.device != Device::Cpu;
    let ws: Vec<Workload> = workloads(gpu)
        .into_iter()
        .filter(|w| args.filter.as_ref().is_none_or(|f| w.name.contains(f.as_str())))
        .collect();
    let mut results = vec![];
    for w in &ws {
        let mut f = match (w.setup)(args.device) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("xp-bench: {}: setup failed: {e}", w.name);
                std::process::exit(1);
            }
        };
        let mut times = vec![];
        for i in 0..reps + 2 {
            let t = Instant::now();
            if let Err(e) = f() {
                eprintln!("xp-bench: {}: {e}", w.name);
                std::process::exit(1);
            }
            if i >= 2 {
                times.push(t.elapsed().as_secs_f64() * 1e3);
            }
        }
        let mut m = median(times);
        if w.unit == "us/op" {
            m = m / 10_000.0 * 1e3;
        }
        if !args.json {
            eprint!(".");
            std::io::stderr().flush().ok();
        }
        results.push((w.name.clone(), w.unit, m));
    }
    if !args.json {
        eprintln!();
    }
    let refs = if args.compare {
        let names: Vec<String> = results.iter().map(|r| r.0.clone()).collect();
        reference(args.device, reps, &names)
    } else {
        None
    };
    let refname = if gpu { "cupy" } else { "numpy" };
    if args.compare && refs.is_none() {
        eprintln!("xp-bench: --compare: {refname} is not importable by python3; printing xp alone");
    }
    if !args.json {
        println!("{:<28} {:>8} {:>12} {:>12} {:>8}", "workload", "device", "xp", refname, "ratio");
    }
    bandwidth(&results);
    if let Device::Cuda(i) = args.device {
        if let Err(e) = launch_costs(i) {
            eprintln!("xp-bench: launch costs: {e}");
        }
    }
    for (name, unit, m) in results {
        let full = refs.as_ref().and_then(|r| r.get(&name)).copied();
        let r = full.map(|f| f.ms);
        if let Some(cb) = full.and_then(|f| f.cublas_ms) {
            println!("{name}: one raw cuBLAS call takes {cb:.3} ms; xp at {:.1}% of it", 100.0 * cb / m);
        }
        if args.json {
            let rf = r.map_or("null".to_string(), |v| format!("{v:.6}"));
            let ratio = r.map_or("null".to_string(), |v| format!("{:.4}", v / m));
            println!(
                "{{\"workload\": \"{name}\", \"device\": \"{}\", \"median_ms\": {m:.6}, \"unit\": \"{unit}\", \"reference\": \"{refname}\", \"reference_ms\": {rf}, \"ratio\": {ratio}}}",
                args.device
            );
        } else {
            let rs = r.map_or("-".to_string(), |v| format!("{v:.3} {unit}"));
            let ratio = r.map_or("-".to_string(), |v| format!("{:.2}x", v / m));
            println!(
                "{name:<28} {:>8} {:>12} {:>12} {:>8}",
                args.device.to_string(),
                format!("{m:.3} {unit}"),
                rs,
                ratio
            );
        }
    }
}
