//! The `.npy` header: the preamble (magic, version, header length) and the Python dict literal
//! after it, parsed by a small strict reader of Python literals (bounded length and nesting, checked
//! integers), and written in NumPy's exact form so that xp's files are byte-identical to NumPy's.
//!
//! The type string inside (`'<f8'`) is parsed by npyz's `TypeStr`. npyz's own header reader is not
//! used on untrusted input: it multiplies the shape without a check (a panic under overflow checks)
//! and allocates the header length the file claims before reading it.
use super::literal::{Parser, Value};
use std::io::Read;
use xp_core::DType;

/// NumPy's `_MAX_HEADER_SIZE`: longer headers are refused (np.load does the same by default).
const MAX_HEADER: usize = 10_000;
/// NumPy's `GROWTH_AXIS_MAX_DIGITS`: spare spaces so that the first axis can grow in place.
const GROWTH_AXIS_MAX_DIGITS: usize = 21;

/// What a header says: the dtype of the elements, their type string (for its byte order), the
/// shape, and the order of the data.
#[derive(Debug)]
pub(super) struct Header {
    pub dtype: DType,
    pub type_str: npyz::TypeStr,
    pub shape: Vec<usize>,
    pub fortran_order: bool,
    /// Bytes before the data: preamble and header.
    pub offset: u64,
    /// For a string type (`|S3`, `<U3`), which xp reads only as a 0-d text member of an archive:
    /// whether it is unicode (UTF-32) and its characters per element.
    pub text: Option<(bool, usize)>,
}

/// A parse failure: the message of a `BadFile` error.
pub(super) type Bad = String;

/// Reads the preamble and header from `r`, which has `avail` bytes in all. Errors: `Ok(Err(msg))`
/// for a malformed file, `Err(io)` for the reader's own failures other than an early end.
pub(super) fn read(r: &mut impl Read, avail: u64) -> std::io::Result<Result<Header, Bad>> {
    let mut pre = [0u8; 8];
    if !read_full(r, &mut pre)? {
        return Ok(Err(format!("not an .npy file: {avail} bytes, shorter than the magic string")));
    }
    if &pre[..6] != b"\x93NUMPY" {
        let what = if pre.starts_with(b"PK\x03\x04") { " (a zip archive: load it with load_npz)" } else { "" };
        return Ok(Err(format!("not an .npy file: no \\x93NUMPY magic string{what}")));
    }
    let len_size = match (pre[6], pre[7]) {
        (1, 0) => 2,
        (2, 0) | (3, 0) => 4,
        (a, b) => return Ok(Err(format!("unsupported .npy format version {a}.{b}"))),
    };
    let mut len = [0u8; 4];
    if !read_full(r, &mut len[..len_size])? {
        return Ok(Err("truncated in the header length".into()));
    }
    let hlen = u32::from_le_bytes(len) as usize;
    if hlen > MAX_HEADER {
        return Ok(Err(format!("header of {hlen} bytes is longer than NumPy's limit of {MAX_HEADER}")));
    }
    if (8 + len_size + hlen) as u64 > avail {
        return Ok(Err(format!("truncated: the header needs {} bytes, the file has {avail}", 8 + len_size + hlen)));
    }
    let mut text = vec![0u8; hlen];
    if !read_full(r, &mut text)? {
        return Ok(Err("truncated in the header".into()));
    }
    let offset = (8 + len_size + hlen) as u64;
    Ok(parse(&text).map(|h| Header { offset, ..h }))
}

/// Fills `buf`; false when the reader ended first.
pub(super) fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<bool> {
    match r.read_exact(buf) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
        Err(e) => Err(e),
    }
}

/// The header dict: exactly the keys `descr`, `fortran_order` and `shape`, as NumPy requires.
fn parse(text: &[u8]) -> Result<Header, Bad> {
    let text = std::str::from_utf8(text).map_err(|_| "header is not ASCII/UTF-8 text".to_string())?;
    let v = Parser::parse(text.as_bytes())?;
    let text: String = text.chars().take(200).collect(); // for messages
    let Value::Dict(items) = v else { return Err(format!("header is not a dict: {text:?}")) };
    let (mut descr, mut order, mut shape) = (None, None, None);
    for (k, v) in items {
        match k {
            Value::Str(k) if k == "descr" => descr = Some(v),
            Value::Str(k) if k == "fortran_order" => order = Some(v),
            Value::Str(k) if k == "shape" => shape = Some(v),
            k => return Err(format!("header has an unexpected key {k:?}")),
        }
    }
    let (Some(descr), Some(order), Some(shape)) = (descr, order, shape) else {
        return Err(format!("header lacks one of the keys 'descr', 'fortran_order', 'shape': {text:?}"));
    };
    let Value::Bool(fortran_order) = order else { return Err(format!("fortran_order is not a bool: {order:?}")) };
    let Value::Tuple(dims) = shape else { return Err(format!("shape is not a tuple: {shape:?}")) };
    let shape = dims
        .iter()
        .map(|d| match d {
            Value::Int(n) => usize::try_from(*n).map_err(|_| format!("shape has a bad dimension {n}")),
            d => Err(format!("shape has a dimension that is not an integer: {d:?}")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let descr = match descr {
        Value::Str(s) => s,
        Value::List(fields) => {
            return Err(format!("structured dtypes (records of {} fields) are not supported by xp", fields.len()))
        }
        d => return Err(format!("unsupported dtype descriptor {d:?}")),
    };
    let type_str: npyz::TypeStr = descr.parse().map_err(|e| format!("bad dtype '{descr}': {e}"))?;
    use npyz::TypeChar as C;
    let text = match type_str.type_char() {
        C::ByteStr => Some((false, type_str.size_field() as usize)),
        C::UnicodeStr => Some((true, type_str.size_field() as usize)),
        _ => None,
    };
    let dtype = match text {
        Some(_) => DType::U8,
        None => dtype_of(&type_str).ok_or_else(|| unsupported(&descr, &type_str))?,
    };
    Ok(Header { dtype, type_str, shape, fortran_order, offset: 0, text })
}

/// The xp dtype of a NumPy type string, if xp has one.
fn dtype_of(t: &npyz::TypeStr) -> Option<DType> {
    use npyz::TypeChar as C;
    Some(match (t.type_char(), t.size_field()) {
        (C::Bool, 1) => DType::Bool,
        (C::Int, 1) => DType::I8,
        (C::Int, 2) => DType::I16,
        (C::Int, 4) => DType::I32,
        (C::Int, 8) => DType::I64,
        (C::Uint, 1) => DType::U8,
        (C::Uint, 2) => DType::U16,
        (C::Uint, 4) => DType::U32,
        (C::Uint, 8) => DType::U64,
        (C::Float, 2) => DType::F16,
        (C::Float, 4) => DType::F32,
        (C::Float, 8) => DType::F64,
        (C::Complex, 8) => DType::C64,
        (C::Complex, 16) => DType::C128,
        _ => return None,
    })
}

pub(super) fn unsupported(descr: &str, t: &npyz::TypeStr) -> Bad {
    use npyz::TypeChar as C;
    let what = match t.type_char() {
        C::Object => "object arrays (pickled Python objects)",
        C::DateTime | C::TimeDelta => "datetime and timedelta",
        C::ByteStr | C::UnicodeStr => "strings",
        C::RawData => "raw bytes (void; NumPy writes bfloat16 from ml_dtypes this way)",
        C::Float => "long double",
        C::Complex => "complex long double",
        _ => "this type",
    };
    format!("dtype '{descr}' is not supported by xp: {what}")
}

/// The type string xp writes for `dtype` (little-endian, `|` for one-byte types); `None` for
/// bfloat16, which has no `.npy` type.
pub(super) fn descr_of(dtype: DType) -> Option<&'static str> {
    Some(match dtype {
        DType::Bool => "|b1",
        DType::I8 => "|i1",
        DType::I16 => "<i2",
        DType::I32 => "<i4",
        DType::I64 => "<i8",
        DType::U8 => "|u1",
        DType::U16 => "<u2",
        DType::U32 => "<u4",
        DType::U64 => "<u8",
        DType::F16 => "<f2",
        DType::BF16 => return None,
        DType::F32 => "<f4",
        DType::F64 => "<f8",
        DType::C64 => "<c8",
        DType::C128 => "<c16",
    })
}

/// Preamble and header of a C-order array, byte for byte as NumPy's `np.save` writes them.
pub(super) fn encode(descr: &str, shape: &[usize]) -> Vec<u8> {
    let dims = match shape {
        [] => "()".to_string(),
        [n] => format!("({n},)"),
        _ => format!("({})", shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")),
    };
    let mut text = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {dims}, }}");
    if let Some(first) = shape.first() {
        let digits = first.to_string().len();
        text.extend(std::iter::repeat_n(' ', GROWTH_AXIS_MAX_DIGITS.saturating_sub(digits)));
    }
    // NumPy's _wrap_header: pad with spaces and end with '\n' so that the data start at a multiple
    // of 64 bytes (a full 64 when already aligned); version 2.0 when the length outgrows u16.
    let wrap = |len_size: usize| {
        let hlen = text.len() + 1;
        hlen + 64 - (8 + len_size + hlen) % 64
    };
    let (version, len_size) = if wrap(2) <= u16::MAX as usize { (1u8, 2) } else { (2, 4) };
    let total = wrap(len_size);
    let mut out = b"\x93NUMPY".to_vec();
    out.extend([version, 0]);
    out.extend(&(total as u32).to_le_bytes()[..len_size]);
    out.extend(text.as_bytes());
    out.resize(8 + len_size + total - 1, b' ');
    out.push(b'\n');
    out
}
