//! Sweep rows of `xp::sparse` against `scipy.sparse` / `cupyx.scipy.sparse`: the headline
//! matrix, 10^6 × 10^6 with 10^7 float32 values at random places (duplicates summed, as both
//! constructors do), built from the same counter-based inputs on both sides: products with a
//! vector and with 16 dense columns, the transposed product, and the conversion from coordinates.
use super::{ints, one, uniform, Row};
use xp::sparse::{CooArray, CooArray1d, CsrArray, CsrArray1d, Format, Sparse, Sparse1d};
use xp::{Device, Result};

/// Rows and columns of the matrix.
const N: usize = 1_000_000;
/// Coordinates drawn (a few coincide and are summed).
const NNZ: usize = 10_000_000;

/// The Python setup: `row`, `col`, `v`, the CSR matrix `A` (SciPy's `csr_array`, CuPy's
/// `csr_matrix`: its sparse arrays' product is the same), `x` and `X`.
fn py_setup() -> String {
    format!(
        "row = ints({NNZ}, {N}, 1); col = ints({NNZ}, {N}, 2); v = uniform({NNZ}, 3); \
         mk = getattr(sp.sparse, 'csr_array', None) or sp.sparse.csr_matrix; \
         A = mk((v, (row, col)), shape=({N}, {N})); x = uniform({N}, 4); X = uniform(({N}, 16), 5)"
    )
}

fn coo(d: Device) -> Result<CooArray> {
    let (row, col, v) = (ints(&[NNZ], N as u64, 1, d)?, ints(&[NNZ], N as u64, 2, d)?, uniform(&[NNZ], 3, d)?);
    CooArray::new(&v, &row, &col, [N, N])
}

fn csr(d: Device) -> Result<CsrArray> {
    coo(d)?.tocsr()
}

/// Rows or columns picked by an integer array.
const PICK: usize = 100_000;

/// The SpGEMM matrix: 10^5 × 10^5 at density 10^-4 (10^6 values), squared.
const G: usize = 100_000;
const GNNZ: usize = 1_000_000;

pub(super) fn rows(r: &mut Vec<Row>, _gpu: bool) {
    let gsetup = format!(
        "row = ints({GNNZ}, {G}, 6); col = ints({GNNZ}, {G}, 7); v = uniform({GNNZ}, 8); \
         mk = getattr(sp.sparse, 'csr_array', None) or sp.sparse.csr_matrix; A = mk((v, (row, col)), shape=({G}, {G}))"
    );
    r.push(
        Row::new("sparse.csr @ csr", "10^5² 10^6 f32, squared", gsetup.clone(), "A @ A", |d| {
            let a = gcsr(d)?;
            one(move || Ok(a.matmul_sparse(&a)?.tocsr()?.data().clone()))
        })
        .out("r.data"),
    );
    let size = "10^6² 10^7 f32";
    r.push(Row::new("sparse.csr @ x", size, py_setup(), "A @ x", |d| {
        let (a, x) = (csr(d)?, uniform(&[N], 4, d)?);
        one(move || a.matmul(&x))
    }));
    r.push(Row::new("sparse.csr @ X", format!("{size}, 16 columns"), py_setup(), "A @ X", |d| {
        let (a, x) = (csr(d)?, uniform(&[N, 16], 5, d)?);
        one(move || a.matmul(&x))
    }));
    r.push(Row::new("sparse.csr.T @ x", size, py_setup(), "A.T @ x", |d| {
        let (a, x) = (csr(d)?, uniform(&[N], 4, d)?);
        one(move || a.transpose().matmul(&x))
    }));
    let sel = format!("{}; r = ints({PICK}, {N}, 9); c = ints({PICK}, {N}, 10)", py_setup());
    r.push(
        Row::new("sparse.csr[a:b]", format!("{size}, rows 10^5..6·10^5"), py_setup(), "A[100000:600000]", |d| {
            let a = csr(d)?;
            one(move || Ok(a.slice_rows(100_000, 600_000, 1)?.data().clone()))
        })
        .out("r.data"),
    );
    r.push(
        Row::new("sparse.csr[rows]", format!("{size}, 10^5 rows"), sel.clone(), "A[r]", |d| {
            let (a, p) = (csr(d)?, ints(&[PICK], N as u64, 9, d)?);
            one(move || Ok(a.take_rows(&p)?.data().clone()))
        })
        .out("r.data"),
    );
    r.push(
        Row::new("sparse.csr[:, cols]", format!("{size}, 10^5 columns"), sel, "A[:, c]", |d| {
            let (a, p) = (csr(d)?, ints(&[PICK], N as u64, 10, d)?);
            one(move || Ok(a.take_cols(&p)?.data().clone()))
        })
        .out("r.data"),
    );
    r.push(
        Row::new(
            "sparse.coo.tocsr",
            size,
            format!("{}; C = sp.sparse.coo_matrix((v, (row, col)), shape=({N}, {N}))", py_setup()),
            "C.tocsr()",
            |d| {
                let c = coo(d)?;
                one(move || c.tocsr().map(|a| a.data().clone()))
            },
        )
        .out("r.data"),
    );
    blocks_and_arithmetic(r, &gsetup);
}

/// The formats and operations added after the headline rows: BSR conversions and product,
/// `kron` (BSR), the sum of two arrays and a reduction along rows.
fn blocks_and_arithmetic(r: &mut Vec<Row>, gsetup: &str) {
    let size = "10^6² 10^7 f32";
    let bsetup = format!("{}; B = A.tobsr((2, 2)); B.sort_indices()", py_setup());
    r.push(
        Row::new("sparse.csr.tobsr", format!("{size}, 2×2 blocks"), py_setup(), "A.tobsr((2, 2))", |d| {
            let a = csr(d)?;
            one(move || Ok(a.tobsr(Some([2, 2]))?.data().clone()))
        })
        .out("r.sorted_indices().data"),
    );
    r.push(
        Row::new("sparse.bsr.tocsr", format!("{size}, 2×2 blocks"), bsetup.clone(), "B.tocsr()", |d| {
            let b = csr(d)?.tobsr(Some([2, 2]))?;
            one(move || Ok(b.tocsr()?.data().clone()))
        })
        .out("r.data"),
    );
    r.push(Row::new("sparse.bsr @ x", format!("{size}, 2×2 blocks"), bsetup, "B @ x", |d| {
        let (b, x) = (csr(d)?.tobsr(Some([2, 2]))?, uniform(&[N], 4, d)?);
        one(move || b.matmul(&x))
    }));
    let gsize = "10^5² 10^6 f32";
    r.push(
        Row::new(
            "sparse.kron",
            format!("{gsize} ⊗ 2×2 dense"),
            format!("{gsetup}; D = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)"),
            "sp.sparse.kron(A, D)",
            |d| {
                let a = gcsr(d)?;
                let k = CsrArray::from_dense(&xp::Array::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], [2, 2])?.to_device(d)?)?;
                // SciPy's result is BSR here: both sides time the product alone
                one(move || match xp::sparse::kron(&a, &k, None)? {
                    xp::sparse::SparseArray::Bsr(b) => Ok(b.data().clone()),
                    other => Ok(other.tocsr()?.data().clone()),
                })
            },
        )
        .out("r.data"),
    );
    r.push(
        Row::new("sparse.csr + csr", gsize, gsetup.to_string(), "A + A.T", |d| {
            let a = gcsr(d)?;
            let t = xp::sparse::SparseArray::Csc(a.transpose()).asformat(Format::Csr)?;
            one(move || Ok(a.add(&t)?.tocsr()?.data().clone()))
        })
        .out("r.data"),
    );
    r.push(
        Row::new("sparse.csr.max(axis=1)", size, py_setup(), "A.max(axis=1)", |d| {
            let a = csr(d)?;
            one(move || a.max(Some(1), false))
        })
        .out("r.toarray().ravel()"),
    );
    vector_rows(r);
}

/// Stored values of the 1-D rows' vectors (of length `N`).
const VNNZ: usize = 100_000;

/// The 1-D rows: SciPy's (and CuPy 14's) 1-D `csr_array` of `VNNZ` values at
/// random places of `N`, two of them, with the headline matrix `A` and a dense `x`.
fn vector_rows(r: &mut Vec<Row>) {
    let setup = format!(
        "{}; V = sp.sparse.coo_array((uniform({VNNZ}, 12), (ints({VNNZ}, {N}, 11),)), shape=({N},)).tocsr(); \
         W = sp.sparse.coo_array((uniform({VNNZ}, 14), (ints({VNNZ}, {N}, 13),)), shape=({N},)).tocsr()",
        py_setup()
    );
    let vec = |d: Device, seed: u64| -> Result<CsrArray1d> {
        CooArray1d::new(&uniform(&[VNNZ], seed + 1, d)?, &ints(&[VNNZ], N as u64, seed, d)?, N)?.tocsr()
    };
    let size = "10^6, 10^5 f32";
    r.push(
        Row::new("sparse.vec + vec", size, setup.clone(), "V + W", move |d| {
            let (v, w) = (vec(d, 11)?, vec(d, 13)?);
            one(move || Ok(v.add(&w)?.data().clone()))
        })
        .out("r.data"),
    );
    r.push(Row::new("sparse.vec @ x", size, setup.clone(), "V @ x", move |d| {
        let (v, x) = (vec(d, 11)?, uniform(&[N], 4, d)?);
        one(move || v.matmul(&x))
    }));
    r.push(
        Row::new(
            "sparse.vec[a:b:s]",
            format!("{size}, 10^3..9·10^5 by 3"),
            setup.clone(),
            "V[1000:900000:3]",
            move |d| {
                let v = vec(d, 11)?;
                one(move || {
                    Ok(v.slice(xp::SliceElem::Slice { start: Some(1000), stop: Some(900_000), step: 3 })?
                        .data()
                        .clone())
                })
            },
        )
        .out("r.data"),
    );
    r.push(
        Row::new("sparse.csr[i]", "10^6² 10^7 f32, row 5·10^5", py_setup(), "A[500000]", |d| {
            let a = csr(d)?;
            one(move || Ok(a.row(500_000)?.data().clone()))
        })
        .out("r.data"),
    );
    r.push(
        Row::new("sparse.csr @ vec", format!("10^6² 10^7 f32 @ {size}"), setup, "A @ V", move |d| {
            let (a, v) = (csr(d)?, vec(d, 11)?);
            one(move || Ok(a.matmul_vector(&v)?.data().clone()))
        })
        .out("r.data"),
    );
}

/// The SpGEMM matrix as CSR.
fn gcsr(d: Device) -> Result<CsrArray> {
    let (row, col, v) = (ints(&[GNNZ], G as u64, 6, d)?, ints(&[GNNZ], G as u64, 7, d)?, uniform(&[GNNZ], 8, d)?);
    CooArray::new(&v, &row, &col, [G, G])?.tocsr()
}
