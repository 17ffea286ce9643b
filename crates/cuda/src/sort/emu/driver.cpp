// Test driver for the sort kernels run by the CPU emulator (emu.h, sort/emu.rs). For each dtype
// emu.rs generates a namespace with its kernels and a struct K (RAW, PK, TILE, lt, specials and
// the launchers); the tests below run the kernels the way radix.rs, segmented.rs and search.rs
// launch them and compare with std::stable_sort under the same order (key_lt, whose agreement
// with NumPy's rules keys.rs tests). Sorted values must be bit-identical, positions identical.
#include <algorithm>

static u64 emu_rng = 0x9e3779b97f4a7c15ull;
static u64 rnd() {
  emu_rng ^= emu_rng << 13;
  emu_rng ^= emu_rng >> 7;
  emu_rng ^= emu_rng << 17;
  return emu_rng;
}
static int failures = 0;
#define CHECK(c, ...)                                     \
  do {                                                    \
    if (!(c)) {                                           \
      printf("FAIL %s:%d: ", name, __LINE__);             \
      printf(__VA_ARGS__);                                \
      printf("\n");                                       \
      fflush(stdout);                                     \
      ++failures;                                         \
      return;                                             \
    }                                                     \
  } while (0)

template <class K> struct Tests {
  using RAW = typename K::RAW;
  const char* name;

  // Test data: `narrow` draws from 5 values (many equal keys: stability), else from the dtype's
  // special values (NaNs, zeros, infinities...) and random bits.
  vector<RAW> data(size_t n, bool narrow) {
    vector<RAW> pool;
    for (int i = 0; i < 5; ++i) pool.push_back(K::specials[rnd() % K::nspecials]);
    vector<RAW> v(n);
    for (auto& x : v) {
      if (narrow) x = pool[rnd() % pool.size()];
      else if (rnd() % 4 == 0) x = K::specials[rnd() % K::nspecials];
      else x = K::random(rnd());
    }
    return v;
  }
  static bool same(const RAW& a, const RAW& b) { return memcmp(&a, &b, sizeof(RAW)) == 0; }
  // Positions along each line of `linelen` (0: one line) stably sorted by K::lt.
  static vector<i64> reference(const vector<RAW>& a, size_t linelen) {
    const size_t n = a.size(), len = linelen ? linelen : n;
    vector<i64> out(n);
    for (size_t l0 = 0; l0 < n; l0 += len) {
      vector<i64> p(len);
      for (size_t j = 0; j < len; ++j) p[j] = (i64)j;
      stable_sort(p.begin(), p.end(), [&](i64 x, i64 y) { return K::lt(a[l0 + x], a[l0 + y]); });
      for (size_t j = 0; j < len; ++j) out[l0 + j] = p[j];
    }
    return out;
  }

  // radix.rs::run: histogram, plan, passes in portions of `per_portion` tiles.
  void radix(const RAW* src, i64 stride, size_t n, u32 linelen, int vmode, const i64* given, bool items_out,
             bool vals_out, vector<RAW>& kres, vector<i64>& vres, size_t per_portion) {
    const size_t lines = linelen ? n / linelen : 1;
    int lp = 0;
    for (size_t x = lines > 1 ? lines - 1 : 0; x; x >>= 8) ++lp;
    const int pk = K::PK, np = pk + lp;
    const size_t tiles = (n + K::TILE - 1) / K::TILE, portions = max<size_t>(1, (tiles + per_portion - 1) / per_portion);
    vector<u32> hist(np * 256, 0u), ctr(np * portions, 0u), status(tiles * 256, 0u);
    vector<u64> bins(2 * np * 256);
    vector<int> plan(3 * np);
    kres.assign(items_out ? n : 0, RAW{});
    vector<RAW> ka(n), kb(items_out ? 0 : n);
    vector<u32> va(n), vb(n);
    vector<i64> va64(n);
    vres.assign(vals_out ? n : 0, 0);
    void* pva = vmode == 2 ? (void*)va64.data() : (void*)va.data();
    const unsigned hb = (unsigned)min<size_t>((n + 1023) / 1024, 3);
    emu_launch(max(hb, 1u), 256, 3,
               [&](int s) { K::hist(s, src, stride, (u64)n, hist.data(), (u64)lines, linelen, lp); });
    emu_launch(1, 256, 1, [&](int s) { K::plan(s, hist.data(), bins.data(), plan.data(), np, (u64)n); });
    for (int p = 0; p < np; ++p) {
      for (size_t q = 0; q < portions; ++q) {
        const size_t nt = min(per_portion, tiles - q * per_portion);
        u64* bin = bins.data() + ((q & 1) * np + p) * 256;
        u64* bout = bins.data() + (((q + 1) & 1) * np + p) * 256;
        emu_launch((unsigned)nt, 256, 3, [&](int s) {
          K::pass(vmode, p >= pk, s, src, stride, ka.data(), kb.empty() ? nullptr : kb.data(),
                  items_out ? kres.data() : nullptr, (const void*)given, pva, (void*)vb.data(),
                  vals_out ? vres.data() : nullptr, plan.data(), p, status.data(), ctr.data() + p * portions + q,
                  bin, bout, (u64)n, (u64)(q * per_portion), (u32)nt, linelen);
        });
      }
    }
  }

  void device_wide(size_t n, bool narrow, i64 stride, size_t per_portion) {
    vector<RAW> in = data(n, narrow);
    // The line at `stride` (negative: from the end) inside a buffer of n * |stride| items.
    const size_t as = (size_t)(stride < 0 ? -stride : stride);
    vector<RAW> buf(n * as + 1);
    for (size_t i = 0; i < n; ++i) buf[stride < 0 ? (n - 1 - i) * as : i * as] = in[i];
    const RAW* src = buf.data() + (stride < 0 ? (n - 1) * as : 0);
    const vector<i64> ref = reference(in, 0);
    vector<RAW> k;
    vector<i64> v;
    radix(src, stride, n, 0, 0, nullptr, true, false, k, v, per_portion);
    for (size_t i = 0; i < n; ++i) CHECK(same(k[i], in[ref[i]]), "sort n=%zu stride=%lld: item %zu differs", n, (long long)stride, i);
    radix(src, stride, n, 0, 1, nullptr, false, true, k, v, per_portion);
    for (size_t i = 0; i < n; ++i) CHECK(v[i] == ref[i], "argsort n=%zu: position %zu is %lld, want %lld", n, i, (long long)v[i], (long long)ref[i]);
  }

  void lines(size_t nl, size_t len, bool narrow) {
    const size_t n = nl * len;
    vector<RAW> in = data(n, narrow);
    const vector<i64> ref = reference(in, len);
    vector<RAW> k;
    vector<i64> v;
    radix(in.data(), 1, n, (u32)len, 1, nullptr, true, false, k, v, 2);
    for (size_t i = 0; i < n; ++i) CHECK(same(k[i], in[(i / len) * len + ref[i]]), "lines %zux%zu sort: item %zu", nl, len, i);
    radix(in.data(), 1, n, (u32)len, 1, nullptr, false, true, k, v, 2);
    for (size_t i = 0; i < n; ++i) CHECK(v[i] == ref[i], "lines %zux%zu argsort: %zu is %lld want %lld", nl, len, i, (long long)v[i], (long long)ref[i]);
  }

  // sort_pairs: given int64 values follow their keys.
  void pairs(size_t n, bool narrow) {
    vector<RAW> in = data(n, narrow);
    vector<i64> given(n);
    for (auto& g : given) g = (i64)rnd();
    const vector<i64> ref = reference(in, 0);
    vector<RAW> k;
    vector<i64> v;
    radix(in.data(), 1, n, 0, 2, given.data(), true, true, k, v, 3);
    for (size_t i = 0; i < n; ++i) {
      CHECK(same(k[i], in[ref[i]]), "pairs n=%zu: key %zu", n, i);
      CHECK(v[i] == given[ref[i]], "pairs n=%zu: value %zu", n, i);
    }
  }

  // segmented.rs: `nl` lines of `len`, contiguous rows (transposed: columns of a row-major
  // (len, nl) buffer); block kernel when `block`, else the warp kernel.
  void segmented(size_t nl, size_t len, bool transposed, bool block, bool narrow) {
    const size_t n = nl * len;
    vector<RAW> in = data(n, narrow);  // line-major values
    vector<RAW> buf(n);
    for (size_t l = 0; l < nl; ++l)
      for (size_t j = 0; j < len; ++j) buf[transposed ? j * nl + l : l * len + j] = in[l * len + j];
    const vector<i64> ref = reference(in, len);
    Idx k{};
    k.n = (i64)nl;
    k.nd = 1;
    k.shape[0] = (i64)nl;
    k.st[0][0] = transposed ? 1 : (i64)len;
    k.st[1][0] = transposed ? 1 : (i64)len;
    const i64 step = transposed ? (i64)nl : 1;
    for (int idx = 0; idx < 2; ++idx) {
      vector<RAW> ov(n);
      vector<i64> oi(n, -1);
      if (block) {
        const int tier = K::tier_for(len);
        emu_launch((unsigned)nl, 32 * K::tier_warps(tier), 2, [&](int s) {
          K::segb(tier, idx, s, buf.data(), k, (i64)len, step, step, ov.data(), oi.data());
        });
      } else {
        int lgs = 0;
        while ((1u << lgs) < len) ++lgs;
        const size_t per = 256 >> lgs;
        emu_launch((unsigned)((nl + per - 1) / per), 256, 2,
                   [&](int s) { K::segw(idx, s, buf.data(), k, (i64)len, step, step, lgs, ov.data(), oi.data()); });
      }
      for (size_t l = 0; l < nl; ++l)
        for (size_t j = 0; j < len; ++j) {
          const size_t at = transposed ? j * nl + l : l * len + j;
          if (idx) CHECK(oi[at] == ref[l * len + j], "seg %zux%zu T%d B%d argsort line %zu pos %zu: %lld want %lld", nl, len, transposed, block, l, j, (long long)oi[at], (long long)ref[l * len + j]);
          else CHECK(same(ov[at], in[l * len + ref[l * len + j]]), "seg %zux%zu T%d B%d sort line %zu pos %zu", nl, len, transposed, block, l, j);
        }
    }
  }

  void search(size_t n, bool narrow) {
    vector<RAW> a = data(n, narrow);
    const vector<i64> p = reference(a, 0);
    vector<RAW> sorted(n);
    for (size_t i = 0; i < n; ++i) sorted[i] = a[p[i]];
    vector<RAW> v = data(300, narrow);
    for (size_t i = 0; i < 50 && i < n; ++i) v[i] = sorted[rnd() % n];  // hits
    Idx ix{};
    ix.n = (i64)v.size();
    ix.nd = 1;
    ix.shape[0] = ix.n;
    ix.st[0][0] = 1;
    ix.st[1][0] = 1;
    for (int right = 0; right < 2; ++right) {
      vector<i64> o(v.size(), -1);
      emu_launch((unsigned)((v.size() + 255) / 256), 256, 1, [&](int s) { K::search(s, o.data(), sorted.data(), (i64)n, (i64)1, v.data(), ix, right); });
      for (size_t i = 0; i < v.size(); ++i) {
        i64 want = 0;
        for (size_t q = 0; q < n; ++q) want += right ? !K::lt(v[i], sorted[q]) : K::lt(sorted[q], v[i]);
        CHECK(o[i] == want, "search n=%zu right=%d: %zu is %lld want %lld", n, right, i, (long long)o[i], (long long)want);
      }
    }
  }

  // merge.rs::merge_sorted: cuts, then the tiles; against std::merge (stable: a's values first)
  void merge(size_t na, size_t nb, bool narrow) {
    auto sorted = [&](size_t n) {
      const vector<RAW> v = data(n, narrow);
      const vector<i64> p = reference(v, 0);
      vector<RAW> s(n);
      for (size_t i = 0; i < n; ++i) s[i] = v[p[i]];
      return s;
    };
    const vector<RAW> a = sorted(na), b = sorted(nb);
    const size_t n = na + nb, tile = K::merge_tile, tiles = (n + tile - 1) / tile;
    vector<i64> cuts(tiles + 1, -1);
    vector<RAW> o(n), want(n);
    emu_launch((unsigned)((tiles + 256) / 256), 256, 1, [&](int s) { K::merge_cuts(s, cuts.data(), a.data(), (i64)na, b.data(), (i64)nb, (i64)tiles); });
    emu_launch((unsigned)tiles, 256, 2, [&](int s) { K::merge(s, o.data(), a.data(), (i64)na, b.data(), (i64)nb, (const i64*)cuts.data(), (i64)tiles); });
    std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin(), [](const RAW& x, const RAW& y) { return K::lt(x, y); });
    for (size_t i = 0; i < n; ++i) CHECK(same(o[i], want[i]), "merge %zu + %zu narrow=%d: position %zu differs", na, nb, narrow, i);
  }

  void all() {
    device_wide(1, false, 1, 2);
    device_wide(3000, false, 1, 2);  // 3 tiles, 2 portions
    device_wide(5000, true, 1, 3);
    device_wide(2100, false, -1, 2);  // reversed
    device_wide(1500, true, 3, 1);
    lines(5, 700, false);
    lines(300, 9, true);  // 300 lines: two line-digit passes
    pairs(2500, false);
    pairs(2600, true);
    segmented(7, 100, false, true, false);
    segmented(5, 200, true, true, true);
    segmented(3, 33, false, true, false);
    segmented(40, 7, true, false, false);
    segmented(21, 32, false, false, true);
    segmented(9, 2, false, false, false);
    search(0, false);
    search(1000, false);
    search(500, true);
    merge(0, 0, false);
    merge(0, 300, false);
    merge(1, 0, true);
    merge(3000, 1500, false);  // 3 tiles
    merge(2500, 2600, true);   // many equal keys across tile edges
  }
};
