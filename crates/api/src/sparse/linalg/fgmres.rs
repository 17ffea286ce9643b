//! The flexible GMRES cycle LGMRES and GCROT(m, k) share (SciPy's `_fgmres`): Arnoldi on
//! `lpsolve(A rpsolve(v))`, orthogonal first to the vectors `cs` (their coefficients kept in `B`),
//! optionally ending with given outer directions; the least-squares problem by Givens rotations
//! (SciPy updates a QR factorisation; the same triangle), the projections by [`Basis`].
use super::basis::Basis;
use super::gmres::{back_substitute, Rotations};
use super::system::Vecs;
use crate::Array;
use xp_core::{Complex64 as C, Result};

const ZERO: C = C::new(0.0, 0.0);

/// What a cycle built.
pub(crate) struct Cycle {
    /// the Arnoldi vectors `v_0 .. v_{j+1}`
    pub vs: Basis,
    /// the directions `z_i` (`rpsolve(v_i)`, or the outer ones)
    pub zs: Vec<Array>,
    /// the Hessenberg matrix's columns as computed (`hcols[i]` has `i + 2` entries)
    pub hcols: Vec<Vec<C>>,
    /// `B[c][i] = c_cᴴ w_i`, the components along the vectors `cs`
    pub b: Vec<Vec<C>>,
    /// the least-squares solution for a unit first vector
    pub y: Vec<C>,
    /// the estimated residual for a unit first vector
    pub res: f64,
}

impl Cycle {
    /// `H y`, the combination of `vs` it stands for is `Σ (H y)_i v_i`.
    pub fn h_times(&self, y: &[C]) -> Vec<C> {
        let mut out = vec![ZERO; self.hcols.len() + 1];
        for (col, &yc) in self.hcols.iter().zip(y) {
            for (o, &h) in out.iter_mut().zip(col) {
                *o += h * yc;
            }
        }
        out
    }
    /// `B y`.
    pub fn b_times(&self, y: &[C]) -> Vec<C> {
        self.b.iter().map(|row| row.iter().zip(y).map(|(&b, &yc)| b * yc).sum()).collect()
    }
}

/// The operators of a cycle.
pub(crate) struct Ops<'f> {
    pub matvec: &'f dyn Fn(&Array) -> Result<Array>,
    pub lpsolve: &'f dyn Fn(&Array) -> Result<Array>,
    pub rpsolve: &'f dyn Fn(&Array) -> Result<Array>,
}

/// At most `m` (plus the outer directions) Arnoldi steps from the unit vector `v0`, stopping
/// once the residual estimate falls below `atol` or the recurrence breaks down. `outer` are
/// LGMRES's `(z, A z)` pairs (their `A z` may be absent), used last.
pub(crate) fn fgmres(
    ops: &Ops,
    v: Vecs,
    v0: Array,
    m: usize,
    atol: f64,
    cs: &[Array],
    outer: &[(Array, Option<Array>)],
) -> Result<Cycle> {
    let m = m + outer.len();
    let eps = v.eps();
    let mut vs = Basis::new(&v0, m + 1, v)?;
    let cbasis = if cs.is_empty() { None } else { Some(Basis::of(cs, v)?) };
    let (mut zs, mut hcols) = (Vec::with_capacity(m), Vec::with_capacity(m));
    let mut b: Vec<Vec<C>> = vec![Vec::with_capacity(m); cs.len()];
    let mut rotated: Vec<Vec<C>> = Vec::with_capacity(m);
    let mut rot = Rotations::new(C::new(1.0, 0.0));
    let mut res = f64::NAN;
    for j in 0..m {
        let (z, given) = if j >= m - outer.len() {
            let (z, w) = &outer[j - (m - outer.len())];
            (z.clone(), w.clone())
        } else {
            ((ops.rpsolve)(&vs.get(vs.len() - 1)?)?, None)
        };
        let w = match given {
            Some(w) => w,
            None => (ops.lpsolve)(&(ops.matvec)(&z)?)?,
        };
        let w_norm = v.norm(&w)?;
        let w = match &cbasis {
            Some(cb) => {
                let (w, coef) = cb.orthogonalize(&w)?;
                for (row, c) in b.iter_mut().zip(coef) {
                    row.push(c);
                }
                w
            }
            None => w,
        };
        let (mut w, mut h) = vs.orthogonalize(&w)?;
        let hn = v.norm(&w)?;
        h.push(C::new(hn, 0.0));
        let inv = 1.0 / hn;
        if inv.is_finite() {
            w = v.scale(C::new(inv, 0.0), &w)?;
        }
        let breakdown = hn.is_nan() || hn <= eps * w_norm;
        vs.push(&w)?;
        zs.push(z);
        // the new column, rotated by the earlier rotations, then its own
        let mut r = h.clone();
        res = rot.add_column(&mut r);
        hcols.push(h);
        rotated.push(r);
        if res < atol || breakdown {
            break;
        }
    }
    let k = rotated.len() - 1;
    if !rotated[k][k].norm().is_finite() {
        return Err(xp_core::Error::LinAlg { op: "fgmres", kind: xp_core::LinAlgKind::NoConvergence { index: 0 } });
    }
    let y = back_substitute(&rotated, &rot.g, k);
    Ok(Cycle { vs, zs, hcols, b, y, res })
}
