//! Reductions and cumulative ops against NumPy: every dtype, axis None / int / negative / tuple,
//! keepdims, every device, every layout variant.
use super::common;
use xp::{Array, Result};
use xp_testing::{check, layouts, tolerance, Failures, Tolerance};

fn run(op: &str, a: &Array, axes: Option<&[isize]>, keepdims: bool) -> Result<Array> {
    let one = axes.map(|a| a[0]);
    // `name` or `name_keepdim`, as the case asks.
    macro_rules! kd {
        ($m:ident, $k:ident $(, $extra:expr)?) => {
            if keepdims { a.$k(axes $(, $extra)?) } else { a.$m(axes $(, $extra)?) }
        };
    }
    match op {
        "sum" => kd!(sum, sum_keepdim),
        "prod" => kd!(prod, prod_keepdim),
        "mean" => kd!(mean, mean_keepdim),
        "var0" => kd!(var, var_keepdim),
        "std1" => a.std_with(axes, xp::Var { ddof: 1, keepdims }),
        "min" => kd!(min, min_keepdim),
        "max" => kd!(max, max_keepdim),
        "ptp" => kd!(ptp, ptp_keepdim),
        "all" => kd!(all, all_keepdim),
        "any" => kd!(any, any_keepdim),
        "count_nonzero" => kd!(count_nonzero, count_nonzero_keepdim),
        "nansum" => kd!(nansum, nansum_keepdim),
        "nanmean" => kd!(nanmean, nanmean_keepdim),
        "nanmax" => kd!(nanmax, nanmax_keepdim),
        "nanmin" => kd!(nanmin, nanmin_keepdim),
        "argmax" if keepdims => a.argmax_keepdim(one),
        "argmax" => a.argmax(one),
        "argmin" if keepdims => a.argmin_keepdim(one),
        "argmin" => a.argmin(one),
        "cumsum" => a.cumsum(one),
        "cumprod" => a.cumprod(one),
        _ => panic!("unknown reduction {op}"),
    }
}

common::split_cases!(reductions_match_numpy, "reductions");

/// One reduction case on one device, in every layout variant.
fn reductions_match_numpy(f: &mut Failures, dev: xp::Device, case: &serde_json::Value) {
    let op = case["op"].as_str().unwrap();
    let axes: Option<Vec<isize>> = match &case["axis"] {
        serde_json::Value::Null => None,
        serde_json::Value::Array(v) => Some(v.iter().map(|x| x.as_i64().unwrap() as isize).collect()),
        v => Some(vec![v.as_i64().unwrap() as isize]),
    };
    let keepdims = case["keepdims"].as_bool().unwrap();
    let (buf, shape) = common::array(&case["inputs"][0]);
    let mut want = common::expected(case);
    // Sums of float16 round once at the end in xp (float32 accumulation), and NumPy's
    // float16 var/std go through other intermediate roundings: allow a few ulps.
    if let Ok(e) = &mut want {
        if buf.dtype() == xp::DType::F16 && e.dtype == xp::DType::F16 {
            e.tol = Tolerance { rtol: 4e-3, atol: 2e-3 };
        } else if e.dtype.is_inexact() {
            let t = tolerance(e.dtype);
            e.tol = Tolerance { rtol: t.rtol * 10.0, atol: t.atol * 10.0 };
        }
    }
    for (lname, a) in layouts(&buf, &shape, dev).unwrap() {
        let ctx = format!("{op}({} {shape:?}, axis={axes:?}, keepdims={keepdims}) on {dev}, {lname}", buf.dtype());
        f.add(check(&run(op, &a, axes.as_deref(), keepdims), &want, &ctx));
    }
}

/// Reductions whose shape picks the GPU's less common launches, against exact host loops
/// (integer values, so every summation order gives the same number): a short reduced last axis
/// under many outputs (a thread per output), a long axis 0 under few outputs (partials folded by
/// a warp per output), in C order and through a strided view, float32, float64 and int64.
#[test]
fn short_last_axes_and_long_first_axes_on_every_device() {
    use xp::{s, DType};
    let mut f = xp_testing::Failures::default();
    for dev in xp_testing::devices() {
        for (rows, cols, step) in [(5000usize, 3usize, 1usize), (4099, 2, 2), (200_000, 3, 1), (70_001, 2, 2)] {
            let wide = cols * step;
            let host: Vec<f64> = (0..rows * wide).map(|i| ((i * 7919) % 23) as f64 - 11.0).collect();
            let at = |r: usize, c: usize| host[r * wide + c * step];
            let sum1: Vec<f64> = (0..rows).map(|r| (0..cols).map(|c| at(r, c)).sum()).collect();
            let max1: Vec<f64> = (0..rows).map(|r| (0..cols).map(|c| at(r, c)).fold(f64::MIN, f64::max)).collect();
            let sum0: Vec<f64> = (0..cols).map(|c| (0..rows).map(|r| at(r, c)).sum()).collect();
            let max0: Vec<f64> = (0..cols).map(|c| (0..rows).map(|r| at(r, c)).fold(f64::MIN, f64::max)).collect();
            for d in [DType::F32, DType::F64, DType::I64] {
                let base =
                    Array::from_vec(host.clone(), [rows, wide]).unwrap().astype(d).unwrap().to_device(dev).unwrap();
                let a = base.slice(s![.., ..;step as isize]).unwrap();
                let ctx = format!("({rows}, {cols}) step {step} {d} on {dev}");
                let got = |r: Result<Array>| -> Vec<f64> {
                    r.and_then(|x| x.astype(DType::F64)).and_then(|x| x.to_vec::<f64>()).unwrap_or_default()
                };
                for (name, r, want) in [
                    ("sum(1)", a.sum(1), &sum1),
                    ("max(1)", a.max(1), &max1),
                    ("sum(0)", a.sum(0), &sum0),
                    ("max(0)", a.max(0), &max0),
                ] {
                    let g = got(r);
                    if &g != want {
                        let i = (0..want.len()).find(|&i| g.get(i) != want.get(i)).unwrap_or(0);
                        f.add(Err(format!("{name} {ctx}: element {i} is {:?}, exact {}", g.get(i), want[i])));
                    }
                }
            }
        }
    }
    f.finish();
}

/// argmax/argmin return the first position of the extreme, wherever the ties are planted: at both
/// ends of a line, in different chunks of a long line (so a two-stage plan must keep the earlier
/// candidate), and a NaN, which wins over every number (NumPy: the first NaN). Every float and
/// integer dtype that has a tie-free representation of the values, along each axis and the whole
/// array, on every device, against host loops.
#[test]
fn argmax_and_argmin_return_the_first_of_planted_ties() {
    use xp::DType;
    let mut f = xp_testing::Failures::default();
    for dev in xp_testing::devices() {
        for (rows, cols) in [(3usize, 1_000_003usize), (257, 4099), (1_000_003, 2)] {
            let n = rows * cols;
            // small values (exact in every dtype); the extremes 100 and -100 planted at several
            // positions of every row, the first one not always first in the row
            let mut host: Vec<f64> = (0..n).map(|i| ((i * 7919) % 41) as f64 - 20.0).collect();
            for r in 0..rows {
                for (k, frac) in [0.9f64, 0.1, 0.5, 0.999].iter().enumerate() {
                    let c = ((cols as f64 - 1.0) * frac) as usize;
                    host[r * cols + c] = if k % 2 == 0 { 100.0 } else { -100.0 };
                }
                host[r * cols + cols - 1] = 100.0;
                host[r * cols] = -100.0;
            }
            let first = |it: &mut dyn Iterator<Item = (usize, f64)>, max: bool| -> i64 {
                let mut best: Option<(usize, f64)> = None;
                for (i, v) in it {
                    if best.is_none_or(|(_, b)| if max { v > b } else { v < b }) {
                        best = Some((i, v));
                    }
                }
                best.map_or(-1, |b| b.0 as i64)
            };
            for d in [DType::F32, DType::F64, DType::F16, DType::I8, DType::I32, DType::I64, DType::U8] {
                let shift = if d == DType::U8 { 100.0 } else { 0.0 };
                let vals: Vec<f64> = host.iter().map(|v| v + shift).collect();
                let a = Array::from_vec(vals.clone(), [rows, cols]).unwrap().astype(d).unwrap().to_device(dev).unwrap();
                for max in [true, false] {
                    let ctx = format!("{} ({rows}, {cols}) {d} on {dev}", if max { "argmax" } else { "argmin" });
                    let arg = |ax: Option<isize>| if max { a.argmax(ax) } else { a.argmin(ax) };
                    let want1: Vec<i64> =
                        (0..rows).map(|r| first(&mut (0..cols).map(|c| (c, vals[r * cols + c])), max)).collect();
                    let want0: Vec<i64> =
                        (0..cols).map(|c| first(&mut (0..rows).map(|r| (r, vals[r * cols + c])), max)).collect();
                    let wantall = vec![first(&mut vals.iter().copied().enumerate(), max)];
                    for (what, got, want) in
                        [("axis 1", arg(Some(1)), want1), ("axis 0", arg(Some(0)), want0), ("all", arg(None), wantall)]
                    {
                        let g = got.and_then(|x| x.reshape([-1])).and_then(|x| x.to_vec::<i64>()).unwrap_or_default();
                        if g != want {
                            let i = (0..want.len()).find(|&i| g.get(i) != want.get(i)).unwrap_or(0);
                            f.add(Err(format!(
                                "{ctx} {what}: element {i} is {:?}, the first tie is {}",
                                g.get(i),
                                want[i]
                            )));
                        }
                    }
                }
            }
            // a NaN wins, the first of two
            let mut nan = host.clone();
            let (p, q) = (n / 3, 2 * n / 3);
            nan[q] = f64::NAN;
            nan[p] = f64::NAN;
            for d in [DType::F32, DType::F64] {
                let a = Array::from_vec(nan.clone(), [n]).unwrap().astype(d).unwrap().to_device(dev).unwrap();
                for (name, r) in [("argmax", a.argmax(..)), ("argmin", a.argmin(..))] {
                    let g = r.and_then(|x| x.to_vec::<i64>()).unwrap_or_default();
                    if g != vec![p as i64] {
                        f.add(Err(format!("{name} of {n} {d} with NaNs at {p} and {q} on {dev}: {g:?}")));
                    }
                }
            }
        }
    }
    f.finish();
}

/// cumsum over 10^7 values, exact: int32 (accumulated in int64, as NumPy does) with signed
/// values, and float32 with small integers whose running sums stay below 2^24, so that every
/// order of addition gives the exact sum and any lost or doubled tile shows.
#[test]
fn cumsum_of_ten_million_float32_and_int32_values_is_exact() {
    use xp::DType;
    let n = 10_000_000usize;
    let mut f = xp_testing::Failures::default();
    let ints: Vec<i64> = (0..n).map(|i| ((i * 7919 + 13) % 2001) as i64 - 1000).collect();
    let small: Vec<i64> = (0..n).map(|i| ((i * 104_729) % 3) as i64).collect();
    for dev in xp_testing::devices() {
        for (d, host) in [(DType::I32, &ints), (DType::F32, &small)] {
            assert!(d != DType::F32 || host.iter().sum::<i64>() < 1 << 24);
            let a = Array::from_vec(host.clone(), [n]).unwrap().astype(d).unwrap().to_device(dev).unwrap();
            let got = a.cumsum(0).and_then(|x| x.astype(DType::I64)).and_then(|x| x.to_vec::<i64>());
            let got = match got {
                Ok(g) => g,
                Err(e) => {
                    f.add(Err(format!("cumsum of {n} {d} on {dev}: {e}")));
                    continue;
                }
            };
            let mut run = 0i64;
            if let Some(i) = host.iter().zip(&got).position(|(v, g)| {
                run += v;
                *g != run
            }) {
                let want: i64 = host[..=i].iter().sum();
                f.add(Err(format!("cumsum of {n} {d} on {dev}: element {i} is {}, exact {want}", got[i])));
            }
        }
    }
    f.finish();
}
