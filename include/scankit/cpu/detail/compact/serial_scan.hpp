// compact_algorithm::serial_scan: the textbook three steps, serially: map every item to 0/1,
// exclusive scan of the flags (scan_serial), scatter through the positions.
#pragma once

#include <cstdint>
#include <vector>

#include "scankit/cpu/detail/compact/spec.hpp"
#include "scankit/cpu/detail/scan/args.hpp"
#include "scankit/ops.hpp"

namespace scankit::cpu::detail {

template <class V, class Flag, class Value>
std::int64_t run_serial_scan(const compact_spec<V, Flag, Value>& s) {
  // 1. map
  std::vector<std::int64_t> pos(static_cast<std::size_t>(s.n));
  for (std::int64_t i = 0; i < s.n; ++i) pos[i] = s.flag(i) ? 1 : 0;
  // 2. exclusive scan; the carry-out is the count
  const std::int64_t total =
      scan_serial(pos.data(), pos.data(), s.n, sum<std::int64_t>{}, scan_kind::exclusive, 0);
  // 3. scatter. Forward order keeps the in-place forms safe: pos[i] <= i.
  for (std::int64_t i = 0; i < s.n; ++i) {
    if (s.flag(i)) {
      s.out[pos[i]] = s.value(i);
      if (s.index_out) s.index_out[pos[i]] = i;
    } else if (s.partition) {
      s.out[rejected_slot(s.n, total, i - pos[i], s.order)] = s.value(i);
    }
  }
  return total;
}

}  // namespace scankit::cpu::detail
