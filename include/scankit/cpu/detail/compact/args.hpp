// The argument checks of the CPU compactions, made before anything is written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "scankit/cpu/detail/common.hpp"
#include "scankit/error.hpp"

namespace scankit::cpu::detail {

inline void check_args(std::int64_t n, const void* in, const void* out, const char* where) {
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(in, n, "input", where);
  scankit::detail::check_pointer(out, n, "output", where);
}

/// Rejects any overlap of two arrays (equal pointers included).
inline void check_disjoint(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes,
                           const char* what, const char* where) {
  if (a_bytes == 0 || b_bytes == 0) return;
  const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
  if (x < y + b_bytes && y < x + a_bytes)
    throw invalid_argument(std::string(where) + ": " + what + " overlap");
}

template <class T>
std::size_t bytes_of(std::int64_t n) {
  return static_cast<std::size_t>(n) * sizeof(T);
}

}  // namespace scankit::cpu::detail
