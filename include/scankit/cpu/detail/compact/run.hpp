// Part of scankit/cpu/compact.hpp (after compact_config): runs a compaction by its plan, and
// unique_count's last step, run starts into run lengths.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "scankit/cpu/detail/compact/chained.hpp"
#include "scankit/cpu/detail/compact/plan.hpp"
#include "scankit/cpu/detail/compact/serial_loop.hpp"
#include "scankit/cpu/detail/compact/serial_scan.hpp"
#include "scankit/cpu/detail/compact/spec.hpp"
#include "scankit/cpu/detail/parallel.hpp"
#include "scankit/error.hpp"

namespace scankit::cpu::detail {

/// Runs the compaction s of items of item_bytes each, as plan_compact says.
template <class V, class Flag, class Value>
std::int64_t run(const compact_spec<V, Flag, Value>& s, std::int64_t item_bytes,
                 const compact_config& cfg, const char* where) {
  if (cfg.block_bytes < 1) throw invalid_argument(std::string(where) + ": block_bytes must be positive");
  if (s.n == 0) return 0;
  const compact_plan plan = plan_compact(s.n, item_bytes, static_cast<std::int64_t>(sizeof(V)), cfg);
  switch (plan.algorithm) {
    case compact_algorithm::serial_loop: return run_serial_loop(s);
    case compact_algorithm::serial_scan: return run_serial_scan(s);
    case compact_algorithm::parallel: return run_parallel(s, plan);
  }
  throw invalid_argument(std::string(where) + ": unknown algorithm");
}

/// Turns run starts s[0..runs) into run lengths in place: s[k] = s[k+1] - s[k] (s[runs] = n).
/// The parallel form first saves the value just past each chunk, which the next chunk
/// overwrites.
inline void starts_to_counts(std::int64_t* s, std::int64_t runs, std::int64_t n, bool parallel) {
  if (!parallel || runs < compact_lengths_serial_below) {
    for (std::int64_t k = 0; k < runs; ++k) s[k] = (k + 1 < runs ? s[k + 1] : n) - s[k];
    return;
  }
  constexpr std::int64_t chunk = compact_lengths_chunk;
  const std::int64_t chunks = (runs + chunk - 1) / chunk;
  std::vector<std::int64_t> next_start(static_cast<std::size_t>(chunks));
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::int64_t e = std::min(runs, (c + 1) * chunk);
    next_start[c] = e < runs ? s[e] : n;
  }
  struct body {
    std::int64_t* s;
    std::int64_t runs;
    const std::int64_t* next_start;
    void operator()(const tbb::blocked_range<std::int64_t>& r) const {
      for (auto c = r.begin(); c != r.end(); ++c) {
        const std::int64_t b = c * chunk, e = std::min(runs, b + chunk);
        for (std::int64_t k = b; k + 1 < e; ++k) s[k] = s[k + 1] - s[k];
        s[e - 1] = next_start[c] - s[e - 1];
      }
    }
  };
  fenced_region<body> region(body{s, runs, next_start.data()});
  typename fenced_region<body>::scope open(region);
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, chunks), region.template get_body<0>());
}

}  // namespace scankit::cpu::detail
