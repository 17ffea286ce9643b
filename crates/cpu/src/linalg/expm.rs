//! The `[m/m]` Padé approximant of the matrix exponential, `r_m(A) = (V − U)⁻¹ (V + U)`, with
//! Higham's (2005) evaluation: the even powers of `A` by GEMM, every linear combination of them
//! in one pass (no temporaries per term, the identity added on the diagonal), the degree-13
//! products accumulated into their combinations (GEMM with `C +=`), the two independent ones run
//! one per core, and the solve through the blocked LU of `lu_factor.rs`. The front end scales
//! and squares; composed of its own products, sums and `solve` these cost a quarter more on the
//! 2-core VM (1024², 18 array temporaries and their page faults).
use super::lu_factor::solve_in_place;
use super::stack::{c_order, into_chunks, zeroed, Stack};
use super::Field;
use faer::{Accum, MatMut, MatRef, Par};
use rayon::prelude::*;
use xp_core::{Layout, LinAlgKind, Result};

/// `r_m(A)` for every matrix of the stack, `b` holding the coefficients `b_0..b_m` (m odd).
pub(crate) fn pade<T: Field>(a: &[T], al: &Layout, b: &[f64]) -> Result<Vec<T>> {
    let sa = Stack::new(al);
    let n = sa.rows;
    let par = super::stack::seq_in_stack(sa.len());
    into_chunks("expm", sa.len(), n * n, |i, out| {
        let a = c_order(sa.view(a, i), |x| x);
        let ok = one(&a, n, b, par, out);
        recycle([a]);
        ok.then_some(()).ok_or(LinAlgKind::Singular { index: i })
    })
}

/// Give temporaries back to the host pool: the next call's reuse them instead of faulting in
/// fresh pages (a twentieth of a 1024² call).
fn recycle<T: Field>(vs: impl IntoIterator<Item = Vec<T>>) {
    vs.into_iter().for_each(|v| crate::pool::give(T::into_buffer(v)));
}

/// `r_m(A)` of one row-major `n × n` matrix into `out`; false when `V − U` is singular.
fn one<T: Field>(a: &[T], n: usize, b: &[f64], par: Par, out: &mut [T]) -> bool {
    let m = b.len() - 1;
    // A², A⁴, … up to A⁶ for degree 13 (Higham's splitting), up to A^(m−1) below it
    let count = if m == 13 { 3 } else { (m - 1) / 2 };
    let mut pw = vec![product(a, a, n, par)];
    while pw.len() < count {
        let next = product(&pw[pw.len() - 1], &pw[0], n, par);
        pw.push(next);
    }
    let ps: Vec<&[T]> = pw.iter().map(Vec::as_slice).collect();
    // U's inner sum (without the last product by A) and V
    let (mut inner, mut v) = (combine(&ps, &b[3..], b[1], n, par), combine(&ps, &b[2..], b[0], n, par));
    if m == 13 {
        // plus A⁶ (b13 A⁶ + b11 A⁴ + b9 A²) and A⁶ (b12 A⁶ + b10 A⁴ + b8 A²): independent
        // products, one per core beats both split over the cores
        let (wu, wv) = (combine(&ps, &b[9..], 0.0, n, par), combine(&ps, &b[8..], 0.0, n, par));
        let a6 = ps[2];
        let mut add_u = || gemm(&mut inner, Accum::Add, a6, &wu, n, Par::Seq);
        let mut add_v = || gemm(&mut v, Accum::Add, a6, &wv, n, Par::Seq);
        if matches!(par, Par::Seq) {
            add_u();
            add_v();
        } else {
            rayon::join(add_u, add_v);
        }
        recycle([wu, wv]);
    }
    recycle(pw);
    let u = out;
    gemm(u, Accum::Replace, a, &inner, n, par);
    // V − U into v, V + U into u
    for_rows(&mut v, u, n, par, |q, p| {
        for (x, y) in q.iter_mut().zip(p.iter_mut()) {
            let (vv, uu) = (*x, *y);
            *x = vv - uu;
            *y = vv + uu;
        }
    });
    let ok = solve_in_place(&mut v, n, u, n, par);
    recycle([v, inner]);
    ok
}

/// `X Y` (row-major `n × n`).
fn product<T: Field>(x: &[T], y: &[T], n: usize, par: Par) -> Vec<T> {
    let mut c = zeroed(n * n);
    gemm(&mut c, Accum::Replace, x, y, n, par);
    c
}

/// `C = X Y` or `C += X Y` (row-major `n × n`).
fn gemm<T: Field>(c: &mut [T], accum: Accum, x: &[T], y: &[T], n: usize, par: Par) {
    let (x, y) = (MatRef::from_row_major_slice(x, n, n), MatRef::from_row_major_slice(y, n, n));
    faer::linalg::matmul::matmul(MatMut::from_row_major_slice_mut(c, n, n), accum, x, y, T::of(1.0, 0.0), par);
}

/// `Σ_j c[2j] P_j + d I`: the coefficients of consecutive even powers `P_j` are every other
/// entry of `c` (the Padé coefficients from the first power's on), in one pass.
fn combine<T: Field>(pw: &[&[T]], c: &[f64], d: f64, n: usize, par: Par) -> Vec<T> {
    let mut out = zeroed(n * n);
    let rows = rows_per_task(n);
    let body = |(t, o): (usize, &mut [T])| {
        let off = t * rows * n;
        for (j, p) in pw.iter().enumerate() {
            let (p, s) = (&p[off..off + o.len()], c[2 * j]);
            if j == 0 {
                o.iter_mut().zip(p).for_each(|(x, &y)| *x = y.scale(s));
            } else {
                o.iter_mut().zip(p).for_each(|(x, &y)| *x += y.scale(s));
            }
        }
        for r in 0..o.len() / n {
            let i = t * rows + r;
            o[r * n + i] += T::of(d, 0.0);
        }
    };
    if matches!(par, Par::Seq) {
        out.chunks_mut(rows * n).enumerate().for_each(body);
    } else {
        out.par_chunks_mut(rows * n).enumerate().for_each(body);
    }
    out
}

/// Rows per task of the one-pass loops: about 16 K elements (the operands' pieces stay in L1/L2).
fn rows_per_task(n: usize) -> usize {
    (16384 / n.max(1)).max(1)
}

/// `f` over matching row blocks of two row-major `n`-column buffers of one length, in parallel
/// unless `par` is sequential.
fn for_rows<T: Field>(x: &mut [T], y: &mut [T], n: usize, par: Par, f: impl Fn(&mut [T], &mut [T]) + Sync) {
    let len = rows_per_task(n) * n;
    if matches!(par, Par::Seq) {
        x.chunks_mut(len).zip(y.chunks_mut(len)).for_each(|(a, b)| f(a, b));
    } else {
        x.par_chunks_mut(len).zip(y.par_chunks_mut(len)).for_each(|(a, b)| f(a, b));
    }
}
