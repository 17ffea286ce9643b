//! The image filters of issue 12: `ndimage.gaussian_filter` (float32, σ = 4, SciPy's default
//! `reflect` mode and truncation at 4σ: two 33-tap passes) on a 4096² image (1024² on the CPU),
//! and `signal.medfilt2d` with a 5×5 window on a 2048² image (512² on the CPU).
use crate::{rand, sync, Workload};
use xp::ndimage::{gaussian_filter, Gaussian, Mode};
use xp::signal::medfilt2d;
use xp::signal::{lfilter, sosfilt};
use xp::Array;
use xp::Device;

pub(crate) fn workloads(w: &mut Vec<Workload>, gpu: bool) {
    let n = if gpu { 4096 } else { 1024 };
    w.push(Workload {
        name: format!("gaussian_filter_f32_{n}x{n}_sigma4"),
        unit: "ms",
        setup: Box::new(move |d: Device| {
            let a = rand(n * n, &[n, n], d)?;
            Ok(Box::new(move || {
                sync(&gaussian_filter(
                    &a,
                    &[4.0],
                    Gaussian { order: &[0], mode: Mode::Reflect, truncate: 4.0, radius: None },
                )?)
            }))
        }),
    });
    // Issue 27: ndimage.label of a 4096² random mask (half foreground), faces and full
    // connectivity, on both devices
    for conn in [1usize, 2] {
        w.push(Workload {
            name: format!("label_4096x4096_conn{conn}"),
            unit: "ms",
            setup: Box::new(move |d: Device| {
                let mask = rand(4096 * 4096, &[4096, 4096], d)?.gt(0.5)?;
                let st = xp::ndimage::generate_binary_structure(2, conn)?;
                Ok(Box::new(move || sync(&xp::ndimage::label(&mask, Some(&st))?.labels)))
            }),
        });
    }
    let m = if gpu { 2048 } else { 512 };
    w.push(Workload {
        name: format!("medfilt2d_f32_{m}x{m}_5x5"),
        unit: "ms",
        setup: Box::new(move |d: Device| {
            let a = rand(m * m, &[m, m], d)?;
            Ok(Box::new(move || sync(&medfilt2d(&a, &[5])?)))
        }),
    });
    // The recursive filters: the same sizes on the CPU and the GPU.
    iir_workloads(w);
}

/// `scipy.signal.butter(4, 0.1)` as float32: `b` then `a`.
const BUTTER4_B: [f32; 5] = [0.000_416_599_2, 0.001_666_396_9, 0.002_499_595_3, 0.001_666_396_9, 0.000_416_599_2];
const BUTTER4_A: [f32; 5] = [1.0, -3.180_638_6, 3.861_194_4, -2.112_155_4, 0.438_265_14];
/// `scipy.signal.butter(8, 0.1, output='sos')` as float32: 4 sections of `b0 b1 b2 a0 a1 a2`.
const BUTTER8_SOS: [[f32; 6]; 4] = [
    [1.762_553_7e-7, 3.525_107_4e-7, 1.762_553_7e-7, 1.0, -1.459_706_3, 0.534_826],
    [1.0, 2.0, 1.0, 1.0, -1.513_290_8, 0.591_168_05],
    [1.0, 2.0, 1.0, 1.0, -1.623_405_7, 0.706_949_8],
    [1.0, 2.0, 1.0, 1.0, -1.793_961_9, 0.886_283_1],
];

/// Issue 12's recursive filters along the last axis of float32 signals: `lfilter` with a
/// 4th-order Butterworth and `sosfilt` with an 8th-order one (4 sections), over 64 lines of
/// 2^18 samples and over one line of 2^24.
fn iir_workloads(w: &mut Vec<Workload>) {
    for (rows, cols, shape) in [(64, 1 << 18, "64x2^18"), (1, 1 << 24, "2^24")] {
        w.push(Workload {
            name: format!("lfilter_f32_{shape}"),
            unit: "ms",
            setup: Box::new(move |d: Device| {
                let b = Array::from_vec(BUTTER4_B.to_vec(), [5])?.to_device(d)?;
                let a = Array::from_vec(BUTTER4_A.to_vec(), [5])?.to_device(d)?;
                let x = rand(rows * cols, &[rows, cols], d)?;
                Ok(Box::new(move || sync(&lfilter(&b, &a, &x, Default::default())?.y)))
            }),
        });
        w.push(Workload {
            name: format!("sosfilt_f32_{shape}"),
            unit: "ms",
            setup: Box::new(move |d: Device| {
                let sos = Array::from_vec(BUTTER8_SOS.concat(), [4, 6])?.to_device(d)?;
                let x = rand(rows * cols, &[rows, cols], d)?;
                Ok(Box::new(move || sync(&sosfilt(&sos, &x, Default::default())?.y)))
            }),
        });
    }
}
