// PLACEHOLDER (being written): CPU scans.
#pragma once
#include <cstdint>
#include "scankit/error.hpp"
#include "scankit/ops.hpp"
namespace scankit::cpu {
template <monoid Op>
value_t<Op> scan_serial(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op, scan_kind kind, value_t<Op> init) {
  value_t<Op> acc = init;
  for (std::int64_t i = 0; i < n; ++i) { value_t<Op> x = in[i]; if (kind == scan_kind::exclusive) { out[i] = acc; acc = op(acc, x); } else { acc = op(acc, x); out[i] = acc; } }
  return acc;
}
template <monoid Op>
value_t<Op> scan_parallel(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op, scan_kind kind, value_t<Op> init) {
  return scan_serial(in, out, n, op, kind, init);
}
}
