//! SciPy's `oaconvolve`: convolution by overlap-add. The larger operand is cut into blocks along
//! each axis where SciPy's block length (`_calc_oa_lens`, from the Lambert W function) gives
//! more than one block; every block is convolved with the other operand by one batched FFT and
//! the overlapping tails are added. Other axes, and the one-block case, are a plain FFT
//! convolution; results match [`super::fftconvolve`]'s.
use super::fftconv::{conv_dtype, ordered_axes, Mode};
use crate::fft::{self, slice_axis, FftNorm};
use crate::{Array, PadMode};
use xp_core::{DType, Result, Scalar};

/// The real branch `W₋₁` of the Lambert W function on `[-1/e, 0)`, by Newton's iteration from
/// its asymptotic expansion `ln(-z) - ln(-ln(-z))` (SciPy calls `lambertw(z, k=-1)`).
fn lambert_w_m1(z: f64) -> f64 {
    let l = (-z).ln();
    let mut w = if z < -0.25 { -1.0 - (2.0 * (1.0 + std::f64::consts::E * z)).sqrt() } else { l - (-l).ln() };
    for _ in 0..100 {
        let e = w.exp();
        let step = (w * e - z) / (e * (w + 1.0));
        w -= step;
        if step.abs() <= 1e-15 * w.abs() {
            break;
        }
    }
    w
}

/// `scipy.fft.next_fast_len`: the smallest `m ≥ n` whose prime factors are 2, 3, 5, 7, 11.
fn next_fast_len(n: usize) -> usize {
    (n.max(1)..)
        .find(|&m| {
            let mut r = m;
            for p in [2, 3, 5, 7, 11] {
                while r % p == 0 {
                    r /= p;
                }
            }
            r == 1
        })
        .expect("11-smooth numbers are unbounded")
}

/// The block lengths of one axis (SciPy's `_calc_oa_lens`).
#[derive(Clone, Copy, Debug)]
struct OaLens {
    /// the FFT length of a block
    block: usize,
    /// the samples a block's result shares with the next (None: one block, no overlap-add)
    overlap: Option<usize>,
    /// the samples of each operand per block
    step: [usize; 2],
}

/// SciPy's `_calc_oa_lens(s1, s2)`: overlap None when one block (a plain FFT convolution) is
/// best.
fn oa_lens(s1: usize, s2: usize) -> OaLens {
    let fallback = OaLens { block: s1 + s2 - 1, overlap: None, step: [s1, s2] };
    if s1 == s2 || s1 == 1 || s2 == 1 {
        return fallback;
    }
    let (big, small, swapped) = if s2 > s1 { (s2, s1, true) } else { (s1, s2, false) };
    if small as f64 >= big as f64 / 2.0 {
        return fallback;
    }
    let overlap = small - 1;
    let opt = -(overlap as f64) * lambert_w_m1(-1.0 / (2.0 * std::f64::consts::E * overlap as f64));
    let block = next_fast_len(opt.ceil() as usize);
    if block >= big {
        return fallback;
    }
    let step = if swapped { [small, block - small + 1] } else { [block - small + 1, small] };
    OaLens { block, overlap: Some(overlap), step }
}

/// The product of `a` and `b` transformed over `axes` at lengths `lens`, transformed back:
/// their circular convolution (real or complex by `work`).
fn freq_conv(a: &Array, b: &Array, axes: &[isize], lens: &[usize], work: DType) -> Result<Array> {
    let (a, b) = (a.astype(work)?, b.astype(work)?);
    if work.is_complex() {
        let fa = fft::fftn(&a, Some(lens), Some(axes), FftNorm::Backward)?;
        let fb = fft::fftn(&b, Some(lens), Some(axes), FftNorm::Backward)?;
        fft::ifftn(&fa.mul(&fb)?, Some(lens), Some(axes), FftNorm::Backward)
    } else {
        let fa = fft::rfftn(&a, Some(lens), Some(axes), FftNorm::Backward)?;
        let fb = fft::rfftn(&b, Some(lens), Some(axes), FftNorm::Backward)?;
        fft::irfftn(&fa.mul(&fb)?, Some(lens), Some(axes), FftNorm::Backward)
    }
}

/// SciPy's `_centered`: the middle `shape` of `a` (start `(n - m) / 2` per axis), copied.
fn centered(a: &Array, shape: &[usize]) -> Result<Array> {
    let start: Vec<usize> = a.shape().iter().zip(shape).map(|(&n, &m)| (n - m) / 2).collect();
    a.slice(crate::filter::spans(&start, shape))?.copy()
}

/// SciPy's `_apply_conv_mode` over the convolved `axes`.
fn apply_mode(ret: Array, s1: &[usize], s2: &[usize], mode: Mode, axes: &[usize]) -> Result<Array> {
    match mode {
        Mode::Full => ret.copy(),
        Mode::Same => centered(&ret, s1),
        Mode::Valid => {
            let shape: Vec<usize> =
                (0..ret.ndim()).map(|i| if axes.contains(&i) { s1[i] - s2[i] + 1 } else { ret.shape()[i] }).collect();
            centered(&ret, &shape)
        }
    }
}

/// SciPy's `oaconvolve(in1, in2, mode, axes)`: the convolution of `in1` and `in2` over `axes`
/// (None: all) by overlap-add, the other axes broadcast (equal lengths or 1). Equal shapes, and
/// axes where one block serves, are an ordinary FFT convolution; a long signal with a short
/// kernel is cut into blocks of SciPy's optimal length. float32 and complex64 stay single
/// precision, integers compute in float64; errors are [`super::fftconvolve`]'s, and
/// incompatible broadcast axes are an [`xp_core::Error::InvalidArgument`].
///
/// ```
/// use xp::signal::{oaconvolve, Mode};
/// let a = xp::Array::from_vec((0..64).map(f64::from).collect(), &[64]).unwrap();
/// let k = xp::Array::from_vec(vec![1.0, -1.0], &[2]).unwrap(); // a difference
/// let c = oaconvolve(&a, &k, Mode::Valid, None).unwrap().to_vec::<f64>().unwrap();
/// assert!(c.len() == 63 && c.iter().all(|v| (v - 1.0).abs() < 1e-12));
/// ```
pub fn oaconvolve(in1: &Array, in2: &Array, mode: Mode, axes: Option<&[isize]>) -> Result<Array> {
    let op = "oaconvolve";
    let work = conv_dtype(in1, in2);
    if in1.ndim() == 0 && in2.ndim() == 0 {
        return in1.mul(in2);
    }
    let (in1, in2, axes) = ordered_axes(op, in1, in2, mode, axes)?;
    if in1.size() == 0 || in2.size() == 0 {
        return crate::on(in1.device()).zeros([0], DType::F64);
    }
    let (s1, s2) = (in1.shape().to_vec(), in2.shape().to_vec());
    if axes.is_empty() {
        return apply_mode(in1.mul(in2)?, &s1, &s2, mode, &axes);
    }
    let full: Vec<usize> = axes.iter().map(|&i| s1[i] + s2[i] - 1).collect();
    let lens: Vec<_> = axes.iter().map(|&i| oa_lens(s1[i], s2[i])).collect();
    let fax: Vec<isize> = axes.iter().map(|&i| i as isize).collect();
    if lens.iter().all(|l| l.overlap.is_none()) {
        // one block everywhere: SciPy's fftconvolve, at 7-smooth lengths
        let f: Vec<usize> = full.iter().map(|&n| super::fftconv::fast_len(n)).collect();
        let mut ret = freq_conv(in1, in2, &fax, &f, work)?;
        for (&ax, &n) in axes.iter().zip(&full) {
            ret = slice_axis(&ret, ax, 0, n)?;
        }
        return apply_mode(ret, &s1, &s2, mode, &axes);
    }
    // Each operand padded to whole steps and reshaped so that every blocked axis becomes
    // (steps, step); the FFT axes are the step axes.
    let blocks = |x: &Array, s: &[usize], which: usize| -> Result<Array> {
        let mut pads = vec![(0, 0); x.ndim()];
        let mut shape = Vec::new();
        for (i, &n) in s.iter().enumerate() {
            match axes.iter().position(|&a| a == i) {
                Some(k) => {
                    let OaLens { block, overlap, step } = lens[k];
                    let step = step[which];
                    let steps = if n > step {
                        let mut c = (n + 1).div_ceil(step);
                        if (block - overlap.unwrap_or(0)) * c < full[k] {
                            c += 1;
                        }
                        c
                    } else {
                        1
                    };
                    pads[i] = (0, steps * step - n);
                    shape.extend([steps as isize, step as isize]);
                }
                None => shape.push(n as isize),
            }
        }
        x.pad(&pads, PadMode::Constant(Scalar::Int(0)))?.reshape(&shape)
    };
    let b1 = blocks(in1, &s1, 0)?;
    let b2 = blocks(in2, &s2, 1)?;
    let fft_axes: Vec<isize> = axes.iter().enumerate().map(|(k, &i)| (i + k + 1) as isize).collect();
    let fshape: Vec<usize> = lens.iter().map(|l| l.block).collect();
    let mut ret = freq_conv(&b1, &b2, &fft_axes, &fshape, work)?;
    // overlap-add along each blocked axis: the tail of block j goes onto the head of block j+1
    for (k, &fa) in fft_axes.iter().enumerate() {
        let Some(overlap) = lens[k].overlap else { continue };
        let (fa, sa) = (fa as usize, fa as usize - 1);
        let (nblk, nsteps) = (ret.shape()[fa], ret.shape()[sa]);
        let main = slice_axis(&ret, fa, 0, nblk - overlap)?.copy()?;
        let tail = slice_axis(&slice_axis(&ret, fa, nblk - overlap, nblk)?, sa, 0, nsteps - 1)?;
        let head = slice_axis(&slice_axis(&main, fa, 0, overlap)?, sa, 1, nsteps)?;
        head.assign(&head.add(&tail)?)?;
        ret = main;
    }
    // merge each (steps, step) pair back into one axis and keep the full convolution
    let mut shape = Vec::new();
    let mut i = 0;
    while i < ret.ndim() {
        if fft_axes.contains(&(i as isize + 1)) {
            shape.push((ret.shape()[i] * ret.shape()[i + 1]) as isize);
            i += 2;
        } else {
            shape.push(ret.shape()[i] as isize);
            i += 1;
        }
    }
    let mut ret = ret.reshape(&shape)?;
    for (&ax, &n) in axes.iter().zip(&full) {
        ret = slice_axis(&ret, ax, 0, n)?;
    }
    apply_mode(ret, &s1, &s2, mode, &axes)
}
