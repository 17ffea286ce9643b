//! Conjugate gradients (`cg`, for Hermitian positive-definite `A`) and conjugate gradients
//! squared (`cgs`), as SciPy 1.17 writes them.
use super::system::{started, Breakdown, Krylov, Solution, Status, System};
use super::LinearOperator;
use crate::kernel::ElementwiseKernel;
use crate::Array;
use std::sync::OnceLock;
use xp_core::Complex64 as C;
use xp_core::{CgRun, Result};

/// Solves `A x = b` by conjugate gradients (SciPy's `cg`): `A` Hermitian positive definite,
/// `M` (if given) too. `maxiter` defaults to `10 n`.
///
/// Where it runs: for a real sparse `A` on a GPU without `M` or `callback`, the CUDA backend
/// runs the whole iteration in three kernels (`p`, then `A p` with `pᵀ A p`, then the updates
/// with the next `rᵀ r` and SciPy's stopping test), its scalars on the device and one wait every
/// 16 iterations; otherwise the iteration is composed from xp's operations, with the scalars on
/// the device on a GPU (five launches and one wait an iteration).
///
/// ```
/// use xp::sparse::linalg::{cg, Krylov};
/// // the 1-D Poisson matrix tridiag(-1, 2, -1)
/// let d = |v: f64| xp::Array::from_vec(vec![v], &[1]).unwrap();
/// let a = xp::sparse::diags_array(&[&d(-1.0), &d(2.0), &d(-1.0)], &[-1, 0, 1], Some([50, 50]), None, xp::sparse::Format::Csr).unwrap();
/// let b = xp::ones(&[50], xp::DType::F64).unwrap();
/// let sol = cg(&a, &b, Krylov { rtol: 1e-10, ..Default::default() }).unwrap();
/// assert!(sol.converged());
/// let r = b.sub(&a.matmul(&sol.x).unwrap()).unwrap();
/// assert!(xp::linalg::norm(&r, None, ..).unwrap().to_f64().unwrap() < 1e-9 * 50f64.sqrt());
/// ```
pub fn cg<'a>(a: &'a dyn LinearOperator, b: &Array, mut opts: Krylov<'a>) -> Result<Solution> {
    let (mut s, atol, _) = started!("cg", a, b, &opts);
    let v = s.v;
    let maxiter = opts.maxiter.unwrap_or(10 * s.n);
    // the backend's own loop where it has one (the CUDA backend's: three kernels an iteration)
    let whole =
        s.b.device() != xp_core::Device::Cpu && !v.dtype.is_complex() && !s.preconditioned && opts.callback.is_none();
    if let Some(csr) = if whole { a.sparse_csr() } else { None } {
        match backend_cg(&csr?, &s.x, &s.residual()?, atol, maxiter) {
            Ok((x, run)) => {
                s.x = x;
                let status = if run.converged { Status::Converged } else { Status::MaxIter };
                return s.done(status, run.iterations, run.residual);
            }
            Err(xp_core::Error::Unsupported { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    if (s.b.device() != xp_core::Device::Cpu || super::fused_forced()) && !v.dtype.is_complex() {
        return cg_on_device(s, atol, maxiter, opts);
    }
    let mut r = s.residual()?;
    let (mut rho_prev, mut p) = (C::new(0.0, 0.0), None::<Array>);
    for it in 0..maxiter {
        // without a preconditioner z = r, and ρ = rᴴ r gives the norm too
        let (z, rho) = if s.preconditioned {
            let rnorm = v.norm(&r)?;
            if rnorm < atol {
                return s.done(Status::Converged, it, rnorm);
            }
            let z = s.psolve(&r)?;
            let rho = v.dot(&r, &z)?;
            (z, rho)
        } else {
            let rho = v.dot(&r, &r)?;
            let rnorm = rho.re.max(0.0).sqrt();
            if rnorm < atol {
                return s.done(Status::Converged, it, rnorm);
            }
            (r.clone(), rho)
        };
        let pk = match p.take() {
            Some(p) => v.axpy(rho / rho_prev, &p, &z)?,
            None => z,
        };
        let q = s.matvec(&pk)?;
        let alpha = rho / v.dot(&pk, &q)?;
        s.x = v.axpy(alpha, &pk, &s.x)?;
        r = v.axpy(-alpha, &q, &r)?;
        rho_prev = rho;
        p = Some(pk);
        opts.notify(&s.x);
    }
    // SciPy reports the limit without a last test of the residual
    s.limit(maxiter, &r)
}

/// The backend's whole conjugate-gradient run on the CSR matrix `a` from `x` and its residual
/// `r` (no preconditioner, no callback: [`xp_core::SparseStorage::csr_cg`]), the values cast to
/// the working dtype of `x`.
fn backend_cg(a: &crate::sparse::CsrArray, x: &Array, r: &Array, atol: f64, maxiter: usize) -> Result<(Array, CgRun)> {
    use crate::backend::{Many, Reads, Storage};
    use crate::sparse::exact;
    use xp_core::{CsrParts, SparseStorage};
    fn run<S: SparseStorage>(v: &[&S], dims: [usize; 2], atol: f64, maxiter: usize) -> Result<(S, CgRun)> {
        let parts = CsrParts { indptr: v[0], indices: v[1], data: v[2], rows: dims[0], cols: dims[1] };
        S::csr_cg(&parts, v[3], v[4], atol, maxiter)
    }
    let c = &a.0;
    let idx = exact(&c.indices)?;
    let ptr = exact(&c.indptr.cast_if(idx.dtype())?)?;
    let data = exact(&c.data.cast_if(x.dtype())?)?;
    let (x, r) = (exact(x)?, exact(&r.cast_if(x.dtype())?)?);
    let reads = Reads::lock(&[&ptr, &idx, &data, &x, &r]);
    let (out, run) = match reads.many("cg")? {
        Many::Cpu(v) => run(&v, c.dims, atol, maxiter).map(|(s, k)| (Storage::Cpu(s), k))?,
        Many::Cuda(v) => run(&v, c.dims, atol, maxiter).map(|(s, k)| (Storage::Cuda(s), k))?,
    };
    Ok((Array::from_storage(out, &[c.dims[0]]), run))
}

/// A kernel made once.
fn kernel(
    cell: &'static OnceLock<ElementwiseKernel>,
    ins: &str,
    outs: &str,
    body: &str,
    name: &str,
) -> Result<&'static ElementwiseKernel> {
    if let Some(k) = cell.get() {
        return Ok(k);
    }
    let k = ElementwiseKernel::new(ins, outs, body, name)?;
    Ok(cell.get_or_init(|| k))
}

/// SciPy's CG with its scalars kept on the device (0-d arrays read by the kernels), so that an
/// iteration waits for the device once, for the residual's norm its test needs, and is five
/// launches: `p ← z + (ρ/ρ') p`, `q ← A p`, `p·q`, `x ← x + α p` with `r ← r − α q` in one
/// kernel (α = ρ / p·q), and `r·z`. For a preconditioner, a callback, a dense or matrix-free
/// operator, and a backend without [`xp_core::SparseStorage::csr_cg`].
///
/// Not captured in a CUDA graph: a capture inside a library call breaks (and is broken by)
/// device-wide waits on other threads of the process — seen in the parallel test suite — and
/// replayed blocks of these iterations ran only ~10% faster (24.9 vs ~27.6 ms for 300
/// iterations at 1024²: five separate passes over the vectors bound an iteration then; the
/// backend's three fused kernels brought it to 17.6 ms).
fn cg_on_device(mut s: System, atol: f64, maxiter: usize, mut opts: Krylov) -> Result<Solution> {
    static P: OnceLock<ElementwiseKernel> = OnceLock::new();
    static XR: OnceLock<ElementwiseKernel> = OnceLock::new();
    let pk =
        kernel(&P, "T z, T p, raw T rho, raw T prev", "T out", "out = z + (rho[0] / prev[0]) * p", "cg_direction")?;
    let xr = kernel(
        &XR,
        "T x, T p, T r, T q, raw T rho, raw T pq",
        "T x2, T r2",
        "T a = rho[0] / pq[0]; x2 = x + a * p; r2 = r - a * q",
        "cg_update",
    )?;
    let mut r = s.residual()?;
    let (mut rho_prev, mut p): (Option<Array>, Option<Array>) = (None, None);
    for it in 0..maxiter {
        // ‖r‖, and ρ = rᴴ z (the same number without a preconditioner)
        let rr = crate::vdot(&r, &r)?;
        let rnorm = rr.scalar()?.to_f64().max(0.0).sqrt();
        if rnorm < atol {
            return s.done(Status::Converged, it, rnorm);
        }
        let (z, rho) = if s.preconditioned {
            let z = s.psolve(&r)?;
            let rho = crate::vdot(&r, &z)?;
            (z, rho)
        } else {
            (r.clone(), rr)
        };
        let pk = match (p.take(), &rho_prev) {
            (Some(p), Some(prev)) => pk.call1(&[(&z).into(), (&p).into(), (&rho).into(), prev.into()])?,
            _ => z,
        };
        let q = s.matvec(&pk)?;
        let pq = crate::vdot(&pk, &q)?;
        let mut out = xr.call(&[(&s.x).into(), (&pk).into(), (&r).into(), (&q).into(), (&rho).into(), (&pq).into()])?;
        r = out.pop().expect("two outputs");
        s.x = out.pop().expect("two outputs");
        rho_prev = Some(rho);
        p = Some(pk);
        opts.notify(&s.x);
    }
    let last = s.v.norm(&r)?;
    s.done(Status::MaxIter, maxiter, last)
}

/// Solves `A x = b` by conjugate gradients squared (SciPy's `cgs`), for general square `A`.
/// `maxiter` defaults to `10 n`.
pub fn cgs<'a>(a: &'a dyn LinearOperator, b: &Array, mut opts: Krylov<'a>) -> Result<Solution> {
    let (mut s, atol, _) = started!("cgs", a, b, &opts);
    let v = s.v;
    let maxiter = opts.maxiter.unwrap_or(10 * s.n);
    let rhotol = v.eps() * v.eps();
    let mut r = s.residual()?;
    let rtilde = r.clone();
    let mut rho_prev = C::new(0.0, 0.0);
    let (mut p, mut q): (Option<Array>, Option<Array>) = (None, None);
    for it in 0..maxiter {
        let rnorm = v.norm(&r)?;
        if rnorm < atol {
            return s.done(Status::Converged, it, rnorm);
        }
        let rho = v.dot(&rtilde, &r)?;
        if rho.norm() < rhotol {
            return s.done(Status::Breakdown(Breakdown::Rho), it, rnorm);
        }
        let (pk, uk) = match (p.take(), q.take()) {
            (Some(p), Some(q)) => {
                let beta = rho / rho_prev;
                let uk = v.axpy(beta, &q, &r)?;
                // p = u + β (q + β p)
                let pk = v.axpy(beta, &v.axpy(beta, &p, &q)?, &uk)?;
                (pk, uk)
            }
            _ => (r.clone(), r.clone()),
        };
        let phat = s.psolve(&pk)?;
        let vhat = s.matvec(&phat)?;
        let rv = v.dot(&rtilde, &vhat)?;
        if rv == C::new(0.0, 0.0) {
            return s.done(Status::Breakdown(Breakdown::Denominator), it, rnorm);
        }
        let alpha = rho / rv;
        let qk = v.axpy(-alpha, &vhat, &uk)?;
        let uhat = s.psolve(&uk.add(&qk)?)?;
        s.x = v.axpy(alpha, &uhat, &s.x)?;
        r = s.b.sub(&s.matvec(&s.x)?)?;
        rho_prev = rho;
        (p, q) = (Some(pk), Some(qk));
        opts.notify(&s.x);
    }
    s.limit(maxiter, &r)
}
