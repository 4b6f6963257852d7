// The argument check every CPU scan makes before it writes anything.
#pragma once

#include <cstdint>

#include "scankit/cpu/detail/common.hpp"
#include "scankit/error.hpp"
#include "scankit/ops.hpp"

namespace scankit::cpu::detail {

template <monoid Op>
void check_scan_args(const value_t<Op>* in, const value_t<Op>* out, std::int64_t n,
                     const char* where) {
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(in, n, "input", where);
  scankit::detail::check_pointer(out, n, "output", where);
  check_no_partial_overlap(in, out, n, sizeof(value_t<Op>), where);
}

}  // namespace scankit::cpu::detail
