//! Dtype information and small counting helpers of NumPy (issue 27): `finfo`, `iinfo`,
//! `common_type`, `bitwise_count`, `mask_indices` and `histogram_bin_edges`.
//!
//! ```
//! assert_eq!(xp::finfo(xp::DType::F32).unwrap().eps, f32::EPSILON as f64);
//! assert_eq!(xp::iinfo(xp::DType::U8).unwrap().max, 255);
//! ```
use crate::Array;
use xp_core::{promote_types, DType, Device, Error, Kind, Result};

/// Machine limits of a float dtype (NumPy `finfo`); a complex dtype gives its parts' float dtype.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Finfo {
    /// the float dtype described
    pub dtype: DType,
    /// bits of storage
    pub bits: u32,
    /// the difference between 1.0 and the next larger number
    pub eps: f64,
    /// the difference between 1.0 and the next smaller number
    pub epsneg: f64,
    /// the largest finite number
    pub max: f64,
    /// the most negative finite number (`-max`)
    pub min: f64,
    /// the smallest positive normal number (NumPy's `tiny`)
    pub smallest_normal: f64,
    /// the smallest positive subnormal number
    pub smallest_subnormal: f64,
    /// the approximate number of decimal digits of precision
    pub precision: u32,
    /// `10^-precision`, rounded to the dtype
    pub resolution: f64,
    /// bits of the mantissa (without the implicit leading bit)
    pub nmant: u32,
    /// bits of the exponent
    pub nexp: u32,
    /// the smallest power of two that overflows
    pub maxexp: i32,
    /// the exponent of the smallest normal number
    pub minexp: i32,
}

impl Finfo {
    /// NumPy's `finfo.tiny`: [`Finfo::smallest_normal`].
    pub fn tiny(&self) -> f64 {
        self.smallest_normal
    }
}

/// `x` rounded to the float dtype `d` (NumPy's `finfo` values are scalars of the dtype).
fn in_dtype(x: f64, d: DType) -> f64 {
    match d {
        DType::F16 => xp_core::f16::from_f64(x).to_f64(),
        DType::BF16 => xp_core::bf16::from_f64(x).to_f64(),
        DType::F32 => x as f32 as f64,
        _ => x,
    }
}

/// NumPy `finfo(dtype)`: the machine limits of a float (or complex) dtype; other dtypes are
/// [`Error::InvalidDType`].
///
/// ```
/// let f = xp::finfo(xp::DType::F16).unwrap();
/// assert_eq!((f.max, f.precision, f.bits), (65504.0, 3, 16));
/// ```
pub fn finfo(dtype: DType) -> Result<Finfo> {
    let d = dtype.to_real();
    // (nmant, nexp, precision)
    let (nmant, nexp, precision) = match d {
        DType::F16 => (10, 5, 3),
        DType::BF16 => (7, 8, 2),
        DType::F32 => (23, 8, 6),
        DType::F64 => (52, 11, 15),
        _ => return Err(Error::InvalidDType { op: "finfo", dtype }),
    };
    let maxexp = 1i32 << (nexp - 1);
    let minexp = 2 - maxexp;
    let max = (2.0 - 2f64.powi(-(nmant as i32))) * 2f64.powi(maxexp - 1);
    Ok(Finfo {
        dtype: d,
        bits: d.bits(),
        eps: 2f64.powi(-(nmant as i32)),
        epsneg: 2f64.powi(-(nmant as i32) - 1),
        max,
        min: -max,
        smallest_normal: 2f64.powi(minexp),
        smallest_subnormal: 2f64.powi(minexp) * 2f64.powi(-(nmant as i32)),
        precision,
        resolution: in_dtype(10f64.powi(-(precision as i32)), d),
        nmant,
        nexp,
        maxexp,
        minexp,
    })
}

/// Machine limits of an integer dtype (NumPy `iinfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iinfo {
    /// the integer dtype described
    pub dtype: DType,
    /// bits of storage
    pub bits: u32,
    /// the smallest value
    pub min: i128,
    /// the largest value
    pub max: i128,
}

/// NumPy `iinfo(dtype)`: the smallest and largest values of an integer dtype; other dtypes
/// (bool included, as in NumPy) are [`Error::InvalidDType`].
///
/// ```
/// let i = xp::iinfo(xp::DType::I16).unwrap();
/// assert_eq!((i.min, i.max, i.bits), (-32768, 32767, 16));
/// ```
pub fn iinfo(dtype: DType) -> Result<Iinfo> {
    let bits = dtype.bits();
    let (min, max) = match dtype.kind() {
        Kind::Int => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
        Kind::Uint => (0, (1i128 << bits) - 1),
        _ => return Err(Error::InvalidDType { op: "iinfo", dtype }),
    };
    Ok(Iinfo { dtype, bits, min, max })
}

/// NumPy `common_type(*arrays)`: the inexact dtype all the arrays convert to without losing
/// precision: integers count as float64, and any complex array makes the result complex. Bool
/// is refused ([`Error::InvalidDType`], NumPy's TypeError), as is an empty list
/// ([`Error::InvalidArgument`]).
///
/// ```
/// let a = xp::Array::from_vec(vec![1i8], [1]).unwrap();
/// let b = xp::Array::from_vec(vec![xp::Complex32::new(1.0, 0.0)], [1]).unwrap();
/// assert_eq!(xp::common_type(&[&a, &b]).unwrap(), xp::DType::C128);
/// ```
pub fn common_type(arrays: &[&Array]) -> Result<DType> {
    let mut out: Option<DType> = None;
    for a in arrays {
        let d = match a.dtype().kind() {
            Kind::Int | Kind::Uint => DType::F64,
            Kind::Float | Kind::Complex => a.dtype(),
            Kind::Bool => return Err(Error::InvalidDType { op: "common_type", dtype: a.dtype() }),
        };
        out = Some(out.map_or(d, |o| promote_types(o, d)));
    }
    out.ok_or_else(|| Error::invalid("common_type", "need at least one array"))
}

/// NumPy `bitwise_count(x)`: the number of one bits of `|x|` (uint8), for integers and bool;
/// other dtypes are [`Error::InvalidDType`]. A SWAR population count on the unsigned
/// reinterpretation of `|x|` (so `-128` of int8 has one bit, as in NumPy).
///
/// ```
/// let x = xp::Array::from_vec(vec![0i32, 7, -8, 1023], [4]).unwrap();
/// let c = xp::bitwise_count(&x).unwrap();
/// assert_eq!((c.dtype(), c.to_vec::<u8>().unwrap()), (xp::DType::U8, vec![0, 3, 1, 10]));
/// ```
pub fn bitwise_count(x: &Array) -> Result<Array> {
    let u = match x.dtype() {
        DType::Bool => return x.astype(DType::U8),
        DType::I8 => x.abs()?.astype(DType::U8)?,
        DType::I16 => x.abs()?.astype(DType::U16)?,
        DType::I32 => x.abs()?.astype(DType::U32)?,
        DType::I64 => x.abs()?.astype(DType::U64)?,
        DType::U8 | DType::U16 | DType::U32 | DType::U64 => x.clone(),
        d => return Err(Error::InvalidDType { op: "bitwise_count", dtype: d }),
    };
    let bits = u.dtype().bits();
    let mask = |m: u64| if bits == 64 { m } else { m & ((1u64 << bits) - 1) };
    let v = u.sub(&u.right_shift(1u64)?.bitwise_and(mask(0x5555_5555_5555_5555))?)?;
    let m2 = mask(0x3333_3333_3333_3333);
    let v = v.bitwise_and(m2)?.add(&v.right_shift(2u64)?.bitwise_and(m2)?)?;
    let mut v = v.add(&v.right_shift(4u64)?)?.bitwise_and(mask(0x0f0f_0f0f_0f0f_0f0f))?;
    let mut shift = 8;
    while shift < bits {
        v = v.add(&v.right_shift(shift as u64)?)?;
        shift *= 2;
    }
    v.bitwise_and(0xffu64.min(mask(u64::MAX)))?.astype(DType::U8)
}

/// NumPy `mask_indices(n, mask_func, k)`: the (row, column) indices (int64) where
/// `mask_func(ones((n, n)), k)` is nonzero, on `device`; `mask_func` is any function of a
/// square array and an offset, such as `|m, k| m.triu(k)`.
///
/// ```
/// let (r, c) = xp::mask_indices(3, |m, k| m.triu(k), 1, xp::Device::Cpu).unwrap();
/// assert_eq!((r.to_vec::<i64>().unwrap(), c.to_vec::<i64>().unwrap()), (vec![0, 0, 1], vec![1, 2, 2]));
/// ```
pub fn mask_indices(
    n: usize,
    mask_func: impl Fn(&Array, isize) -> Result<Array>,
    k: isize,
    device: Device,
) -> Result<(Array, Array)> {
    let m = crate::on(device).ones([n, n], DType::I64)?;
    let a = mask_func(&m, k)?;
    if a.ndim() != 2 {
        return Err(Error::invalid("mask_indices", "the mask function must return a 2-d array"));
    }
    let mut rc = crate::nonzero(&a.ne(0)?)?;
    let c = rc.pop().expect("two axes");
    Ok((rc.pop().expect("two axes"), c))
}

/// NumPy `histogram_bin_edges(a, bins, range, weights)`: the bin edges [`crate::histogram`]
/// uses for the same arguments.
///
/// ```
/// let a = xp::Array::from_vec(vec![1.0, 2.0, 5.0], [3]).unwrap();
/// let e = xp::histogram_bin_edges(&a, 4usize, xp::Histogram::default()).unwrap();
/// assert_eq!(e.to_vec::<f64>().unwrap(), vec![1.0, 2.0, 3.0, 4.0, 5.0]);
/// ```
pub fn histogram_bin_edges<'a>(
    a: &Array,
    bins: impl Into<crate::Bins<'a>>,
    opts: crate::Histogram<'a>,
) -> Result<Array> {
    crate::histogram(a, bins, opts).map(|(_, edges)| edges).map_err(|e| e.in_op("histogram_bin_edges"))
}
