//! `Display` in the style of NumPy's `repr`: `array([1. , 2.5], dtype=float32)`, uniform
//! padding, scientific notation when the magnitudes call for it, and `...` summaries above 1000
//! elements (three items kept at each edge).
use crate::Array;
use std::fmt;
use xp_core::{DType, HostBuffer, Kind, Scalar};

const PRECISION: usize = 8;
const THRESHOLD: usize = 1000;
const EDGE: usize = 3;
const LINEWIDTH: usize = 75;

/// Shortest decimal digits and exponent (`d.ddd × 10^e`) that read back to `v` in `dtype`.
fn shortest(v: f64, dtype: DType) -> (String, i32) {
    let s = match dtype {
        DType::F32 | DType::C64 => format!("{:e}", v as f32),
        DType::F16 | DType::BF16 => {
            let back = |s: &str| -> f64 {
                let p: f64 = s.parse().unwrap_or(f64::NAN);
                if dtype == DType::F16 {
                    xp_core::f16::from_f64(p).to_f64()
                } else {
                    xp_core::bf16::from_f64(p).to_f64()
                }
            };
            (0..17).map(|p| format!("{:.*e}", p, v)).find(|s| back(s) == v).unwrap_or_else(|| format!("{v:e}"))
        }
        _ => format!("{v:e}"),
    };
    let (m, e) = s.split_once('e').expect("LowerExp has an exponent");
    let digits: String = m.chars().filter(|c| c.is_ascii_digit()).collect();
    let digits = digits.trim_end_matches('0');
    (if digits.is_empty() { "0".into() } else { digits.into() }, e.parse().expect("exponent"))
}

/// One float as (sign+integer part, fraction digits) in positional notation.
fn positional(v: f64, dtype: DType) -> (String, String) {
    let neg = v.is_sign_negative();
    let (d, e) = shortest(v.abs(), dtype);
    let (mut ip, mut fp) = if e >= 0 {
        let e = e as usize;
        if d.len() > e + 1 {
            (d[..e + 1].to_string(), d[e + 1..].to_string())
        } else {
            (format!("{d}{}", "0".repeat(e + 1 - d.len())), String::new())
        }
    } else {
        ("0".to_string(), format!("{}{d}", "0".repeat((-e - 1) as usize)))
    };
    if fp.len() > PRECISION {
        let r = format!("{:.*}", PRECISION, v.abs());
        let (i, f) = r.split_once('.').expect("fixed format has a point");
        ip = i.to_string();
        fp = f.trim_end_matches('0').to_string();
    }
    if v == 0.0 {
        fp.clear();
    }
    (if neg { format!("-{ip}") } else { ip }, fp)
}

/// One float in scientific notation as (mantissa integer with sign, mantissa fraction, exponent).
fn scientific(v: f64, dtype: DType) -> (String, String, i32) {
    let (d, e) = shortest(v.abs(), dtype);
    let (d, e) = if d.len() > PRECISION + 1 {
        let r = format!("{:.*e}", PRECISION, v.abs());
        let (m, ex) = r.split_once('e').expect("exponent");
        let digits: String = m.chars().filter(|c| c.is_ascii_digit()).collect();
        (digits.trim_end_matches('0').to_string(), ex.parse().expect("exponent"))
    } else {
        (d, e)
    };
    let sign = if v.is_sign_negative() { "-" } else { "" };
    (format!("{sign}{}", &d[..1]), d[1..].to_string(), e)
}

/// Formats every float of an array with one shared width, as NumPy's `FloatingFormat`.
struct FloatFmt {
    dtype: DType,
    sci: bool,
    int_w: usize,
    frac_w: usize,
    exp_w: usize,
    sign_space: bool,
}

impl FloatFmt {
    fn new(values: &[f64], dtype: DType, sign_space: bool) -> FloatFmt {
        let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        let nz: Vec<f64> = finite.iter().map(|v| v.abs()).filter(|&v| v != 0.0).collect();
        let (mx, mn) = nz.iter().fold((0f64, f64::INFINITY), |(a, b), &v| (a.max(v), b.min(v)));
        let sci = !nz.is_empty() && (mx >= 1e8 || mn < 1e-4 || mx / mn > 1e3);
        let mut f = FloatFmt { dtype, sci, int_w: 0, frac_w: 0, exp_w: 2, sign_space };
        for &v in &finite {
            if sci {
                let (i, fr, e) = scientific(v, dtype);
                f.int_w = f.int_w.max(i.len());
                f.frac_w = f.frac_w.max(fr.len());
                f.exp_w = f.exp_w.max(e.unsigned_abs().to_string().len());
            } else {
                let (i, fr) = positional(v, dtype);
                f.int_w = f.int_w.max(i.len());
                f.frac_w = f.frac_w.max(fr.len());
            }
        }
        if values.iter().any(|v| !v.is_finite()) {
            let special =
                values.iter().filter(|v| !v.is_finite()).map(|v| if *v < 0.0 { 4 } else { 3 }).max().unwrap_or(3);
            if finite.is_empty() {
                f.int_w = special;
            } else if f.int_w + 1 + f.frac_w < special {
                f.int_w = special - 1 - f.frac_w;
            }
        }
        f
    }
    fn width(&self) -> usize {
        if self.sci {
            self.int_w + 1 + self.frac_w + 2 + self.exp_w
        } else {
            self.int_w + 1 + self.frac_w
        }
    }
    fn format(&self, v: f64) -> String {
        if !v.is_finite() {
            let s = if v.is_nan() {
                "nan"
            } else if v > 0.0 {
                "inf"
            } else {
                "-inf"
            };
            let s = if self.sign_space && !s.starts_with('-') { format!("+{s}") } else { s.to_string() };
            return format!("{s:>w$}", w = self.width());
        }
        let body = if self.sci {
            let (i, fr, e) = scientific(v, self.dtype);
            let es = if e < 0 { '-' } else { '+' };
            format!(
                "{i:>iw$}.{fr:0<fw$}e{es}{:0>ew$}",
                e.unsigned_abs(),
                iw = self.int_w,
                fw = self.frac_w,
                ew = self.exp_w
            )
        } else {
            let (i, fr) = positional(v, self.dtype);
            format!("{i:>iw$}.{fr:<fw$}", iw = self.int_w, fw = self.frac_w)
        };
        if self.sign_space && !body.trim_start().starts_with('-') {
            let t = body.trim_start();
            let pad = body.len() - t.len();
            format!("{}+{t}", " ".repeat(pad.saturating_sub(1)))
        } else {
            body
        }
    }
}

/// The element strings of the shown part of the array, all of one width.
fn element_strings(buf: &HostBuffer, idx: &[usize]) -> Vec<String> {
    let d = buf.dtype();
    let get = |i: usize| buf.get(i).expect("index in range");
    let pad = |v: Vec<String>| {
        let w = v.iter().map(|s| s.len()).max().unwrap_or(0);
        v.into_iter().map(|s| format!("{s:>w$}")).collect()
    };
    match d.kind() {
        Kind::Bool => {
            pad(idx.iter().map(|&i| if get(i).is_nonzero() { "True".into() } else { "False".into() }).collect())
        }
        Kind::Int | Kind::Uint => pad(idx
            .iter()
            .map(|&i| match get(i) {
                Scalar::Int(v) => v.to_string(),
                Scalar::Uint(v) => v.to_string(),
                s => s.to_f64().to_string(),
            })
            .collect()),
        Kind::Float => {
            let vals: Vec<f64> = idx.iter().map(|&i| get(i).to_f64()).collect();
            let f = FloatFmt::new(&vals, d, false);
            vals.iter().map(|&v| f.format(v)).collect()
        }
        Kind::Complex => {
            let vals: Vec<_> = idx.iter().map(|&i| get(i).to_c128()).collect();
            let re: Vec<f64> = vals.iter().map(|c| c.re).collect();
            let im: Vec<f64> = vals.iter().map(|c| c.im).collect();
            let (fr, fi) = (FloatFmt::new(&re, d, false), FloatFmt::new(&im, d, true));
            vals.iter().map(|c| format!("{}{}j", fr.format(c.re), fi.format(c.im))).collect()
        }
    }
}

/// NumPy omits the dtype in the repr for these.
fn default_dtype(d: DType) -> bool {
    matches!(d, DType::Bool | DType::I64 | DType::F64 | DType::C128)
}

/// Positions (flat, C order) shown along each axis: all, or the edges around a `...`.
fn shown(n: usize, summarize: bool) -> Vec<Option<usize>> {
    if summarize && n > 2 * EDGE {
        (0..EDGE).map(Some).chain([None]).chain((n - EDGE..n).map(Some)).collect()
    } else {
        (0..n).map(Some).collect()
    }
}

fn render(
    out: &mut String,
    shape: &[usize],
    strs: &mut impl Iterator<Item = String>,
    summarize: bool,
    indent: usize,
    col: &mut usize,
) {
    if shape.is_empty() {
        let s = strs.next().unwrap_or_default();
        out.push_str(&s);
        *col += s.len();
        return;
    }
    out.push('[');
    *col += 1;
    let items = shown(shape[0], summarize);
    let last = items.len().saturating_sub(1);
    for (k, it) in items.iter().enumerate() {
        if shape.len() == 1 {
            let s = match it {
                Some(_) => strs.next().unwrap_or_default(),
                None => "...".to_string(),
            };
            let sep = if k < last { 1 } else { 0 };
            if k > 0 && *col + 1 + s.len() + sep > LINEWIDTH {
                out.push('\n');
                out.push_str(&" ".repeat(indent + 1));
                *col = indent + 1;
            } else if k > 0 {
                out.push(' ');
                *col += 1;
            }
            out.push_str(&s);
            *col += s.len();
            if k < last {
                out.push(',');
                *col += 1;
            }
        } else {
            if k > 0 {
                out.push_str(&"\n".repeat(shape.len() - 1));
                out.push_str(&" ".repeat(indent + 1));
                *col = indent + 1;
            }
            match it {
                Some(_) => render(out, &shape[1..], strs, summarize, indent + 1, col),
                None => {
                    out.push_str("...");
                    *col += 3;
                }
            }
            if k < last {
                out.push(',');
                *col += 1;
            }
        }
    }
    out.push(']');
    *col += 1;
}

/// A real number as NumPy's scalar `str` writes it: shortest round-trip digits, positional from
/// 1e-4 to a dtype's bound (`1.0`, `0.1`), scientific outside (`1e+16`, `1.5e-05`).
fn python_float(v: f64, dtype: DType, int_suffix: bool) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let sign = if v.is_sign_negative() { "-" } else { "" };
    let (d, e) = shortest(v.abs(), dtype);
    if v == 0.0 {
        return format!("{sign}{}", if int_suffix { "0.0" } else { "0" });
    }
    // NumPy's scalar str: positional from 1e-4 up to 1e3 (float16), 1e6 (float32), 1e16
    let top = match dtype {
        DType::F16 | DType::BF16 => 3,
        DType::F32 | DType::C64 => 6,
        _ => 16,
    };
    if (-4..top).contains(&e) {
        let (ip, fp) = positional(v.abs(), dtype);
        let fp = if fp.is_empty() && int_suffix { "0".to_string() } else { fp };
        return if fp.is_empty() { format!("{sign}{ip}") } else { format!("{sign}{ip}.{fp}") };
    }
    let frac = if d.len() > 1 { format!(".{}", &d[1..]) } else { String::new() };
    format!("{sign}{}{frac}e{}{:02}", &d[..1], if e < 0 { '-' } else { '+' }, e.abs())
}

/// A 0-d array's value as NumPy's `str` writes it (`13876`, `1.0`, `True`, `(1+2j)`).
fn scalar_str(v: Scalar, dtype: DType) -> String {
    match v {
        Scalar::Bool(b) => if b { "True" } else { "False" }.into(),
        Scalar::Int(i) => i.to_string(),
        Scalar::Uint(u) => u.to_string(),
        Scalar::Float(x) => python_float(x, dtype, true),
        Scalar::Complex(c) => {
            let im = format!("{}j", python_float(c.im, dtype, false));
            if c.re == 0.0 && !c.re.is_sign_negative() {
                return im;
            }
            let plus = if c.im.is_sign_negative() || c.im.is_nan() && im.starts_with('-') { "" } else { "+" };
            format!("({}{plus}{im})", python_float(c.re, dtype, false))
        }
    }
}

/// NumPy's `repr` (`array([1. , 2.5], dtype=float32)`) for every array but a 0-d one, which shows
/// its value as NumPy's `str` does (`13876`, `0.5`, `True`), so that a reduction reads naturally in
/// a sentence: `println!("{} objects", mask.sum(..)?)`. [`Array::repr`] gives `repr` for 0-d arrays too.
impl fmt::Display for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ndim() == 0 {
            return match self.scalar() {
                Ok(v) => f.write_str(&scalar_str(v, self.dtype())),
                Err(e) => write!(f, "<array on {}: {e}>", self.device()),
            };
        }
        repr(self, f)
    }
}

/// NumPy's `repr` of any array.
pub(crate) fn repr(a: &Array, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let buf = match a.to_buffer() {
        Ok(b) => b,
        Err(e) => return write!(f, "<array on {}: {e}>", a.device()),
    };
    let shape = a.shape();
    let summarize = a.size() > THRESHOLD;
    // Flat indices of the shown elements, in C order.
    let mut idx: Vec<usize> = vec![0];
    for (d, &n) in shape.iter().enumerate() {
        let stride: usize = shape[d + 1..].iter().product();
        let pos: Vec<usize> = shown(n, summarize).into_iter().flatten().collect();
        idx = idx.iter().flat_map(|&b| pos.iter().map(move |&p| b + p * stride)).collect();
    }
    if a.size() == 0 {
        idx.clear();
    }
    let strs = element_strings(&buf, &idx);
    let mut out = String::from("array(");
    let mut col = out.len();
    if a.size() == 0 {
        out.push_str(&"[".repeat(shape.len().max(1)));
        out.push_str(&"]".repeat(shape.len().max(1)));
        col = out.len();
    } else {
        render(&mut out, shape, &mut strs.into_iter(), summarize, 6, &mut col);
    }
    let mut tails = vec![];
    if summarize {
        // NumPy 2 names the shape of a summarised array.
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        let t = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
        tails.push(format!("shape={t}"));
    }
    if !default_dtype(a.dtype()) || a.size() == 0 {
        tails.push(format!("dtype={}", a.dtype()));
    }
    for tail in tails {
        if col + 2 + tail.len() + 1 > LINEWIDTH {
            out.push_str(",\n      ");
            col = 6;
        } else {
            out.push_str(", ");
            col += 2;
        }
        out.push_str(&tail);
        col += tail.len();
    }
    out.push(')');
    f.write_str(&out)
}

impl Array {
    /// NumPy's `repr` as a string (`array(13876)` for a 0-d array, where `Display` writes `13876`).
    pub fn repr(&self) -> String {
        struct R<'a>(&'a Array);
        impl fmt::Display for R<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                repr(self.0, f)
            }
        }
        R(self).to_string()
    }
}
