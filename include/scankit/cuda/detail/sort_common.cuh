// Building blocks of the CUDA radix sorts: key digits, value blobs, the plan that skips
// constant digits on the device, the all-digits histogram, and the block-wide stable ranking
// of a tile of keys by one 8-bit digit (warp multisplit with ballots).
#pragma once

#include <cstdint>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/sort_traits.hpp"

namespace scankit::cuda::detail::radix {

inline constexpr int digit_bits = 8;
inline constexpr int radix = 1 << digit_bits;
inline constexpr int max_passes = 8;  // 64-bit keys

/// Values move as opaque blobs of 4, 8 or 16 bytes (16: two 8-byte words, so any
/// 8-byte-aligned 16-byte type works).
struct no_value {};
struct alignas(8) blob16 {
  std::uint64_t lo, hi;
};
template <std::size_t Bytes>
struct blob_of;
template <> struct blob_of<4> { using type = std::uint32_t; };
template <> struct blob_of<8> { using type = std::uint64_t; };
template <> struct blob_of<16> { using type = blob16; };

template <class V>
inline constexpr bool has_values = !std::is_same_v<V, no_value>;

/// The digit of one pass: bits [shift, shift + width) of the ordered, possibly complemented,
/// key bits. Build it with make() (or make_digit), which fills in flip_digit.
template <key_kind Kind, class U>
struct digit_of {
  U flip;  // all ones for a descending sort
  int shift;
  unsigned mask;
  /// Integer keys: the ordering and the complement are both an xor with a constant (the sign
  /// bit, all ones), so they can be applied to the digit instead of the key: a shift and one
  /// three-input logic op (and, then xor) instead of an xor, a shift and an and. The ranking
  /// kernels take a key's digit three times per pass, and an H100 onesweep pass is bound by
  /// its integer pipe (session 12, Nsight Compute: ALU 75% busy).
  unsigned flip_digit;
  __host__ __device__ static digit_of make(U flip, int shift, unsigned mask) {
    const U all_flips = static_cast<U>(ordered_bits<Kind, U>::to(U{0}) ^ flip);
    return {flip, shift, mask, static_cast<unsigned>(all_flips >> shift) & mask};
  }
  __host__ __device__ __forceinline__ unsigned operator()(U raw) const {
    if constexpr (Kind == key_kind::floating) {
      return of_sortable(sortable(raw));
    } else {
      return (static_cast<unsigned>(raw >> shift) & mask) ^ flip_digit;
    }
  }
  /// A key's sortable bits: ordered, and complemented for a descending sort (kernels that hold
  /// keys this way transform each key once instead of at every digit), and back.
  __host__ __device__ __forceinline__ U sortable(U raw) const {
    return static_cast<U>(ordered_bits<Kind, U>::to(raw) ^ flip);
  }
  __host__ __device__ __forceinline__ U raw(U sortable_bits) const {
    return ordered_bits<Kind, U>::from(static_cast<U>(sortable_bits ^ flip));
  }
  /// The digit of sortable bits: a shift and a mask.
  __host__ __device__ __forceinline__ unsigned of_sortable(U o) const { return static_cast<unsigned>(o >> shift) & mask; }
};

template <key_kind Kind, class U>
__host__ __device__ inline digit_of<Kind, U> make_digit(const sort_options& o, int begin, int end, int pass) {
  const int shift = begin + pass * digit_bits;
  const int width = end - shift < digit_bits ? end - shift : digit_bits;
  return digit_of<Kind, U>::make(o.descending ? static_cast<U>(~U{0}) : U{0}, shift, (1u << width) - 1u);
}

/// Where each digit pass reads and writes, decided on the device once the histograms are
/// known (so no host round trip): buffer 0 = the caller's input, 1 = the caller's output,
/// 2 = the workspace's alternate buffer. Inactive passes (a digit that is the same in every
/// key) launch but return at once. The pass sequence is arranged to end in buffer 1; only an
/// in-place sort (input == output) with an odd number of active passes needs a final copy.
/// Kernels that hold keys as their sortable bits (onesweep with float keys) also leave them
/// that way between passes, so that a middle pass is a plain unsigned pass: only the first
/// active pass reads raw keys (the one whose src is still buffer 0: no pass writes there) and
/// only the last one writes raw keys (raw_out).
struct plan {
  int active[max_passes];
  int src[max_passes];
  int dst[max_passes];
  int raw_out[max_passes];  // no later pass is active: the pass writes raw keys
  int final_copy;  // copy buffer 2 -> 1 at the end
};

__host__ __device__ inline void make_plan(plan& p, const bool* active, int passes, bool in_place) {
  int k = 0;
  for (int i = 0; i < passes; ++i) k += active[i] ? 1 : 0;
  int last = passes - 1;
  // No digit varies: sort by the last digit anyway (a stable no-op) so the keys still move
  // from the input to the output.
  const bool none = k == 0;
  if (none) k = 1;
  // The destination of the j-th active pass (0-based): alternate 1 and 2 so that the k-th
  // lands in 1. With input == output the first pass must not write into its own source.
  int first_dst = (k % 2 == 1) ? 1 : 2;
  p.final_copy = 0;
  if (in_place && first_dst == 1) {
    first_dst = 2;
    p.final_copy = 1;
  }
  int cur = 0, next = first_dst, j = 0;
  for (int i = 0; i < passes; ++i) {
    const bool a = none ? i == last : active[i];
    p.active[i] = a ? 1 : 0;
    p.src[i] = cur;
    p.dst[i] = next;
    if (a) {
      cur = next;
      next = (cur == 1) ? 2 : 1;
      ++j;
    }
    p.raw_out[i] = j == k ? 1 : 0;
  }
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

/// One block of at least 256 threads (thread d < 256 for digit d; the others only take part
/// in the barriers): turns the histograms into each digit's start (exclusive scan, in place)
/// for every pass, and the plan (a pass is skipped when one digit holds all n keys). The
/// histograms were added up by other blocks' atomics: read from L2 (__ldcg).
__device__ __forceinline__ void plan_block(unsigned long long* hist, std::int64_t n, int passes, bool in_place,
                                           plan* out) {
  __shared__ bool active[max_passes];
  __shared__ unsigned long long warp_tot[radix / 32];
  const int d = threadIdx.x, lane = d & 31, w = d >> 5;
  const bool digit_thread = d < radix;  // warp-uniform
  for (int p = 0; p < passes; ++p) {
    const unsigned long long c = digit_thread ? __ldcg(hist + p * radix + d) : 0;
    if (d == 0) active[p] = true;
    __syncthreads();
    unsigned long long incl = 0;
    if (digit_thread) {
      if (c == static_cast<unsigned long long>(n)) active[p] = false;
      incl = warp_inclusive_scan(c, [](auto a, auto b) { return a + b; });
      if (lane == 31) warp_tot[w] = incl;
    }
    __syncthreads();
    if (digit_thread) {
      unsigned long long off = 0;
      for (int v = 0; v < w; ++v) off += warp_tot[v];
      hist[p * radix + d] = off + incl - c;
    }
    __syncthreads();
  }
  if (d == 0) make_plan(*out, active, passes, in_place);
}

/// The all-digits histogram's block and its shared counters: `Parts` copies of every digit's
/// counter, interleaved (digit d, copy c at word d * parts + c), lane l counting into copy
/// l % parts. With one copy, the 32 lanes of a warp adding to random digits meet in the same
/// shared-memory bank several times per atomic, and each meeting replays it; the copies keep
/// them apart. 64 KiB of counters, 512 threads, 3 blocks per SM. H100, 2^28 uint32 keys:
/// 0.533 ms with one copy, 0.397 ms with 16 (90% of a read at copy speed); uint64: 0.527 ->
/// 0.484 ms with 8 (tools/experiments/session10_histogram.cu, docs/results/session10-round3.log).
template <int Parts>
struct histogram_shape {
  static constexpr int block = 512;
  static constexpr int parts = Parts;
  static std::size_t smem(int passes_used) { return sizeof(unsigned) * passes_used * radix * parts; }
};
/// 64 KiB of counters for every key width.
template <class U>
inline constexpr int histogram_parts_default = sizeof(U) <= 2 ? 32 : 16384 / static_cast<int>(sizeof(U) * radix);

/// The copies for a histogram followed by a kernel that takes `per_sm` bytes of shared memory
/// per SM: halved (down to 4) while its 3 blocks per SM take more than that + 32 KiB. The
/// first pass is a programmatic dependent of the histogram and starts on SMs set up for the
/// histogram's shared memory, leaving it less L1 than it would get alone. Float keys (passes
/// of 2 x 63 KiB per SM) sorted 0.27 ms slower at 2^28 after 3 x 64 KiB histograms than after
/// 8 x 8 KiB ones, and regained it with 3 x 32 KiB (session10-round7/8); 8-byte keys (2 x 83
/// KiB) lost nothing next to 64 KiB and 0.06 ms with 32 KiB, hence the 32 KiB of slack.
template <class U>
constexpr int histogram_parts_within(std::size_t per_sm) {
  int parts = histogram_parts_default<U>;
  while (parts > 4 && 3 * sizeof(unsigned) * sizeof(U) * radix * static_cast<std::size_t>(parts) > per_sm + (32u << 10))
    parts /= 2;
  return parts;
}

/// All digit histograms of every key in one read: hist[pass][digit] (64-bit counts). Each
/// block counts a contiguous slice in shared memory first (32-bit; slices stay below 2^31;
/// replicated counters: histogram_shape) and adds it to hist; the last block to finish
/// (blocks_done, zeroed, counts them) then makes the plan, which saves the launch of a kernel
/// of its own.
template <key_kind Kind, class U, int Parts>
__global__ void __launch_bounds__(histogram_shape<Parts>::block) histogram_kernel(
    const U* keys, std::int64_t n, int passes, sort_options opts, int begin, int end, unsigned long long* hist,
    unsigned* blocks_done, bool in_place, plan* out) {
  using shape = histogram_shape<Parts>;
  constexpr int parts = shape::parts, block = shape::block;
  extern __shared__ unsigned counts[];  // [pass][digit][part]
  __shared__ bool last_block;
  wait_for_previous_grid();
  allow_next_grid();
  for (int i = threadIdx.x; i < passes * radix * parts; i += block) counts[i] = 0;
  __syncthreads();
  digit_of<Kind, U> dig[max_passes];
#pragma unroll
  for (int p = 0; p < max_passes; ++p)
    if (p < passes) dig[p] = make_digit<Kind, U>(opts, begin, end, p);
  const int part = threadIdx.x % parts;
  auto count = [&](U k) {
    const U o = dig[0].sortable(k);  // once per key: the flip is every pass's
#pragma unroll
    for (int p = 0; p < max_passes; ++p)
      if (p < passes) atomicAdd(&counts[(p * radix + dig[p].of_sortable(o)) * parts + part], 1u);
  };
  // Each block counts one contiguous slice, a multiple of a 16-byte vector long, read two
  // vectors per thread and step (enough loads in flight to keep DRAM busy).
  constexpr int per_vec = 16 / sizeof(U);
  const std::int64_t per_block = ceil_div(ceil_div(n, gridDim.x), 2 * per_vec) * 2 * per_vec;
  const std::int64_t b = per_block * blockIdx.x;
  const std::int64_t e = b + per_block < n ? b + per_block : n;
  std::int64_t tail = b;
  if (reinterpret_cast<std::uintptr_t>(keys) % 16 == 0 && e > b) {
    const std::int64_t vec_end = b + (e - b) / (2 * per_vec) * (2 * per_vec);
    for (std::int64_t v = b + threadIdx.x * 2 * per_vec; v < vec_end; v += std::int64_t{block} * 2 * per_vec) {
      // Streaming loads (evict first): the keys are not read again soon, and with 192 KiB of
      // counters per SM little is left for L1.
      const uint4 q0 = __ldcs(reinterpret_cast<const uint4*>(keys + v));
      const uint4 q1 = __ldcs(reinterpret_cast<const uint4*>(keys + v + per_vec));
      U k[2 * per_vec];
      memcpy(k, &q0, 16);
      memcpy(k + per_vec, &q1, 16);
#pragma unroll
      for (int x = 0; x < 2 * per_vec; ++x) count(k[x]);
    }
    tail = vec_end;
  }
  for (std::int64_t i = tail + threadIdx.x; i < e; i += block) count(keys[i]);
  __syncthreads();
  for (int i = threadIdx.x; i < passes * radix; i += block) {
    unsigned c = 0;
#pragma unroll
    for (int q = 0; q < parts; ++q) c += counts[i * parts + (q + i) % parts];  // rotated: no bank conflicts
    if (c) atomicAdd(hist + i, static_cast<unsigned long long>(c));
  }
  // Last block out makes the plan: every block's additions are visible to it (each block
  // fences them before it counts itself done, and the last one fences again before reading).
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last_block = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  plan_block(hist, n, passes, in_place, out);
}

/// Block-wide stable ranking of a tile by one digit. The tile is held warp-striped: item j of
/// lane l of warp w is the tile's element w*32*Items + j*32 + l, so processing each warp's
/// items in j order, lanes in order, and warps in order is the input order (stability).
///   1. Per warp, per item: the lanes holding the same digit find each other with 8 ballots
///      (one per digit bit; measured faster on the H100 than match.any); the lowest of them
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

/// Tuning: items per thread by the widest element moved (the shared staging buffer holds one
/// tile of keys or of values; 32 KiB keeps a block's shared memory under the static 48 KiB).
template <class U, class V>
constexpr int items_for() {
  constexpr std::size_t vb = has_values<V> ? sizeof(V) : 0;
  constexpr std::size_t w = sizeof(U) > vb ? sizeof(U) : vb;
  return w <= 8 ? 16 : 8;
}

}  // namespace scankit::cuda::detail::radix
