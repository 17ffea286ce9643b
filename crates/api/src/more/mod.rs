//! NumPy names that xp lacked (issue 27), each composed of xp's existing array operations so that
//! it runs on every device: elementwise functions ([`elementwise`]), shape manipulation and
//! creation ([`shapes`]), NaN-skipping reductions ([`nan`]) and NumPy's legacy polynomial
//! functions ([`poly`]).
pub(crate) mod apply;
pub(crate) mod elementwise;
pub(crate) mod extra;
pub(crate) mod info;
pub(crate) mod nan;
pub(crate) mod poly;
pub(crate) mod shapes;
