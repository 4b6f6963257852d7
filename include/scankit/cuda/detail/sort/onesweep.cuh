// onesweep (Adinets and Merrill, 2022): one kernel per 8-bit digit that ranks a tile, finds
// the tile's global offset per digit by decoupled look-back over earlier tiles, and scatters
// through shared memory. Host driver: run_onesweep_tile in detail/sort/launch.cuh.
#pragma once

#include "scankit/cuda/detail/sort/ranking.cuh"
#include "scankit/cuda/detail/sort/tuning.cuh"
#include "scankit/cuda/detail/sort/common.cuh"

namespace scankit::cuda::detail::radix {

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
/// in order, so a walk of k tiles costs about k/4 round trips.
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

/// onesweep_kernel's shared memory (dynamic: with values it can pass the static 48 KiB).
/// Staged late, the ranking storage, the keys and the values take turns in one union; staged
/// early, keys and values are written while the ranking storage is still in use, so each has
/// its own place.
template <class U, class V, int Block, int Items, bool StageEarly>
struct onesweep_storage {
  using value_slot = std::conditional_t<has_values<V>, V, U>;
  /// Whether the scatter addresses its stores from per-digit output bases (below) rather than
  /// per-digit 64-bit offsets. Not for values wider than the keys: 4-byte keys with 8-byte
  /// values at 512 x 14 spill 24 bytes with them.
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
  // (a 64-bit offset takes four integer instructions per key).
  U* key_out[out_bases ? radix : 1];
  value_slot* value_out[out_bases && has_values<V> ? radix : 1];
  unsigned char digit[has_values<V> && !StageEarly ? tile : 1];
};

/// onesweep_kernel's scatter when staged late (after the look-back). wide: the pass writes
/// narrow_index positions as int64 (the last pass of an int64 argsort; block-uniform); with
/// skip_keys it writes only them.
template <int Block, int Items, class S, class U, class V, class W, class Dig>
__device__ __forceinline__ void scatter_late(S& s, const U (&key)[Items], const unsigned (&rank)[Items],
                                             const W (&value)[Items], Dig dig, U* dst, V* dst_values, int first,
                                             int tile_n, bool wide, bool skip_keys) {
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
      if (!skip_keys) dst[s.offset[d] + i] = k;
    }
  }
  if constexpr (has_values<V>) {
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j)
      if (first + j * 32 < tile_n) s.u.values[rank[j]] = value[j];
    __syncthreads();
    const auto store_values = [&](auto widened) {
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const int i = static_cast<int>(threadIdx.x) + j * Block;
        if (i < tile_n) {
          if constexpr (decltype(widened)::value) store_wide_index(dst_values, s.offset[s.digit[i]] + i, s.u.values[i]);
          else dst_values[s.offset[s.digit[i]] + i] = s.u.values[i];
        }
      }
    };
    if constexpr (widens<V>) {
      if (wide) return store_values(std::true_type{});
    }
    store_values(std::false_type{});
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

/// The segments of a segmented pass (one launch sorts many independent runs by one digit):
/// each segment's tiles take consecutive tile slots, and the look-back of a tile stops at its
/// segment's first tile, which publishes its counts as an inclusive prefix. Device arrays, per
/// segment unless noted; built by scankit/dist/detail/nccl/bucket_sort.cuh and
/// detail/segmented_sort/radix_long.cuh.
struct segment_table {
  const int* tile_segment;          // per tile slot: its segment
  const std::int64_t* first_tile;   // the segment's first tile slot
  const std::int64_t* begin;        // the segment's keys in the pass's source buffer: [begin, end)
  const std::int64_t* end;
  const unsigned long long* base;   // segment x digit: where the digit's first key goes in dst
  void* const* key_dst;             // where the segment's keys (and values) go
  void* const* value_dst;
  /// The tile slots in use, where only the device knows them (null: one per block). The grid
  /// then covers the most there can be, and blocks past the count return at once: they take no
  /// slot, and the launch's `next_tiles` equals its grid, so each block clears only the slot of
  /// its own index, and every slot in use is cleared.
  const std::int64_t* total_tiles = nullptr;
};

/// One digit pass over one portion [portion_begin, portion_end) of the keys.
///   state:     portion tiles x 256 look-back words and the tile counter, zeroed.
///   next:      the next launch's words: its tile counter and next_tiles tiles zeroed here
///              (next_tiles < 0: the host clears them instead; see run_onesweep_tile).
///   base_in:   per digit, where the digit's keys of this portion start in the output.
///   base_out:  written by the portion's last tile: base_in + the portion's count per digit.
/// The last tile is padded with keys of the pass's highest digit: they rank after every real
/// key (they come last, and the ranking is stable), so they land past the tile's real keys
/// and are never stored; only their count is taken off that digit's.
/// StageEarly: the keys (and values, loaded with the keys) are written to shared memory at
/// their ranks as they are ranked, before the look-back; the scatter then reads them back in
/// order. No register holds a key, a value or a rank across the look-back, which lowers the
/// kernel's register peak.
/// Segmented: the launch sorts the segments of `segments` (portion_begin, portion_end, base_in
/// and base_out unused), each from its begin in the source buffer to its own destination.
template <key_kind Kind, class U, class V, int Block, int Items, int MinBlocks, bool StageEarly, bool Segmented>
__global__ void __launch_bounds__(Block, MinBlocks)
onesweep_kernel(const plan* pl, int pass, buffers<U, V> buf, std::int64_t portion_begin,
                std::int64_t portion_end, digit_of<Kind, U> dig, lookback_words words,
                lookback_words next, std::int64_t next_tiles, const unsigned long long* base_in,
                unsigned long long* base_out, segment_table segments) {
  using ranker = count_then_rank<Block, Items>;
  constexpr int tile = Block * Items;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  using storage = onesweep_storage<U, V, Block, Items, StageEarly>;
  constexpr bool out_bases = storage::out_bases;  // stores addressed from per-digit bases
  auto& s = *reinterpret_cast<storage*>(smem_raw);
  __shared__ unsigned tile_slot;
  wait_for_previous_grid();
  if constexpr (Segmented) {
    if (segments.total_tiles && blockIdx.x >= *segments.total_tiles) return;
  }
  allow_next_grid();
  // --- Phase 0: clear the next launch's look-back words, take a tile ---
  // The previous launch used `next` and has finished: clear it for the next one (a skipped
  // pass too: the launch after it expects zeroed words).
  if (next_tiles >= 0 && blockIdx.x == 0 && threadIdx.x < lookback_header_words) next.header[threadIdx.x] = 0;
  for (std::int64_t t = blockIdx.x; t < next_tiles; t += gridDim.x)
    for (int d = threadIdx.x; d < radix; d += Block) next.tiles[t * radix + d] = 0;
  unsigned* const state = words.tiles;
  unsigned* const tile_counter = words.header;
  if (!pl->active[pass]) return;
  const int from = pl->src[pass], to = pl->dst[pass];
  const U* src = pick(buf.keys, from);
  // (Taken here, ahead of the tile counter: taken after it, ptxas spills 132 bytes at 512 x 22.)
  U* const dst = pick(buf.keys, to);
  // Tiles are handed out in launch order (not blockIdx), so every tile a block waits for
  // in the look-back belongs to a block that is already running.
  if (threadIdx.x == 0) tile_slot = atomicAdd(tile_counter, 1u);
  __syncthreads();
  // slot: the tile's look-back words; tile_id: its place in its portion or segment.
  const std::int64_t slot = tile_slot;
  [[maybe_unused]] int segment = 0;
  std::int64_t tile_id = slot;
  if constexpr (Segmented) {
    segment = segments.tile_segment[slot];
    tile_id = slot - segments.first_tile[segment];
    portion_begin = segments.begin[segment];
    portion_end = segments.end[segment];
    base_in = segments.base + static_cast<std::int64_t>(segment) * radix;
  }
  // A segment's destinations, read from its table where used (held in registers across the
  // kernel, they make ptxas spill).
  const auto keys_dst = [&]() -> U* {
    if constexpr (Segmented) return static_cast<U*>(segments.key_dst[segment]);
    else return dst;
  };
  [[maybe_unused]] const auto values_dst = [&]() -> V* {
    if constexpr (Segmented) return static_cast<V*>(segments.value_dst[segment]);
    else return pick(buf.values, to);
  };
  const std::int64_t tile_begin = portion_begin + tile_id * tile;
  const int tile_n = static_cast<int>(portion_end - tile_begin < tile ? portion_end - tile_begin : tile);
  const std::int64_t tiles = ceil_div(portion_end - portion_begin, tile);
  const int lane = threadIdx.x & 31, first = (threadIdx.x >> 5) * 32 * Items + lane;

  // Float and int8 keys staged early are held (in registers, in shared memory, and in the buffers
  // between passes) as their sortable bits: ordered, and complemented for a descending sort.
  // The digit is then a shift and a mask; the first active pass transforms the keys it reads
  // (raw_in) and the last one transforms back what it writes (raw_out), so a middle pass is a
  // plain unsigned pass. The transform runs after the count (the count takes each raw key's
  // digit): transformed right at the load, ptxas spills 84 bytes at 512 x 22 and 3 blocks per
  // SM. Integer keys stay raw: for them holding sortable bits makes ptxas spill.
  // The flags are read from the plan where they are used (L1 hits): kept in registers across
  // the count, they make ptxas spill 16 bytes at 512 x 22 and 3 blocks per SM.
  // int8 keys with values stay raw, as other integer keys: on their tiles, 256 x 16 and
  // 512 x 24, ptxas fits them without spills, and the pass skips the transforms.
  constexpr bool hold_sortable =
      StageEarly && (Kind == key_kind::floating || (Kind == key_kind::signed_int && sizeof(U) == 1 && !has_values<V>));
  const auto raw_in = [&] { return !hold_sortable || pl->src[pass] == 0; };  // the caller's keys
  const auto raw_out = [&] { return !hold_sortable || pl->raw_out[pass] != 0; };
  // narrow_index positions: the last active pass, when it writes the caller's output (not the
  // alternate buffer of an in-place sort's final copy), writes them as int64. Read from the
  // plan where used, as the flags above.
  const auto wide_out = [&] { return widens<V> && pl->raw_out[pass] != 0 && pl->final_copy == 0; };
  // That pass stores no keys where the caller discards them (argsort_without_keys): it saves a
  // write of every key.
  const auto skip_keys = [&] { return widens<V> && buf.discard_keys && wide_out(); };

  // --- Phase 1: load the tile (padded past the end) ---
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

  // --- Phase 2: count the digits, publish the tile's aggregate, rank ---
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
    store_relaxed_u32(state + slot * radix + threadIdx.x, (tile_id == 0 ? status_prefix : status_aggregate) | count);
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

  // --- Phase 3: decoupled look-back per digit ---
  // Thread d walks back over earlier tiles' words for digit d, adding aggregates until it
  // meets an inclusive prefix, and publishes its own inclusive prefix.
  if (threadIdx.x < radix) {
    const int d = threadIdx.x;
    unsigned exclusive = 0;
    if (tile_id != 0) {
      exclusive = onesweep_lookback(state, slot, d);
      store_relaxed_u32(state + slot * radix + d, status_prefix | (exclusive + count));
    }
    const unsigned long long start = base_in[d] + exclusive;
    // At least 0: no tile holds more keys below digit d than the whole input does.
    const long long out_offset = static_cast<long long>(start) - s.u.rank.digit_start[d];
    if constexpr (out_bases) {
      s.key_out[d] = keys_dst() + out_offset;
      if constexpr (widens<V>) {
        // An int64 base for the wide pass, kept in the same slot (the store reads it back as
        // int64).
        s.value_out[d] = wide_out() ? reinterpret_cast<V*>(reinterpret_cast<std::uint64_t*>(buf.values[1]) + out_offset)
                                    : pick(buf.values, to) + out_offset;
      } else if constexpr (has_values<V>) {
        s.value_out[d] = values_dst() + out_offset;
      }
    } else {
      s.offset[d] = out_offset;
    }
    if (!Segmented && tile_id == tiles - 1) base_out[d] = start + count;
  }
  __syncthreads();  // the ranking storage is read for the last time above

  // --- Phase 4: scatter, each digit's run of the tile to its output position ---
  if constexpr (StageEarly) {
    // The tile is already in digit order in shared memory: each key (and value) to its
    // digit's output base plus its position, read in order so that runs of a digit are
    // coalesced. A full tile skips the bounds test (a branch per key).
    [[maybe_unused]] V* dst_values = nullptr;  // (with 64-bit offsets)
    if constexpr (has_values<V> && !out_bases) dst_values = values_dst();
    // narrow_index positions: stored as int64 where wide_out. Both widths store at one byte
    // address, the position scaled by 4 or 8, under a predicate each (a copy of the loop per
    // width spills at 384 x 28 as well; see sort_tuning::narrow_positions_from).
    [[maybe_unused]] const bool wide = wide_out();
    const bool keys_out = !skip_keys();
    [[maybe_unused]] const unsigned value_shift = wide ? 3 : 2;
    [[maybe_unused]] const auto store_value = [&](auto* base, auto at, auto v) {
      char* const p = reinterpret_cast<char*>(base) + (static_cast<std::int64_t>(at) << value_shift);
      if (wide) *reinterpret_cast<std::uint64_t*>(p) = static_cast<std::uint32_t>(v);
      else *reinterpret_cast<decltype(v)*>(p) = v;
    };
    const auto store_tile = [&](auto stored_bits, auto full) {
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const int i = static_cast<int>(threadIdx.x) + j * Block;
        if (decltype(full)::value || i < tile_n) {
          const U k = s.keys[i];
          const unsigned d = key_digit(k);
          if constexpr (out_bases) {
            if (keys_out) s.key_out[d][i] = stored_bits(k);
            if constexpr (widens<V>) {
              store_value(s.value_out[d], static_cast<unsigned>(i), s.values[i]);
            } else if constexpr (has_values<V>) {
              s.value_out[d][i] = s.values[i];
            }
          } else {
            const long long at = s.offset[d] + i;
            if (keys_out) keys_dst()[at] = stored_bits(k);
            if constexpr (widens<V>) {
              store_value(dst_values, at, s.values[i]);
            } else if constexpr (has_values<V>) {
              dst_values[at] = s.values[i];
            }
          }
        }
      }
    };
    // Separate copies of the loop rather than a select per key: with the select ptxas spills.
    const auto store = [&](auto stored_bits) {
      // (Not for the shapes without output bases: 4-byte keys with 8-byte values at 512 x 14
      // spill 8 bytes with this second copy of the loop.)
      if (out_bases && tile_n == tile) store_tile(stored_bits, std::true_type{});
      else store_tile(stored_bits, std::false_type{});
    };
    if (hold_sortable && raw_out()) store([&](U k) { return dig.raw(k); });
    else store([](U k) { return k; });
  } else {
    V* dst_values = nullptr;
    if constexpr (has_values<V>) dst_values = values_dst();
    scatter_late<Block, Items>(s, key, rank, value, dig, keys_dst(), dst_values, first, tile_n, wide_out(),
                               skip_keys());
  }
}

/// onesweep_kernel at one shape, and its dynamic shared memory.
template <key_kind Kind, class U, class V, onesweep_shape S, bool Segmented = false>
inline constexpr auto onesweep_kernel_for =
    onesweep_kernel<Kind, U, V, S.block, S.items, S.min_blocks, S.stage_early, Segmented>;
template <class U, class V, onesweep_shape S>
inline constexpr std::size_t onesweep_smem_bytes = sizeof(onesweep_storage<U, V, S.block, S.items, S.stage_early>);

}  // namespace scankit::cuda::detail::radix
