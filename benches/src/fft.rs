//! The FFT workloads at the sizes issue 12 names: a complex64 FFT of 2^24 points (2^20 on the
//! CPU), the rfft2 of a 4096² float32 image (1024² on the CPU) and `fftconvolve` of such an image
//! with a 31×31 kernel, and the case study's `convolve2d` (`same`, `wrap`) with the method
//! chosen (`auto`) and forced to the direct sum (`direct`); SciPy and CuPy always compute
//! `convolve2d` directly.
use crate::{rand, sync, Workload};
use xp::fft::{self, FftNorm};
use xp::signal::{convolve2d, fftconvolve, Boundary, Method, Mode};
use xp::{DType, Device};

pub(crate) fn workloads(w: &mut Vec<Workload>, gpu: bool) {
    let l = if gpu { 24 } else { 20 };
    w.push(Workload {
        name: format!("fft_c64_2^{l}"),
        unit: "ms",
        setup: Box::new(move |d: Device| {
            let a = rand(1 << l, &[1 << l], d)?.astype(DType::C64)?;
            Ok(Box::new(move || sync(&fft::fft(&a, None, -1, FftNorm::Backward)?)))
        }),
    });
    let n = if gpu { 4096 } else { 1024 };
    w.push(Workload {
        name: format!("rfft2_f32_{n}x{n}"),
        unit: "ms",
        setup: Box::new(move |d: Device| {
            let a = rand(n * n, &[n, n], d)?;
            Ok(Box::new(move || sync(&fft::rfft2(&a, None, None, FftNorm::Backward)?)))
        }),
    });
    w.push(Workload {
        name: format!("fftconvolve_f32_{n}x{n}_31x31"),
        unit: "ms",
        setup: Box::new(move |d: Device| {
            let (a, k) = (rand(n * n, &[n, n], d)?, rand(31 * 31, &[31, 31], d)?);
            Ok(Box::new(move || sync(&fftconvolve(&a, &k, Mode::Same)?)))
        }),
    });
    for (method, tag) in [(Method::Auto, "auto"), (Method::Direct, "direct")] {
        w.push(Workload {
            name: format!("convolve2d_f32_{n}x{n}_31x31_wrap_{tag}"),
            unit: "ms",
            setup: Box::new(move |d: Device| {
                let (a, k) = (rand(n * n, &[n, n], d)?, rand(31 * 31, &[31, 31], d)?);
                Ok(Box::new(move || {
                    sync(&convolve2d(
                        &a,
                        &k,
                        xp::signal::Conv2d { mode: Mode::Same, boundary: Boundary::Wrap, method },
                    )?)
                }))
            }),
        });
    }
    // Method::Auto's calibration (signal/choose.rs): the direct sum and the FFT for square kernels
    // of growing size on the same image; no reference runs these.
    for k in [3usize, 7, 11, 15, 21, 31] {
        for (method, tag) in [(Method::Direct, "direct"), (Method::Fft, "fft")] {
            w.push(Workload {
                name: format!("convmethod_f32_{n}_{k}x{k}_{tag}"),
                unit: "ms",
                setup: Box::new(move |d: Device| {
                    let (a, kk) = (rand(n * n, &[n, n], d)?, rand(k * k, &[k, k], d)?);
                    Ok(Box::new(move || {
                        sync(&convolve2d(
                            &a,
                            &kk,
                            xp::signal::Conv2d { mode: Mode::Same, boundary: Boundary::default(), method },
                        )?)
                    }))
                }),
            });
        }
    }
}
