// The CPU top-k's tuning, as data.
#pragma once

#include <cstdint>

namespace scankit::cpu::detail::topk {

/// Items per task of the pool's passes over one array (the heaps and the radix select). Fixed (not per thread
/// count), so that the gathered order, and with it every tie, is the same on every machine.
constexpr std::int64_t chunk_items = std::int64_t{1} << 16;
/// Bits of the first digit (its counts are per thread, so a wide digit is cheap): after it, the
/// candidates are about n / 2^bits items for spread-out keys.
constexpr int first_digit_bits = 11;
/// Bits of every later digit, counted over the candidates alone.
constexpr int digit_bits = 8;
/// Up to this k, a large array is selected with a heap per chunk (one read of the input);
/// above it, by the radix select, whose reads do not grow with k.
constexpr std::int64_t heap_max_k = 256;
/// One array of fewer items than this is selected on the calling thread.
constexpr std::int64_t parallel_min_items = std::int64_t{1} << 17;

}  // namespace scankit::cpu::detail::topk
