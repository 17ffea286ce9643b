//! `.npz` archives: zip files of `.npy` members, stored ([`savez`]) or deflated
//! ([`savez_compressed`]), as NumPy's `np.savez` and `np.savez_compressed` write them.
use super::{io_err, npy, open, with_suffix, write_atomic};
use crate::Array;
use std::io::BufReader;
use std::path::Path;
use xp_core::{Device, Error, Result};
use zip::write::SimpleFileOptions;
use zip::CompressionMethod;

/// The arrays of an `.npz` archive by name, in archive order (NumPy's `NpzFile`, read eagerly).
///
/// A member `x.npy` is named `x`; a member without the `.npy` suffix keeps its whole name.
#[derive(Clone, Debug, Default)]
pub struct Npz {
    arrays: Vec<(String, Array)>,
    texts: Vec<(String, String)>,
}

impl Npz {
    /// The names of the arrays, in archive order (NumPy's `NpzFile.files`).
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        self.arrays.iter().map(|(n, _)| n.as_str())
    }
    /// The array named `name`, if the archive has one.
    pub fn get(&self, name: &str) -> Option<&Array> {
        self.arrays.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }
    /// Number of arrays.
    pub fn len(&self) -> usize {
        self.arrays.len()
    }
    /// True when the archive holds no array.
    pub fn is_empty(&self) -> bool {
        self.arrays.is_empty()
    }
    /// The (name, array) pairs in archive order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Array)> + '_ {
        self.arrays.iter().map(|(n, a)| (n.as_str(), a))
    }
    /// The 0-d string member named `name` (NumPy's `np.bytes_`/`np.str_` scalar, such as the
    /// `format` SciPy's `save_npz` stores), trailing NULs removed; string arrays of other shapes
    /// do not load.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.texts.iter().find(|(n, _)| n == name).map(|(_, t)| t.as_str())
    }
}

impl IntoIterator for Npz {
    type Item = (String, Array);
    type IntoIter = std::vec::IntoIter<(String, Array)>;
    /// The (name, array) pairs in archive order.
    fn into_iter(self) -> Self::IntoIter {
        self.arrays.into_iter()
    }
}

impl<'a> IntoIterator for &'a Npz {
    type Item = (&'a str, &'a Array);
    type IntoIter = Box<dyn Iterator<Item = (&'a str, &'a Array)> + 'a>;
    /// The (name, array) pairs in archive order.
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

/// Saves arrays by name into an uncompressed `.npz` archive at `path` (NumPy's
/// `np.savez(path, name=array, ...)`): member `name.npy` per array, in the order given; `.npz` is
/// appended to a path that does not end with it. Atomic like [`super::save`].
///
/// Errors: [`Error::InvalidArgument`] for a name given twice, [`Error::InvalidDType`] for a
/// bfloat16 array, [`Error::Io`] when the file cannot be written; the target is then as it was.
pub fn savez(path: impl AsRef<Path>, arrays: &[(&str, &Array)]) -> Result<()> {
    save_archive("savez", path.as_ref(), arrays, &[], false)
}

/// [`savez`] with deflate-compressed members (NumPy's `np.savez_compressed`).
pub fn savez_compressed(path: impl AsRef<Path>, arrays: &[(&str, &Array)]) -> Result<()> {
    save_archive("savez_compressed", path.as_ref(), arrays, &[], true)
}

/// An archive of `arrays` and then of 0-d byte strings `texts` (as SciPy's `save_npz` writes the
/// format's name), members in the order given.
pub(crate) fn save_archive(
    op: &'static str,
    path: &Path,
    arrays: &[(&str, &Array)],
    texts: &[(&str, &str)],
    compressed: bool,
) -> Result<()> {
    let method = if compressed { CompressionMethod::Deflated } else { CompressionMethod::Stored };
    for (i, (name, a)) in arrays.iter().enumerate() {
        if arrays[..i].iter().any(|(n, _)| n == name) {
            return Err(Error::invalid(op, format!("the name {name:?} is given twice")));
        }
        if super::header::descr_of(a.dtype()).is_none() {
            return Err(Error::InvalidDType { op, dtype: a.dtype() });
        }
    }
    let path = with_suffix(path, ".npz");
    let io_err = io_err(op, &path);
    let zip_err = |e: zip::result::ZipError| match e {
        zip::result::ZipError::Io(e) => io_err(e),
        e => Error::invalid(op, e.to_string()),
    };
    write_atomic(op, &path, |w| {
        let mut zip = zip::ZipWriter::new(w);
        for (name, a) in arrays {
            // Zip64 sizes for a member of 4 GiB or more (the header adds at most a few KiB).
            let large = (a.size() as u64).saturating_mul(a.dtype().size() as u64) >= u32::MAX as u64 - (1 << 16);
            let options = SimpleFileOptions::default().compression_method(method).large_file(large);
            zip.start_file(format!("{name}.npy"), options).map_err(zip_err)?;
            let buf = a.to_buffer()?;
            npy::write(&mut zip, &buf, a.shape()).map_err(&io_err)?;
        }
        for (name, t) in texts {
            zip.start_file(format!("{name}.npy"), SimpleFileOptions::default().compression_method(method))
                .map_err(zip_err)?;
            npy::write_text(&mut zip, t).map_err(&io_err)?;
        }
        zip.finish().map_err(zip_err)?;
        Ok(())
    })
}

/// Loads every array of the `.npz` archive at `path` into host memory (NumPy's `np.load` of an
/// `.npz`, read eagerly); see [`crate::ArrayModule::load_npz`] for another device. Archives written
/// by `np.savez` and `np.savez_compressed` (stored and deflated members) load.
///
/// Errors: [`Error::Io`] when the file cannot be read, [`Error::BadFile`] when it is not a zip
/// archive, a member is not a complete `.npy` file of a dtype xp has, or a checksum fails.
pub fn load_npz(path: impl AsRef<Path>) -> Result<Npz> {
    load_on(path.as_ref(), Device::Cpu)
}

pub(crate) fn load_on(path: &Path, device: Device) -> Result<Npz> {
    const OP: &str = "load_npz";
    let (file, _) = open(OP, path)?;
    let shown = path.display().to_string();
    let bad = |member: &str, msg: String| {
        let path = if member.is_empty() { shown.clone() } else { format!("{shown} (member {member})") };
        Error::BadFile { path, msg }
    };
    // Once the file is open, every failure to read the archive is reported as a bad file (a
    // corrupt archive makes the reader seek or read past its end as often as a failing disk does).
    let zip_err = |member: &str, e: zip::result::ZipError| bad(member, format!("not a valid zip archive: {e}"));
    let mut archive = zip::ZipArchive::new(BufReader::new(file)).map_err(|e| zip_err("", e))?;
    let mut arrays: Vec<(String, Array)> = Vec::with_capacity(archive.len());
    let mut texts = Vec::new();
    for i in 0..archive.len() {
        let member = archive.by_index(i).map_err(|e| zip_err("", e))?;
        if member.is_dir() {
            continue;
        }
        let full = member.name().map_err(|e| zip_err("", e))?.into_owned();
        let size = member.size();
        let mut r = BufReader::new(member);
        // Errors while reading a member come from the archive's contents (a bad deflate stream),
        // not from the file system: all are BadFile, named by the member.
        let a = npy::read_member(OP, &full, &mut r, size, device).map_err(|e| match e {
            Error::Io { msg, .. } | Error::BadFile { msg, .. } => bad(&full, msg),
            e => e,
        })?;
        // Read to the end so that the member's CRC-32 is checked.
        std::io::copy(&mut r, &mut std::io::sink()).map_err(|e| bad(&full, format!("corrupt member: {e}")))?;
        let name = full.strip_suffix(".npy").unwrap_or(&full).to_string();
        match a {
            npy::Member::Array(a) => arrays.push((name, a)),
            npy::Member::Text(t, _) => texts.push((name, t)),
        }
    }
    Ok(Npz { arrays, texts })
}
