//! `xp-bench --cold`: the first run's cost on the GPU, from empty kernel caches. Each workload
//! runs in a fresh process with a fresh, empty `XP_CACHE_DIR` (and, with `--compare`, CuPy's in a
//! fresh Python with an empty `CUPY_CACHE_DIR`, the same ops in the same order): the time to the
//! first result (device start-up included, Python's `import cupy` not), how many kernels were
//! compiled and the median NVRTC time per kernel.
//!
//! ```text
//! xp-bench --cold [--compare] [--tour PATH-TO-TOUR-BINARY]
//! ```
//! Workloads: `grid`, the 7 reductions (sum, prod, mean, var, std, max, min) over 11 dtypes, 5
//! axis forms and keepdims, then a softmax; `xp::cuda::warmup` of float32 and float64 on one
//! thread and on its pool (xp alone); `tour`, the main demonstration (`--tour`: its binary,
//! timed as a whole process).
use std::process::Command;
use std::time::Instant;
use xp::{Array, DType, Device, Result};

const COLD_PY: &str = include_str!("cold.py");

/// The grid's dtypes, in order (CuPy's names in `cold.py`).
const DTYPES: [DType; 11] = [
    DType::Bool,
    DType::I8,
    DType::I16,
    DType::I32,
    DType::I64,
    DType::U8,
    DType::U32,
    DType::U64,
    DType::F16,
    DType::F32,
    DType::F64,
];

/// One measurement: seconds to the first result, kernels compiled, median seconds per compile.
#[derive(Clone, Copy, Debug)]
struct Cold {
    seconds: f64,
    kernels: usize,
    median: f64,
}

impl Cold {
    fn parse(line: &str) -> Option<Cold> {
        let v: Vec<f64> = line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
        (v.len() == 3).then(|| Cold { seconds: v[0], kernels: v[1] as usize, median: v[2] })
    }
    fn line(&self) -> String {
        format!("{} {} {}", self.seconds, self.kernels, self.median)
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The reduction grid and the softmax on `dev`.
fn grid(dev: Device) -> Result<()> {
    let m = xp::on(dev);
    let axes: [Option<Vec<isize>>; 5] = [None, Some(vec![0]), Some(vec![1]), Some(vec![2]), Some(vec![0, 2])];
    let mut last = None;
    for d in DTYPES {
        let a = m.ones([8, 16, 32], d)?;
        for ax in &axes {
            for keep in [false, true] {
                let r: [Result<Array>; 7] = if keep {
                    [
                        a.sum_keepdim(ax.clone()),
                        a.prod_keepdim(ax.clone()),
                        a.mean_keepdim(ax.clone()),
                        a.var_keepdim(ax.clone()),
                        a.std_keepdim(ax.clone()),
                        a.max_keepdim(ax.clone()),
                        a.min_keepdim(ax.clone()),
                    ]
                } else {
                    [
                        a.sum(ax.clone()),
                        a.prod(ax.clone()),
                        a.mean(ax.clone()),
                        a.var(ax.clone()),
                        a.std(ax.clone()),
                        a.max(ax.clone()),
                        a.min(ax.clone()),
                    ]
                };
                for x in r {
                    last = Some(x?);
                }
            }
        }
    }
    let x = m.ones([64, 1000], DType::F32)?;
    let e = x.sub(&x.max_keepdim(-1)?)?.exp()?;
    let s = e.div(&e.sum_keepdim(-1)?)?;
    s.sum(..)?.item::<f64>()?;
    if let Some(l) = last {
        l.to_vec::<f64>()?;
    }
    Ok(())
}

/// In the child process: run `what` from an empty cache and print its [`Cold`] line.
pub(crate) fn child(what: &str, dev: Device) -> std::result::Result<(), String> {
    let t = Instant::now();
    match what {
        "grid" => grid(dev).map_err(|e| e.to_string())?,
        "warmup" => {
            let Device::Cuda(i) = dev else { return Err("warmup needs a CUDA device".into()) };
            xp::cuda::warmup(i, &[DType::F32, DType::F64]).map_err(|e| e.to_string())?;
        }
        other => return Err(format!("unknown cold workload {other}")),
    }
    let seconds = t.elapsed().as_secs_f64();
    let times = xp::cuda::compile_seconds();
    if std::env::var_os("XP_COLD_VERBOSE").is_some() {
        let ms: Vec<String> = times.iter().map(|t| format!("{:.0}", t * 1e3)).collect();
        eprintln!("compile ms: {}", ms.join(" "));
    }
    println!("{}", Cold { seconds, kernels: times.len(), median: median(times) }.line());
    Ok(())
}

/// A fresh, empty directory for one run's kernel cache.
fn fresh_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("xp-cold-{}-{tag}-{}", std::process::id(), rand_suffix()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary directory");
    d
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos())
}

/// Run `cmd` and parse the last [`Cold`] line of its output.
fn measure(mut cmd: Command) -> Option<Cold> {
    let out = cmd.output().ok()?;
    if !out.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    String::from_utf8_lossy(&out.stdout).lines().rev().find_map(Cold::parse)
}

/// The tour binary `bin`, timed as a whole process from an empty cache; its kernels counted in
/// the cache directory afterwards.
fn tour(bin: &str) -> Option<Cold> {
    let dir = fresh_dir("tour");
    let t = Instant::now();
    let out = Command::new(bin).env("XP_CACHE_DIR", &dir).output().ok()?;
    let seconds = t.elapsed().as_secs_f64();
    if !out.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    let kernels = std::fs::read_dir(&dir).map_or(0, |d| d.count());
    let _ = std::fs::remove_dir_all(&dir);
    Some(Cold { seconds, kernels, median: 0.0 })
}

fn row(name: &str, x: Option<Cold>, r: Option<Cold>) -> String {
    let f = |c: Option<Cold>| {
        c.map_or("—".into(), |c| format!("{:.2} | {} | {:.0}", c.seconds, c.kernels, c.median * 1e3))
    };
    let ratio = match (x, r) {
        (Some(x), Some(r)) if r.seconds > 0.0 => format!("{:.2}", x.seconds / r.seconds),
        _ => "—".into(),
    };
    format!("| {name} | {} | {} | {ratio} |", f(x), f(r))
}

/// `xp-bench --cold [--compare] [--tour BIN]`.
pub(crate) fn main(args: &[String]) -> std::result::Result<(), String> {
    if args.first().map(String::as_str) == Some("--cold-child") {
        // a device after the workload: the CPU checks the workload itself
        let dev = args.get(2).map_or(Ok(Device::Cuda(0)), |d| d.parse()).map_err(|e| format!("{e}"))?;
        return child(args.get(1).map_or("grid", String::as_str), dev);
    }
    let compare = args.iter().any(|a| a == "--compare");
    let tour_bin = args.iter().position(|a| a == "--tour").and_then(|i| args.get(i + 1));
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    println!("| workload | xp s | xp kernels | xp median NVRTC ms | CuPy s | CuPy kernels | CuPy median NVRTC ms | xp / CuPy |");
    println!("|---|---|---|---|---|---|---|---|");
    let dir = fresh_dir("grid");
    let mut cmd = Command::new(&exe);
    cmd.args(["--cold-child", "grid"]).env("XP_CACHE_DIR", &dir);
    let x = measure(cmd);
    let _ = std::fs::remove_dir_all(&dir);
    let r = if compare {
        let dir = fresh_dir("cupy");
        let mut cmd = Command::new("python3");
        cmd.args(["-c", COLD_PY, "grid"]).env("CUPY_CACHE_DIR", &dir);
        let r = measure(cmd);
        let _ = std::fs::remove_dir_all(&dir);
        r
    } else {
        None
    };
    println!("{}", row("reductions grid + softmax", x, r));
    // `xp::cuda::warmup` of float32 and float64, its compiles on one thread and on the pool
    for (threads, name) in [("1", "warmup float32 + float64, 1 thread"), ("", "warmup float32 + float64, pool")] {
        let dir = fresh_dir("warmup");
        let mut cmd = Command::new(&exe);
        cmd.args(["--cold-child", "warmup"]).env("XP_CACHE_DIR", &dir);
        if !threads.is_empty() {
            cmd.env("XP_WARMUP_THREADS", threads);
        }
        println!("{}", row(name, measure(cmd), None));
        let _ = std::fs::remove_dir_all(&dir);
    }
    if let Some(bin) = tour_bin {
        println!("{}", row("tour (whole process)", tour(bin), None));
    }
    Ok(())
}
