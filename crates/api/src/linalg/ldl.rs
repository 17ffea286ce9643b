//! SciPy's `ldl`: the Bunch–Kaufman factorisation `A = L D Lᴴ` (Hermitian) or `A = L D Lᵀ`
//! (complex symmetric) of the triangle read, with symmetric pivoting and 1 × 1 or 2 × 2 blocks in
//! `D` (LAPACK's `sytrf`/`hetrf`), batched; computed on the host (in complex128) and returned as
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

/// `x` conjugated when `herm`.
fn cj(x: C, herm: bool) -> C {
    if herm {
        x.conj()
    } else {
        x
    }
}

/// `P A Pᵀ = L D L*` of the full row-major `a` (`n × n`, both triangles): `(L, D, perm)` with
/// row `i` of `P A Pᵀ` row `perm[i]` of `A`.
fn bunch_kaufman(mut a: Vec<C>, n: usize, herm: bool) -> (Vec<C>, Vec<C>, Vec<usize>) {
    let at = |i: usize, j: usize| i * n + j;
    let zero = C::new(0.0, 0.0);
    let mut l = vec![zero; n * n];
    let mut d = vec![zero; n * n];
    let mut perm: Vec<usize> = (0..n).collect();
    // swap rows and columns i, j (> k) of the trailing matrix, and rows i, j of L's columns done
    let swap = |a: &mut Vec<C>, l: &mut Vec<C>, perm: &mut Vec<usize>, i: usize, j: usize| {
        if i == j {
            return;
        }
        for c in 0..n {
            a.swap(at(i, c), at(j, c));
        }
        for r in 0..n {
            a.swap(at(r, i), at(r, j));
        }
        for c in 0..n {
            l.swap(at(i, c), at(j, c));
        }
        perm.swap(i, j);
    };
    let mut k = 0;
    while k < n {
        let (r, colmax) =
            (k + 1..n).map(|i| (i, a[at(i, k)].norm())).fold((k, 0.0), |b, x| if x.1 > b.1 { x } else { b });
        let absakk = a[at(k, k)].norm();
        let two = if absakk.max(colmax) == 0.0 || absakk >= ALPHA * colmax {
            false
        } else {
            let rowmax = (k..n).filter(|&j| j != r).map(|j| a[at(r, j)].norm()).fold(0.0, f64::max);
            if absakk >= ALPHA * colmax * (colmax / rowmax) {
                false
            } else if a[at(r, r)].norm() >= ALPHA * rowmax {
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
            l[at(k, k)] = C::new(1.0, 0.0);
            if dk != zero {
                for i in k + 1..n {
                    l[at(i, k)] = a[at(i, k)] / dk;
                }
                for i in k + 1..n {
                    for j in k + 1..n {
                        a[at(i, j)] -= l[at(i, k)] * dk * cj(l[at(j, k)], herm);
                    }
                }
            }
            k += 1;
        } else {
            let (p, q) = (k, k + 1);
            let (d11, d21, d12, d22) = (a[at(p, p)], a[at(q, p)], a[at(p, q)], a[at(q, q)]);
            for (i, j, v) in [(p, p, d11), (q, p, d21), (p, q, d12), (q, q, d22)] {
                d[at(i, j)] = v;
            }
            l[at(p, p)] = C::new(1.0, 0.0);
            l[at(q, q)] = C::new(1.0, 0.0);
            let det = d11 * d22 - d12 * d21;
            for i in k + 2..n {
                // [l_ip, l_iq] = [a_ip, a_iq] D⁻¹
                let (x, y) = (a[at(i, p)], a[at(i, q)]);
                l[at(i, p)] = (x * d22 - y * d21) / det;
                l[at(i, q)] = (y * d11 - x * d12) / det;
            }
            for i in k + 2..n {
                for j in k + 2..n {
                    let (li, lj) = ((l[at(i, p)], l[at(i, q)]), (cj(l[at(j, p)], herm), cj(l[at(j, q)], herm)));
                    let dl = (d11 * lj.0 + d12 * lj.1, d21 * lj.0 + d22 * lj.1);
                    a[at(i, j)] -= li.0 * dl.0 + li.1 * dl.1;
                }
            }
            k += 2;
        }
    }
    (l, d, perm)
}

/// The LDLᵀ / LDLᴴ factorisation (SciPy `ldl(A, lower, hermitian)`) of the triangle `lower`
/// names (the other is not read; a Hermitian matrix's diagonal is taken as real), batched. The
/// input's dtype (integers as float64). Not square is [`xp_core::LinAlgKind::NotSquare`].
pub fn ldl(a: &Array, lower: bool, hermitian: bool) -> Result<Ldl> {
    let (x, n, _) = prepared("ldl", a, true)?;
    let herm = hermitian && x.dtype().is_complex();
    let dt = x.dtype();
    let v = x.astype(DType::C128)?.to_vec::<C>()?;
    let count = if n == 0 { 0 } else { v.len() / (n * n) };
    let (mut lu, mut dd, mut pp) =
        (Vec::with_capacity(v.len()), Vec::with_capacity(v.len()), Vec::with_capacity(count * n));
    for m in v.chunks(n * n.max(1)).take(count) {
        // the full matrix from the triangle read; the upper form through the reversal J A J
        let src = |i: usize, j: usize| {
            let (i, j) = if lower { (i, j) } else { (n - 1 - i, n - 1 - j) };
            let (r, c, flip) = if (lower && i >= j) || (!lower && i <= j) { (i, j, false) } else { (j, i, true) };
            let z = m[r * n + c];
            let z = if flip { cj(z, herm) } else { z };
            if herm && r == c {
                C::new(z.re, 0.0)
            } else {
                z
            }
        };
        let full: Vec<C> = (0..n * n).map(|t| src(t / n, t % n)).collect();
        let (l, d, perm) = bunch_kaufman(full, n, herm);
        // A = Pᵀ L D L* P: lu = Pᵀ L (lu[perm] = L); for the upper form undo the reversal
        let mut out = vec![C::new(0.0, 0.0); n * n];
        let mut dout = vec![C::new(0.0, 0.0); n * n];
        let mut pout = vec![0i64; n];
        let rev = |i: usize| if lower { i } else { n - 1 - i };
        for i in 0..n {
            for j in 0..n {
                out[rev(perm[i]) * n + rev(j)] = l[i * n + j];
                dout[rev(i) * n + rev(j)] = d[i * n + j];
            }
            pout[rev(i)] = rev(perm[i]) as i64;
        }
        lu.extend(out);
        dd.extend(dout);
        pp.extend(pout);
    }
    let shape = x.shape();
    let back = |v: Vec<C>| Array::from_vec(v, shape)?.astype(dt)?.to_device(x.device());
    let perm = Array::from_vec(pp, &shape[..shape.len() - 1])?.to_device(x.device())?;
    Ok(Ldl { lu: back(lu)?, d: back(dd)?, perm })
}
