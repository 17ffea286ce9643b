//! Triangular solves over the rows of a compressed matrix (CSR), in place, for `nrhs`
//! right-hand sides in C order: forward and backward substitution, and their transposes by
//! scattering each solved value into the rows still to come.
use super::{on_num, rhs_of, Csc, Num};
use xp_core::{Error, HostBuffer, LinAlgKind, Result};

/// The rows of a triangular factor: row `i` holds columns `idx[ptr[i]..ptr[i + 1]]`.
pub(crate) struct Rows<'a, T> {
    pub ptr: &'a [usize],
    pub idx: &'a [usize],
    pub vals: &'a [T],
}

impl<T: Num> Rows<'_, T> {
    fn row(&self, i: usize) -> impl Iterator<Item = (usize, T)> + '_ {
        let r = self.ptr[i]..self.ptr[i + 1];
        self.idx[r.clone()].iter().copied().zip(self.vals[r].iter().copied())
    }

    /// `x ← T⁻¹ x` (`conj`: `conj(T)⁻¹`) for the lower (`lower`) or upper triangle of these
    /// rows, the diagonal `d` (unit where `None`); entries of the other triangle are ignored.
    pub fn solve(&self, lower: bool, d: Option<&[T]>, x: &mut [T], k: usize, conj: bool) {
        let n = self.ptr.len() - 1;
        let c = |v: T| if conj { v.conj() } else { v };
        let mut step = |i: usize| {
            for (j, a) in self.row(i) {
                if (lower && j < i) || (!lower && j > i) {
                    let a = c(a);
                    for r in 0..k {
                        let xj = x[j * k + r];
                        x[i * k + r] = x[i * k + r] - a * xj;
                    }
                }
            }
            if let Some(d) = d {
                let di = c(d[i]);
                x[i * k..(i + 1) * k].iter_mut().for_each(|v| *v = *v / di);
            }
        };
        if lower {
            (0..n).for_each(&mut step);
        } else {
            (0..n).rev().for_each(&mut step);
        }
    }

    /// `x ← (Tᵀ)⁻¹ x` (`conj`: `(Tᴴ)⁻¹`) for the lower (`lower`) or upper triangle `T` of these
    /// rows: `Tᵀ` is upper (lower) triangular, solved by scattering each row's solved value.
    pub fn solve_transposed(&self, lower: bool, d: Option<&[T]>, x: &mut [T], k: usize, conj: bool) {
        let n = self.ptr.len() - 1;
        let c = |v: T| if conj { v.conj() } else { v };
        let mut step = |i: usize| {
            if let Some(d) = d {
                let di = c(d[i]);
                x[i * k..(i + 1) * k].iter_mut().for_each(|v| *v = *v / di);
            }
            for (j, a) in self.row(i) {
                if (lower && j < i) || (!lower && j > i) {
                    let a = c(a);
                    for r in 0..k {
                        let xi = x[i * k + r];
                        x[j * k + r] = x[j * k + r] - a * xi;
                    }
                }
            }
        };
        if lower {
            (0..n).rev().for_each(&mut step);
        } else {
            (0..n).for_each(&mut step);
        }
    }
}

/// `x` with `T x = b` for the lower (`lower`) or upper triangle `T` of the matrix of rows `a`
/// (entries of the other triangle are ignored, as SciPy's `spsolve_triangular`), `b` of
/// `nrhs` columns in C order and of `a`'s dtype; a unit diagonal when `unit_diagonal`, else a
/// zero or missing diagonal entry is `Err(LinAlg { SingularColumn })`.
pub fn solve_triangular(
    a: &Csc<'_>,
    b: &HostBuffer,
    nrhs: usize,
    lower: bool,
    unit_diagonal: bool,
) -> Result<HostBuffer> {
    let op = "spsolve_triangular";
    on_num!(op, a.values, v => {
        let mut x = rhs_of(op, b, a.n * nrhs)?.to_vec();
        let rows = Rows { ptr: a.ptr, idx: a.idx, vals: v.as_slice() };
        let d = if unit_diagonal {
            None
        } else {
            let zero = Default::default();
            let d: Vec<_> = (0..a.n).map(|i| rows.row(i).find(|&(j, _)| j == i).map_or(zero, |(_, x)| x)).collect();
            if let Some(column) = d.iter().position(|&x| x == zero) {
                return Err(Error::LinAlg { op, kind: LinAlgKind::SingularColumn { column } });
            }
            Some(d)
        };
        rows.solve(lower, d.as_deref(), &mut x, nrhs, false);
        Ok(xp_core::Element::into_buffer(x))
    })
}
