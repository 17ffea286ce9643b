//! Axis arguments in one form everywhere: all axes (`..`), one axis (`-1`), or several
//! (`[0, 2]`, a slice or a `Vec`), negative axes counting from the end, as NumPy's `axis=None`,
//! `axis=-1` and `axis=(0, 2)`. Keeping the reduced axes is spelled as its own method
//! (`sum_keepdim`) rather than a bare `true`.
//!
//! ```
//! let a = xp::arange(0.0, 24.0, 1.0, None).unwrap().reshape(&[2, 3, 4]).unwrap();
//! assert_eq!(a.sum(..).unwrap().item::<f64>().unwrap(), 276.0);
//! assert_eq!(a.sum(-1).unwrap().shape(), &[2, 3]);
//! assert_eq!(a.sum([0, 2]).unwrap().shape(), &[3]);
//! assert_eq!(a.sum_keepdim([0, 2]).unwrap().shape(), &[1, 3, 1]);
//! let axes: Vec<usize> = vec![1];
//! assert_eq!(a.max(axes.as_slice()).unwrap().shape(), &[2, 4]);
//! ```
//!
//! Integer literals need no suffix: `-1` and `[0, 2]` are `i32`, and `isize`, `i64` and `usize`
//! are accepted too. `Option<T>` is accepted where `None` means all axes, for code that forwards
//! NumPy-style optional arguments.
use xp_core::{normalize_axes, normalize_axis, Error, Result};

/// An axis argument: every axis, or a list of axes (negative counts from the end; order kept,
/// which matters where the axes are a permutation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Axes {
    /// every axis (NumPy's `axis=None`)
    All,
    /// these axes
    List(Vec<isize>),
}

impl Axes {
    /// The axes as NumPy's optional tuple: `None` for all.
    pub fn as_option(&self) -> Option<&[isize]> {
        match self {
            Axes::All => None,
            Axes::List(v) => Some(v),
        }
    }
    /// The axes normalised against `ndim`: sorted, distinct, in range.
    pub fn normalize(&self, op: &'static str, ndim: usize) -> Result<Vec<usize>> {
        normalize_axes(op, self.as_option(), ndim)
    }
    /// One axis, or `None` for all; several axes are an error (`op` takes at most one).
    pub fn single(&self, op: &'static str) -> Result<Option<isize>> {
        match self {
            Axes::All => Ok(None),
            Axes::List(v) if v.len() == 1 => Ok(Some(v[0])),
            Axes::List(v) => {
                Err(Error::invalid(op, format!("takes a single axis (or all axes), {} given: {v:?}", v.len())))
            }
        }
    }
    /// One axis normalised against `ndim`; all axes or several are an error.
    pub fn one(&self, op: &'static str, ndim: usize) -> Result<usize> {
        match self.single(op)? {
            Some(a) => normalize_axis(op, a, ndim),
            None => Err(Error::invalid(op, "needs one axis, all axes given")),
        }
    }
}

/// Anything that names axes: `..`, an integer, an array, slice or `Vec` of integers, [`Axes`],
/// or an `Option` of one of these (`None`: all axes).
pub trait IntoAxes {
    /// The axes named.
    fn into_axes(self) -> Axes;
}

impl IntoAxes for Axes {
    fn into_axes(self) -> Axes {
        self
    }
}
impl IntoAxes for &Axes {
    fn into_axes(self) -> Axes {
        self.clone()
    }
}
impl IntoAxes for std::ops::RangeFull {
    fn into_axes(self) -> Axes {
        Axes::All
    }
}
impl<T: IntoAxes> IntoAxes for Option<T> {
    fn into_axes(self) -> Axes {
        self.map_or(Axes::All, IntoAxes::into_axes)
    }
}

macro_rules! int_axes {
    ($($t:ty),*) => {$(
        impl IntoAxes for $t {
            fn into_axes(self) -> Axes { Axes::List(vec![self as isize]) }
        }
        impl<const N: usize> IntoAxes for [$t; N] {
            fn into_axes(self) -> Axes { Axes::List(self.iter().map(|&a| a as isize).collect()) }
        }
        impl<const N: usize> IntoAxes for &[$t; N] {
            fn into_axes(self) -> Axes { Axes::List(self.iter().map(|&a| a as isize).collect()) }
        }
        impl IntoAxes for &[$t] {
            fn into_axes(self) -> Axes { Axes::List(self.iter().map(|&a| a as isize).collect()) }
        }
        impl IntoAxes for Vec<$t> {
            fn into_axes(self) -> Axes { Axes::List(self.iter().map(|&a| a as isize).collect()) }
        }
        impl IntoAxes for &Vec<$t> {
            fn into_axes(self) -> Axes { Axes::List(self.iter().map(|&a| a as isize).collect()) }
        }
    )*};
}
int_axes!(i32, i64, isize, usize);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_names_the_same_axes() {
        assert_eq!((..).into_axes(), Axes::All);
        assert_eq!(None::<i32>.into_axes(), Axes::All);
        assert_eq!((-1).into_axes(), Axes::List(vec![-1]));
        assert_eq!([0, 2].into_axes(), Axes::List(vec![0, 2]));
        assert_eq!((&[0usize, 2][..]).into_axes(), Axes::List(vec![0, 2]));
        assert_eq!(vec![2i64, 0].into_axes(), Axes::List(vec![2, 0]));
        assert_eq!(Some(3isize).into_axes(), Axes::List(vec![3]));
        assert_eq!([1, 0].into_axes().normalize("t", 2).unwrap(), vec![0, 1]);
        assert!([0, 1].into_axes().single("argmax").is_err());
        assert!(Axes::All.one("cross", 2).is_err());
        assert_eq!((-1).into_axes().one("cross", 3).unwrap(), 2);
    }
}
