//! What a raw kernel's body calls (`use xp::kernel::gpu::*;`): the builtins (`thread_idx().x`
//! …), the block's barrier, warp shuffles, shared arrays and [`RawMut`], the writable view of a
//! whole array. A `#[xp::raw_kernel]` runs on a GPU, where these are CUDA's; natively (the plain
//! function the macro keeps) they behave as one thread of a one-thread block, so that the
//! function compiles and can be stepped through by hand.
//!
//! ```
//! use xp::kernel::gpu::*;
//! use xp::kernel::{Float, Raw};
//!
//! #[xp::raw_kernel]
//! fn saxpy<T: Float>(a: T, x: Raw<T>, y: Raw<T>, out: RawMut<T>, n: i64) {
//!     let i = (block_idx().x * block_dim().x + thread_idx().x) as i64;
//!     if i < n {
//!         out.set(i, a * x.at(i) + y.at(i));
//!     }
//! }
//! // saxpy::launch(grid, block, 2.0f32, &x, &y, &out, n) on a GPU; on the CPU a typed
//! // KernelUnsupported
//! let x = xp::Array::from_vec(vec![1.0f32; 4], [4]).unwrap();
//! let out = xp::zeros([4], xp::DType::F32).unwrap();
//! let r = saxpy::launch(1, 32, 2.0f32, &x, &x, &out, 4i64);
//! assert!(r.is_ok() || matches!(r, Err(xp::Error::KernelUnsupported { .. })));
//! ```
use xp_core::kernel::rust::{Col, Elem};
use xp_core::DType;

/// The value of a builtin: `thread_idx().x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Idx3 {
    /// x
    pub x: u32,
    /// y
    pub y: u32,
    /// z
    pub z: u32,
}

/// The thread's index in its block (0 here).
pub fn thread_idx() -> Idx3 {
    Idx3 { x: 0, y: 0, z: 0 }
}
/// The block's index in the grid (0 here).
pub fn block_idx() -> Idx3 {
    Idx3 { x: 0, y: 0, z: 0 }
}
/// The block's size (1 here).
pub fn block_dim() -> Idx3 {
    Idx3 { x: 1, y: 1, z: 1 }
}
/// The grid's size (1 here).
pub fn grid_dim() -> Idx3 {
    Idx3 { x: 1, y: 1, z: 1 }
}
/// The thread's lane in its warp.
pub fn lane_id() -> u32 {
    0
}
/// The threads of a warp.
pub fn warp_size() -> u32 {
    32
}
/// The block's barrier.
pub fn sync_threads() {}
/// `v` of lane `lane_id() + delta` (its own here).
pub fn shfl_down<T: Copy>(v: T, _delta: u32) -> T {
    v
}
/// `v` of lane `lane_id() - delta` (its own here).
pub fn shfl_up<T: Copy>(v: T, _delta: u32) -> T {
    v
}
/// `v` of lane `lane_id() ^ mask` (its own here).
pub fn shfl_xor<T: Copy>(v: T, _mask: u32) -> T {
    v
}
/// `v` of lane `lane` (its own here).
pub fn shfl<T: Copy>(v: T, _lane: u32) -> T {
    v
}

/// A block's shared array (one thread's here), of zeros.
pub struct Shared<T, const N: usize>([T; N]);
/// `let s = shared::<T, N>();`
pub fn shared<T: Elem, const N: usize>() -> Shared<T, N> {
    let zero = match T::DTYPE {
        DType::Bool => Col::Bool(&[false]),
        DType::I8 => Col::I8(&[0]),
        DType::I16 => Col::I16(&[0]),
        DType::I32 => Col::I32(&[0]),
        DType::I64 => Col::I64(&[0]),
        DType::U8 => Col::U8(&[0]),
        DType::U16 => Col::U16(&[0]),
        DType::U32 => Col::U32(&[0]),
        DType::U64 => Col::U64(&[0]),
        DType::F32 => Col::F32(&[0.0]),
        DType::F64 => Col::F64(&[0.0]),
        // (no Elem is float16, bfloat16 or complex)
        _ => unreachable!("an Elem dtype"),
    };
    Shared([T::col(&zero).expect("its dtype")[0]; N])
}
impl<T, const N: usize> std::ops::Index<usize> for Shared<T, N> {
    type Output = T;
    fn index(&self, j: usize) -> &T {
        &self.0[j]
    }
}
impl<T, const N: usize> std::ops::IndexMut<usize> for Shared<T, N> {
    fn index_mut(&mut self, j: usize) -> &mut T {
        &mut self.0[j]
    }
}

/// A whole array of a `RawMut<T>` parameter, written by index (through `&self`).
pub struct RawMut<'a, T> {
    data: &'a [std::cell::Cell<T>],
}
impl<'a, T: Copy> RawMut<'a, T> {
    /// A view of `data`.
    pub fn new(data: &'a mut [T]) -> Self {
        RawMut { data: std::cell::Cell::from_mut(data).as_slice_of_cells() }
    }
    fn cell(&self, j: i64) -> &std::cell::Cell<T> {
        &self.data[usize::try_from(j).expect("an index")]
    }
    /// Element `j`.
    pub fn at(&self, j: i64) -> T {
        self.cell(j).get()
    }
    /// The number of elements.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> i64 {
        self.data.len() as i64
    }
    /// `self[j] = v`
    pub fn set(&self, j: i64, v: T) {
        self.cell(j).set(v)
    }
    /// `self[j] = v`; the old value
    pub fn atomic_exch(&self, j: i64, v: T) -> T {
        self.cell(j).replace(v)
    }
}
impl<T: Copy + PartialOrd + std::ops::Add<Output = T> + std::ops::Sub<Output = T>> RawMut<'_, T> {
    /// `self[j] += v`; the old value
    pub fn atomic_add(&self, j: i64, v: T) -> T {
        let old = self.at(j);
        self.set(j, old + v);
        old
    }
    /// `self[j] -= v`; the old value
    pub fn atomic_sub(&self, j: i64, v: T) -> T {
        let old = self.at(j);
        self.set(j, old - v);
        old
    }
    /// `self[j] = max(self[j], v)`; the old value
    pub fn atomic_max(&self, j: i64, v: T) -> T {
        let old = self.at(j);
        if v > old {
            self.set(j, v);
        }
        old
    }
    /// `self[j] = min(self[j], v)`; the old value
    pub fn atomic_min(&self, j: i64, v: T) -> T {
        let old = self.at(j);
        if v < old {
            self.set(j, v);
        }
        old
    }
    /// `self[j] = v` where `self[j] == compare`; the old value
    pub fn atomic_cas(&self, j: i64, compare: T, v: T) -> T {
        let old = self.at(j);
        if old == compare {
            self.set(j, v);
        }
        old
    }
}
