//! SciPy's `ldl`: the Bunch–Kaufman factorisation `A = L D Lᴴ` (Hermitian) or `A = L D Lᵀ`
//! (complex symmetric) of the triangle read, with symmetric pivoting and 1 × 1 or 2 × 2 blocks in
//! `D` (LAPACK's `sytrf`/`hetrf`), batched; computed on the host (float64 or complex128) and returned as
//! SciPy returns it: `lu` with `lu[perm]` triangular, `d`, and `perm`.
//!
//! ```
//! use xp::linalg;
//! // zero diagonal: Bunch–Kaufman takes a 2 × 2 block
//! let a = xp::Array::from_vec(vec![0.0f64, 1.0, 1.0, 0.0], &[2, 2]).unwrap();
//! let f = linalg::ldl(&a, true, true).unwrap();
//! let back = xp::matmul(&xp::matmul(&f.lu, &f.d).unwrap(), &xp::linalg::matrix_transpose(&f.lu).unwrap()).unwrap();
//! assert!(xp::allclose(&back, &a).unwrap());
//! ```
use super::prepared;
use crate::Array;
use xp_core::{Complex64, DType, Result};

type C = Complex64;

/// The factors of [`ldl`]: `A = lu d luᴴ` (or `luᵀ` when not Hermitian).
#[derive(Clone, Debug)]
pub struct Ldl {
    /// the (permuted) unit triangular factor `(.., n, n)`: `lu[perm]` is lower (or upper) triangular
    pub lu: Array,
    /// block diagonal `(.., n, n)`, blocks of 1 × 1 and 2 × 2
    pub d: Array,
    /// the row order that makes `lu` triangular (int64 `(.., n)`)
    pub perm: Array,
}

/// The Bunch–Kaufman pivot threshold `(1 + √17) / 8`.
const ALPHA: f64 = 0.640_388_203_202_208_4;

/// The scalars the factorisation runs in: float64 for real input, complex128 otherwise.
trait Sc:
    Copy
    + PartialEq
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::SubAssign
{
    const ZERO: Self;
    const ONE: Self;
    /// |x|
    fn abs(self) -> f64;
    /// the conjugate when `herm` (a real number is its own)
    fn cj(self, herm: bool) -> Self;
}

impl Sc for f64 {
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
    fn abs(self) -> f64 {
        f64::abs(self)
    }
    fn cj(self, _: bool) -> f64 {
        self
    }
}

impl Sc for C {
    const ZERO: C = C::new(0.0, 0.0);
    const ONE: C = C::new(1.0, 0.0);
    fn abs(self) -> f64 {
        self.norm()
    }
    fn cj(self, herm: bool) -> C {
        if herm {
            self.conj()
        } else {
            self
        }
    }
}

/// `P A Pᵀ = L D L*` of the full row-major `a` (`n × n`, both triangles): `(L, D, perm)` with
/// row `i` of `P A Pᵀ` row `perm[i]` of `A`. Each step updates the trailing lower triangle only
/// (contiguous row pieces); the pivot search reads row `r` through it.
fn bunch_kaufman<T: Sc>(mut a: Vec<T>, n: usize, herm: bool) -> (Vec<T>, Vec<T>, Vec<usize>) {
    let at = |i: usize, j: usize| i * n + j;
    let mut l = vec![T::ZERO; n * n];
    let mut d = vec![T::ZERO; n * n];
    let mut perm: Vec<usize> = (0..n).collect();
    // swap rows and columns i, j (> k) of the trailing matrix, and rows i, j of L's columns done;
    // only the lower triangle of `a` is kept current, so rows and columns i and j are first made
    // whole from it (then the swapped matrix's lower triangle is current again)
    let swap = |a: &mut Vec<T>, l: &mut Vec<T>, perm: &mut Vec<usize>, i: usize, j: usize| {
        if i == j {
            return;
        }
        for s in [i, j] {
            for t in 0..n {
                if t > s {
                    a[at(s, t)] = a[at(t, s)].cj(herm);
                } else if t < s {
                    a[at(t, s)] = a[at(s, t)].cj(herm);
                }
            }
        }
        for c in 0..n {
            a.swap(at(i, c), at(j, c));
            l.swap(at(i, c), at(j, c));
        }
        for r in 0..n {
            a.swap(at(r, i), at(r, j));
        }
        perm.swap(i, j);
    };
    let mut w = vec![T::ZERO; n];
    let mut k = 0;
    while k < n {
        let (r, colmax) =
            (k + 1..n).map(|i| (i, a[at(i, k)].abs())).fold((k, 0.0), |b, x| if x.1 > b.1 { x } else { b });
        let absakk = a[at(k, k)].abs();
        let two = if absakk.max(colmax) == 0.0 || absakk >= ALPHA * colmax {
            false
        } else {
            // row r of the trailing matrix, read from the lower triangle
            let rowmax = (k..n)
                .filter(|&j| j != r)
                .map(|j| if j < r { a[at(r, j)] } else { a[at(j, r)] }.abs())
                .fold(0.0, f64::max);
            if absakk >= ALPHA * colmax * (colmax / rowmax) {
                false
            } else if a[at(r, r)].abs() >= ALPHA * rowmax {
                swap(&mut a, &mut l, &mut perm, k, r);
                false
            } else {
                swap(&mut a, &mut l, &mut perm, k + 1, r);
                true
            }
        };
        if !two {
            let dk = a[at(k, k)];
            d[at(k, k)] = dk;
            l[at(k, k)] = T::ONE;
            if dk != T::ZERO {
                for i in k + 1..n {
                    l[at(i, k)] = a[at(i, k)] / dk;
                    w[i] = dk * l[at(i, k)].cj(herm);
                }
                for i in k + 1..n {
                    let li = l[at(i, k)];
                    let row = &mut a[at(i, k + 1)..=at(i, i)];
                    for (x, &wj) in row.iter_mut().zip(&w[k + 1..=i]) {
                        *x -= li * wj;
                    }
                }
            }
            k += 1;
        } else {
            let (p, q) = (k, k + 1);
            let (d11, d21, d22) = (a[at(p, p)], a[at(q, p)], a[at(q, q)]);
            let d12 = d21.cj(herm);
            for (i, j, v) in [(p, p, d11), (q, p, d21), (p, q, d12), (q, q, d22)] {
                d[at(i, j)] = v;
            }
            l[at(p, p)] = T::ONE;
            l[at(q, q)] = T::ONE;
            let det = d11 * d22 - d12 * d21;
            let mut w2 = vec![T::ZERO; n];
            for i in k + 2..n {
                // [l_ip, l_iq] = [a_ip, a_iq] D⁻¹; w = D [l_jp, l_jq]*
                let (x, y) = (a[at(i, p)], a[at(i, q)]);
                l[at(i, p)] = (x * d22 - y * d21) / det;
                l[at(i, q)] = (y * d11 - x * d12) / det;
                let (u, v) = (l[at(i, p)].cj(herm), l[at(i, q)].cj(herm));
                w[i] = d11 * u + d12 * v;
                w2[i] = d21 * u + d22 * v;
            }
            for i in k + 2..n {
                let (lp, lq) = (l[at(i, p)], l[at(i, q)]);
                let row = &mut a[at(i, k + 2)..=at(i, i)];
                for ((x, &u), &v) in row.iter_mut().zip(&w[k + 2..=i]).zip(&w2[k + 2..=i]) {
                    *x -= lp * u + lq * v;
                }
            }
            k += 2;
        }
    }
    (l, d, perm)
}

/// One matrix `m` (row-major, C order) in `T`: the full matrix from the triangle read (the upper
/// form through the reversal `J A J`), factored, and SciPy's `(lu, d, perm)` (complex128).
fn one<T: Sc>(m: &[T], n: usize, lower: bool, herm: bool, real_diag: impl Fn(T) -> T) -> (Vec<T>, Vec<T>, Vec<i64>) {
    let src = |i: usize, j: usize| {
        let (i, j) = if lower { (i, j) } else { (n - 1 - i, n - 1 - j) };
        let (r, c, flip) = if (lower && i >= j) || (!lower && i <= j) { (i, j, false) } else { (j, i, true) };
        let z = m[r * n + c];
        let z = if flip { z.cj(herm) } else { z };
        if herm && r == c {
            real_diag(z)
        } else {
            z
        }
    };
    let full: Vec<T> = (0..n * n).map(|t| src(t / n, t % n)).collect();
    let (l, d, perm) = bunch_kaufman(full, n, herm);
    // A = Pᵀ L D L* P: lu = Pᵀ L (lu[perm] = L); for the upper form undo the reversal
    let mut out = vec![T::ZERO; n * n];
    let mut dout = vec![T::ZERO; n * n];
    let mut pout = vec![0i64; n];
    let rev = |i: usize| if lower { i } else { n - 1 - i };
    for i in 0..n {
        for j in 0..n {
            out[rev(perm[i]) * n + rev(j)] = l[i * n + j];
            dout[rev(i) * n + rev(j)] = d[i * n + j];
        }
        pout[rev(i)] = rev(perm[i]) as i64;
    }
    (out, dout, pout)
}

/// The LDLᵀ / LDLᴴ factorisation (SciPy `ldl(A, lower, hermitian)`) of the triangle `lower`
/// names (the other is not read; a Hermitian matrix's diagonal is taken as real), batched. The
/// input's dtype (integers as float64). Not square is [`xp_core::LinAlgKind::NotSquare`].
pub fn ldl(a: &Array, lower: bool, hermitian: bool) -> Result<Ldl> {
    let (x, n, _) = prepared("ldl", a, true)?;
    let herm = hermitian && x.dtype().is_complex();
    let dt = x.dtype();
    let count = if n == 0 { 0 } else { x.size() / (n * n) };
    let size = count * n * n;
    let (lu, dd, pp) = if dt.is_complex() {
        let v = x.astype(DType::C128)?.to_vec::<C>()?;
        let (mut lu, mut dd, mut pp) =
            (Vec::with_capacity(size), Vec::with_capacity(size), Vec::with_capacity(count * n));
        for m in v.chunks(n * n.max(1)).take(count) {
            let (a, b, c) = one(m, n, lower, herm, |z: C| C::new(z.re, 0.0));
            lu.extend(a);
            dd.extend(b);
            pp.extend(c);
        }
        (Array::from_vec(lu, x.shape())?, Array::from_vec(dd, x.shape())?, pp)
    } else {
        let v = x.astype(DType::F64)?.to_vec::<f64>()?;
        let (mut lu, mut dd, mut pp) =
            (Vec::with_capacity(size), Vec::with_capacity(size), Vec::with_capacity(count * n));
        for m in v.chunks(n * n.max(1)).take(count) {
            let (a, b, c) = one(m, n, lower, false, |z| z);
            lu.extend(a);
            dd.extend(b);
            pp.extend(c);
        }
        (Array::from_vec(lu, x.shape())?, Array::from_vec(dd, x.shape())?, pp)
    };
    let shape = x.shape();
    let back = |v: Array| v.astype(dt)?.to_device(x.device());
    let perm = Array::from_vec(pp, &shape[..shape.len() - 1])?.to_device(x.device())?;
    Ok(Ldl { lu: back(lu)?, d: back(dd)?, perm })
}
