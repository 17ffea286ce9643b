//! Random draws on every device against the stream's specification (`xp_core::random`, computed
//! on the host value by value), against their exact distributions (Kolmogorov–Smirnov and
//! chi-squared, thresholds that a correct generator exceeds less than once in 10^6 runs), and the
//! typed errors.
use xp::random::default_rng;
use xp::random::spec::{integer, normal_pair_f32, normal_pair_f64, unit_f32, unit_f64, wide, Stream};
use xp::{DType, Error};
use xp_testing::devices;

use crate::fit::{ks, phi, KS_LIMIT};

/// Units in the last place between two floats of the same sign.
fn ulps32(a: f32, b: f32) -> u32 {
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
}

#[test]
fn uniform_and_integer_draws_follow_the_stream_bit_for_bit_on_every_device() {
    let n = 10_007;
    for dev in devices() {
        let mut rng = xp::on(dev).default_rng(0x5EED);
        let f = rng.random([n], DType::F32).unwrap().to_vec::<f32>().unwrap();
        let s = Stream::new(0x5EED, 0);
        assert!(f.iter().enumerate().all(|(i, &v)| v == unit_f32(s.block(i as u64 / 4)[i % 4])), "f32 on {dev}");
        let d = rng.random([101, 3], DType::F64).unwrap().to_vec::<f64>().unwrap();
        let s = Stream::new(0x5EED, 1);
        for (i, &v) in d.iter().enumerate() {
            let b = s.block(i as u64 / 2);
            assert_eq!(v, unit_f64(b[2 * (i % 2)], b[2 * (i % 2) + 1]), "f64 value {i} on {dev}");
        }
        // Integers: a small odd range, a range that rejects a quarter of the words, 64-bit spans,
        // the whole int64 range; several dtypes.
        let cases = [
            (-5i64, 4i64, DType::I8),
            (0, 3 << 30, DType::I64),
            (10, (1 << 40) + 7, DType::I64),
            (i64::MIN, i64::MAX, DType::I64),
            (0, 255, DType::U8),
            (-1000, 1000, DType::I32),
        ];
        for (k, &(lo, hi, dt)) in cases.iter().enumerate() {
            let got = rng.integers_closed(lo, hi, [n], dt).unwrap().astype(DType::I64).unwrap();
            let got = got.to_vec::<i64>().unwrap();
            let s = Stream::new(0x5EED, 2 + k as u64);
            let span = hi.wrapping_sub(lo) as u64;
            for (i, &v) in got.iter().enumerate() {
                let i = i as u64;
                let b = s.block(i / if wide(span) { 2 } else { 4 });
                let want = lo.wrapping_add(integer(&s, i, span, &b) as i64);
                assert_eq!(v, want, "integers {lo}..={hi} as {} value {i} on {dev}", dt.name());
            }
        }
    }
}

#[test]
fn normal_draws_match_the_stream_within_a_few_ulp_on_every_device() {
    // float32 Box–Muller through each device's logf/sqrtf/sinf/cosf: at most 4 ulp apart (the GPU's
    // float functions are within 1–2 ulp of the correctly rounded result, as are the host's);
    // float64 likewise at most 4 ulp.
    let n = 1 << 16;
    for dev in devices() {
        let mut rng = xp::on(dev).default_rng(99);
        let z = rng.standard_normal([n], DType::F32).unwrap().to_vec::<f32>().unwrap();
        let s = Stream::new(99, 0);
        let mut worst = 0;
        for (i, &v) in z.iter().enumerate() {
            let b = s.block(i as u64 / 4);
            let j = i % 4;
            let pair = normal_pair_f32(b[j / 2 * 2], b[j / 2 * 2 + 1]);
            let want = pair[j % 2];
            // Near zero the sign may differ by rounding of cos/sin: compare absolute error there.
            if want.abs() > 1e-3 {
                worst = worst.max(ulps32(v, want));
            } else {
                assert!((v - want).abs() < 1e-6, "value {i} on {dev}: {v} vs {want}");
            }
        }
        eprintln!("float32 normals on {dev}: at most {worst} ulp from the specification's");
        assert!(worst <= 4, "float32 normals {worst} ulp from the host's on {dev}");
        let z = rng.standard_normal([n], DType::F64).unwrap().to_vec::<f64>().unwrap();
        let s = Stream::new(99, 1);
        for (i, &v) in z.iter().enumerate() {
            let want = normal_pair_f64(s.block(i as u64 / 2))[i % 2];
            assert!(
                (v - want).abs() <= 4.0 * f64::EPSILON * want.abs().max(1e-3),
                "f64 value {i} on {dev}: {v} vs {want}"
            );
        }
    }
}

#[test]
fn draws_pass_goodness_of_fit_tests_on_every_device() {
    let n = 1 << 20;
    for dev in devices() {
        let mut rng = xp::on(dev).default_rng(2024);
        for dt in [DType::F32, DType::F64] {
            let u = rng.random([n], dt).unwrap().astype(DType::F64).unwrap().to_vec::<f64>().unwrap();
            assert!(u.iter().all(|&x| (0.0..1.0).contains(&x)), "random {} outside [0, 1) on {dev}", dt.name());
            let d = ks(u, |x| x.clamp(0.0, 1.0));
            assert!(d < KS_LIMIT, "random {} KS {d} on {dev}", dt.name());
            let z = rng.standard_normal([n], dt).unwrap().astype(DType::F64).unwrap().to_vec::<f64>().unwrap();
            let (m, v) = (z.iter().sum::<f64>() / n as f64, z.iter().map(|x| x * x).sum::<f64>() / n as f64);
            // Mean and second moment within 5 standard errors (1/√n and √2/√n).
            assert!(
                m.abs() < 5.0 / (n as f64).sqrt() && (v - 1.0).abs() < 5.0 * 2f64.sqrt() / (n as f64).sqrt(),
                "moments {m} {v}"
            );
            let d = ks(z, phi);
            assert!(d < KS_LIMIT, "standard_normal {} KS {d} on {dev}", dt.name());
        }
        // Integers over ranges that are not powers of two: chi-squared over the values (10 cells,
        // 9 degrees of freedom: 44.8 at 1 − 10^-6), and over thirds of a range where a modulo
        // would put half the mass in the first third (2 degrees: 27.6).
        let x = rng.integers(0, 10, [n], DType::I64).unwrap().to_vec::<i64>().unwrap();
        let mut c = [0f64; 10];
        x.iter().for_each(|&v| c[v as usize] += 1.0);
        let e = n as f64 / 10.0;
        let chi: f64 = c.iter().map(|o| (o - e) * (o - e) / e).sum();
        assert!(chi < 44.8, "integers(0, 10) chi-squared {chi} on {dev}: {c:?}");
        let third = 1i64 << 30;
        let x = rng.integers(0, 3 * third, [n], DType::I64).unwrap().to_vec::<i64>().unwrap();
        let mut c = [0f64; 3];
        x.iter().for_each(|&v| c[(v / third) as usize] += 1.0);
        let e = n as f64 / 3.0;
        let chi: f64 = c.iter().map(|o| (o - e) * (o - e) / e).sum();
        assert!(chi < 27.6, "integers(0, 3·2^30) chi-squared {chi} on {dev}: {c:?}");
    }
}

#[test]
fn generators_repeat_their_sequence_and_draws_differ() {
    for dev in devices() {
        let (mut a, mut b) = (xp::on(dev).default_rng(5), default_rng(5).to_device(dev));
        let a1 = a.random([64], DType::F32).unwrap().to_vec::<f32>().unwrap();
        let a2 = a.random([64], DType::F32).unwrap().to_vec::<f32>().unwrap();
        assert_ne!(a1, a2, "two draws of one generator on {dev}");
        assert_eq!(b.random([64], DType::F32).unwrap().to_vec::<f32>().unwrap(), a1);
        assert_eq!(b.random([64], DType::F32).unwrap().to_vec::<f32>().unwrap(), a2);
        let other = xp::on(dev).default_rng(6).random([64], DType::F32).unwrap().to_vec::<f32>().unwrap();
        assert_ne!(other, a1, "seeds 5 and 6 on {dev}");
        // Shapes, including empty ones.
        assert_eq!(a.standard_normal([3, 0, 2], DType::F64).unwrap().shape(), &[3, 0, 2]);
        assert_eq!(a.integers(0, 2, [2, 3], DType::U8).unwrap().shape(), &[2, 3]);
    }
}

#[test]
fn bad_random_arguments_are_typed_errors() {
    let mut rng = default_rng(1);
    let before = rng.clone();
    assert!(matches!(rng.integers(5, 5, [3], DType::I64), Err(Error::InvalidParameter { op: "integers", .. })));
    assert!(matches!(rng.integers(0, 300, [3], DType::U8), Err(Error::InvalidArgument { op: "integers", .. })));
    assert!(matches!(rng.integers(-1, 3, [3], DType::U32), Err(Error::InvalidArgument { op: "integers", .. })));
    assert_eq!(
        rng.integers(0, 3, [3], DType::F32).unwrap_err(),
        Error::InvalidDType { op: "integers", dtype: DType::F32 }
    );
    assert_eq!(rng.random([3], DType::I32).unwrap_err(), Error::InvalidDType { op: "random", dtype: DType::I32 });
    assert_eq!(
        rng.standard_normal([3], DType::F16).unwrap_err(),
        Error::InvalidDType { op: "standard_normal", dtype: DType::F16 }
    );
    // A failed call draws nothing: the next draw is the generator's first.
    assert_eq!(rng, before);
}

#[test]
fn a_piece_of_each_draw_is_the_whole_draws_values_at_its_positions() {
    // What the shards of a distributed array draw: each its positions of one global draw.
    type Draw = fn(&mut xp::random::Generator, &[usize]) -> xp::Result<xp::Array>;
    let draws: [(&str, Draw); 6] = [
        ("random f32", |g, s| g.random(s, DType::F32)),
        ("random f64", |g, s| g.random(s, DType::F64)),
        ("standard_normal f32", |g, s| g.standard_normal(s, DType::F32)),
        ("normal(3, 2) f64", |g, s| g.normal(3.0, 2.0, s.to_vec())),
        ("integers u8", |g, s| g.integers(0, 200, s, DType::U8)),
        ("gamma(0.7)", |g, s| g.gamma(0.7, 1.0, s.to_vec())),
    ];
    for dev in devices() {
        for (name, draw) in draws {
            let whole = draw(&mut xp::on(dev).default_rng(8), &[10, 7]).unwrap().reshape([-1]).unwrap();
            for (start, shape) in [(0usize, vec![3usize, 7]), (7, vec![2, 7]), (21, vec![7, 7]), (69, vec![1])] {
                let mut g = xp::on(dev).default_rng(8);
                let piece = g.piece(start, |g| draw(g, &shape)).unwrap();
                assert_eq!(piece.shape(), &shape[..], "{name} on {dev}");
                let want = whole.slice(xp::s![start as isize..(start + piece.size()) as isize]).unwrap();
                assert!(xp::array_equal(&piece.reshape([-1]).unwrap(), &want).unwrap(), "{name} from {start} on {dev}");
            }
        }
    }
    // a parameter array is not cut to a piece: a typed error
    let mut g = default_rng(1);
    let k = xp::on(xp::Device::Cpu).asarray(vec![1.0, 2.0], [2]).unwrap();
    assert!(matches!(
        g.piece(4, |g| g.standard_gamma(&k, [2], DType::F64)),
        Err(Error::InvalidArgument { op: "random", .. })
    ));
}
