//! Sweep rows of `xp::ndimage` against `scipy.ndimage` / `cupyx.scipy.ndimage`, on a 2048² float32
//! image with SciPy's defaults (`reflect` border for filters, cubic splines and a `constant` border
//! for interpolation): correlations and convolutions, Gaussian, uniform, rank and derivative
//! filters, zoom, shift, rotate, map_coordinates and the spline prefilters.
use super::{one, shrunk, uniform, Row};
use xp::ndimage::{
    self, Filter1d, Gaussian, Gaussian1d, Interpolation, Mode, Reshape, Rotate, Spline, Window, ZoomGrid,
};
use xp::{Array, DType, Result};

const IMG: usize = 2048;
const REFLECT: Mode = Mode::Reflect;

/// The 31 taps of the 1-D correlation rows: (k + 1) / 496, which sum to 1.
fn taps() -> Vec<f64> {
    (0..31).map(|k| (k + 1) as f64 / 496.0).collect()
}

pub(super) fn rows(r: &mut Vec<Row>, gpu: bool) {
    let img = "img = uniform((2048, 2048))";
    let size = "2048x2048 f32";
    type Filter = fn(&Array) -> Result<Array>;
    // filters of the whole image: (name, size tail, python call, xp call)
    let filters: Vec<(&str, &str, &str, Filter)> = vec![
        ("gaussian_filter", "sigma 4", "gaussian_filter(img, 4.0)", |x| {
            ndimage::gaussian_filter(x, &[4.0], Gaussian { order: &[0], mode: REFLECT, truncate: 4.0, radius: None })
        }),
        ("gaussian_filter1d", "sigma 4, axis -1", "gaussian_filter1d(img, 4.0)", |x| {
            ndimage::gaussian_filter1d(
                x,
                4.0,
                Gaussian1d { axis: -1, order: 0, mode: REFLECT, truncate: 4.0, radius: None },
            )
        }),
        ("gaussian_laplace", "sigma 2", "gaussian_laplace(img, 2.0)", |x| {
            ndimage::gaussian_laplace(x, &[2.0], Gaussian { mode: REFLECT, truncate: 4.0, ..Default::default() })
        }),
        ("sobel", "axis -1", "sobel(img)", |x| ndimage::sobel(x, -1, REFLECT)),
        ("prewitt", "axis -1", "prewitt(img)", |x| ndimage::prewitt(x, -1, REFLECT)),
        ("laplace", "", "laplace(img)", |x| ndimage::laplace(x, REFLECT)),
        ("uniform_filter", "5x5", "uniform_filter(img, 5)", |x| {
            ndimage::uniform_filter(x, &[5], ndimage::Filter { mode: REFLECT, origin: &[0] })
        }),
        ("uniform_filter1d", "31, axis -1", "uniform_filter1d(img, 31)", |x| {
            ndimage::uniform_filter1d(x, 31, Filter1d { axis: -1, mode: REFLECT, origin: 0 })
        }),
        ("minimum_filter", "5x5", "minimum_filter(img, 5)", |x| {
            ndimage::minimum_filter(x, Window::Size(&[5]), ndimage::Filter { mode: REFLECT, origin: &[0] })
        }),
        ("maximum_filter", "5x5", "maximum_filter(img, 5)", |x| {
            ndimage::maximum_filter(x, Window::Size(&[5]), ndimage::Filter { mode: REFLECT, origin: &[0] })
        }),
        ("minimum_filter1d", "31, axis -1", "minimum_filter1d(img, 31)", |x| {
            ndimage::minimum_filter1d(x, 31, Filter1d { axis: -1, mode: REFLECT, origin: 0 })
        }),
        ("maximum_filter1d", "31, axis -1", "maximum_filter1d(img, 31)", |x| {
            ndimage::maximum_filter1d(x, 31, Filter1d { axis: -1, mode: REFLECT, origin: 0 })
        }),
        ("spline_filter", "order 3", "spline_filter(img, 3)", |x| {
            ndimage::spline_filter(x, Spline { order: 3, mode: Mode::Mirror })
        }),
        ("spline_filter1d", "order 3, axis -1", "spline_filter1d(img, 3)", |x| {
            ndimage::spline_filter1d(x, -1, Spline { order: 3, mode: Mode::Mirror })
        }),
        ("shift", "(10.5, -3.25), cubic", "shift(img, (10.5, -3.25))", |x| {
            ndimage::shift(x, &[10.5, -3.25], Interpolation::default())
        }),
    ];
    for (name, tail, py, f) in filters {
        r.push(Row::new(
            &format!("ndimage.{name}"),
            format!("{size} {tail}").trim_end().to_string(),
            img,
            format!("sp.ndimage.{py}"),
            move |d| {
                let x = uniform(&[IMG, IMG], 0, d)?;
                one(move || f(&x))
            },
        ));
    }
    // xp's rotation is slow on the CPU (6 s at 2048²): 1024² there
    let (n, sz) = shrunk(gpu, IMG, 1024, "f32 30 deg, reshape=False, cubic");
    r.push(Row::new(
        "ndimage.rotate",
        sz,
        format!("img = uniform(({n}, {n}))"),
        "sp.ndimage.rotate(img, 30.0, reshape=False)",
        move |d| {
            let x = uniform(&[n, n], 0, d)?;
            one(move || {
                ndimage::rotate(&x, 30.0, Rotate { axes: [1, 0], reshape: Reshape::Keep }, Interpolation::default())
            })
        },
    ));
    // rank filters: about 1.5 s each in SciPy at 2048² on the CPU, 1024² there
    type Rank = fn(&Array) -> Result<Array>;
    let ranks: [(&str, &str, &str, Rank); 3] = [
        ("median_filter", "5x5", "median_filter(img, 5)", |x| {
            ndimage::median_filter(x, Window::Size(&[5]), ndimage::Filter { mode: REFLECT, origin: &[0] })
        }),
        ("rank_filter", "rank 3, 5x5", "rank_filter(img, 3, 5)", |x| {
            ndimage::rank_filter(x, 3, Window::Size(&[5]), ndimage::Filter { mode: REFLECT, origin: &[0] })
        }),
        ("percentile_filter", "75%, 5x5", "percentile_filter(img, 75, 5)", |x| {
            ndimage::percentile_filter(x, 75.0, Window::Size(&[5]), ndimage::Filter { mode: REFLECT, origin: &[0] })
        }),
    ];
    for (name, tail, py, f) in ranks {
        let (n, sz) = shrunk(gpu, IMG, 1024, &format!("f32 {tail}"));
        r.push(Row::new(
            &format!("ndimage.{name}"),
            sz,
            format!("img = uniform(({n}, {n}))"),
            format!("sp.ndimage.{py}"),
            move |d| {
                let x = uniform(&[n, n], 0, d)?;
                one(move || f(&x))
            },
        ));
    }
    // correlations with a 5x5 kernel and 31 taps
    type Corr = fn(&Array, &Array) -> Result<Array>;
    let corrs: [(&str, Corr); 2] = [
        ("correlate", |x, w| ndimage::correlate(x, w, ndimage::Filter { mode: REFLECT, origin: &[0] })),
        ("convolve", |x, w| ndimage::convolve(x, w, ndimage::Filter { mode: REFLECT, origin: &[0] })),
    ];
    for (name, f) in corrs {
        r.push(Row::new(
            &format!("ndimage.{name}"),
            format!("{size} * 5x5"),
            format!("{img}; w = uniform((5, 5), 1)"),
            format!("sp.ndimage.{name}(img, w)"),
            move |d| {
                let (x, w) = (uniform(&[IMG, IMG], 0, d)?, uniform(&[5, 5], 1, d)?);
                one(move || f(&x, &w))
            },
        ));
    }
    type Corr1 = fn(&Array, &[f64]) -> Result<Array>;
    let corr1: [(&str, Corr1); 2] = [
        ("correlate1d", |x, w| ndimage::correlate1d(x, w, Filter1d { axis: -1, mode: REFLECT, origin: 0 })),
        ("convolve1d", |x, w| ndimage::convolve1d(x, w, Filter1d { axis: -1, mode: REFLECT, origin: 0 })),
    ];
    for (name, f) in corr1 {
        r.push(Row::new(
            &format!("ndimage.{name}"),
            format!("{size} * 31 taps, axis -1"),
            format!("{img}; w = xp.asarray([(k + 1) / 496.0 for k in range(31)])"),
            format!("sp.ndimage.{name}(img, w)"),
            move |d| {
                let x = uniform(&[IMG, IMG], 0, d)?;
                let w = taps();
                one(move || f(&x, &w))
            },
        ));
    }
    // interpolation
    r.push(Row::new(
        "ndimage.zoom",
        "1024x1024 -> 2048x2048 f32, cubic",
        "img = uniform((1024, 1024))",
        "sp.ndimage.zoom(img, 2.0)",
        |d| {
            let x = uniform(&[1024, 1024], 0, d)?;
            one(move || ndimage::zoom(&x, &[2.0], Interpolation::default(), ZoomGrid::Samples))
        },
    ));
    // xp takes 6.7 s at 2048² on the CPU: 1024² (image and points) there
    let (n, sz) = shrunk(gpu, IMG, 1024, "f32 at as many points, cubic");
    r.push(Row::new(
        "ndimage.map_coordinates",
        sz,
        format!("img = uniform(({n}, {n})); c = uniform((2, {n}, {n}), 1).astype(xp.float64) * {}", n - 1),
        "sp.ndimage.map_coordinates(img, c)",
        move |d| {
            let x = uniform(&[n, n], 0, d)?;
            let c = uniform(&[2, n, n], 1, d)?.astype(DType::F64)?.mul((n - 1) as f64)?;
            one(move || ndimage::map_coordinates(&x, &c, Interpolation::default()))
        },
    ));
}
