//! Restarted GMRES, as SciPy 1.17 writes it, on the preconditioned operator `M A`, but with the
//! Arnoldi vectors orthogonalised by classical Gram–Schmidt done twice ([`Basis`]: two
//! matrix–vector products and one wait a step, where SciPy's modified process waits once per
//! vector), Givens rotations on the host, the inner tolerance adapted
//! between restarts.
use super::basis::Basis;
use super::system::{make_system, Krylov, Solution, Status};
use super::LinearOperator;
use crate::Array;
use xp_core::Complex64 as C;
use xp_core::Result;

const ZERO: C = C::new(0.0, 0.0);

/// LAPACK's `lartg`: `(c, s, r)` with `c` real, `[c s; −s̄ c] [f; g] = [r; 0]`.
fn lartg(f: C, g: C) -> (f64, C, C) {
    if g == ZERO {
        return (1.0, ZERO, f);
    }
    if f == ZERO {
        let gn = g.norm();
        return (0.0, g.conj() / gn, C::new(gn, 0.0));
    }
    let (fa, d) = (f.norm(), f.norm().hypot(g.norm()));
    let phase = f / fa;
    (fa / d, phase * g.conj() / d, phase * d)
}

/// The Givens rotations that make an Arnoldi process's Hessenberg matrix upper triangular, and
/// the right-hand side `g` they rotate (`β e₁` at the start).
pub(crate) struct Rotations {
    givens: Vec<(f64, C)>,
    /// the rotated right-hand side, one entry longer than the columns added
    pub g: Vec<C>,
}

impl Rotations {
    /// No column yet, `g = [g0]`.
    pub fn new(g0: C) -> Rotations {
        Rotations { givens: vec![], g: vec![g0] }
    }
    /// Rotate the new column `col` (its `j + 2` entries) by the earlier rotations, then by its
    /// own, which zeroes its last entry; returns the residual estimate `|g_{j+1}|`.
    pub fn add_column(&mut self, col: &mut [C]) -> f64 {
        let j = self.givens.len();
        for (k, &(cs, sn)) in self.givens.iter().enumerate() {
            let (n0, n1) = (col[k], col[k + 1]);
            col[k] = n0 * cs + sn * n1;
            col[k + 1] = -sn.conj() * n0 + n1 * cs;
        }
        let (cs, sn, mag) = lartg(col[j], col[j + 1]);
        self.givens.push((cs, sn));
        col[j] = mag;
        col[j + 1] = ZERO;
        let t = -sn.conj() * self.g[j];
        self.g[j] *= cs;
        self.g.push(t);
        t.norm()
    }
}

/// Upper-triangular solve of the rotated Hessenberg matrix (`h[col][row]`) against `s`.
pub(crate) fn back_substitute(h: &[Vec<C>], s: &[C], k: usize) -> Vec<C> {
    let mut y = s[..=k].to_vec();
    for i in (0..=k).rev() {
        if y[i] != ZERO {
            y[i] /= h[i][i];
            let t = y[i];
            for j in 0..i {
                y[j] -= t * h[i][j];
            }
        }
    }
    y
}

/// Solves `A x = b` by restarted GMRES (SciPy's `gmres`): `restart` (default 20) inner steps
/// per cycle, at most `maxiter` cycles (default `10 n`). `Solution::iterations` counts the
/// inner steps; the callback sees `x` after each cycle (SciPy's `callback_type='x'`).
///
/// ```
/// use xp::sparse::linalg::{gmres, Krylov};
/// let d = |v: f64| xp::Array::from_vec(vec![v], &[1]).unwrap();
/// let a = xp::sparse::diags_array(&[&d(-1.0), &d(3.0), &d(-0.5)], &[-1, 0, 1], Some([40, 40]), None, xp::sparse::Format::Csr).unwrap();
/// let b = xp::ones(&[40], xp::DType::F64).unwrap();
/// let sol = gmres(&a, &b, Krylov { rtol: 1e-10, restart: Some(10), ..Default::default() }).unwrap();
/// assert!(sol.converged());
/// ```
pub fn gmres<'a>(a: &'a dyn LinearOperator, b: &Array, mut opts: Krylov<'a>) -> Result<Solution> {
    let mut s = make_system("gmres", a, b, &opts)?;
    let v = s.v;
    let n = s.n;
    let bnorm = v.norm(&s.b)?;
    let atol = s.tolerance(&opts, bnorm);
    if bnorm == 0.0 {
        s.x = s.b.clone();
        return s.done(Status::Converged, 0, 0.0);
    }
    let eps = v.eps();
    let maxiter = opts.maxiter.unwrap_or(10 * n);
    let restart = opts.restart.unwrap_or(20).clamp(1, n.max(1));
    let mb = v.norm(&s.psolve(&s.b)?)?;
    let mut ptol_max = 1.0f64;
    let mut ptol = mb * ptol_max.min(atol / bnorm);
    let mut r = s.residual()?;
    let mut rnorm = v.norm(&r)?;
    if rnorm < atol {
        return s.done(Status::Converged, 0, rnorm);
    }
    let mut inner = 0usize;
    for _ in 0..maxiter {
        let z = s.psolve(&r)?;
        let znorm = v.norm(&z)?;
        let mut basis = Basis::new(&v.scale(C::new(1.0 / znorm, 0.0), &z)?, restart + 1, v)?;
        let mut h: Vec<Vec<C>> = Vec::with_capacity(restart);
        let mut rot = Rotations::new(C::new(znorm, 0.0));
        let mut presid = 0.0f64;
        let mut breakdown = false;
        let mut col = 0;
        for c in 0..restart {
            col = c;
            let w = s.psolve(&s.matvec(&basis.get(c)?)?)?;
            let h0 = v.norm(&w)?;
            let (w, mut hc) = basis.orthogonalize(&w)?;
            let h1 = v.norm(&w)?;
            hc.push(C::new(h1, 0.0));
            if h1 <= eps * h0 {
                hc[c + 1] = ZERO;
                breakdown = true;
                basis.push(&w)?;
            } else {
                basis.push(&v.scale(C::new(1.0 / h1, 0.0), &w)?)?;
            }
            presid = rot.add_column(&mut hc);
            h.push(hc);
            inner += 1;
            if presid <= ptol || breakdown {
                break;
            }
        }
        if h[col][col] == ZERO {
            rot.g[col] = ZERO;
        }
        let y = back_substitute(&h, &rot.g, col);
        s.x = s.x.add(&basis.combine(&y)?)?;
        r = s.b.sub(&s.matvec(&s.x)?)?;
        rnorm = v.norm(&r)?;
        opts.notify(&s.x);
        if rnorm <= atol || breakdown {
            break;
        } else if presid <= ptol {
            ptol_max = eps.max(0.25 * ptol_max);
        } else {
            ptol_max = (1.5 * ptol_max).min(1.0);
        }
        ptol = presid * ptol_max.min(atol / rnorm);
    }
    let status = if rnorm <= atol { Status::Converged } else { Status::MaxIter };
    s.done(status, inner, rnorm)
}
