// The CPU top-k's three selections. All order by the rank bits of the flat sorts (for the k
// largest, the descending ranks) with ties broken by the smaller position, so they agree with
// one another and with a stable sort sliced at k, bit for bit.
//
//   select_one  one thread: (rank, position) pairs, nth_element at k, a sort of the first k.
//   heap_select  the pool, for one large array and a small k: each fixed chunk keeps its k best
//     (rank, position) pairs in a heap while it reads its items once (an item that does not
//     beat the heap's worst costs one compare), then select_one over the chunks' survivors.
//   radix_select  the pool, for one large array:
//     1. count the first digit (the top bits of every rank); the bucket where the counts pass k
//        holds the k-th item, and every item of a lower bucket is in the result;
//     2. gather the ranks of that bucket's items (the candidates) and count their next digit,
//        narrowing the bucket until its items are exactly the ones still needed or its ranks
//        are all equal; the result is then every item of rank below the bucket, and the first
//        items of the bucket in position order;
//     3. one pass counts those per fixed chunk of the input, a second writes them in position
//        order, and a stable sort by rank orders the k (ties stay in position order).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include <tbb/combinable.h>

#include "scankit/cpu/detail/parallel.hpp"
#include "scankit/cpu/detail/topk/tuning.hpp"
#include "scankit/cpu/sort.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::cpu::detail::topk {

template <class K>
using bits_t = typename radix_traits<K>::bits_t;

template <class K>
bits_t<K> rank_of(K x, bool largest) {
  return scankit::detail::sort_rank_bits(x, 0, radix_traits<K>::bits, largest);
}

/// One thread's top-k of in[0, m): values and positions (relative to in) in result order.
template <class K>
void select_one(const K* in, std::int64_t m, std::int64_t k, bool largest, K* values, std::int64_t* indices,
                std::vector<std::pair<bits_t<K>, std::int64_t>>& pairs) {
  if (k == 0) return;
  pairs.resize(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) pairs[static_cast<std::size_t>(i)] = {rank_of(in[i], largest), i};
  if (k < m) std::nth_element(pairs.begin(), pairs.begin() + (k - 1), pairs.end());
  std::sort(pairs.begin(), pairs.begin() + k);
  for (std::int64_t j = 0; j < k; ++j) {
    indices[j] = pairs[static_cast<std::size_t>(j)].second;
    values[j] = in[indices[j]];
  }
}

/// The pool's top-k of one array for a small k (see the top of this file); 0 < k <= n.
template <class K>
void heap_select(const K* in, std::int64_t n, std::int64_t k, bool largest, K* values, std::int64_t* indices) {
  using P = std::pair<bits_t<K>, std::int64_t>;
  const std::int64_t chunks = (n + chunk_items - 1) / chunk_items;
  const std::int64_t per_chunk = std::min(k, chunk_items);
  std::vector<P> survivors(static_cast<std::size_t>(chunks * per_chunk));
  std::vector<std::int64_t> kept(static_cast<std::size_t>(chunks));
  fenced_for_each(chunks, 1, [&](std::int64_t c) {
    // The chunk's best so far, a max-heap in place in its slice: the worst kept is on top.
    P* heap = survivors.data() + c * per_chunk;
    std::int64_t size = 0;
    const std::int64_t i1 = std::min(n, (c + 1) * chunk_items);
    for (std::int64_t i = c * chunk_items; i < i1; ++i) {
      const P p{rank_of(in[i], largest), i};
      if (size < per_chunk) {
        heap[size++] = p;
        std::push_heap(heap, heap + size);
      } else if (p < heap[0]) {
        std::pop_heap(heap, heap + size);
        heap[size - 1] = p;
        std::push_heap(heap, heap + size);
      }
    }
    kept[static_cast<std::size_t>(c)] = size;
  });
  // Close the gaps of chunks that kept fewer (only the last can), then select among them.
  std::int64_t m = 0;
  for (std::int64_t c = 0; c < chunks; ++c)
    for (std::int64_t j = 0; j < kept[static_cast<std::size_t>(c)]; ++j)
      survivors[static_cast<std::size_t>(m++)] = survivors[static_cast<std::size_t>(c * per_chunk + j)];
  survivors.resize(static_cast<std::size_t>(m));
  if (k < m) std::nth_element(survivors.begin(), survivors.begin() + (k - 1), survivors.end());
  std::sort(survivors.begin(), survivors.begin() + k);
  for (std::int64_t j = 0; j < k; ++j) {
    indices[j] = survivors[static_cast<std::size_t>(j)].second;
    values[j] = in[indices[j]];
  }
}

/// The bucket of `counts` where the running count reaches `need`: returns (bucket, the count
/// before it).
inline std::pair<std::uint64_t, std::int64_t> find_bucket(const std::vector<std::int64_t>& counts, std::int64_t need) {
  std::int64_t before = 0;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    if (before + counts[b] >= need) return {b, before};
    before += counts[b];
  }
  return {counts.size() - 1, before - counts.back()};  // not reached for need <= the total
}

/// The pool's top-k of one array (see the top of this file); 0 < k <= n.
template <class K>
void radix_select(const K* in, std::int64_t n, std::int64_t k, bool largest, K* values, std::int64_t* indices) {
  using U = bits_t<K>;
  constexpr int bits = radix_traits<K>::bits;
  const std::int64_t chunks = (n + chunk_items - 1) / chunk_items;
  auto chunk_range = [&](std::int64_t c) { return std::pair{c * chunk_items, std::min(n, (c + 1) * chunk_items)}; };
  auto for_chunks = [&](auto&& f) { fenced_for_each(chunks, 1, f); };

  // --- Phase 1: the first digit over the whole input ---
  int shift = bits > first_digit_bits ? bits - first_digit_bits : 0;
  std::vector<std::int64_t> counts(std::size_t{1} << (bits - shift), 0);
  {
    tbb::combinable<std::vector<std::int64_t>> local([&] { return std::vector<std::int64_t>(counts.size(), 0); });
    for_chunks([&](std::int64_t c) {
      auto& h = local.local();
      const auto [i0, i1] = chunk_range(c);
      for (std::int64_t i = i0; i < i1; ++i) ++h[static_cast<std::size_t>(rank_of(in[i], largest) >> shift)];
    });
    local.combine_each([&](const std::vector<std::int64_t>& h) {
      for (std::size_t b = 0; b < counts.size(); ++b) counts[b] += h[b];
    });
  }
  auto [bucket, before] = find_bucket(counts, k);
  U prefix = static_cast<U>(bucket);  // the known top bits of the k-th rank
  std::int64_t need = k - before, in_bucket = counts[bucket];

  // --- Phase 2: narrow the bucket over its candidates' ranks ---
  if (need < in_bucket && shift > 0) {
    std::vector<U> cand;
    {
      tbb::combinable<std::vector<U>> local;
      for_chunks([&](std::int64_t c) {
        auto& v = local.local();
        const auto [i0, i1] = chunk_range(c);
        for (std::int64_t i = i0; i < i1; ++i) {
          const U r = rank_of(in[i], largest);
          if ((r >> shift) == prefix) v.push_back(r);
        }
      });
      cand.reserve(static_cast<std::size_t>(in_bucket));
      local.combine_each([&](const std::vector<U>& v) { cand.insert(cand.end(), v.begin(), v.end()); });
    }
    while (need < in_bucket && shift > 0) {
      const int d = shift < digit_bits ? shift : digit_bits;
      shift -= d;
      const U mask = static_cast<U>((U{1} << d) - 1);
      std::vector<std::int64_t> h(std::size_t{1} << d, 0);
      for (const U r : cand) ++h[static_cast<std::size_t>((r >> shift) & mask)];
      const auto [b, below] = find_bucket(h, need);
      prefix = static_cast<U>((prefix << d) | b);
      need -= below;
      in_bucket = h[b];
      std::erase_if(cand, [&](U r) { return (r >> shift) != prefix; });
    }
  }
  // Ranks in [lo, hi] form the final bucket: all ranks below lo are in, and `need` of the bucket.
  const U lo = static_cast<U>(static_cast<std::uint64_t>(prefix) << shift);
  const U hi = static_cast<U>(lo | ((std::uint64_t{1} << shift) - 1));

  // --- Phase 3: count per chunk, then write in position order, then sort by rank ---
  std::vector<std::int64_t> below_lo(static_cast<std::size_t>(chunks)), at(static_cast<std::size_t>(chunks));
  for_chunks([&](std::int64_t c) {
    const auto [i0, i1] = chunk_range(c);
    std::int64_t a = 0, b = 0;
    for (std::int64_t i = i0; i < i1; ++i) {
      const U r = rank_of(in[i], largest);
      a += r < lo;
      b += r >= lo && r <= hi;
    }
    below_lo[static_cast<std::size_t>(c)] = a;
    at[static_cast<std::size_t>(c)] = b;
  });
  std::vector<std::int64_t> out_at(static_cast<std::size_t>(chunks)), take(static_cast<std::size_t>(chunks));
  for (std::int64_t c = 0, out = 0, seen = 0; c < chunks; ++c) {
    const auto u = static_cast<std::size_t>(c);
    take[u] = std::clamp<std::int64_t>(need - seen, 0, at[u]);
    seen += at[u];
    out_at[u] = out;
    out += below_lo[u] + take[u];
  }
  for_chunks([&](std::int64_t c) {
    const auto u = static_cast<std::size_t>(c);
    const auto [i0, i1] = chunk_range(c);
    std::int64_t o = out_at[u], left = take[u];
    if (below_lo[u] + left == 0) return;
    for (std::int64_t i = i0; i < i1; ++i) {
      const U r = rank_of(in[i], largest);
      if (r < lo || (r <= hi && left > 0)) {
        if (r >= lo) --left;
        values[o] = in[i];
        indices[o++] = i;
      }
    }
  });
  sort_pairs_parallel(values, indices, k, sort_options{largest});
}

}  // namespace scankit::cpu::detail::topk
