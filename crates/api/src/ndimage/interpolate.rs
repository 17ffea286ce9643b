//! Spline interpolation (SciPy's `map_coordinates`, `zoom`, `shift`, `rotate`): per input axis,
//! the coordinates of the output's samples are mapped into the input by the mode (SciPy's
//! `map_coordinate`), the `order + 1` taps of the B-spline around each one are found and mapped
//! the same way, and their weights computed — all as elementwise array operations on the device.
//! Every function gathers the `(order + 1)^d` taps of each output point from the flattened
//! input (`interpolate_impl`), in SciPy's order of operations; `zoom` and `shift` pass their
//! per-axis coordinates as broadcasting vectors, so their taps and weights cost one vector per
//! axis. The input is first prefiltered (`super::spline`) for orders above 1,
//! after SciPy's 12-sample padding for [`Mode::Nearest`] and [`Mode::GridConstant`].
use super::spline::prefilter_impl;
use super::{complex_parts, Mode};
use crate::{where_, Array, IndexMode};
use xp_core::{normalize_axis, DType, Error, Result};

/// How the interpolating functions sample the input (SciPy's `order`, `mode`, `cval` and
/// `prefilter`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interpolation {
    /// the B-spline order, 0 (nearest sample) to 5; SciPy's default is 3
    pub order: usize,
    /// the border; SciPy's default is `Mode::Constant(0.0)`
    pub mode: Mode,
    /// whether the input is prefiltered into spline coefficients first (for orders above 1);
    /// `false` treats the input as coefficients already (SciPy's `prefilter=False`)
    pub prefilter: bool,
}

impl Default for Interpolation {
    fn default() -> Self {
        Interpolation { order: 3, mode: Mode::Constant(0.0), prefilter: true }
    }
}

/// How [`zoom`] aligns the input and output grids (SciPy's `grid_mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ZoomGrid {
    /// the centres of the first and last samples coincide (SciPy's `grid_mode=False`)
    #[default]
    Samples,
    /// the outer edges of the first and last pixels coincide (SciPy's `grid_mode=True`)
    Pixels,
}

/// The plane and the output shape of [`rotate`] (SciPy's `axes=(1, 0)` and `reshape=True` by
/// default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rotate {
    /// the two axes that span the plane of rotation
    pub axes: [isize; 2],
    /// whether the output plane grows to hold the whole rotated input
    pub reshape: Reshape,
}

impl Default for Rotate {
    fn default() -> Self {
        Rotate { axes: [1, 0], reshape: Reshape::Fit }
    }
}

/// Whether [`rotate`] enlarges the output to hold the whole rotated input (SciPy's `reshape`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reshape {
    /// the output plane is the bounding box of the rotated input (SciPy's default)
    #[default]
    Fit,
    /// the output keeps the input's shape
    Keep,
}

/// SciPy's `map_coordinate` of float64 coordinates `x` on an axis of `n` samples: points
/// outside `[0, n - 1]` are mapped inside by the mode (constant: to -1).
fn map_coordinate(x: &Array, n: usize, mode: Mode) -> Result<Array> {
    let nf = n as f64;
    let lo = x.lt(0.0)?;
    let hi = x.gt(nf - 1.0)?;
    let periodic = matches!(mode, Mode::Mirror | Mode::Reflect | Mode::GridMirror | Mode::Wrap | Mode::GridWrap);
    let (below, above) = if periodic && n <= 1 {
        (x.mul(0.0)?, x.mul(0.0)?)
    } else {
        match mode {
            Mode::Mirror => {
                let p = 2.0 * nf - 2.0;
                let t = x.neg()?.div(p)?.trunc()?.mul(p)?.add(x)?;
                let below = where_(&t.le(1.0 - nf)?, &t.add(p)?, &t.neg()?)?;
                let u = x.sub(&x.div(p)?.trunc()?.mul(p)?)?;
                (below, where_(&u.ge(nf)?, &u.neg()?.add(p)?, &u)?)
            }
            Mode::Reflect | Mode::GridMirror => {
                let p = 2.0 * nf;
                let t = where_(&x.lt(-p)?, &x.neg()?.div(p)?.trunc()?.mul(p)?.add(x)?, x)?;
                let inner = where_(&t.gt(-1e-15)?, 1e-15, &t.neg()?)?.sub(1.0)?;
                let below = where_(&t.lt(-nf)?, &t.add(p)?, &inner)?;
                let u = x.sub(&x.div(p)?.trunc()?.mul(p)?)?;
                (below, where_(&u.ge(nf)?, &u.neg()?.add(p - 1.0)?, &u)?)
            }
            Mode::Wrap => {
                let p = nf - 1.0;
                let below = x.add(&x.neg()?.div(p)?.trunc()?.add(1.0)?.mul(p)?)?;
                (below, x.sub(&x.div(p)?.trunc()?.mul(p)?)?)
            }
            Mode::GridWrap => {
                let below = x.add(&x.neg()?.sub(1.0)?.div(nf)?.trunc()?.add(1.0)?.mul(nf)?)?;
                (below, x.sub(&x.div(nf)?.trunc()?.mul(nf)?)?)
            }
            Mode::Nearest => (x.mul(0.0)?, x.mul(0.0)?.add(nf - 1.0)?),
            Mode::Constant(_) | Mode::GridConstant(_) => (x.mul(0.0)?.sub(1.0)?, x.mul(0.0)?.sub(1.0)?),
        }
    };
    where_(&lo, &below, &where_(&hi, &above, x)?)
}

/// The B-spline weights of `order` at offsets `t` from the middle knot (SciPy's
/// `get_spline_interpolation_weights`); the last is one minus the others.
fn spline_weights(t: &Array, order: usize) -> Result<Vec<Array>> {
    let one = |a: &Array| a.neg()?.add(1.0);
    let mut w: Vec<Array> = match order {
        0 => return Ok(vec![t.mul(0.0)?.add(1.0)?]),
        1 => vec![one(t)?],
        2 => {
            let y = t.neg()?.add(0.5)?;
            vec![y.mul(&y)?.mul(0.5)?, t.mul(t)?.neg()?.add(0.75)?]
        }
        3 => {
            let z = one(t)?;
            let cubic = |y: &Array| -> Result<Array> { y.mul(y)?.mul(&y.sub(2.0)?)?.mul(3.0)?.add(4.0)?.div(6.0) };
            vec![z.mul(&z)?.mul(&z)?.div(6.0)?, cubic(t)?, cubic(&z)?]
        }
        4 => {
            let tt = t.mul(t)?;
            let y = t.add(1.0)?;
            let z = one(t)?;
            let q = |y: &Array| -> Result<Array> {
                let five = y.neg()?.add(5.0)?.mul(y)?.div(6.0)?.sub(1.25)?;
                y.mul(&five)?.add(5.0 / 24.0)?.mul(y)?.add(55.0 / 96.0)
            };
            let y0 = t.neg()?.add(0.5)?;
            let y0 = y0.mul(&y0)?;
            vec![y0.mul(&y0)?.div(24.0)?, q(&y)?, tt.mul(&tt.mul(0.25)?.sub(0.625)?)?.add(115.0 / 192.0)?, q(&z)?]
        }
        _ => {
            let z = one(t)?;
            let inner = |y: &Array| -> Result<Array> {
                let yy = y.mul(y)?;
                yy.mul(&yy.mul(&y.div(-12.0)?.add(0.25)?)?.sub(0.5)?)?.add(0.55)
            };
            let outer = |y: &Array| -> Result<Array> {
                let p = y.div(24.0)?.sub(0.375)?.mul(y)?.add(1.25)?.mul(y)?.sub(1.75)?.mul(y)?.add(0.625)?;
                p.mul(y)?.add(0.425)
            };
            let y0 = z.mul(&z)?;
            vec![z.mul(&y0)?.mul(&y0)?.div(120.0)?, outer(&t.add(1.0)?)?, inner(t)?, inner(&z)?, outer(&z.add(1.0)?)?]
        }
    };
    let mut last = w[0].neg()?.add(1.0)?;
    for x in &w[1..] {
        last = last.sub(x)?;
    }
    w.push(last);
    Ok(w)
}

/// The taps of one axis for coordinates `cc` (float64, any shape) on an axis of `n` samples of
/// the (prepadded) input.
struct Taps {
    /// the mapped sample index of each tap (int64)
    idx: Vec<Array>,
    /// the weight of each tap
    w: Vec<Array>,
    /// grid-constant: where each tap falls outside the input (and reads `cval`)
    outside_tap: Vec<Option<Array>>,
    /// constant: where the point falls outside the input (and the result is `cval`)
    outside: Option<Array>,
}

fn taps(cc: &Array, n: usize, order: usize, mode: Mode, npad: usize) -> Result<Taps> {
    let cc = cc.add(npad as f64)?;
    let cc = match mode {
        Mode::GridConstant(_) | Mode::Nearest => cc,
        _ => map_coordinate(&cc, n, mode)?,
    };
    let outside = match mode {
        Mode::Constant(_) => Some(cc.le(-1.0)?),
        _ => None,
    };
    let knot = if order % 2 == 1 { cc.floor()? } else { cc.add(0.5)?.floor()? };
    let start = knot.sub((order / 2) as f64)?;
    let w = spline_weights(&cc.sub(&knot)?, order)?;
    let spline_mode = match mode {
        Mode::Constant(_) | Mode::Wrap => Mode::Mirror,
        m => m,
    };
    let (mut idx, mut outside_tap) = (vec![], vec![]);
    for k in 0..=order {
        let i = start.add(k as f64)?;
        if let Mode::GridConstant(_) = mode {
            outside_tap.push(Some(i.lt(0.0)?.logical_or(&i.gt(n as f64 - 1.0)?)?));
            idx.push(i.clip(Some(0.0), Some(n as f64 - 1.0))?.astype(DType::I64)?);
        } else {
            outside_tap.push(None);
            idx.push(map_coordinate(&i, n, spline_mode)?.astype(DType::I64)?);
        }
    }
    Ok(Taps { idx, w, outside_tap, outside })
}

/// The input as spline coefficients along `axes`, in float64, and the padding SciPy adds first.
fn coefficients(input: &Array, axes: &[usize], it: &Interpolation) -> Result<(Array, usize)> {
    if !it.prefilter || it.order < 2 {
        return Ok((input.astype(DType::F64)?, 0));
    }
    // SciPy pads the input in its own dtype (`np.pad`), so an integer input pads with the
    // truncated cval
    let x = input;
    let pad = match it.mode {
        Mode::Nearest => Some(crate::PadMode::Edge),
        Mode::GridConstant(c) => Some(crate::PadMode::Constant(xp_core::Scalar::Float(c))),
        _ => None,
    };
    let (x, npad) = match pad {
        Some(p) => {
            let widths: Vec<(usize, usize)> =
                (0..x.ndim()).map(|a| if axes.contains(&a) { (12, 12) } else { (0, 0) }).collect();
            (x.pad(&widths, p)?.astype(DType::F64)?, 12)
        }
        None => (x.astype(DType::F64)?, 0),
    };
    Ok((prefilter_impl(&x, it.order, axes, it.mode)?, npad))
}

/// A float64 result stored in `dtype` as SciPy's interpolation stores it: integers rounded half
/// away from zero and clamped to the type's range, bool as the truncated value.
fn cast_interp(r: &Array, dtype: DType) -> Result<Array> {
    if dtype.is_float() {
        return r.astype(dtype);
    }
    let Some((lo, hi)) = xp_core::int_range(dtype) else {
        return r.trunc()?.not_equal(0.0);
    };
    let rounded = where_(&r.gt(0.0)?, &r.add(0.5)?, &r.sub(0.5)?)?.trunc()?;
    let c = rounded.clip(Some(lo as f64), Some(hi as f64))?;
    if dtype == DType::U64 {
        return c.astype(dtype);
    }
    c.astype(DType::I64)?.astype(dtype)
}

/// `a` with a trailing axis of length 1 (to broadcast over the input's remaining axes).
fn trailing(a: &Array) -> Result<Array> {
    let mut shape = a.shape().to_vec();
    shape.push(1);
    a.reshape_exact(&shape)
}

fn or(acc: Option<Array>, m: &Array) -> Result<Option<Array>> {
    Ok(Some(match acc {
        None => m.clone(),
        Some(q) => q.logical_or(m)?,
    }))
}

/// Interpolation at points: `coords[a]` (float64, all of `d` axes, broadcasting to one shape
/// `S`) are the coordinates along the first `d = coords.len()` axes of the coefficients `f`; the
/// result has shape `S` followed by `f`'s remaining axes. Each of the `(order + 1)^d` taps is
/// one gather from the flattened input, and its value is multiplied by the axes' weights in
/// turn and summed in SciPy's order, so that integer results round as SciPy's do.
pub(crate) fn interpolate_impl(f: &Array, coords: &[Array], order: usize, mode: Mode, npad: usize) -> Result<Array> {
    let d = coords.len();
    let mut s: Vec<usize> = vec![];
    for c in coords {
        s = xp_core::broadcast_shapes("interpolate", &s, c.shape())?;
    }
    let rest: Vec<usize> = f.shape()[d..].to_vec();
    let lines: usize = f.shape()[..d].iter().product();
    let flat = f.reshape_exact(&[lines, rest.iter().product()])?;
    let gpu = matches!(f.device(), xp_core::Device::Cuda(_));
    if rest.is_empty() && matches!(mode, Mode::Constant(_)) && npad == 0 && d <= 3 {
        if gpu {
            return constant_kernel(&flat, f.shape(), coords, order, mode.cval(), &s);
        }
        // full coordinate arrays only (map_coordinates, rotate): for zoom and shift the
        // per-axis vectors make the array path's taps cheap, and materialising them per point
        // cost 1.5x
        let full = coords.iter().all(|c| c.shape() == s.as_slice());
        if full && f.device() == xp_core::Device::Cpu && f.dtype() == DType::F64 {
            return constant_host(&flat, f.shape(), coords, order, mode.cval(), &s);
        }
    }
    let all: Vec<Taps> = (0..d).map(|a| taps(&coords[a], f.shape()[a], order, mode, npad)).collect::<Result<_>>()?;
    if rest.is_empty() && gpu && d * (order + 1) <= 12 {
        return tap_sum_kernel(&flat, f.shape(), &all, order, mode, &s);
    }
    let weights: Vec<Vec<Array>> = all.iter().map(|t| t.w.iter().map(trailing).collect()).collect::<Result<_>>()?;
    let mut acc: Option<Array> = None;
    for c in 0..(order + 1).pow(d as u32) {
        let ks = super::correlate::unravel(c, &vec![order + 1; d]);
        let mut pos: Option<Array> = None;
        let mut out_tap: Option<Array> = None;
        for a in 0..d {
            let stride: usize = f.shape()[a + 1..d].iter().product();
            let p = all[a].idx[ks[a]].mul(stride as i64)?;
            pos = Some(match pos {
                None => p,
                Some(q) => q.add(&p)?,
            });
            if let Some(m) = &all[a].outside_tap[ks[a]] {
                out_tap = or(out_tap, m)?;
            }
        }
        let pos = pos.expect("d >= 1").broadcast_to(&s)?;
        let mut v = flat.take_mode(&pos, 0, IndexMode::Clip)?;
        if let Some(m) = out_tap {
            v = where_(&trailing(&m)?, mode.cval(), &v)?;
        }
        for a in 0..d {
            v = v.mul(&weights[a][ks[a]])?;
        }
        acc = Some(match acc {
            None => v,
            Some(q) => q.add(&v)?,
        });
    }
    let mut out = acc.expect("at least one tap");
    let mut outside: Option<Array> = None;
    for t in &all {
        if let Some(o) = &t.outside {
            outside = or(outside, o)?;
        }
    }
    if let Some(o) = outside {
        out = where_(&trailing(&o)?, mode.cval(), &out)?;
    }
    let mut shape = s;
    shape.extend(rest);
    out.reshape_exact(&shape)
}

/// The body of the GPU's sum over the taps of `d` axes with `k` taps each (`mask`: a
/// grid-constant mode's per-tap outside masks; `outside`: a constant mode's per-point mask), in
/// the array path's order of products and sums, each rounded on its own.
fn tap_sum_src(d: usize, k: usize, mask: bool, outside: bool) -> (String, String) {
    let mut sig = vec!["raw float64 f".to_string(), "int64 nf".into(), "float64 cval".into()];
    for a in 0..d {
        sig.push(format!("int64 s{a}"));
        for t in 0..k {
            sig.push(format!("int64 i{a}_{t}, float64 w{a}_{t}"));
            if mask {
                sig.push(format!("bool m{a}_{t}"));
            }
        }
    }
    if outside {
        sig.push("bool o".into());
    }
    let mut body = String::from("double acc = 0.0;\n");
    for c in 0..k.pow(d as u32) {
        let ks = super::correlate::unravel(c, &vec![k; d]);
        let pos: Vec<String> = (0..d).map(|a| format!("i{a}_{} * s{a}", ks[a])).collect();
        body += &format!(
            "{{ long long p = {};\n  p = p < 0 ? 0 : (p >= nf ? nf - 1 : p);\n  double v = f[p];\n",
            pos.join(" + ")
        );
        if mask {
            let any: Vec<String> = (0..d).map(|a| format!("m{a}_{}", ks[a])).collect();
            body += &format!("  if ({}) v = cval;\n", any.join(" || "));
        }
        for (a, k) in ks.iter().enumerate() {
            body += &format!("  v = __dmul_rn(v, w{a}_{k});\n");
        }
        body += "  acc = __dadd_rn(acc, v); }\n";
    }
    body += if outside { "y = o ? cval : acc;" } else { "y = acc;" };
    (sig.join(", "), body)
}

/// Device code shared by the constant-mode kernels: SciPy's `map_coordinate` for `mirror` (the
/// spline's mode of a constant border) and the B-spline weights, each operation rounded as the
/// array path rounds it (`__dmul_rn`, `__dadd_rn`: no fused multiply-add).
const SPLINE_CUDA: &str = r#"
#define XPM(a, b) __dmul_rn((a), (b))
#define XPA(a, b) __dadd_rn((a), (b))
__device__ double xp_mirror(double x, double nf) {
  if (!(x < 0.0) && !(x > nf - 1.0)) return x;
  if (nf <= 1.0) return 0.0;
  const double p = 2.0 * nf - 2.0;
  if (x < 0.0) {
    const double t = XPA(XPM(trunc(-x / p), p), x);
    return t <= 1.0 - nf ? XPA(t, p) : -t;
  }
  const double u = XPA(x, -XPM(trunc(x / p), p));
  return u >= nf ? XPA(-u, p) : u;
}
__device__ double xp_cubic(double y) { return XPA(XPM(XPM(XPM(y, y), XPA(y, -2.0)), 3.0), 4.0) / 6.0; }
__device__ double xp_quartic(double y) {
  const double five = XPA(XPM(XPA(-y, 5.0), y) / 6.0, -1.25);
  return XPA(XPM(XPA(XPM(y, five), 5.0 / 24.0), y), 55.0 / 96.0);
}
__device__ double xp_inner5(double y) {
  const double yy = XPM(y, y);
  return XPA(XPM(yy, XPA(XPM(yy, XPA(y / -12.0, 0.25)), -0.5)), 0.55);
}
__device__ double xp_outer5(double y) {
  const double p = XPA(XPM(XPA(XPM(XPA(XPM(XPA(y / 24.0, -0.375), y), 1.25), y), -1.75), y), 0.625);
  return XPA(XPM(p, y), 0.425);
}
// the weights of `order` at offset t: w[0 .. order], the last one minus the others
__device__ void xp_weights(double t, int order, double* w) {
  const double z = XPA(-t, 1.0);
  if (order == 0) { w[0] = XPA(XPM(t, 0.0), 1.0); return; }
  if (order == 1) { w[0] = z; }
  else if (order == 2) { const double y = XPA(-t, 0.5); w[0] = XPM(XPM(y, y), 0.5); w[1] = XPA(-XPM(t, t), 0.75); }
  else if (order == 3) { w[0] = XPM(XPM(z, z), z) / 6.0; w[1] = xp_cubic(t); w[2] = xp_cubic(z); }
  else if (order == 4) {
    const double tt = XPM(t, t);
    double y0 = XPA(-t, 0.5);
    y0 = XPM(y0, y0);
    w[0] = XPM(y0, y0) / 24.0; w[1] = xp_quartic(XPA(t, 1.0));
    w[2] = XPA(XPM(tt, XPA(XPM(tt, 0.25), -0.625)), 115.0 / 192.0); w[3] = xp_quartic(z);
  } else {
    const double y0 = XPM(z, z);
    w[0] = XPM(XPM(z, y0), y0) / 120.0; w[1] = xp_outer5(XPA(t, 1.0)); w[2] = xp_inner5(t);
    w[3] = xp_inner5(z); w[4] = xp_outer5(XPA(z, 1.0));
  }
  double last = XPA(-w[0], 1.0);
  for (int k = 1; k < order; ++k) last = XPA(last, -w[k]);
  w[order] = last;
}
"#;

/// The body of the constant-mode interpolation on the GPU: per axis the point's coordinate
/// mapped as SciPy maps it (outside `[0, n - 1]`: the border value), its knot, taps (mirrored)
/// and weights, then the sum over the `(order + 1)^d` taps in the array path's order.
fn constant_src(d: usize, order: usize) -> (String, String) {
    let k = order + 1;
    let mut sig = vec!["raw float64 f".to_string(), "int64 nf".into(), "float64 cval".into()];
    sig.extend((0..d).map(|a| format!("float64 c{a}, int64 n{a}, int64 s{a}")));
    let mut body = String::from("bool out = false;\n");
    for a in 0..d {
        let knot = if order % 2 == 1 { format!("floor(cc{a})") } else { format!("floor(XPA(cc{a}, 0.5))") };
        body += &format!(
            "const double n{a}f = (double)n{a};
double cc{a} = c{a};
if (cc{a} < 0.0 || cc{a} > n{a}f - 1.0) cc{a} = XPA(XPM(cc{a}, 0.0), -1.0);
out = out || cc{a} <= -1.0;
const double knot{a} = {knot};
const double start{a} = XPA(knot{a}, -{half}.0);
double w{a}[{k}];
xp_weights(XPA(cc{a}, -knot{a}), {order}, w{a});
long long i{a}[{k}];
for (int t = 0; t < {k}; ++t) i{a}[t] = (long long)xp_mirror(XPA(start{a}, (double)t), n{a}f);
",
            half = order / 2
        );
    }
    body += "double acc = 0.0;\n";
    for c in 0..k.pow(d as u32) {
        let ks = super::correlate::unravel(c, &vec![k; d]);
        let pos: Vec<String> = ks.iter().enumerate().map(|(a, t)| format!("i{a}[{t}] * s{a}")).collect();
        body += &format!(
            "{{ long long p = {};\n  p = p < 0 ? 0 : (p >= nf ? nf - 1 : p);\n  double v = f[p];\n",
            pos.join(" + ")
        );
        for (a, t) in ks.iter().enumerate() {
            body += &format!("  v = XPM(v, w{a}[{t}]);\n");
        }
        body += "  acc = XPA(acc, v); }\n";
    }
    body += "y = out ? cval : acc;";
    (sig.join(", "), body)
}

/// [`interpolate_impl`] for a constant border on the GPU: the taps, weights and sum of each point
/// in one kernel (the taps and weights as array passes were some 40 passes per axis over full
/// coordinate arrays: `map_coordinates` and `rotate` at a fifth of CuPy's speed).
fn constant_kernel(
    flat: &Array,
    fshape: &[usize],
    coords: &[Array],
    order: usize,
    cval: f64,
    s: &[usize],
) -> Result<Array> {
    use crate::kernel::ElementwiseKernel;
    /// the kernels made so far, by (axes, order)
    static CACHE: crate::kernel::Generated<(usize, usize)> = std::sync::Mutex::new(None);
    let d = coords.len();
    let kernel = crate::kernel::per_key(&CACHE, (d, order), || {
        let (sig, body) = constant_src(d, order);
        ElementwiseKernel::with_preamble(&sig, "float64 y", &body, "xp_interp_constant", SPLINE_CUDA)
    })?;
    let f = flat.reshape_exact(&[flat.size()])?.ascontiguousarray()?;
    let mut args: Vec<crate::ufunc::Operand> = vec![(&f).into(), (f.size() as i64).into(), cval.into()];
    for (a, c) in coords.iter().enumerate() {
        let stride: usize = fshape[a + 1..d].iter().product();
        args.push(c.into());
        args.push((fshape[a] as i64).into());
        args.push((stride as i64).into());
    }
    points(kernel.call1(&args)?, s)
}

/// A kernel's result as the points' shape `s` (a copy where the kernel's inputs broadcast to
/// less, as coordinates that are all scalars).
fn points(out: Array, s: &[usize]) -> Result<Array> {
    if out.shape() == s {
        Ok(out)
    } else {
        out.broadcast_to(s)?.copy()
    }
}

/// SciPy's `map_coordinate` for `mirror` on the host (as `xp_mirror`).
fn mirror(x: f64, nf: f64) -> f64 {
    if x.is_nan() || (0.0..=nf - 1.0).contains(&x) {
        return x;
    }
    if nf <= 1.0 {
        return 0.0;
    }
    let p = 2.0 * nf - 2.0;
    if x < 0.0 {
        let t = (-x / p).trunc() * p + x;
        if t <= 1.0 - nf {
            t + p
        } else {
            -t
        }
    } else {
        let u = x - (x / p).trunc() * p;
        if u >= nf {
            -u + p
        } else {
            u
        }
    }
}

/// The B-spline weights of `order` at offset `t` into `w[..=order]` (as `xp_weights`, and as
/// [`spline_weights`] computes them: the same operations in the same order).
fn weights_at(t: f64, order: usize, w: &mut [f64; 6]) {
    let z = -t + 1.0;
    let cubic = |y: f64| (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0;
    let quartic = |y: f64| {
        let five = (-y + 5.0) * y / 6.0 - 1.25;
        (y * five + 5.0 / 24.0) * y + 55.0 / 96.0
    };
    let inner5 = |y: f64| {
        let yy = y * y;
        yy * (yy * (y / -12.0 + 0.25) - 0.5) + 0.55
    };
    let outer5 = |y: f64| {
        let p = (((y / 24.0 - 0.375) * y + 1.25) * y - 1.75) * y + 0.625;
        p * y + 0.425
    };
    match order {
        0 => {
            w[0] = t * 0.0 + 1.0;
            return;
        }
        1 => w[0] = z,
        2 => {
            let y = -t + 0.5;
            w[0] = y * y * 0.5;
            w[1] = -(t * t) + 0.75;
        }
        3 => {
            w[0] = z * z * z / 6.0;
            w[1] = cubic(t);
            w[2] = cubic(z);
        }
        4 => {
            let tt = t * t;
            let y0 = -t + 0.5;
            let y0 = y0 * y0;
            w[0] = y0 * y0 / 24.0;
            w[1] = quartic(t + 1.0);
            w[2] = tt * (tt * 0.25 - 0.625) + 115.0 / 192.0;
            w[3] = quartic(z);
        }
        _ => {
            let y0 = z * z;
            w[0] = z * y0 * y0 / 120.0;
            w[1] = outer5(t + 1.0);
            w[2] = inner5(t);
            w[3] = inner5(z);
            w[4] = outer5(z + 1.0);
        }
    }
    let mut last = -w[0] + 1.0;
    for &v in &w[1..order] {
        last -= v;
    }
    w[order] = last;
}

/// [`interpolate_impl`] for a constant border on the host: [`constant_kernel`]'s work as a loop
/// over the points on the cores (the taps and weights as array passes cost 0.27-0.53x SciPy).
fn constant_host(
    flat: &Array,
    fshape: &[usize],
    coords: &[Array],
    order: usize,
    cval: f64,
    s: &[usize],
) -> Result<Array> {
    use rayon::prelude::*;
    let d = coords.len();
    let f = flat.reshape_exact(&[flat.size()])?.to_vec::<f64>()?;
    let cs =
        coords.iter().map(|c| c.broadcast_to(s)?.ascontiguousarray()?.to_vec::<f64>()).collect::<Result<Vec<_>>>()?;
    let strides: Vec<i64> = (0..d).map(|a| fshape[a + 1..d].iter().product::<usize>() as i64).collect();
    let (k, nf) = (order + 1, f.len() as i64);
    let total: usize = s.iter().product();
    let mut out = xp_cpu::pool::alloc::<f64>(total);
    (0..total)
        .into_par_iter()
        .with_min_len(1 << 12)
        .map(|i| {
            let (mut w, mut idx) = ([[0.0f64; 6]; 3], [[0i64; 6]; 3]);
            let mut outside = false;
            for a in 0..d {
                let n = fshape[a] as f64;
                let mut cc = cs[a][i];
                if cc < 0.0 || cc > n - 1.0 {
                    cc = cc * 0.0 - 1.0;
                }
                outside |= cc <= -1.0;
                let knot = if order % 2 == 1 { cc.floor() } else { (cc + 0.5).floor() };
                let start = knot - (order / 2) as f64;
                weights_at(cc - knot, order, &mut w[a]);
                for (t, slot) in idx[a][..k].iter_mut().enumerate() {
                    *slot = mirror(start + t as f64, n) as i64;
                }
            }
            if outside {
                return cval;
            }
            let mut acc = 0.0;
            for c in 0..k.pow(d as u32) {
                let (mut rem, mut p, mut ks) = (c, 0i64, [0usize; 3]);
                for a in (0..d).rev() {
                    ks[a] = rem % k;
                    rem /= k;
                }
                for a in 0..d {
                    p += idx[a][ks[a]] * strides[a];
                }
                let mut v = f[p.clamp(0, nf - 1) as usize];
                for a in 0..d {
                    v *= w[a][ks[a]];
                }
                acc += v;
            }
            acc
        })
        .collect_into_vec(&mut out);
    Array::from_vec(out, s)
}

/// [`interpolate_impl`]'s sum over the taps as one GPU kernel with a thread per point (the
/// array path is four array operations per tap: 80 passes for a cubic 2-D interpolation, a
/// sixth of CuPy's speed).
fn tap_sum_kernel(
    flat: &Array,
    fshape: &[usize],
    all: &[Taps],
    order: usize,
    mode: Mode,
    s: &[usize],
) -> Result<Array> {
    use crate::kernel::ElementwiseKernel;
    /// the kernels made so far, by (axes, taps per axis, tap masks, point mask)
    static CACHE: crate::kernel::Generated<(usize, usize, bool, bool)> = std::sync::Mutex::new(None);
    let d = all.len();
    let k = order + 1;
    let mask = all.iter().any(|t| t.outside_tap.iter().any(Option::is_some));
    let mut outside: Option<Array> = None;
    for t in all {
        if let Some(o) = &t.outside {
            outside = or(outside, o)?;
        }
    }
    let kernel = crate::kernel::per_key(&CACHE, (d, k, mask, outside.is_some()), || {
        let (sig, body) = tap_sum_src(d, k, mask, outside.is_some());
        ElementwiseKernel::new(&sig, "float64 y", &body, "xp_interp_taps")
    })?;
    let f = flat.reshape_exact(&[flat.size()])?.ascontiguousarray()?;
    let falses: Vec<Array> = if mask {
        (0..d * k).map(|_| crate::on(f.device()).zeros([], DType::Bool)).collect::<Result<_>>()?
    } else {
        vec![]
    };
    let mut args: Vec<crate::ufunc::Operand> = vec![(&f).into(), (f.size() as i64).into(), mode.cval().into()];
    for (a, t) in all.iter().enumerate() {
        let stride: usize = fshape[a + 1..d].iter().product();
        args.push((stride as i64).into());
        for j in 0..k {
            args.push((&t.idx[j]).into());
            args.push((&t.w[j]).into());
            if mask {
                args.push(t.outside_tap[j].as_ref().unwrap_or(&falses[a * k + j]).into());
            }
        }
    }
    if let Some(o) = &outside {
        args.push(o.into());
    }
    points(kernel.call1(&args)?, s)
}

fn check(op: &'static str, input: &Array, it: &Interpolation) -> Result<()> {
    if it.order > 5 {
        return Err(Error::invalid(op, format!("spline order not supported: {}", it.order)));
    }
    super::work_dtype(op, input)?;
    if input.ndim() < 1 {
        return Err(Error::invalid(op, "input and output rank must be > 0"));
    }
    Ok(())
}

/// The input sampled at `coordinates` (SciPy's `map_coordinates`): `coordinates` has the
/// input's number of axes as its first axis, and the result the shape of the rest.
///
/// ```
/// use xp::ndimage::{map_coordinates, Interpolation};
/// let x = xp::arange(0.0, 12.0, 1.0, None).unwrap().reshape(&[4, 3]).unwrap();
/// let c = xp::Array::from_vec(vec![0.5, 2.0, 0.5, 1.0], &[2, 2]).unwrap();
/// let v = map_coordinates(&x, &c, Interpolation { order: 1, ..Default::default() }).unwrap();
/// assert_eq!(v.to_vec::<f64>().unwrap(), vec![2.0, 7.0]);
/// ```
pub fn map_coordinates(input: &Array, coordinates: &Array, interp: Interpolation) -> Result<Array> {
    complex_parts(input, interp.mode, |x, mode| map_coordinates_real(x, coordinates, Interpolation { mode, ..interp }))
}

fn map_coordinates_real(input: &Array, coordinates: &Array, interp: Interpolation) -> Result<Array> {
    let op = "map_coordinates";
    check(op, input, &interp)?;
    if coordinates.device() != input.device() {
        return Err(Error::DeviceMismatch { op, lhs: input.device(), rhs: coordinates.device() });
    }
    if coordinates.dtype().is_complex() {
        return Err(Error::InvalidDType { op, dtype: coordinates.dtype() });
    }
    if coordinates.ndim() < 2 {
        return Err(Error::invalid(op, "input and output rank must be > 0"));
    }
    if coordinates.shape()[0] != input.ndim() {
        return Err(Error::invalid(op, "invalid shape for coordinate array"));
    }
    let out_shape = coordinates.shape()[1..].to_vec();
    if input.size() == 0 || coordinates.size() == 0 {
        return crate::on(input.device()).zeros(&out_shape, input.dtype());
    }
    let axes: Vec<usize> = (0..input.ndim()).collect();
    let (f, npad) = coefficients(input, &axes, &interp)?;
    let c = coordinates.astype(DType::F64)?;
    let coords =
        (0..input.ndim()).map(|a| c.slice([xp_core::SliceElem::Index(a as isize)])).collect::<Result<Vec<_>>>()?;
    cast_interp(&interpolate_impl(&f, &coords, interp.order, interp.mode, npad)?, input.dtype())
}

/// The separable transforms: coordinates `k · scale[a] + offset[a]` along each axis, or with
/// SciPy's pixel grid `(k + 0.5) · scale - 0.5`.
fn zoom_shift(
    input: &Array,
    out_shape: &[usize],
    scale: &[f64],
    offset: &[f64],
    grid: ZoomGrid,
    it: &Interpolation,
) -> Result<Array> {
    if input.size() == 0 || out_shape.contains(&0) {
        return crate::on(input.device()).zeros(out_shape, input.dtype());
    }
    let axes: Vec<usize> = (0..input.ndim()).collect();
    let (f, npad) = coefficients(input, &axes, it)?;
    let on = crate::on(input.device());
    // the coordinates along axis a, shaped to broadcast along the others
    let coords = (0..input.ndim())
        .map(|a| {
            let k = on.arange(0.0, out_shape[a] as f64, 1.0, Some(DType::F64))?;
            let c = match grid {
                ZoomGrid::Samples => k.mul(scale[a])?.add(offset[a])?,
                ZoomGrid::Pixels => k.add(0.5)?.mul(scale[a])?.sub(0.5)?,
            };
            let mut shape = vec![1; input.ndim()];
            shape[a] = out_shape[a];
            c.reshape_exact(&shape)
        })
        .collect::<Result<Vec<_>>>()?;
    cast_interp(&interpolate_impl(&f, &coords, it.order, it.mode, npad)?, input.dtype())
}

/// The input shifted by `shift` samples along each axis (one value or one per axis), sampled by
/// spline interpolation (SciPy's `shift`).
///
/// ```
/// use xp::ndimage::{shift, Interpolation};
/// let x = xp::Array::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[4]).unwrap();
/// let s = shift(&x, &[1.0], Interpolation::default()).unwrap();
/// let v = s.to_vec::<f64>().unwrap();
/// assert!(v.iter().zip([0.0, 1.0, 2.0, 3.0]).all(|(a, b)| (a - b).abs() < 1e-12));
/// ```
pub fn shift(input: &Array, shift: &[f64], interp: Interpolation) -> Result<Array> {
    complex_parts(input, interp.mode, |x, mode| shift_real(x, shift, Interpolation { mode, ..interp }))
}

fn shift_real(input: &Array, shift: &[f64], interp: Interpolation) -> Result<Array> {
    let op = "shift";
    check(op, input, &interp)?;
    let s = super::per_axis(op, "shift", shift, input.ndim())?;
    let neg: Vec<f64> = s.iter().map(|v| -v).collect();
    zoom_shift(input, input.shape(), &vec![1.0; input.ndim()], &neg, ZoomGrid::Samples, &interp)
}

/// The input resized by `zoom` along each axis (one value or one per axis; the output length is
/// `round(n · zoom)`, ties to even as Python's `round`), sampled by spline interpolation (SciPy's
/// `zoom`).
///
/// ```
/// use xp::ndimage::{zoom, Interpolation, ZoomGrid};
/// let x = xp::Array::from_vec(vec![0.0, 2.0, 4.0], &[3]).unwrap();
/// let z = zoom(&x, &[5.0 / 3.0], Interpolation { order: 1, ..Default::default() }, ZoomGrid::Samples).unwrap();
/// assert_eq!(z.to_vec::<f64>().unwrap(), vec![0.0, 1.0, 2.0, 3.0, 4.0]);
/// ```
pub fn zoom(input: &Array, zoom: &[f64], interp: Interpolation, grid: ZoomGrid) -> Result<Array> {
    complex_parts(input, interp.mode, |x, mode| zoom_real(x, zoom, Interpolation { mode, ..interp }, grid))
}

fn zoom_real(input: &Array, zoom: &[f64], interp: Interpolation, grid: ZoomGrid) -> Result<Array> {
    let op = "zoom";
    check(op, input, &interp)?;
    let z = super::per_axis(op, "zoom", zoom, input.ndim())?;
    if z.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return Err(Error::invalid(op, format!("zoom factors must be finite and nonnegative: {z:?}")));
    }
    let out: Vec<usize> =
        input.shape().iter().zip(&z).map(|(&n, &f)| (n as f64 * f).round_ties_even() as usize).collect();
    if z.iter().all(|&v| v == 1.0) && interp.prefilter {
        return input.copy();
    }
    let scale: Vec<f64> = input
        .shape()
        .iter()
        .zip(&out)
        .map(|(&n, &m)| {
            let (num, div) = match grid {
                ZoomGrid::Samples => (n as f64 - 1.0, m as f64 - 1.0),
                ZoomGrid::Pixels => (n as f64, m as f64),
            };
            if div != 0.0 {
                num / div
            } else {
                1.0
            }
        })
        .collect();
    zoom_shift(input, &out, &scale, &vec![0.0; input.ndim()], grid, &interp)
}

/// SciPy's `cosdg` and `sindg`: exact at multiples of 90 degrees.
fn cos_sin_degrees(angle: f64) -> (f64, f64) {
    let a = angle.rem_euclid(360.0);
    match a {
        0.0 => (1.0, 0.0),
        90.0 => (0.0, 1.0),
        180.0 => (-1.0, 0.0),
        270.0 => (0.0, -1.0),
        _ => (a.to_radians().cos(), a.to_radians().sin()),
    }
}

/// The input rotated by `angle` degrees in the plane of `axes` (SciPy's `rotate`): every plane
/// parallel to it is rotated about its centre; with [`Reshape::Fit`] the output plane is large
/// enough to hold the whole rotated input.
///
/// ```
/// use xp::ndimage::{rotate, Interpolation};
/// let x = xp::Array::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
/// let r = rotate(&x, 90.0, Default::default(), Interpolation { order: 0, ..Default::default() }).unwrap();
/// assert_eq!(r.shape(), &[3, 2]);
/// assert_eq!(r.to_vec::<f64>().unwrap(), vec![3.0, 6.0, 2.0, 5.0, 1.0, 4.0]);
/// ```
pub fn rotate(input: &Array, angle: f64, r: Rotate, interp: Interpolation) -> Result<Array> {
    let Rotate { axes, reshape } = r;
    complex_parts(input, interp.mode, |x, mode| rotate_real(x, angle, axes, reshape, Interpolation { mode, ..interp }))
}

fn rotate_real(input: &Array, angle: f64, axes: [isize; 2], reshape: Reshape, interp: Interpolation) -> Result<Array> {
    let op = "rotate";
    check(op, input, &interp)?;
    if input.ndim() < 2 {
        return Err(Error::invalid(op, "input array should be at least 2D"));
    }
    let (a0, a1) = (normalize_axis(op, axes[0], input.ndim())?, normalize_axis(op, axes[1], input.ndim())?);
    if a0 == a1 {
        return Err(Error::invalid(op, "invalid rotation plane specified: the two axes are the same"));
    }
    let (a0, a1) = (a0.min(a1), a0.max(a1));
    let (c, s) = cos_sin_degrees(angle);
    let (iy, ix) = (input.shape()[a0] as f64, input.shape()[a1] as f64);
    let out_plane = match reshape {
        Reshape::Keep => [input.shape()[a0], input.shape()[a1]],
        Reshape::Fit => {
            let ptp = |v: [f64; 4]| {
                let (lo, hi) = v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| (l.min(x), h.max(x)));
                (hi - lo + 0.5) as usize
            };
            [ptp([0.0, s * ix, c * iy, c * iy + s * ix]), ptp([0.0, c * ix, -s * iy, -s * iy + c * ix])]
        }
    };
    let (oc0, oc1) = ((out_plane[0] as f64 - 1.0) / 2.0, (out_plane[1] as f64 - 1.0) / 2.0);
    let off0 = (iy - 1.0) / 2.0 - (c * oc0 + s * oc1);
    let off1 = (ix - 1.0) / 2.0 - (-s * oc0 + c * oc1);
    let mut out_shape = input.shape().to_vec();
    out_shape[a0] = out_plane[0];
    out_shape[a1] = out_plane[1];
    if input.size() == 0 || out_shape.contains(&0) {
        return crate::on(input.device()).zeros(&out_shape, input.dtype());
    }
    // the plane's axes first, the others carried along
    let (f, npad) = coefficients(input, &[a0, a1], &interp)?;
    let rest: Vec<usize> = (0..input.ndim()).filter(|&a| a != a0 && a != a1).collect();
    let perm: Vec<isize> = [a0, a1].iter().chain(&rest).map(|&a| a as isize).collect();
    let f = f.transpose(perm.as_slice())?.copy()?;
    let on = crate::on(input.device());
    let o0 = on.arange(0.0, out_plane[0] as f64, 1.0, Some(DType::F64))?.reshape_exact(&[out_plane[0], 1])?;
    let o1 = on.arange(0.0, out_plane[1] as f64, 1.0, Some(DType::F64))?.reshape_exact(&[1, out_plane[1]])?;
    // SciPy's order of the sums: offset + c·o0, then + s·o1
    let i0 = o0.mul(c)?.add(off0)?.add(&o1.mul(s)?)?;
    let i1 = o0.mul(-s)?.add(off1)?.add(&o1.mul(c)?)?;
    let r = interpolate_impl(&f, &[i0, i1], interp.order, interp.mode, npad)?;
    // back to the input's axis order
    let mut inv = vec![0isize; input.ndim()];
    for (k, &p) in perm.iter().enumerate() {
        inv[p as usize] = k as isize;
    }
    cast_interp(&r.transpose(inv.as_slice())?, input.dtype())
}

#[cfg(test)]
mod tests {
    use super::tap_sum_src;
    use crate::kernel::ElementwiseKernel;

    /// The constant-border kernels make valid definitions for every order and up to three axes.
    #[test]
    fn constant_definitions_are_valid() {
        for d in 1..=3 {
            for order in 0..=5 {
                let (sig, body) = super::constant_src(d, order);
                ElementwiseKernel::with_preamble(&sig, "float64 y", &body, "xp_interp_constant", super::SPLINE_CUDA)
                    .unwrap();
            }
        }
    }

    /// The GPU's tap sums make valid kernel definitions for every shape they are used for.
    #[test]
    fn tap_sum_definitions_are_valid() {
        for (d, k) in [(1, 1), (1, 6), (2, 2), (2, 4), (2, 6), (3, 4)] {
            for (mask, outside) in [(false, false), (true, false), (false, true)] {
                let (sig, body) = tap_sum_src(d, k, mask, outside);
                ElementwiseKernel::new(&sig, "float64 y", &body, "xp_interp_taps").unwrap();
            }
        }
    }
}
