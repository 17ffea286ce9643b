//! Sweep rows of `xp::linalg` and the products at the crate root (`matmul`, `dot`, `einsum`, ...):
//! stacks of 1024 matrices of 32×32 (float32; complex64 for `svd` and one `eigh`), and 1024²
//! single matrices for the decompositions and solvers. CuPy's `matrix_rank` and NumPy's and
//! CuPy's `lstsq` take one matrix only, so those rows are single matrices. xp's `svdvals`,
//! `vector_norm`, `matrix_norm`, `multi_dot` and `linalg.outer`/`trace`/`diagonal` have no CuPy
//! twin in `cupy.linalg` (the crate-root `outer`, `trace` and `diagonal` rows stand for them).
use super::{cuniform, hpd, many, one, py_tuple, shrunk, uniform, well, Cmp, Row};
use xp::linalg::{self, NormOrd, QrMode, Uplo};
use xp::{DType, TensorAxes};

/// Stack size, matrix order, and the order of the single-matrix rows.
const B: usize = 1024;
const N: usize = 32;
const M: usize = 1024;

pub(super) fn rows(r: &mut Vec<Row>, gpu: bool) {
    let f32_ = DType::F32;
    let st = "1024x32x32";
    let sq = "1024x1024";
    // decompositions
    r.push(Row::new("linalg.cholesky", format!("{st} f32"), "a = hpd(1024, 32)", "xp.linalg.cholesky(a)", |d| {
        let a = hpd(Some(B), N, DType::F32, d)?;
        one(move || linalg::cholesky(&a, Uplo::Lower))
    }));
    r.push(Row::new("linalg.cholesky", format!("{sq} f32"), "a = hpd(None, 1024)", "xp.linalg.cholesky(a)", |d| {
        let a = hpd(None, M, DType::F32, d)?;
        one(move || linalg::cholesky(&a, Uplo::Lower))
    }));
    for (size, shape) in [(st, vec![B, N, N]), (sq, vec![M, M])] {
        let py = format!("a = uniform({})", py_tuple(&shape));
        r.push(
            Row::new("linalg.qr", format!("{size} f32"), py, "xp.linalg.qr(a)", move |d| {
                let a = uniform(&shape, 0, d)?;
                many(move || {
                    let f = linalg::qr(&a, QrMode::Reduced)?;
                    Ok(vec![f.q.expect("reduced mode returns Q"), f.r])
                })
            })
            .out("[r[0], r[1]]")
            .cmp(Cmp::Abs),
        );
    }
    r.push(
        Row::new("linalg.svd", format!("{st} c64"), "a = cuniform((1024, 32, 32))", "xp.linalg.svd(a)", |d| {
            let a = cuniform(&[B, N, N], 0, d)?;
            one(move || Ok(linalg::svd(&a, true)?.s))
        })
        .out("[r[1]]"),
    );
    // NumPy's SVD of 1024² takes 3.6 s on the CPU: 512² there
    let (m, size) = shrunk(gpu, M, 512, "f32");
    r.push(
        Row::new("linalg.svd", size, format!("a = uniform(({m}, {m}))"), "xp.linalg.svd(a)", move |d| {
            let a = uniform(&[m, m], 0, d)?;
            one(move || Ok(linalg::svd(&a, true)?.s))
        })
        .out("[r[1]]"),
    );
    for (size, batch, n, dt, tag) in
        [(st, Some(B), N, f32_, "f32"), (st, Some(B), N, DType::C64, "c64"), (sq, None, M, f32_, "f32")]
    {
        let py = format!("a = hpd({}, {n}, '{}')", batch.map_or("None".into(), |b| b.to_string()), py_dtype(dt));
        r.push(
            Row::new("linalg.eigh", format!("{size} {tag}"), py, "xp.linalg.eigh(a)", move |d| {
                let a = hpd(batch, n, dt, d)?;
                one(move || Ok(linalg::eigh(&a, Uplo::Lower)?.w))
            })
            .out("[r[0]]"),
        );
    }
    r.push(Row::new("linalg.eigvalsh", format!("{st} f32"), "a = hpd(1024, 32)", "xp.linalg.eigvalsh(a)", |d| {
        let a = hpd(Some(B), N, DType::F32, d)?;
        one(move || linalg::eigvalsh(&a, Uplo::Lower))
    }));
    r.push(
        Row::new("linalg.eig", format!("{st} f32"), "a = uniform((1024, 32, 32))", "xp.linalg.eig(a)", |d| {
            let a = uniform(&[B, N, N], 0, d)?;
            one(move || Ok(linalg::eig(&a)?.w))
        })
        .out("[r[0]]")
        .cmp(Cmp::Sorted),
    );
    r.push(
        Row::new("linalg.eigvals", format!("{st} f32"), "a = uniform((1024, 32, 32))", "xp.linalg.eigvals(a)", |d| {
            let a = uniform(&[B, N, N], 0, d)?;
            one(move || linalg::eigvals(&a))
        })
        .cmp(Cmp::Sorted),
    );
    // solvers and inverses
    r.push(Row::new(
        "linalg.solve",
        format!("{st} f32, b 1024x32x1"),
        "a = well(1024, 32); b = uniform((1024, 32, 1), 1)",
        "xp.linalg.solve(a, b)",
        |d| {
            let (a, b) = (well(Some(B), N, DType::F32, d)?, uniform(&[B, N, 1], 1, d)?);
            one(move || linalg::solve(&a, &b))
        },
    ));
    r.push(Row::new(
        "linalg.solve",
        format!("{sq} f32, b 1024x1"),
        "a = well(None, 1024); b = uniform((1024, 1), 1)",
        "xp.linalg.solve(a, b)",
        |d| {
            let (a, b) = (well(None, M, DType::F32, d)?, uniform(&[M, 1], 1, d)?);
            one(move || linalg::solve(&a, &b))
        },
    ));
    for (size, batch, n) in [(st, Some(B), N), (sq, None, M)] {
        let py = format!("a = well({}, {n})", batch.map_or("None".into(), |b| b.to_string()));
        r.push(Row::new("linalg.inv", format!("{size} f32"), py, "xp.linalg.inv(a)", move |d| {
            let a = well(batch, n, DType::F32, d)?;
            one(move || linalg::inv(&a))
        }));
    }
    r.push(Row::new("linalg.det", format!("{st} f32"), "a = hpd(1024, 32)", "xp.linalg.det(a)", |d| {
        let a = hpd(Some(B), N, DType::F32, d)?;
        one(move || linalg::det(&a))
    }));
    r.push(
        Row::new("linalg.slogdet", format!("{st} f32"), "a = hpd(1024, 32)", "xp.linalg.slogdet(a)", |d| {
            let a = hpd(Some(B), N, DType::F32, d)?;
            many(move || {
                let s = linalg::slogdet(&a)?;
                Ok(vec![s.sign, s.logabsdet])
            })
        })
        .out("[r[0], r[1]]"),
    );
    r.push(
        Row::new(
            "linalg.lstsq",
            "4096x256 f32, b 4096x16",
            "a = uniform((4096, 256)); b = uniform((4096, 16), 1)",
            "xp.linalg.lstsq(a, b, rcond=None)",
            |d| {
                let (a, b) = (uniform(&[4096, 256], 0, d)?, uniform(&[4096, 16], 1, d)?);
                one(move || Ok(linalg::lstsq(&a, &b, None)?.x))
            },
        )
        .out("[r[0]]"),
    );
    r.push(Row::new("linalg.pinv", format!("{st} f32"), "a = well(1024, 32)", "xp.linalg.pinv(a)", |d| {
        let a = well(Some(B), N, DType::F32, d)?;
        one(move || linalg::pinv(&a, None))
    }));
    r.push(Row::new(
        "linalg.matrix_rank",
        format!("{sq} f32"),
        "a = well(None, 1024)",
        "xp.linalg.matrix_rank(a)",
        |d| {
            let a = well(None, M, DType::F32, d)?;
            one(move || linalg::matrix_rank(&a, None))
        },
    ));
    r.push(Row::new("linalg.cond", format!("{st} f32"), "a = well(1024, 32)", "xp.linalg.cond(a)", |d| {
        let a = well(Some(B), N, DType::F32, d)?;
        one(move || linalg::cond(&a, None))
    }));
    r.push(Row::new(
        "linalg.matrix_power",
        format!("{st} f32, n=5"),
        "a = well(1024, 32)",
        "xp.linalg.matrix_power(a, 5)",
        |d| {
            let a = well(Some(B), N, DType::F32, d)?;
            one(move || linalg::matrix_power(&a, 5))
        },
    ));
    r.push(Row::new(
        "linalg.tensorsolve",
        "1024x32x32 f32, b 1024",
        "a = well(None, 1024).reshape(1024, 32, 32); b = uniform(1024, 1)",
        "xp.linalg.tensorsolve(a, b)",
        |d| {
            let a = well(None, M, DType::F32, d)?.reshape([1024, 32, 32])?;
            let b = uniform(&[M], 1, d)?;
            one(move || linalg::tensorsolve(&a, &b, None))
        },
    ));
    r.push(Row::new(
        "linalg.tensorinv",
        "32x32x32x32 f32, ind=2",
        "a = well(None, 1024).reshape(32, 32, 32, 32)",
        "xp.linalg.tensorinv(a, 2)",
        |d| {
            let a = well(None, M, DType::F32, d)?.reshape([32, 32, 32, 32])?;
            one(move || linalg::tensorinv(&a, 2))
        },
    ));
    // norms
    r.push(Row::new("linalg.norm", "2^22 f32", "v = uniform(1 << 22)", "xp.linalg.norm(v)", |d| {
        let v = uniform(&[1 << 22], 0, d)?;
        one(move || linalg::norm(&v, None, ..))
    }));
    r.push(Row::new(
        "linalg.norm",
        format!("{st} f32, fro"),
        "a = uniform((1024, 32, 32))",
        "xp.linalg.norm(a, axis=(1, 2))",
        |d| {
            let a = uniform(&[B, N, N], 0, d)?;
            one(move || linalg::norm(&a, None, [1, 2]))
        },
    ));
    r.push(Row::new(
        "linalg.norm",
        format!("{st} f32, ord=2"),
        "a = uniform((1024, 32, 32))",
        "xp.linalg.norm(a, 2, axis=(1, 2))",
        |d| {
            let a = uniform(&[B, N, N], 0, d)?;
            one(move || linalg::norm(&a, NormOrd::P(2.0), [1, 2]))
        },
    ));
    // products
    // `cupy.linalg.vecdot` is in CuPy's main branch, not in 14.2 (n/a there)
    r.push(Row::new(
        "linalg.vecdot",
        "1024x4096 f32",
        "a = uniform((1024, 4096)); b = uniform((1024, 4096), 1)",
        "xp.linalg.vecdot(a, b, axis=-1)",
        |d| {
            let (a, b) = (uniform(&[1024, 4096], 0, d)?, uniform(&[1024, 4096], 1, d)?);
            one(move || linalg::vecdot(&a, &b, -1))
        },
    ));
    r.push(Row::new(
        "linalg.matrix_transpose",
        format!("{st} f32 (view)"),
        "a = uniform((1024, 32, 32))",
        "xp.linalg.matrix_transpose(a)",
        |d| {
            let a = uniform(&[B, N, N], 0, d)?;
            one(move || linalg::matrix_transpose(&a))
        },
    ));
    for (size, shape) in [(st, vec![B, N, N]), (sq, vec![M, M])] {
        let py = format!("a = uniform({0}); b = uniform({0}, 1)", py_tuple(&shape));
        r.push(Row::new("matmul", format!("{size} f32"), py, "xp.matmul(a, b)", move |d| {
            let (a, b) = (uniform(&shape, 0, d)?, uniform(&shape, 1, d)?);
            one(move || xp::matmul(&a, &b))
        }));
    }
    r.push(Row::new(
        "einsum",
        format!("bij,bjk->bik {st} f32"),
        "a = uniform((1024, 32, 32)); b = uniform((1024, 32, 32), 1)",
        "xp.einsum('bij,bjk->bik', a, b)",
        |d| {
            let (a, b) = (uniform(&[B, N, N], 0, d)?, uniform(&[B, N, N], 1, d)?);
            one(move || xp::einsum("bij,bjk->bik", &[&a, &b]))
        },
    ));
    r.push(Row::new(
        "einsum",
        "ij,ij->i 1024x4096 f32",
        "a = uniform((1024, 4096)); b = uniform((1024, 4096), 1)",
        "xp.einsum('ij,ij->i', a, b)",
        |d| {
            let (a, b) = (uniform(&[1024, 4096], 0, d)?, uniform(&[1024, 4096], 1, d)?);
            one(move || xp::einsum("ij,ij->i", &[&a, &b]))
        },
    ));
    r.push(Row::new(
        "tensordot",
        "1024x32x32 . 32x32x1024 f32, axes=2",
        "a = uniform((1024, 32, 32)); b = uniform((32, 32, 1024), 1)",
        "xp.tensordot(a, b, 2)",
        |d| {
            let (a, b) = (uniform(&[B, N, N], 0, d)?, uniform(&[N, N, B], 1, d)?);
            one(move || xp::tensordot(&a, &b, TensorAxes::Last(2)))
        },
    ));
    r.push(Row::new(
        "dot",
        format!("{sq} f32"),
        "a = uniform((1024, 1024)); b = uniform((1024, 1024), 1)",
        "xp.dot(a, b)",
        |d| {
            let (a, b) = (uniform(&[M, M], 0, d)?, uniform(&[M, M], 1, d)?);
            one(move || xp::dot(&a, &b))
        },
    ));
    r.push(Row::new("vdot", "2^22 c64", "a = cuniform(1 << 22); b = cuniform(1 << 22, 1)", "xp.vdot(a, b)", |d| {
        let (a, b) = (cuniform(&[1 << 22], 0, d)?, cuniform(&[1 << 22], 1, d)?);
        one(move || xp::vdot(&a, &b))
    }));
    r.push(Row::new("inner", "2^22 f32", "a = uniform(1 << 22); b = uniform(1 << 22, 1)", "xp.inner(a, b)", |d| {
        let (a, b) = (uniform(&[1 << 22], 0, d)?, uniform(&[1 << 22], 1, d)?);
        one(move || xp::inner(&a, &b))
    }));
    r.push(Row::new("outer", "2048 x 2048 f32", "a = uniform(2048); b = uniform(2048, 1)", "xp.outer(a, b)", |d| {
        let (a, b) = (uniform(&[2048], 0, d)?, uniform(&[2048], 1, d)?);
        one(move || xp::outer(&a, &b))
    }));
    r.push(Row::new(
        "kron",
        "64x64 x 32x32 f32",
        "a = uniform((64, 64)); b = uniform((32, 32), 1)",
        "xp.kron(a, b)",
        |d| {
            let (a, b) = (uniform(&[64, 64], 0, d)?, uniform(&[32, 32], 1, d)?);
            one(move || xp::kron(&a, &b))
        },
    ));
    r.push(Row::new(
        "cross",
        "2^20x3 f32",
        "a = uniform((1 << 20, 3)); b = uniform((1 << 20, 3), 1)",
        "xp.cross(a, b)",
        |d| {
            let (a, b) = (uniform(&[1 << 20, 3], 0, d)?, uniform(&[1 << 20, 3], 1, d)?);
            one(move || xp::cross(&a, &b))
        },
    ));
    r.push(Row::new(
        "trace",
        format!("{st} f32, axes 1,2"),
        "a = uniform((1024, 32, 32))",
        "xp.trace(a, 0, 1, 2)",
        |d| {
            let a = uniform(&[B, N, N], 0, d)?;
            one(move || xp::trace(&a, 0, 1, 2))
        },
    ));
    r.push(Row::new(
        "diagonal",
        format!("{st} f32, axes 1,2 (view)"),
        "a = uniform((1024, 32, 32))",
        "xp.diagonal(a, 0, 1, 2)",
        |d| {
            let a = uniform(&[B, N, N], 0, d)?;
            one(move || xp::diagonal(&a, 0, 1, 2))
        },
    ));
}

/// NumPy's name of a dtype.
fn py_dtype(dt: DType) -> &'static str {
    match dt {
        DType::F32 => "float32",
        DType::F64 => "float64",
        DType::C64 => "complex64",
        _ => "complex128",
    }
}
