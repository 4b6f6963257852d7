// The chunked LSD radix sort (sort_path::lsd): every varying digit's pass over the whole
// array, ping-ponging between it and a scratch array of the same size: one read and one write
// per item and pass (the first pass's counts come from the survey; later passes count their
// source again, one read). The result ends in the caller's array: a first pass from a separate
// array writes whichever array makes the last pass end there, else a final parallel copy when
// the pass count is odd.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "scankit/cpu/detail/sort/passes.hpp"
#include "scankit/cpu/detail/sort/sorter.hpp"

namespace scankit::cpu::detail {

/// The chunked LSD sort: every active pass over the whole array, ping-ponging x and y. A
/// first pass from a separate array writes the one of x and y that makes the last pass end
/// where the result belongs, so no copy follows.
template <class K, class V>
void radix_sorter<K, V>::lsd(span from, span x, span y, std::int64_t n, const tally& t, bool end_in_x) const {
  const span fin = end_in_x ? x : y, other = end_in_x ? y : x;
  const std::size_t r = t.active.size();
  span src = from;
  // hist[c][d]: the count of the pass's digit d in chunk c, then (scanned) its first output.
  std::vector<std::int64_t> hist(static_cast<std::size_t>(t.chunks * radix));
  for (std::size_t q = 0; q < r; ++q) {
    const int p = t.active[q];
    const span dst = src.k == x.k ? y : src.k == y.k ? x : (r - 1 - q) % 2 == 0 ? fin : other;
    histogram(t, q == 0, src.k, n, p, hist);  // the first pass reads what the survey read
    scan_hist(hist, t.chunks);
    scatter(src, dst, n, t.chunks, p, hist);
    src = dst;
  }
  if (src.k != fin.k) copy(src, fin, n);  // the result is in the other array
}

}  // namespace scankit::cpu::detail
