//! Stacks of small matrices in one launch: xp's one-block-per-matrix kernels
//! (`stack.cu`) for the SVD (one-sided Jacobi, a group of about r/8 lanes per
//! column pair), the Hermitian eigensolver (two-sided Jacobi; eigenvalues alone up to 64 × 64 by
//! tridiagonalisation and QL), Cholesky (a warp per matrix up to 32 × 32) and Householder QR. A matrix and its factors live in one block's
//! shared memory, so the size rule is that memory: each function here answers `None` when a
//! matrix does not fit ([`SMEM_LIMIT`]), and the caller takes cuSOLVER's per-matrix routines.
//! Every stack that fits takes the kernel, one matrix or thousands: one launch and (for the
//! routines that can fail) one read of the stack's status words. `XP_LINALG_STACK=off` sends
//! everything to cuSOLVER instead (for measurement).
use super::common::{check, dims};
use super::lu::uniform;
use crate::codegen::PRELUDE;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::device::driver_err;
use crate::runtime::launch::{Family, Kernel, Key, Param, Source};
use cudarc::driver::LaunchConfig;
use xp_core::linalg::{EighSpec, QrMode, SvdSpec, Uplo};
use xp_core::{DType, Layout, LinAlgKind, Result};

const SRC: &str = include_str!("stack.cu");

/// The most dynamic shared memory a block of these kernels asks for (Hopper allows 227 KiB;
/// leave room for the static part).
pub(crate) const SMEM_LIMIT: usize = 200 * 1024;

const NAMES: [&str; 6] = ["svd_jacobi", "eigh_jacobi", "cholesky", "qr_house", "cholesky_warp", "eigvalsh_tridiag"];

/// The largest order whose eigenvalues alone go through `eigvalsh_tridiag` (its QL step runs
/// on one thread, O(n²); Jacobi above).
const TRIDIAG_MAX: usize = 64;

/// Matrices per block of `cholesky_warp` (a warp each), and the largest order it takes.
const CHOL_WARPS: usize = 4;
const CHOL_WARP_MAX: usize = 32;

/// Whether the kernels may be used (`XP_LINALG_STACK=off` turns them off).
fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| !std::env::var("XP_LINALG_STACK").is_ok_and(|v| v == "off"))
}

/// The kernels' source for dtype `d` (float32, float64, complex64, complex128).
pub(crate) fn source(d: DType) -> String {
    let (t, r, eps, rmin) = match d {
        DType::F32 => ("float", "float", "1.1920929e-07f", "1.17549435e-38f"),
        DType::F64 => ("double", "double", "2.220446049250313e-16", "2.2250738585072014e-308"),
        DType::C64 => ("cf", "float", "1.1920929e-07f", "1.17549435e-38f"),
        _ => ("cd", "double", "2.220446049250313e-16", "2.2250738585072014e-308"),
    };
    let cplx = d.is_complex() as u8;
    format!(
        "{PRELUDE}\ntypedef {t} T;\ntypedef {r} R;\n#define CPLX {cplx}\n#define EPS (({r}){eps})\n#define RMIN (({r}){rmin})\n{SRC}"
    )
}

/// Kernel `which` (an index into [`NAMES`]) of dtype `d`, opted into `smem` bytes of dynamic
/// shared memory.
fn kernel(x: &CudaStorage, which: usize, smem: usize) -> Result<Kernel> {
    let d = x.dtype;
    let ks = x.dev.kernels(Key::new(Family::StackLinalg).dtype(d), NAMES, || Source::new(d.name(), source(d)))?;
    let k = ks[which].clone();
    if smem > 48 * 1024 {
        use cudarc::driver::sys::CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES as MAX;
        k.f.set_attribute(MAX, smem as i32).map_err(driver_err)?;
    }
    Ok(k)
}

/// One block of `threads` (a multiple of 32, at most 1024) per matrix, grid-strided.
fn cfg(count: usize, threads: usize, smem: usize) -> LaunchConfig {
    let threads = threads.next_multiple_of(32).clamp(32, 1024) as u32;
    LaunchConfig {
        grid_dim: (count.clamp(1, 1 << 20) as u32, 1, 1),
        block_dim: (threads, 1, 1),
        shared_mem_bytes: smem as u32,
    }
}

/// A stack read in place (or a C-order copy when its batch has no single stride): the buffer,
/// the first element, and (row, column, batch) strides.
struct Input {
    copy: Option<CudaStorage>,
    off: usize,
    st: [i64; 3],
}

impl Input {
    fn of(a: &CudaStorage, al: &Layout) -> Result<Input> {
        let (copy, off, st) = uniform(a, al)?;
        Ok(Input { copy, off, st })
    }
    fn buf<'a>(&'a self, a: &'a CudaStorage) -> &'a CudaStorage {
        self.copy.as_ref().unwrap_or(a)
    }
}

/// The sizes of T and of its real type.
fn sizes(d: DType) -> (usize, usize) {
    (d.size(), d.to_real().size())
}

/// The SVD of every matrix (`U`, `s`, `Vh` as [`super::svd::svd`] returns them), or None when a
/// matrix does not fit.
#[allow(clippy::type_complexity)]
pub(crate) fn svd(
    a: &CudaStorage,
    al: &Layout,
    spec: SvdSpec,
) -> Result<Option<(Option<CudaStorage>, CudaStorage, Option<CudaStorage>)>> {
    let (count, m, n) = dims(al);
    let (r, c) = (m.max(n), m.min(n));
    let vectors = spec.compute_uv;
    let uc = if vectors && spec.full_matrices { r } else { c };
    let (ts, rs) = sizes(a.dtype);
    let smem = (r * uc + if vectors { c * c + r } else { 0 }) * ts + (c + 32) * rs + c * 4;
    if !enabled() || smem > SMEM_LIMIT {
        return Ok(None);
    }
    let d = a.dtype;
    let (ucols, vrows) = if spec.full_matrices { (m, n) } else { (c, c) };
    let s = CudaStorage::alloc(&a.dev, d.to_real(), count * c)?;
    let (u, vh) = if vectors {
        (
            Some(CudaStorage::alloc(&a.dev, d, count * m * ucols)?),
            Some(CudaStorage::alloc(&a.dev, d, count * vrows * n)?),
        )
    } else {
        (None, None)
    };
    let info = CudaStorage::alloc(&a.dev, DType::I32, count)?;
    let inp = Input::of(a, al)?;
    let x = inp.buf(a);
    let f = kernel(a, 0, smem)?;
    let mut bufs: Vec<&CudaStorage> = vec![x, &s, &info];
    bufs.extend(u.iter().chain(vh.iter()));
    let wk = a.dev.work(&bufs)?;
    let (pa, ps, pi) = (x.ptr(inp.off), s.ptr(0), info.ptr(0));
    let (pu, pv) = (u.as_ref().map_or(0, |b| b.ptr(0)), vh.as_ref().map_or(0, |b| b.ptr(0)));
    // a group of lanes per column pair, about 8 rows per lane (fewer lanes: fewer shuffles per
    // pair, more matrices resident per SM)
    let gsz = r.div_ceil(8).next_power_of_two().clamp(1, 32);
    let ints = [m as i32, n as i32, vectors as i32, spec.full_matrices as i32, gsz as i32];
    let cnt = count as i64;
    let args: [&dyn Param; 14] = [
        &pa, &inp.st[0], &inp.st[1], &inp.st[2], &ints[0], &ints[1], &pu, &ps, &pv, &pi, &cnt, &ints[2], &ints[3],
        &ints[4],
    ];
    let pairs = (c + (c & 1)).max(2) / 2;
    // SAFETY: the parameters match svd_jacobi; the input holds `count` m × n matrices at the
    // given strides, the outputs the sizes allocated above; the dynamic shared memory is what
    // the kernel lays out for these sizes.
    unsafe { wk.launch(&f, cfg(count, gsz * pairs, smem), &args) }?;
    wk.done()?;
    check("svd", &info, count, |z, _| LinAlgKind::NoConvergence { index: z })?;
    Ok(Some((u, s, vh)))
}

/// Eigenvalues (ascending) and, if asked, eigenvectors of every Hermitian matrix, or None when
/// a matrix does not fit.
pub(crate) fn eigh(a: &CudaStorage, al: &Layout, spec: EighSpec) -> Result<Option<(CudaStorage, Option<CudaStorage>)>> {
    let (count, n, _) = dims(al);
    if !spec.vectors && n <= TRIDIAG_MAX {
        return eigvalsh_tridiag(a, al, spec.uplo);
    }
    let np = (n + (n & 1)).max(2) / 2;
    let (ts, rs) = sizes(a.dtype);
    let smem = (n * (n + 1) * (1 + spec.vectors as usize) + np) * ts + (5 * np + 32) * rs + 2 * np * 4;
    if !enabled() || smem > SMEM_LIMIT {
        return Ok(None);
    }
    let d = a.dtype;
    let w = CudaStorage::alloc(&a.dev, d.to_real(), count * n)?;
    let v = if spec.vectors { Some(CudaStorage::alloc(&a.dev, d, count * n * n)?) } else { None };
    let info = CudaStorage::alloc(&a.dev, DType::I32, count)?;
    let inp = Input::of(a, al)?;
    let x = inp.buf(a);
    let f = kernel(a, 1, smem)?;
    let mut bufs: Vec<&CudaStorage> = vec![x, &w, &info];
    bufs.extend(v.iter());
    let wk = a.dev.work(&bufs)?;
    let (pa, pw, pi, pv) = (x.ptr(inp.off), w.ptr(0), info.ptr(0), v.as_ref().map_or(0, |b| b.ptr(0)));
    let ints = [n as i32, (spec.uplo == Uplo::Lower) as i32, spec.vectors as i32];
    let cnt = count as i64;
    let args: [&dyn Param; 11] =
        [&pa, &inp.st[0], &inp.st[1], &inp.st[2], &ints[0], &ints[1], &pw, &pv, &pi, &cnt, &ints[2]];
    // SAFETY: as for the SVD, with eigh_jacobi's parameters and layout.
    unsafe { wk.launch(&f, cfg(count, n * np, smem), &args) }?;
    wk.done()?;
    check("eigh", &info, count, |z, _| LinAlgKind::NoConvergence { index: z })?;
    Ok(Some((w, v)))
}

/// Eigenvalues (ascending) of every Hermitian matrix of order up to [`TRIDIAG_MAX`] by
/// tridiagonalisation and QL.
fn eigvalsh_tridiag(a: &CudaStorage, al: &Layout, uplo: Uplo) -> Result<Option<(CudaStorage, Option<CudaStorage>)>> {
    let (count, n, _) = dims(al);
    let (ts, rs) = sizes(a.dtype);
    let smem = (n * (n | 1) + 2 * n) * ts + (2 * n + 32) * rs;
    if !enabled() || smem > SMEM_LIMIT {
        return Ok(None);
    }
    let w = CudaStorage::alloc(&a.dev, a.dtype.to_real(), count * n)?;
    let info = CudaStorage::alloc(&a.dev, DType::I32, count)?;
    let inp = Input::of(a, al)?;
    let x = inp.buf(a);
    let f = kernel(a, 5, smem)?;
    let bufs = [x, &w, &info];
    let wk = a.dev.work(&bufs)?;
    let (pa, pw, pi) = (x.ptr(inp.off), w.ptr(0), info.ptr(0));
    let ints = [n as i32, (uplo == Uplo::Lower) as i32];
    let cnt = count as i64;
    let args: [&dyn Param; 9] = [&pa, &inp.st[0], &inp.st[1], &inp.st[2], &ints[0], &ints[1], &pw, &pi, &cnt];
    // SAFETY: as for the SVD, with eigvalsh_tridiag's parameters and layout.
    unsafe { wk.launch(&f, cfg(count, 32 * (n / 4).clamp(1, 8), smem), &args) }?;
    wk.done()?;
    check("eigh", &info, count, |z, _| LinAlgKind::NoConvergence { index: z })?;
    Ok(Some((w, None)))
}

/// The Cholesky factor of every matrix (the triangle `uplo`, zeros in the other), or None when a
/// matrix does not fit.
pub(crate) fn cholesky(a: &CudaStorage, al: &Layout, uplo: Uplo) -> Result<Option<CudaStorage>> {
    let (count, n, _) = dims(al);
    // a warp per matrix up to 32 (no block barriers, several matrices per block), else a block
    let warp = n <= CHOL_WARP_MAX;
    let smem = if warp { CHOL_WARPS * n * (n | 1) } else { n * n } * a.dtype.size();
    if !enabled() || smem > SMEM_LIMIT {
        return Ok(None);
    }
    let out = CudaStorage::alloc(&a.dev, a.dtype, count * n * n)?;
    let info = CudaStorage::alloc(&a.dev, DType::I32, count)?;
    let inp = Input::of(a, al)?;
    let x = inp.buf(a);
    let f = kernel(a, if warp { 4 } else { 2 }, smem)?;
    let bufs = [x, &out, &info];
    let wk = a.dev.work(&bufs)?;
    let (pa, po, pi) = (x.ptr(inp.off), out.ptr(0), info.ptr(0));
    let ints = [n as i32, (uplo == Uplo::Lower) as i32];
    let cnt = count as i64;
    let args: [&dyn Param; 9] = [&pa, &inp.st[0], &inp.st[1], &inp.st[2], &ints[0], &ints[1], &po, &pi, &cnt];
    let lc =
        if warp { cfg(count.div_ceil(CHOL_WARPS), 32 * CHOL_WARPS, smem) } else { cfg(count, (n * n).min(256), smem) };
    // SAFETY: as for the SVD, with cholesky's (and cholesky_warp's) parameters and layout.
    unsafe { wk.launch(&f, lc, &args) }?;
    wk.done()?;
    check("cholesky", &info, count, |z, order| LinAlgKind::NotPositiveDefinite { index: z, order: order as usize })?;
    Ok(Some(out))
}

/// `(Q, R)` of every matrix as [`QrMode`] asks, or None when a matrix does not fit. Nothing can
/// fail, so nothing is read back: no wait.
#[allow(clippy::type_complexity)]
pub(crate) fn qr(a: &CudaStorage, al: &Layout, mode: QrMode) -> Result<Option<(Option<CudaStorage>, CudaStorage)>> {
    let (count, m, n) = dims(al);
    let k = m.min(n);
    let (qc, rr) = if mode == QrMode::Complete { (m, m) } else { (k, k) };
    let with_q = mode != QrMode::R;
    let smem = (m * n + if with_q { m * qc } else { 0 } + k) * a.dtype.size();
    if !enabled() || smem > SMEM_LIMIT {
        return Ok(None);
    }
    let r = CudaStorage::alloc(&a.dev, a.dtype, count * rr * n)?;
    let q = if with_q { Some(CudaStorage::alloc(&a.dev, a.dtype, count * m * qc)?) } else { None };
    let inp = Input::of(a, al)?;
    let x = inp.buf(a);
    let f = kernel(a, 3, smem)?;
    let mut bufs: Vec<&CudaStorage> = vec![x, &r];
    bufs.extend(q.iter());
    let wk = a.dev.work(&bufs)?;
    let (pa, pr, pq) = (x.ptr(inp.off), r.ptr(0), q.as_ref().map_or(0, |b| b.ptr(0)));
    let code = match mode {
        QrMode::Reduced => 0i32,
        QrMode::Complete => 1,
        QrMode::R => 2,
    };
    let ints = [m as i32, n as i32, code];
    let cnt = count as i64;
    let args: [&dyn Param; 10] =
        [&pa, &inp.st[0], &inp.st[1], &inp.st[2], &ints[0], &ints[1], &ints[2], &pq, &pr, &cnt];
    // SAFETY: as for the SVD, with qr_house's parameters and layout.
    unsafe { wk.launch(&f, cfg(count, 32 * n.clamp(1, 16), smem), &args) }?;
    wk.done()?;
    Ok(Some((q, r)))
}

#[cfg(test)]
mod tests {
    //! Without a GPU: the kernels parse under g++ with the CUDA keywords stubbed, every dtype.
    use super::*;

    #[test]
    fn stack_kernels_parse() {
        for d in [DType::F32, DType::F64, DType::C64, DType::C128] {
            crate::codegen::tests_support::syntax_check(&format!("stack-{d}"), &source(d));
        }
    }
}
