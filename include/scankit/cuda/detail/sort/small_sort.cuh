// The one-block sort: n up to the tuning's one_block_limit() keys, every pass in one block's
// shared memory, one launch.
#pragma once

#include "scankit/cuda/detail/sort/ranking.cuh"
#include "scankit/cuda/detail/sort/tuning.cuh"
#include "scankit/cuda/detail/sort/common.cuh"

namespace scankit::cuda::detail::radix {

template <class U, class V, int Block, int Items>
struct small_sort_storage {
  static constexpr int tile = Block * Items;
  typename count_then_rank<Block, Items>::storage rank;
  U keys[tile];
  std::conditional_t<has_values<V>, V, char> values[has_values<V> ? tile : 1];
  int constant_digit[max_passes];  // per pass, so that no flag is reset while being read
};

/// Sorts n <= Block * Items keys (and values). Every pass: count the digits, rank, and
/// write each key (and value) at its rank in shared memory; then read the tile back
/// warp-striped, now in this digit's order. Slots past n hold a key whose digit is the highest
/// in every pass: being last in input order, stable ranking keeps them last.
template <key_kind Kind, class U, class V, int Block, int Items>
__global__ void __launch_bounds__(Block, 1)
small_sort_kernel(const U* keys_in, U* keys_out, const V* values_in, V* values_out,
                  bool index_values, int n, sort_options opts, int begin, int end, int passes) {
  using ranker = count_then_rank<Block, Items>;
  constexpr int tile = Block * Items;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto& s = *reinterpret_cast<small_sort_storage<U, V, Block, Items>*>(smem_raw);
  const int first = (threadIdx.x >> 5) * 32 * Items + (threadIdx.x & 31);
  // --- Phase 1: load, padded with the highest digit ---
  // Keys are held as their sortable bits (digit_of::sortable; the flip is every pass's), so
  // that a digit is a shift and a mask; the padding is all ones, the highest digit of every pass.
  const auto bits = make_digit<Kind, U>(opts, begin, end, 0);
  U key[Items];
  [[maybe_unused]] std::conditional_t<has_values<V>, V, char> value[Items];
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = first + j * 32;
    key[j] = i < n ? bits.sortable(keys_in[i]) : static_cast<U>(~U{0});
    if constexpr (has_values<V>) value[j] = i >= n ? V{} : index_values ? index_value<V>(i) : values_in[i];
  }
  // --- Phase 2: per pass, count, rank, and reorder the tile through shared memory ---
  if (threadIdx.x < max_passes) s.constant_digit[threadIdx.x] = 0;
  for (int p = 0; p < passes; ++p) {
    const auto pass_digit = make_digit<Kind, U>(opts, begin, end, p);
    const auto dig = [&](U o) { return pass_digit.of_sortable(o); };
    unsigned count = ranker::count(s.rank, key, dig);  // ends with a barrier
    // A digit that every real key has (the padding counted too): nothing moves.
    const unsigned pads = static_cast<unsigned>(tile - n);
    if (threadIdx.x < radix && count - (threadIdx.x == pass_digit.mask ? pads : 0u) == static_cast<unsigned>(n))
      s.constant_digit[p] = 1;
    ranker::offsets(s.rank, count);  // ends with a barrier
    if (s.constant_digit[p]) continue;
    ranker::rank(s.rank, key, dig, [&](int j, unsigned r) {
      s.keys[r] = key[j];
      if constexpr (has_values<V>) s.values[r] = value[j];
    });
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      key[j] = s.keys[first + j * 32];
      if constexpr (has_values<V>) value[j] = s.values[first + j * 32];
    }
    __syncthreads();  // the next pass writes its ranking storage and the tile after this
  }
  // --- Phase 3: store the real keys ---
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = first + j * 32;
    if (i < n) {
      keys_out[i] = bits.raw(key[j]);
      if constexpr (has_values<V>) values_out[i] = value[j];
    }
  }
}

}  // namespace scankit::cuda::detail::radix
