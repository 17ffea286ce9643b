//! The filter family: sliding windows over an input that the front end has already extended by
//! its boundary (SciPy's modes, `convolve2d`'s `boundary`), so that every window lies inside it
//! and the result is the "valid" part: one output per window position, `n - m + 1` along an axis
//! of length `n` with a window of `m`. And the recursive filters (SciPy's `lfilter`, `sosfilt`):
//! linear recurrences along the last axis, each output depending on the ones before it.
use super::unsupported;
use crate::{BackendStorage, Complex64, Layout, Result};

/// The filter family of a backend's storage.
pub trait FilterStorage: BackendStorage {
    /// The valid correlation `out[i] = Σ_k w[k] · x[i + k]` of `self` at `l` with the weights
    /// `w` at `wl` (the same number of axes, each no longer than the input's, the same dtype:
    /// float32 or float64), C-contiguous, of shape `l.shape - wl.shape + 1`.
    fn correlate_valid(&self, _l: &Layout, _w: &Self, _wl: &Layout) -> Result<Self> {
        unsupported("correlate", Self::NAME)
    }
    /// The valid rank filter: at each window position, the `rank`-th smallest (from 0) of the
    /// window's `size` box (one length per axis, each no longer than the input's) of `self` at
    /// `l` (float32 or float64), C-contiguous, of shape `l.shape - size + 1`.
    fn rank_valid(&self, _l: &Layout, _size: &[usize], _rank: usize) -> Result<Self> {
        unsupported("rank_filter", Self::NAME)
    }
    /// The recursive filter `r` along the last axis of `self` at `l` (float32, float64,
    /// complex64 or complex128), started from the state `zi` at `zl` (of the same dtype; its
    /// shape: `l`'s leading shape, then [`Recursion::state_len`] values; broadcast strides
    /// allowed). The outputs equal SciPy's up to rounding: a backend may split long lines into
    /// pieces filtered in parallel and joined through the recursion's linear state map.
    fn recursive_filter(&self, _l: &Layout, _r: &Recursion, _zi: &Self, _zl: &Layout) -> Result<Recursed<Self>> {
        unsupported("lfilter", Self::NAME)
    }
    /// The connected components of `self` (bool, at `l`): C-contiguous labels of `l`'s shape,
    /// numbered 1, 2, … in the C order of each component's first element, 0 for the background,
    /// and the number of components (SciPy's `ndimage.label`). Two foreground elements are
    /// neighbours when one lies at `p + o` of the other for an offset `o` of `offsets` (steps of
    /// -1, 0 or 1 per axis; the backward half of a symmetric structure, each offset preceding the
    /// centre in C order). The labels are int32 below 2^31 elements, else int64.
    fn label(&self, _l: &Layout, _offsets: &[Vec<i8>]) -> Result<(Self, usize)> {
        unsupported("label", Self::NAME)
    }
}

/// The structure of a linear recursive filter (SciPy's `lfilter` and `sosfilt`), each in direct
/// form II transposed with SciPy's order of operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecursionKind {
    /// One rational transfer function: `coef` is `b` then `a`, both divided by `a[0]` and
    /// zero-padded to one length `k`; the state has `k - 1` values per line.
    Df2t,
    /// A cascade of second-order sections: `coef` holds the sections row by row (`b0 b1 b2 1 a1
    /// a2`); the state has two values per section, section by section.
    Sos,
}

/// A linear recursive filter with its coefficients, already in the working dtype (every value
/// is exactly representable in it), as complex128 host values (the imaginary parts zero for a
/// real dtype).
#[derive(Clone, Debug, PartialEq)]
pub struct Recursion {
    /// the recursion's structure
    pub kind: RecursionKind,
    /// the coefficients, laid out as [`RecursionKind`] says
    pub coef: Vec<Complex64>,
}

impl Recursion {
    /// The number of state values per line.
    pub fn state_len(&self) -> usize {
        match self.kind {
            RecursionKind::Df2t => (self.coef.len() / 2).saturating_sub(1),
            RecursionKind::Sos => 2 * (self.coef.len() / 6),
        }
    }

    /// One step of the recursion in complex128, in SciPy's order of operations: input `x`, the
    /// state `z` ([`Recursion::state_len`] values) updated in place; returns the output.
    pub fn step(&self, z: &mut [Complex64], x: Complex64) -> Complex64 {
        match self.kind {
            RecursionKind::Df2t => {
                let k = self.coef.len() / 2;
                let (b, a) = self.coef.split_at(k);
                let y = z.first().copied().unwrap_or_default() + b[0] * x;
                for j in 0..k.saturating_sub(2) {
                    z[j] = z[j + 1] + x * b[j + 1] - y * a[j + 1];
                }
                if k >= 2 {
                    z[k - 2] = x * b[k - 1] - y * a[k - 1];
                }
                y
            }
            RecursionKind::Sos => {
                let mut cur = x;
                for (s, zs) in self.coef.chunks_exact(6).zip(z.chunks_exact_mut(2)) {
                    let new = s[0] * cur + zs[0];
                    zs[0] = s[1] * cur - s[4] * new + zs[1];
                    zs[1] = s[2] * cur - s[5] * new;
                    cur = new;
                }
                cur
            }
        }
    }

    /// The zero-input state map `M` (`K × K`, row-major, `K` the state length): one step with
    /// input 0 takes the state `z` to `M z`. A line cut into pieces is joined through its
    /// powers: the state after `L` samples is `M^L z` plus what the piece's samples alone leave.
    pub fn transition(&self) -> Vec<Complex64> {
        let k = self.state_len();
        let mut m = vec![Complex64::default(); k * k];
        for j in 0..k {
            let mut e = vec![Complex64::default(); k];
            e[j] = Complex64::new(1.0, 0.0);
            self.step(&mut e, Complex64::default());
            for (i, v) in e.into_iter().enumerate() {
                m[i * k + j] = v;
            }
        }
        m
    }
}

/// The results of [`FilterStorage::recursive_filter`].
#[derive(Clone, Debug)]
pub struct Recursed<S> {
    /// the filtered lines, C-contiguous, the input's shape
    pub y: S,
    /// the final state of every line, C-contiguous: the input's shape with the last axis
    /// replaced by [`Recursion::state_len`]
    pub zf: S,
}

impl<S> Recursed<S> {
    /// The same results with each storage mapped by `f`.
    pub fn map<T>(self, f: impl Fn(S) -> T) -> Recursed<T> {
        Recursed { y: f(self.y), zf: f(self.zf) }
    }
}

/// `m^p` for a `k × k` row-major matrix, by repeated squaring in double-double arithmetic
/// (about 106 bits) and rounded once: the squares of a recursion's state map can grow by many
/// orders of magnitude before they decay (the direct form of a high-order filter is far from
/// normal), and squaring in float64 would leave errors of that size in a power that is small.
pub fn matrix_power(m: &[Complex64], k: usize, mut p: u64) -> Vec<Complex64> {
    let mut out: Vec<Cdd> = (0..k * k).map(|e| Cdd::of(Complex64::new((e / k == e % k) as u8 as f64, 0.0))).collect();
    let mut base: Vec<Cdd> = m.iter().map(|&v| Cdd::of(v)).collect();
    while p > 0 {
        if p & 1 == 1 {
            out = dd_matmul(&out, &base, k);
        }
        p >>= 1;
        if p > 0 {
            base = dd_matmul(&base, &base, k);
        }
    }
    out.iter().map(|v| v.round()).collect()
}

/// The largest row sum of magnitudes of a `k × k` row-major matrix (NaN if any entry is).
pub fn norm_inf(m: &[Complex64], k: usize) -> f64 {
    m.chunks_exact(k.max(1)).map(|r| r.iter().map(|v| v.norm()).sum::<f64>()).fold(0.0, |a, s| {
        if s.is_nan() {
            f64::NAN
        } else {
            a.max(s)
        }
    })
}

/// A float64 pair `hi + lo` with `|lo| <= ulp(hi) / 2`.
#[derive(Clone, Copy, Debug, Default)]
struct Dd {
    hi: f64,
    lo: f64,
}

impl Dd {
    fn quick(a: f64, b: f64) -> Dd {
        let s = a + b;
        Dd { hi: s, lo: b - (s - a) }
    }
    fn add(self, o: Dd) -> Dd {
        let s = self.hi + o.hi;
        let bb = s - self.hi;
        let e = (self.hi - (s - bb)) + (o.hi - bb) + self.lo + o.lo;
        Dd::quick(s, e)
    }
    fn neg(self) -> Dd {
        Dd { hi: -self.hi, lo: -self.lo }
    }
    fn mul(self, o: Dd) -> Dd {
        let p = self.hi * o.hi;
        let e = self.hi.mul_add(o.hi, -p) + (self.hi * o.lo + self.lo * o.hi);
        Dd::quick(p, e)
    }
}

/// A complex number of double-doubles.
#[derive(Clone, Copy, Debug, Default)]
struct Cdd {
    re: Dd,
    im: Dd,
}

impl Cdd {
    fn of(v: Complex64) -> Cdd {
        Cdd { re: Dd { hi: v.re, lo: 0.0 }, im: Dd { hi: v.im, lo: 0.0 } }
    }
    fn round(self) -> Complex64 {
        Complex64::new(self.re.hi + self.re.lo, self.im.hi + self.im.lo)
    }
    fn mul_add(self, a: Cdd, b: Cdd) -> Cdd {
        let re = a.re.mul(b.re).add(a.im.mul(b.im).neg());
        let im = a.re.mul(b.im).add(a.im.mul(b.re));
        Cdd { re: self.re.add(re), im: self.im.add(im) }
    }
}

fn dd_matmul(a: &[Cdd], b: &[Cdd], k: usize) -> Vec<Cdd> {
    let mut c = vec![Cdd::default(); k * k];
    for i in 0..k {
        for l in 0..k {
            let x = a[i * k + l];
            for j in 0..k {
                c[i * k + j] = c[i * k + j].mul_add(x, b[l * k + j]);
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 20th power of a non-normal 2 × 2 matrix whose squares grow to ~1e16 before they decay:
    /// exact in double-double, where float64 squaring loses every digit.
    #[test]
    fn matrix_power_keeps_the_digits_that_squaring_loses() {
        // M = [[0.5, 1e8], [0, 0.5]]: M^p = [[0.5^p, p 1e8 0.5^(p-1)], [0, 0.5^p]]
        let m = [Complex64::new(0.5, 0.0), Complex64::new(1e8, 0.0), Complex64::default(), Complex64::new(0.5, 0.0)];
        let p = matrix_power(&m, 2, 20);
        let want = 20.0 * 1e8 * 0.5f64.powi(19);
        assert_eq!(p[0].re, 0.5f64.powi(20));
        assert!((p[1].re - want).abs() <= want * 1e-15, "{} vs {want}", p[1].re);
        assert_eq!(norm_inf(&p, 2), p[0].re + p[1].re);
    }

    /// The transition of a direct form: a one-step zero-input map with -a in its first column.
    #[test]
    fn transition_of_a_direct_form() {
        let c = |v: f64| Complex64::new(v, 0.0);
        let r = Recursion { kind: RecursionKind::Df2t, coef: [1.0, 2.0, 3.0, 1.0, -0.5, 0.25].map(c).to_vec() };
        let m = r.transition();
        assert_eq!(m, [0.5, 1.0, -0.25, 0.0].map(c).to_vec());
    }
}
