// scankit/cpu/scan.hpp: scan_serial against a hand-written loop; scan_parallel (under several
// tunings) and tbb_parallel_scan against scan_serial over every element type x operator x
// size class x inclusive/exclusive x in place/out of place x carry-in; non-commutative and
// odd-sized user types; thread-count independence; exceptions; argument errors;
// parallel_copy.
#include <gtest/gtest.h>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/test_util.hpp"
#include "scankit/cpu/scan.hpp"
#include "scankit/types.hpp"

namespace {

using namespace scankit;
using test::affine;
using test::affine_compose;

/// Bitwise equality of two arrays (floats included; memcmp itself wants non-null pointers).
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

using test::kind_name;
using test::scan_carry_in;
using test::scan_values;

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, std::int32_t>) return "i32";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "u32";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "i64";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "u64";
  else if constexpr (std::is_same_v<T, float>) return "f32";
  else if constexpr (std::is_same_v<T, double>) return "f64";
  else return "user type";
}

// ---------------------------------------------------------------------------------------
// The scans under test.

enum class algo {
  parallel,            // scan_parallel, default tuning (serial below 64 Ki items)
  parallel_streaming,  // 1000-byte blocks, no serial cut-off, streaming stores
  parallel_cached,     // 3076-byte blocks (not a multiple of the group size), ordinary stores
  tbb,                 // tbb_parallel_scan
};
constexpr std::array all_algos{algo::parallel, algo::parallel_streaming, algo::parallel_cached,
                               algo::tbb};

const char* algo_name(algo a) {
  switch (a) {
    case algo::parallel: return "scan_parallel";
    case algo::parallel_streaming: return "scan_parallel[1000B blocks, streaming]";
    case algo::parallel_cached: return "scan_parallel[3076B blocks, cached]";
    case algo::tbb: return "tbb_parallel_scan";
  }
  return "?";
}

cpu::parallel_scan_config config_of(algo a) {
  cpu::parallel_scan_config c;
  if (a == algo::parallel_streaming) {
    c.block_bytes = 1000;
    c.serial_cutoff = 0;
    c.stores = cpu::store_policy::streaming;
  } else if (a == algo::parallel_cached) {
    c.block_bytes = 3076;
    c.serial_cutoff = 0;
    c.stores = cpu::store_policy::cached;
  }
  return c;
}

template <class Op>
value_t<Op> run(algo a, const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op,
                scan_kind kind, value_t<Op> init) {
  if (a == algo::tbb) return cpu::tbb_parallel_scan(in, out, n, op, kind, init);
  return cpu::scan_parallel(in, out, n, op, kind, init, config_of(a));
}

/// Every block size the algorithms above use for T, for test_sizes.
template <class T>
std::vector<std::int64_t> tiles_of() {
  return {cpu::parallel_block_items<T>(), cpu::parallel_block_items<T>(config_of(algo::parallel_streaming)),
          cpu::parallel_block_items<T>(config_of(algo::parallel_cached)), cpu::default_serial_cutoff};
}

/// The size list for T: every size class of test_sizes, smaller under SCANKIT_TEST_QUICK.
template <class T>
std::vector<std::int64_t> sizes_of() {
  if (test::quick()) return test::test_sizes(tiles_of<T>(), 150000, 1, std::int64_t{1} << 18);
  return test::test_sizes(tiles_of<T>(), 400000, 2, std::int64_t{1} << 21);
}

// ---------------------------------------------------------------------------------------
// scan_serial against the most literal loop.

template <class T, class F>
std::vector<T> literal_scan(const std::vector<T>& in, F f, bool inclusive, T init, T& total) {
  std::vector<T> out;
  T acc = init;
  for (const T& x : in) {
    if (!inclusive) out.push_back(acc);
    acc = f(acc, x);
    if (inclusive) out.push_back(acc);
  }
  total = acc;
  return out;
}

TEST(ScanSerial, KnownAnswers) {
  const std::vector<std::int32_t> in{3, 1, 4, 1, 5, 9, 2, 6};
  std::vector<std::int32_t> out(in.size());
  EXPECT_EQ(cpu::scan_serial(in.data(), out.data(), 8, sum<std::int32_t>{}, scan_kind::inclusive, 0), 31);
  EXPECT_EQ(out, (std::vector<std::int32_t>{3, 4, 8, 9, 14, 23, 25, 31}));
  EXPECT_EQ(cpu::scan_serial(in.data(), out.data(), 8, sum<std::int32_t>{}, scan_kind::exclusive, 10), 41);
  EXPECT_EQ(out, (std::vector<std::int32_t>{10, 13, 14, 18, 19, 24, 33, 35}));
  EXPECT_EQ(cpu::scan_serial(in.data(), out.data(), 8, max<std::int32_t>{}, scan_kind::exclusive,
                             max<std::int32_t>::identity()),
            9);
  EXPECT_EQ(out, (std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min(), 3, 3, 4, 4, 5, 9, 9}));
  EXPECT_EQ(cpu::scan_serial(in.data(), out.data(), 8, min<std::int32_t>{}, scan_kind::inclusive, 2), 1);
  EXPECT_EQ(out, (std::vector<std::int32_t>{2, 1, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(cpu::scan_serial(in.data(), out.data(), 5, product<std::int32_t>{}, scan_kind::inclusive, 1), 60);
  EXPECT_EQ(std::vector<std::int32_t>(out.begin(), out.begin() + 5), (std::vector<std::int32_t>{3, 3, 12, 12, 60}));
  EXPECT_EQ(cpu::scan_serial(in.data(), out.data(), 8, bit_xor<std::int32_t>{}, scan_kind::inclusive, 0), 15);
  EXPECT_EQ(out, (std::vector<std::int32_t>{3, 2, 6, 7, 2, 11, 9, 15}));
  // n == 0: nothing written, the carry-in comes back; null pointers are fine then.
  EXPECT_EQ(cpu::scan_serial<sum<int>>(nullptr, nullptr, 0, {}, scan_kind::inclusive, 42), 42);
}

TEST(ScanSerial, MatchesLiteralLoopForEveryTypeAndOperator) {
  SCOPED_TRACE(testing::Message() << "SCANKIT_TEST_SEED=" << test::seed());
  for (dtype t : all_dtypes)
    for (op_kind o : all_op_kinds) {
      if (!supported(t, o)) continue;
      visit(t, o, [&](auto op) {
        using Op = decltype(op);
        using T = value_t<Op>;
        for (std::int64_t n : {0, 1, 2, 7, 8, 9, 100, 1000, 4099}) {
          const auto in = scan_values<T>(n, Op::name);
          for (scan_kind kind : {scan_kind::inclusive, scan_kind::exclusive})
            for (bool carry : {false, true}) {
              SCOPED_TRACE(testing::Message() << name(t) << " " << name(o) << " n=" << n << " "
                                              << kind_name(kind) << (carry ? " carry-in" : ""));
              const T init = carry ? scan_carry_in<T>(Op::name) : op.identity();
              T want_total{};
              const auto want = literal_scan(in, op, kind == scan_kind::inclusive, init, want_total);
              std::vector<T> out(in.size());
              const T total = cpu::scan_serial(in.data(), out.data(), n, op, kind, init);
              // Bitwise equal, floats included: both are the same left-to-right loop.
              ASSERT_TRUE(same_bits(out, want));
              ASSERT_TRUE(same_bits(total, want_total));
              std::vector<T> buf = in;  // in place
              const T total2 = cpu::scan_serial(buf.data(), buf.data(), n, op, kind, init);
              ASSERT_TRUE(same_bits(buf, want));
              ASSERT_TRUE(same_bits(total2, want_total));
            }
        }
      });
    }
}

// ---------------------------------------------------------------------------------------
// The sweep: each (element type, operator) is one test.

/// Every algorithm over `sizes`, both kinds, with and without carry-in: out of place against
/// the serial reference, and in place. Inputs come from make_input(n), the carry-in from
/// make_carry().
template <class Op, class MakeInput, class MakeCarry>
void sweep(Op op, const std::vector<std::int64_t>& sizes, MakeInput make_input, MakeCarry make_carry) {
  using T = value_t<Op>;
  for (const std::int64_t n : sizes) {
    const std::vector<T> in = make_input(n);
    const T carry_value = make_carry();
    for (scan_kind kind : {scan_kind::inclusive, scan_kind::exclusive})
      for (bool carry : {false, true}) {
        const T init = carry ? carry_value : op.identity();
        for (algo a : all_algos) {
          SCOPED_TRACE(testing::Message() << algo_name(a) << " n=" << n << " " << kind_name(kind)
                                          << (carry ? " with carry-in" : ""));
          // Filled with the carry-in first (T need not be default-constructible), so that an
          // item the scan leaves unwritten shows.
          std::vector<T> out(in.size(), carry_value);
          const T total = run(a, in.data(), out.data(), n, op, kind, init);
          ASSERT_TRUE(test::matches_reference(in, out, op, kind, init, &total)) << "out of place";
          std::vector<T> buf = in;
          const T total2 = run(a, buf.data(), buf.data(), n, op, kind, init);
          if (a == algo::tbb) {
            ASSERT_TRUE(test::matches_reference(in, buf, op, kind, init, &total2)) << "in place";
          } else {
            // scan_parallel is deterministic: in place and out of place agree bitwise (so the
            // in-place result matches the reference too).
            ASSERT_TRUE(same_bits(buf, out)) << "in place";
            ASSERT_TRUE(same_bits(total, total2)) << "in place";
          }
        }
      }
  }
}

class CpuScanSweep : public ::testing::TestWithParam<std::tuple<dtype, op_kind>> {};

TEST_P(CpuScanSweep, MatchesSerialReference) {
  SCOPED_TRACE(testing::Message() << "SCANKIT_TEST_SEED=" << test::seed());
  const auto [t, o] = GetParam();
  visit(t, o, [](auto op) {
    using Op = decltype(op);
    using T = value_t<Op>;
    sweep(op, sizes_of<T>(), [](std::int64_t n) { return scan_values<T>(n, Op::name); },
          [] { return scan_carry_in<T>(Op::name); });
  });
}

INSTANTIATE_TEST_SUITE_P(AllSupported, CpuScanSweep, ::testing::ValuesIn(test::supported_combinations()),
                         test::combination_name);

TEST(CpuScan, SizesCoverEveryClass) {
  // The sweep must reach past one block and past the serial cut-off for the default tuning,
  // and past many blocks for the small ones, also in quick mode. (The sanitize tier stops at
  // tile edges: it serves compute-sanitizer runs of the CUDA programs.)
  if (test::sanitize_tier()) GTEST_SKIP() << "SCANKIT_TEST_TIER=sanitize keeps tile edges only";
  for (auto sizes : {sizes_of<std::int32_t>(), sizes_of<double>()}) {
    EXPECT_EQ(sizes.front(), 0);
    EXPECT_GT(sizes.back(), 2 * cpu::default_serial_cutoff);
    EXPECT_GT(sizes.back(), 8 * cpu::parallel_block_items<double>());
    EXPECT_GE(sizes.size(), 20u);
  }
}

// ---------------------------------------------------------------------------------------
// User monoids: non-commutative, odd-sized, not default-constructible.

TEST(CpuScan, NonCommutativeAffineCompose) {
  SCOPED_TRACE(testing::Message() << "SCANKIT_TEST_SEED=" << test::seed());
  sweep(affine_compose{}, sizes_of<affine>(), test::random_affine, [] { return test::random_affine(1)[0]; });
}

// 12 bytes: blocks and staging chunks do not line up with cache lines.
struct affine3 {
  std::uint32_t a, b, count;
  friend bool operator==(const affine3&, const affine3&) = default;
};
struct affine3_compose {
  using value_type = affine3;
  static constexpr affine3 identity() { return {1u, 0u, 0u}; }
  constexpr affine3 operator()(const affine3& f, const affine3& g) const {
    return {g.a * f.a, g.a * f.b + g.b, f.count + g.count};
  }
};
static_assert(sizeof(affine3) == 12);
static_assert(cpu::detail::can_stream_v<affine3>);

std::vector<affine3> random_affine3(std::int64_t n) {
  std::vector<affine3> v(static_cast<std::size_t>(n));
  std::uniform_int_distribution<std::uint32_t> d;
  for (auto& x : v) x = {d(test::rng()) | 1u, d(test::rng()), d(test::rng()) % 5};
  return v;
}

TEST(CpuScan, TwelveByteNonCommutativeType) {
  SCOPED_TRACE(testing::Message() << "SCANKIT_TEST_SEED=" << test::seed());
  sweep(affine3_compose{}, sizes_of<affine3>(), random_affine3, [] { return random_affine3(1)[0]; });
}

// No default constructor: the scans must work from copies alone (no streaming staging).
// Base-7 numbers written digit after digit: value and 7^digits, so that concatenation is a
// monoid (identity: the empty number) and not commutative. Arithmetic wraps mod 2^64.
class boxed {
 public:
  boxed(std::uint64_t value, std::uint64_t power) : v_(value), p_(power) {}
  std::uint64_t value() const { return v_; }
  std::uint64_t power() const { return p_; }
  friend bool operator==(const boxed&, const boxed&) = default;

 private:
  std::uint64_t v_, p_;
};
static_assert(!std::is_default_constructible_v<boxed>);
static_assert(!cpu::detail::can_stream_v<boxed>);

struct base7_concat {
  using value_type = boxed;
  static boxed identity() { return boxed(0, 1); }
  boxed operator()(const boxed& a, const boxed& b) const {
    return boxed(a.value() * b.power() + b.value(), a.power() * b.power());
  }
};

TEST(CpuScan, NonDefaultConstructibleType) {
  SCOPED_TRACE(testing::Message() << "SCANKIT_TEST_SEED=" << test::seed());
  auto gen = [](std::int64_t n) {
    std::vector<boxed> v;
    v.reserve(static_cast<std::size_t>(n));
    std::uniform_int_distribution<std::uint64_t> d(0, 6);
    for (std::int64_t i = 0; i < n; ++i) v.emplace_back(d(test::rng()), 7);
    return v;
  };
  sweep(base7_concat{}, {0, 1, 5, 999, 1000, 70001}, gen, [&] { return gen(1)[0]; });
}

// ---------------------------------------------------------------------------------------
// Large inputs.

std::int64_t large_size() {
  std::uniform_int_distribution<std::int64_t> d(2'500'000, 3'500'000);
  return d(test::rng());
}

TEST(CpuScan, LargeRandomSize) {
  SCOPED_TRACE(testing::Message() << "SCANKIT_TEST_SEED=" << test::seed());
  const std::int64_t n = large_size();
  SCOPED_TRACE(testing::Message() << "n=" << n);
  auto check = [&](auto op) {
    using Op = decltype(op);
    using T = value_t<Op>;
    const auto in = scan_values<T>(n, Op::name);
    const T init = scan_carry_in<T>(Op::name);
    for (scan_kind kind : {scan_kind::inclusive, scan_kind::exclusive})
      for (algo a : {algo::parallel, algo::parallel_streaming, algo::tbb}) {
        SCOPED_TRACE(testing::Message() << type_name<T>() << " " << Op::name << " " << algo_name(a)
                                        << " " << kind_name(kind));
        std::vector<T> out(in.size());
        const T total = run(a, in.data(), out.data(), n, op, kind, init);
        ASSERT_TRUE(test::matches_reference(in, out, op, kind, init, &total));
      }
  };
  check(sum<std::int32_t>{});
  check(sum<double>{});
  check(sum<float>{});
  check(max<std::uint64_t>{});
  const auto in = test::random_affine(n);
  std::vector<affine> out(in.size()), ref(in.size());
  const affine init{3, 5};
  const affine t0 = cpu::scan_serial(in.data(), ref.data(), n, affine_compose{}, scan_kind::exclusive, init);
  const affine t1 = cpu::scan_parallel(in.data(), out.data(), n, affine_compose{}, scan_kind::exclusive, init);
  EXPECT_EQ(t0, t1);
  EXPECT_TRUE(out == ref);
}

TEST(CpuScan, DefaultTuningStreamsLargeOutputs) {
  // Past default_streaming_threshold bytes of output the default scan_parallel switches to
  // streaming stores; check that path with the default tuning.
  const std::int64_t n = cpu::default_streaming_threshold / 4 + 4099;
  std::vector<std::int32_t> in(static_cast<std::size_t>(n));
  std::uniform_int_distribution<std::int32_t> d(-100, 100);
  for (auto& x : in) x = d(test::rng());
  std::vector<std::int32_t> out(in.size()), ref(in.size());
  const auto t0 = cpu::scan_serial(in.data(), ref.data(), n, sum<std::int32_t>{}, scan_kind::inclusive, 17);
  const auto t1 = cpu::scan_parallel(in.data(), out.data() , n, sum<std::int32_t>{}, scan_kind::inclusive, 17);
  EXPECT_EQ(t0, t1);
  EXPECT_TRUE(out == ref);
}

TEST(CpuScan, StreamedOutputTouchedFirstOrNot) {
  // Streaming scans first touch the output's pages (touch_output); into memory nobody has
  // written yet, at sizes that end mid-page, with one thread and several, and without it.
  for (const std::int64_t n : {std::int64_t{70001}, (std::int64_t{1} << 20) + 3, std::int64_t{1} << 21}) {
    const auto in = test::random_values<std::int64_t>(n, "sum");
    std::vector<std::int64_t> ref(in.size());
    const auto t0 = cpu::scan_serial(in.data(), ref.data(), n, sum<std::int64_t>{}, scan_kind::exclusive, 5);
    for (bool touch : {true, false})
      for (int threads : {1, 2, 5}) {
        SCOPED_TRACE(testing::Message() << "n = " << n << ", touch " << touch << ", " << threads << " threads");
        std::unique_ptr<std::int64_t[]> fresh(new std::int64_t[static_cast<std::size_t>(n)]);
        std::int64_t t1 = 0;
        tbb::task_arena arena(threads);
        arena.execute([&] {
          t1 = cpu::scan_parallel(in.data(), fresh.get(), n, sum<std::int64_t>{}, scan_kind::exclusive, 5,
                                  {.serial_cutoff = 0, .stores = cpu::store_policy::streaming, .touch_output = touch});
        });
        EXPECT_EQ(t0, t1);
        ASSERT_TRUE(std::equal(ref.begin(), ref.end(), fresh.get()));
      }
  }
}

// ---------------------------------------------------------------------------------------
// Threads.

TEST(CpuScanParallel, BitwiseIdenticalForAnyThreadCount) {
  SCOPED_TRACE(testing::Message() << "SCANKIT_TEST_SEED=" << test::seed());
  // More threads than cores on purpose: predecessors get preempted, waits must yield.
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  const std::int64_t n = test::quick() ? 300'001 : 1'000'003;
  const auto in = test::random_values<float>(n, "sum");
  for (algo a : {algo::parallel, algo::parallel_streaming, algo::parallel_cached}) {
    SCOPED_TRACE(algo_name(a));
    std::vector<float> first;
    float first_total = 0;
    for (int threads : {1, 2, 3, 8}) {
      SCOPED_TRACE(testing::Message() << threads << " threads");
      std::vector<float> out(in.size());
      float total = 0;
      tbb::task_arena arena(threads);
      arena.execute([&] { total = run(a, in.data(), out.data(), n, sum<float>{}, scan_kind::inclusive, 0.5f); });
      ASSERT_TRUE(test::matches_reference(in, out, sum<float>{}, scan_kind::inclusive, 0.5f, &total));
      if (first.empty()) {
        first = out;
        first_total = total;
      } else {
        ASSERT_TRUE(same_bits(first, out));
        ASSERT_EQ(first_total, total);
      }
    }
  }
  // Streaming or not, the association is the same.
  std::vector<float> s(in.size()), c(in.size());
  cpu::scan_parallel(in.data(), s.data(), n, sum<float>{}, scan_kind::exclusive, 0.0f,
                     {.serial_cutoff = 0, .stores = cpu::store_policy::streaming});
  cpu::scan_parallel(in.data(), c.data(), n, sum<float>{}, scan_kind::exclusive, 0.0f,
                     {.serial_cutoff = 0, .stores = cpu::store_policy::cached});
  EXPECT_TRUE(same_bits(s, c));
}

TEST(CpuScanParallel, ConcurrentCallsFromTbbTasks) {
  SCOPED_TRACE(testing::Message() << "SCANKIT_TEST_SEED=" << test::seed());
  // Scans started from inside TBB tasks share the workers; none may wait on another.
  constexpr int arrays = 6;
  std::vector<std::vector<std::int64_t>> in(arrays), out(arrays);
  for (int k = 0; k < arrays; ++k) {
    in[k] = test::random_values<std::int64_t>(100'000 + 7919 * k, "sum");
    out[k].resize(in[k].size());
  }
  std::vector<std::int64_t> totals(arrays);
  // Through a fenced region, so that ThreadSanitizer sees TBB's hand-offs (see scan.hpp).
  cpu::detail::fenced_region region([&](const tbb::blocked_range<int>& r) {
    for (int k = r.begin(); k != r.end(); ++k)
      totals[k] = cpu::scan_parallel(in[k].data(), out[k].data(), static_cast<std::int64_t>(in[k].size()),
                                     sum<std::int64_t>{}, scan_kind::inclusive, std::int64_t{k},
                                     {.block_bytes = 2048, .serial_cutoff = 0});
  });
  {
    decltype(region)::scope open(region);
    tbb::parallel_for(tbb::blocked_range<int>(0, arrays, 1), region.get_body<0>());
  }
  for (int k = 0; k < arrays; ++k)
    EXPECT_TRUE(test::matches_reference(in[k], out[k], sum<std::int64_t>{}, scan_kind::inclusive,
                                        std::int64_t{k}, &totals[k]))
        << "array " << k;
}

// ---------------------------------------------------------------------------------------
// Exceptions from the operator reach the caller, and nothing hangs.

struct poison_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

TEST(CpuScan, OperatorExceptionsPropagate) {
  constexpr std::int64_t poison = -424242;
  auto op = make_monoid<std::int64_t>(
      [](std::int64_t a, std::int64_t b) {
        if (b == poison) throw poison_error("poisoned item");
        return a + b;
      },
      std::int64_t{0});
  const std::int64_t n = 200'000;
  for (std::int64_t where : {std::int64_t{0}, n / 3, n - 1}) {
    SCOPED_TRACE(testing::Message() << "poison at " << where);
    std::vector<std::int64_t> in(static_cast<std::size_t>(n), 1), out(in.size());
    in[static_cast<std::size_t>(where)] = poison;
    for (algo a : all_algos) {
      SCOPED_TRACE(algo_name(a));
      EXPECT_THROW(run(a, in.data(), out.data(), n, op, scan_kind::inclusive, std::int64_t{0}), poison_error);
    }
    EXPECT_THROW(cpu::scan_serial(in.data(), out.data(), n, op, scan_kind::exclusive, std::int64_t{0}), poison_error);
  }
  // The library is still usable afterwards.
  std::vector<std::int64_t> in(static_cast<std::size_t>(n), 1), out(in.size());
  EXPECT_EQ(cpu::scan_parallel(in.data(), out.data(), n, op, scan_kind::inclusive, std::int64_t{0},
                               {.block_bytes = 4096, .serial_cutoff = 0}),
            n);
  EXPECT_EQ(out.back(), n);
}

// ---------------------------------------------------------------------------------------
// Argument errors.

template <class F>
void expect_invalid(F f, const std::string& mentions) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected scankit::invalid_argument mentioning " << mentions;
  } catch (const scankit::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << e.what();
  }
}

TEST(CpuScan, ArgumentErrors) {
  std::vector<int> a(100, 1), b(100);
  const auto I = scan_kind::inclusive;
  using S = sum<int>;
  for (algo al : all_algos) {
    SCOPED_TRACE(algo_name(al));
    const std::string fn = al == algo::tbb ? "tbb_parallel_scan" : "scan_parallel";
    expect_invalid([&] { run<S>(al, a.data(), b.data(), -1, {}, I, 0); }, fn);
    expect_invalid([&] { run<S>(al, a.data(), b.data(), -1, {}, I, 0); }, "negative");
    expect_invalid([&] { run<S>(al, nullptr, b.data(), 10, {}, I, 0); }, "null");
    expect_invalid([&] { run<S>(al, a.data(), nullptr, 10, {}, I, 0); }, "null");
    expect_invalid([&] { run<S>(al, a.data(), b.data(), scankit::detail::max_elements + 1, {}, I, 0); }, "2^62");
    // Overlapping but not identical ranges.
    expect_invalid([&] { run<S>(al, a.data(), a.data() + 1, 50, {}, I, 0); }, "overlap");
    expect_invalid([&] { run<S>(al, a.data() + 1, a.data(), 50, {}, I, 0); }, "overlap");
    // Empty input: null pointers are fine, the carry-in comes back, nothing is written.
    EXPECT_EQ(run<S>(al, nullptr, nullptr, 0, {}, I, 5), 5);
    EXPECT_EQ(run<S>(al, a.data(), b.data(), 0, {}, scan_kind::exclusive, 5), 5);
    EXPECT_EQ(b[0], 0);
  }
  expect_invalid([&] { cpu::scan_serial<S>(a.data(), b.data(), -5, {}, I, 0); }, "scan_serial");
  expect_invalid([&] { cpu::scan_serial<S>(nullptr, b.data(), 1, {}, I, 0); }, "null");
  expect_invalid([&] { cpu::scan_serial<S>(a.data(), nullptr, 1, {}, I, 0); }, "null");
  expect_invalid([&] { cpu::scan_serial<S>(a.data(), a.data() + 3, 10, {}, I, 0); }, "overlap");
  expect_invalid([&] { cpu::scan_parallel<S>(a.data(), b.data(), 100, {}, I, 0, {.block_bytes = 0}); }, "block_bytes");
  // Adjacent (touching, not overlapping) ranges are fine.
  std::iota(a.begin(), a.end(), 1);
  EXPECT_EQ(cpu::scan_parallel<S>(a.data(), a.data() + 50, 50, {}, I, 0), 50 * 51 / 2);
  EXPECT_EQ(a[99], 50 * 51 / 2);
}

// ---------------------------------------------------------------------------------------
// parallel_copy and the streaming writer.

TEST(ParallelCopy, CopiesExactly) {
  std::uniform_int_distribution<int> byte(0, 255);
  for (std::int64_t bytes : {std::int64_t{0}, std::int64_t{1}, std::int64_t{4095},
                             (std::int64_t{1} << 20) + 3, (std::int64_t{5} << 20) + 7,
                             (std::int64_t{17} << 20) + 61}) {
    for (int offset : {0, 3}) {
      SCOPED_TRACE(testing::Message() << bytes << " bytes, offset " << offset);
      std::vector<unsigned char> src(static_cast<std::size_t>(bytes) + 8), dst(src.size(), 0xAB);
      for (auto& c : src) c = static_cast<unsigned char>(byte(test::rng()));
      cpu::parallel_copy(dst.data() + offset, src.data() + 1, bytes);
      ASSERT_EQ(0, std::memcmp(dst.data() + offset, src.data() + 1, static_cast<std::size_t>(bytes)));
      for (int k = 0; k < offset; ++k) ASSERT_EQ(dst[k], 0xAB);
      for (std::size_t k = static_cast<std::size_t>(bytes) + offset; k < dst.size(); ++k) ASSERT_EQ(dst[k], 0xAB);
    }
  }
}

TEST(ParallelCopy, ArgumentErrors) {
  std::vector<char> a(64), b(64);
  expect_invalid([&] { cpu::parallel_copy(a.data(), b.data(), -1); }, "negative");
  expect_invalid([&] { cpu::parallel_copy(nullptr, b.data(), 1); }, "null");
  expect_invalid([&] { cpu::parallel_copy(a.data(), nullptr, 1); }, "null");
  expect_invalid([&] { cpu::parallel_copy(a.data() + 1, a.data(), 10); }, "overlap");
  cpu::parallel_copy(nullptr, nullptr, 0);  // fine
}

TEST(StreamingWriter, WritesExactlyTheRangeInAnyPieces) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<std::size_t> piece(0, 300);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t offset = static_cast<std::size_t>(trial % 67), total = piece(test::rng()) * 7;
    SCOPED_TRACE(testing::Message() << "trial " << trial << ": offset " << offset << ", " << total << " bytes");
    std::vector<unsigned char> src(total), dst(total + 200, 0xCD);
    for (auto& c : src) c = static_cast<unsigned char>(byte(test::rng()));
    cpu::detail::streaming_writer w(dst.data() + offset);
    for (std::size_t at = 0; at < total;) {
      const std::size_t len = std::min(total - at, piece(test::rng()));
      w.write(src.data() + at, len);
      at += len;
    }
    w.finish();
    if (total > 0) {
      ASSERT_EQ(0, std::memcmp(dst.data() + offset, src.data(), total));
    }
    for (std::size_t k = 0; k < offset; ++k) ASSERT_EQ(dst[k], 0xCD);
    for (std::size_t k = offset + total; k < dst.size(); ++k) ASSERT_EQ(dst[k], 0xCD);
  }
}

}  // namespace
