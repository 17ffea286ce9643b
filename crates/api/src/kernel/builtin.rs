//! Helpers for xp's own elementwise and reduction kernels (windows, `interp`, `upfirdn`, the
//! running extremes, the interpolations, the NaN-skipping sums): each definition made once and
//! kept, and a stand-in operand that gives a kernel with no array input its output shape.
use super::ElementwiseKernel;
use crate::Array;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, OnceLock};
use xp_core::{DType, Device, Result};

/// The kernel in `cell`, made by `make` the first time.
pub(crate) fn once<T>(cell: &'static OnceLock<T>, make: impl FnOnce() -> Result<T>) -> Result<&'static T> {
    if let Some(k) = cell.get() {
        return Ok(k);
    }
    let k = make()?;
    Ok(cell.get_or_init(|| k))
}

/// Kernels generated per key (a shape of the generated source), each made once.
pub(crate) type Generated<K> = Mutex<Option<HashMap<K, ElementwiseKernel>>>;

/// The kernel for `key` in `cache`, made by `make` the first time.
pub(crate) fn per_key<K: Hash + Eq>(
    cache: &Generated<K>,
    key: K,
    make: impl FnOnce() -> Result<ElementwiseKernel>,
) -> Result<ElementwiseKernel> {
    let mut g = cache.lock().unwrap_or_else(|e| e.into_inner());
    let map = g.get_or_insert_with(HashMap::new);
    if let Some(k) = map.get(&key) {
        return Ok(k.clone());
    }
    let k = make()?;
    map.insert(key, k.clone());
    Ok(k)
}

/// A broadcast zero of `shape` on `device`: a kernel's output shape for one byte read (the body
/// works from the element's index `i`).
pub(crate) fn shape_only(shape: &[usize], device: Device) -> Result<Array> {
    crate::on(device).zeros([], DType::I8)?.broadcast_to(shape)
}
