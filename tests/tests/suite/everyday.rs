//! The everyday helpers of issue 27 against NumPy (`tests/data/everyday.json`, made by
//! `scripts/gen_special_reference.py`): `nan_to_num`, `around`, `array_equal`/`array_equiv`,
//! `isclose` with `equal_nan`, `mgrid`/`indices`; then in-place operators, the `Display` of a 0-d
//! array against NumPy's `str`, the root `default_rng`, and device-generic streams.
use crate::common::{self, split_cases};
use serde_json::Value;
use xp::{Array, Device, GridAxis, NanToNum, Result, Tolerance};
use xp_testing::Failures;

fn flag(b: bool, dev: Device) -> Result<Array> {
    xp::on(dev).asarray(vec![b], [])
}

fn run(op: &str, case: &Value, dev: Device, x: &[Array]) -> Result<Array> {
    let f = |k: &str| case[k].as_f64();
    match op {
        "nan_to_num" => {
            let v = NanToNum { nan: f("nan").unwrap_or(0.0), posinf: f("posinf"), neginf: f("neginf") };
            xp::nan_to_num(&x[0], v)
        }
        "around" => xp::around(&x[0], case["decimals"].as_i64().unwrap() as i32),
        "array_equal" => flag(xp::array_equal(&x[0], &x[1])?, dev),
        "array_equal_nan" => flag(xp::array_equal_nan(&x[0], &x[1])?, dev),
        "array_equiv" => flag(xp::array_equiv(&x[0], &x[1])?, dev),
        "isclose_equal_nan" => xp::isclose_with(&x[0], &x[1], Tolerance { equal_nan: true, ..Default::default() }),
        "isclose_rtol" => xp::isclose_with(&x[0], &x[1], Tolerance { rtol: 0.2, atol: 0.0, equal_nan: false }),
        "mgrid" => xp::on(dev).mgrid(&[(0..3).into(), GridAxis::step(1, 9, 3)]),
        "mgrid_points" => xp::on(dev).mgrid(&[(0..2).into(), GridAxis::points(-1.0, 1.0, 5)]),
        "indices" => xp::on(dev).indices([2, 3, 2], xp::DType::I64),
        _ => panic!("unknown op {op}"),
    }
}

fn reference(f: &mut Failures, dev: Device, case: &Value) {
    let want = common::expected(case).map(|e| vec![e]);
    let inputs: Vec<common::Input> = case["args"].as_array().unwrap().iter().map(common::array).collect();
    let op = case["op"].as_str().unwrap();
    let what = format!("{op} {}", case.get("decimals").map_or(String::new(), |d| d.to_string()));
    common::check_layouts(f, dev, &inputs, &want, &what, true, |x| run(op, case, dev, x).map(|r| vec![r]));
}

split_cases!(reference, "everyday");

/// `ogrid` gives the open grid that broadcasts to `mgrid`; `fromfunction` calls with the index
/// arrays; both on every device.
#[test]
fn ogrid_broadcasts_to_mgrid_and_fromfunction_indexes() {
    for dev in xp_testing::devices() {
        let m = xp::on(dev);
        let axes = [GridAxis::points(0.0, 1.0, 3), (2..6).into()];
        let dense = m.mgrid(&axes).unwrap();
        let open = m.ogrid(&axes).unwrap();
        assert_eq!((open[0].shape(), open[1].shape()), (&[3, 1][..], &[1, 4][..]));
        for (k, o) in open.iter().enumerate() {
            let full = o.broadcast_to([3, 4]).unwrap();
            assert!(xp::array_equal(&full, &dense.slice(xp::s![k as isize]).unwrap()).unwrap(), "{dev}");
        }
        let f = m.fromfunction(|i| i[0].mul(10)?.add(&i[1]), [2, 3], xp::DType::I32).unwrap();
        assert_eq!(f.dtype(), xp::DType::I32);
        assert_eq!(f.to_vec::<i32>().unwrap(), vec![0, 1, 2, 10, 11, 12], "{dev}");
    }
}

/// `a += b` and friends write into `a`'s storage (a view sees it) with NumPy's same_kind rule;
/// a refused cast panics as std's operators do and leaves `a` as it was.
#[test]
fn in_place_operators_write_through_and_refuse_unsafe_casts() {
    for dev in xp_testing::devices() {
        let mut a = xp::on(dev).asarray(vec![1.0f32, 2.0, 3.0, 4.0], [2, 2]).unwrap();
        let view = a.clone();
        a += 1.0;
        a *= &view; // (x + 1)², a and view the same storage
        a -= 1.0;
        a /= 2.0;
        assert_eq!(view.to_vec::<f32>().unwrap(), vec![1.5, 4.0, 7.5, 12.0], "{dev}");
        let mut row = a.slice(xp::s![1]).unwrap();
        row += 100.0;
        assert_eq!(a.to_vec::<f32>().unwrap(), vec![1.5, 4.0, 107.5, 112.0], "{dev}");
        let mut i = xp::on(dev).asarray(vec![7i32, 8], [2]).unwrap();
        i %= 3;
        i <<= 2;
        i |= 1;
        assert_eq!(i.to_vec::<i32>().unwrap(), vec![5, 9], "{dev}");
        let mut k = i.clone();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| k += 1.5));
        let msg = caught.unwrap_err();
        let msg = msg.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(msg.contains("same_kind"), "{dev}: {msg}");
        assert_eq!(i.to_vec::<i32>().unwrap(), vec![5, 9], "{dev}: the refused += changed its input");
    }
}

/// A 0-d array displays as NumPy's `str` of it (what `print` shows), `repr()` as NumPy's repr;
/// the expected strings are NumPy 2.4's.
#[test]
fn zero_d_display_is_numpys_str() {
    let cases: Vec<(Array, &str)> = vec![
        (Array::scalar_on(1e10f32, xp::DType::F32, Device::Cpu).unwrap(), "1e+10"),
        (Array::scalar_on(1.0, xp::DType::F64, Device::Cpu).unwrap(), "1.0"),
        (Array::scalar_on(1e16, xp::DType::F64, Device::Cpu).unwrap(), "1e+16"),
        (Array::scalar_on(1.5e-5, xp::DType::F64, Device::Cpu).unwrap(), "1.5e-05"),
        (Array::scalar_on(f64::NAN, xp::DType::F64, Device::Cpu).unwrap(), "nan"),
        (Array::scalar_on(f64::NEG_INFINITY, xp::DType::F64, Device::Cpu).unwrap(), "-inf"),
        (Array::scalar_on(3, xp::DType::I64, Device::Cpu).unwrap(), "3"),
        (Array::scalar_on(true, xp::DType::Bool, Device::Cpu).unwrap(), "True"),
        (Array::scalar_on(xp::Complex64::new(1.0, 2.0), xp::DType::C128, Device::Cpu).unwrap(), "(1+2j)"),
        (Array::scalar_on(0.1, xp::DType::F32, Device::Cpu).unwrap(), "0.1"),
        (Array::scalar_on(1.0, xp::DType::F16, Device::Cpu).unwrap(), "1.0"),
        (Array::scalar_on(123456789.0, xp::DType::F32, Device::Cpu).unwrap(), "1.2345679e+08"),
        (Array::scalar_on(100000.0, xp::DType::F32, Device::Cpu).unwrap(), "100000.0"),
        (Array::scalar_on(1e6, xp::DType::F32, Device::Cpu).unwrap(), "1e+06"),
        (Array::scalar_on(1e15, xp::DType::F64, Device::Cpu).unwrap(), "1000000000000000.0"),
        (Array::scalar_on(1234.5, xp::DType::F16, Device::Cpu).unwrap(), "1.234e+03"),
        (Array::scalar_on(1.5e-4, xp::DType::F32, Device::Cpu).unwrap(), "0.00015"),
    ];
    for (a, want) in cases {
        assert_eq!(a.to_string(), want, "{}", a.repr());
    }
    let s = xp::arange(0, 10, 1, None).unwrap().sum(..).unwrap();
    assert_eq!(format!("{s} objects"), "45 objects");
    assert_eq!(s.repr(), "array(45)");
}

/// `xp::default_rng` is `xp::random::default_rng`: the same stream.
#[test]
fn root_default_rng_is_numpys_generator() {
    let a = xp::default_rng(7).random([5], xp::DType::F64).unwrap().to_vec::<f64>().unwrap();
    let b = xp::random::default_rng(7).random([5], xp::DType::F64).unwrap().to_vec::<f64>().unwrap();
    assert_eq!(a, b);
}

/// Streams and events exist on every device (an in-order no-op queue on the CPU): work in two
/// stream scopes gives the exact sums, events time it, `synchronize` waits.
#[test]
fn streams_are_device_generic() {
    for dev in xp_testing::devices() {
        let streams: Vec<xp::Stream> = (0..2).map(|_| xp::Stream::new(dev).unwrap()).collect();
        assert!(streams.iter().all(|s| s.device() == dev));
        let start = xp::Stream::current(dev).unwrap().record().unwrap();
        let parts: Vec<Array> = streams
            .iter()
            .enumerate()
            .map(|(k, s)| {
                s.scope(|| xp::on(dev).arange(0, 1 << 20, 1, None).unwrap().mul(k as i64 + 1).unwrap().sum(..).unwrap())
            })
            .collect();
        let mid = streams[0].record().unwrap();
        streams[1].wait(&mid).unwrap();
        for s in &streams {
            s.synchronize().unwrap();
        }
        let end = xp::Stream::current(dev).unwrap().record().unwrap();
        end.synchronize().unwrap();
        assert!(end.is_complete().unwrap());
        let n = (1i64 << 20) * ((1 << 20) - 1) / 2;
        let got: Vec<i64> = parts.iter().map(|p| p.item::<i64>().unwrap()).collect();
        assert_eq!(got, vec![n, 2 * n], "{dev}");
        let ms = start.elapsed_ms(&end).unwrap();
        assert!((0.0..60_000.0).contains(&ms), "{dev}: {ms} ms");
        xp::synchronize(dev).unwrap();
    }
}
