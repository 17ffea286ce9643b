//! Incomplete LU by rows with threshold dropping (Saad's ILUT): row `i` of `A` is reduced by
//! the rows of `U` already made, in increasing column order; a multiplier or a fill value
//! smaller than `drop_tol · ‖aᵢ‖₂` is dropped, and of the rest each of `L`'s and `U`'s parts of
//! the row keeps its `⌈fill_factor · nnz(aᵢ) / 2⌉` largest. No pivoting: a zero pivot is
//! replaced by `drop_tol · ‖aᵢ‖₂` (a zero row is singular).
use super::triangular::Rows;
use super::{on_num, rhs_of, Csc, Num, Trans};
use num_traits::{Float, Zero};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use xp_core::{Complex32, Complex64, Error, HostBuffer, LinAlgKind, Result};

/// One triangle by rows (the diagonal apart).
#[derive(Default)]
struct Tri<T> {
    ptr: Vec<usize>,
    idx: Vec<usize>,
    vals: Vec<T>,
}

impl<T: Num> Tri<T> {
    fn rows(&self) -> Rows<'_, T> {
        Rows { ptr: &self.ptr, idx: &self.idx, vals: &self.vals }
    }
}

struct Factors<T> {
    l: Tri<T>,
    u: Tri<T>,
    d: Vec<T>,
}

enum Inner {
    F32(Factors<f32>),
    F64(Factors<f64>),
    C64(Factors<Complex32>),
    C128(Factors<Complex64>),
}

/// An incomplete LU factorisation `A ≈ L U` (SciPy's `spilu`), `L` unit lower triangular.
pub struct Ilu {
    inner: Inner,
    n: usize,
}

impl std::fmt::Debug for Ilu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ilu").field("n", &self.n).field("nnz", &self.nnz()).finish()
    }
}

/// Keeps the `keep` largest of `row` by magnitude, then sorts them by column.
fn largest<T: Num>(row: &mut Vec<(usize, T)>, keep: usize) {
    if row.len() > keep {
        row.select_nth_unstable_by(keep, |a, b| b.1.abs().partial_cmp(&a.1.abs()).unwrap_or(std::cmp::Ordering::Equal));
        row.truncate(keep);
    }
    row.sort_unstable_by_key(|e| e.0);
}

fn factor<T: Num>(a: &Csc<'_>, v: &[T], drop_tol: f64, fill_factor: f64) -> Result<Factors<T>> {
    let n = a.n;
    let zero = T::default();
    let (mut w, mut seen) = (vec![zero; n], vec![false; n]);
    let (mut l, mut u) =
        (Tri::<T> { ptr: vec![0], ..Default::default() }, Tri::<T> { ptr: vec![0], ..Default::default() });
    let mut d = Vec::with_capacity(n);
    let tol_of = <T::Real as num_traits::NumCast>::from(drop_tol).unwrap_or_else(T::Real::zero);
    for i in 0..n {
        let r = a.ptr[i]..a.ptr[i + 1];
        let (cols, vals) = (&a.idx[r.clone()], &v[r]);
        let mut touched: Vec<usize> = cols.to_vec();
        let mut heap: BinaryHeap<Reverse<usize>> = BinaryHeap::new();
        let mut norm = T::Real::zero();
        for (&j, &x) in cols.iter().zip(vals) {
            w[j] = x;
            seen[j] = true;
            norm = norm + x.abs() * x.abs();
            if j < i {
                heap.push(Reverse(j));
            }
        }
        let tau = tol_of * norm.sqrt();
        let mut lrow = Vec::new();
        while let Some(Reverse(k)) = heap.pop() {
            let m = w[k] / d[k];
            w[k] = zero;
            if m.abs() < tau || m == zero {
                continue;
            }
            lrow.push((k, m));
            for p in u.ptr[k]..u.ptr[k + 1] {
                let j = u.idx[p];
                if !seen[j] {
                    seen[j] = true;
                    touched.push(j);
                    if j < i {
                        heap.push(Reverse(j));
                    }
                }
                w[j] = w[j] - m * u.vals[p];
            }
        }
        let mut urow: Vec<(usize, T)> = touched.iter().filter(|&&j| j > i).map(|&j| (j, w[j])).collect();
        urow.retain(|e| e.1.abs() >= tau && e.1 != zero);
        let keep = ((fill_factor * cols.len() as f64) / 2.0).ceil().max(1.0) as usize;
        largest(&mut lrow, keep);
        largest(&mut urow, keep);
        let mut di = if seen[i] { w[i] } else { zero };
        if di == zero {
            if tau == T::Real::zero() {
                return Err(Error::LinAlg { op: "spilu", kind: LinAlgKind::SingularColumn { column: i } });
            }
            di = T::from(tau).unwrap_or(zero);
        }
        d.push(di);
        for &j in &touched {
            w[j] = zero;
            seen[j] = false;
        }
        for (t, row) in [(&mut l, lrow), (&mut u, urow)] {
            for (j, x) in row {
                t.idx.push(j);
                t.vals.push(x);
            }
            t.ptr.push(t.idx.len());
        }
    }
    Ok(Factors { l, u, d })
}

impl<T: Num> Factors<T> {
    fn solve(&self, b: &[T], k: usize, trans: Trans) -> Vec<T> {
        let mut x = b.to_vec();
        let (l, u) = (self.l.rows(), self.u.rows());
        match trans {
            Trans::N => {
                l.solve(true, None, &mut x, k, false);
                u.solve(false, Some(&self.d), &mut x, k, false);
            }
            Trans::T | Trans::H => {
                let c = trans == Trans::H;
                u.solve_transposed(false, Some(&self.d), &mut x, k, c);
                l.solve_transposed(true, None, &mut x, k, c);
            }
        }
        x
    }
}

impl Ilu {
    /// ILUT of the matrix of rows `a` (CSR parts), dropping below `drop_tol · ‖aᵢ‖₂` and keeping
    /// about `fill_factor · nnz(A)` values in all.
    pub fn new(a: &Csc<'_>, drop_tol: f64, fill_factor: f64) -> Result<Ilu> {
        let inner = on_num!("spilu", a.values, v => Ok(match a.values {
            HostBuffer::F32(v) => Inner::F32(factor(a, v, drop_tol, fill_factor)?),
            HostBuffer::F64(v) => Inner::F64(factor(a, v, drop_tol, fill_factor)?),
            HostBuffer::C64(v) => Inner::C64(factor(a, v, drop_tol, fill_factor)?),
            HostBuffer::C128(v) => Inner::C128(factor(a, v, drop_tol, fill_factor)?),
            _ => { let _ = v; unreachable!("on_num! admits only these") }
        }))?;
        Ok(Ilu { inner, n: a.n })
    }
    /// `x` with `op(L U) x = b`, `b` of `nrhs` columns in C order and of the matrix's dtype.
    pub fn solve(&self, b: &HostBuffer, nrhs: usize, trans: Trans) -> Result<HostBuffer> {
        let want = self.n * nrhs;
        macro_rules! go {
            ($f:expr) => {
                Ok(xp_core::Element::into_buffer($f.solve(rhs_of("solve", b, want)?, nrhs, trans)))
            };
        }
        match &self.inner {
            Inner::F32(f) => go!(f),
            Inner::F64(f) => go!(f),
            Inner::C64(f) => go!(f),
            Inner::C128(f) => go!(f),
        }
    }
    /// The values stored in `L` and `U` (their unit and actual diagonals included).
    pub fn nnz(&self) -> usize {
        let c = |l: usize, u: usize| l + u + 2 * self.n;
        match &self.inner {
            Inner::F32(f) => c(f.l.idx.len(), f.u.idx.len()),
            Inner::F64(f) => c(f.l.idx.len(), f.u.idx.len()),
            Inner::C64(f) => c(f.l.idx.len(), f.u.idx.len()),
            Inner::C128(f) => c(f.l.idx.len(), f.u.idx.len()),
        }
    }
    /// The order of the matrix.
    pub fn n(&self) -> usize {
        self.n
    }
}
