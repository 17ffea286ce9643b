//! An orthonormal basis kept as the rows of one 2-D array, so that projecting a vector on it is
//! two matrix–vector products (classical Gram–Schmidt, done twice: as accurate as the modified
//! process SciPy runs, which needs one inner product and one wait per basis vector).
use super::system::Vecs;
use crate::{s, Array};
use xp_core::{Complex64 as C, Result};

/// The basis vectors `v_0 .. v_{len-1}` as the first rows of `rows`.
pub(crate) struct Basis {
    rows: Array,
    len: usize,
    v: Vecs,
}

impl Basis {
    /// Room for `cap` vectors of the length of `first`, `first` the first of them.
    pub fn new(first: &Array, cap: usize, v: Vecs) -> Result<Basis> {
        let n = first.shape()[0];
        let rows = crate::creation::full_on(first.device(), &[cap.max(1), n], 0, v.dtype)?;
        let mut b = Basis { rows, len: 0, v };
        b.push(first)?;
        Ok(b)
    }
    /// The given vectors (at least one).
    pub fn of(vectors: &[Array], v: Vecs) -> Result<Basis> {
        let rows = crate::stack(&vectors.iter().collect::<Vec<_>>(), 0)?;
        Ok(Basis { len: vectors.len(), rows, v })
    }
    /// How many vectors.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Append `w` (there must be room).
    pub fn push(&mut self, w: &Array) -> Result<()> {
        self.rows.slice(s![self.len as isize, ..])?.assign(w)?;
        self.len += 1;
        Ok(())
    }
    /// Vector `i`.
    pub fn get(&self, i: usize) -> Result<Array> {
        self.rows.slice(s![i as isize, ..])
    }
    fn active(&self) -> Result<Array> {
        self.rows.slice(s![..self.len as isize, ..])
    }
    /// `Vᴴ w` on the device.
    fn coefficients(&self, vs: &Array, w: &Array) -> Result<Array> {
        if self.v.dtype.is_complex() {
            vs.matmul(&w.conj()?)?.conj()
        } else {
            vs.matmul(w)
        }
    }
    /// `w` less its components along the basis (twice over), and those components `Vᴴ w`.
    pub fn orthogonalize(&self, w: &Array) -> Result<(Array, Vec<C>)> {
        if self.len == 0 {
            return Ok((w.clone(), vec![]));
        }
        // `Vᵀ h` as `h V`: the rows stay rows (a transposed view made the CPU's product copy
        // the basis twice a step)
        let vs = self.active()?;
        let h1 = self.coefficients(&vs, w)?;
        let w1 = w.sub(&h1.matmul(&vs)?)?;
        let h2 = self.coefficients(&vs, &w1)?;
        let w2 = w1.sub(&h2.matmul(&vs)?)?;
        let h = h1.add(&h2)?.astype(xp_core::DType::C128)?.to_vec::<C>()?;
        Ok((w2, h))
    }
    /// `Σ y_i v_i` over the first `y.len()` vectors.
    pub fn combine(&self, y: &[C]) -> Result<Array> {
        let k = y.len().min(self.len);
        let coef = if self.v.dtype.is_complex() {
            Array::from_vec(y[..k].to_vec(), [k])?
        } else {
            Array::from_vec(y[..k].iter().map(|c| c.re).collect::<Vec<f64>>(), [k])?
        };
        let coef = coef.astype(self.v.dtype)?.to_device(self.rows.device())?;
        coef.matmul(&self.rows.slice(s![..k as isize, ..])?)
    }
}

impl Basis {
    /// Room for `cap` vectors like `like`, none yet.
    pub fn empty(like: &Array, cap: usize, v: Vecs) -> Result<Basis> {
        let n = like.shape()[0];
        let rows = crate::creation::full_on(like.device(), &[cap.max(1), n], 0, v.dtype)?;
        Ok(Basis { rows, len: 0, v })
    }
    /// `Wᵀ V` for `W` (`len × l` row-major): the rows of the `(l, n)` array of `Σ_p W[p][q] v_p`.
    pub fn rows_times(&self, w: &[C], l: usize) -> Result<Array> {
        let m = self.len;
        let wt: Vec<C> = (0..l).flat_map(|q| (0..m).map(move |p| (p, q))).map(|(p, q)| w[p * l + q]).collect();
        let coef = if self.v.dtype.is_complex() {
            Array::from_vec(wt, [l, m])?
        } else {
            Array::from_vec(wt.iter().map(|c| c.re).collect::<Vec<f64>>(), [l, m])?
        };
        coef.astype(self.v.dtype)?.to_device(self.rows.device())?.matmul(&self.active()?)
    }
    /// Keeps `V W` (`W` of `l` columns) as the first `l` vectors.
    pub fn rotate(&mut self, w: &[C], l: usize) -> Result<()> {
        let kept = self.rows_times(w, l)?;
        self.rows.slice(s![..l as isize, ..])?.assign(&kept)?;
        self.len = l;
        Ok(())
    }
}
