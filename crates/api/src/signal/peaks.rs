//! SciPy's `find_peaks`: the local maxima of a 1-D signal, filtered by conditions on their
//! plateau size, height, thresholds, distance, prominence and width, with the properties SciPy
//! reports. Each step depends on the previous one's survivors, so it runs on the host: the
//! signal is copied to the CPU (one transfer) and the results are placed on its device.
use crate::Array;
use xp_core::{DType, Device, Error, Result};

/// An interval condition (SciPy's `(min, max)`, either side open with None): a property passes
/// when `min ≤ value ≤ max`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Range {
    /// the smallest accepted value
    pub min: Option<f64>,
    /// the largest accepted value
    pub max: Option<f64>,
}

impl Range {
    /// `value ≥ min` (SciPy's scalar condition).
    pub fn at_least(min: f64) -> Self {
        Range { min: Some(min), max: None }
    }
    /// `min ≤ value ≤ max`.
    pub fn between(min: f64, max: f64) -> Self {
        Range { min: Some(min), max: Some(max) }
    }
    /// `value ≤ max`.
    pub fn at_most(max: f64) -> Self {
        Range { min: None, max: Some(max) }
    }
    fn keep(&self, v: &[f64]) -> Vec<bool> {
        v.iter().map(|&x| self.min.is_none_or(|m| m <= x) && self.max.is_none_or(|m| x <= m)).collect()
    }
}

/// The conditions of [`find_peaks`] (SciPy's keyword arguments); `Default` sets none, with
/// `rel_height` 0.5.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeakConditions {
    /// the peak's value
    pub height: Option<Range>,
    /// the vertical distance to both neighbours (the smaller for `min`, the larger for `max`)
    pub threshold: Option<Range>,
    /// the smallest horizontal distance between peaks (≥ 1); lower peaks go first
    pub distance: Option<f64>,
    /// the peak's prominence
    pub prominence: Option<Range>,
    /// the peak's width at `rel_height` of its prominence
    pub width: Option<Range>,
    /// the window (in samples, > 1) within which a prominence looks for its bases
    pub wlen: Option<usize>,
    /// the height of the width measurement, as a fraction of the prominence (≥ 0)
    pub rel_height: f64,
    /// the number of samples of the peak's flat top
    pub plateau_size: Option<Range>,
}

impl Default for PeakConditions {
    fn default() -> Self {
        PeakConditions {
            height: None,
            threshold: None,
            distance: None,
            prominence: None,
            width: None,
            wlen: None,
            rel_height: 0.5,
            plateau_size: None,
        }
    }
}

/// The peaks [`find_peaks`] found and the properties its conditions computed (SciPy's
/// `properties` dict: each is Some when its condition was given, one value per peak).
#[derive(Clone, Debug)]
pub struct Peaks {
    /// the peaks' indices (int64; a plateau's middle, rounded down)
    pub peaks: Array,
    /// plateau sizes (int64), with `plateau_size`
    pub plateau_sizes: Option<Array>,
    /// a plateau's first index (int64), with `plateau_size`
    pub left_edges: Option<Array>,
    /// a plateau's last index (int64), with `plateau_size`
    pub right_edges: Option<Array>,
    /// the peaks' values (float64), with `height`
    pub peak_heights: Option<Array>,
    /// the rise from the left neighbour (float64), with `threshold`
    pub left_thresholds: Option<Array>,
    /// the rise from the right neighbour (float64), with `threshold`
    pub right_thresholds: Option<Array>,
    /// the prominences (float64), with `prominence` or `width`
    pub prominences: Option<Array>,
    /// the left bases (int64), with `prominence` or `width`
    pub left_bases: Option<Array>,
    /// the right bases (int64), with `prominence` or `width`
    pub right_bases: Option<Array>,
    /// the widths (float64), with `width`
    pub widths: Option<Array>,
    /// the heights the widths are measured at (float64), with `width`
    pub width_heights: Option<Array>,
    /// the interpolated left ends of the widths (float64), with `width`
    pub left_ips: Option<Array>,
    /// the interpolated right ends of the widths (float64), with `width`
    pub right_ips: Option<Array>,
}

/// A property column on the host.
#[derive(Clone)]
enum Col {
    Int(Vec<i64>),
    Float(Vec<f64>),
}

/// The peaks so far and their properties, filtered together.
struct State {
    peaks: Vec<usize>,
    props: Vec<(&'static str, Col)>,
}

impl State {
    fn retain(&mut self, keep: &[bool]) {
        fn pick<T>(v: &mut Vec<T>, keep: &[bool]) {
            let mut k = keep.iter();
            v.retain(|_| *k.next().expect("one flag per peak"));
        }
        pick(&mut self.peaks, keep);
        for (_, c) in &mut self.props {
            match c {
                Col::Int(v) => pick(v, keep),
                Col::Float(v) => pick(v, keep),
            }
        }
    }
    fn floats(&self, name: &str) -> &[f64] {
        match self.props.iter().find(|(n, _)| *n == name) {
            Some((_, Col::Float(v))) => v,
            _ => unreachable!("{name} is computed before it is read"),
        }
    }
    fn ints(&self, name: &str) -> Vec<usize> {
        match self.props.iter().find(|(n, _)| *n == name) {
            Some((_, Col::Int(v))) => v.iter().map(|&i| i as usize).collect(),
            _ => unreachable!("{name} is computed before it is read"),
        }
    }
}

/// SciPy's `_local_maxima_1d`: every sample (or flat run) higher than both neighbours, as
/// (left edge, right edge); the ends are never peaks.
fn local_maxima(x: &[f64]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut i, i_max) = (1, x.len().saturating_sub(1));
    while i < i_max {
        if x[i - 1] < x[i] {
            let mut ahead = i + 1;
            while ahead < i_max && x[ahead] == x[i] {
                ahead += 1;
            }
            if x[ahead] < x[i] {
                out.push((i, ahead - 1));
                i = ahead;
            }
        }
        i += 1;
    }
    out
}

/// SciPy's `_select_by_peak_distance`: from the highest peak down, drop the lower peaks closer
/// than `distance` (rounded up). Ties of height are taken in index order (NumPy's unstable
/// sort may order them otherwise).
fn by_distance(peaks: &[usize], heights: &[f64], distance: f64) -> Vec<bool> {
    let d = distance.ceil() as usize;
    let mut order: Vec<usize> = (0..peaks.len()).collect();
    order.sort_by(|&a, &b| heights[a].total_cmp(&heights[b]));
    let mut keep = vec![true; peaks.len()];
    for &j in order.iter().rev() {
        if !keep[j] {
            continue;
        }
        for k in (0..j).rev().take_while(|&k| peaks[j] - peaks[k] < d) {
            keep[k] = false;
        }
        for k in (j + 1..peaks.len()).take_while(|&k| peaks[k] - peaks[j] < d) {
            keep[k] = false;
        }
    }
    keep
}

/// SciPy's `_peak_prominences`: (prominences, left bases, right bases), the bases searched
/// within `wlen / 2` of the peak when `wlen` is given.
fn prominences(x: &[f64], peaks: &[usize], wlen: Option<usize>) -> (Vec<f64>, Vec<i64>, Vec<i64>) {
    let mut out = (Vec::new(), Vec::new(), Vec::new());
    for &p in peaks {
        let (mut lo, mut hi) = (0, x.len() - 1);
        if let Some(w) = wlen {
            lo = p.saturating_sub(w / 2);
            hi = (p + w / 2).min(hi);
        }
        let (mut left, mut lmin) = (p, x[p]);
        let mut i = p as isize;
        while i >= lo as isize && x[i as usize] <= x[p] {
            if x[i as usize] < lmin {
                (lmin, left) = (x[i as usize], i as usize);
            }
            i -= 1;
        }
        let (mut right, mut rmin) = (p, x[p]);
        let mut i = p;
        while i <= hi && x[i] <= x[p] {
            if x[i] < rmin {
                (rmin, right) = (x[i], i);
            }
            i += 1;
        }
        out.0.push(x[p] - lmin.max(rmin));
        out.1.push(left as i64);
        out.2.push(right as i64);
    }
    out
}

/// SciPy's `_peak_widths`: (widths, width heights, left ips, right ips) at `rel_height` of
/// each prominence, interpolated between samples, within the bases.
fn widths(x: &[f64], s: &State, rel_height: f64) -> [Vec<f64>; 4] {
    let (prom, lb, rb) = (s.floats("prominences"), s.ints("left_bases"), s.ints("right_bases"));
    let mut out: [Vec<f64>; 4] = Default::default();
    for (k, &p) in s.peaks.iter().enumerate() {
        let h = x[p] - prom[k] * rel_height;
        let mut i = p;
        while lb[k] < i && h < x[i] {
            i -= 1;
        }
        let mut left = i as f64;
        if x[i] < h {
            left += (h - x[i]) / (x[i + 1] - x[i]);
        }
        let mut i = p;
        while i < rb[k] && h < x[i] {
            i += 1;
        }
        let mut right = i as f64;
        if x[i] < h {
            right -= (h - x[i]) / (x[i - 1] - x[i]);
        }
        out[0].push(right - left);
        out[1].push(h);
        out[2].push(left);
        out[3].push(right);
    }
    out
}

/// SciPy's `find_peaks(x, height, threshold, distance, prominence, width, wlen, rel_height,
/// plateau_size)` of a 1-D `x` (computed in float64): the indices of its local maxima that
/// meet every given condition, applied in SciPy's order (plateau size, height, threshold,
/// distance, prominence, width), and the properties those conditions computed.
///
/// Sequential: `x` is read on the host (one copy from a GPU); the results are placed on `x`'s
/// device. A non-1-D `x`, `distance < 1`, `wlen ≤ 1` and `rel_height < 0` are
/// [`Error::InvalidArgument`]s.
///
/// ```
/// use xp::signal::{find_peaks, PeakConditions, Range};
/// let x = xp::Array::from_vec(vec![0.0, 2.0, 0.0, 1.0, 0.0, 3.0, 3.0, 0.0], &[8]).unwrap();
/// let c = PeakConditions { height: Some(Range::at_least(1.5)), ..Default::default() };
/// let p = find_peaks(&x, &c).unwrap();
/// assert_eq!(p.peaks.to_vec::<i64>().unwrap(), vec![1, 5]); // the plateau's middle, rounded down
/// assert_eq!(p.peak_heights.unwrap().to_vec::<f64>().unwrap(), vec![2.0, 3.0]);
/// ```
pub fn find_peaks(x: &Array, c: &PeakConditions) -> Result<Peaks> {
    let op = "find_peaks";
    if x.ndim() != 1 {
        return Err(Error::invalid(op, "`x` must be a 1-D array"));
    }
    if c.distance.is_some_and(|d| d.is_nan() || d < 1.0) {
        return Err(Error::invalid(op, "`distance` must be greater or equal to 1"));
    }
    if let Some(w) = c.wlen.filter(|&w| w <= 1) {
        return Err(Error::invalid(op, format!("`wlen` must be larger than 1, was {w}")));
    }
    if c.width.is_some() && (c.rel_height.is_nan() || c.rel_height < 0.0) {
        return Err(Error::invalid(op, "`rel_height` must be greater or equal to 0.0"));
    }
    let v: Vec<f64> = x.astype(DType::F64)?.to_vec()?;
    let edges = local_maxima(&v);
    let mut s = State { peaks: edges.iter().map(|&(l, r)| (l + r) / 2).collect(), props: Vec::new() };
    let ints = |f: fn(&(usize, usize)) -> usize| Col::Int(edges.iter().map(|e| f(e) as i64).collect());
    if let Some(r) = c.plateau_size {
        let sizes: Vec<f64> = edges.iter().map(|&(l, r)| (r - l + 1) as f64).collect();
        s.props.push(("plateau_sizes", ints(|&(l, r)| r - l + 1)));
        s.props.push(("left_edges", ints(|e| e.0)));
        s.props.push(("right_edges", ints(|e| e.1)));
        s.retain(&r.keep(&sizes));
    }
    if let Some(r) = c.height {
        let h: Vec<f64> = s.peaks.iter().map(|&p| v[p]).collect();
        let keep = r.keep(&h);
        s.props.push(("peak_heights", Col::Float(h)));
        s.retain(&keep);
    }
    if let Some(r) = c.threshold {
        let left: Vec<f64> = s.peaks.iter().map(|&p| v[p] - v[p - 1]).collect();
        let right: Vec<f64> = s.peaks.iter().map(|&p| v[p] - v[p + 1]).collect();
        let keep: Vec<bool> = left
            .iter()
            .zip(&right)
            .map(|(&l, &r2)| r.min.is_none_or(|m| m <= l.min(r2)) && r.max.is_none_or(|m| l.max(r2) <= m))
            .collect();
        s.props.push(("left_thresholds", Col::Float(left)));
        s.props.push(("right_thresholds", Col::Float(right)));
        s.retain(&keep);
    }
    if let Some(d) = c.distance {
        let h: Vec<f64> = s.peaks.iter().map(|&p| v[p]).collect();
        let keep = by_distance(&s.peaks, &h, d);
        s.retain(&keep);
    }
    if c.prominence.is_some() || c.width.is_some() {
        let (p, l, r) = prominences(&v, &s.peaks, c.wlen);
        s.props.push(("prominences", Col::Float(p)));
        s.props.push(("left_bases", Col::Int(l)));
        s.props.push(("right_bases", Col::Int(r)));
    }
    if let Some(r) = c.prominence {
        let keep = r.keep(s.floats("prominences"));
        s.retain(&keep);
    }
    if let Some(r) = c.width {
        let [w, h, l, rr] = widths(&v, &s, c.rel_height);
        let keep = r.keep(&w);
        s.props.extend([
            ("widths", Col::Float(w)),
            ("width_heights", Col::Float(h)),
            ("left_ips", Col::Float(l)),
            ("right_ips", Col::Float(rr)),
        ]);
        s.retain(&keep);
    }
    collect(s, x.device())
}

/// The peaks and properties as arrays on `device`.
fn collect(s: State, device: Device) -> Result<Peaks> {
    let on = crate::on(device);
    let n = s.peaks.len();
    let take = |name: &str| -> Result<Option<Array>> {
        match s.props.iter().find(|(k, _)| *k == name) {
            Some((_, Col::Int(v))) => Ok(Some(on.asarray(v.clone(), [n])?)),
            Some((_, Col::Float(v))) => Ok(Some(on.asarray(v.clone(), [n])?)),
            None => Ok(None),
        }
    };
    Ok(Peaks {
        peaks: on.asarray(s.peaks.iter().map(|&p| p as i64).collect::<Vec<_>>(), [n])?,
        plateau_sizes: take("plateau_sizes")?,
        left_edges: take("left_edges")?,
        right_edges: take("right_edges")?,
        peak_heights: take("peak_heights")?,
        left_thresholds: take("left_thresholds")?,
        right_thresholds: take("right_thresholds")?,
        prominences: take("prominences")?,
        left_bases: take("left_bases")?,
        right_bases: take("right_bases")?,
        widths: take("widths")?,
        width_heights: take("width_heights")?,
        left_ips: take("left_ips")?,
        right_ips: take("right_ips")?,
    })
}
