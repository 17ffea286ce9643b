// searchsorted, after the prelude, a key header and rank.cu: a thread per element of v (operand 1
// of ix; the output, operand 0, is C-contiguous), a binary search over the sorted line
// a[0], a[sa], ..., a[(n - 1) * sa] in NumPy's order (key_lt: NaNs last, -0.0 == +0.0).
// right == 0: the first i with !(a[i] < x); right == 1: the first i with x < a[i].
extern "C" __global__ void __launch_bounds__(256) XP_NAME(searchsorted)(i64* __restrict__ o, const RAW* __restrict__ a, i64 n, i64 sa,
                                                       const RAW* __restrict__ v, Idx ix, int right) {
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < ix.n; i += step) {
    const RAW x = v[idx_offset(ix, 1, i)];
    i64 lo = 0, hi = n;
    while (lo < hi) {
      const i64 mid = lo + ((hi - lo) >> 1);
      const RAW y = a[mid * sa];
      if (right ? !key_lt(x, y) : key_lt(y, x)) lo = mid + 1;
      else hi = mid;
    }
    o[idx_offset(ix, 0, i)] = lo;
  }
}
