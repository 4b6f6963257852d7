// Block-wide stable ranking of a tile of keys by one 8-bit digit (warp multisplit with ballots).
// count_then_rank serves onesweep and the one-block sort; block_rank the lsd-reduce-then-scan
// downsweep, whose tiles carry valid flags instead of padding.
#pragma once

#include "scankit/cuda/detail/sort/common.cuh"

namespace scankit::cuda::detail::radix {

/// The lanes of the warp whose digit equals this lane's, from one ballot per digit bit (faster
/// than __match_any_sync). Written in PTX because the C++ form (bit = (d >> b) & 1; vote =
/// ballot(bit); peers &= bit ? vote : ~vote) compiles to a shift, a compare, the vote, a select
/// and a logic op per bit. Here the bit test is a predicate set straight from the digit, and the
/// vote is inverted under that predicate as it narrows the mask.
__device__ __forceinline__ unsigned lanes_with_same_digit(unsigned d) {
  unsigned peers = 0xffffffffu;
#pragma unroll
  for (int b = 0; b < digit_bits; ++b) {
    asm("{\n\t"
        ".reg .pred has_bit;\n\t"
        ".reg .b32 vote;\n\t"
        "and.b32 vote, %1, %2;\n\t"
        "setp.ne.u32 has_bit, vote, 0;\n\t"
        "vote.sync.ballot.b32 vote, has_bit, 0xffffffff;\n\t"
        "@!has_bit not.b32 vote, vote;\n\t"
        "and.b32 %0, %0, vote;\n\t"
        "}"
        : "+r"(peers)
        : "r"(d), "r"(1u << b));
  }
  return peers;
}

/// Counts, then ranks, a tile held warp-striped (item j of lane l of warp w is the tile's key
/// w*32*Items + j*32 + l), stably by one digit:
///   count():   every warp counts its keys' digits in its own shared-memory row (atomics);
///              thread d then has the tile's count of digit d, which goes out as the tile's
///              aggregate at once (successors looking back rarely wait for it).
///   offsets(): thread d turns its column into each warp's first slot for digit d in the tile
///              (the digit's start in the tile, from a block scan over digits, plus the
///              counts of earlier warps).
///   rank():    per item in order, the lanes holding the same digit find each other with 8
///              ballots; each takes the row's slot plus the number of equal lanes below it,
///              and the lowest of them advances the slot. The result is the final position in
///              the tile sorted by the digit: one pass over the keys, nothing to fix up after.
template <int Block, int Items>
struct count_then_rank {
  static_assert(Block >= radix && Block % 32 == 0, "one thread per digit");
  static constexpr int warps = Block / 32;
  struct storage {
    unsigned slot[warps][radix];  // counts, then each (warp, digit)'s next slot
    unsigned digit_start[radix];
    unsigned digit_tot[radix / 32];
  };

  /// Returns, in thread d < 256, the tile's count of digit d (every key in the tile counted).
  template <class DigitOf, class U>
  __device__ __forceinline__ static unsigned count(storage& s, const U (&key)[Items], DigitOf dig) {
    for (int i = threadIdx.x; i < warps * radix; i += Block) (&s.slot[0][0])[i] = 0;
    __syncthreads();
    unsigned* row = s.slot[threadIdx.x >> 5];
#pragma unroll
    for (int j = 0; j < Items; ++j) atomicAdd(&row[dig(key[j])], 1u);
    __syncthreads();
    unsigned c = 0;
    if (threadIdx.x < radix)
#pragma unroll
      for (int v = 0; v < warps; ++v) c += s.slot[v][threadIdx.x];
    return c;
  }

  /// Thread d < 256 passes its count; afterwards s.digit_start[d] is the digit's first slot.
  __device__ __forceinline__ static void offsets(storage& s, unsigned count) {
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    unsigned incl = 0;
    if (threadIdx.x < radix) {
      incl = warp_inclusive_scan(count, [](unsigned a, unsigned b) { return a + b; });
      if (lane == 31) s.digit_tot[w] = incl;
    }
    __syncthreads();
    if (threadIdx.x < radix) {
      const int d = threadIdx.x;
      unsigned at = incl - count;
      for (int v = 0; v < w; ++v) at += s.digit_tot[v];
      s.digit_start[d] = at;
#pragma unroll
      for (int v = 0; v < warps; ++v) {
        const unsigned c = s.slot[v][d];
        s.slot[v][d] = at;
        at += c;
      }
    }
    __syncthreads();
  }

  /// Calls place(j, r) with item j's position r in the tile sorted by the digit.
  template <class DigitOf, class U, class Place>
  __device__ __forceinline__ static void rank(storage& s, const U (&key)[Items], DigitOf dig, Place place) {
    unsigned* row = s.slot[threadIdx.x >> 5];
    const unsigned below = lanemask_lt();
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const unsigned d = dig(key[j]);
      const unsigned peers = lanes_with_same_digit(d);
      const unsigned before = __popc(peers & below);
      const unsigned base = row[d];
      __syncwarp();
      if (before == 0) row[d] = base + __popc(peers);
      __syncwarp();
      place(j, base + before);
    }
  }
  template <class DigitOf, class U>
  __device__ __forceinline__ static void rank(storage& s, const U (&key)[Items], DigitOf dig,
                                              unsigned (&ranks)[Items]) {
    rank(s, key, dig, [&](int j, unsigned r) { ranks[j] = r; });
  }
};

/// Block-wide stable ranking of a tile by one digit. The tile is held warp-striped: item j of
/// lane l of warp w is the tile's element w*32*Items + j*32 + l, so processing each warp's
/// items in j order, lanes in order, and warps in order is the input order (stability).
///   1. Per warp, per item: the lanes holding the same digit find each other with 8 ballots
///      (one per digit bit; faster than match.any); the lowest of them
///      adds the group's size to the warp's private shared-memory counter of that digit;
///      each lane's rank in the warp is the counter's old value plus the number of
///      equal-digit lanes below it.
///   2. Thread d (one per digit) turns the warps' counters into warp offsets (exclusive over
///      warps) and the tile's count of digit d; a block scan over digits gives each digit's
///      start in the tile.
///   3. rank = digit start + warp offset + rank in the warp: the key's position in the tile
///      sorted stably by the digit.
template <int Block, int Items>
struct block_rank {
  static_assert(Block >= radix && Block % 32 == 0, "one thread per digit");
  static constexpr int warps = Block / 32;
  static constexpr int tile = Block * Items;
  struct storage {
    unsigned warp_hist[warps][radix];
    unsigned digit_start[radix];
    unsigned digit_tot[radix / 32];
  };

  /// Returns, in thread d < 256, the count of digit d among the tile's valid items.
  __device__ __forceinline__ static unsigned rank(storage& s, const unsigned (&digit)[Items],
                                                  const bool (&valid)[Items], unsigned (&rank)[Items]) {
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    for (int i = threadIdx.x; i < warps * radix; i += Block) (&s.warp_hist[0][0])[i] = 0;
    __syncthreads();
    unsigned* hist = s.warp_hist[w];
    const unsigned below = lanemask_lt();
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      unsigned peers = __ballot_sync(0xffffffffu, valid[j]);
      if (peers == 0) continue;  // past the end of the input for the whole warp (uniform)
#pragma unroll
      for (int b = 0; b < digit_bits; ++b) {
        const bool bit = (digit[j] >> b) & 1u;
        const unsigned vote = __ballot_sync(0xffffffffu, bit);
        peers &= bit ? vote : ~vote;
      }
      const unsigned before = __popc(peers & below);
      unsigned base = 0;
      if (valid[j]) base = hist[digit[j]];
      __syncwarp();
      if (valid[j] && before == 0) hist[digit[j]] = base + __popc(peers);
      __syncwarp();
      rank[j] = base + before;
    }
    __syncthreads();
    unsigned count = 0, incl = 0;
    if (threadIdx.x < radix) {
      const int d = threadIdx.x;
#pragma unroll
      for (int v = 0; v < warps; ++v) {
        const unsigned c = s.warp_hist[v][d];
        s.warp_hist[v][d] = count;
        count += c;
      }
      incl = warp_inclusive_scan(count, [](unsigned a, unsigned b) { return a + b; });
      if (lane == 31) s.digit_tot[w] = incl;
    }
    __syncthreads();
    if (threadIdx.x < radix) {
      unsigned off = 0;
      for (int v = 0; v < w; ++v) off += s.digit_tot[v];
      s.digit_start[threadIdx.x] = off + incl - count;
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j)
      if (valid[j]) rank[j] += s.digit_start[digit[j]] + hist[digit[j]];
    return count;
  }
};

}  // namespace scankit::cuda::detail::radix
