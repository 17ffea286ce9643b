//! Operator sugar: `&a + &b`, `&a * 2.0`, `-&a`, ...
//!
//! These panic on error, as std's operators do, with the error's message (shape mismatch, mixed
//! devices, ...). Use the methods (`a.add(&b)?`) for a `Result`.
//!
//! ```
//! let a = xp::arange(0.0, 3.0, 1.0, None).unwrap();
//! let b = &(&a * 2.0) + &a;
//! assert_eq!(b.to_vec::<f64>().unwrap(), vec![0.0, 3.0, 6.0]);
//! ```
//!
//! In place, NumPy's `a += b` (`+= -= *= /= %= &= |= ^= <<= >>=`): the result is written into
//! `a`'s own storage (every view of it sees the change) on `a`'s device, with NumPy's `same_kind`
//! casting (`int_array += 1.5` is refused, as NumPy refuses it). `a.add_out(&b, &a)` is the
//! `Result` form.
//!
//! ```
//! let mut a = xp::arange(0.0, 3.0, 1.0, None).unwrap();
//! let view = a.clone(); // shares storage, as a NumPy view does
//! a += 1.0;
//! a *= &view;
//! assert_eq!(view.to_vec::<f64>().unwrap(), vec![1.0, 4.0, 9.0]);
//! ```
use crate::ufunc::{binary, unary, Operand};
use crate::Array;
use xp_core::{BinaryOp, UnaryOp};

fn expect(r: xp_core::Result<Array>) -> Array {
    r.unwrap_or_else(|e| panic!("xp operator failed: {e}"))
}

macro_rules! binop {
    ($($tr:ident $m:ident => $op:ident),*) => {$(
        impl<'a> std::ops::$tr<&'a Array> for &Array {
            type Output = Array;
            fn $m(self, rhs: &'a Array) -> Array { expect(binary(BinaryOp::$op, self, rhs)) }
        }
        impl<'a> std::ops::$tr<Operand<'a>> for &Array {
            type Output = Array;
            fn $m(self, rhs: Operand<'a>) -> Array { expect(binary(BinaryOp::$op, self, rhs)) }
        }
        binop_scalars!($tr $m $op: bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);
    )*};
}
macro_rules! binop_scalars {
    ($tr:ident $m:ident $op:ident: $($t:ty),*) => {$(
        impl std::ops::$tr<$t> for &Array {
            type Output = Array;
            fn $m(self, rhs: $t) -> Array { expect(binary(BinaryOp::$op, self, rhs)) }
        }
        impl std::ops::$tr<&Array> for $t {
            type Output = Array;
            fn $m(self, rhs: &Array) -> Array { expect(binary(BinaryOp::$op, self, rhs)) }
        }
    )*};
}
binop!(Add add => Add, Sub sub => Sub, Mul mul => Mul, Div div => Div, Rem rem => Rem,
    BitAnd bitand => BitAnd, BitOr bitor => BitOr, BitXor bitxor => BitXor, Shl shl => Shl, Shr shr => Shr);

impl std::ops::Neg for &Array {
    type Output = Array;
    fn neg(self) -> Array {
        expect(unary(UnaryOp::Neg, self))
    }
}
impl std::ops::Not for &Array {
    type Output = Array;
    /// Bitwise not (logical not for bool), as NumPy's `~`.
    fn not(self) -> Array {
        expect(unary(UnaryOp::Invert, self))
    }
}

// In-place sugar (`a += b`): see the module docs.
macro_rules! assignop {
    ($($tr:ident $m:ident => $op:ident),*) => {$(
        impl<'a> std::ops::$tr<&'a Array> for Array {
            fn $m(&mut self, rhs: &'a Array) { assign_in_place(BinaryOp::$op, self, rhs.into()) }
        }
        impl<'a> std::ops::$tr<Operand<'a>> for Array {
            fn $m(&mut self, rhs: Operand<'a>) { assign_in_place(BinaryOp::$op, self, rhs) }
        }
        assignop_scalars!($tr $m $op: bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);
    )*};
}
macro_rules! assignop_scalars {
    ($tr:ident $m:ident $op:ident: $($t:ty),*) => {$(
        impl std::ops::$tr<$t> for Array {
            fn $m(&mut self, rhs: $t) { assign_in_place(BinaryOp::$op, self, rhs.into()) }
        }
    )*};
}

fn assign_in_place(op: BinaryOp, a: &Array, rhs: Operand<'_>) {
    let r = binary(op, a, rhs).and_then(|r| crate::ufunc::write_out(op.name(), &r, a));
    r.unwrap_or_else(|e| panic!("xp operator failed: {e}"))
}

assignop!(AddAssign add_assign => Add, SubAssign sub_assign => Sub, MulAssign mul_assign => Mul,
    DivAssign div_assign => Div, RemAssign rem_assign => Rem, BitAndAssign bitand_assign => BitAnd,
    BitOrAssign bitor_assign => BitOr, BitXorAssign bitxor_assign => BitXor, ShlAssign shl_assign => Shl,
    ShrAssign shr_assign => Shr);
