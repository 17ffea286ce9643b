//! Complex elementary functions at C99 Annex G's special values (infinities, NaNs, signed
//! zeros, the branch cuts), the table NumPy's npymath and the Array API standard follow, and at
//! finite points where float32 formulas or a squared argument lose every digit (references from
//! NumPy, complex128), on every device, complex64 and complex128.
use xp::{Array, Complex32, Complex64, DType, UnaryOp};
use xp_testing::{devices, Failures};

const INF: f64 = f64::INFINITY;
const NAN: f64 = f64::NAN;
const PI: f64 = std::f64::consts::PI;
const H: f64 = std::f64::consts::FRAC_PI_2;
const Q: f64 = std::f64::consts::FRAC_PI_4;

/// An expected part: a value (NaN matches NaN; zeros and infinities match with their sign), or
/// `Any(v)` where C99 leaves the sign of `v` unspecified.
#[derive(Clone, Copy)]
enum P {
    V(f64),
    Any(f64),
}
use P::{Any, V};

fn part_ok(got: f64, want: P, rel: f64) -> bool {
    let (w, signed) = match want {
        V(w) => (w, true),
        Any(w) => (w, false),
    };
    if w.is_nan() {
        return got.is_nan();
    }
    if w.is_infinite() || w == 0.0 {
        let same = if signed { got.is_sign_negative() == w.is_sign_negative() } else { true };
        return got.abs() == w.abs() && same;
    }
    (got - w).abs() <= rel * w.abs()
}

/// (op, input, expected output)
type Case = (UnaryOp, (f64, f64), (P, P));

#[rustfmt::skip]
fn cases() -> Vec<Case> {
    use UnaryOp::*;
    vec![
        (Sqrt, (0.0, 0.0), (V(0.0), V(0.0))), (Sqrt, (1.0, INF), (V(INF), V(INF))),
        (Sqrt, (NAN, INF), (V(INF), V(INF))), (Sqrt, (-INF, 1.0), (V(0.0), V(INF))),
        (Sqrt, (INF, 1.0), (V(INF), V(0.0))), (Sqrt, (-INF, NAN), (V(NAN), Any(INF))),
        (Sqrt, (INF, NAN), (V(INF), V(NAN))), (Sqrt, (NAN, 1.0), (V(NAN), V(NAN))),
        (Sinh, (0.0, INF), (Any(0.0), V(NAN))), (Sinh, (0.0, NAN), (Any(0.0), V(NAN))),
        (Sinh, (INF, 0.0), (V(INF), V(0.0))), (Sinh, (INF, 1.0), (V(INF), V(INF))),
        (Sinh, (INF, INF), (Any(INF), V(NAN))), (Sinh, (NAN, 0.0), (V(NAN), V(0.0))),
        (Sinh, (NAN, 1.0), (V(NAN), V(NAN))),
        (Cosh, (0.0, INF), (V(NAN), Any(0.0))), (Cosh, (INF, 0.0), (V(INF), V(0.0))),
        (Cosh, (INF, 1.0), (V(INF), V(INF))), (Cosh, (INF, INF), (Any(INF), V(NAN))),
        (Cosh, (NAN, 0.0), (V(NAN), Any(0.0))),
        (Tanh, (INF, 1.0), (V(1.0), V(0.0))), (Tanh, (INF, INF), (V(1.0), Any(0.0))),
        (Tanh, (0.0, INF), (V(0.0), V(NAN))), (Tanh, (NAN, 0.0), (V(NAN), V(0.0))),
        (Tanh, (800.0, 1.0), (V(1.0), V(0.0))),
        (Arcsinh, (1.0, INF), (V(INF), V(H))), (Arcsinh, (INF, 1.0), (V(INF), V(0.0))),
        (Arcsinh, (INF, INF), (V(INF), V(Q))), (Arcsinh, (NAN, 0.0), (V(NAN), V(0.0))),
        (Arcsinh, (NAN, INF), (Any(INF), V(NAN))),
        (Arccos, (0.0, 0.0), (V(H), V(-0.0))), (Arccos, (0.0, NAN), (V(H), V(NAN))),
        (Arccos, (1.0, INF), (V(H), V(-INF))), (Arccos, (-INF, 1.0), (V(PI), V(-INF))),
        (Arccos, (INF, 1.0), (V(0.0), V(-INF))), (Arccos, (-INF, INF), (V(3.0 * Q), V(-INF))),
        (Arccos, (INF, INF), (V(Q), V(-INF))), (Arccos, (NAN, INF), (V(NAN), V(-INF))),
        (Arccosh, (0.0, 0.0), (V(0.0), V(H))), (Arccosh, (1.0, INF), (V(INF), V(H))),
        (Arccosh, (-INF, 1.0), (V(INF), V(PI))), (Arccosh, (INF, 1.0), (V(INF), V(0.0))),
        (Arccosh, (-INF, INF), (V(INF), V(3.0 * Q))), (Arccosh, (NAN, INF), (V(INF), V(NAN))),
        (Arctanh, (0.0, 0.0), (V(0.0), V(0.0))), (Arctanh, (1.0, 0.0), (V(INF), V(0.0))),
        (Arctanh, (1.0, INF), (V(0.0), V(H))), (Arctanh, (INF, 1.0), (V(0.0), V(H))),
        (Arctanh, (INF, NAN), (V(0.0), V(NAN))), (Arctanh, (NAN, INF), (Any(0.0), V(H))),
        // the cuts: the sign of the imaginary zero picks the side
        (Arcsin, (2.0, 0.0), (V(H), V(1.3169578969248166))),
        (Arcsin, (2.0, -0.0), (V(H), V(-1.3169578969248166))),
        (Arccos, (-2.0, -0.0), (V(PI), V(1.3169578969248166))),
        // finite points (NumPy's complex128 values)
        (Arccos, (1e4, 3.0), (V(0.0002999999925000002), V(-9.903487595036127))),
        (Arcsinh, (-6.7e7, 1e-3), (V(-18.713350357915186), V(1.492537313432836e-11))),
        (Arcsin, (0.5, 1e-10), (V(std::f64::consts::FRAC_PI_6), V(1.1547005383792516e-10))),
        (Arctanh, (1e-9, 2e-9), (V(9.999999999999999e-10), V(2.0000000000000005e-09))),
        (Tan, (0.3, 400.0), (V(0.0), V(1.0))),
    ]
}

#[test]
fn complex_functions_follow_c99_and_numpy() {
    let mut f = Failures::default();
    for dev in devices() {
        for (op, (re, im), (wr, wi)) in cases() {
            for dt in [DType::C64, DType::C128] {
                let x = match dt {
                    DType::C64 => Array::from_vec(vec![Complex32::new(re as f32, im as f32)], [1]),
                    _ => Array::from_vec(vec![Complex64::new(re, im)], [1]),
                }
                .and_then(|a| a.to_device(dev))
                .unwrap();
                let got = xp::unary(op, &x).and_then(|r| r.astype(DType::C128)).and_then(|r| r.to_vec::<Complex64>());
                let rel = if dt == DType::C64 { 2e-6 } else { 1e-13 };
                let ok = matches!(&got, Ok(v) if part_ok(v[0].re, wr, rel) && part_ok(v[0].im, wi, rel));
                if !ok {
                    f.add(Err(format!("{dev} {} {dt} ({re}, {im}): got {got:?}", op.name())));
                }
            }
        }
    }
    f.finish();
}
