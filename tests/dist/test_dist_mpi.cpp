// The distributed primitives on CPU ranks (MPI), run under mpiexec with 1 to 4 processes:
// each rank's part of every result is checked against the serial reference of the whole
// global array (which every rank generates; see dist_test_util.hpp).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <thread>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "dist/dist_test_util.hpp"
#include "dist/mpi_test_main.hpp"
#include "scankit/cpu/compact.hpp"
#include "scankit/cpu/histogram.hpp"
#include "scankit/cpu/reduce.hpp"
#include "scankit/cpu/scan.hpp"
#include "scankit/cpu/sort.hpp"
#include "scankit/cpu/topk.hpp"
#include "scankit/dist/mpi.hpp"

namespace {

using namespace scankit;
using namespace scankit::dist;
using namespace scankit::dist::test;

constexpr std::uint64_t seed = 0x5ca1ab1e2026ull;
mpi_communicator* world = nullptr;

mpi_communicator& comm() { return *world; }
int me() { return world->rank(); }
int ranks() { return world->size(); }

template <class T>
std::vector<T> shard_of(const std::vector<T>& global, const std::vector<std::int64_t>& sizes) {
  const auto off = offset_of(sizes, me());
  return {global.begin() + off, global.begin() + off + sizes[static_cast<std::size_t>(me())]};
}

template <class... T, class F>
void for_types(F&& f) {
  (f(std::type_identity<T>{}), ...);
}

#define CASE(...) ::testing::Message() << __VA_ARGS__

// ---- scan ----------------------------------------------------------------------------------------

template <class Op>
void check_scan(Op op, const std::vector<value_t<Op>>& global, const std::vector<std::int64_t>& sizes, scan_kind kind,
                value_t<Op> init, bool in_place, const ::testing::Message& what) {
  using T = value_t<Op>;
  std::vector<T> expect(global.size());
  const T expect_total = cpu::scan_serial(global.data(), expect.data(), static_cast<std::int64_t>(global.size()), op, kind, init);
  std::vector<T> in = shard_of(global, sizes), out(in.size());
  std::vector<T>& target = in_place ? in : out;
  const T total = kind == scan_kind::inclusive ? inclusive_scan(comm(), in, target, op, init)
                                               : exclusive_scan(comm(), in, target, op, init);
  SCOPED_TRACE(what);
  EXPECT_TRUE(same_bits(total, expect_total));
  const auto off = offset_of(sizes, me());
  for (std::size_t i = 0; i < target.size(); ++i)
    if (!same_bits(target[i], expect[static_cast<std::size_t>(off) + i])) {
      ADD_FAILURE() << "first difference at local item " << i;
      break;
    }
}

TEST(DistMpiScan, BuiltinOperatorsEveryTypeAndLayout) {
  for_types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>([](auto tag) {
    using T = typename decltype(tag)::type;
    for (layout l : all_layouts) {
      const auto sizes = shard_sizes(l, 3001, ranks(), seed);
      const auto global = make_values<T>(total_of(sizes), seed + 1);
      for (scan_kind kind : {scan_kind::inclusive, scan_kind::exclusive}) {
        auto what = [&](const char* op) {
          return CASE(op << " " << typeid(T).name() << " " << name(l) << (kind == scan_kind::inclusive ? " inclusive" : " exclusive"));
        };
        check_scan(sum<T>{}, global, sizes, kind, from_small<T>(5), false, what("sum"));
        check_scan(max<T>{}, global, sizes, kind, max<T>{}.identity(), false, what("max"));
        check_scan(min<T>{}, global, sizes, kind, from_small<T>(3), false, what("min"));
        if constexpr (std::is_integral_v<T>) {
          check_scan(product<T>{}, global, sizes, kind, from_small<T>(3), false, what("product"));
          check_scan(bit_xor<T>{}, global, sizes, kind, T(0), false, what("xor"));
        }
      }
    }
  });
}

TEST(DistMpiScan, NonCommutativeOperatorWithCarryIn) {
  for (layout l : all_layouts)
    for (std::int64_t total : {std::int64_t{17}, std::int64_t{200000}}) {
      const auto sizes = shard_sizes(l, total, ranks(), seed + 2);
      const auto global = make_affine(total_of(sizes), seed + 3);
      for (scan_kind kind : {scan_kind::inclusive, scan_kind::exclusive})
        check_scan(compose{}, global, sizes, kind, affine{3, 7}, false,
                   CASE("affine " << name(l) << " " << total << (kind == scan_kind::inclusive ? " inclusive" : " exclusive")));
    }
}

TEST(DistMpiScan, InPlace) {
  const auto sizes = shard_sizes(layout::uneven, 100000, ranks(), seed + 4);
  const auto global = make_values<std::int64_t>(total_of(sizes), seed + 5, 1000);
  check_scan(sum<std::int64_t>{}, global, sizes, scan_kind::inclusive, std::int64_t{0}, true, CASE("in place inclusive"));
  check_scan(sum<std::int64_t>{}, global, sizes, scan_kind::exclusive, std::int64_t{-9}, true, CASE("in place exclusive"));
}

// ---- reductions ------------------------------------------------------------------------------

TEST(DistMpiReduce, EveryTypeAndLayoutAgainstTheSerialLoop) {
  // Small integer values: every sum is exact in every type, so the result must equal the
  // serial loop's bit for bit whatever the association.
  for_types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>([](auto tag) {
    using T = typename decltype(tag)::type;
    for (layout l : all_layouts) {
      const auto sizes = shard_sizes(l, 30001, ranks(), seed + 20);
      const auto global = make_values<T>(total_of(sizes), seed + 21);
      const auto in = shard_of(global, sizes);
      const auto n = static_cast<std::int64_t>(global.size());
      SCOPED_TRACE(CASE(typeid(T).name() << " " << name(l)));
      EXPECT_TRUE(same_bits(reduce(comm(), in), cpu::reduce_serial(global.data(), n, sum<T>{})));
      EXPECT_TRUE(same_bits(reduce(comm(), in, max<T>{}), cpu::reduce_serial(global.data(), n, max<T>{})));
      EXPECT_TRUE(same_bits(reduce(comm(), in, min<T>{}), cpu::reduce_serial(global.data(), n, min<T>{})));
      if constexpr (std::is_integral_v<T>) {
        EXPECT_TRUE(same_bits(reduce(comm(), in, bit_xor<T>{}), cpu::reduce_serial(global.data(), n, bit_xor<T>{})));
      }
    }
  });
}

TEST(DistMpiReduce, NonCommutativeOperatorInRankOrder) {
  for (layout l : all_layouts) {
    const auto sizes = shard_sizes(l, 100003, ranks(), seed + 22);
    const auto global = make_affine(total_of(sizes), seed + 23);
    const affine got = reduce(comm(), shard_of(global, sizes), compose{});
    EXPECT_EQ(got, cpu::reduce_serial(global.data(), static_cast<std::int64_t>(global.size()), compose{})) << name(l);
  }
}

TEST(DistMpiReduce, ArgMinArgMaxMinMaxWithTiesAndNaNs) {
  for_types<std::int8_t, std::uint16_t, std::int32_t, std::int64_t, float, double>([](auto tag) {
    using T = typename decltype(tag)::type;
    for (distribution d : {distribution::uniform, distribution::few, distribution::all_equal})
      for (layout l : all_layouts) {
        const auto sizes = shard_sizes(l, 5003, ranks(), seed + 24);
        const auto global = make_keys<T>(d, total_of(sizes), seed + 25);
        const auto in = shard_of(global, sizes);
        SCOPED_TRACE(CASE(typeid(T).name() << " " << name(d) << " " << name(l)));
        const std::span<const T> all(global);
        if (global.empty()) {
          EXPECT_THROW(argmin(comm(), in), scankit::invalid_argument);
          EXPECT_THROW(argmax(comm(), in), scankit::invalid_argument);
        } else {
          EXPECT_EQ(argmin(comm(), in), cpu::argmin(all));
          EXPECT_EQ(argmax(comm(), in), cpu::argmax(all));
        }
        const auto got = min_max(comm(), in), want = cpu::min_max(all);
        EXPECT_TRUE(same_bits(got.min, want.min));
        EXPECT_TRUE(same_bits(got.max, want.max));
      }
  });
}

// ---- top-k ---------------------------------------------------------------------------------------

TEST(DistMpiTopk, EveryLayoutKAndDirectionAgainstTheSerialReference) {
  for_types<std::uint8_t, std::int32_t, std::uint64_t, float, double>([](auto tag) {
    using K = typename decltype(tag)::type;
    for (distribution d : {distribution::uniform, distribution::few, distribution::zipf})
      for (layout l : all_layouts) {
        const auto sizes = shard_sizes(l, 20011, ranks(), seed + 26);
        const auto global = make_keys<K>(d, total_of(sizes), seed + 27);
        const auto in = shard_of(global, sizes);
        const auto total = static_cast<std::int64_t>(global.size());
        for (std::int64_t k : {std::int64_t{0}, std::int64_t{1}, std::int64_t{7}, std::int64_t{1000}, total}) {
          if (k > total) continue;
          for (bool largest : {true, false}) {
            SCOPED_TRACE(CASE(typeid(K).name() << " " << name(d) << " " << name(l) << " k " << k
                                                << (largest ? " largest" : " smallest")));
            std::vector<K> want_v(static_cast<std::size_t>(k)), got_v;
            std::vector<std::int64_t> want_i(static_cast<std::size_t>(k)), got_i;
            cpu::topk_serial(global.data(), total, k, want_v.data(), want_i.data(), cpu::topk_options{largest});
            topk(comm(), in, k, got_v, got_i, cpu::topk_options{largest});
            ASSERT_EQ(got_i, want_i);
            for (std::size_t j = 0; j < want_v.size(); ++j) ASSERT_TRUE(same_bits(got_v[j], want_v[j])) << j;
          }
        }
      }
  });
}

TEST(DistMpiReduce, AFirstNaNOnALaterRankWins) {
  // numpy.argmax and argmin return the first NaN, even after a larger finite item on an
  // earlier rank; the expected positions are written out, not computed by the same operator.
  const auto sizes = shard_sizes(layout::equal, 4 * ranks() + 3, ranks(), seed + 30);
  std::vector<double> global(static_cast<std::size_t>(total_of(sizes)), 1.0);
  global[0] = 1e300, global[1] = -1e300;
  const std::size_t nan_at = global.size() - 2;
  global[nan_at] = std::numeric_limits<double>::quiet_NaN(), global.back() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(argmax(comm(), shard_of(global, sizes)), static_cast<std::int64_t>(nan_at));
  EXPECT_EQ(argmin(comm(), shard_of(global, sizes)), static_cast<std::int64_t>(nan_at));
  global[nan_at] = 2.0, global.back() = 2.0;  // ties: the first position
  EXPECT_EQ(argmax(comm(), shard_of(global, sizes)), 0);
  global[0] = 2.0;
  EXPECT_EQ(argmax(comm(), shard_of(global, sizes)), 0);
  EXPECT_EQ(argmin(comm(), shard_of(global, sizes)), 1);
}

TEST(DistMpiTopk, KDifferingOnOneRankThrowsEverywhereAndLeavesTheCommunicatorUsable) {
  const auto sizes = shard_sizes(layout::uneven, 1000, ranks(), seed + 31);
  const auto global = make_values<std::int32_t>(total_of(sizes), seed + 32);
  std::vector<std::int32_t> v;
  std::vector<std::int64_t> i;
  const std::int64_t k = me() == 0 ? -1 : 3;
  EXPECT_ANY_THROW(topk(comm(), shard_of(global, sizes), k, v, i));
  topk(comm(), shard_of(global, sizes), 3, v, i);
  EXPECT_EQ(v.size(), 3u);
}

TEST(DistMpiTopk, KBeyondTheSequenceThrowsOnEveryRank) {
  const auto sizes = shard_sizes(layout::uneven, 50, ranks(), seed + 28);
  const auto global = make_values<std::int32_t>(total_of(sizes), seed + 29);
  std::vector<std::int32_t> v;
  std::vector<std::int64_t> i;
  EXPECT_THROW(topk(comm(), shard_of(global, sizes), 51, v, i), scankit::invalid_argument);
  // The communicator stays usable after an argument error every rank saw.
  topk(comm(), shard_of(global, sizes), 50, v, i);
  EXPECT_EQ(v.size(), 50u);
}

// ---- compaction ------------------------------------------------------------------------------

TEST(DistMpiCompact, SelectIfAndRemoveIfEveryTypeAndLayout) {
  for_types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double, std::uint8_t>([](auto tag) {
    using T = typename decltype(tag)::type;
    for (layout l : all_layouts) {
      const auto sizes = shard_sizes(l, 4099, ranks(), seed + 6);
      const auto global = make_values<T>(total_of(sizes), seed + 7);
      const auto pred = greater_than<T>{from_small<T>(std::is_signed_v<T> ? 2 : 10)};
      for (bool keep : {true, false}) {
        SCOPED_TRACE(CASE(typeid(T).name() << " " << name(l) << (keep ? " select_if" : " remove_if")));
        std::vector<T> expect;
        for (const T& x : global)
          if (pred(x) == keep) expect.push_back(x);
        const auto in = shard_of(global, sizes);
        std::vector<T> out(in.size());
        const auto r = keep ? select_if(comm(), in, out, pred) : remove_if(comm(), in, out, pred);
        ASSERT_EQ(r.global_count, static_cast<std::int64_t>(expect.size()));
        ASSERT_LE(r.offset + r.count, r.global_count);
        for (std::int64_t i = 0; i < r.count; ++i) ASSERT_TRUE(same_bits(out[static_cast<std::size_t>(i)], expect[static_cast<std::size_t>(r.offset + i)]));
        // The counts of the ranks tile [0, global_count): this rank's count is its own selection.
        std::int64_t mine = 0;
        for (const T& x : in) mine += pred(x) == keep ? 1 : 0;
        EXPECT_EQ(r.count, mine);
      }
    }
  });
}

TEST(DistMpiCompact, PartitionBothOrders) {
  for (layout l : all_layouts)
    for (rejected_order order : {rejected_order::reversed, rejected_order::original}) {
      SCOPED_TRACE(CASE(name(l) << (order == rejected_order::original ? " original" : " reversed")));
      const auto sizes = shard_sizes(l, 5003, ranks(), seed + 8);
      const auto global = make_values<std::int32_t>(total_of(sizes), seed + 9);
      const auto pred = less_than<std::int32_t>{0};
      std::vector<std::int32_t> sel, rej;
      for (auto x : global) (pred(x) ? sel : rej).push_back(x);
      const auto in = shard_of(global, sizes);
      std::vector<std::int32_t> out(in.size());
      const auto r = partition(comm(), in, out, pred, order);
      ASSERT_EQ(r.global_selected, static_cast<std::int64_t>(sel.size()));
      ASSERT_EQ(r.global_size, static_cast<std::int64_t>(global.size()));
      for (std::int64_t i = 0; i < r.selected; ++i) ASSERT_EQ(out[static_cast<std::size_t>(i)], sel[static_cast<std::size_t>(r.selected_offset + i)]);
      const auto rejected = static_cast<std::int64_t>(in.size()) - r.selected;
      for (std::int64_t i = 0; i < rejected; ++i) {
        const auto at = order == rejected_order::original ? r.selected + i : static_cast<std::int64_t>(in.size()) - 1 - i;
        ASSERT_EQ(out[static_cast<std::size_t>(at)], rej[static_cast<std::size_t>(r.rejected_offset + i)]);
      }
    }
}

TEST(DistMpiCompact, UniqueWithRunsAcrossRanks) {
  for (distribution d : {distribution::runs, distribution::all_equal, distribution::few, distribution::uniform, distribution::sorted})
    for (layout l : all_layouts)
      for (bool in_place : {false, true}) {
        SCOPED_TRACE(CASE(name(d) << " " << name(l) << (in_place ? " in place" : "")));
        const auto sizes = shard_sizes(l, 6007, ranks(), seed + 10);
        const auto global = make_keys<std::int64_t>(d, total_of(sizes), seed + 11);
        std::vector<std::int64_t> expect(global.size());
        expect.resize(static_cast<std::size_t>(cpu::unique(global.data(), expect.data(), static_cast<std::int64_t>(global.size()))));
        auto in = shard_of(global, sizes);
        std::vector<std::int64_t> out(in.size());
        auto& target = in_place ? in : out;
        const auto r = unique(comm(), in, target);
        ASSERT_EQ(r.global_count, static_cast<std::int64_t>(expect.size()));
        for (std::int64_t i = 0; i < r.count; ++i) ASSERT_EQ(target[static_cast<std::size_t>(i)], expect[static_cast<std::size_t>(r.offset + i)]);
      }
}

TEST(DistMpiCompact, RebalanceAfterSelect) {
  for (layout l : all_layouts) {
    SCOPED_TRACE(name(l));
    const auto sizes = shard_sizes(l, 20011, ranks(), seed + 12);
    const auto global = make_values<std::uint64_t>(total_of(sizes), seed + 13);
    const auto pred = greater_than<std::uint64_t>{12};
    std::vector<std::uint64_t> expect;
    for (auto x : global)
      if (pred(x)) expect.push_back(x);
    const auto in = shard_of(global, sizes);
    std::vector<std::uint64_t> out(in.size());
    const auto r = select_if(comm(), in, out, pred);
    const auto even = rebalance(comm(), std::span(out).first(static_cast<std::size_t>(r.count)));
    ASSERT_EQ(static_cast<std::int64_t>(even.size()), balanced_size(r.global_count, me(), ranks()));
    const auto off = balanced_offset(r.global_count, me(), ranks());
    for (std::size_t i = 0; i < even.size(); ++i) ASSERT_EQ(even[i], expect[static_cast<std::size_t>(off) + i]);
  }
}

// ---- histograms ---------------------------------------------------------------------------------

template <class C, class Run, class Reference>
void check_histogram(std::int64_t bins, const histogram_config& cfg, Run run, Reference reference) {
  std::vector<C> expect(static_cast<std::size_t>(bins));
  reference(expect.data());
  std::vector<C> counts(static_cast<std::size_t>(bins), C{7});
  run(counts, cfg);
  const bool receives = cfg.root < 0 || cfg.root == me();
  for (std::int64_t b = 0; b < bins; ++b) {
    const C want = receives ? static_cast<C>(expect[static_cast<std::size_t>(b)] + (cfg.accumulate ? 7 : 0)) : C{7};
    ASSERT_EQ(counts[static_cast<std::size_t>(b)], want) << "bin " << b;
  }
}

TEST(DistMpiHistogram, EvenRangeAndBincountToAllAndToRoot) {
  std::vector<histogram_config> cfgs = {{-1, false}, {-1, true}, {0, false}, {ranks() - 1, true}};
  for (layout l : all_layouts)
    for (const auto& cfg : cfgs) {
      SCOPED_TRACE(CASE(name(l) << " root " << cfg.root << (cfg.accumulate ? " accumulate" : "")));
      const auto sizes = shard_sizes(l, 30011, ranks(), seed + 14);
      const auto n = total_of(sizes);
      {
        const auto global = make_keys<std::uint8_t>(distribution::uniform, n, seed + 15);
        const auto in = shard_of(global, sizes);
        check_histogram<std::uint32_t>(256, cfg,
            [&](auto& counts, const auto& c) { histogram_even(comm(), in, counts, 0, 256, c); },
            [&](std::uint32_t* e) { cpu::histogram_even_serial(global.data(), n, e, 256, 0, 256); });
      }
      {
        const auto global = make_keys<float>(distribution::uniform, n, seed + 16);
        const auto in = shard_of(global, sizes);
        check_histogram<std::uint64_t>(100, cfg,
            [&](auto& counts, const auto& c) { histogram_even(comm(), in, counts, -1e6f, 1e6f, c); },
            [&](std::uint64_t* e) { cpu::histogram_even_serial(global.data(), n, e, 100, -1e6f, 1e6f); });
      }
      {
        const auto global = make_keys<double>(distribution::uniform, n, seed + 17);
        const auto in = shard_of(global, sizes);
        const std::vector<double> edges = {-1e6, -1e4, -10, 0, 1, 1e3, 5e5, 1e6};
        check_histogram<std::uint64_t>(7, cfg,
            [&](auto& counts, const auto& c) { histogram_range(comm(), in, counts, edges, c); },
            [&](std::uint64_t* e) { cpu::histogram_range_serial(global.data(), n, e, edges.data(), 8); });
      }
      {
        const auto global = make_keys<std::uint16_t>(distribution::zipf, n, seed + 18);
        const auto in = shard_of(global, sizes);
        check_histogram<std::uint32_t>(300, cfg,
            [&](auto& counts, const auto& c) { bincount(comm(), in, counts, c); },
            [&](std::uint32_t* e) { cpu::bincount_serial(global.data(), n, e, 300); });
      }
    }
}

// ---- sort ---------------------------------------------------------------------------------------

template <class K>
void check_sort(distribution d, layout l, std::int64_t total, const sort_options& opts, const sort_config& cfg,
                bool pairs) {
  SCOPED_TRACE(CASE(typeid(K).name() << " " << name(d) << " " << name(l) << " n " << total
                    << (opts.descending ? " descending" : "") << (pairs ? " pairs" : "") << " samples "
                    << cfg.samples_per_rank << " bits [" << opts.begin_bit << ", " << opts.end_bit << ")"
                    << (cfg.merge_received ? " merge" : " local sort")));
  const auto sizes = shard_sizes(l, total, ranks(), seed + 19);
  const auto n = total_of(sizes);
  auto global = make_keys<K>(d, n, seed + 20);
  std::vector<std::int64_t> index(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) index[static_cast<std::size_t>(i)] = i;
  auto keys = shard_of(global, sizes);
  auto values = shard_of(index, sizes);
  // The serial stable sort of the global sequence (pairs: with each key's global position).
  cpu::sort_pairs_serial(global.data(), index.data(), n, opts);
  if (pairs) sort_pairs(comm(), keys, values, opts, cfg);
  else sort_keys(comm(), keys, opts, cfg);
  ASSERT_EQ(static_cast<std::int64_t>(keys.size()), balanced_size(n, me(), ranks()));
  const auto off = balanced_offset(n, me(), ranks());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    ASSERT_TRUE(same_bits(keys[i], global[static_cast<std::size_t>(off) + i])) << "key " << i;
    if (pairs) {
      ASSERT_EQ(values[i], index[static_cast<std::size_t>(off) + i]) << "value " << i;
    }
  }
}

TEST(DistMpiSort, KeysEveryTypeAndDistribution) {
  for_types<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
            float, double>([](auto tag) {
    using K = typename decltype(tag)::type;
    for (distribution d : all_distributions)
      for (bool descending : {false, true})
        for (bool merge : {true, false})
          check_sort<K>(d, descending ? layout::uneven : layout::equal, 2500, {.descending = descending},
                        {.merge_received = merge}, false);
  });
}

TEST(DistMpiSort, PairsAreStableForEveryLayout) {
  for (layout l : all_layouts)
    for (distribution d : {distribution::uniform, distribution::all_equal, distribution::zipf, distribution::sorted})
      for (bool descending : {false, true})
        for (bool merge : {true, false}) {
          check_sort<std::int32_t>(d, l, 3001, {.descending = descending}, {.merge_received = merge}, true);
          check_sort<double>(d, l, 3001, {.descending = descending}, {.merge_received = merge}, true);
        }
}

TEST(DistMpiSort, LargeInputsStayExactlyBalanced) {
  // Few samples: the splitters' ranges are off by many items and the balancing step moves them.
  for (distribution d : {distribution::uniform, distribution::zipf, distribution::all_equal, distribution::sorted,
                         distribution::reversed})
    for (std::int64_t samples : {std::int64_t{0}, std::int64_t{8}}) {
      check_sort<std::uint32_t>(d, layout::uneven, 200000, {}, {.samples_per_rank = samples}, false);
      check_sort<std::uint64_t>(d, layout::first_empty, 100000, {.descending = true}, {.samples_per_rank = samples}, true);
    }
  // Received pieces of more than one merge chunk (2^15 items), both phase-6 paths.
  for (bool merge : {true, false})
    check_sort<float>(distribution::uniform, layout::uneven, 300000, {}, {.merge_received = merge}, true);
}

TEST(DistMpiSort, BitRange) {
  // Keys that differ only outside the range are equal: pairs show that they keep their order.
  for (bool merge : {true, false}) {
    check_sort<std::uint32_t>(distribution::uniform, layout::uneven, 20000, {.begin_bit = 4, .end_bit = 12},
                              {.merge_received = merge}, true);
    check_sort<std::int64_t>(distribution::uniform, layout::equal, 20000, {.descending = true, .begin_bit = 0, .end_bit = 20},
                             {.samples_per_rank = 16, .merge_received = merge}, true);
    // The top 12 ordered bits of floats (-0 and +0 apart, NaNs at the ends), both orders.
    check_sort<float>(distribution::uniform, layout::uneven, 20000, {.begin_bit = 20, .end_bit = 32},
                      {.merge_received = merge}, true);
    check_sort<double>(distribution::uniform, layout::first_empty, 20000, {.descending = true, .begin_bit = 40},
                       {.merge_received = merge}, true);
    check_sort<std::int8_t>(distribution::zipf, layout::equal, 20000, {.begin_bit = 2, .end_bit = 5},
                            {.merge_received = merge}, true);
    check_sort<std::uint16_t>(distribution::uniform, layout::equal, 5000, {.begin_bit = 7, .end_bit = 7},
                              {.merge_received = merge}, true);
  }
}

// Phase 6's merge alone, without MPI: p sorted runs (some empty, keys with many ties) merged
// against a stable sort of their concatenation, which is the same sequence.
TEST(DistMpiSort, MergeOfReceivedRunsIsTheStableSort) {
  for (std::int64_t p : {1, 2, 3, 4, 5, 8, 9, 16})
    for (bool descending : {false, true})
      for (std::int64_t scale : {std::int64_t{40}, std::int64_t{30000}}) {
        SCOPED_TRACE(CASE("p " << p << (descending ? " descending" : "") << " scale " << scale));
        const scankit::detail::sort_key_less<float> less{0, 32, descending};
        std::vector<std::int64_t> offsets{0};
        std::vector<float> keys;
        for (std::int64_t q = 0; q < p; ++q) {
          const auto len = static_cast<std::int64_t>(mix(seed, 90, static_cast<std::uint64_t>(q + p * 100)) %
                                                     static_cast<std::uint64_t>(scale));
          auto run = make_keys<float>(q % 3 == 2 ? distribution::all_equal : distribution::zipf, q % 4 == 1 ? 0 : len,
                                      seed + 91 + static_cast<std::uint64_t>(q));
          if (q % 5 == 3) run = make_keys<float>(distribution::uniform, len, seed + 92 + static_cast<std::uint64_t>(q));
          std::stable_sort(run.begin(), run.end(), less);
          keys.insert(keys.end(), run.begin(), run.end());
          offsets.push_back(static_cast<std::int64_t>(keys.size()));
        }
        std::vector<std::int64_t> values(keys.size());
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int64_t>(i);
        std::vector<std::int64_t> expect = values;
        std::stable_sort(expect.begin(), expect.end(), [&](std::int64_t x, std::int64_t y) {
          return less(keys[static_cast<std::size_t>(x)], keys[static_cast<std::size_t>(y)]);
        });
        auto merged = keys;
        scankit::dist::detail::mpi::merge_runs(merged, &values, std::span<const std::int64_t>(offsets), less);
        ASSERT_EQ(values, expect);
        for (std::size_t i = 0; i < merged.size(); ++i)
          ASSERT_TRUE(same_bits(merged[i], keys[static_cast<std::size_t>(expect[i])])) << "key " << i;
        auto keys_only = keys;
        scankit::dist::detail::mpi::merge_runs(keys_only, static_cast<std::vector<int>*>(nullptr),
                                               std::span<const std::int64_t>(offsets), less);
        for (std::size_t i = 0; i < merged.size(); ++i) ASSERT_TRUE(same_bits(keys_only[i], merged[i])) << "key " << i;
      }
}

// The splitters alone, without MPI: p simulated ranks' sorted shards, their samples, the cuts;
// every boundary within n/S + p items of the balanced one (the bound of detail/splitters.hpp).
TEST(DistSplitters, BoundariesWithinTheSamplingBound) {
  using scankit::dist::detail::sample;
  for (int p : {2, 3, 5, 8})
    for (std::int64_t per_rank : {std::int64_t{16}, std::int64_t{256}})
      for (distribution d : {distribution::uniform, distribution::zipf, distribution::all_equal, distribution::sorted}) {
        SCOPED_TRACE(CASE("p " << p << " S " << per_rank << " " << name(d)));
        std::vector<std::vector<std::uint64_t>> shard(static_cast<std::size_t>(p));
        std::vector<std::int64_t> sizes(static_cast<std::size_t>(p));
        std::vector<sample> all(static_cast<std::size_t>(p * per_rank));
        for (int q = 0; q < p; ++q) {
          const auto nq = static_cast<std::int64_t>(mix(seed, 40, static_cast<std::uint64_t>(q)) % 30000);
          auto& s = shard[static_cast<std::size_t>(q)];
          s = make_keys<std::uint64_t>(d, nq, seed + 41 + static_cast<std::uint64_t>(q));
          std::sort(s.begin(), s.end());
          sizes[static_cast<std::size_t>(q)] = nq;
          const auto m = scankit::dist::detail::sample_count(nq, per_rank);
          for (std::int64_t j = 0; j < m; ++j) {
            const auto pos = scankit::dist::detail::sample_position(j, nq, m);
            all[static_cast<std::size_t>(q * per_rank + j)] = {s[static_cast<std::size_t>(pos)], q, pos};
          }
        }
        const auto split = scankit::dist::detail::choose_splitters(all, sizes, per_rank);
        const auto n = total_of(sizes);
        const std::int64_t bound = n / per_rank + p;
        for (int k = 1; k < p; ++k) {
          std::int64_t below = 0;
          for (int q = 0; q < p; ++q) {
            const auto& s = shard[static_cast<std::size_t>(q)];
            auto lower = [&](std::uint64_t b) { return static_cast<std::int64_t>(std::lower_bound(s.begin(), s.end(), b) - s.begin()); };
            auto upper = [&](std::uint64_t b) { return static_cast<std::int64_t>(std::upper_bound(s.begin(), s.end(), b) - s.begin()); };
            below += scankit::dist::detail::local_cut(split[static_cast<std::size_t>(k - 1)], q,
                                                      static_cast<std::int64_t>(s.size()), lower, upper);
          }
          EXPECT_LE(std::abs(below - balanced_offset(n, k, p)), bound) << "boundary " << k;
        }
      }
}

// ---- errors -------------------------------------------------------------------------------------

TEST(DistMpiErrors, MismatchedOperatorsThrowOnEveryRank) {
  if (ranks() < 2) GTEST_SKIP() << "needs two ranks";
  std::vector<int> in(10, 1), out(10);
  if (me() == 0) EXPECT_THROW(inclusive_scan(comm(), in, out, sum<int>{}), mismatch_error);
  else EXPECT_THROW(inclusive_scan(comm(), in, out, max<int>{}), mismatch_error);
  std::vector<double> din(10, 1.0), dout(10);
  if (me() == 0) EXPECT_THROW(inclusive_scan(comm(), in, out), mismatch_error);
  else EXPECT_THROW(inclusive_scan(comm(), din, dout), mismatch_error);
  if (me() == 0) EXPECT_THROW(inclusive_scan(comm(), in, out), mismatch_error);
  else EXPECT_THROW(select_if(comm(), in, out, is_nonzero<int>{}), mismatch_error);
  // The communicator is still usable.
  EXPECT_EQ(inclusive_scan(comm(), in, out), 10 * ranks());
}

TEST(DistMpiErrors, ALocalFailureReachesEveryRank) {
  std::vector<int> in(10, 1), out(me() == 0 ? 5 : 10);
  if (me() == 0) EXPECT_THROW(inclusive_scan(comm(), in, out), invalid_argument);
  else EXPECT_THROW(inclusive_scan(comm(), in, out), remote_error);
  std::vector<int> keys(10, 1), values(me() == 0 ? 9 : 10);
  if (me() == 0) EXPECT_THROW(sort_pairs(comm(), keys, values), invalid_argument);
  else EXPECT_THROW(sort_pairs(comm(), keys, values), remote_error);
  EXPECT_EQ(inclusive_scan(comm(), in, std::vector<int>(10)), 10 * ranks());
}

TEST(DistMpiErrors, AMissingRankTimesOut) {
  if (ranks() < 2) GTEST_SKIP() << "needs two ranks";
  mpi_communicator c(MPI_COMM_WORLD, std::chrono::milliseconds(300));
  std::vector<int> in(10, 1), out(10);
  if (me() == 0) {
    EXPECT_THROW(inclusive_scan(c, in, out), timeout_error);
    EXPECT_TRUE(c.broken());
    EXPECT_THROW(inclusive_scan(c, in, out), timeout_error);  // at once, without an exchange
  } else {
    // Late: rank 0 has given up by now; this rank's exchange completes against the one rank 0
    // left behind.
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    c.set_timeout(std::chrono::seconds(60));
    EXPECT_EQ(inclusive_scan(c, in, out), 10 * ranks());
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace

int main(int argc, char** argv) {
  // Two threads per rank: up to four ranks share the CI machine's cores.
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, 2);
  return run_mpi_tests(
      argc, argv, [] { world = new mpi_communicator(MPI_COMM_WORLD, std::chrono::seconds(60)); },
      [] {
        delete world;
        world = nullptr;
      });
}
