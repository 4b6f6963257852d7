// Parallel loops for the CLI's input generation and checks, through scankit's fenced_region
// (scankit/cpu/scan.hpp) so that a ThreadSanitizer build sees oneTBB's task hand-offs, as the
// library's own parallel code does.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <cstdint>
#include <utility>

#include "scankit/cpu/scan.hpp"

namespace scankit::tools {

using index_range = tbb::blocked_range<std::int64_t>;

/// f(index_range) over [0, n) in chunks of at least `grain`, in parallel.
template <class F>
void parallel_chunks(std::int64_t n, std::int64_t grain, F f) {
  using region_t = cpu::detail::fenced_region<F>;
  region_t region(std::move(f));
  typename region_t::scope open(region);
  tbb::parallel_for(index_range(0, n, grain), region.template get_body<0>());
}

/// tbb::parallel_reduce over [0, n): f(index_range, T) -> T folds a chunk, join(T, T) -> T.
template <class T, class F, class J>
T parallel_fold(std::int64_t n, std::int64_t grain, T init, F f, J join) {
  using region_t = cpu::detail::fenced_region<F, J>;
  region_t region(std::move(f), std::move(join));
  typename region_t::scope open(region);
  return tbb::parallel_reduce(index_range(0, n, grain), init, region.template get_body<0>(),
                              region.template get_body<1>());
}

/// The CPU's bandwidth floor of a reduction: one parallel read of `bytes` at p (8-byte words
/// folded by xor so the loads are not dropped; a tail under 8 bytes is left out).
inline std::uint64_t cpu_read_once(const void* p, std::size_t bytes) {
  const auto* w = static_cast<const std::uint64_t*>(p);
  const auto words = static_cast<std::int64_t>(bytes / 8);
  return parallel_fold(
      words, std::int64_t{1} << 16, std::uint64_t{0},
      [w](const index_range& r, std::uint64_t acc) {
        for (std::int64_t i = r.begin(); i < r.end(); ++i) acc ^= w[i];
        return acc;
      },
      [](std::uint64_t a, std::uint64_t b) { return a ^ b; });
}

}  // namespace scankit::tools
