// One chunked pass of the radix sort: per-chunk histograms of the pass's digit, an exclusive
// scan over (digit, chunk) in that order, which gives every chunk a private, contiguous output
// range per digit, and the scatter of each chunk's items, in order, into its ranges. Reading
// each chunk in order and writing each (digit, chunk) range in order is what makes a pass
// stable. The scatter writes through the line_writer (detail/sort/line_writer.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "scankit/cpu/detail/sort/line_writer.hpp"
#include "scankit/cpu/detail/sort/sorter.hpp"

namespace scankit::cpu::detail {

/// hist[c][d] = chunk c's count of digit d of pass p in keys[0, n): from the survey t
/// when `surveyed` (keys are still the ones t read, in the same order) and it counted p,
/// else by a read.
template <class K, class V>
void radix_sorter<K, V>::histogram(const tally& t, bool surveyed, const K* keys, std::int64_t n, int p,
                                   std::vector<std::int64_t>& hist) const {
  const auto j = static_cast<std::size_t>(std::find(t.counted.begin(), t.counted.end(), p) - t.counted.begin());
  if (surveyed && j < t.counted.size()) {
    for (std::int64_t c = 0; c < t.chunks; ++c) std::copy_n(t.at(c, j), radix, hist.data() + c * radix);
    return;
  }
  const pass_fn digit_p = digit_.pass(p);
  const std::int64_t chunks = t.chunks;
  for_chunks(chunks, [&](std::int64_t c) {
    std::array<std::int64_t, radix> h{};
    for (std::int64_t i = chunk_begin(n, chunks, c), e = chunk_begin(n, chunks, c + 1); i < e; ++i)
      ++h[digit_p(keys[i])];
    std::copy(h.begin(), h.end(), hist.data() + c * radix);
  });
}

/// Exclusive scan in (digit, chunk) order: chunk c's items of digit d go after every item
/// of a smaller digit and after the items of digit d in earlier chunks.
template <class K, class V>
void radix_sorter<K, V>::scan_hist(std::vector<std::int64_t>& hist, std::int64_t chunks) {
  std::int64_t run = 0;
  for (int d = 0; d < radix; ++d)
    for (std::int64_t c = 0; c < chunks; ++c) {
      const std::int64_t k = hist[static_cast<std::size_t>(c * radix + d)];
      hist[static_cast<std::size_t>(c * radix + d)] = run;
      run += k;
    }
}

/// Items [b, e) of (sk, sv) to (dk, dv) by the digit: off[d] is the next slot of digit d
/// (advanced). Streaming write-combining when `combine` and the items tile a line.
template <class K, class V>
void radix_sorter<K, V>::scatter_run(const K* sk, const V* sv, std::int64_t b, std::int64_t e, K* dk, V* dv,
                                     std::array<std::int64_t, radix>& off, const pass_fn digit_p, bool combine) {
  const bool combine_keys = combine && line_writer<K>::usable(dk);
  const bool combine_values = sv != nullptr && combine && line_writer<V>::usable(dv);
  if (sv == nullptr && combine_keys) {
    line_writer<K> wk(dk, off.data());
    for (std::int64_t i = b; i < e; ++i) {
      const K k = sk[i];
      const unsigned d = digit_p(k);
      wk.put(d, off[d]++, k);
    }
    wk.finish(off.data());
  } else if (sv != nullptr && combine_keys && combine_values) {
    line_writer<K> wk(dk, off.data());
    line_writer<V> wv(dv, off.data());
    for (std::int64_t i = b; i < e; ++i) {
      const K k = sk[i];
      const unsigned d = digit_p(k);
      const std::int64_t o = off[d]++;
      wk.put(d, o, k);
      wv.put(d, o, sv[i]);
    }
    wk.finish(off.data());
    wv.finish(off.data());
  } else if (sv != nullptr) {
    for (std::int64_t i = b; i < e; ++i) {
      const std::int64_t o = off[digit_p(sk[i])]++;
      dk[o] = sk[i];
      dv[o] = sv[i];
    }
  } else {
    for (std::int64_t i = b; i < e; ++i) dk[off[digit_p(sk[i])]++] = sk[i];
  }
}

/// One chunked pass: every chunk moves its items from src to dst by digit p, at the
/// scanned offsets in hist.
template <class K, class V>
void radix_sorter<K, V>::scatter(span src, span dst, std::int64_t n, std::int64_t chunks, int p,
                                 const std::vector<std::int64_t>& hist) const {
  const pass_fn digit_p = digit_.pass(p);
  for_chunks(chunks, [&](std::int64_t c) {
    std::array<std::int64_t, radix> off;
    std::copy_n(hist.data() + c * radix, radix, off.begin());
    scatter_run(src.k, src.v, chunk_begin(n, chunks, c), chunk_begin(n, chunks, c + 1), dst.k, dst.v, off,
                digit_p, write_combining_);
  });
}

template <class K, class V>
void radix_sorter<K, V>::copy(span src, span dst, std::int64_t n) const {
  const std::int64_t chunks = chunks_for(n);
  for_chunks(chunks, [&](std::int64_t c) {
    const std::int64_t b = chunk_begin(n, chunks, c), e = chunk_begin(n, chunks, c + 1);
    std::memcpy(static_cast<void*>(dst.k + b), src.k + b, static_cast<std::size_t>(e - b) * sizeof(K));
    if (src.v) std::memcpy(static_cast<void*>(dst.v + b), src.v + b, static_cast<std::size_t>(e - b) * sizeof(V));
  });
}

}  // namespace scankit::cpu::detail
