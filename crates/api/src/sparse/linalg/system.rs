//! What every Krylov solver shares: the options, the typed report, SciPy's `make_system` (checks,
//! the working dtype, the start) and the vector arithmetic with host scalars.
use super::operator::{IdentityOperator, LinearOperator};
use crate::kernel::ElementwiseKernel;
use crate::Array;
use std::fmt;
use std::sync::OnceLock;
use xp_core::Complex64 as C;
use xp_core::{DType, Error, LinAlgKind, LinalgStorage, Result, Scalar};

/// A progress callback: called with the current iterate `x` (SciPy's `callback(xk)`).
pub type Callback<'a> = &'a mut dyn FnMut(&Array);

/// The arguments SciPy's Krylov solvers share (`x0`, `rtol`, `atol`, `maxiter`, `M`,
/// `callback`, and GMRES's `restart`). `Default` is SciPy's: `rtol = 1e-5`, `atol = 0`,
/// `maxiter` the solver's own default, no preconditioner.
pub struct Krylov<'a> {
    /// the starting guess (zeros by default)
    pub x0: Option<&'a Array>,
    /// relative tolerance: converged when `‖b − A x‖ ≤ max(rtol ‖b‖, atol)`
    pub rtol: f64,
    /// absolute tolerance
    pub atol: f64,
    /// the iteration limit (SciPy's default per solver, mostly `10 n`)
    pub maxiter: Option<usize>,
    /// a preconditioner approximating `A⁻¹` (its `matvec` applies it)
    pub m: Option<&'a dyn LinearOperator>,
    /// called after each iteration with the current `x`
    pub callback: Option<Callback<'a>>,
    /// GMRES's `restart` (the Krylov space's size between restarts; LGMRES's `inner_m`,
    /// GCROT(m, k)'s `m`); the other solvers ignore it
    pub restart: Option<usize>,
}

impl Default for Krylov<'_> {
    fn default() -> Self {
        Krylov { x0: None, rtol: 1e-5, atol: 0.0, maxiter: None, m: None, callback: None, restart: None }
    }
}

impl fmt::Debug for Krylov<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Krylov")
            .field("rtol", &self.rtol)
            .field("atol", &self.atol)
            .field("maxiter", &self.maxiter)
            .field("restart", &self.restart)
            .field("preconditioned", &self.m.is_some())
            .finish()
    }
}

/// Which scalar of a recurrence vanished (SciPy's negative `info` codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Breakdown {
    /// `ρ = r̃ᴴ z` below `eps²` (SciPy's -10)
    Rho,
    /// a denominator (`p̃ᴴ q`, `r̃ᴴ v`) is zero, or BiCGSTAB's `ω` vanished, or QMR's `β` (-11)
    Denominator,
    /// QMR's `γ` (-12)
    Gamma,
    /// QMR's `δ` (-13)
    Delta,
    /// QMR's `ε` (-14)
    Epsilon,
    /// QMR's `ξ` (-15)
    Xi,
}

impl Breakdown {
    /// SciPy's `info` code.
    pub fn code(self) -> i64 {
        match self {
            Breakdown::Rho => -10,
            Breakdown::Denominator => -11,
            Breakdown::Gamma => -12,
            Breakdown::Delta => -13,
            Breakdown::Epsilon => -14,
            Breakdown::Xi => -15,
        }
    }
}

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// the tolerance was reached
    Converged,
    /// the iteration limit was reached first
    MaxIter,
    /// the recurrence broke down
    Breakdown(Breakdown),
}

/// A Krylov solver's answer: the iterate and a typed report in place of SciPy's integer `info`.
#[derive(Clone, Debug)]
pub struct Solution {
    /// the last iterate
    pub x: Array,
    /// how the solve ended
    pub status: Status,
    /// iterations taken (inner iterations for the restarted methods)
    pub iterations: usize,
    /// the norm of the residual the method tracked when it stopped (the true `‖b − A x‖` for
    /// most; the preconditioned or quasi-residual estimate where SciPy's test uses one)
    pub residual: f64,
}

impl Solution {
    /// Whether the tolerance was reached.
    pub fn converged(&self) -> bool {
        self.status == Status::Converged
    }
    /// SciPy's `info`: 0 converged, the iteration limit when it was reached, a negative code
    /// for a breakdown.
    pub fn info(&self, maxiter: usize) -> i64 {
        match self.status {
            Status::Converged => 0,
            Status::MaxIter => maxiter as i64,
            Status::Breakdown(b) => b.code(),
        }
    }
    /// The solution if the solve converged, else [`Error::LinAlg`] with
    /// [`LinAlgKind::NoConvergence`] naming the solver.
    pub fn ok(self, op: &'static str) -> Result<Array> {
        if self.converged() {
            Ok(self.x)
        } else {
            Err(Error::LinAlg { op, kind: LinAlgKind::NoConvergence { index: 0 } })
        }
    }
}

/// SciPy's `coerce`: the working dtype of an operator and a right-hand side, one of float32,
/// float64, complex64, complex128 (anything else counts as float64).
pub(crate) fn working_dtype(a: DType, b: DType) -> DType {
    let norm = |d: DType| if matches!(d, DType::F32 | DType::F64 | DType::C64 | DType::C128) { d } else { DType::F64 };
    let (a, b) = (norm(a), norm(b));
    let wide = a == DType::F64 || a == DType::C128 || b == DType::F64 || b == DType::C128;
    let complex = a.is_complex() || b.is_complex();
    match (complex, wide) {
        (false, false) => DType::F32,
        (false, true) => DType::F64,
        (true, false) => DType::C64,
        (true, true) => DType::C128,
    }
}

/// A checked system `A x = b` (SciPy's `make_system`): `b` and the start `x` as 1-D arrays of the
/// working dtype, the preconditioner (the identity when none is given).
pub(crate) struct System<'a> {
    pub a: &'a dyn LinearOperator,
    pub m: Box<dyn LinearOperator + 'a>,
    pub b: Array,
    pub x: Array,
    /// whether a start was given (SciPy's `x.any()` test, taken as "given")
    pub started: bool,
    /// whether a preconditioner was given (else `M` is the identity)
    pub preconditioned: bool,
    pub n: usize,
    pub v: Vecs,
}

/// Checks `A` (square), `b` (`(n,)` or `(n, 1)`), `M` (`n × n`) and `x0`.
pub(crate) fn make_system<'a>(
    op: &'static str,
    a: &'a dyn LinearOperator,
    b: &Array,
    opts: &Krylov<'a>,
) -> Result<System<'a>> {
    a.validate().map_err(|e| e.in_op(op))?;
    let [rows, cols] = a.shape();
    if rows != cols {
        return Err(Error::LinAlg { op, kind: LinAlgKind::NotSquare { rows, cols } });
    }
    let n = rows;
    let vector = |v: &Array, what: &str| -> Result<Array> {
        if v.shape() == [n] || v.shape() == [n, 1] {
            v.reshape([n])
        } else {
            Err(Error::invalid(op, format!("shapes of A {:?} and {what} {:?} are incompatible", [n, n], v.shape())))
        }
    };
    let dtype = working_dtype(a.dtype(), b.dtype());
    let b = vector(b, "b")?.astype(dtype)?;
    let m: Box<dyn LinearOperator> = match opts.m {
        Some(m) => {
            m.validate().map_err(|e| e.in_op(op))?;
            if m.shape() != [n, n] {
                return Err(Error::invalid(
                    op,
                    format!("the preconditioner M has shape {:?}; the matrix A has {:?}", m.shape(), [n, n]),
                ));
            }
            Box::new(m)
        }
        None => Box::new(IdentityOperator { n, dtype }),
    };
    let (x, started) = match opts.x0 {
        Some(x0) => {
            if x0.device() != b.device() {
                return Err(Error::DeviceMismatch { op, lhs: b.device(), rhs: x0.device() });
            }
            // a copy: the solver updates its iterate, the caller's x0 stays
            (vector(x0, "x0")?.astype(dtype)?.copy()?, true)
        }
        None => (crate::creation::full_on(b.device(), &[n], 0, dtype)?, false),
    };
    if [opts.rtol, opts.atol].iter().any(|t| t.is_nan() || *t < 0.0) {
        return Err(Error::InvalidParameter {
            op,
            param: "rtol, atol",
            requirement: "must be non-negative numbers".into(),
        });
    }
    Ok(System { a, m, b, x, started, preconditioned: opts.m.is_some(), n, v: Vecs { dtype } })
}

/// SciPy's prologue: the checked system, `‖b‖` and `max(atol, rtol ‖b‖)`; or the answer at once
/// when `b = 0` (`x = 0`, converged).
pub(crate) enum Begin<'a> {
    Solve(System<'a>, f64, f64),
    Zero(Solution),
}

pub(crate) fn begin<'a>(
    op: &'static str,
    a: &'a dyn LinearOperator,
    b: &Array,
    opts: &Krylov<'a>,
) -> Result<Begin<'a>> {
    let mut s = make_system(op, a, b, opts)?;
    let bnorm = s.v.norm(&s.b)?;
    if bnorm == 0.0 {
        s.x = s.b.clone();
        return Ok(Begin::Zero(s.done(Status::Converged, 0, 0.0)?));
    }
    let atol = s.tolerance(opts, bnorm);
    Ok(Begin::Solve(s, atol, bnorm))
}

/// `let (s, atol, bnorm) = started!(op, a, b, &opts);`: [`begin`], returning its answer at once
/// when `b = 0`.
macro_rules! started {
    ($op:expr, $a:expr, $b:expr, $opts:expr) => {
        match super::system::begin($op, $a, $b, $opts)? {
            super::system::Begin::Solve(s, atol, bnorm) => (s, atol, bnorm),
            super::system::Begin::Zero(sol) => return Ok(sol),
        }
    };
}
pub(crate) use started;

impl Krylov<'_> {
    /// Calls the callback, if any, with the iterate.
    pub(crate) fn notify(&mut self, x: &Array) {
        if let Some(cb) = self.callback.as_mut() {
            cb(x);
        }
    }
}

impl System<'_> {
    /// The report when the iteration limit stopped the solve, with `‖r‖`.
    pub fn limit(self, maxiter: usize, r: &Array) -> Result<Solution> {
        let last = self.v.norm(r)?;
        self.done(Status::MaxIter, maxiter, last)
    }
    /// `b − A x`, or `b` when no start was given.
    pub fn residual(&self) -> Result<Array> {
        if self.started {
            self.b.sub(&self.a.matvec(&self.x)?)
        } else {
            Ok(self.b.clone())
        }
    }
    /// SciPy's `_get_atol_rtol`: `max(atol, rtol ‖b‖)`.
    pub fn tolerance(&self, opts: &Krylov, bnorm: f64) -> f64 {
        opts.atol.max(opts.rtol * bnorm)
    }
    /// `A x` in the working dtype.
    pub fn matvec(&self, x: &Array) -> Result<Array> {
        self.v.cast(self.a.matvec(x)?)
    }
    /// `Aᴴ x` in the working dtype.
    pub fn rmatvec(&self, x: &Array) -> Result<Array> {
        self.v.cast(self.a.rmatvec(x)?)
    }
    /// `M x` in the working dtype.
    pub fn psolve(&self, x: &Array) -> Result<Array> {
        self.v.cast(self.m.matvec(x)?)
    }
    /// `Mᴴ x` in the working dtype.
    pub fn rpsolve(&self, x: &Array) -> Result<Array> {
        self.v.cast(self.m.rmatvec(x)?)
    }
    /// The report.
    pub fn done(self, status: Status, iterations: usize, residual: f64) -> Result<Solution> {
        Ok(Solution { x: self.x, status, iterations, residual })
    }
}

/// Vector arithmetic in one working dtype with host scalars (complex numbers, the real part
/// only for real dtypes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vecs {
    pub dtype: DType,
}

impl Vecs {
    /// The scalar `c` as this dtype's scalar.
    pub fn s(&self, c: C) -> Scalar {
        if self.dtype.is_complex() {
            Scalar::Complex(c)
        } else {
            Scalar::Float(c.re)
        }
    }
    /// `v` in the working dtype (an operator may answer in another).
    pub fn cast(&self, v: Array) -> Result<Array> {
        if v.dtype() == self.dtype {
            Ok(v)
        } else {
            v.astype(self.dtype)
        }
    }
    /// `aᴴ b` (NumPy's `vdot`).
    pub fn dot(&self, a: &Array, b: &Array) -> Result<C> {
        Ok(crate::vdot(a, b)?.scalar()?.to_c128())
    }
    /// The 2-norm.
    pub fn norm(&self, a: &Array) -> Result<f64> {
        Ok(self.dot(a, a)?.re.max(0.0).sqrt())
    }
    /// `y + s x`: one pass for real dtypes (the backend's `axpy` on the CPU, whose kernel
    /// evaluator copies blocks and measured 2× slower than a product and a sum at 10^6 float64
    /// values; a fused kernel on the GPU); a product and a sum for complex dtypes.
    pub fn axpy(&self, s: C, x: &Array, y: &Array) -> Result<Array> {
        if self.dtype.is_complex() {
            return y.add(&x.mul(self.s(s))?);
        }
        if x.device() == xp_core::Device::Cpu && !super::fused_forced() {
            // the backend's one pass where it has one
            let got = crate::products::with_two(
                y,
                x,
                |p, q| crate::backend::on_pair!("axpy", p, q, a, b => a.axpy(&y.layout, s.re, b, &x.layout)),
            );
            return match got {
                Ok(st) => Ok(Array::from_storage(st, y.shape())),
                Err(xp_core::Error::Unsupported { .. }) => y.add(&x.mul(self.s(s))?),
                Err(e) => Err(e),
            };
        }
        static AXPY: OnceLock<ElementwiseKernel> = OnceLock::new();
        let k = match AXPY.get() {
            Some(k) => k,
            None => {
                let k = ElementwiseKernel::new("T x, T y, T a", "T z", "z = a * x + y", "sparse_axpy")?;
                AXPY.get_or_init(|| k)
            }
        };
        k.call1(&[x.into(), y.into(), self.s(s).into()])
    }
    /// `s x`.
    pub fn scale(&self, s: C, x: &Array) -> Result<Array> {
        x.mul(self.s(s))
    }
    /// `eps` of the working dtype's real part.
    pub fn eps(&self) -> f64 {
        if matches!(self.dtype, DType::F32 | DType::C64) {
            f32::EPSILON as f64
        } else {
            f64::EPSILON
        }
    }
}
