//! The stable merge of two sorted lines on the GPU (merge path, `merge.cu`), in NumPy's order
//! through the sorts' keys (`key_lt`: NaNs last): what the distributed sort merges the sorted runs
//! it receives with, reading and writing each value once where a second sort would make several
//! passes.
use super::{keys, radix};
use crate::codegen::PRELUDE;
use crate::runtime::buffer::CudaStorage;
use crate::runtime::launch::{blocks_cfg, cfg, Family, Key, Source};
use std::ops::Range;
use xp_core::{Device, Error, Result};

const MERGE: &str = include_str!("merge.cu");
/// Outputs per block of the merge kernel (`MERGE_TILE` in `merge.cu`).
const TILE: usize = 2048;

/// The merge kernels' source for `d`.
pub(crate) fn merge_src(d: xp_core::DType) -> String {
    format!("{PRELUDE}\n{}\n{}\n{MERGE}", keys::header(d), radix::RANK)
}

impl CudaStorage {
    /// The elements `a` of `self` and `b` of `other` (of one dtype, on one device, each run
    /// sorted in NumPy's order: NaNs last) merged into one sorted line, `self`'s values first
    /// among equals. Queued on the current stream; nothing waits for the device.
    pub fn merge_sorted(&self, a: Range<usize>, other: &CudaStorage, b: Range<usize>) -> Result<CudaStorage> {
        let op = "merge_sorted";
        if a.start > a.end || a.end > self.len || b.start > b.end || b.end > other.len {
            return Err(Error::invalid(op, format!("runs {a:?} and {b:?} of {} and {} elements", self.len, other.len)));
        }
        if self.dev.ordinal != other.dev.ordinal {
            return Err(Error::DeviceMismatch {
                op,
                lhs: Device::Cuda(self.dev.ordinal),
                rhs: Device::Cuda(other.dev.ordinal),
            });
        }
        if other.dtype != self.dtype {
            return Err(Error::InvalidDType { op, dtype: other.dtype });
        }
        let d = self.dtype;
        let (na, nb) = (a.len(), b.len());
        let out = CudaStorage::alloc(&self.dev, d, na + nb)?;
        if na + nb == 0 {
            return Ok(out);
        }
        let tiles = (na + nb).div_ceil(TILE);
        let cuts = CudaStorage::alloc(&self.dev, xp_core::DType::I64, tiles + 1)?;
        let key = Key::new(Family::Merge).dtype(d);
        let [kc, km] = self.dev.kernels(key, ["merge_cuts", "merge"], || Source::new(d.name(), merge_src(d)))?;
        let (na, nb, tiles) = (na as i64, nb as i64, tiles as i64);
        let w = self.dev.work(&[self, other, &out, &cuts])?;
        let (pa, pb) = (self.ptr(a.start), other.ptr(b.start));
        // SAFETY: parameters match the kernels; `pa` addresses na values of `self`, `pb` nb of
        // `other` (ranges checked above), `out` holds na + nb,
        // `cuts` tiles + 1 (every index the kernels form lies below those counts).
        unsafe {
            w.launch(&kc, cfg(tiles + 1), &[&cuts.buf.ptr, &pa, &na, &pb, &nb, &tiles])?;
            w.launch(&km, blocks_cfg(tiles), &[&out.buf.ptr, &pa, &na, &pb, &nb, &cuts.buf.ptr, &tiles])?;
        }
        w.done()?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::tests_support::syntax_check;

    #[test]
    fn the_merge_kernels_parse_for_every_dtype() {
        for d in xp_core::DType::ALL {
            syntax_check(&format!("merge-{}", d.name()), &merge_src(d));
        }
    }
}
