//! The 15 element types of xp and their properties.
//!
//! ```
//! use xp_core::DType;
//! assert_eq!(DType::F32.name(), "float32");
//! assert_eq!(DType::from_name("complex128"), Some(DType::C128));
//! assert_eq!(DType::C64.to_real(), DType::F32);
//! ```
use std::fmt;

/// The kind of a dtype, NumPy's `dtype.kind` without the letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `bool`
    Bool,
    /// signed integers
    Int,
    /// unsigned integers
    Uint,
    /// real floating point (float16, bfloat16, float32, float64)
    Float,
    /// complex floating point
    Complex,
}

/// An element type. The names follow NumPy (`bfloat16` follows `ml_dtypes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// `bool`
    Bool,
    /// `int8`
    I8,
    /// `int16`
    I16,
    /// `int32`
    I32,
    /// `int64`
    I64,
    /// `uint8`
    U8,
    /// `uint16`
    U16,
    /// `uint32`
    U32,
    /// `uint64`
    U64,
    /// `float16` (IEEE half)
    F16,
    /// `bfloat16`
    BF16,
    /// `float32`
    F32,
    /// `float64`
    F64,
    /// `complex64` (two float32)
    C64,
    /// `complex128` (two float64)
    C128,
}

impl DType {
    /// All dtypes, in NumPy's type-character order (`?bhilqBHILQefdFD`, bfloat16 after float16).
    pub const ALL: [DType; 15] = [
        DType::Bool,
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::U8,
        DType::U16,
        DType::U32,
        DType::U64,
        DType::F16,
        DType::BF16,
        DType::F32,
        DType::F64,
        DType::C64,
        DType::C128,
    ];

    /// NumPy's name for the dtype.
    pub const fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::I8 => "int8",
            DType::I16 => "int16",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::U8 => "uint8",
            DType::U16 => "uint16",
            DType::U32 => "uint32",
            DType::U64 => "uint64",
            DType::F16 => "float16",
            DType::BF16 => "bfloat16",
            DType::F32 => "float32",
            DType::F64 => "float64",
            DType::C64 => "complex64",
            DType::C128 => "complex128",
        }
    }

    /// The dtype with NumPy's name `name`, if any.
    pub fn from_name(name: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Size of one element in bytes.
    pub const fn size(self) -> usize {
        match self {
            DType::Bool | DType::I8 | DType::U8 => 1,
            DType::I16 | DType::U16 | DType::F16 | DType::BF16 => 2,
            DType::I32 | DType::U32 | DType::F32 => 4,
            DType::I64 | DType::U64 | DType::F64 | DType::C64 => 8,
            DType::C128 => 16,
        }
    }

    /// The kind of the dtype.
    pub const fn kind(self) -> Kind {
        match self {
            DType::Bool => Kind::Bool,
            DType::I8 | DType::I16 | DType::I32 | DType::I64 => Kind::Int,
            DType::U8 | DType::U16 | DType::U32 | DType::U64 => Kind::Uint,
            DType::F16 | DType::BF16 | DType::F32 | DType::F64 => Kind::Float,
            DType::C64 | DType::C128 => Kind::Complex,
        }
    }

    /// True for the signed and unsigned integers (not bool).
    pub const fn is_integer(self) -> bool {
        matches!(self.kind(), Kind::Int | Kind::Uint)
    }

    /// True for real floating-point dtypes.
    pub const fn is_float(self) -> bool {
        matches!(self.kind(), Kind::Float)
    }

    /// True for complex dtypes.
    pub const fn is_complex(self) -> bool {
        matches!(self.kind(), Kind::Complex)
    }

    /// True for real or complex floating-point dtypes (NumPy's `inexact`).
    pub const fn is_inexact(self) -> bool {
        self.is_float() || self.is_complex()
    }

    /// The real dtype of a complex one (`complex64` → `float32`); other dtypes map to themselves.
    pub const fn to_real(self) -> DType {
        match self {
            DType::C64 => DType::F32,
            DType::C128 => DType::F64,
            d => d,
        }
    }

    /// The complex dtype that holds this real dtype (`float32` → `complex64`, float16 and bfloat16
    /// → `complex64`, everything else → `complex128`).
    pub const fn to_complex(self) -> DType {
        match self {
            DType::F16 | DType::BF16 | DType::F32 | DType::C64 => DType::C64,
            _ => DType::C128,
        }
    }

    /// Number of bits of an integer dtype (8 for bool).
    pub const fn bits(self) -> u32 {
        (self.size() * 8) as u32
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
