// The argument checks of the CPU sorts, made before anything is written.
#pragma once

#include <cstdint>
#include <string>

#include "scankit/cpu/detail/common.hpp"
#include "scankit/error.hpp"

namespace scankit::cpu::detail {

template <class K, class V>
void check_sort_args(const K* keys, const V* values, bool with_values, std::int64_t n,
                     const char* where) {
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(keys, n, "keys", where);
  if (with_values) scankit::detail::check_pointer(values, n, "values", where);
}

/// Rejects input and output arrays that overlap without being the same array.
template <class K, class V>
void check_sort_copy_args(const K* in_keys, const V* in_values, const K* keys, const V* values, bool with_values,
                          std::int64_t n, const char* where) {
  check_sort_args(keys, values, with_values, n, where);
  check_sort_args(in_keys, in_values, with_values, n, where);
  check_no_partial_overlap(in_keys, keys, n, sizeof(K), where);
  if (with_values) {
    check_no_partial_overlap(in_values, values, n, sizeof(V), where);
    if ((in_keys == keys) != (in_values == values))
      throw invalid_argument(std::string(where) + ": the keys and the values must both be sorted in place or both not");
  }
}

}  // namespace scankit::cpu::detail
