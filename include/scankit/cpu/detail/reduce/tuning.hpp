// The CPU reductions' tuning, as data.
#pragma once

#include <cstdint>

namespace scankit::cpu::detail::reduce {

/// Items per block: every block is one task's work and one partial result. Fixed per item size
/// (not per thread count), so the result is the same bits whatever the machine's cores.
constexpr std::int64_t block_bytes = std::int64_t{1} << 17;
/// Inputs below this many bytes are reduced on the calling thread (as one block per
/// block_bytes, in order, so the result does not depend on the path).
constexpr std::int64_t serial_below_bytes = std::int64_t{1} << 18;
/// Independent accumulators of the commutative inner loop: enough to hide an add's latency
/// and to fill a vector register.
constexpr int lanes = 8;

}  // namespace scankit::cpu::detail::reduce
