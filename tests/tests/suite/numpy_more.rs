//! The NumPy names of issue 27 that xp composes of its array operations (`crates/api/src/more/`)
//! against NumPy (`tests/data/numpy_more.json`, made by `scripts/gen_numpy_more_reference.py`):
//! elementwise functions, shape manipulation and creation, NaN-skipping reductions and the legacy
//! polynomial functions, on every device, each input in the five layouts, several dtypes, empty
//! and 0-d inputs, NaN and the infinities, negative axes, and the errors where NumPy raises.
use crate::common::{self, split_cases};
use serde_json::Value;
use xp::{Array, DType, Device, Piece, Positions, Result, Sections, Var};
use xp_testing::Failures;

fn p_i64(case: &Value, k: &str) -> i64 {
    case["params"][k].as_i64().unwrap_or_else(|| panic!("param {k}"))
}

fn p_axis(case: &Value) -> Option<isize> {
    case["params"]["axis"].as_i64().map(|a| a as isize)
}

fn p_bool(case: &Value, k: &str) -> bool {
    case["params"][k].as_bool().unwrap_or(false)
}

fn p_dtype(case: &Value) -> Option<DType> {
    case["params"]["dtype"].as_str().map(|d| DType::from_name(d).expect("dtype"))
}

fn positions(v: &Value) -> Positions {
    match v.as_array() {
        Some(l) => Positions::Each(l.iter().map(|i| i.as_i64().unwrap() as isize).collect()),
        None => Positions::At(v.as_i64().unwrap() as isize),
    }
}

fn sections(v: &Value) -> Sections {
    match v.as_array() {
        Some(l) => Sections::Indices(l.iter().map(|i| i.as_i64().unwrap() as isize).collect()),
        None => Sections::Count(v.as_u64().unwrap() as usize),
    }
}

fn one(r: Result<Array>) -> Result<Vec<Array>> {
    r.map(|a| vec![a])
}

fn two(r: Result<(Array, Array)>) -> Result<Vec<Array>> {
    r.map(|(a, b)| vec![a, b])
}

fn flag(b: bool, dev: Device) -> Result<Vec<Array>> {
    one(xp::on(dev).asarray(vec![b], []))
}

fn var(case: &Value) -> Var {
    Var { ddof: case["params"]["ddof"].as_u64().unwrap_or(0) as usize, keepdims: p_bool(case, "keepdims") }
}

fn run(case: &Value, dev: Device, x: &[Array]) -> Result<Vec<Array>> {
    let op = case["op"].as_str().unwrap();
    let params = &case["params"];
    let axis = p_axis(case);
    match op {
        "degrees" => one(xp::degrees(&x[0])),
        "radians" => one(xp::radians(&x[0])),
        "rad2deg" => one(xp::rad2deg(&x[0])),
        "deg2rad" => one(xp::deg2rad(&x[0])),
        "signbit" => one(xp::signbit(&x[0])),
        "isposinf" => one(xp::isposinf(&x[0])),
        "isneginf" => one(xp::isneginf(&x[0])),
        "iscomplex" => one(xp::iscomplex(&x[0])),
        "isreal" => one(xp::isreal(&x[0])),
        "isrealobj" => flag(xp::isrealobj(&x[0]), dev),
        "modf" => two(xp::modf(&x[0])),
        "frexp" => two(xp::frexp(&x[0])),
        "spacing" => one(xp::spacing(&x[0])),
        "nextafter" => one(xp::nextafter(&x[0], &x[1])),
        "fmod" => one(xp::fmod(&x[0], &x[1])),
        "divmod" => two(xp::divmod(&x[0], &x[1])),
        "logaddexp2" => one(xp::logaddexp2(&x[0], &x[1])),
        "heaviside" => one(xp::heaviside(&x[0], &x[1])),
        "float_power" => one(xp::float_power(&x[0], &x[1])),
        "gcd" => one(xp::gcd(&x[0], &x[1])),
        "lcm" => one(xp::lcm(&x[0], &x[1])),
        "heaviside_half" => one(xp::heaviside(&x[0], 0.5)),
        "fmod_3" => one(xp::fmod(&x[0], 3)),
        "float_power_2" => one(xp::float_power(&x[0], 2)),
        "ldexp" => one(xp::ldexp(&x[0], &x[1])),
        "real_if_close" => one(xp::real_if_close(&x[0], xp::RealIfClose::default())),
        "real_if_close_tol" => {
            one(xp::real_if_close(&x[0], xp::RealIfClose { tol: params["tol_param"].as_f64().unwrap() }))
        }
        "atleast_1d" => one(xp::atleast_1d(&x[0])),
        "atleast_2d" => one(xp::atleast_2d(&x[0])),
        "atleast_3d" => one(xp::atleast_3d(&x[0])),
        "fliplr" => one(xp::fliplr(&x[0])),
        "flipud" => one(xp::flipud(&x[0])),
        "diagflat" => one(xp::diagflat(&x[0], params["k"].as_i64().unwrap_or(0) as isize)),
        "trim_zeros" => {
            let t = match params["trim"].as_str().unwrap_or("fb") {
                "f" => xp::Trim::Front,
                "b" => xp::Trim::Back,
                _ => xp::Trim::Both,
            };
            one(xp::trim_zeros(&x[0], t))
        }
        "diag_indices_from" => xp::diag_indices_from(&x[0]),
        "tril_indices_from" => two(xp::tril_indices_from(&x[0], params["k"].as_i64().unwrap_or(0) as isize)),
        "triu_indices_from" => two(xp::triu_indices_from(&x[0], params["k"].as_i64().unwrap_or(0) as isize)),
        "resize_2x5" => one(xp::resize(&x[0], [2, 5])),
        "resize_0" => one(xp::resize(&x[0], [0, 3])),
        "append" => one(xp::append(&x[0], &x[1], axis)),
        "delete" => one(xp::delete(&x[0], positions(&params["obj"]), axis)),
        "insert" => one(xp::insert(&x[0], positions(&params["obj"]), &x[1], axis)),
        "column_stack" => one(xp::column_stack(&[&x[0], &x[1]])),
        "dstack" => one(xp::dstack(&[&x[0], &x[1]])),
        "hsplit" => xp::hsplit(&x[0], sections(&params["sections"])),
        "vsplit" => xp::vsplit(&x[0], sections(&params["sections"])),
        "dsplit" => xp::dsplit(&x[0], sections(&params["sections"])),
        "rot90" => {
            let ax = &params["axes"];
            let axes = [ax[0].as_i64().unwrap() as isize, ax[1].as_i64().unwrap() as isize];
            one(xp::rot90_axes(&x[0], p_i64(case, "k"), axes))
        }
        "tri" => {
            let m = params["m"].as_u64().map(|m| m as usize);
            let d = p_dtype(case);
            one(xp::tri_on(dev, p_i64(case, "n") as usize, m, p_i64(case, "k") as isize, d))
        }
        "vander" => {
            let n = params["n"].as_u64().map(|n| n as usize);
            one(xp::vander(&x[0], xp::Vander { n, increasing: p_bool(case, "increasing") }))
        }
        "geomspace" => {
            let f = |k: &str| params[k].as_f64().unwrap();
            let o = xp::Geomspace { endpoint: p_bool(case, "endpoint"), dtype: p_dtype(case) };
            one(xp::geomspace_on(dev, f("start"), f("stop"), p_i64(case, "num") as usize, o))
        }
        "fill_diagonal" => {
            let shape: Vec<usize> =
                params["shape"].as_array().unwrap().iter().map(|d| d.as_u64().unwrap() as usize).collect();
            let a = xp::on(dev).zeros(shape, p_dtype(case))?;
            if p_bool(case, "wrap") {
                xp::fill_diagonal_wrap(&a, &x[0])?;
            } else {
                xp::fill_diagonal(&a, &x[0])?;
            }
            Ok(vec![a])
        }
        "broadcast_shapes" => {
            let shapes: Vec<Vec<usize>> = params["shapes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_array().unwrap().iter().map(|d| d.as_u64().unwrap() as usize).collect())
                .collect();
            let refs: Vec<&[usize]> = shapes.iter().map(|s| s.as_slice()).collect();
            let r: Vec<i64> = xp::broadcast_shapes(&refs)?.iter().map(|&d| d as i64).collect();
            let n = r.len();
            one(xp::on(dev).asarray(r, [n]))
        }
        "nanprod" => one(x[0].nanprod(axis)),
        "nanvar" => one(x[0].nanvar_with(axis, var(case))),
        "nanstd" => one(x[0].nanstd_with(axis, var(case))),
        "nanargmax" if p_bool(case, "keepdims") => one(x[0].nanargmax_keepdim(axis)),
        "nanargmax" => one(x[0].nanargmax(axis)),
        "nanargmin" if p_bool(case, "keepdims") => one(x[0].nanargmin_keepdim(axis)),
        "nanargmin" => one(x[0].nanargmin(axis)),
        "polyval" => one(xp::polyval(&x[0], &x[1])),
        "polyadd" => one(xp::polyadd(&x[0], &x[1])),
        "polysub" => one(xp::polysub(&x[0], &x[1])),
        "polymul" => one(xp::polymul(&x[0], &x[1])),
        "polyder" => one(xp::polyder(&x[0], p_i64(case, "m") as usize)),
        "polyint" => {
            let k: Vec<f64> = params["k"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
            one(xp::polyint(&x[0], p_i64(case, "m") as usize, &k))
        }
        "polyfit" => one(xp::polyfit(&x[0], &x[1], p_i64(case, "deg") as usize)),
        "roots" => one(xp::roots(&x[0]).and_then(|r| canonical_roots(&r))),
        "finfo" => {
            let f = xp::finfo(p_dtype(case).unwrap())?;
            let v = vec![
                f.eps,
                f.epsneg,
                f.max,
                f.min,
                f.tiny(),
                f.smallest_subnormal,
                f.resolution,
                f.precision as f64,
                f.bits as f64,
                f.nmant as f64,
                f.nexp as f64,
                f.maxexp as f64,
                f.minexp as f64,
            ];
            one(xp::on(dev).asarray(v, [13]))
        }
        "iinfo" => {
            let i = xp::iinfo(p_dtype(case).unwrap())?;
            let m = xp::on(dev);
            Ok(vec![
                m.asarray(vec![i.min as i64], [1])?,
                m.asarray(vec![i.max as u64], [1])?,
                m.asarray(vec![i.bits as i64], [1])?,
            ])
        }
        "common_type" => {
            let refs: Vec<&Array> = x.iter().collect();
            one(xp::on(dev).zeros([1], xp::common_type(&refs)?))
        }
        "bitwise_count" => one(xp::bitwise_count(&x[0])),
        "mask_indices_triu" => {
            two(xp::mask_indices(p_i64(case, "n") as usize, |m, k| m.triu(k), p_i64(case, "k") as isize, dev))
        }
        "mask_indices_tril" => {
            two(xp::mask_indices(p_i64(case, "n") as usize, |m, k| m.tril(k), p_i64(case, "k") as isize, dev))
        }
        "histogram_bin_edges" => {
            let r = &params["range"];
            let range = r.as_array().map(|r| (r[0].as_f64().unwrap(), r[1].as_f64().unwrap()));
            let o = xp::Histogram { range, ..Default::default() };
            one(xp::histogram_bin_edges(&x[0], p_i64(case, "bins") as usize, o))
        }
        "apply_along_axis" => {
            let f = params["func"].as_str().unwrap();
            let g = |v: &Array| -> Result<Array> {
                match f {
                    "sum" => v.sum(..),
                    "cumsum" => v.cumsum(..),
                    "outer" => xp::outer(v, v),
                    _ => v.slice(xp::s![0..2]),
                }
            };
            one(xp::apply_along_axis(g, axis.unwrap(), &x[0]))
        }
        "apply_over_axes" => {
            let axes: Vec<isize> =
                params["axes"].as_array().unwrap().iter().map(|a| a.as_i64().unwrap() as isize).collect();
            one(xp::apply_over_axes(|a, ax| a.sum(ax), &x[0], &axes))
        }
        "piecewise_values" => {
            let (c1, c2) = (x[0].lt(0)?, x[0].gt(1)?);
            one(xp::piecewise(&x[0], &[&c1, &c2], vec![Piece::Value(-1.0), Piece::Value(1.0)]))
        }
        "piecewise_otherwise" => {
            let (c1, c2) = (x[0].lt(0)?, x[0].gt(1)?);
            let pieces = vec![Piece::func(|t| t.neg()), Piece::Value(7.0), Piece::func(|t| t.mul(t))];
            one(xp::piecewise(&x[0], &[&c1, &c2], pieces))
        }
        "piecewise_overlap" => {
            let (c1, c2) = (x[0].lt(2)?, x[0].gt(-2)?);
            let pieces = vec![Piece::func(|t| t.add(10)), Piece::func(|t| t.mul(0)?.add(3))];
            one(xp::piecewise(&x[0], &[&c1, &c2], pieces))
        }
        "block" => {
            let lift = |a: &Array| if a.ndim() == 1 { a.expand_dims(0) } else { Ok(a.clone()) };
            let (r, t) = (lift(&x[2])?, lift(&x[3])?);
            one(xp::block(&[&[&x[0], &x[1]], &[&r, &t]]))
        }
        "polydiv" => two(xp::polydiv(&x[0], &x[1])),
        "sort_complex" => one(xp::sort_complex(&x[0])),
        "unstack" => xp::unstack(&x[0], axis.unwrap_or(0)),
        "matvec" => one(xp::matvec(&x[0], &x[1])),
        "vecmat" => one(xp::vecmat(&x[0], &x[1])),
        "asarray_chkfinite" => one(xp::asarray_chkfinite(&x[0])),
        "putmask" => {
            let a = x[0].copy()?;
            xp::putmask(&a, &x[1], &x[2])?;
            Ok(vec![a])
        }
        "unwrap" => {
            let o = xp::Unwrap {
                discont: params["discont"].as_f64(),
                axis: axis.unwrap_or(-1),
                period: params["period"].as_f64().unwrap(),
            };
            one(xp::unwrap(&x[0], o))
        }
        "poly" => one(xp::poly(&x[0])),
        _ => panic!("unknown op {op}"),
    }
}

/// Roots in the generator's canonical order (the real part rounded to 6 decimals, then the
/// imaginary part): the order of eigenvalues is the solver's own, and a conjugate pair's real
/// parts differ in the last digit.
fn canonical_roots(r: &Array) -> Result<Array> {
    let mut v = r.astype(DType::C128)?.to_vec::<xp::Complex64>()?;
    let key = |z: &xp::Complex64| ((z.re * 1e6).round(), z.im);
    v.sort_by(|a, b| key(a).partial_cmp(&key(b)).unwrap_or(std::cmp::Ordering::Equal));
    let n = v.len();
    xp::on(r.device()).asarray(v, [n])?.astype(r.dtype())
}

fn reference(f: &mut Failures, dev: Device, case: &Value) {
    let (want, inputs) = common::tolerant_case(case);
    let what = format!("{} {}", case["op"].as_str().unwrap(), case["params"]);
    common::check_layouts(f, dev, &inputs, &want, &what, false, |x| run(case, dev, x));
}

split_cases!(reference, "numpy_more");

/// The typed errors of bad arguments, beyond those NumPy's reference cases raise.
#[test]
fn bad_arguments_are_typed_errors() {
    for dev in xp_testing::devices() {
        let m = xp::on(dev);
        let a = m.asarray(vec![1.0, 2.0, 3.0], [3]).unwrap();
        let c = m.asarray(vec![xp::Complex64::new(1.0, 1.0)], [1]).unwrap();
        assert!(matches!(xp::degrees(&c), Err(xp::Error::InvalidDType { op: "degrees", .. })), "{dev}");
        assert!(matches!(xp::signbit(&c), Err(xp::Error::InvalidDType { op: "signbit", .. })), "{dev}");
        assert!(matches!(xp::gcd(&a, &a), Err(xp::Error::InvalidDType { op: "gcd", .. })), "{dev}");
        assert!(matches!(xp::ldexp(&a, 1.5), Err(xp::Error::InvalidDType { op: "ldexp", .. })), "{dev}");
        assert!(matches!(xp::insert(&a, 4, &a, 0), Err(xp::Error::IndexOutOfBounds { index: 4, .. })), "{dev}");
        assert!(matches!(xp::delete(&a, -4, ..), Err(xp::Error::IndexOutOfBounds { index: -4, .. })), "{dev}");
        assert!(matches!(xp::delete(&a, 0, 1), Err(xp::Error::AxisOutOfRange { .. })), "{dev}");
        assert!(matches!(xp::rot90_axes(&a, 1, [0, 0]), Err(xp::Error::InvalidArgument { .. })), "{dev}");
        assert!(matches!(xp::fliplr(&a), Err(xp::Error::InvalidArgument { op: "fliplr", .. })), "{dev}");
        assert!(matches!(xp::broadcast_shapes(&[&[2], &[3]]), Err(xp::Error::ShapeMismatch { .. })), "{dev}");
        assert!(matches!(
            xp::geomspace_on(dev, 0.0, 1.0, 3, Default::default()),
            Err(xp::Error::InvalidArgument { op: "geomspace", .. })
        ));
        let nan = m.asarray(vec![f64::NAN, f64::NAN], [2]).unwrap();
        assert!(matches!(nan.nanargmax(..), Err(xp::Error::InvalidArgument { op: "nanargmax", .. })), "{dev}");
        assert!(matches!(xp::polyint(&a, 3, &[1.0, 2.0]), Err(xp::Error::InvalidArgument { op: "polyint", .. })));
        let grid = m.zeros([2, 2], None).unwrap();
        assert!(matches!(xp::roots(&grid), Err(xp::Error::InvalidArgument { op: "roots", .. })), "{dev}");
        assert!(matches!(xp::polyfit(&grid, &a, 1), Err(xp::Error::InvalidArgument { op: "polyfit", .. })));
        let other = if dev == Device::Cpu { None } else { Some(Array::from_vec(vec![1.0], [1]).unwrap()) };
        if let Some(o) = other {
            assert!(matches!(xp::fmod(&a, &o), Err(xp::Error::DeviceMismatch { .. })), "{dev}");
            assert!(matches!(xp::polyval(&a, &o), Err(xp::Error::DeviceMismatch { .. })), "{dev}");
        }
    }
}

/// `fill_diagonal` writes through a strided view into its base, and a failed write leaves the
/// array as it was.
#[test]
fn fill_diagonal_writes_through_views() {
    for dev in xp_testing::devices() {
        let base = xp::on(dev).zeros([4, 6], DType::I32).unwrap();
        let view = base.slice(xp::s![.., 0..6; 2]).unwrap(); // 4 x 3, columns 0, 2, 4
        xp::fill_diagonal(&view, 5).unwrap();
        let got = base.to_vec::<i32>().unwrap();
        let mut want = vec![0; 24];
        for (r, c) in [(0, 0), (1, 2), (2, 4)] {
            want[r * 6 + c] = 5;
        }
        assert_eq!(got, want, "{dev}");
        let one_d = xp::on(dev).zeros([3], DType::I32).unwrap();
        assert!(xp::fill_diagonal(&one_d, 1).is_err(), "{dev}");
        assert_eq!(one_d.to_vec::<i32>().unwrap(), vec![0; 3], "{dev}");
    }
}
