//! The CPU's FFT plan cache (CuPy's `get_plan_cache()` for the host): plans by length, kind and
//! precision, the least recently used dropped beyond the capacity, hits and misses counted.
//! rustfft's planner memoises too, but only inside one planner and without a bound; this cache
//! is the one the user can see and size.
use realfft::{ComplexToReal, RealFftPlanner, RealToComplex};
use rustfft::{Fft, FftNum, FftPlanner};
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use xp_core::PlanCacheInfo;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Which {
    Forward,
    Inverse,
    RealForward,
    RealInverse,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    n: usize,
    which: Which,
    precision: TypeId,
}

struct Cache {
    /// each plan as the `Arc<dyn …<T>>` it is, with the tick of its last use
    plans: HashMap<Key, (Box<dyn Any + Send>, u64)>,
    tick: u64,
    info: PlanCacheInfo,
}

static CACHE: Mutex<Option<Cache>> = Mutex::new(None);

fn with<R>(f: impl FnOnce(&mut Cache) -> R) -> R {
    let mut g = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let c = g.get_or_insert_with(|| Cache {
        plans: HashMap::new(),
        tick: 0,
        info: PlanCacheInfo { capacity: PlanCacheInfo::DEFAULT_CAPACITY, ..PlanCacheInfo::default() },
    });
    f(c)
}

impl Cache {
    fn evict(&mut self) {
        while self.plans.len() > self.info.capacity {
            let oldest = self.plans.iter().min_by_key(|(_, (_, t))| *t).map(|(k, _)| *k);
            match oldest {
                Some(k) => self.plans.remove(&k),
                None => break,
            };
        }
        self.info.size = self.plans.len();
    }
}

/// The plan under `key`, made by `make` (outside the lock: planning a large prime length takes a
/// while) when the cache lacks it.
fn get<P: Clone + Send + 'static>(key: Key, make: impl FnOnce() -> P) -> P {
    let found = with(|c| {
        c.tick += 1;
        let t = c.tick;
        let p = c.plans.get_mut(&key).map(|(p, used)| {
            *used = t;
            p.downcast_ref::<P>().expect("a key names one plan type").clone()
        });
        if p.is_some() {
            c.info.hits += 1;
        }
        p
    });
    if let Some(p) = found {
        return p;
    }
    let p = make();
    with(|c| {
        c.info.misses += 1;
        c.tick += 1;
        let t = c.tick;
        c.plans.insert(key, (Box::new(p.clone()), t));
        c.evict();
    });
    p
}

fn key<T: 'static>(n: usize, which: Which) -> Key {
    Key { n, which, precision: TypeId::of::<T>() }
}

/// The complex transform of length `n`, forward or inverse (unscaled).
pub(super) fn c2c<T: FftNum>(n: usize, inverse: bool) -> Arc<dyn Fft<T>> {
    let which = if inverse { Which::Inverse } else { Which::Forward };
    get(key::<T>(n, which), || {
        let mut p = FftPlanner::new();
        if inverse {
            p.plan_fft_inverse(n)
        } else {
            p.plan_fft_forward(n)
        }
    })
}

/// The real-to-complex transform of `n` reals.
pub(super) fn r2c<T: FftNum>(n: usize) -> Arc<dyn RealToComplex<T>> {
    get(key::<T>(n, Which::RealForward), || RealFftPlanner::new().plan_fft_forward(n))
}

/// The complex-to-real transform giving `n` reals (unscaled).
pub(super) fn c2r<T: FftNum>(n: usize) -> Arc<dyn ComplexToReal<T>> {
    get(key::<T>(n, Which::RealInverse), || RealFftPlanner::new().plan_fft_inverse(n))
}

/// The cache's state.
pub fn info() -> PlanCacheInfo {
    with(|c| c.info)
}

/// Keep at most `capacity` plans (0: cache none), dropping the least recently used.
pub fn set_capacity(capacity: usize) {
    with(|c| {
        c.info.capacity = capacity;
        c.evict();
    })
}

/// Drop every plan and reset the counts (the capacity stays).
pub fn clear() {
    with(|c| {
        c.plans.clear();
        c.info = PlanCacheInfo { capacity: c.info.capacity, ..PlanCacheInfo::default() };
    })
}
