//! Sweep rows of the statistics (`crates/api/src/stats/` and the mean-like reductions NumPy lists
//! among its statistics: `mean`, `std`, `var`, `nanmean`, `ptp`, `nanmax`, `nanmin`): order
//! statistics (not `nanquantile`/`nanpercentile`: CuPy lacks them), weighted means and
//! covariances, histograms and counting, differences, gradients, integrals and interpolation, on
//! 2^22 float32 values (2048² for the 2-D ones). The `nan*` rows hold NaN in about 1% of the
//! places.
use super::{ints, many, one, uniform, Row};
use xp::{Array, Bins, Cov, DType, Device, Histogram, QuantileMethod, Result, Spacing};

const L: usize = 1 << 22;

/// Uniform values with NaN wherever the value was below 0.01.
fn with_nans(shape: &[usize], d: Device) -> Result<Array> {
    let a = uniform(shape, 0, d)?;
    xp::where_(&a.lt(0.01)?, f64::NAN, &a)
}

const PY_NANS: &str = "a = uniform(1 << 22); a = xp.where(a < 0.01, np.float32(np.nan), a)";

pub(super) fn rows(r: &mut Vec<Row>, _gpu: bool) {
    let a1 = "a = uniform(1 << 22)";
    type Red = fn(&Array) -> Result<Array>;
    // (name, python call, xp call, NaNs in the input)
    let reds: [(&str, &str, Red, bool); 13] = [
        ("mean", "xp.mean(a)", |a| a.mean(..), false),
        ("std", "xp.std(a)", |a| a.std(..), false),
        ("var", "xp.var(a)", |a| a.var(..), false),
        ("ptp", "xp.ptp(a)", |a| a.ptp(..), false),
        ("nanmean", "xp.nanmean(a)", |a| a.nanmean(..), true),
        ("nanmax", "xp.nanmax(a)", |a| a.nanmax(..), true),
        ("nanmin", "xp.nanmin(a)", |a| a.nanmin(..), true),
        ("median", "xp.median(a)", |a| xp::median(a, ..), false),
        ("nanmedian", "xp.nanmedian(a)", |a| xp::nanmedian(a, ..), true),
        (
            "quantile",
            "xp.quantile(a, [0.1, 0.5, 0.9])",
            |a| xp::quantile(a, [0.1, 0.5, 0.9], .., QuantileMethod::Linear),
            false,
        ),
        (
            "percentile",
            "xp.percentile(a, [10, 50, 90])",
            |a| xp::percentile(a, [10.0, 50.0, 90.0], .., QuantileMethod::Linear),
            false,
        ),
        ("nancumsum", "xp.nancumsum(a)", |a| a.nancumsum(..), true),
        ("diff", "xp.diff(a)", |a| xp::diff(a, 1, -1), false),
    ];
    for (name, py, f, nans) in reds {
        let size = if nans { "2^22 f32, 1% NaN" } else { "2^22 f32" };
        r.push(Row::new(name, size, if nans { PY_NANS } else { a1 }, py, move |d| {
            let a = if nans { with_nans(&[L], d)? } else { uniform(&[L], 0, d)? };
            one(move || f(&a))
        }));
    }
    r.push(Row::new(
        "nancumprod",
        "2^22 f32 near 1, 1% NaN",
        format!("{PY_NANS}; a = 1 + (a - 0.5) * 1e-3"),
        "xp.nancumprod(a)",
        |d| {
            let a = with_nans(&[L], d)?.sub(0.5)?.mul(1e-3)?.add(1.0)?;
            one(move || a.nancumprod(..))
        },
    ));
    r.push(Row::new("median", "2048x2048 f32, axis -1", "a = uniform((2048, 2048))", "xp.median(a, axis=-1)", |d| {
        let a = uniform(&[2048, 2048], 0, d)?;
        one(move || xp::median(&a, -1))
    }));
    r.push(Row::new(
        "average",
        "2^22 f32, weights",
        format!("{a1}; w = uniform(1 << 22, 1)"),
        "xp.average(a, weights=w)",
        |d| {
            let (a, w) = (uniform(&[L], 0, d)?, uniform(&[L], 1, d)?);
            one(move || xp::average(&a, .., Some(&w)))
        },
    ));
    r.push(Row::new("cov", "64x65536 f32", "a = uniform((64, 65536))", "xp.cov(a)", |d| {
        let a = uniform(&[64, 65536], 0, d)?;
        one(move || xp::cov(&a, None, Cov::default()))
    }));
    r.push(Row::new("corrcoef", "64x65536 f32", "a = uniform((64, 65536))", "xp.corrcoef(a)", |d| {
        let a = uniform(&[64, 65536], 0, d)?;
        one(move || xp::corrcoef(&a, None, xp::Corrcoef { rowvar: true }))
    }));
    // counting
    r.push(Row::new("histogram", "2^22 f32, 1024 bins", a1, "xp.histogram(a, 1024)", |d| {
        let a = uniform(&[L], 0, d)?;
        many(move || {
            let (h, e) = xp::histogram(&a, 1024, Histogram::default())?;
            Ok(vec![h, e])
        })
    }));
    r.push(Row::new(
        "histogram2d",
        "2^22 f32 pairs, 256x256 bins",
        "x = uniform(1 << 22); y = uniform(1 << 22, 1)",
        "xp.histogram2d(x, y, 256)",
        |d| {
            let (x, y) = (uniform(&[L], 0, d)?, uniform(&[L], 1, d)?);
            many(move || {
                let (h, ex, ey) = xp::histogram2d(&x, &y, [Bins::Count(256), Bins::Count(256)], None, None, false)?;
                Ok(vec![h, ex, ey])
            })
        },
    ));
    r.push(
        Row::new("histogramdd", "2^21x2 f32, 64x64 bins", "s = uniform((1 << 21, 2))", "xp.histogramdd(s, 64)", |d| {
            let s = uniform(&[L / 2, 2], 0, d)?;
            many(move || {
                let (h, edges) = xp::histogramdd(&s, &[Bins::Count(64)], None, None, false)?;
                Ok(std::iter::once(h).chain(edges).collect())
            })
        })
        .out("[r[0]] + list(r[1])"),
    );
    r.push(Row::new("bincount", "2^22 int64 < 2^16", "i = ints(1 << 22, 1 << 16)", "xp.bincount(i)", |d| {
        let i = ints(&[L], 1 << 16, 0, d)?;
        one(move || xp::bincount(&i, None, 0))
    }));
    r.push(Row::new(
        "digitize",
        "2^22 f32, 1025 edges",
        format!("{a1}; e = xp.linspace(0, 1, 1025, dtype=xp.float32)"),
        "xp.digitize(a, e)",
        |d| {
            let a = uniform(&[L], 0, d)?;
            let e = xp::on(d).linspace(0.0, 1.0, 1025, xp::Linspace { endpoint: true, dtype: Some(DType::F32) })?;
            one(move || xp::digitize(&a, &e, false))
        },
    ));
    // differences, gradients, integrals, interpolation
    r.push(Row::new("ediff1d", "2^22 f32", a1, "xp.ediff1d(a)", |d| {
        let a = uniform(&[L], 0, d)?;
        one(move || xp::ediff1d(&a, None, None))
    }));
    r.push(Row::new("gradient", "2048x2048 f32", "a = uniform((2048, 2048))", "xp.gradient(a)", |d| {
        let a = uniform(&[2048, 2048], 0, d)?;
        many(move || xp::gradient(&a, &[Spacing::Step(1.0)], .., 1))
    }));
    r.push(Row::new(
        "trapezoid",
        "2^22 f32",
        format!("{a1}; tz = getattr(xp, 'trapezoid', None) or xp.trapz"),
        "tz(a)",
        |d| {
            let a = uniform(&[L], 0, d)?;
            one(move || xp::trapezoid(&a, None, 1.0, -1))
        },
    ));
    r.push(Row::new(
        "interp",
        "2^22 f32 at 4096 knots",
        format!("{a1}; k = xp.linspace(0, 1, 4096, dtype=xp.float32); v = uniform(4096, 1)"),
        "xp.interp(a, k, v)",
        |d| {
            let a = uniform(&[L], 0, d)?;
            let k = xp::on(d).linspace(0.0, 1.0, 4096, xp::Linspace { endpoint: true, dtype: Some(DType::F32) })?;
            let v = uniform(&[4096], 1, d)?;
            one(move || xp::interp(&a, &k, &v, None, None))
        },
    ));
}
