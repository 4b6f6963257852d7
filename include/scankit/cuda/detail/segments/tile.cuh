// The segments kernels' tiles (docs/ALGORITHMS.md, "Segments"): what a call describes, which
// items and segment ends tile t holds, the shared-memory layout of its items, the copies into it
// and the marks of the segments' heads and ends. The look-back engine (kernels.cuh) and the
// two-pass reduction (reduce_tiles.cuh) are built from these parts.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "scankit/cuda/detail/block/tile_scan.cuh"
#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/segments/tuning.hpp"

namespace scankit::cuda::detail::segments {

/// Where the segment heads come from.
enum class head_source : int { bounds, flags, keys };

/// What the tile engine writes.
enum class sink : int {
  items,     // every item's scan value (segmented scans)
  segments,  // one value per segment end (segmented reductions)
  runs,      // each run's key and value, and the number of runs (reduce_by_key)
};

/// The heads of one call.
struct heads_desc {
  head_source source = head_source::flags;
  const std::int64_t* begin = nullptr;  // bounds
  const std::int64_t* end = nullptr;
  std::int64_t segments = 0;
  const std::int64_t* partition = nullptr;  // tiles + 1 counts of segment ends before each tile
  const std::uint8_t* flags = nullptr;      // flags
  const void* keys = nullptr;               // keys, compared by their bits
  int key_bytes = 4;
};

/// Everything a tile-engine launch reads and writes, but the operator and the tree.
template <class T>
struct tile_args {
  const T* in = nullptr;
  std::int64_t n = 0;
  heads_desc h{};
  T* out = nullptr;        // items: n values; segments: one per segment; runs: the aggregates
  bool exclusive = false;  // items
  T init{};                // items: combined before each segment's first item
  T empty_value{};         // segments: the result of an empty segment
  void* unique_keys = nullptr;          // runs
  std::int64_t* num_runs = nullptr;     // runs
};

// ---------------------------------------------------------------------------------------------
// The tile's shared memory.

/// D items in rows of Row, unpadded; the 16-byte vector j of row r sits at position
/// j ^ (r mod vectors per row), so that a warp writing consecutive vectors and a warp reading
/// one vector of 32 consecutive rows each hit distinct banks. Then the bitmaps of the segments'
/// heads and of their last items, and for reduce_by_key each head word's count of heads
/// before it (each bitmap with one spare word: bit D reads as zero).
template <class T, int Row>
struct tile_layout {
  static constexpr int D = block_threads * Row;
  static constexpr int V = tile::vector_items<T>();
  static constexpr int row_vectors = Row / V;
  static_assert(Row % V == 0 && (row_vectors & (row_vectors - 1)) == 0, "rows hold a power of two of vectors");
  static constexpr int words = D / 32 + 1;
  static constexpr std::size_t heads_offset = (std::size_t{D} * sizeof(T) + 15) / 16 * 16;
  static constexpr std::size_t ends_offset = heads_offset + words * sizeof(unsigned);
  static constexpr std::size_t ranks_offset = ends_offset + words * sizeof(unsigned);
  static constexpr std::size_t bytes(bool ranks) { return ranks_offset + (ranks ? words * sizeof(int) : 0); }
  __device__ static int slot(int i) {
    const int r = i / Row, j = (i % Row) / V;
    return r * Row + (j ^ (r & (row_vectors - 1))) * V + i % V;
  }
};

/// Work items of one tile: a tile of items by bounds may start up to V - 1 slots into its
/// memory (where its first vector begins), so it takes V fewer than it holds; tiles by flags
/// or keys start at multiples of D.
template <class T>
constexpr std::int64_t tile_work_for(int row_items, bool bounds) {
  return std::int64_t{block_threads} * row_items - (bounds ? tile::vector_items<T>() : 0);
}

/// The V items of the 16-byte vector at p (one item where T does not tile 16 bytes), and back.
template <class T, int V>
__device__ __forceinline__ void load_vector(const T* p, T (&x)[V]) {
  if constexpr (V > 1) {
    const uint4 w = *reinterpret_cast<const uint4*>(p);
    memcpy(x, &w, sizeof(x));
  } else {
    x[0] = *p;
  }
}
template <class T, int V>
__device__ __forceinline__ void store_vector(T* p, const T (&x)[V]) {
  if constexpr (V > 1) {
    uint4 w;
    memcpy(&w, x, sizeof(x));
    *reinterpret_cast<uint4*>(p) = w;
  } else {
    *p = x[0];
  }
}

/// A 16-byte copy from global to shared memory (cp.async where the hardware has it).
__device__ __forceinline__ void copy16_to_shared(void* dst, const void* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const auto s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(src) : "memory");
#else
  *static_cast<uint4*>(dst) = __ldg(static_cast<const uint4*>(src));
#endif
}

__device__ __forceinline__ std::uint64_t key_at(const heads_desc& h, std::int64_t i) {
  return h.key_bytes == 4 ? static_cast<std::uint64_t>(static_cast<const std::uint32_t*>(h.keys)[i])
                          : static_cast<const std::uint64_t*>(h.keys)[i];
}

__device__ __forceinline__ void wait_shared_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
#endif
}

/// Streaming (evict-first) stores where the type has them, plain ones otherwise.
template <class T>
__device__ __forceinline__ void store_once(T* p, const T& v) {
  if constexpr (std::is_arithmetic_v<T>) __stcs(p, v);
  else *p = v;
}

__device__ __forceinline__ bool head_bit(const unsigned* heads, int i) { return (heads[i >> 5] >> (i & 31)) & 1u; }

/// A warp shuffle up by one lane of a flag byte or key.
template <class E>
__device__ __forceinline__ E shfl_up_one(E x) {
  using W = std::conditional_t<sizeof(E) == 8, unsigned long long, unsigned>;
  return static_cast<E>(__shfl_up_sync(0xffffffffu, static_cast<W>(x), 1));
}

/// Marks the heads of items [b0, b0 + valid) given by flags (E = std::uint8_t: a non-zero byte)
/// or by keys (E = the key bits: a key that differs from its predecessor), item 0 always, in
/// the bitmap `heads` of a tile of D items. Lane l of a warp reads a 16-byte vector of K items,
/// the 32 lanes a run of 32 K consecutive items; a key's predecessor is the previous lane's last
/// key, and 32 / K neighbouring lanes OR their bits into one bitmap word. Inputs that are not
/// 16-byte aligned are read item by item, with one ballot per 32 items.
template <class E, int D>
__device__ __forceinline__ void mark_heads(const E* src, bool flags, std::int64_t b0, int valid, unsigned* heads) {
  constexpr int K = static_cast<int>(16 / sizeof(E));
  const int tid = threadIdx.x, lane = tid & 31;
  const bool aligned = reinterpret_cast<std::uintptr_t>(src + b0) % 16 == 0;
  if constexpr (D % (block_threads * K) == 0) {
    if (aligned) {
      constexpr int lanes_per_word = 32 / K;
#pragma unroll 4
      for (int v = 0; v < D / (block_threads * K); ++v) {
        const int j0 = (v * block_threads + tid) * K;
        const std::int64_t i0 = b0 + j0;
        E e[K];
        if (j0 + K <= valid) {
          const uint4 w = __ldg(reinterpret_cast<const uint4*>(src + i0));
          memcpy(e, &w, 16);
        } else {
#pragma unroll
          for (int q = 0; q < K; ++q) e[q] = j0 + q < valid ? src[i0 + q] : E{};
        }
        E before = shfl_up_one(e[K - 1]);
        if (lane == 0 && i0 > 0 && j0 < valid) before = src[i0 - 1];
        unsigned bits = 0;
#pragma unroll
        for (int q = 0; q < K; ++q) {
          const bool head = j0 + q < valid && (i0 + q == 0 || (flags ? e[q] != E{} : e[q] != (q == 0 ? before : e[q - 1])));
          bits |= static_cast<unsigned>(head) << q;
        }
        bits <<= j0 & 31;
#pragma unroll
        for (int m = 1; m < lanes_per_word; m <<= 1) bits |= __shfl_xor_sync(0xffffffffu, bits, m);
        if (lane % lanes_per_word == 0) heads[j0 >> 5] = bits;
      }
      return;
    }
  }
  const int warp = tid >> 5;
#pragma unroll 8
  for (int k = 0; k < D / block_threads; ++k) {
    const int j = k * block_threads + tid;  // a warp's 32 items are consecutive: one ballot, one word
    const std::int64_t i = b0 + j;
    const E x = j < valid ? src[i] : E{};
    E before = shfl_up_one(x);
    if (lane == 0 && j < valid && i > 0) before = src[i - 1];
    const bool head = j < valid && (i == 0 || (flags ? x != E{} : x != before));
    const unsigned word = __ballot_sync(0xffffffffu, head);
    if (lane == 0) heads[k * (block_threads / 32) + warp] = word;
  }
}

/// The head bits of a thread's row of Row (at most 64) items starting at `row`, a multiple of Row.
template <int Row>
__device__ __forceinline__ std::uint64_t row_bits(const unsigned* heads, int row) {
  static_assert(Row <= 64 && (Row >= 32 ? Row % 32 == 0 : 32 % Row == 0), "rows tile the bitmap's words");
  if constexpr (Row > 32) {
    return heads[row >> 5] | (static_cast<std::uint64_t>(heads[(row >> 5) + 1]) << 32);
  } else if constexpr (Row == 32) {
    return heads[row >> 5];
  } else {
    return (heads[row >> 5] >> (row & 31)) & ((1u << Row) - 1u);
  }
}

/// The fold of a row's items after its last head (the head's item restarts it), over the row's
/// slots [lo, hi) of the tile starting at slot `row`; `row_heads` marks items only. A row
/// without heads whose slots all hold items folds without any test.
template <class Layout, int Row, class T, class Op>
__device__ __forceinline__ T fold_row_tail(const T* items, int row, std::uint64_t row_heads, int lo, int hi, Op op) {
  constexpr int V = Layout::V;
  T acc = op.identity();
  if (row_heads == 0 && lo <= 0 && hi >= Row) {
#pragma unroll
    for (int c = 0; c < Row; c += V) {
      T x[V];
      load_vector(items + Layout::slot(row + c), x);
#pragma unroll
      for (int q = 0; q < V; ++q) acc = op(acc, x[q]);
    }
  } else {
    const int from = row_heads ? 63 - __clzll(static_cast<long long>(row_heads)) : lo;
#pragma unroll
    for (int c = 0; c < Row; c += V) {
      if (c + V <= from || c >= hi) continue;
      T x[V];
      load_vector(items + Layout::slot(row + c), x);
#pragma unroll
      for (int q = 0; q < V; ++q)
        if (c + q >= from && c + q < hi) acc = row_heads && c + q == from ? x[q] : op(acc, x[q]);
    }
  }
  return acc;
}

/// Rescans a row's items (slots [lo, hi) of the row from slot `row`) in place from `running`,
/// a vector at a time: each item steps the state (restarting at a head) and is replaced by
/// out(state before it, state after it, head). Returns the state after the row.
template <class Layout, int Row, class T, class S, class SOp, class Out>
__device__ __forceinline__ S rescan_row(T* items, int row, std::uint64_t row_heads, int lo, int hi, S running, SOp sop,
                                       Out out) {
  constexpr int V = Layout::V;
#pragma unroll
  for (int c = 0; c < Row; c += V) {
    if (c + V <= lo || c >= hi) continue;
    T* p = items + Layout::slot(row + c);
    T x[V];
    load_vector(p, x);
#pragma unroll
    for (int q = 0; q < V; ++q) {
      if (c + q < lo || c + q >= hi) continue;
      const bool head = (row_heads >> (c + q)) & 1u;
      const S before = running;
      running = sop.step(running, x[q], head);
      x[q] = out(before, running, head);
    }
    store_vector(p, x);
  }
  return running;
}

// ---------------------------------------------------------------------------------------------
// Which items a tile holds, and their copy.

/// Tile t's items [b0, b0 + valid), held from slot `off` (the items' offset in their first
/// 16-byte vector where they are copied as vectors, else 0), and, for bounds, the segment ends
/// before it and before its end [a0, a1).
struct tile_span {
  std::int64_t a0 = 0, a1 = 0, b0 = 0;
  std::int64_t base = 0;  // the global index of slot 0
  int valid = 0, off = 0;
  bool vectors = false;
};

template <class T>
__device__ __forceinline__ tile_span span_of(const tile_args<T>& a, std::int64_t t, std::int64_t work) {
  const heads_desc& h = a.h;
  const bool by_bounds = h.source == head_source::bounds;
  tile_span sp;
  const std::int64_t total = a.n + (by_bounds ? h.segments : 0);
  const std::int64_t d0 = t * work, d1 = d0 + work < total ? d0 + work : total;
  sp.a0 = by_bounds ? h.partition[t] : 0, sp.a1 = by_bounds ? h.partition[t + 1] : 0;
  sp.b0 = d0 - sp.a0 < a.n ? d0 - sp.a0 : a.n;
  std::int64_t count = d1 - sp.a1 - sp.b0;  // clamped, so that invalid bounds cannot reach past the tile
  count = count < 0 ? 0 : (count > work ? work : (count > a.n - sp.b0 ? a.n - sp.b0 : count));
  sp.valid = static_cast<int>(count);
  // Tiles by flags or keys hold D items from a multiple of D: vectors need an aligned input.
  constexpr int V = tile::vector_items<T>();
  const auto in = reinterpret_cast<std::uintptr_t>(a.in);
  sp.vectors = V > 1 && in % sizeof(T) == 0 && (by_bounds || in % 16 == 0);
  sp.off = sp.vectors ? static_cast<int>(reinterpret_cast<std::uintptr_t>(a.in + sp.b0) % 16 / sizeof(T)) : 0;
  sp.base = sp.b0 - sp.off;
  return sp;
}

/// Copies the tile's items to shared memory (cp.async: wait_shared_copies() before reading).
/// Vectors are read where they lie, so the first and last may hold items of the neighbouring
/// tiles, which no phase reads.
template <class Layout, class T, class Op>
__device__ __forceinline__ void copy_items(const tile_args<T>& a, const tile_span& sp, T* items, const Op& op) {
  constexpr int V = Layout::V;
  if (sp.vectors) {
    const int nvec = (sp.off + sp.valid + V - 1) / V;
    for (int v = threadIdx.x; v < nvec; v += block_threads) {
      const std::int64_t g = sp.base + std::int64_t{v} * V;
      if (g >= 0 && g + V <= a.n) {
        copy16_to_shared(items + Layout::slot(v * V), a.in + g);
      } else {  // the vector reaches past either end of the input: the items inside it only
        for (int q = 0; q < V; ++q)
          items[Layout::slot(v * V + q)] = g + q >= 0 && g + q < a.n ? a.in[g + q] : op.identity();
      }
    }
  } else {
    for (int j = threadIdx.x; j < sp.valid; j += block_threads) items[Layout::slot(j)] = a.in[sp.b0 + j];
  }
}

/// Marks, in slots, the first item of every non-empty segment that begins among the tile's
/// items (such a segment ends there or later: s in [a0, a1]) and, where `ends` is given, the
/// last item of every one that ends among them (s in [a0, a1)). Clears both bitmaps first;
/// every thread of the block calls it.
template <int Words>
__device__ __forceinline__ void mark_bounds(const heads_desc& h, const tile_span& sp, unsigned* heads, unsigned* ends) {
  for (int w = threadIdx.x; w < Words; w += block_threads) {
    heads[w] = 0;
    if (ends) ends[w] = 0;
  }
  __syncthreads();
  const std::int64_t last = sp.a1 < h.segments - 1 ? sp.a1 : h.segments - 1;
  for (std::int64_t s = sp.a0 + threadIdx.x; s <= last; s += block_threads) {
    const std::int64_t bg = h.begin[s], e = h.end[s];
    if (bg >= e) continue;
    if (bg >= sp.b0 && bg < sp.b0 + sp.valid) {
      const int i = static_cast<int>(bg - sp.base);
      atomicOr(&heads[i >> 5], 1u << (i & 31));
    }
    if (ends && s < sp.a1 && e - 1 >= sp.b0 && e - 1 < sp.b0 + sp.valid) {
      const int i = static_cast<int>(e - 1 - sp.base);
      atomicOr(&ends[i >> 5], 1u << (i & 31));
    }
  }
}

}  // namespace scankit::cuda::detail::segments
