// The C ABI's CPU loops over an index range, cut into oneTBB tasks of at least 2^16 items.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstdint>

namespace scankit::capi::host {

/// f(begin, end) over [0, n), in parallel chunks.
template <class F>
void parallel_range(std::int64_t n, F&& f) {
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n, std::int64_t{1} << 16),
                    [&](const tbb::blocked_range<std::int64_t>& r) { f(r.begin(), r.end()); });
}

}  // namespace scankit::capi::host
