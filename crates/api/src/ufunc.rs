//! Elementwise ops ("ufuncs") with NumPy semantics: loop selection by NumPy 2 promotion, Rust
//! scalars as weak operands, broadcasting, `out` forms, and the ufunc methods `reduce`,
//! `accumulate` and `outer` for every binary op (through the [`BinaryUfunc`] trait).
//!
//! ```
//! use xp::{Array, BinaryOp, BinaryUfunc, DType};
//! let a = Array::from_vec(vec![1u8, 2, 250], &[3]).unwrap();
//! let b = a.add(10).unwrap();                  // weak scalar: stays uint8, wraps like NumPy
//! assert_eq!(b.dtype(), DType::U8);
//! assert_eq!(b.to_vec::<u8>().unwrap(), vec![11, 12, 4]);
//! assert_eq!(a.add(1.5).unwrap().dtype(), DType::F64);
//! let m = BinaryOp::Max.reduce(&a, ..).unwrap();
//! assert_eq!(m.item::<u8>().unwrap(), 250);
//! let o = BinaryOp::Mul.outer(&a, &a).unwrap();
//! assert_eq!(o.shape(), &[3, 3]);
//! ```
use crate::axes::{Axes, IntoAxes};
use crate::backend::{on_pair, on_storage};
use crate::Array;
use xp_core::{
    broadcast_shapes, default_dtype, normalize_axes, normalize_axis, promote_weak, scalar_fits, BackendStorage,
    BinaryOp, Complex32, Complex64, DType, Device, Error, Kind, OutRule, Result, Scalar, UnaryOp,
};

/// One operand of an elementwise op: an array, or a Rust scalar that is weak in type promotion
/// (it takes the array's dtype when its kind allows, as a Python scalar does in NumPy 2).
#[derive(Clone, Copy, Debug)]
pub enum Operand<'a> {
    /// an array
    Array(&'a Array),
    /// a weak scalar
    Scalar(Scalar),
}

impl<'a> From<&'a Array> for Operand<'a> {
    fn from(a: &'a Array) -> Self {
        Operand::Array(a)
    }
}
macro_rules! operand_from_scalar {
    ($($t:ty),*) => {$(
        impl From<$t> for Operand<'_> {
            fn from(v: $t) -> Self { Operand::Scalar(Scalar::from(v)) }
        }
    )*};
}
operand_from_scalar!(bool, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f32, f64, Complex32, Complex64, Scalar);

/// The dtype an operand brings into promotion, and its device.
fn operand_dtype(o: &Operand, other: &Operand) -> DType {
    match (o, other) {
        (Operand::Array(a), _) => a.dtype(),
        (Operand::Scalar(s), Operand::Array(b)) => promote_weak(b.dtype(), s),
        (Operand::Scalar(s), Operand::Scalar(_)) => default_dtype(s),
    }
}

fn common_device(op: &'static str, ops: &[&Operand]) -> Result<Device> {
    let mut dev: Option<Device> = None;
    for o in ops {
        if let Operand::Array(a) = o {
            match dev {
                Some(d) if d != a.device() => return Err(Error::DeviceMismatch { op, lhs: d, rhs: a.device() }),
                _ => dev = Some(a.device()),
            }
        }
    }
    Ok(dev.unwrap_or(Device::Cpu))
}

/// Turn an operand into an array of `dtype` on `device` (scalars become 0-d arrays).
pub(crate) fn materialize(o: &Operand, dtype: DType, device: Device) -> Result<Array> {
    match o {
        Operand::Array(a) => a.cast_if(dtype),
        Operand::Scalar(s) => Array::scalar_on(*s, dtype, device),
    }
}

/// Check that an integer scalar fits the array dtype it adopts (NumPy 2 raises OverflowError).
fn check_scalar(op: &'static str, o: &Operand, adopted: DType) -> Result<()> {
    if let Operand::Scalar(s) = o
        && !scalar_fits(s, adopted)
    {
        return Err(Error::ScalarOverflow { op, value: format!("{s:?}"), dtype: adopted });
    }
    Ok(())
}

/// Apply a unary op with NumPy's loop resolution.
pub fn unary(op: UnaryOp, a: &Array) -> Result<Array> {
    let _r = crate::profiler::range(op.name());
    let (loop_dtype, _) = op.resolve(a.dtype())?;
    let a = a.cast_if(loop_dtype)?;
    let s = on_storage!(&*a.read(), s => s.unary(&a.layout, op))?;
    Ok(Array::from_storage(s, a.shape()))
}

/// Apply a binary op with NumPy 2 promotion (weak scalars) and broadcasting.
pub fn binary<'a, 'b>(op: BinaryOp, a: impl Into<Operand<'a>>, b: impl Into<Operand<'b>>) -> Result<Array> {
    let _r = crate::profiler::range(op.name());
    let (a, b) = (a.into(), b.into());
    let device = common_device(op.name(), &[&a, &b])?;
    let (mut da, mut db) = (operand_dtype(&a, &b), operand_dtype(&b, &a));
    // NumPy 2 compares an array with an out-of-range Python int by value instead of refusing.
    let bool_out = op.out_rule() == OutRule::Bool;
    for (o, d) in [(&a, &mut da), (&b, &mut db)] {
        if let Operand::Scalar(s) = o
            && bool_out
            && !scalar_fits(s, *d)
        {
            *d = default_dtype(s);
        }
    }
    check_scalar(op.name(), &a, da)?;
    check_scalar(op.name(), &b, db)?;
    let (loop_dtype, _) = op.resolve(da, db)?;
    let (x, y) = (materialize(&a, loop_dtype, device)?, materialize(&b, loop_dtype, device)?);
    let shape = broadcast_shapes(op.name(), x.shape(), y.shape())?;
    let (lx, ly) = (x.layout.broadcast_to(op.name(), &shape)?, y.layout.broadcast_to(op.name(), &shape)?);
    if op == BinaryOp::Pow && loop_dtype.kind() == Kind::Int && y.lt(0)?.any(..)?.item::<bool>()? {
        return Err(Error::invalid("power", "integers to negative integer powers are not allowed"));
    }
    if let (BinaryOp::Pow, Operand::Array(arr), Operand::Scalar(e)) = (op, &a, &b) {
        if arr.dtype() == DType::Bool && matches!(e, Scalar::Int(2) | Scalar::Uint(2)) {
            // NumPy squares a bool array for `** 2`, and `square` of bool is int8
            return unary(UnaryOp::Square, &arr.astype(DType::I8)?);
        }
        if let Some(u) = fast_power(loop_dtype, e) {
            return unary(u, &x);
        }
    }
    let s = if x.shares_storage(&y) {
        let g = x.read();
        on_pair!(op.name(), &*g, &*g, p, q => p.binary(&lx, q, &ly, op))?
    } else {
        on_pair!(op.name(), &*x.read(), &*y.read(), p, q => p.binary(&lx, q, &ly, op))?
    };
    Ok(Array::from_storage(s, &shape))
}

/// The unary op NumPy's `array ** scalar` runs instead of `power` for a float or complex array:
/// `square` for 2, `reciprocal` for -1, `sqrt` for 0.5 (NumPy's `fast_scalar_power`; the first two
/// give `power`'s values exactly, `sqrt` differs from `pow(x, 0.5)` only at -0 and -inf, where
/// NumPy's answer is sqrt's). Integer arrays squared too (the same wrapped values, without the
/// general loop).
fn fast_power(loop_dtype: DType, e: &Scalar) -> Option<UnaryOp> {
    let v = match *e {
        Scalar::Int(i) => i as f64,
        Scalar::Uint(u) => u as f64,
        Scalar::Float(f) => f,
        _ => return None,
    };
    let inexact = matches!(loop_dtype.kind(), Kind::Float | Kind::Complex);
    match v {
        2.0 if loop_dtype.kind() != Kind::Bool => Some(UnaryOp::Square),
        -1.0 if inexact => Some(UnaryOp::Reciprocal),
        0.5 if inexact => Some(UnaryOp::Sqrt),
        _ => None,
    }
}

/// NumPy's `same_kind` casting rule, used for `out` arguments.
pub(crate) fn can_cast_same_kind(from: DType, to: DType) -> bool {
    let rank = |d: DType| match d.kind() {
        Kind::Bool => 0,
        Kind::Uint => 1,
        Kind::Int => 2,
        Kind::Float => 3,
        Kind::Complex => 4,
    };
    rank(from) <= rank(to)
}

/// Write `result` into `out`, which must have exactly the result's shape and accept its dtype
/// under `same_kind` casting (NumPy's rule for ufunc outputs).
pub(crate) fn write_out(op: &'static str, result: &Array, out: &Array) -> Result<()> {
    if result.shape() != out.shape() {
        return Err(Error::ShapeMismatch { op, lhs: result.shape().to_vec(), rhs: out.shape().to_vec() });
    }
    if !can_cast_same_kind(result.dtype(), out.dtype()) {
        return Err(Error::invalid(
            op,
            format!("cannot cast output from {} to {} with casting rule 'same_kind'", result.dtype(), out.dtype()),
        ));
    }
    out.assign(result)
}

/// `where(cond, x, y)`: elements of `x` where `cond` is true, else of `y` (broadcast together;
/// `x` and `y` promoted as a binary op would). Named `where_` because `where` is a Rust keyword.
pub fn where_<'a, 'b>(cond: &Array, x: impl Into<Operand<'a>>, y: impl Into<Operand<'b>>) -> Result<Array> {
    let _r = crate::profiler::range("where");
    let (x, y) = (x.into(), y.into());
    let c = Operand::Array(cond);
    let device = common_device("where", &[&c, &x, &y])?;
    let dtype = xp_core::promote_types(operand_dtype(&x, &y), operand_dtype(&y, &x));
    let (xa, ya) = (materialize(&x, dtype, device)?, materialize(&y, dtype, device)?);
    let ca = cond.cast_if(DType::Bool)?;
    let shape = broadcast_shapes("where", &broadcast_shapes("where", ca.shape(), xa.shape())?, ya.shape())?;
    let lc = ca.layout.broadcast_to("where", &shape)?;
    let lx = xa.layout.broadcast_to("where", &shape)?;
    let ly = ya.layout.broadcast_to("where", &shape)?;
    let reads = crate::backend::Reads::lock(&[&ca, &xa, &ya]);
    let s = crate::backend::on_many!(reads.many("where")?, v => v[0].where_cond(&lc, v[1], &lx, v[2], &ly))?;
    Ok(Array::from_storage(s, &shape))
}

/// The dtype NumPy's `add.reduce`/`multiply.reduce` (and `sum`, `prod`, `cumsum`) use: small
/// integers and bool widen to the 64-bit integer of their signedness.
pub(crate) fn sum_dtype(d: DType) -> DType {
    match d.kind() {
        Kind::Bool | Kind::Int => DType::I64,
        Kind::Uint => DType::U64,
        _ => d,
    }
}

/// The dtype a reduction accumulates in: float16 and bfloat16 accumulate in float32.
pub(crate) fn acc_dtype(d: DType) -> DType {
    match d {
        DType::F16 | DType::BF16 => DType::F32,
        d => d,
    }
}

/// Shape after reducing `axes`, with or without kept unit axes.
pub(crate) fn reduced_shape(shape: &[usize], axes: &[usize], keepdims: bool) -> Vec<usize> {
    (0..shape.len()).filter_map(|i| if axes.contains(&i) { keepdims.then_some(1) } else { Some(shape[i]) }).collect()
}

/// Reduce `a` over `axes` with `op` on the loop dtype `dtype` (the input is cast to it), then cast
/// the result to `out_dtype`. Empty reductions use the op's identity or fail.
pub(crate) fn reduce_raw(
    op: BinaryOp,
    name: &'static str,
    a: &Array,
    axes: Option<&[isize]>,
    keepdims: bool,
    dtype: DType,
    out_dtype: DType,
) -> Result<Array> {
    let _r = crate::profiler::range(name);
    let ax = normalize_axes(name, axes, a.ndim())?;
    if ax.len() > 1 && !op.is_reorderable() {
        return Err(Error::invalid(
            name,
            format!("reduction operation '{}' is not reorderable, so at most one axis may be specified", op.name()),
        ));
    }
    let shape = reduced_shape(a.shape(), &ax, keepdims);
    let nr: usize = ax.iter().map(|&i| a.shape()[i]).product();
    let x = a.cast_if(dtype)?;
    let r = if ax.is_empty() {
        x.copy()?
    } else if nr == 0 {
        let id = op.identity(dtype).ok_or(Error::EmptyReduction { op: name })?;
        Array::from_storage(crate::backend::full(a.device(), xp_core::numel(&shape), id, dtype)?, &shape)
    } else {
        let s = on_storage!(&*x.read(), s => s.reduce(&x.layout, op, &ax))?;
        Array::from_storage(s, &shape)
    };
    r.reshape_exact(&shape)?.cast_if(out_dtype)
}

/// The ufunc methods of a binary op, as in NumPy (`np.add.reduce(a)` is `BinaryOp::Add.reduce(&a, ..)`).
pub trait BinaryUfunc {
    /// Apply the op elementwise: `np.<op>(a, b)`.
    fn call<'a, 'b>(self, a: impl Into<Operand<'a>>, b: impl Into<Operand<'b>>) -> Result<Array>;
    /// Reduce over `axes` (`..`: all; see [`crate::Axes`]); `add` and `multiply` widen small
    /// integers to 64 bits.
    fn reduce(self, a: &Array, axes: impl IntoAxes) -> Result<Array>;
    /// [`BinaryUfunc::reduce`] keeping the reduced axes with length 1 (NumPy's `keepdims=True`).
    fn reduce_keepdim(self, a: &Array, axes: impl IntoAxes) -> Result<Array>;
    /// Inclusive running application along `axis`.
    fn accumulate(self, a: &Array, axis: isize) -> Result<Array>;
    /// `op(a[i, j, ...], b[k, l, ...])` for every pair: shape `a.shape + b.shape`.
    fn outer(self, a: &Array, b: &Array) -> Result<Array>;
    /// NumPy's `ufunc.at(a, index, v)`: `a[index] = op(a[index], v)` once per occurrence of each
    /// index, in order, so that duplicate indices accumulate (`np.add.at`). The result must keep
    /// `a`'s dtype (`v` is cast to it); out-of-range indices raise and leave `a` unchanged.
    fn at<'a>(self, a: &Array, index: impl crate::IntoIndex, v: impl Into<Operand<'a>>) -> Result<()>;
}

fn reduce_dtypes(op: BinaryOp, d: DType) -> Result<(DType, DType)> {
    if matches!(op, BinaryOp::Add | BinaryOp::Mul) {
        let s = sum_dtype(d);
        let (l, _) = op.resolve(s, s)?;
        return Ok((acc_dtype(l), l));
    }
    if matches!(op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr | BinaryOp::LogicalXor) {
        return Ok((DType::Bool, DType::Bool));
    }
    let (l, out) = op.resolve(d, d)?;
    if l != out {
        return Err(Error::invalid(
            op.name(),
            format!("reduction of {} on {} is not defined: its output dtype differs", op.name(), d),
        ));
    }
    Ok((l, l))
}

/// Integer `power` reductions raise to every element after the first along the axis: refuse
/// negative exponents among those, as NumPy does.
fn check_int_power(op: BinaryOp, a: &Array, loop_dtype: DType, axis: usize) -> Result<()> {
    if op != BinaryOp::Pow || loop_dtype.kind() != Kind::Int || a.ndim() == 0 {
        return Ok(());
    }
    let mut idx = vec![xp_core::SliceElem::FULL; a.ndim()];
    idx[axis] = xp_core::SliceElem::from(1..);
    if a.slice(idx)?.lt(0)?.any(..)?.item::<bool>()? {
        return Err(Error::invalid("power", "integers to negative integer powers are not allowed"));
    }
    Ok(())
}

fn ufunc_reduce(op: BinaryOp, a: &Array, axes: &Axes, keepdims: bool) -> Result<Array> {
    let (l, out) = reduce_dtypes(op, a.dtype())?;
    for ax in axes.normalize(op.name(), a.ndim())? {
        check_int_power(op, a, l, ax)?;
    }
    reduce_raw(op, op.name(), a, axes.as_option(), keepdims, l, out)
}

impl BinaryUfunc for BinaryOp {
    fn call<'a, 'b>(self, a: impl Into<Operand<'a>>, b: impl Into<Operand<'b>>) -> Result<Array> {
        binary(self, a, b)
    }
    fn reduce(self, a: &Array, axes: impl IntoAxes) -> Result<Array> {
        ufunc_reduce(self, a, &axes.into_axes(), false)
    }
    fn reduce_keepdim(self, a: &Array, axes: impl IntoAxes) -> Result<Array> {
        ufunc_reduce(self, a, &axes.into_axes(), true)
    }
    fn accumulate(self, a: &Array, axis: isize) -> Result<Array> {
        let (l, out) = reduce_dtypes(self, a.dtype())?;
        let ax = normalize_axis(self.name(), axis, a.ndim().max(1))?;
        let x = if a.ndim() == 0 { a.reshape([1])? } else { a.clone() };
        check_int_power(self, &x, l, ax)?;
        let x = x.cast_if(l)?;
        let s = on_storage!(&*x.read(), s => s.scan(&x.layout, self, ax))?;
        Array::from_storage(s, x.shape()).cast_if(out)
    }
    fn outer(self, a: &Array, b: &Array) -> Result<Array> {
        let mut shape_a = a.shape().to_vec();
        shape_a.extend(std::iter::repeat_n(1, b.ndim()));
        let a2 = a.reshape_exact(&shape_a)?;
        binary(self, &a2, b)
    }
    fn at<'a>(self, a: &Array, index: impl crate::IntoIndex, v: impl Into<Operand<'a>>) -> Result<()> {
        crate::index::ufunc_at(self, a, index.into_index(), &v.into())
    }
}

/// The call of a unary op, as in NumPy (`np.exp(a)` is `UnaryOp::Exp.call(&a)`).
pub trait UnaryUfunc {
    /// Apply the op elementwise.
    fn call(self, a: &Array) -> Result<Array>;
}

impl UnaryUfunc for UnaryOp {
    fn call(self, a: &Array) -> Result<Array> {
        unary(self, a)
    }
}

macro_rules! unary_fns {
    ($($(#[$m:meta])* $method:ident / $free:ident => $op:ident;)*) => {
        impl Array {$(
            $(#[$m])*
            pub fn $method(&self) -> Result<Array> { unary(UnaryOp::$op, self) }
        )*}
        $(
            $(#[$m])*
            pub fn $free(a: &Array) -> Result<Array> { unary(UnaryOp::$op, a) }
        )*
    };
}

/// The `out` form of every unary op: `unary_out(UnaryOp::Exp, &a, &out)` writes `exp(a)` into `out`.
pub fn unary_out(op: UnaryOp, a: &Array, out: &Array) -> Result<()> {
    write_out(op.name(), &unary(op, a)?, out)
}

unary_fns! {
    /// Elementwise `-x` (NumPy `negative`; refused for bool as NumPy does).
    neg / negative => Neg;
    /// Elementwise `+x` (a copy).
    positive / positive => Pos;
    /// Absolute value; the magnitude for complex (real dtype).
    abs / absolute => Abs;
    /// Sign: -1, 0, 1 (NaN for NaN); `z/|z|` for complex.
    sign / sign => Sign;
    /// `1/x` (integer division for integers).
    reciprocal / reciprocal => Reciprocal;
    /// `e^x`
    exp / exp => Exp;
    /// `2^x`
    exp2 / exp2 => Exp2;
    /// `e^x - 1`, accurate near 0
    expm1 / expm1 => Expm1;
    /// natural logarithm
    log / log => Log;
    /// base-2 logarithm
    log2 / log2 => Log2;
    /// base-10 logarithm
    log10 / log10 => Log10;
    /// `ln(1 + x)`, accurate near 0
    log1p / log1p => Log1p;
    /// square root
    sqrt / sqrt => Sqrt;
    /// cube root
    cbrt / cbrt => Cbrt;
    /// `x * x`
    square / square => Square;
    /// sine
    sin / sin => Sin;
    /// cosine
    cos / cos => Cos;
    /// tangent
    tan / tan => Tan;
    /// inverse sine
    arcsin / arcsin => Arcsin;
    /// inverse cosine
    arccos / arccos => Arccos;
    /// inverse tangent
    arctan / arctan => Arctan;
    /// hyperbolic sine
    sinh / sinh => Sinh;
    /// hyperbolic cosine
    cosh / cosh => Cosh;
    /// hyperbolic tangent
    tanh / tanh => Tanh;
    /// inverse hyperbolic sine
    arcsinh / arcsinh => Arcsinh;
    /// inverse hyperbolic cosine
    arccosh / arccosh => Arccosh;
    /// inverse hyperbolic tangent
    arctanh / arctanh => Arctanh;
    /// round toward -inf (integers unchanged)
    floor / floor => Floor;
    /// round toward +inf (integers unchanged)
    ceil / ceil => Ceil;
    /// round toward 0 (integers unchanged)
    trunc / trunc => Trunc;
    /// round to nearest, ties to even
    rint / rint => Rint;
    /// NaN test
    isnan / isnan => IsNan;
    /// infinity test
    isinf / isinf => IsInf;
    /// finite test
    isfinite / isfinite => IsFinite;
    /// logical not (bool result)
    logical_not / logical_not => LogicalNot;
    /// bitwise not (NumPy `invert`)
    invert / invert => Invert;
    /// complex conjugate
    conj / conjugate => Conj;
    /// real part (the array itself for real dtypes)
    real / real => Real;
    /// imaginary part (zeros for real dtypes)
    imag / imag => Imag;
    /// angle of a complex number (float64 for integers)
    angle / angle => Angle;
}

macro_rules! binary_fns {
    ($($(#[$m:meta])* $method:ident / $free:ident / $out:ident => $op:ident;)*) => {
        impl Array {$(
            $(#[$m])*
            pub fn $method<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<Array> { binary(BinaryOp::$op, self, rhs) }
            #[doc = concat!("`", stringify!($method), "` written into `out` (same shape as the result; `same_kind` casting).")]
            pub fn $out<'a>(&self, rhs: impl Into<Operand<'a>>, out: &Array) -> Result<()> {
                write_out(BinaryOp::$op.name(), &binary(BinaryOp::$op, self, rhs)?, out)
            }
        )*}
        $(
            $(#[$m])*
            pub fn $free<'a, 'b>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'b>>) -> Result<Array> { binary(BinaryOp::$op, a, b) }
        )*
    };
}

binary_fns! {
    /// `a + b` (bool: logical or)
    add / add / add_out => Add;
    /// `a - b` (NumPy `subtract`; refused for bool)
    sub / subtract / sub_out => Sub;
    /// `a * b` (bool: logical and)
    mul / multiply / mul_out => Mul;
    /// true division `a / b` (integers divide in float64)
    div / divide / div_out => Div;
    /// floor division `a // b` (Python semantics; integer division by zero gives 0)
    floor_divide / floor_divide / floor_divide_out => FloorDiv;
    /// remainder with the sign of the divisor (Python `%`)
    remainder / remainder / remainder_out => Rem;
    /// `a ** b` (integers to negative integer powers are refused)
    pow / power / pow_out => Pow;
    /// elementwise maximum, NaN-propagating
    maximum / maximum / maximum_out => Max;
    /// elementwise minimum, NaN-propagating
    minimum / minimum / minimum_out => Min;
    /// elementwise maximum, ignoring NaN
    fmax / fmax / fmax_out => Fmax;
    /// elementwise minimum, ignoring NaN
    fmin / fmin / fmin_out => Fmin;
    /// `atan2(a, b)`
    arctan2 / arctan2 / arctan2_out => Arctan2;
    /// `sqrt(a² + b²)` without overflow
    hypot / hypot / hypot_out => Hypot;
    /// `log(exp(a) + exp(b))` without overflow
    logaddexp / logaddexp / logaddexp_out => LogAddExp;
    /// magnitude of `a` with the sign of `b`
    copysign / copysign / copysign_out => CopySign;
    /// `a == b`
    equal / equal / equal_out => Eq;
    /// `a != b`
    not_equal / not_equal / not_equal_out => Ne;
    /// `a < b`
    lt / less / less_out => Lt;
    /// `a <= b`
    le / less_equal / less_equal_out => Le;
    /// `a > b`
    gt / greater / greater_out => Gt;
    /// `a >= b`
    ge / greater_equal / greater_equal_out => Ge;
    /// logical and (bool result)
    logical_and / logical_and / logical_and_out => LogicalAnd;
    /// logical or (bool result)
    logical_or / logical_or / logical_or_out => LogicalOr;
    /// logical xor (bool result)
    logical_xor / logical_xor / logical_xor_out => LogicalXor;
    /// bitwise and
    bitwise_and / bitwise_and / bitwise_and_out => BitAnd;
    /// bitwise or
    bitwise_or / bitwise_or / bitwise_or_out => BitOr;
    /// bitwise xor
    bitwise_xor / bitwise_xor / bitwise_xor_out => BitXor;
    /// `a << b` (0 when b is out of range)
    left_shift / left_shift / left_shift_out => Shl;
    /// `a >> b` (sign fill when b is out of range)
    right_shift / right_shift / right_shift_out => Shr;
}

/// `==` and `!=` under the names Rust users try first. `Array` implements neither `PartialEq`
/// nor `Iterator`, so without these `a.eq(&b)` would resolve to `Iterator::eq` and fail with a
/// message about iterators; like [`Array::lt`] they compare elementwise and give a bool array.
///
/// ```
/// let a = xp::Array::from_vec(vec![1, 2, 3], [3]).unwrap();
/// assert_eq!(a.eq(2).unwrap().to_vec::<bool>().unwrap(), vec![false, true, false]);
/// assert_eq!(a.ne(&a).unwrap().any(..).unwrap().item::<bool>().unwrap(), false);
/// ```
impl Array {
    /// `a == b` elementwise ([`Array::equal`]).
    #[allow(clippy::should_implement_trait)]
    pub fn eq<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<Array> {
        binary(BinaryOp::Eq, self, rhs)
    }
    /// `a != b` elementwise ([`Array::not_equal`]).
    #[allow(clippy::should_implement_trait)]
    pub fn ne<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<Array> {
        binary(BinaryOp::Ne, self, rhs)
    }
}

impl Array {
    /// Clip to `[lo, hi]` (either bound may be None): `minimum(maximum(a, lo), hi)`.
    pub fn clip<'a, 'b>(
        &self,
        lo: Option<impl Into<Operand<'a>>>,
        hi: Option<impl Into<Operand<'b>>>,
    ) -> Result<Array> {
        let mut r = self.clone();
        if let Some(lo) = lo {
            r = r.maximum(lo)?;
        }
        if let Some(hi) = hi {
            r = r.minimum(hi)?;
        }
        Ok(r)
    }
}
