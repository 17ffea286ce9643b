//! Products with NumPy's semantics: `matmul` (1-D operands promoted and the added axis removed,
//! batch axes broadcast, operands of any strides handed to the backend as they are), `dot`,
//! `vdot`, `inner`, `outer`, `tensordot`, `kron`, `vecdot` and `linalg.multi_dot`. Every dtype
//! NumPy accepts: integers wrap, bool is or-of-ands, float16/bfloat16 accumulate in float32.
//!
//! ```
//! use xp::Array;
//! let a = xp::arange(0, 6, 1, None).unwrap().reshape(&[2, 3]).unwrap();
//! let b = xp::arange(0, 3, 1, None).unwrap();
//! assert_eq!(xp::matmul(&a, &b).unwrap().to_vec::<i64>().unwrap(), vec![5, 14]); // (2,3) @ (3,)
//! let at = a.t().unwrap();                                                     // a view, no copy
//! assert_eq!(xp::matmul(&at, &a).unwrap().shape(), &[3, 3]);
//! assert_eq!(xp::tensordot(&a, &a, ([0, 1], [0, 1])).unwrap().item::<i64>().unwrap(), 55);
//! assert!(matches!(xp::matmul(&a, &a), Err(xp::Error::NotAligned { .. })));   // (2,3) @ (2,3)
//! ```
use crate::backend::{on_pair, Storage};
use crate::Array;
use xp_core::{broadcast_shapes, normalize_axis, promote_types, Error, LinalgStorage, Result};

/// Run `f` on the storages of `a` and `b`, locking a shared storage once.
pub(crate) fn with_two<R>(a: &Array, b: &Array, f: impl FnOnce(&Storage, &Storage) -> Result<R>) -> Result<R> {
    if a.shares_storage(b) {
        let g = a.read();
        f(&g, &g)
    } else {
        f(&a.read(), &b.read())
    }
}

fn check_devices(op: &'static str, a: &Array, b: &Array) -> Result<()> {
    if a.device() != b.device() {
        return Err(Error::DeviceMismatch { op, lhs: a.device(), rhs: b.device() });
    }
    Ok(())
}

fn not_aligned(op: &'static str, a: &Array, b: &Array, la: usize, lb: usize) -> Error {
    Error::NotAligned {
        op,
        lhs: a.shape().to_vec(),
        rhs: b.shape().to_vec(),
        lhs_axis: la,
        lhs_size: a.shape()[la],
        rhs_axis: lb,
        rhs_size: b.shape()[lb],
    }
}

/// What [`matmul`] and [`dot`] multiply: two dense arrays (an array), a sparse array with a
/// dense one on either side (an array), or two sparse arrays (a sparse array, SciPy's SpGEMM).
pub trait Matmul<Rhs: ?Sized> {
    /// The product's type.
    type Output;
    /// `self @ rhs`.
    fn matmul_with(&self, rhs: &Rhs) -> Result<Self::Output>;
    /// NumPy's / SciPy's `dot(self, rhs)` (the matrix product for sparse operands).
    fn dot_with(&self, rhs: &Rhs) -> Result<Self::Output> {
        self.matmul_with(rhs)
    }
}

impl Matmul<Array> for Array {
    type Output = Array;
    fn matmul_with(&self, rhs: &Array) -> Result<Array> {
        matmul_named("matmul", self, rhs)
    }
    fn dot_with(&self, rhs: &Array) -> Result<Array> {
        dot_arrays(self, rhs)
    }
}

/// Matrix product (NumPy `matmul`, Python's `@`): stacks of matrices with broadcast batch axes; a
/// 1-D first operand is a row and a 1-D second operand a column, the added axis removed again.
/// The result dtype is the promotion of both. 0-d operands are refused (use `multiply`).
///
/// Sparse operands ([`crate::sparse`]) as SciPy's `@`: sparse with dense gives a dense array,
/// sparse with sparse a sparse array.
///
/// ```
/// let a = xp::sparse::eye(3, 3, 0, xp::DType::F64, xp::sparse::Format::Csr, xp::Device::Cpu).unwrap();
/// let x = xp::arange(1.0, 4.0, 1.0, None).unwrap();
/// assert_eq!(xp::matmul(&a, &x).unwrap().to_vec::<f64>().unwrap(), vec![1.0, 2.0, 3.0]);
/// assert_eq!(xp::dot(&a, &a).unwrap().nnz(), 3);                       // sparse @ sparse
/// ```
pub fn matmul<A: Matmul<B> + ?Sized, B: ?Sized>(a: &A, b: &B) -> Result<A::Output> {
    a.matmul_with(b)
}

pub(crate) fn matmul_named(op: &'static str, a: &Array, b: &Array) -> Result<Array> {
    let _r = crate::profiler::range(op);
    check_devices(op, a, b)?;
    if a.ndim() == 0 || b.ndim() == 0 {
        return Err(Error::invalid(op, "0-d operand: matmul needs at least one dimension per operand (use multiply)"));
    }
    let dtype = promote_types(a.dtype(), b.dtype());
    let x = if a.ndim() == 1 { a.expand_dims(0)? } else { a.clone() };
    let y = if b.ndim() == 1 { b.expand_dims(-1)? } else { b.clone() };
    let (xn, yn) = (x.ndim(), y.ndim());
    let (m, k, n) = (x.shape()[xn - 2], x.shape()[xn - 1], y.shape()[yn - 1]);
    if y.shape()[yn - 2] != k {
        return Err(not_aligned(op, a, b, a.ndim() - 1, b.ndim().saturating_sub(2)));
    }
    let batch = broadcast_shapes(op, &x.shape()[..xn - 2], &y.shape()[..yn - 2])?;
    let (x, y) = (x.cast_if(dtype)?, y.cast_if(dtype)?);
    let full = |r: usize, c: usize| crate::linalg::with_tail(&batch, &[r, c]);
    let lx = x.layout.broadcast_to(op, &full(m, k))?;
    let ly = y.layout.broadcast_to(op, &full(k, n))?;
    let s = with_two(&x, &y, |p, q| on_pair!(op, p, q, s, t => s.matmul(&lx, t, &ly)))?;
    let mut shape = full(m, n);
    if b.ndim() == 1 {
        shape.pop();
    }
    if a.ndim() == 1 {
        shape.remove(shape.len() - if b.ndim() == 1 { 1 } else { 2 });
    }
    Ok(Array::from_storage(s, &shape))
}

/// NumPy `dot`: multiply for a 0-d operand, `matmul` for operands of at most two dimensions,
/// else a sum product over the last axis of `a` and the second-to-last of `b`; with a sparse
/// operand, SciPy's `dot` (the matrix product).
pub fn dot<A: Matmul<B> + ?Sized, B: ?Sized>(a: &A, b: &B) -> Result<A::Output> {
    a.dot_with(b)
}

fn dot_arrays(a: &Array, b: &Array) -> Result<Array> {
    if a.ndim() == 0 || b.ndim() == 0 {
        return a.mul(b);
    }
    if a.ndim() <= 2 && b.ndim() <= 2 {
        return matmul_named("dot", a, b);
    }
    let bax = if b.ndim() == 1 { 0 } else { b.ndim() as isize - 2 };
    tensordot_named("dot", a, b, &[-1], &[bax])
}

/// NumPy `vdot`: the dot product of the flattened operands, the first conjugated.
pub fn vdot(a: &Array, b: &Array) -> Result<Array> {
    if a.size() != b.size() {
        return Err(Error::NotAligned {
            op: "vdot",
            lhs: vec![a.size()],
            rhs: vec![b.size()],
            lhs_axis: 0,
            lhs_size: a.size(),
            rhs_axis: 0,
            rhs_size: b.size(),
        });
    }
    let x = if a.dtype().is_complex() { a.conj()? } else { a.clone() };
    matmul_named("vdot", &x.ravel()?, &b.ravel()?)
}

/// NumPy `inner`: a sum product over the last axes (multiply for a 0-d operand).
pub fn inner(a: &Array, b: &Array) -> Result<Array> {
    if a.ndim() == 0 || b.ndim() == 0 {
        return a.mul(b);
    }
    tensordot_named("inner", a, b, &[-1], &[-1])
}

/// NumPy `outer`: `a.ravel()[i] * b.ravel()[j]`, shape (a.size, b.size).
pub fn outer(a: &Array, b: &Array) -> Result<Array> {
    a.ravel()?.expand_dims(1)?.mul(&b.ravel()?.expand_dims(0)?)
}

/// The axes `tensordot` contracts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TensorAxes {
    /// the last `n` axes of `a` with the first `n` of `b` (NumPy's `axes=n`)
    Last(usize),
    /// these axes of `a` with these of `b`, pairwise (NumPy's `axes=(a_axes, b_axes)`)
    Pairs(Vec<isize>, Vec<isize>),
}

impl From<usize> for TensorAxes {
    fn from(n: usize) -> Self {
        TensorAxes::Last(n)
    }
}
macro_rules! tensor_axes_from {
    ($($t:ty),*) => {$(
        impl<const N: usize> From<([$t; N], [$t; N])> for TensorAxes {
            fn from((a, b): ([$t; N], [$t; N])) -> Self {
                TensorAxes::Pairs(a.iter().map(|&x| x as isize).collect(), b.iter().map(|&x| x as isize).collect())
            }
        }
        impl From<(Vec<$t>, Vec<$t>)> for TensorAxes {
            fn from((a, b): (Vec<$t>, Vec<$t>)) -> Self {
                TensorAxes::Pairs(a.iter().map(|&x| x as isize).collect(), b.iter().map(|&x| x as isize).collect())
            }
        }
    )*};
}
tensor_axes_from!(i32, isize, usize);

/// NumPy `tensordot`: the sum of products over the axes `axes` names, as one matrix product
/// (the free axes of `a`, then those of `b`, in order).
pub fn tensordot(a: &Array, b: &Array, axes: impl Into<TensorAxes>) -> Result<Array> {
    let (xa, xb) = match axes.into() {
        TensorAxes::Last(n) => {
            if n > a.ndim() || n > b.ndim() {
                return Err(Error::invalid("tensordot", format!("axes={n} exceeds the dimensions of an operand")));
            }
            let xa: Vec<isize> = (a.ndim() - n..a.ndim()).map(|i| i as isize).collect();
            (xa, (0..n).map(|i| i as isize).collect())
        }
        TensorAxes::Pairs(x, y) => (x, y),
    };
    tensordot_named("tensordot", a, b, &xa, &xb)
}

fn tensordot_named(op: &'static str, a: &Array, b: &Array, xa: &[isize], xb: &[isize]) -> Result<Array> {
    check_devices(op, a, b)?;
    if xa.len() != xb.len() {
        return Err(Error::invalid(op, format!("shape-mismatch for sum: {} axes of a, {} of b", xa.len(), xb.len())));
    }
    let norm =
        |x: &Array, ax: &[isize]| ax.iter().map(|&i| normalize_axis(op, i, x.ndim())).collect::<Result<Vec<_>>>();
    let (ca, cb) = (norm(a, xa)?, norm(b, xb)?);
    for (&i, &j) in ca.iter().zip(&cb) {
        if a.shape()[i] != b.shape()[j] {
            return Err(not_aligned(op, a, b, i, j));
        }
    }
    let free = |x: &Array, c: &[usize]| (0..x.ndim()).filter(|i| !c.contains(i)).collect::<Vec<_>>();
    let (fa, fb) = (free(a, &ca), free(b, &cb));
    let perm = |f: &[usize], c: &[usize], first_free: bool| -> Vec<isize> {
        let (p, q) = if first_free { (f, c) } else { (c, f) };
        p.iter().chain(q).map(|&i| i as isize).collect()
    };
    let size = |x: &Array, ax: &[usize]| ax.iter().map(|&i| x.shape()[i]).product::<usize>();
    let k = size(a, &ca);
    let am = a.transpose(perm(&fa, &ca, true))?.reshape_exact(&[size(a, &fa), k])?;
    let bm = b.transpose(perm(&fb, &cb, false))?.reshape_exact(&[k, size(b, &fb)])?;
    let mut shape: Vec<usize> = fa.iter().map(|&i| a.shape()[i]).collect();
    shape.extend(fb.iter().map(|&i| b.shape()[i]));
    matmul_named(op, &am, &bm)?.reshape_exact(&shape)
}

/// NumPy `kron`: the Kronecker product, the shapes multiplied axis by axis (the shorter shape
/// padded with leading ones).
pub fn kron(a: &Array, b: &Array) -> Result<Array> {
    let nd = a.ndim().max(b.ndim());
    let pad = |x: &Array| {
        let mut s = vec![1usize; nd - x.ndim()];
        s.extend_from_slice(x.shape());
        s
    };
    let (sa, sb) = (pad(a), pad(b));
    // a as (a0, 1, a1, 1, ..), b as (1, b0, 1, b1, ..): their product is (a0, b0, a1, b1, ..).
    let spread = |s: &[usize], first: bool| -> Vec<usize> {
        s.iter().flat_map(|&d| if first { [d, 1] } else { [1, d] }).collect()
    };
    let p = a.reshape_exact(&spread(&sa, true))?.mul(&b.reshape_exact(&spread(&sb, false))?)?;
    let out: Vec<usize> = sa.iter().zip(&sb).map(|(x, y)| x * y).collect();
    p.reshape_exact(&out)
}

/// NumPy 2 `vecdot`: `sum(conj(a) * b)` over `axis` of the broadcast operands (bool: or-of-ands,
/// integers wrapping, as `matmul`).
pub fn vecdot(a: &Array, b: &Array, axis: isize) -> Result<Array> {
    check_devices("vecdot", a, b)?;
    if a.ndim() == 0 || b.ndim() == 0 {
        return Err(Error::invalid("vecdot", "0-d operand: vecdot needs a vector axis"));
    }
    let x = a.moveaxis(normalize_axis("vecdot", axis, a.ndim())? as isize, -1)?;
    let y = b.moveaxis(normalize_axis("vecdot", axis, b.ndim())? as isize, -1)?;
    let x = if x.dtype().is_complex() { x.conj()? } else { x };
    let r = matmul_named("vecdot", &x.expand_dims(-2)?, &y.expand_dims(-1)?)?;
    r.squeeze([-1, -2])
}

/// NumPy `linalg.multi_dot`: the product of a chain of matrices in the cheapest order (the
/// first may be a 1-D row, the last a 1-D column), chosen by the classic dynamic programme over
/// the chain's dimensions.
pub fn multi_dot(arrays: &[&Array]) -> Result<Array> {
    let n = arrays.len();
    if n < 2 {
        return Err(Error::invalid("multi_dot", "expecting at least two arrays"));
    }
    if n == 2 {
        return dot(arrays[0], arrays[1]);
    }
    let first_1d = arrays[0].ndim() == 1;
    let last_1d = arrays[n - 1].ndim() == 1;
    let mut ms: Vec<Array> = arrays.iter().map(|a| (*a).clone()).collect();
    if first_1d {
        ms[0] = ms[0].expand_dims(0)?;
    }
    if last_1d {
        ms[n - 1] = ms[n - 1].expand_dims(-1)?;
    }
    if let Some(bad) = ms.iter().find(|m| m.ndim() != 2) {
        return Err(Error::invalid("multi_dot", format!("{}-dimensional array given; all must be 2-D", bad.ndim())));
    }
    // p[i], p[i+1]: the shape of matrix i.
    let mut p: Vec<usize> = ms.iter().map(|m| m.shape()[0]).collect();
    p.push(ms[n - 1].shape()[1]);
    let order = chain_order(&p);
    let mut r = chain_product(&ms, &order, 0, n - 1)?;
    if last_1d {
        r = r.squeeze(-1)?;
    }
    if first_1d {
        r = r.squeeze(0)?;
    }
    Ok(r)
}

/// `split[i][j]`: where the cheapest product of matrices i..=j splits (matrix chain order).
fn chain_order(p: &[usize]) -> Vec<Vec<usize>> {
    let n = p.len() - 1;
    let mut cost = vec![vec![0u128; n]; n];
    let mut split = vec![vec![0usize; n]; n];
    for len in 1..n {
        for i in 0..n - len {
            let j = i + len;
            cost[i][j] = u128::MAX;
            for k in i..j {
                let c = cost[i][k] + cost[k + 1][j] + (p[i] * p[k + 1] * p[j + 1]) as u128;
                if c < cost[i][j] {
                    cost[i][j] = c;
                    split[i][j] = k;
                }
            }
        }
    }
    split
}

fn chain_product(ms: &[Array], split: &[Vec<usize>], i: usize, j: usize) -> Result<Array> {
    if i == j {
        return Ok(ms[i].clone());
    }
    let k = split[i][j];
    matmul_named("multi_dot", &chain_product(ms, split, i, k)?, &chain_product(ms, split, k + 1, j)?)
}

impl Array {
    /// `matmul(self, rhs)` (Python's `self @ rhs`).
    pub fn matmul(&self, rhs: &Array) -> Result<Array> {
        matmul(self, rhs)
    }
    /// `dot(self, rhs)`.
    pub fn dot(&self, rhs: &Array) -> Result<Array> {
        dot(self, rhs)
    }
}
