//! The dispatch enum over backends.
//!
//! One variant per backend; the CUDA variant exists in every build (a stub without the `cuda`
//! feature), so no match arm carries a `#[cfg]`. Methods of one storage dispatch with
//! [`on_storage!`]; methods of two or three storages match the variants pairwise and answer
//! [`Error::DeviceMismatch`] for mixed devices. (`enum_dispatch` was tried for this and dropped:
//! it cannot express the pairwise match, which every binary op needs.)
use crate::Array;
use smallvec::SmallVec;
use std::sync::{Arc, RwLockReadGuard, RwLockWriteGuard};
use xp_core::{BackendDevice, BackendStorage, DType, Device, Error, HostBuffer, Layout, Result, Scalar};
use xp_cpu::{CpuDevice, CpuStorage};

#[cfg(not(xp_cuda))]
pub(crate) use stub::{CudaDevice, CudaStorage};
#[cfg(xp_cuda)]
pub(crate) use xp_cuda::{CudaDevice, CudaStorage};

/// The storage of an array on one of the backends.
#[derive(Debug)]
pub(crate) enum Storage {
    Cpu(CpuStorage),
    Cuda(CudaStorage),
}

/// Call the same method on whichever backend holds the storage, wrapping a storage result.
macro_rules! on_storage {
    ($s:expr, $x:ident => $body:expr) => {
        match $s {
            $crate::backend::Storage::Cpu($x) => $body.map($crate::backend::Storage::Cpu),
            $crate::backend::Storage::Cuda($x) => $body.map($crate::backend::Storage::Cuda),
        }
    };
}
pub(crate) use on_storage;

/// [`on_pair`] for a method whose result is a struct of storages with a `map`.
macro_rules! on_pair_map {
    ($op:expr, $a:expr, $b:expr, $x:ident, $y:ident => $body:expr) => {
        match ($a, $b) {
            ($crate::backend::Storage::Cpu($x), $crate::backend::Storage::Cpu($y)) => {
                $body.map(|r| r.map($crate::backend::Storage::Cpu))
            }
            ($crate::backend::Storage::Cuda($x), $crate::backend::Storage::Cuda($y)) => {
                $body.map(|r| r.map($crate::backend::Storage::Cuda))
            }
            (a, b) => Err(xp_core::Error::DeviceMismatch { op: $op, lhs: a.device(), rhs: b.device() }),
        }
    };
}
pub(crate) use on_pair_map;

/// Call a method on two storages of the same backend.
macro_rules! on_pair {
    ($op:expr, $a:expr, $b:expr, $x:ident, $y:ident => $body:expr) => {
        match ($a, $b) {
            ($crate::backend::Storage::Cpu($x), $crate::backend::Storage::Cpu($y)) => {
                $body.map($crate::backend::Storage::Cpu)
            }
            ($crate::backend::Storage::Cuda($x), $crate::backend::Storage::Cuda($y)) => {
                $body.map($crate::backend::Storage::Cuda)
            }
            (a, b) => Err(xp_core::Error::DeviceMismatch { op: $op, lhs: a.device(), rhs: b.device() }),
        }
    };
}
pub(crate) use on_pair;

/// Call the same method on whichever backend holds the storage, where the method returns a
/// struct of storages (a family's named result with a `map` method, such as
/// [`xp_core::linalg::SvdFactors`]).
macro_rules! on_storage_map {
    ($s:expr, $x:ident => $body:expr) => {
        match $s {
            $crate::backend::Storage::Cpu($x) => $body.map(|r| r.map($crate::backend::Storage::Cpu)),
            $crate::backend::Storage::Cuda($x) => $body.map(|r| r.map($crate::backend::Storage::Cuda)),
        }
    };
}
pub(crate) use on_storage_map;

/// The storages of several arrays, each distinct storage read-locked once and in one global
/// order (by address), whatever the order and repetition of the arrays: an array may appear
/// twice, or share its storage with another, without a second lock on the same storage.
pub(crate) struct Reads<'a> {
    guards: SmallVec<[RwLockReadGuard<'a, Storage>; 4]>,
    slot: SmallVec<[usize; 6]>,
}

impl<'a> Reads<'a> {
    pub(crate) fn lock(arrays: &[&'a Array]) -> Reads<'a> {
        Reads::lock_around(None, arrays).0
    }
    /// The read locks of `arrays` and the write lock of `target` (whose storage none of them
    /// shares), all taken in the one global order, so that two threads locking overlapping sets
    /// never wait on each other in a cycle.
    pub(crate) fn lock_with_write(
        target: &'a Array,
        arrays: &[&'a Array],
    ) -> (Reads<'a>, RwLockWriteGuard<'a, Storage>) {
        let (r, w) = Reads::lock_around(Some(target), arrays);
        (r, w.expect("a target"))
    }
    fn lock_around(
        target: Option<&'a Array>,
        arrays: &[&'a Array],
    ) -> (Reads<'a>, Option<RwLockWriteGuard<'a, Storage>>) {
        let key = |a: &Array| Arc::as_ptr(&a.storage) as usize;
        let mut order: SmallVec<[usize; 6]> = (0..arrays.len()).collect();
        order.sort_unstable_by_key(|&i| (key(arrays[i]), i));
        let (mut guards, mut slot, mut last) = (SmallVec::new(), SmallVec::from_elem(0, arrays.len()), None);
        let mut write = None;
        let mut target = target;
        for i in order {
            if let Some(t) = target.filter(|t| key(t) < key(arrays[i])) {
                write = Some(t.write());
                target = None;
            }
            if last != Some(key(arrays[i])) {
                guards.push(arrays[i].read());
                last = Some(key(arrays[i]));
            }
            slot[i] = guards.len() - 1;
        }
        if let Some(t) = target {
            write = Some(t.write());
        }
        (Reads { guards, slot }, write)
    }
    /// The storage of the i-th array.
    pub(crate) fn get(&self, i: usize) -> &Storage {
        &self.guards[self.slot[i]]
    }
    /// The storages as one backend's, in the order of the arrays.
    pub(crate) fn many(&self, op: &'static str) -> Result<Many<'_>> {
        many(op, (0..self.slot.len()).map(|i| self.get(i)))
    }
}

/// One backend's storages of several operands.
pub(crate) enum Many<'a> {
    Cpu(SmallVec<[&'a CpuStorage; 6]>),
    Cuda(SmallVec<[&'a CudaStorage; 6]>),
}

/// The storages as one backend's, or [`Error::DeviceMismatch`] naming the first two devices that
/// differ.
pub(crate) fn many<'a>(op: &'static str, stores: impl IntoIterator<Item = &'a Storage>) -> Result<Many<'a>> {
    let stores: SmallVec<[&Storage; 6]> = stores.into_iter().collect();
    let first = stores.first().map(|s| s.device());
    if let Some(s) = stores.iter().find(|s| Some(s.device()) != first) {
        return Err(Error::DeviceMismatch { op, lhs: first.expect("nonempty"), rhs: s.device() });
    }
    Ok(match stores.first() {
        Some(Storage::Cuda(_)) => {
            Many::Cuda(stores.iter().map(|s| if let Storage::Cuda(x) = s { x } else { unreachable!() }).collect())
        }
        _ => Many::Cpu(stores.iter().map(|s| if let Storage::Cpu(x) = s { x } else { unreachable!() }).collect()),
    })
}

/// Call a method with the storages of several operands of one backend (see [`Reads`]), wrapping
/// a storage result.
macro_rules! on_many {
    ($many:expr, $xs:ident => $body:expr) => {
        match $many {
            $crate::backend::Many::Cpu($xs) => $body.map($crate::backend::Storage::Cpu),
            $crate::backend::Many::Cuda($xs) => $body.map($crate::backend::Storage::Cuda),
        }
    };
}
pub(crate) use on_many;

/// [`on_many`] for a method whose result is a struct of storages with a `map`.
macro_rules! on_many_map {
    ($many:expr, $xs:ident => $body:expr) => {
        match $many {
            $crate::backend::Many::Cpu($xs) => $body.map(|r| r.map($crate::backend::Storage::Cpu)),
            $crate::backend::Many::Cuda($xs) => $body.map(|r| r.map($crate::backend::Storage::Cuda)),
        }
    };
}
pub(crate) use on_many_map;

impl Storage {
    pub(crate) fn device(&self) -> Device {
        match self {
            Storage::Cpu(s) => s.device(),
            Storage::Cuda(s) => s.device(),
        }
    }
    pub(crate) fn dtype(&self) -> DType {
        match self {
            Storage::Cpu(s) => s.dtype(),
            Storage::Cuda(s) => s.dtype(),
        }
    }
    pub(crate) fn len(&self) -> usize {
        match self {
            Storage::Cpu(s) => s.len(),
            Storage::Cuda(s) => s.len(),
        }
    }
    pub(crate) fn to_host(&self, l: &Layout) -> Result<HostBuffer> {
        match self {
            Storage::Cpu(s) => s.to_host(l),
            Storage::Cuda(s) => s.to_host(l),
        }
    }
    /// A copy of `l` on `device` without a host round trip (GPU to GPU), or `None` where only the
    /// host path applies.
    pub(crate) fn direct_copy(&self, l: &Layout, device: Device) -> Option<Result<Storage>> {
        match (self, device) {
            (Storage::Cuda(s), Device::Cuda(j)) => Some(s.to_device(l, j).map(Storage::Cuda)),
            _ => None,
        }
    }
    /// Copy `self` at `l` into `dst` at `dl`.
    pub(crate) fn copy_into(&self, l: &Layout, dst: &mut Storage, dl: &Layout) -> Result<()> {
        match (self, dst) {
            (Storage::Cpu(a), Storage::Cpu(b)) => a.copy_into(l, b, dl),
            (Storage::Cuda(a), Storage::Cuda(b)) => a.copy_into(l, b, dl),
            (a, b) => Err(Error::DeviceMismatch { op: "copyto", lhs: a.device(), rhs: b.device() }),
        }
    }
}

/// Runs creation requests on the device they name.
pub(crate) fn with_device(
    device: Device,
    cpu: impl FnOnce(&CpuDevice) -> Result<CpuStorage>,
    cuda: impl FnOnce(&CudaDevice) -> Result<CudaStorage>,
) -> Result<Storage> {
    match device {
        Device::Cpu => cpu(&CpuDevice).map(Storage::Cpu),
        Device::Cuda(i) => cuda(&CudaDevice::new(i)?).map(Storage::Cuda),
    }
}

/// Make a storage on `device` from a host buffer.
pub(crate) fn from_host(device: Device, buf: HostBuffer) -> Result<Storage> {
    match device {
        Device::Cpu => CpuDevice.upload(buf).map(Storage::Cpu),
        Device::Cuda(i) => CudaDevice::new(i)?.upload(buf).map(Storage::Cuda),
    }
}

/// `n` copies of a value on `device`.
pub(crate) fn full(device: Device, n: usize, v: Scalar, dtype: DType) -> Result<Storage> {
    with_device(device, |d| d.full(n, v, dtype), |d| d.full(n, v, dtype))
}

/// `n` values of `dist` as `dtype` from `stream`, drawn on `device`, with the distribution's
/// parameters (float64 arrays on `device`, contiguous, of one value or `n`).
pub(crate) fn random(
    device: Device,
    n: usize,
    dtype: DType,
    dist: xp_core::Distribution,
    params: &[&Array],
    stream: xp_core::random::Stream,
) -> Result<Storage> {
    use xp_core::RandomDevice;
    if params.is_empty() {
        return with_device(
            device,
            |d| d.random(n, dtype, dist, &[], stream),
            |d| d.random(n, dtype, dist, &[], stream),
        );
    }
    let reads = Reads::lock(params);
    let many = reads.many("random")?;
    // bound, so that the tuple (which borrows `reads`) is dropped before `reads` is
    #[allow(clippy::let_and_return)]
    let r = match (many, device) {
        (Many::Cpu(v), Device::Cpu) => CpuDevice.random(n, dtype, dist, &v, stream).map(Storage::Cpu),
        (Many::Cuda(v), Device::Cuda(i)) => CudaDevice::new(i)?.random(n, dtype, dist, &v, stream).map(Storage::Cuda),
        (_, d) => Err(Error::DeviceMismatch { op: "random", lhs: d, rhs: params[0].device() }),
    };
    r
}

/// `start + i * step` on `device`.
pub(crate) fn affine(device: Device, n: usize, start: Scalar, step: Scalar, dtype: DType) -> Result<Storage> {
    with_device(device, |d| d.affine(n, start, step, dtype), |d| d.affine(n, start, step, dtype))
}

/// The CUDA backend of a build without the `cuda` feature: every method says so.
#[cfg(not(xp_cuda))]
mod stub {
    use xp_core::{
        ArgReduceOp, BackendDevice, BackendStorage, BinaryOp, DType, Device, Error, HostBuffer, IndexStorage, Layout,
        LinalgStorage, Result, Scalar, SortStorage, UnaryOp,
    };

    fn no<T>() -> Result<T> {
        Err(Error::CudaNotCompiled)
    }

    /// Never constructed: [`CudaDevice::new`] always fails.
    #[derive(Debug)]
    pub struct CudaStorage(std::convert::Infallible);
    /// Never constructed.
    pub struct CudaDevice(std::convert::Infallible);

    impl CudaDevice {
        pub fn new(_: usize) -> Result<CudaDevice> {
            no()
        }
    }

    impl CudaStorage {
        pub fn to_device(&self, _: &Layout, _: usize) -> Result<CudaStorage> {
            match self.0 {}
        }
        pub fn cuda_device(&self) -> CudaDevice {
            match self.0 {}
        }
        pub fn device_ptr(&self) -> u64 {
            match self.0 {}
        }
        pub fn hand_over(&self, _: Option<u64>) -> Result<()> {
            match self.0 {}
        }
        /// # Safety
        /// Never unsafe: always an error.
        pub unsafe fn adopt(
            _: usize,
            _: u64,
            _: DType,
            _: usize,
            _: Option<u64>,
            _: Box<dyn FnOnce() + Send + Sync>,
        ) -> Result<CudaStorage> {
            no()
        }
    }

    impl BackendStorage for CudaStorage {
        const NAME: &'static str = "cuda";
        fn device(&self) -> Device {
            match self.0 {}
        }
        fn dtype(&self) -> DType {
            match self.0 {}
        }
        fn len(&self) -> usize {
            match self.0 {}
        }
        fn to_host(&self, _: &Layout) -> Result<HostBuffer> {
            no()
        }
        fn unary(&self, _: &Layout, _: UnaryOp) -> Result<Self> {
            no()
        }
        fn binary(&self, _: &Layout, _: &Self, _: &Layout, _: BinaryOp) -> Result<Self> {
            no()
        }
        fn where_cond(&self, _: &Layout, _: &Self, _: &Layout, _: &Self, _: &Layout) -> Result<Self> {
            no()
        }
        fn cast(&self, _: &Layout, _: DType) -> Result<Self> {
            no()
        }
        fn copy_into(&self, _: &Layout, _: &mut Self, _: &Layout) -> Result<()> {
            no()
        }
        fn reduce(&self, _: &Layout, _: BinaryOp, _: &[usize]) -> Result<Self> {
            no()
        }
        fn arg_reduce(&self, _: &Layout, _: ArgReduceOp, _: usize) -> Result<Self> {
            no()
        }
        fn scan(&self, _: &Layout, _: BinaryOp, _: usize) -> Result<Self> {
            no()
        }
    }

    /// Never reached: no stub storage exists.
    impl LinalgStorage for CudaStorage {}
    /// Never reached: no stub storage exists.
    impl IndexStorage for CudaStorage {}
    /// Never reached: no stub storage exists.
    impl SortStorage for CudaStorage {}

    impl xp_core::StatsStorage for CudaStorage {}
    /// Never reached: no stub storage exists.
    impl xp_core::SparseStorage for CudaStorage {}
    /// Never reached: no stub storage exists.
    impl xp_core::FftStorage for CudaStorage {}
    /// Never reached: no stub storage exists.
    impl xp_core::FilterStorage for CudaStorage {}
    /// Never reached: no stub device exists.
    impl xp_core::RandomDevice for CudaDevice {}
    /// Never reached: no stub device exists.
    impl xp_core::KernelDevice for CudaDevice {}

    impl BackendDevice for CudaDevice {
        type Storage = CudaStorage;
        fn device(&self) -> Device {
            match self.0 {}
        }
        fn upload(&self, _: HostBuffer) -> Result<CudaStorage> {
            no()
        }
        fn full(&self, _: usize, _: Scalar, _: DType) -> Result<CudaStorage> {
            no()
        }
        fn affine(&self, _: usize, _: Scalar, _: Scalar, _: DType) -> Result<CudaStorage> {
            no()
        }
    }
}
