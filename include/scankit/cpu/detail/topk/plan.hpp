// The one place that decides how the CPU top-k runs (pure, tested directly).
#pragma once

#include <cstdint>
#include <string>

#include "scankit/cpu/detail/topk/tuning.hpp"
#include "scankit/error.hpp"

namespace scankit::cpu {

/// How the CPU top-k of one array runs.
enum class topk_path {
  automatic,  // by size and k: the calling thread for small arrays, else the pool's heaps or radix select
  select,     // one thread: a selection over (rank, position) pairs, then a sort of the k
  heap,       // the pool: a heap of the k best per chunk (one read), then a selection among them
  radix,      // the pool: a radix select by digits of the rank bits, then a gather and a sort
};

/// What a caller may force of a CPU top-k; every choice gives the same result.
struct topk_config {
  topk_path path = topk_path::automatic;
};

}  // namespace scankit::cpu

namespace scankit::cpu::detail::topk {

inline topk_path plan_topk(std::int64_t n, std::int64_t k, const topk_config& cfg) {
  if (cfg.path != topk_path::automatic) return cfg.path;
  if (n < parallel_min_items) return topk_path::select;
  return k <= heap_max_k ? topk_path::heap : topk_path::radix;
}

inline void check_config(const topk_config& cfg, const char* who) {
  switch (cfg.path) {
    case topk_path::automatic:
    case topk_path::select:
    case topk_path::heap:
    case topk_path::radix: return;
  }
  throw invalid_argument(std::string(who) + ": unknown topk_path");
}

}  // namespace scankit::cpu::detail::topk
