// Tests of the CPU compactions (scankit/cpu/compact.hpp): serial_scan and parallel against
// serial_loop, and serial_loop against plain std:: algorithms, over every element type,
// sizes around the block size, selection patterns, in place, and bad arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "common/compact_test_util.hpp"
#include "common/test_util.hpp"
#include "scankit/cpu/compact.hpp"

namespace {

namespace sk = scankit;
namespace cpu = scankit::cpu;
using cpu::compact_algorithm;

using sk::test::all_patterns;
using sk::test::pattern;
using sk::test::pattern_input;

/// Small blocks, no serial cut-off: many blocks even for small inputs.
cpu::compact_config config(compact_algorithm a, std::int64_t block_bytes = 512) {
  cpu::compact_config c;
  c.algorithm = a;
  c.block_bytes = block_bytes;
  c.serial_cutoff = 0;
  return c;
}

std::vector<std::int64_t> sizes() {
  // 512-byte blocks hold 512/sizeof(T) items: 64..512; test_sizes puts sizes around them.
  return sk::test::test_sizes({64, 128, 512}, sk::test::quick() ? 20000 : 200000, 3,
                              sk::test::quick() ? 70000 : 300000);
}

/// Every operation with algorithm `a` against serial_loop (itself checked against std::
/// algorithms in SerialLoopMatchesStd), for one input.
template <class T>
void check_all_ops(const std::vector<T>& in, compact_algorithm a, bool in_place, bool simd = true) {
  const auto n = static_cast<std::int64_t>(in.size());
  auto c = config(a);
  c.simd = simd;  // the parallel staging copy with AVX-512 compress (where the CPU has it) or without
  const auto ref = config(compact_algorithm::serial_loop);
  const sk::is_nonzero<T> nz{};
  auto where = [&](const char* op) {
    return ::testing::Message() << op << " " << cpu::name(a) << " n=" << n << (in_place ? " in place" : "")
                                << (simd ? "" : " without simd");
  };
  std::vector<T> out(in.size()), expect(in.size());
  std::vector<std::int64_t> idx(in.size()), eidx(in.size());
  auto run_select = [&](const char* op, auto f) {
    std::vector<T> work = in;
    T* dst = in_place ? work.data() : out.data();
    const std::int64_t k = f(work.data(), dst, c);
    const std::int64_t ek = f(in.data(), expect.data(), ref);
    ASSERT_EQ(k, ek) << where(op);
    ASSERT_TRUE(std::equal(dst, dst + k, expect.begin())) << where(op);
  };
  run_select("select_if", [&](const T* i, T* o, const cpu::compact_config& cc) { return cpu::select_if(i, o, n, nz, cc); });
  run_select("remove_if", [&](const T* i, T* o, const cpu::compact_config& cc) { return cpu::remove_if(i, o, n, nz, cc); });
  run_select("unique", [&](const T* i, T* o, const cpu::compact_config& cc) { return cpu::unique(i, o, n, sk::equal_to<T>{}, cc); });
  std::vector<unsigned char> flags(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) flags[i] = static_cast<unsigned char>((in[i] != T(0)) * (1 + i % 7));
  run_select("select_flagged",
             [&](const T* i, T* o, const cpu::compact_config& cc) { return cpu::select_flagged(i, flags.data(), o, n, cc); });
  for (auto order : {sk::rejected_order::reversed, sk::rejected_order::original}) {
    const std::int64_t k = cpu::partition(in.data(), out.data(), n, sk::less_than<T>{T(2)}, order, c);
    const std::int64_t ek = cpu::partition(in.data(), expect.data(), n, sk::less_than<T>{T(2)}, order, ref);
    ASSERT_EQ(k, ek) << where("partition");
    ASSERT_EQ(out, expect) << where("partition");
  }
  {
    std::vector<T> work = in;
    T* dst = in_place ? work.data() : out.data();
    const std::int64_t k = cpu::unique_count(work.data(), dst, idx.data(), n, sk::equal_to<T>{}, c);
    const std::int64_t ek = cpu::unique_count(in.data(), expect.data(), eidx.data(), n, sk::equal_to<T>{}, ref);
    ASSERT_EQ(k, ek) << where("unique_count");
    ASSERT_TRUE(std::equal(dst, dst + k, expect.begin())) << where("unique_count");
    ASSERT_TRUE(std::equal(idx.begin(), idx.begin() + k, eidx.begin())) << where("unique_count lengths");
  }
  {
    const std::int64_t k = cpu::nonzero(in.data(), idx.data(), n, c);
    const std::int64_t ek = cpu::nonzero(in.data(), eidx.data(), n, ref);
    ASSERT_EQ(k, ek) << where("nonzero");
    ASSERT_TRUE(std::equal(idx.begin(), idx.begin() + k, eidx.begin())) << where("nonzero");
  }
}

template <class T>
class CpuCompactTyped : public ::testing::Test {};
using item_types = ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double, std::uint8_t>;
TYPED_TEST_SUITE(CpuCompactTyped, item_types);

TYPED_TEST(CpuCompactTyped, EveryAlgorithmMatchesSerialLoop) {
  int k = 0;
  for (std::int64_t n : sizes())
    for (pattern p : all_patterns) {
      if (n > 70000 && p != pattern::random4) continue;
      const auto in = pattern_input<TypeParam>(n, p);
      for (auto a : {compact_algorithm::serial_scan, compact_algorithm::parallel}) {
        check_all_ops(in, a, (k++ % 2) == 1);
        if (::testing::Test::HasFatalFailure()) return;
      }
      check_all_ops(in, compact_algorithm::parallel, (k % 2) == 1, false);
      if (::testing::Test::HasFatalFailure()) return;
    }
}

TEST(CpuCompact, SerialLoopMatchesStd) {
  const auto in = pattern_input<int>(100003, pattern::runs);
  const auto n = static_cast<std::int64_t>(in.size());
  const auto c = config(compact_algorithm::serial_loop);
  std::vector<int> out(in.size()), expect;
  auto nz = [](int x) { return x != 0; };
  std::int64_t k = cpu::select_if(in.data(), out.data(), n, sk::is_nonzero<int>{}, c);
  std::copy_if(in.begin(), in.end(), std::back_inserter(expect), nz);
  ASSERT_EQ(k, static_cast<std::int64_t>(expect.size()));
  EXPECT_TRUE(std::equal(expect.begin(), expect.end(), out.begin()));
  expect.clear();
  k = cpu::unique(in.data(), out.data(), n, sk::equal_to<int>{}, c);
  std::unique_copy(in.begin(), in.end(), std::back_inserter(expect));
  ASSERT_EQ(k, static_cast<std::int64_t>(expect.size()));
  EXPECT_TRUE(std::equal(expect.begin(), expect.end(), out.begin()));
  // Partition: selected in order, then rejected reversed / in order.
  std::vector<int> sel, rej;
  std::partition_copy(in.begin(), in.end(), std::back_inserter(sel), std::back_inserter(rej), nz);
  k = cpu::partition(in.data(), out.data(), n, sk::is_nonzero<int>{}, sk::rejected_order::original, c);
  expect = sel;
  expect.insert(expect.end(), rej.begin(), rej.end());
  ASSERT_EQ(k, static_cast<std::int64_t>(sel.size()));
  EXPECT_EQ(out, expect);
  k = cpu::partition(in.data(), out.data(), n, sk::is_nonzero<int>{}, sk::rejected_order::reversed, c);
  expect = sel;
  expect.insert(expect.end(), rej.rbegin(), rej.rend());
  EXPECT_EQ(out, expect);
  // Run lengths sum to n and each run is one value.
  std::vector<std::int64_t> counts(in.size());
  k = cpu::unique_count(in.data(), out.data(), counts.data(), n, sk::equal_to<int>{}, c);
  EXPECT_EQ(std::accumulate(counts.begin(), counts.begin() + k, std::int64_t{0}), n);
  std::int64_t pos = 0;
  for (std::int64_t r = 0; r < k; ++r) {
    ASSERT_GE(counts[r], 1);
    for (std::int64_t j = 0; j < counts[r]; ++j) ASSERT_EQ(in[pos + j], out[r]);
    pos += counts[r];
  }
}

TEST(CpuCompact, SelectIndicesWithIndexPredicate) {
  const sk::test::hashed_index pred{sk::test::rng()()};
  for (std::int64_t n : sizes()) {
    std::vector<std::int64_t> expect;
    for (std::int64_t i = 0; i < n; ++i)
      if (pred(i)) expect.push_back(i);
    for (auto a : cpu::all_compact_algorithms) {
      std::vector<std::int64_t> out(static_cast<std::size_t>(n));
      const std::int64_t k = cpu::select_indices(n, pred, out.data(), config(a));
      ASSERT_EQ(k, static_cast<std::int64_t>(expect.size())) << cpu::name(a) << " n=" << n;
      ASSERT_TRUE(std::equal(expect.begin(), expect.end(), out.begin())) << cpu::name(a) << " n=" << n;
    }
  }
}

TEST(CpuCompact, UserStructAndFunctor) {
  struct item {
    float w;
    std::int32_t key;
    bool operator==(const item&) const = default;
  };
  auto& g = sk::test::rng();
  std::vector<item> in(200017);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::int32_t key = 0;
  for (auto& x : in) x = {d(g), key += (g() % 3 == 0)};
  auto heavy = [](const item& x) { return x.w > 0.25f; };
  auto same_key = [](const item& a, const item& b) { return a.key == b.key; };
  const auto n = static_cast<std::int64_t>(in.size());
  std::vector<item> out(in.size()), expect(in.size());
  for (auto a : {compact_algorithm::serial_scan, compact_algorithm::parallel}) {
    const auto c = config(a, 4096);
    const auto ref = config(compact_algorithm::serial_loop);
    EXPECT_EQ(cpu::select_if(in.data(), out.data(), n, heavy, c), cpu::select_if(in.data(), expect.data(), n, heavy, ref));
    EXPECT_EQ(out, expect);
    std::fill(out.begin(), out.end(), item{}), std::fill(expect.begin(), expect.end(), item{});
    EXPECT_EQ(cpu::unique(in.data(), out.data(), n, same_key, c), cpu::unique(in.data(), expect.data(), n, same_key, ref));
    EXPECT_EQ(out, expect);
  }
}

// NaNs in sorted runs, as unique sees them after a sort by IEEE total order: equal_to leaves
// each NaN a run of its own, equal_or_both_nan joins consecutive NaNs (of any sign and payload)
// into one run, and both agree with a plain loop written with the rule itself.
template <class T>
void check_nan_runs() {
  auto& g = sk::test::rng();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{2}, std::int64_t{257}, std::int64_t{100003}}) {
    std::vector<T> in(static_cast<std::size_t>(n));
    for (auto& x : in) x = static_cast<T>(static_cast<int>(g() % 7) - 3);
    std::sort(in.begin(), in.end());
    // NaNs in runs of 1 to 4 at random places, with both signs.
    for (std::int64_t i = 0; i < n; i += 1 + static_cast<std::int64_t>(g() % 50))
      for (std::int64_t r = 0, len = 1 + g() % 4; r < len && i + r < n; ++r) in[i + r] = g() % 2 ? nan : -nan;
    auto expect_runs = [&](auto eq) {
      std::vector<T> v;
      std::vector<std::int64_t> c;
      for (std::int64_t i = 0; i < n; ++i) {
        if (i > 0 && eq(in[i - 1], in[i])) {
          ++c.back();
        } else {
          v.push_back(in[i]);
          c.push_back(1);
        }
      }
      return std::pair{v, c};
    };
    const auto [nan_v, nan_c] = expect_runs([](T a, T b) { return a == b || (a != a && b != b); });
    const auto [own_v, own_c] = expect_runs([](T a, T b) { return a == b; });
    if (n >= 257) ASSERT_LT(nan_v.size(), own_v.size());  // the input has runs of several NaNs
    auto same_bits = [](const std::vector<T>& a, const T* b) {
      return std::memcmp(a.data(), b, a.size() * sizeof(T)) == 0;
    };
    for (auto a : cpu::all_compact_algorithms) {
      std::vector<T> out(static_cast<std::size_t>(n));
      std::vector<std::int64_t> counts(static_cast<std::size_t>(n));
      std::int64_t k = cpu::unique_count(in.data(), out.data(), counts.data(), n, sk::equal_or_both_nan<T>{}, config(a));
      ASSERT_EQ(k, static_cast<std::int64_t>(nan_v.size())) << cpu::name(a) << " n=" << n;
      EXPECT_TRUE(same_bits(nan_v, out.data())) << cpu::name(a) << " n=" << n;
      EXPECT_TRUE(std::equal(nan_c.begin(), nan_c.end(), counts.begin())) << cpu::name(a) << " n=" << n;
      k = cpu::unique(in.data(), out.data(), n, sk::equal_or_both_nan<T>{}, config(a));
      ASSERT_EQ(k, static_cast<std::int64_t>(nan_v.size())) << cpu::name(a) << " n=" << n;
      EXPECT_TRUE(same_bits(nan_v, out.data())) << cpu::name(a) << " n=" << n;
      k = cpu::unique_count(in.data(), out.data(), counts.data(), n, sk::equal_to<T>{}, config(a));
      ASSERT_EQ(k, static_cast<std::int64_t>(own_v.size())) << cpu::name(a) << " n=" << n;
      EXPECT_TRUE(std::equal(own_c.begin(), own_c.end(), counts.begin())) << cpu::name(a) << " n=" << n;
    }
  }
}

TEST(CpuCompact, UniqueWithNaNsAsOneValue) {
  check_nan_runs<float>();
  check_nan_runs<double>();
  // Without NaNs the two equivalences are the same.
  EXPECT_TRUE(sk::equal_or_both_nan<int>{}(3, 3));
  EXPECT_FALSE(sk::equal_or_both_nan<int>{}(3, 4));
  EXPECT_FALSE(sk::equal_or_both_nan<float>{}(1.0f, std::numeric_limits<float>::quiet_NaN()));
}

TEST(CpuCompact, DefaultConfigLargeInput) {
  // The defaults (128 KiB blocks, serial cut-off, streaming stores from 32 MiB of output), at a
  // random size of 16 to 20 Mi items (256 to 320 Ki when quick).
  const std::int64_t lo = sk::test::quick() ? std::int64_t{1} << 18 : std::int64_t{1} << 24;
  const std::int64_t n = std::uniform_int_distribution<std::int64_t>(lo, lo + lo / 4)(sk::test::rng());
  SCOPED_TRACE(::testing::Message() << "n=" << n);
  const auto in = pattern_input<std::uint32_t>(n, pattern::random4);
  std::vector<std::uint32_t> out(in.size()), expect(in.size());
  const std::int64_t k = cpu::select_if(in.data(), out.data(), n, sk::is_nonzero<std::uint32_t>{});
  const std::int64_t ek = cpu::select_if(in.data(), expect.data(), n, sk::is_nonzero<std::uint32_t>{},
                                         config(compact_algorithm::serial_loop));
  ASSERT_EQ(k, ek);
  EXPECT_TRUE(std::equal(out.begin(), out.begin() + k, expect.begin()));
  EXPECT_TRUE(std::all_of(out.begin() + k, out.end(), [](std::uint32_t x) { return x == 0; }))
      << "items past the count must be left as they were";
}

TEST(CpuCompact, PredicateExceptionPropagates) {
  const auto in = pattern_input<int>(100000, pattern::random4);
  std::vector<int> out(in.size());
  std::atomic<int> calls{0};
  auto throwing = [&calls](int) -> bool {
    if (calls.fetch_add(1) == 50000) throw std::runtime_error("predicate failed");
    return true;
  };
  for (auto a : cpu::all_compact_algorithms) {
    calls = 0;
    EXPECT_THROW(cpu::select_if(in.data(), out.data(), 100000, throwing, config(a)), std::runtime_error) << cpu::name(a);
  }
}

TEST(CpuCompact, InvalidArgumentsThrowBeforeWriting) {
  std::vector<int> in(100, 1), out(100, 7);
  const sk::is_nonzero<int> nz{};
  EXPECT_THROW(cpu::select_if(in.data(), out.data(), -1, nz), sk::invalid_argument);
  EXPECT_THROW(cpu::select_if<int>(nullptr, out.data(), 10, nz), sk::invalid_argument);
  EXPECT_THROW(cpu::select_if<int>(in.data(), nullptr, 10, nz), sk::invalid_argument);
  EXPECT_THROW(cpu::select_if(in.data(), in.data() + 1, 10, nz), sk::invalid_argument);
  EXPECT_THROW(cpu::partition(in.data(), in.data(), 10, nz), sk::invalid_argument);
  std::vector<std::int64_t> idx(100);
  EXPECT_THROW(cpu::nonzero(in.data(), reinterpret_cast<std::int64_t*>(in.data()), 10), sk::invalid_argument);
  EXPECT_THROW(cpu::unique_count(in.data(), out.data(), reinterpret_cast<std::int64_t*>(out.data()), 10), sk::invalid_argument);
  EXPECT_THROW(cpu::select_indices(-3, [](std::int64_t) { return true; }, idx.data()), sk::invalid_argument);
  cpu::compact_config bad;
  bad.block_bytes = 0;
  EXPECT_THROW(cpu::select_if(in.data(), out.data(), 10, nz, bad), sk::invalid_argument);
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](int x) { return x == 7; }));
  EXPECT_TRUE(std::all_of(in.begin(), in.end(), [](int x) { return x == 1; }));
  // n == 0 with null pointers is fine.
  EXPECT_EQ(cpu::select_if<int>(nullptr, nullptr, 0, nz), 0);
  EXPECT_EQ(cpu::unique_count<int>(nullptr, nullptr, nullptr, 0), 0);
}

}  // namespace
