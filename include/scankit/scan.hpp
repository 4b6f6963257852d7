// Prefix scans over ranges, on the CPU (the parallel oneTBB scan). For the GPU see
// scankit/cuda/scan.hpp; for the serial reference, scankit::cpu::scan_serial.
//
//   std::vector<int> v = ..., out(v.size());
//   int total = scankit::inclusive_scan(v, out);                        // sum
//   scankit::exclusive_scan(v, out, scankit::max<int>{});                // running max, from lowest()
//   scankit::inclusive_scan(v, v, scankit::sum<int>{}, 10);              // in place, carry-in 10
#pragma once

#include <cstdint>
#include <optional>
#include <ranges>

#include "scankit/concepts.hpp"
#include "scankit/cpu/scan.hpp"
#include "scankit/error.hpp"
#include "scankit/ops.hpp"

namespace scankit {

namespace detail {
template <class In, class Out, class Op>
value_t<Op> range_scan(const In& in, Out& out, Op op, scan_kind kind, std::optional<value_t<Op>> init,
                       const char* where) {
  const auto n = static_cast<std::int64_t>(std::ranges::size(in));
  if (static_cast<std::int64_t>(std::ranges::size(out)) < n)
    throw invalid_argument(std::string(where) + ": output range is shorter than the input");
  return cpu::scan_parallel(std::ranges::data(in), std::ranges::data(out), n, op, kind,
                            init ? *init : op.identity());
}
}  // namespace detail

/// out[i] = init ⊕ in[0] ⊕ ... ⊕ in[i]. Returns the total (carry-out). `out` may be `in`.
template <std::ranges::contiguous_range In, class Out, monoid Op = sum<std::ranges::range_value_t<In>>>
  requires contiguous_range_of<In, value_t<Op>> && writable_range_of<Out, value_t<Op>>
value_t<Op> inclusive_scan(const In& in, Out&& out, Op op = {},
                           std::optional<value_t<Op>> init = std::nullopt) {
  return detail::range_scan(in, out, op, scan_kind::inclusive, init, "scankit::inclusive_scan");
}

/// out[i] = init ⊕ in[0] ⊕ ... ⊕ in[i-1] (out[0] = init). Returns the total. `out` may be `in`.
template <std::ranges::contiguous_range In, class Out, monoid Op = sum<std::ranges::range_value_t<In>>>
  requires contiguous_range_of<In, value_t<Op>> && writable_range_of<Out, value_t<Op>>
value_t<Op> exclusive_scan(const In& in, Out&& out, Op op = {},
                           std::optional<value_t<Op>> init = std::nullopt) {
  return detail::range_scan(in, out, op, scan_kind::exclusive, init, "scankit::exclusive_scan");
}

}  // namespace scankit
