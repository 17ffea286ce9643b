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
    use std::cmp::Ordering;

    /// NumPy's order of floats: NaNs last, `-0.0 == 0.0`.
    fn less(a: f32, b: f32) -> bool {
        !a.is_nan() && (b.is_nan() || a < b)
    }

    /// A sorted run of `n` floats with many ties, zeros of both signs and NaNs.
    fn run(n: usize, seed: f32) -> Vec<f32> {
        let mut v: Vec<f32> = (0..n)
            .map(|i| match i % 97 {
                0 => f32::NAN,
                1 => -0.0,
                _ => ((i as f32 * seed).sin() * 100.0).floor(),
            })
            .collect();
        v.sort_by(|a, b| {
            if less(*a, *b) {
                Ordering::Less
            } else if less(*b, *a) {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        });
        v
    }

    #[test]
    fn merges_on_the_gpu_as_a_stable_merge_on_the_host() {
        use xp_core::{BackendDevice, BackendStorage, HostBuffer, Layout};
        let Ok(dev) = crate::CudaDevice::new(0) else {
            assert!(std::env::var("XP_REQUIRE_CUDA").is_err(), "XP_REQUIRE_CUDA is set and there is no GPU");
            return;
        };
        for (na, nb, skip) in [(0, 5, 0), (7, 0, 2), (3000, 1500, 0), (50_000, 70_001, 9), (1 << 21, 1 << 20, 100)] {
            let (a, b) = (run(na + skip, 0.7), run(nb + skip, 1.3));
            let (ga, gb) =
                (dev.upload(HostBuffer::F32(a.clone())).unwrap(), dev.upload(HostBuffer::F32(b.clone())).unwrap());
            // runs inside the storages: a without its first `skip` values, b without its last
            let (ra, rb) = (skip..skip + na, 0..nb);
            let got = ga.merge_sorted(ra.clone(), &gb, rb.clone()).unwrap();
            let HostBuffer::F32(got) = got.to_host(&Layout::contiguous(&[na + nb])).unwrap() else { panic!("dtype") };
            let (a, b) = (&a[ra], &b[rb]);
            let (mut i, mut j, mut want) = (0, 0, Vec::with_capacity(na + nb));
            while i < na || j < nb {
                if j == nb || (i < na && !less(b[j], a[i])) {
                    want.push(a[i]);
                    i += 1;
                } else {
                    want.push(b[j]);
                    j += 1;
                }
            }
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert!(bits(&got) == bits(&want), "merge of {na} and {nb} values differs from the host's");
        }
        let g = dev.upload(HostBuffer::F32(vec![1.0; 4])).unwrap();
        assert!(g.merge_sorted(0..5, &g, 0..1).is_err(), "a run past the end");
        let i = dev.upload(HostBuffer::I64(vec![1; 4])).unwrap();
        assert!(g.merge_sorted(0..1, &i, 0..1).is_err(), "two dtypes");
    }

    #[test]
    fn the_merge_kernels_parse_for_every_dtype() {
        for d in xp_core::DType::ALL {
            syntax_check(&format!("merge-{}", d.name()), &merge_src(d));
        }
    }
}
