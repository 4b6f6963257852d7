// A group-by with scankit: the sum, the count and the max of the values of every key of a
// table of (key, value) rows, as
//
//   SELECT key, SUM(value), COUNT(*), MAX(value) FROM rows GROUP BY key ORDER BY key
//
// Sorting the rows by key puts each group's rows next to each other; reduce_by_key then folds
// every run of equal keys into one row. The count is a reduce_by_key over a column of ones.
// On the GPU when there is one (scankit::cuda, host containers: each call copies in and out),
// else on the CPU backend (scankit::cpu). The result is checked against a std::map.
//
//   groupby [ROWS] [GROUPS]     (default 1000000 rows over 1000 keys)
//
// Exit status: 0 the groups match the std::map, 1 they do not.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "scankit/ops.hpp"
#include "scankit/segments.hpp"

#include "scankit/cpu/segments.hpp"
#include "scankit/cpu/sort.hpp"
#ifdef SCANKIT_HAS_CUDA
#include "scankit/cuda/segments.hpp"
#include "scankit/cuda/sort.hpp"
#endif

namespace {

/// The result of the group-by: one entry per distinct key, in key order.
struct groups {
  std::vector<std::int32_t> keys;
  std::vector<float> sums, maxima;
  std::vector<std::int64_t> counts;
};

#ifdef SCANKIT_HAS_CUDA
/// On the GPU, with the host-container API (each call copies its inputs to the device and its
/// results back). The keys and values are sorted in place.
groups group_by_gpu(std::vector<std::int32_t>& keys, std::vector<float>& values) {
  namespace sk = scankit::cuda;
  sk::sort_pairs(std::span<std::int32_t>(keys), std::span<float>(values));
  const std::span<const std::int32_t> k(keys);
  groups g;
  auto [unique, sums] = sk::reduce_by_key(k, std::span<const float>(values), scankit::sum<float>{});
  const std::vector<std::int64_t> ones(keys.size(), 1);
  auto [unique2, counts] = sk::reduce_by_key(k, std::span<const std::int64_t>(ones), scankit::sum<std::int64_t>{});
  auto [unique3, maxima] = sk::reduce_by_key(k, std::span<const float>(values), scankit::max<float>{});
  g.keys = std::move(unique), g.sums = std::move(sums), g.counts = std::move(counts), g.maxima = std::move(maxima);
  return g;
}
#endif

/// On the CPU: the parallel radix sort of the pairs, then reduce_by_key over host pointers.
/// The outputs hold n entries, the most groups there can be; reduce_by_key returns how many
/// there are.
groups group_by_cpu(std::vector<std::int32_t>& keys, std::vector<float>& values) {
  namespace sk = scankit::cpu;
  const auto n = static_cast<std::int64_t>(keys.size());
  sk::sort_pairs_parallel(keys.data(), values.data(), n);
  groups g;
  g.keys.resize(keys.size());
  g.sums.resize(keys.size());
  g.maxima.resize(keys.size());
  g.counts.resize(keys.size());
  std::vector<std::int32_t> scratch_keys(keys.size());
  const std::vector<std::int64_t> ones(keys.size(), 1);
  const std::int64_t runs =
      sk::reduce_by_key(keys.data(), values.data(), n, scankit::sum<float>{}, g.keys.data(), g.sums.data());
  const std::int64_t runs_count = sk::reduce_by_key(keys.data(), ones.data(), n, scankit::sum<std::int64_t>{},
                                                    scratch_keys.data(), g.counts.data());
  const std::int64_t runs_max =
      sk::reduce_by_key(keys.data(), values.data(), n, scankit::max<float>{}, scratch_keys.data(), g.maxima.data());
  if (runs_count != runs || runs_max != runs) {
    std::fprintf(stderr, "groupby: %lld, %lld and %lld groups from the three reductions\n",
                 static_cast<long long>(runs), static_cast<long long>(runs_count), static_cast<long long>(runs_max));
    std::exit(1);
  }
  for (auto* v : {&g.sums, &g.maxima}) v->resize(static_cast<std::size_t>(runs));
  g.keys.resize(static_cast<std::size_t>(runs));
  g.counts.resize(static_cast<std::size_t>(runs));
  return g;
}

/// The same group-by with a std::map (double sums, and the sum of |value| for the tolerance).
struct reference_group {
  double sum = 0, abs_sum = 0;
  std::int64_t count = 0;
  float max = -std::numeric_limits<float>::infinity();
};

/// "" when `g` is the group-by of the rows, else the first difference. Counts and maxima are
/// exact; a float sum may differ from the double one by rounding: within 8 * eps(float) *
/// (sum of |value|) * log2(count + 2), as scankit's order of additions differs from the map's.
std::string check(const groups& g, const std::vector<std::int32_t>& keys, const std::vector<float>& values) {
  std::map<std::int32_t, reference_group> ref;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    auto& r = ref[keys[i]];
    r.sum += values[i];
    r.abs_sum += std::abs(static_cast<double>(values[i]));
    r.count += 1;
    r.max = std::max(r.max, values[i]);
  }
  if (g.keys.size() != ref.size())
    return std::to_string(g.keys.size()) + " groups instead of " + std::to_string(ref.size());
  std::size_t i = 0;
  for (const auto& [key, r] : ref) {
    const std::string where = "group " + std::to_string(i) + " (key " + std::to_string(key) + "): ";
    if (g.keys[i] != key) return where + "key " + std::to_string(g.keys[i]);
    if (g.counts[i] != r.count) return where + "count " + std::to_string(g.counts[i]) + " instead of " + std::to_string(r.count);
    if (g.maxima[i] != r.max) return where + "max " + std::to_string(g.maxima[i]) + " instead of " + std::to_string(r.max);
    const double tol = 8 * std::numeric_limits<float>::epsilon() * r.abs_sum * std::log2(static_cast<double>(r.count) + 2);
    if (std::abs(g.sums[i] - r.sum) > tol)
      return where + "sum " + std::to_string(g.sums[i]) + " instead of " + std::to_string(r.sum);
    ++i;
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  const long long rows = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
  const long long distinct = argc > 2 ? std::atoll(argv[2]) : 1000;
  if (rows < 0 || distinct < 1) {
    std::fprintf(stderr, "usage: groupby [ROWS >= 0] [GROUPS >= 1]\n");
    return 2;
  }

  // The table: random keys in [-GROUPS/2, GROUPS/2) (signed keys sort in numeric order) and
  // random values in [0, 100).
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<std::int64_t> key_dist(-distinct / 2, distinct - distinct / 2 - 1);
  std::uniform_real_distribution<float> value_dist(0.0f, 100.0f);
  std::vector<std::int32_t> keys(static_cast<std::size_t>(rows));
  std::vector<float> values(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    keys[i] = static_cast<std::int32_t>(key_dist(rng));
    values[i] = value_dist(rng);
  }
  const std::vector<std::int32_t> original_keys = keys;
  const std::vector<float> original_values = values;

  groups g;
  const char* backend = nullptr;
#ifdef SCANKIT_HAS_CUDA
  if (scankit::cuda::device_count() > 0) {
    g = group_by_gpu(keys, values);
    backend = "GPU (scankit::cuda)";
  }
#endif
  if (!backend) {
    g = group_by_cpu(keys, values);
    backend = "CPU (scankit::cpu)";
  }

  std::printf("group-by of %lld rows on the %s: %zu groups\n\n", rows, backend, g.keys.size());
  std::printf("%8s %14s %8s %10s\n", "key", "sum", "count", "max");
  for (std::size_t i = 0; i < std::min<std::size_t>(g.keys.size(), 10); ++i)
    std::printf("%8d %14.3f %8lld %10.4f\n", g.keys[i], static_cast<double>(g.sums[i]),
                static_cast<long long>(g.counts[i]), static_cast<double>(g.maxima[i]));
  if (g.keys.size() > 10) std::printf("%8s\n", "...");

  if (const std::string e = check(g, original_keys, original_values); !e.empty()) {
    std::printf("\nMISMATCH with the std::map group-by: %s\n", e.c_str());
    return 1;
  }
  std::printf("\nmatches the std::map group-by\n");
  return 0;
}
