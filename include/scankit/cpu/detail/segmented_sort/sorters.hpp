// The CPU segmented sort's per-segment sorters, each run by one thread on one segment: an
// insertion sort for a handful of items, a comparison sort for short segments and an LSD radix
// sort over a buffer of the segment's size. All order by sort_rank_bits (sort_traits.hpp) and
// are stable, so they agree with one another and with the flat sorts bit for bit.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "scankit/sort_traits.hpp"

namespace scankit::cpu::detail::segmented_sort {

/// What the sorters compare: a key's rank bits for the call's bit range and direction.
template <class K>
struct ranker {
  int begin = 0, end = radix_traits<K>::bits;
  bool descending = false;
  typename radix_traits<K>::bits_t operator()(K k) const { return scankit::detail::sort_rank_bits(k, begin, end, descending); }
  int width() const { return end - begin; }
};

/// One thread's scratch, kept from one segment to the next so that it stays in its cache.
template <class K, class V>
struct scratch {
  std::vector<K> keys;
  std::vector<std::byte> values;
  std::vector<std::pair<typename radix_traits<K>::bits_t, std::int64_t>> order;
  void reserve(std::int64_t m, bool with_values) {
    if (keys.size() < static_cast<std::size_t>(m)) keys.resize(static_cast<std::size_t>(m));
    if (with_values && values.size() < static_cast<std::size_t>(m) * sizeof(V))
      values.resize(static_cast<std::size_t>(m) * sizeof(V));
  }
  V* value_buffer() { return reinterpret_cast<V*>(values.data()); }
};

// ---------------------------------------------------------------------------------------------
// Insertion sort: each item moves left past the items that rank strictly above it, so equal
// ranks keep their order.
template <class K, class V>
void insertion_sort(K* k, V* v, std::int64_t m, const ranker<K>& rank) {
  for (std::int64_t i = 1; i < m; ++i) {
    const K key = k[i];
    const auto r = rank(key);
    std::int64_t j = i;
    if (!(r < rank(k[j - 1]))) continue;
    V value;
    if (v != nullptr) std::memcpy(&value, v + i, sizeof(V));
    do {
      k[j] = k[j - 1];
      if (v != nullptr) std::memcpy(v + j, v + j - 1, sizeof(V));
      --j;
    } while (j > 0 && r < rank(k[j - 1]));
    k[j] = key;
    if (v != nullptr) std::memcpy(v + j, &value, sizeof(V));
  }
}

// ---------------------------------------------------------------------------------------------
// Comparison sort of a short segment. Keys alone over their full width: std::sort, since equal
// ranks are then equal bits and order among them cannot show. Otherwise std::sort of (rank,
// position) pairs, stable by construction, and the permutation applied through the scratch
// buffers (std::stable_sort would allocate a buffer per segment).
template <class K, class V>
void comparison_sort(K* k, V* v, std::int64_t m, const ranker<K>& rank, scratch<K, V>& s) {
  if (v == nullptr && rank.begin == 0 && rank.end == radix_traits<K>::bits) {
    std::sort(k, k + m, [&](K a, K b) { return rank(a) < rank(b); });
    return;
  }
  auto& order = s.order;
  order.resize(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) order[static_cast<std::size_t>(i)] = {rank(k[i]), i};
  std::sort(order.begin(), order.end());  // (rank, position): stable by construction
  s.reserve(m, v != nullptr);
  V* vb = v != nullptr ? s.value_buffer() : nullptr;
  for (std::int64_t i = 0; i < m; ++i) {
    const std::int64_t from = order[static_cast<std::size_t>(i)].second;
    s.keys[static_cast<std::size_t>(i)] = k[from];
    if (v != nullptr) std::memcpy(vb + i, v + from, sizeof(V));
  }
  std::memcpy(k, s.keys.data(), static_cast<std::size_t>(m) * sizeof(K));
  if (v != nullptr) std::memcpy(v, vb, static_cast<std::size_t>(m) * sizeof(V));
}

// ---------------------------------------------------------------------------------------------
// LSD radix sort of one segment by 8-bit digits of the rank bits:
//   1. one read counts every digit of every key;
//   2. digits that are the same in every key are skipped (a pass would only copy);
//   3. each remaining digit is a stable scatter between the segment and the scratch buffer,
//      lowest digit first; after an odd number of passes the result is copied back.
template <class K, class V>
void radix_sort(K* k, V* v, std::int64_t m, const ranker<K>& rank, scratch<K, V>& s) {
  constexpr int radix = 256;
  const int digits = (rank.width() + 7) / 8;
  if (m <= 1 || digits == 0) return;
  std::array<std::array<std::int64_t, radix>, radix_traits<K>::bits / 8> count;
  for (int d = 0; d < digits; ++d) count[d].fill(0);
  for (std::int64_t i = 0; i < m; ++i) {
    const auto r = rank(k[i]);
    for (int d = 0; d < digits; ++d) ++count[d][(r >> (8 * d)) & 0xff];
  }
  const bool with_values = v != nullptr;
  s.reserve(m, with_values);
  K* src_k = k;
  V* src_v = v;
  K* dst_k = s.keys.data();
  V* dst_v = with_values ? s.value_buffer() : nullptr;
  for (int d = 0; d < digits; ++d) {
    auto& c = count[d];
    const auto first = (rank(src_k[0]) >> (8 * d)) & 0xff;
    if (c[first] == m) continue;  // the same digit in every key
    std::int64_t at = 0;
    for (auto& x : c) {
      const std::int64_t here = x;
      x = at;
      at += here;
    }
    for (std::int64_t i = 0; i < m; ++i) {
      const std::int64_t to = c[(rank(src_k[i]) >> (8 * d)) & 0xff]++;
      dst_k[to] = src_k[i];
      if (with_values) std::memcpy(dst_v + to, src_v + i, sizeof(V));
    }
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  if (src_k != k) {
    std::memcpy(k, src_k, static_cast<std::size_t>(m) * sizeof(K));
    if (with_values) std::memcpy(v, src_v, static_cast<std::size_t>(m) * sizeof(V));
  }
}

}  // namespace scankit::cpu::detail::segmented_sort
