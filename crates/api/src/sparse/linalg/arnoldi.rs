//! The restarted Krylov space under `eigsh`, `eigs` and `svds`: an orthonormal basis `V` (rows
//! of one array, fully reorthogonalised by classical Gram–Schmidt done twice) with the explicit
//! projection `H = Vᴴ A V` kept on the host, and the residual direction `f` with
//! `A V = V H + f rᵀ`. A thick restart keeps `V W` for `W` orthonormal (`m × l`): `H ← Wᴴ H W`,
//! `r ← Wᵀ r`, which holds for Hermitian (Lanczos, `W` real Ritz vectors) and general (Arnoldi,
//! `W` an orthonormal basis of the wanted Ritz vectors) operators alike. A breakdown (`f ≈ 0`:
//! an invariant subspace, as every vector is for the identity) continues from a random vector,
//! which is also how a converged space is checked for missing copies of a multiple eigenvalue.
use super::basis::Basis;
use super::system::Vecs;
use crate::Array;
use xp_core::{Complex64 as C, Device, Result};

/// The operator a space is built with.
pub(crate) type Apply<'a> = &'a dyn Fn(&Array) -> Result<Array>;

pub(crate) struct Space<'a> {
    op: Apply<'a>,
    pub basis: Basis,
    /// `H[p][q] = v_pᴴ A v_q`, `cap × cap` row-major
    h: Vec<C>,
    pub cap: usize,
    /// the next direction, orthogonal to the basis
    f: Array,
    /// the coefficients `r` of `f` in `A V = V H + f rᵀ`
    r: Vec<C>,
    pub v: Vecs,
    n: usize,
    device: Device,
    seed: u64,
    /// operator applications so far
    pub matvecs: usize,
    /// `‖A v‖` of the step that made `f` (0 before any): `‖f‖` far below it is a breakdown
    fscale: f64,
}

/// Uniform values in [-1, 1) from a 64-bit LCG (the same on every device).
pub(crate) fn random_vector(n: usize, seed: u64, v: Vecs, device: Device) -> Result<Array> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut next = || {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    };
    let re: Vec<f64> = (0..n).map(|_| next()).collect();
    let a = if v.dtype.is_complex() {
        let z: Vec<C> = re.iter().map(|&x| C::new(x, next())).collect();
        Array::from_vec(z, [n])?
    } else {
        Array::from_vec(re, [n])?
    };
    a.astype(v.dtype)?.to_device(device)
}

impl<'a> Space<'a> {
    /// An empty space of up to `cap` vectors whose first direction is `v0`.
    pub fn new(op: Apply<'a>, v0: Array, cap: usize, v: Vecs) -> Result<Space<'a>> {
        let (n, device) = (v0.shape()[0], v0.device());
        let f = v.cast(v0)?;
        let basis = Basis::empty(&f, cap, v)?;
        Ok(Space {
            op,
            basis,
            h: vec![C::new(0.0, 0.0); cap * cap],
            cap,
            f,
            r: vec![],
            v,
            n,
            device,
            seed: 7,
            matvecs: 0,
            fscale: 0.0,
        })
    }
    pub fn len(&self) -> usize {
        self.basis.len()
    }
    /// `H[p][q]`.
    pub fn h(&self, p: usize, q: usize) -> C {
        self.h[p * self.cap + q]
    }
    /// `‖f‖` and `r` of `A V = V H + f rᵀ`.
    pub fn residual(&self) -> Result<(f64, Vec<C>)> {
        let mut r = self.r.clone();
        r.resize(self.len(), C::new(0.0, 0.0));
        Ok((self.v.norm(&self.f)?, r))
    }
    fn random(&mut self) -> Result<Array> {
        self.seed += 1;
        let w = random_vector(self.n, self.seed, self.v, self.device)?;
        Ok(self.basis.orthogonalize(&w)?.0)
    }
    /// Grows the basis to `m` vectors (at most `cap`).
    pub fn extend(&mut self, m: usize) -> Result<()> {
        let m = m.min(self.cap).min(self.n);
        while self.len() < m {
            let j = self.len();
            let mut beta = self.v.norm(&self.f)?;
            // a breakdown: `f` is rounding noise of `A v` (the space is invariant); continue
            // from a random direction
            if beta <= 16.0 * self.v.eps() * self.fscale || beta == 0.0 {
                self.f = self.random()?;
                self.r.clear();
                beta = self.v.norm(&self.f)?;
            }
            let vj = self.v.scale(C::new(1.0 / beta, 0.0), &self.f)?;
            self.basis.push(&vj)?;
            for q in 0..j {
                let c = self.r.get(q).copied().unwrap_or_default() * beta;
                self.h[j * self.cap + q] = c;
            }
            let w = self.v.cast((self.op)(&vj)?)?;
            self.matvecs += 1;
            let (mut w, mut hcol) = self.basis.orthogonalize(&w)?;
            let (b, h2) = (self.v.norm(&w)?, hcol.iter().map(|c| c.norm_sqr()).sum::<f64>());
            self.fscale = (b * b + h2).sqrt();
            if b < 1e-4 * self.fscale {
                // heavy cancellation: Gram–Schmidt twice leaves `f` orthogonal only relative to
                // `‖A v‖`; a third pass makes it orthogonal relative to itself
                let (w3, h3) = self.basis.orthogonalize(&w)?;
                w = w3;
                hcol.iter_mut().zip(h3).for_each(|(a, b)| *a += b);
            }
            for (p, c) in hcol.into_iter().enumerate() {
                self.h[p * self.cap + j] = c;
            }
            self.f = w;
            self.r = vec![C::new(0.0, 0.0); j + 1];
            self.r[j] = C::new(1.0, 0.0);
        }
        Ok(())
    }
    /// The projection `H` of the first `m` vectors, `m × m` row-major; made Hermitian
    /// (`(H + Hᴴ)/2`) for a Hermitian operator.
    pub fn projection(&self, hermitian: bool) -> Vec<C> {
        let m = self.len();
        let mut out = vec![C::new(0.0, 0.0); m * m];
        for p in 0..m {
            for q in 0..m {
                out[p * m + q] = if hermitian { (self.h(p, q) + self.h(q, p).conj()) * 0.5 } else { self.h(p, q) };
            }
        }
        out
    }
    /// Keeps `V W` for `W` (`m × l` row-major, orthonormal columns): `H ← Wᴴ H W`, `r ← Wᵀ r`;
    /// with `fresh` the next direction is a random one instead of `f` (its coupling dropped).
    pub fn restart(&mut self, w: &[C], l: usize, hermitian: bool, fresh: bool) -> Result<()> {
        let m = self.len();
        // H' = Wᴴ H W by two host products (a loop here cost seconds at m = 601 in debug builds)
        let hm = Array::from_vec(self.projection(hermitian), [m, m])?;
        let wa = Array::from_vec(w.to_vec(), [m, l])?;
        let hp = wa.conj()?.t()?.matmul(&hm.matmul(&wa)?)?.to_vec::<C>()?;
        self.h.iter_mut().for_each(|x| *x = C::new(0.0, 0.0));
        for p in 0..l {
            self.h[p * self.cap..p * self.cap + l].copy_from_slice(&hp[p * l..(p + 1) * l]);
        }
        let (_, r) = self.residual()?;
        self.r = (0..l).map(|q| (0..m).map(|k| r[k] * w[k * l + q]).sum()).collect();
        self.basis.rotate(w, l)?;
        if fresh {
            self.f = self.random()?;
            self.r.clear();
        }
        Ok(())
    }
    /// `V W` for `W` (`m × l` row-major): the Ritz vectors as the rows of an `(l, n)` array.
    pub fn vectors(&self, w: &[C], l: usize) -> Result<Array> {
        self.basis.rows_times(w, l)
    }
}
