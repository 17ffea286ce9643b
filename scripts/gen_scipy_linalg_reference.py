#!/usr/bin/env python3
"""Generate the SciPy reference data of xp's scipy.linalg extensions (issue 34,
docs/plans/issue-34.md): tests/data/scipy_linalg.json.

Run from the repository root:  python3 scripts/gen_scipy_linalg_reference.py
Needs numpy (2.x), scipy (>= 1.15; made with 1.17), ml_dtypes (through gen_reference.py) and
mpmath (only to check the float64 matrix functions while generating; nothing of it is written).
Uses the encoding of gen_reference.py (floats as repr strings, complex as [re, im] pairs) and
writes {"generator", "numpy_version", "scipy_version", "cases": [...]}, as linalg.json does, so
that tests/tests/suite/common.rs's `load("scipy_linalg")` reads it.

Each case: {"op", "args": [arrays], "params": {...}, "result" | "results" | "error", "tol"},
and optionally "name" (a short label), "props_only": true (only properties can be compared:
the factors are not unique, e.g. ldl, schur, null_space; the values are still written) and
"error_index" (the position in the batch of the matrix that makes a stacked call fail).
- "op" is the scipy.linalg function's name; "params" use SciPy's own argument names and values
  (where xp needs a flag SciPy spells differently, it says so: solve_banded's (l, u) are
  {"l", "u"}, solve_toeplitz without r is {"r_given": false}, funm's func is a name).
- "results" are SciPy's outputs in SciPy's order, flattened (qr's mode="raw" gives
  [qr, tau, r(, p)]); "result" is a single array. Integers (pivots, permutations, ranks) and bools
  are exact. Where SciPy returns None (lstsq's s with lapack_driver="gelsy") the file has an
  empty array of the real dtype, shape batch + (0,).
- "error" is "ExceptionType: message" of SciPy's exception.
- "tol" is [rtol, atol] for the values: rtol = k * eps(dtype of the inputs) * (condition number
  of the problem, measured on the matrix in float64), atol = rtol * max|result|, so that a
  correct result always passes (checked while generating: every float32/complex64 case is
  recomputed from the same inputs in float64 and must agree within half the tolerance, and the
  float64 solves and matrix functions are checked against a second method) and a wrong one
  (a transposed operand, a missed conjugate, a wrong sign) never does (checked for the solvers
  and matrix functions with such wrong answers).

Batches: SciPy >= 1.15 batches most of scipy.linalg (leading dimensions; a right-hand side b of
ndim >= 2 is a stack of (n, k) matrices, so a stack of vectors is (..., n, 1) or b of shape (n,)
broadcast). Where SciPy does not batch (qr mode="raw", hankel, solve_circulant's leading-batch
form) this script loops and stacks, and says so in the case's name.
"""
import json
import os
import sys
import warnings

# One BLAS thread: threaded BLAS can change the last bits of a result from run to run (seen in
# logm), and the file must be the same every time.
for _v in ["OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"]:
    os.environ[_v] = "1"

import numpy as np  # noqa: E402
import scipy  # noqa: E402
import scipy.linalg as sl  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from gen_reference import OUT, arr, dt, kind  # noqa: E402

warnings.filterwarnings("ignore")
RNG = np.random.default_rng(20261129)
FLOATS = ["float32", "float64", "complex64", "complex128"]
REALS = ["float32", "float64"]
EPS = {"float32": 1.2e-7, "complex64": 1.2e-7, "float64": 2.3e-16, "complex128": 2.3e-16}
# "ill-conditioned" inputs: the condition number that leaves a few digits in each precision
ILL = {"float32": 1e3, "complex64": 1e3, "float64": 1e6, "complex128": 1e6}
REAL_OF = {"float32": "float32", "complex64": "float32", "float64": "float64", "complex128": "float64"}
UP = {np.dtype("float32"): np.float64, np.dtype("complex64"): np.complex128}

CASES = []
WORST = {}
CHECKS = {"f32": 0, "f32_fail": [], "alt": 0, "alt_fail": [], "wrong": 0, "wrong_pass": []}


def is_c(name):
    return kind(dt(name)) == "c"


# ---------------------------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------------------------

def rand(shape, name, lo=-1.0, hi=1.0):
    """Uniform values in [lo, hi) of dtype `name` (complex: both parts random)."""
    x = RNG.uniform(lo, hi, shape)
    if is_c(name):
        x = x + 1j * RNG.uniform(lo, hi, shape)
    return x.astype(dt(name))


def unitary(n, cplx):
    z = RNG.standard_normal((n, n))
    if cplx:
        z = z + 1j * RNG.standard_normal((n, n))
    q, r = np.linalg.qr(z)
    d = np.diag(r)
    return q * (d / np.abs(d))


def spectrum(k, cond):
    """k singular values from 1 down to 1/cond (geometric), in random order."""
    s = np.geomspace(1.0, 1.0 / cond, k) if k > 1 else np.ones(k)
    return RNG.permutation(s)


def gen(shape, name, cond=10.0, rank=None):
    """A dense (stack of) m x n matrix U diag(s) V^H with condition number `cond` (or `rank`
    nonzero singular values): no structure, so partial pivoting permutes."""
    m, n = shape[-2:]
    out = np.zeros(shape, complex if is_c(name) else float)
    for idx in np.ndindex(shape[:-2]):
        k = min(m, n)
        s = spectrum(k, cond) * 2.0
        if rank is not None:
            s[rank:] = 0.0
        u = unitary(m, is_c(name))[:, :k]
        v = unitary(n, is_c(name))[:, :k]
        out[idx] = (u * s) @ v.conj().T
    return out.astype(dt(name))


def hpd(shape, name, cond=10.0):
    """Hermitian positive definite, eigenvalues 2 .. 2/cond."""
    n = shape[-1]
    out = np.zeros(shape, complex if is_c(name) else float)
    for idx in np.ndindex(shape[:-2]):
        u = unitary(n, is_c(name))
        out[idx] = (u * (2.0 * spectrum(n, cond))) @ u.conj().T
    out = (out + np.conj(np.swapaxes(out, -1, -2))) / 2
    return out.astype(dt(name))


def herm_indef(shape, name, cond=10.0, eig=None):
    """Hermitian (real symmetric) indefinite: eigenvalues of both signs, |.| in 2 .. 2/cond."""
    n = shape[-1]
    out = np.zeros(shape, complex if is_c(name) else float)
    for idx in np.ndindex(shape[:-2]):
        u = unitary(n, is_c(name))
        if eig is None:
            w = 2.0 * spectrum(n, cond)
            sg = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
            w = w * RNG.permutation(sg)
        else:
            w = np.asarray(eig, float)
        out[idx] = (u * w) @ u.conj().T
    out = (out + np.conj(np.swapaxes(out, -1, -2))) / 2
    return out.astype(dt(name))


def csym(shape, name, cond=10.0):
    """Complex symmetric (a == a.T, not Hermitian); real symmetric for real dtypes."""
    a = gen(shape, name, cond)
    return ((a + np.swapaxes(a, -1, -2)) / 2).astype(dt(name))


def with_eigs(n, name, eigs, vcond=5.0):
    """V diag(eigs) V^-1 (real dtypes: conjugate pairs become real 2x2 blocks)."""
    eigs = np.asarray(eigs, complex)
    if is_c(name):
        d = np.diag(eigs)
    else:
        d = np.zeros((n, n))
        i = 0
        while i < n:
            if abs(eigs[i].imag) > 0:
                a, b = eigs[i].real, abs(eigs[i].imag)
                d[i:i + 2, i:i + 2] = [[a, b], [-b, a]]
                i += 2
            else:
                d[i, i] = eigs[i].real
                i += 1
    v = gen((n, n), "complex128" if is_c(name) else "float64", vcond)
    return (v @ d @ np.linalg.inv(v)).astype(dt(name))


def scaled(a, norm):
    """`a` scaled to 2-norm `norm` (per matrix of a stack)."""
    a = np.asarray(a)
    s = np.linalg.norm(a.astype(np.complex128), 2, axis=(-2, -1), keepdims=True)
    s = np.where(s == 0, 1.0, s)
    return (a * (norm / s)).astype(a.dtype)


def poison(a, lower, diag=False):
    """`a` with the triangle a routine must not read (the strict upper one when `lower`)
    overwritten by garbage (and the diagonal too when `diag`, for unit_diagonal)."""
    a = a.copy()
    n = a.shape[-1]
    iu = np.triu_indices(n, 1) if lower else np.tril_indices(n, -1)
    g = rand(a.shape, "complex128" if is_c(a.dtype.name) else "float64", 5, 9).astype(a.dtype)
    a[(..., *iu)] = g[(..., *iu)]
    if diag:
        a[..., np.arange(n), np.arange(n)] = g[..., np.arange(n), np.arange(n)]
    return a


def tri_part(a, lower, unit=False):
    """The triangle a triangular routine reads (with a unit diagonal when `unit`)."""
    t = np.tril(a) if lower else np.triu(a)
    if unit:
        n = a.shape[-1]
        t = t.copy()
        t[..., np.arange(n), np.arange(n)] = 1
    return t


def her_from(a, lower):
    """The Hermitian matrix that a routine reading only one triangle of `a` sees."""
    t = np.tril(a, -1) if lower else np.triu(a, 1)
    d = np.real(np.diagonal(a, axis1=-2, axis2=-1))
    full = t + np.conj(np.swapaxes(t, -1, -2))
    n = a.shape[-1]
    full = full.astype(a.dtype)
    full[..., np.arange(n), np.arange(n)] = d
    return full


def cond_of(a):
    """2-norm condition number (the largest over a stack), in float64/complex128."""
    a = np.asarray(a).astype(np.complex128)
    if a.size == 0:
        return 1.0
    c = np.linalg.cond(a.reshape((-1,) + a.shape[-2:]))
    c = float(np.max(c))
    return c if np.isfinite(c) else 1e300


def cycle(options, i):
    return options[i % len(options)]


# ---------------------------------------------------------------------------------------------
# cases
# ---------------------------------------------------------------------------------------------

def up(x):
    x = np.asarray(x)
    return x.astype(UP[x.dtype]) if x.dtype in UP else x


def as_list(r):
    return list(r) if isinstance(r, (list, tuple)) else [r]


def floats_of(rs):
    return [np.asarray(r) for r in rs if np.asarray(r).dtype.kind in "fc"]


def ratio(got, want, rtol, atol):
    """The largest |got - want| / (atol + rtol |want|) over every array (inf where shapes,
    counts or integers differ)."""
    got, want = as_list(got), as_list(want)
    if len(got) != len(want):
        return np.inf
    worst = 0.0
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        if g.shape != w.shape:
            return np.inf
        if w.dtype.kind in "fc" or g.dtype.kind in "fc":
            g = g.astype(np.complex128)
            w = w.astype(np.complex128)
            if g.size:
                worst = max(worst, float(np.max(np.abs(g - w) / (atol + rtol * np.abs(w)))))
        elif not np.array_equal(g, w):
            return np.inf
    return worst


def canon_vectors(r):
    """Eigenvector columns scaled to one phase (largest entry real positive), for the checks."""
    r = as_list(r)
    out = []
    for x in r:
        x = np.asarray(x)
        if x.ndim >= 2 and x.dtype.kind in "fc" and x.shape[-1] == x.shape[-2]:
            idx = np.argmax(np.abs(x), axis=-2)[..., None, :]
            ph = np.take_along_axis(x, idx, axis=-2)
            x = x * (np.abs(ph) / ph)
        out.append(x)
    return out


def add(op, args, params, f, dtn=None, cond=1.0, k=30.0, name=None, props_only=False, alt=None,
        wrong=None, exact=False, error_index=None, check32=True, expect_error=False, post=None,
        canon=None, scale_floor=0.0):
    """Append one case: SciPy's `f(*args)` (a single array, a tuple/list of them, or an
    exception). `dtn`: the dtype whose eps sets the tolerance (default: the first float arg's);
    `cond`: the problem's condition number; `k`: the allowance in units of eps*cond; `alt`: a
    second computation (of the float64 inputs) the result must agree with; `wrong`: plausible
    wrong answers (a list of functions of args) that must not pass."""
    args = [np.asarray(a) for a in args]
    c = {"op": op}
    if name:
        c["name"] = name
    c["args"] = [arr(a) for a in args]
    c["params"] = params
    try:
        r = f(*args)
    except Exception as e:  # SciPy refused: the tests expect an error too
        if not expect_error:
            raise RuntimeError(f"{op} {name}: unexpected {type(e).__name__}: {e}")
        c["error"] = type(e).__name__ + ": " + str(e)
        if error_index is not None:
            c["error_index"] = error_index
        CASES.append(c)
        return c
    if expect_error:
        raise RuntimeError(f"{op} {name}: expected an error, got a result")
    if post is not None:
        r = post(r)
    rs = as_list(r)
    if isinstance(r, (list, tuple)):
        c["results"] = [arr(x) for x in rs]
    else:
        c["result"] = arr(r)
    if props_only:
        c["props_only"] = True
    fl = floats_of(rs)
    if exact or not fl:
        c["tol"] = [0.0, 0.0]
    else:
        if dtn is None:
            fa = [a for a in args if a.dtype.kind in "fc"]
            dtn = min((a.dtype.name for a in fa), key=lambda d: -EPS.get(d, 0), default="float64")
            dtn = dtn if dtn in EPS else "float64"
        rtol = k * EPS[dtn] * cond
        assert rtol < 0.05, (op, name, dtn, cond, rtol)
        scale = max([float(np.max(np.abs(x))) for x in fl if x.size] + [scale_floor])
        atol = rtol * (scale if scale > 0 else 1.0)
        c["tol"] = [float(f"{rtol:.3g}"), float(f"{atol:.3g}")]
        rtol, atol = c["tol"]
        label = f"{op} {name or ''} {dtn} {params} {[list(a.shape) for a in args]}"
        cn = canon or (lambda r: r)
        if not props_only:
            # float32 inputs: SciPy's answer is within half the tolerance of the float64 one
            if check32 and any(a.dtype in UP for a in args):
                CHECKS["f32"] += 1
                try:
                    r64 = f(*[up(a) for a in args])
                    if post is not None:
                        r64 = post(r64)
                    q = ratio(cn(rs), cn(r64), rtol, atol)
                except Exception as e:  # noqa: BLE001
                    q = np.inf
                    label += f" ({e})"
                WORST.setdefault((op, "f32"), []).append(q)
                if not q <= 0.5:
                    CHECKS["f32_fail"].append(f"{label} ratio {q:.3g}")
            if alt is not None:
                CHECKS["alt"] += 1
                ra = alt(*[up(a) for a in args])
                q = ratio(cn(rs), cn(ra), rtol, atol)
                WORST.setdefault((op, "alt"), []).append(q)
                if not q <= 0.5:
                    CHECKS["alt_fail"].append(f"{label} ratio {q:.3g}")
            # (a 1x1 problem has no wrong transpose or conjugate to catch)
            if any(a.ndim >= 2 and a.shape[-1] > 1 for a in args):
                for w in wrong or []:
                    CHECKS["wrong"] += 1
                    q = ratio(cn(rs), cn(w(*args)), rtol, atol)
                    if q <= 1.0:
                        CHECKS["wrong_pass"].append(f"{label} ratio {q:.3g}")
    if error_index is not None:
        c["error_index"] = error_index
    CASES.append(c)
    return c


def err(op, args, params, f, name=None, error_index=None):
    return add(op, args, params, f, name=name, expect_error=True, error_index=error_index)


def opm(a, trans):
    """op(a) of LAPACK's trans = 0 (a), 1 (a^T), 2 (a^H)."""
    return [a, np.swapaxes(a, -1, -2), np.conj(np.swapaxes(a, -1, -2))][trans]


def dsolve(a, b):
    """Dense solve with SciPy's b convention (b 1-D: a vector; else (..., n, k))."""
    a = np.asarray(a)
    b = np.asarray(b)
    if b.ndim == 1:
        return np.linalg.solve(a, b[..., None])[..., 0] if a.ndim > 2 else np.linalg.solve(a, b)
    return np.linalg.solve(a, b)


# ---------------------------------------------------------------------------------------------
# LU, Cholesky, LDL
# ---------------------------------------------------------------------------------------------

def lu_cases():
    combos = [(False, False), (False, True), (True, False)]
    for name in FLOATS:
        shapes = [((1, 1), 10.0), ((4, 4), 10.0), ((6, 4), 10.0), ((4, 6), 10.0), ((3, 5, 5), 10.0),
                  ((2, 2, 3, 4), 10.0), ((8, 8), ILL[name])]
        for i, (sh, cnd) in enumerate(shapes):
            a = gen(sh, name, cnd)
            cs = combos if sh == (4, 4) else [cycle(combos, i)]
            for pl, pi in cs:
                add("lu", [a], {"permute_l": pl, "p_indices": pi},
                    lambda a, pl=pl, pi=pi: sl.lu(a, permute_l=pl, p_indices=pi), cond=cond_of(a),
                    name="ill-conditioned" if cnd > 10 else None)
        s = gen((5, 5), name, rank=3)
        # rank-deficient: the trailing factors are rounding noise, so only P L U = A is compared
        add("lu", [s], {"permute_l": False, "p_indices": True}, lambda a: sl.lu(a, p_indices=True),
            cond=100.0, name="rank 3 of 5", props_only=True)
        sing = np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]], dt(name))
        for pl, pi in combos:
            add("lu", [sing], {"permute_l": pl, "p_indices": pi}, lambda a, pl=pl, pi=pi: sl.lu(a, permute_l=pl, p_indices=pi),
                cond=10.0, name="exactly singular (exact zeros in U)")
        # lu_factor: [lu, piv (int32, 0-based)]
        for i, (sh, cnd) in enumerate(shapes):
            a = gen(sh, name, cnd)
            add("lu_factor", [a], {}, lambda a: sl.lu_factor(a), cond=cond_of(a),
                name="ill-conditioned" if cnd > 10 else None)
        sing = np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]], dt(name))
        add("lu_factor", [sing], {}, lambda a: sl.lu_factor(a), cond=10.0,
            name="exactly singular (SciPy warns 'Diagonal number 3 is exactly zero', returns)")
        zc = gen((4, 4), name)
        zc[:, 1] = 0
        add("lu_factor", [zc], {}, lambda a: sl.lu_factor(a), cond=10.0,
            name="zero column (exactly singular, SciPy warns, returns)")
        # lu_solve: lu_factor(a) then lu_solve((lu, piv), b, trans)
        sets = [((4, 4), (4,)), ((4, 4), (4, 3)), ((1, 1), (1,)), ((3, 5, 5), (5,)), ((3, 5, 5), (3, 5, 2)),
                ((2, 2, 3, 3), (2, 1, 3, 2)), ((8, 8), (8, 2))]
        for i, (sa, sb) in enumerate(sets):
            cnd = ILL[name] if sa == (8, 8) else 10.0
            a, b = gen(sa, name, cnd), rand(sb, name)
            trs = [0, 1, 2] if i == 1 else [cycle([0, 1, 2], i)]
            for tr in trs:
                add("lu_solve", [a, b], {"trans": tr},
                    lambda a, b, tr=tr: sl.lu_solve(sl.lu_factor(a), b, trans=tr), cond=cond_of(a),
                    alt=lambda a, b, tr=tr: dsolve(opm(a, tr), b),
                    wrong=[lambda a, b, w=w: dsolve(opm(a, w), b) for w in range(3) if w != tr and (is_c(name) or {w, tr} != {1, 2})],
                    name="ill-conditioned" if cnd > 10 else None)
    a = gen((4, 4), "float64")
    err("lu_solve", [a, rand((3,), "float64")], {"trans": 0}, lambda a, b: sl.lu_solve(sl.lu_factor(a), b),
        name="b has the wrong length")
    err("lu_solve", [gen((2, 4, 4), "float64"), rand((3, 4, 1), "float64")], {"trans": 0},
        lambda a, b: sl.lu_solve(sl.lu_factor(a), b), name="batch shapes do not broadcast")
    err("lu", [rand((3,), "float64")], {"permute_l": False, "p_indices": False}, lambda a: sl.lu(a), name="1-D")


def cho_cases():
    for name in FLOATS:
        shapes = [((1, 1), 10.0), ((4, 4), 10.0), ((3, 4, 4), 10.0), ((2, 2, 3, 3), 10.0), ((8, 8), ILL[name])]
        for i, (sh, cnd) in enumerate(shapes):
            h = hpd(sh, name, cnd)
            for lower in [False, True]:
                g = poison(h, lower) if sh[-1] > 1 and i % 2 == 1 or sh == (8, 8) else h
                nm = ("other triangle poisoned" if g is not h else None)
                if cnd > 10:
                    nm = "ill-conditioned, " + nm
                # The factor's used triangle only: SciPy's cho_factor leaves the other triangle
                # of its output as whatever was in `a` (garbage by contract); it is zeroed here,
                # and the tests zero it on xp's side too.
                add("cho_factor", [g], {"lower": lower},
                    lambda a, lower=lower: tri_part(sl.cho_factor(a, lower=lower)[0], lower),
                    cond=np.sqrt(cond_of(h)) * 4, name=nm)
                add("cholesky", [g], {"lower": lower}, lambda a, lower=lower: sl.cholesky(a, lower=lower),
                    cond=np.sqrt(cond_of(h)) * 4, name=nm,
                    wrong=[lambda a, lower=lower: np.conj(np.swapaxes(sl.cholesky(a, lower=lower), -1, -2))])
        for i, (sa, sb) in enumerate([((4, 4), (4,)), ((4, 4), (4, 3)), ((1, 1), (1,)), ((3, 5, 5), (5,)),
                                      ((3, 5, 5), (3, 5, 2)), ((8, 8), (8,))]):
            cnd = ILL[name] if sa == (8, 8) else 10.0
            h, b = hpd(sa, name, cnd), rand(sb, name)
            for lower in ([False, True] if i == 1 else [i % 2 == 0]):
                g = poison(h, lower) if sa[-1] > 1 else h
                add("cho_solve", [g, b], {"lower": lower},
                    lambda a, b, lower=lower: sl.cho_solve(sl.cho_factor(a, lower=lower), b), cond=cond_of(h),
                    alt=lambda a, b, lower=lower: dsolve(her_from(a, lower), b),
                    wrong=[lambda a, b, lower=lower: dsolve(her_from(a, not lower), b)],
                    name=("ill-conditioned, " if cnd > 10 else "") + ("other triangle poisoned" if sa[-1] > 1 else ""))
    npd = np.array([[1.0, 2.0], [2.0, 1.0]])
    err("cholesky", [npd], {"lower": False}, lambda a: sl.cholesky(a), name="not positive definite")
    err("cho_factor", [npd], {"lower": True}, lambda a: sl.cho_factor(a, lower=True), name="not positive definite")
    err("cho_solve", [npd, np.ones(2)], {"lower": False}, lambda a, b: sl.cho_solve(sl.cho_factor(a), b),
        name="not positive definite (in cho_factor)")
    c3 = np.diag([1.0, 2.0, -1.0]).astype(np.complex128)
    err("cholesky", [c3], {"lower": True}, lambda a: sl.cholesky(a, lower=True), name="not positive definite at 3")
    st = np.stack([hpd((3, 3), "float64"), hpd((3, 3), "float64"), -np.eye(3)])
    err("cholesky", [st], {"lower": False}, lambda a: sl.cholesky(a), name="stack, third not positive definite",
        error_index=2)
    err("cholesky", [rand((2, 3), "float64")], {"lower": False}, lambda a: sl.cholesky(a), name="not square")
    h = hpd((4, 4), "float64")
    err("cho_solve", [h, rand((3,), "float64")], {"lower": False}, lambda a, b: sl.cho_solve(sl.cho_factor(a), b),
        name="b has the wrong length")


def ldl_cases():
    # props_only: compare lu[perm] triangular (lower: unit lower; upper: unit upper), d block
    # diagonal (1x1 and 2x2 blocks), lu @ d @ lu^H == a (hermitian) or lu @ d @ lu^T == a.
    for name in FLOATS:
        herms = [True, False] if is_c(name) else [True]
        for sh in [(1, 1), (5, 5), (3, 4, 4)]:
            for herm in herms:
                a = herm_indef(sh, name) if herm else csym(sh, name)
                for lower in ([True, False] if sh == (5, 5) else [herm]):
                    g = poison(a, lower) if sh[-1] > 1 else a
                    add("ldl", [g], {"lower": lower, "hermitian": herm},
                        lambda a, lower=lower, herm=herm: sl.ldl(a, lower=lower, hermitian=herm),
                        props_only=True, cond=cond_of(a), name="other triangle poisoned" if sh[-1] > 1 else None)
        # zero diagonal forces 2x2 pivots
        z = np.zeros((4, 4), dt(name))
        z[0, 1] = z[1, 0] = 1
        z[2, 3] = z[3, 2] = 2
        z[0, 3] = z[3, 0] = 0.5
        add("ldl", [z], {"lower": True, "hermitian": True}, lambda a: sl.ldl(a), props_only=True, cond=10.0,
            name="zero diagonal: 2x2 pivots")
    err("ldl", [rand((2, 3), "float64")], {"lower": True, "hermitian": True}, lambda a: sl.ldl(a), name="not square")


# ---------------------------------------------------------------------------------------------
# solve and the structured solvers
# ---------------------------------------------------------------------------------------------

def band_dense(shape, name, l, u, boost=None):
    """A dense (stack of) n x n band matrix with l sub- and u super-diagonals, well conditioned."""
    n = shape[-1]
    a = rand(shape, name)
    i, j = np.indices((n, n))
    a = np.where((j - i <= u) & (i - j <= l), a, 0).astype(dt(name))
    a[..., np.arange(n), np.arange(n)] += (boost if boost is not None else 1.5 + l + u)
    return a


def to_ab(a, l, u, poison_corners=False):
    """LAPACK band storage: ab[u + i - j, j] = a[i, j]."""
    n = a.shape[-1]
    ab = np.zeros(a.shape[:-2] + (l + u + 1, n), a.dtype)
    for j in range(n):
        for i in range(max(0, j - u), min(n, j + l + 1)):
            ab[..., u + i - j, j] = a[..., i, j]
    if poison_corners:
        for j in range(n):
            for r in range(l + u + 1):
                i = r - u + j
                if i < 0 or i >= n:
                    ab[..., r, j] = 7
    return ab


def to_hab(a, u, lower):
    """solveh_banded / eig_banded storage: upper ab[u + i - j, j] = a[i, j] (i <= j);
    lower ab[i - j, j] = a[i, j] (i >= j)."""
    n = a.shape[-1]
    ab = np.zeros(a.shape[:-2] + (u + 1, n), a.dtype)
    for j in range(n):
        for i in range(n):
            if lower and 0 <= i - j <= u:
                ab[..., i - j, j] = a[..., i, j]
            if not lower and 0 <= j - i <= u:
                ab[..., u + i - j, j] = a[..., i, j]
    return ab


def solve_cases():
    kinds = ["gen", "sym", "her", "pos", "diagonal", "tridiagonal", "banded", "upper triangular",
             "lower triangular"]
    for name in FLOATS:
        for kind_ in kinds:
            variants = [((4, 4), (4,)), ((4, 4), (4, 2)), ((3, 5, 5), (3, 5, 1)), ((1, 1), (1,))]
            if kind_ == "gen":
                variants.append(((2, 1, 4, 4), (3, 4, 2)))  # batch shapes broadcast
            if kind_ in ("gen", "pos", "upper triangular", "sym"):
                variants.append(((8, 8), (8,)))  # ill-conditioned
            for vi, (sa, sb) in enumerate(variants):
                ill = sa == (8, 8)
                cnd = ILL[name] if ill else 10.0
                lowers = ([False, True] if vi in (0, 2) else [vi % 2 == 1]) if kind_ in ("sym", "her", "pos") else [False]
                for lower in lowers:
                    if kind_ == "gen":
                        a = gen(sa, name, cnd)
                        eff = a
                    elif kind_ in ("sym", "her"):
                        h = csym(sa, name, cnd) if kind_ == "sym" else herm_indef(sa, name, cnd)
                        a = poison(h, lower) if sa[-1] > 1 else h
                        eff = h
                    elif kind_ == "pos":
                        h = hpd(sa, name, cnd)
                        a = poison(h, lower) if sa[-1] > 1 else h
                        eff = h
                    elif kind_ == "diagonal":
                        d = rand(sa[:-1], name, 0.5, 2.0) * np.where(RNG.uniform(size=sa[:-1]) < 0.5, -1, 1)
                        eff = np.zeros(sa, dt(name))
                        eff[..., np.arange(sa[-1]), np.arange(sa[-1])] = d
                        a = eff + (np.triu(rand(sa, name), 1) if vi == 1 else 0)  # off-diagonal ignored
                    elif kind_ == "tridiagonal":
                        eff = band_dense(sa, name, 1, 1)
                        a = eff + (np.triu(rand(sa, name), 2) if vi == 1 else 0)  # outside band ignored
                    elif kind_ == "banded":
                        eff = band_dense(sa, name, 2, 1)
                        a = eff
                    else:
                        lw = kind_.startswith("lower")
                        q = gen(sa, name, cnd)
                        r = np.linalg.qr(q)[1] if sa[-1] > 1 else q
                        t = np.conj(np.swapaxes(r, -1, -2)) if lw else r
                        eff = t.astype(dt(name))
                        a = poison(eff, lw) if sa[-1] > 1 and vi % 2 == 1 else eff
                    a = np.asarray(a, dt(name))
                    b = rand(sb, name)
                    trs = [False, True] if not is_c(name) and vi in (0, 2) and kind_ not in ("sym", "her", "pos", "diagonal") else [False]
                    for transposed in trs:
                        nm = []
                        if ill:
                            nm.append("ill-conditioned")
                        if a is not eff and sa[-1] > 1 and not np.array_equal(a, eff):
                            nm.append("unread part poisoned")
                        add("solve", [a, b], {"assume_a": kind_, "lower": lower, "transposed": transposed},
                            lambda a, b, kind_=kind_, lower=lower, tp=transposed:
                                sl.solve(a, b, assume_a=kind_, lower=lower, transposed=tp),
                            cond=cond_of(eff), name=", ".join(nm) or None,
                            alt=lambda a, b, eff=eff, tp=transposed: dsolve(opm(up(eff), 1 if tp else 0), b),
                            wrong=[lambda a, b, eff=eff, tp=transposed: dsolve(opm(eff, 0 if tp else 1), b)]
                            if kind_ not in ("sym", "her", "pos", "diagonal") else None)
        # assume_a=None: SciPy detects the structure
        for a in [gen((4, 4), name), hpd((4, 4), name), np.triu(gen((4, 4), name)) + 2 * np.eye(4, dtype=dt(name))]:
            b = rand((4,), name)
            add("solve", [a, b], {"assume_a": None, "lower": False, "transposed": False},
                lambda a, b: sl.solve(a, b), cond=cond_of(a), name="structure detected",
                alt=lambda a, b: dsolve(a, b))
        sing = np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]], dt(name))
        err("solve", [sing, rand((3,), name)], {"assume_a": "gen", "lower": False, "transposed": False},
            lambda a, b: sl.solve(a, b, assume_a="gen"), name="singular")
    f64 = "float64"
    a, b = gen((16, 16), f64, 100.0), rand((16,), f64)
    add("solve", [a, b], {"assume_a": "gen", "lower": False, "transposed": False},
        lambda a, b: sl.solve(a, b, assume_a="gen"), cond=cond_of(a), name="16 x 16",
        alt=lambda a, b: dsolve(a, b), wrong=[lambda a, b: dsolve(a.T, b)])
    ai, bi = np.array([[4, 1, 0], [1, 3, -1], [0, 2, 5]]), np.array([1, -2, 3])
    add("solve", [ai, bi], {"assume_a": "gen", "lower": False, "transposed": False},
        lambda a, b: sl.solve(a, b), dtn=f64, cond=cond_of(ai), name="int64 inputs: float64 result",
        alt=lambda a, b: dsolve(a.astype(float), b.astype(float)))
    sing = np.array([[1.0, 2.0], [2.0, 4.0]])
    st = np.stack([np.eye(2), sing, np.eye(2)])
    # SciPy 1.17 numbers the singular slices by their position among the failing ones, not in
    # the batch ("slice(s) [0]" here, where the singular matrix is at 1): error_index is the truth.
    err("solve", [st, np.ones(2)], {"assume_a": "gen", "lower": False, "transposed": False},
        lambda a, b: sl.solve(a, b, assume_a="gen"), name="stack, second singular", error_index=1)
    for kind_, a in [("pos", -np.eye(3)), ("diagonal", np.diag([1.0, 0.0, 2.0])),
                     ("sym", np.zeros((3, 3))), ("tridiagonal", band_dense((3, 3), f64, 1, 1, 0.0) * 0),
                     ("banded", np.array([[1.0, 2, 0], [2, 4, 0], [0, 0, 1]]))]:
        err("solve", [a, np.ones(3)], {"assume_a": kind_, "lower": False, "transposed": False},
            lambda a, b, kind_=kind_: sl.solve(a, b, assume_a=kind_), name="singular / not positive definite")
    err("solve", [gen((3, 3), "complex128"), np.ones(3, complex)], {"assume_a": "gen", "lower": False, "transposed": True},
        lambda a, b: sl.solve(a, b, transposed=True), name="transposed complex: SciPy refuses")
    err("solve", [rand((2, 3), f64), np.ones(2)], {"assume_a": "gen", "lower": False, "transposed": False},
        lambda a, b: sl.solve(a, b), name="not square")
    err("solve", [gen((3, 3), f64), np.ones(4)], {"assume_a": "gen", "lower": False, "transposed": False},
        lambda a, b: sl.solve(a, b), name="b has the wrong length")
    nan = gen((3, 3), f64)
    nan[1, 1] = np.nan
    err("solve", [nan, np.ones(3)], {"assume_a": "gen", "lower": False, "transposed": False},
        lambda a, b: sl.solve(a, b), name="not finite")
    err("solve", [gen((3, 3), f64), np.ones(3)], {"assume_a": "unknown", "lower": False, "transposed": False},
        lambda a, b: sl.solve(a, b, assume_a="unknown"), name="unknown assume_a")


def triangular_cases():
    for name in FLOATS:
        sets = [((4, 4), (4,)), ((4, 4), (4, 3)), ((1, 1), (1,)), ((3, 5, 5), (5,)), ((3, 5, 5), (3, 5, 2)),
                ((8, 8), (8,))]
        for si, (sa, sb) in enumerate(sets):
            ill = sa == (8, 8)
            combos = [(t, lw, ud) for t in (0, 1, 2) for lw in (False, True) for ud in (False, True)]
            if sa == (4, 4) and sb == (4, 3):
                cs = combos
            else:
                cs = [cycle(combos, si * 5 + j * 7) for j in range(2)]
            for t, lw, ud in cs:
                if ud:
                    base = (np.tril(rand(sa, name), -1) if lw else np.triu(rand(sa, name), 1)) * 0.5
                    n = sa[-1]
                    base[..., np.arange(n), np.arange(n)] = 1
                else:
                    q = gen(sa, name, ILL[name] if ill else 10.0)
                    r = np.linalg.qr(q)[1] if sa[-1] > 1 else q
                    base = np.conj(np.swapaxes(r, -1, -2)) if lw else r
                base = base.astype(dt(name))
                eff = tri_part(base, lw, ud)
                a = poison(base, lw, diag=ud)
                b = rand(sb, name)
                wr = [lambda a, b, eff=eff, w=w: dsolve(opm(eff, w), b) for w in range(3)
                      if w != t and (is_c(name) or {w, t} != {1, 2})]
                add("solve_triangular", [a, b], {"trans": t, "lower": lw, "unit_diagonal": ud},
                    lambda a, b, t=t, lw=lw, ud=ud: sl.solve_triangular(a, b, trans=t, lower=lw, unit_diagonal=ud),
                    cond=cond_of(eff), alt=lambda a, b, eff=eff, t=t: dsolve(opm(up(eff), t), b), wrong=wr,
                    name=("ill-conditioned, " if ill else "") + "unread triangle poisoned" + (" (diagonal too)" if ud else ""))
    # singular: an exact zero on the diagonal; SciPy's message names its 0-based index (the
    # first zero LAPACK's trtrs meets: the smallest index).
    for lw in [False, True]:
        a = np.triu(gen((4, 4), "float64")) if not lw else np.tril(gen((4, 4), "float64"))
        a[2, 2] = 0
        err("solve_triangular", [a, np.ones(4)], {"trans": 0, "lower": lw, "unit_diagonal": False},
            lambda a, b, lw=lw: sl.solve_triangular(a, b, lower=lw), name="zero at diagonal 2")
    a = np.diag([1.0, 0.0, 2.0, 0.0]).astype(np.complex64)
    err("solve_triangular", [a, np.ones((4, 2), np.complex64)], {"trans": 2, "lower": False, "unit_diagonal": False},
        lambda a, b: sl.solve_triangular(a, b, trans=2), name="zeros at diagonal 1 and 3")
    st = np.stack([np.eye(3), np.diag([1.0, 1.0, 0.0])])
    err("solve_triangular", [st, np.ones(3)], {"trans": 0, "lower": False, "unit_diagonal": False},
        lambda a, b: sl.solve_triangular(a, b), name="stack, second has a zero at diagonal 2", error_index=1)
    a = np.diag([1.0, 0.0, 2.0])
    add("solve_triangular", [a, np.ones(3)], {"trans": 0, "lower": False, "unit_diagonal": True},
        lambda a, b: sl.solve_triangular(a, b, unit_diagonal=True), name="zero diagonal not read with unit_diagonal")
    err("solve_triangular", [rand((2, 3), "float64"), np.ones(2)], {"trans": 0, "lower": False, "unit_diagonal": False},
        lambda a, b: sl.solve_triangular(a, b), name="not square")
    err("solve_triangular", [np.eye(3), np.ones(4)], {"trans": 0, "lower": False, "unit_diagonal": False},
        lambda a, b: sl.solve_triangular(a, b), name="b has the wrong length")


def banded_cases():
    for name in FLOATS:
        sets = [(5, (1, 1), (5,)), (5, (2, 1), (5, 2)), (6, (0, 2), (6,)), (6, (2, 0), (6, 2)), (1, (1, 1), (1,)),
                (4, (0, 0), (4,)), (8, (3, 2), (8,))]
        for si, (n, (l, u), sb) in enumerate(sets):
            a = band_dense((n, n), name, l, u)
            ab = to_ab(a, l, u, poison_corners=si % 2 == 1)
            b = rand(sb, name)
            add("solve_banded", [ab, b], {"l": l, "u": u},
                lambda ab, b, l=l, u=u: sl.solve_banded((l, u), ab, b), cond=cond_of(a),
                alt=lambda ab, b, a=a: dsolve(up(a), b), wrong=[lambda ab, b, a=a: dsolve(a.T, b)] if l + u > 0 else None,
                name="unused corners poisoned" if si % 2 == 1 else None)
        # ill-conditioned: a row/column scaled band matrix
        n, l, u = 8, 1, 2
        a = band_dense((n, n), name, l, u)
        dsc = np.geomspace(1, 1 / np.sqrt(ILL[name]), n)
        a = (a * dsc[:, None] * dsc[None, ::-1]).astype(dt(name))
        b = rand((n,), name)
        add("solve_banded", [to_ab(a, l, u), b], {"l": l, "u": u}, lambda ab, b: sl.solve_banded((1, 2), ab, b),
            cond=cond_of(a), alt=lambda ab, b, a=a: dsolve(up(a), b), name="ill-conditioned")
        # stacks (SciPy batches ab and b)
        a = band_dense((3, 6, 6), name, 1, 2)
        for b in [rand((6,), name), rand((3, 6, 2), name)]:
            add("solve_banded", [to_ab(a, 1, 2), b], {"l": 1, "u": 2}, lambda ab, b: sl.solve_banded((1, 2), ab, b),
                cond=cond_of(a), alt=lambda ab, b, a=a: dsolve(up(a), b))
        # solveh_banded
        # (n = 1 with u = 1 is left out: SciPy 1.17's tridiagonal path (ptsv) fails on it with
        # "ValueError: unexpected array size"; n = 1 with u = 2 takes the pbsv path.)
        for si, (n, u, sb) in enumerate([(5, 1, (5,)), (6, 2, (6, 2)), (1, 2, (1,)), (8, 3, (8,)), (6, 0, (6,))]):
            h = hpd((n, n), name)
            i, j = np.indices((n, n))
            h = np.where(abs(i - j) <= u, h, 0).astype(dt(name))
            h[np.arange(n), np.arange(n)] += 1.0 + u  # still positive definite after cutting the band
            for lower in [False, True]:
                ab = to_hab(h, u, lower)
                b = rand(sb, name)
                add("solveh_banded", [ab, b], {"lower": lower},
                    lambda ab, b, lower=lower: sl.solveh_banded(ab, b, lower=lower), cond=cond_of(h),
                    alt=lambda ab, b, h=h: dsolve(up(h), b), wrong=[lambda ab, b, h=h: dsolve(np.conj(h), b)] if is_c(name) and u > 0 else None)
        h = hpd((3, 5, 5), name)
        i, j = np.indices((5, 5))
        h = np.where(abs(i - j) <= 1, h, 0).astype(dt(name))
        h[..., np.arange(5), np.arange(5)] += 2.0
        for lower in [False, True]:
            add("solveh_banded", [to_hab(h, 1, lower), rand((3, 5, 1), name)], {"lower": lower},
                lambda ab, b, lower=lower: sl.solveh_banded(ab, b, lower=lower), cond=cond_of(h),
                alt=lambda ab, b, h=h: dsolve(up(h), b))
    err("solve_banded", [np.ones((2, 4)), np.ones(4)], {"l": 1, "u": 1},
        lambda ab, b: sl.solve_banded((1, 1), ab, b), name="ab has l+u rows, not l+u+1")
    err("solve_banded", [np.ones((3, 4)), np.ones(3)], {"l": 1, "u": 1},
        lambda ab, b: sl.solve_banded((1, 1), ab, b), name="b has the wrong length")
    err("solve_banded", [np.zeros((3, 4)), np.ones(4)], {"l": 1, "u": 1},
        lambda ab, b: sl.solve_banded((1, 1), ab, b), name="singular")
    err("solveh_banded", [np.array([[0.0, 1, 1], [1, 1, 1]]), np.ones(3)], {"lower": False},
        lambda ab, b: sl.solveh_banded(ab, b), name="not positive definite")


def toeplitz_dense(c, r):
    n = c.shape[-1]
    i, j = np.indices((n, n))
    return np.where(i >= j, c[..., np.abs(i - j)], r[..., np.abs(i - j)])


def toeplitz_cases():
    # SciPy computes in float64/complex128 (Levinson recursion) whatever the input precision.
    for name in FLOATS:
        for si, (n, sb, rg) in enumerate([(4, (4,), True), (4, (4, 2), False), (1, (1,), True), (8, (8,), True),
                                          (6, (6, 3), False)]):
            c = rand((n,), name)
            c[0] = 2.0 + n / 2
            r = rand((n,), name)
            r[0] = c[0]
            b = rand(sb, name)
            if rg:
                T = toeplitz_dense(c, r)
                add("solve_toeplitz", [c, r, b], {"r_given": True}, lambda c, r, b: sl.solve_toeplitz((c, r), b),
                    dtn=name, cond=cond_of(T), alt=lambda c, r, b: dsolve(toeplitz_dense(c, r), b),
                    wrong=[lambda c, r, b: dsolve(toeplitz_dense(r, c), b)] if n > 1 else None)
            else:
                T = toeplitz_dense(c, np.conj(c))
                add("solve_toeplitz", [c, b], {"r_given": False}, lambda c, b: sl.solve_toeplitz(c, b),
                    dtn=name, cond=cond_of(T), name="r omitted: r = conj(c)",
                    alt=lambda c, b: dsolve(toeplitz_dense(c, np.conj(c)), b),
                    wrong=[lambda c, b: dsolve(toeplitz_dense(c, c), b)] if is_c(name) else None)
        # ill-conditioned symmetric (Kac-Murdock-Szego, rho near 1)
        n = 8
        rho = 0.93 if REAL_OF[name] == "float32" else 0.995
        c = (rho ** np.arange(n)).astype(dt(name))
        b = rand((n,), name)
        add("solve_toeplitz", [c, c, b], {"r_given": True}, lambda c, r, b: sl.solve_toeplitz((c, r), b),
            dtn=name, cond=cond_of(toeplitz_dense(c, c)), name="ill-conditioned (KMS)",
            alt=lambda c, r, b: dsolve(toeplitz_dense(c, r), b))
        # stacks (SciPy batches c, r and b)
        c = rand((3, 5), name)
        c[:, 0] = 4
        r = rand((3, 5), name)
        r[:, 0] = 4
        for b in [rand((5,), name), rand((3, 5, 2), name)]:
            add("solve_toeplitz", [c, r, b], {"r_given": True}, lambda c, r, b: sl.solve_toeplitz((c, r), b),
                dtn=name, cond=cond_of(toeplitz_dense(c, r)), alt=lambda c, r, b: dsolve(toeplitz_dense(c, r), b))
        # solve_circulant (keeps float32/complex64: it solves with FFTs)
        for si, (n, sb) in enumerate([(4, (4,)), (5, (5, 3)), (1, (1,)), (8, (8,))]):
            c = rand((n,), name)
            c[0] += 2.5
            b = rand(sb, name)
            C = sl.circulant(c.astype(np.complex128))
            add("solve_circulant", [c, b], {}, lambda c, b: sl.solve_circulant(c, b), cond=cond_of(C),
                alt=lambda c, b: dsolve(sl.circulant(c), b), wrong=[lambda c, b: dsolve(sl.circulant(c).T, b)] if n > 2 else None)
        # stack: SciPy's own batch convention (caxis/baxis/outaxis) differs from the leading-batch
        # one; here c (3, n) and b (3, n) (a vector per matrix) or (3, n, k), looped and stacked.
        c = rand((3, 4), name)
        c[:, 0] += 2.5
        for b in [rand((3, 4), name), rand((3, 4, 2), name)]:
            def loop(c, b):
                return np.stack([sl.solve_circulant(c[i], b[i]) for i in range(c.shape[0])])
            add("solve_circulant", [c, b], {}, loop, cond=max(cond_of(sl.circulant(x.astype(complex))) for x in c),
                name="stack, leading batch (looped)")
    # SciPy's native batch: c (3, 4) batch along caxis=-1's complement, b (4,), output (4, 3)
    c = rand((3, 4), "float64")
    c[:, 0] += 2.5
    b = rand((4,), "float64")
    add("solve_circulant", [c, b], {"caxis": -1, "baxis": 0, "outaxis": 0},
        lambda c, b: sl.solve_circulant(c, b, caxis=-1, baxis=0, outaxis=0), cond=10.0,
        name="SciPy's native batch axes (output (n, batch))")
    add("solve_circulant", [np.array([1.0, 1.0, 1.0]), np.array([1.0, 2.0, 3.0])], {"singular": "lstsq"},
        lambda c, b: sl.solve_circulant(c, b, singular="lstsq"), cond=10.0, name="singular, singular='lstsq'")
    err("solve_circulant", [np.array([1.0, 1.0, 1.0]), np.ones(3)], {}, lambda c, b: sl.solve_circulant(c, b),
        name="singular")
    err("solve_toeplitz", [np.array([0.0, 1.0, 2.0]), np.ones(3)], {"r_given": False},
        lambda c, b: sl.solve_toeplitz(c, b), name="singular principal minor")
    err("solve_toeplitz", [np.array([4.0, 1.0, 2.0]), np.ones(4)], {"r_given": False},
        lambda c, b: sl.solve_toeplitz(c, b), name="b has the wrong length")
    add("solve_toeplitz", [np.array([3, 1, 0]), np.array([1, 2, 3])], {"r_given": False},
        lambda c, b: sl.solve_toeplitz(c, b), dtn="float64", cond=10.0, name="int inputs")


# ---------------------------------------------------------------------------------------------
# least squares, pinvh, QR family
# ---------------------------------------------------------------------------------------------

def lstsq_fix(r):
    """SciPy's lstsq with the gelsy s (None, or an object array of Nones) as an empty array."""
    x, res, rank, s = r
    if s is None or np.asarray(s).dtype == object:
        rd = np.real(np.asarray(x)).dtype
        s = np.zeros(np.shape(rank) + (0,), rd)
    return [x, res, rank, s]


def lstsq_cases():
    drivers = ["gelsd", "gelsy", "gelss"]
    for name in FLOATS:
        sets = [((6, 4), (6,), None), ((6, 4), (6, 2), None), ((4, 6), (4,), None), ((4, 4), (4, 2), None),
                ((3, 6, 4), (6,), None), ((3, 6, 4), (3, 6, 2), None), ((1, 1), (1,), None)]
        for si, (sa, sb, cnd) in enumerate(sets):
            a, b = gen(sa, name), rand(sb, name)
            ca = cond_of(a)
            for drv in (drivers if si < 2 else [cycle(drivers, si)]):
                add("lstsq", [a, b], {"cond": cnd, "lapack_driver": drv},
                    lambda a, b, cnd=cnd, drv=drv: sl.lstsq(a, b, cond=cnd, lapack_driver=drv), post=lstsq_fix,
                    cond=ca * ca, k=30)
        # rank-deficient: rank 2 of (6, 4); cond (relative cutoff) well above rounding
        a = gen((6, 4), name, rank=2)
        b = rand((6, 2), name)
        cut = 1e-4 if REAL_OF[name] == "float32" else 1e-10
        for drv in drivers:
            add("lstsq", [a, b], {"cond": cut, "lapack_driver": drv},
                lambda a, b, drv=drv: sl.lstsq(a, b, cond=cut, lapack_driver=drv), post=lstsq_fix,
                cond=100.0, name="rank 2 of 4")
        # mildly ill-conditioned, consistent system (small residual)
        c_ill = 1e2 if REAL_OF[name] == "float32" else 1e5
        a = gen((7, 5), name, c_ill)
        x0 = rand((5,), name)
        b = (a.astype(np.complex128) @ x0.astype(np.complex128)).astype(dt(name)) if is_c(name) else (a.astype(float) @ x0.astype(float)).astype(dt(name))
        for drv in drivers:
            add("lstsq", [a, b], {"cond": None, "lapack_driver": drv},
                lambda a, b, drv=drv: sl.lstsq(a, b, lapack_driver=drv), post=lstsq_fix,
                cond=cond_of(a), k=100, name="ill-conditioned, consistent")
    err("lstsq", [rand((4, 3), "float64"), rand((3,), "float64")], {"cond": None, "lapack_driver": "gelsd"},
        lambda a, b: sl.lstsq(a, b), name="rows of a and b differ")
    err("lstsq", [rand((4, 3), "float64"), rand((4,), "float64")], {"cond": None, "lapack_driver": "foo"},
        lambda a, b: sl.lstsq(a, b, lapack_driver="foo"), name="unknown driver")


def pinvh_cases():
    for name in FLOATS:
        for sh in [(4, 4), (1, 1), (3, 4, 4)]:
            h = herm_indef(sh, name)
            for lower in [True, False]:
                g = poison(h, lower) if sh[-1] > 1 else h
                add("pinvh", [g], {"lower": lower, "atol": None, "rtol": None},
                    lambda a, lower=lower: sl.pinvh(a, lower=lower), cond=cond_of(h),
                    name="other triangle poisoned" if sh[-1] > 1 else None,
                    alt=lambda a, lower=lower: np.linalg.pinv(her_from(a, lower)),
                    wrong=[lambda a, lower=lower: np.linalg.pinv(her_from(a, not lower))] if sh[-1] > 1 else None)
        # rank-deficient (eigenvalues 3, -2, 0, 0) and cut-offs (eigenvalues 3, -2, 0.3, 0.01)
        h = herm_indef((5, 5), name, eig=[3.0, -2.0, 0.0, 0.0, 1.0])
        rt = 1e-4 if REAL_OF[name] == "float32" else 1e-10
        add("pinvh", [h], {"lower": True, "atol": None, "rtol": rt}, lambda a: sl.pinvh(a, rtol=rt), cond=10.0,
            name="rank 3 of 5")
        h = herm_indef((4, 4), name, eig=[3.0, -2.0, 0.3, 0.01])
        add("pinvh", [h], {"lower": True, "atol": 0.5, "rtol": None}, lambda a: sl.pinvh(a, atol=0.5), cond=10.0,
            name="atol cuts 2 eigenvalues")
        add("pinvh", [h], {"lower": False, "atol": None, "rtol": 0.05}, lambda a: sl.pinvh(a, lower=False, rtol=0.05),
            cond=10.0, name="rtol cuts 1 eigenvalue")
        add("pinvh", [h], {"lower": True, "atol": 0.1, "rtol": 0.05}, lambda a: sl.pinvh(a, atol=0.1, rtol=0.05),
            cond=10.0, name="atol + rtol * max cuts 2")
    err("pinvh", [rand((2, 3), "float64")], {"lower": True, "atol": None, "rtol": None}, lambda a: sl.pinvh(a),
        name="not square")


def qr_loop(f):
    """f over the leading batch of a (SciPy's qr(mode='raw') does not batch), outputs stacked."""
    def g(a, *rest):
        if a.ndim == 2:
            return f(a, *rest)
        outs = [f(a[i], *[r[i] if r.ndim > 2 else r for r in rest]) for i in np.ndindex(a.shape[:-2])]
        return [np.stack([o[j] for o in outs]).reshape(a.shape[:-2] + np.shape(outs[0][j])) for j in range(len(outs[0]))]
    return g


def qr_flat(a, mode, piv):
    r = sl.qr(a, mode=mode, pivoting=piv)
    if mode == "raw":  # ((qr, tau), r[, p]) -> [qr, tau, r(, p)]
        return [r[0][0], r[0][1]] + list(r[1:])
    return list(r) if isinstance(r, tuple) else [r]


def qr_cases():
    # LAPACK's Householder QR (geqrf / geqp3) is deterministic: R's diagonal is real with the
    # sign LAPACK's reflectors give (not normalised to be positive). The values are SciPy's;
    # tests may compare Q and R after bringing each column/row to one phase convention, and the
    # "raw" reflectors (qr, tau) only where xp follows LAPACK's geqrf convention.
    combos = [(m, p) for m in ["full", "economic", "r", "raw"] for p in [False, True]]
    for name in FLOATS:
        for si, sh in enumerate([(5, 3), (3, 5), (4, 4), (1, 1), (3, 5, 3), (2, 2, 3, 2), (8, 6)]):
            ill = sh == (8, 6)
            a = gen(sh, name, ILL[name] if ill else 10.0)
            cs = combos if sh == (5, 3) else [cycle(combos, si * 3 + j) for j in range(2)]
            for mode, piv in cs:
                add("qr", [a], {"mode": mode, "pivoting": piv},
                    qr_loop(lambda a, mode=mode, piv=piv: qr_flat(a, mode, piv)), cond=cond_of(a),
                    name=("ill-conditioned" if ill else None) if a.ndim == 2 or mode != "raw" else "stack (looped: SciPy's raw mode does not batch)")
        for si, sh in enumerate([(3, 5), (5, 3), (4, 4), (2, 3, 4)]):
            a = gen(sh, name)
            for mode in ["full", "economic", "r"]:
                add("rq", [a], {"mode": mode}, lambda a, mode=mode: sl.rq(a, mode=mode), cond=cond_of(a))
        # qr_multiply: Q (economic, m x min(m, n)) times c: left Q @ c, c (min, k) or (min,);
        # right c @ Q, c (k, m) or (m,). Results [cq, r] or [cq, r, p].
        for sa, sc, mode in [((5, 3), (3,), "left"), ((5, 3), (3, 2), "left"), ((5, 3), (5,), "right"),
                             ((5, 3), (2, 5), "right"), ((3, 5), (3, 2), "left"), ((3, 5), (2, 3), "right"),
                             ((2, 5, 3), (2, 3, 2), "left"), ((2, 5, 3), (4, 5), "right")]:
            a, cc = gen(sa, name), rand(sc, name)
            opts = [(False, False), (True, False), (False, True)]
            for piv, conj in ([opts[len(sc) % 3]] if sa == (5, 3) else [(False, is_c(name))]):
                add("qr_multiply", [a, cc], {"mode": mode, "pivoting": piv, "conjugate": conj},
                    lambda a, c, mode=mode, piv=piv, conj=conj: sl.qr_multiply(a, c, mode=mode, pivoting=piv, conjugate=conj),
                    cond=cond_of(a))
    err("qr_multiply", [rand((5, 3), "float64"), rand((5, 2), "float64")], {"mode": "left", "pivoting": False, "conjugate": False},
        lambda a, c: sl.qr_multiply(a, c, mode="left"), name="c has m rows, not min(m, n)")
    err("qr", [rand((3,), "float64")], {"mode": "full", "pivoting": False}, lambda a: sl.qr(a), name="1-D")


# ---------------------------------------------------------------------------------------------
# eigenproblems, Schur, Hessenberg, subspaces
# ---------------------------------------------------------------------------------------------

def eig_cases():
    # Eigenvectors are unique up to a sign (real) or a phase (complex) per column: tests bring
    # both sides to one convention (as linalg.rs does for eigh) before comparing.
    for name in REALS:
        for n, batch in [(1, ()), (2, ()), (5, ()), (8, ()), (16, ()), (5, (3,))]:
            d = rand(batch + (n,), name, -2, 2)
            e = rand(batch + (max(n - 1, 0),), name)
            T = np.zeros(batch + (n, n))
            T[..., np.arange(n), np.arange(n)] = d
            T[..., np.arange(n - 1), np.arange(1, n)] = e
            T[..., np.arange(1, n), np.arange(n - 1)] = e
            w = np.linalg.eigvalsh(T)
            gap = np.min(np.diff(w, axis=-1)) if n > 1 else 1.0
            kv = 30 * max(1.0, 4.0 / gap)
            for vo in [False, True]:
                add("eigh_tridiagonal", [d, e], {"eigvals_only": vo},
                    lambda d, e, vo=vo: sl.eigh_tridiagonal(d, e, eigvals_only=vo), k=30 if vo else kv,
                    canon=canon_vectors)
            add("eigvalsh_tridiagonal", [d, e], {}, lambda d, e: sl.eigvalsh_tridiagonal(d, e), k=30)
        # Wilkinson W21+: eigenvalues in close pairs (eigenvalues only)
        d = np.abs(np.arange(-10, 11)).astype(dt(name))
        e = np.ones(20, dt(name))
        add("eigh_tridiagonal", [d, e], {"eigvals_only": True}, lambda d, e: sl.eigh_tridiagonal(d, e, eigvals_only=True),
            k=30, name="Wilkinson W21+ (close pairs)")
        add("eigvalsh_tridiagonal", [d, e], {}, lambda d, e: sl.eigvalsh_tridiagonal(d, e), k=30,
            name="Wilkinson W21+ (close pairs)")
    err("eigh_tridiagonal", [np.ones(3), np.ones(3)], {"eigvals_only": False}, lambda d, e: sl.eigh_tridiagonal(d, e),
        name="e not one shorter than d")
    err("eigh_tridiagonal", [np.ones(3, complex), np.ones(2, complex)], {"eigvals_only": False},
        lambda d, e: sl.eigh_tridiagonal(d, e), name="complex")
    # eig_banded: w real (SciPy: float32 for complex64), v of the input dtype
    for name in FLOATS:
        # (n = 1 with u >= 1 in upper storage is left out: LAPACK's ?sbevd/?hbevd answer
        # ab[0, 0] for n = 1 whatever uplo is, so SciPy 1.17 gives eigenvalue 0 there.)
        for n, u, batch in [(1, 0, ()), (4, 1, ()), (6, 2, ()), (8, 3, ()), (5, 1, (3,))]:
            h = herm_indef(batch + (n, n), name)
            i, j = np.indices((n, n))
            h = np.where(abs(i - j) <= u, h, 0).astype(dt(name))
            w = np.linalg.eigvalsh(h.astype(np.complex128))
            gap = np.min(np.diff(w, axis=-1)) if n > 1 else 1.0
            for li, lower in enumerate([False, True]):
                ab = to_hab(h, u, lower)
                for vo in ([False, True] if n == 6 else [bool((n + li) % 2)]):
                    add("eig_banded", [ab], {"lower": lower, "eigvals_only": vo},
                        lambda ab, lower=lower, vo=vo: sl.eig_banded(ab, lower=lower, eigvals_only=vo),
                        k=30 if vo else 30 * max(1.0, 4.0 / gap), canon=canon_vectors)
    err("eig_banded", [np.ones(3)], {"lower": False, "eigvals_only": False}, lambda a: sl.eig_banded(a), name="1-D")


def schur_cases():
    # props_only: z unitary, z @ t @ z^H == a, t upper triangular (output="real" on a real
    # matrix: quasi-triangular, 2x2 blocks [[a, b], [c, a]] with b*c < 0 for complex pairs;
    # on a complex matrix output="real" is the complex Schur form).
    for name in FLOATS:
        for sh in [(1, 1), (4, 4), (5, 5), (3, 4, 4)]:
            a = gen(sh, name)
            for out in ["real", "complex"]:
                add("schur", [a], {"output": out}, lambda a, out=out: sl.schur(a, output=out), props_only=True,
                    k=100, name="real Schur blocks" if out == "real" and not is_c(name) else None)
        r = with_eigs(4, name, [1 + 2j, 1 - 2j, -0.5, 3])
        add("schur", [r], {"output": "real"}, lambda a: sl.schur(a, output="real"), props_only=True, k=100,
            name="complex-conjugate eigenvalues")
        # hessenberg: props_only (Householder signs are an implementation's choice), values given
        for sh in [(1, 1), (4, 4), (5, 5), (3, 4, 4)]:
            a = gen(sh, name)
            for cq in [False, True]:
                add("hessenberg", [a], {"calc_q": cq}, lambda a, cq=cq: sl.hessenberg(a, calc_q=cq), props_only=True, k=100)
    err("schur", [rand((2, 3), "float64")], {"output": "real"}, lambda a: sl.schur(a), name="not square")
    err("hessenberg", [rand((2, 3), "float64")], {"calc_q": False}, lambda a: sl.hessenberg(a), name="not square")


def subspace_cases():
    for name in FLOATS:
        for sh, side in [((4, 4), "right"), ((4, 4), "left"), ((5, 3), "right"), ((5, 3), "left"), ((3, 5), "left"),
                         ((3, 4, 4), "right"), ((1, 1), "right"), ((6, 6), "right")]:
            ill = sh == (6, 6)
            a = gen(sh, name, ILL[name] if ill else 10.0)
            add("polar", [a], {"side": side}, lambda a, side=side: sl.polar(a, side=side), cond=cond_of(a),
                name="ill-conditioned" if ill else None,
                wrong=[lambda a, side=side: sl.polar(a, side="left" if side == "right" else "right")] if sh[-1] == sh[-2] and sh[-1] > 1 else None)
        for sh in [(4, 4), (5, 3), (3, 5), (3, 4, 4), (1, 1)]:
            a = gen(sh, name)
            add("svdvals", [a], {}, lambda a: sl.svdvals(a), k=30)
        add("svdvals", [gen((6, 6), name, ILL[name])], {}, lambda a: sl.svdvals(a), k=30, name="ill-conditioned")
        add("svdvals", [np.zeros((3, 4), dt(name))], {}, lambda a: sl.svdvals(a), name="zero matrix")
        add("svdvals", [np.zeros((0, 3), dt(name))], {}, lambda a: sl.svdvals(a), name="empty")
        # null_space / orth: props_only (any orthonormal basis of the same subspace); the
        # column count is exact: orthonormal columns, A @ N ~ 0 (null_space), span(orth) = range(A).
        for sh, rank, rc in [((2, 4), None, None), ((4, 4), 2, 1e-6), ((3, 3), None, None), ((3, 2, 4), None, None),
                             ((5, 3), 1, 1e-6)]:
            a = gen(sh, name, rank=rank)
            add("null_space", [a], {"rcond": rc}, lambda a, rc=rc: sl.null_space(a, rcond=rc), props_only=True, k=100,
                name=f"rank {rank}" if rank else None)
        for sh, rank, rc in [((4, 2), None, None), ((5, 4), 2, 1e-6), ((3, 3), None, None), ((3, 4, 2), None, None),
                             ((3, 5), 1, 1e-6)]:
            a = gen(sh, name, rank=rank)
            add("orth", [a], {"rcond": rc}, lambda a, rc=rc: sl.orth(a, rcond=rc), props_only=True, k=100,
                name=f"rank {rank}" if rank else None)
        for sa, sb, nm in [((6, 2), (6, 3), None), ((6, 3), (6, 3), None), ((2, 6, 2), (2, 6, 3), None),
                           ((4, 1), (4, 1), None)]:
            A, B = gen(sa, name), gen(sb, name)
            add("subspace_angles", [A, B], {}, lambda A, B: sl.subspace_angles(A, B), k=100, scale_floor=1.0,
                cond=max(cond_of(A), cond_of(B)))
        A = gen((6, 2), name)
        B = (A + 1e-3 * rand((6, 2), name)).astype(dt(name))
        add("subspace_angles", [A, B], {}, lambda A, B: sl.subspace_angles(A, B), k=100, scale_floor=1.0,
            cond=max(cond_of(A), cond_of(B)),
            name="nearly equal subspaces (small angles)")
    err("subspace_angles", [rand((3, 2), "float64"), rand((4, 2), "float64")], {}, lambda A, B: sl.subspace_angles(A, B),
        name="row counts differ")
    err("polar", [gen((3, 3), "float64")], {"side": "top"}, lambda a: sl.polar(a, side="top"), name="unknown side")


# ---------------------------------------------------------------------------------------------
# matrix functions
# ---------------------------------------------------------------------------------------------

def mp_fn(fn):
    """A float64 check of a matrix function through mpmath (30 digits)."""
    import mpmath as mp

    def g(a, *rest):
        a = np.asarray(a)
        if a.ndim > 2:
            return np.stack([g(x, *rest) for x in a])
        with mp.workdps(30):
            m = mp.matrix(a.astype(complex).tolist())
            r = fn(mp, m, *rest)
            out = np.array([[complex(r[i, j]) for j in range(r.cols)] for i in range(r.rows)])
        return out if np.iscomplexobj(a) or np.abs(out.imag).max() > 1e-12 * max(1, np.abs(out).max()) else out.real
    return g


MP = {
    "expm": lambda mp, m: mp.expm(m),
    "logm": lambda mp, m: mp.logm(m),
    "sqrtm": lambda mp, m: mp.sqrtm(m),
    "cosm": lambda mp, m: mp.cosm(m),
    "sinm": lambda mp, m: mp.sinm(m),
    "tanm": lambda mp, m: mp.lu_solve(mp.cosm(m), mp.sinm(m)) if m.rows == 1 else mp.inverse(mp.cosm(m)) * mp.sinm(m),
    "coshm": lambda mp, m: (mp.expm(m) + mp.expm(-m)) / 2,
    "sinhm": lambda mp, m: (mp.expm(m) - mp.expm(-m)) / 2,
    "tanhm": lambda mp, m: mp.inverse(mp.expm(m) + mp.expm(-m)) * (mp.expm(m) - mp.expm(-m)),
}
FUNM = {"exp": np.exp, "sin": np.sin, "cos": np.cos, "log1p": np.log1p}


def matfunc_cases():
    norms = [0.01, 0.5, 2.0, 10.0]
    limit = {"tanm": 1.0, "tanhm": 1.0}
    for fn in ["expm", "cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm"]:
        f = getattr(sl, fn)
        for name in FLOATS:
            ns = [x for x in norms if x <= limit.get(fn, 10.0)]
            mats = [scaled(gen((4, 4), name), nrm) for nrm in ns]
            mats += [scaled(gen((1, 1), name), 1.5), np.zeros((3, 3), dt(name)), scaled(gen((3, 4, 4), name), 0.8),
                     scaled(gen((2, 2, 3, 3), name), 0.6)]
            if fn == "expm":
                mats += [np.array([[1, 1, 0], [0, 1, 1], [0, 0, 1]], dt(name)), scaled(gen((8, 8), name), 3.0)]
            for a in mats:
                nrm = float(np.max(np.linalg.norm(a.astype(complex).reshape((-1,) + a.shape[-2:]), 2, axis=(-2, -1))))
                # a few ulps near the identity (small norms); more as the norm (and the
                # scaling and squaring) grows
                kk = 40.0 if nrm <= 0.05 else 150 * max(1.0, nrm)
                wr = [lambda a: f(np.swapaxes(a, -1, -2))] if a.shape[-1] > 1 and np.any(a) else None
                if wr and is_c(name) and np.any(a.imag):
                    wr.append(lambda a: f(np.conj(a)))
                # scale_floor: SciPy forms these from exponentials (e.g. sinhm is
                # (expm(A) - expm(-A)) / 2), so their rounding is eps * |expm(A)|, up to
                # eps * e^|A|, even where the result is much smaller (as small as A near 0)
                add(fn, [a], {}, lambda a, f=f: f(a), k=kk, scale_floor=max(1.0, np.exp(nrm) / 10), alt=mp_fn(MP[fn]) if a.shape[-1] <= 4 else None, wrong=wr,
                    name="zero matrix" if not np.any(a) else ("Jordan block" if a.shape == (3, 3) and a[0, 1] == 1 and a[1, 0] == 0 else None))
    a = scaled(gen((16, 16), "float64"), 4.0)
    add("expm", [a], {}, lambda a: sl.expm(a), k=600, scale_floor=np.exp(4.0) / 10, name="16 x 16",
        wrong=[lambda a: sl.expm(a.T)])
    ai = np.array([[0, 1, 0], [-2, -3, 1], [0, 0, -1]])
    add("expm", [ai], {}, lambda a: sl.expm(a), dtn="float64", k=150, name="int64 input: float64 result",
        alt=mp_fn(MP["expm"]))
    # expm_frechet: [expm(A), L(A, E)] (SciPy: float64/complex128 for float32/complex64 input)
    for name in FLOATS:
        for nrm, sh in [(0.01, (4, 4)), (0.5, (4, 4)), (2.0, (4, 4)), (10.0, (4, 4)), (1.0, (1, 1)), (0.0, (3, 3)),
                        (0.8, (3, 4, 4))]:
            A = scaled(gen(sh, name), nrm) if nrm else np.zeros(sh, dt(name))
            E = rand(sh, name)
            add("expm_frechet", [A, E], {}, lambda A, E: sl.expm_frechet(A, E), dtn=name, k=100 * max(1.0, nrm),
                wrong=[lambda A, E: sl.expm_frechet(A, np.swapaxes(E, -1, -2))] if sh[-1] > 1 else None,
                name="zero A" if not nrm else None)
    # logm: no eigenvalues on the closed negative real axis (SciPy: float64/complex128 always)
    for name in FLOATS:
        real_note = "" if is_c(name) else " (real matrix, real logarithm)"
        mats = [((np.eye(4) + scaled(gen((4, 4), name), 0.5)).astype(dt(name)), "I + E, |E| = 0.5"),
                (hpd((4, 4), name), "positive definite"),
                (with_eigs(4, name, [1 + 2j, 1 - 2j, 0.5, 3.0]), "complex-conjugate eigenvalues" + real_note),
                (np.array([[2.5]], dt(name)), None),
                ((np.eye(3) + scaled(gen((3, 3, 3), name), 0.6)).astype(dt(name)), "stack"),
                (with_eigs(2, name, [0.2 + 3j, 0.2 - 3j]), "eigenvalues 0.2 +- 3i" + real_note),
                (hpd((6, 6), name, 100.0), "positive definite, cond 100")]
        if is_c(name):
            mats.append((with_eigs(3, name, [-1 + 0.5j, 2j, 0.7]), "eigenvalues near the branch cut"))
        for a, nm in mats:
            cnd = max(cond_of(a), 1.0)
            wr = [lambda a: sl.logm(np.swapaxes(a, -1, -2))] if not np.allclose(a, np.swapaxes(a, -1, -2)) else None
            add("logm", [a], {}, lambda a: sl.logm(a), dtn=name, k=100, cond=cnd,
                alt=mp_fn(MP["logm"]) if a.shape[-1] <= 4 else None, wrong=wr, name=nm)
    # sqrtm (SciPy 1.17 keeps float32 / complex64)
    for name in FLOATS:
        mats = [hpd((4, 4), name), (np.eye(4) + scaled(gen((4, 4), name), 0.5)).astype(dt(name)),
                with_eigs(4, name, [1 + 2j, 1 - 2j, 0.5, 3.0]), np.array([[2.5]], dt(name)), np.zeros((3, 3), dt(name)),
                (np.eye(3) + scaled(gen((2, 3, 3), name), 0.6)).astype(dt(name)), hpd((6, 6), name, 100.0)]
        for a in mats:
            cnd = max(cond_of(a), 1.0) if np.any(a) else 1.0
            wr = [lambda a: sl.sqrtm(np.swapaxes(a, -1, -2))] if not np.allclose(a, np.swapaxes(a, -1, -2)) else None
            add("sqrtm", [a], {}, lambda a: sl.sqrtm(a), k=100, cond=np.sqrt(cnd),
                alt=mp_fn(MP["sqrtm"]) if a.shape[-1] <= 4 and np.any(a) else None, wrong=wr,
                name="zero matrix (SciPy warns: singular)" if not np.any(a) else None)
    # funm: func by name; SciPy's Schur-Parlett with np.<func> applied to the eigenvalues
    for name in FLOATS:
        for fname, nrm in [("exp", 0.5), ("exp", 2.0), ("sin", 1.0), ("cos", 3.0), ("log1p", 0.5)]:
            for sh in [(4, 4), (3, 3, 3)] if fname in ("exp", "log1p") else [(4, 4)]:
                a = scaled(gen(sh, name), nrm)
                add("funm", [a], {"func": fname}, lambda a, fname=fname: sl.funm(a, FUNM[fname]), k=300 * max(1.0, nrm),
                    wrong=[lambda a, fname=fname: sl.funm(np.swapaxes(a, -1, -2), FUNM[fname])])
        add("funm", [np.array([[0.3]], dt(name))], {"func": "sin"}, lambda a: sl.funm(a, np.sin), k=30)
        add("funm", [np.zeros((3, 3), dt(name))], {"func": "cos"}, lambda a: sl.funm(a, np.cos), k=30, name="zero matrix")
    # signm: eigenvalues well away from the imaginary axis
    for name in FLOATS:
        for a in [with_eigs(4, name, [1.0, -0.5, 2.0, -3.0]), with_eigs(4, name, [0.8 + 1j, 0.8 - 1j, -1.2, 0.5]),
                  np.array([[-2.0]], dt(name)), np.stack([with_eigs(3, name, [1.0, -1.0, 0.6]) for _ in range(2)])]:
            add("signm", [a], {}, lambda a: sl.signm(a), k=300, cond=cond_of(a),
                wrong=[lambda a: sl.signm(np.swapaxes(a, -1, -2))] if a.shape[-1] > 1 else None)
    # fractional_matrix_power: non-integer t computes in float64/complex128 (and a real matrix
    # with complex eigenvalues gives complex128); integer t goes through matrix_power (keeps
    # float32/complex64)
    for name in FLOATS:
        mats = [hpd((4, 4), name), (np.eye(3) + scaled(gen((3, 3), name), 0.5)).astype(dt(name)),
                with_eigs(4, name, [1 + 1j, 1 - 1j, 0.5, 2.0]), np.array([[2.5]], dt(name)),
                np.stack([hpd((3, 3), name) for _ in range(2)])]
        for mi, a in enumerate(mats):
            for t in ([0.5, -1.5, 2.3, 2.0, -1.0] if mi == 0 else [cycle([0.5, -1.5, 2.3], mi), 2.0]):
                add("fractional_matrix_power", [a], {"t": t}, lambda a, t=t: sl.fractional_matrix_power(a, t), dtn=name,
                    k=300, cond=cond_of(a) ** max(1.0, abs(t)) if t < 0 else max(cond_of(a), 1.0),
                    wrong=[lambda a, t=t: sl.fractional_matrix_power(a, -t)])
    err("expm", [np.ones((2, 3))], {}, lambda a: sl.expm(a), name="not square")
    err("logm", [np.ones((2, 3))], {}, lambda a: sl.logm(a), name="not square")
    err("sqrtm", [np.ones((2, 3))], {}, lambda a: sl.sqrtm(a), name="not square")
    err("funm", [np.ones((2, 3))], {"func": "exp"}, lambda a: sl.funm(a, np.exp), name="not square")
    err("expm_frechet", [np.eye(2), np.eye(3)], {}, lambda A, E: sl.expm_frechet(A, E), name="A and E shapes differ")


# ---------------------------------------------------------------------------------------------
# special matrices and predicates
# ---------------------------------------------------------------------------------------------

def ex(op, args, params, f, name=None, k=None):
    """A special matrix: exact for integers, a few ulps for floats."""
    if k is None:
        return add(op, args, params, f, name=name, exact=True)
    return add(op, args, params, f, name=name, k=k)


def vec(n, name):
    if kind(dt(name)) in "iu":
        return RNG.integers(-5, 6, n).astype(dt(name))
    return rand(n, name)


def special_cases():
    names = ["int64", "float32", "float64", "complex128"]
    # block_diag: 1-D args are rows, 0-d are 1x1, (0, k) adds k empty columns; result_type
    ex("block_diag", [np.array([1, 2, 3]), np.array([[1, 2], [3, 4]])], {}, lambda *a: sl.block_diag(*a))
    ex("block_diag", [rand((2, 2), "float32"), np.zeros((0, 2)), np.array(5.0, np.float32), np.array([[7, 8, 9]], np.int8)], {},
       lambda *a: sl.block_diag(*a), name="float32 + (0, 2) float64 + 0-d + int8")
    ex("block_diag", [rand((2, 2), "complex64"), rand((1, 3), "float32")], {}, lambda *a: sl.block_diag(*a))
    ex("block_diag", [rand((2, 2), "complex128"), np.zeros((2, 0), np.int32), rand((3,), "float64")], {},
       lambda *a: sl.block_diag(*a))
    ex("block_diag", [], {}, lambda *a: sl.block_diag(*a), name="no arguments: (1, 0) float64")
    ex("block_diag", [rand((2, 2, 2), "float64"), np.array([[1.5]]), rand((1, 1, 2), "float32")], {},
       lambda *a: sl.block_diag(*a), name="stacks broadcast (SciPy batches block_diag)")
    for name in names:
        c, r = vec(4, name), vec(3, name)
        ex("circulant", [c], {}, lambda c: sl.circulant(c))
        ex("toeplitz", [c, r], {}, lambda c, r: sl.toeplitz(c, r))
        ex("toeplitz", [c], {}, lambda c: sl.toeplitz(c), name="r omitted: r = conj(c)")
        ex("hankel", [c, r], {}, lambda c, r: sl.hankel(c, r), name="r[0] ignored")
        ex("hankel", [c], {}, lambda c: sl.hankel(c), name="r omitted: zeros")
        ex("fiedler", [c], {}, lambda c: sl.fiedler(c))
        f, s = vec(4, name), vec(3, name)
        ex("leslie", [f, s], {}, lambda f, s: sl.leslie(f, s))
        a = vec(3, name)
        for n, mode in [(5, "full"), (5, "same"), (5, "valid"), (2, "full"), (2, "same"), (2, "valid")]:
            ex("convolution_matrix", [a], {"n": n, "mode": mode}, lambda a, n=n, mode=mode: sl.convolution_matrix(a, n, mode))
        p = vec(5, name)
        p[0] = 2 if kind(dt(name)) in "iu" else p[0] + (2 if p[0].real >= 0 else -2)
        ex("companion", [p], {}, lambda a: sl.companion(a), k=4)
        ex("fiedler_companion", [p], {}, lambda a: sl.fiedler_companion(a), k=4)
        # stacks (SciPy >= 1.15 batches these)
        C, R = vec((2, 4), name), vec((2, 3), name)
        ex("circulant", [C], {}, lambda c: sl.circulant(c), name="stack")
        ex("toeplitz", [C, R], {}, lambda c, r: sl.toeplitz(c, r), name="stack")
        ex("toeplitz", [C], {}, lambda c: sl.toeplitz(c), name="stack, r omitted")
        ex("fiedler", [C], {}, lambda c: sl.fiedler(c), name="stack")
        ex("leslie", [C, R], {}, lambda f, s: sl.leslie(f, s), name="stack")
        ex("convolution_matrix", [C], {"n": 3, "mode": "same"}, lambda a: sl.convolution_matrix(a, 3, "same"), name="stack")
        P = vec((2, 4), name)
        P[:, 0] = 3
        ex("companion", [P], {}, lambda a: sl.companion(a), name="stack", k=4)
        ex("fiedler_companion", [P], {}, lambda a: sl.fiedler_companion(a), name="stack", k=4)

        # hankel: SciPy 1.17 ravels N-D input (FutureWarning: batches from 1.19); looped here
        def hk(c, r):
            return np.stack([sl.hankel(c[i], r[i]) for i in range(c.shape[0])])
        ex("hankel", [C, R], {}, hk, name="stack (looped: SciPy 1.17 ravels N-D input)")
    ex("companion", [np.array([1.0, -3.0])], {}, lambda a: sl.companion(a), k=4, name="length 2: 1x1")
    ex("fiedler_companion", [np.array([2.0, 1.0])], {}, lambda a: sl.fiedler_companion(a), k=4, name="length 2: 1x1")
    ex("fiedler_companion", [np.array([2.0])], {}, lambda a: sl.fiedler_companion(a), name="length 1: SciPy gives shape (0,)")
    ex("leslie", [np.array([0.5, 1.0]), np.array([0.25])], {}, lambda f, s: sl.leslie(f, s))
    ex("circulant", [np.array([2.5])], {}, lambda c: sl.circulant(c), name="1x1")
    ex("toeplitz", [np.array([1, 2]), np.array([9, 3, 4, 5])], {}, lambda c, r: sl.toeplitz(c, r), name="r[0] ignored")
    ex("toeplitz", [np.array([1.0 + 1j, 2.0]), np.array([1.0 + 1j, 3.0j])], {}, lambda c, r: sl.toeplitz(c, r))
    err("companion", [np.array([0.0, 1.0, 2.0])], {}, lambda a: sl.companion(a), name="leading zero")
    err("companion", [np.array([1.0])], {}, lambda a: sl.companion(a), name="too short")
    err("fiedler_companion", [np.array([0.0, 1.0, 2.0])], {}, lambda a: sl.fiedler_companion(a), name="leading zero")
    err("leslie", [np.ones(3), np.ones(3)], {}, lambda f, s: sl.leslie(f, s), name="s not one shorter than f")
    err("convolution_matrix", [np.ones(3)], {"n": 0, "mode": "full"}, lambda a: sl.convolution_matrix(a, 0), name="n = 0")
    err("convolution_matrix", [np.ones(3)], {"n": 2, "mode": "wide"}, lambda a: sl.convolution_matrix(a, 2, "wide"),
        name="unknown mode")
    # generated from parameters alone
    for n in [1, 4, 5]:
        for scale in [None, "sqrtn", "n"]:
            ex("dft", [], {"n": n, "scale": scale}, lambda n=n, scale=scale: sl.dft(n, scale), k=8)
    err("dft", [], {"n": 3, "scale": "unitary"}, lambda: sl.dft(3, "unitary"), name="unknown scale")
    for n, d in [(1, "int64"), (2, "int64"), (8, "int64"), (4, "float32"), (4, "float64"), (2, "complex128"), (4, "int8")]:
        ex("hadamard", [], {"n": n, "dtype": d}, lambda n=n, d=d: sl.hadamard(n, dtype=d))
    err("hadamard", [], {"n": 6, "dtype": "int64"}, lambda: sl.hadamard(6), name="not a power of 2")
    for n in [1, 2, 5]:
        for full in [False, True]:
            ex("helmert", [], {"n": n, "full": full}, lambda n=n, full=full: sl.helmert(n, full), k=8)
    for n in [0, 1, 4, 8]:
        ex("hilbert", [], {"n": n}, lambda n=n: sl.hilbert(n), k=4)
    for n in [1, 4, 8]:
        ex("invhilbert", [], {"n": n, "exact": False}, lambda n=n: sl.invhilbert(n), k=64)
    ex("invhilbert", [], {"n": 6, "exact": True}, lambda: sl.invhilbert(6, exact=True), name="exact: int64")
    for n in [1, 4, 8]:
        for kd in ["symmetric", "upper", "lower"]:
            ex("pascal", [], {"n": n, "kind": kd}, lambda n=n, kd=kd: sl.pascal(n, kd), name="uint64")
            ex("invpascal", [], {"n": n, "kind": kd}, lambda n=n, kd=kd: sl.invpascal(n, kd), name="int64")
    ex("pascal", [], {"n": 5, "kind": "lower", "exact": False}, lambda: sl.pascal(5, "lower", exact=False), k=4,
       name="exact=False: float64")
    err("pascal", [], {"n": 4, "kind": "diagonal"}, lambda: sl.pascal(4, "diagonal"), name="unknown kind")
    # tri: scipy.linalg.tri was removed in SciPy 1.13 (deprecated in 1.11 for numpy.tri); the
    # reference is numpy.tri, with SciPy's old signature (N, M=None, k=0, dtype=None).
    for N, M, k, d in [(3, None, 0, None), (3, 5, 1, "int64"), (4, 2, -1, "float32"), (1, 1, 0, "bool"),
                       (3, 4, -5, "complex128"), (2, 3, 7, "int32"), (0, 3, 0, None)]:
        ex("tri", [], {"N": N, "M": M, "k": k, "dtype": d}, lambda N=N, M=M, k=k, d=d: np.tri(N, M, k, dtype=d or float),
           name="reference: numpy.tri (scipy.linalg.tri removed in SciPy 1.13)")
    # khatri_rao (SciPy batches it)
    for na, nb in [("float64", "float64"), ("int64", "int64"), ("float32", "complex64"), ("int32", "float32")]:
        a, b = vec((2, 3), na), vec((4, 3), nb)
        ex("khatri_rao", [a, b], {}, lambda a, b: sl.khatri_rao(a, b), k=4)
    ex("khatri_rao", [vec((2, 2, 3), "float64"), vec((2, 4, 3), "float64")], {}, lambda a, b: sl.khatri_rao(a, b), k=4,
       name="stack")
    ex("khatri_rao", [vec((0, 3), "float64"), vec((4, 3), "float64")], {}, lambda a, b: sl.khatri_rao(a, b), name="empty")
    err("khatri_rao", [np.ones((2, 3)), np.ones((4, 2))], {}, lambda a, b: sl.khatri_rao(a, b), name="column counts differ")
    err("khatri_rao", [np.ones(3), np.ones(3)], {}, lambda a, b: sl.khatri_rao(a, b), name="1-D")
    # bandwidth -> [lower, upper] (int64 scalars; stacks give arrays)
    for a in [band_dense((6, 6), "float64", 2, 1), np.triu(np.ones((4, 4), np.int64)), band_dense((5, 5), "complex128", 0, 3),
              np.zeros((3, 3)), np.eye(4, dtype=np.float32), np.ones((2, 4)), np.ones((5, 2), bool),
              np.stack([band_dense((4, 4), "float64", 1, 0), band_dense((4, 4), "float64", 0, 2)]), np.ones((1, 1))]:
        ex("bandwidth", [a], {}, lambda a: sl.bandwidth(a))
    err("bandwidth", [np.ones(3)], {}, lambda a: sl.bandwidth(a), name="1-D")
    # issymmetric / ishermitian (exact unless atol/rtol; stacks give bool arrays)
    s = csym((4, 4), "float64")
    ns = s.copy()
    ns[0, 2] += 1e-9
    cs = csym((4, 4), "complex128")
    hh = herm_indef((4, 4), "complex128")
    for a, atol, rtol in [(s, None, None), (ns, None, None), (ns, 1e-8, None), (ns, None, 1e-6), (cs, None, None),
                          (hh, None, None), (np.array([[1, 2], [2, 1]]), None, None), (np.array([[1, 2], [3, 1]]), None, None),
                          (np.stack([s, ns]), None, None), (np.zeros((0, 0)), None, None), (np.array([[1j]]), None, None),
                          (s.astype(np.float32), None, None)]:
        for op in ["issymmetric", "ishermitian"]:
            ex(op, [a], {"atol": atol, "rtol": rtol}, lambda a, op=op, atol=atol, rtol=rtol: getattr(sl, op)(a, atol=atol, rtol=rtol))
    err("issymmetric", [np.ones((3, 2))], {"atol": None, "rtol": None}, lambda a: sl.issymmetric(a), name="not square")
    err("ishermitian", [np.ones(3)], {"atol": None, "rtol": None}, lambda a: sl.ishermitian(a), name="1-D")


def main():
    lu_cases()
    cho_cases()
    ldl_cases()
    solve_cases()
    triangular_cases()
    banded_cases()
    toeplitz_cases()
    lstsq_cases()
    pinvh_cases()
    qr_cases()
    eig_cases()
    schur_cases()
    subspace_cases()
    matfunc_cases()
    special_cases()
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, "scipy_linalg.json")
    with open(path, "w") as fh:
        json.dump({"generator": "scripts/" + os.path.basename(sys.argv[0]), "numpy_version": np.__version__,
                   "scipy_version": scipy.__version__, "cases": CASES}, fh, separators=(",", ":"))
    counts = {}
    for c in CASES:
        counts.setdefault(c["op"], [0, 0])
        counts[c["op"]][1 if "error" in c else 0] += 1
    print(f"scipy_linalg: {len(CASES)} cases, {os.path.getsize(path)} bytes")
    for op, (n, e) in counts.items():
        print(f"  {op}: {n} + {e} errors")
    print(f"checks: float32 vs float64 {CHECKS['f32']} ({len(CHECKS['f32_fail'])} failed), "
          f"second method {CHECKS['alt']} ({len(CHECKS['alt_fail'])} failed), "
          f"wrong answers {CHECKS['wrong']} ({len(CHECKS['wrong_pass'])} passed)")
    for (op, kind_), qs in WORST.items():
        print(f"  worst {kind_} {op}: {max(qs):.3g} of the tolerance ({len(qs)} cases)")
    for key in ["f32_fail", "alt_fail", "wrong_pass"]:
        for label in CHECKS[key]:
            print(f"  {key}: {label}")


if __name__ == "__main__":
    main()
