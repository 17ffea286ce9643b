// Arg-reductions fold (value, index) pairs. A pair beats another by NumPy's rule: a NaN first,
// then the larger (argmax) or smaller (argmin) value, then the smaller index. That is a total
// order, so every fold order (threads, warps, chunks) gives the first index of the extreme.
template <class T> struct XpArg { T v; i64 i; };
template <class T> __device__ __forceinline__ XpArg<T> shfl_down(XpArg<T> p, int o) {
  p.v = shfl_down(p.v, o);
  p.i = shfl_down(p.i, o);
  return p;
}
template <class T> __device__ __forceinline__ XpArg<T> xp_argmax(XpArg<T> a, XpArg<T> b) {
  const bool an = is_nan(a.v), bn = is_nan(b.v);
  const bool right = bn ? (!an || b.i < a.i) : (!an && (gt(b.v, a.v) || (!gt(a.v, b.v) && b.i < a.i)));
  return right ? b : a;
}
template <class T> __device__ __forceinline__ XpArg<T> xp_argmin(XpArg<T> a, XpArg<T> b) {
  const bool an = is_nan(a.v), bn = is_nan(b.v);
  const bool right = bn ? (!an || b.i < a.i) : (!an && (lt(b.v, a.v) || (!lt(a.v, b.v) && b.i < a.i)));
  return right ? b : a;
}
