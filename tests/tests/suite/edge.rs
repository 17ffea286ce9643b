//! 0-d, empty and size-1 operands against NumPy, on every device, plus the `out` forms,
//! `broadcast_arrays`, `flatten`, `identity` and the `*_like` constructors.
use super::common;
use xp::{Array, DType, UnaryOp};
use xp_testing::{check, devices, Failures};

#[test]
fn zero_d_empty_and_size_one_match_numpy() {
    let cases = common::load("edge");
    let mut f = Failures::default();
    for dev in devices() {
        for case in &cases {
            let op = case["op"].as_str().unwrap();
            let xs: Vec<Array> = case["inputs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| {
                    let (b, s) = common::array(v);
                    Array::from_buffer(b, &s, dev).unwrap()
                })
                .collect();
            let axis = case.get("axis").and_then(|a| a.as_i64()).map(|a| a as isize);
            let axes = axis.map(|a| vec![a]);
            let got = match case["kind"].as_str().unwrap() {
                "unary" => xp::ufunc::unary(common::unary_op(op), &xs[0]),
                "binary" => xp::ufunc::binary(common::binary_op(op), &xs[0], &xs[1]),
                _ => match op {
                    "sum" => xs[0].sum(axes.as_deref()),
                    "prod" => xs[0].prod(axes.as_deref()),
                    "max" => xs[0].max(axes.as_deref()),
                    "min" => xs[0].min(axes.as_deref()),
                    "mean" => xs[0].mean(axes.as_deref()),
                    "all" => xs[0].all(axes.as_deref()),
                    "any" => xs[0].any(axes.as_deref()),
                    "argmax" => xs[0].argmax(axis),
                    "cumsum" => xs[0].cumsum(axis),
                    _ => panic!("unknown {op}"),
                },
            };
            let ctx = format!("{op} {:?} {} axis={axis:?} on {dev}", xs[0].shape(), xs[0].dtype());
            f.add(check(&got, &common::expected(case), &ctx));
        }
    }
    f.finish();
}

#[test]
fn out_forms_write_in_place_with_same_kind_casting() {
    for dev in devices() {
        let mods = xp::on(dev);
        let a = mods.arange(0, 6, 1, Some(DType::F32)).unwrap().reshape([2, 3]).unwrap();
        // a view as the output: the base array sees the result
        let base = mods.zeros([2, 6], DType::F64).unwrap();
        let view = base.slice(xp::s![.., ..;2]).unwrap();
        a.mul_out(2.0, &view).unwrap();
        assert_eq!(
            base.to_vec::<f64>().unwrap(),
            vec![0.0, 0.0, 2.0, 0.0, 4.0, 0.0, 6.0, 0.0, 8.0, 0.0, 10.0, 0.0],
            "mul_out into a strided float64 view on {dev}"
        );
        // in place on the input itself (NumPy's `np.add(a, 1, out=a)`)
        a.add_out(1.0, &a).unwrap();
        assert_eq!(a.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let o = mods.zeros([2, 3], DType::F32).unwrap();
        xp::ufunc::unary_out(UnaryOp::Sqrt, &a, &o).unwrap();
        assert_eq!(o.to_vec::<f32>().unwrap(), [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0].map(f32::sqrt).to_vec());
        // int8 + int8 into an int16 output is same_kind; float into int is not
        let i = mods.full([3], 100, DType::I8).unwrap();
        let wide = mods.zeros([3], DType::I16).unwrap();
        i.add_out(&i, &wide).unwrap();
        assert_eq!(wide.to_vec::<i16>().unwrap(), vec![-56; 3], "int8 wraps before the cast, as NumPy");
        assert!(a.add_out(1.0, &wide).is_err());
    }
}

#[test]
fn small_constructors_and_views() {
    for dev in devices() {
        let mods = xp::on(dev);
        let a = mods.arange(0, 3, 1, None).unwrap().reshape([3, 1]).unwrap();
        let b = mods.arange(0, 4, 1, Some(DType::F32)).unwrap();
        let v = xp::broadcast_arrays(&[&a, &b]).unwrap();
        assert_eq!(v[0].shape(), &[3, 4]);
        assert_eq!(v[0].to_vec::<i64>().unwrap(), vec![0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
        assert_eq!(v[1].to_vec::<f32>().unwrap(), [0.0f32, 1.0, 2.0, 3.0].repeat(3));
        assert!(xp::broadcast_arrays(&[&a, &mods.zeros([2, 4], DType::F32).unwrap()]).is_err());
        let t = v[0].t().unwrap();
        let fl = t.flatten().unwrap();
        fl.assign(7).unwrap(); // a copy: the original is untouched
        assert_eq!(t.to_vec::<i64>().unwrap(), vec![0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
        let id = mods.identity(3, DType::I32).unwrap();
        assert_eq!(id.to_vec::<i32>().unwrap(), vec![1, 0, 0, 0, 1, 0, 0, 0, 1]);
        let z = xp::zeros_like(&b).unwrap();
        assert_eq!((z.shape(), z.dtype(), z.device()), (b.shape(), DType::F32, dev));
        assert_eq!(xp::full_like(&b, 2.5).unwrap().to_vec::<f32>().unwrap(), vec![2.5; 4]);
        assert_eq!(xp::ones_like(&id).unwrap().sum(..).unwrap().item::<i64>().unwrap(), 9);
        assert_eq!(xp::empty_like(&id).unwrap().shape(), &[3, 3]);
        let c = mods.asarray(vec![1u8, 2, 3], [3]).unwrap();
        assert!(c.scalar().is_err(), "item of a size-3 array is an error");
        assert_eq!(c.slice(xp::s![-1]).unwrap().item::<u8>().unwrap(), 3);
    }
}
