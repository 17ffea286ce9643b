// xp's recursive filters (SciPy's lfilter and sosfilt) on the GPU: a linear recurrence along each
// line, cut into chunks of L samples that are filtered in parallel. Compiled after the prelude
// with `T` (the element type), `K` (the state length), `SOS` (0: one transfer function in direct
// form II transposed, coefficients b[0..K] then a[0..K]; 1: K/2 second-order sections of six
// coefficients each) and `NCOEF` defined by the host.
//
//   iir_local  a thread per chunk: the chunk filtered from a zero state (the first chunk of a
//                 line from its zi), keeping only its final state
//   iir_carry  a block per line: the true state at each chunk's start, by a scan over the
//                 chunks with the zero-input state map P = M^L (E_c = P E_{c-1} + local_c);
//                 threads fold groups of G chunks, then combine their groups in log2(threads)
//                 steps with the powers P^(G 2^d)
//   iir_apply  a thread per chunk again: the chunk filtered from its true start state,
//                 writing the output (and, for a line's last chunk, the final state)
//
// Within a chunk the operations are SciPy's, in its order; the chunks' joins differ from a
// sequential run by rounding only.

__device__ __forceinline__ T zero_t() { return Cv<T>::f(0); }

// One sample through the recursion: state z updated, output returned.
__device__ __forceinline__ T step(T (&z)[K], T x, const T (&c)[NCOEF]) {
#if SOS
  T cur = x;
#pragma unroll
  for (int s = 0; s < K / 2; ++s) {
    const T nw = c[6 * s] * cur + z[2 * s];
    z[2 * s] = c[6 * s + 1] * cur - c[6 * s + 4] * nw + z[2 * s + 1];
    z[2 * s + 1] = c[6 * s + 2] * cur - c[6 * s + 5] * nw;
    cur = nw;
  }
  return cur;
#else
  // b = c[0 .. K], a = c[K + 1 .. 2K + 1]
  const T y = z[0] + c[0] * x;
#pragma unroll
  for (int j = 0; j < K - 1; ++j) z[j] = z[j + 1] + x * c[j + 1] - y * c[K + 1 + j + 1];
  z[K - 1] = x * c[K] - y * c[2 * K + 1];
  return y;
#endif
}

__device__ __forceinline__ void load_coef(T (&c)[NCOEF], const T* __restrict__ coef) {
#pragma unroll
  for (int i = 0; i < NCOEF; ++i) c[i] = coef[i];
}

// Chunk `g` of `lines * chunks`: filtered from zero (chunk 0: from zi), final state to loc.
extern "C" __global__ void XP_NAME(iir_local)(const T* __restrict__ x, i64 n, i64 lines, i64 chunks, i64 L,
    const T* __restrict__ coef, const T* __restrict__ zi, T* __restrict__ loc) {
  T c[NCOEF];
  load_coef(c, coef);
  for (i64 g = (i64)blockIdx.x * blockDim.x + threadIdx.x; g < lines * chunks; g += (i64)gridDim.x * blockDim.x) {
    const i64 line = g / chunks, ch = g % chunks;
    T z[K];
#pragma unroll
    for (int j = 0; j < K; ++j) z[j] = ch == 0 ? zi[line * K + j] : zero_t();
    const T* xs = x + line * n + ch * L;
    const i64 len = min(L, n - ch * L);
    for (i64 i = 0; i < len; ++i) step(z, xs[i], c);
#pragma unroll
    for (int j = 0; j < K; ++j) loc[g * K + j] = z[j];
  }
}

// y = M s for the K × K row-major matrix M.
__device__ __forceinline__ void matvec(T (&y)[K], const T* __restrict__ M, const T (&s)[K]) {
#pragma unroll
  for (int i = 0; i < K; ++i) {
    T acc = zero_t();
#pragma unroll
    for (int j = 0; j < K; ++j) acc = acc + M[i * K + j] * s[j];
    y[i] = acc;
  }
}

// A block per line; `pw` holds P = M^L then P^(G 2^d) for d = 0 .. log2(blockDim) - 1, each K × K.
// start[line * chunks + c] (K values) receives the true state at chunk c's start (c >= 1).
extern "C" __global__ void XP_NAME(iir_carry)(const T* __restrict__ loc, i64 lines, i64 chunks, i64 G,
    const T* __restrict__ pw, int levels, T* __restrict__ start) {
  extern __shared__ cd smem_[];
  T* mats = (T*)smem_;              // (1 + levels) K × K matrices
  T* agg = mats + (1 + levels) * K * K;  // blockDim.x × K
  const int t = threadIdx.x, nt = blockDim.x;
  for (int e = t; e < (1 + levels) * K * K; e += nt) mats[e] = pw[e];
  __syncthreads();
  for (i64 line = blockIdx.x; line < lines; line += gridDim.x) {
    const T* lc = loc + line * chunks * K;
    const i64 c0 = t * G, c1 = min(chunks, c0 + G);
    T s[K], y[K];
#pragma unroll
    for (int j = 0; j < K; ++j) s[j] = zero_t();
    for (i64 ch = c0; ch < c1; ++ch) {
      matvec(y, mats, s);
#pragma unroll
      for (int j = 0; j < K; ++j) s[j] = y[j] + lc[ch * K + j];
    }
#pragma unroll
    for (int j = 0; j < K; ++j) agg[t * K + j] = s[j];
    __syncthreads();
    for (int d = 0; d < levels; ++d) {
      const int o = 1 << d;
      T prev[K];
      if (t >= o) {
#pragma unroll
        for (int j = 0; j < K; ++j) prev[j] = agg[(t - o) * K + j];
        matvec(y, mats + (1 + d) * K * K, prev);
      }
      __syncthreads();
      if (t >= o) {
#pragma unroll
        for (int j = 0; j < K; ++j) agg[t * K + j] = agg[t * K + j] + y[j];
      }
      __syncthreads();
    }
    // the state at the end of the groups before this thread's, then this thread's chunks
#pragma unroll
    for (int j = 0; j < K; ++j) s[j] = t == 0 ? zero_t() : agg[(t - 1) * K + j];
    for (i64 ch = c0; ch < c1; ++ch) {
      if (ch > 0) {
#pragma unroll
        for (int j = 0; j < K; ++j) start[(line * chunks + ch) * K + j] = s[j];
      }
      matvec(y, mats, s);
#pragma unroll
      for (int j = 0; j < K; ++j) s[j] = y[j] + lc[ch * K + j];
    }
    __syncthreads();
  }
}

// Chunk `g` filtered from its true start state, writing y; a line's last chunk writes zf.
extern "C" __global__ void XP_NAME(iir_apply)(const T* __restrict__ x, i64 n, i64 lines, i64 chunks, i64 L,
    const T* __restrict__ coef, const T* __restrict__ zi, const T* __restrict__ start, T* __restrict__ y,
    T* __restrict__ zf) {
  T c[NCOEF];
  load_coef(c, coef);
  for (i64 g = (i64)blockIdx.x * blockDim.x + threadIdx.x; g < lines * chunks; g += (i64)gridDim.x * blockDim.x) {
    const i64 line = g / chunks, ch = g % chunks;
    T z[K];
#pragma unroll
    for (int j = 0; j < K; ++j) z[j] = ch == 0 ? zi[line * K + j] : start[g * K + j];
    const T* xs = x + line * n + ch * L;
    T* ys = y + line * n + ch * L;
    const i64 len = min(L, n - ch * L);
    for (i64 i = 0; i < len; ++i) ys[i] = step(z, xs[i], c);
    if (ch == chunks - 1) {
#pragma unroll
      for (int j = 0; j < K; ++j) zf[line * K + j] = z[j];
    }
  }
}
