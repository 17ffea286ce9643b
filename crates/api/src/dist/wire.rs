//! How each dtype travels through NCCL: its `ncclDataType_t`, values per element, and the
//! reduction NCCL runs for a [`ReduceOp`] (NumPy's meaning kept: a sum of bools is a logical
//! or; a complex sum adds the parts).
use super::ReduceOp;
use xp_core::{DType, Error, Result};

/// A dtype as NCCL carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wire {
    /// `ncclDataType_t`
    pub ty: i32,
    /// NCCL values per element (2: a complex number's parts; 2 bytes: a 16-bit integer moved)
    pub per: usize,
    /// `ncclRedOp_t` of the reduction (0 where none)
    pub op: i32,
}

const I8: i32 = 0;
const U8: i32 = 1;
const I32: i32 = 2;
const U32: i32 = 3;
const I64: i32 = 4;
const U64: i32 = 5;
const F16: i32 = 6;
const F32: i32 = 7;
const F64: i32 = 8;
const BF16: i32 = 9;

/// `ncclRedOp_t` codes.
fn code(op: ReduceOp) -> i32 {
    match op {
        ReduceOp::Sum => 0,
        ReduceOp::Prod => 1,
        ReduceOp::Max => 2,
        ReduceOp::Min => 3,
        ReduceOp::Avg => 4,
    }
}

/// How `dtype` travels for the reduction `red` (`None`: a collective that only moves data), or
/// `InvalidDType` where NCCL cannot compute it: the mean of integers or bools, the product,
/// maximum or minimum of complex numbers, any reduction of 16-bit integers (NCCL has no such
/// type; they move as bytes).
pub(crate) fn wire(op: &'static str, dtype: DType, red: Option<ReduceOp>) -> Result<Wire> {
    let bad = || Err(Error::InvalidDType { op, dtype });
    if red == Some(ReduceOp::Avg) && !dtype.is_inexact() {
        return bad();
    }
    let (ty, per, red) = match dtype {
        DType::Bool => {
            let r = red.map(|r| match r {
                ReduceOp::Sum | ReduceOp::Max => ReduceOp::Max,
                _ => ReduceOp::Min,
            });
            (U8, 1, r)
        }
        DType::I8 => (I8, 1, red),
        DType::U8 => (U8, 1, red),
        DType::I16 | DType::U16 if red.is_none() => (U8, 2, None),
        DType::I16 | DType::U16 => return bad(),
        DType::I32 => (I32, 1, red),
        DType::U32 => (U32, 1, red),
        DType::I64 => (I64, 1, red),
        DType::U64 => (U64, 1, red),
        DType::F16 => (F16, 1, red),
        DType::BF16 => (BF16, 1, red),
        DType::F32 => (F32, 1, red),
        DType::F64 => (F64, 1, red),
        DType::C64 | DType::C128 => {
            if matches!(red, Some(ReduceOp::Prod | ReduceOp::Max | ReduceOp::Min)) {
                return bad();
            }
            (if dtype == DType::C64 { F32 } else { F64 }, 2, red)
        }
    };
    Ok(Wire { ty, per, op: red.map_or(0, code) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dtype_travels_or_is_refused_by_name() {
        for d in DType::ALL {
            assert!(wire("x", d, None).is_ok(), "{d} moves");
            for r in [ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min, ReduceOp::Avg] {
                let w = wire("x", d, Some(r));
                let refused = matches!(d, DType::I16 | DType::U16)
                    || (r == ReduceOp::Avg && !d.is_inexact())
                    || (d.is_complex() && r != ReduceOp::Sum && r != ReduceOp::Avg);
                assert_eq!(w.is_err(), refused, "{d} {r:?}");
                if let Err(e) = w {
                    assert!(matches!(e, Error::InvalidDType { dtype, .. } if dtype == d));
                }
            }
        }
        assert_eq!(wire("x", DType::Bool, Some(ReduceOp::Sum)).unwrap(), Wire { ty: U8, per: 1, op: 2 });
        assert_eq!(wire("x", DType::Bool, Some(ReduceOp::Prod)).unwrap(), Wire { ty: U8, per: 1, op: 3 });
        assert_eq!(wire("x", DType::C128, Some(ReduceOp::Sum)).unwrap(), Wire { ty: F64, per: 2, op: 0 });
        assert_eq!(wire("x", DType::I16, None).unwrap(), Wire { ty: U8, per: 2, op: 0 });
    }
}
