// CPU sorts: a serial reference (std::stable_sort on the ordered bits) and the library's
// parallel radix sort on oneTBB (LSD; MSD-first for large inputs). Key order, stability and
// bit ranges: see sort_traits.hpp.
//
//   keys, values  n items each, sorted in place (values: nullptr for a keys-only sort);
//                 any trivially copyable value type.
//   opts          descending, bit range.
// Bad arguments (negative n, a null pointer with n > 0, a bad bit range) throw
// scankit::invalid_argument before anything is written.
//
// sort_parallel: a radix sort with 8-bit digits over a second buffer of the same size. A
// first read (the survey) finds the digits that vary in some key; only their passes run. Below
// hybrid_params::min_bytes of keys and values, chunked LSD passes over the whole array; from
// there, when at least two digits vary, an MSD-first hybrid: one pass by the top digit into 256
// buckets, then every bucket sorted on its own by one thread in the cache (radix passes, or
// Highway's vqsort for keys alone where the build has Highway). Stable either way.
//   choice  detail/sort/plan.hpp (plan_sort, and per bucket plan_bucket)
//   tuning  detail/sort/tuning.hpp (hybrid_params and the constants)
//   code    detail/sort/: survey, passes (one chunked pass) and line_writer, lsd, msd_hybrid,
//           buckets, vqsort; radix_sort.hpp drives them.
// Out of place (sort_keys_parallel(in, out, n)), the input is only read, and large inputs need
// no scratch buffer of n items.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "scankit/cpu/detail/sort/args.hpp"
#include "scankit/cpu/detail/sort/memory.hpp"
#include "scankit/cpu/detail/sort/tuning.hpp"
#include "scankit/cpu/scan.hpp"
#include "scankit/error.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::cpu {

/// Host memory that parallel sorts keep from one call to the next: the scratch copy of the
/// keys (and values) and every worker's bucket buffers, grown when a call needs more and
/// otherwise reused: a sort that allocates its own touches fresh scratch memory as large as
/// its input, and pays for its page faults. The sorts that take one are otherwise the same.
/// One workspace serves one sort at a time.
class sort_workspace {
 public:
  /// The bytes held now.
  std::size_t bytes() const noexcept {
    std::size_t b = scratch_.bytes;
    for (const auto& l : leaves_) b += l.bytes;
    return b;
  }
  /// Frees everything held (the next sort grows it again).
  void release() noexcept {
    scratch_ = {};
    leaves_.clear();
  }

  // Used by the sorts: a block of at least `bytes`, on a 64-byte boundary, valid until the
  // next call asks for more.
  std::byte* scratch(std::size_t bytes) { return scratch_.at_least(bytes); }
  /// Makes room for `slots` workers' bucket buffers. Called before the workers start: leaf()
  /// then touches only its own slot, so the workers may call it concurrently.
  void prepare_leaves(std::size_t slots) {
    if (slots > leaves_.size()) leaves_.resize(slots);
  }
  /// Worker `slot`'s bucket buffers (slot < the count given to prepare_leaves), as for scratch().
  std::byte* leaf(std::size_t slot, std::size_t bytes) { return leaves_[slot].at_least(bytes); }

 private:
  detail::growing_block scratch_;
  std::vector<detail::growing_block> leaves_;
};

}  // namespace scankit::cpu

// The sorter keeps a pointer to the caller's sort_workspace.
#include "scankit/cpu/detail/sort/radix_sort.hpp"

namespace scankit::cpu {

/// Serial reference: std::stable_sort of the keys by their ordered bits.
template <class K>
void sort_keys_serial(K* keys, std::int64_t n, const sort_options& opts = {}) {
  constexpr const char* where = "scankit::cpu::sort_keys_serial";
  detail::check_sort_args<K, int>(keys, nullptr, false, n, where);
  const auto [b, e] = scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, where);
  std::stable_sort(keys, keys + n, [&, b = b, e = e](K x, K y) {
    return scankit::detail::sort_rank_bits(x, b, e, opts.descending) <
           scankit::detail::sort_rank_bits(y, b, e, opts.descending);
  });
}

/// Serial reference for pairs: a stable sort of the indices, then the permutation applied.
template <class K, class V>
void sort_pairs_serial(K* keys, V* values, std::int64_t n, const sort_options& opts = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "sort values must be trivially copyable");
  constexpr const char* where = "scankit::cpu::sort_pairs_serial";
  detail::check_sort_args(keys, values, true, n, where);
  const auto [b, e] = scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, where);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
  std::iota(idx.begin(), idx.end(), std::int64_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&, b = b, e = e](std::int64_t x, std::int64_t y) {
    return scankit::detail::sort_rank_bits(keys[x], b, e, opts.descending) <
           scankit::detail::sort_rank_bits(keys[y], b, e, opts.descending);
  });
  std::vector<K> k2(static_cast<std::size_t>(n));
  detail::raw_buffer<V> v2(n);
  for (std::int64_t i = 0; i < n; ++i) {
    k2[static_cast<std::size_t>(i)] = keys[idx[static_cast<std::size_t>(i)]];
    std::memcpy(v2.get() + i, values + idx[static_cast<std::size_t>(i)], sizeof(V));
  }
  std::copy(k2.begin(), k2.end(), keys);
  if (n > 0) std::memcpy(values, v2.get(), static_cast<std::size_t>(n) * sizeof(V));
}

/// Parallel radix sort of keys (see the notes at the top).
template <class K>
void sort_keys_parallel(K* keys, std::int64_t n, const sort_options& opts = {}) {
  detail::checked_radix_sort<K, int>(keys, nullptr, false, n, opts, "scankit::cpu::sort_keys_parallel", nullptr);
}

/// Parallel radix sort of key-value pairs: values move with their keys; stable.
template <class K, class V>
void sort_pairs_parallel(K* keys, V* values, std::int64_t n, const sort_options& opts = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "sort values must be trivially copyable");
  detail::checked_radix_sort(keys, values, true, n, opts, "scankit::cpu::sort_pairs_parallel", nullptr);
}

/// sort_keys_parallel with its scratch memory taken from (and kept in) `ws`.
template <class K>
void sort_keys_parallel(K* keys, std::int64_t n, sort_workspace& ws, const sort_options& opts = {}) {
  detail::checked_radix_sort<K, int>(keys, nullptr, false, n, opts, "scankit::cpu::sort_keys_parallel", &ws);
}

/// sort_pairs_parallel with its scratch memory taken from (and kept in) `ws`.
template <class K, class V>
void sort_pairs_parallel(K* keys, V* values, std::int64_t n, sort_workspace& ws, const sort_options& opts = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "sort values must be trivially copyable");
  detail::checked_radix_sort(keys, values, true, n, opts, "scankit::cpu::sort_pairs_parallel", &ws);
}

/// Out of place: the n keys of `in` sorted into `out` (in is only read; out == in sorts in
/// place; any other overlap throws). Faster than a copy and an in-place sort: large inputs
/// need no scratch buffer and one pass less (see radix_sort).
template <class K>
void sort_keys_parallel(const K* in, K* out, std::int64_t n, const sort_options& opts = {}) {
  constexpr const char* where = "scankit::cpu::sort_keys_parallel";
  detail::check_sort_copy_args<K, int>(in, nullptr, out, nullptr, false, n, where);
  detail::radix_sort<K, int>(in, nullptr, out, nullptr, n, opts, where);
}

/// sort_keys_parallel out of place, with scratch memory from `ws` when it needs any.
template <class K>
void sort_keys_parallel(const K* in, K* out, std::int64_t n, sort_workspace& ws, const sort_options& opts = {}) {
  constexpr const char* where = "scankit::cpu::sort_keys_parallel";
  detail::check_sort_copy_args<K, int>(in, nullptr, out, nullptr, false, n, where);
  detail::radix_sort<K, int>(in, nullptr, out, nullptr, n, opts, where, &ws);
}

/// Out of place: the pairs (in_keys, in_values) sorted into (keys, values), as
/// sort_keys_parallel(in, out, n): both inputs in place or both not.
template <class K, class V>
void sort_pairs_parallel(const K* in_keys, const V* in_values, K* keys, V* values, std::int64_t n,
                         const sort_options& opts = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "sort values must be trivially copyable");
  constexpr const char* where = "scankit::cpu::sort_pairs_parallel";
  detail::check_sort_copy_args(in_keys, in_values, keys, values, true, n, where);
  detail::radix_sort(in_keys, in_values, keys, values, n, opts, where);
}

/// The permutation that sorts `keys` (stably): keys[result[0]] is the smallest key.
template <class K>
std::vector<std::int64_t> argsort_parallel(const K* keys, std::int64_t n, const sort_options& opts = {}) {
  constexpr const char* where = "scankit::cpu::argsort_parallel";
  detail::check_sort_args<K, int>(keys, nullptr, false, n, where);
  std::vector<K> k(keys, keys + n);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
  std::iota(idx.begin(), idx.end(), std::int64_t{0});
  detail::radix_sort(k.data(), idx.data(), n, opts, where);
  return idx;
}

}  // namespace scankit::cpu
