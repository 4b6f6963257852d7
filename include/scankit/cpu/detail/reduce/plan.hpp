// The one function that decides how a CPU reduction runs: block size and whether to use the
// thread pool, from the call alone (pure, so it is tested directly).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "scankit/cpu/detail/reduce/tuning.hpp"
#include "scankit/error.hpp"

namespace scankit::cpu {

/// What a caller may force of a CPU reduction (0: the tuned value).
struct reduce_config {
  std::int64_t block_items = 0;  // items per block (partial result)
  bool parallel = true;          // false: the calling thread alone (same blocks, same result)
};

}  // namespace scankit::cpu

namespace scankit::cpu::detail::reduce {

struct plan {
  std::int64_t block_items = 1;
  std::int64_t blocks = 0;
  bool parallel = false;
};

inline plan make_plan(std::int64_t n, std::size_t item_bytes, const reduce_config& cfg) {
  if (n < 0) throw invalid_argument("scankit::cpu::reduce: n must be >= 0");
  if (cfg.block_items < 0) throw invalid_argument("scankit::cpu::reduce: block_items must be >= 0");
  plan p;
  const auto bytes = static_cast<std::int64_t>(std::max<std::size_t>(item_bytes, 1));
  p.block_items = cfg.block_items > 0 ? cfg.block_items : std::max<std::int64_t>(1, block_bytes / bytes);
  p.blocks = (n + p.block_items - 1) / p.block_items;
  p.parallel = cfg.parallel && p.blocks > 1 && n * bytes >= serial_below_bytes;
  return p;
}

}  // namespace scankit::cpu::detail::reduce
