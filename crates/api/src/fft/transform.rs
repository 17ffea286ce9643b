//! The transforms: NumPy's lengths (`n`, `s`: cut or zero-padded), axes (any, negative allowed,
//! repeats transform twice as NumPy's do), norms and dtypes (complex64 and float32 stay single
//! precision, float16 computes in single; integers and bool go to float64), checked here and then
//! handed to the backend's one call per transform.
use crate::backend::on_storage;
use crate::manip::PadMode;
use crate::Array;
use xp_core::{normalize_axis, DType, Error, FftKind, FftNorm, FftSpec, FftStorage, Result, Scalar, SliceElem};

/// The view of `a` at positions `start .. stop` along `axis`.
pub(crate) fn slice_axis(a: &Array, axis: usize, start: usize, stop: usize) -> Result<Array> {
    let mut ix = vec![SliceElem::Slice { start: None, stop: None, step: 1 }; a.ndim()];
    ix[axis] = SliceElem::Slice { start: Some(start as isize), stop: Some(stop as isize), step: 1 };
    a.slice(ix)
}

/// The backend's transform of `x` (rustfft/realfft on the CPU, cuFFT on a GPU).
fn run(x: &Array, spec: &FftSpec<'_>, shape: &[usize]) -> Result<Array> {
    let s = on_storage!(&*x.read(), st => st.fft(&x.layout, spec))?;
    Ok(Array::from_storage(s, shape))
}

/// Whether `d` is transformed in single precision.
pub(crate) fn single(d: DType) -> bool {
    matches!(d, DType::F16 | DType::BF16 | DType::F32 | DType::C64)
}

/// The axes (normalised, in order) and lengths of an N-D transform, NumPy's rules: `axes` None
/// means the last `s.len()` axes, or all of them; `s` None means each axis's own length
/// (`irfftn`'s last: `2 (m - 1)`, which `half_last` asks for).
pub(super) fn plan_axes(
    op: &'static str,
    a: &Array,
    s: Option<&[usize]>,
    axes: Option<&[isize]>,
    half_last: bool,
) -> Result<(Vec<usize>, Vec<usize>)> {
    let nd = a.ndim();
    let axes: Vec<usize> = match (axes, s) {
        (Some(ax), _) => ax.iter().map(|&x| normalize_axis(op, x, nd)).collect::<Result<_>>()?,
        (None, Some(s)) if s.len() > nd => {
            return Err(Error::invalid(op, format!("{} lengths given for an array of {nd} axes", s.len())))
        }
        (None, Some(s)) => (nd - s.len()..nd).collect(),
        (None, None) => (0..nd).collect(),
    };
    let lens: Vec<usize> = match s {
        Some(s) if s.len() != axes.len() => {
            return Err(Error::invalid(op, format!("{} lengths given for {} axes", s.len(), axes.len())))
        }
        Some(s) => s.to_vec(),
        None => {
            let mut l: Vec<usize> = axes.iter().map(|&x| a.shape()[x]).collect();
            if let (true, Some(last)) = (half_last, l.last_mut()) {
                *last = 2 * last.saturating_sub(1);
            }
            l
        }
    };
    if let Some(&bad) = lens.iter().find(|&&n| n == 0) {
        return Err(Error::invalid(op, format!("invalid number of FFT data points ({bad})")));
    }
    Ok((axes, lens))
}

/// The transform `kind` of `a` over `axes` with logical lengths `lens` (for `RealInverse`, the
/// last is the real output's length).
pub(super) fn transform(
    op: &'static str,
    a: &Array,
    kind: FftKind,
    axes: &[usize],
    lens: &[usize],
    norm: FftNorm,
) -> Result<Array> {
    transform_with(op, a, kind, axes, lens, norm, false)
}

/// `irfftn` of `a` over its last `s.len()` axes, `a` known to be the spectrum of a real array
/// (see [`FftSpec::hermitian`]): FFT convolution's product of real transforms.
pub(crate) fn irfftn_hermitian(a: &Array, s: &[usize], norm: FftNorm) -> Result<Array> {
    let (axes, lens) = plan_axes("irfftn", a, Some(s), None, true)?;
    transform_with("irfftn", a, FftKind::RealInverse { n: 0 }, &axes, &lens, norm, true)
}

fn transform_with(
    op: &'static str,
    a: &Array,
    kind: FftKind,
    axes: &[usize],
    lens: &[usize],
    norm: FftNorm,
    hermitian: bool,
) -> Result<Array> {
    if axes.is_empty() {
        return match kind {
            FftKind::Forward | FftKind::Inverse => a.astype(if single(a.dtype()) { DType::C64 } else { DType::C128 }),
            _ => Err(Error::invalid(op, "a real transform needs at least one axis")),
        };
    }
    let d = a.dtype();
    let work = match kind {
        FftKind::RealForward if d.is_complex() => return Err(Error::InvalidDType { op, dtype: d }),
        FftKind::RealForward if single(d) => DType::F32,
        FftKind::RealForward => DType::F64,
        _ if single(d) => DType::C64,
        _ => DType::C128,
    };
    // Repeated axes: NumPy transforms such an axis once per mention; the backend takes distinct
    // axes, so the complex axes go one call each.
    let distinct = axes.iter().enumerate().all(|(i, x)| !axes[..i].contains(x));
    if !distinct {
        let (&last, rest) = axes.split_last().expect("axes");
        let (&n_last, rest_lens) = lens.split_last().expect("lens");
        let complex_kind =
            if matches!(kind, FftKind::Forward | FftKind::RealForward) { FftKind::Forward } else { FftKind::Inverse };
        let mut x = a.clone();
        if matches!(kind, FftKind::RealForward) {
            x = transform(op, &x, kind, &[last], &[n_last], norm)?;
        }
        for (&ax, &n) in rest.iter().zip(rest_lens) {
            x = transform(op, &x, complex_kind, &[ax], &[n], norm)?;
        }
        return match kind {
            FftKind::RealInverse { .. } => transform(op, &x, kind, &[last], &[n_last], norm),
            FftKind::RealForward => Ok(x),
            _ => transform(op, &x, kind, &[last], &[n_last], norm),
        };
    }
    let mut x = a.cast_if(work)?;
    // every axis cut in one view, then every padded axis in one pad
    let (&last, _) = axes.split_last().expect("axes");
    let mut target = x.shape().to_vec();
    for (&ax, &n) in axes.iter().zip(lens) {
        target[ax] = if ax == last && matches!(kind, FftKind::RealInverse { .. }) { n / 2 + 1 } else { n };
    }
    if x.shape().iter().zip(&target).any(|(n, t)| t < n) {
        let keep: Vec<SliceElem> = x
            .shape()
            .iter()
            .zip(&target)
            .map(|(&n, &t)| SliceElem::Slice { start: None, stop: Some(t.min(n) as isize), step: 1 })
            .collect();
        x = x.slice(keep)?;
    }
    if x.shape() != target.as_slice() {
        let widths: Vec<(usize, usize)> = x.shape().iter().zip(&target).map(|(&n, &t)| (0, t - n)).collect();
        x = x.pad(&widths, PadMode::Constant(Scalar::Int(0)))?;
    }
    let total: usize = lens.iter().product();
    let inverse = matches!(kind, FftKind::Inverse | FftKind::RealInverse { .. });
    let kind = match kind {
        FftKind::RealInverse { .. } => FftKind::RealInverse { n: *lens.last().expect("lens") },
        k => k,
    };
    let mut shape = x.shape().to_vec();
    match kind {
        FftKind::RealForward => shape[last] = shape[last] / 2 + 1,
        FftKind::RealInverse { n } => shape[last] = n,
        _ => {}
    }
    let spec = FftSpec { kind, axes, scale: norm.scale(total, inverse), hermitian };
    let r = run(&x, &spec, &shape).map_err(|e| e.in_op(op))?;
    // NumPy gives float16 back from a float16 input's inverse real transform.
    match (kind, d) {
        (FftKind::RealInverse { .. }, DType::F16 | DType::BF16) => r.astype(d),
        _ => Ok(r),
    }
}
