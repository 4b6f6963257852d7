// Pieces every CPU primitive uses: the SSE2 switch of the streaming-store paths and the
// argument check for an output that may be its input but must not otherwise overlap it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "scankit/error.hpp"

#if defined(__x86_64__) || defined(_M_X64) || (defined(__i386__) && defined(__SSE2__))
#include <emmintrin.h>
#define SCANKIT_CPU_HAS_SSE2 1
#endif

namespace scankit::cpu::detail {

/// Rejects input and output ranges that overlap without being the same range.
inline void check_no_partial_overlap(const void* in, const void* out, std::int64_t n,
                                     std::size_t item, const char* where) {
  if (in == out || n == 0) return;
  const auto ib = reinterpret_cast<std::uintptr_t>(in);
  const auto ob = reinterpret_cast<std::uintptr_t>(out);
  const auto bytes = static_cast<std::uintptr_t>(n) * item;
  if (ib < ob + bytes && ob < ib + bytes)
    throw invalid_argument(std::string(where) +
                           ": input and output overlap without being the same array");
}

}  // namespace scankit::cpu::detail
