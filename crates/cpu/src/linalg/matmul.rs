//! GEMM over stacks: dot products and matrix–vector products by our own loops (`gemv.rs`),
//! faer's GEMM for large real products, matrixmultiply's s/d/c/zgemm for the rest; both read each operand through its own strides
//! (transposed, negative, zero: no copy), one matrix per rayon task when the stack has several;
//! float16 and bfloat16 are widened to float32 and rounded once at the end (NumPy accumulates
//! them in float too); integers and bool run a plain loop with NumPy's wrapping (bool: or of ands).
use super::gemv::gemv;
use super::skinny::skinny;
use super::stack::Stack;
use rayon::prelude::*;
use xp_core::{bf16, f16, Complex32, Complex64, Element, Error, HostBuffer, Layout, Result};

/// Raw operand pointers shared by the tasks of one product (each task reads only).
#[derive(Clone, Copy)]
struct Ptr<T>(*const T);
// SAFETY: the pointed-to buffers outlive the product and are only read.
unsafe impl<T> Send for Ptr<T> {}
unsafe impl<T> Sync for Ptr<T> {}

impl<T> Ptr<T> {
    /// The pointer `n` elements on (a method, so that closures capture the whole `Ptr`).
    unsafe fn at(self, n: usize) -> *const T {
        self.0.add(n)
    }
}

/// One matrix product `C = A B`: sizes, operand pointers with their (row, column) strides, and
/// C dense row-major.
pub(super) struct Job<T> {
    pub(super) m: usize,
    pub(super) k: usize,
    pub(super) n: usize,
    pub(super) a: *const T,
    pub(super) sa: (isize, isize),
    pub(super) b: *const T,
    pub(super) sb: (isize, isize),
    pub(super) c: *mut T,
    /// the only product of the call: the kernel may use every thread
    pub(super) par: bool,
}

/// A BLAS-style kernel for one [`Job`].
type Gemm<T> = unsafe fn(&Job<T>);

unsafe fn sgemm(j: &Job<f32>) {
    if !dot_product(j) && !gemv(j) && !skinny(j) && !faer_gemm(j) {
        matrixmultiply::sgemm(j.m, j.k, j.n, 1.0, j.a, j.sa.0, j.sa.1, j.b, j.sb.0, j.sb.1, 0.0, j.c, j.n as isize, 1)
    }
}
unsafe fn dgemm(j: &Job<f64>) {
    if !dot_product(j) && !gemv(j) && !skinny(j) && !faer_gemm(j) {
        matrixmultiply::dgemm(j.m, j.k, j.n, 1.0, j.a, j.sa.0, j.sa.1, j.b, j.sb.0, j.sb.1, 0.0, j.c, j.n as isize, 1)
    }
}

/// A 1 × k by k × 1 product with both vectors contiguous (`vecdot`, `vdot`, `inner`, a stack
/// of row-by-column products) as one dot product in 32 interleaved sums: matrixmultiply packs
/// each vector into panels first (19 µs a 4096-long product where the dot takes 0.5). False:
/// not taken.
unsafe fn dot_product<T: super::small::Small>(j: &Job<T>) -> bool {
    if j.m != 1 || j.n != 1 || (j.k > 1 && (j.sa.1 != 1 || j.sb.0 != 1)) {
        return false;
    }
    let (x, y) = (std::slice::from_raw_parts(j.a, j.k), std::slice::from_raw_parts(j.b, j.k));
    let dot = |x: &[T], y: &[T]| {
        super::small::wide(
            #[inline(always)]
            || super::small::dot::<T, 32>(x, y),
        )
    };
    *j.c = if j.par && j.k >= DOT_SPLIT {
        // a long product over the cores, the parts summed in order
        use rayon::prelude::*;
        let c = j.k.div_ceil(2 * rayon::current_num_threads()).max(DOT_SPLIT / 4);
        let parts: Vec<T> = x.par_chunks(c).zip(y.par_chunks(c)).map(|(a, b)| dot(a, b)).collect();
        parts.into_iter().fold(T::default(), |s, v| s + v)
    } else {
        dot(x, y)
    };
    true
}

/// Dot products at least this long are split over the cores (a 2^22-long float32 product:
/// 0.6 ms on one core of the 2-core VM, NumPy's OpenBLAS 0.29 on both).
const DOT_SPLIT: usize = 1 << 18;

/// Products of at least this many multiply-adds go through faer's GEMM.
#[cfg(feature = "linalg")]
const FAER_MIN: usize = 1 << 21;

/// A large real product through faer's GEMM, whose AVX-512 kernels (runtime-dispatched) beat
/// matrixmultiply's AVX2 ones (1024² on a 2-core AVX-512 VM: float64 25.4 -> 20.0 ms, float32
/// 11.0 -> 9.8 ms). Not for broadcast operands (a zero stride). False: not taken (always, in a
/// build without the `linalg` feature, which leaves faer out).
#[cfg(feature = "linalg")]
unsafe fn faer_gemm<T: faer::traits::ComplexField + Copy + num_traits::One>(j: &Job<T>) -> bool {
    let strides = [j.sa.0, j.sa.1, j.sb.0, j.sb.1];
    if j.m * j.k * j.n < FAER_MIN || strides.contains(&0) {
        return false;
    }
    let a = faer::MatRef::from_raw_parts(j.a, j.m, j.k, j.sa.0, j.sa.1);
    let b = faer::MatRef::from_raw_parts(j.b, j.k, j.n, j.sb.0, j.sb.1);
    let c = faer::MatMut::from_raw_parts_mut(j.c, j.m, j.n, j.n as isize, 1);
    let par = if j.par { faer::Par::rayon(0) } else { faer::Par::Seq };
    faer::linalg::matmul::matmul(c, faer::Accum::Replace, a, b, T::one(), par);
    true
}
#[cfg(not(feature = "linalg"))]
unsafe fn faer_gemm<T>(_j: &Job<T>) -> bool {
    false
}
// Complex32 / Complex64 are #[repr(C)] (re, im): the layout of matrixmultiply's [f32; 2] / [f64; 2].
macro_rules! complex_gemm {
    ($name:ident, $t:ty, $f:path) => {
        unsafe fn $name(j: &Job<$t>) {
            use matrixmultiply::CGemmOption::Standard;
            if dot_product(j) || gemv(j) || skinny(j) {
                return;
            }
            let (one, zero) = ([1.0, 0.0], [0.0, 0.0]);
            let (a, b, c) = (j.a.cast(), j.b.cast(), j.c.cast());
            $f(Standard, Standard, j.m, j.k, j.n, one, a, j.sa.0, j.sa.1, b, j.sb.0, j.sb.1, zero, c, j.n as isize, 1)
        }
    };
}
complex_gemm!(cgemm, Complex32, matrixmultiply::cgemm);
complex_gemm!(zgemm, Complex64, matrixmultiply::zgemm);

/// The product of two stacks with the same batch shape (`al`: [.., m, k], `bl`: [.., k, n]).
pub(crate) fn matmul(a: &HostBuffer, al: &Layout, b: &HostBuffer, bl: &Layout) -> Result<HostBuffer> {
    let (sa, sb) = (Stack::new(al), Stack::new(bl));
    Ok(match (a, b) {
        (HostBuffer::F32(x), HostBuffer::F32(y)) => HostBuffer::F32(blas(x, &sa, y, &sb, sgemm)),
        (HostBuffer::F64(x), HostBuffer::F64(y)) => HostBuffer::F64(blas(x, &sa, y, &sb, dgemm)),
        (HostBuffer::C64(x), HostBuffer::C64(y)) => HostBuffer::C64(blas(x, &sa, y, &sb, cgemm)),
        (HostBuffer::C128(x), HostBuffer::C128(y)) => HostBuffer::C128(blas(x, &sa, y, &sb, zgemm)),
        (HostBuffer::F16(x), HostBuffer::F16(y)) => HostBuffer::F16(widened(x, al, y, bl, f16::to_f32, f16::from_f32)),
        (HostBuffer::BF16(x), HostBuffer::BF16(y)) => {
            HostBuffer::BF16(widened(x, al, y, bl, bf16::to_f32, bf16::from_f32))
        }
        (HostBuffer::Bool(x), HostBuffer::Bool(y)) => HostBuffer::Bool(looped(x, &sa, y, &sb)),
        (HostBuffer::I8(x), HostBuffer::I8(y)) => HostBuffer::I8(looped(x, &sa, y, &sb)),
        (HostBuffer::I16(x), HostBuffer::I16(y)) => HostBuffer::I16(looped(x, &sa, y, &sb)),
        (HostBuffer::I32(x), HostBuffer::I32(y)) => HostBuffer::I32(looped(x, &sa, y, &sb)),
        (HostBuffer::I64(x), HostBuffer::I64(y)) => HostBuffer::I64(looped(x, &sa, y, &sb)),
        (HostBuffer::U8(x), HostBuffer::U8(y)) => HostBuffer::U8(looped(x, &sa, y, &sb)),
        (HostBuffer::U16(x), HostBuffer::U16(y)) => HostBuffer::U16(looped(x, &sa, y, &sb)),
        (HostBuffer::U32(x), HostBuffer::U32(y)) => HostBuffer::U32(looped(x, &sa, y, &sb)),
        (HostBuffer::U64(x), HostBuffer::U64(y)) => HostBuffer::U64(looped(x, &sa, y, &sb)),
        _ => return Err(Error::InvalidDType { op: "matmul", dtype: b.dtype() }),
    })
}

/// The product through a BLAS-style kernel: one call per matrix, matrices in parallel. The
/// output comes from xp's buffer pool unwritten (every kernel here overwrites C: faer with
/// `Accum::Replace`, matrixmultiply with beta = 0), so that a product in a loop neither zeroes
/// nor faults in fresh pages.
fn blas<T: Element + Default>(a: &[T], sa: &Stack, b: &[T], sb: &Stack, gemm: Gemm<T>) -> Vec<T> {
    let (m, k, n) = (sa.rows, sa.cols, sb.cols);
    let total = sa.len() * m * n;
    let mut out = crate::pool::alloc::<T>(total);
    if m * n == 0 || k == 0 {
        out.resize(total, T::default());
        return out; // empty, or a sum over nothing: zeros
    }
    let (pa, pb) = (Ptr(a.as_ptr()), Ptr(b.as_ptr()));
    let one = |i: usize, c: &mut [std::mem::MaybeUninit<T>]| {
        // SAFETY: matrix i of each stack lies inside its buffer (layouts validated by the front
        // end); `c` holds m * n elements, which the kernel writes densely with row stride n
        // without reading them.
        unsafe {
            let (a, b) = (pa.at(sa.offsets[i]), pb.at(sb.offsets[i]));
            let par = sa.len() == 1;
            let c = c.as_mut_ptr().cast::<T>();
            gemm(&Job { m, k, n, a, sa: (sa.rs, sa.cs), b, sb: (sb.rs, sb.cs), c, par })
        }
    };
    let spare = &mut out.spare_capacity_mut()[..total];
    if sa.len() == 1 {
        one(0, spare); // the kernel threads a large single product itself
    } else {
        spare.par_chunks_mut(m * n).enumerate().for_each(|(i, c)| one(i, c));
    }
    // SAFETY: every one of the `total` elements was written above.
    unsafe { out.set_len(total) };
    out
}

/// float16 / bfloat16: both operands widened to dense float32 stacks, one sgemm per matrix, the
/// result rounded once.
fn widened<T: Element + Sync>(
    a: &[T],
    al: &Layout,
    b: &[T],
    bl: &Layout,
    up: fn(T) -> f32,
    down: fn(f32) -> T,
) -> Vec<T> {
    let (wa, wb) = (crate::iter::map1(a, al, up), crate::iter::map1(b, bl, up));
    let (la, lb) = (Layout::contiguous(al.shape()), Layout::contiguous(bl.shape()));
    let c = blas(&wa, &Stack::new(&la), &wb, &Stack::new(&lb), sgemm);
    c.into_iter().map(down).collect()
}

/// Multiply-accumulate with NumPy's integer semantics (wrapping; bool: `acc or (a and b)`).
trait Mac: Copy + Default + Send + Sync {
    fn mac(acc: Self, a: Self, b: Self) -> Self;
}
impl Mac for bool {
    #[inline]
    fn mac(acc: bool, a: bool, b: bool) -> bool {
        acc | (a & b)
    }
}
macro_rules! mac_int {
    ($($t:ty),*) => {$(
        impl Mac for $t {
            #[inline]
            fn mac(acc: $t, a: $t, b: $t) -> $t { acc.wrapping_add(a.wrapping_mul(b)) }
        }
    )*};
}
mac_int!(i8, i16, i32, i64, u8, u16, u32, u64);

/// Integer and bool products: row i of C accumulates `A[i, p] * B[p, :]` over p, B's rows made
/// contiguous first so that the inner loop runs over unit strides (and vectorises).
fn looped<T: Mac>(a: &[T], sa: &Stack, b: &[T], sb: &Stack) -> Vec<T> {
    let (m, k, n) = (sa.rows, sa.cols, sb.cols);
    let mut out = vec![T::default(); sa.len() * m * n];
    if m * n == 0 || k == 0 {
        return out;
    }
    out.par_chunks_mut(m * n).enumerate().for_each(|(i, c)| {
        let (oa, ob) = (sa.offsets[i] as isize, sb.offsets[i] as isize);
        let bd: Vec<T> =
            (0..k * n).map(|q| b[(ob + (q / n) as isize * sb.rs + (q % n) as isize * sb.cs) as usize]).collect();
        c.par_chunks_mut(n).enumerate().with_min_len((1 << 14) / (k * n).max(1) + 1).for_each(|(r, row)| {
            for p in 0..k {
                let x = a[(oa + r as isize * sa.rs + p as isize * sa.cs) as usize];
                let brow = &bd[p * n..(p + 1) * n];
                for (o, &y) in row.iter_mut().zip(brow) {
                    *o = T::mac(*o, x, y);
                }
            }
        });
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `A B` through `gemm`, A (m x k) and B (k x n) read at `oa`, `ob` with strides `sa`, `sb`,
    /// into a C filled with NaN (the kernels must overwrite C without reading it: `blas` hands
    /// them unwritten pool memory).
    fn product<T: num_traits::Float>(
        (m, k, n): (usize, usize, usize),
        a: &[T],
        (oa, sa): (usize, (isize, isize)),
        b: &[T],
        (ob, sb): (usize, (isize, isize)),
        par: bool,
        gemm: Gemm<T>,
    ) -> Vec<T> {
        let mut c = vec![T::nan(); m * n];
        // SAFETY: the callers' views address inside `a` and `b`; `c` holds m * n.
        let (a, b) = unsafe { (a.as_ptr().add(oa), b.as_ptr().add(ob)) };
        unsafe { gemm(&Job { m, k, n, a, sa, b, sb, c: c.as_mut_ptr(), par }) };
        c
    }

    /// faer's path (products above `FAER_MIN`, with the `linalg` feature) and matrixmultiply's
    /// (below) against a float64 triple loop, with operands read row-major, transposed and
    /// reversed (negative strides), on every thread and sequentially (as one matrix of a stack).
    #[test]
    fn products_match_a_triple_loop() {
        for (m, k, n) in [(150, 130, 120), (37, 29, 41)] {
            #[cfg(feature = "linalg")]
            assert_eq!(m * k * n >= FAER_MIN, m == 150);
            check_products(m, k, n);
        }
    }

    /// Matrix–vector products (`gemv.rs`): along rows and along columns, over the cores
    /// (above its split size) and sequentially, with the matrix in every view.
    #[test]
    fn matrix_vector_products_match_a_triple_loop() {
        for (m, k, n) in [
            (300, 257, 1),
            (1, 257, 300),
            (5000, 3, 1),
            (1, 3, 5000),
            (20000, 5, 1),
            (1, 5, 20000),
            (1, 1, 7),
            (7, 1, 1),
        ] {
            check_products(m, k, n);
        }
    }

    /// Tiny outputs with a long inner dimension (`skinny.rs`): over the cores in blocks (above
    /// twice its block) and sequentially, every view, and sizes it does not take beside them.
    #[test]
    fn tiny_outputs_with_long_inner_dimensions_match_a_triple_loop() {
        for (m, k, n) in [(2, 70_000, 2), (3, 5_000, 5), (4, 70_000, 4), (2, 1_000, 2), (5, 6_000, 5)] {
            check_products(m, k, n);
        }
    }

    /// A strided vector (copied to a dense one first) times a matrix, both ways.
    #[test]
    fn strided_vectors_in_matrix_vector_products() {
        let (m, k) = (40, 33);
        let a: Vec<f64> = (0..m * k).map(|x| ((x * 31) % 17) as f64 - 8.0).collect();
        let v: Vec<f64> = (0..3 * m).map(|x| ((x * 7) % 11) as f64 - 5.0).collect();
        for (ov, sv) in [(0usize, 3isize), (3 * m - 1, -3)] {
            let x = |p: usize| v[(ov as isize + p as isize * sv) as usize];
            let ax = product((m, k, 1), &a, (0, (k as isize, 1)), &v, (ov, (sv, 0)), true, dgemm);
            let want: Vec<f64> = (0..m).map(|i| (0..k).map(|p| a[i * k + p] * x(p)).sum()).collect();
            assert_eq!(ax, want, "A x, stride {sv}");
            let xa = product((1, m, k), &v, (ov, (0, sv)), &a, (0, (k as isize, 1)), false, dgemm);
            let want: Vec<f64> = (0..k).map(|j| (0..m).map(|p| a[p * k + j] * x(p)).sum()).collect();
            assert_eq!(xa, want, "x A, stride {sv}");
        }
    }

    fn check_products(m: usize, k: usize, n: usize) {
        let a: Vec<f64> = (0..m * k).map(|x| ((x * 7919) % 1013) as f64 / 1013.0 - 0.5).collect();
        let b: Vec<f64> = (0..k * n).map(|x| ((x * 104_729) % 997) as f64 / 997.0 - 0.5).collect();
        let (a32, b32): (Vec<f32>, Vec<f32>) =
            (a.iter().map(|&x| x as f32).collect(), b.iter().map(|&x| x as f32).collect());
        // (offset, (row stride, column stride)) of A (m x k) and B (k x n) in their buffers
        let views = [
            ((0, (k as isize, 1)), (0, (n as isize, 1))),
            ((0, (1, m as isize)), (0, (1, k as isize))),
            (((m - 1) * k, (-(k as isize), 1)), (n - 1, (n as isize, -1))),
        ];
        for (va, vb) in views {
            let ((oa, sa), (ob, sb)) = (va, vb);
            let at = |i: usize, p: usize| a[(oa as isize + i as isize * sa.0 + p as isize * sa.1) as usize];
            let bt = |p: usize, j: usize| b[(ob as isize + p as isize * sb.0 + j as isize * sb.1) as usize];
            let want: Vec<f64> = (0..m * n).map(|x| (0..k).map(|p| at(x / n, p) * bt(p, x % n)).sum::<f64>()).collect();
            for par in [true, false] {
                let c = product((m, k, n), &a, va, &b, vb, par, dgemm);
                let err = c.iter().zip(&want).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
                assert!(err < 1e-12, "float64 {sa:?} {sb:?}: {err:e}");
                let c32 = product((m, k, n), &a32, va, &b32, vb, par, sgemm);
                let err = c32.iter().zip(&want).map(|(&x, y)| (x as f64 - y).abs()).fold(0.0, f64::max);
                assert!(err < 1e-4, "float32 {sa:?} {sb:?}: {err:e}");
            }
        }
    }
}
