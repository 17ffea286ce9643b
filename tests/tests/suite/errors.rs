//! Bad input gives typed errors that say what was wrong, leaves the inputs untouched, and the
//! next operation works.
use xp::{s, Array, BinaryOp, BinaryUfunc, DType, Device, Error};

fn m(shape: &[usize]) -> Array {
    let n: usize = shape.iter().product();
    Array::from_vec((0..n).map(|i| i as f32).collect(), shape).unwrap()
}

#[track_caller]
fn untouched(a: &Array, shape: &[usize]) {
    assert_eq!(a.shape(), shape);
    let n: usize = shape.iter().product();
    assert_eq!(a.to_vec::<f32>().unwrap(), (0..n).map(|i| i as f32).collect::<Vec<_>>());
}

#[test]
fn shape_mismatch_names_both_shapes() {
    let (a, b) = (m(&[2, 3]), m(&[4]));
    let e = a.add(&b).unwrap_err();
    assert_eq!(e, Error::ShapeMismatch { op: "add", lhs: vec![2, 3], rhs: vec![4] });
    assert!(e.to_string().contains("[2, 3]") && e.to_string().contains("[4]"), "{e}");
    untouched(&a, &[2, 3]);
    untouched(&b, &[4]);
    let out = m(&[2, 3]);
    assert!(matches!(a.add_out(&a, &m(&[3, 2])), Err(Error::ShapeMismatch { .. })));
    assert!(a.add_out(&a, &out.astype(DType::I32).unwrap()).is_err(), "float into int out: same_kind refuses");
    untouched(&out, &[2, 3]);
    assert!(matches!(a.broadcast_to([3, 3]), Err(Error::ShapeMismatch { .. })));
    assert!(matches!(xp::concatenate(&[&a, &b], 0), Err(Error::ShapeMismatch { .. })));
    let dst = m(&[2, 3]);
    assert!(matches!(dst.assign(&m(&[2])), Err(Error::ShapeMismatch { .. })));
    untouched(&dst, &[2, 3]);
    // the next operation works
    assert_eq!(a.add(&a).unwrap().sum(..).unwrap().item::<f64>().unwrap(), 30.0);
}

#[test]
fn axis_errors_name_axis_and_ndim() {
    let a = m(&[2, 3]);
    assert_eq!(a.sum(2).unwrap_err(), Error::AxisOutOfRange { op: "sum", axis: 2, ndim: 2 });
    assert!(matches!(a.sum(-3), Err(Error::AxisOutOfRange { axis: -3, .. })));
    assert!(matches!(a.sum([0, -2]), Err(Error::RepeatedAxis { .. })));
    assert!(matches!(a.argmax(5), Err(Error::AxisOutOfRange { .. })));
    assert!(matches!(a.cumsum(-3), Err(Error::AxisOutOfRange { .. })));
    assert!(matches!(a.squeeze(0), Err(Error::InvalidArgument { .. })));
    assert!(matches!(a.transpose([0, 0]), Err(Error::InvalidArgument { .. })));
    assert!(matches!(BinaryOp::Sub.reduce(&a, [0, 1]), Err(Error::InvalidArgument { .. })));
    untouched(&a, &[2, 3]);
}

#[test]
fn invalid_dtypes_are_refused() {
    let f = m(&[3]);
    let b = f.gt(1.0).unwrap();
    assert_eq!(f.bitwise_and(&f).unwrap_err(), Error::InvalidDType { op: "bitwise_and", dtype: DType::F32 });
    assert!(matches!(b.sub(&b), Err(Error::InvalidDType { op: "subtract", .. })));
    assert!(matches!(b.neg(), Err(Error::InvalidDType { op: "negative", .. })));
    assert!(matches!(f.left_shift(1), Err(Error::InvalidDType { .. })));
    let c = f.astype(DType::C64).unwrap();
    assert!(matches!(c.floor_divide(&c), Err(Error::InvalidDType { .. })));
    assert!(matches!(f.to_vec::<f64>(), Err(Error::InvalidArgument { .. })));
    let i = f.astype(DType::I32).unwrap();
    assert!(i.pow(-1).is_err(), "integers to negative powers");
    assert!(matches!(Array::from_vec(vec![1u8], [1]).unwrap().add(300), Err(Error::ScalarOverflow { .. })));
    untouched(&f, &[3]);
}

#[test]
fn reshape_and_index_errors() {
    let a = m(&[2, 3]);
    assert_eq!(a.reshape([4, 2]).unwrap_err(), Error::ReshapeSize { from: vec![2, 3], to: vec![4, 2], size: 6 });
    assert!(matches!(a.reshape([-1, -1]), Err(Error::InvalidArgument { .. })));
    assert_eq!(a.slice(s![2]).unwrap_err(), Error::IndexOutOfBounds { index: 2, axis: 0, size: 2 });
    assert!(matches!(a.slice(s![0, -4]), Err(Error::IndexOutOfBounds { index: -4, axis: 1, size: 3 })));
    assert!(matches!(a.slice(s![0, 0, 0]), Err(Error::InvalidArgument { .. })));
    assert!(matches!(a.slice(s![..;0]), Err(Error::InvalidArgument { .. })));
    let five = Array::from_vec(vec![5i64], [1]).unwrap();
    assert_eq!(a.take(&five, 1).unwrap_err(), Error::IndexOutOfBounds { index: 5, axis: 1, size: 3 });
    assert!(matches!(Array::from_vec(vec![1.0f32; 5], [2, 3]), Err(Error::LengthMismatch { .. })));
    untouched(&a, &[2, 3]);
}

#[test]
fn empty_reductions_without_identity() {
    let e = xp::zeros([0, 3], DType::F32).unwrap();
    for r in [e.max(..), e.min(..), e.argmax(..), e.argmin(0), e.ptp(..)] {
        assert!(matches!(r, Err(Error::EmptyReduction { .. })), "{r:?}");
    }
    assert_eq!(e.sum(..).unwrap().item::<f32>().unwrap(), 0.0);
    assert_eq!(e.prod(..).unwrap().item::<f32>().unwrap(), 1.0);
    assert!(e.all(..).unwrap().item::<bool>().unwrap());
    // axis 1 of (0, 3) keeps an empty result; axis 0 reduces nothing into 3 values
    assert_eq!(e.max(1).unwrap().shape(), &[0]);
    assert!(e.max(0).is_err());
    assert_eq!(e.sum(0).unwrap().to_vec::<f32>().unwrap(), vec![0.0; 3]);
}

#[test]
fn devices_that_are_not_there() {
    let a = m(&[3]);
    // No GPU here (or a build without CUDA): a typed error, no panic, input untouched.
    if xp::cuda::device_count() == 0 {
        let e = a.to_device(Device::Cuda(0)).unwrap_err();
        assert!(matches!(e, Error::NoCuda(_) | Error::CudaNotCompiled), "{e:?}");
        assert!(xp::on(Device::Cuda(0)).zeros([2], DType::F32).is_err());
    }
    let e = a.to_device(Device::Cuda(1000)).unwrap_err();
    assert!(matches!(e, Error::NoCuda(_) | Error::CudaNotCompiled), "{e:?}");
    untouched(&a, &[3]);
    if let Ok(g) = a.to_device(Device::Cuda(0)) {
        // With a GPU: mixing devices names both.
        let e = a.add(&g).unwrap_err();
        assert_eq!(e, Error::DeviceMismatch { op: "add", lhs: Device::Cpu, rhs: Device::Cuda(0) });
        assert!(e.to_string().contains("cpu") && e.to_string().contains("cuda:0"));
    }
    assert_eq!(a.add(1.0).unwrap().to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0]);
}
