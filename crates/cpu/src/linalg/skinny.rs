//! Products with a tiny output and a long inner dimension (`Rᵀ X` of two (10⁶, 2) operands, as
//! a Gaussian mixture's M-step computes: m·n ≤ [`MAX_OUT`], k in the millions). faer and
//! matrixmultiply tile for square products and took 9.4 ms for that one (NumPy's OpenBLAS: 3.3);
//! here every step of k adds one outer product `a_p b_pᵀ` to m·n sums, the inner dimension split
//! over the cores in fixed blocks whose partial sums are added in order (the same bits every run).
use super::matmul::Job;
use super::small::{wide, Small};

/// The largest output (m·n) taken here.
const MAX_OUT: usize = 16;
/// The shortest inner dimension taken here, per output element.
const MIN_K: usize = 256;
/// Inner blocks at least this long are split over the cores.
const BLOCK: usize = 1 << 15;

/// A read-only operand pointer that the cores' tasks share.
#[derive(Clone, Copy)]
struct Op<T>(*const T, (isize, isize));
// SAFETY: the buffers behind it outlive the product and are only read.
unsafe impl<T> Send for Op<T> {}
unsafe impl<T> Sync for Op<T> {}

impl<T: Copy> Op<T> {
    /// Element (i, p).
    ///
    /// # Safety
    /// Inside the operand.
    #[inline(always)]
    unsafe fn at(self, i: usize, p: usize) -> T {
        *self.0.offset(i as isize * self.1 .0 + p as isize * self.1 .1)
    }
}

/// `C[i, j] = Σ_p A[i, p] B[p, j]` over `p` in `ps`, for the fixed sizes `M`, `N`.
///
/// # Safety
/// The operands hold the elements named.
#[inline(always)]
unsafe fn block<T: Small, const M: usize, const N: usize>(
    a: Op<T>,
    b: Op<T>,
    ps: std::ops::Range<usize>,
) -> [[T; N]; M] {
    let bt = Op(b.0, (b.1 .1, b.1 .0)); // B[p, j] read as Bᵀ[j, p]
    let mut acc = [[T::default(); N]; M];
    for p in ps {
        let av: [T; M] = std::array::from_fn(|i| a.at(i, p));
        let bv: [T; N] = std::array::from_fn(|j| bt.at(j, p));
        for i in 0..M {
            for j in 0..N {
                acc[i][j] = acc[i][j] + av[i] * bv[j];
            }
        }
    }
    acc
}

/// The product for fixed `M`, `N`.
unsafe fn product<T: Small, const M: usize, const N: usize>(j: &Job<T>) {
    let (a, b, k) = (Op(j.a, j.sa), Op(j.b, j.sb), j.k);
    let run = |ps: std::ops::Range<usize>| {
        wide(
            #[inline(always)]
            || block::<T, M, N>(a, b, ps),
        )
    };
    let total = if j.par && k >= 2 * BLOCK {
        let blocks = k.div_ceil(BLOCK);
        let parts: Vec<[[T; N]; M]> = crate::par::map(blocks, &|q| run(q * BLOCK..((q + 1) * BLOCK).min(k)));
        parts.into_iter().fold([[T::default(); N]; M], |mut s, part| {
            for (si, pi) in s.iter_mut().zip(part) {
                for (x, y) in si.iter_mut().zip(pi) {
                    *x = *x + y;
                }
            }
            s
        })
    } else {
        run(0..k)
    };
    for (i, row) in total.iter().enumerate() {
        std::ptr::copy_nonoverlapping(row.as_ptr(), j.c.add(i * N), N);
    }
}

/// The product of `j` when its output is tiny and its inner dimension long; false: not taken.
///
/// # Safety
/// As for every kernel of [`Job`]: the operands lie inside their buffers, C holds m·n elements.
pub(super) unsafe fn skinny<T: Small>(j: &Job<T>) -> bool {
    if j.m * j.n > MAX_OUT || j.k < MIN_K * j.m * j.n {
        return false;
    }
    macro_rules! sizes {
        ($(($m:literal, $n:literal)),*) => {
            match (j.m, j.n) {
                $(($m, $n) => product::<T, $m, $n>(j),)*
                _ => return false,
            }
        };
    }
    sizes!(
        (2, 2),
        (2, 3),
        (3, 2),
        (3, 3),
        (2, 4),
        (4, 2),
        (4, 4),
        (2, 8),
        (8, 2),
        (3, 4),
        (4, 3),
        (2, 5),
        (5, 2),
        (2, 6),
        (6, 2),
        (2, 7),
        (7, 2),
        (3, 5),
        (5, 3)
    );
    true
}
