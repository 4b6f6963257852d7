// CPU sorts: a serial reference (std::stable_sort on the ordered bits) and the library's
// parallel LSD radix sort on oneTBB. Key order, stability and bit ranges: see sort_traits.hpp.
//
//   keys, values  n items each, sorted in place (values: nullptr for a keys-only sort);
//                 any trivially copyable value type.
//   opts          descending, bit range.
// Bad arguments (negative n, a null pointer with n > 0, a bad bit range) throw
// scankit::invalid_argument before anything is written.
//
// sort_parallel: design
// ---------------------
// LSD radix sort with 8-bit digits over a second buffer of the same size:
//   * One parallel read of the keys counts every digit of every key at once, per chunk
//     (chunk c = the c-th of C equal slices, one per worker). A digit whose count is n in one
//     bucket is the same in every key: that pass would not move anything and is skipped (a
//     big win for narrow keys in wide types and for the bit ranges).
//   * Each remaining pass: per-chunk histograms of the digit (the first pass reuses the counts
//     above; later passes count their source again, one read), an exclusive scan over (digit,
//     chunk) in that order gives every chunk a private, contiguous output range per digit,
//     and each chunk scatters its items in order into them: one read and one write per item
//     and pass. Reading each chunk in order and writing each (digit, chunk) range in order is
//     what makes the sort stable.
//   * Results end in the caller's array (a final parallel copy when the pass count is odd).
//   (Per-digit write-combining buffers, 64-byte lines copied out when full, were tried and
//   measured slower on the 16-core H100 host: 406 ms against 345 ms at 2^27 uint32 keys.)
// Below 2^16 items the same algorithm runs with one chunk on the calling thread.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <numeric>
#include <type_traits>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "scankit/cpu/scan.hpp"  // fenced_region
#include "scankit/error.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::cpu {

namespace detail {

/// Uninitialised storage for n trivially copyable T (values need not be default constructible).
template <class T>
struct raw_buffer {
  struct free_fn {
    void operator()(T* p) const noexcept { ::operator delete(p, std::align_val_t(alignof(T))); }
  };
  std::unique_ptr<T, free_fn> p;
  explicit raw_buffer(std::int64_t n)
      : p(n > 0 ? static_cast<T*>(::operator new(static_cast<std::size_t>(n) * sizeof(T),
                                                 std::align_val_t(alignof(T))))
                : nullptr) {}
  T* get() const { return p.get(); }
};

inline constexpr int radix_bits = 8;
inline constexpr int radix = 1 << radix_bits;

/// The digit of pass p of a key: bits [begin + 8p, min(begin + 8p + 8, end)) of the ordered
/// (and, descending, complemented) bits.
template <class K>
struct digit_fn {
  using U = typename radix_traits<K>::bits_t;
  U flip;  // all ones for descending
  int begin, end;
  unsigned operator()(K k, int pass) const {
    U b;
    std::memcpy(&b, &k, sizeof(K));
    const U o = static_cast<U>(radix_traits<K>::map::to(b) ^ flip);
    const int shift = begin + pass * radix_bits;
    const int width = std::min(radix_bits, end - shift);
    return static_cast<unsigned>(o >> shift) & ((1u << width) - 1u);
  }
};

template <class K, class V>
void check_sort_args(const K* keys, const V* values, bool with_values, std::int64_t n,
                     const char* where) {
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(keys, n, "keys", where);
  if (with_values) scankit::detail::check_pointer(values, n, "values", where);
}

/// Whether passes count their digits during the previous scatter (SCANKIT_CPU_SORT_FUSED_COUNTS=1).
/// Off by default: on a 2-core VM it measured 20% slower (2^23 uint32: ~118 against ~98 ms), the
/// extra digit and count per item costing more than the saved read; it is meant for many-core
/// hosts where the sort is memory-bound, and waits for a measurement there.
inline bool fused_counts_enabled() {
  static const bool on = [] {
    const char* e = std::getenv("SCANKIT_CPU_SORT_FUSED_COUNTS");
    return e != nullptr && e[0] == '1' && e[1] == '\0';
  }();
  return on;
}

/// The radix sort proper; values may be nullptr (keys only).
template <class K, class V>
void radix_sort(K* keys, V* values, std::int64_t n, const sort_options& opts, const char* where,
                bool fused_counts = fused_counts_enabled()) {
  const auto [begin, end] = scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, where);
  if (n < 2 || begin == end) return;
  using U = typename radix_traits<K>::bits_t;
  const digit_fn<K> digit{opts.descending ? static_cast<U>(~U{0}) : U{0}, begin, end};
  const int passes = (end - begin + radix_bits - 1) / radix_bits;

  const int workers = n < (std::int64_t{1} << 16) ? 1 : std::max(1, tbb::this_task_arena::max_concurrency());
  const std::int64_t chunks = std::min<std::int64_t>(workers, n);
  // Chunk c of a pass is [bounds[c], bounds[c + 1]); even slices unless the previous pass
  // aligned them to its digit runs (below).
  std::vector<std::int64_t> bounds(static_cast<std::size_t>(chunks + 1));
  auto even_bounds = [&] {
    for (std::int64_t c = 0; c <= chunks; ++c) bounds[static_cast<std::size_t>(c)] = n * c / chunks;
  };
  even_bounds();
  auto for_chunks = [&](auto&& f) {
    if (chunks == 1) {
      f(std::int64_t{0});
      return;
    }
    // Through scan.hpp's fenced_region: the hand-off of the chunk bodies to TBB's workers is
    // restated with release/acquire operations that a race detector can see.
    auto body = [&f](const tbb::blocked_range<std::int64_t>& r) {
      for (std::int64_t c = r.begin(); c != r.end(); ++c) f(c);
    };
    fenced_region<decltype(body)> region(body);
    typename fenced_region<decltype(body)>::scope open(region);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, chunks, 1), region.template get_body<0>(),
                      tbb::simple_partitioner());
  };
  auto lo = [&](std::int64_t c) { return bounds[static_cast<std::size_t>(c)]; };
  auto hi = [&](std::int64_t c) { return bounds[static_cast<std::size_t>(c + 1)]; };

  // counts[c][p][d]: digit d of pass p in chunk c, all passes from one read.
  std::vector<std::int64_t> counts(static_cast<std::size_t>(chunks * passes * radix), 0);
  auto count_at = [&](std::int64_t c, int p) { return counts.data() + (c * passes + p) * radix; };
  for_chunks([&](std::int64_t c) {
    std::vector<std::int64_t> local(static_cast<std::size_t>(passes * radix), 0);
    for (std::int64_t i = lo(c), e = hi(c); i < e; ++i)
      for (int p = 0; p < passes; ++p) ++local[static_cast<std::size_t>(p * radix) + digit(keys[i], p)];
    std::copy(local.begin(), local.end(), count_at(c, 0));
  });
  std::vector<int> active;
  std::vector<std::array<std::int64_t, radix>> totals(static_cast<std::size_t>(passes));
  for (int p = 0; p < passes; ++p) {
    auto& total = totals[static_cast<std::size_t>(p)];
    total.fill(0);
    for (std::int64_t c = 0; c < chunks; ++c)
      for (int d = 0; d < radix; ++d) total[d] += count_at(c, p)[d];
    if (*std::max_element(total.begin(), total.end()) < n) active.push_back(p);
  }
  if (active.empty()) return;  // every compared bit is the same in every key

  raw_buffer<K> key_tmp(n);
  raw_buffer<V> val_tmp(values ? n : 0);
  K* src_k = keys;
  K* dst_k = key_tmp.get();
  V* src_v = values;
  V* dst_v = val_tmp.get();
  // hist[c][d]: the count of the pass's digit d in chunk c, then (scanned) its first output.
  std::vector<std::int64_t> hist(static_cast<std::size_t>(chunks * radix));
  for (std::int64_t c = 0; c < chunks; ++c) std::copy_n(count_at(c, active[0]), radix, hist.data() + c * radix);
  // Next pass's counts from the scatter (see next_chunk_of below): next_counts[worker][c'][d'].
  std::vector<std::int64_t> next_counts;
  std::array<std::int32_t, radix> next_chunk_of{};
  std::vector<std::int64_t> next_bounds(static_cast<std::size_t>(chunks + 1));
  for (std::size_t a = 0; a < active.size(); ++a) {
    const int p = active[a];
    const int q = a + 1 < active.size() ? active[a + 1] : -1;
    // Exclusive scan in (digit, chunk) order: chunk c's items of digit d go after every
    // item of a smaller digit and after the items of digit d in earlier chunks.
    std::int64_t run = 0;
    for (int d = 0; d < radix; ++d)
      for (std::int64_t c = 0; c < chunks; ++c) {
        const std::int64_t k = hist[static_cast<std::size_t>(c * radix + d)];
        hist[static_cast<std::size_t>(c * radix + d)] = run;
        run += k;
      }
    // The next pass's chunks, aligned to this pass's digit runs: the output holds digit 0's
    // items (from every chunk), then digit 1's, ..., so a chunk made of whole digits d in
    // [first, last) is one contiguous slice, and the scatter, which knows each item's digit
    // of this pass and of the next, can count the next pass's per-chunk histograms as it
    // goes. That saves the next pass a read of the whole array to count them. Where the
    // digits are too uneven to split into near-equal slices (a skewed input), the next pass
    // counts on even slices instead.
    bool fused = false;
    if (q >= 0) {
      const auto& total = totals[static_cast<std::size_t>(p)];
      const std::int64_t target = (n + chunks - 1) / chunks;
      std::int64_t c = 0, at = 0, largest = 0, slice_begin = 0;
      next_bounds[0] = 0;
      for (int d = 0; d < radix; ++d) {
        next_chunk_of[static_cast<std::size_t>(d)] = static_cast<std::int32_t>(c);
        at += total[static_cast<std::size_t>(d)];
        // Close the slice once it reaches its share of the items (the last one takes the rest).
        if (c + 1 < chunks && at >= (c + 1) * target) {
          largest = std::max(largest, at - slice_begin);
          next_bounds[static_cast<std::size_t>(++c)] = at;
          slice_begin = at;
        }
      }
      largest = std::max(largest, n - slice_begin);
      for (std::int64_t r = c + 1; r <= chunks; ++r) next_bounds[static_cast<std::size_t>(r)] = n;
      fused = fused_counts && largest <= target + target / 2 && chunks <= 64;  // (64: small tables)
      if (fused) next_counts.assign(static_cast<std::size_t>(chunks * chunks * radix), 0);
    }
    for_chunks([&](std::int64_t c) {
      std::array<std::int64_t, radix> off;
      std::copy_n(hist.data() + c * radix, radix, off.begin());
      const std::int64_t b = lo(c), e = hi(c);
      if (fused) {
        std::int64_t* next = next_counts.data() + c * chunks * radix;
        for (std::int64_t i = b; i < e; ++i) {
          const K k = src_k[i];
          const unsigned d = digit(k, p);
          const std::int64_t o = off[d]++;
          dst_k[o] = k;
          if (src_v) dst_v[o] = src_v[i];
          ++next[next_chunk_of[d] * radix + digit(k, q)];
        }
      } else if (src_v) {
        for (std::int64_t i = b; i < e; ++i) {
          const std::int64_t o = off[digit(src_k[i], p)]++;
          dst_k[o] = src_k[i];
          dst_v[o] = src_v[i];
        }
      } else {
        for (std::int64_t i = b; i < e; ++i) dst_k[off[digit(src_k[i], p)]++] = src_k[i];
      }
    });
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
    if (q < 0) break;
    if (fused) {
      bounds = next_bounds;
      std::fill(hist.begin(), hist.end(), 0);
      for (std::int64_t w = 0; w < chunks; ++w)
        for (std::int64_t i = 0; i < chunks * radix; ++i)
          hist[static_cast<std::size_t>(i)] += next_counts[static_cast<std::size_t>(w * chunks * radix + i)];
    } else {
      even_bounds();
      for_chunks([&](std::int64_t c) {
        std::array<std::int64_t, radix> h{};
        for (std::int64_t i = lo(c), e = hi(c); i < e; ++i) ++h[digit(src_k[i], q)];
        std::copy(h.begin(), h.end(), hist.data() + c * radix);
      });
    }
  }
  if (src_k != keys) {  // an odd number of passes: the result is in the scratch buffers
    even_bounds();
    for_chunks([&](std::int64_t c) {
      const std::int64_t b = lo(c), e = hi(c);
      std::memcpy(keys + b, src_k + b, static_cast<std::size_t>(e - b) * sizeof(K));
      if (values) std::memcpy(values + b, src_v + b, static_cast<std::size_t>(e - b) * sizeof(V));
    });
  }
}

}  // namespace detail

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

/// Parallel LSD radix sort of keys (see the design notes above).
template <class K>
void sort_keys_parallel(K* keys, std::int64_t n, const sort_options& opts = {}) {
  constexpr const char* where = "scankit::cpu::sort_keys_parallel";
  detail::check_sort_args<K, int>(keys, nullptr, false, n, where);
  detail::radix_sort<K, int>(keys, nullptr, n, opts, where);
}

/// Parallel LSD radix sort of key-value pairs: values move with their keys; stable.
template <class K, class V>
void sort_pairs_parallel(K* keys, V* values, std::int64_t n, const sort_options& opts = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "sort values must be trivially copyable");
  constexpr const char* where = "scankit::cpu::sort_pairs_parallel";
  detail::check_sort_args(keys, values, true, n, where);
  detail::radix_sort(keys, values, n, opts, where);
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
