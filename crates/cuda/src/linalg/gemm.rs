//! Matrix products on the GPU. Float, half and complex stacks go to cuBLAS's strided-batched
//! `GemmEx` as they lie: each operand's transposition, leading dimension and batch stride are
//! read off its layout (C-order, F-order and broadcast batches need no copy); only an operand
//! that no (op, ld, stride) describes — a negative step, a non-uniform batch — is copied first.
//! float16/bfloat16 accumulate in float32; float32 runs in full precision unless TF32 is allowed
//! ([`super::allow_tf32`]). Integers and bool run xp's own tiled kernel with NumPy's wrapping,
//! and so do small float32/float64 products ([`kernels::tiled_float`]).
use super::handles::{allow_tf32, blas_err, cublas};
use super::kernels;
use crate::runtime::buffer::CudaStorage;
use cudarc::cublas::sys::{
    cublasComputeType_t as Compute, cublasGemmAlgo_t, cublasOperation_t as Op, cudaDataType as Ty,
};
use cudarc::driver::LaunchConfig;
use std::ffi::{c_int, c_void};
use xp_core::{DType, Layout, Result};

/// How one operand reaches a BLAS call: its first element, whether the column-major matrix it
/// describes must be transposed, its leading dimension and the distance between matrices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Operand {
    pub(crate) offset: usize,
    pub(crate) trans: bool,
    pub(crate) ld: i64,
    pub(crate) stride: i64,
}

/// The single stride between consecutive matrices of `l`'s batch (C order over the leading
/// axes), 0 for one matrix or a broadcast batch; None when the batch is not one arithmetic
/// progression (or steps backwards).
pub(crate) fn batch_stride(l: &Layout) -> Option<i64> {
    let nd = l.ndim();
    let (shape, strides) = (&l.shape()[..nd - 2], &l.strides()[..nd - 2]);
    let mut step: Option<i64> = None;
    let mut span = 1i64; // matrices covered by the axes after the current one
    for d in (0..shape.len()).rev() {
        if shape[d] == 1 {
            continue;
        }
        let s = strides[d] as i64;
        match step {
            None => step = Some(s),
            Some(st) if s == st * span => {}
            Some(_) => return None,
        }
        span *= shape[d] as i64;
    }
    let s = step.unwrap_or(0);
    (s >= 0).then_some(s)
}

/// `l` ([.., r, c], row-major logic) as the column-major c×r matrix Xᵀ of a swapped BLAS call:
/// op N with ld = row stride when rows are unit-stride runs, op T with ld = column stride when
/// columns are; None when neither holds or the batch is not uniform.
pub(crate) fn operand(l: &Layout) -> Option<Operand> {
    let nd = l.ndim();
    let (r, c) = (l.shape()[nd - 2], l.shape()[nd - 1]);
    let (rs, cs) = (l.strides()[nd - 2] as i64, l.strides()[nd - 1] as i64);
    let stride = batch_stride(l)?;
    let (r1, c1) = (r.max(1) as i64, c.max(1) as i64);
    let (trans, ld) = if (c <= 1 || cs == 1) && (r <= 1 || rs >= c1) {
        (false, if r <= 1 { c1 } else { rs })
    } else if (r <= 1 || rs == 1) && (c <= 1 || cs >= r1) {
        (true, if c <= 1 { r1 } else { cs })
    } else {
        return None;
    };
    (ld <= i32::MAX as i64).then_some(Operand { offset: l.offset(), trans, ld, stride })
}

/// cuBLAS's element type, compute type and scalar bytes for a dtype it multiplies.
fn blas_types(d: DType) -> Option<(Ty, Compute, [u8; 16])> {
    let one32 = 1.0f32.to_le_bytes();
    let one64 = 1.0f64.to_le_bytes();
    let mut s = [0u8; 16];
    let (t, c) = match d {
        DType::F16 => (Ty::CUDA_R_16F, Compute::CUBLAS_COMPUTE_32F),
        DType::BF16 => (Ty::CUDA_R_16BF, Compute::CUBLAS_COMPUTE_32F),
        DType::F32 if allow_tf32() => (Ty::CUDA_R_32F, Compute::CUBLAS_COMPUTE_32F_FAST_TF32),
        DType::F32 => (Ty::CUDA_R_32F, Compute::CUBLAS_COMPUTE_32F),
        DType::F64 => (Ty::CUDA_R_64F, Compute::CUBLAS_COMPUTE_64F),
        DType::C64 => (Ty::CUDA_C_32F, Compute::CUBLAS_COMPUTE_32F),
        DType::C128 => (Ty::CUDA_C_64F, Compute::CUBLAS_COMPUTE_64F),
        _ => return None,
    };
    // alpha = 1 in the compute type's scalar (float for 32F, double for 64F; complex: re = 1).
    match c {
        Compute::CUBLAS_COMPUTE_64F => s[..8].copy_from_slice(&one64),
        _ => s[..4].copy_from_slice(&one32),
    }
    Some((t, c, s))
}

/// A contiguous copy of `l` (used where no BLAS operand describes it).
fn packed(x: &CudaStorage, l: &Layout) -> Result<(CudaStorage, Layout)> {
    Ok((x.contiguous_copy(l)?, Layout::contiguous(l.shape())))
}

/// `[.., m, k] @ [.., k, n]` of two stacks with one batch shape.
pub(crate) fn matmul(a: &CudaStorage, al: &Layout, b: &CudaStorage, bl: &Layout) -> Result<CudaStorage> {
    let nd = al.ndim();
    let (m, k, n) = (al.shape()[nd - 2], al.shape()[nd - 1], bl.shape()[nd - 1]);
    let count: usize = al.shape()[..nd - 2].iter().product();
    let out = CudaStorage::alloc(&a.dev, a.dtype, count * m * n)?;
    if count * m * n == 0 {
        return Ok(out);
    }
    let dims = (m, k, n, count);
    match blas_types(a.dtype) {
        _ if k == 0 => kernels::zero(out),
        Some(_) if super::gemv::fits(a.dtype, al, dims) => super::gemv::gemv(a, al, b, bl, out, dims),
        Some(_) if m == 1 && n == 1 && k > 256 && !kernels::cublas_only() => {
            // (1, k) @ (k, 1): a sum of products over the whole device, as CuPy does
            let (xl, yl) = (al.remove_axes(&[nd - 2]), bl.remove_axes(&[nd - 1]));
            crate::generator::reduction::builtin_dot(a, &xl, b, &yl, &out)?;
            Ok(out)
        }
        Some(_) if kernels::tiled_float(a.dtype, dims) => kernels::tiled_gemm(a, al, b, bl, out, dims),
        Some(types) => blas_gemm(a, al, b, bl, out, dims, types),
        None => kernels::tiled_gemm(a, al, b, bl, out, dims),
    }
}

fn blas_gemm(
    a: &CudaStorage,
    al: &Layout,
    b: &CudaStorage,
    bl: &Layout,
    out: CudaStorage,
    (m, k, n, count): (usize, usize, usize, usize),
    (ty, compute, one): (Ty, Compute, [u8; 16]),
) -> Result<CudaStorage> {
    // Operands no (op, ld, stride) describes are copied to C order first.
    let (ca, cal);
    let (a, oa) = match operand(al) {
        Some(o) => (a, o),
        None => {
            (ca, cal) = packed(a, al)?;
            (&ca, operand(&cal).expect("C order is an operand"))
        }
    };
    let (cb, cbl);
    let (b, ob) = match operand(bl) {
        Some(o) => (b, o),
        None => {
            (cb, cbl) = packed(b, bl)?;
            (&cb, operand(&cbl).expect("C order is an operand"))
        }
    };
    // A shared right operand under a batch of row-stacked left operands is one tall GEMM.
    let (mut m, mut count, mut oa) = (m, count, oa);
    if count > 1 && ob.stride == 0 && !oa.trans && oa.stride == m as i64 * oa.ld {
        (m, count, oa.stride) = (m * count, 1, 0);
    }
    // cuBLAS documents no batch stride of 0 for a batch of several: broadcast what remains.
    let (ca2, cb2);
    let (a, oa) = if count > 1 && oa.stride == 0 {
        (ca2, _) = packed(a, al)?;
        (&ca2, Operand { offset: 0, trans: false, ld: k as i64, stride: (m * k) as i64 })
    } else {
        (a, oa)
    };
    let (b, ob) = if count > 1 && ob.stride == 0 {
        (cb2, _) = packed(b, bl)?;
        (&cb2, Operand { offset: 0, trans: false, ld: n as i64, stride: (k * n) as i64 })
    } else {
        (b, ob)
    };
    let h = cublas(&a.dev)?;
    let w = a.dev.work(&[a, b, &out])?;
    let zero = [0u8; 16];
    let op = |t: bool| if t { Op::CUBLAS_OP_T } else { Op::CUBLAS_OP_N };
    let dim = |x: usize| x as c_int;
    // Row-major C = A B is column-major Cᵀ = Bᵀ Aᵀ: B is the first operand of the call. A
    // single product is the plain GemmEx call (the one cuBLAS alone and CuPy make), a stack the
    // strided-batched one.
    let (pb, pa, pc) =
        (b.ptr(ob.offset) as *const c_void, a.ptr(oa.offset) as *const c_void, out.ptr(0) as *mut c_void);
    let (alpha, beta) = (one.as_ptr().cast(), zero.as_ptr().cast());
    let (lb, la, lc) = (ob.ld as c_int, oa.ld as c_int, dim(n));
    let algo = cublasGemmAlgo_t::CUBLAS_GEMM_DFALT;
    // SAFETY: every pointer addresses `count` matrices inside its block at the given leading
    // dimensions and batch strides (derived from validated layouts); the output is dense
    // (ldc = n, stride m * n); alpha and beta are host scalars of the compute type.
    unsafe {
        if count == 1 {
            cudarc::cublas::result::gemm_ex(
                h,
                op(ob.trans),
                op(oa.trans),
                dim(n),
                dim(m),
                dim(k),
                alpha,
                pb,
                ty,
                lb,
                pa,
                ty,
                la,
                beta,
                pc,
                ty,
                lc,
                compute,
                algo,
            )
        } else {
            cudarc::cublas::result::gemm_strided_batched_ex(
                h,
                op(ob.trans),
                op(oa.trans),
                dim(n),
                dim(m),
                dim(k),
                alpha,
                pb,
                ty,
                lb,
                ob.stride,
                pa,
                ty,
                la,
                oa.stride,
                beta,
                pc,
                ty,
                lc,
                (m * n) as i64,
                dim(count),
                compute,
                algo,
            )
        }
    }
    .map_err(|e| blas_err("gemm", e))?;
    w.done()?;
    Ok(out)
}

/// Launch configuration of a 2-D tiled kernel over `count` (m × n) outputs.
pub(crate) fn tiles(m: usize, n: usize, count: usize, tile: usize) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (n.div_ceil(tile) as u32, m.div_ceil(tile) as u32, count.min(65_535) as u32),
        block_dim: (tile as u32, tile as u32, 1),
        shared_mem_bytes: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(shape: &[usize], strides: &[isize], off: usize) -> Layout {
        Layout::new(shape.to_vec(), strides.to_vec(), off)
    }

    #[test]
    fn operands_are_read_off_the_layout() {
        // C order: op N, ld = row stride; batch stride = matrix size.
        let c = Layout::contiguous(&[3, 4, 5]);
        assert_eq!(operand(&c), Some(Operand { offset: 0, trans: false, ld: 5, stride: 20 }));
        // F order (a transpose of C order): op T, ld = column stride.
        let f = Layout::contiguous(&[5, 4]).permute(&[1, 0]).unwrap();
        assert_eq!(operand(&f), Some(Operand { offset: 0, trans: true, ld: 4, stride: 0 }));
        // A column slice of a wider matrix: ld is the parent's row stride.
        assert_eq!(operand(&view(&[4, 3], &[10, 1], 7)).map(|o| (o.ld, o.offset)), Some((10, 7)));
        // A broadcast batch has stride 0; a 2-d batch that nests collapses to one stride.
        assert_eq!(operand(&view(&[6, 2, 2], &[0, 2, 1], 0)).unwrap().stride, 0);
        assert_eq!(operand(&view(&[2, 3, 2, 2], &[12, 4, 2, 1], 0)).unwrap().stride, 4);
        // Not describable: negative steps, elements that are not unit-stride either way, a
        // batch that is not one progression.
        assert_eq!(operand(&view(&[3, 3], &[-3, 1], 6)), None);
        assert_eq!(operand(&view(&[3, 3], &[6, 2], 0)), None);
        assert_eq!(operand(&view(&[2, 3, 2, 2], &[0, 4, 2, 1], 0)), None);
        // Rows of length 1 and single rows take any stride.
        assert_eq!(operand(&view(&[4, 1], &[7, 3], 0)).map(|o| (o.trans, o.ld)), Some((false, 7)));
        assert_eq!(operand(&view(&[1, 4], &[9, 1], 0)).map(|o| (o.trans, o.ld)), Some((false, 4)));
    }
}
