//! DLPack: `to_dlpack`/`from_dlpack` round trips for every dtype and layout on every device,
//! against hand-built tensors (strides, negative strides, byte offsets) read by the definition
//! of DLPack's layout, the deleter called exactly once and only after xp's last use, typed errors
//! for bad tensors, and the C entry points.
use std::sync::atomic::{AtomicUsize, Ordering};
use xp::dlpack::{ffi, Dlpack, ToDlpack};
use xp::{Array, DType, Device, Error};

/// A (4, 6) array of `dt` on `dev` whose values differ (mod 2 for bool).
fn sample(dt: DType, dev: Device) -> Array {
    let v: Vec<f64> = (0..24).map(|i| (i * 7 % 24) as f64 - 5.0).collect();
    let a = Array::from_vec(v, [4, 6]).unwrap();
    let a = if dt == DType::Bool { a.gt(0.0).unwrap() } else { a.astype(dt).unwrap() };
    a.to_device(dev).unwrap()
}

fn same(a: &Array, b: &Array) -> bool {
    a.shape() == b.shape() && a.dtype() == b.dtype() && xp::array_equal(a, b).unwrap()
}

#[test]
fn arrays_round_trip_with_their_layout_on_every_device() {
    for dev in xp_testing::devices() {
        for dt in DType::ALL {
            let a = sample(dt, dev);
            let views = [
                ("whole", a.clone()),
                ("transposed", a.t().unwrap()),
                ("sliced with an offset", a.slice(xp::s![1.., ..;2]).unwrap()),
                ("a 0-d element", a.slice(xp::s![2, 3]).unwrap()),
                ("empty", a.slice(xp::s![2..2, ..]).unwrap()),
            ];
            for (what, x) in views {
                for legacy in [false, true] {
                    let t = x.to_dlpack(&ToDlpack { legacy, ..Default::default() }).unwrap();
                    assert_eq!(t.is_versioned(), !legacy);
                    let shape: Vec<i64> = x.shape().iter().map(|&s| s as i64).collect();
                    assert_eq!(t.shape(), &shape[..], "{dt} {what} on {dev:?}: shape");
                    assert_eq!(t.flags(), 0, "{dt} {what}: not copied, writable");
                    let dev_t = t.tensor().device;
                    assert_eq!(
                        dev_t.device_type,
                        if dev == Device::Cpu { ffi::DLDeviceType::CPU } else { ffi::DLDeviceType::CUDA }
                    );
                    let b = Array::from_dlpack(t).unwrap();
                    assert!(same(&b, &x), "{dt} {what} on {dev:?} (legacy {legacy})");
                    assert_eq!(b.device(), dev);
                }
            }
            // negative strides: a copy (flagged), or an error when no copy is allowed
            let r = a.slice(xp::s![..;-1, ..]).unwrap();
            let t = r.to_dlpack(&ToDlpack::default()).unwrap();
            assert_eq!(t.flags(), 2, "IS_COPIED");
            assert!(t.strides().iter().all(|&s| s >= 0));
            assert!(same(&Array::from_dlpack(t).unwrap(), &r), "{dt} reversed on {dev:?}");
            let refused = r.to_dlpack(&ToDlpack { copy: Some(false), ..Default::default() });
            assert!(matches!(refused, Err(Error::InvalidArgument { .. })));
            let t = a.to_dlpack(&ToDlpack { copy: Some(true), ..Default::default() }).unwrap();
            assert_eq!(t.flags(), 2);
            assert!(same(&Array::from_dlpack(t).unwrap(), &a));
        }
    }
}

#[test]
fn device_memory_is_shared_and_host_memory_copied() {
    for dev in xp_testing::devices() {
        let a = sample(DType::F32, dev);
        let b = Array::from_dlpack(a.to_dlpack(&ToDlpack::default()).unwrap()).unwrap();
        b.slice(xp::s![0, 0]).unwrap().assign(100.0).unwrap();
        let seen = a.slice(xp::s![0, 0]).unwrap().to_vec::<f32>().unwrap()[0];
        // on a GPU the same memory (zero-copy); host memory is copied into xp's own buffers
        assert_eq!(seen == 100.0, dev != Device::Cpu, "on {dev:?}");
    }
}

static DELETED: AtomicUsize = AtomicUsize::new(0);

/// What a hand-made tensor owns: its values (bytes), shape and strides.
struct Hand {
    _bytes: Vec<u8>,
    _shape: Vec<i64>,
    _strides: Vec<i64>,
}

unsafe extern "C" fn hand_deleter(p: *mut ffi::DLManagedTensorVersioned) {
    DELETED.fetch_add(1, Ordering::SeqCst);
    // SAFETY: made by `hand` below.
    unsafe {
        drop(Box::from_raw((*p).manager_ctx as *mut Hand));
        drop(Box::from_raw(p));
    }
}

/// A versioned tensor over `bytes` made here, as another library would.
fn hand(mut bytes: Vec<u8>, dt: ffi::DLDataType, mut shape: Vec<i64>, mut strides: Vec<i64>, offset: u64) -> Dlpack {
    let t = ffi::DLTensor {
        data: bytes.as_mut_ptr() as *mut _,
        device: ffi::DLDevice { device_type: ffi::DLDeviceType::CPU, device_id: 0 },
        ndim: shape.len() as i32,
        dtype: dt,
        shape: shape.as_mut_ptr(),
        strides: if strides.is_empty() { std::ptr::null_mut() } else { strides.as_mut_ptr() },
        byte_offset: offset,
    };
    let ctx = Box::into_raw(Box::new(Hand { _bytes: bytes, _shape: shape, _strides: strides }));
    let m = Box::new(ffi::DLManagedTensorVersioned {
        version: ffi::DLPackVersion { major: 1, minor: 0 },
        manager_ctx: ctx as *mut _,
        deleter: Some(hand_deleter),
        flags: xp::dlpack::DlpackFlags::empty(),
        dl_tensor: t,
    });
    // SAFETY: a live tensor given up here.
    unsafe { Dlpack::from_raw(Box::into_raw(m)) }.unwrap()
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

const F32: ffi::DLDataType = ffi::DLDataType { code: ffi::DLDataTypeCode::FLOAT, bits: 32, lanes: 1 };

#[test]
fn foreign_tensors_are_read_by_dlpacks_layout_rules_and_deleted_once() {
    let _serial = LOCK.lock().unwrap();
    let vals: Vec<f32> = (0..12).map(|i| i as f32).collect();
    // element (i, j) at byte_offset/4 + i * s0 + j * s1, by the definition
    let cases: [(&str, Vec<i64>, Vec<i64>, u64); 4] = [
        ("C order, strides omitted", vec![3, 4], vec![], 0),
        ("Fortran order", vec![3, 4], vec![1, 3], 0),
        ("offset, negative row stride", vec![2, 3], vec![-4, 1], 4 * 5),
        ("every other column", vec![3, 2], vec![4, 2], 4),
    ];
    for (what, shape, strides, off) in cases {
        let before = DELETED.load(Ordering::SeqCst);
        let s = if strides.is_empty() { vec![shape[1], 1] } else { strides.clone() };
        let want: Vec<f32> = (0..shape[0])
            .flat_map(|i| (0..shape[1]).map(move |j| (i, j)))
            .map(|(i, j)| vals[(off as i64 / 4 + i * s[0] + j * s[1]) as usize])
            .collect();
        let a = Array::from_dlpack(hand(f32s(&vals), F32, shape.clone(), strides, off)).unwrap();
        assert_eq!(a.shape(), &[shape[0] as usize, shape[1] as usize], "{what}");
        assert_eq!(a.to_vec::<f32>().unwrap(), want, "{what}");
        assert_eq!(DELETED.load(Ordering::SeqCst), before + 1, "{what}: host memory copied, deleter called once");
    }
}

static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn bad_tensors_are_typed_errors_and_still_deleted() {
    let _serial = LOCK.lock().unwrap();
    let bad = |t: Dlpack, what: &str| {
        let before = DELETED.load(Ordering::SeqCst);
        assert!(matches!(Array::from_dlpack(t), Err(Error::InvalidArgument { .. })), "{what}");
        assert_eq!(DELETED.load(Ordering::SeqCst), before + 1, "{what}: deleted once");
    };
    let fp8 = ffi::DLDataType { code: ffi::DLDataTypeCode::FLOAT8_E4M3FN, bits: 8, lanes: 1 };
    bad(hand(vec![0; 4], fp8, vec![4], vec![], 0), "float8");
    let vec2 = ffi::DLDataType { lanes: 2, ..F32 };
    bad(hand(vec![0; 16], vec2, vec![2], vec![], 0), "two lanes");
    bad(hand(f32s(&[1.0, 2.0]), F32, vec![-2], vec![], 0), "a negative extent");
    bad(hand(f32s(&[1.0, 2.0]), F32, vec![1], vec![], 2), "a misaligned offset");
    let mut t = hand(f32s(&[1.0]), F32, vec![1], vec![], 0);
    let p = t.into_raw().unwrap();
    // SAFETY: the tensor is live; a device xp has not, then a major version it cannot read
    unsafe { (*p).dl_tensor.device.device_type = ffi::DLDeviceType::ROCM };
    bad(unsafe { Dlpack::from_raw(p) }.unwrap(), "a ROCm device");
    t = hand(f32s(&[1.0]), F32, vec![1], vec![], 0);
    let p = t.into_raw().unwrap();
    let before = DELETED.load(Ordering::SeqCst);
    unsafe { (*p).version.major = 2 };
    assert!(matches!(unsafe { Dlpack::from_raw(p) }, Err(Error::InvalidArgument { .. })), "major version 2");
    assert_eq!(DELETED.load(Ordering::SeqCst), before + 1, "a tensor of another major version is deleted");
    assert!(unsafe { Dlpack::from_raw(std::ptr::null_mut()) }.is_err(), "null");
}

#[test]
fn device_memory_is_given_back_after_the_last_array_goes() {
    for dev in xp_testing::devices().into_iter().filter(|d| *d != Device::Cpu) {
        static GONE: AtomicUsize = AtomicUsize::new(0);
        static mut INNER: Option<unsafe extern "C" fn(*mut ffi::DLManagedTensorVersioned)> = None;
        unsafe extern "C" fn counting(p: *mut ffi::DLManagedTensorVersioned) {
            GONE.fetch_add(1, Ordering::SeqCst);
            // SAFETY: set below before the tensor is taken, and xp's deleter is then called once.
            unsafe { (INNER.unwrap())(p) }
        }
        let a = sample(DType::F64, dev);
        let p = a.to_dlpack(&ToDlpack::default()).unwrap().into_raw().unwrap();
        // SAFETY: the live tensor xp just made; its deleter wrapped by one that counts
        unsafe {
            INNER = (*p).deleter;
            (*p).deleter = Some(counting);
        }
        let b = Array::from_dlpack(unsafe { Dlpack::from_raw(p) }.unwrap()).unwrap();
        let view = b.t().unwrap().slice(xp::s![1..]).unwrap();
        drop(b);
        let sum = view.mul(2.0).unwrap().sum(..).unwrap();
        assert_eq!(GONE.load(Ordering::SeqCst), 0, "a view still uses the memory");
        drop(view);
        assert_eq!(GONE.load(Ordering::SeqCst), 1, "given back once the last array went");
        let want = a.t().unwrap().slice(xp::s![1..]).unwrap().mul(2.0).unwrap().sum(..).unwrap();
        assert!(same(&sum, &want));
    }
}

#[test]
fn the_c_entry_points_exchange_tensors() {
    use xp::dlpack::{xp_array_free, xp_dlpack_export, xp_dlpack_import, xp_last_error, XpArray};
    for dev in xp_testing::devices() {
        let a = sample(DType::I32, dev).t().unwrap();
        let held = Box::into_raw(Box::new(XpArray(a.clone())));
        // SAFETY: the calls as a C caller makes them: an array from xp, its tensor, imported again
        unsafe {
            let t = xp_dlpack_export(held);
            assert!(!t.is_null());
            let back = xp_dlpack_import(t);
            assert!(!back.is_null());
            assert!(same(&(*back).0, &a), "on {dev:?}");
            xp_array_free(back);
            xp_array_free(held);
            assert!(xp_dlpack_import(std::ptr::null_mut()).is_null());
            assert!(!xp_last_error().is_null());
            assert!(xp_dlpack_export(std::ptr::null()).is_null());
        }
    }
}

/// A heavy product on a side stream, handed to a consumer on another stream: the consumer's
/// stream waits for it through an event (no host wait), on export (`ToDlpack::stream`) and on
/// import (`from_dlpack_after`); a missing wait would read unfinished values.
#[test]
fn streams_are_ordered_by_events_on_both_sides() {
    for dev in xp_testing::devices() {
        let Device::Cuda(i) = dev else { continue };
        let (producer, consumer) = (xp::cuda::Stream::new(i).unwrap(), xp::cuda::Stream::new(i).unwrap());
        let x =
            xp::on(dev).arange(0.0, (1 << 22) as f64, 1.0, Some(DType::F32)).unwrap().reshape([2048, 2048]).unwrap();
        let want = x.matmul(&x).unwrap().sum(..).unwrap().to_vec::<f32>().unwrap();
        for on_import in [false, true] {
            let t = producer.scope(|| {
                let y = x.matmul(&x).unwrap();
                let stream = if on_import { producer.handle() } else { consumer.handle() };
                y.to_dlpack(&ToDlpack { stream: Some(stream), ..Default::default() }).unwrap()
            });
            let got = consumer.scope(|| {
                let a = if on_import {
                    Array::from_dlpack_after(t, Some(producer.handle())).unwrap()
                } else {
                    Array::from_dlpack(t).unwrap()
                };
                a.sum(..).unwrap().to_vec::<f32>().unwrap()
            });
            assert_eq!(got, want, "on import: {on_import}");
        }
    }
}
