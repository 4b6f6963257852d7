// Integer helpers for sizes and tile counts, plain C++ so that host-only code (the plan
// functions and their tests) can use them without the CUDA headers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace scankit::cuda::detail {

/// Every array carved from a workspace starts on this boundary (cudaMalloc's own alignment).
inline constexpr std::size_t workspace_alignment = 256;

constexpr std::size_t align_up(std::size_t x, std::size_t a = workspace_alignment) {
  return (x + a - 1) / a * a;
}

constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace scankit::cuda::detail
