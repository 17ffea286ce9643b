//! A cache of large host buffers, in the spirit of CuPy's memory pool: a dropped buffer of at
//! least [`MIN_BYTES`] is kept (up to a total of [`limit`] bytes) and handed to the next request
//! for the same dtype and length. Repeated operations on large arrays then reuse memory that is
//! already mapped, instead of paying the kernel's page faults and zeroing on every call. Fresh
//! large allocations are advised to use transparent huge pages, as NumPy does.
//!
//! ```
//! xp_cpu::pool::free_all_blocks();
//! assert_eq!(xp_cpu::pool::cached_bytes(), 0);
//! ```
use std::collections::HashMap;
use std::sync::Mutex;
use xp_core::{DType, Element, HostBuffer};

/// Buffers smaller than this go straight back to the allocator.
pub const MIN_BYTES: usize = 1 << 20;

struct Pool {
    blocks: HashMap<(DType, usize), Vec<HostBuffer>>,
    bytes: usize,
    limit: usize,
}

static POOL: Mutex<Option<Pool>> = Mutex::new(None);

fn with_pool<R>(f: impl FnOnce(&mut Pool) -> R) -> R {
    let mut g = POOL.lock().unwrap_or_else(|e| e.into_inner());
    f(g.get_or_insert_with(|| Pool { blocks: HashMap::new(), bytes: 0, limit: 2 << 30 }))
}

/// Bytes held in the cache now.
pub fn cached_bytes() -> usize {
    with_pool(|p| p.bytes)
}

/// The most bytes the cache keeps (default 2 GiB).
pub fn limit() -> usize {
    with_pool(|p| p.limit)
}

/// Set the most bytes the cache keeps (0 disables it), releasing blocks above it.
pub fn set_limit(bytes: usize) {
    with_pool(|p| {
        p.limit = bytes;
        if p.bytes > bytes {
            p.blocks.clear();
            p.bytes = 0;
        }
    })
}

/// Return every cached block to the allocator.
pub fn free_all_blocks() {
    with_pool(|p| {
        p.blocks.clear();
        p.bytes = 0;
    })
}

/// Keep a buffer that is no longer used, if it is large and fits under the limit.
pub(crate) fn give(buf: HostBuffer) {
    let bytes = buf.len() * buf.dtype().size();
    if bytes < MIN_BYTES {
        return;
    }
    with_pool(|p| {
        if p.bytes + bytes <= p.limit {
            p.bytes += bytes;
            p.blocks.entry((buf.dtype(), buf.len())).or_default().push(buf);
        }
    })
}

/// An empty vector with room for exactly `n` elements: a cached block when one fits, else a
/// fresh allocation (advised to use huge pages when large).
pub fn alloc<T: Element>(n: usize) -> Vec<T> {
    if n * std::mem::size_of::<T>() >= MIN_BYTES {
        let hit = with_pool(|p| {
            let list = p.blocks.get_mut(&(T::DTYPE, n))?;
            let b = list.pop()?;
            p.bytes -= n * T::DTYPE.size();
            Some(b)
        });
        if let Some(mut b) = hit {
            if let Some(v) = take_vec::<T>(&mut b) {
                return v;
            }
        }
    }
    let v = Vec::with_capacity(n);
    advise_huge(v.as_ptr() as usize, n * std::mem::size_of::<T>());
    v
}

/// Move the vector out of a buffer of element type `T`, emptied (length 0, capacity kept).
fn take_vec<T: Element>(b: &mut HostBuffer) -> Option<Vec<T>> {
    T::slice_of(b)?;
    let mut v = match std::mem::replace(b, HostBuffer::Bool(Vec::new())) {
        HostBuffer::Bool(v) => into_typed::<bool, T>(v),
        HostBuffer::I8(v) => into_typed::<i8, T>(v),
        HostBuffer::I16(v) => into_typed::<i16, T>(v),
        HostBuffer::I32(v) => into_typed::<i32, T>(v),
        HostBuffer::I64(v) => into_typed::<i64, T>(v),
        HostBuffer::U8(v) => into_typed::<u8, T>(v),
        HostBuffer::U16(v) => into_typed::<u16, T>(v),
        HostBuffer::U32(v) => into_typed::<u32, T>(v),
        HostBuffer::U64(v) => into_typed::<u64, T>(v),
        HostBuffer::F16(v) => into_typed::<xp_core::f16, T>(v),
        HostBuffer::BF16(v) => into_typed::<xp_core::bf16, T>(v),
        HostBuffer::F32(v) => into_typed::<f32, T>(v),
        HostBuffer::F64(v) => into_typed::<f64, T>(v),
        HostBuffer::C64(v) => into_typed::<xp_core::Complex32, T>(v),
        HostBuffer::C128(v) => into_typed::<xp_core::Complex64, T>(v),
    }?;
    v.clear();
    Some(v)
}

/// `Vec<A>` as `Vec<B>` when A and B are the same type (checked through the dtype).
fn into_typed<A: Element, B: Element>(v: Vec<A>) -> Option<Vec<B>> {
    if A::DTYPE != B::DTYPE {
        return None;
    }
    let mut v = std::mem::ManuallyDrop::new(v);
    // SAFETY: equal dtypes mean A and B are the same Rust type (Element is implemented once per
    // dtype), so pointer, length, capacity and allocation layout carry over unchanged.
    Some(unsafe { Vec::from_raw_parts(v.as_mut_ptr() as *mut B, v.len(), v.capacity()) })
}

#[cfg(target_os = "linux")]
pub(crate) fn advise_huge(addr: usize, bytes: usize) {
    const HUGE: usize = 2 << 20;
    if bytes < 2 * HUGE {
        return;
    }
    let start = addr.div_ceil(HUGE) * HUGE;
    let end = (addr + bytes) / HUGE * HUGE;
    if end > start {
        // SAFETY: the range lies inside an allocation we own; MADV_HUGEPAGE is only advice and
        // changes no contents (an error, e.g. THP disabled, is ignored).
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn advise_huge(_: usize, _: usize) {}
