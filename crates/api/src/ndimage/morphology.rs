//! Mathematical morphology (SciPy's `ndimage` binary and grey operations with flat structuring
//! elements), composed of the rank filters (`minimum_filter`/`maximum_filter` over a footprint)
//! and `label`, so it runs where the input lives.
//!
//! ```
//! use xp::ndimage::{binary_dilation, binary_erosion, binary_fill_holes, Morphology};
//! let ring = xp::Array::from_vec(
//!     vec![0u8, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0],
//!     &[5, 5],
//! )
//! .unwrap();
//! let filled = binary_fill_holes(&ring, None).unwrap();
//! assert_eq!(filled.sum(..).unwrap().item::<i64>().unwrap(), 9);
//! let eroded = binary_erosion(&filled, Morphology::default()).unwrap();
//! assert_eq!(eroded.sum(..).unwrap().item::<i64>().unwrap(), 1);
//! let grown = binary_dilation(&eroded, Morphology::default()).unwrap();
//! assert_eq!(grown.sum(..).unwrap().item::<i64>().unwrap(), 5);
//! ```
use super::{generate_binary_structure, label, maximum_filter, minimum_filter, Filter, Mode, Window};
use crate::Array;
use xp_core::{DType, Error, Result};

/// The options of the binary operations (SciPy's keyword arguments and their defaults):
/// `structure` (`None`: `generate_binary_structure(rank, 1)`), `iterations` (1), `border_value`
/// (false) and `origin` (0 on every axis, or one per axis).
#[derive(Clone, Copy, Debug)]
pub struct Morphology<'a> {
    /// the structuring element (non-zero = part of it), one axis per input axis
    pub structure: Option<&'a Array>,
    /// how many times the operation is repeated
    pub iterations: usize,
    /// the value outside the input
    pub border_value: bool,
    /// the element's origin: one value for every axis, or one per axis
    pub origin: &'a [isize],
}

impl Default for Morphology<'_> {
    fn default() -> Self {
        Morphology { structure: None, iterations: 1, border_value: false, origin: &[0] }
    }
}

fn structure_of(input: &Array, s: Option<&Array>) -> Result<Array> {
    match s {
        Some(s) if s.ndim() != input.ndim() => Err(Error::invalid(
            "binary morphology",
            format!("structure has {} axes, the input {}", s.ndim(), input.ndim()),
        )),
        Some(s) => s.not_equal(0),
        None => generate_binary_structure(input.ndim(), 1),
    }
}

/// SciPy's dilation origin: the element reflected, the origin negated, and moved by one along
/// an axis of even length.
fn reflected(fp: &Array, origin: &[isize]) -> Result<(Array, Vec<isize>)> {
    let nd = fp.ndim();
    let o: Vec<isize> = (0..nd)
        .map(|a| {
            let v = if origin.len() == 1 { origin[0] } else { origin.get(a).copied().unwrap_or(0) };
            -v - fp.shape()[a].is_multiple_of(2) as isize
        })
        .collect();
    Ok((fp.flip(..)?.ascontiguousarray()?, o))
}

fn border(b: bool) -> Mode {
    Mode::Constant(if b { 1.0 } else { 0.0 })
}

/// SciPy's `binary_erosion`: an element stays true where the structure, placed on it, covers only
/// true elements (outside the input: `border_value`); repeated `iterations` times.
pub fn binary_erosion(input: &Array, m: Morphology) -> Result<Array> {
    let fp = structure_of(input, m.structure)?.to_device(input.device())?;
    let mut x = input.not_equal(0)?;
    for _ in 0..m.iterations.max(1) {
        x = minimum_filter(&x, Window::Footprint(&fp), Filter { mode: border(m.border_value), origin: m.origin })?;
    }
    Ok(x)
}

/// SciPy's `binary_dilation`: an element becomes true where the reflected structure, placed on
/// it, covers a true element; repeated `iterations` times.
pub fn binary_dilation(input: &Array, m: Morphology) -> Result<Array> {
    let fp = structure_of(input, m.structure)?.to_device(input.device())?;
    let (rfp, o) = reflected(&fp, m.origin)?;
    let mut x = input.not_equal(0)?;
    for _ in 0..m.iterations.max(1) {
        x = maximum_filter(&x, Window::Footprint(&rfp), Filter { mode: border(m.border_value), origin: &o })?;
    }
    Ok(x)
}

/// SciPy's `binary_opening`: erosion, then dilation (each `iterations` times).
pub fn binary_opening(input: &Array, m: Morphology) -> Result<Array> {
    binary_dilation(&binary_erosion(input, m)?, m)
}

/// SciPy's `binary_closing`: dilation, then erosion (each `iterations` times).
pub fn binary_closing(input: &Array, m: Morphology) -> Result<Array> {
    binary_erosion(&binary_dilation(input, m)?, m)
}

/// SciPy's `binary_fill_holes`: the false regions that do not reach the border (under the
/// `structure`'s connectivity, default faces only) made true.
pub fn binary_fill_holes(input: &Array, structure: Option<&Array>) -> Result<Array> {
    let fg = input.not_equal(0)?;
    let st = structure_of(input, structure)?;
    let bg = fg.logical_not()?;
    // the background with a layer of background around it: every region that reaches the border
    // joins the layer's component
    let widths: Vec<(usize, usize)> = vec![(1, 1); input.ndim()];
    let padded = bg.pad(&widths, crate::PadMode::Constant(xp_core::Scalar::Bool(true)))?;
    let lab = label(&padded, Some(&st))?.labels;
    let outside = lab.reshape_exact(&[lab.size()])?.slice(crate::s![0])?; // the corner: the border's label
    let inner: Vec<xp_core::SliceElem> =
        (0..input.ndim()).map(|_| xp_core::SliceElem::Slice { start: Some(1), stop: Some(-1), step: 1 }).collect();
    let hole = lab.slice(inner)?.not_equal(&outside)?.logical_and(&bg)?;
    fg.logical_or(&hole)
}

/// SciPy's `iterate_structure(structure, iterations)`: the structure dilated by itself
/// `iterations - 1` times, grown by `iterations - 1` elements at each end of every axis.
pub fn iterate_structure(structure: &Array, iterations: usize) -> Result<Array> {
    let s = structure.not_equal(0)?;
    if iterations <= 1 {
        return Ok(s);
    }
    let grow = iterations - 1;
    let widths: Vec<(usize, usize)> = s.shape().iter().map(|&n| (grow * (n / 2), grow * (n / 2))).collect();
    let padded = s.pad(&widths, crate::PadMode::Constant(xp_core::Scalar::Bool(false)))?;
    let m = Morphology { structure: Some(&s), iterations: grow, ..Default::default() };
    binary_dilation(&padded, m)
}

/// The grey options: a box `size` or a flat `footprint` (SciPy's `size`/`footprint`), the border
/// `mode` and the `origin`.
fn grey(input: &Array, window: Window, mode: Mode, origin: &[isize], max: bool) -> Result<Array> {
    if input.dtype() == DType::Bool || input.dtype().is_complex() {
        return Err(Error::InvalidDType {
            op: if max { "grey_dilation" } else { "grey_erosion" },
            dtype: input.dtype(),
        });
    }
    if !max {
        return minimum_filter(input, window, Filter { mode, origin });
    }
    match window {
        Window::Footprint(fp) => {
            let (rfp, o) = reflected(&fp.not_equal(0)?, origin)?;
            maximum_filter(input, Window::Footprint(&rfp), Filter { mode, origin: &o })
        }
        Window::Size(size) => {
            let nd = input.ndim();
            let o: Vec<isize> = (0..nd)
                .map(|a| {
                    let v = if origin.len() == 1 { origin[0] } else { origin.get(a).copied().unwrap_or(0) };
                    let n = if size.len() == 1 { size[0] } else { size.get(a).copied().unwrap_or(1) };
                    -v - n.is_multiple_of(2) as isize
                })
                .collect();
            maximum_filter(input, Window::Size(size), Filter { mode, origin: &o })
        }
    }
}

/// SciPy's `grey_erosion` with a flat element: the minimum over the window.
pub fn grey_erosion(input: &Array, window: Window, f: Filter) -> Result<Array> {
    grey(input, window, f.mode, f.origin, false)
}

/// SciPy's `grey_dilation` with a flat element: the maximum over the reflected window.
pub fn grey_dilation(input: &Array, window: Window, f: Filter) -> Result<Array> {
    grey(input, window, f.mode, f.origin, true)
}

/// SciPy's `grey_opening`: erosion, then dilation.
pub fn grey_opening(input: &Array, window: Window, f: Filter) -> Result<Array> {
    grey_dilation(&grey_erosion(input, window, f)?, window, f)
}

/// SciPy's `grey_closing`: dilation, then erosion.
pub fn grey_closing(input: &Array, window: Window, f: Filter) -> Result<Array> {
    grey_erosion(&grey_dilation(input, window, f)?, window, f)
}

/// SciPy's `morphological_gradient`: dilation minus erosion.
pub fn morphological_gradient(input: &Array, window: Window, f: Filter) -> Result<Array> {
    grey_dilation(input, window, f)?.sub(&grey_erosion(input, window, f)?)
}
