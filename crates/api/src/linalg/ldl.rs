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
use rayon::prelude::*;
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
    + Send
    + Sync
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

/// `P A Pᵀ = L D L*` in place on the lower triangle of the row-major `a` (`n × n`; the upper
/// triangle is neither read nor written), left as LAPACK's `sytf2`/`hetf2` leave it: `L` below the
/// diagonal, `D`'s diagonal on it, and each 2 × 2 block's lower off-diagonal entry at `(p + 1, p)`
/// (where `L` has its zero). Returns `perm` (row `i` of `P A Pᵀ` is row `perm[i]` of `A`) and
/// whether a 2 × 2 block starts at each index. `w` is scratch of `2n`.
fn bunch_kaufman<T: Sc>(a: &mut [T], n: usize, herm: bool, w: &mut [T]) -> (Vec<usize>, Vec<bool>) {
    let at = |i: usize, j: usize| i * n + j;
    let mut perm: Vec<usize> = (0..n).collect();
    let mut two_at = vec![false; n];
    let (w, w2) = w.split_at_mut(n);
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
                interchange(a, n, herm, k, r);
                perm.swap(k, r);
                false
            } else {
                interchange(a, n, herm, k + 1, r);
                perm.swap(k + 1, r);
                true
            }
        };
        if !two {
            let dk = a[at(k, k)];
            if dk != T::ZERO {
                for i in k + 1..n {
                    let li = a[at(i, k)] / dk;
                    a[at(i, k)] = li;
                    w[i] = dk * li.cj(herm);
                }
                for i in k + 1..n {
                    let li = a[at(i, k)];
                    let row = &mut a[at(i, k + 1)..=at(i, i)];
                    for (x, &wj) in row.iter_mut().zip(&w[k + 1..=i]) {
                        *x -= li * wj;
                    }
                }
            }
            k += 1;
        } else {
            let (p, q) = (k, k + 1);
            two_at[p] = true;
            let (d11, d21, d22) = (a[at(p, p)], a[at(q, p)], a[at(q, q)]);
            let d12 = d21.cj(herm);
            let det = d11 * d22 - d12 * d21;
            for i in k + 2..n {
                // [l_ip, l_iq] = [a_ip, a_iq] D⁻¹; w = D [l_jp, l_jq]*
                let (x, y) = (a[at(i, p)], a[at(i, q)]);
                let (lp, lq) = ((x * d22 - y * d21) / det, (y * d11 - x * d12) / det);
                a[at(i, p)] = lp;
                a[at(i, q)] = lq;
                let (u, v) = (lp.cj(herm), lq.cj(herm));
                w[i] = d11 * u + d12 * v;
                w2[i] = d21 * u + d22 * v;
            }
            for i in k + 2..n {
                let (lp, lq) = (a[at(i, p)], a[at(i, q)]);
                let row = &mut a[at(i, k + 2)..=at(i, i)];
                for ((x, &u), &v) in row.iter_mut().zip(&w[k + 2..=i]).zip(&w2[k + 2..=i]) {
                    *x -= lp * u + lq * v;
                }
            }
            k += 2;
        }
    }
    (perm, two_at)
}

/// The symmetric interchange of rows and columns `i < j` of the lower triangle `a` keeps (the
/// rows of `L` done left of column `i` swap with them), as LAPACK's `sytf2` does it.
fn interchange<T: Sc>(a: &mut [T], n: usize, herm: bool, i: usize, j: usize) {
    if i == j {
        return;
    }
    let (lo, hi) = a.split_at_mut(j * n);
    lo[i * n..i * n + i].swap_with_slice(&mut hi[..i]);
    for t in i + 1..j {
        let x = a[t * n + i];
        a[t * n + i] = a[j * n + t].cj(herm);
        a[j * n + t] = x.cj(herm);
    }
    a[j * n + i] = a[j * n + i].cj(herm);
    a.swap(i * n + i, j * n + j);
    for r in j + 1..n {
        a.swap(r * n + i, r * n + j);
    }
}

/// One matrix `m` (row-major, C order) in `T`: the triangle read copied into the lower triangle of
/// the scratch `a` (the upper form through the reversal `J A J`), factored, and SciPy's `lu`, `d`
/// and `perm` written into `out`, `dout` and `pout` (zeroed).
fn one<T: Sc>(
    m: &[T],
    n: usize,
    (lower, herm): (bool, bool),
    real_diag: impl Fn(T) -> T,
    (a, w): (&mut [T], &mut [T]),
    (out, dout, pout): (&mut [T], &mut [T], &mut [i64]),
) {
    for i in 0..n {
        for j in 0..=i {
            // the upper triangle's (n-1-i, n-1-j) is the reversal's lower (i, j)
            let z = if lower { m[i * n + j] } else { m[(n - 1 - i) * n + (n - 1 - j)] };
            a[i * n + j] = if herm && i == j { real_diag(z) } else { z };
        }
    }
    let (perm, two_at) = bunch_kaufman(a, n, herm, w);
    // A = Pᵀ L D L* P: lu = Pᵀ L (lu[perm] = L); for the upper form undo the reversal
    let rev = |i: usize| if lower { i } else { n - 1 - i };
    for i in 0..n {
        let row = rev(perm[i]) * n;
        // a 2 × 2 block ending at i: L's zero and D's off-diagonal pair at (i, i - 1)
        let block = i > 0 && two_at[i - 1];
        for j in 0..i {
            if !(block && j == i - 1) {
                out[row + rev(j)] = a[i * n + j];
            }
        }
        out[row + rev(i)] = T::ONE;
        dout[rev(i) * n + rev(i)] = a[i * n + i];
        if block {
            let z = a[i * n + i - 1];
            dout[rev(i) * n + rev(i - 1)] = z;
            dout[rev(i - 1) * n + rev(i)] = z.cj(herm);
        }
        pout[rev(i)] = rev(perm[i]) as i64;
    }
}

/// Every matrix of the C-order stack `v` (`count` of `n × n`), one per task: `(lu, d, perm)`.
fn factor_all<T: Sc>(
    v: &[T],
    n: usize,
    count: usize,
    flags: (bool, bool),
    real_diag: impl Fn(T) -> T + Sync,
) -> (Vec<T>, Vec<T>, Vec<i64>) {
    let nn = n * n;
    let (mut lu, mut dd, mut pp) = (vec![T::ZERO; count * nn], vec![T::ZERO; count * nn], vec![0i64; count * n]);
    if nn > 0 {
        lu.par_chunks_mut(nn).zip(dd.par_chunks_mut(nn)).zip(pp.par_chunks_mut(n)).zip(v.par_chunks(nn)).for_each_init(
            || (vec![T::ZERO; nn], vec![T::ZERO; 2 * n]),
            |(a, w), (((o, d), p), m)| one(m, n, flags, &real_diag, (a, w), (o, d, p)),
        );
    }
    (lu, dd, pp)
}

/// The LDLᵀ / LDLᴴ factorisation (SciPy `ldl(A, lower, hermitian)`) of the triangle `lower`
/// names (the other is not read; a Hermitian matrix's diagonal is taken as real), batched. The
/// input's dtype (integers as float64). Not square is [`xp_core::LinAlgKind::NotSquare`].
pub fn ldl(a: &Array, lower: bool, hermitian: bool) -> Result<Ldl> {
    let (x, n, _) = prepared("ldl", a, true)?;
    let herm = hermitian && x.dtype().is_complex();
    let dt = x.dtype();
    let count = if n == 0 { 0 } else { x.size() / (n * n) };
    let (lu, dd, pp) = if dt.is_complex() {
        let v = x.astype(DType::C128)?.to_vec::<C>()?;
        let (lu, dd, pp) = factor_all(&v, n, count, (lower, herm), |z: C| C::new(z.re, 0.0));
        (Array::from_vec(lu, x.shape())?, Array::from_vec(dd, x.shape())?, pp)
    } else {
        let v = x.astype(DType::F64)?.to_vec::<f64>()?;
        let (lu, dd, pp) = factor_all(&v, n, count, (lower, false), |z| z);
        (Array::from_vec(lu, x.shape())?, Array::from_vec(dd, x.shape())?, pp)
    };
    let shape = x.shape();
    let back = |v: Array| v.astype(dt)?.to_device(x.device());
    let perm = Array::from_vec(pp, &shape[..shape.len() - 1])?.to_device(x.device())?;
    Ok(Ldl { lu: back(lu)?, d: back(dd)?, perm })
}
