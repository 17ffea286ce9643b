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

/// `m^p` for a `k × k` row-major matrix, by repeated squaring (`p = 0`: the identity).
pub fn matrix_power(m: &[Complex64], k: usize, mut p: u64) -> Vec<Complex64> {
    let mul = |a: &[Complex64], b: &[Complex64]| -> Vec<Complex64> {
        let mut c = vec![Complex64::default(); k * k];
        for i in 0..k {
            for l in 0..k {
                let x = a[i * k + l];
                for j in 0..k {
                    c[i * k + j] += x * b[l * k + j];
                }
            }
        }
        c
    };
    let mut out: Vec<Complex64> = (0..k * k).map(|e| Complex64::new((e / k == e % k) as u8 as f64, 0.0)).collect();
    let mut base = m.to_vec();
    while p > 0 {
        if p & 1 == 1 {
            out = mul(&out, &base);
        }
        p >>= 1;
        if p > 0 {
            base = mul(&base, &base);
        }
    }
    out
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
