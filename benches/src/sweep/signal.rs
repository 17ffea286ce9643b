//! Sweep rows of `xp::signal` against `scipy.signal` / `cupyx.scipy.signal` (and NumPy's 1-D
//! `convolve`/`correlate` and window functions at the crate root): 2^22 float32 samples for the
//! 1-D routines, a 2048² float32 image for the 2-D ones. The IIR filters use SciPy's 4th-order
//! Butterworth low-pass at 0.2 (`butter(4, 0.2)`), written out as numbers so that no filter
//! design runs in the timed code.
use super::{many, one, shrunk, uniform, Cmp, Row};
use xp::signal::{
    self, windows, Boundary, Detrend, Method, Mode, PadType, PeakConditions, PolyPad, Scaling, StftParams, Window,
};
use xp::{Array, Device, Result};

/// Samples of the 1-D rows.
const L: usize = 1 << 22;
/// `butter(4, 0.2)`: numerator and denominator.
const B: [f64; 5] =
    [0.004824343357716228, 0.019297373430864913, 0.02894606014629737, 0.019297373430864913, 0.004824343357716228];
const A: [f64; 5] = [1.0, -2.369513007182038, 2.313988414415881, -1.054665405878568, 0.18737949236818502];
/// `butter(4, 0.2, output='sos')`.
const SOS: [f64; 12] = [
    0.004824343357716228,
    0.009648686715432456,
    0.004824343357716228,
    1.0,
    -1.0485995763626117,
    0.2961403575616696,
    1.0,
    2.0,
    1.0,
    1.0,
    -1.3209134308194264,
    0.6327387928852766,
];

/// The Python setup of the filter rows: `b`, `a`, `sos` and the signal `x`.
fn py_filter() -> String {
    format!(
        "b = xp.asarray({B:?}); a = xp.asarray({A:?}); sos = xp.asarray({SOS:?}).reshape(2, 6); x = uniform(1 << 22)"
    )
}

fn coefs(d: Device) -> Result<(Array, Array, Array)> {
    Ok((
        Array::from_vec(B.to_vec(), [5])?.to_device(d)?,
        Array::from_vec(A.to_vec(), [5])?.to_device(d)?,
        Array::from_vec(SOS.to_vec(), [2, 6])?.to_device(d)?,
    ))
}

pub(super) fn rows(r: &mut Vec<Row>, gpu: bool) {
    let x1 = "x = uniform(1 << 22)";
    // NumPy's direct 1-D convolution and correlation
    r.push(Row::new(
        "convolve",
        "2^22 * 64 f32, same",
        format!("{x1}; v = uniform(64, 1)"),
        "xp.convolve(x, v, 'same')",
        |d| {
            let (x, v) = (uniform(&[L], 0, d)?, uniform(&[64], 1, d)?);
            one(move || xp::convolve(&x, &v, Mode::Same))
        },
    ));
    r.push(Row::new(
        "correlate",
        "2^22 * 64 f32, same",
        format!("{x1}; v = uniform(64, 1)"),
        "xp.correlate(x, v, 'same')",
        |d| {
            let (x, v) = (uniform(&[L], 0, d)?, uniform(&[64], 1, d)?);
            one(move || xp::correlate(&x, &v, Mode::Same))
        },
    ));
    // SciPy's convolutions (method chosen by each library)
    type Conv = fn(&Array, &Array) -> Result<Array>;
    let convs: [(&str, &str, Conv); 4] = [
        ("signal.convolve", "convolve", |x, k| signal::convolve(x, k, Mode::Same, Method::Auto)),
        ("signal.correlate", "correlate", |x, k| signal::correlate(x, k, Mode::Same, Method::Auto)),
        ("signal.fftconvolve", "fftconvolve", |x, k| signal::fftconvolve(x, k, Mode::Same)),
        ("signal.oaconvolve", "oaconvolve", |x, k| signal::oaconvolve(x, k, Mode::Same, None)),
    ];
    for (name, py, f) in convs {
        r.push(Row::new(
            name,
            "2^22 * 1024 f32, same",
            format!("{x1}; k = uniform(1024, 1)"),
            format!("sp.signal.{py}(x, k, mode='same')"),
            move |d| {
                let (x, k) = (uniform(&[L], 0, d)?, uniform(&[1024], 1, d)?);
                one(move || f(&x, &k))
            },
        ));
    }
    let img = "img = uniform((2048, 2048))";
    let conv2: [(&str, &str, Conv); 2] = [
        ("signal.convolve2d", "convolve2d", |x, k| {
            signal::convolve2d(
                x,
                k,
                xp::signal::Conv2d { mode: Mode::Same, boundary: Boundary::default(), method: Method::Auto },
            )
        }),
        ("signal.correlate2d", "correlate2d", |x, k| {
            signal::correlate2d(
                x,
                k,
                xp::signal::Conv2d { mode: Mode::Same, boundary: Boundary::default(), method: Method::Auto },
            )
        }),
    ];
    for (name, py, f) in conv2 {
        r.push(Row::new(
            name,
            "2048x2048 * 5x5 f32, same",
            format!("{img}; k = uniform((5, 5), 1)"),
            format!("sp.signal.{py}(img, k, mode='same')"),
            move |d| {
                let (x, k) = (uniform(&[2048, 2048], 0, d)?, uniform(&[5, 5], 1, d)?);
                one(move || f(&x, &k))
            },
        ));
    }
    // recursive filters
    r.push(Row::new("signal.lfilter", "2^22 f32, order 4", py_filter(), "sp.signal.lfilter(b, a, x)", |d| {
        let ((b, a, _), x) = (coefs(d)?, uniform(&[L], 0, d)?);
        one(move || Ok(signal::lfilter(&b, &a, &x, Default::default())?.y))
    }));
    r.push(Row::new("signal.lfilter_zi", "order 4", py_filter(), "sp.signal.lfilter_zi(b, a)", |d| {
        let (b, a, _) = coefs(d)?;
        one(move || signal::lfilter_zi(&b, &a))
    }));
    r.push(Row::new("signal.sosfilt", "2^22 f32, 2 sections", py_filter(), "sp.signal.sosfilt(sos, x)", |d| {
        let ((_, _, sos), x) = (coefs(d)?, uniform(&[L], 0, d)?);
        one(move || Ok(signal::sosfilt(&sos, &x, Default::default())?.y))
    }));
    r.push(Row::new("signal.sosfilt_zi", "2 sections", py_filter(), "sp.signal.sosfilt_zi(sos)", |d| {
        let (_, _, sos) = coefs(d)?;
        one(move || signal::sosfilt_zi(&sos))
    }));
    r.push(Row::new("signal.filtfilt", "2^22 f32, order 4", py_filter(), "sp.signal.filtfilt(b, a, x)", |d| {
        let ((b, a, _), x) = (coefs(d)?, uniform(&[L], 0, d)?);
        one(move || {
            signal::filtfilt(&b, &a, &x, xp::signal::Filtfilt { axis: -1, padtype: Some(PadType::Odd), padlen: None })
        })
    }));
    // median and Wiener filters
    r.push(Row::new("signal.medfilt", "2^22 f32, 5", x1, "sp.signal.medfilt(x, 5)", |d| {
        let x = uniform(&[L], 0, d)?;
        one(move || signal::medfilt(&x, &[5]))
    }));
    // about 1.5 s in SciPy at 2048² on the CPU: 1024² there
    let (m, sz) = shrunk(gpu, 2048, 1024, "f32, 5x5");
    r.push(Row::new(
        "signal.medfilt2d",
        sz,
        format!("img = uniform(({m}, {m}))"),
        "sp.signal.medfilt2d(img, 5)",
        move |d| {
            let x = uniform(&[m, m], 0, d)?;
            one(move || signal::medfilt2d(&x, &[5]))
        },
    ));
    // SciPy squares the float32 image in float32 before its float64 local variance
    r.push(
        Row::new("signal.wiener", "2048x2048 f32, 3x3", img, "sp.signal.wiener(img)", |d| {
            let x = uniform(&[2048, 2048], 0, d)?;
            one(move || signal::wiener(&x, None, None))
        })
        .cmp(Cmp::Loose),
    );
    // resampling
    r.push(Row::new("signal.resample", "2^22 -> 2^21 f32", x1, "sp.signal.resample(x, 1 << 21)", |d| {
        let x = uniform(&[L], 0, d)?;
        one(move || signal::resample(&x, L / 2, -1, None))
    }));
    r.push(Row::new("signal.resample_poly", "2^22 f32, 3/2", x1, "sp.signal.resample_poly(x, 3, 2)", |d| {
        let x = uniform(&[L], 0, d)?;
        one(move || {
            signal::resample_poly(
                &x,
                3,
                2,
                xp::signal::ResamplePoly { axis: -1, window: Window::Kaiser { beta: 5.0 }, padtype: PolyPad::Zeros },
            )
        })
    }));
    r.push(Row::new(
        "signal.upfirdn",
        "2^22 f32, 64 taps, 3/2",
        format!("{x1}; h = uniform(64, 1)"),
        "sp.signal.upfirdn(h, x, 3, 2)",
        |d| {
            let (x, h) = (uniform(&[L], 0, d)?, uniform(&[64], 1, d)?);
            one(move || signal::upfirdn(&h, &x, xp::signal::Upfirdn { up: 3, down: 2, axis: -1 }))
        },
    ));
    // spectral analysis
    r.push(Row::new("signal.periodogram", "2^22 f32", x1, "sp.signal.periodogram(x)", |d| {
        let x = uniform(&[L], 0, d)?;
        many(move || {
            let (f, p) = signal::periodogram(
                &x,
                xp::signal::Periodogram {
                    fs: 1.0,
                    window: Window::Boxcar,
                    nfft: None,
                    detrend: Some(Detrend::Constant),
                    scaling: Scaling::Density,
                    axis: -1,
                },
            )?;
            Ok(vec![f, p])
        })
    }));
    r.push(Row::new("signal.welch", "2^22 f32, nperseg 256", x1, "sp.signal.welch(x)", |d| {
        let x = uniform(&[L], 0, d)?;
        many(move || {
            let (f, p) = signal::welch(
                &x,
                xp::signal::Welch {
                    fs: 1.0,
                    window: Window::Hann,
                    nperseg: None,
                    noverlap: None,
                    nfft: None,
                    detrend: Some(Detrend::Constant),
                    scaling: Scaling::Density,
                    axis: -1,
                },
            )?;
            Ok(vec![f, p])
        })
    }));
    r.push(Row::new("signal.stft", "2^22 f32, nperseg 256", x1, "sp.signal.stft(x)", |d| {
        let x = uniform(&[L], 0, d)?;
        many(move || {
            let (f, t, z) = signal::stft(&x, -1, &StftParams::default())?;
            Ok(vec![f, t, z])
        })
    }));
    r.push(Row::new("signal.detrend", "2^22 f32, linear", x1, "sp.signal.detrend(x)", |d| {
        let x = uniform(&[L], 0, d)?;
        one(move || signal::detrend(&x, -1, Detrend::Linear))
    }));
    let bp = [L / 4, L / 2, 3 * L / 4];
    r.push(Row::new(
        "signal.detrend_bp",
        "2^22 f32, 3 breakpoints",
        x1,
        format!("sp.signal.detrend(x, bp={bp:?})"),
        move |d| {
            let x = uniform(&[L], 0, d)?;
            one(move || signal::detrend_bp(&x, -1, &bp))
        },
    ));
    r.push(
        Row::new("signal.find_peaks", "2^22 f32", x1, "sp.signal.find_peaks(x)", |d| {
            let x = uniform(&[L], 0, d)?;
            one(move || Ok(signal::find_peaks(&x, &PeakConditions::default())?.peaks))
        })
        .out("[r[0]]"),
    );
    // windows
    r.push(Row::new("signal.get_window", "hann 2^22", "", "sp.signal.get_window('hann', 1 << 22)", |d| {
        one(move || signal::get_window(Window::Hann, L, true, d))
    }));
    type Win = fn(usize, bool, Device) -> Result<Array>;
    let wins: [(&str, &str, Win); 8] = [
        ("boxcar", "", windows::boxcar),
        ("hann", "", windows::hann),
        ("hamming", "", windows::hamming),
        ("blackman", "", windows::blackman),
        ("bartlett", "", windows::bartlett),
        ("kaiser", ", 8.0", |m, s, d| windows::kaiser(m, 8.0, s, d)),
        ("gaussian", ", (1 << 22) / 8", |m, s, d| windows::gaussian(m, m as f64 / 8.0, s, d)),
        ("tukey", ", 0.5", |m, s, d| windows::tukey(m, 0.5, s, d)),
    ];
    for (name, args, f) in wins {
        r.push(Row::new(
            &format!("signal.windows.{name}"),
            "2^22",
            "",
            format!("sp.signal.windows.{name}(1 << 22{args})"),
            move |d| one(move || f(L, true, d)),
        ));
    }
    type NpWin = fn(&xp::ArrayModule) -> Result<Array>;
    let np_wins: [(&str, &str, NpWin); 5] = [
        ("hanning", "", |m| m.hanning(L)),
        ("hamming", "", |m| m.hamming(L)),
        ("blackman", "", |m| m.blackman(L)),
        ("bartlett", "", |m| m.bartlett(L)),
        ("kaiser", ", 8.0", |m| m.kaiser(L, 8.0)),
    ];
    for (name, args, f) in np_wins {
        r.push(Row::new(name, "2^22", "", format!("xp.{name}(1 << 22{args})"), move |d| one(move || f(&xp::on(d)))));
    }
}
