//! NumPy's advanced indexing reduced to one gather or scatter (see `xp_core::IndexSet`):
//! basic elements index a view; integer arrays (broadcast together) address consecutive axes
//! of that view, moved to the front first when the advanced elements are separated (NumPy's
//! rule); a boolean array stands for the integer arrays of its `nonzero`, or, alone, is a mask
//! for compaction.
use super::item::IndexItem;
use crate::Array;
use xp_core::{broadcast_shapes, DType, Error, Kind, Layout, Result, SliceElem};

/// An index resolved against an array.
pub(crate) enum Plan {
    /// basic indexing only: a view
    View(Layout),
    /// one boolean mask over axes `axis .. axis + mask.ndim()` of the view
    Mask { view: Layout, axis: usize, mask: Array },
    /// integer arrays (int64, C-contiguous, shape `shape`) over axes `axis ..` of the view;
    /// `axes[j]`: the axis of the indexed array that array `j` addresses (for errors)
    Gather { view: Layout, axis: usize, arrays: Vec<Array>, shape: Vec<usize>, axes: Vec<usize> },
}

/// An index array as NumPy accepts it: on the array's device, integer or boolean.
fn check_array(a: &Array, x: &Array) -> Result<()> {
    if x.device() != a.device() {
        return Err(Error::DeviceMismatch { op: "index", lhs: a.device(), rhs: x.device() });
    }
    match x.dtype().kind() {
        Kind::Bool | Kind::Int | Kind::Uint => Ok(()),
        _ => Err(Error::IndexDType { op: "index", dtype: x.dtype() }),
    }
}

/// Dimensions of the indexed array an item consumes.
fn consumes(it: &IndexItem) -> usize {
    match it {
        IndexItem::Basic(SliceElem::Index(_) | SliceElem::Slice { .. }) => 1,
        IndexItem::Basic(_) => 0,
        IndexItem::Array(x) if x.dtype() == DType::Bool => x.ndim(),
        IndexItem::Array(_) => 1,
    }
}

pub(crate) fn plan(a: &Array, items: Vec<IndexItem>) -> Result<Plan> {
    let nd = a.ndim();
    let used: usize = items.iter().map(consumes).sum();
    if used > nd {
        return Err(Error::TooManyIndices { ndim: nd, given: used });
    }
    let arrays = items.iter().filter(|i| matches!(i, IndexItem::Array(_))).count();
    if arrays == 0 {
        let basic: Vec<SliceElem> =
            items.iter().map(|i| if let IndexItem::Basic(s) = i { *s } else { unreachable!() }).collect();
        return Ok(Plan::View(a.layout.index(&basic)?));
    }
    // Walk the items: basic ones index the view, arrays become full slices whose view axes
    // (and input axes) are recorded.
    let (mut basic, mut in_ax, mut out_ax) = (Vec::new(), 0usize, 0usize);
    let mut adv: Vec<(Array, usize, usize)> = Vec::new(); // (array, view axis, input axis)
    let mut masks: Vec<(Array, usize, usize)> = Vec::new();
    let mut adv_items = Vec::new(); // item positions of advanced elements (integers included)
    for (p, it) in items.iter().enumerate() {
        match it {
            IndexItem::Basic(s) => {
                basic.push(*s);
                match s {
                    SliceElem::Index(_) => {
                        adv_items.push(p);
                        in_ax += 1;
                    }
                    SliceElem::Slice { .. } => (in_ax, out_ax) = (in_ax + 1, out_ax + 1),
                    SliceElem::NewAxis => out_ax += 1,
                    SliceElem::Ellipsis => (in_ax, out_ax) = (in_ax + nd - used, out_ax + nd - used),
                }
            }
            IndexItem::Array(x) => {
                check_array(a, x)?;
                adv_items.push(p);
                if x.dtype() == DType::Bool {
                    if x.ndim() == 0 {
                        return Err(Error::invalid("index", "a 0-d boolean index is not supported; use NEW_AXIS"));
                    }
                    for (d, &m) in x.shape().iter().enumerate() {
                        let size = a.shape()[in_ax + d];
                        if m != size {
                            return Err(Error::BoolIndexMismatch { axis: in_ax + d, size, got: m });
                        }
                    }
                    masks.push((x.clone(), out_ax, in_ax));
                    basic.extend(std::iter::repeat_n(SliceElem::FULL, x.ndim()));
                    (in_ax, out_ax) = (in_ax + x.ndim(), out_ax + x.ndim());
                } else {
                    adv.push((x.clone(), out_ax, in_ax));
                    basic.push(SliceElem::FULL);
                    (in_ax, out_ax) = (in_ax + 1, out_ax + 1);
                }
            }
        }
    }
    let view = a.layout.index(&basic)?;
    if adv.is_empty() && masks.len() == 1 && adv_items.len() == 1 {
        let (mask, axis, _) = masks.pop().expect("one mask");
        return Ok(Plan::Mask { view, axis, mask });
    }
    // Masks become the integer arrays of their nonzero coordinates, in item order.
    for (mask, axis, in_axis) in masks {
        let nz = mask.nonzero_coords()?;
        for d in 0..mask.ndim() {
            let col = nz.slice([SliceElem::FULL, SliceElem::Index(d as isize)])?.copy()?;
            adv.push((col, axis + d, in_axis + d));
        }
    }
    adv.sort_by_key(|x| x.1);
    let mut shape: Vec<usize> = Vec::new();
    for (x, _, _) in &adv {
        shape = broadcast_shapes("index", &shape, x.shape())?;
    }
    let mut arrays = Vec::with_capacity(adv.len());
    for (x, _, _) in &adv {
        let x = x.cast_if(DType::I64)?;
        let b = x.with_layout(x.layout.broadcast_to("index", &shape)?);
        arrays.push(if b.is_contiguous() { b } else { b.copy()? });
    }
    let axes: Vec<usize> = adv.iter().map(|x| x.2).collect();
    let view_axes: Vec<usize> = adv.iter().map(|x| x.1).collect();
    let adjacent = adv_items.windows(2).all(|w| w[1] == w[0] + 1);
    if adjacent {
        Ok(Plan::Gather { view, axis: view_axes[0], arrays, shape, axes })
    } else {
        let mut perm = view_axes.clone();
        perm.extend((0..view.ndim()).filter(|d| !view_axes.contains(d)));
        Ok(Plan::Gather { view: view.permute(&perm)?, axis: 0, arrays, shape, axes })
    }
}
