//! Sweep rows of `xp::fft` against `numpy.fft` / `cupy.fft`: 1-D transforms of 2^22 points, 2-D
//! of 2048², N-D of 256×128×128 (2^22), in single precision (NumPy 2 keeps complex64), and the
//! helpers (`fftfreq`, `rfftfreq`, `fftshift`, `ifftshift`). The plan cache is not a function
//! to time.
use super::{cuniform, dims, one, py_tuple, uniform, Row};
use xp::fft::{self, FftNorm};
use xp::Device;

const BACK: FftNorm = FftNorm::Backward;
const L: usize = 1 << 22;

pub(super) fn rows(r: &mut Vec<Row>, _gpu: bool) {
    r.push(Row::new("fft.fft", "2^22 c64", "a = cuniform(1 << 22)", "xp.fft.fft(a)", |d| {
        let a = cuniform(&[L], 0, d)?;
        one(move || fft::fft(&a, None, -1, BACK))
    }));
    r.push(Row::new("fft.ifft", "2^22 c64", "a = cuniform(1 << 22)", "xp.fft.ifft(a)", |d| {
        let a = cuniform(&[L], 0, d)?;
        one(move || fft::ifft(&a, None, -1, BACK))
    }));
    r.push(Row::new("fft.rfft", "2^22 f32", "a = uniform(1 << 22)", "xp.fft.rfft(a)", |d| {
        let a = uniform(&[L], 0, d)?;
        one(move || fft::rfft(&a, None, -1, BACK))
    }));
    r.push(Row::new(
        "fft.irfft",
        "2^21+1 c64 -> 2^22",
        "a = cuniform((1 << 21) + 1)",
        "xp.fft.irfft(a, 1 << 22)",
        |d| {
            let a = cuniform(&[L / 2 + 1], 0, d)?;
            one(move || fft::irfft(&a, Some(L), -1, BACK))
        },
    ));
    r.push(Row::new("fft.hfft", "2^21+1 c64 -> 2^22", "a = cuniform((1 << 21) + 1)", "xp.fft.hfft(a, 1 << 22)", |d| {
        let a = cuniform(&[L / 2 + 1], 0, d)?;
        one(move || fft::hfft(&a, Some(L), -1, BACK))
    }));
    r.push(Row::new("fft.ihfft", "2^22 f32", "a = uniform(1 << 22)", "xp.fft.ihfft(a)", |d| {
        let a = uniform(&[L], 0, d)?;
        one(move || fft::ihfft(&a, None, -1, BACK))
    }));
    type Nd = fn(&xp::Array, Option<&[usize]>, Option<&[isize]>, FftNorm) -> xp::Result<xp::Array>;
    // complex forward and inverse, 2-D and N-D
    let cplx: [(&str, &str, Nd, Vec<usize>); 4] = [
        ("fft.fft2", "fft2", fft::fft2, vec![2048, 2048]),
        ("fft.ifft2", "ifft2", fft::ifft2, vec![2048, 2048]),
        ("fft.fftn", "fftn", fft::fftn, vec![256, 128, 128]),
        ("fft.ifftn", "ifftn", fft::ifftn, vec![256, 128, 128]),
    ];
    for (name, py, f, shape) in cplx {
        let size = format!("{} c64", dims(&shape));
        let setup = format!("a = cuniform({})", py_tuple(&shape));
        r.push(Row::new(name, size, setup, format!("xp.fft.{py}(a)"), move |d: Device| {
            let a = cuniform(&shape, 0, d)?;
            one(move || f(&a, None, None, BACK))
        }));
    }
    let real: [(&str, &str, Nd, Vec<usize>); 2] =
        [("fft.rfft2", "rfft2", fft::rfft2, vec![2048, 2048]), ("fft.rfftn", "rfftn", fft::rfftn, vec![256, 128, 128])];
    for (name, py, f, shape) in real {
        let size = format!("{} f32", dims(&shape));
        let setup = format!("a = uniform({})", py_tuple(&shape));
        r.push(Row::new(name, size, setup, format!("xp.fft.{py}(a)"), move |d: Device| {
            let a = uniform(&shape, 0, d)?;
            one(move || f(&a, None, None, BACK))
        }));
    }
    let inv: [(&str, &str, Nd, Vec<usize>); 2] = [
        ("fft.irfft2", "irfft2", fft::irfft2, vec![2048, 2048]),
        ("fft.irfftn", "irfftn", fft::irfftn, vec![256, 128, 128]),
    ];
    for (name, py, f, shape) in inv {
        let mut half = shape.clone();
        *half.last_mut().expect("nd") = shape[shape.len() - 1] / 2 + 1;
        let size = format!("{} c64 -> {}", dims(&half), dims(&shape));
        let t = py_tuple(&shape);
        let setup = format!("a = cuniform({})", py_tuple(&half));
        r.push(Row::new(name, size, setup, format!("xp.fft.{py}(a, {t})"), move |d: Device| {
            let a = cuniform(&half, 0, d)?;
            let s = shape.clone();
            one(move || f(&a, Some(&s), None, BACK))
        }));
    }
    r.push(Row::new("fft.fftfreq", "2^22", "", "xp.fft.fftfreq(1 << 22)", |d| one(move || fft::fftfreq(L, 1.0, d))));
    r.push(Row::new("fft.rfftfreq", "2^22", "", "xp.fft.rfftfreq(1 << 22)", |d| one(move || fft::rfftfreq(L, 1.0, d))));
    r.push(Row::new("fft.fftshift", "2048x2048 c64", "a = cuniform((2048, 2048))", "xp.fft.fftshift(a)", |d| {
        let a = cuniform(&[2048, 2048], 0, d)?;
        one(move || fft::fftshift(&a, None))
    }));
    r.push(Row::new("fft.ifftshift", "2048x2048 c64", "a = cuniform((2048, 2048))", "xp.fft.ifftshift(a)", |d| {
        let a = cuniform(&[2048, 2048], 0, d)?;
        one(move || fft::ifftshift(&a, None))
    }));
}
