//! One `.npy` array: reading it from a stream of known length onto a device, writing it, and the
//! element codecs (npyz's typed readers and writers: byte order, float16, complex) shared with the
//! raw `tofile`/`fromfile`.
use super::header;
use crate::Array;
use npyz::{Deserialize, Endianness, Serialize, TypeRead, TypeStr, TypeWrite};
use std::io::{self, Read, Write};
use xp_core::{bf16, Complex32, Complex64, DType, Device, Error, HostBuffer, Result};

/// Reads one `.npy` array of `avail` bytes from `r` onto `device`. `name` names the file (or archive
/// member) in errors; `op` the operation.
pub(super) fn read(op: &'static str, name: &str, r: &mut impl Read, avail: u64, device: Device) -> Result<Array> {
    match read_member(op, name, r, avail, device)? {
        Member::Array(a) => Ok(a),
        Member::Text(_, descr) => Err(Error::BadFile {
            path: name.to_string(),
            msg: format!("dtype '{descr}' is not supported by xp: strings"),
        }),
    }
}

/// One `.npy` member of an archive: an array, or a 0-d string (NumPy's `np.bytes_`/`np.str_`
/// scalar, as SciPy's `save_npz` stores the format's name) with its type string.
pub(super) enum Member {
    Array(Array),
    Text(String, String),
}

/// [`read`], also taking a 0-d string as text.
pub(super) fn read_member(
    op: &'static str,
    name: &str,
    r: &mut impl Read,
    avail: u64,
    device: Device,
) -> Result<Member> {
    let io_err = |e: io::Error| Error::Io { op, path: name.to_string(), msg: e.to_string() };
    let bad = |msg: String| Error::BadFile { path: name.to_string(), msg };
    let h = header::read(r, avail).map_err(io_err)?.map_err(bad)?;
    if let Some((unicode, chars)) = h.text {
        if !h.shape.is_empty() {
            return Err(bad(header::unsupported(&h.type_str.to_string(), &h.type_str)));
        }
        let len = if unicode { chars.saturating_mul(4) } else { chars };
        if len as u64 > avail.saturating_sub(h.offset) {
            return Err(bad(format!("truncated: a string of {len} bytes, {} follow the header", avail - h.offset)));
        }
        let mut raw = vec![0u8; len];
        if !header::read_full(r, &mut raw).map_err(io_err)? {
            return Err(bad("truncated in a string".into()));
        }
        let text: String = if unicode {
            let big = h.type_str.to_string().starts_with('>');
            raw.chunks_exact(4)
                .map(|c| {
                    let v = if big {
                        u32::from_be_bytes([c[0], c[1], c[2], c[3]])
                    } else {
                        u32::from_le_bytes([c[0], c[1], c[2], c[3]])
                    };
                    char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER)
                })
                .collect()
        } else {
            String::from_utf8_lossy(&raw).into_owned()
        };
        return Ok(Member::Text(text.trim_end_matches('\0').to_string(), h.type_str.to_string()));
    }
    let n = h.shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
    let nbytes = n.and_then(|n| n.checked_mul(h.dtype.size()));
    let (Some(n), Some(nbytes)) = (n, nbytes) else {
        return Err(bad(format!("shape {:?} is too large", h.shape)));
    };
    let present = avail - h.offset;
    if nbytes as u64 > present {
        let (shape, dtype) = (&h.shape, h.dtype);
        return Err(bad(format!(
            "truncated: shape {shape:?} of {dtype} needs {nbytes} bytes of data, {present} follow the header"
        )));
    }
    let buf = match read_elements(r, h.dtype, &h.type_str, n) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
            return Err(bad(format!("truncated: shape {:?} of {} needs {nbytes} bytes of data", h.shape, h.dtype)))
        }
        Err(e) if e.kind() == io::ErrorKind::InvalidData => return Err(bad(e.to_string())),
        Err(e) => return Err(io_err(e)),
    };
    if h.fortran_order && h.shape.len() > 1 {
        // Column-major data: the C-order array of the reversed shape, transposed, is the array.
        let rev: Vec<usize> = h.shape.iter().rev().copied().collect();
        let c = Array::from_buffer(buf, &rev, Device::Cpu)?.t()?.to_buffer()?;
        return Array::from_buffer(c, &h.shape, device).map(Member::Array);
    }
    Array::from_buffer(buf, &h.shape, device).map(Member::Array)
}

/// Writes `text` as a 0-d byte string (`|S<n>`), as NumPy's `np.save` of `np.bytes_(text)`.
pub(super) fn write_text(w: &mut impl Write, text: &str) -> io::Result<()> {
    w.write_all(&header::encode(&format!("|S{}", text.len()), &[]))?;
    w.write_all(text.as_bytes())
}

/// Writes the elements `buf` (C order) of an array of `shape` as `.npy` (version 1.0 unless the
/// header needs 2.0, C order, little-endian) to `w`. The caller has checked that the dtype has a
/// type string.
pub(super) fn write(w: &mut impl Write, buf: &HostBuffer, shape: &[usize]) -> io::Result<()> {
    let descr = header::descr_of(buf.dtype()).expect("dtype checked by the caller");
    w.write_all(&header::encode(descr, shape))?;
    write_elements(w, buf, Endianness::Little)
}

/// The type string of `dtype`'s elements in byte order `e` (bool as `|u1`, bfloat16 as its bits).
fn type_str(dtype: DType, e: Endianness) -> TypeStr {
    let (c, size) = match dtype {
        DType::Bool | DType::U8 => ('u', 1),
        DType::I8 => ('i', 1),
        DType::I16 => ('i', 2),
        DType::I32 => ('i', 4),
        DType::I64 => ('i', 8),
        DType::U16 | DType::BF16 => ('u', 2),
        DType::U32 => ('u', 4),
        DType::U64 => ('u', 8),
        DType::F16 => ('f', 2),
        DType::F32 => ('f', 4),
        DType::F64 => ('f', 8),
        DType::C64 => ('c', 8),
        DType::C128 => ('c', 16),
    };
    let e = if size == 1 { "|" } else { e.to_str() };
    format!("{e}{c}{size}").parse().expect("a valid type string")
}

/// `n` elements of `dtype` in the byte order of `t` (only its endianness is used), read with npyz.
/// Bool bytes other than 0 count as true (NumPy's cast to bool).
pub(super) fn read_elements(r: &mut impl Read, dtype: DType, t: &TypeStr, n: usize) -> io::Result<HostBuffer> {
    fn vec<T: Deserialize>(r: &mut impl Read, t: TypeStr, n: usize) -> io::Result<Vec<T>> {
        let reader = T::reader(&npyz::DType::Plain(t)).map_err(io::Error::other)?;
        // The caller checked that the data are there; still grow as they come.
        let mut v = Vec::with_capacity(n.min(1 << 24));
        for _ in 0..n {
            v.push(reader.read_one(&mut *r)?);
        }
        Ok(v)
    }
    let t = type_str(dtype, t.endianness());
    Ok(match dtype {
        DType::Bool => HostBuffer::Bool(vec::<u8>(r, t, n)?.into_iter().map(|b| b != 0).collect()),
        DType::I8 => HostBuffer::I8(vec(r, t, n)?),
        DType::I16 => HostBuffer::I16(vec(r, t, n)?),
        DType::I32 => HostBuffer::I32(vec(r, t, n)?),
        DType::I64 => HostBuffer::I64(vec(r, t, n)?),
        DType::U8 => HostBuffer::U8(vec(r, t, n)?),
        DType::U16 => HostBuffer::U16(vec(r, t, n)?),
        DType::U32 => HostBuffer::U32(vec(r, t, n)?),
        DType::U64 => HostBuffer::U64(vec(r, t, n)?),
        DType::F16 => HostBuffer::F16(vec(r, t, n)?),
        DType::BF16 => HostBuffer::BF16(vec::<u16>(r, t, n)?.into_iter().map(bf16::from_bits).collect()),
        DType::F32 => HostBuffer::F32(vec(r, t, n)?),
        DType::F64 => HostBuffer::F64(vec(r, t, n)?),
        DType::C64 => HostBuffer::C64(vec::<Complex32>(r, t, n)?),
        DType::C128 => HostBuffer::C128(vec::<Complex64>(r, t, n)?),
    })
}

/// The elements of `buf` in byte order `e`, written with npyz (bool as one byte 0 or 1, bfloat16
/// as its bits).
pub(super) fn write_elements(w: &mut impl Write, buf: &HostBuffer, e: Endianness) -> io::Result<()> {
    fn all<T: Serialize>(w: &mut impl Write, t: TypeStr, v: impl IntoIterator<Item = T>) -> io::Result<()> {
        let writer = T::writer(&npyz::DType::Plain(t)).map_err(io::Error::other)?;
        v.into_iter().try_for_each(|x| writer.write_one(&mut *w, &x))
    }
    let t = type_str(buf.dtype(), e);
    match buf {
        HostBuffer::Bool(v) => all(w, t, v.iter().map(|&b| b as u8)),
        HostBuffer::I8(v) => all(w, t, v.iter().copied()),
        HostBuffer::I16(v) => all(w, t, v.iter().copied()),
        HostBuffer::I32(v) => all(w, t, v.iter().copied()),
        HostBuffer::I64(v) => all(w, t, v.iter().copied()),
        HostBuffer::U8(v) => all(w, t, v.iter().copied()),
        HostBuffer::U16(v) => all(w, t, v.iter().copied()),
        HostBuffer::U32(v) => all(w, t, v.iter().copied()),
        HostBuffer::U64(v) => all(w, t, v.iter().copied()),
        HostBuffer::F16(v) => all(w, t, v.iter().copied()),
        HostBuffer::BF16(v) => all(w, t, v.iter().map(|x| x.to_bits())),
        HostBuffer::F32(v) => all(w, t, v.iter().copied()),
        HostBuffer::F64(v) => all(w, t, v.iter().copied()),
        HostBuffer::C64(v) => all(w, t, v.iter().copied()),
        HostBuffer::C128(v) => all(w, t, v.iter().copied()),
    }
}
