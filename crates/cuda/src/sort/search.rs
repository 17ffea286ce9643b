//! `searchsorted`: a thread per element of `v` (any layout), a binary search over the sorted 1-D
//! line (any stride and offset) in NumPy's order, through the same keys as the sorts
//! (`key_lt`), so NaNs sort last and `-0.0` equals `+0.0` here as there.
use super::{keys, radix};
use crate::codegen::PRELUDE;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::launch::{cfg, Family, Key, Source};
use crate::space::idx;
use xp_core::{DType, Device, Error, Layout, Result, Side};

const SEARCH: &str = include_str!("search.cu");

/// The search kernel's source for `d`.
pub(crate) fn search_src(d: DType) -> String {
    format!("{PRELUDE}\n{}\n{}\n{SEARCH}", keys::header(d), radix::RANK)
}

impl CudaStorage {
    /// For each element of `v` at `vl`, its insertion position (int64) in the sorted line `self`
    /// at `l`; the result is C-contiguous with `vl`'s shape.
    pub(crate) fn searchsorted_impl(
        &self,
        l: &Layout,
        v: &CudaStorage,
        vl: &Layout,
        side: Side,
    ) -> Result<CudaStorage> {
        if self.dev.ordinal != v.dev.ordinal {
            return Err(Error::DeviceMismatch {
                op: "searchsorted",
                lhs: Device::Cuda(self.dev.ordinal),
                rhs: Device::Cuda(v.dev.ordinal),
            });
        }
        if v.dtype != self.dtype {
            return Err(Error::InvalidDType { op: "searchsorted", dtype: v.dtype });
        }
        if l.ndim() != 1 {
            return Err(Error::Unsupported { op: "searchsorted in an array that is not 1-D", backend: "cuda" });
        }
        let out = CudaStorage::alloc(&self.dev, DType::I64, vl.numel())?;
        if vl.numel() == 0 {
            return Ok(out);
        }
        let d = self.dtype;
        let ol = Layout::contiguous(vl.shape());
        let ix = idx(&[&ol, vl])?;
        let (n, sa) = (l.shape()[0] as i64, l.strides()[0] as i64);
        // An empty line is never read: every position is 0.
        let a = if n > 0 { self.ptr(l.offset()) } else { self.ptr(0) };
        let right = (side == Side::Right) as i32;
        let key = Key::new(Family::SearchSorted).dtype(d);
        let k = self.dev.kernel(key, "searchsorted", || Source::new(d.name(), search_src(d)))?;
        let w = self.dev.work(&[self, v, &out])?;
        // SAFETY: parameters match the kernel; the searched positions 0..n at stride sa lie inside
        // `self` (a validated 1-D layout), ix addresses `v` at vl and the contiguous output.
        unsafe { w.launch(&k, cfg(ix.n), &[&out.buf.ptr, &a, &n, &sa, &v.buf.ptr, &ix, &right]) }?;
        w.done()?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;

    #[test]
    fn the_search_kernel_parses_for_every_dtype() {
        for d in DType::ALL {
            syntax_check(&format!("search-{}", d.name()), &search_src(d));
        }
    }
}
