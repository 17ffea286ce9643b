//! Direct solves (SciPy's `spsolve`, `splu`, `spilu`, `factorized`, `spsolve_triangular`, and a
//! sparse Cholesky): the matrix is brought to the host as canonical compressed parts and
//! factored there by faer (LU with COLAMD, Cholesky with AMD; ILUT for `spilu`), whatever
//! device it lives on; a solve brings the right-hand side to the host and the solution back to
//! the right-hand side's device.
use super::super::arith::Sparse;
use super::super::compressed::Compressed;
use crate::Array;
use xp_core::{promote_types, DType, Error, HostBuffer, LinAlgKind, Result};
use xp_cpu::direct::{Csc, Factor, Ilu};

pub use xp_cpu::direct::Trans;

/// A matrix's canonical compressed parts on the host.
pub(super) struct HostParts {
    pub n: usize,
    pub ptr: Vec<usize>,
    pub idx: Vec<usize>,
    pub values: HostBuffer,
}

impl HostParts {
    /// The host parts of `c` (canonicalised) with values in `dt`.
    pub fn of(c: &Compressed, dt: DType) -> Result<HostParts> {
        let c = c.canonicalized()?;
        let usize_of = |a: &Array| -> Result<Vec<usize>> {
            Ok(a.astype(DType::I64)?.to_vec::<i64>()?.into_iter().map(|v| v as usize).collect())
        };
        Ok(HostParts {
            n: c.dims[0],
            ptr: usize_of(&c.indptr)?,
            idx: usize_of(&c.indices)?,
            values: c.data.astype(dt)?.to_buffer()?,
        })
    }
    pub fn csc(&self) -> Csc<'_> {
        Csc { n: self.n, ptr: &self.ptr, idx: &self.idx, values: &self.values }
    }
}

/// The order of a square `a`, or `Err(LinAlg { NotSquare })`.
pub(super) fn square(a: &dyn Sparse) -> Result<usize> {
    let [rows, cols] = a.shape();
    if rows != cols {
        return Err(Error::LinAlg { op: "sparse.linalg", kind: LinAlgKind::NotSquare { rows, cols } });
    }
    Ok(rows)
}

/// SciPy's `_asfptype`: the first of float32, float64, complex64, complex128 that `dt` casts to
/// safely.
pub(super) fn fp_type(dt: DType) -> DType {
    match dt {
        DType::F32 | DType::F64 | DType::C64 | DType::C128 => dt,
        DType::Bool | DType::I8 | DType::U8 | DType::I16 | DType::U16 | DType::F16 | DType::BF16 => DType::F32,
        _ => DType::F64,
    }
}

/// The number of right-hand sides of `b` for an order-`n` system: `(n,)` or `(n, k)`.
fn columns(b: &Array, n: usize, op: &'static str) -> Result<usize> {
    match b.shape() {
        [m] if *m == n => Ok(1),
        [m, k] if *m == n => Ok(*k),
        s => Err(Error::invalid(op, format!("matrix - rhs dimension mismatch: A is ({n}, {n}), b has shape {s:?}"))),
    }
}

enum Kind {
    Exact(Box<Factor>),
    Incomplete(Ilu),
}

/// A factorisation of a square sparse matrix (SciPy's `SuperLU` object, answered by [`splu`],
/// [`spilu`] and [`cholesky`]): [`SuperLu::solve`] solves `A x = b`, `Aᵀ x = b` or `Aᴴ x = b`.
/// The factors live on the host (faer); a right-hand side on a GPU is copied there and the
/// solution back.
pub struct SuperLu {
    kind: Kind,
    n: usize,
    dtype: DType,
    op: &'static str,
}

impl std::fmt::Debug for SuperLu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SuperLu")
            .field("shape", &self.shape())
            .field("dtype", &self.dtype)
            .field("op", &self.op)
            .finish()
    }
}

impl SuperLu {
    /// `(n, n)`.
    pub fn shape(&self) -> [usize; 2] {
        [self.n, self.n]
    }
    /// The dtype of the factors (and of the solutions).
    pub fn dtype(&self) -> DType {
        self.dtype
    }
    /// True for a Cholesky factorisation ([`cholesky`], or [`spsolve`]'s choice).
    pub fn is_cholesky(&self) -> bool {
        matches!(&self.kind, Kind::Exact(f) if f.is_cholesky())
    }
    /// `x` with `op(A) x = b` (`trans`: `A`, `Aᵀ` or `Aᴴ`) for `b` of shape `(n,)` or `(n, k)`,
    /// in the factors' dtype (`b` is converted to it; a complex `b` for real factors is an
    /// error, as SciPy's), on `b`'s device.
    pub fn solve(&self, b: &Array, trans: Trans) -> Result<Array> {
        let op = "SuperLU.solve";
        let k = columns(b, self.n, op)?;
        let bt = b.dtype();
        if bt.is_complex() && !self.dtype.is_complex() {
            return Err(Error::invalid(op, format!("a {bt} right-hand side for {} factors", self.dtype)));
        }
        if self.n == 0 || k == 0 {
            return crate::zeros(b.shape(), self.dtype)?.to_device(b.device());
        }
        let host = b.astype(self.dtype)?.to_buffer()?;
        let x = match &self.kind {
            Kind::Exact(f) => f.solve(&host, k, trans),
            Kind::Incomplete(f) => f.solve(&host, k, trans),
        }
        .map_err(|e| e.in_op(self.op))?;
        Array::from_buffer(x, b.shape(), b.device())
    }
}

/// The LU factorisation of a square sparse `a` (SciPy's `splu`): faer's supernodal LU with a
/// COLAMD column ordering and partial pivoting by rows, on the host. Integer and bool values
/// factor as float (SciPy's `_asfptype`). A singular matrix is
/// `Err(LinAlg { kind: SingularColumn { column } })` naming a column of `a` with no pivot.
///
/// ```
/// use xp::sparse::linalg::{splu, Trans};
/// let a = xp::sparse::CsrArray::from_dense(&xp::Array::from_vec(vec![4.0, 1.0, 0.0, 2.0, 3.0, 1.0, 0.0, 1.0, 5.0], &[3, 3]).unwrap()).unwrap();
/// let lu = splu(&a).unwrap();
/// let b = xp::Array::from_vec(vec![5.0, 6.0, 6.0], &[3]).unwrap();
/// let x = lu.solve(&b, Trans::N).unwrap();
/// assert!(x.to_vec::<f64>().unwrap().iter().all(|v| (v - 1.0).abs() < 1e-12));
/// ```
pub fn splu(a: &dyn Sparse) -> Result<SuperLu> {
    exact(a, fp_type(a.dtype()), false, "splu")
}

/// The Cholesky factorisation `A = L Lᴴ` of a sparse Hermitian positive definite `a` (faer's,
/// AMD ordering, on the host; SciPy has none: scikit-sparse's CHOLMOD is the peer). Only the
/// lower triangle is read. A pivot that is not positive is
/// `Err(LinAlg { kind: NonPositivePivot { column } })`.
pub fn cholesky(a: &dyn Sparse) -> Result<SuperLu> {
    exact(a, fp_type(a.dtype()), true, "cholesky")
}

fn exact(a: &dyn Sparse, dt: DType, chol: bool, op: &'static str) -> Result<SuperLu> {
    let n = square(a).map_err(|e| e.in_op(op))?;
    let c = HostParts::of(&a.canonical_csr()?.tocsc()?.0, dt)?;
    let f = if chol { Factor::cholesky(&c.csc()) } else { Factor::lu(&c.csc()) };
    Ok(SuperLu { kind: Kind::Exact(Box::new(f.map_err(|e| e.in_op(op))?)), n, dtype: dt, op })
}

/// SciPy's `spilu` options: drop a value below `drop_tol` times its row's 2-norm (default
/// 1e-4), and keep about `fill_factor` times the matrix's stored values (default 10).
#[derive(Clone, Copy, Debug, Default)]
pub struct IluOptions {
    /// the relative drop tolerance (SciPy's default 1e-4)
    pub drop_tol: Option<f64>,
    /// the bound on `nnz(L + U) / nnz(A)` (SciPy's default 10)
    pub fill_factor: Option<f64>,
}

/// An incomplete LU factorisation of a square sparse `a` (SciPy's `spilu`), for use as a
/// preconditioner: threshold ILU by rows (ILUT, no pivoting; SciPy's SuperLU pivots), on the
/// host. With `drop_tol = 0` and a large `fill_factor` it is the exact LU without pivoting.
pub fn spilu(a: &dyn Sparse, opts: IluOptions) -> Result<SuperLu> {
    let op = "spilu";
    let n = square(a).map_err(|e| e.in_op(op))?;
    let (tol, fill) = (opts.drop_tol.unwrap_or(1e-4), opts.fill_factor.unwrap_or(10.0));
    if !(tol >= 0.0 && fill > 0.0) {
        return Err(Error::invalid(op, format!("drop_tol {tol} must be >= 0 and fill_factor {fill} > 0")));
    }
    let dt = fp_type(a.dtype());
    let r = HostParts::of(&a.canonical_csr()?.0, dt)?;
    Ok(SuperLu { kind: Kind::Incomplete(Ilu::new(&r.csc(), tol, fill)?), n, dtype: dt, op })
}

/// A function that solves `A x = b` with the LU factorisation of `a` made once (SciPy's
/// `factorized`).
pub fn factorized(a: &dyn Sparse) -> Result<impl Fn(&Array) -> Result<Array> + Send + Sync> {
    let lu = splu(a)?;
    Ok(move |b: &Array| lu.solve(b, Trans::N))
}

/// `x` with `A x = b` for a square sparse `a` (SciPy's `spsolve`): `b` of shape `(n,)` or
/// `(n, k)` (SciPy's result for `(n, 1)` is `(n,)`, and so is this), in the promoted dtype of
/// `a` (as float) and `b`. A Hermitian `a` with a positive real diagonal is tried by Cholesky
/// first (half the work of LU; MATLAB's choice), LU otherwise. A singular matrix is
/// `Err(LinAlg { kind: SingularColumn })` (SciPy warns and answers NaN).
///
/// ```
/// use xp::sparse::linalg::spsolve;
/// let d = |v: f64| xp::Array::from_vec(vec![v], &[1]).unwrap();
/// let t = xp::sparse::diags_array(&[&d(-1.0), &d(2.0), &d(-1.0)], &[-1, 0, 1], Some([8, 8]), None, xp::sparse::Format::Csr).unwrap();
/// let a = xp::sparse::kronsum(&t, &t, None).unwrap();
/// let b = xp::ones(&[64], xp::DType::F64).unwrap();
/// let x = spsolve(&a, &b).unwrap();
/// let r = a.matmul(&x).unwrap().sub(&b).unwrap();
/// assert!(xp::linalg::norm(&r, None, ..).unwrap().to_f64().unwrap() < 1e-12);
/// ```
pub fn spsolve(a: &dyn Sparse, b: &Array) -> Result<Array> {
    let op = "spsolve";
    let n = square(a).map_err(|e| e.in_op(op))?;
    let k = columns(b, n, op)?;
    let dt = promote_types(fp_type(a.dtype()), b.dtype());
    let dt = fp_type(dt);
    let shape: Vec<usize> = if b.ndim() == 2 && k == 1 { vec![n] } else { b.shape().to_vec() };
    if n == 0 || k == 0 {
        return crate::zeros(&shape, dt)?.to_device(b.device());
    }
    let csr = a.canonical_csr()?;
    let c = HostParts::of(&csr.tocsc()?.0, dt)?;
    let r = HostParts::of(&csr.0, dt)?;
    let f = if xp_cpu::direct::hermitian_positive_diagonal(&c.csc(), &r.csc()) {
        match Factor::cholesky(&c.csc()) {
            Ok(f) => Ok(f),
            Err(Error::LinAlg { kind: LinAlgKind::NonPositivePivot { .. }, .. }) => Factor::lu(&c.csc()),
            Err(e) => Err(e),
        }
    } else {
        Factor::lu(&c.csc())
    }
    .map_err(|e| e.in_op(op))?;
    let x = f.solve(&b.astype(dt)?.to_buffer()?, k, Trans::N)?;
    Array::from_buffer(x, shape, b.device())
}

/// `x` with `T x = b` for the lower (`lower`) or upper triangle `T` of a square sparse `a`
/// (SciPy's `spsolve_triangular`; entries of the other triangle are ignored), `b` of shape
/// `(n,)` or `(n, k)`, in the promoted dtype of `a` (at least float32) and `b`. A zero or
/// missing diagonal entry is `Err(LinAlg { kind: SingularColumn })` unless `unit_diagonal`.
/// By substitution over the rows on the host.
pub fn spsolve_triangular(a: &dyn Sparse, b: &Array, lower: bool, unit_diagonal: bool) -> Result<Array> {
    let op = "spsolve_triangular";
    let n = square(a).map_err(|e| e.in_op(op))?;
    let k = columns(b, n, op)?;
    let dt = fp_type(promote_types(promote_types(a.dtype(), DType::F32), b.dtype()));
    if n == 0 || k == 0 {
        return crate::zeros(b.shape(), dt)?.to_device(b.device());
    }
    let r = HostParts::of(&a.canonical_csr()?.0, dt)?;
    let x = xp_cpu::direct::solve_triangular(&r.csc(), &b.astype(dt)?.to_buffer()?, k, lower, unit_diagonal)?;
    Array::from_buffer(x, b.shape(), b.device())
}
