//! Cholesky factorisation (faer's LLᴴ), reading only the triangle NumPy's `UPLO` names: the upper
//! triangle of `A` is the lower triangle of `Aᴴ`, so an upper factorisation is the lower one of
//! the adjoint view, returned as `Lᴴ`.
use super::stack::{c_order, into_chunks, Stack};
use super::Field;
use faer::linalg::cholesky::llt::factor::LltError;
use faer::traits::ext::ComplexFieldExt;
use faer::Side;
use xp_core::linalg::Uplo;
use xp_core::{Layout, LinAlgKind, Result};

/// The Cholesky factor of every matrix of the stack, zeros in the other triangle.
pub(crate) fn cholesky<T: Field>(a: &[T], al: &Layout, uplo: Uplo) -> Result<Vec<T>> {
    let sa = Stack::new(al);
    let n = sa.rows;
    into_chunks("cholesky", sa.len(), n * n, |i, out| {
        let v = sa.view(a, i);
        // LAPACK where the `lapack` feature serves the type; its failure is re-run on faer,
        // which names the leading minor that is not positive.
        if let Some(Some(l)) = T::cholesky(v, uplo) {
            let l = match uplo {
                Uplo::Lower => c_order(l.as_ref(), |x| x),
                Uplo::Upper => c_order(l.transpose(), |x| x.conj()),
            };
            out.copy_from_slice(&l);
            return Ok(());
        }
        if n <= super::small::SMALL {
            return super::small::cholesky(v, uplo, out)
                .map_err(|order| LinAlgKind::NotPositiveDefinite { index: i, order });
        }
        let llt = match uplo {
            Uplo::Lower => v.llt(Side::Lower),
            Uplo::Upper => v.adjoint().llt(Side::Lower),
        };
        let l = llt.map_err(|e| match e {
            LltError::NonPositivePivot { index } => LinAlgKind::NotPositiveDefinite { index: i, order: index + 1 },
        })?;
        out.copy_from_slice(&match uplo {
            Uplo::Lower => c_order(l.L(), |x| x),
            Uplo::Upper => c_order(l.L().transpose(), |x| x.conj()),
        });
        // The diagonal is real by definition (LAPACK's is): drop the rounding that faer keeps
        // in its imaginary part when the input's diagonal has some.
        for k in 0..n {
            out[k * n + k] = T::from_real_impl(&T::real_part_impl(&out[k * n + k]));
        }
        Ok(())
    })
}
