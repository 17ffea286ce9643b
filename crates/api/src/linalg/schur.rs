//! SciPy's Schur and Hessenberg forms: `schur`, `rsf2csf`, `hessenberg`, batched over leading
//! axes. They run on the host (faer's blocked Hessenberg reduction and multishift QR; cuSOLVER
//! has no Schur form and CuPy offers none): an array on a GPU is copied to the host and its
//! factors back.
//!
//! ```
//! use xp::linalg::{self, SchurOutput};
//! let a = xp::Array::from_vec(vec![1.0f64, 2.0, -3.0, 4.0], &[2, 2]).unwrap();  // eigenvalues 2.5 ± 1.9i
//! let f = linalg::schur(&a, SchurOutput::Complex).unwrap();                     // A = Z T Zᴴ
//! let zh = xp::linalg::matrix_transpose(&f.z).unwrap().conj().unwrap();
//! let back = xp::matmul(&xp::matmul(&f.z, &f.t).unwrap(), &zh).unwrap();
//! assert!(xp::allclose(&back, &a.astype(xp::DType::C128).unwrap()).unwrap());
//! ```
use super::{batch, prepared, with_tail};
use crate::backend::on_storage_map;
use crate::{Array, Device};
use xp_core::{Complex64, DType, Error, LinalgStorage, Result};

/// SciPy's `schur(output=)`: the real quasi-triangular form or the complex triangular one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SchurOutput {
    /// real input: `T` quasi-triangular with a standardised 2 × 2 block per complex-conjugate
    /// eigenvalue pair (complex input gives the complex form)
    #[default]
    Real,
    /// `T` upper triangular and complex, whatever the input
    Complex,
}

impl std::str::FromStr for SchurOutput {
    type Err = Error;
    /// SciPy's names: `"real"`/`"r"`, `"complex"`/`"c"`.
    fn from_str(s: &str) -> Result<SchurOutput> {
        match s {
            "real" | "r" => Ok(SchurOutput::Real),
            "complex" | "c" => Ok(SchurOutput::Complex),
            _ => Err(Error::InvalidArgument {
                op: "schur",
                msg: format!("argument must be 'real', or 'complex', got {s:?}"),
            }),
        }
    }
}

/// The factors of [`schur`]: `A = Z T Zᴴ`.
#[derive(Clone, Debug)]
pub struct Schur {
    /// the Schur form `(.., n, n)`
    pub t: Array,
    /// the unitary Schur vectors `(.., n, n)`, as columns
    pub z: Array,
}

/// The factors of [`hessenberg`]: `A = Q H Qᴴ`.
#[derive(Clone, Debug)]
pub struct Hessenberg {
    /// upper Hessenberg `(.., n, n)`, zero below the first subdiagonal
    pub h: Array,
    /// the unitary factor `(.., n, n)`, when asked for
    pub q: Option<Array>,
}

/// Runs `f` on a host copy of `x` and brings every array it returns back to `x`'s device.
pub(crate) fn on_host<const N: usize>(x: &Array, f: impl FnOnce(&Array) -> Result<[Array; N]>) -> Result<[Array; N]> {
    let dev = x.device();
    if dev == Device::Cpu {
        return f(x);
    }
    let out = f(&x.to_device(Device::Cpu)?)?;
    let mut back = Vec::with_capacity(N);
    for a in out {
        back.push(a.to_device(dev)?);
    }
    Ok(back.try_into().unwrap_or_else(|_| unreachable!("N arrays in, N out")))
}

/// The Schur decomposition (SciPy `schur(a, output)`, LAPACK's `gees` without sorting): `T`
/// and `Z` of the input's dtype (bool and integers as float64), complex of the same precision
/// for [`SchurOutput::Complex`] on real input. Not square is [`xp_core::LinAlgKind::NotSquare`];
/// no convergence of the QR iteration [`xp_core::LinAlgKind::NoConvergence`].
pub fn schur(a: &Array, output: SchurOutput) -> Result<Schur> {
    let (x, n, _) = prepared("schur", a, true)?;
    let complex = output == SchurOutput::Complex && !x.dtype().is_complex();
    let dt = if complex { x.dtype().to_complex() } else { x.dtype() };
    let shape = with_tail(batch(&x), &[n, n]);
    if x.size() == 0 {
        let e = super::decomp::eye_stack(&x, batch(&x), n, n, dt)?;
        return Ok(Schur { t: crate::on(x.device()).zeros(&shape, dt)?, z: e });
    }
    let [t, z] = on_host(&x, |h| {
        let f = on_storage_map!(&*h.read(), s => s.schur(&h.layout, complex))?;
        Ok([Array::from_storage(f.t, &shape), Array::from_storage(f.z, &shape)])
    })?;
    Ok(Schur { t, z })
}

/// The Hessenberg decomposition (SciPy `hessenberg(a, calc_q)`, Householder reflections as
/// LAPACK's `gehrd`): `H` and, when `calc_q`, `Q`, of the input's dtype.
pub fn hessenberg(a: &Array, calc_q: bool) -> Result<Hessenberg> {
    let (x, n, _) = prepared("hessenberg", a, true)?;
    let shape = with_tail(batch(&x), &[n, n]);
    if x.size() == 0 {
        let q = calc_q.then(|| super::decomp::eye_stack(&x, batch(&x), n, n, x.dtype())).transpose()?;
        return Ok(Hessenberg { h: x.copy()?, q });
    }
    let out = on_host(&x, |h| {
        let f = on_storage_map!(&*h.read(), s => s.hessenberg(&h.layout, calc_q))?;
        let q = f.q.map(|q| Array::from_storage(q, &shape));
        let hh = Array::from_storage(f.h, &shape);
        Ok([hh.clone(), q.unwrap_or(hh)])
    })?;
    let [h, q] = out;
    Ok(Hessenberg { h, q: calc_q.then_some(q) })
}

/// The complex Schur form from a real one (SciPy `rsf2csf(T, Z)`): each standardised 2 × 2 block
/// of `T` is split by a Givens rotation, which `Z` takes up; complex128 (complex64 for float32
/// input) out. `T` and `Z` are stacks of one square shape.
pub fn rsf2csf(t: &Array, z: &Array) -> Result<Schur> {
    let (tt, n, _) = prepared("rsf2csf", t, true)?;
    let (zz, _, _) = prepared("rsf2csf", z, true)?;
    if tt.shape() != zz.shape() {
        return Err(Error::InvalidArgument {
            op: "rsf2csf",
            msg: format!("matrices must be same dimension, got T {:?} and Z {:?}", t.shape(), z.shape()),
        });
    }
    let dt = tt.dtype().to_complex();
    let (mut tv, mut zv) = (host_c128(&tt)?, host_c128(&zz)?);
    for (tm, zm) in tv.chunks_mut(n * n.max(1)).zip(zv.chunks_mut(n * n.max(1))) {
        split_blocks(tm, zm, n, eps_of(dt));
    }
    let back = |v: Vec<Complex64>| Array::from_vec(v, tt.shape())?.astype(dt)?.to_device(t.device());
    Ok(Schur { t: back(tv)?, z: back(zv)? })
}

/// The elements of `a` as complex128, C order, on the host.
pub(crate) fn host_c128(a: &Array) -> Result<Vec<Complex64>> {
    a.astype(DType::C128)?.to_vec::<Complex64>()
}

/// Machine epsilon of `d`'s precision.
pub(crate) fn eps_of(d: DType) -> f64 {
    if matches!(d, DType::F32 | DType::C64) {
        f32::EPSILON as f64
    } else {
        f64::EPSILON
    }
}

/// SciPy's `rsf2csf` on one row-major `n × n` pair in place: every subdiagonal entry of `t`
/// larger than `eps` times its neighbours on the diagonal (a 2 × 2 block) is rotated away, and
/// `t` is left upper triangular.
pub(crate) fn split_blocks(t: &mut [Complex64], z: &mut [Complex64], n: usize, eps: f64) {
    let at = |i: usize, j: usize| i * n + j;
    for m in (1..n).rev() {
        let sub = t[at(m, m - 1)];
        if sub.norm() > eps * (t[at(m - 1, m - 1)].norm() + t[at(m, m)].norm()) {
            // an eigenvalue of the block, less t[m, m]
            let (a, b, c, d) = (t[at(m - 1, m - 1)], t[at(m - 1, m)], t[at(m, m - 1)], t[at(m, m)]);
            let half = (a - d) * 0.5;
            let mu = half + (half * half + b * c).sqrt();
            let r = (mu.norm_sqr() + sub.norm_sqr()).sqrt();
            let (cs, sn) = (mu / r, sub / r);
            // G = [[conj(c), s], [-s, c]] on rows m-1, m from column m-1 on
            for j in m - 1..n {
                let (x, y) = (t[at(m - 1, j)], t[at(m, j)]);
                t[at(m - 1, j)] = cs.conj() * x + sn * y;
                t[at(m, j)] = -sn * x + cs * y;
            }
            // Gᴴ on columns m-1, m of T (rows 0..=m) and of Z
            for (mat, rows) in [(&mut *t, m + 1), (&mut *z, n)] {
                for i in 0..rows {
                    let (x, y) = (mat[at(i, m - 1)], mat[at(i, m)]);
                    mat[at(i, m - 1)] = x * cs + y * sn.conj();
                    mat[at(i, m)] = -x * sn.conj() + y * cs.conj();
                }
            }
        }
        t[at(m, m - 1)] = Complex64::new(0.0, 0.0);
    }
}
