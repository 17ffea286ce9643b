//! Index grids: NumPy's `mgrid`, `ogrid`, `indices` and `fromfunction`.
//!
//! NumPy writes `np.mgrid[0:3, 0:1:5j]`; xp takes one [`GridAxis`] per axis: a Rust range
//! (`0..3`, NumPy's `0:3`), [`GridAxis::step`] (`start:stop:step`) or [`GridAxis::points`]
//! (`start:stop:numj`, the end point included).
//!
//! ```
//! use xp::GridAxis;
//! let g = xp::mgrid(&[(0..2).into(), GridAxis::points(0.0, 1.0, 3)]).unwrap();
//! assert_eq!(g.shape(), &[2, 2, 3]);
//! assert_eq!(g.to_vec::<f64>().unwrap(), vec![0., 0., 0., 1., 1., 1., 0., 0.5, 1., 0., 0.5, 1.]);
//! let o = xp::ogrid(&[(0..2).into(), (0..3).into()]).unwrap();
//! assert_eq!((o[0].shape(), o[1].shape()), (&[2, 1][..], &[1, 3][..]));
//! let f = xp::fromfunction(|i| i[0].mul(&i[1]), &[2, 3], xp::DType::I64).unwrap();
//! assert_eq!(f.to_vec::<i64>().unwrap(), vec![0, 0, 0, 0, 1, 2]);
//! ```
use crate::creation::{ArrayModule, HOST};
use crate::shape::{shape_of, IntoShape};
use crate::Array;
use std::ops::Range;
use xp_core::{DType, Result, Scalar};

/// One axis of [`mgrid`]/[`ogrid`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GridAxis {
    /// `start, start + step, …` below `stop` (NumPy's `start:stop:step`); integers give int64
    Step {
        /// first value
        start: Scalar,
        /// bound, excluded
        stop: Scalar,
        /// increment (nonzero)
        step: Scalar,
    },
    /// `num` points from `start` to `stop`, both included (NumPy's `start:stop:numj`); float64
    Points {
        /// first value
        start: f64,
        /// last value
        stop: f64,
        /// how many
        num: usize,
    },
}

impl GridAxis {
    /// NumPy's `start:stop:step`.
    pub fn step(start: impl Into<Scalar>, stop: impl Into<Scalar>, step: impl Into<Scalar>) -> GridAxis {
        GridAxis::Step { start: start.into(), stop: stop.into(), step: step.into() }
    }
    /// NumPy's `start:stop:numj`.
    pub fn points(start: f64, stop: f64, num: usize) -> GridAxis {
        GridAxis::Points { start, stop, num }
    }
    fn line(&self, m: &ArrayModule) -> Result<Array> {
        match *self {
            GridAxis::Step { start, stop, step } => m.arange(start, stop, step, None),
            GridAxis::Points { start, stop, num } => m.linspace(start, stop, num, Default::default()),
        }
    }
}

macro_rules! grid_from_range {
    ($($t:ty),*) => {$(
        impl From<Range<$t>> for GridAxis {
            fn from(r: Range<$t>) -> GridAxis {
                GridAxis::step(r.start, r.end, 1)
            }
        }
    )*};
}
grid_from_range!(i32, i64, isize, usize, u32, f64);

impl ArrayModule {
    /// The lines of a grid, one per axis, in the dtype they share (float64 if any is float).
    fn grid_lines(&self, axes: &[GridAxis]) -> Result<Vec<Array>> {
        let lines = axes.iter().map(|a| a.line(self)).collect::<Result<Vec<_>>>()?;
        let float = lines.iter().any(|l| l.dtype() != DType::I64);
        let dtype = if float { DType::F64 } else { DType::I64 };
        lines.into_iter().map(|l| l.cast_if(dtype)).collect()
    }
    /// NumPy's `mgrid`: a dense grid, shape `(len(axes), n0, n1, …)`; output `i` varies along
    /// axis `i`.
    pub fn mgrid(&self, axes: &[GridAxis]) -> Result<Array> {
        let lines = self.grid_lines(axes)?;
        if lines.is_empty() {
            return self.zeros([0], DType::I64);
        }
        let refs: Vec<&Array> = lines.iter().collect();
        let grids = self.meshgrid(&refs, crate::Indexing::Ij)?;
        crate::stack(&grids.iter().collect::<Vec<_>>(), 0)
    }
    /// NumPy's `ogrid`: the open grid, line `i` shaped to vary along axis `i` with length 1
    /// elsewhere, so that the lines broadcast against each other.
    pub fn ogrid(&self, axes: &[GridAxis]) -> Result<Vec<Array>> {
        let nd = axes.len();
        let lines = self.grid_lines(axes)?;
        lines
            .into_iter()
            .enumerate()
            .map(|(i, l)| {
                let mut s = vec![1usize; nd];
                s[i] = l.size();
                l.reshape_exact(&s)
            })
            .collect()
    }
    /// NumPy's `indices(dimensions, dtype)`: shape `(len(dims), *dims)`, entry `[i, …]` the
    /// index along axis `i`.
    /// `None` gives int64, NumPy's default.
    pub fn indices(&self, dims: impl IntoShape, dtype: impl Into<Option<DType>>) -> Result<Array> {
        let (dims, dtype) = (shape_of("indices", dims)?, dtype.into().unwrap_or(DType::I64));
        if self.device() == xp_core::Device::Cpu && !dims.is_empty() {
            let buf = xp_core::with_dtype!(dtype, T => host_indices::<T>(&dims));
            let mut shape = vec![dims.len()];
            shape.extend_from_slice(&dims);
            return Array::from_buffer(buf, shape, xp_core::Device::Cpu);
        }
        let axes: Vec<GridAxis> = dims.iter().map(|&d| GridAxis::from(0..d)).collect();
        let g = self.mgrid(&axes)?;
        if dims.is_empty() {
            return self.zeros([0], dtype);
        }
        g.cast_if(dtype)
    }
    /// NumPy's `fromfunction(f, shape, dtype)`: `f` called once with the index arrays
    /// (`indices(shape, dtype)` split along its first axis), its result returned.
    /// `None` gives float64, NumPy's default.
    pub fn fromfunction<F>(&self, f: F, shape: impl IntoShape, dtype: impl Into<Option<DType>>) -> Result<Array>
    where
        F: FnOnce(&[Array]) -> Result<Array>,
    {
        let shape = shape_of("fromfunction", shape)?;
        let g = self.indices(&shape, dtype.into().unwrap_or(DType::F64))?;
        let idx = (0..shape.len()).map(|i| g.slice(crate::s![i as isize])).collect::<Result<Vec<_>>>()?;
        f(&idx)
    }
}

/// [`ArrayModule::indices`] written straight into one host buffer over the cores (meshgrid and
/// stack were two copies: 0.63x NumPy at (2, 2048, 2048)): block `i` holds the index along
/// axis `i`, runs of one value for the leading axes and copies of `0..d` for the last one; every
/// value converted once, as `astype` from int64 converts it.
fn host_indices<T: xp_core::Element>(dims: &[usize]) -> xp_core::HostBuffer {
    let nd = dims.len();
    let m: usize = dims.iter().product();
    let last = dims[nd - 1];
    let line: Vec<T> = (0..last).map(|v| T::from_scalar(Scalar::Int(v as i64))).collect();
    // strides[i]: how many elements share one index along axis i
    let mut strides = vec![1usize; nd];
    for i in (0..nd - 1).rev() {
        strides[i] = strides[i + 1] * dims[i + 1];
    }
    let out = xp_cpu::iter::fill_chunks(nd * m, |start, chunk| {
        let end = start + chunk.len();
        let mut pos = start;
        while pos < end {
            let (i, j) = (pos / m, pos % m);
            let at = pos - start;
            let n = if i == nd - 1 {
                let v = j % last;
                let n = (last - v).min(end - pos);
                for (o, &x) in chunk[at..at + n].iter_mut().zip(&line[v..v + n]) {
                    o.write(x);
                }
                n
            } else {
                let st = strides[i];
                let n = (st - j % st).min(end - pos);
                let x = T::from_scalar(Scalar::Int(((j / st) % dims[i]) as i64));
                for o in &mut chunk[at..at + n] {
                    o.write(x);
                }
                n
            };
            pos += n;
        }
    });
    T::into_buffer(out)
}

/// [`ArrayModule::mgrid`] in host memory.
pub fn mgrid(axes: &[GridAxis]) -> Result<Array> {
    HOST.mgrid(axes)
}
/// [`ArrayModule::ogrid`] in host memory.
pub fn ogrid(axes: &[GridAxis]) -> Result<Vec<Array>> {
    HOST.ogrid(axes)
}
/// [`ArrayModule::indices`] in host memory.
pub fn indices(dims: impl IntoShape, dtype: impl Into<Option<DType>>) -> Result<Array> {
    HOST.indices(dims, dtype)
}
/// [`ArrayModule::fromfunction`] in host memory.
pub fn fromfunction<F>(f: F, shape: impl IntoShape, dtype: impl Into<Option<DType>>) -> Result<Array>
where
    F: FnOnce(&[Array]) -> Result<Array>,
{
    HOST.fromfunction(f, shape, dtype)
}
