//! faer's sparse LU (COLAMD column ordering, partial pivoting by rows, supernodal where the
//! fill makes it pay) and Cholesky (AMD ordering). A singular matrix is reported with the
//! column of the matrix given that has no pivot: from faer's symbolic failure, or, when the
//! numeric factors are not finite, from a simplicial refactorisation whose `U` diagonal shows
//! the first zero pivot.
use super::{on_num, rhs_of, Csc, Factor, Trans};
use crate::linalg::Field;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::solvers::LltError;
use faer::sparse::linalg::cholesky::{factorize_symbolic_cholesky, LltRef, SymbolicCholesky, SymmetricOrdering};
use faer::sparse::linalg::lu::{factorize_symbolic_lu, LuRef, NumericLu, SymbolicLu};
use faer::sparse::linalg::LuError;
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use faer::{Conj, Mat, MatMut, Side};
use xp_core::{Complex32, Complex64, Error, HostBuffer, LinAlgKind, Result};

pub(super) enum Kind<T> {
    Lu { sym: SymbolicLu<usize>, num: NumericLu<usize, T> },
    Llt { sym: SymbolicCholesky<usize>, vals: Vec<T> },
}

pub(super) enum Inner {
    F32(Kind<f32>),
    F64(Kind<f64>),
    C64(Kind<Complex32>),
    C128(Kind<Complex64>),
}

macro_rules! on_inner {
    ($inner:expr, $k:ident => $body:expr) => {
        match $inner {
            Inner::F32($k) => $body,
            Inner::F64($k) => $body,
            Inner::C64($k) => $body,
            Inner::C128($k) => $body,
        }
    };
}

trait Wrap: Field + super::Num {
    fn wrap(k: Kind<Self>) -> Inner;
}
macro_rules! wrap {
    ($($t:ty => $v:ident),*) => {$(
        impl Wrap for $t {
            fn wrap(k: Kind<$t>) -> Inner {
                Inner::$v(k)
            }
        }
    )*};
}
wrap!(f32 => F32, f64 => F64, Complex32 => C64, Complex64 => C128);

fn oom<E: std::fmt::Debug>(op: &'static str) -> impl Fn(E) -> Error {
    move |e| Error::invalid(op, format!("the factorisation failed: {e:?}"))
}

fn singular(op: &'static str, column: usize) -> Error {
    Error::LinAlg { op, kind: LinAlgKind::SingularColumn { column } }
}

fn matrix<'a, T: Field>(a: &Csc<'a>, v: &'a [T]) -> SparseColMatRef<'a, usize, T> {
    // SAFETY-free: the front end hands canonical parts (sorted, in bounds, no duplicates),
    // which `new_checked` verifies again at O(nnz).
    SparseColMatRef::new(SymbolicSparseColMatRef::new_checked(a.n, a.n, a.ptr, None, a.idx), v)
}

fn buffer(req: faer::dyn_stack::StackReq, op: &'static str) -> Result<MemBuffer> {
    MemBuffer::try_new(req).map_err(oom(op))
}

fn lu<T: Field + super::Num>(a: &Csc<'_>, v: &[T]) -> Result<Kind<T>> {
    let op = "splu";
    let m = matrix(a, v);
    let sym = factorize_symbolic_lu(m.symbolic(), Default::default()).map_err(oom(op))?;
    let par = faer::get_global_parallelism();
    let mut num = NumericLu::new();
    let mut mem = buffer(sym.factorize_numeric_lu_scratch::<T>(par, Default::default()), op)?;
    let r = sym.factorize_numeric_lu(&mut num, m, par, MemStack::new(&mut mem), Default::default()).map(|_| ());
    match r {
        Ok(()) => {}
        Err(LuError::SymbolicSingular { index }) => return Err(singular(op, sym.col_perm().arrays().0[index])),
        Err(e) => return Err(oom(op)(e)),
    }
    let k = Kind::Lu { sym, num };
    // an exact zero pivot leaves factors that are not finite: a solve shows it
    let probe = solve_kind(&k, a.n, &vec![T::one_impl(); a.n], 1, Trans::N);
    if probe.iter().any(|x| !num_complex::ComplexFloat::is_finite(*x)) {
        return Err(singular(op, zero_pivot(a, v).unwrap_or(0)));
    }
    Ok(k)
}

/// The column of the first exact zero pivot of a simplicial LU in the same column order.
fn zero_pivot<T: Field>(a: &Csc<'_>, v: &[T]) -> Option<usize> {
    use faer::sparse::linalg::lu::simplicial::{
        factorize_simplicial_numeric_lu, factorize_simplicial_numeric_lu_scratch, SimplicialLu,
    };
    let m = matrix(a, v);
    let sym = factorize_symbolic_lu(m.symbolic(), Default::default()).ok()?;
    let n = a.n;
    let (mut fwd, mut inv) = (vec![0usize; n], vec![0usize; n]);
    let mut lu = SimplicialLu::new();
    let mut mem = MemBuffer::try_new(factorize_simplicial_numeric_lu_scratch::<usize, T>(n, n)).ok()?;
    match factorize_simplicial_numeric_lu(&mut fwd, &mut inv, &mut lu, m, sym.col_perm(), MemStack::new(&mut mem)) {
        Err(LuError::SymbolicSingular { index }) => return Some(sym.col_perm().arrays().0[index]),
        Err(_) => return None,
        Ok(_) => {}
    }
    let u = lu.u_factor_unsorted();
    let zero = T::zero_impl();
    (0..n)
        .find(|&j| {
            let (rows, vals) = (u.row_idx_of_col_raw(j), u.val_of_col(j));
            rows.iter().zip(vals).any(|(&i, x)| i == j && *x == zero)
        })
        .map(|j| sym.col_perm().arrays().0[j])
}

fn llt<T: Field>(a: &Csc<'_>, v: &[T]) -> Result<Kind<T>> {
    let op = "cholesky";
    let m = matrix(a, v);
    let sym = factorize_symbolic_cholesky(m.symbolic(), Side::Lower, SymmetricOrdering::Amd, Default::default())
        .map_err(oom(op))?;
    let par = faer::get_global_parallelism();
    let mut vals = vec![T::zero_impl(); sym.len_val()];
    let mut mem = buffer(sym.factorize_numeric_llt_scratch::<T>(par, Default::default()), op)?;
    let r = sym
        .factorize_numeric_llt(
            &mut vals,
            m,
            Side::Lower,
            Default::default(),
            par,
            MemStack::new(&mut mem),
            Default::default(),
        )
        .map(|_| ());
    match r {
        Ok(()) => Ok(Kind::Llt { sym, vals }),
        Err(LltError::NonPositivePivot { index }) => {
            let column = sym.perm().map_or(index, |p| p.arrays().0[index]);
            Err(Error::LinAlg { op, kind: LinAlgKind::NonPositivePivot { column } })
        }
    }
}

/// `x` of `op(A) x = b`, `b` of `nrhs` columns in C order.
fn solve_kind<T: Field>(k: &Kind<T>, n: usize, b: &[T], nrhs: usize, trans: Trans) -> Vec<T> {
    let par = faer::get_global_parallelism();
    let mut x = Mat::<T>::from_fn(n, nrhs, |i, j| b[i * nrhs + j]);
    let rhs: MatMut<'_, T> = x.as_mut();
    match k {
        Kind::Lu { sym, num } => {
            let lu = LuRef::new_unchecked(sym, num);
            match trans {
                Trans::N => {
                    let mut mem = MemBuffer::new(sym.solve_in_place_scratch::<T>(nrhs, par));
                    lu.solve_in_place_with_conj(Conj::No, rhs, par, MemStack::new(&mut mem));
                }
                Trans::T | Trans::H => {
                    let conj = if trans == Trans::H { Conj::Yes } else { Conj::No };
                    let mut mem = MemBuffer::new(sym.solve_transpose_in_place_scratch::<T>(nrhs, par));
                    lu.solve_transpose_in_place_with_conj(conj, rhs, par, MemStack::new(&mut mem));
                }
            }
        }
        Kind::Llt { sym, vals } => {
            // A = Aᴴ: op(A) is A except for Aᵀ = conj(A)
            let conj = if trans == Trans::T { Conj::Yes } else { Conj::No };
            let mut mem = MemBuffer::new(sym.solve_in_place_scratch::<T>(nrhs, par));
            LltRef::new(sym, vals).solve_in_place_with_conj(conj, rhs, par, MemStack::new(&mut mem));
        }
    }
    let mut out = Vec::with_capacity(n * nrhs);
    for i in 0..n {
        for j in 0..nrhs {
            out.push(x[(i, j)]);
        }
    }
    out
}

impl Factor {
    /// LU with partial pivoting of `a` (by columns); `Err(LinAlg { SingularColumn })` names a
    /// column with no nonzero pivot.
    pub fn lu(a: &Csc<'_>) -> Result<Factor> {
        let inner = on_num!("splu", a.values, v => lu(a, v).map(Wrap::wrap))?;
        Ok(Factor { inner, n: a.n })
    }
    /// Cholesky `L Lᴴ` of a Hermitian positive definite `a` (its lower triangle is read);
    /// `Err(LinAlg { NonPositivePivot })` names the column whose pivot is not positive.
    pub fn cholesky(a: &Csc<'_>) -> Result<Factor> {
        let inner = on_num!("cholesky", a.values, v => llt(a, v).map(Wrap::wrap))?;
        Ok(Factor { inner, n: a.n })
    }
    /// `x` with `op(A) x = b` for `b` of `nrhs` columns in C order `(n, nrhs)`, in `A`'s dtype.
    pub fn solve(&self, b: &HostBuffer, nrhs: usize, trans: Trans) -> Result<HostBuffer> {
        let want = self.n * nrhs;
        on_inner!(&self.inner, k => {
            let b = rhs_of("solve", b, want)?;
            Ok(xp_core::Element::into_buffer(solve_kind(k, self.n, b, nrhs, trans)))
        })
    }
    /// The order of the matrix.
    pub fn n(&self) -> usize {
        self.n
    }
    /// True for a Cholesky factorisation.
    pub fn is_cholesky(&self) -> bool {
        on_inner!(&self.inner, k => matches!(k, Kind::Llt { .. }))
    }
}
