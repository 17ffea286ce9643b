//! File I/O against NumPy: the `.npy`/`.npz` files of `tests/data/io` (written by NumPy through
//! `scripts/gen_io_reference.py`, with NumPy's own reading of them in `expected.json`) load with
//! the same dtype, shape and bits on every device; what xp writes is byte for byte what NumPy
//! writes; round trips of every dtype are exact; bad files give typed errors, never a panic; a
//! failed save leaves no file under the target name.
use serde_json::Value;
use std::path::{Path, PathBuf};
use xp::{bf16, f16, s, Array, Complex32, Complex64, DType, Device, Error, HostBuffer, Scalar};
use xp_testing::devices;

fn data(name: &str) -> PathBuf {
    super::common::data_dir().join("io").join(name)
}

fn expected() -> serde_json::Map<String, Value> {
    let text = std::fs::read_to_string(data("expected.json")).expect("tests/data/io/expected.json");
    let mut files = serde_json::from_str::<Value>(&text).expect("JSON").as_object().expect("an object").clone();
    files.remove("generator"); // the script that made the file, not a file
    files
}

/// A fresh, empty directory for one test.
fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xp-io-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// Each element's bits (floats by their bit patterns, so that NaN equals NaN and -0.0 differs from
/// 0.0), widened to u128.
fn bits(b: &HostBuffer) -> Vec<u128> {
    match b {
        HostBuffer::Bool(v) => v.iter().map(|&x| x as u128).collect(),
        HostBuffer::I8(v) => v.iter().map(|&x| x as u8 as u128).collect(),
        HostBuffer::I16(v) => v.iter().map(|&x| x as u16 as u128).collect(),
        HostBuffer::I32(v) => v.iter().map(|&x| x as u32 as u128).collect(),
        HostBuffer::I64(v) => v.iter().map(|&x| x as u64 as u128).collect(),
        HostBuffer::U8(v) => v.iter().map(|&x| x as u128).collect(),
        HostBuffer::U16(v) => v.iter().map(|&x| x as u128).collect(),
        HostBuffer::U32(v) => v.iter().map(|&x| x as u128).collect(),
        HostBuffer::U64(v) => v.iter().map(|&x| x as u128).collect(),
        HostBuffer::F16(v) => v.iter().map(|x| x.to_bits() as u128).collect(),
        HostBuffer::BF16(v) => v.iter().map(|x| x.to_bits() as u128).collect(),
        HostBuffer::F32(v) => v.iter().map(|x| x.to_bits() as u128).collect(),
        HostBuffer::F64(v) => v.iter().map(|x| x.to_bits() as u128).collect(),
        HostBuffer::C64(v) => v.iter().map(|x| ((x.re.to_bits() as u128) << 64) | x.im.to_bits() as u128).collect(),
        HostBuffer::C128(v) => v.iter().map(|x| ((x.re.to_bits() as u128) << 64) | x.im.to_bits() as u128).collect(),
    }
}

/// The same f64 (NaN equal to NaN, the sign of zero counted).
fn same_f64(got: f64, want: &Value) -> bool {
    let want: f64 = want.as_str().expect("floats are strings").parse().expect("a float repr");
    (got.is_nan() && want.is_nan()) || got.to_bits() == want.to_bits()
}

/// Mismatches between `a` and NumPy's listing `want` (dtype, shape, values in C order).
fn compare(a: &Array, want: &Value, what: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if a.dtype().name() != want["dtype"].as_str().unwrap() {
        errs.push(format!("{what}: dtype {}, NumPy {}", a.dtype(), want["dtype"]));
    }
    let shape: Vec<usize> = want["shape"].as_array().unwrap().iter().map(|d| d.as_u64().unwrap() as usize).collect();
    if a.shape() != shape {
        errs.push(format!("{what}: shape {:?}, NumPy {shape:?}", a.shape()));
    }
    if !errs.is_empty() {
        return errs;
    }
    let buf = a.to_buffer().unwrap();
    let values = want["values"].as_array().unwrap();
    assert_eq!(buf.len(), values.len(), "{what}");
    for (i, v) in values.iter().enumerate() {
        let ok = match buf.get(i).unwrap() {
            Scalar::Bool(b) => v.as_bool() == Some(b),
            Scalar::Int(x) => v.as_i64() == Some(x),
            Scalar::Uint(x) => v.as_u64() == Some(x),
            Scalar::Float(x) => same_f64(x, v),
            Scalar::Complex(c) => same_f64(c.re, &v[0]) && same_f64(c.im, &v[1]),
        };
        if !ok {
            errs.push(format!("{what}: element {i} is {:?}, NumPy {v}", buf.get(i).unwrap()));
        }
    }
    errs
}

#[track_caller]
fn no_failures(errs: Vec<String>) {
    assert!(errs.is_empty(), "{} mismatches:\n{}", errs.len(), errs.join("\n"));
}

#[test]
fn numpy_files_load_on_every_device() {
    let mut errs = Vec::new();
    let files = expected();
    assert!(files.len() >= 20, "expected.json lists {} files", files.len());
    for dev in devices() {
        let m = xp::on(dev);
        for (name, want) in &files {
            let what = format!("{name} on {dev}");
            if let Some(members) = want.get("members") {
                let z = m.load_npz(data(name)).unwrap_or_else(|e| panic!("{what}: {e}"));
                let order: Vec<&str> = want["order"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
                if z.names().collect::<Vec<_>>() != order {
                    errs.push(format!("{what}: members {:?}, NumPy {order:?}", z.names().collect::<Vec<_>>()));
                }
                for (k, w) in members.as_object().unwrap() {
                    let a = z.get(k).unwrap_or_else(|| panic!("{what}: no member {k}"));
                    assert_eq!(a.device(), dev);
                    errs.extend(compare(a, w, &format!("{what}[{k}]")));
                }
            } else {
                let a = m.load(data(name)).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(a.device(), dev);
                assert!(a.is_contiguous(), "{what}");
                errs.extend(compare(&a, want, &what));
            }
        }
    }
    no_failures(errs);
    // The free functions load into host memory.
    assert_eq!(xp::load(data("float64.npy")).unwrap().device(), Device::Cpu);
    assert_eq!(xp::load_npz(data("arrays.npz")).unwrap().get("ids").unwrap().device(), Device::Cpu);
}

/// Files NumPy wrote with np.save (format 1.0, little-endian, C order): xp loads them and writes the
/// same bytes again.
#[test]
fn xp_writes_numpys_bytes() {
    let dir = scratch("bytes");
    let mut checked = 0;
    let as_np_save =
        |n: &&String| n.ends_with(".npy") && !n.contains("_be") && !n.contains("fortran") && !n.starts_with("format_v");
    for name in expected().keys().filter(as_np_save) {
        let original = std::fs::read(data(name)).unwrap();
        for dev in devices() {
            let a = xp::on(dev).load(data(name)).unwrap();
            xp::save(dir.join(name), &a).unwrap();
            let mine = std::fs::read(dir.join(name)).unwrap();
            let show = |b: &[u8]| String::from_utf8_lossy(&b[..b.len().min(200)]).into_owned();
            assert!(
                mine == original,
                "{name} from {dev}: xp wrote\n{:?}\nNumPy wrote\n{:?}",
                show(&mine),
                show(&original)
            );
        }
        checked += 1;
    }
    assert!(checked >= 16, "{checked}");
    // Made from scratch, not from a load: np.save(np.array(2.5)) and np.save(np.zeros((0, 3), 'f4')).
    xp::save(dir.join("s.npy"), &Array::scalar_on(2.5, DType::F64, Device::Cpu).unwrap()).unwrap();
    assert_eq!(std::fs::read(dir.join("s.npy")).unwrap(), std::fs::read(data("scalar_0d.npy")).unwrap());
    xp::save(dir.join("e.npy"), &xp::zeros([0, 3], DType::F32).unwrap()).unwrap();
    assert_eq!(std::fs::read(dir.join("e.npy")).unwrap(), std::fs::read(data("empty_0x3.npy")).unwrap());
    // Big-endian and Fortran-order input is written little-endian in C order.
    let be = xp::load(data("float64_be.npy")).unwrap();
    xp::save(dir.join("be.npy"), &be).unwrap();
    let bytes = std::fs::read(dir.join("be.npy")).unwrap();
    assert!(
        String::from_utf8_lossy(&bytes[..128]).contains("{'descr': '<f8', 'fortran_order': False, 'shape': (8,), }")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// xp's copies of every reference file (each loaded by xp, saved by xp under the same name), for
/// NumPy to check: `XP_IO_EXPORT_DIR=DIR cargo test -p xp-tests --test suite io::export` then
/// `python3 scripts/gen_io_reference.py --check DIR`. Without the variable they go to a scratch
/// directory, and xp itself checks them against NumPy's listing.
#[test]
fn export_for_numpy() {
    let dir = match std::env::var_os("XP_IO_EXPORT_DIR") {
        Some(d) => {
            std::fs::create_dir_all(&d).unwrap();
            PathBuf::from(d)
        }
        None => scratch("export"),
    };
    let files = expected();
    for (name, want) in &files {
        if want.get("members").is_some() {
            let z = xp::load_npz(data(name)).unwrap();
            let pairs: Vec<(&str, &Array)> = z.iter().collect();
            if name.contains("compressed") {
                xp::savez_compressed(dir.join(name), &pairs).unwrap();
            } else {
                xp::savez(dir.join(name), &pairs).unwrap();
            }
        } else {
            xp::save(dir.join(name), &xp::load(data(name)).unwrap()).unwrap();
        }
    }
    let mut errs = Vec::new();
    for (name, want) in &files {
        if let Some(members) = want.get("members") {
            let z = xp::load_npz(dir.join(name)).unwrap();
            for (k, w) in members.as_object().unwrap() {
                errs.extend(compare(z.get(k).unwrap(), w, &format!("xp's {name}[{k}]")));
            }
        } else {
            errs.extend(compare(&xp::load(dir.join(name)).unwrap(), want, &format!("xp's {name}")));
        }
    }
    no_failures(errs);
    if std::env::var_os("XP_IO_EXPORT_DIR").is_some() {
        eprintln!(
            "wrote {} files to {}: check them with scripts/gen_io_reference.py --check",
            files.len(),
            dir.display()
        );
    } else {
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// An array of every dtype but bfloat16, with the values that break codecs: extremes, NaN, ±inf, -0.
fn every_dtype() -> Vec<Array> {
    let f = [0.0, -0.0, 1.5, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -3.25, 1e-300];
    let v = |b: HostBuffer, shape: &[usize]| Array::from_buffer(b, shape, Device::Cpu).unwrap();
    vec![
        v(vec![true, false, false, true, true, false].into(), &[2, 3]),
        v(vec![i8::MIN, -1, 0, i8::MAX].into(), &[4]),
        v(vec![i16::MIN, -1, 0, i16::MAX].into(), &[2, 2]),
        v(vec![i32::MIN, -1, 0, i32::MAX, 7, 8].into(), &[3, 2]),
        v(vec![i64::MIN, -1, 0, i64::MAX].into(), &[4, 1]),
        v(vec![0u8, 1, 128, 255].into(), &[4]),
        v(vec![0u16, 1, 32768, u16::MAX].into(), &[4]),
        v(vec![0u32, 1, 1 << 31, u32::MAX].into(), &[1, 4]),
        v(vec![0u64, 1, 1 << 63, u64::MAX].into(), &[2, 1, 2]),
        v(f.iter().map(|&x| f16::from_f64(x)).collect::<Vec<_>>().into(), &[2, 4]),
        v(f.iter().map(|&x| x as f32).collect::<Vec<_>>().into(), &[8]),
        v(f.to_vec().into(), &[2, 2, 2]),
        v(
            f.iter().zip(f.iter().rev()).map(|(&a, &b)| Complex32::new(a as f32, b as f32)).collect::<Vec<_>>().into(),
            &[4, 2],
        ),
        v(f.iter().zip(f.iter().rev()).map(|(&a, &b)| Complex64::new(a, b)).collect::<Vec<_>>().into(), &[8]),
    ]
}

#[test]
fn round_trips_are_exact_on_every_device() {
    let dir = scratch("round");
    let arrays = every_dtype();
    assert_eq!(arrays.len(), DType::ALL.len() - 1);
    for dev in devices() {
        let m = xp::on(dev);
        for (i, a) in arrays.iter().enumerate() {
            let what = format!("{} {:?} on {dev}", a.dtype(), a.shape());
            let a = a.to_device(dev).unwrap();
            let want = bits(&a.to_buffer().unwrap());
            let path = dir.join(format!("a{i}.npy"));
            xp::save(&path, &a).unwrap();
            let b = m.load(&path).unwrap();
            assert_eq!((b.dtype(), b.shape(), b.device()), (a.dtype(), a.shape(), dev), "{what}");
            assert_eq!(bits(&b.to_buffer().unwrap()), want, "{what}");
            // A non-contiguous view is written in C order of its shape.
            let t = a.t().unwrap();
            xp::save(&path, &t).unwrap();
            let b = m.load(&path).unwrap();
            assert_eq!(b.shape(), t.shape(), "{what} transposed");
            assert_eq!(bits(&b.to_buffer().unwrap()), bits(&t.to_buffer().unwrap()), "{what} transposed");
            // Raw bytes: tofile / fromfile, reshaped.
            let raw = dir.join(format!("a{i}.bin"));
            a.tofile(&raw).unwrap();
            assert_eq!(std::fs::metadata(&raw).unwrap().len() as usize, a.size() * a.dtype().size());
            let b = m.fromfile(&raw, a.dtype(), None).unwrap();
            assert_eq!((b.shape(), b.device()), (&[a.size()][..], dev), "{what} fromfile");
            assert_eq!(bits(&b.to_buffer().unwrap()), want, "{what} fromfile");
        }
        // A stepped view, a 0-d array and an empty one.
        let base = Array::from_vec((0..24).map(|i| i as f64 - 7.5).collect(), [4, 6]).unwrap().to_device(dev).unwrap();
        let view = base.slice(s![1..;2, ..;-3]).unwrap();
        let zero_d = Array::scalar_on(-4i64, DType::I64, dev).unwrap();
        let empty = xp::on(dev).zeros([3, 0, 2], DType::C64).unwrap();
        for a in [&view, &zero_d, &empty] {
            let path = dir.join("v.npy");
            xp::save(&path, a).unwrap();
            let b = m.load(&path).unwrap();
            assert_eq!((b.dtype(), b.shape()), (a.dtype(), a.shape()));
            assert_eq!(bits(&b.to_buffer().unwrap()), bits(&a.to_buffer().unwrap()));
        }
        // Archives of every dtype, stored and compressed.
        let named: Vec<(String, Array)> =
            arrays.iter().map(|a| (a.dtype().name().to_string(), a.to_device(dev).unwrap())).collect();
        let pairs: Vec<(&str, &Array)> = named.iter().map(|(n, a)| (n.as_str(), a)).chain([("view", &view)]).collect();
        for compressed in [false, true] {
            let path = dir.join(if compressed { "all_c.npz" } else { "all.npz" });
            if compressed {
                xp::savez_compressed(&path, &pairs).unwrap();
            } else {
                xp::savez(&path, &pairs).unwrap();
            }
            let z = m.load_npz(&path).unwrap();
            assert_eq!(z.names().collect::<Vec<_>>(), pairs.iter().map(|p| p.0).collect::<Vec<_>>());
            for (n, a) in &pairs {
                let b = z.get(n).unwrap();
                assert_eq!((b.dtype(), b.shape(), b.device()), (a.dtype(), a.shape(), dev), "{n}");
                assert_eq!(bits(&b.to_buffer().unwrap()), bits(&a.to_buffer().unwrap()), "{n}");
            }
            assert_eq!(z.len(), pairs.len());
            assert_eq!((&z).into_iter().count(), pairs.len());
        }
    }
    // bfloat16 has no .npy type, but raw bytes hold it.
    let b = Array::from_vec(vec![bf16::from_f32(1.5), bf16::NAN, bf16::NEG_INFINITY], [3]).unwrap();
    b.tofile(dir.join("b.bin")).unwrap();
    assert_eq!(
        bits(&xp::fromfile(dir.join("b.bin"), DType::BF16, None).unwrap().to_buffer().unwrap()),
        bits(&b.to_buffer().unwrap())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn suffixes_follow_numpy() {
    let dir = scratch("suffix");
    let a = xp::arange(0, 3, 1, None).unwrap();
    xp::save(dir.join("plain"), &a).unwrap();
    xp::save(dir.join("named.npy"), &a).unwrap();
    xp::save(dir.join("other.ext"), &a).unwrap();
    xp::savez(dir.join("arch"), &[("a", &a)]).unwrap();
    xp::savez_compressed(dir.join("comp.npz"), &[("a", &a)]).unwrap();
    a.tofile(dir.join("raw")).unwrap();
    assert_eq!(listing(&dir), ["arch.npz", "comp.npz", "named.npy", "other.ext.npy", "plain.npy", "raw"]);
    // A member without the .npy suffix keeps its whole name (NumPy's NpzFile.files).
    let mut zw = Vec::new();
    let inner = std::fs::read(dir.join("plain.npy")).unwrap();
    let mut w = ZipOut::new(&mut zw);
    w.add("data.bin", &inner);
    w.add("b.npy", &inner);
    w.finish();
    std::fs::write(dir.join("odd.npz"), &zw).unwrap();
    let z = xp::load_npz(dir.join("odd.npz")).unwrap();
    assert_eq!(z.names().collect::<Vec<_>>(), ["data.bin", "b"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A minimal writer of stored zip archives (so that the test builds archives NumPy's way without a
/// zip dependency of its own): local headers, central directory, end record; CRC-32 computed here.
struct ZipOut<'a, W: std::io::Write> {
    w: &'a mut W,
    at: u32,
    central: Vec<u8>,
    n: u16,
}

impl<'a, W: std::io::Write> ZipOut<'a, W> {
    fn new(w: &'a mut W) -> Self {
        ZipOut { w, at: 0, central: Vec::new(), n: 0 }
    }
    fn add(&mut self, name: &str, data: &[u8]) {
        let crc = crc32(data);
        let (len, nlen) = (data.len() as u32, name.len() as u16);
        let mut local = Vec::new();
        local.extend(0x04034b50u32.to_le_bytes());
        local.extend([20, 0, 0, 0, 0, 0, 0, 0, 0x21, 0]); // version, flags, stored, time, date
        local.extend(crc.to_le_bytes());
        local.extend(len.to_le_bytes());
        local.extend(len.to_le_bytes());
        local.extend(nlen.to_le_bytes());
        local.extend(0u16.to_le_bytes());
        local.extend(name.as_bytes());
        self.central.extend(0x02014b50u32.to_le_bytes());
        self.central.extend([20, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0x21, 0]);
        self.central.extend(crc.to_le_bytes());
        self.central.extend(len.to_le_bytes());
        self.central.extend(len.to_le_bytes());
        self.central.extend(nlen.to_le_bytes());
        self.central.extend([0; 12]); // extra, comment, disk, internal and external attributes
        self.central.extend(self.at.to_le_bytes());
        self.central.extend(name.as_bytes());
        self.w.write_all(&local).unwrap();
        self.w.write_all(data).unwrap();
        self.at += local.len() as u32 + len;
        self.n += 1;
    }
    fn finish(self) {
        self.w.write_all(&self.central).unwrap();
        let mut end = 0x06054b50u32.to_le_bytes().to_vec();
        end.extend([0, 0, 0, 0]);
        end.extend(self.n.to_le_bytes());
        end.extend(self.n.to_le_bytes());
        end.extend((self.central.len() as u32).to_le_bytes());
        end.extend(self.at.to_le_bytes());
        end.extend([0, 0]);
        self.w.write_all(&end).unwrap();
    }
}

fn crc32(data: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in data {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 == 1 { (c >> 1) ^ 0xEDB8_8320 } else { c >> 1 };
        }
    }
    !c
}

/// An `.npy` file with header text `dict` (padded NumPy's way) followed by `data`.
fn npy_with(dict: &str, data: &[u8]) -> Vec<u8> {
    let hlen = dict.len() + 1;
    let total = hlen + 64 - (10 + hlen) % 64;
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((total as u16).to_le_bytes());
    out.extend(dict.as_bytes());
    out.resize(10 + total - 1, b' ');
    out.push(b'\n');
    out.extend(data);
    out
}

/// Loads `bytes` as a file: must be a BadFile or Io error (never a panic, never Ok).
#[track_caller]
fn refused(dir: &Path, bytes: &[u8], what: &str) -> Error {
    let path = dir.join("bad.npy");
    std::fs::write(&path, bytes).unwrap();
    match xp::load(&path) {
        Err(e @ (Error::BadFile { .. } | Error::Io { .. })) => {
            assert_eq!(std::fs::read(&path).unwrap(), bytes, "{what}: the input changed");
            e
        }
        other => panic!("{what}: {other:?}"),
    }
}

#[test]
fn truncated_files_are_typed_errors() {
    let dir = scratch("trunc");
    for name in ["int32.npy", "complex128.npy", "scalar_0d.npy", "fortran_2d.npy"] {
        let bytes = std::fs::read(data(name)).unwrap();
        for len in 0..bytes.len() {
            let e = refused(&dir, &bytes[..len], &format!("{name} cut to {len} bytes"));
            assert!(matches!(e, Error::BadFile { .. }), "{name} cut to {len}: {e:?}");
        }
    }
    // Truncations of an archive, too: every length in its first and last 200 bytes (local header,
    // central directory, end record), every third one between.
    for name in ["arrays.npz", "arrays_compressed.npz"] {
        let bytes = std::fs::read(data(name)).unwrap();
        let path = dir.join("cut.npz");
        let n = bytes.len();
        for len in (0..n).filter(|&l| l < 200 || l + 200 >= n || l % 3 == 0) {
            std::fs::write(&path, &bytes[..len]).unwrap();
            match xp::load_npz(&path) {
                Err(Error::BadFile { .. }) => {}
                other => panic!("{name} cut to {len} bytes: {other:?}"),
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn corrupt_archive_members_fail_their_checksum() {
    let dir = scratch("crc");
    let mut bytes = std::fs::read(data("arrays.npz")).unwrap();
    // The first member (weights.npy, stored): flip a bit of its last element.
    let start = bytes.windows(6).position(|w| w == b"\x93NUMPY").unwrap();
    bytes[start + 170] ^= 0x10;
    std::fs::write(dir.join("c.npz"), &bytes).unwrap();
    match xp::load_npz(dir.join("c.npz")) {
        Err(e @ Error::BadFile { .. }) => assert!(e.to_string().contains("weights.npy"), "{e}"),
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_headers_are_typed_errors() {
    let dir = scratch("headers");
    let ok = "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }";
    let data = [1u8, 0, 0, 0, 2, 0, 0, 0];
    assert_eq!(
        xp::load({
            std::fs::write(dir.join("ok.npy"), npy_with(ok, &data)).unwrap();
            dir.join("ok.npy")
        })
        .unwrap()
        .to_vec::<i32>()
        .unwrap(),
        [1, 2]
    );
    let deep =
        format!("{{'descr': '<i4', 'fortran_order': False, 'shape': {}2{}, }}", "(".repeat(5000), ")".repeat(5000));
    let cases: Vec<(&str, String)> = vec![
        ("not a dict", "[1, 2]".into()),
        ("missing key", "{'descr': '<i4', 'shape': (2,), }".into()),
        ("extra key", "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), 'x': 1}".into()),
        ("shape a list", "{'descr': '<i4', 'fortran_order': False, 'shape': [2], }".into()),
        ("shape an int", "{'descr': '<i4', 'fortran_order': False, 'shape': (2), }".into()),
        ("negative dim", "{'descr': '<i4', 'fortran_order': False, 'shape': (-2,), }".into()),
        (
            "huge dim",
            "{'descr': '<i4', 'fortran_order': False, 'shape': (100000000000000000000000000000000000000000,), }".into(),
        ),
        (
            "overflowing size",
            "{'descr': '<i4', 'fortran_order': False, 'shape': (1099511627776, 1099511627776, 1099511627776), }".into(),
        ),
        ("too much data asked", "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }".into()),
        ("order a string", "{'descr': '<i4', 'fortran_order': 'False', 'shape': (2,), }".into()),
        ("unknown type", "{'descr': '<x4', 'fortran_order': False, 'shape': (2,), }".into()),
        ("odd size", "{'descr': '<i3', 'fortran_order': False, 'shape': (2,), }".into()),
        ("long double", "{'descr': '<f16', 'fortran_order': False, 'shape': (2,), }".into()),
        ("unterminated string", "{'descr': '<i4, 'fortran_order': False, 'shape': (2,), }".into()),
        ("unbalanced", "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), ".into()),
        ("garbage", "\u{7f}\u{1}".into()),
        ("empty", "".into()),
        ("nested deeply", deep),
        ("too long", format!("{{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }}{}", " ".repeat(20000))),
    ];
    for (what, dict) in &cases {
        let e = refused(&dir, &npy_with(dict, &data), what);
        assert!(matches!(e, Error::BadFile { .. }), "{what}: {e:?}");
    }
    let good = npy_with(ok, &data);
    let mut bad_magic = good.clone();
    bad_magic[1] = b'M';
    let mut bad_version = good.clone();
    bad_version[6] = 9;
    let mut long_len = good.clone();
    long_len[8..10].copy_from_slice(&9000u16.to_le_bytes());
    let v2_huge = [&b"\x93NUMPY\x02\x00"[..], &u32::MAX.to_le_bytes(), b"{}"].concat();
    for (what, bytes) in [
        ("bad magic", bad_magic),
        ("version 9", bad_version),
        ("length past the end", long_len),
        ("4 GiB header", v2_huge),
    ] {
        assert!(matches!(refused(&dir, &bytes, what), Error::BadFile { .. }), "{what}");
    }
    // An archive is not an .npy file, and an .npy file is not an archive.
    let e = refused(&dir, &std::fs::read(self::data("arrays.npz")).unwrap(), "npz to load");
    assert!(e.to_string().contains("load_npz"), "{e}");
    assert!(matches!(xp::load_npz(self::data("int8.npy")), Err(Error::BadFile { .. })));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unsupported_dtypes_are_typed_errors() {
    for (name, says) in [
        ("object.npy", "object"),
        ("structured.npy", "structured"),
        ("datetime.npy", "datetime"),
        ("void2.npy", "bfloat16"),
        ("unicode.npy", "strings"),
    ] {
        let before = std::fs::read(data(name)).unwrap();
        for dev in devices() {
            match xp::on(dev).load(data(name)) {
                Err(e @ Error::BadFile { .. }) => assert!(e.to_string().contains(says), "{name}: {e}"),
                other => panic!("{name}: {other:?}"),
            }
        }
        assert_eq!(std::fs::read(data(name)).unwrap(), before, "{name} changed");
    }
}

/// Random byte flips anywhere in valid files: an error or an array, never a panic; an array never
/// claims more data than the file holds.
#[test]
fn flipped_bytes_never_panic() {
    let dir = scratch("flips");
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for name in ["float64.npy", "fortran_3d.npy", "arrays.npz", "arrays_compressed.npz"] {
        let original = std::fs::read(data(name)).unwrap();
        let path = dir.join(name);
        for round in 0..400 {
            let mut bytes = original.clone();
            // Most flips in the header (the first 128 bytes of an .npy, anywhere in an archive).
            let span = if name.ends_with(".npy") && round % 4 != 0 { 128 } else { bytes.len() };
            for _ in 0..1 + next() % 3 {
                let i = (next() % span as u64) as usize;
                bytes[i] ^= 1 << (next() % 8);
            }
            std::fs::write(&path, &bytes).unwrap();
            if name.ends_with(".npz") {
                match xp::load_npz(&path) {
                    Ok(z) => assert!(z.iter().all(|(_, a)| a.size() * a.dtype().size() <= bytes.len())),
                    Err(Error::BadFile { .. }) => {}
                    Err(e) => panic!("{name} round {round}: {e:?}"),
                }
            } else {
                match xp::load(&path) {
                    Ok(a) => assert!(a.size() * a.dtype().size() <= bytes.len(), "{name} round {round}: {a:?}"),
                    Err(Error::BadFile { .. }) => {}
                    Err(e) => panic!("{name} round {round}: {e:?}"),
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn missing_files_are_io_errors() {
    let dir = scratch("missing");
    let nowhere = dir.join("no-such-file.npy");
    assert!(matches!(xp::load(&nowhere), Err(Error::Io { op: "load", .. })));
    assert!(matches!(xp::load_npz(&nowhere), Err(Error::Io { op: "load_npz", .. })));
    assert!(matches!(xp::fromfile(&nowhere, DType::F32, None), Err(Error::Io { op: "fromfile", .. })));
    assert!(matches!(xp::load(&dir), Err(Error::Io { .. })), "a directory");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn failed_saves_leave_no_file() {
    let dir = scratch("failed");
    let a = Array::from_vec(vec![1.0f32, 2.0], [2]).unwrap();
    // Into a directory that does not exist.
    let gone = dir.join("no-such-dir").join("a.npy");
    assert!(matches!(xp::save(&gone, &a), Err(Error::Io { op: "save", .. })));
    assert!(matches!(xp::savez(dir.join("no-such-dir/z.npz"), &[("a", &a)]), Err(Error::Io { .. })));
    assert!(matches!(a.tofile(dir.join("no-such-dir/r.bin")), Err(Error::Io { .. })));
    assert!(!dir.join("no-such-dir").exists());
    // bfloat16 has no .npy type: refused, whether the target exists or not; an existing file stays.
    let b = a.astype(DType::BF16).unwrap();
    assert_eq!(xp::save(dir.join("b.npy"), &b), Err(Error::InvalidDType { op: "save", dtype: DType::BF16 }));
    xp::save(dir.join("kept.npy"), &a).unwrap();
    let kept = std::fs::read(dir.join("kept.npy")).unwrap();
    assert!(matches!(xp::save(dir.join("kept.npy"), &b), Err(Error::InvalidDType { .. })));
    // An archive whose second member fails.
    assert!(matches!(xp::savez(dir.join("kept.npy.npz"), &[("a", &a), ("b", &b)]), Err(Error::InvalidDType { .. })));
    assert!(matches!(xp::savez_compressed(dir.join("z"), &[("a", &a), ("a", &a)]), Err(Error::InvalidArgument { .. })));
    assert_eq!(std::fs::read(dir.join("kept.npy")).unwrap(), kept);
    assert_eq!(listing(&dir), ["kept.npy"], "no other file, no temporary file");
    // A failure after the data were written (the rename onto a directory of that name fails): the
    // temporary file is removed.
    std::fs::create_dir_all(dir.join("d.npy/inside")).unwrap();
    std::fs::create_dir_all(dir.join("d.npz/inside")).unwrap();
    assert!(matches!(xp::save(dir.join("d.npy"), &a), Err(Error::Io { op: "save", .. })));
    assert!(matches!(xp::savez(dir.join("d.npz"), &[("a", &a)]), Err(Error::Io { op: "savez", .. })));
    assert!(matches!(a.tofile(dir.join("d.npy")), Err(Error::Io { op: "tofile", .. })));
    assert_eq!(listing(&dir), ["d.npy", "d.npz", "kept.npy"], "no temporary file left");
    assert_eq!(listing(&dir.join("d.npy")), ["inside"]);
    std::fs::remove_dir_all(dir.join("d.npy")).unwrap();
    std::fs::remove_dir_all(dir.join("d.npz")).unwrap();
    // Saving over an existing file replaces it whole.
    xp::save(dir.join("kept.npy"), &xp::arange(0, 5, 1, None).unwrap()).unwrap();
    assert_eq!(xp::load(dir.join("kept.npy")).unwrap().to_vec::<i64>().unwrap(), [0, 1, 2, 3, 4]);
    assert_eq!(listing(&dir), ["kept.npy"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fromfile_checks_lengths() {
    let dir = scratch("fromfile");
    let path = dir.join("r.bin");
    std::fs::write(&path, [1u8, 0, 0, 0, 2, 0, 0, 0, 3]).unwrap();
    assert!(matches!(xp::fromfile(&path, DType::I32, None), Err(Error::BadFile { .. })), "9 bytes of int32");
    assert!(matches!(xp::fromfile(&path, DType::I32, Some(3)), Err(Error::BadFile { .. })), "3 asked, 2 present");
    assert!(matches!(xp::fromfile(&path, DType::I32, Some(usize::MAX)), Err(Error::BadFile { .. })));
    assert_eq!(xp::fromfile(&path, DType::I32, Some(2)).unwrap().to_vec::<i32>().unwrap(), [1, 2]);
    assert_eq!(xp::fromfile(&path, DType::I32, Some(0)).unwrap().shape(), [0]);
    assert_eq!(xp::fromfile(&path, DType::U8, None).unwrap().size(), 9);
    // Bytes other than 0 and 1 read as true.
    assert_eq!(
        xp::fromfile(&path, DType::Bool, Some(5)).unwrap().to_vec::<bool>().unwrap(),
        [true, false, false, false, true]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
