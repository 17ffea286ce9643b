//! The sort family on the GPU (to be written): radix sorts of order-preserving keys, segmented
//! sorts along an axis, binary search.
use crate::CudaStorage;
use xp_core::SortStorage;

impl SortStorage for CudaStorage {}
