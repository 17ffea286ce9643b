//! LU with partial pivoting as LAPACK's `getf2` computes it, on a row-major copy: the pivot of
//! column `j` is the first largest `|re| + |im|` at or below the diagonal, a zero pivot leaves
//! its column of `L` zero (no division) and the factorisation goes on. It serves small matrices
//! (faer's setup costs more than their arithmetic) and any matrix with an exact zero pivot
//! (faer divides by it, so its later factors would be NaN where LAPACK's are finite).
use super::{axpy_sub, wide, Real, Small};

/// Factor the row-major `m × n` matrix `f` in place into `L \ U`; returns LAPACK's row
/// interchanges (0-based: row `j` was swapped with row `piv[j]`, for `j < min(m, n)`).
pub(crate) fn lu_rows<T: Small>(f: &mut [T], m: usize, n: usize) -> Vec<i32> {
    wide(
        #[inline(always)]
        || lu_in_place(f, m, n),
    )
}

#[inline(always)]
fn lu_in_place<T: Small>(f: &mut [T], m: usize, n: usize) -> Vec<i32> {
    let k = m.min(n);
    let mut piv = Vec::with_capacity(k);
    for j in 0..k {
        let mut p = j;
        let mut max = T::Re::default();
        for i in j..m {
            let x = f[i * n + j];
            let a = x.re().abs() + x.im().abs();
            if a > max {
                max = a;
                p = i;
            }
        }
        piv.push(p as i32);
        if p != j {
            let (top, bottom) = f.split_at_mut(p * n);
            top[j * n..j * n + n].swap_with_slice(&mut bottom[..n]);
        }
        let d = f[j * n + j];
        if max == T::Re::default() {
            continue; // a zero pivot: LAPACK records it and leaves the column as it is
        }
        // 1 / d = conj(d) / |d|²
        let inv = d.cj().rmul(T::Re::from_f64(1.0).div(d.abs2()));
        let (top, rest) = f.split_at_mut((j + 1) * n);
        let pivot_row = &top[j * n + j + 1..j * n + n];
        for i in 0..m - j - 1 {
            let row = &mut rest[i * n..i * n + n];
            let l = row[j] * inv;
            row[j] = l;
            axpy_sub(&mut row[j + 1..], l, pivot_row);
        }
    }
    piv
}

/// Factor the panel of columns `j0..j0 + jb` (rows `j0..`) of the row-major `m × n` matrix `f`
/// in place, interchanging whole rows; pushes the panel's interchanges onto `piv`. False at an
/// exact zero pivot (the blocked factorisation then leaves the matrix to [`lu_rows`]).
pub(crate) fn panel<T: Small>(f: &mut [T], (m, n): (usize, usize), j0: usize, jb: usize, piv: &mut Vec<i32>) -> bool {
    wide(
        #[inline(always)]
        || {
            for c in j0..j0 + jb {
                let (mut p, mut max) = (c, T::Re::default());
                for r in c..m {
                    let x = f[r * n + c];
                    let a = x.re().abs() + x.im().abs();
                    if a > max {
                        (max, p) = (a, r);
                    }
                }
                if max == T::Re::default() {
                    return false;
                }
                piv.push(p as i32);
                if p != c {
                    let (top, bottom) = f.split_at_mut(p * n);
                    top[c * n..c * n + n].swap_with_slice(&mut bottom[..n]);
                }
                let d = f[c * n + c];
                let inv = d.cj().rmul(T::Re::from_f64(1.0).div(d.abs2()));
                let (top, rest) = f.split_at_mut((c + 1) * n);
                let prow = &top[c * n + c + 1..c * n + j0 + jb];
                for row in rest.chunks_exact_mut(n).take(m - c - 1) {
                    let l = row[c] * inv;
                    row[c] = l;
                    axpy_sub(&mut row[c + 1..j0 + jb], l, prow);
                }
            }
            true
        },
    )
}
