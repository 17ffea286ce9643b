// xp's kernels for stacks of small matrices: one block per matrix, the matrix (and its factors)
// in dynamic shared memory, so that a stack of thousands of matrices is one launch. Compiled
// after the prelude with `T` (the element type), `R` (its real type), `CPLX` (0 or 1), `EPS`
// (R's machine epsilon) and `RMIN` (R's smallest normal) defined by the host.
//
//   xp_svd_jacobi    one-sided (Hestenes) Jacobi SVD, round-robin parallel ordering: a group of
//                    lanes per column pair, the sweep repeated until no pair is rotated
//   xp_eigh_jacobi   two-sided cyclic Jacobi for Hermitian matrices, parallel ordering: every
//                    step rotates n/2 disjoint pairs, columns then rows
//   xp_eigvalsh_tridiag  eigenvalues only: Householder tridiagonalisation, then bisection
//   xp_cholesky      right-looking Cholesky, a column per step
//   xp_cholesky_warp the same with a warp per matrix, for the small sizes
//   xp_qr_house      Householder QR with LAPACK's reflectors (geqrf + orgqr conventions)
//
// Inputs are read with any (row, column, batch) strides; outputs are C-order stacks. `info[z]`
// is 0 for success, else the failure of matrix z (NoConvergence: 1; Cholesky: the order of the
// leading minor that is not positive definite).

// NVRTC has no math headers: infinity from its bits.
#define XP_INF ((R)__longlong_as_double(0x7ff0000000000000LL))

#if CPLX
__device__ __forceinline__ R re(T x) { return x.re; }
__device__ __forceinline__ T cj(T x) { return mk(x.re, -x.im, (T*)0); }
__device__ __forceinline__ R abs2(T x) { return x.re * x.re + x.im * x.im; }
__device__ __forceinline__ R absv(T x) { return hypot(x.re, x.im); }
__device__ __forceinline__ T sc(T x, R s) { return mk(x.re * s, x.im * s, (T*)0); }
__device__ __forceinline__ T of(R r) { return mk(r, (R)0, (T*)0); }
__device__ __forceinline__ bool fin(T x) { return isfinite(x.re) && isfinite(x.im); }
__device__ __forceinline__ T warp_sum(T v) {
  for (int o = 16; o > 0; o >>= 1) {
    v.re += __shfl_xor_sync(0xffffffffu, v.re, o);
    v.im += __shfl_xor_sync(0xffffffffu, v.im, o);
  }
  return v;
}
#else
__device__ __forceinline__ R re(T x) { return x; }
__device__ __forceinline__ T cj(T x) { return x; }
__device__ __forceinline__ R abs2(T x) { return x * x; }
__device__ __forceinline__ R absv(T x) { return fabs(x); }
__device__ __forceinline__ T sc(T x, R s) { return x * s; }
__device__ __forceinline__ T of(R r) { return r; }
__device__ __forceinline__ bool fin(T x) { return isfinite(x); }
__device__ __forceinline__ T warp_sum(T v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
#endif

// Sums over aligned groups of `g` lanes (a power of two): every lane of the warp must call.
__device__ __forceinline__ R group_sum_r(R v, int g) {
  for (int o = g >> 1; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
#if CPLX
__device__ __forceinline__ T group_sum(T v, int g) { return mk(group_sum_r(v.re, g), group_sum_r(v.im, g), (T*)0); }
#else
__device__ __forceinline__ T group_sum(T v, int g) { return group_sum_r(v, g); }
#endif
__device__ __forceinline__ R warp_sum_r(R v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ R warp_max_r(R v) {
  for (int o = 16; o > 0; o >>= 1) v = fmax(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// The block-wide maximum of `v` (every thread gets it); `red` holds 32 values of scratch.
__device__ R block_max(R v, R* red) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = (blockDim.x + 31) >> 5;
  v = warp_max_r(v);
  __syncthreads();
  if (lane == 0) red[warp] = v;
  __syncthreads();
  R m = lane < nw ? red[lane] : (R)0;
  return warp_max_r(m);
}

// The power of two that brings the largest magnitude `mx` into [0.5, 1) (1 for zero or a
// non-finite value): scaling by it is exact, and keeps sums of squares from over- or
// underflowing.
__device__ __forceinline__ R pow2_scale(R mx) {
  if (!(mx > 0) || !isfinite(mx)) return (R)1;
  int e;
  frexp(mx, &e);
  return ldexp((R)1, -e);
}

// A Hermitian matrix A into H (column-major, leading dimension ld): the triangle `lower` names
// (i >= j for lower, i <= j for upper), its mirror conjugated, the diagonal made real, scaled by
// the power of two of its largest magnitude. Returns that scale; *mx gets the magnitude
// (infinite for a non-finite entry). The caller synchronises before reading H.
__device__ R load_hermitian(const T* A, i64 ars, i64 acs, int n, int lower, T* H, int ld, R* red, R* mx) {
  const int tid = threadIdx.x, nt = blockDim.x;
  R m = 0;
  for (int e = tid; e < n * n; e += nt) {
    const int i = e % n, j = e / n;
    const bool in = lower ? i >= j : i <= j;
    T x = in ? A[i * ars + j * acs] : cj(A[j * ars + i * acs]);
    if (i == j) x = of(re(x));
    H[i + j * ld] = x;
    m = fmax(m, fin(x) ? absv(x) : XP_INF);
  }
  m = block_max(m, red);
  const R scale = pow2_scale(m);
  for (int e = tid; e < n * n; e += nt) {
    const int i = e % n, j = e / n;
    H[i + j * ld] = sc(H[i + j * ld], scale);
  }
  *mx = m;
  return scale;
}

// Round-robin pairing of `cp` (even) columns: pair k of step `step`; every pair of columns meets
// once in cp - 1 steps and each step's pairs are disjoint. Returns p < q.
__device__ __forceinline__ void rr_pair(int cp, int step, int k, int* p, int* q) {
  const int m = cp - 1;
  int a, b;
  if (k == 0) { a = m; b = step % m; }
  else { a = (step + k) % m; b = (step - k + m) % m; }
  *p = min(a, b);
  *q = max(a, b);
}

// The rotation that makes columns (or rows) p and q orthogonal, from their Gram entries
// al = |x|², be = |y|² (or the diagonal entries) and g = <x, y>: with ph = g / |g|,
//   x' = c x - s conj(ph) y,  y' = s x + c conj(ph) y.
struct Rot { R c, s, t; T ph; };
__device__ __forceinline__ Rot rotation(R al, R be, T g, R ag) {
  Rot r;
  r.ph = sc(g, (R)1 / ag);
  const R zeta = (be - al) / (2 * ag);
  r.t = (zeta >= 0 ? (R)1 : (R)-1) / (fabs(zeta) + hypot((R)1, zeta));
  r.c = (R)1 / hypot((R)1, r.t);
  r.s = r.c * r.t;
  return r;
}
__device__ __forceinline__ void rotate(T* x, T* y, const Rot& r, T phase) {
  const T a = *x, b = *y * phase;
  *x = sc(a, r.c) - sc(b, r.s);
  *y = sc(a, r.s) + sc(b, r.c);
}

#define MAX_SWEEPS 40

// ---------------------------------------------------------------------------------------------
// SVD. The matrix M worked on is tall (r >= c): A itself, or Aᴴ for a wide A (then A = V Σ Uᴴ of
// M's factors, and the outputs are written exchanged). W (r × uc, column-major) starts as M and
// ends as M V = U Σ; its columns c .. uc - 1 (full_matrices of a tall M) and those of zero
// singular values are completed to an orthonormal basis at the end.
extern "C" __global__ void __launch_bounds__(1024) XP_NAME(svd_jacobi)(
    const T* __restrict__ a, i64 ars, i64 acs, i64 abs_, int m, int n, T* __restrict__ uo,
    R* __restrict__ so, T* __restrict__ vho, int* __restrict__ info, i64 count, int vectors, int full,
    int gsz) {
  const bool wide = n > m;
  const int r = wide ? n : m, c = wide ? m : n;
  const int uc = (vectors && full) ? r : c;  // columns of M's U that are needed
  const int cp = (c + (c & 1)) < 2 ? 2 : c + (c & 1);
  const int tid = threadIdx.x, nt = blockDim.x, lane = tid & 31, warp = tid >> 5, nw = nt >> 5;
  // a group of gsz lanes (a power of two, at most 32) per column pair; the groups of a warp
  // start their rows gsz apart, so that they read different banks
  const int gl = tid & (gsz - 1), grp = tid / gsz, ngrp = nt / gsz;
  const int roff = (lane & ~(gsz - 1)) % r, voff = (lane & ~(gsz - 1)) % c;
  extern __shared__ cd smem_[];
  T* W = (T*)smem_;
  T* V = W + r * uc;
  T* dots = V + (vectors ? c * c : 0);  // the completion's projections
  R* sig = (R*)(dots + (vectors ? r : 0));
  R* red = sig + c;
  int* perm = (int*)(red + 32);
  __shared__ int s_rot, s_big, s_bad, s_pick;
  // A pair counts as orthogonal below 4 √r ε (a dot product of r terms rounds to about √r ε):
  // tighter, a pair can stay above the bar on rounding alone and rotate forever.
  const R tol = EPS * 4 * sqrt((R)r);
  for (i64 z = blockIdx.x; z < count; z += gridDim.x) {
    const T* A = a + z * abs_;
    R mx = 0;
    for (int e = tid; e < r * c; e += nt) {
      const int i = e % r, j = e / r;
      const T x = wide ? cj(A[j * ars + i * acs]) : A[i * ars + j * acs];
      W[i + j * r] = x;
      mx = fmax(mx, fin(x) ? absv(x) : XP_INF);
    }
    if (vectors)
      for (int e = tid; e < c * c; e += nt) V[e] = of(e % c == e / c ? (R)1 : (R)0);
    mx = block_max(mx, red);
    const R scale = pow2_scale(mx);
    for (int e = tid; e < r * c; e += nt) W[e] = sc(W[e], scale);
    if (tid == 0) s_bad = !isfinite(mx);
    __syncthreads();
    int sweep = 0;
    for (; sweep < MAX_SWEEPS && !s_bad; ++sweep) {
      if (tid == 0) s_rot = s_big = 0;
      __syncthreads();
      for (int step = 0; step < cp - 1; ++step) {
        // every group takes the same number of turns, so that the shuffles stay uniform
        for (int k0 = 0; k0 < cp / 2; k0 += ngrp) {
          int p = 0, q = c;
          if (k0 + grp < cp / 2) rr_pair(cp, step, k0 + grp, &p, &q);
          const bool live = q < c;
          T* x = W + p * r;
          T* y = W + (live ? q : p) * r;
          R al = 0, be = 0;
          T g = of((R)0);
          if (live)
            for (int j = gl; j < r; j += gsz) {
              const int i = j + roff < r ? j + roff : j + roff - r;
              const T xi = x[i], yi = y[i];
              al += abs2(xi);
              be += abs2(yi);
              g = g + cj(xi) * yi;
            }
          al = group_sum_r(al, gsz);
          be = group_sum_r(be, gsz);
          g = group_sum(g, gsz);
          const R ag = absv(g);
          // √al √be, not √(al be): for a column near the scaled matrix's 1 beside one near 1e-81
          // (an entry of 1e80 among ones) the product underflows and the pair never converges
          const R nrm = sqrt(al) * sqrt(be);
          if (!live || !(ag > tol * nrm && ag > RMIN)) continue;
          if (gl == 0) {
            s_rot = 1;
            if (ag > 64 * tol * nrm) s_big = 1;
          }
          const Rot rt = rotation(al, be, g, ag);
          const T cph = cj(rt.ph);
          for (int j = gl; j < r; j += gsz) {
            const int i = j + roff < r ? j + roff : j + roff - r;
            rotate(&x[i], &y[i], rt, cph);
          }
          if (vectors)
            for (int j = gl; j < c; j += gsz) {
              const int i = j + voff < c ? j + voff : j + voff - c;
              rotate(&V[i + p * c], &V[i + q * c], rt, cph);
            }
        }
        __syncthreads();
      }
      const int more = s_rot;
      __syncthreads();
      if (!more) break;
    }
    // singular values (column norms), their descending order, NaN as a failure
    for (int j = warp; j < c; j += nw) {
      R s2 = 0;
      for (int i = lane; i < r; i += 32) s2 += abs2(W[i + j * r]);
      s2 = warp_sum_r(s2);
      if (lane == 0) sig[j] = sqrt(s2);
    }
    __syncthreads();
    for (int j = tid; j < c; j += nt) {
      const R v = sig[j];
      int rank = 0;
      for (int l = 0; l < c; ++l) rank += sig[l] > v || (sig[l] == v && l < j);
      perm[rank] = j;
      if (isnan(v)) s_bad = 1;
      so[z * c + rank] = v / scale;
    }
    __syncthreads();
    // Out of sweeps with every pair within 64 times the bar is converged for all purposes.
    if (tid == 0) info[z] = (s_bad || (sweep == MAX_SWEEPS && s_big)) ? 1 : 0;
    if (vectors) {
      // U's columns: W's columns over their norms; zero ones (and the extra columns of a full
      // U) completed one at a time by Gram–Schmidt (twice) from the unit vector e_i whose
      // component in the span so far is smallest.
      for (int e = tid; e < r * c; e += nt) {
        const R s = sig[e / r];
        W[e] = s >= RMIN ? sc(W[e], (R)1 / s) : of((R)0);
      }
      __syncthreads();
      int nz = 0;
      while (nz < c && sig[perm[nz]] >= RMIN) ++nz;
      for (int t = nz; t < uc; ++t) {
        T* col = W + (t < c ? perm[t] : t) * r;
        // the row whose squared norm over the basis so far (slots 0 .. t-1) is smallest
        for (int i = tid; i < r; i += nt) {
          R acc = 0;
          for (int b = 0; b < t; ++b) acc += abs2(W[i + (b < c ? perm[b] : b) * r]);
          col[i] = of(acc);
        }
        __syncthreads();
        if (tid == 0) {
          int best = 0;
          for (int i = 1; i < r; ++i)
            if (re(col[i]) < re(col[best])) best = i;
          s_pick = best;
        }
        __syncthreads();
        const int pk = s_pick;
        // first pass: e_pk minus its projection onto the basis
        for (int i = tid; i < r; i += nt) {
          T v = of(i == pk ? (R)1 : (R)0);
          for (int b = 0; b < t; ++b) {
            const T* ub = W + (b < c ? perm[b] : b) * r;
            v = v - ub[i] * cj(ub[pk]);
          }
          col[i] = v;
        }
        __syncthreads();
        // second pass: the projections of that vector, one warp per basis vector
        for (int b = warp; b < t; b += nw) {
          const T* ub = W + (b < c ? perm[b] : b) * r;
          T d = of((R)0);
          for (int i = lane; i < r; i += 32) d = d + cj(ub[i]) * col[i];
          d = warp_sum(d);
          if (lane == 0) dots[b] = d;
        }
        __syncthreads();
        for (int i = tid; i < r; i += nt) {
          T v = col[i];
          for (int b = 0; b < t; ++b) v = v - W[i + (b < c ? perm[b] : b) * r] * dots[b];
          col[i] = v;
        }
        __syncthreads();
        R nrm2 = 0;
        for (int i = lane; i < r; i += 32) nrm2 += abs2(col[i]);
        nrm2 = warp_sum_r(nrm2);  // every warp computes the same norm
        __syncthreads();
        for (int i = tid; i < r; i += nt) col[i] = sc(col[i], (R)1 / sqrt(nrm2));
        __syncthreads();
      }
      // outputs: tall: U = W (slots), Vh = Vᴴ; wide: U = V, Vh = Wᴴ (slots)
      T* U = uo + z * (i64)(wide ? c * c : r * uc);
      T* Vh = vho + z * (i64)(wide ? uc * r : c * c);
      if (!wide) {
        for (int e = tid; e < r * uc; e += nt) {
          const int i = e / uc, t = e % uc;
          U[e] = W[i + (t < c ? perm[t] : t) * r];
        }
        for (int e = tid; e < c * c; e += nt) {
          const int t = e / c, j = e % c;
          Vh[e] = cj(V[j + perm[t] * c]);
        }
      } else {
        for (int e = tid; e < c * c; e += nt) {
          const int i = e / c, t = e % c;
          U[e] = V[i + perm[t] * c];
        }
        for (int e = tid; e < uc * r; e += nt) {
          const int t = e / r, j = e % r;
          Vh[e] = cj(W[j + (t < c ? perm[t] : t) * r]);
        }
      }
    }
    __syncthreads();
  }
}

// ---------------------------------------------------------------------------------------------
// Hermitian eigen-decomposition. H (n × n, column-major, leading dimension n + 1 so that a warp
// walking a row meets every bank once) holds the whole matrix (the triangle `lower` names,
// mirrored); every step rotates the step's disjoint pairs: all columns, then all rows, the rows
// pass writing the pairs' own 2 × 2 blocks exactly. The diagonal ends as the eigenvalues, V as
// the eigenvectors.
extern "C" __global__ void __launch_bounds__(1024) XP_NAME(eigh_jacobi)(
    const T* __restrict__ a, i64 ars, i64 acs, i64 abs_, int n, int lower, R* __restrict__ wo,
    T* __restrict__ vo, int* __restrict__ info, i64 count, int vectors) {
  const int cp = (n + (n & 1)) < 2 ? 2 : n + (n & 1), np = cp / 2, ld = n + 1;
  const int tid = threadIdx.x, nt = blockDim.x;
  extern __shared__ cd smem_[];
  T* H = (T*)smem_;
  T* V = H + n * ld;
  T* ph = V + (vectors ? n * ld : 0);  // per pair: the phase of h_pq
  R* rc = (R*)(ph + np);               // per pair: c, s, t·|h_pq| (0 when the pair is skipped)
  R* rs = rc + np;
  R* rd = rs + np;
  R* rp = rd + np;  // per pair: the new h_pp and h_qq, exactly
  R* rq = rp + np;
  R* red = rq + np;
  int* pp = (int*)(red + 32);  // per pair: p, q (q = n for a pair with the padding column)
  int* pq = pp + np;
  __shared__ int s_rot, s_big;
  for (i64 z = blockIdx.x; z < count; z += gridDim.x) {
    R mx;
    const R scale = load_hermitian(a + z * abs_, ars, acs, n, lower, H, ld, red, &mx);
    if (vectors)
      for (int e = tid; e < n * n; e += nt) V[e % n + e / n * ld] = of(e % n == e / n ? (R)1 : (R)0);
    const bool bad = !isfinite(mx);
    __syncthreads();
    int sweep = 0;
    for (; sweep < MAX_SWEEPS && !bad; ++sweep) {
      if (tid == 0) s_rot = s_big = 0;
      __syncthreads();
      for (int step = 0; step < cp - 1; ++step) {
        for (int k = tid; k < np; k += nt) {
          int p, q;
          rr_pair(cp, step, k, &p, &q);
          pp[k] = p;
          pq[k] = q;
          rd[k] = 0;
          if (q >= n) continue;
          const T g = H[p + q * ld];
          const R app = re(H[p + p * ld]), aqq = re(H[q + q * ld]), ag = absv(g);
          // Negligible next to the diagonal, or to the (scaled) matrix: dropping it moves an
          // eigenvalue by less than EPS² of the largest entry.
          const R nrm = sqrt(fabs(app)) * sqrt(fabs(aqq));  // no underflow of the product
          if (!(ag > EPS * nrm && ag > EPS * EPS)) continue;
          s_rot = 1;
          if (ag > 64 * EPS * nrm && ag > 64 * EPS * EPS) s_big = 1;
          const Rot rt = rotation(app, aqq, g, ag);
          rc[k] = rt.c;
          rs[k] = rt.s;
          rd[k] = rt.t * ag;
          rp[k] = app - rd[k];
          rq[k] = aqq + rd[k];
          ph[k] = rt.ph;
        }
        __syncthreads();
        // columns p, q of every row: H J (and V J)
        for (int e = tid; e < n * np; e += nt) {
          const int k = e / n, i = e % n;
          if (rd[k] == 0) continue;
          Rot rt;
          rt.c = rc[k];
          rt.s = rs[k];
          const T cph = cj(ph[k]);
          rotate(&H[i + pp[k] * ld], &H[i + pq[k] * ld], rt, cph);
          if (vectors) rotate(&V[i + pp[k] * ld], &V[i + pq[k] * ld], rt, cph);
        }
        __syncthreads();
        // rows p, q of every column: Jᴴ (H J); the pair's own block exactly (other pairs'
        // rotations never touch its four entries)
        for (int e = tid; e < n * np; e += nt) {
          const int k = e / n, j = e % n;
          if (rd[k] == 0) continue;
          const int p = pp[k], q = pq[k];
          if (j == p) {
            H[p + p * ld] = of(rp[k]);
            H[q + p * ld] = of((R)0);
          } else if (j == q) {
            H[q + q * ld] = of(rq[k]);
            H[p + q * ld] = of((R)0);
          } else {
            Rot rt;
            rt.c = rc[k];
            rt.s = rs[k];
            rotate(&H[p + j * ld], &H[q + j * ld], rt, ph[k]);
          }
        }
        __syncthreads();
      }
      const int more = s_rot;
      __syncthreads();
      if (!more) break;
    }
    int failed = bad || (sweep == MAX_SWEEPS && s_big);
    for (int j = tid; j < n; j += nt) {
      const R v = re(H[j + j * ld]);
      int rank = 0;
      for (int l = 0; l < n; ++l) {
        const R u = re(H[l + l * ld]);
        rank += u < v || (u == v && l < j);
      }
      if (isnan(v)) failed = 1;
      wo[z * n + rank] = v / scale;
      if (vectors)
        for (int i = 0; i < n; ++i) vo[z * n * n + i * n + rank] = V[i + j * ld];
    }
    failed = __syncthreads_or(failed);
    if (tid == 0) info[z] = failed;
  }
}

// ---------------------------------------------------------------------------------------------
// Eigenvalues only, for the small sizes: Householder reduction of the Hermitian matrix to a
// tridiagonal (a reflector from both sides per column; only the off-diagonal magnitudes are
// kept, as a diagonal unitary similarity makes them real), then bisection on Sturm counts, a
// thread per eigenvalue: O(n³) parallel work and O(n) serial steps per bisection, against
// Jacobi's O(n³) per sweep. H is n × n column-major with an odd leading dimension.
extern "C" __global__ void __launch_bounds__(1024) XP_NAME(eigvalsh_tridiag)(
    const T* __restrict__ a, i64 ars, i64 acs, i64 abs_, int n, int lower, R* __restrict__ wo,
    int* __restrict__ info, i64 count) {
  const int tid = threadIdx.x, nt = blockDim.x, lane = tid & 31, warp = tid >> 5, nw = nt >> 5;
  const int ld = n | 1;
  extern __shared__ cd smem_[];
  T* H = (T*)smem_;
  T* v = H + n * ld;  // the reflector (rows k + 1 ..)
  T* p = v + n;       // tau H v, then w
  R* d = (R*)(p + n);
  R* e = d + n;
  R* red = e + n;
  __shared__ R s_tau, s_k;
  for (i64 z = blockIdx.x; z < count; z += gridDim.x) {
    R mx;
    const R scale = load_hermitian(a + z * abs_, ars, acs, n, lower, H, ld, red, &mx);
    __syncthreads();
    for (int k = 0; k + 2 < n; ++k) {
      // v = x + ph |x| e1 for x = H[k+1:, k], ph = x0 / |x0|: (I - tau v vᴴ) x = -ph |x| e1
      if (warp == 0) {
        R xn = 0;
        for (int i = k + 1 + lane; i < n; i += 32) {
          const T x = H[i + k * ld];
          xn += abs2(x);
          v[i] = x;
        }
        xn = warp_sum_r(xn);
        if (lane == 0) {
          const T x0 = H[k + 1 + k * ld];
          const R a0 = absv(x0), nx = sqrt(xn);
          d[k] = re(H[k + k * ld]);
          e[k] = nx;
          if (nx == 0) {
            s_tau = 0;
          } else {
            const T v0 = x0 + (a0 > 0 ? sc(x0, nx / a0) : of(nx));
            v[k + 1] = v0;
            s_tau = (R)2 / (xn - a0 * a0 + abs2(v0));
          }
        }
      }
      __syncthreads();
      const R tau = s_tau;
      if (tau == 0) {
        __syncthreads();  // every thread has read s_tau before warp 0 writes the next
        continue;
      }
      // p = tau H22 v, a warp per row
      for (int i = k + 1 + warp; i < n; i += nw) {
        T acc = of((R)0);
        for (int j = k + 1 + lane; j < n; j += 32) acc = acc + H[i + j * ld] * v[j];
        acc = warp_sum(acc);
        if (lane == 0) p[i] = sc(acc, tau);
      }
      __syncthreads();
      if (warp == 0) {
        T acc = of((R)0);
        for (int j = k + 1 + lane; j < n; j += 32) acc = acc + cj(v[j]) * p[j];
        acc = warp_sum(acc);
        if (lane == 0) s_k = tau / 2 * re(acc);
      }
      __syncthreads();
      const R kk = s_k;
      for (int i = k + 1 + tid; i < n; i += nt) p[i] = p[i] - sc(v[i], kk);
      __syncthreads();
      // H22 -= v wᴴ + w vᴴ
      const int m = n - k - 1;
      for (int el = tid; el < m * m; el += nt) {
        const int i = k + 1 + el % m, j = k + 1 + el / m;
        H[i + j * ld] = H[i + j * ld] - v[i] * cj(p[j]) - p[i] * cj(v[j]);
      }
      __syncthreads();
    }
    if (tid == 0) {
      if (n >= 2) {
        d[n - 2] = re(H[n - 2 + (n - 2) * ld]);
        e[n - 2] = absv(H[n - 1 + (n - 2) * ld]);
      }
      d[n - 1] = re(H[n - 1 + (n - 1) * ld]);
      e[n - 1] = 0;
    }
    __syncthreads();
    // eigenvalue j by bisection on Sturm counts (LAPACK's dlaebz, a thread per eigenvalue): the
    // interval from Gershgorin's bounds halves until it is within EPS of the larger end or of
    // the matrix's norm
    R glo = XP_INF, ghi = -XP_INF, e2max = 1;
    for (int i = 0; i < n; ++i) {
      const R r = e[i] + (i > 0 ? e[i - 1] : (R)0);
      glo = fmin(glo, d[i] - r);
      ghi = fmax(ghi, d[i] + r);
      e2max = fmax(e2max, e[i] * e[i]);
    }
    const R tnorm = fmax(fabs(glo), fabs(ghi)), pivmin = RMIN * e2max;
    const bool ok = isfinite(mx);
    for (int j = tid; j < n; j += nt) {
      R lo = glo - EPS * tnorm, hi = ghi + EPS * tnorm;
      for (int it = 0; it < 256 && ok; ++it) {
        const R mid = (R)0.5 * (lo + hi);
        if (hi - lo <= EPS * tnorm || mid <= lo || mid >= hi) break;
        // how many eigenvalues lie below mid
        int below = 0;
        R q = d[0] - mid;
        for (int i = 0;;) {
          if (fabs(q) < pivmin) q = -pivmin;
          below += q < 0;
          if (++i == n) break;
          q = d[i] - mid - e[i - 1] * e[i - 1] / q;
        }
        if (below > j) hi = mid;
        else lo = mid;
      }
      p[j] = of((R)0.5 * (lo + hi));  // p is free: the values, then sorted below
    }
    __syncthreads();
    // ascending (bisection keeps the order up to its tolerance; ties stay stable)
    for (int j = tid; j < n; j += nt) {
      const R x = re(p[j]);
      int rank = 0;
      for (int l = 0; l < n; ++l) rank += re(p[l]) < x || (re(p[l]) == x && l < j);
      wo[z * n + rank] = x / scale;
    }
    if (tid == 0) info[z] = !isfinite(mx);
    __syncthreads();
  }
}

// ---------------------------------------------------------------------------------------------
// Cholesky: L (n × n, column-major) from the triangle `lower` names; a pivot that is not
// positive (NaN passes through, as LAPACK's does not stop on it) fails the matrix with its order.
extern "C" __global__ void __launch_bounds__(1024) XP_NAME(cholesky)(
    const T* __restrict__ a, i64 ars, i64 acs, i64 abs_, int n, int lower, T* __restrict__ out,
    int* __restrict__ info, i64 count) {
  const int tid = threadIdx.x, nt = blockDim.x;
  extern __shared__ cd smem_[];
  T* L = (T*)smem_;
  __shared__ int s_fail;
  __shared__ R s_inv;
  for (i64 z = blockIdx.x; z < count; z += gridDim.x) {
    const T* A = a + z * abs_;
    for (int e = tid; e < n * n; e += nt) {
      const int i = e % n, j = e / n;
      if (i >= j) L[e] = lower ? A[i * ars + j * acs] : cj(A[j * ars + i * acs]);
    }
    if (tid == 0) s_fail = 0;
    __syncthreads();
    for (int j = 0; j < n; ++j) {
      if (tid == 0) {
        const R d = re(L[j + j * n]);
        if (d <= 0) s_fail = j + 1;
        const R l = sqrt(d);
        L[j + j * n] = of(l);
        s_inv = (R)1 / l;
      }
      __syncthreads();
      if (s_fail) break;
      for (int i = j + 1 + tid; i < n; i += nt) L[i + j * n] = sc(L[i + j * n], s_inv);
      __syncthreads();
      const int w = n - j - 1;
      for (int e = tid; e < w * w; e += nt) {
        const int i = j + 1 + e % w, k = j + 1 + e / w;
        if (k <= i) L[i + k * n] = L[i + k * n] - L[i + j * n] * cj(L[k + j * n]);
      }
      __syncthreads();
    }
    T* O = out + z * n * n;
    for (int e = tid; e < n * n; e += nt) {
      const int i = e / n, j = e % n;  // C order
      T v = of((R)0);
      if (lower && i >= j) v = L[i + j * n];
      if (!lower && i <= j) v = cj(L[j + i * n]);
      O[e] = v;
    }
    if (tid == 0) info[z] = s_fail;
    __syncthreads();
  }
}

// ---------------------------------------------------------------------------------------------
// Cholesky of matrices up to 64 × 64 (taken up to 32), a warp per matrix and `blockDim.x / 32`
// matrices per block: lane l owns rows l and l + 32 of L (column-major, odd leading dimension so
// that both rows and columns meet every bank), no barrier but the warp's.
extern "C" __global__ void __launch_bounds__(256) XP_NAME(cholesky_warp)(
    const T* __restrict__ a, i64 ars, i64 acs, i64 abs_, int n, int lower, T* __restrict__ out,
    int* __restrict__ info, i64 count) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, wpb = blockDim.x >> 5, ld = n | 1;
  extern __shared__ cd smem_[];
  T* L = (T*)smem_ + warp * n * ld;
  // the triangle read (its mirror conjugated) along the input's shorter stride
  const i64 si = lower ? ars : acs, sj = lower ? acs : ars;
  const bool jfast = (sj < 0 ? -sj : sj) <= (si < 0 ? -si : si);
  for (i64 z = (i64)blockIdx.x * wpb + warp; z < count; z += (i64)gridDim.x * wpb) {
    const T* A = a + z * abs_;
    for (int e = lane; e < n * n; e += 32) {
      const int i = jfast ? e / n : e % n, j = jfast ? e % n : e / n;
      if (i >= j) L[i + j * ld] = lower ? A[i * ars + j * acs] : cj(A[j * ars + i * acs]);
    }
    __syncwarp();
    int fail = 0;
    for (int j = 0; j < n; ++j) {
      const R d = re(L[j + j * ld]);
      if (d <= 0) {  // NaN passes through, as in LAPACK
        fail = j + 1;
        break;
      }
      const R l = sqrt(d), inv = (R)1 / l;
      __syncwarp();
      if (lane == 0) L[j + j * ld] = of(l);
      for (int i = j + 1 + lane; i < n; i += 32) L[i + j * ld] = sc(L[i + j * ld], inv);
      __syncwarp();
      for (int i = j + 1 + lane; i < n; i += 32) {
        const T lij = L[i + j * ld];
        for (int k = j + 1; k <= i; ++k) L[i + k * ld] = L[i + k * ld] - lij * cj(L[k + j * ld]);
      }
      __syncwarp();
    }
    T* O = out + z * n * n;
    for (int e = lane; e < n * n; e += 32) {
      const int i = e / n, j = e % n;  // C order
      T v = of((R)0);
      if (lower && i >= j) v = L[i + j * ld];
      if (!lower && i <= j) v = cj(L[j + i * ld]);
      O[e] = v;
    }
    if (lane == 0) info[z] = fail;
    __syncwarp();
  }
}

// ---------------------------------------------------------------------------------------------
// QR by Householder reflectors, as LAPACK's geqrf (R's diagonal real, of the sign that avoids
// cancellation) and orgqr (Q = H_1 ⋯ H_k applied to the first `qc` columns of the identity).
// mode: 0 reduced, 1 complete, 2 R only. F (m × n, column-major) ends as R above its diagonal and
// the reflectors below it.
extern "C" __global__ void __launch_bounds__(1024) XP_NAME(qr_house)(
    const T* __restrict__ a, i64 ars, i64 acs, i64 abs_, int m, int n, int mode,
    T* __restrict__ qo, T* __restrict__ ro, i64 count) {
  const int k = min(m, n);
  const int qc = mode == 1 ? m : k, rr = mode == 1 ? m : k;
  const int tid = threadIdx.x, nt = blockDim.x, lane = tid & 31, warp = tid >> 5, nw = nt >> 5;
  extern __shared__ cd smem_[];
  T* F = (T*)smem_;
  T* Q = F + m * n;
  T* tau = Q + (mode != 2 ? m * qc : 0);
  __shared__ T s_scale;
  __shared__ R red[32];
  for (i64 z = blockIdx.x; z < count; z += gridDim.x) {
    const T* A = a + z * abs_;
    R mx = 0;
    for (int e = tid; e < m * n; e += nt) {
      const int i = e % m, j = e / m;
      F[e] = A[i * ars + j * acs];
      mx = fmax(mx, absv(F[e]));
    }
    // scaled by a power of two into [0.5, 1) (exact): the Householder norms' sums of squares
    // neither overflow nor underflow (complex64 entries near 1e19 gave inf); R is scaled back
    const R scale = pow2_scale(block_max(mx, red));
    for (int e = tid; e < m * n; e += nt) F[e] = sc(F[e], scale);
    __syncthreads();
    for (int j = 0; j < k; ++j) {
      T* x = F + j * m;
      if (warp == 0) {
        // LAPACK's larfg: beta = -sign(Re alpha) |(alpha, x)|, tau = (beta - alpha) / beta,
        // v = x / (alpha - beta); tau = 0 (H = I) when x = 0 and alpha is real.
        R xn = 0;
        for (int i = j + 1 + lane; i < m; i += 32) xn += abs2(x[i]);
        xn = warp_sum_r(xn);
        if (lane == 0) {
          const T al = x[j];
#if CPLX
          const R ai = al.im;
#else
          const R ai = 0;
#endif
          if (xn == 0 && ai == 0) {
            tau[j] = of((R)0);
            s_scale = of((R)1);
          } else {
            const R ar = re(al);
            const R beta = -copysign(sqrt(ar * ar + ai * ai + xn), ar);
#if CPLX
            tau[j] = mk((beta - ar) / beta, -ai / beta, (T*)0);
#else
            tau[j] = (beta - ar) / beta;
#endif
            s_scale = of((R)1) / (al - of(beta));
            x[j] = of(beta);
          }
        }
      }
      __syncthreads();
      const T f = s_scale;
      for (int i = j + 1 + tid; i < m; i += nt) x[i] = x[i] * f;
      __syncthreads();
      // the trailing columns: (I - conj(tau) v vᴴ) F, v = (1, x[j+1:])
      const T tj = cj(tau[j]);
      for (int col = j + 1 + warp; col < n; col += nw) {
        T* y = F + col * m;
        T d = of((R)0);
        for (int i = j + lane; i < m; i += 32) d = d + (i == j ? y[i] : cj(x[i]) * y[i]);
        d = warp_sum(d) * tj;
        for (int i = j + lane; i < m; i += 32) y[i] = y[i] - (i == j ? d : x[i] * d);
      }
      __syncthreads();
    }
    T* Ro = ro + z * (i64)rr * n;
    for (int e = tid; e < rr * n; e += nt) {
      const int i = e / n, j = e % n;
      Ro[e] = (i <= j && i < k) ? sc(F[i + j * m], (R)1 / scale) : of((R)0);
    }
    if (mode != 2) {
      for (int e = tid; e < m * qc; e += nt) Q[e] = of(e % m == e / m ? (R)1 : (R)0);
      __syncthreads();
      for (int j = k - 1; j >= 0; --j) {
        const T* x = F + j * m;
        const T tj = tau[j];
        for (int col = j + warp; col < qc; col += nw) {
          T* y = Q + col * m;
          T d = of((R)0);
          for (int i = j + lane; i < m; i += 32) d = d + (i == j ? y[i] : cj(x[i]) * y[i]);
          d = warp_sum(d) * tj;
          for (int i = j + lane; i < m; i += 32) y[i] = y[i] - (i == j ? d : x[i] * d);
        }
        __syncthreads();
      }
      T* Qo = qo + z * (i64)m * qc;
      for (int e = tid; e < m * qc; e += nt) Qo[e] = Q[(e % qc) * m + e / qc];
    }
    __syncthreads();
  }
}
