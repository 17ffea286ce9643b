//! The linear-algebra workloads: products and decompositions at the sizes issue 8 names (GPU:
//! 4096² products, 2048² decompositions, stacks of 64 matrices of 64²; CPU: 1024²).
use crate::{rand, small, sync, Workload};
use xp::{linalg, Array, DType, Device, Result};

/// A well-conditioned n × n matrix (stack): uniform [0, 1) plus n on the diagonal.
fn well(n: usize, batch: usize, d: Device, dt: DType) -> Result<Array> {
    let a = rand(batch * n * n, &[batch, n, n], d)?.astype(dt)?;
    let eye = xp::on(d).eye(n, None, 0, dt)?.mul(n as f64)?;
    let a = a.add(&eye)?;
    if batch == 1 {
        a.reshape([n as isize, n as isize])
    } else {
        Ok(a)
    }
}

/// Square matrix of uniform values in dtype `dt`.
fn square(n: usize, d: Device, dt: DType) -> Result<Array> {
    rand(n * n, &[n, n], d)?.astype(dt)
}

pub(crate) fn workloads(w: &mut Vec<Workload>, gpu: bool) {
    macro_rules! wl {
        ($name:expr, $unit:expr, |$d:ident| $body:expr) => {
            w.push(Workload { name: $name, unit: $unit, setup: Box::new(move |$d: Device| $body) });
        };
    }
    let (mm, dec) = if gpu { (4096, 2048) } else { (1024, 1024) };
    for dt in [DType::F64, DType::F32] {
        wl!(format!("matmul_{}_{mm}", short(dt)), "ms", |d| {
            let (a, b) = (square(mm, d, dt)?, square(mm, d, dt)?);
            Ok(Box::new(move || sync(&xp::matmul(&a, &b)?)))
        });
    }
    if gpu {
        wl!(format!("matmul_f32_{mm}_transposed"), "ms", |d| {
            let (a, b) = (square(mm, d, DType::F32)?, square(mm, d, DType::F32)?);
            Ok(Box::new(move || sync(&xp::matmul(&a.t()?, &b)?)))
        });
        wl!("matmul_batched_64x64x64_f32".to_string(), "ms", |d| {
            let (a, b) = (rand(64 * 64 * 64, &[64, 64, 64], d)?, rand(64 * 64 * 64, &[64, 64, 64], d)?);
            Ok(Box::new(move || sync(&xp::matmul(&a, &b)?)))
        });
        wl!("small_matmul_4x4".to_string(), "us/op", |d| {
            let (a, b) = (rand(16, &[4, 4], d)?, rand(16, &[4, 4], d)?);
            Ok(small(move || xp::matmul(&a, &b)))
        });
        wl!("inv_batched_64x64x64_f32".to_string(), "ms", |d| {
            let a = well(64, 64, d, DType::F32)?;
            Ok(Box::new(move || sync(&linalg::inv(&a)?)))
        });
    }
    products(w, gpu);
    let dd = if gpu { DType::F32 } else { DType::F64 };
    let tag = short(dd);
    wl!(format!("svd_{tag}_{dec}"), "ms", |d| {
        let a = square(dec, d, dd)?;
        svd_accuracy(&a)?;
        Ok(Box::new(move || sync(&linalg::svd(&a, true)?.s)))
    });
    wl!(format!("eigh_{tag}_{dec}"), "ms", |d| {
        let a = square(dec, d, dd)?;
        let h = a.add(&a.t()?)?;
        Ok(Box::new(move || sync(&linalg::eigh(&h, linalg::Uplo::Lower)?.w)))
    });
    let rhs = if gpu { 16 } else { 1 };
    wl!(format!("solve_{tag}_{dec}_{rhs}rhs"), "ms", |d| {
        let a = well(dec, 1, d, dd)?;
        let b = rand(dec * rhs, &[dec, rhs], d)?.astype(dd)?;
        Ok(Box::new(move || sync(&linalg::solve(&a, &b)?)))
    });
}

/// Issue 27's matrix–vector products: `dot(A, p)` and `p @ A` of a 2000² float64 matrix and a
/// 1-D vector (CG's product), a GEMV of 8192² float32 on the GPU (its bandwidth floor: one read
/// of the matrix), and the fixed cost of `inner` and `norm` of a 2000-vector (µs per call).
fn products(w: &mut Vec<Workload>, gpu: bool) {
    macro_rules! wl {
        ($name:expr, $unit:expr, |$d:ident| $body:expr) => {
            w.push(Workload { name: $name.to_string(), unit: $unit, setup: Box::new(move |$d: Device| $body) });
        };
    }
    let vector = |n: usize, d: Device| rand(n, &[n], d)?.astype(DType::F64);
    wl!("gemv_f64_2000", "ms", |d| {
        let (a, p) = (square(2000, d, DType::F64)?, vector(2000, d)?);
        Ok(Box::new(move || sync(&xp::dot(&a, &p)?)))
    });
    wl!("vecmat_f64_2000", "ms", |d| {
        let (a, p) = (square(2000, d, DType::F64)?, vector(2000, d)?);
        Ok(Box::new(move || sync(&xp::matmul(&p, &a)?)))
    });
    if gpu {
        wl!("gemv_f32_8192", "ms", |d| {
            let (a, p) = (square(8192, d, DType::F32)?, rand(8192, &[8192], d)?);
            Ok(Box::new(move || sync(&xp::dot(&a, &p)?)))
        });
    }
    wl!("small_inner_f64_2000", "us/op", |d| {
        let p = vector(2000, d)?;
        Ok(small(move || xp::inner(&p, &p)))
    });
    wl!("small_norm_f64_2000", "us/op", |d| {
        let p = vector(2000, d)?;
        Ok(small(move || linalg::norm(&p, None, ..)))
    });
}

/// Issue 26's stacks of small matrices (the same on both devices): `svd` of 1024 × 32×32
/// complex64, 4096 × 8×8 and 256 × 64×64 float32; `svdvals` and `eigvalsh` of each shape;
/// `cholesky` and `qr` of 4096 × 32×32 float32.
pub(crate) fn stacks(w: &mut Vec<Workload>) {
    macro_rules! wl {
        ($name:expr, |$d:ident| $body:expr) => {
            w.push(Workload { name: $name, unit: "ms", setup: Box::new(move |$d: Device| $body) });
        };
    }
    let c64 = |b: usize, n: usize, d: Device| -> Result<Array> {
        let re = rand(b * n * n, &[b, n, n], d)?;
        let im = re.flip(0)?.mul(0.5)?;
        re.astype(DType::C64)?.add(&im.astype(DType::C64)?.mul(xp::Complex64::new(0.0, 1.0))?)
    };
    let f32s = |b: usize, n: usize, d: Device| rand(b * n * n, &[b, n, n], d);
    wl!("stack_svd_c64_1024x32x32".to_string(), |d| {
        let a = c64(1024, 32, d)?;
        Ok(Box::new(move || sync(&linalg::svd(&a, true)?.s)))
    });
    for (b, n) in [(4096, 8), (256, 64)] {
        wl!(format!("stack_svd_f32_{b}x{n}x{n}"), |d| {
            let a = f32s(b, n, d)?;
            Ok(Box::new(move || sync(&linalg::svd(&a, true)?.s)))
        });
    }
    for (b, n) in [(1024, 32), (4096, 8), (256, 64)] {
        wl!(format!("stack_svdvals_f32_{b}x{n}x{n}"), |d| {
            let a = f32s(b, n, d)?;
            Ok(Box::new(move || sync(&linalg::svdvals(&a)?)))
        });
        wl!(format!("stack_eigvalsh_f32_{b}x{n}x{n}"), |d| {
            let a = f32s(b, n, d)?;
            let h = a.add(&xp::matrix_transpose(&a)?)?;
            Ok(Box::new(move || sync(&linalg::eigvalsh(&h, linalg::Uplo::Lower)?)))
        });
    }
    wl!("stack_cholesky_f32_4096x32x32".to_string(), |d| {
        let a = well(32, 4096, d, DType::F32)?;
        let p = xp::matmul(&a, &xp::matrix_transpose(&a)?)?;
        Ok(Box::new(move || sync(&linalg::cholesky(&p, linalg::Uplo::Lower)?)))
    });
    wl!("stack_qr_f32_4096x32x32".to_string(), |d| {
        let a = f32s(4096, 32, d)?;
        Ok(Box::new(move || sync(&linalg::qr(&a, linalg::QrMode::Reduced)?.r)))
    });
}

/// Print how well the SVD in use reconstructs `a` and how orthogonal its factors are (relative
/// Frobenius norms): a fast SVD counts only if these are at the dtype's precision.
fn svd_accuracy(a: &Array) -> Result<()> {
    let f = linalg::svd(a, true)?;
    let fro = |x: &Array| -> Result<f64> { linalg::norm(x, None, ..)?.astype(DType::F64)?.item::<f64>() };
    let rec = xp::matmul(&f.u.mul(&f.s.expand_dims(-2)?)?, &f.vh)?;
    let n = a.shape()[0];
    let eye = xp::on(a.device()).eye(n, None, 0, a.dtype())?;
    let ortho = |q: &Array| -> Result<f64> { fro(&xp::matmul(&q.t()?, q)?.sub(&eye)?) };
    eprintln!(
        "svd {:?} {n}x{n}: |U S Vh - A| / |A| = {:.2e}, |UᵀU - I| = {:.2e}, |V Vᵀ - I| = {:.2e}",
        a.dtype(),
        fro(&rec.sub(a)?)? / fro(a)?,
        ortho(&f.u)?,
        ortho(&f.vh.t()?)?
    );
    Ok(())
}

fn short(d: DType) -> &'static str {
    match d {
        DType::F32 => "f32",
        _ => "f64",
    }
}
