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

}  // namespace scankit::tools
