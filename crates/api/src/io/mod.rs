//! NumPy's file formats: `.npy` ([`save`], [`load`]), `.npz` archives ([`savez`],
//! [`savez_compressed`], [`load_npz`]) and raw bytes ([`Array::tofile`], [`fromfile`]).
//!
//! Files load onto any device: [`load`] reads into host memory, `xp::on(device).load(path)` onto
//! `device`. Every dtype that `.npy` can describe and xp has loads, in either byte order and in C or
//! Fortran order; what xp writes is byte for byte what NumPy's `np.save` writes for the same
//! array (version 1.0 header, C order, little-endian). bfloat16 has no `.npy` type (NumPy with
//! ml_dtypes writes it as raw bytes, `|V2`): saving it is an [`Error::InvalidDType`], loading a
//! `V` type an [`Error::BadFile`].
//!
//! A file that is truncated, whose header does not parse, or whose dtype xp cannot hold (objects,
//! strings, records, datetimes, long double) gives [`Error::BadFile`]; a file-system failure
//! [`Error::Io`]. Saving is atomic: the data go to a temporary file beside the target
//! (`.NAME.tmp-PID-N`), renamed onto it once complete, so that a failed save leaves no
//! half-written file under the target name (and an existing file there untouched).
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("xp-io-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let a = xp::Array::from_vec(vec![1.5f64, -2.0, 3.25, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
//! xp::save(dir.join("a"), &a).unwrap(); // writes a.npy, as np.save does
//! let b = xp::load(dir.join("a.npy")).unwrap();
//! assert_eq!((b.shape(), b.to_vec::<f64>().unwrap()), (a.shape(), a.to_vec::<f64>().unwrap()));
//!
//! let i = xp::arange(0, 4, 1, None).unwrap();
//! xp::savez_compressed(dir.join("both.npz"), &[("a", &a), ("i", &i)]).unwrap();
//! let z = xp::on(xp::Device::Cpu).load_npz(dir.join("both.npz")).unwrap();
//! assert_eq!(z.names().collect::<Vec<_>>(), ["a", "i"]);
//! assert_eq!(z.get("i").unwrap().to_vec::<i64>().unwrap(), [0, 1, 2, 3]);
//!
//! // A truncated file is a typed error, never a panic.
//! let bytes = std::fs::read(dir.join("a.npy")).unwrap();
//! std::fs::write(dir.join("cut.npy"), &bytes[..bytes.len() - 1]).unwrap();
//! assert!(matches!(xp::load(dir.join("cut.npy")), Err(xp::Error::BadFile { .. })));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```
mod header;
mod literal;
mod npy;
pub(crate) mod npz;
mod raw;

pub use npz::{load_npz, savez, savez_compressed, Npz};
pub use raw::fromfile;

use crate::{Array, ArrayModule};
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use xp_core::{Device, Error, Result};

/// Saves `a` as a `.npy` file at `path` (NumPy's `np.save`): `.npy` is appended to a path that does
/// not end with it. Any device (the data are copied to the host); a view is written in C order of
/// its shape. The write is atomic (see the [module docs](self)).
///
/// Errors: [`Error::InvalidDType`] for bfloat16 (no `.npy` type), [`Error::Io`] when the file
/// cannot be written; either way the target is as it was (absent, or the old file), and no
/// temporary file is left.
pub fn save(path: impl AsRef<Path>, a: &Array) -> Result<()> {
    if header::descr_of(a.dtype()).is_none() {
        return Err(Error::InvalidDType { op: "save", dtype: a.dtype() });
    }
    let path = with_suffix(path.as_ref(), ".npy");
    let buf = a.to_buffer()?;
    write_atomic("save", &path, |w| npy::write(w, &buf, a.shape()).map_err(io_err("save", &path)))
}

/// Loads the `.npy` file at `path` into host memory (NumPy's `np.load`); see
/// [`ArrayModule::load`] for another device.
///
/// Errors: [`Error::Io`] when the file cannot be read, [`Error::BadFile`] when it is not a complete
/// `.npy` file of a dtype xp has.
pub fn load(path: impl AsRef<Path>) -> Result<Array> {
    load_on(path.as_ref(), Device::Cpu)
}

impl ArrayModule {
    /// Loads the `.npy` file at `path` onto this namespace's device (see [`load`]).
    pub fn load(&self, path: impl AsRef<Path>) -> Result<Array> {
        load_on(path.as_ref(), self.device())
    }
    /// Loads the `.npz` archive at `path` onto this namespace's device (see [`load_npz`]).
    pub fn load_npz(&self, path: impl AsRef<Path>) -> Result<Npz> {
        npz::load_on(path.as_ref(), self.device())
    }
    /// Reads raw elements from `path` onto this namespace's device (see [`fromfile`]).
    pub fn fromfile(&self, path: impl AsRef<Path>, dtype: xp_core::DType, count: Option<usize>) -> Result<Array> {
        raw::fromfile_on(path.as_ref(), dtype, count, self.device())
    }
}

fn load_on(path: &Path, device: Device) -> Result<Array> {
    let (file, len) = open("load", path)?;
    npy::read("load", &path.display().to_string(), &mut BufReader::new(file), len, device)
}

/// Opens `path` for reading, with its length.
fn open(op: &'static str, path: &Path) -> Result<(File, u64)> {
    let io_err = io_err(op, path);
    let file = File::open(path).map_err(io_err)?;
    let len = file.metadata().map_err(io_err)?.len();
    Ok((file, len))
}

/// `path` with `suffix` appended unless it already ends with it (NumPy's rule for np.save/savez).
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    if path.as_os_str().as_encoded_bytes().ends_with(suffix.as_bytes()) {
        path.to_path_buf()
    } else {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        p.into()
    }
}

/// The [`Error::Io`] of operation `op` on `path`.
fn io_err<'a>(op: &'static str, path: &'a Path) -> impl Fn(std::io::Error) -> Error + Copy + 'a {
    move |e| Error::Io { op, path: path.display().to_string(), msg: e.to_string() }
}

/// Writes a file atomically: `fill` writes into a new temporary file beside `path`, which is then
/// renamed onto `path`; on any failure the temporary file is removed.
fn write_atomic(op: &'static str, path: &Path, fill: impl FnOnce(&mut BufWriter<File>) -> Result<()>) -> Result<()> {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let io_err = io_err(op, path);
    let Some(name) = path.file_name() else {
        return Err(io_err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "the path names no file")));
    };
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp-{}-{n}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let file = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp).map_err(&io_err)?;
    let result = (|| {
        let mut w = BufWriter::new(file);
        fill(&mut w)?;
        w.flush().map_err(&io_err)?;
        drop(w);
        std::fs::rename(&tmp, path).map_err(&io_err)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
