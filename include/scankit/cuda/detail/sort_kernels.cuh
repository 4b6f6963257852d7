// The kernels of the three CUDA radix sorts (host drivers: sort.cuh).
//
//   onesweep             histogram_kernel once (its last block makes the plan), then per 8-bit digit one
//                        onesweep_kernel: rank a tile, decoupled look-back per digit for the
//                        tile's global offsets, scatter through shared memory.
//   lsd-reduce-then-scan per digit: upsweep_kernel (tile digit counts, digit-major), the
//                        library's scan over the counts (the spine), downsweep_kernel (rank,
//                        scatter at the scanned offsets).
//   split-1bit           per bit: split_flags_kernel (1 where the bit is 0), the library's
//                        scan, split_kernel (zeros to their scanned slot, ones after all zeros).
//   small_sort_kernel    n <= one tile: one block sorts everything in shared memory.
#pragma once

#include "scankit/cuda/detail/sort_common.cuh"

namespace scankit::cuda::detail::radix {

/// The three buffers a pass may read or write (0 input, 1 output, 2 alternate; see plan).
/// Buffer 0 is only ever read. A null values[0] with index_values means "the values are the
/// input positions" (argsort).
template <class U, class V>
struct buffers {
  U* keys[3];
  V* values[3];
  bool index_values;
};

/// buffers[i] for a runtime i without indexing the array (an indexed kernel parameter is
/// copied to the stack first).
template <class P>
__device__ __forceinline__ P pick(P const (&p)[3], int i) {
  return i == 0 ? p[0] : i == 1 ? p[1] : p[2];
}

template <class U>
struct key_buffers {
  U* keys[3];
};

template <class V>
__device__ __forceinline__ V index_value(std::int64_t i) {
  V v{};
  if constexpr (sizeof(V) == 8) memcpy(&v, &i, 8);
  return v;
}

/// A tile's keys (and values) through shared memory: loads warp-striped, scatters each key
/// to out[offset of its digit + its position in the tile], reading the staged tile in order
/// so that runs of equal digits become runs of consecutive addresses (coalesced stores).
template <key_kind Kind, class U, class V, int Items>
struct tile_sort {
  static constexpr int block = 256;
  static constexpr int tile = block * Items;
  using ranker = block_rank<block, Items>;
  union staging {
    U keys[tile];
    std::conditional_t<has_values<V>, V, U> values[tile];
  };
  struct storage {
    typename ranker::storage rank;
    staging buf;
    long long offset[radix];  // global position of the digit's first key minus its tile start
    unsigned char digit[has_values<V> ? tile : 1];
  };

  __device__ __forceinline__ static int local_index(int j) {
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    return w * 32 * Items + j * 32 + lane;
  }

  __device__ __forceinline__ static void load(const U* src, std::int64_t tile_begin, int tile_n,
                                              U (&key)[Items], bool (&valid)[Items]) {
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int li = local_index(j);
      valid[j] = li < tile_n;
      key[j] = valid[j] ? src[tile_begin + li] : U{0};
    }
  }

  /// Needs s.offset filled (and a barrier since).
  __device__ __forceinline__ static void scatter(storage& s, const U (&key)[Items],
                                                 const unsigned (&rank)[Items], const bool (&valid)[Items],
                                                 int tile_n, digit_of<Kind, U> dig, U* dst_keys,
                                                 const V* src_values, bool index_values,
                                                 std::int64_t tile_begin, V* dst_values) {
#pragma unroll
    for (int j = 0; j < Items; ++j)
      if (valid[j]) s.buf.keys[rank[j]] = key[j];
    __syncthreads();
    for (int i = threadIdx.x; i < tile_n; i += block) {
      const U k = s.buf.keys[i];
      const unsigned d = dig(k);
      if constexpr (has_values<V>) s.digit[i] = static_cast<unsigned char>(d);
      dst_keys[s.offset[d] + i] = k;
    }
    if constexpr (has_values<V>) {
      __syncthreads();
#pragma unroll
      for (int j = 0; j < Items; ++j)
        if (valid[j]) {
          const std::int64_t gi = tile_begin + local_index(j);
          s.buf.values[rank[j]] = index_values ? index_value<V>(gi) : src_values[gi];
        }
      __syncthreads();
      for (int i = threadIdx.x; i < tile_n; i += block)
        dst_values[s.offset[s.digit[i]] + i] = s.buf.values[i];
    }
  }
};

// ---------------------------------------------------------------------------------------
// onesweep

/// Look-back words: bits 31..30 the status, bits 29..0 a digit count (so a portion of the
/// input sorted by one launch stays below 2^30 keys).
inline constexpr unsigned status_aggregate = 1u << 30;
inline constexpr unsigned status_prefix = 2u << 30;
inline constexpr unsigned count_mask = (1u << 30) - 1;

__device__ __forceinline__ unsigned load_relaxed_u32(const unsigned* p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed_u32(unsigned* p, unsigned v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/// Thread d's look-back for digit d: the sum of the counts of digit d in the tiles before
/// `tile`, walking back to the nearest tile that published an inclusive prefix. The words of
/// 4 predecessors are loaded at once (independent loads in flight together) and then consumed
/// in order, so a walk of k tiles costs about k/4 round trips. (H100, 2026-11-21: 2^28 uint32
/// keys 9.25 -> 8.76 ms against one word per round trip, with early counts;
/// docs/results/tune-sort-session4.log.)
__device__ __forceinline__ unsigned onesweep_lookback(const unsigned* state, std::int64_t tile, int d) {
  constexpr int W = 4;
  unsigned exclusive = 0;
  for (std::int64_t t = tile - 1;; t -= W) {
    unsigned v[W];
#pragma unroll
    for (int k = 0; k < W; ++k)  // tile 0 always publishes a prefix, so t - k < 0 is never used
      v[k] = t - k >= 0 ? load_relaxed_u32(state + (t - k) * radix + d) : status_prefix;
#pragma unroll
    for (int k = 0; k < W; ++k) {
      while ((v[k] >> 30) == 0) {
        __nanosleep(32);
        v[k] = load_relaxed_u32(state + (t - k) * radix + d);
      }
      exclusive += v[k] & count_mask;
      if ((v[k] & ~count_mask) == status_prefix) return exclusive;
    }
  }
}

/// onesweep's tile: threads per block and keys per thread, by key and value size (printed by
/// `scankit bench sort`). Separate from the other kernels' tile_sort: onesweep keeps
/// only keys and ranks live across its barriers (digits are recomputed, the last tile is
/// padded instead of carrying valid flags), which makes room for a bigger tile. A tile stays
/// resident for about the same time whatever its size (it is mostly fixed latency), so keys
/// resident per SM set the speed: CUB's 384 x 19 tile at 56 registers kept 1.8x more than
/// our earlier 256 x 16 at 80 (docs/notes/onesweep-gap.md).
struct onesweep_shape {
  int block;
  int items;
  int min_blocks;  // per SM: the register budget ptxas must meet (without it, it may take more)
  bool stage_early = false;  // keys (and values) go to shared memory as they are ranked, so
                             // no register holds them across the look-back (onesweep_kernel)
  constexpr int tile() const { return block * items; }
};
/// value_bytes 0: keys only. Session 8 (tools/experiments/session8_onesweep.cu, H100, results/
/// session8-round{8,9,10}.log): staging the keys in shared memory as they are ranked (stage_early)
/// frees the registers that held keys and ranks across the look-back, which allows bigger tiles;
/// bigger tiles (fewer look-backs per key) are what paid, not more keys per SM by themselves
/// (384 x 19 at 4 blocks per SM: 1.036x CUB at 2^28, no better than 3). uint32 keys against CUB:
/// 384 x 19 staged late (before) 1.04x at 2^28, 1.06x at 2^30; 512 x 22 staged early at 3 blocks
/// per SM 1.148x / 1.163x (1.29x at 2^22, 1.06x at 2^20). uint64 keys: 384 x 12 late 0.98x;
/// 512 x 16 early at 2 blocks per SM 1.087x (1.166x at 2^24). uint32 pairs: 384 x 16 late 0.925x;
/// 384 x 28 early 1.041x (512 x 20 early 1.015x). Pairs with 8- or 16-byte keys or values kept
/// the late staging (not measured early; sessions 9-21 moved most of them to early tiles). Float
/// keys alone: their order transform, recomputed with every digit, made ptxas spill 84-144
/// bytes under the early shapes' budgets (float and double 0.88-0.89x CUB,
/// results/session8-round12.log), so they kept session 7's late tiles until
/// session 9, which holds float keys as sortable bits in the early tile (transformed once at
/// the load and once at the store): no spills at 512 x 22 at 2 blocks per SM (3 still spilled)
/// or 512 x 16 for doubles. Float and int8 keys with values kept the late 384 x 16 (early, ptxas
/// spilled 60-144 bytes). Session 11: the sortable bits stay in the buffers between passes
/// (only the first active pass transforms, only the last transforms back), the transform runs
/// after the count, and the flags are read where used: float and int8 keys, with or without
/// values, take the integer keys' shapes without spills. (int8 keys alone over all 8 bits are
/// counted instead: run_counting_fill.)
constexpr onesweep_shape onesweep_shape_for(std::size_t key_bytes, std::size_t value_bytes, key_kind kind) {
  (void)kind;  // session 11: float and int8 keys take the integer shapes (sortable bits held)
  // 16-byte values: below onesweep_large_shape_for's sizes (and, for one-byte keys, from
  // onesweep_small_shape_for's bound).
  if (value_bytes >= 16) return {256, 8, 2};
  if (value_bytes == 0) {
    // Session 11: 512 x 18 (no spills; 512 x 16 spilled 4 bytes) 1.11x CUB at 2^28 against
    // 1.08x (uint64), 1.14x against 1.13x (double).
    if (key_bytes >= 8) return {512, 18, 2, true};
    return {512, 22, 3, true};
  }
  // Session 9: one 8-byte side and one 4-byte side staged early at 384 x 16 (ptxas: 80
  // registers, no spills, except int8 keys: 24 bytes); 8-byte keys with 8-byte values spilled
  // 32-40 bytes there and stay late.
  // Session 11 (results/session11-round2.log, 2^28): 4-byte keys with 8-byte values at 512 x 14
  // (7,168 keys, no spills) 1.00x CUB against 0.97x at 384 x 16; 4-byte pairs at 512 x 22
  // lost to 384 x 28 (1.02x against 1.04x).
  // Session 12: 512 x 13 (512 x 14 spilled 8 bytes once the scatter took per-digit bases):
  // 1.00x CUB at 2^28, as 512 x 14 was before (results/session12-round14.log).
  if (key_bytes == 4 && value_bytes == 8) return {512, 13, 2, true};
  // Session 12: 384 x 18 (ptxas fits it without spills for every 8-byte key kind once the
  // scatter took per-digit bases): 1.01x CUB at 2^27 against 0.97x at 384 x 16. Integer 4-byte
  // keys alone at 512 x 24 (3 blocks/SM, no spills) were 1.2% faster at 2^28 but 2.9% slower
  // at 2^30 (results/session12-round18.log), and stay at 512 x 22.
  if (key_bytes == 8 && value_bytes == 4) return {384, 18, 2, true};
  if (key_bytes >= 8 || value_bytes >= 8) return {384, 12, 2};
  // Session 20: one-byte keys with 4-byte values sort in one pass, over few tiles up to 2^19
  // (6 of 10,752 keys at 2^16), where 384 x 28 ran at 0.88-0.97x CUB from 2^14 to 2^18.
  // 256 x 16 at 3 blocks per SM: 1.04-1.16x there (tools/experiments/session8_onesweep.cu
  // s20b, docs/results/session20-round5.log; 256 x 8 1.06-1.20x, 256 x 4 lost from 2^18).
  // From 2^20 they take 512 x 24 (onesweep_large_shape_for).
  // Two-byte keys with 4-byte values likewise, below 2^21 (round 11, s20c in the same
  // experiment, docs/results/session20-round11.log): 1.24-1.35x CUB from 2^14 to 2^20 against
  // 0.98-1.20x at 384 x 28, which they keep from 2^21 (1.39-1.41x against 1.15x there).
  if (key_bytes <= 2 && value_bytes == 4) return {256, 16, 3, true};
  return {384, 28, 2, true};
}

/// Session 19: pairs at large n take a bigger tile at one block of 512 threads per SM, from
/// `from_items` keys (block 0: none; keys alone keep onesweep_shape_for).
/// Session 20 added 16-byte values (384 threads for 8-byte keys), one-byte keys with 4-byte
/// values (512 x 24 at two blocks per SM, onesweep_shape_for's tile below 2^20 being 256 x 16)
/// and two-byte keys with 4-byte values (384 x 28 from 2^21, 256 x 16 below). Session 21 added
/// 1- and 2-byte keys with 8- and 16-byte values (below).
/// tools/experiments/session8_onesweep.cu (docs/results/session19-round{2,3,4}.log, H100, one
/// process with CUB on the same input, every output checked): only two blocks per SM had been
/// tried staged early, and smaller tiles at three or four lost (4-byte pairs 0.73-0.88x CUB at
/// 2^28). One block per SM with a bigger tile won wherever there are enough tiles to fill the
/// SMs: fewer look-backs per key and longer runs of each digit in the scatter (a digit's run
/// in a tile of 20,480 keys is about 80 keys, 320 bytes, against 168 bytes at 10,752).
///   4-byte pairs, 512 x 40 (20,480 keys, 128 registers, 181 KiB of shared memory): 2^28 1.125x CUB against
///     1.018x (384 x 28 at 2/SM), 2^29 1.128x / 1.054x, 2^27 1.173x / 1.064x, 2^26 1.243x /
///     1.175x, 2^25 1.072x / 1.037x, 2^24 1.141x / 1.115x; but 2^23 1.019x / 1.075x and
///     0.86-0.92x / 1.16-1.23x at 2^16-2^18 (51 tiles or fewer on 132 SMs): from 2^24.
///     (640 x 32, 768 x 28 and 1024 x 20 came within 1-3%; 384 x 32 at 1/SM lost.)
///   4-byte keys, 8-byte values, 512 x 28 (14,336 keys): 2^28 1.138x against 0.978x (512 x 13
///     at 2/SM), 2^24 1.134x against 0.99-1.10x (640 x 20 1.195x there, 1.115x at 2^28).
///   8-byte keys, 4-byte values, 512 x 24 (12,288 keys): 2^28 1.127x against 1.007x (384 x 18
///     at 2/SM), 2^27 1.125x / 0.990x, 2^20-2^25 1.04-1.17x against 0.99-1.11x; 2^16-2^18
///     1.04-1.11x against 1.29-1.37x: from 2^20.
///   8-byte keys, 8-byte values, 512 x 20 early (10,240 keys; staged late before, 384 x 12):
///     2^27 1.137x against 0.955x, 2^24 1.242x against 1.12x.
/// Session 20: 16-byte values, which had kept session 8's 256 x 8 staged late (0.92-0.96x CUB
/// from 2^23 to 2^28 with 4-byte keys, docs/results/s20-sweep-u32-v16.csv). Round 3
/// (docs/results/session20-round3.log):
///   4-byte keys, 512 x 16 (8,192 keys, 128 registers, 179 KiB): 2^28 1.352x CUB against 0.936x,
///     2^24 1.457x / 0.949-1.085x, 2^22 1.407x / 1.106x (640 x 12 1.328-1.471x, 512 x 12
///     1.271-1.379x, 384 x 12 and 256 x 16 at two blocks per SM 1.20-1.35x).
///   8-byte keys, 384 x 16 (6,144 keys, 149 registers, 159 KiB): 2^27 1.329x against 1.029x,
///     2^24 1.476x / 1.162x (512 x 12 1.305x / 1.443x; 512 x 16 and 640 x 12 spilled 24 bytes).
struct onesweep_large_shape {
  onesweep_shape shape;
  std::int64_t from_items;
};
/// The library itself, the large tile always against never (round 7, CUB in the same process):
///   8-byte values from 2^22: 4-byte keys 1.06-1.08x against 0.99-1.02x at 2^22-2^23.5, 8-byte
///     keys 1.05-1.08x against 0.99-1.03x.
///   4-byte pairs stay below 2^24: 1.03x against 1.05-1.07x at 2^23-2^23.5.
///   1- and 2-byte keys with 4-byte values kept their tile (at 2^28 int8 1.05x against 1.07x,
///     uint16 1.11x against 1.16x, int16 1.12x against 1.15x): their passes are fewer and
///     lighter. (Session 20 gave one-byte keys with 4-byte values 512 x 24 at two blocks per
///     SM, from 2^20; session 21 gave 1- and 2-byte keys with 8- and 16-byte values the 4-byte
///     keys' one-block tiles.)
///   16-byte values (session 20, docs/results/session20-round4.log, 9 runs per size): 4-byte
///     keys from 2^19 (1.38-1.59x against 1.11-1.16x at 2^19-2^20, 1.10x / 1.26x at 2^18, under
///     1.0x below 2^17), 8-byte keys from 2^20 (1.29x / 1.23x at 2^20, 1.27x / 1.29x at 2^19).
constexpr onesweep_large_shape onesweep_large_shape_for(std::size_t key_bytes, std::size_t value_bytes) {
  constexpr std::int64_t m = std::int64_t{1} << 20;
  // One-byte keys with 4-byte values at 512 x 24 (64 registers, two blocks per SM; session 20,
  // s20 and s20b in docs/results/session20-round{3,5}.log): 1.103x CUB at 2^28, 1.112x at 2^24,
  // 1.04-1.25x at 2^20-2^22, against 1.091x / 1.081x / 1.08-1.26x at 384 x 28 (their tile
  // until then); 256 x 28 at 3 blocks per SM and 512-768 threads at one block per SM lost
  // (0.96-0.98x at 2^28), 384 x 36 and 256 x 36 spilled 324 bytes.
  if (key_bytes == 1 && value_bytes == 4) return {{512, 24, 2, true}, m};
  // Two-byte keys with 4-byte values: their tile before session 20 (384 x 28), from 2^21; 512 x 24
  // ran within -4% / +1.4% of it from 2^21 to 2^28 (round 11).
  if (key_bytes == 2 && value_bytes == 4) return {{384, 28, 2, true}, 2 * m};
  // Session 21 (tools/experiments/session21_onesweep.cu, docs/results/session21-round2.log): 1-
  // and 2-byte keys with 8- and 16-byte values, on session 8's late tiles until then, ran at
  // 0.87-0.94x CUB at 2^28 (uint8 + 8 B 0.92x, uint16 + 8 B 0.87x, uint16 + 16 B 0.92x). They
  // take the 4-byte keys' large tiles:
  //   8-byte values, 512 x 28 (128 registers, no spills): uint8 1.141x / 1.260x / 1.154x at
  //     2^28 / 2^25 / 2^22 against 0.917x / 0.983-1.056x / 1.118x, uint16 1.102x / 1.189x /
  //     1.143x against 0.871x / 0.910-0.985x / 1.086-1.113x; at 2^19 it lost (0.97x / 1.03x
  //     against 1.13x / 1.16x): from 2^22.
  //   16-byte values, 512 x 16 (128 registers, no spills): uint8 1.312x / 1.266x / 1.240x /
  //     1.100x at 2^28 / 2^25 / 2^22 / 2^19 against 1.04x / 0.93-1.06x / 1.04-1.12x / 1.00x,
  //     uint16 1.243x / 1.232x / 1.295x / 1.228x against 0.934x / 0.88-1.00x / 0.99-1.10x /
  //     1.15-1.16x; at 2^17 it lost (0.82x / 0.93x): from 2^19, as 4-byte keys.
  if (key_bytes <= 2 && value_bytes == 8) return {{512, 28, 1, true}, 4 * m};
  // (Every 1- and 2-byte key kind with 4- or 8-byte values has returned above.)
  if (value_bytes != 4 && value_bytes != 8 && value_bytes != 16) return {{0, 0, 0}, 0};
  if (value_bytes == 16)
    return key_bytes >= 8 ? onesweep_large_shape{{384, 16, 1, true}, m} : onesweep_large_shape{{512, 16, 1, true}, m / 2};
  if (key_bytes >= 8) return value_bytes == 4 ? onesweep_large_shape{{512, 24, 1, true}, m} : onesweep_large_shape{{512, 20, 1, true}, 4 * m};
  return value_bytes == 4 ? onesweep_large_shape{{512, 40, 1, true}, 16 * m} : onesweep_large_shape{{512, 28, 1, true}, 4 * m};
}

/// Session 21: a tile for inputs below `below_items` keys (block 0: none), ahead of
/// onesweep_shape_for's. One-byte keys sort in one pass, over few tiles at these sizes, where
/// smaller tiles at four blocks per SM keep more SMs busy:
///   8-byte values, 256 x 8 (64 registers, no spills): 1.045x / 1.022x CUB at 2^17 / 2^15
///     against 0.962x / 0.925x on 384 x 12 staged late, but 1.049x against 1.130x at 2^19
///     (docs/results/session21-round2.log): below 3 x 2^17.
///   16-byte values, 256 x 4 (60 registers, no spills): 1.19-1.21x / 1.06-1.07x / 1.04-1.05x at
///     2^14 / 2^15 / 2^16 against 1.10-1.13x / 1.01-1.03x / 1.00-1.01x on 256 x 8 staged late;
///     0.98x against 1.00x at 2^17, 0.91x against 0.98-1.00x at 2^18 (round 4): below 2^17.
///     (Nothing measured beat 256 x 8 at 2^17-2^18, where the library runs at 0.99-1.04x.)
/// Their tiles are few below the bounds, so the look-back state sized for them stays small
/// (extra_workspace_bytes).
struct onesweep_small_shape {
  onesweep_shape shape;
  std::int64_t below_items;
};
constexpr onesweep_small_shape onesweep_small_shape_for(std::size_t key_bytes, std::size_t value_bytes) {
  if (key_bytes == 1 && value_bytes == 8) return {{256, 8, 4, true}, std::int64_t{3} << 17};
  if (key_bytes == 1 && value_bytes == 16) return {{256, 4, 4, true}, std::int64_t{1} << 17};
  return {{0, 0, 0}, 0};
}

/// Where the large pairs tile starts: the shape's from_items, or SCANKIT_ONESWEEP_LARGE_FROM
/// (keys; for tests and tuning runs: 0 always, a huge value never).
inline std::int64_t onesweep_large_from(std::int64_t tuned) {
  static const std::optional<std::int64_t> from_env =
      env_integer("SCANKIT_ONESWEEP_LARGE_FROM", 0, std::numeric_limits<std::int64_t>::max());
  return from_env.value_or(tuned);
}

/// The smallest onesweep tile for these sizes over every key kind (sizes the look-back state).
constexpr std::int64_t onesweep_min_tile(std::size_t key_bytes, std::size_t value_bytes) {
  std::int64_t t = onesweep_shape_for(key_bytes, value_bytes, key_kind::unsigned_int).tile();
  for (key_kind k : {key_kind::signed_int, key_kind::floating}) {
    const std::int64_t u = onesweep_shape_for(key_bytes, value_bytes, k).tile();
    t = u < t ? u : t;
  }
  return t;
}

/// The workspace holds look-back state for onesweep_min_tile's tiles, so no large tile may be
/// smaller (it would have more tiles than the state has room for).
constexpr bool large_tiles_at_least_min_tile() {
  for (std::size_t kb : {1, 2, 4, 8})
    for (std::size_t vb : {0, 4, 8, 16}) {
      const onesweep_large_shape large = onesweep_large_shape_for(kb, vb);
      if (large.shape.block > 0 && large.shape.tile() < onesweep_min_tile(kb, vb)) return false;
    }
  return true;
}
static_assert(large_tiles_at_least_min_tile(), "a large onesweep tile is smaller than the workspace assumes");

/// The lanes of the warp whose digit equals this lane's, from one ballot per digit bit.
/// (__match_any_sync instead made the whole sort 1.46x slower on the H100: 2^28 uint32 9.35
/// against 6.42 ms; docs/results/session5-round4.log.) Written in PTX because the C++ form
/// (bit = (d >> b) & 1; vote = ballot(bit); peers &= bit ? vote : ~vote) compiled to a shift,
/// a compare, the vote, a select and a logic op per bit: Nsight Compute counted 487 M warp
/// instructions per pass against CUB's 331 M, the ballots being most of the difference
/// (docs/results/session7-round1.log). Here the bit test is a predicate set straight from the digit,
/// and the vote is inverted under that predicate before it narrows the mask.
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

/// onesweep_kernel's shared memory (dynamic: with values it can pass the static 48 KiB).
/// Staged late, the ranking storage, the keys and the values take turns in one union; staged
/// early, keys and values are written while the ranking storage is still in use, so each has
/// its own place.
template <class U, class V, int Block, int Items, bool StageEarly>
struct onesweep_storage {
  using value_slot = std::conditional_t<has_values<V>, V, U>;
  /// Whether the scatter addresses its stores from per-digit output bases (below) rather than
  /// per-digit 64-bit offsets. Not for values wider than the keys: 4-byte keys with 8-byte
  /// values at 512 x 14 then spilled 24 bytes (ptxas, session 12).
  static constexpr bool out_bases = StageEarly && !(has_values<V> && sizeof(V) > sizeof(U));
  static constexpr int tile = Block * Items;
  union {
    typename count_then_rank<Block, Items>::storage rank;  // until the offsets are taken
    U keys[StageEarly ? 1 : tile];                         // then the tile in digit order
    value_slot values[StageEarly ? 1 : tile];
  } u;
  U keys[StageEarly ? tile : 1];
  value_slot values[StageEarly && has_values<V> ? tile : 1];
  // Staged late: per digit, the global position of the digit's first key minus its tile start.
  long long offset[out_bases ? 1 : radix];
  // Staged early: per digit, that position as an address in the output keys (and values), so
  // that a key's store address is one multiply-add of its tile position onto a 64-bit base
  // (with a 64-bit offset it took four integer instructions per key).
  U* key_out[out_bases ? radix : 1];
  value_slot* value_out[out_bases && has_values<V> ? radix : 1];
  unsigned char digit[has_values<V> && !StageEarly ? tile : 1];
};

/// onesweep_kernel's scatter when staged late (after the look-back).
template <int Block, int Items, class S, class U, class V, class W, class Dig>
__device__ __forceinline__ void scatter_late(S& s, const U (&key)[Items], const unsigned (&rank)[Items],
                                             const W (&value)[Items], Dig dig, U* dst, const buffers<U, V>& buf,
                                             int to, int first, int tile_n) {
  // Scatter through shared memory: the tile in digit order, then each key to its digit's
  // offset plus its position, read in order so that runs of a digit are coalesced stores.
#pragma unroll
  for (int j = 0; j < Items; ++j) s.u.keys[rank[j]] = key[j];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = static_cast<int>(threadIdx.x) + j * Block;
    if (i < tile_n) {
      const U k = s.u.keys[i];
      const unsigned d = dig(k);
      if constexpr (has_values<V>) s.digit[i] = static_cast<unsigned char>(d);
      dst[s.offset[d] + i] = k;
    }
  }
  if constexpr (has_values<V>) {
    V* dst_values = pick(buf.values, to);
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j)
      if (first + j * 32 < tile_n) s.u.values[rank[j]] = value[j];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int i = static_cast<int>(threadIdx.x) + j * Block;
      if (i < tile_n) dst_values[s.offset[s.digit[i]] + i] = s.u.values[i];
    }
  }
}

/// Look-back words of one onesweep launch: a tile counter (padded to its own line), then 256
/// words per tile. Launches alternate between two such arrays: each launch zeroes the other
/// one for the next launch (so no memset runs between passes, and each launch can follow the
/// previous one as a programmatic dependent).
struct lookback_words {
  unsigned* header;  // [0] is the tile counter
  unsigned* tiles;   // tiles x radix words
};
inline constexpr int lookback_header_words = 32;

/// One digit pass over one portion [portion_begin, portion_end) of the keys.
///   state:     portion tiles x 256 look-back words and the tile counter, zeroed.
///   next:      the next launch's words: its tile counter and next_tiles tiles zeroed here
///              (next_tiles < 0: the host clears them instead; see run_onesweep_shape).
///   base_in:   per digit, where the digit's keys of this portion start in the output.
///   base_out:  written by the portion's last tile: base_in + the portion's count per digit.
/// The last tile is padded with keys of the pass's highest digit: they rank after every real
/// key (they come last, and the ranking is stable), so they land past the tile's real keys
/// and are never stored; only their count is taken off that digit's.
/// StageEarly: the keys (and values, loaded with the keys) are written to shared memory at
/// their ranks as they are ranked, before the look-back; the scatter then reads them back in
/// order. No register holds a key, a value or a rank across the look-back, which lowers the
/// kernel's register peak.
template <key_kind Kind, class U, class V, int Block, int Items, int MinBlocks, bool StageEarly>
__global__ void __launch_bounds__(Block, MinBlocks)
onesweep_kernel(const plan* pl, int pass, buffers<U, V> buf, std::int64_t portion_begin,
                std::int64_t portion_end, digit_of<Kind, U> dig, lookback_words words,
                lookback_words next, std::int64_t next_tiles, const unsigned long long* base_in,
                unsigned long long* base_out) {
  using ranker = count_then_rank<Block, Items>;
  constexpr int tile = Block * Items;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  using storage = onesweep_storage<U, V, Block, Items, StageEarly>;
  constexpr bool out_bases = storage::out_bases;  // stores addressed from per-digit bases
  auto& s = *reinterpret_cast<storage*>(smem_raw);
  __shared__ unsigned tile_slot;
  wait_for_previous_grid();
  allow_next_grid();
  // The previous launch used `next` and has finished: clear it for the next one (a skipped
  // pass too, since the launch after it expects zeroed words).
  if (next_tiles >= 0 && blockIdx.x == 0 && threadIdx.x < lookback_header_words) next.header[threadIdx.x] = 0;
  for (std::int64_t t = blockIdx.x; t < next_tiles; t += gridDim.x)
    for (int d = threadIdx.x; d < radix; d += Block) next.tiles[t * radix + d] = 0;
  unsigned* const state = words.tiles;
  unsigned* const tile_counter = words.header;
  if (!pl->active[pass]) return;
  const int from = pl->src[pass], to = pl->dst[pass];
  const U* src = pick(buf.keys, from);
  U* dst = pick(buf.keys, to);
  // Tiles are handed out in launch order (not blockIdx), so every tile a block waits for
  // in the look-back belongs to a block that is already running.
  if (threadIdx.x == 0) tile_slot = atomicAdd(tile_counter, 1u);
  __syncthreads();
  const std::int64_t tile_id = tile_slot;
  const std::int64_t tile_begin = portion_begin + tile_id * tile;
  const int tile_n = static_cast<int>(portion_end - tile_begin < tile ? portion_end - tile_begin : tile);
  const std::int64_t tiles = ceil_div(portion_end - portion_begin, tile);
  const int lane = threadIdx.x & 31, first = (threadIdx.x >> 5) * 32 * Items + lane;

  // Float and int8 keys staged early are held (in registers, in shared memory, and in the buffers
  // between passes) as their sortable bits: ordered, and complemented for a descending sort.
  // The digit is then a shift and a mask; the first active pass transforms the keys it reads
  // (raw_in) and the last one transforms back what it writes (raw_out), so a middle pass is a
  // plain unsigned pass. The transform runs after the count (the count takes each raw key's
  // digit): transformed right at the load, ptxas spilled 84 bytes at 512 x 22 and 3 blocks per
  // SM (session 11). Integer keys stay raw: for them holding sortable bits made ptxas spill.
  // The flags are read from the plan where they are used (L1 hits): kept in registers across
  // the count, they made ptxas spill 16 bytes at 512 x 22 and 3 blocks per SM.
  // int8 keys with values stay raw since session 20, as other integer keys: on their tiles,
  // 256 x 16 and 512 x 24, ptxas fits them without spills (69 and 64 registers), and the pass
  // skips the transforms: 1.09x -> 1.10-1.11x CUB at 2^28 (docs/results/session20-round10.log).
  constexpr bool hold_sortable =
      StageEarly && (Kind == key_kind::floating || (Kind == key_kind::signed_int && sizeof(U) == 1 && !has_values<V>));
  const auto raw_in = [&] { return !hold_sortable || pl->src[pass] == 0; };  // the caller's keys
  const auto raw_out = [&] { return !hold_sortable || pl->raw_out[pass] != 0; };

  // Load, warp-striped (each warp instruction reads 32 consecutive keys).
  U key[Items];
  if (tile_n == tile) {
#pragma unroll
    for (int j = 0; j < Items; ++j) key[j] = src[tile_begin + first + j * 32];
  } else {
    // Padding: a key of the pass's highest digit (all ones as sortable bits).
    const U pad = raw_in() ? ordered_bits<Kind, U>::from(static_cast<U>(~dig.flip)) : static_cast<U>(~U{0});
#pragma unroll
    for (int j = 0; j < Items; ++j) key[j] = first + j * 32 < tile_n ? src[tile_begin + first + j * 32] : pad;
  }
  const unsigned pad_digit = dig.mask, pads = static_cast<unsigned>(tile - tile_n);
  // Values, into registers (every load in flight at once): staged early, loaded with the keys
  // so that they are in flight during the count and the ranking; staged late, loaded after the
  // ranking so that their round trip overlaps the look-back.
  [[maybe_unused]] std::conditional_t<has_values<V>, V, char> value[Items];
  [[maybe_unused]] auto load_values = [&] {
    if constexpr (has_values<V>) {
      const V* src_values = pick(buf.values, from);
      const bool index_values = buf.index_values && from == 0;
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const int li = first + j * 32;
        value[j] = li >= tile_n ? V{} : index_values ? index_value<V>(tile_begin + li) : src_values[tile_begin + li];
      }
    }
  };
  if constexpr (StageEarly && has_values<V>) load_values();

  // Count and publish this tile's aggregate (tile 0's is already its inclusive prefix).
  const auto key_digit = [&](U k) { return hold_sortable ? dig.of_sortable(k) : dig(k); };
  unsigned count = ranker::count(s.u.rank, key, [&](U k) { return raw_in() ? dig(k) : key_digit(k); });
  if constexpr (hold_sortable) {
    if (raw_in()) {
#pragma unroll
      for (int j = 0; j < Items; ++j) key[j] = dig.sortable(key[j]);
    }
  }
  if (threadIdx.x == pad_digit) count -= pads;
  if (threadIdx.x < radix)
    store_relaxed_u32(state + tile_id * radix + threadIdx.x, (tile_id == 0 ? status_prefix : status_aggregate) | count);
  ranker::offsets(s.u.rank, count);
  [[maybe_unused]] unsigned rank[StageEarly ? 1 : Items];
  if constexpr (StageEarly) {
    ranker::rank(s.u.rank, key, key_digit, [&](int j, unsigned r) {
      s.keys[r] = key[j];
      if constexpr (has_values<V>) s.values[r] = value[j];
    });
  } else {
    ranker::rank(s.u.rank, key, dig, rank);
  }

  if constexpr (!StageEarly && has_values<V>) load_values();

  // Thread d walks back over earlier tiles' words for digit d, adding aggregates until it
  // meets an inclusive prefix, and publishes its own inclusive prefix.
  if (threadIdx.x < radix) {
    const int d = threadIdx.x;
    unsigned exclusive = 0;
    if (tile_id != 0) {
      exclusive = onesweep_lookback(state, tile_id, d);
      store_relaxed_u32(state + tile_id * radix + d, status_prefix | (exclusive + count));
    }
    const unsigned long long start = base_in[d] + exclusive;
    // At least 0: no tile holds more keys below digit d than the whole input does.
    const long long out_offset = static_cast<long long>(start) - s.u.rank.digit_start[d];
    if constexpr (out_bases) {
      s.key_out[d] = dst + out_offset;
      if constexpr (has_values<V>) s.value_out[d] = pick(buf.values, to) + out_offset;
    } else {
      s.offset[d] = out_offset;
    }
    if (tile_id == tiles - 1) base_out[d] = start + count;
  }
  __syncthreads();  // the ranking storage is read for the last time above

  if constexpr (StageEarly) {
    // The tile is already in digit order in shared memory: each key (and value) to its
    // digit's output base plus its position, read in order so that runs of a digit are
    // coalesced. A full tile skips the bounds test (a branch per key).
    [[maybe_unused]] V* dst_values = nullptr;  // (with 64-bit offsets)
    if constexpr (has_values<V> && !out_bases) dst_values = pick(buf.values, to);
    const auto store_tile = [&](auto stored_bits, auto full) {
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const int i = static_cast<int>(threadIdx.x) + j * Block;
        if (decltype(full)::value || i < tile_n) {
          const U k = s.keys[i];
          const unsigned d = key_digit(k);
          if constexpr (out_bases) {
            s.key_out[d][i] = stored_bits(k);
            if constexpr (has_values<V>) s.value_out[d][i] = s.values[i];
          } else {
            const long long at = s.offset[d] + i;
            dst[at] = stored_bits(k);
            if constexpr (has_values<V>) dst_values[at] = s.values[i];
          }
        }
      }
    };
    // Separate copies of the loop rather than a select per key: with the select ptxas spilled.
    const auto store = [&](auto stored_bits) {
      // (Not for the shapes without output bases: 4-byte keys with 8-byte values at 512 x 14
      // spilled 8 bytes with this second copy of the loop.)
      if (out_bases && tile_n == tile) store_tile(stored_bits, std::true_type{});
      else store_tile(stored_bits, std::false_type{});
    };
    if (hold_sortable && raw_out()) store([&](U k) { return dig.raw(k); });
    else store([](U k) { return k; });
  } else {
    scatter_late<Block, Items>(s, key, rank, value, dig, dst, buf, to, first, tile_n);
  }
}

/// onesweep_kernel at one shape, and its dynamic shared memory.
template <key_kind Kind, class U, class V, onesweep_shape S>
inline constexpr auto onesweep_kernel_for = onesweep_kernel<Kind, U, V, S.block, S.items, S.min_blocks, S.stage_early>;
template <class U, class V, onesweep_shape S>
inline constexpr std::size_t onesweep_smem_bytes = sizeof(onesweep_storage<U, V, S.block, S.items, S.stage_early>);

/// One-byte keys alone, sorted over their whole width: the histogram says everything (a
/// counting sort). After the plan, starts[d] is where the keys of digit d begin in the output,
/// and every key of digit d is the same key, so the output is each digit's key repeated: one
/// read of the keys (the histogram) and one write, instead of a ranking pass.
template <key_kind Kind, class U>
__global__ void __launch_bounds__(256) counting_fill_kernel(const unsigned long long* starts, U flip, U* out,
                                                            std::int64_t n) {
  static_assert(sizeof(U) == 1, "one-byte keys");
  __shared__ unsigned long long start[radix + 1];
  wait_for_previous_grid();
  for (int d = threadIdx.x; d < radix; d += blockDim.x) start[d] = starts[d];
  if (threadIdx.x == 0) start[radix] = static_cast<unsigned long long>(n);
  __syncthreads();
  const bool vector_out = reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x * 16;
  for (std::int64_t v = (std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x) * 16; v < n; v += stride) {
    // The digit of output slot v: the last digit starting at or before it (empty digits start
    // where the next one does, so they are passed over).
    int lo = 0, hi = radix - 1;
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (start[mid] <= static_cast<unsigned long long>(v)) lo = mid;
      else hi = mid - 1;
    }
    int d = lo;
    alignas(16) U keys[16];
#pragma unroll
    for (int j = 0; j < 16; ++j) {
      while (d < radix - 1 && start[d + 1] <= static_cast<unsigned long long>(v + j)) ++d;
      keys[j] = ordered_bits<Kind, U>::from(static_cast<U>(static_cast<U>(d) ^ flip));
    }
    if (vector_out && v + 16 <= n) {
      *reinterpret_cast<uint4*>(out + v) = *reinterpret_cast<const uint4*>(keys);
    } else {
      for (int j = 0; j < 16 && v + j < n; ++j) out[v + j] = keys[j];
    }
  }
}

/// In-place sorts with an odd number of active passes end in the alternate buffer.
template <class U, class V>
__global__ void final_copy_kernel(const plan* pl, buffers<U, V> buf, std::int64_t n) {
  wait_for_previous_grid();
  if (!pl->final_copy) return;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    buf.keys[1][i] = buf.keys[2][i];
    if constexpr (has_values<V>) buf.values[1][i] = buf.values[2][i];
  }
}

// ---------------------------------------------------------------------------------------
// lsd-reduce-then-scan

/// counts[d * tiles + t] = number of keys of tile t with digit d (digit-major, so that one
/// exclusive scan of the whole array gives every (digit, tile) its output offset).
template <key_kind Kind, class U, class C, int Items>
__global__ void __launch_bounds__(256)
upsweep_kernel(const plan* pl, int pass, key_buffers<U> keys3, std::int64_t n,
               digit_of<Kind, U> dig, C* counts, std::int64_t tiles) {
  if (!pl->active[pass]) return;
  const U* src = keys3.keys[pl->src[pass]];
  constexpr int tile = 256 * Items;
  __shared__ unsigned c[radix];
  for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    c[threadIdx.x] = 0;
    __syncthreads();
    const std::int64_t b = t * tile;
    const std::int64_t e = b + tile < n ? b + tile : n;
    for (std::int64_t i = b + threadIdx.x; i < e; i += 256) atomicAdd(&c[dig(src[i])], 1u);
    __syncthreads();
    counts[threadIdx.x * tiles + t] = static_cast<C>(c[threadIdx.x]);
    __syncthreads();
  }
}

template <key_kind Kind, class U, class V, class C, int Items>
__global__ void __launch_bounds__(256)
downsweep_kernel(const plan* pl, int pass, buffers<U, V> buf, std::int64_t n,
                 digit_of<Kind, U> dig, const C* offsets, std::int64_t tiles) {
  using ts = tile_sort<Kind, U, V, Items>;
  if (!pl->active[pass]) return;
  const U* src = buf.keys[pl->src[pass]];
  U* dst = buf.keys[pl->dst[pass]];
  __shared__ typename ts::storage s;
  for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::int64_t tile_begin = t * ts::tile;
    const int tile_n = static_cast<int>(n - tile_begin < ts::tile ? n - tile_begin : ts::tile);
    U key[Items];
    bool valid[Items];
    unsigned digit[Items], rank[Items];
    ts::load(src, tile_begin, tile_n, key, valid);
#pragma unroll
    for (int j = 0; j < Items; ++j) digit[j] = dig(key[j]);
    ts::ranker::rank(s.rank, digit, valid, rank);
    if (threadIdx.x < radix)
      s.offset[threadIdx.x] = static_cast<long long>(offsets[threadIdx.x * tiles + t]) - s.rank.digit_start[threadIdx.x];
    __syncthreads();
    ts::scatter(s, key, rank, valid, tile_n, dig, dst, buf.values[pl->src[pass]],
                buf.index_values && pl->src[pass] == 0, tile_begin, buf.values[pl->dst[pass]]);
    __syncthreads();
  }
}

// ---------------------------------------------------------------------------------------
// split-1bit

template <key_kind Kind, class U, class C>
__global__ void split_flags_kernel(const U* src, std::int64_t n, digit_of<Kind, U> bit, C* flags) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    flags[i] = static_cast<C>(1u - bit(src[i]));
}

/// zeros_before: the exclusive scan of the flags; zeros: their total.
template <key_kind Kind, class U, class V, class C>
__global__ void split_kernel(const U* src_k, U* dst_k, const V* src_v, V* dst_v, bool index_values,
                             std::int64_t n, digit_of<Kind, U> bit, const C* zeros_before, const C* zeros) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t z = static_cast<std::int64_t>(*zeros);
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    const U k = src_k[i];
    const std::int64_t zb = static_cast<std::int64_t>(zeros_before[i]);
    const std::int64_t pos = bit(k) ? z + (i - zb) : zb;
    dst_k[pos] = k;
    if constexpr (has_values<V>) dst_v[pos] = index_values ? index_value<V>(i) : src_v[i];
  }
}

// ---------------------------------------------------------------------------------------
// small inputs: one block, every pass in shared memory, one launch

/// The single-block sort's shapes. Each pass fills and scans a table of counters per warp and
/// digit, so fewer warps make a pass cheaper: in session 11 (tools/experiments/
/// session11_small_sort.cu, results/session11-round4.log) a pass over 4,096 uint32 keys took
/// 2.30 us with 1,024 threads x 4 keys, 1.82 with 512 x 8 and 1.81 with 256 x 16; over 2,048
/// uint64 keys 1.69 / 1.40 / 1.31 us (1,024 / 512 / 256 threads). So the host driver (run in
/// sort.cuh) takes 256 threads with the smallest of 1, 2, 4, 8 or small_items_max items per
/// thread that holds n, and only larger n take 512 or 1,024 threads (small_block, the most an
/// SM runs in one block) with small_items_max items.
inline constexpr int small_block = 1024;
inline constexpr int small_block_min = 256;  // count_then_rank needs a thread per digit
/// The largest items per thread: the keys and values of a tile must fit the registers of
/// 1024 threads (64 each) and the shared memory of one SM.
constexpr int small_items_max(std::size_t key_bytes, std::size_t value_bytes) {
  const std::size_t w = key_bytes > value_bytes ? key_bytes : value_bytes;
  if (value_bytes > 0) return w <= 8 ? 8 : 4;  // 16 keys and 16 values spilled (184 bytes)
  return w <= 4 ? 16 : 8;
}
template <class U, class V>
constexpr int small_items_max() {
  return small_items_max(sizeof(U), has_values<V> ? sizeof(V) : 0);
}
/// The largest n the single-block sort takes.
constexpr std::int64_t small_sort_limit(std::size_t key_bytes, std::size_t value_bytes) {
  return std::int64_t{small_block} * small_items_max(key_bytes, value_bytes);
}

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
    __syncthreads();  // before the next pass writes its ranking storage and the tile
  }
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = first + j * 32;
    if (i < n) {
      keys_out[i] = bits.raw(key[j]);
      if constexpr (has_values<V>) values_out[i] = value[j];
    }
  }
}

/// Values for a sort that does not move anything (n == 1, an empty bit range): copied, or
/// the positions for argsort.
template <class V>
__global__ void fill_index_kernel(V* out, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    out[i] = index_value<V>(i);
}

}  // namespace scankit::cuda::detail::radix
