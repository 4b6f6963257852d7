// The GPU segmented sort's tuning, as data. The item-wise kernels of the two-sort path are
// bound by memory, so one shape serves every device; the flat sorts it calls carry their own
// tuning (detail/sort/).
#pragma once

namespace scankit::cuda::detail::segmented_sort {

inline constexpr int item_threads = 256;  // threads per block of the item-wise kernels
inline constexpr int blocks_per_sm = 8;   // their grids cover one wave of resident blocks

// The merge path (pieces.cuh, merge_rounds.cuh).
inline constexpr int piece = 2048;                        // the longest run sorted in shared memory
inline constexpr int bin_capacity = 2 * piece;            // a bin holds fewer than two pieces' keys
inline constexpr int bin_threads = 256;                   // threads per bin
inline constexpr int bin_items = bin_capacity / bin_threads;  // positions each thread sorts first
inline constexpr int round_threads = 256;                 // threads per merge tile of `piece` outputs
inline constexpr int round_items = piece / round_threads;
inline constexpr int round_blocks_per_sm = 8;             // the merge rounds' grids: one wave

// Segments of at least radix_from_length(key bytes) keys sort by segmented onesweep passes
// (radix_long.cuh), one pass per 8-bit digit, instead of one merge round per doubling of their
// length past a piece: a segment of piece << (digits - 1) keys costs about as many passes
// either way, so the length doubles with every digit of the key.
constexpr long long radix_from_length(unsigned long key_bytes) {
  return key_bytes <= 2 ? 4096 : key_bytes <= 4 ? 16384 : 262144;
}

}  // namespace scankit::cuda::detail::segmented_sort
