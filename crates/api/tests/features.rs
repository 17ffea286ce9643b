//! The family features on the CPU: with a feature, its operations give their exact results;
//! without it, they answer `Error::FeatureDisabled` naming the feature, and leave the input as
//! it was. CI runs this file in the default build, in the smallest one
//! (`--no-default-features`) and with every CPU family on but no CUDA.
use xp::{Array, Error, Result};

/// `r` is `want` when `on`, else `FeatureDisabled` for `feature` on the CPU backend.
fn check(r: Result<Vec<f64>>, on: bool, feature: &str, want: &[f64]) {
    match r {
        Ok(got) => {
            assert!(on, "{feature} is off, yet the operation ran");
            assert_eq!(got, want, "{feature}");
        }
        Err(Error::FeatureDisabled { feature: f, backend, .. }) => {
            assert!(!on, "{feature} is on, yet the operation was refused");
            assert_eq!((f, backend), (feature, "cpu"));
        }
        Err(e) => panic!("{feature}: unexpected error {e}"),
    }
}

#[test]
fn linalg_follows_its_feature() {
    // [[2, 1], [1, 1]] has the inverse [[1, -1], [-1, 2]], exactly in binary floating point
    let a = Array::from_vec(vec![2.0f64, 1.0, 1.0, 1.0], [2, 2]).unwrap();
    check(xp::linalg::inv(&a).and_then(|r| r.to_vec()), cfg!(feature = "linalg"), "linalg", &[1.0, -1.0, -1.0, 2.0]);
    assert_eq!(a.to_vec::<f64>().unwrap(), vec![2.0, 1.0, 1.0, 1.0]);
    // products need no feature
    let p = xp::matmul(&a, &a).unwrap();
    assert_eq!(p.to_vec::<f64>().unwrap(), vec![5.0, 3.0, 3.0, 2.0]);
}

#[test]
fn fft_follows_its_feature() {
    // the transform of an impulse is all ones; of all ones, an impulse of height n
    let x = Array::from_vec(vec![1.0f64, 1.0, 1.0, 1.0], [4]).unwrap();
    let r = xp::fft::rfft(&x, None, -1, Default::default())
        .and_then(|f| f.to_vec::<xp::Complex64>())
        .map(|v| v.iter().flat_map(|c| [c.re, c.im]).collect());
    check(r, cfg!(feature = "fft"), "fft", &[4.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn iir_filters_follow_the_signal_feature() {
    // y[n] = x[n] + y[n-1] / 2 of an impulse: powers of a half, exact
    let b = Array::from_vec(vec![1.0f64], [1]).unwrap();
    let a = Array::from_vec(vec![1.0f64, -0.5], [2]).unwrap();
    let x = Array::from_vec(vec![1.0f64, 0.0, 0.0, 0.0], [4]).unwrap();
    let r = xp::signal::lfilter(&b, &a, &x, Default::default()).and_then(|f| f.y.to_vec());
    check(r, cfg!(feature = "signal"), "signal", &[1.0, 0.5, 0.25, 0.125]);
    assert_eq!(x.to_vec::<f64>().unwrap(), vec![1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn automatic_convolution_works_with_or_without_fft() {
    // long enough that the automatic method prefers the FFT where there is one; the full
    // convolution of n ones with m ones is the ramp 1, 2, .., m, .., m, .., 2, 1
    let (n, m) = (1usize << 14, 257usize);
    let a = Array::from_vec(vec![1.0f64; n], [n]).unwrap();
    let b = Array::from_vec(vec![1.0f64; m], [m]).unwrap();
    let mode = xp::signal::Mode::Full;
    let c = xp::signal::convolve(&a, &b, mode, xp::signal::Method::Auto).unwrap().to_vec::<f64>().unwrap();
    assert_eq!(c.len(), n + m - 1);
    for (i, &v) in c.iter().enumerate() {
        let want = (i + 1).min(m).min(n + m - 1 - i) as f64;
        assert!((v - want).abs() < 1e-9, "at {i}: {v} against {want}");
    }
}
