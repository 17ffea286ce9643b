//! The FFT family in a build without the `fft` feature (which leaves rustfft and realfft out):
//! every transform answers [`Error::FeatureDisabled`], and the plan cache stays empty.
use crate::CpuStorage;
use xp_core::{Error, FftSpec, FftStorage, Layout, Result};

impl FftStorage for CpuStorage {
    fn fft(&self, _l: &Layout, _spec: &FftSpec<'_>) -> Result<Self> {
        Err(Error::FeatureDisabled { op: "fft", backend: "cpu", feature: "fft" })
    }
}

/// The plan cache of a build without FFTs: it keeps no plan, but remembers its capacity.
pub mod plan {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use xp_core::PlanCacheInfo;

    /// the capacity the user set (the default until then)
    static CAPACITY: AtomicUsize = AtomicUsize::new(PlanCacheInfo::DEFAULT_CAPACITY);

    /// The cache's state: empty.
    pub fn info() -> PlanCacheInfo {
        PlanCacheInfo { capacity: CAPACITY.load(Ordering::Relaxed), ..PlanCacheInfo::default() }
    }

    /// Keep at most `capacity` plans (there are none to keep).
    pub fn set_capacity(capacity: usize) {
        CAPACITY.store(capacity, Ordering::Relaxed);
    }

    /// Drop every plan (there are none).
    pub fn clear() {}
}
