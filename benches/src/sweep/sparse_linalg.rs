//! Sweep rows of `xp::sparse::linalg` against `scipy.sparse.linalg` / `cupyx.scipy.sparse.linalg`:
//! the issue's headline, CG on the 5-point 2-D Poisson matrix of 1024² unknowns in float64 for
//! 300 iterations (no tolerance stops it), and every other Krylov solver on the same matrix for a
//! fixed number of iterations.
use super::{one, uniform, Row};
use xp::sparse::linalg::{
    bicg, bicgstab, cg, cgs, eigs, eigsh, expm_multiply, gcrotmk, gmres, lgmres, lsmr, lsqr, minres, norm, qmr, spilu,
    splu, spsolve, spsolve_triangular, svds, tfqmr, EigOptions, IluOptions, Krylov, Lsq, Trans,
};
use xp::sparse::Sparse;
use xp::sparse::{CsrArray, Format};
use xp::{Array, DType, Device, Result};

/// The grid's side: `K²` unknowns.
const K: usize = 1024;

/// The 2-D Poisson matrix `kron(I, T) + kron(T, I)`, `T = tridiag(−1, 2, −1)`, on `d`.
pub(crate) fn poisson(k: usize, d: Device) -> Result<CsrArray> {
    let c = |v: f64| Array::from_vec(vec![v], [1]);
    let t = xp::sparse::diags_array(&[&c(-1.0)?, &c(2.0)?, &c(-1.0)?], &[-1, 0, 1], Some([k, k]), None, Format::Csr)?;
    let a = xp::sparse::kronsum(&t, &t, Some(Format::Csr))?.tocsr()?;
    CsrArray::new(&a.data().to_device(d)?, &a.indices().to_device(d)?, &a.indptr().to_device(d)?, a.shape())
}

/// The same in Python, `A` (CSR) and `b`.
pub(crate) fn py_setup(k: usize) -> String {
    format!(
        "K = {k}; T = sp.sparse.diags([xp.full(K - 1, -1.0), xp.full(K, 2.0), xp.full(K - 1, -1.0)], [-1, 0, 1], format='csr'); \
         I = sp.sparse.identity(K, format='csr'); A = (sp.sparse.kron(I, T) + sp.sparse.kron(T, I)).tocsr(); \
         b = uniform(K * K, 11).astype(xp.float64); L = sp.sparse.linalg\n\
         gm_iters = 60 if gpu else 3  # CuPy's gmres counts inner steps, SciPy's restart cycles\n\
         def solve(f, atol=True, **kw):\n    \
             t = {{'atol': 0.0}} if atol else {{}}\n    \
             try:\n        return f(A, b, rtol=0.0, **t, **kw)[0]\n    \
             except TypeError:\n        return f(A, b, tol=0.0, **t, **kw)[0]\n"
    )
}

pub(crate) fn rhs(k: usize, d: Device) -> Result<Array> {
    uniform(&[k * k], 11, d)?.astype(DType::F64)
}

type Solver =
    for<'a> fn(&'a dyn xp::sparse::linalg::LinearOperator, &Array, Krylov<'a>) -> Result<xp::sparse::linalg::Solution>;

pub(super) fn rows(r: &mut Vec<Row>, _gpu: bool) {
    let size = format!("{K}² Poisson f64, 300 iterations");
    r.push(
        Row::new("sparse.linalg.cg", size, py_setup(K), "solve(L.cg, maxiter=300)", |d| {
            let (a, b) = (poisson(K, d)?, rhs(K, d)?);
            one(move || Ok(cg(&a, &b, Krylov { rtol: 0.0, maxiter: Some(300), ..Default::default() })?.x))
        })
        .out("r"),
    );
    // the others on a 256² grid, 50 iterations (3 cycles of 20 steps for GMRES, LGMRES, GCROT(m, k))
    let k = 256;
    let size = format!("{k}² Poisson f64, 50 iterations");
    let solvers: [(&str, Solver, &str); 10] = [
        ("cgs", cgs, "solve(L.cgs, maxiter=50)"),
        ("bicg", bicg, "solve(L.bicg, maxiter=50)"),
        ("bicgstab", bicgstab, "solve(L.bicgstab, maxiter=50)"),
        ("gmres", gmres, "solve(L.gmres, maxiter=gm_iters, restart=20)"),
        ("lgmres", |a, b, o| lgmres(a, b, o, 3), "solve(L.lgmres, maxiter=3, inner_m=20)"),
        ("gcrotmk", |a, b, o| gcrotmk(a, b, o, None), "solve(L.gcrotmk, maxiter=3, m=20)"),
        ("qmr", |a, b, o| qmr(a, b, o, None, None), "solve(L.qmr, maxiter=50)"),
        ("tfqmr", tfqmr, "solve(L.tfqmr, maxiter=50)"),
        ("minres", |a, b, o| minres(a, b, 0.0, o), "solve(L.minres, atol=False, maxiter=50)"),
        ("cg", cg, "solve(L.cg, maxiter=50)"),
    ];
    for (name, f, call) in solvers {
        r.push(
            Row::new(&format!("sparse.linalg.{name}"), size.clone(), py_setup(k), call, move |d| {
                let (a, b) = (poisson(k, d)?, rhs(k, d)?);
                let maxiter = if name.contains("gmres") || name == "gcrotmk" { 3 } else { 50 };
                one(move || {
                    Ok(f(
                        &a,
                        &b,
                        Krylov { rtol: 0.0, maxiter: Some(maxiter), restart: Some(20), ..Default::default() },
                    )?
                    .x)
                })
            })
            .out("r"),
        );
    }
    direct(r);
    eigen(r);
    for name in ["lsqr", "lsmr"] {
        let call = format!(
            "L.{name}(A, b, atol=0.0, btol=0.0, conlim=0.0, {}=50)[0]",
            if name == "lsqr" { "iter_lim" } else { "maxiter" }
        );
        r.push(
            Row::new(&format!("sparse.linalg.{name}"), size.clone(), py_setup(k), call, move |d| {
                let (a, b) = (poisson(k, d)?, rhs(k, d)?);
                let o = || Lsq { atol: 0.0, btol: 0.0, conlim: 0.0, iter_lim: Some(50), ..Default::default() };
                one(move || Ok(if name == "lsqr" { lsqr(&a, &b, o())?.x } else { lsmr(&a, &b, o())?.x }))
            })
            .out("r"),
        );
    }
}

/// The direct solves: the issue's headline `spsolve` of the 512² Poisson matrix (Hermitian:
/// Cholesky), the same with a convection term (LU), `splu` then one solve, the triangular solve
/// of its lower triangle, and `spilu` (SciPy's ILUTP; CuPy's is ILU(0) by cuSPARSE).
fn direct(r: &mut Vec<Row>) {
    let k = 512;
    let conv = |k: usize, d: Device| -> Result<CsrArray> {
        let n = k * k;
        let c = |v: f64| Array::from_vec(vec![v], [1]);
        let t = xp::sparse::diags_array(&[&c(-0.3)?, &c(0.3)?], &[-1, 1], Some([n, n]), None, Format::Csr)?;
        poisson(k, d)?.add(&t.tocsr()?.to_device(d)?)?.tocsr()
    };
    let py_conv = "C = sp.sparse.diags([xp.full(K * K - 1, -0.3), xp.full(K * K - 1, 0.3)], [-1, 1], format='csr'); N = (A + C).tocsr()\n";
    let size = format!("{k}² Poisson f64");
    r.push(
        Row::new("sparse.linalg.spsolve", size.clone(), py_setup(k), "L.spsolve(A, b)", move |d| {
            let (a, b) = (poisson(k, d)?, rhs(k, d)?);
            one(move || spsolve(&a, &b))
        })
        .out("r"),
    );
    let csize = format!("{k}² Poisson + convection f64");
    r.push(
        Row::new("sparse.linalg.spsolve", csize.clone(), py_setup(k) + py_conv, "L.spsolve(N, b)", move |d| {
            let (a, b) = (conv(k, d)?, rhs(k, d)?);
            one(move || spsolve(&a, &b))
        })
        .out("r"),
    );
    r.push(
        Row::new("sparse.linalg.splu", csize, py_setup(k) + py_conv, "L.splu(N.tocsc()).solve(b)", move |d| {
            let (a, b) = (conv(k, d)?, rhs(k, d)?);
            one(move || splu(&a)?.solve(&b, Trans::N))
        })
        .out("r"),
    );
    let tri = "Lo = sp.sparse.tril(A, format='csr')\n";
    r.push(
        Row::new(
            "sparse.linalg.spsolve_triangular",
            size.clone(),
            py_setup(k) + tri,
            "L.spsolve_triangular(Lo, b)",
            move |d| {
                let (a, b) = (poisson(k, d)?, rhs(k, d)?);
                one(move || spsolve_triangular(&a, &b, true, false))
            },
        )
        .out("r"),
    );
    let k = 256;
    r.push(Row::new(
        "sparse.linalg.spilu",
        format!("{k}² Poisson f64"),
        py_setup(k),
        "L.spilu(A.tocsc()).solve(b)",
        move |d| {
            let (a, b) = (poisson(k, d)?, rhs(k, d)?);
            one(move || spilu(&a, IluOptions::default())?.solve(&b, Trans::N))
        },
    ));
}

/// The banded symmetric test matrix of the eigen rows: diagonals 0, ±1 and ±100 of uniform
/// values (seeds 11, 12, 13), order `n`; with `skew` the lower diagonals get seeds 14 and 15
/// (non-symmetric).
fn banded(n: usize, skew: bool, d: Device) -> Result<CsrArray> {
    let u = |len: usize, seed: u64| -> Result<Array> { uniform(&[len], seed, xp::Device::Cpu)?.astype(DType::F64) };
    let (u0, u1, u2) = (u(n, 11)?, u(n - 1, 12)?, u(n - 100, 13)?);
    let (l1, l2) = if skew { (u(n - 1, 14)?, u(n - 100, 15)?) } else { (u1.clone(), u2.clone()) };
    let a =
        xp::sparse::diags_array(&[&l2, &l1, &u0, &u1, &u2], &[-100, -1, 0, 1, 100], Some([n, n]), None, Format::Csr)?;
    let a = a.tocsr()?;
    CsrArray::new(&a.data().to_device(d)?, &a.indices().to_device(d)?, &a.indptr().to_device(d)?, a.shape())
}

fn py_banded(n: usize, skew: bool) -> String {
    let lower =
        if skew { "uniform(N - 1, 14).astype(xp.float64), uniform(N - 100, 15).astype(xp.float64)" } else { "u1, u2" };
    format!(
        "N = {n}; u0, u1, u2 = (uniform(N, 11).astype(xp.float64), uniform(N - 1, 12).astype(xp.float64), uniform(N - 100, 13).astype(xp.float64)); \
         l1, l2 = {lower}; A = sp.sparse.diags([l2, l1, u0, u1, u2], [-100, -1, 0, 1, 100], format='csr'); L = sp.sparse.linalg\n"
    )
}

/// The eigen rows: the issue's headline `eigsh` k = 6 on a 20,000² sparse symmetric matrix,
/// `eigs` and `svds` on the same size, and the matrix functions.
fn eigen(r: &mut Vec<Row>) {
    let n = 20_000;
    let size = format!("{n}² banded f64, k = 6");
    r.push(Row::new("sparse.linalg.eigsh", size.clone(), py_banded(n, false), "L.eigsh(A, k=6)[0]", move |d| {
        let a = banded(n, false, d)?;
        one(move || Ok(eigsh(&a, 6, EigOptions::default())?.w))
    }));
    r.push(Row::new("sparse.linalg.svds", size.clone(), py_banded(n, false), "L.svds(A, k=6)[1]", move |d| {
        let a = banded(n, false, d)?;
        one(move || Ok(svds(&a, 6, EigOptions::default())?.s))
    }));
    r.push(Row::new(
        "sparse.linalg.eigs",
        format!("{n}² banded non-symmetric f64, k = 6"),
        py_banded(n, true),
        "L.eigs(A, k=6)[0]",
        move |d| {
            let a = banded(n, true, d)?;
            one(move || Ok(eigs(&a, 6, EigOptions::default())?.w))
        },
    ));
    let k = 256;
    r.push(
        Row::new(
            "sparse.linalg.expm_multiply",
            format!("{k}² Poisson f64 × 0.01"),
            py_setup(k),
            "L.expm_multiply(-0.01 * A, b)",
            move |d| {
                let (a, b) = (poisson(k, d)?.mul_scalar(-0.01)?, rhs(k, d)?);
                one(move || expm_multiply(&a, &b))
            },
        )
        .out("r"),
    );
    r.push(Row::new(
        "sparse.linalg.norm",
        format!("{k}² Poisson f64, Frobenius"),
        py_setup(k),
        "L.norm(A)",
        move |d| {
            let a = poisson(k, d)?;
            one(move || norm(&a, None, None))
        },
    ));
    r.push(Row::new(
        "sparse.linalg.norm",
        format!("{k}² Poisson f64, ord 1"),
        py_setup(k),
        "L.norm(A, 1)",
        move |d| {
            let a = poisson(k, d)?;
            one(move || norm(&a, Some(xp::linalg::NormOrd::P(1.0)), None))
        },
    ));
}
