//! Sweep rows of issue 27's additions against SciPy/NumPy (CuPy on the GPU): `ndimage.label`,
//! the measurements over 100 labelled regions and the morphology on a 2048² image or mask, and
//! the everyday helpers (`nan_to_num`, `around`, `array_equal`, `mgrid`, `indices`).
use super::{ints, one, uniform, Row};
use xp::ndimage::{self, LabelIndex, Morphology, Window};
use xp::{Array, DType, Result};

const IMG: usize = 2048;

pub(super) fn rows(r: &mut Vec<Row>, _gpu: bool) {
    let mask = "m = uniform((2048, 2048)) > 0.5";
    r.push(Row::new("ndimage.label", "2048x2048 bool, faces", mask, "sp.ndimage.label(m)[0]", |d| {
        let m = uniform(&[IMG, IMG], 0, d)?.gt(0.5)?;
        one(move || Ok(ndimage::label(&m, None)?.labels))
    }));
    type Measure = fn(&Array, Option<&Array>, LabelIndex) -> Result<Array>;
    let measures: [(&str, Measure); 7] = [
        ("sum_labels", ndimage::sum_labels),
        ("mean", ndimage::mean),
        ("variance", ndimage::variance),
        ("standard_deviation", ndimage::standard_deviation),
        ("minimum", ndimage::minimum),
        ("maximum", ndimage::maximum),
        ("center_of_mass", ndimage::center_of_mass),
    ];
    for (name, f) in measures {
        r.push(Row::new(
            &format!("ndimage.{name}"),
            "2048x2048 f32, 100 labels",
            "img = uniform((2048, 2048)); lab = ints((2048, 2048), 100, 1); idx = xp.arange(100)",
            format!("xp.asarray(sp.ndimage.{name}(img, lab, idx))"),
            move |d| {
                let (x, lab) = (uniform(&[IMG, IMG], 0, d)?, ints(&[IMG, IMG], 100, 1, d)?);
                let idx: Vec<i64> = (0..100).collect();
                one(move || f(&x, Some(&lab), LabelIndex::Many(&idx)))
            },
        ));
    }
    type Binary = fn(&Array, Morphology) -> Result<Array>;
    let binary: [(&str, Binary); 4] = [
        ("binary_erosion", ndimage::binary_erosion),
        ("binary_dilation", ndimage::binary_dilation),
        ("binary_opening", ndimage::binary_opening),
        ("binary_closing", ndimage::binary_closing),
    ];
    for (name, f) in binary {
        r.push(Row::new(
            &format!("ndimage.{name}"),
            "2048x2048 bool, cross",
            mask,
            format!("sp.ndimage.{name}(m)"),
            move |d| {
                let m = uniform(&[IMG, IMG], 0, d)?.gt(0.5)?;
                one(move || f(&m, Morphology::default()))
            },
        ));
    }
    r.push(Row::new("ndimage.binary_fill_holes", "2048x2048 bool", mask, "sp.ndimage.binary_fill_holes(m)", |d| {
        let m = uniform(&[IMG, IMG], 0, d)?.gt(0.5)?;
        one(move || ndimage::binary_fill_holes(&m, None))
    }));
    type Grey = fn(&Array, Window, ndimage::Filter) -> Result<Array>;
    let grey: [(&str, Grey); 3] = [
        ("grey_erosion", ndimage::grey_erosion),
        ("grey_dilation", ndimage::grey_dilation),
        ("morphological_gradient", ndimage::morphological_gradient),
    ];
    for (name, f) in grey {
        r.push(Row::new(
            &format!("ndimage.{name}"),
            "2048x2048 f32, 5x5",
            "img = uniform((2048, 2048))",
            format!("sp.ndimage.{name}(img, size=5)"),
            move |d| {
                let x = uniform(&[IMG, IMG], 0, d)?;
                one(move || f(&x, Window::Size(&[5]), Default::default()))
            },
        ));
    }
    let n = 1 << 22;
    r.push(Row::new(
        "special.betainc",
        "2^20 f64",
        "a = uniform(1048576).astype(xp.float64) * 20; b = uniform(1048576, 1).astype(xp.float64) * 20; x = uniform(1048576, 2).astype(xp.float64)",
        "sp.special.betainc(a, b, x)",
        move |d| {
            let m = 1 << 20;
            let a = uniform(&[m], 0, d)?.astype(DType::F64)?.mul(20.0)?;
            let b = uniform(&[m], 1, d)?.astype(DType::F64)?.mul(20.0)?;
            let x = uniform(&[m], 2, d)?.astype(DType::F64)?;
            one(move || xp::special::betainc(&a, &b, &x))
        },
    ));
    r.push(Row::new(
        "nan_to_num",
        "2^22 f32, a tenth NaN",
        "x = uniform(4194304); x = xp.where(x < 0.1, xp.float32(xp.nan), x)",
        "xp.nan_to_num(x)",
        move |d| {
            let x = uniform(&[n], 0, d)?;
            let x = xp::where_(&x.lt(0.1)?, f32::NAN, &x)?.astype(DType::F32)?;
            one(move || xp::nan_to_num(&x, Default::default()))
        },
    ));
    r.push(Row::new("around", "2^22 f32, 2 decimals", "x = uniform(4194304)", "xp.around(x, 2)", move |d| {
        let x = uniform(&[n], 0, d)?;
        one(move || xp::around(&x, 2))
    }));
    r.push(Row::new(
        "array_equal",
        "2^22 f32, equal",
        "x = uniform(4194304); y = x.copy()",
        "xp.asarray(xp.array_equal(x, y))",
        move |d| {
            let x = uniform(&[n], 0, d)?;
            let y = x.copy()?;
            one(move || xp::on(d).asarray(vec![xp::array_equal(&x, &y)?], []))
        },
    ));
    r.push(Row::new("mgrid", "2 x 2048 x 2048 int64", "", "xp.mgrid[0:2048, 0:2048]", move |d| {
        one(move || xp::on(d).mgrid(&[(0..2048).into(), (0..2048).into()]))
    }));
    r.push(Row::new("indices", "(2, 2048, 2048) int64", "", "xp.indices((2048, 2048))", move |d| {
        one(move || xp::on(d).indices([2048, 2048], DType::I64))
    }));
}
