//! Index spaces of launches: the `Idx` struct kernels take by value (same-shaped layouts,
//! contiguous dimensions collapsed), the split of a layout into kept and reduced axes, and the
//! widest vector width an alignment allows.
use cudarc::driver::DeviceRepr;
use xp_core::{collapse, Error, Layout, Result};

const MAXD: usize = 12;

/// The index space of a launch, passed by value (mirrors `struct Idx` of the prelude).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Idx {
    pub(crate) n: i64,
    pub(crate) nd: i64,
    pub(crate) shape: [i64; MAXD],
    pub(crate) st: [[i64; MAXD]; 4],
    pub(crate) off: [i64; 4],
}

// SAFETY: plain #[repr(C)] integers, laid out as the prelude's `Idx`.
unsafe impl DeviceRepr for Idx {}

/// The index space of same-shaped layouts (the output first), contiguous dimensions collapsed.
pub(crate) fn idx(layouts: &[&Layout]) -> Result<Idx> {
    let (shape, strides) = collapse(layouts);
    if shape.len() > MAXD {
        return Err(Error::Unsupported { op: "more than 12 non-mergeable dimensions", backend: "cuda" });
    }
    let mut ix = Idx {
        n: shape.iter().product::<usize>() as i64,
        nd: shape.len() as i64,
        shape: [1; MAXD],
        st: [[0; MAXD]; 4],
        off: [0; 4],
    };
    for (d, &n) in shape.iter().enumerate() {
        ix.shape[d] = n as i64;
    }
    for (k, l) in layouts.iter().enumerate() {
        ix.off[k] = l.offset() as i64;
        for (d, &s) in strides[k].iter().enumerate() {
            ix.st[k][d] = s as i64;
        }
    }
    Ok(ix)
}

/// The widest vector width, halving from `v` (a power of two), for which `aligned(width)` holds;
/// 1 (scalar accesses) at worst.
pub(crate) fn vector_width(mut v: usize, aligned: impl Fn(usize) -> bool) -> usize {
    while v > 1 && !aligned(v) {
        v /= 2;
    }
    v.max(1)
}

pub(crate) fn split(l: &Layout, axes: &[usize]) -> (Layout, Layout) {
    let kept: Vec<usize> = (0..l.ndim()).filter(|a| !axes.contains(a)).collect();
    let part = |ax: &[usize], off: usize| {
        Layout::new(ax.iter().map(|&a| l.shape()[a]).collect(), ax.iter().map(|&a| l.strides()[a]).collect(), off)
    };
    (part(&kept, l.offset()), part(axes, 0))
}
