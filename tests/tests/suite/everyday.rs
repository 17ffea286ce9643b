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

/// Values that test `nan_to_num` and `around`: NaN, ±inf, -0.0, halves before and after scaling,
/// magnitudes at the float's last fractional bit (2^23 / 2^52) and beyond, and ordinary values.
fn edge_values(n: usize, big: f64) -> Vec<f64> {
    (0..n)
        .map(|i| match i % 13 {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => -0.0,
            4 => (i % 4096) as f64 + 0.5,
            5 => (i % 1000) as f64 * 0.005 - 2.5,
            6 => big - 0.5,
            7 => -(big + 1.0),
            8 => 1e30,
            9 => -((i % 977) as f64) * 0.125,
            10 => -0.3,
            _ => (i as f64).sin() * 1000.0,
        })
        .collect()
}

/// The same bits, NaN equal to NaN.
fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
}

/// The views the host fast paths walk: contiguous, reversed, transposed, strided.
fn views(x: &Array) -> Vec<(&'static str, Array)> {
    let n = x.size();
    vec![
        ("contiguous", x.clone()),
        ("reversed", x.slice(xp::s![..;-1]).unwrap()),
        ("transposed", x.slice(xp::s![..(n / 64 * 64) as isize]).unwrap().reshape([n / 64, 64]).unwrap().t().unwrap()),
        ("strided", x.slice(xp::s![1..;3]).unwrap()),
    ]
}

/// `nan_to_num`, `around` and `array_equal` of float32/float64 arrays large enough to be split
/// over the cores, in every layout: bit for bit the elementwise definitions (`rint` as std's
/// `round_ties_even` in the array's dtype, the replacements cast to it).
#[test]
fn nan_to_num_around_array_equal_on_large_views() {
    let n = (1 << 17) + 67;
    for dev in xp_testing::devices() {
        for (dtype, big) in [(xp::DType::F32, 8388608.0), (xp::DType::F64, 4503599627370496.0)] {
            let x = Array::from_vec(edge_values(n, big), [n]).unwrap().astype(dtype).unwrap().to_device(dev).unwrap();
            for (name, v) in views(&x) {
                let host = v.astype(xp::DType::F64).unwrap().to_vec::<f64>().unwrap();
                let what = format!("{dev} {dtype:?} {name}");
                let f32 = dtype == xp::DType::F32;
                // nan_to_num: defaults and explicit replacements
                for opts in [NanToNum::default(), NanToNum { nan: -1.5, posinf: Some(1e300), neginf: Some(-7.0) }] {
                    let y = xp::nan_to_num(&v, opts).unwrap();
                    assert_eq!((y.dtype(), y.shape()), (dtype, v.shape()), "{what}");
                    let max = if f32 { f32::MAX as f64 } else { f64::MAX };
                    let cast = |a: f64| if f32 { a as f32 as f64 } else { a };
                    let want: Vec<f64> = host
                        .iter()
                        .map(|&a| match a {
                            a if a.is_nan() => cast(opts.nan),
                            f64::INFINITY => cast(opts.posinf.unwrap_or(max)),
                            f64::NEG_INFINITY => cast(opts.neginf.unwrap_or(-max)),
                            a => a,
                        })
                        .collect();
                    assert!(
                        same_bits(&y.astype(xp::DType::F64).unwrap().to_vec::<f64>().unwrap(), &want),
                        "nan_to_num {what}"
                    );
                }
                // around: rint(x * 10^d) / 10^d in the dtype (x / 10^-d ... for negative d)
                for d in [-2, -1, 0, 1, 2, 3] {
                    let y = xp::around(&v, d).unwrap();
                    assert_eq!(y.dtype(), dtype, "{what}");
                    let s = 10f64.powi(d.abs());
                    let want: Vec<f64> = host
                        .iter()
                        .map(|&a| match (f32, d >= 0) {
                            (true, true) => ((a as f32 * s as f32).round_ties_even() / s as f32) as f64,
                            (true, false) => ((a as f32 / s as f32).round_ties_even() * s as f32) as f64,
                            (false, true) => (a * s).round_ties_even() / s,
                            (false, false) => (a / s).round_ties_even() * s,
                        })
                        .collect();
                    assert!(
                        same_bits(&y.astype(xp::DType::F64).unwrap().to_vec::<f64>().unwrap(), &want),
                        "around {d} {what}"
                    );
                }
                // array_equal: a copy is equal unless it holds NaN; one change anywhere is seen
                let c = v.copy().unwrap();
                assert!(!xp::array_equal(&v, &c).unwrap() && xp::array_equal_nan(&v, &c).unwrap(), "{what}");
                let clean = xp::nan_to_num(&v, NanToNum::default()).unwrap();
                assert!(xp::array_equal(&clean, &clean.copy().unwrap()).unwrap(), "{what}");
                let negzero = xp::where_(&clean.equal(0.0).unwrap(), -0.0, &clean).unwrap().astype(dtype).unwrap();
                assert!(xp::array_equal(&clean, &negzero).unwrap(), "-0.0 == 0.0 {what}");
                for at in [0, v.size() / 2, v.size() - 1] {
                    let mut h = clean.astype(xp::DType::F64).unwrap().to_vec::<f64>().unwrap();
                    h[at] = if h[at] == 1.0 { 2.0 } else { 1.0 };
                    let other = Array::from_vec(h, v.shape()).unwrap().astype(dtype).unwrap().to_device(dev).unwrap();
                    assert!(!xp::array_equal(&clean, &other).unwrap(), "{what} differs at {at}");
                    assert!(!xp::array_equal_nan(&v, &other).unwrap(), "{what} differs at {at}");
                }
            }
            // an array against a view of itself (one storage)
            let r = x.slice(xp::s![..;-1]).unwrap();
            assert!(
                !xp::array_equal_nan(&x, &r).unwrap()
                    && xp::array_equal_nan(&r, &r.slice(xp::s![..]).unwrap()).unwrap()
            );
        }
    }
}

/// `indices` (written straight into a host buffer on the CPU) equals `mgrid` over the same
/// ranges cast to the dtype: axes of length 1 and 0, one axis, and grids split over the cores.
#[test]
fn indices_equal_mgrid_in_every_dtype() {
    use xp::DType;
    let shapes: [&[usize]; 6] = [&[3, 1, 4], &[0, 3], &[5], &[70001, 3], &[2, 300, 257], &[1, 1]];
    for dev in xp_testing::devices() {
        let m = xp::on(dev);
        for dims in shapes {
            let axes: Vec<GridAxis> = dims.iter().map(|&d| (0..d).into()).collect();
            let want = m.mgrid(&axes).unwrap();
            for dtype in [DType::I64, DType::I32, DType::U8, DType::F32, DType::F64, DType::Bool, DType::C64] {
                let got = m.indices(dims, dtype).unwrap();
                assert_eq!((got.dtype(), got.device()), (dtype, dev));
                let want = want.astype(dtype).unwrap();
                assert_eq!(got.shape(), want.shape(), "{dev} {dims:?} {dtype:?}");
                assert!(xp::array_equal(&got, &want).unwrap(), "{dev} {dims:?} {dtype:?}");
            }
        }
    }
}
