//! Raw data: [`Array::tofile`] and [`fromfile`], NumPy's `tofile` and `fromfile` with `sep=""`.
use super::{io_err, npy, open, write_atomic};
use crate::Array;
use npyz::Endianness;
use std::io::BufReader;
use std::path::Path;
use xp_core::{DType, Device, Error, Result};

impl Array {
    /// Writes the elements to `path` as raw bytes, in C order of the shape and the machine's byte
    /// order, with no header (NumPy's `a.tofile(path)`): dtype and shape are not recorded, read
    /// them back with [`fromfile`] and a reshape. Every dtype, bfloat16 included (its bits); bool
    /// as one byte 0 or 1. Any device. Atomic like [`super::save`]; the path is used as given.
    ///
    /// Errors: [`Error::Io`] when the file cannot be written (the target is then as it was).
    pub fn tofile(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let buf = self.to_buffer()?;
        write_atomic("tofile", path, |w| {
            npy::write_elements(w, &buf, Endianness::of_machine()).map_err(io_err("tofile", path))
        })
    }
}

/// Reads raw elements of `dtype` (machine byte order, as [`Array::tofile`] writes them) from `path`
/// into a 1-d array in host memory (NumPy's `np.fromfile(path, dtype, count)`): `count` elements, or
/// with `None` the whole file. A bool byte other than 0 reads as true. See
/// [`crate::ArrayModule::fromfile`] for another device.
///
/// Errors: [`Error::Io`] when the file cannot be read; [`Error::BadFile`] when, with `count`
/// `None`, its length is not a multiple of the item size, or it holds fewer than `count` elements.
pub fn fromfile(path: impl AsRef<Path>, dtype: DType, count: Option<usize>) -> Result<Array> {
    fromfile_on(path.as_ref(), dtype, count, Device::Cpu)
}

pub(super) fn fromfile_on(path: &Path, dtype: DType, count: Option<usize>, device: Device) -> Result<Array> {
    let (file, len) = open("fromfile", path)?;
    let bad = |msg: String| Error::BadFile { path: path.display().to_string(), msg };
    let size = dtype.size() as u64;
    let n = match count {
        None if len % size != 0 => {
            return Err(bad(format!("{len} bytes is not a whole number of {dtype} elements of {size} bytes")))
        }
        None => len / size,
        Some(c) if (c as u64).checked_mul(size).is_none_or(|b| b > len) => {
            return Err(bad(format!("{c} elements of {dtype} asked for, the file holds {}", len / size)))
        }
        Some(c) => c as u64,
    };
    let n = usize::try_from(n).map_err(|_| bad(format!("{n} elements do not fit in memory")))?;
    let native: npyz::TypeStr = match Endianness::of_machine() {
        Endianness::Big => ">u2",
        _ => "<u2",
    }
    .parse()
    .expect("a valid type string");
    let buf = npy::read_elements(&mut BufReader::new(file), dtype, &native, n).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => bad("the file shrank while it was read".into()),
        _ => io_err("fromfile", path)(e),
    })?;
    Array::from_buffer(buf, [n], device)
}
