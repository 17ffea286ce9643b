//! NumPy namespace coverage (issue 27): every public name of `numpy`, `numpy.linalg`, `numpy.fft`
//! and every public method of `numpy.random.Generator` is either implemented by xp or listed as a
//! deliberate omission with its reason.
//!
//! - The names come from `tests/data/numpy_namespace.json`, written by
//!   `python3 scripts/gen_numpy_namespace.py` (run it again after upgrading NumPy, then fix what
//!   this test reports).
//! - The implemented names are the table below: each NumPy name with the xp item that implements
//!   it. The table is checked by the compiler, not at run time: a free function, type, module,
//!   constant or enum variant is a `use` of its path, and a method (of [`Array`], of
//!   [`Generator`], of [`xp::DType`]) is a method path or a closure calling it, in a function that
//!   is never called. Renaming or removing an xp item breaks the build of this file.
//! - The omissions are `tests/data/numpy_omissions.txt`, one `namespace.name: reason` a line. A
//!   name xp lacks that users reach for says `not yet implemented (issue 27)`.
//!
//! The test fails, listing every offending name, on a NumPy name that is in neither list, a name
//! in both, a name listed twice, and an entry of either list that NumPy no longer has (stale). It
//! prints how many names of each namespace are implemented and omitted.
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Display;
use xp::random::Generator;
use xp::Array;

/// One table entry's compile-time check: `use(path)` imports the item (so it must exist);
/// `method(expr)` evaluates the expression (a method path or a closure calling the method)
/// inside a function that is never called.
macro_rules! check {
    (use $($path:tt)*) => {
        #[allow(unused_imports)]
        use $($path)* as _;
    };
    (method $e:expr) => {
        const _: () = {
            #[allow(dead_code)]
            fn check() {
                let _ = $e;
            }
        };
    };
}

/// The table: `"namespace" { "numpy_name" => use(xp::path), "name" => method(expr), .. }`. Emits
/// the checks and `IMPLEMENTED`, the list of (namespace, NumPy name, xp item).
macro_rules! implemented {
    ($($ns:literal { $($name:literal => $kind:ident ( $($item:tt)* ) ),* $(,)? })*) => {
        $($(check!($kind $($item)*);)*)*
        const IMPLEMENTED: &[(&str, &str, &str)] = &[$($(($ns, $name, stringify!($($item)*))),*),*];
    };
}

implemented! {
    "numpy" {
        // types, dtypes and the dtype hierarchy
        "ndarray" => use(xp::Array),
        "dtype" => use(xp::DType),
        "ufunc" => use(xp::BinaryUfunc),
        "bool" => use(xp::DType::Bool),
        "bool_" => use(xp::DType::Bool),
        "int8" => use(xp::DType::I8),
        "int16" => use(xp::DType::I16),
        "int32" => use(xp::DType::I32),
        "int64" => use(xp::DType::I64),
        "uint8" => use(xp::DType::U8),
        "uint16" => use(xp::DType::U16),
        "uint32" => use(xp::DType::U32),
        "uint64" => use(xp::DType::U64),
        "float16" => use(xp::DType::F16),
        "float32" => use(xp::DType::F32),
        "float64" => use(xp::DType::F64),
        "complex64" => use(xp::DType::C64),
        "complex128" => use(xp::DType::C128),
        "signedinteger" => use(xp::Kind::Int),
        "unsignedinteger" => use(xp::Kind::Uint),
        "floating" => use(xp::Kind::Float),
        "complexfloating" => use(xp::Kind::Complex),
        "integer" => method(xp::DType::is_integer),
        "inexact" => method(xp::DType::is_inexact),
        "isdtype" => method(xp::DType::kind),
        "issubdtype" => method(xp::DType::kind),
        "iscomplexobj" => method(xp::DType::is_complex),
        "sctypeDict" => method(xp::DType::from_name),
        "can_cast" => use(xp::can_cast_safe),
        "promote_types" => use(xp::promote_types),
        "finfo" => use(xp::finfo),
        "iinfo" => use(xp::iinfo),
        "common_type" => use(xp::common_type),
        "result_type" => use(xp::promote_types),
        "newaxis" => use(xp::NEW_AXIS),
        "s_" => use(xp::s),
        "index_exp" => use(xp::s),

        // creation
        "array" => method(|v: Vec<f64>| Array::from_vec(v, [2])),
        "asarray" => method(|m: &xp::ArrayModule| m.asarray(vec![1.0], [1])),
        "asarray_chkfinite" => use(xp::asarray_chkfinite),
        "asanyarray" => method(|m: &xp::ArrayModule| m.asarray(vec![1.0], [1])),
        "fromiter" => method(|v: Vec<f64>| Array::from_vec(v, [2])),
        "frombuffer" => method(|b: xp::HostBuffer| Array::from_buffer(b, [2], xp::Device::Cpu)),
        "ascontiguousarray" => method(Array::ascontiguousarray),
        "copy" => method(Array::copy),
        "astype" => method(Array::astype),
        "arange" => use(xp::arange),
        "linspace" => use(xp::linspace),
        "logspace" => use(xp::logspace),
        "empty" => use(xp::empty),
        "empty_like" => use(xp::empty_like),
        "zeros" => use(xp::zeros),
        "zeros_like" => use(xp::zeros_like),
        "ones" => use(xp::ones),
        "ones_like" => use(xp::ones_like),
        "full" => use(xp::full),
        "full_like" => use(xp::full_like),
        "eye" => use(xp::eye),
        "identity" => use(xp::identity),
        "diag" => method(Array::diag),
        "tril" => method(Array::tril),
        "triu" => method(Array::triu),
        "meshgrid" => use(xp::meshgrid),
        "mgrid" => use(xp::mgrid),
        "ogrid" => use(xp::ogrid),
        "indices" => use(xp::indices),
        "fromfunction" => use(xp::fromfunction),
        "bartlett" => use(xp::bartlett),
        "blackman" => use(xp::blackman),
        "hamming" => use(xp::hamming),
        "hanning" => use(xp::hanning),
        "kaiser" => use(xp::kaiser),

        // attributes as functions
        "ndim" => method(Array::ndim),
        "shape" => method(Array::shape),
        "size" => method(Array::size),

        // manipulation
        "reshape" => method(|a: &Array| a.reshape([-1])),
        "ravel" => method(Array::ravel),
        "transpose" => method(|a: &Array| a.transpose(..)),
        "permute_dims" => method(Array::permute_dims),
        "matrix_transpose" => use(xp::matrix_transpose),
        "swapaxes" => method(Array::swapaxes),
        "moveaxis" => method(Array::moveaxis),
        "expand_dims" => method(Array::expand_dims),
        "squeeze" => method(|a: &Array| a.squeeze(..)),
        "broadcast_to" => method(|a: &Array| a.broadcast_to([2, 2])),
        "broadcast_arrays" => use(xp::broadcast_arrays),
        "copyto" => method(|a: &Array| a.assign(a)),
        "flip" => method(|a: &Array| a.flip(..)),
        "roll" => method(|a: &Array| a.roll(1, ..)),
        "tile" => method(Array::tile),
        "repeat" => method(Array::repeat),
        "pad" => method(Array::pad),
        "concatenate" => use(xp::concatenate),
        "concat" => use(xp::concatenate),
        "stack" => use(xp::stack),
        "hstack" => use(xp::hstack),
        "vstack" => use(xp::vstack),
        "split" => use(xp::split),
        "array_split" => use(xp::array_split),
        "atleast_1d" => use(xp::atleast_1d),
        "atleast_2d" => use(xp::atleast_2d),
        "atleast_3d" => use(xp::atleast_3d),
        "broadcast_shapes" => use(xp::broadcast_shapes),
        "append" => use(xp::append),
        "insert" => use(xp::insert),
        "delete" => use(xp::delete),
        "column_stack" => use(xp::column_stack),
        "dstack" => use(xp::dstack),
        "hsplit" => use(xp::hsplit),
        "vsplit" => use(xp::vsplit),
        "dsplit" => use(xp::dsplit),
        "fliplr" => use(xp::fliplr),
        "flipud" => use(xp::flipud),
        "rot90" => use(xp::rot90),
        "trim_zeros" => use(xp::trim_zeros),
        "diagflat" => use(xp::diagflat),
        "tri" => use(xp::tri),
        "vander" => use(xp::vander),
        "geomspace" => use(xp::geomspace),
        "fill_diagonal" => use(xp::fill_diagonal),
        "diag_indices_from" => use(xp::diag_indices_from),
        "tril_indices_from" => use(xp::tril_indices_from),
        "triu_indices_from" => use(xp::triu_indices_from),
        "resize" => use(xp::resize),
        "apply_along_axis" => use(xp::apply_along_axis),
        "apply_over_axes" => use(xp::apply_over_axes),
        "piecewise" => use(xp::piecewise),
        "block" => use(xp::block),
        "unstack" => use(xp::unstack),

        // elementwise (ufuncs and their aliases)
        "abs" => use(xp::absolute),
        "absolute" => use(xp::absolute),
        "fabs" => use(xp::absolute),
        "negative" => use(xp::negative),
        "positive" => use(xp::positive),
        "sign" => use(xp::sign),
        "reciprocal" => use(xp::reciprocal),
        "exp" => use(xp::exp),
        "exp2" => use(xp::exp2),
        "expm1" => use(xp::expm1),
        "log" => use(xp::log),
        "log2" => use(xp::log2),
        "log10" => use(xp::log10),
        "log1p" => use(xp::log1p),
        "sqrt" => use(xp::sqrt),
        "cbrt" => use(xp::cbrt),
        "square" => use(xp::square),
        "sin" => use(xp::sin),
        "cos" => use(xp::cos),
        "tan" => use(xp::tan),
        "arcsin" => use(xp::arcsin),
        "arccos" => use(xp::arccos),
        "arctan" => use(xp::arctan),
        "asin" => use(xp::arcsin),
        "acos" => use(xp::arccos),
        "atan" => use(xp::arctan),
        "sinh" => use(xp::sinh),
        "cosh" => use(xp::cosh),
        "tanh" => use(xp::tanh),
        "arcsinh" => use(xp::arcsinh),
        "arccosh" => use(xp::arccosh),
        "arctanh" => use(xp::arctanh),
        "asinh" => use(xp::arcsinh),
        "acosh" => use(xp::arccosh),
        "atanh" => use(xp::arctanh),
        "floor" => use(xp::floor),
        "ceil" => use(xp::ceil),
        "trunc" => use(xp::trunc),
        "fix" => use(xp::trunc),
        "rint" => use(xp::rint),
        "around" => use(xp::around),
        "round" => method(Array::round),
        "isnan" => use(xp::isnan),
        "isinf" => use(xp::isinf),
        "isfinite" => use(xp::isfinite),
        "logical_not" => use(xp::logical_not),
        "invert" => use(xp::invert),
        "bitwise_not" => use(xp::invert),
        "bitwise_invert" => use(xp::invert),
        "conjugate" => use(xp::conjugate),
        "conj" => use(xp::conjugate),
        "real" => use(xp::real),
        "imag" => use(xp::imag),
        "angle" => use(xp::angle),
        "sinc" => use(xp::sinc),
        "i0" => use(xp::special::i0),
        "nan_to_num" => use(xp::nan_to_num),
        "degrees" => use(xp::degrees),
        "radians" => use(xp::radians),
        "deg2rad" => use(xp::deg2rad),
        "rad2deg" => use(xp::rad2deg),
        "fmod" => use(xp::fmod),
        "divmod" => use(xp::divmod),
        "modf" => use(xp::modf),
        "ldexp" => use(xp::ldexp),
        "frexp" => use(xp::frexp),
        "float_power" => use(xp::float_power),
        "logaddexp2" => use(xp::logaddexp2),
        "heaviside" => use(xp::heaviside),
        "signbit" => use(xp::signbit),
        "gcd" => use(xp::gcd),
        "lcm" => use(xp::lcm),
        "isneginf" => use(xp::isneginf),
        "isposinf" => use(xp::isposinf),
        "iscomplex" => use(xp::iscomplex),
        "isreal" => use(xp::isreal),
        "isrealobj" => use(xp::isrealobj),
        "real_if_close" => use(xp::real_if_close),
        "nextafter" => use(xp::nextafter),
        "spacing" => use(xp::spacing),
        "bitwise_count" => use(xp::bitwise_count),
        "sort_complex" => use(xp::sort_complex),
        "unwrap" => use(xp::unwrap),
        "add" => use(xp::add),
        "subtract" => use(xp::subtract),
        "multiply" => use(xp::multiply),
        "divide" => use(xp::divide),
        "true_divide" => use(xp::divide),
        "floor_divide" => use(xp::floor_divide),
        "remainder" => use(xp::remainder),
        "mod" => use(xp::remainder),
        "power" => use(xp::power),
        "pow" => use(xp::power),
        "maximum" => use(xp::maximum),
        "minimum" => use(xp::minimum),
        "fmax" => use(xp::fmax),
        "fmin" => use(xp::fmin),
        "arctan2" => use(xp::arctan2),
        "atan2" => use(xp::arctan2),
        "hypot" => use(xp::hypot),
        "logaddexp" => use(xp::logaddexp),
        "copysign" => use(xp::copysign),
        "equal" => use(xp::equal),
        "not_equal" => use(xp::not_equal),
        "less" => use(xp::less),
        "less_equal" => use(xp::less_equal),
        "greater" => use(xp::greater),
        "greater_equal" => use(xp::greater_equal),
        "logical_and" => use(xp::logical_and),
        "logical_or" => use(xp::logical_or),
        "logical_xor" => use(xp::logical_xor),
        "bitwise_and" => use(xp::bitwise_and),
        "bitwise_or" => use(xp::bitwise_or),
        "bitwise_xor" => use(xp::bitwise_xor),
        "left_shift" => use(xp::left_shift),
        "bitwise_left_shift" => use(xp::left_shift),
        "right_shift" => use(xp::right_shift),
        "bitwise_right_shift" => use(xp::right_shift),
        "clip" => method(|a: &Array| a.clip(Some(0.0), Some(1.0))),
        "where" => use(xp::where_),
        "vectorize" => use(xp::fuse),

        // reductions and scans
        "sum" => method(|a: &Array| a.sum(..)),
        "prod" => method(|a: &Array| a.prod(..)),
        "mean" => method(|a: &Array| a.mean(..)),
        "var" => method(|a: &Array| a.var(..)),
        "std" => method(|a: &Array| a.std(..)),
        "max" => method(|a: &Array| a.max(..)),
        "amax" => method(|a: &Array| a.max(..)),
        "min" => method(|a: &Array| a.min(..)),
        "amin" => method(|a: &Array| a.min(..)),
        "ptp" => method(|a: &Array| a.ptp(..)),
        "all" => method(|a: &Array| a.all(..)),
        "any" => method(|a: &Array| a.any(..)),
        "count_nonzero" => method(|a: &Array| a.count_nonzero(..)),
        "argmax" => method(|a: &Array| a.argmax(..)),
        "argmin" => method(|a: &Array| a.argmin(..)),
        "nanmax" => method(|a: &Array| a.nanmax(..)),
        "nanmin" => method(|a: &Array| a.nanmin(..)),
        "nansum" => method(|a: &Array| a.nansum(..)),
        "nanmean" => method(|a: &Array| a.nanmean(..)),
        "cumsum" => method(|a: &Array| a.cumsum(0)),
        "cumprod" => method(|a: &Array| a.cumprod(0)),
        "cumulative_sum" => method(|a: &Array| a.cumsum(0)),
        "cumulative_prod" => method(|a: &Array| a.cumprod(0)),
        "nancumsum" => method(|a: &Array| a.nancumsum(0)),
        "nancumprod" => method(|a: &Array| a.nancumprod(0)),
        "nanargmax" => method(|a: &Array| a.nanargmax(..)),
        "nanargmin" => method(|a: &Array| a.nanargmin(..)),
        "nanprod" => method(|a: &Array| a.nanprod(..)),
        "nanstd" => method(|a: &Array| a.nanstd(..)),
        "nanvar" => method(|a: &Array| a.nanvar(..)),

        // statistics
        "average" => use(xp::average),
        "median" => use(xp::median),
        "nanmedian" => use(xp::nanmedian),
        "quantile" => use(xp::quantile),
        "nanquantile" => use(xp::nanquantile),
        "percentile" => use(xp::percentile),
        "nanpercentile" => use(xp::nanpercentile),
        "cov" => use(xp::cov),
        "corrcoef" => use(xp::corrcoef),
        "histogram" => use(xp::histogram),
        "histogram_bin_edges" => use(xp::histogram_bin_edges),
        "histogram2d" => use(xp::histogram2d),
        "histogramdd" => use(xp::histogramdd),
        "bincount" => use(xp::bincount),
        "digitize" => use(xp::digitize),
        "diff" => use(xp::diff),
        "ediff1d" => use(xp::ediff1d),
        "gradient" => use(xp::gradient),
        "trapezoid" => use(xp::trapezoid),
        "interp" => use(xp::interp),
        "convolve" => use(xp::convolve),
        "correlate" => use(xp::correlate),

        // polynomials (NumPy's legacy polynomial API)
        "polyval" => use(xp::polyval),
        "polyadd" => use(xp::polyadd),
        "polysub" => use(xp::polysub),
        "polymul" => use(xp::polymul),
        "polyder" => use(xp::polyder),
        "polyint" => use(xp::polyint),
        "polyfit" => use(xp::polyfit),
        "roots" => use(xp::roots),
        "poly" => use(xp::poly),
        "polydiv" => use(xp::polydiv),

        // products
        "dot" => use(xp::dot),
        "vdot" => use(xp::vdot),
        "inner" => use(xp::inner),
        "outer" => use(xp::outer),
        "matmul" => use(xp::matmul),
        "tensordot" => use(xp::tensordot),
        "kron" => use(xp::kron),
        "vecdot" => use(xp::vecdot),
        "matvec" => use(xp::matvec),
        "vecmat" => use(xp::vecmat),
        "einsum" => use(xp::einsum),
        "cross" => use(xp::cross),
        "diagonal" => use(xp::diagonal),
        "trace" => use(xp::trace),

        // sorting, searching, sets
        "sort" => use(xp::sort),
        "argsort" => use(xp::argsort),
        "lexsort" => use(xp::lexsort),
        "partition" => method(|a: &Array| a.partition(&[0], -1)),
        "argpartition" => method(|a: &Array| a.argpartition(&[0], -1)),
        "searchsorted" => use(xp::searchsorted),
        "unique" => use(xp::unique),
        "unique_values" => use(xp::unique_values),
        "unique_counts" => use(xp::unique_counts),
        "unique_inverse" => use(xp::unique_inverse),
        "unique_all" => use(xp::unique_all),
        "isin" => use(xp::isin),
        "intersect1d" => use(xp::intersect1d),
        "union1d" => use(xp::union1d),
        "setdiff1d" => use(xp::setdiff1d),
        "setxor1d" => use(xp::setxor1d),

        // indexing
        "take" => method(|a: &Array| a.take(a, 0)),
        "put" => method(|a: &Array| a.put(a, 0.0, xp::IndexMode::Raise)),
        "take_along_axis" => use(xp::take_along_axis),
        "put_along_axis" => use(xp::put_along_axis),
        "compress" => use(xp::compress),
        "extract" => use(xp::extract),
        "place" => use(xp::place),
        "putmask" => use(xp::putmask),
        "choose" => use(xp::choose),
        "select" => use(xp::select),
        "nonzero" => use(xp::nonzero),
        "argwhere" => use(xp::argwhere),
        "flatnonzero" => use(xp::flatnonzero),
        "ix_" => use(xp::ix_),
        "unravel_index" => use(xp::unravel_index),
        "ravel_multi_index" => use(xp::ravel_multi_index),
        "diag_indices" => use(xp::diag_indices),
        "tril_indices" => use(xp::tril_indices),
        "triu_indices" => use(xp::triu_indices),
        "mask_indices" => use(xp::mask_indices),

        // comparison of whole arrays
        "isclose" => use(xp::isclose),
        "allclose" => use(xp::allclose),
        "array_equal" => use(xp::array_equal),
        "array_equiv" => use(xp::array_equiv),

        // input and output, printing
        "save" => use(xp::save),
        "load" => use(xp::load),
        "savez" => use(xp::savez),
        "savez_compressed" => use(xp::savez_compressed),
        "fromfile" => use(xp::fromfile),
        "array_repr" => method(Array::repr),
        "array_str" => method(<Array as Display>::fmt),
        "array2string" => method(<Array as Display>::fmt),
    }
    "numpy.linalg" {
        "LinAlgError" => use(xp::Error::LinAlg),
        "cholesky" => use(xp::linalg::cholesky),
        "cond" => use(xp::linalg::cond),
        "cross" => use(xp::linalg::cross),
        "det" => use(xp::linalg::det),
        "diagonal" => use(xp::linalg::diagonal),
        "eig" => use(xp::linalg::eig),
        "eigh" => use(xp::linalg::eigh),
        "eigvals" => use(xp::linalg::eigvals),
        "eigvalsh" => use(xp::linalg::eigvalsh),
        "inv" => use(xp::linalg::inv),
        "lstsq" => use(xp::linalg::lstsq),
        "matmul" => use(xp::linalg::matmul),
        "matrix_norm" => use(xp::linalg::matrix_norm),
        "matrix_power" => use(xp::linalg::matrix_power),
        "matrix_rank" => use(xp::linalg::matrix_rank),
        "matrix_transpose" => use(xp::linalg::matrix_transpose),
        "multi_dot" => use(xp::linalg::multi_dot),
        "norm" => use(xp::linalg::norm),
        "outer" => use(xp::linalg::outer),
        "pinv" => use(xp::linalg::pinv),
        "qr" => use(xp::linalg::qr),
        "slogdet" => use(xp::linalg::slogdet),
        "solve" => use(xp::linalg::solve),
        "svd" => use(xp::linalg::svd),
        "svdvals" => use(xp::linalg::svdvals),
        "tensordot" => use(xp::linalg::tensordot),
        "tensorinv" => use(xp::linalg::tensorinv),
        "tensorsolve" => use(xp::linalg::tensorsolve),
        "trace" => use(xp::linalg::trace),
        "vecdot" => use(xp::linalg::vecdot),
        "vector_norm" => use(xp::linalg::vector_norm),
    }
    "numpy.fft" {
        "fft" => use(xp::fft::fft),
        "ifft" => use(xp::fft::ifft),
        "rfft" => use(xp::fft::rfft),
        "irfft" => use(xp::fft::irfft),
        "hfft" => use(xp::fft::hfft),
        "ihfft" => use(xp::fft::ihfft),
        "fft2" => use(xp::fft::fft2),
        "ifft2" => use(xp::fft::ifft2),
        "rfft2" => use(xp::fft::rfft2),
        "irfft2" => use(xp::fft::irfft2),
        "fftn" => use(xp::fft::fftn),
        "ifftn" => use(xp::fft::ifftn),
        "rfftn" => use(xp::fft::rfftn),
        "irfftn" => use(xp::fft::irfftn),
        "fftfreq" => use(xp::fft::fftfreq),
        "rfftfreq" => use(xp::fft::rfftfreq),
        "fftshift" => use(xp::fft::fftshift),
        "ifftshift" => use(xp::fft::ifftshift),
    }
    "numpy.random.Generator" {
        "random" => method(|g: &mut Generator| g.random([2], None)),
        "integers" => method(|g: &mut Generator| g.integers(0, 10, [2], None)),
        "standard_normal" => method(|g: &mut Generator| g.standard_normal([2], None)),
        "standard_exponential" => method(|g: &mut Generator| g.standard_exponential([2], None)),
        "standard_gamma" => method(|g: &mut Generator| g.standard_gamma(1.0, [2], xp::DType::F64)),
        "uniform" => method(|g: &mut Generator| g.uniform(0.0, 1.0, [2])),
        "normal" => method(|g: &mut Generator| g.normal(0.0, 1.0, [2])),
        "lognormal" => method(|g: &mut Generator| g.lognormal(0.0, 1.0, [2])),
        "exponential" => method(|g: &mut Generator| g.exponential(1.0, [2])),
        "gamma" => method(|g: &mut Generator| g.gamma(1.0, 1.0, [2])),
        "beta" => method(|g: &mut Generator| g.beta(1.0, 1.0, [2])),
        "chisquare" => method(|g: &mut Generator| g.chisquare(1.0, [2])),
        "laplace" => method(|g: &mut Generator| g.laplace(0.0, 1.0, [2])),
        "logistic" => method(|g: &mut Generator| g.logistic(0.0, 1.0, [2])),
        "gumbel" => method(|g: &mut Generator| g.gumbel(0.0, 1.0, [2])),
        "weibull" => method(|g: &mut Generator| g.weibull(1.0, [2])),
        "pareto" => method(|g: &mut Generator| g.pareto(1.0, [2])),
        "rayleigh" => method(|g: &mut Generator| g.rayleigh(1.0, [2])),
        "poisson" => method(|g: &mut Generator| g.poisson(1.0, [2])),
        "binomial" => method(|g: &mut Generator| g.binomial(10, 0.5, [2])),
        "geometric" => method(|g: &mut Generator| g.geometric(0.5, [2])),
        "multinomial" => method(|g: &mut Generator| g.multinomial(10, &[0.5, 0.5], [2])),
        "multivariate_normal" => method(|g: &mut Generator, m: &Array| g.multivariate_normal(m, m, [2])),
        "permutation" => method(Generator::permutation),
        "shuffle" => method(Generator::shuffle),
        "permuted" => method(Generator::permuted),
        "choice" => method(|g: &mut Generator, a: &Array| g.choice(a, [2], xp::random::Choice::default())),
        "spawn" => method(Generator::spawn),
    }
}

/// NumPy's names by namespace, from `tests/data/numpy_namespace.json`, and its NumPy version.
fn numpy_names() -> (String, BTreeMap<String, BTreeSet<String>>) {
    let path = super::common::data_dir().join("numpy_namespace.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let v: serde_json::Value = serde_json::from_str(&text).expect("numpy_namespace.json is JSON");
    let version = v["numpy_version"].as_str().expect("numpy_version").to_string();
    let spaces = v["namespaces"].as_object().expect("namespaces");
    let names = spaces
        .iter()
        .map(|(ns, list)| {
            let list = list.as_array().expect("a namespace is a list of names");
            (ns.clone(), list.iter().map(|n| n.as_str().expect("names are strings").to_string()).collect())
        })
        .collect();
    (version, names)
}

/// One line of `tests/data/numpy_omissions.txt`.
struct Omission {
    ns: String,
    name: String,
    reason: String,
    line: usize,
}

/// The omission list: `namespace.name: reason` lines; `#` comments and blank lines skipped.
fn omissions(problems: &mut Vec<String>) -> Vec<Omission> {
    let path = super::common::data_dir().join("numpy_omissions.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parsed = line.split_once(':').and_then(|(key, reason)| {
            let (ns, name) = key.trim().rsplit_once('.')?;
            Some(Omission { ns: ns.into(), name: name.into(), reason: reason.trim().into(), line: i + 1 })
        });
        match parsed {
            Some(o) if !o.reason.is_empty() => out.push(o),
            _ => problems.push(format!("numpy_omissions.txt:{}: not `namespace.name: reason`: {line}", i + 1)),
        }
    }
    out
}

const NOT_YET: &str = "not yet implemented (issue 27)";

#[test]
fn numpy_namespace_is_covered() {
    let (version, numpy) = numpy_names();
    let mut problems = Vec::new();
    let omitted = omissions(&mut problems);

    // (namespace, name) -> where it is listed
    let mut table: BTreeMap<(&str, &str), &str> = BTreeMap::new();
    for &(ns, name, item) in IMPLEMENTED {
        if table.insert((ns, name), item).is_some() {
            problems.push(format!("{ns}.{name}: twice in the table of implemented names"));
        }
    }
    let mut skipped: BTreeMap<(&str, &str), &Omission> = BTreeMap::new();
    for o in &omitted {
        if let Some(first) = skipped.insert((&o.ns, &o.name), o) {
            problems.push(format!("{}.{}: omitted twice (lines {} and {})", o.ns, o.name, first.line, o.line));
        }
    }

    let known = |ns: &str, name: &str| numpy.get(ns).is_some_and(|names| names.contains(name));
    for &(ns, name) in table.keys() {
        if !known(ns, name) {
            problems.push(format!("{ns}.{name}: in the table but not in NumPy {version} (stale)"));
        }
        if skipped.contains_key(&(ns, name)) {
            problems.push(format!(
                "{ns}.{name}: both implemented (table) and omitted (line {})",
                skipped[&(ns, name)].line
            ));
        }
    }
    for o in skipped.values() {
        if !known(&o.ns, &o.name) {
            problems.push(format!("{}.{}: omitted (line {}) but not in NumPy {version} (stale)", o.ns, o.name, o.line));
        }
    }

    println!("NumPy {version} namespace coverage:");
    for (ns, names) in &numpy {
        let (mut done, mut omit, mut not_yet) = (0, 0, 0);
        for name in names {
            match (table.contains_key(&(ns.as_str(), name.as_str())), skipped.get(&(ns.as_str(), name.as_str()))) {
                (true, _) => done += 1,
                (false, Some(o)) => {
                    omit += 1;
                    not_yet += usize::from(o.reason == NOT_YET);
                }
                (false, None) => problems.push(format!(
                    "{ns}.{name}: neither implemented (add it to the table in coverage.rs) nor omitted \
                     (add `{ns}.{name}: reason` to tests/data/numpy_omissions.txt)"
                )),
            }
        }
        println!(
            "  {ns:<24} {done:>4} implemented, {omit:>4} omitted ({not_yet} not yet implemented), {:>4} total",
            names.len()
        );
    }

    assert!(problems.is_empty(), "{} coverage problems:\n{}", problems.len(), problems.join("\n"));
}

/// Every reference data file names the script that made it (`"generator"`), and the script is in
/// the repository, so that anyone can regenerate the data with the pinned versions of
/// `scripts/requirements.txt`.
#[test]
fn every_reference_file_names_its_generator() {
    let dir = super::common::data_dir();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.push(dir.join("io").join("expected.json"));
    assert!(files.len() > 20, "{files:?}");
    let scripts = dir.join("..").join("..").join("scripts");
    for p in files {
        let text = std::fs::read_to_string(&p).expect("readable");
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let g = v["generator"].as_str().unwrap_or_else(|| panic!("{} names no generator", p.display()));
        let script = scripts.join(g.strip_prefix("scripts/").expect("a script under scripts/"));
        assert!(script.is_file(), "{}: the generator {g} is not in the repository", p.display());
    }
    let req = std::fs::read_to_string(scripts.join("requirements.txt")).expect("scripts/requirements.txt");
    assert!(req.lines().any(|l| l.starts_with("numpy==")) && req.lines().any(|l| l.starts_with("scipy==")));
}
