//! Transfers through page-locked host memory ([`crate::cuda::pinned::Pinned`]).
use crate::backend::{CudaDevice, Storage};
use crate::cuda::pinned::Pinned;
use crate::{Array, Device, Element, Error, Result};
use xp_core::numel;

impl Array {
    /// An array of `shape` on `device` from a pinned host buffer in C order. To a GPU the copy is
    /// asynchronous on the current stream (writing to `src` from the host waits for it); on the
    /// CPU it is a plain copy.
    ///
    /// ```no_run
    /// use xp::cuda::pinned::Pinned;
    /// let p = Pinned::from_slice(&[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// let a = xp::Array::from_pinned(&p, &[2, 2], xp::Device::Cuda(0)).unwrap();
    /// let mut back = Pinned::<f32>::zeros(4).unwrap();
    /// a.mul(2.0).unwrap().to_pinned(&mut back).unwrap();
    /// assert_eq!(back.as_slice().unwrap(), &[2.0, 4.0, 6.0, 8.0]);
    /// ```
    pub fn from_pinned<T: Element>(src: &Pinned<T>, shape: &[usize], device: Device) -> Result<Array> {
        let n = numel(shape);
        if src.len() != n {
            return Err(Error::LengthMismatch {
                op: "from_pinned",
                shape: shape.to_vec(),
                expected: n,
                got: src.len(),
            });
        }
        match device {
            Device::Cpu => Array::from_slice(src.as_slice()?, shape),
            Device::Cuda(i) => Ok(Array::from_storage(Storage::Cuda(CudaDevice::new(i)?.upload_pinned(src)?), shape)),
        }
    }
    /// Copy the elements in C order into a pinned host buffer of the same length and dtype. From a
    /// GPU the copy is asynchronous on the current stream: reading `dst` waits for it.
    pub fn to_pinned<T: Element>(&self, dst: &mut Pinned<T>) -> Result<()> {
        match &*self.read() {
            Storage::Cuda(s) => s.download_pinned(&self.layout, dst),
            Storage::Cpu(_) => {
                let v = self.to_vec::<T>()?;
                if v.len() != dst.len() {
                    return Err(Error::invalid(
                        "to_pinned",
                        format!("array of {} elements into a pinned buffer of {}", v.len(), dst.len()),
                    ));
                }
                dst.as_mut_slice()?.copy_from_slice(&v);
                Ok(())
            }
        }
    }
}
