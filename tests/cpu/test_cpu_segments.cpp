// GoogleTest suite of the CPU segmented operations (scankit/cpu/segments.hpp): the serial
// references against brute-force checks written independently on small cases; then the
// parallel segmented_reduce, segmented_scan (offsets and flags), scan_by_key and reduce_by_key
// against the serial references over every segment-length distribution of
// common/segments_test_util.hpp, every element type with sum, product, min and max, a
// non-commutative operator, forced paths and tiny tiles (segments crossing many tile edges),
// runs of millions of empty segments, determinism across runs, thread counts and paths, key
// types compared by their bits, and bad arguments (which throw and write nothing).
//
// Integers and the non-commutative operator must equal the serial reference exactly. Floats
// are compared with a long double reference: sums within 8 eps (|ref| + sum of |items| so
// far in the segment, + |init|) log2(n + 2); products within 8 eps |ref| (k + 2) for k items;
// min and max exactly.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/segments_test_util.hpp"
#include "common/test_util.hpp"
#include "scankit/cpu/segments.hpp"

namespace {

namespace sk = scankit;
namespace skc = scankit::cpu;
using namespace scankit::test;
using i64 = std::int64_t;
using vec64 = std::vector<i64>;

constexpr skc::segments_config cfg_serial{skc::segments_path::serial, 0};
constexpr skc::segments_config cfg_parallel{skc::segments_path::parallel, 0};

template <class T>
i64 tuned_tile() {
  return skc::detail::segments::tile_bytes / static_cast<i64>(sizeof(T));
}

/// Sizes for the loops over every type and operator: 0, 1, 2, a prime, 2^10 + 1, the tuned
/// tile's edges, and a random size.
template <class T>
std::vector<i64> type_sizes() {
  const i64 t = tuned_tile<T>();
  std::vector<i64> s{0, 1, 2, 97, 1025, t - 1, t, t + 1};
  if (!quick()) s.push_back(2 * t + 1);
  s.push_back(std::uniform_int_distribution<i64>(1, quick() ? i64{1} << 15 : i64{1} << 17)(rng()));
  return s;
}

/// The mean segment lengths tried with each distribution.
const std::vector<double> means{8.0, 32.0, 256.0};

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// ---------------------------------------------------------------------------------------------
// Float comparison with a long double reference.

template <class Op>
constexpr bool is_float_builtin() {
  return std::is_floating_point_v<sk::value_t<Op>> && has_wide_reference<Op>();
}

template <class Op>
long double wide(long double a, long double b) {
  const std::string_view n = Op::name;
  if (n == "sum") return a + b;
  if (n == "prod") return a * b;
  if (n == "min") return b < a ? b : a;
  return a < b ? b : a;
}

/// Whether got is within the stated tolerance of ref (see the top of the file); k items.
template <class Op>
bool close(sk::value_t<Op> got, long double ref, double abs_sum, i64 k, i64 n) {
  using T = sk::value_t<Op>;
  const std::string_view name = Op::name;
  if (static_cast<long double>(got) == ref) return true;
  constexpr double eps = std::numeric_limits<T>::epsilon();
  const double r = std::abs(static_cast<double>(ref));
  const double tol = name == "sum" ? 8.0 * eps * (r + abs_sum) * std::log2(static_cast<double>(n) + 2.0)
                     : name == "prod" ? 8.0 * eps * r * static_cast<double>(k + 2)
                                      : 0.0;
  return std::abs(static_cast<double>(got) - static_cast<double>(ref)) <= tol;
}

// ---------------------------------------------------------------------------------------------
// segmented_reduce

/// The parallel reduction of in over bounds (begin, end) under cfg, checked against the serial
/// reference (exact) or the long double one (floats).
template <class Op>
::testing::AssertionResult check_reduce(const std::vector<sk::value_t<Op>>& in, const vec64& begin, const vec64& end,
                                        Op op, const skc::segments_config& cfg) {
  using T = sk::value_t<Op>;
  const i64 n = static_cast<i64>(in.size()), count = static_cast<i64>(begin.size());
  const sk::segment_bounds seg(begin.data(), end.data(), count);
  const T empty = op.identity();
  std::vector<T> got(begin.size(), op.identity()), ref(begin.size(), op.identity());
  skc::segmented_reduce(in.data(), n, seg, op, empty, got.data(), cfg);
  skc::segmented_reduce_serial(in.data(), n, seg, op, empty, ref.data());
  for (i64 s = 0; s < count; ++s) {
    const auto k = static_cast<std::size_t>(s);
    if constexpr (is_float_builtin<Op>()) {
      long double w = static_cast<long double>(op.identity());
      double abs_sum = 0;
      for (i64 i = begin[k]; i < end[k]; ++i) {
        w = wide<Op>(w, in[static_cast<std::size_t>(i)]);
        abs_sum += std::abs(static_cast<double>(in[static_cast<std::size_t>(i)]));
      }
      if (!close<Op>(got[k], w, abs_sum, end[k] - begin[k], end[k] - begin[k]))
        return ::testing::AssertionFailure() << "n=" << n << " segment " << s << " [" << begin[k] << ", " << end[k]
                                             << "): got " << got[k] << ", reference " << static_cast<double>(w);
    } else {
      if (!(got[k] == ref[k]))
        return ::testing::AssertionFailure() << "n=" << n << " segment " << s << " [" << begin[k] << ", " << end[k]
                                             << ") differs from the serial reference";
    }
  }
  return ::testing::AssertionSuccess();
}

template <class Op>
::testing::AssertionResult check_reduce(const std::vector<sk::value_t<Op>>& in, const vec64& off, Op op,
                                        const skc::segments_config& cfg) {
  const vec64 begin(off.begin(), off.end() - 1), end(off.begin() + 1, off.end());
  return check_reduce(in, begin, end, op, cfg);
}

// ---------------------------------------------------------------------------------------------
// Scans: offsets, flags and keys describe the same segments, so their serial references must
// agree, and the parallel versions must match them.

enum class scan_by { offsets, flags, keys };
constexpr scan_by all_scan_by[] = {scan_by::offsets, scan_by::flags, scan_by::keys};
const char* name(scan_by b) { return b == scan_by::offsets ? "offsets" : b == scan_by::flags ? "flags" : "keys"; }

struct segments_of {
  vec64 off;
  std::vector<std::uint8_t> flags;
  std::vector<std::int32_t> keys;
};

inline segments_of describe(vec64 off, i64 n) {
  segments_of s;
  s.flags = flags_from_offsets(off, n, rng());
  s.keys = keys_from_offsets<std::int32_t>(off, n, rng());
  s.off = std::move(off);
  return s;
}

template <class Op>
void run_scan(scan_by by, bool serial, const segments_of& sg, const sk::value_t<Op>* in, sk::value_t<Op>* out, i64 n,
              Op op, sk::scan_kind kind, sk::value_t<Op> init, const skc::segments_config& cfg) {
  const sk::segment_offsets so{sg.off.data(), static_cast<i64>(sg.off.size()) - 1};
  const sk::head_flags hf{sg.flags.data()};
  switch (by) {
    case scan_by::offsets:
      serial ? skc::segmented_scan_serial(in, out, n, so, op, kind, init)
             : skc::segmented_scan(in, out, n, so, op, kind, init, cfg);
      break;
    case scan_by::flags:
      serial ? skc::segmented_scan_serial(in, out, n, hf, op, kind, init)
             : skc::segmented_scan(in, out, n, hf, op, kind, init, cfg);
      break;
    case scan_by::keys:
      serial ? skc::scan_by_key_serial(sg.keys.data(), in, out, n, op, kind, init)
             : skc::scan_by_key(sg.keys.data(), in, out, n, op, kind, init, cfg);
      break;
  }
}

/// Checks one parallel scan (out of place and in place) against the serial reference.
template <class Op>
::testing::AssertionResult check_scan(const std::vector<sk::value_t<Op>>& in, const segments_of& sg, Op op,
                                      sk::scan_kind kind, sk::value_t<Op> init, scan_by by,
                                      const skc::segments_config& cfg) {
  using T = sk::value_t<Op>;
  const i64 n = static_cast<i64>(in.size());
  std::vector<T> ref(in), got(in), inplace(in);
  run_scan(by, true, sg, in.data(), ref.data(), n, op, kind, init, cfg);
  if (by != scan_by::offsets) {  // the serial references agree with each other
    std::vector<T> ref_off(in);
    run_scan(scan_by::offsets, true, sg, in.data(), ref_off.data(), n, op, kind, init, cfg);
    if (!same_bits(ref, ref_off)) return ::testing::AssertionFailure() << name(by) << ": serial references differ";
  }
  run_scan(by, false, sg, in.data(), got.data(), n, op, kind, init, cfg);
  run_scan(by, false, sg, inplace.data(), inplace.data(), n, op, kind, init, cfg);
  if (!same_bits(got, inplace)) return ::testing::AssertionFailure() << name(by) << " n=" << n << ": in place differs";
  if constexpr (is_float_builtin<Op>()) {
    long double acc = 0;
    double abs_sum = 0;
    i64 k = 0, seg = 0;
    for (i64 i = 0; i < n; ++i) {
      while (sg.off[static_cast<std::size_t>(seg) + 1] <= i) ++seg;
      if (sg.off[static_cast<std::size_t>(seg)] == i) {
        acc = static_cast<long double>(init);
        abs_sum = std::abs(static_cast<double>(init));
        k = 0;
      }
      const T x = in[static_cast<std::size_t>(i)];
      const long double before = acc;
      acc = wide<Op>(acc, x);
      abs_sum += std::abs(static_cast<double>(x));
      ++k;
      const long double want = kind == sk::scan_kind::inclusive ? acc : before;
      if (!close<Op>(got[static_cast<std::size_t>(i)], want, abs_sum, k, n))
        return ::testing::AssertionFailure() << name(by) << " " << kind_name(kind) << " n=" << n << " item " << i
                                             << ": got " << got[static_cast<std::size_t>(i)] << ", reference "
                                             << static_cast<double>(want);
    }
  } else {
    for (i64 i = 0; i < n; ++i)
      if (!(got[static_cast<std::size_t>(i)] == ref[static_cast<std::size_t>(i)]))
        return ::testing::AssertionFailure() << name(by) << " " << kind_name(kind) << " n=" << n
                                             << " first mismatch at item " << i;
  }
  return ::testing::AssertionSuccess();
}

// ---------------------------------------------------------------------------------------------
// reduce_by_key

template <class K, class Op>
::testing::AssertionResult check_reduce_by_key(const std::vector<K>& keys, const std::vector<sk::value_t<Op>>& in,
                                               Op op, const skc::segments_config& cfg) {
  using T = sk::value_t<Op>;
  const i64 n = static_cast<i64>(in.size());
  std::vector<K> rk(keys.size()), gk(keys.size());
  std::vector<T> rv(in.size(), op.identity()), gv(in.size(), op.identity());
  const i64 rn = skc::reduce_by_key_serial(keys.data(), in.data(), n, op, rk.data(), rv.data());
  const i64 gn = skc::reduce_by_key(keys.data(), in.data(), n, op, gk.data(), gv.data(), cfg);
  if (rn != gn) return ::testing::AssertionFailure() << "n=" << n << ": " << gn << " runs, reference " << rn;
  rk.resize(static_cast<std::size_t>(rn));
  gk.resize(static_cast<std::size_t>(rn));
  if (!same_bits(rk, gk)) return ::testing::AssertionFailure() << "n=" << n << ": keys differ";
  for (i64 r = 0, head = 0; r < rn; ++r) {
    const auto k = static_cast<std::size_t>(r);
    if constexpr (is_float_builtin<Op>()) {
      long double w = static_cast<long double>(op.identity());
      double abs_sum = 0;
      i64 i = head;
      for (; i < n && sk::detail::same_key(keys[static_cast<std::size_t>(i)], rk[k]); ++i) {
        w = wide<Op>(w, in[static_cast<std::size_t>(i)]);
        abs_sum += std::abs(static_cast<double>(in[static_cast<std::size_t>(i)]));
      }
      if (!close<Op>(gv[k], w, abs_sum, i - head, i - head))
        return ::testing::AssertionFailure() << "n=" << n << " run " << r << ": got " << gv[k] << ", reference "
                                             << static_cast<double>(w);
      head = i;
    } else if (!(gv[k] == rv[k])) {
      return ::testing::AssertionFailure() << "n=" << n << " run " << r << " differs from the serial reference";
    }
  }
  return ::testing::AssertionSuccess();
}

// ---------------------------------------------------------------------------------------------
// The serial references against independent brute-force checks.

/// Per item, the segments that hold it, found by a search over all segments; each segment's
/// value folded item by item in order.
template <class Op>
std::vector<sk::value_t<Op>> brute_reduce(const std::vector<sk::value_t<Op>>& in, const vec64& b, const vec64& e,
                                          Op op, sk::value_t<Op> empty) {
  std::vector<sk::value_t<Op>> out(b.size(), op.identity());
  std::vector<bool> any(b.size(), false);
  for (i64 i = 0; i < static_cast<i64>(in.size()); ++i)
    for (std::size_t s = 0; s < b.size(); ++s)
      if (b[s] <= i && i < e[s]) {
        out[s] = op(out[s], in[static_cast<std::size_t>(i)]);
        any[s] = true;
      }
  for (std::size_t s = 0; s < b.size(); ++s)
    if (!any[s]) out[s] = empty;
  return out;
}

/// Item i's value from scratch: init folded with the items from its segment's head (found by
/// `head_of`) to i (inclusive) or to i - 1 (exclusive).
template <class Op, class HeadOf>
std::vector<sk::value_t<Op>> brute_scan(const std::vector<sk::value_t<Op>>& in, HeadOf head_of, Op op,
                                        sk::scan_kind kind, sk::value_t<Op> init) {
  std::vector<sk::value_t<Op>> out(in);
  for (i64 i = 0; i < static_cast<i64>(in.size()); ++i) {
    sk::value_t<Op> acc = init;
    const i64 last = kind == sk::scan_kind::inclusive ? i : i - 1;
    for (i64 j = head_of(i); j <= last; ++j) acc = op(acc, in[static_cast<std::size_t>(j)]);
    out[static_cast<std::size_t>(i)] = acc;
  }
  return out;
}

template <class Op>
void check_references(const std::vector<sk::value_t<Op>>& in, const vec64& off, Op op, sk::value_t<Op> init) {
  using T = sk::value_t<Op>;
  const i64 n = static_cast<i64>(in.size());
  const segments_of sg = describe(off, n);
  // Reduction over covering segments and over the same segments with gaps.
  const bounds_arrays gb = gapped_bounds(off, rng());
  for (const auto& [b, e] : {std::pair{vec64(off.begin(), off.end() - 1), vec64(off.begin() + 1, off.end())},
                             std::pair{gb.begin, gb.end}}) {
    std::vector<T> got(b.size(), op.identity());
    skc::segmented_reduce_serial(in.data(), n, sk::segment_bounds(b.data(), e.data(), static_cast<i64>(b.size())), op,
                                 init, got.data());
    EXPECT_TRUE(got == brute_reduce(in, b, e, op, init)) << "segmented_reduce_serial n=" << n;
  }
  auto head_by_offsets = [&](i64 i) {
    i64 h = 0;
    for (std::size_t s = 0; s + 1 < off.size(); ++s)
      if (off[s] <= i && i < off[s + 1]) h = off[s];
    return h;
  };
  auto head_by_flags = [&](i64 i) {
    while (i > 0 && sg.flags[static_cast<std::size_t>(i)] == 0) --i;
    return i;
  };
  auto head_by_keys = [&](i64 i) {
    while (i > 0 && sg.keys[static_cast<std::size_t>(i - 1)] == sg.keys[static_cast<std::size_t>(i)]) --i;
    return i;
  };
  for (sk::scan_kind kind : {sk::scan_kind::inclusive, sk::scan_kind::exclusive}) {
    std::vector<T> got(in);
    for (scan_by by : all_scan_by) {
      run_scan(by, true, sg, in.data(), got.data(), n, op, kind, init, {});
      const auto want = by == scan_by::offsets ? brute_scan(in, head_by_offsets, op, kind, init)
                        : by == scan_by::flags ? brute_scan(in, head_by_flags, op, kind, init)
                                               : brute_scan(in, head_by_keys, op, kind, init);
      EXPECT_TRUE(got == want) << name(by) << " " << kind_name(kind) << " n=" << n;
    }
  }
  // reduce_by_key: adjacent equal keys grouped by hand.
  std::vector<std::int32_t> want_k, got_k(in.size());
  std::vector<T> want_v, got_v(in.size(), op.identity());
  for (i64 i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (i == 0 || sg.keys[k] != sg.keys[k - 1]) {
      want_k.push_back(sg.keys[k]);
      want_v.push_back(op.identity());
    }
    want_v.back() = op(want_v.back(), in[k]);
  }
  const i64 runs = skc::reduce_by_key_serial(sg.keys.data(), in.data(), n, op, got_k.data(), got_v.data());
  got_k.resize(static_cast<std::size_t>(runs));
  got_v.resize(static_cast<std::size_t>(runs));
  EXPECT_EQ(got_k, want_k) << "reduce_by_key_serial n=" << n;
  EXPECT_TRUE(got_v == want_v) << "reduce_by_key_serial n=" << n;
}

TEST(CpuSegments, SerialReferencesAgainstBruteForce) {
  for (i64 n : {0, 1, 2, 3, 17, 64, 97, 200})
    for (segment_dist d : all_segment_dists)
      for (double mean : {1.0, 4.0, 16.0}) {
        SCOPED_TRACE(name(d) + " mean " + std::to_string(mean) + " n " + std::to_string(n));
        const vec64 off = make_offsets(d, n, mean, rng());
        check_references(random_values<i64>(n), off, sk::sum<i64>{}, i64{5});
        check_references(random_affine(n), off, affine_compose{}, affine{3u, 7u});
      }
}

TEST(CpuSegments, OffsetsGenerators) {
  for (i64 n : {0, 1, 2, 97, 1000, 100000})
    for (segment_dist d : all_segment_dists) {
      const vec64 off = make_offsets(d, n, 32.0, rng());
      ASSERT_GE(off.size(), 1u);
      EXPECT_EQ(off.front(), 0);
      EXPECT_EQ(off.back(), n);
      EXPECT_TRUE(std::is_sorted(off.begin(), off.end())) << name(d);
      if (d == segment_dist::many_empty) {
        EXPECT_GE(static_cast<i64>(off.size()), 2 * n + 16) << n;
      }
      if (d == segment_dist::single && n > 0) {
        EXPECT_EQ(off.size(), 2u);
      }
      if (d == segment_dist::ones) {
        EXPECT_EQ(static_cast<i64>(off.size()), n + 1);
      }
    }
}

// ---------------------------------------------------------------------------------------------
// Every type and operator, every distribution, both scan kinds.

/// Each size takes one mean length per distribution, the next one at the next size, so every
/// (distribution, mean) pair runs over a third of the sizes.
template <class T, class Op>
void every_distribution(Op op) {
  std::size_t size_index = 0;
  for (i64 n : type_sizes<T>()) {
    std::size_t turn = size_index++;
    for (segment_dist d : all_segment_dists) {
      const double mean = means[turn++ % means.size()];
      SCOPED_TRACE(std::string(Op::name) + " " + name(d) + " mean " + std::to_string(mean));
      const vec64 off = make_offsets(d, n, mean, rng());
      const auto in = random_values<T>(n, Op::name);
      EXPECT_TRUE(check_reduce(in, off, op, {}));
      const bounds_arrays gb = gapped_bounds(off, rng());
      EXPECT_TRUE(check_reduce(in, gb.begin, gb.end, op, {}));
      const segments_of sg = describe(off, n);
      const T init = scan_carry_in<T>(Op::name);
      for (scan_by by : all_scan_by)
        for (sk::scan_kind kind : {sk::scan_kind::inclusive, sk::scan_kind::exclusive})
          EXPECT_TRUE(check_scan(in, sg, op, kind, init, by, {}));
      EXPECT_TRUE(check_reduce_by_key(sg.keys, in, op, {}));
    }
  }
}

template <class T>
void every_operator() {
  every_distribution<T>(sk::sum<T>{});
  every_distribution<T>(sk::product<T>{});
  every_distribution<T>(sk::min<T>{});
  every_distribution<T>(sk::max<T>{});
}

TEST(CpuSegments, Int32) { every_operator<std::int32_t>(); }
TEST(CpuSegments, UInt32) { every_operator<std::uint32_t>(); }
TEST(CpuSegments, Int64) { every_operator<std::int64_t>(); }
TEST(CpuSegments, UInt64) { every_operator<std::uint64_t>(); }
TEST(CpuSegments, Float) { every_operator<float>(); }
TEST(CpuSegments, Double) { every_operator<double>(); }

// ---------------------------------------------------------------------------------------------
// Tiles and paths: tiny tiles put segment edges, and segments that span many tiles, everywhere.

TEST(CpuSegments, EveryPathAndTinyTiles) {
  const std::vector<i64> sizes = quick() ? std::vector<i64>{0, 1, 2, 3, 33, 97, 1025}
                                         : std::vector<i64>{0, 1, 2, 3, 31, 32, 33, 97, 1023, 1025, 4099};
  for (i64 tile : {1, 2, 3, 7, 64, 0})
    for (skc::segments_path path : {skc::segments_path::serial, skc::segments_path::parallel,
                                    skc::segments_path::automatic})
      for (i64 n : sizes)
        for (segment_dist d : all_segment_dists) {
          SCOPED_TRACE("tile " + std::to_string(tile) + " path " + std::to_string(static_cast<int>(path)) + " n " +
                       std::to_string(n) + " " + name(d));
          const skc::segments_config cfg{path, tile};
          const vec64 off = make_offsets(d, n, 6.0, rng());
          const auto x = random_values<i64>(n);
          const auto a = random_affine(n);
          const auto f = random_values<double>(n);
          EXPECT_TRUE(check_reduce(x, off, sk::sum<i64>{}, cfg));
          EXPECT_TRUE(check_reduce(a, off, affine_compose{}, cfg));
          EXPECT_TRUE(check_reduce(f, off, sk::sum<double>{}, cfg));
          const bounds_arrays gb = gapped_bounds(off, rng());
          EXPECT_TRUE(check_reduce(a, gb.begin, gb.end, affine_compose{}, cfg));
          const segments_of sg = describe(off, n);
          for (scan_by by : all_scan_by)
            for (sk::scan_kind kind : {sk::scan_kind::inclusive, sk::scan_kind::exclusive}) {
              EXPECT_TRUE(check_scan(x, sg, sk::sum<i64>{}, kind, i64{-3}, by, cfg));
              EXPECT_TRUE(check_scan(a, sg, affine_compose{}, kind, affine{5u, 11u}, by, cfg));
              EXPECT_TRUE(check_scan(f, sg, sk::sum<double>{}, kind, 0.25, by, cfg));
            }
          EXPECT_TRUE(check_reduce_by_key(sg.keys, a, affine_compose{}, cfg));
          EXPECT_TRUE(check_reduce_by_key(sg.keys, x, sk::sum<i64>{}, cfg));
        }
}

TEST(CpuSegments, LargeNonCommutativeAndSums) {
  const i64 n = quick() ? 200'003 : 1'000'003;
  for (segment_dist d : all_segment_dists) {
    SCOPED_TRACE(name(d));
    const vec64 off = make_offsets(d, n, 32.0, rng());
    const auto a = random_affine(n);
    const auto x = random_values<i64>(n);
    const auto f = random_values<float>(n);
    EXPECT_TRUE(check_reduce(a, off, affine_compose{}, {}));
    EXPECT_TRUE(check_reduce(x, off, sk::sum<i64>{}, {}));
    EXPECT_TRUE(check_reduce(f, off, sk::sum<float>{}, {}));
    const segments_of sg = describe(off, n);
    for (scan_by by : all_scan_by) {
      EXPECT_TRUE(check_scan(a, sg, affine_compose{}, sk::scan_kind::inclusive, affine{1u, 0u}, by, {}));
      EXPECT_TRUE(check_scan(f, sg, sk::sum<float>{}, sk::scan_kind::exclusive, 0.0f, by, {}));
    }
    EXPECT_TRUE(check_reduce_by_key(sg.keys, a, affine_compose{}, {}));
    EXPECT_TRUE(check_reduce_by_key(sg.keys, f, sk::sum<float>{}, {}));
  }
}

TEST(CpuSegments, MillionsOfEmptySegments) {
  const i64 empties = quick() ? 300'000 : 3'000'000;
  // No items at all: every segment is empty and takes empty_value.
  {
    const vec64 off(static_cast<std::size_t>(empties) + 1, 0);
    std::vector<double> out(static_cast<std::size_t>(empties), 1.0);
    skc::segmented_reduce(static_cast<const double*>(nullptr), 0,
                          sk::segment_bounds(sk::segment_offsets{off.data(), empties}), sk::sum<double>{}, -7.0,
                          out.data(), cfg_parallel);
    EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](double v) { return v == -7.0; }));
    const auto v = skc::segmented_reduce(std::span<const double>(), std::span<const i64>(off));
    EXPECT_EQ(static_cast<i64>(v.size()), empties);
    std::vector<double> none;
    skc::segmented_scan(std::span<const double>(none), std::span<double>(none), std::span<const i64>(off));
  }
  // Runs of empty segments around a few items, and around one giant segment.
  for (i64 n : {i64{1000}, empties / 3}) {
    vec64 off(static_cast<std::size_t>(empties / 2), 0);
    for (i64 i = 0; i <= n; i += std::max<i64>(1, n / 7)) off.push_back(i);
    off.insert(off.end(), static_cast<std::size_t>(empties / 2), n);
    const auto x = random_values<i64>(n);
    const auto a = random_affine(n);
    EXPECT_TRUE(check_reduce(x, off, sk::sum<i64>{}, {}));
    EXPECT_TRUE(check_reduce(a, off, affine_compose{}, cfg_parallel));
    const segments_of sg = describe(off, n);
    EXPECT_TRUE(check_scan(a, sg, affine_compose{}, sk::scan_kind::exclusive, affine{3u, 1u}, scan_by::offsets, {}));
    EXPECT_TRUE(check_scan(x, sg, sk::sum<i64>{}, sk::scan_kind::inclusive, i64{0}, scan_by::offsets, cfg_parallel));
  }
}

// ---------------------------------------------------------------------------------------------
// Determinism: the same bits across runs, thread counts and paths.

TEST(CpuSegments, SameBitsForEveryThreadCountAndPath) {
  const i64 n = quick() ? 200'009 : 1'000'003;
  const vec64 off = make_offsets(segment_dist::powerlaw, n, 64.0, rng());
  const segments_of sg = describe(off, n);
  const auto in = random_values<float>(n);
  const sk::segment_offsets so{off.data(), static_cast<i64>(off.size()) - 1};
  auto all = [&](const skc::segments_config& cfg) {
    std::vector<float> r(off.size() - 1), s1(in.size()), s2(in.size()), s3(in.size()), rv(in.size());
    std::vector<std::int32_t> rk(in.size());
    skc::segmented_reduce(in.data(), n, sk::segment_bounds(so), sk::sum<float>{}, 0.0f, r.data(), cfg);
    skc::segmented_scan(in.data(), s1.data(), n, so, sk::sum<float>{}, sk::scan_kind::inclusive, 0.5f, cfg);
    skc::segmented_scan(in.data(), s2.data(), n, sk::head_flags{sg.flags.data()}, sk::sum<float>{},
                        sk::scan_kind::exclusive, 0.5f, cfg);
    skc::scan_by_key(sg.keys.data(), in.data(), s3.data(), n, sk::sum<float>{}, sk::scan_kind::inclusive, 0.0f, cfg);
    rv.resize(static_cast<std::size_t>(
        skc::reduce_by_key(sg.keys.data(), in.data(), n, sk::sum<float>{}, rk.data(), rv.data(), cfg)));
    r.insert(r.end(), s1.begin(), s1.end());
    r.insert(r.end(), s2.begin(), s2.end());
    r.insert(r.end(), s3.begin(), s3.end());
    r.insert(r.end(), rv.begin(), rv.end());
    return r;
  };
  const auto first = all({});
  EXPECT_TRUE(same_bits(all({}), first)) << "second run";
  EXPECT_TRUE(same_bits(all(cfg_serial), first)) << "serial path";
  EXPECT_TRUE(same_bits(all(cfg_parallel), first)) << "parallel path";
  for (int threads : {1, 2}) {
    tbb::task_arena arena(threads);
    std::vector<float> got;
    arena.execute([&] { got = all({}); });
    EXPECT_TRUE(same_bits(got, first)) << threads << " threads";
  }
}

// ---------------------------------------------------------------------------------------------
// Keys compared by their bits.

template <class K>
void keys_of_type() {
  SCOPED_TRACE(sizeof(K));
  for (i64 n : {i64{0}, i64{1}, i64{97}, i64{100'003}, quick() ? i64{100'003} : i64{500'009}}) {
    const vec64 off = make_offsets(segment_dist::uniform, n, 8.0, rng());
    const auto keys = keys_from_offsets<K>(off, n, rng());
    EXPECT_TRUE(check_reduce_by_key(keys, random_values<i64>(n), sk::sum<i64>{}, {}));
    EXPECT_TRUE(check_reduce_by_key(keys, random_values<double>(n), sk::sum<double>{}, {}));
    EXPECT_TRUE(check_reduce_by_key(keys, random_affine(n), affine_compose{}, {skc::segments_path::parallel, 17}));
    // The span overload returns the same runs.
    const auto x = random_values<i64>(n);
    const auto [uk, agg] = skc::reduce_by_key(std::span<const K>(keys), std::span<const i64>(x));
    std::vector<K> rk(keys.size());
    std::vector<i64> rv(x.size());
    const i64 runs = skc::reduce_by_key_serial(keys.data(), x.data(), n, sk::sum<i64>{}, rk.data(), rv.data());
    rk.resize(static_cast<std::size_t>(runs));
    rv.resize(static_cast<std::size_t>(runs));
    EXPECT_TRUE(same_bits(uk, rk));
    EXPECT_EQ(agg, rv);
  }
}

TEST(CpuSegments, ReduceByKeyEveryKeyType) {
  keys_of_type<std::int32_t>();
  keys_of_type<std::uint32_t>();
  keys_of_type<std::int64_t>();
  keys_of_type<std::uint64_t>();
  keys_of_type<float>();
  keys_of_type<double>();
}

/// A sum that throws on one chosen operand: an operator's exception must leave reduce_by_key's
/// chained tiles (a thread waiting on the failed tile included) and reach the caller.
struct throwing_sum {
  using value_type = std::int64_t;
  std::int64_t bad;
  static constexpr std::int64_t identity() { return 0; }
  std::int64_t operator()(std::int64_t a, std::int64_t b) const {
    if (b == bad) throw std::runtime_error("throwing_sum");
    return a + b;
  }
};

TEST(CpuSegments, ReduceByKeyOperatorThrows) {
  const i64 n = 1 << 16;
  std::vector<std::int32_t> keys(static_cast<std::size_t>(n));
  std::vector<std::int64_t> in(static_cast<std::size_t>(n));
  for (i64 i = 0; i < n; ++i) {
    keys[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(i / 7);
    in[static_cast<std::size_t>(i)] = i + 1;
  }
  std::vector<std::int32_t> uk(static_cast<std::size_t>(n));
  std::vector<std::int64_t> agg(static_cast<std::size_t>(n));
  for (const i64 bad : {i64{1}, n / 2, n}) {
    for (const int threads : {1, 2, 4}) {
      for (const auto path : {skc::segments_path::serial, skc::segments_path::parallel}) {
        const skc::segments_config cfg{path, 64};
        tbb::task_arena arena(threads);
        arena.execute([&] {
          EXPECT_THROW(skc::reduce_by_key(keys.data(), in.data(), n, throwing_sum{bad}, uk.data(), agg.data(), cfg),
                       std::runtime_error)
              << "bad item " << bad << ", " << threads << " threads";
        });
      }
    }
  }
  // Without the bad operand the same call runs to the end.
  const i64 runs = skc::reduce_by_key(keys.data(), in.data(), n, throwing_sum{-1}, uk.data(), agg.data(),
                                      skc::segments_config{skc::segments_path::parallel, 64});
  EXPECT_EQ(runs, (n + 6) / 7);
}

TEST(CpuSegments, FloatKeysByBits) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> keys{0.0f, -0.0f, -0.0f, 0.0f, nan, nan, 1.0f, 1.0f};
  const std::vector<int> x{1, 2, 3, 4, 5, 6, 7, 8};
  for (const skc::segments_config& cfg : {skc::segments_config{}, cfg_serial, skc::segments_config{skc::segments_path::parallel, 1}}) {
    const auto [k, v] = skc::reduce_by_key(std::span<const float>(keys), std::span<const int>(x), sk::sum<int>{}, cfg);
    ASSERT_EQ(k.size(), 5u);
    EXPECT_FALSE(std::signbit(k[0]));
    EXPECT_TRUE(std::signbit(k[1]));
    EXPECT_TRUE(std::isnan(k[3]));
    EXPECT_EQ(v, (std::vector<int>{1, 5, 4, 11, 15}));
    std::vector<int> out(x.size());
    skc::scan_by_key(std::span<const float>(keys), std::span<const int>(x), std::span<int>(out), sk::sum<int>{},
                     sk::scan_kind::inclusive, std::nullopt, cfg);
    EXPECT_EQ(out, (std::vector<int>{1, 2, 5, 4, 5, 11, 7, 15}));
  }
}

// ---------------------------------------------------------------------------------------------
// The span overloads.

TEST(CpuSegments, Spans) {
  const std::vector<int> x{1, 2, 3, 4, 5, 6};
  const vec64 off{0, 2, 2, 6};
  EXPECT_EQ(skc::segmented_reduce(std::span<const int>(x), std::span<const i64>(off)), (std::vector<int>{3, 0, 18}));
  EXPECT_EQ(skc::segmented_reduce(std::span<const int>(x), std::span<const i64>(off), sk::max<int>{}, -1),
            (std::vector<int>{2, -1, 6}));
  // Offsets need not cover the items for a reduction.
  const vec64 inner{1, 3, 5};
  EXPECT_EQ(skc::segmented_reduce(std::span<const int>(x), std::span<const i64>(inner)), (std::vector<int>{5, 9}));
  EXPECT_TRUE(skc::segmented_reduce(std::span<const int>(x), std::span<const i64>(inner.data(), 1)).empty());
  std::vector<int> out(x.size());
  skc::segmented_scan(std::span<const int>(x), std::span<int>(out), std::span<const i64>(off));
  EXPECT_EQ(out, (std::vector<int>{1, 3, 3, 7, 12, 18}));
  skc::segmented_scan(std::span<const int>(x), std::span<int>(out), std::span<const i64>(off), sk::sum<int>{},
                      sk::scan_kind::exclusive, 10);
  EXPECT_EQ(out, (std::vector<int>{10, 11, 10, 13, 17, 22}));
  const std::vector<std::uint64_t> keys{7, 7, 3, 3, 3, 7};
  skc::scan_by_key(std::span<const std::uint64_t>(keys), std::span<const int>(x), std::span<int>(out),
                   sk::product<int>{});
  EXPECT_EQ(out, (std::vector<int>{1, 2, 3, 12, 60, 6}));
  const auto [k, v] = skc::reduce_by_key(std::span<const std::uint64_t>(keys), std::span<const int>(x));
  EXPECT_EQ(k, (std::vector<std::uint64_t>{7, 3, 7}));
  EXPECT_EQ(v, (std::vector<int>{3, 12, 6}));
}

// ---------------------------------------------------------------------------------------------
// Bad arguments throw and write nothing.

TEST(CpuSegments, InvalidArguments) {
  using ia = sk::invalid_argument;
  const std::vector<int> x{1, 2, 3, 4};
  const int* in = x.data();
  std::vector<int> out(4, -99);
  const std::vector<int> untouched = out;
  std::vector<std::uint8_t> flags(4, 0);
  const std::vector<std::int32_t> keys{1, 1, 2, 2};
  std::vector<std::int32_t> ukeys(4, -99);
  const sk::sum<int> op;
  const auto inc = sk::scan_kind::inclusive;
  auto bounds = [](const vec64& b, const vec64& e) { return sk::segment_bounds(b.data(), e.data(), static_cast<i64>(b.size())); };
  const vec64 decreasing{0, 3, 2, 4}, past_n{0, 2, 5}, not_from_0{1, 4}, not_to_n{0, 3}, good{0, 2, 4};
  // segmented_reduce, serial and parallel.
  for (bool serial : {true, false}) {
    auto reduce = [&](const int* p, i64 n, const sk::segment_bounds& s, int* o, skc::segments_config cfg = {}) {
      serial ? skc::segmented_reduce_serial(p, n, s, op, 0, o) : skc::segmented_reduce(p, n, s, op, 0, o, cfg);
    };
    EXPECT_THROW(reduce(in, 4, sk::segment_offsets{decreasing.data(), 3}, out.data()), ia);
    EXPECT_THROW(reduce(in, 4, sk::segment_offsets{past_n.data(), 2}, out.data()), ia);
    EXPECT_THROW(reduce(in, -1, sk::segment_offsets{good.data(), 2}, out.data()), ia);
    EXPECT_THROW(reduce(nullptr, 4, sk::segment_offsets{good.data(), 2}, out.data()), ia);
    EXPECT_THROW(reduce(in, 4, sk::segment_offsets{good.data(), 2}, nullptr), ia);
    EXPECT_THROW(reduce(in, 4, sk::segment_offsets{nullptr, 2}, out.data()), ia);
    EXPECT_THROW(reduce(in, 4, sk::segment_offsets{good.data(), -1}, out.data()), ia);
    EXPECT_THROW(reduce(in, 4, bounds({0, 2}, {3, 4}), out.data()), ia);  // overlapping
    EXPECT_THROW(reduce(in, 4, bounds({2}, {1}), out.data()), ia);        // begin > end
    if (!serial) {
      EXPECT_THROW(reduce(in, 4, sk::segment_offsets{good.data(), 2}, out.data(), {skc::segments_path::automatic, -1}),
                   ia);
    }
    EXPECT_EQ(out, untouched);
    reduce(nullptr, 0, sk::segment_bounds{}, nullptr);  // nothing at all is fine
  }
  // segmented_scan by offsets and flags, scan_by_key, serial and parallel.
  for (bool serial : {true, false}) {
    auto scan = [&](const int* p, int* o, i64 n, const vec64& off, i64 count) {
      const sk::segment_offsets s{off.data(), count};
      serial ? skc::segmented_scan_serial(p, o, n, s, op, inc, 0) : skc::segmented_scan(p, o, n, s, op, inc, 0);
    };
    EXPECT_THROW(scan(in, out.data(), 4, decreasing, 3), ia);
    EXPECT_THROW(scan(in, out.data(), 4, past_n, 2), ia);
    EXPECT_THROW(scan(in, out.data(), 4, not_from_0, 1), ia);
    EXPECT_THROW(scan(in, out.data(), 4, not_to_n, 1), ia);
    EXPECT_THROW(scan(in, out.data(), 4, good, 0), ia);  // no segments for 4 items
    EXPECT_THROW(scan(in, out.data(), -1, good, 2), ia);
    EXPECT_THROW(scan(nullptr, out.data(), 4, good, 2), ia);
    EXPECT_THROW(scan(in, nullptr, 4, good, 2), ia);
    auto fscan = [&](const int* p, int* o, i64 n, const std::uint8_t* f) {
      serial ? skc::segmented_scan_serial(p, o, n, sk::head_flags{f}, op, inc, 0)
             : skc::segmented_scan(p, o, n, sk::head_flags{f}, op, inc, 0);
    };
    EXPECT_THROW(fscan(in, out.data(), 4, nullptr), ia);
    EXPECT_THROW(fscan(in, out.data(), -2, flags.data()), ia);
    EXPECT_THROW(fscan(nullptr, out.data(), 4, flags.data()), ia);
    auto kscan = [&](const std::int32_t* k, const int* p, int* o, i64 n) {
      serial ? skc::scan_by_key_serial(k, p, o, n, op, inc, 0) : skc::scan_by_key(k, p, o, n, op, inc, 0);
    };
    EXPECT_THROW(kscan(nullptr, in, out.data(), 4), ia);
    EXPECT_THROW(kscan(keys.data(), in, nullptr, 4), ia);
    EXPECT_THROW(kscan(keys.data(), in, out.data(), -1), ia);
    auto rbk = [&](const std::int32_t* k, const int* p, i64 n, std::int32_t* uk, int* agg) {
      return serial ? skc::reduce_by_key_serial(k, p, n, op, uk, agg) : skc::reduce_by_key(k, p, n, op, uk, agg);
    };
    EXPECT_THROW(rbk(nullptr, in, 4, ukeys.data(), out.data()), ia);
    EXPECT_THROW(rbk(keys.data(), nullptr, 4, ukeys.data(), out.data()), ia);
    EXPECT_THROW(rbk(keys.data(), in, 4, nullptr, out.data()), ia);
    EXPECT_THROW(rbk(keys.data(), in, 4, ukeys.data(), nullptr), ia);
    EXPECT_THROW(rbk(keys.data(), in, -1, ukeys.data(), out.data()), ia);
    EXPECT_EQ(out, untouched);
    EXPECT_EQ(ukeys, std::vector<std::int32_t>(4, -99));
    EXPECT_EQ(rbk(nullptr, nullptr, 0, nullptr, nullptr), 0);
  }
  // Spans: sizes that do not match, and no offsets at all.
  const std::span<const int> xs(x);
  EXPECT_THROW(skc::segmented_reduce(xs, std::span<const i64>()), ia);
  EXPECT_THROW(skc::segmented_reduce(xs, std::span<const i64>(past_n)), ia);
  EXPECT_THROW(skc::segmented_scan(xs, std::span<int>(out), std::span<const i64>()), ia);
  EXPECT_THROW(skc::segmented_scan(xs, std::span<int>(out).first(3), std::span<const i64>(good)), ia);
  EXPECT_THROW(skc::segmented_scan(xs, std::span<int>(out), std::span<const i64>(decreasing)), ia);
  EXPECT_THROW(skc::scan_by_key(std::span<const std::int32_t>(keys).first(3), xs, std::span<int>(out)), ia);
  EXPECT_THROW(skc::scan_by_key(std::span<const std::int32_t>(keys), xs, std::span<int>(out).first(2)), ia);
  EXPECT_THROW(skc::reduce_by_key(std::span<const std::int32_t>(keys), xs.first(3)), ia);
  EXPECT_EQ(out, untouched);
}

TEST(CpuSegments, Plan) {
  namespace d = skc::detail::segments;
  EXPECT_EQ(d::make_plan(0, 4, {}, "t").tiles, 0);
  EXPECT_FALSE(d::make_plan(0, 4, {}, "t").parallel);
  const auto small = d::make_plan(1000, 4, {}, "t");
  EXPECT_EQ(small.tile, d::tile_bytes / 4);
  EXPECT_FALSE(small.parallel);
  EXPECT_TRUE(d::make_plan(1000, 4, cfg_parallel, "t").parallel);
  const auto big = d::make_plan(i64{1} << 24, 8, {}, "t");
  EXPECT_TRUE(big.parallel);
  EXPECT_EQ(big.tiles, (i64{1} << 24) / big.tile);
  EXPECT_FALSE(d::make_plan(i64{1} << 24, 8, cfg_serial, "t").parallel);
  const auto forced = d::make_plan(10, 4, {skc::segments_path::automatic, 3}, "t");
  EXPECT_EQ(forced.tile, 3);
  EXPECT_EQ(forced.tiles, 4);
  EXPECT_THROW(d::make_plan(10, 4, {skc::segments_path::automatic, -1}, "t"), sk::invalid_argument);
  EXPECT_THROW(d::make_plan(10, 4, {static_cast<skc::segments_path>(9), 0}, "t"), sk::invalid_argument);
}

}  // namespace
