// The GPU ranks' test cases (nccl_test_cases.cuh), compiled once for the one-process suite
// and the one-process-per-GPU suite.
#include "dist/nccl_test_cases.cuh"

#include <span>
#include <string>
#include <type_traits>

#include "scankit/cpu/compact.hpp"
#include "scankit/cpu/histogram.hpp"
#include "scankit/cpu/scan.hpp"
#include "scankit/cpu/sort.hpp"
#include "scankit/cuda/scan.cuh"  // the scan kernels for the test's own monoid (compose)

namespace scankit::dist::test {

/// The local ranks' shards of a global array: inputs, and outputs of `room` items each (or of
/// the input size).
template <class T>
struct local_shards {
  std::vector<device_array<T>> in, out;
  std::vector<device_shard<const T>> in_view;
  std::vector<device_shard<T>> out_view;
  std::vector<std::int64_t> offset;  // each local rank's global offset

  local_shards(nccl_communicator& c, const std::vector<T>& global, const std::vector<std::int64_t>& sizes,
               std::int64_t room = -1) {
    for (int i = 0; i < c.local_count(); ++i) {
      const int r = c.local(i).rank;
      const auto off = offset_of(sizes, r);
      offset.push_back(off);
      const std::vector<T> part(global.begin() + off, global.begin() + off + sizes[static_cast<std::size_t>(r)]);
      in.emplace_back(c.local(i), part);
      out.emplace_back(c.local(i), room >= 0 ? room : static_cast<std::int64_t>(part.size()));
    }
    for (std::size_t i = 0; i < in.size(); ++i) {
      in_view.push_back({in[i].get(), in[i].size()});
      out_view.push_back({out[i].get(), out[i].size()});
    }
  }
};

#define SCANKIT_CASE(...) ::testing::Message() << __VA_ARGS__

// ---- scan ------------------------------------------------------------------------------------------

template <class Op>
void check_scan(nccl_communicator& c, Op op, scan_kind kind, value_t<Op> init, const std::vector<value_t<Op>>& global,
                const std::vector<std::int64_t>& sizes) {
  using T = value_t<Op>;
  std::vector<T> expect(global.size());
  const T expect_total = cpu::scan_serial(global.data(), expect.data(), static_cast<std::int64_t>(global.size()), op, kind, init);
  local_shards<T> s(c, global, sizes);
  const T total = kind == scan_kind::inclusive ? inclusive_scan<T, Op>(c, s.in_view, s.out_view, op, init)
                                               : exclusive_scan<T, Op>(c, s.in_view, s.out_view, op, init);
  c.synchronize();
  EXPECT_TRUE(same_bits(total, expect_total));
  for (std::size_t i = 0; i < s.out.size(); ++i) {
    const auto got = s.out[i].host();
    for (std::size_t j = 0; j < got.size(); ++j)
      if (!same_bits(got[j], expect[static_cast<std::size_t>(s.offset[i]) + j])) {
        ADD_FAILURE() << "local rank " << i << ": first difference at item " << j;
        break;
      }
  }
}

void scan_cases(nccl_communicator& c) {
  const int p = c.size();
  auto each_type = [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (layout l : all_layouts) {
      const auto sizes = shard_sizes(l, 100003, p, 1);
      const auto global = make_values<T>(total_of(sizes), 2);
      for (scan_kind kind : {scan_kind::inclusive, scan_kind::exclusive}) {
        SCOPED_TRACE(SCANKIT_CASE(typeid(T).name() << " " << name(l) << (kind == scan_kind::inclusive ? " inclusive" : " exclusive")));
        check_scan(c, sum<T>{}, kind, from_small<T>(5), global, sizes);
        check_scan(c, max<T>{}, kind, max<T>{}.identity(), global, sizes);
      }
    }
  };
  each_type(std::type_identity<std::int32_t>{});
  each_type(std::type_identity<std::uint32_t>{});
  each_type(std::type_identity<std::int64_t>{});
  each_type(std::type_identity<std::uint64_t>{});
  each_type(std::type_identity<float>{});
  each_type(std::type_identity<double>{});
  for (layout l : all_layouts)
    for (std::int64_t total : {std::int64_t{17}, std::int64_t{1} << 20}) {
      const auto sizes = shard_sizes(l, total, p, 3);
      const auto global = make_affine(total_of(sizes), 4);
      for (scan_kind kind : {scan_kind::inclusive, scan_kind::exclusive}) {
        SCOPED_TRACE(SCANKIT_CASE("affine " << name(l) << " " << total));
        check_scan(c, compose{}, kind, affine{3, 7}, global, sizes);
      }
    }
}

// ---- compaction ------------------------------------------------------------------------------------

template <class T>
void select_cases_for(nccl_communicator& c) {
  const int p = c.size();
  for (layout l : all_layouts) {
    const auto sizes = shard_sizes(l, 70001, p, 5);
    const auto global = make_values<T>(total_of(sizes), 6);
    const auto pred = greater_than<T>{from_small<T>(std::is_signed_v<T> ? 2 : 10)};
    for (bool keep : {true, false}) {
      SCOPED_TRACE(SCANKIT_CASE(typeid(T).name() << " " << name(l) << (keep ? " select_if" : " remove_if")));
      std::vector<T> expect;
      for (const T& x : global)
        if (pred(x) == keep) expect.push_back(x);
      local_shards<T> s(c, global, sizes);
      const auto r = keep ? select_if<T>(c, s.in_view, s.out_view, pred) : remove_if<T>(c, s.in_view, s.out_view, pred);
      c.synchronize();
      for (std::size_t i = 0; i < r.size(); ++i) {
        ASSERT_EQ(r[i].global_count, static_cast<std::int64_t>(expect.size()));
        const auto got = s.out[i].host(r[i].count);
        for (std::int64_t j = 0; j < r[i].count; ++j)
          ASSERT_TRUE(same_bits(got[static_cast<std::size_t>(j)], expect[static_cast<std::size_t>(r[i].offset + j)]));
      }
    }
  }
}

void compaction_cases(nccl_communicator& c) {
  select_cases_for<std::int32_t>(c);
  select_cases_for<std::uint64_t>(c);
  select_cases_for<float>(c);
  select_cases_for<double>(c);
  const int p = c.size();
  for (layout l : all_layouts) {
    for (rejected_order order : {rejected_order::reversed, rejected_order::original}) {
      SCOPED_TRACE(SCANKIT_CASE("partition " << name(l)));
      const auto sizes = shard_sizes(l, 50001, p, 7);
      const auto global = make_values<std::int32_t>(total_of(sizes), 8);
      const auto pred = less_than<std::int32_t>{0};
      std::vector<std::int32_t> sel, rej;
      for (auto x : global) (pred(x) ? sel : rej).push_back(x);
      local_shards<std::int32_t> s(c, global, sizes);
      const auto r = partition<std::int32_t>(c, s.in_view, s.out_view, pred, order);
      c.synchronize();
      for (std::size_t i = 0; i < r.size(); ++i) {
        ASSERT_EQ(r[i].global_selected, static_cast<std::int64_t>(sel.size()));
        const auto got = s.out[i].host();
        for (std::int64_t j = 0; j < r[i].selected; ++j)
          ASSERT_EQ(got[static_cast<std::size_t>(j)], sel[static_cast<std::size_t>(r[i].selected_offset + j)]);
        const auto rejected = static_cast<std::int64_t>(got.size()) - r[i].selected;
        for (std::int64_t j = 0; j < rejected; ++j) {
          const auto at = order == rejected_order::original ? r[i].selected + j : static_cast<std::int64_t>(got.size()) - 1 - j;
          ASSERT_EQ(got[static_cast<std::size_t>(at)], rej[static_cast<std::size_t>(r[i].rejected_offset + j)]);
        }
      }
    }
    for (distribution d : {distribution::runs, distribution::all_equal, distribution::few, distribution::uniform}) {
      SCOPED_TRACE(SCANKIT_CASE("unique " << name(d) << " " << name(l)));
      const auto sizes = shard_sizes(l, 60007, p, 9);
      const auto global = make_keys<std::int64_t>(d, total_of(sizes), 10);
      std::vector<std::int64_t> expect(global.size());
      expect.resize(static_cast<std::size_t>(cpu::unique(global.data(), expect.data(), static_cast<std::int64_t>(global.size()))));
      local_shards<std::int64_t> s(c, global, sizes);
      const auto r = unique<std::int64_t>(c, s.in_view, s.out_view);
      c.synchronize();
      for (std::size_t i = 0; i < r.size(); ++i) {
        ASSERT_EQ(r[i].global_count, static_cast<std::int64_t>(expect.size()));
        const auto got = s.out[i].host(r[i].count);
        for (std::int64_t j = 0; j < r[i].count; ++j)
          ASSERT_EQ(got[static_cast<std::size_t>(j)], expect[static_cast<std::size_t>(r[i].offset + j)]);
      }
    }
    {
      SCOPED_TRACE(SCANKIT_CASE("rebalance " << name(l)));
      const auto sizes = shard_sizes(l, 40009, p, 11);
      const auto global = make_values<std::uint32_t>(total_of(sizes), 12);
      const auto n = total_of(sizes);
      local_shards<std::uint32_t> s(c, global, sizes, n / p + 1);
      const auto got_sizes = rebalance<std::uint32_t>(c, s.in_view, s.out_view);
      c.synchronize();
      for (std::size_t i = 0; i < got_sizes.size(); ++i) {
        const int r = c.local(static_cast<int>(i)).rank;
        ASSERT_EQ(got_sizes[i], balanced_size(n, r, p));
        const auto got = s.out[i].host(got_sizes[i]);
        const auto off = balanced_offset(n, r, p);
        for (std::size_t j = 0; j < got.size(); ++j) ASSERT_EQ(got[j], global[static_cast<std::size_t>(off) + j]);
      }
    }
  }
}

// ---- histograms ------------------------------------------------------------------------------------

template <class C, class Run>
void check_counts(nccl_communicator& c, const std::vector<C>& expect, const histogram_config& cfg, Run run) {
  std::vector<device_array<C>> counts;
  std::vector<device_shard<C>> views;
  for (int i = 0; i < c.local_count(); ++i) {
    counts.emplace_back(c.local(i), std::vector<C>(expect.size(), C{7}));
    views.push_back({counts.back().get(), static_cast<std::int64_t>(expect.size())});
  }
  run(std::span<const device_shard<C>>(views));
  c.synchronize();
  for (int i = 0; i < c.local_count(); ++i) {
    const bool receives = cfg.root < 0 || cfg.root == c.local(i).rank;
    const auto got = counts[static_cast<std::size_t>(i)].host();
    for (std::size_t b = 0; b < got.size(); ++b)
      ASSERT_EQ(got[b], receives ? static_cast<C>(expect[b] + (cfg.accumulate ? 7 : 0)) : C{7}) << "bin " << b;
  }
}

void histogram_cases(nccl_communicator& c) {
  const int p = c.size();
  const std::vector<histogram_config> cfgs = {{-1, false}, {-1, true}, {0, false}, {p - 1, true}};
  for (layout l : all_layouts)
    for (const auto& cfg : cfgs) {
      SCOPED_TRACE(SCANKIT_CASE(name(l) << " root " << cfg.root << (cfg.accumulate ? " accumulate" : "")));
      const auto sizes = shard_sizes(l, 300007, p, 13);
      const auto n = total_of(sizes);
      {
        const auto global = make_keys<std::uint8_t>(distribution::uniform, n, 14);
        std::vector<std::uint32_t> expect(256);
        cpu::histogram_even_serial(global.data(), n, expect.data(), 256, 0, 256);
        local_shards<std::uint8_t> s(c, global, sizes);
        check_counts(c, expect, cfg, [&](std::span<const device_shard<std::uint32_t>> counts) {
          histogram_even<std::uint8_t, std::uint32_t>(c, s.in_view, counts, 0, 256, cfg);
        });
      }
      {
        const auto global = make_keys<float>(distribution::uniform, n, 15);
        std::vector<std::uint64_t> expect(100);
        cpu::histogram_even_serial(global.data(), n, expect.data(), 100, -1e6f, 1e6f);
        local_shards<float> s(c, global, sizes);
        check_counts(c, expect, cfg, [&](std::span<const device_shard<std::uint64_t>> counts) {
          histogram_even<float, std::uint64_t>(c, s.in_view, counts, -1e6f, 1e6f, cfg);
        });
      }
      {
        const auto global = make_keys<double>(distribution::uniform, n, 16);
        const std::vector<double> edges = {-1e6, -1e4, -10, 0, 1, 1e3, 5e5, 1e6};
        std::vector<std::uint64_t> expect(7);
        cpu::histogram_range_serial(global.data(), n, expect.data(), edges.data(), 8);
        local_shards<double> s(c, global, sizes);
        std::vector<device_array<double>> d_edges;
        std::vector<const double*> edge_ptrs;
        for (int i = 0; i < c.local_count(); ++i) {
          d_edges.emplace_back(c.local(i), edges);
          edge_ptrs.push_back(d_edges.back().get());
        }
        check_counts(c, expect, cfg, [&](std::span<const device_shard<std::uint64_t>> counts) {
          histogram_range<double, std::uint64_t>(c, s.in_view, counts, edge_ptrs, cfg);
        });
      }
      {
        const auto global = make_keys<std::uint16_t>(distribution::zipf, n, 17);
        std::vector<std::uint32_t> expect(300);
        cpu::bincount_serial(global.data(), n, expect.data(), 300);
        local_shards<std::uint16_t> s(c, global, sizes);
        check_counts(c, expect, cfg, [&](std::span<const device_shard<std::uint32_t>> counts) {
          bincount<std::uint16_t, std::uint32_t>(c, s.in_view, counts, cfg);
        });
      }
    }
}

// ---- sort ------------------------------------------------------------------------------------------

template <class K>
void check_sort(nccl_communicator& c, distribution d, layout l, std::int64_t total, const sort_options& opts,
                const sort_config& cfg, bool pairs) {
  SCOPED_TRACE(SCANKIT_CASE(typeid(K).name() << " " << name(d) << " " << name(l) << " n " << total
                            << (opts.descending ? " descending" : "") << (pairs ? " pairs" : "") << " samples "
                            << cfg.samples_per_rank << " bits [" << opts.begin_bit << ", " << opts.end_bit << ")"
                            << (cfg.split == sort_config::split_kind::radix     ? " radix"
                                : cfg.split == sort_config::split_kind::automatic ? " automatic"
                                : cfg.merge_received                              ? " samples, merge"
                                                                                  : " samples, local sort")));
  const int p = c.size();
  const auto sizes = shard_sizes(l, total, p, 18);
  const auto n = total_of(sizes);
  auto global = make_keys<K>(d, n, 19);
  std::vector<std::int64_t> index(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) index[static_cast<std::size_t>(i)] = i;
  const std::int64_t room = n / p + 1;
  local_shards<K> k(c, global, sizes, room);
  local_shards<std::int64_t> v(c, index, sizes, room);
  cpu::sort_pairs_serial(global.data(), index.data(), n, opts);
  const auto got_sizes = pairs ? sort_pairs<K, std::int64_t>(c, k.in_view, k.out_view, v.in_view, v.out_view, opts, cfg)
                               : sort_keys<K>(c, k.in_view, k.out_view, opts, cfg);
  c.synchronize();
  for (std::size_t i = 0; i < got_sizes.size(); ++i) {
    const int r = c.local(static_cast<int>(i)).rank;
    ASSERT_EQ(got_sizes[i], balanced_size(n, r, p));
    const auto off = balanced_offset(n, r, p);
    const auto keys = k.out[i].host(got_sizes[i]);
    const auto values = v.out[i].host(got_sizes[i]);
    for (std::size_t j = 0; j < keys.size(); ++j) {
      ASSERT_TRUE(same_bits(keys[j], global[static_cast<std::size_t>(off) + j])) << "key " << j;
      if (pairs) {
        ASSERT_EQ(values[j], index[static_cast<std::size_t>(off) + j]) << "value " << j;
      }
    }
  }
}

// Each path the sorts can take: the radix sort (forced, so skewed keys take it too), the
// sample sort with the merge and with a local sort of the received pieces.
inline std::vector<sort_config> sort_paths(std::int64_t samples = 0) {
  return {{.samples_per_rank = samples, .split = sort_config::split_kind::radix},
          {.samples_per_rank = samples, .merge_received = true, .split = sort_config::split_kind::samples},
          {.samples_per_rank = samples, .merge_received = false, .split = sort_config::split_kind::samples}};
}

void sort_cases(nccl_communicator& c) {
  auto each = [&](auto tag) {
    using K = typename decltype(tag)::type;
    for (distribution d : all_distributions)
      for (bool descending : {false, true})
        for (const sort_config& path : sort_paths())
          check_sort<K>(c, d, descending ? layout::uneven : layout::equal, 30011, {.descending = descending}, path, false);
  };
  each(std::type_identity<std::uint8_t>{});
  each(std::type_identity<std::uint16_t>{});
  each(std::type_identity<std::uint32_t>{});
  each(std::type_identity<std::uint64_t>{});
  each(std::type_identity<std::int8_t>{});
  each(std::type_identity<std::int16_t>{});
  each(std::type_identity<std::int32_t>{});
  each(std::type_identity<std::int64_t>{});
  each(std::type_identity<float>{});
  each(std::type_identity<double>{});
  for (layout l : all_layouts)
    for (distribution d : {distribution::uniform, distribution::all_equal, distribution::zipf, distribution::sorted})
      for (const sort_config& path : sort_paths()) {
        check_sort<std::int32_t>(c, d, l, 50021, {}, path, true);
        check_sort<double>(c, d, l, 50021, {.descending = true}, path, true);
        check_sort<float>(c, d, l, 50021, {}, path, true);
      }
  // Bit ranges: keys that differ only outside the range are equal, and pairs show that they
  // keep their order (floats: the top ordered bits, -0 and +0 apart, NaNs at the ends).
  // (The radix sort does not take bit ranges: forced, it leaves them to the sample sort.)
  for (bool merge : {true, false}) {
    const sort_config path{.merge_received = merge, .split = sort_config::split_kind::radix};
    check_sort<std::uint32_t>(c, distribution::uniform, layout::uneven, 40009, {.begin_bit = 4, .end_bit = 12}, path, true);
    check_sort<std::int64_t>(c, distribution::uniform, layout::equal, 40009, {.descending = true, .begin_bit = 0, .end_bit = 20},
                             {.samples_per_rank = 16, .merge_received = merge}, true);
    check_sort<float>(c, distribution::uniform, layout::uneven, 40009, {.begin_bit = 20, .end_bit = 32}, path, true);
    check_sort<double>(c, distribution::uniform, layout::first_empty, 40009, {.descending = true, .begin_bit = 40}, path,
                       true);
    check_sort<std::int8_t>(c, distribution::zipf, layout::equal, 40009, {.begin_bit = 2, .end_bit = 5}, path, false);
  }
  // Larger sizes, with the automatic choice (radix for uniform keys, samples for skewed ones) and
  // every path forced.
  for (distribution d : {distribution::uniform, distribution::zipf, distribution::all_equal, distribution::reversed})
    for (std::int64_t samples : {std::int64_t{0}, std::int64_t{8}}) {
      check_sort<std::uint32_t>(c, d, layout::uneven, 1 << 21, {}, {.samples_per_rank = samples}, false);
      check_sort<std::uint64_t>(c, d, layout::first_empty, 1 << 20, {.descending = true}, {.samples_per_rank = samples}, true);
    }
  // The radix sort's exchange in 1 part (no overlap), and in more parts than a rank has digits.
  for (int parts : {1, 3, 300}) {
    const sort_config path{.split = sort_config::split_kind::radix, .exchange_parts = parts};
    check_sort<std::uint32_t>(c, distribution::uniform, layout::uneven, 1 << 20, {}, path, false);
    check_sort<std::int32_t>(c, distribution::zipf, layout::first_empty, 50021, {.descending = true}, path, true);
    check_sort<double>(c, distribution::sorted, layout::equal, 1 << 20, {}, path, true);
  }
  for (const sort_config& path : sort_paths()) {
    check_sort<float>(c, distribution::uniform, layout::uneven, 1 << 21, {.descending = true}, path, true);
    check_sort<std::uint16_t>(c, distribution::uniform, layout::equal, 1 << 20, {}, path, true);
    check_sort<std::int64_t>(c, distribution::zipf, layout::uneven, 1 << 20, {}, path, false);
  }
}

}  // namespace scankit::dist::test
