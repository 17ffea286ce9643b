//! `lfilter` and `sosfilt` against SciPy on every device (`tests/data/iir.json`, made by
//! `scripts/gen_iir_reference.py`): orders 1 to 8 (and a 20-tap FIR, whose state is longer than
//! the GPU kernels hold, so it takes the host), long lines (2 × 2^15 along either axis: many
//! chunks joined by the GPU's scan, pieces on the CPU), many short lines (300 × 40) and every axis
//! of an 8 × 9 × 500 array, with and without `zi`, in float32, float64, complex64 and complex128.
//! Inputs are formulas of the flat index, made here as the generator made them; SciPy's output
//! is compared at every `step`-th flat index, its final state at every `zstep`-th, within the
//! case's tolerance (8 times SciPy's own distance from the filter run in double precision, plus
//! a small floor: the joins of parallel pieces round differently from SciPy's loop).
use serde_json::Value;
use xp::signal::{lfilter, sosfilt, Filtered};
use xp::{Array, Complex64, DType, Device, Result};
use xp_testing::{devices, Failures};

/// `f(i)` of the formulas, as a float64 array of `shape` on the host.
fn index(shape: &[usize]) -> Result<Array> {
    let n: usize = shape.iter().product();
    xp::on(Device::Cpu)
        .arange(0, n as i64, 1, Some(DType::F64))?
        .reshape(shape.iter().map(|&v| v as isize).collect::<Vec<_>>())
}

/// x[i] = sin(0.0137 i) + 0.3 cos(0.61 i + 0.3) (+ 1j cos(0.0291 i) when complex), in `d` on `dev`.
fn signal_of(shape: &[usize], d: DType, dev: Device) -> Result<Array> {
    let i = index(shape)?;
    let x = i.mul(0.0137)?.sin()?.add(&i.mul(0.61)?.add(0.3)?.cos()?.mul(0.3)?)?;
    let x = if d.is_complex() {
        x.astype(DType::C128)?.add(&i.mul(0.0291)?.cos()?.astype(DType::C128)?.mul(Complex64::new(0.0, 1.0))?)?
    } else {
        x
    };
    x.astype(d)?.to_device(dev)
}

/// zi[i] = 0.1 cos(0.7 i), in `d` on `dev`.
fn state_of(shape: &[usize], d: DType, dev: Device) -> Result<Array> {
    index(shape)?.mul(0.7)?.cos()?.mul(0.1)?.astype(d)?.to_device(dev)
}

fn array(v: &Value) -> Array {
    let (b, s) = crate::common::array(v);
    Array::from_buffer(b, &s, Device::Cpu).expect("reference array")
}

/// Every `step`-th value of `a`'s C order, widened, on the host.
fn every(a: &Array, step: usize) -> Vec<Complex64> {
    let v: Vec<Complex64> =
        a.to_device(Device::Cpu).and_then(|a| a.astype(DType::C128)).and_then(|a| a.to_vec()).expect("readable");
    v.into_iter().step_by(step).collect()
}

fn close(what: &str, got: &[Complex64], want: &[Complex64], atol: f64) -> std::result::Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{what}: {} values, SciPy has {}", got.len(), want.len()));
    }
    let near = |g: Complex64, w: Complex64| (g - w).norm() <= atol; // false for NaN
    match got.iter().zip(want).enumerate().find(|(_, (g, w))| !near(**g, **w)) {
        Some((i, (g, w))) => Err(format!("{what}: value {i}: {g} != SciPy's {w} (atol {atol:.2e})")),
        None => Ok(()),
    }
}

fn one(dev: Device, case: &Value) -> std::result::Result<(), String> {
    let d = DType::from_name(case["dtype"].as_str().unwrap()).unwrap();
    let shape: Vec<usize> = case["shape"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
    let axis = case["axis"].as_i64().unwrap() as isize;
    let x = signal_of(&shape, d, dev).map_err(|e| e.to_string())?;
    let coef =
        |k: &str| array(&case["coef"][k]).astype(d.to_real()).and_then(|c| c.to_device(dev)).expect("coefficients");
    let op = case["op"].as_str().unwrap();
    let mut zshape = shape.clone();
    let ax = if axis < 0 { shape.len() - 1 } else { axis as usize };
    let run = |zi: Option<&Array>| -> Result<Filtered> {
        match op {
            "lfilter" => lfilter(&coef("b"), &coef("a"), &x, xp::signal::Iir { axis, zi }),
            _ => sosfilt(&coef("sos"), &x, xp::signal::Iir { axis, zi }),
        }
    };
    if op == "lfilter" {
        zshape[ax] =
            case["coef"]["a"]["shape"][0].as_u64().unwrap().max(case["coef"]["b"]["shape"][0].as_u64().unwrap())
                as usize
                - 1;
    } else {
        zshape[ax] = 2;
        zshape.insert(0, case["coef"]["sos"]["shape"][0].as_u64().unwrap() as usize);
    }
    let zi = if case["zi"] == true { Some(state_of(&zshape, d, dev).map_err(|e| e.to_string())?) } else { None };
    let f = run(zi.as_ref()).map_err(|e| format!("unexpected error {e}"))?;
    if f.y.dtype() != d || f.y.shape() != shape.as_slice() {
        return Err(format!("y is {} {:?}", f.y.dtype(), f.y.shape()));
    }
    let step = case["step"].as_u64().unwrap() as usize;
    let want: Vec<Complex64> = every(&array(&case["y"]), 1);
    close("y", &every(&f.y, step), &want, case["atol"].as_f64().unwrap())?;
    match (f.zf, case.get("zf")) {
        (Some(zf), Some(w)) => {
            if zf.shape() != zshape.as_slice() || zf.dtype() != d {
                return Err(format!("zf is {} {:?}, expected {zshape:?}", zf.dtype(), zf.shape()));
            }
            let zstep = case["zstep"].as_u64().unwrap() as usize;
            close("zf", &every(&zf, zstep), &every(&array(w), 1), case["zf_atol"].as_f64().unwrap())
        }
        (None, None) => Ok(()),
        (z, _) => Err(format!("zf is {:?}, SciPy's {}", z.map(|z| z.shape().to_vec()), case["zi"])),
    }
}

fn body(f: &mut Failures, dev: Device, case: &Value) {
    let ctx = format!(
        "{} order {} {} {:?} axis {} zi {} on {dev}",
        case["op"], case["order"], case["dtype"], case["shape"], case["axis"], case["zi"]
    );
    f.add(one(dev, case).map_err(|m| format!("{ctx}: {m}")));
}

#[test]
fn recursive_filters_against_scipy() {
    let cases = crate::common::load("iir");
    let mut f = Failures::default();
    for dev in devices() {
        for case in &cases {
            body(&mut f, dev, case);
        }
    }
    f.finish();
}
