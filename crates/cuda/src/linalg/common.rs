//! What the cuSOLVER paths share: column-major copies of stacks and back, workspaces from xp's
//! pool, the helper kernels, and reading the solver's status into typed errors.
use super::kernels::helpers_src;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::launch::{Family, Kernel, Key, Source};
use crate::storage::Expr;
use cudarc::cusolver::sys::cudaDataType as Ty;
use cudarc::driver::LaunchConfig;
use xp_core::{BackendStorage, DType, Error, Layout, LinAlgKind, Result, UnaryOp};

/// cuSOLVER's element type of a float or complex dtype.
pub(crate) fn ty(d: DType) -> Ty {
    match d {
        DType::F32 => Ty::CUDA_R_32F,
        DType::F64 => Ty::CUDA_R_64F,
        DType::C64 => Ty::CUDA_C_32F,
        _ => Ty::CUDA_C_64F,
    }
}

/// The stack of `l` ([.., r, c]) copied into column-major matrices, one after another.
pub(crate) fn col_major(x: &CudaStorage, l: &Layout) -> Result<CudaStorage> {
    col_major_as(x, l, x.dtype)
}

/// [`col_major`] converted to `dtype` on the way.
pub(crate) fn col_major_as(x: &CudaStorage, l: &Layout, dtype: DType) -> Result<CudaStorage> {
    let nd = l.ndim();
    // The transposed view of every matrix, copied in C order, is each matrix in column order.
    let mut perm: Vec<usize> = (0..nd).collect();
    perm.swap(nd - 2, nd - 1);
    let t = l.permute(&perm)?;
    if dtype == x.dtype {
        x.contiguous_copy(&t)
    } else {
        x.map(&[(x, &t)], dtype, Expr::Cast)
    }
}

/// `count` column-major r × c matrices back in C order ([count, r, c]), conjugated if asked.
pub(crate) fn row_major(x: &CudaStorage, count: usize, r: usize, c: usize, conj: bool) -> Result<CudaStorage> {
    let l = Layout::new(vec![count, r, c], vec![(r * c) as isize, 1, r.max(1) as isize], 0);
    if conj && x.dtype.is_complex() {
        x.map(&[(x, &l)], x.dtype, Expr::Unary(UnaryOp::Conj))
    } else {
        x.contiguous_copy(&l)
    }
}

/// `count` column-major r × c matrices, transposed (and conjugated if asked) into C order: the
/// C-order [count, c, r] stack of the matrices' (conjugate) transposes.
pub(crate) fn transposed(x: &CudaStorage, count: usize, r: usize, c: usize, conj: bool) -> Result<CudaStorage> {
    let l = Layout::contiguous(&[count, c, r]);
    if conj && x.dtype.is_complex() {
        x.map(&[(x, &l)], x.dtype, Expr::Unary(UnaryOp::Conj))
    } else {
        x.contiguous_copy(&l)
    }
}

/// Device workspace of at least `bytes` from xp's pool, on the current stream.
pub(crate) fn workspace(x: &CudaStorage, bytes: usize) -> Result<CudaStorage> {
    CudaStorage::alloc(&x.dev, DType::U8, bytes.max(1))
}

/// One status word per matrix (`int`), on the device.
pub(crate) fn infos(x: &CudaStorage, count: usize) -> Result<CudaStorage> {
    CudaStorage::alloc(&x.dev, DType::I32, count.max(1))
}

/// Read the status words back (one small copy: this waits for the solver) and turn the first
/// nonzero one into the error `kind(matrix index, info)`; negative values are xp's own bugs
/// (an invalid argument) and reported as such.
pub(crate) fn check(
    op: &'static str,
    info: &CudaStorage,
    count: usize,
    kind: impl Fn(usize, i32) -> LinAlgKind,
) -> Result<()> {
    let host = info.to_host(&Layout::contiguous(&[count]))?;
    let v = <i32 as xp_core::Element>::slice_of(&host).expect("int status");
    match v.iter().position(|&i| i != 0) {
        None => Ok(()),
        Some(b) if v[b] > 0 => Err(Error::LinAlg { op, kind: kind(b, v[b]) }),
        Some(b) => Err(Error::Cuda(format!("{op}: cuSOLVER rejected argument {} (matrix {b})", -v[b]))),
    }
}

/// Grid-stride launch configuration over `n` items.
fn spread(n: usize) -> LaunchConfig {
    crate::runtime::launch::cfg(n as i64)
}

/// The helper kernels of [`helpers_src`], in its order.
const HELPERS: [&str; 4] = ["eye", "tri", "lu_det", "unit_cols"];

/// Helper kernel `HELPERS[id]` of `x`'s dtype (one module holds all four).
fn helper(x: &CudaStorage, id: usize) -> Result<Kernel> {
    let key = Key::new(Family::LinalgAux).dtype(x.dtype);
    let ks = x.dev.kernels(key, HELPERS, || Source::new(x.dtype.name(), helpers_src(x.dtype)))?;
    Ok(ks[id].clone())
}

/// `count` identity matrices of order n (the same in row and column order).
pub(crate) fn eye(like: &CudaStorage, n: usize, count: usize) -> Result<CudaStorage> {
    let out = CudaStorage::alloc(&like.dev, like.dtype, n * n * count)?;
    let (p, n64, c64) = (out.ptr(0), n as i64, count as i64);
    let k = helper(&out, 0)?;
    let w = out.dev.work(&[&out])?;
    // SAFETY: the kernel's parameters; the output holds n * n * count elements.
    unsafe { w.launch(&k, spread(n * n * count), &[&p, &n64, &c64]) }?;
    w.done()?;
    Ok(out)
}

/// The `rows × cols` C-order stack holding the upper (or lower) trapezoid `i < k` of `count`
/// column-major factors (leading dimension `ld`, `stride` elements apart), zeros elsewhere.
#[allow(clippy::too_many_arguments)]
pub(crate) fn triangle(
    src: &CudaStorage,
    ld: usize,
    stride: usize,
    rows: usize,
    cols: usize,
    k: usize,
    upper: bool,
    count: usize,
) -> Result<CudaStorage> {
    let out = CudaStorage::alloc(&src.dev, src.dtype, rows * cols * count)?;
    if rows * cols * count == 0 {
        return Ok(out);
    }
    let (ps, pd) = (src.ptr(0), out.ptr(0));
    let v = [ld as i64, stride as i64];
    let e = [rows as i64, cols as i64, k as i64];
    let (up, c64) = (upper as i32, count as i64);
    let kr = helper(src, 1)?;
    let w = out.dev.work(&[src, &out])?;
    // SAFETY: the kernel's parameters; the source holds `count` factors `stride` apart with
    // leading dimension `ld` covering rows.min(k) × cols, the output rows * cols * count.
    unsafe { w.launch(&kr, spread(rows * cols * count), &[&ps, &v[0], &v[1], &pd, &e[0], &e[1], &e[2], &up, &c64]) }?;
    w.done()?;
    Ok(out)
}

/// det, sign and log|det| of `count` LU factors (column-major n × n, one after another) with
/// their 1-based pivots.
pub(crate) fn lu_det(lu: &CudaStorage, ipiv: &CudaStorage, n: usize, count: usize) -> Result<[CudaStorage; 3]> {
    let det = CudaStorage::alloc(&lu.dev, lu.dtype, count)?;
    let sign = CudaStorage::alloc(&lu.dev, lu.dtype, count)?;
    let log = CudaStorage::alloc(&lu.dev, lu.dtype.to_real(), count)?;
    let p = [lu.ptr(0), ipiv.ptr(0), det.ptr(0), sign.ptr(0), log.ptr(0)];
    let (n64, c64) = (n as i64, count as i64);
    let k = helper(lu, 2)?;
    let w = lu.dev.work(&[lu, ipiv, &det, &sign, &log])?;
    // SAFETY: the kernel's parameters; `count` n × n factors with n pivots each, `count` outputs.
    unsafe { w.launch(&k, spread(count), &[&p[0], &p[1], &n64, &c64, &p[2], &p[3], &p[4]]) }?;
    w.done()?;
    Ok([det, sign, log])
}

/// Scale every column of `count` column-major n × n matrices to unit norm with its largest
/// component real and positive (in place).
pub(crate) fn unit_columns(v: &mut CudaStorage, n: usize, count: usize) -> Result<()> {
    let (p, n64, c64) = (v.ptr(0), n as i64, count as i64);
    let k = helper(v, 3)?;
    let w = v.dev.work(&[&*v])?;
    // SAFETY: the kernel's parameters; `count` n × n matrices.
    unsafe { w.launch(&k, spread(n * count), &[&p, &n64, &c64]) }?;
    w.done()
}

/// Run `f(z)` for each matrix `z < count` of a stack (a library call per matrix on the handles'
/// stream, the current one), in one [`crate::runtime::launch::Work`] over `bufs`.
pub(crate) fn per_matrix(
    x: &CudaStorage,
    bufs: &[&CudaStorage],
    count: usize,
    mut f: impl FnMut(usize) -> Result<()>,
) -> Result<()> {
    let w = x.dev.work(bufs)?;
    for z in 0..count {
        f(z)?;
    }
    w.done()
}

/// The leading batch count and matrix size of a stack layout.
pub(crate) fn dims(l: &Layout) -> (usize, usize, usize) {
    let nd = l.ndim();
    (l.shape()[..nd - 2].iter().product(), l.shape()[nd - 2], l.shape()[nd - 1])
}

/// A stack as one uniform batch: `x` itself when its matrices lie one batch stride apart (0 for
/// one matrix or a broadcast batch), else a C-order copy; with the layout to read and the stride.
pub(crate) fn uniform_batch(x: &CudaStorage, l: &Layout) -> Result<(Option<CudaStorage>, Layout, i64)> {
    match super::gemm::batch_stride(l) {
        Some(s) => Ok((None, l.clone(), s)),
        None => {
            let nd = l.ndim();
            let per = (l.shape()[nd - 2] * l.shape()[nd - 1]) as i64;
            Ok((Some(x.contiguous_copy(l)?), Layout::contiguous(l.shape()), per))
        }
    }
}
