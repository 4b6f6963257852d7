// compact_algorithm::serial_loop: one left-to-right loop with a write cursor, no scan (the
// reference every other algorithm is tested against).
#pragma once

#include <cstdint>

#include "scankit/cpu/detail/compact/spec.hpp"

namespace scankit::cpu::detail {

template <class V, class Flag, class Value>
std::int64_t run_serial_loop(const compact_spec<V, Flag, Value>& s) {
  const std::int64_t total =
      s.partition && s.order == rejected_order::original ? count_flags(s.n, s.flag, false) : 0;
  std::int64_t k = 0, r = 0;
  for (std::int64_t i = 0; i < s.n; ++i) {
    if (s.flag(i)) {
      s.out[k] = s.value(i);
      if (s.index_out) s.index_out[k] = i;
      ++k;
    } else if (s.partition) {
      s.out[rejected_slot(s.n, total, r++, s.order)] = s.value(i);
    }
  }
  return k;
}

}  // namespace scankit::cpu::detail
