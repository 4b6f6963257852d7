// The CPU rows of the segments commands (see cpu_rows.hpp): the one file that calls
// scankit::cpu's segmented operations.
#include "segments/cpu_rows.hpp"

#include <cstdint>

#include "scankit/error.hpp"
#include "scankit/ops.hpp"
#include "scankit/segments.hpp"

#include "scankit/cpu/segments.hpp"

namespace scankit::tools {

template <class T>
void run_cpu_segments(const cpu_segments_call& c) {
  const auto* in = static_cast<const T*>(c.in);
  auto* out = static_cast<T*>(c.out);
  const sum<T> op{};
  const segment_offsets offsets{c.offsets, c.count};
  const scan_kind inc = scan_kind::inclusive;
  if (c.op == "reduce") {
    if (c.serial) cpu::segmented_reduce_serial(in, c.n, segment_bounds(offsets), op, T(0), out);
    else cpu::segmented_reduce(in, c.n, segment_bounds(offsets), op, T(0), out);
  } else if (c.op == "scan") {
    if (c.serial) cpu::segmented_scan_serial(in, out, c.n, offsets, op, inc, T(0));
    else cpu::segmented_scan(in, out, c.n, offsets, op, inc, T(0));
  } else if (c.op == "scan-flags") {
    if (c.serial) cpu::segmented_scan_serial(in, out, c.n, head_flags{c.flags}, op, inc, T(0));
    else cpu::segmented_scan(in, out, c.n, head_flags{c.flags}, op, inc, T(0));
  } else if (c.op == "scan-by-key") {
    if (c.serial) cpu::scan_by_key_serial(c.keys, in, out, c.n, op, inc, T(0));
    else cpu::scan_by_key(c.keys, in, out, c.n, op, inc, T(0));
  } else if (c.op == "reduce-by-key") {
    *c.num_runs = c.serial ? cpu::reduce_by_key_serial(c.keys, in, c.n, op, c.unique_keys, out)
                           : cpu::reduce_by_key(c.keys, in, c.n, op, c.unique_keys, out);
  } else {
    throw invalid_argument("no CPU segments operation " + c.op);
  }
}

template void run_cpu_segments<std::int32_t>(const cpu_segments_call&);
template void run_cpu_segments<std::uint32_t>(const cpu_segments_call&);
template void run_cpu_segments<std::int64_t>(const cpu_segments_call&);
template void run_cpu_segments<std::uint64_t>(const cpu_segments_call&);
template void run_cpu_segments<float>(const cpu_segments_call&);
template void run_cpu_segments<double>(const cpu_segments_call&);

}  // namespace scankit::tools
