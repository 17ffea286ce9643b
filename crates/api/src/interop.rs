//! Conversion to and from `ndarray::ArrayD`.
//!
//! ```
//! let n = ndarray::ArrayD::from_shape_vec(vec![2, 2], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
//! let a = xp::Array::from_ndarray(n.clone()).unwrap();
//! assert_eq!(a.to_ndarray::<f32>().unwrap(), n);
//! ```
use crate::Array;
use ndarray::{ArrayD, IxDyn};
use xp_core::{Element, Error, Result};

impl Array {
    /// A host array from an `ndarray` array. A standard-layout input moves its buffer without a
    /// copy; other layouts are copied into C order.
    pub fn from_ndarray<T: Element>(a: ArrayD<T>) -> Result<Array> {
        let shape = a.shape().to_vec();
        let data = if a.is_standard_layout() {
            let (v, off) = a.into_raw_vec_and_offset();
            match off {
                Some(0) | None => v,
                Some(o) => v[o..].to_vec(),
            }
        } else {
            a.iter().copied().collect()
        };
        Array::from_vec(data, &shape)
    }
    /// The elements as an `ndarray` array (C order; synchronises with the device). `T` must be
    /// the array's element type.
    pub fn to_ndarray<T: Element>(&self) -> Result<ArrayD<T>> {
        let v = self.to_vec::<T>()?;
        ArrayD::from_shape_vec(IxDyn(self.shape()), v).map_err(|e| Error::invalid("to_ndarray", e.to_string()))
    }
}
