// Part of scankit/cpu/sort.hpp (after sort_workspace): the radix sort's driver, from the bit
// range to the survey, the plan and the sorter, with its scratch memory from a workspace or
// its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "scankit/cpu/detail/sort/args.hpp"
#include "scankit/cpu/detail/sort/lsd.hpp"
#include "scankit/cpu/detail/sort/memory.hpp"
#include "scankit/cpu/detail/sort/msd_hybrid.hpp"
#include "scankit/cpu/detail/sort/survey.hpp"
#include "scankit/cpu/detail/sort/sorter.hpp"
#include "scankit/cpu/scan.hpp"  // parallel_copy
#include "scankit/sort_traits.hpp"

namespace scankit::cpu::detail {

/// Copies n keys (and values, when `values`) from `in_keys`/`in_values` to `keys`/`values`
/// unless they are the same arrays.
template <class K, class V>
void copy_unsorted(const K* in_keys, const V* in_values, K* keys, V* values, std::int64_t n) {
  if (n <= 0) return;
  if (in_keys != keys) parallel_copy(keys, in_keys, n * static_cast<std::int64_t>(sizeof(K)));
  if (values != nullptr && in_values != values)
    parallel_copy(values, in_values, n * static_cast<std::int64_t>(sizeof(V)));
}

/// The radix sort proper, from (in_keys, in_values) into (keys, values); values may be nullptr
/// (keys only). The input arrays are only read; they are either the output arrays themselves
/// (in place) or arrays that do not overlap them. Out of place, the hybrid needs no scratch
/// buffer: its first pass moves the items from the input into their buckets in the output,
/// and the buckets are sorted there (three reads and two writes of the items in all, against
/// a copy and four reads and three writes in place).
template <class K, class V>
void radix_sort(const K* in_keys, const V* in_values, K* keys, V* values, std::int64_t n, const sort_options& opts,
                const char* where, sort_workspace* ws = nullptr, bool write_combining = true,
                const hybrid_params& hp = {}) {
  const auto [begin, end] = scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, where);
  if (n < 2 || begin == end) return copy_unsorted(in_keys, in_values, keys, values, n);
  using U = typename radix_traits<K>::bits_t;
  const digit_fn<K> digit{opts.descending ? static_cast<U>(~U{0}) : U{0}, begin, end};
  const int passes = (end - begin + radix_bits - 1) / radix_bits;
  const radix_sorter<K, V> sorter(digit, values != nullptr, write_combining, hp, ws);
  std::vector<int> all(static_cast<std::size_t>(passes));
  std::iota(all.begin(), all.end(), 0);
  const auto t = sorter.survey(in_keys, n, all);
  // Every compared bit the same in every key: the input is sorted.
  if (t.active.empty()) return copy_unsorted(in_keys, in_values, keys, values, n);

  using span = typename radix_sorter<K, V>::span;
  const span from{const_cast<K*>(in_keys), values ? const_cast<V*>(in_values) : nullptr};  // only read
  const span x{keys, values};
  if (in_keys != keys && sorter.uses_hybrid(n, t)) return sorter.sort(from, x, x, n, t, true);
  const std::size_t kb = line_round(static_cast<std::size_t>(n) * sizeof(K));
  const std::size_t vb = values ? static_cast<std::size_t>(n) * sizeof(V) : 0;
  raw_buffer<std::byte> own(ws != nullptr ? 0 : static_cast<std::int64_t>(kb + vb));
  std::byte* const base = ws != nullptr ? ws->scratch(kb + vb) : own.get();
  sorter.sort(from, x, {reinterpret_cast<K*>(base), values ? reinterpret_cast<V*>(base + kb) : nullptr}, n, t, true);
}

/// The radix sort in place.
template <class K, class V>
void radix_sort(K* keys, V* values, std::int64_t n, const sort_options& opts, const char* where,
                sort_workspace* ws = nullptr, bool write_combining = true, const hybrid_params& hp = {}) {
  radix_sort<K, V>(keys, values, keys, values, n, opts, where, ws, write_combining, hp);
}

/// The public parallel sorts: the arguments checked (nothing written when they are bad), then
/// radix_sort with the caller's workspace or none.
template <class K, class V>
void checked_radix_sort(K* keys, V* values, bool with_values, std::int64_t n, const sort_options& opts,
                        const char* where, sort_workspace* ws) {
  check_sort_args(keys, values, with_values, n, where);
  radix_sort(keys, values, n, opts, where, ws);
}

}  // namespace scankit::cpu::detail
