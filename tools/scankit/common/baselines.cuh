// The Thrust allocator behind thrust_scratch (needs nvcc: included by the baseline .cu files).
#pragma once

#include <cstddef>
#include <map>

#include "common/baselines.hpp"
#include "scankit/cuda/detail/common.cuh"

namespace scankit::tools {

/// Thrust's allocator interface (value_type, allocate, deallocate) over a block cache.
struct thrust_scratch::impl {
  using value_type = char;

  impl() = default;
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;
  ~impl() {
    for (auto& [bytes, p] : free_blocks) cudaFree(p);
    for (auto& [p, bytes] : in_use) cudaFree(p);
  }

  char* allocate(std::ptrdiff_t n) {
    const auto want = static_cast<std::size_t>(n > 0 ? n : 1);
    char* p = nullptr;
    std::size_t bytes = want;
    if (auto it = free_blocks.lower_bound(want); it != free_blocks.end()) {
      bytes = it->first;
      p = it->second;
      free_blocks.erase(it);
    } else {
      SCANKIT_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p), want));
    }
    in_use.emplace(p, bytes);
    return p;
  }

  void deallocate(char* p, std::size_t) {
    auto it = in_use.find(p);
    if (it == in_use.end()) return;
    free_blocks.emplace(it->second, p);
    in_use.erase(it);
  }

  std::multimap<std::size_t, char*> free_blocks;
  std::map<char*, std::size_t> in_use;
};

}  // namespace scankit::tools
